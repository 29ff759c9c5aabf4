// The two ways the shim runs a cipher (docs/libcrypto.md): directly on the provider's cipher functions,
// or through EVP (AEAD_DISPATCH=evp, or a provider the direct path does not take). This suite calls the
// shim itself (it links shim/ and its libcrypto into the executable, like test_memory's vendored build),
// so it can see which way was chosen and drive one working context through nonce lengths, tag lengths and
// failures that libaead's checks would not let through in that order. tests/run-all.sh runs the unit
// suites twice, the second time with AEAD_DISPATCH=evp; the FIPS stage runs this suite under the FIPS
// provider.
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../shim/contexts.h"
#include "catch_compat.h"
#include "support.h"

using test::Bytes;
namespace shim = aead::shim;

namespace {

bool evp_forced() {
    const char *v = std::getenv("AEAD_DISPATCH");
    return v != nullptr && std::strcmp(v, "evp") == 0;
}

shim::Cipher cipher_of(int alg) {
    switch (alg) {
        case AEAD_AES_128_GCM: return shim::Cipher::aes_128_gcm;
        case AEAD_AES_192_GCM: return shim::Cipher::aes_192_gcm;
        case AEAD_AES_256_GCM: return shim::Cipher::aes_256_gcm;
        default: return shim::Cipher::chacha20_poly1305;
    }
}

// A template and one worker of it, freed on scope exit.
struct Keyed {
    shim::Template *t = nullptr;
    shim::Worker *w = nullptr;
    Keyed(int alg, const Bytes &key) {
        shim::CipherSource *src = nullptr;
        REQUIRE(shim::cipher_source(test::test_properties(), &src) == 0);
        REQUIRE(shim::template_new(&t, *src, cipher_of(alg), {key.data(), key.size()}) == 0);
        REQUIRE(shim::worker_new(*t, &w) == 0);
    }
    ~Keyed() {
        shim::worker_free(w);
        shim::template_free(t);
    }
    Keyed(const Keyed &) = delete;
    Keyed &operator=(const Keyed &) = delete;
};

Bytes seal(shim::Worker &w, const Bytes &nonce, const Bytes &aad, const Bytes &pt, size_t tag_len) {
    Bytes out(pt.size() + tag_len, 0xEE);
    REQUIRE(shim::seal(w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {pt.data(), pt.size()}, out.data(),
                       tag_len) == 0);
    return out;
}

int open(shim::Worker &w, const Bytes &nonce, const Bytes &aad, const Bytes &sealed, size_t tag_len, Bytes &pt) {
    const size_t n = sealed.size() - tag_len;
    pt.assign(n, 0xEE);
    return shim::open(w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {sealed.data(), n},
                      {sealed.data() + n, tag_len}, pt.empty() ? nullptr : pt.data());
}

}  // namespace

TEST_CASE("the path each cipher runs on", "[dispatch]") {
    CHECK(shim::dispatch_forced_evp() == evp_forced());
    for (const auto &a : test::stage_algs()) {
        INFO(a.name);
        Keyed k(a.alg, test::random_bytes(a.key));
        const std::string provider = shim::template_provenance(*k.t).provider;
        // OpenSSL's own providers run directly unless the user asked for EVP.
        const bool expect_direct = !evp_forced() && (provider == "default" || provider == "fips");
        std::printf("%s from provider %s: %s\n", a.name, provider.c_str(), k.t->direct != nullptr ? "direct" : "EVP");
        CHECK((k.t->direct != nullptr) == expect_direct);
        CHECK(k.w->direct == k.t->direct);
        CHECK((k.w->pctx != nullptr) == (k.t->direct != nullptr));
        CHECK((k.w->ctx != nullptr) == (k.t->direct == nullptr));
        if (test::fips_stage()) CHECK(provider == "fips");
    }
}

