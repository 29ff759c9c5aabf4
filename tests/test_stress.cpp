// Concurrency stress: 8 and 64 threads on one context of each policy, a bounded number of operations.
// TLS: a shared pool of sequence numbers with deliberate duplicates and out-of-order arrivals. Every call
// takes a ticket before and after it runs, which orders calls that did not overlap in time; then:
//  - no sequence number is accepted twice;
//  - acceptances respect real time: if accepted seal A returned before accepted seal B began, A's number
//    is smaller (the library's order of acceptance is strictly increasing);
//  - every refusal is justified: some seal of a number at least as large was accepted and began before
//    the refused call returned;
//  - every accepted record opens.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

// AEAD_STRESS_SCALE (default 1) scales the operation counts, e.g. down under ThreadSanitizer.
double scale() {
    const char *s = std::getenv("AEAD_STRESS_SCALE");
    return s != nullptr ? std::atof(s) : 1.0;
}

struct Call {
    uint64_t seq;
    uint64_t begin, end;  // tickets
    bool accepted;
    Bytes record;
};

void tls_stress(int alg, int policy, int threads, int per_thread) {
    const Bytes key = test::random_bytes(aead_key_size(alg)), iv = test::random_bytes(12);
    const bool counter = policy == AEAD_POLICY_TLS12 && alg != AEAD_CHACHA20_POLY1305;
    auto nonce = [&](uint64_t seq) { return counter ? test::tls12_gcm_nonce(iv, seq) : test::tls13_nonce(iv, seq); };
    const Bytes aad(policy == AEAD_POLICY_TLS12 ? 13 : 5, 0x17);
    test::Ctx ctx(alg, policy, key);
    Bytes first(32);
    REQUIRE(test::seal(ctx, nonce(0), aad, Bytes(16, 0), first) == 32);  // sequence 0 fixes the prefix/mask

    // The pool: each number from 1 up appears about twice, handed out from a shared cursor with local
    // jitter, so threads collide and numbers arrive out of order.
    const size_t total = static_cast<size_t>(threads) * static_cast<size_t>(per_thread);
    std::vector<uint64_t> pool(total);
    for (size_t i = 0; i < total; ++i) pool[i] = 1 + i / 2;
    for (size_t i = 0; i + 8 < total; i += 3) std::swap(pool[i], pool[i + test::random_below(8)]);
    std::atomic<size_t> cursor{0};
    std::atomic<uint64_t> ticket{0};
    std::vector<std::vector<Call>> calls(static_cast<size_t>(threads));
    std::atomic<int> unexpected{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            Bytes out(32);
            const Bytes pt(16, static_cast<uint8_t>(t));
            for (size_t i; (i = cursor.fetch_add(1)) < total;) {
                Call c{pool[i], ticket.fetch_add(1), 0, false, {}};
                const int64_t r = test::seal(ctx, nonce(c.seq), aad, pt, out);
                c.end = ticket.fetch_add(1);
                c.accepted = r == 32;
                if (c.accepted) c.record = out;
                if (!c.accepted && r != AEAD_ERR_NONCE_ORDER) ++unexpected;
                calls[static_cast<size_t>(t)].push_back(std::move(c));
            }
        });
    for (auto &th : ts) th.join();
    REQUIRE(unexpected == 0);

    std::vector<const Call *> acc, refused;
    for (const auto &v : calls)
        for (const Call &c : v) (c.accepted ? acc : refused).push_back(&c);
    REQUIRE(acc.size() + refused.size() == total);

    // No number accepted twice.
    std::vector<uint64_t> seqs;
    for (const Call *c : acc) seqs.push_back(c->seq);
    std::sort(seqs.begin(), seqs.end());
    CHECK(std::adjacent_find(seqs.begin(), seqs.end()) == seqs.end());

    // Real-time order: sort accepted calls by end ticket; the largest number among calls that ended
    // before B began must be smaller than B's.
    std::sort(acc.begin(), acc.end(), [](const Call *a, const Call *b) { return a->end < b->end; });
    std::vector<uint64_t> prefix_max(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) prefix_max[i] = std::max(i ? prefix_max[i - 1] : 0, acc[i]->seq);
    size_t order_violations = 0, unjustified = 0;
    for (const Call *b : acc) {
        const auto it = std::lower_bound(acc.begin(), acc.end(), b->begin,
                                         [](const Call *a, uint64_t tk) { return a->end < tk; });
        if (it != acc.begin() && prefix_max[static_cast<size_t>(it - acc.begin()) - 1] >= b->seq) ++order_violations;
    }
    // Justified refusals: an accepted call with a number >= the refused one began before the refusal ended.
    std::vector<const Call *> by_begin = acc;
    std::sort(by_begin.begin(), by_begin.end(), [](const Call *a, const Call *b) { return a->begin < b->begin; });
    std::vector<uint64_t> max_by_begin(by_begin.size());
    for (size_t i = 0; i < by_begin.size(); ++i)
        max_by_begin[i] = std::max(i ? max_by_begin[i - 1] : 0, by_begin[i]->seq);
    for (const Call *r : refused) {
        const auto it = std::lower_bound(by_begin.begin(), by_begin.end(), r->end,
                                         [](const Call *a, uint64_t tk) { return a->begin < tk; });
        if (it == by_begin.begin() || max_by_begin[static_cast<size_t>(it - by_begin.begin()) - 1] < r->seq) ++unjustified;
    }
    CHECK(order_violations == 0);
    CHECK(unjustified == 0);

    test::Ctx peer(alg, AEAD_POLICY_NONE, key);
    size_t opened = 0;
    for (const Call *c : acc) {
        Bytes back(16);
        opened += test::open(peer, nonce(c->seq), aad, c->record, back) == 16 ? 1 : 0;
    }
    CHECK(opened == acc.size());
    std::printf("stress %s policy %d, %d threads: %zu seals, %zu accepted (each once, in real-time order), %zu "
                "refused (each justified)\n",
                test::evp_name(alg), policy, threads, total, acc.size(), refused.size());
}

