// libaead against a direct EVP computation (support.h's oracle) on random inputs, both directions.
#include "catch_compat.h"
#include "support.h"

using test::Bytes;

TEST_CASE("random keys, nonces, AAD, sizes and tags agree with direct EVP", "[differential]") {
    int cases = 0;
    for (int i = 0; i < 1500; ++i) {
        const auto &a = test::kAllAlgs[test::random_below(4)];
        const bool gcm = a.alg != AEAD_CHACHA20_POLY1305;
        const size_t tags[] = {4, 8, 12, 13, 14, 15, 16};
        const size_t tag = gcm && test::random_below(3) == 0 ? tags[test::random_below(7)] : 16;
        const size_t nonce_len = gcm && test::random_below(2) == 0 ? 1 + test::random_below(128) : 12;
        const size_t sizes[] = {0, 1, 15, 16, 17, 63, 64, 65, 255, 1024, 4096, 16384, 70000};
        const size_t len = test::random_below(2) ? sizes[test::random_below(13)] : test::random_below(70001);
        const Bytes key = test::random_bytes(a.key), nonce = test::random_bytes(nonce_len),
                    aad = test::random_bytes(test::random_below(3) == 0 ? 0 : test::random_below(300)),
                    pt = test::random_bytes(len);
        INFO(a.name << " len " << len << " nonce " << nonce_len << " aad " << aad.size() << " tag " << tag);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key, tag);
        const Bytes expected = test::evp_seal(a.alg, key, nonce, aad, pt, tag);
        Bytes sealed(len + tag);
        REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == static_cast<int64_t>(len + tag));
        REQUIRE(sealed == expected);
        Bytes back(len);
        REQUIRE(test::open(ctx, nonce, aad, expected, back) == static_cast<int64_t>(len));
        REQUIRE(back == pt);
        Bytes bad = expected;
        bad[test::random_below(static_cast<uint32_t>(bad.size()))] ^= static_cast<uint8_t>(1 + test::random_below(255));
        REQUIRE(test::open(ctx, nonce, aad, bad, back) == AEAD_ERR_AUTH);
        REQUIRE(back == Bytes(len, 0));
        ++cases;
    }
    CHECK(cases == 1500);
}
