// The FIPS stage (tests/fips/run.sh): OPENSSL_CONF names a configuration in which OpenSSL's FIPS provider
// (built from the pinned 3.5 source for testing; not a validated module) and the base provider are the
// only providers, with default_properties = fips=yes. Checks what docs/fips.md promises there.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

struct Made {
    int rc;
    uint32_t indicator;
    std::string provider;
};

Made make(int alg, int policy, size_t tag, const char *props) {
    const Bytes key(aead_key_size(alg), 0x42);
    aead_ctx *c = nullptr;
    Made m{aead_ctx_new_ex(&c, alg, policy, key.data(), key.size(), tag, props, nullptr, 0), 0, ""};
    if (m.rc == 0) {
        m.indicator = aead_ctx_indicator(c);
        m.provider = aead_ctx_provider(c);
    }
    aead_ctx_free(c);
    return m;
}

constexpr uint32_t kAll = AEAD_IND_FIPS_PROVIDER | AEAD_IND_SEAL_APPROVED | AEAD_IND_OPEN_APPROVED;

}  // namespace

TEST_CASE("FIPS stage: the configuration is the one the stage meant", "[fips]") {
    REQUIRE(test::fips_stage());
    REQUIRE(std::getenv("OPENSSL_CONF") != nullptr);
    // MD5 is not a FIPS algorithm: with the FIPS provider as the only digest provider, it is not there.
    EVP_MD *md5 = EVP_MD_fetch(nullptr, "MD5", nullptr);
    CHECK(md5 == nullptr);
    EVP_MD_free(md5);
    std::printf("fips stage: %s\n", aead_version());
}

TEST_CASE("FIPS stage: the indicator for each policy", "[fips]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL (the configuration's default_properties)"));
        for (int alg : {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}) {
            const Made none = make(alg, AEAD_POLICY_NONE, 0, props), tls12 = make(alg, AEAD_POLICY_TLS12, 0, props),
                       tls13 = make(alg, AEAD_POLICY_TLS13, 0, props),
                       rnd = make(alg, AEAD_POLICY_RANDOM_NONCE, 0, props), trunc = make(alg, AEAD_POLICY_NONE, 12, props);
            for (const Made *m : {&none, &tls12, &tls13, &rnd, &trunc}) {
                REQUIRE(m->rc == 0);
                CHECK(m->provider.find("fips") != std::string::npos);
            }
            // An arbitrary caller nonce is never an approved seal; its opens are approved.
            CHECK(none.indicator == (AEAD_IND_FIPS_PROVIDER | AEAD_IND_OPEN_APPROVED));
            CHECK(tls12.indicator == kAll);  // IG C.H scenario 1.a
            CHECK(tls13.indicator == kAll);  // IG C.H scenario 1.a
            CHECK(rnd.indicator == kAll);    // IG C.H scenario 2: the DRBG is the FIPS provider's
            CHECK(trunc.indicator == AEAD_IND_FIPS_PROVIDER);  // a truncated tag is not marked approved
            if (alg == AEAD_AES_128_GCM && props != nullptr)
                std::printf("indicator under the FIPS provider (%s): NONE %u, TLS12 %u, TLS13 %u, RANDOM_NONCE %u, "
                            "NONE with a 12-byte tag %u (1 fips provider, 2 seal approved, 4 open approved)\n",
                            none.provider.c_str(), none.indicator, tls12.indicator, tls13.indicator, rnd.indicator,
                            trunc.indicator);
        }
        for (int policy : {AEAD_POLICY_NONE, AEAD_POLICY_TLS12, AEAD_POLICY_TLS13})
            CHECK(make(AEAD_CHACHA20_POLY1305, policy, 0, props).rc == AEAD_ERR_UNSUPPORTED);
    }
    // Not the default provider's: it is not loaded here.
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_NONE, 0, "provider=default").rc == AEAD_ERR_UNSUPPORTED);
}

