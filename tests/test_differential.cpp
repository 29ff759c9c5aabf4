// libaead against a direct EVP computation (support.h's oracle) on random inputs, both directions.
#include <map>
#include <memory>
#include <string>

#include "catch_compat.h"
#include "checks.h"
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

// ---- ABI 1.2 families ----
#include <openssl/evp.h>

#ifdef AEAD_TEST_HAVE_SODIUM
#include <sodium.h>
#endif

namespace {

// An independent EVP computation on a fresh context per message, written from OpenSSL's documentation
// of each mode (the ctrl API, not libaead's param or dispatch code): ciphertext || tag.
Bytes evp_family_seal(const char *name, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt,
                      size_t tag_len) {
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, name, nullptr),
                                                                   EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    REQUIRE(cipher);
    REQUIRE(c);
    const int mode = EVP_CIPHER_get_mode(cipher.get());
    const int n = static_cast<int>(nonce.size()), t = static_cast<int>(tag_len);
    REQUIRE(EVP_EncryptInit_ex(c.get(), cipher.get(), nullptr, nullptr, nullptr) == 1);
    if (mode == EVP_CIPH_CCM_MODE || mode == EVP_CIPH_OCB_MODE) {
        REQUIRE(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_IVLEN, n, nullptr) == 1);
        REQUIRE(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_TAG, t, nullptr) == 1);
    }
    REQUIRE(EVP_EncryptInit_ex(c.get(), nullptr, nullptr, key.data(), nonce.data()) == 1);
    int len = 0;
    Bytes out(pt.size() + tag_len + 16);
    uint8_t dummy = 0;
    if (mode == EVP_CIPH_CCM_MODE)
        REQUIRE(EVP_EncryptUpdate(c.get(), nullptr, &len, nullptr, static_cast<int>(pt.size())) == 1);
    if (!aad.empty()) REQUIRE(EVP_EncryptUpdate(c.get(), nullptr, &len, aad.data(), static_cast<int>(aad.size())) == 1);
    REQUIRE(EVP_EncryptUpdate(c.get(), out.data(), &len, pt.empty() ? &dummy : pt.data(), static_cast<int>(pt.size())) == 1);
    int fin = 0;
    REQUIRE(EVP_EncryptFinal_ex(c.get(), out.data() + len, &fin) == 1);
    REQUIRE(static_cast<size_t>(len + fin) == pt.size());
    REQUIRE(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, t, out.data() + pt.size()) == 1);
    out.resize(pt.size() + tag_len);
    return out;
}

struct FamilyCase {
    int alg;
    const char *evp;
    size_t key, nonce_min, nonce_max;
    bool ccm_tags;
};

bool offered(int alg) {
    const Bytes key(aead_key_size(alg), 1);
    aead_ctx *c = nullptr;
    const int rc = aead_ctx_new(&c, alg, AEAD_POLICY_NONE, key.data(), key.size(), 0);
    aead_ctx_free(c);
    return rc == 0;
}

// Seals with libaead, compares with the oracle, opens the oracle's bytes back, and refuses one flipped byte.
void agree(test::Ctx &ctx, const Bytes &expected, const Bytes &nonce, const Bytes &aad, const Bytes &pt) {
    const auto mask = static_cast<uint8_t>(1 + test::random_below(255));
    test::check_round_trip(ctx, nonce, aad, pt, expected, test::random_below(static_cast<uint32_t>(expected.size())), mask);
}

}  // namespace

