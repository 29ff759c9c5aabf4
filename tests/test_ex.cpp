// ABI 1.1: aead_ctx_new_ex (property queries, the TLS IV given up front), the random-nonce policy, the
// FIPS indicator and provider name. Under the FIPS stage (AEAD_TEST_FIPS=1) the same checks run with
// "fips=yes" contexts and the indicator's approved answers (tests/test_fips.cpp has the rest).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

constexpr uint64_t kMax = UINT64_MAX;

int try_new_ex(int alg, int policy, const Bytes &key, size_t tag, const char *props, const uint8_t *iv,
               size_t iv_len) {
    aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});  // must be overwritten
    const int rc = aead_ctx_new_ex(&c, alg, policy, key.data(), key.size(), tag, props, iv, iv_len);
    if (rc != 0) CHECK(c == nullptr);
    else aead_ctx_free(c);
    return rc;
}

// TLS 1.2 AES-GCM with a 12-byte IV (rustls): salt || (mask XOR BE64(seq)).
Bytes masked_explicit_nonce(const Bytes &iv, uint64_t seq) { return test::tls13_nonce(iv, seq); }

int64_t seal_seq(aead_ctx *c, const Bytes &nonce, size_t aad_len) {
    const Bytes aad(aad_len, 0x17), pt = test::random_bytes(33);
    Bytes out(pt.size() + 16);
    return test::seal(c, nonce, aad, pt, out);
}

}  // namespace

TEST_CASE("aead_ctx_new_ex: property queries", "[ex]") {
    const Bytes key(16, 3);
    const char *props = test::test_properties();
    CHECK(try_new_ex(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, 0, props, nullptr, 0) == 0);
    CHECK(try_new_ex(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, 0, "", nullptr, 0) == 0);  // "" = NULL
    const std::string too_long(256, 'x');
    CHECK(try_new_ex(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, 0, too_long.c_str(), nullptr, 0) == AEAD_ERR_ARG);
    // A query no provider satisfies, and one that does not parse: unsupported, cleanly.
    CHECK(try_new_ex(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, 0, "provider=no-such-provider", nullptr, 0) ==
          AEAD_ERR_UNSUPPORTED);
    // A query OpenSSL cannot parse: 3.0's fetch ignores it (the default implementation serves), others
    // refuse. Either way the indicator tells the truth about where the cipher came from.
    {
        aead_ctx *g = nullptr;
        const int rc = aead_ctx_new_ex(&g, AEAD_AES_128_GCM, 0, key.data(), 16, 0, "fips:yes", nullptr, 0);
        CHECK((rc == 0 || rc == AEAD_ERR_UNSUPPORTED));
        if (rc == 0 && !test::fips_stage()) CHECK(aead_ctx_indicator(g) == 0);
        aead_ctx_free(g);
    }
    if (!test::fips_stage()) {
        // No FIPS provider is loaded outside the FIPS stage: asking for one fails at creation.
        CHECK(try_new_ex(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, 0, "fips=yes", nullptr, 0) == AEAD_ERR_UNSUPPORTED);
        test::Ctx def(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
        CHECK(std::string(aead_ctx_provider(def)) == "default");
        // The same query from many threads at once: one cached source, every context works.
        std::vector<std::thread> ts;
        std::atomic<int> ok{0};
        for (int t = 0; t < 8; ++t)
            ts.emplace_back([&, t] {
                const std::string q = "provider=default,test" + std::to_string(t % 2) + "=?yes";
                for (int i = 0; i < 50; ++i) ok += try_new_ex(AEAD_AES_256_GCM, 0, Bytes(32, 1), 0, q.c_str(), nullptr, 0) == 0;
            });
        for (auto &t : ts) t.join();
        CHECK(ok == 400);
    }
    // A context made with a query seals exactly as the oracle.
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    const Bytes n = test::random_bytes(12), aad = test::random_bytes(7), pt = test::random_bytes(100);
    Bytes out(pt.size() + 16);
    REQUIRE(test::seal(c, n, aad, pt, out) == 116);
    CHECK(out == test::evp_seal(AEAD_AES_128_GCM, key, n, aad, pt));
}

TEST_CASE("aead_ctx_new_ex: which IV lengths each policy takes", "[ex]") {
    const uint8_t iv[12] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2};
    const char *p = test::test_properties();
    for (const auto &a : test::kAllAlgs) {
        if (test::fips_stage() && a.alg == AEAD_CHACHA20_POLY1305) continue;
        const Bytes key(a.key, 5);
        const bool gcm = a.alg != AEAD_CHACHA20_POLY1305;
        INFO(a.name);
        for (size_t len : {size_t{1}, size_t{3}, size_t{5}, size_t{8}, size_t{11}, size_t{13}}) {
            CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS12, key, 0, p, iv, len) == AEAD_ERR_NONCE_SIZE);
            CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS13, key, 0, p, iv, len) == AEAD_ERR_NONCE_SIZE);
        }
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS12, key, 0, p, iv, 12) == 0);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS13, key, 0, p, iv, 12) == 0);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS12, key, 0, p, iv, 4) == (gcm ? 0 : AEAD_ERR_NONCE_SIZE));
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS13, key, 0, p, iv, 4) == AEAD_ERR_NONCE_SIZE);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_NONE, key, 0, p, iv, 12) == AEAD_ERR_NONCE_SIZE);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS13, key, 0, p, nullptr, 12) == AEAD_ERR_ARG);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_TLS13, key, 0, p, nullptr, 0) == 0);
        CHECK(try_new_ex(a.alg, AEAD_POLICY_RANDOM_NONCE, key, 0, p, iv, 12) ==
              (gcm ? AEAD_ERR_NONCE_SIZE : AEAD_ERR_ARG));
    }
}

