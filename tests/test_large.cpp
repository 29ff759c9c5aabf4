// Inputs above INT_MAX bytes: fed to OpenSSL in chunks, checked against the (also chunked) oracle.
#include <climits>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

TEST_CASE("a message of INT_MAX + 4097 bytes seals as direct EVP does and opens in place", "[large]") {
    for (const int alg : {AEAD_AES_128_GCM, AEAD_CHACHA20_POLY1305}) {
        INFO(test::evp_name(alg));
        const size_t len = size_t{INT_MAX} + 4097;
        const Bytes key = test::random_bytes(aead_key_size(alg)), nonce = test::random_bytes(12), aad(13, 1);
        Bytes buf(len + 16);
        for (size_t i = 0; i < len; i += 4096) buf[i] = static_cast<uint8_t>(i >> 12);
        const Bytes pt(buf.begin(), buf.begin() + static_cast<long>(len));
        const Bytes expected = test::evp_seal(alg, key, nonce, aad, pt);
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
        REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, aad.data(), 13, buf.data(), len, buf.data(),
                               buf.size()) == static_cast<int64_t>(len + 16));
        CHECK(buf == expected);
        REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, aad.data(), 13, buf.data(), buf.size(), buf.data(),
                               buf.size()) == static_cast<int64_t>(len));
        CHECK(std::equal(pt.begin(), pt.end(), buf.begin()));
        buf = expected;
        buf[len + 3] ^= 1;  // a tag byte
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, aad.data(), 13, buf.data(), buf.size(), buf.data(),
                             buf.size()) == AEAD_ERR_AUTH);
        CHECK(std::all_of(buf.begin(), buf.begin() + static_cast<long>(len), [](uint8_t b) { return b == 0; }));
    }
}