TEST_CASE("one worker through changing nonce lengths, tag lengths, AAD and sizes, against EVP", "[dispatch]") {
    for (const auto &a : test::stage_algs()) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key);
        Keyed k(a.alg, key);
        const bool gcm = a.alg != AEAD_CHACHA20_POLY1305;
        const size_t nonce_lens_gcm[] = {12, 1, 16, 12, 60, 8, 128, 12}, nonce_lens_chacha[] = {12};
        const size_t *lens = gcm ? nonce_lens_gcm : nonce_lens_chacha;
        const size_t nlens = gcm ? std::size(nonce_lens_gcm) : std::size(nonce_lens_chacha);
        for (size_t i = 0; i < nlens; ++i)
            for (const size_t tag_len : {size_t{16}, size_t{12}})
                for (const size_t aad_len : {size_t{0}, size_t{13}, size_t{1000}})
                    for (const size_t len : {size_t{0}, size_t{1}, size_t{64}, size_t{4099}}) {
                        INFO("nonce " << lens[i] << " tag " << tag_len << " aad " << aad_len << " len " << len);
                        const Bytes nonce = test::random_bytes(lens[i]), aad = test::random_bytes(aad_len),
                                    pt = test::random_bytes(len);
                        const Bytes sealed = seal(*k.w, nonce, aad, pt, tag_len);
                        CHECK(sealed == test::evp_seal(a.alg, key, nonce, aad, pt, tag_len));
                        Bytes back;
                        CHECK(open(*k.w, nonce, aad, sealed, tag_len, back) == 0);
                        CHECK(back == pt);
                        // A forgery anywhere: AEAD_ERR_AUTH, and the same worker goes on working.
                        for (const size_t at : {size_t{0}, sealed.size() - 1, sealed.size() / 2}) {
                            Bytes forged = sealed;
                            forged[at] ^= 0x40;
                            CHECK(open(*k.w, nonce, aad, forged, tag_len, back) == AEAD_ERR_AUTH);
                        }
                        if (!aad.empty()) {
                            Bytes other = aad;
                            other[0] ^= 1;
                            CHECK(open(*k.w, nonce, other, sealed, tag_len, back) == AEAD_ERR_AUTH);
                        }
                        CHECK(open(*k.w, nonce, aad, sealed, tag_len, back) == 0);
                        CHECK(back == pt);
                    }
    }
}

TEST_CASE("workers of one template are independent", "[dispatch]") {
    for (const auto &a : test::stage_algs()) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key), aad(13, 7), pt = test::random_bytes(100);
        Keyed k(a.alg, key);
        shim::Worker *w2 = nullptr;
        REQUIRE(shim::worker_new(*k.t, &w2) == 0);
        const Bytes n1(12, 1), n2(12, 2);
        // Interleaved: the second worker's nonce and direction never reach the first's.
        const Bytes s1 = seal(*k.w, n1, aad, pt, 16);
        const Bytes s2 = seal(*w2, n2, aad, pt, 16);
        Bytes back;
        CHECK(open(*w2, n1, aad, s1, 16, back) == 0);
        CHECK(back == pt);
        CHECK(open(*k.w, n2, aad, s2, 16, back) == 0);
        CHECK(back == pt);
        CHECK(s1 == test::evp_seal(a.alg, key, n1, aad, pt));
        CHECK(s2 == test::evp_seal(a.alg, key, n2, aad, pt));
        // A worker made after the template's first workers were used starts from the keyed state.
        shim::worker_free(w2);
        REQUIRE(shim::worker_new(*k.t, &w2) == 0);
        CHECK(seal(*w2, n1, aad, pt, 16) == s1);
        shim::worker_free(w2);
        // And the template outlives none of its workers' needs: a worker keeps working after another is freed.
        CHECK(seal(*k.w, n2, aad, pt, 16) == s2);
    }
}

TEST_CASE("the provider context runs where EVP's would: same implementation, same provider", "[dispatch]") {
    // The implementation found by name in the fetched cipher's provider is that cipher's: an EVP
    // context of the fetched cipher and the shim's worker agree on every parameter the provider reports.
    for (const auto &a : test::stage_algs()) {
        INFO(a.name);
        Keyed k(a.alg, test::random_bytes(a.key));
        if (k.t->direct == nullptr) continue;
        size_t keylen = 0, ivlen = 0, taglen = 0;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
                          OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
                          OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &taglen), OSSL_PARAM_END};
        REQUIRE(k.t->direct->get_ctx_params(k.w->pctx.get(), p) == 1);
        CHECK(keylen == a.key);
        CHECK(ivlen == 12);
        // ChaCha20-Poly1305 reports a tag length of 0 until a tag is set (3.0).
        if (a.alg != AEAD_CHACHA20_POLY1305) CHECK(taglen == 16);
        // "iv-generated" (OSSL_CIPHER_PARAM_AEAD_IV_GENERATED, 3.4+ providers; not in the 3.0 headers) is read
        // from the provider context as EVP would read it: 0 after a seal with a caller-set IV (docs/fips.md).
        if (a.alg != AEAD_CHACHA20_POLY1305) {
            (void)seal(*k.w, Bytes(12, 1), {}, Bytes(16, 2), 16);
            unsigned int generated = 7;
            OSSL_PARAM g[] = {OSSL_PARAM_construct_uint("iv-generated", &generated), OSSL_PARAM_END};
            const bool known = k.t->direct->get_ctx_params(k.w->pctx.get(), g) == 1 && OSSL_PARAM_modified(g);
            if (known) CHECK(generated == 0);
            std::printf("%s: iv-generated through the direct path: %s\n", a.name,
                        known ? (generated ? "1" : "0") : "(not supported)");
        }
        CHECK(std::string(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(k.t->cipher))) ==
              shim::template_provenance(*k.t).provider);
        CHECK(std::string(EVP_CIPHER_get0_name(k.t->cipher)) == test::evp_name(a.alg));
    }
}