TEST_CASE("TLS with the IV given: no learning, the anchors' sequences, rustls's TLS 1.2 mask", "[ex]") {
    Bytes iv = test::random_bytes(12);
    iv[9] ^= 0x42;  // a mask whose seq-1 nonce is "below" seq 0's: unmasking must happen
    struct Case {
        const char *name;
        int alg, policy;
        Bytes given;        // what aead_ctx_new_ex gets
        Bytes (*make)(const Bytes &, uint64_t);
        size_t aad;
    };
    std::vector<Case> cases = {
        {"TLS 1.3 AES-128-GCM", AEAD_AES_128_GCM, AEAD_POLICY_TLS13, iv, test::tls13_nonce, 5},
        {"TLS 1.3 ChaCha20-Poly1305", AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS13, iv, test::tls13_nonce, 5},
        {"TLS 1.2 ChaCha20-Poly1305", AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS12, iv, test::tls13_nonce, 13},
        {"TLS 1.2 AES-256-GCM, 4-byte salt (counter)", AEAD_AES_256_GCM, AEAD_POLICY_TLS12, Bytes(iv.begin(), iv.begin() + 4),
         test::tls12_gcm_nonce, 13},
        {"TLS 1.2 AES-128-GCM, salt || mask (rustls)", AEAD_AES_128_GCM, AEAD_POLICY_TLS12, iv, masked_explicit_nonce, 13},
    };
    for (const Case &k : cases) {
        if (test::fips_stage() && k.alg == AEAD_CHACHA20_POLY1305) continue;
        INFO(k.name);
        const Bytes key = test::random_bytes(aead_key_size(k.alg));
        test::Ctx c(k.alg, k.policy, key, 0, k.given);
        Bytes base = iv;  // the nonce maker's IV: 12 bytes (salt then anything for the counter form)
        // The first seal may be any sequence: nothing is learned from it.
        CHECK(seal_seq(c, k.make(base, 3), k.aad) == 49);
        CHECK(seal_seq(c, k.make(base, 3), k.aad) == AEAD_ERR_NONCE_ORDER);
        CHECK(seal_seq(c, k.make(base, 0), k.aad) == AEAD_ERR_NONCE_ORDER);
        CHECK(seal_seq(c, k.make(base, 4), k.aad) == 49);
        CHECK(seal_seq(c, k.make(base, 10), k.aad) == 49);
        CHECK(seal_seq(c, k.make(base, 9), k.aad) == AEAD_ERR_NONCE_ORDER);
        CHECK(seal_seq(c, k.make(base, kMax), k.aad) == AEAD_ERR_NONCE_EXHAUSTED);
        CHECK(seal_seq(c, k.make(base, kMax - 1), k.aad) == 49);
        CHECK(seal_seq(c, k.make(base, kMax - 1), k.aad) == AEAD_ERR_NONCE_ORDER);
        Bytes other = base;
        other[1] ^= 1;
        test::Ctx d(k.alg, k.policy, key, 0, k.given);
        CHECK(seal_seq(d, k.make(other, 0), k.aad) == AEAD_ERR_NONCE_PREFIX);  // the salt is fixed, not learned
        CHECK(seal_seq(d, k.make(base, 0), k.aad) == 49);                       // and the refusal consumed nothing
        CHECK(seal_seq(d, k.make(base, 1), k.aad - 1) == AEAD_ERR_AAD_SIZE);
        // The sealed record is what the oracle makes for that nonce.
        const Bytes n = k.make(base, 7), aad(k.aad, 1), pt = test::random_bytes(64);
        Bytes out(pt.size() + 16);
        REQUIRE(test::seal(d, n, aad, pt, out) == 80);
        CHECK(out == test::evp_seal(k.alg, key, n, aad, pt));
    }
}

