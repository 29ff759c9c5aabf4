// Inputs above INT_MAX bytes: fed to OpenSSL in chunks, checked against the (also chunked) oracle.
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>

#ifdef AEAD_TEST_HAVE_SODIUM
#include <sodium.h>
#endif

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

// ---- the 1.2 families (aead.h, "Contexts and algorithms") ----
// Each case below keeps at most two buffers of about 2 GiB alive (the machine is shared) and reuses them.

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A plaintext no byte of which repeats at a short period: 64-bit words of a mixed counter, then the tail.
uint64_t pattern_word(uint64_t i) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15u;
    return x ^ (x >> 29);
}
void fill_pattern(uint8_t *p, size_t len) {
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        const uint64_t w = pattern_word(i / 8);
        std::memcpy(p + i, &w, 8);
    }
    const uint64_t w = pattern_word(i / 8);
    std::memcpy(p + i, &w, len - i);
}
bool pattern_ok(const uint8_t *p, size_t len) {
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        const uint64_t w = pattern_word(i / 8);
        if (std::memcmp(p + i, &w, 8) != 0) return false;
    }
    const uint64_t w = pattern_word(i / 8);
    return std::memcmp(p + i, &w, len - i) == 0;
}

// The independent computation of ciphertext || tag (len + 16 bytes at out) for a plaintext of len bytes.
using Oracle = std::function<void(const Bytes &key, const Bytes &nonce, const Bytes &aad, const uint8_t *pt,
                                  size_t len, uint8_t *out)>;

// Seals 2^31 + 17 bytes in place and compares with the oracle, opens that in place, then refuses a copy
// with one tag bit flipped (opened out of place, the output zeroed). Prints the seconds each step took.
void big_round_trip(int alg, const char *name, size_t nonce_len, const Oracle &oracle) {
    INFO(name);
    const size_t len = (size_t{1} << 31) + 17;  // above INT_MAX: libaead must chunk it
    const Bytes key = test::random_bytes(aead_key_size(alg)), nonce = test::random_bytes(nonce_len),
                aad = test::random_bytes(29);
    const auto t0 = Clock::now();
    Bytes a(len + 16), b(len + 16);
    fill_pattern(a.data(), len);
    const auto t1 = Clock::now();
    oracle(key, nonce, aad, a.data(), len, b.data());
    const double oracle_s = seconds_since(t1);
    test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
    const auto t2 = Clock::now();
    REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce_len, aad.data(), aad.size(), a.data(), len, a.data(),
                           a.size()) == static_cast<int64_t>(len + 16));
    const double seal_s = seconds_since(t2);
    CHECK(a == b);
    const auto t3 = Clock::now();
    REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce_len, aad.data(), aad.size(), a.data(), a.size(),
                           a.data(), a.size()) == static_cast<int64_t>(len));
    const double open_s = seconds_since(t3);
    CHECK(pattern_ok(a.data(), len));
    b[len + 9] ^= 0x10;  // a tag bit
    CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce_len, aad.data(), aad.size(), b.data(), b.size(), a.data(),
                         len) == AEAD_ERR_AUTH);
    CHECK(std::all_of(a.begin(), a.begin() + static_cast<long>(len), [](uint8_t x) { return x == 0; }));
    std::printf("large: %s, %zu bytes: oracle %.1f s, seal %.1f s, open %.1f s; whole case %.1f s\n", name, len,
                oracle_s, seal_s, open_s, seconds_since(t0));
}

// AES-OCB3 by a fresh EVP context on OpenSSL's "AES-<bits>-OCB", in chunks of its own size (not a multiple
// of the block, unlike libaead's), its output pointer advanced by what each update wrote.
void evp_ocb_seal(const Bytes &key, const Bytes &nonce, const Bytes &aad, const uint8_t *pt, size_t len,
                  uint8_t *out) {
    const std::string name = "AES-" + std::to_string(key.size() * 8) + "-OCB";
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, name.c_str(), nullptr),
                                                                   EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    size_t ivlen = nonce.size();
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen), OSSL_PARAM_END};
    REQUIRE(cipher);
    REQUIRE(c);
    REQUIRE(EVP_EncryptInit_ex2(c.get(), cipher.get(), nullptr, nullptr, params) == 1);
    REQUIRE(EVP_EncryptInit_ex2(c.get(), nullptr, key.data(), nonce.data(), nullptr) == 1);
    int n = 0;
    REQUIRE(EVP_EncryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) == 1);
    const size_t chunk = (size_t{1} << 29) + 3;
    size_t off = 0;
    for (size_t done = 0; done < len; done += chunk) {
        REQUIRE(EVP_EncryptUpdate(c.get(), out + off, &n, pt + done, static_cast<int>(std::min(chunk, len - done))) == 1);
        off += static_cast<size_t>(n);
    }
    REQUIRE(EVP_EncryptFinal_ex(c.get(), out + off, &n) == 1);
    off += static_cast<size_t>(n);
    REQUIRE(off == len);
    REQUIRE(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, 16, out + len) == 1);
}

}  // namespace

