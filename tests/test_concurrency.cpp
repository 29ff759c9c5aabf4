// One context shared by many threads: mixed seals and opens, every result checked.
#include <atomic>
#include <thread>

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