TEST_CASE("TLS with the IV given: concurrent first seals are safe", "[ex]") {
    // Without the IV, the first seal defines sequence 0, so racing first seals cannot be told apart.
    // With it, 8 threads sealing sequences 0..399 in different orders: each accepted at most once.
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12);
    for (int round = 0; round < 20; ++round) {
        test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_TLS13, key, 0, iv);
        std::vector<std::vector<uint64_t>> accepted(8);
        std::vector<std::thread> ts;
        for (size_t t = 0; t < 8; ++t)
            ts.emplace_back([&, t] {
                for (uint64_t s = 0; s < 400; ++s) {
                    const uint64_t seq = (t % 2 == 0) ? s : s + (t * 7 % 5);
                    if (seal_seq(c, test::tls13_nonce(iv, seq), 5) >= 0) accepted[t].push_back(seq);
                }
            });
        for (auto &t : ts) t.join();
        const test::Acceptances m = test::merge_acceptances(accepted);
        CHECK(m.each_increasing);
        CHECK(m.none_twice);  // no sequence accepted twice
        CHECK(!m.all.empty());
    }
}

TEST_CASE("random-nonce policy: nonce || ciphertext || tag, the oracle opens it", "[ex]") {
    for (int alg : {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}) {
        const Bytes key = test::random_bytes(aead_key_size(alg));
        test::Ctx c(alg, AEAD_POLICY_RANDOM_NONCE, key);
        // Fixed-size keys: GCC 12 at -O3 raises a false -Wstringop-overread comparing vectors in a set.
        std::set<std::array<uint8_t, 12>> nonces;
        const auto nonce_of = [](const Bytes &sealed) {
            std::array<uint8_t, 12> n{};
            std::copy_n(sealed.begin(), 12, n.begin());
            return n;
        };
        for (size_t len : {size_t{0}, size_t{1}, size_t{16}, size_t{64}, size_t{1000}, size_t{70000}}) {
            const Bytes aad = test::random_bytes(len % 23), pt = test::random_bytes(len);
            Bytes sealed(len + 28, 0xEE);
            REQUIRE(test::seal(c, {}, aad, pt, sealed) == static_cast<int64_t>(len + 28));
            const Bytes nonce(sealed.begin(), sealed.begin() + 12);
            nonces.insert(nonce_of(sealed));
            CHECK(Bytes(sealed.begin() + 12, sealed.end()) == test::evp_seal(alg, key, nonce, aad, pt));
            Bytes back(len, 0xAA);
            CHECK(test::open(c, {}, aad, sealed, back) == static_cast<int64_t>(len));
            CHECK(back == pt);
            if (len != 0) {
                Bytes forged = sealed;
                forged[test::random_below(static_cast<uint32_t>(forged.size()))] ^= 0x10;
                CHECK(test::open(c, {}, aad, forged, back) == AEAD_ERR_AUTH);
                CHECK(back == Bytes(len, 0));  // no unauthenticated plaintext
            }
        }
        for (int i = 0; i < 500; ++i) {
            Bytes sealed(28);
            REQUIRE(test::seal(c, {}, {}, {}, sealed) == 28);
            nonces.insert(nonce_of(sealed));
        }
        CHECK(nonces.size() == 506);  // 96 random bits: a repeat here would be a broken DRBG draw
    }
}