TEST_CASE("AES-OCB3: 2^31 + 17 bytes seal as chunked direct EVP does, open in place, forgery refused", "[large][families]") {
    if (test::fips_stage()) return;  // not in FIPS providers (tests/test_vectors.cpp checks the refusal)
    big_round_trip(AEAD_AES_128_OCB, "AES-128-OCB3, 15-byte nonce", 15, evp_ocb_seal);
}

TEST_CASE("XChaCha20-Poly1305: 2^31 + 17 bytes seal as libsodium does, open in place, forgery refused",
          "[large][families]") {
#ifndef AEAD_TEST_HAVE_SODIUM
    WARN("libsodium (libsodium-dev) was not found by meson: the large XChaCha20-Poly1305 test did not run");
#else
    if (test::fips_stage()) return;
    REQUIRE(sodium_init() >= 0);
    big_round_trip(AEAD_XCHACHA20_POLY1305, "XChaCha20-Poly1305", 24,
                   [](const Bytes &key, const Bytes &nonce, const Bytes &aad, const uint8_t *pt, size_t len, uint8_t *out) {
                       unsigned long long clen = 0;
                       REQUIRE(crypto_aead_xchacha20poly1305_ietf_encrypt(out, &clen, pt, len, aad.data(), aad.size(),
                                                                          nullptr, nonce.data(), key.data()) == 0);
                       REQUIRE(clen == len + 16);
                   });
#endif
}

// AES-CCM and AES-GCM-SIV take the payload (CCM also the AAD) in one libcrypto update: one byte more than
// AEAD_ONE_UPDATE_MAX is AEAD_ERR_TOO_LONG, on real memory, with nothing written; exactly that many is
// accepted (the next check, the output's room, answers).
TEST_CASE("AES-CCM and AES-GCM-SIV refuse more than AEAD_ONE_UPDATE_MAX bytes and write nothing", "[large][families]") {
    const size_t over = size_t{AEAD_ONE_UPDATE_MAX} + 1;
    Bytes buf(over + 16, 0xEE);
    uint8_t small[64];
    std::memset(small, 0xEE, sizeof small);
    struct Family {
        int alg;
        size_t nonce_len;
        bool aad_one_update;  // CCM: the AAD too is one update
    };
    int runs = 0;
    // CCM nonces of 7 and 8 bytes have length fields of 8 and 7 bytes: the one-update bound is the limit.
    for (const Family f : {Family{AEAD_AES_128_CCM, 7, true}, Family{AEAD_AES_256_CCM, 8, true},
                           Family{AEAD_AES_128_GCM_SIV, 12, false}, Family{AEAD_AES_256_GCM_SIV, 12, false}}) {
        INFO("alg " << f.alg << ", nonce " << f.nonce_len);
        const Bytes key(aead_key_size(f.alg), 3), nonce(f.nonce_len, 5);
        aead_ctx *c = nullptr;
        const int rc = aead_ctx_new_ex(&c, f.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0, test::test_properties(),
                                       nullptr, 0);
        aead_ctx_free(c);
        if (rc == AEAD_ERR_UNSUPPORTED && f.alg >= AEAD_AES_128_GCM_SIV) {  // OpenSSL < 3.2, or a FIPS stage
            std::printf("large: alg %d unavailable here (%s): its one-update limit was not exercised\n", f.alg,
                        aead_version());
            continue;
        }
        REQUIRE(rc == 0);
        test::Ctx ctx(f.alg, AEAD_POLICY_NONE, key);
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), f.nonce_len, nullptr, 0, buf.data(), over, buf.data(),
                             buf.size()) == AEAD_ERR_TOO_LONG);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), f.nonce_len, nullptr, 0, buf.data(), over + 16, buf.data(),
                             buf.size()) == AEAD_ERR_TOO_LONG);
        // At the limit the length is accepted: out_cap one short is what is refused.
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), f.nonce_len, nullptr, 0, buf.data(), over - 1, buf.data(),
                             over + 14) == AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), f.nonce_len, nullptr, 0, buf.data(), over + 15, buf.data(),
                             over - 2) == AEAD_ERR_BUFFER_TOO_SMALL);
        if (f.aad_one_update) {
            CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), f.nonce_len, buf.data(), over, small, 16, small + 16,
                                 48) == AEAD_ERR_TOO_LONG);
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), f.nonce_len, buf.data(), over, small, 32, small + 32,
                                 32) == AEAD_ERR_TOO_LONG);
        }
        ++runs;
    }
    CHECK(std::all_of(buf.begin(), buf.end(), [](uint8_t x) { return x == 0xEE; }));
    CHECK(std::all_of(small, small + sizeof small, [](uint8_t x) { return x == 0xEE; }));
    CHECK(runs >= 2);
}