TEST_CASE("FIPS stage: counter nonces (IG C.H scenario 3) and SSH (scenario 1.d) are approved seals", "[fips][counter]") {
    for (int alg : {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}) {
        for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_XOR_COUNTER, AEAD_POLICY_SSH}) {
            INFO("alg " << alg << " policy " << policy);
            if (policy == AEAD_POLICY_SSH && alg == AEAD_AES_192_GCM) {
                CHECK(make(alg, policy, 0, "fips=yes").rc == AEAD_ERR_ARG);  // RFC 5647: AES-128 and AES-256
                continue;
            }
            const Made m = make(alg, policy, 0, "fips=yes");
            REQUIRE(m.rc == 0);
            CHECK(m.provider.find("fips") != std::string::npos);
            CHECK(m.indicator == kAll);
            // The seals the indicator approves are made by the FIPS provider and open with a plain context.
            const Bytes key = test::random_bytes(aead_key_size(alg)), aad = test::random_bytes(4);
            test::Ctx c(alg, policy, key);
            REQUIRE(aead_ctx_indicator(c) == kAll);
            test::Ctx plain(alg, AEAD_POLICY_NONE, key);
            Bytes sealed(36), back(20);
            const Bytes pt = test::random_bytes(20);
            for (uint64_t n = 0; n < 3; ++n) {
                // fixed || mask XOR n, or fixed || start + n, with mask and start 9
                Bytes nonce{1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
                nonce[11] = static_cast<uint8_t>(policy == AEAD_POLICY_XOR_COUNTER ? 9 ^ n : 9 + n);
                REQUIRE(test::seal(c, nonce, aad, pt, sealed) == 36);
                CHECK(test::seal(c, nonce, aad, pt, sealed) == AEAD_ERR_NONCE_ORDER);
                REQUIRE(test::open(plain, nonce, aad, sealed, back) == 20);
                CHECK(back == pt);
            }
            if (alg == AEAD_AES_256_GCM)
                std::printf("indicator under the FIPS provider (%s): %s %u (1 fips provider, 2 seal approved, 4 open approved)\n",
                            m.provider.c_str(), policy == AEAD_POLICY_COUNTER ? "COUNTER" : policy == AEAD_POLICY_SSH ? "SSH" : "XOR_COUNTER",
                            m.indicator);
        }
    }
}

TEST_CASE("FIPS stage: seal and open agree with the oracle on the FIPS provider, from many threads", "[fips]") {
    // Whichever path the library took (copied template or re-keyed workers: the fault-injection build
    // runs this again with AEAD_TEST_NO_COPY=1 to force the re-key path), results must be the oracle's.
    for (int alg : {AEAD_AES_128_GCM, AEAD_AES_256_GCM}) {
        const Bytes key = test::random_bytes(aead_key_size(alg)), iv = test::random_bytes(12);
        test::Ctx none(alg, AEAD_POLICY_NONE, key), tls(alg, AEAD_POLICY_TLS13, key, 0, iv),
            rnd(alg, AEAD_POLICY_RANDOM_NONCE, key);
        std::atomic<uint64_t> seq{0};
        std::atomic<int> bad{0};
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&] {
                for (int i = 0; i < 200; ++i) {
                    // Sizes from the bounded draw: GCC 12 at -O3 cannot bound pt.size() (false
                    // -Walloc-size-larger-than).
                    const size_t len = test::random_below(2000);
                    const Bytes n = test::random_bytes(12), aad = test::random_bytes(5), pt = test::random_bytes(len);
                    Bytes out(len + 16), back(len), r(len + 28);
                    if (test::seal(none, n, aad, pt, out) != static_cast<int64_t>(out.size()) ||
                        out != test::evp_seal(alg, key, n, aad, pt) ||
                        test::open(none, n, aad, out, back) != static_cast<int64_t>(pt.size()) || back != pt)
                        ++bad;
                    const Bytes tn = test::tls13_nonce(iv, seq.fetch_add(1));
                    // Concurrent seals may arrive out of order: an order refusal is legitimate, nothing else.
                    const int64_t s = test::seal(tls, tn, aad, pt, out);
                    if (s != static_cast<int64_t>(out.size()) && s != AEAD_ERR_NONCE_ORDER) ++bad;
                    if (test::seal(rnd, {}, aad, pt, r) != static_cast<int64_t>(r.size()) ||
                        test::open(rnd, {}, aad, r, back) != static_cast<int64_t>(pt.size()) || back != pt)
                        ++bad;
                }
            });
        for (auto &t : ts) t.join();
        CHECK(bad == 0);
    }
}