void plain_stress(int alg, int threads, int per_thread) {
    const Bytes key = test::random_bytes(aead_key_size(alg));
    test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
    std::atomic<long> ok{0}, wrong{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&] {
            for (int i = 0; i < per_thread; ++i) {
                const Bytes nonce = test::random_bytes(12), aad = test::random_bytes(13),
                            pt = test::random_bytes(test::random_below(1500));
                Bytes sealed(pt.size() + 16), back(pt.size());
                const bool good = test::seal(ctx, nonce, aad, pt, sealed) == static_cast<int64_t>(sealed.size()) &&
                                  (i % 16 != 0 || sealed == test::evp_seal(alg, key, nonce, aad, pt)) &&
                                  test::open(ctx, nonce, aad, sealed, back) == static_cast<int64_t>(pt.size()) &&
                                  back == pt;
                sealed[0] ^= 1;
                const bool forged = test::open(ctx, nonce, aad, sealed, back) == AEAD_ERR_AUTH;
                (good && forged ? ok : wrong)++;
            }
        });
    for (auto &th : ts) th.join();
    CHECK(wrong == 0);
    CHECK(ok == static_cast<long>(threads) * per_thread);
    std::printf("stress %s no policy, %d threads: %ld verified seal+open+forgery rounds\n", test::evp_name(alg), threads,
                ok.load());
}

}  // namespace

TEST_CASE("stress: 8 and 64 threads, every policy", "[stress][concurrency]") {
    const double k = scale();
    for (int threads : {8, 64}) {
        const int per = std::max(10, static_cast<int>((threads == 8 ? 4000 : 600) * k));
        for (int alg : {AEAD_AES_128_GCM, AEAD_CHACHA20_POLY1305}) {
            plain_stress(alg, threads, std::max(5, per / 8));
            tls_stress(alg, AEAD_POLICY_TLS12, threads, per);
            tls_stress(alg, AEAD_POLICY_TLS13, threads, per);
        }
    }
}