TEST_CASE("families: random inputs agree with direct EVP (CCM, GCM-SIV, OCB3)", "[differential][families]") {
    const FamilyCase all[] = {
        {AEAD_AES_128_CCM, "AES-128-CCM", 16, 7, 13, true},         {AEAD_AES_192_CCM, "AES-192-CCM", 24, 7, 13, true},
        {AEAD_AES_256_CCM, "AES-256-CCM", 32, 7, 13, true},         {AEAD_AES_128_GCM_SIV, "AES-128-GCM-SIV", 16, 12, 12, false},
        {AEAD_AES_192_GCM_SIV, "AES-192-GCM-SIV", 24, 12, 12, false}, {AEAD_AES_256_GCM_SIV, "AES-256-GCM-SIV", 32, 12, 12, false},
        {AEAD_AES_128_OCB, "AES-128-OCB", 16, 1, 15, false},        {AEAD_AES_192_OCB, "AES-192-OCB", 24, 1, 15, false},
        {AEAD_AES_256_OCB, "AES-256-OCB", 32, 1, 15, false}};
    std::vector<FamilyCase> cases;
    for (const auto &f : all)
        if (offered(f.alg)) cases.push_back(f);
        else std::printf("differential: %s not offered by %s\n", f.evp, aead_version());
    REQUIRE(!cases.empty());
    std::map<std::string, int> per;
    for (int i = 0; i < 1800; ++i) {
        const FamilyCase &f = cases[test::random_below(static_cast<uint32_t>(cases.size()))];
        const size_t nonce_len = f.nonce_min + test::random_below(static_cast<uint32_t>(f.nonce_max - f.nonce_min + 1));
        const size_t tag = f.ccm_tags && test::random_below(2) == 0 ? 4 + 2 * test::random_below(7) : 16;
        const size_t sizes[] = {0, 1, 15, 16, 17, 63, 64, 65, 255, 1024, 4096, 16384, 70000};
        size_t len = test::random_below(2) ? sizes[test::random_below(13)] : test::random_below(70001);
        if (f.ccm_tags && nonce_len == 13) len = std::min<size_t>(len, 65535);  // CCM: L = 2 bytes of length
        const Bytes key = test::random_bytes(f.key), nonce = test::random_bytes(nonce_len),
                    aad = test::random_bytes(test::random_below(3) == 0 ? 0 : test::random_below(300)),
                    pt = test::random_bytes(len);
        INFO(f.evp << " len " << len << " nonce " << nonce_len << " aad " << aad.size() << " tag " << tag);
        test::Ctx ctx(f.alg, AEAD_POLICY_NONE, key, tag);
        agree(ctx, evp_family_seal(f.evp, key, nonce, aad, pt, tag), nonce, aad, pt);
        ++per[f.evp];
    }
    int total = 0;
    for (const auto &[name, n] : per) {
        std::printf("differential: %s %d random cases agree with EVP\n", name.c_str(), n);
        total += n;
    }
    CHECK(total == 1800);
}

// XChaCha20-Poly1305 against libsodium's crypto_aead_xchacha20poly1305_ietf (an independent
// implementation, found by meson), on random inputs: both ways, and libaead's random-nonce output.
TEST_CASE("XChaCha20-Poly1305: random inputs agree with libsodium", "[differential][families]") {
#ifndef AEAD_TEST_HAVE_SODIUM
    WARN("libsodium (libsodium-dev) was not found by meson: the XChaCha20-Poly1305 differential test did not run");
#else
    REQUIRE(sodium_init() >= 0);
    int cases = 0;
    for (int i = 0; i < 1000; ++i) {
        const size_t sizes[] = {0, 1, 15, 16, 17, 63, 64, 65, 255, 1024, 4096, 16384, 70000};
        const size_t len = test::random_below(2) ? sizes[test::random_below(13)] : test::random_below(70001);
        const Bytes key = test::random_bytes(32), nonce = test::random_bytes(24),
                    aad = test::random_bytes(test::random_below(3) == 0 ? 0 : test::random_below(300)),
                    pt = test::random_bytes(len);
        INFO("len " << len << " aad " << aad.size());
        Bytes expected(len + 16);
        unsigned long long clen = 0;
        REQUIRE(crypto_aead_xchacha20poly1305_ietf_encrypt(expected.data(), &clen, pt.data(), pt.size(), aad.data(),
                                                           aad.size(), nullptr, nonce.data(), key.data()) == 0);
        REQUIRE(clen == len + 16);
        test::Ctx ctx(AEAD_XCHACHA20_POLY1305, AEAD_POLICY_NONE, key);
        agree(ctx, expected, nonce, aad, pt);
        if (i % 10 == 0) {  // the random-nonce policy: nonce(24) || ct || tag, opened by libsodium
            test::Ctx rnd(AEAD_XCHACHA20_POLY1305, AEAD_POLICY_RANDOM_NONCE, key);
            Bytes out(24 + len + 16), back(len + 1);
            REQUIRE(test::seal(rnd, {}, aad, pt, out) == static_cast<int64_t>(out.size()));
            unsigned long long mlen = 0;
            REQUIRE(crypto_aead_xchacha20poly1305_ietf_decrypt(back.data(), &mlen, nullptr, out.data() + 24, len + 16,
                                                               aad.data(), aad.size(), out.data(), key.data()) == 0);
            REQUIRE(mlen == len);
            REQUIRE(Bytes(back.begin(), back.begin() + static_cast<long>(len)) == pt);
        }
        ++cases;
    }
    std::printf("differential: XChaCha20-Poly1305 %d random cases agree with libsodium %s\n", cases,
                sodium_version_string());
    CHECK(cases == 1000);
#endif
}
