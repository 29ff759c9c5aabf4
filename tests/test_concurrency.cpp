// One context shared by many threads: mixed seals and opens, every result checked.
#include <atomic>
#include <thread>
#include <vector>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

struct Counts {
    std::atomic<long> seals{0}, opens{0}, forgeries{0}, wrong{0};
};

// Each thread seals random messages, checks them against the oracle now and then (it is slow),
// opens them back, and checks that a forgery is refused with zeroed output.
void worker(aead_ctx *ctx, int alg, const Bytes &key, int ops, Counts &c) {
    for (int i = 0; i < ops; ++i) {
        // Sizes from the bounded draw, not pt.size(): GCC 12 at -O3 cannot bound the latter and raises a
        // false -Walloc-size-larger-than on the vectors below.
        const size_t n = test::random_below(3000);
        const Bytes nonce = test::random_bytes(12), aad = test::random_bytes(test::random_below(40)),
                    pt = test::random_bytes(n);
        Bytes sealed(n + 16), back(n);
        if (test::seal(ctx, nonce, aad, pt, sealed) != static_cast<int64_t>(sealed.size())) ++c.wrong;
        if (i % 8 == 0 && sealed != test::evp_seal(alg, key, nonce, aad, pt)) ++c.wrong;
        ++c.seals;
        if (test::open(ctx, nonce, aad, sealed, back) != static_cast<int64_t>(n) || back != pt) ++c.wrong;
        ++c.opens;
        sealed[test::random_below(static_cast<uint32_t>(sealed.size()))] ^= 4;
        if (test::open(ctx, nonce, aad, sealed, back) != AEAD_ERR_AUTH || back != Bytes(n, 0)) ++c.wrong;
        ++c.forgeries;
    }
}

}  // namespace

TEST_CASE("8 threads share one context for mixed seal and open", "[concurrency]") {
    for (const auto &a : test::kAllAlgs) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        Counts c;
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t) threads.emplace_back(worker, ctx.p, a.alg, std::cref(key), 300, std::ref(c));
        for (auto &th : threads) th.join();
        CHECK(c.wrong == 0);
        CHECK(c.seals == 2400);
        CHECK(c.opens == 2400);
        CHECK(c.forgeries == 2400);
    }
}

TEST_CASE("contexts with different keys do not interfere across threads", "[concurrency]") {
    const Bytes k1 = test::random_bytes(16), k2 = test::random_bytes(16);
    test::Ctx c1(AEAD_AES_128_GCM, AEAD_POLICY_NONE, k1), c2(AEAD_AES_128_GCM, AEAD_POLICY_NONE, k2);
    Counts a, b;
    std::thread t1(worker, c1.p, AEAD_AES_128_GCM, std::cref(k1), 400, std::ref(a));
    std::thread t2(worker, c2.p, AEAD_AES_128_GCM, std::cref(k2), 400, std::ref(b));
    std::thread t3(worker, c1.p, AEAD_AES_128_GCM, std::cref(k1), 400, std::ref(a));
    t1.join();
    t2.join();
    t3.join();
    CHECK(a.wrong == 0);
    CHECK(b.wrong == 0);
    CHECK(a.seals == 800);
}

// ABI 1.2 families: 8 threads on one context each, seals checked against a single-threaded reference
// context of the same key (deterministic: same nonce, same bytes), CCM nonce lengths and OCB3 nonce
// lengths varying per call so that each thread's worker keys its lazily made contexts concurrently.
TEST_CASE("families: 8 threads share one context", "[concurrency][families]") {
    struct F {
        int alg;
        size_t key, nonce_lo, nonce_hi;
        const char *name;
    };
    const F all[] = {{AEAD_AES_128_CCM, 16, 7, 13, "AES-128-CCM"},
                     {AEAD_AES_256_GCM_SIV, 32, 12, 12, "AES-256-GCM-SIV"},
                     {AEAD_AES_192_OCB, 24, 1, 15, "AES-192-OCB"},
                     {AEAD_XCHACHA20_POLY1305, 32, 24, 24, "XChaCha20-Poly1305"},
                     {AEAD_AEGIS_128L, 16, 16, 16, "AEGIS-128L"},
                     {AEAD_AEGIS_256X4, 32, 32, 32, "AEGIS-256X4"}};
    for (const F &f : all) {
        INFO(f.name);
        const Bytes key = test::random_bytes(f.key);
        aead_ctx *shared = nullptr, *reference = nullptr;
        const int rc = aead_ctx_new_ex(&shared, f.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0,
                                       test::test_properties(), nullptr, 0);
        if (rc == AEAD_ERR_UNSUPPORTED) continue;  // GCM-SIV before 3.2, all but CCM under FIPS (AEGIS too)
        REQUIRE(rc == 0);
        REQUIRE(aead_ctx_new_ex(&reference, f.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0, test::test_properties(),
                                nullptr, 0) == 0);
        // The expected bytes, made on one thread before the others start.
        constexpr int kPerThread = 60;
        struct Msg {
            Bytes nonce, aad, pt, sealed;
        };
        std::vector<std::vector<Msg>> msgs(8);
        for (auto &per : msgs)
            for (int i = 0; i < kPerThread; ++i) {
                const size_t n = test::random_below(2000);
                Msg m{test::random_bytes(f.nonce_lo + test::random_below(static_cast<uint32_t>(f.nonce_hi - f.nonce_lo + 1))),
                      test::random_bytes(test::random_below(40)), test::random_bytes(n), Bytes(n + 16)};
                REQUIRE(test::seal(reference, m.nonce, m.aad, m.pt, m.sealed) == static_cast<int64_t>(n + 16));
                per.push_back(std::move(m));
            }
        std::atomic<long> wrong{0}, done{0};
        std::vector<std::thread> threads;
        for (auto &per : msgs)
            threads.emplace_back([&, shared] {
                for (const Msg &m : per) {
                    Bytes out(m.sealed.size()), back(m.pt.size());
                    if (test::seal(shared, m.nonce, m.aad, m.pt, out) != static_cast<int64_t>(out.size()) || out != m.sealed)
                        ++wrong;
                    if (test::open(shared, m.nonce, m.aad, m.sealed, back) != static_cast<int64_t>(m.pt.size()) || back != m.pt)
                        ++wrong;
                    out[out.size() / 2] ^= 8;
                    if (test::open(shared, m.nonce, m.aad, out, back) != AEAD_ERR_AUTH || back != Bytes(m.pt.size(), 0))
                        ++wrong;
                    ++done;
                }
            });
        for (auto &th : threads) th.join();
        CHECK(wrong == 0);
        CHECK(done == 8 * kPerThread);
        aead_ctx_free(shared);
        aead_ctx_free(reference);
    }
}