TEST_CASE("FIPS stage: what the provider reports as iv-generated", "[fips]") {
    // OSSL_CIPHER_PARAM_AEAD_IV_GENERATED (3.4+): 1 only where the provider drew the IV itself. With an
    // IV set from outside (every libaead seal: the TLS policies check the caller's, the random policy
    // draws from the FIPS DRBG and sets it) it reads 0; docs/fips.md says why the indicator does not
    // depend on it.
    EVP_CIPHER *c = EVP_CIPHER_fetch(nullptr, "AES-128-GCM", "fips=yes");
    REQUIRE(c != nullptr);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    const Bytes key(16, 1), iv(12, 2), msg(16, 3);
    Bytes out(16);
    int n = 0;
    REQUIRE(EVP_EncryptInit_ex2(x, c, key.data(), iv.data(), nullptr) == 1);
    REQUIRE(EVP_EncryptUpdate(x, out.data(), &n, msg.data(), 16) == 1);
    unsigned int generated = 7;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint("iv-generated", &generated), OSSL_PARAM_END};
    const bool known = EVP_CIPHER_CTX_get_params(x, p) == 1 && OSSL_PARAM_modified(p);
    if (known) CHECK(generated == 0);
    std::printf("provider reports iv-generated: %s\n", known ? (generated ? "1" : "0") : "(not supported)");
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
}

TEST_CASE("FIPS stage: AES-CCM is approved; the other families are refused", "[fips][families]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL"));
        for (int alg : {AEAD_AES_128_CCM, AEAD_AES_192_CCM, AEAD_AES_256_CCM}) {
            for (const auto &[policy, tag] : {std::pair<int, size_t>{AEAD_POLICY_NONE, 0}, {AEAD_POLICY_NONE, 8},
                                              {AEAD_POLICY_TLS12, 0}, {AEAD_POLICY_TLS13, 0}}) {
                const Made m = make(alg, policy, tag, props);
                REQUIRE(m.rc == 0);
                CHECK(m.provider.find("fips") != std::string::npos);
                CHECK(m.indicator == kAll);  // SP 800-38C: no nonce-construction condition as IG C.H's
            }
        }
        for (int alg : {AEAD_AES_128_GCM_SIV, AEAD_AES_256_GCM_SIV, AEAD_AES_128_OCB, AEAD_AES_256_OCB,
                        AEAD_XCHACHA20_POLY1305})
            CHECK(make(alg, AEAD_POLICY_NONE, 0, props).rc == AEAD_ERR_UNSUPPORTED);
        CHECK(make(AEAD_XCHACHA20_POLY1305, AEAD_POLICY_RANDOM_NONCE, 0, props).rc == AEAD_ERR_UNSUPPORTED);
    }
    // A CCM round trip on the FIPS provider, against the oracle's computation on the same provider.
    const Bytes key = test::random_bytes(16), nonce = test::random_bytes(13), aad(7, 1), pt = test::random_bytes(100);
    test::Ctx ctx(AEAD_AES_128_CCM, AEAD_POLICY_NONE, key, 8);
    Bytes out(108), back(100);
    REQUIRE(test::seal(ctx, nonce, aad, pt, out) == 108);
    REQUIRE(test::open(ctx, nonce, aad, out, back) == 100);
    CHECK(back == pt);
    out[3] ^= 1;
    CHECK(test::open(ctx, nonce, aad, out, back) == AEAD_ERR_AUTH);
}