TEST_CASE("random-nonce policy: refusals, in place, overlap", "[ex]") {
    const Bytes key = test::random_bytes(32);
    test::Ctx c(AEAD_AES_256_GCM, AEAD_POLICY_RANDOM_NONCE, key);
    constexpr size_t kPt = 40;
    const Bytes n12(12, 1), pt = test::random_bytes(kPt);
    Bytes out(pt.size() + 28, 0x5A);
    CHECK(test::seal(c, n12, {}, pt, out) == AEAD_ERR_NONCE_SIZE);  // the library draws the nonce
    CHECK(out == Bytes(out.size(), 0x5A));
    Bytes small(pt.size() + 27);
    CHECK(test::seal(c, {}, {}, pt, small) == AEAD_ERR_BUFFER_TOO_SMALL);
    for (size_t len = 0; len < 28; ++len) {
        const Bytes shorter(len, 3);
        Bytes back(1);
        CHECK(test::open(c, {}, {}, shorter, back) == AEAD_ERR_AUTH);
    }
    CHECK(try_new_ex(AEAD_AES_256_GCM, AEAD_POLICY_RANDOM_NONCE, key, 12, test::test_properties(), nullptr, 0) ==
          AEAD_ERR_TAG_SIZE);

    // In place: the ciphertext lands where the plaintext was (seal: in == out + 12; open: out == in + 12).
    // Constant sizes, filled in place: GCC 12 cannot bound pt.size() and raises false -Warray-bounds /
    // -Wstringop-overflow on a vector grown around it.
    Bytes buf(12 + kPt + 16, 0);
    std::copy_n(pt.begin(), kPt, buf.begin() + 12);
    REQUIRE(aead_seal_open(c, AEAD_SEAL, nullptr, 0, nullptr, 0, buf.data() + 12, pt.size(), buf.data(), buf.size()) ==
            static_cast<int64_t>(buf.size()));
    const Bytes sealed = buf;
    REQUIRE(aead_seal_open(c, AEAD_OPEN, nullptr, 0, nullptr, 0, buf.data(), buf.size(), buf.data() + 12,
                           buf.size() - 12) == static_cast<int64_t>(pt.size()));
    CHECK(Bytes(buf.begin() + 12, buf.begin() + 12 + static_cast<long>(pt.size())) == pt);
    // Any other overlap is refused and writes nothing.
    for (size_t off : {size_t{1}, size_t{11}, size_t{12}, size_t{13}, size_t{16}}) {
        Bytes b(kPt + 28 + 16, 0x77);
        std::copy_n(pt.begin(), kPt, b.begin() + 12);
        const Bytes before = b;
        CHECK(aead_seal_open(c, AEAD_SEAL, nullptr, 0, nullptr, 0, b.data() + 12, pt.size(), b.data() + off,
                             b.size() - off) == AEAD_ERR_OVERLAP);
        CHECK(b == before);
    }
}

TEST_CASE("indicator and provider: outside a FIPS configuration nothing is approved", "[ex]") {
    if (test::fips_stage()) return;  // tests/test_fips.cpp checks the approved answers
    const Bytes k16(16, 1), k32(32, 1);
    for (int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_TLS12}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_RANDOM_NONCE}}) {
        test::Ctx c(AEAD_AES_128_GCM, policy, k16);
        CHECK(aead_ctx_indicator(c) == 0);
        CHECK(std::string(aead_ctx_provider(c)) == "default");
    }
    test::Ctx ch(AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS13, k32);
    CHECK(aead_ctx_indicator(ch) == 0);
    CHECK(aead_ctx_indicator(nullptr) == 0);
    CHECK(std::string(aead_ctx_provider(nullptr)).empty());
    CHECK(aead_version_number() == AEAD_VERSION_NUMBER);
}

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept;

TEST_CASE("random-nonce policy: the 2^32nd seal is the last (SP 800-38D 8.3)", "[ex]") {
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, test::random_bytes(16));
    aead_test_set_random_seals(c, (uint64_t{1} << 32) - 2);
    Bytes out(28, 0x33);
    CHECK(test::seal(c, {}, {}, {}, out) == 28);
    CHECK(test::seal(c, {}, {}, {}, out) == 28);
    out.assign(28, 0x33);
    CHECK(test::seal(c, {}, {}, {}, out) == AEAD_ERR_NONCE_LIMIT);
    CHECK(out == Bytes(28, 0x33));  // a refusal: nothing written
    CHECK(test::seal(c, {}, {}, {}, out) == AEAD_ERR_NONCE_LIMIT);
    CHECK(std::string(aead_strerror(AEAD_ERR_NONCE_LIMIT)).find("2^32") != std::string::npos);
}
#endif