TEST_CASE("threads deciding the path of a new source at once agree", "[dispatch]") {
    // A query string no other test uses (leading spaces parse as nothing), so that its ciphers' dispatch
    // is decided right here, by whichever of the threads gets there first (TSan runs this suite).
    const std::string query = std::string("   ") + (test::test_properties() != nullptr ? test::test_properties() : "");
    const Bytes key = test::random_bytes(16), nonce(12, 9), aad(13, 3), pt = test::random_bytes(64);
    constexpr int kThreads = 4;
    std::vector<Bytes> sealed(kThreads);
    std::vector<int> direct(kThreads, -1);
    std::vector<std::thread> ts;
    for (int i = 0; i < kThreads; ++i)
        ts.emplace_back([&, i] {
            shim::CipherSource *src = nullptr;
            shim::Template *t = nullptr;
            shim::Worker *w = nullptr;
            if (shim::cipher_source(query.c_str(), &src) != 0 ||
                shim::template_new(&t, *src, shim::Cipher::aes_128_gcm, {key.data(), key.size()}) != 0 ||
                shim::worker_new(*t, &w) != 0) {
                shim::template_free(t);
                return;
            }
            direct[static_cast<size_t>(i)] = t->direct != nullptr ? 1 : 0;
            Bytes out(pt.size() + 16);
            if (shim::seal(*w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {pt.data(), pt.size()},
                           out.data(), 16) == 0)
                sealed[static_cast<size_t>(i)] = out;
            shim::worker_free(w);
            shim::template_free(t);
        });
    for (auto &t : ts) t.join();
    const Bytes expected = test::evp_seal(AEAD_AES_128_GCM, key, nonce, aad, pt);
    for (int i = 0; i < kThreads; ++i) {
        CHECK(direct[static_cast<size_t>(i)] == (evp_forced() ? 0 : 1));
        CHECK(sealed[static_cast<size_t>(i)] == expected);
    }
}

// ABI 1.2 families: each OpenSSL cipher they run on takes the direct path too (its own known-answer
// check against EVP passed), and a shim worker seals and opens the same bytes either way.
TEST_CASE("the families' ciphers run directly too, with EVP's results", "[dispatch][families]") {
    const std::pair<shim::Cipher, const char *> families[] = {
        {shim::Cipher::aes_128_ccm, "AES-128-CCM"},         {shim::Cipher::aes_256_ccm, "AES-256-CCM"},
        {shim::Cipher::aes_128_ocb, "AES-128-OCB"},         {shim::Cipher::aes_256_ocb, "AES-256-OCB"},
        {shim::Cipher::aes_128_gcm_siv, "AES-128-GCM-SIV"}, {shim::Cipher::aes_256_gcm_siv, "AES-256-GCM-SIV"},
        {shim::Cipher::xchacha20_poly1305, "XChaCha20-Poly1305"}};
    int checked = 0;
    for (const auto &[c, name] : families) {
        INFO(name);
        const size_t key_len = std::string(name).find("128") != std::string::npos ? 16 : 32;
        const Bytes key = test::random_bytes(key_len);
        shim::CipherSource *src = nullptr;
        REQUIRE(shim::cipher_source(test::test_properties(), &src) == 0);
        shim::Template *t = nullptr;
        const int rc = shim::template_new(&t, *src, c, {key.data(), key.size()}, 16);
        if (rc == AEAD_ERR_UNSUPPORTED) {  // GCM-SIV before 3.2; all but CCM under a FIPS provider
            std::printf("%s: not offered here\n", name);
            continue;
        }
        REQUIRE(rc == 0);
        const std::string provider = shim::template_provenance(*t).provider;
        const bool expect_direct = !evp_forced() && (provider == "default" || provider == "fips");
        std::printf("%s from provider %s: %s\n", name, provider.c_str(), t->direct != nullptr ? "direct" : "EVP");
        CHECK((t->direct != nullptr) == expect_direct);
        shim::Worker *w = nullptr;
        REQUIRE(shim::worker_new(*t, &w) == 0);
        const size_t nonce_len = c == shim::Cipher::xchacha20_poly1305 ? 24 : 12;
        for (const size_t len : {size_t{0}, size_t{15}, size_t{16}, size_t{100}}) {
            const Bytes nonce = test::random_bytes(nonce_len), aad = test::random_bytes(len % 7), pt = test::random_bytes(len);
            const Bytes sealed = seal(*w, nonce, aad, pt, 16);
            Bytes back;
            CHECK(open(*w, nonce, aad, sealed, 16, back) == 0);
            CHECK(back == pt);
            Bytes forged = sealed;
            forged[len / 2] ^= 4;
            CHECK(open(*w, nonce, aad, forged, 16, back) == AEAD_ERR_AUTH);
        }
        shim::worker_free(w);
        shim::template_free(t);
        ++checked;
    }
    CHECK(checked >= (test::fips_stage() ? 2 : 5));
}
