// Memory behaviour through a tracking allocator that sees every libcrypto allocation (installed with
// CRYPTO_set_mem_functions before libcrypto allocates anything) and every C++ allocation (replacement
// operator new/delete, which libaead's `new (std::nothrow)` binds to):
//  - fault injection: every allocation, and (in a -Dfault_injection=true build) every fallible libcrypto
//    call, fails in turn; each failure is AEAD_ERR_NOMEM / AEAD_ERR_CRYPTO with output zeroed, nothing
//    leaked, and the context still usable afterwards;
//  - the steady state allocates nothing per call;
//  - key hygiene: no freed block still holds the key.
#include <openssl/crypto.h>
#include <openssl/err.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

std::atomic<long> g_live{0};        // blocks allocated inside a libaead call and not yet freed
thread_local bool t_in_library = false;  // set around libaead calls (Catch2 and the test allocate too)
std::atomic<long> g_allocs{0};      // tracked allocations made
std::atomic<long> g_fail_in{0};     // 0: off; n: the nth allocation from now fails
std::atomic<long> g_injected{0};    // allocation failures injected
std::atomic<long> g_key_hits{0};    // freed blocks that still held the secret
uint8_t g_secret[64];  // up to AES-256-SIV's 64-byte key
std::atomic<size_t> g_secret_len{0};

struct Header {
    void *raw;
    size_t size;
    bool library;  // allocated during a libaead call
};

bool should_fail() {
    long n = g_fail_in.load();
    while (n > 0)
        if (g_fail_in.compare_exchange_weak(n, n - 1)) {
            if (n == 1) ++g_injected;
            return n == 1;
        }
    return false;
}

void *tracked_alloc(size_t n, size_t align, bool may_fail = true) {
    if (may_fail && should_fail()) return nullptr;
    align = std::max<size_t>(align, 16);
    void *raw = std::malloc(n + align + sizeof(Header));
    if (raw == nullptr) return nullptr;
    auto base = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
    base = (base + align - 1) & ~(uintptr_t{align} - 1);
    auto *user = reinterpret_cast<uint8_t *>(base);
    reinterpret_cast<Header *>(user)[-1] = Header{raw, n, t_in_library};
    if (t_in_library) ++g_live;
    ++g_allocs;
    return user;
}

// Not inlined: GCC models operator new, so once this is inlined into a delete it sees the header read
// below the block that new returned (false -Warray-bounds at -O3).
[[gnu::noinline]] void tracked_free(void *p) {
    if (p == nullptr) return;
    const Header h = static_cast<Header *>(p)[-1];
    const size_t k = g_secret_len.load();
    if (k != 0 && h.size >= k && memmem(p, h.size, g_secret, k) != nullptr) ++g_key_hits;
    if (h.library) --g_live;
    std::free(h.raw);
}

void *crypto_malloc(size_t n, const char *, int) { return tracked_alloc(n, 16); }
void crypto_free(void *p, const char *, int) { tracked_free(p); }
void *crypto_realloc(void *p, size_t n, const char *, int) {
    if (p == nullptr) return tracked_alloc(n, 16);
    if (n == 0) {
        tracked_free(p);
        return nullptr;
    }
    void *q = tracked_alloc(n, 16);
    if (q == nullptr) return nullptr;
    std::memcpy(q, p, std::min(n, static_cast<Header *>(p)[-1].size));
    tracked_free(p);
    return q;
}

}  // namespace

// Replacement global allocation functions (C++17 set). Throwing forms never fail on purpose: only the
// nothrow forms (which the library uses) take part in fault injection, as the test harness itself
// (Catch2, std::vector) uses the throwing ones.
void *operator new(size_t n) {
    if (void *p = tracked_alloc(n, 16, false)) return p;
    throw std::bad_alloc();
}
void *operator new[](size_t n) { return operator new(n); }
void *operator new(size_t n, std::align_val_t a) {
    if (void *p = tracked_alloc(n, static_cast<size_t>(a), false)) return p;
    throw std::bad_alloc();
}
void *operator new[](size_t n, std::align_val_t a) { return operator new(n, a); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return tracked_alloc(n, 16); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return tracked_alloc(n, 16); }
void *operator new(size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
    return tracked_alloc(n, static_cast<size_t>(a));
}
void *operator new[](size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
    return tracked_alloc(n, static_cast<size_t>(a));
}
void operator delete(void *p) noexcept { tracked_free(p); }
void operator delete[](void *p) noexcept { tracked_free(p); }
void operator delete(void *p, size_t) noexcept { tracked_free(p); }
void operator delete[](void *p, size_t) noexcept { tracked_free(p); }
void operator delete(void *p, std::align_val_t) noexcept { tracked_free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { tracked_free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { tracked_free(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { tracked_free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { tracked_free(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { tracked_free(p); }

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" long aead_test_fail_call(long n) noexcept;  // exported only by the fault-injection build
#endif

namespace {

// Brings every lazily created libcrypto object (fetched ciphers, probes, this thread's error state)
// into being, so that what is live afterwards is the baseline a clean run returns to.
void warm_up() {
    for (const auto &a : test::stage_algs()) {
        test::Ctx c(a.alg, AEAD_POLICY_NONE, Bytes(a.key, 1));
        Bytes out(16);
        test::seal(c, Bytes(12, 0), {}, {}, out);
        test::open(c, Bytes(12, 0), {}, out, out);
        out[0] ^= 1;
        test::open(c, Bytes(12, 0), {}, out, out);
        (void)test::evp_seal(a.alg, Bytes(a.key, 1), Bytes(12, 0), {}, {});
    }
    // The random policy asks once per process where the DRBG comes from (and draws from it).
    test::Ctx r(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, Bytes(16, 1));
    Bytes sealed(28);
    test::seal(r, {}, {}, {}, sealed);
    // libcrypto loads its error-string tables the first time a real error is raised; do it now.
    OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CRYPTO_STRINGS, nullptr);
    ERR_put_error(ERR_LIB_EVP, 0, ERR_R_MALLOC_FAILURE, __FILE__, __LINE__);
    ERR_clear_error();
}

bool zeroed(const Bytes &b, size_t n) { return std::all_of(b.begin(), b.begin() + static_cast<long>(n), [](uint8_t x) { return x == 0; }); }

// Runs f with allocations attributed to the library.
template <typename F>
auto in_library(F f) {
    t_in_library = true;
    auto r = f();
    t_in_library = false;
    return r;
}

// One call as a scenario makes it: random-nonce contexts take no nonce and write it in front; odd rounds
// go through aead_seal_open_many (one record) so the batch entry meets every fault too.
int64_t call(aead_ctx *ctx, int op, int policy, const Bytes &nonce, const Bytes &aad, const Bytes &in, Bytes &out,
             bool batch) {
    const Bytes none;
    const Bytes &n = policy == AEAD_POLICY_RANDOM_NONCE ? none : nonce;
    if (!batch) return op == AEAD_SEAL ? test::seal(ctx, n, aad, in, out) : test::open(ctx, n, aad, in, out);
    aead_record r{n.empty() ? nullptr : n.data(), n.size(), aad.data(), aad.size(), in.data(), in.size(), out.data(),
                  out.size(), 0};
    const int64_t ok = aead_seal_open_many(ctx, op, &r, 1);
    CHECK(ok == (r.result >= 0 ? 1 : 0));
    return r.result;
}

// The end of one armed scenario, once disarmed: nothing leaked; whether the sweep goes on (the armed call was
// reached: one more fault injected) or is over (every fallible call of the scenario has failed once).
bool next_fault(bool fault_fired, long baseline, long n, long limit, long &injected) {
    ERR_clear_error();
    CHECK(g_live.load() == baseline);  // nothing leaked
    if (!fault_fired) return false;
    ++injected;
    REQUIRE(n < limit);
    return true;
}

// One seal and one open of pt (as the scenario makes them) under an armed fault: each succeeds, or fails
// with AEAD_ERR_NOMEM / _CRYPTO and its output zeroed.
template <typename Seal, typename Open>
void faulted_round(Seal seal, Open open, const Bytes &pt, size_t sealed_len) {
    Bytes sealed(sealed_len, 0x5A), opened(pt.size(), 0x5A);
    const int64_t s = in_library([&] { return seal(sealed); });
    if (s < 0) {
        CHECK((s == AEAD_ERR_NOMEM || s == AEAD_ERR_CRYPTO));
        CHECK(zeroed(sealed, sealed.size()));
        return;
    }
    REQUIRE(s == static_cast<int64_t>(sealed_len));
    const int64_t o = in_library([&] { return open(sealed, opened); });
    if (o < 0) {
        CHECK((o == AEAD_ERR_NOMEM || o == AEAD_ERR_CRYPTO));
        CHECK(zeroed(opened, opened.size()));
    } else {
        CHECK(opened == pt);
    }
}

// One scenario under an armed fault: create a context, seal, open, seal and open again (the second pair
// must make a new working context if a failure dropped the first). Then disarm and prove the context
// (if created) still works, and that nothing leaked.
template <typename Arm, typename Fired>
void run_scenarios(const char *what, Arm arm, Fired fired) {
    warm_up();
    const long baseline = g_live.load();
    long injected = 0;
    for (const auto &a : test::stage_algs()) {
        for (const int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_RANDOM_NONCE}}) {
            if (policy == AEAD_POLICY_RANDOM_NONCE && a.alg == AEAD_CHACHA20_POLY1305) continue;
            const size_t pre = policy == AEAD_POLICY_RANDOM_NONCE ? 12 : 0, sealed_len = 116 + pre;
            const Bytes key = test::random_bytes(a.key), aad(policy == AEAD_POLICY_TLS13 ? 5 : 13, 1),
                        pt = test::random_bytes(100);
            for (long n = 1;; ++n) {
                uint8_t seq = 0;  // a new context each time: TLS 1.3 sequence numbers start again at 0
                INFO(what << " " << a.name << " policy " << policy << ": failing call #" << n);
                Bytes nonce(12, 0);
                arm(n);
                aead_ctx *ctx = reinterpret_cast<aead_ctx *>(uintptr_t{1});
                const int rc = in_library([&] {
                    return aead_ctx_new_ex(&ctx, a.alg, policy, key.data(), key.size(), 0, test::test_properties(),
                                           nullptr, 0);
                });
                if (rc != 0) {
                    CHECK((rc == AEAD_ERR_NOMEM || rc == AEAD_ERR_CRYPTO));
                    CHECK(ctx == nullptr);
                }
                for (int round = 0; rc == 0 && round < 2; ++round) {
                    nonce[11] = seq++;
                    const bool batch = round == 1;
                    faulted_round([&](Bytes &out) { return call(ctx, AEAD_SEAL, policy, nonce, aad, pt, out, batch); },
                                  [&](const Bytes &in, Bytes &out) { return call(ctx, AEAD_OPEN, policy, nonce, aad, in, out, batch); },
                                  pt, sealed_len);
                }
                const bool fault_fired = fired();
                arm(0);
                if (rc == 0) {  // the context survived whatever failed: it still works
                    nonce[11] = seq++;
                    Bytes sealed(sealed_len), opened(100);
                    CHECK(in_library([&] { return call(ctx, AEAD_SEAL, policy, nonce, aad, pt, sealed, false); }) ==
                          static_cast<int64_t>(sealed_len));
                    const Bytes used = pre != 0 ? Bytes(sealed.begin(), sealed.begin() + 12) : nonce;
                    CHECK(Bytes(sealed.begin() + static_cast<long>(pre), sealed.end()) == test::evp_seal(a.alg, key, used, aad, pt));
                    CHECK(in_library([&] { return call(ctx, AEAD_OPEN, policy, nonce, aad, sealed, opened, false); }) == 100);
                    CHECK(opened == pt);
                    in_library([&] { aead_ctx_free(ctx); return 0; });
                }
                if (!next_fault(fault_fired, baseline, n, 1000, injected)) break;
            }
        }
    }
    std::printf("%s: %ld faults injected, each mapped to a code, nothing leaked, contexts usable after\n", what, injected);
    CHECK(injected > 0);
}

}  // namespace

// A runner of scenarios (run_scenarios, run_quic_scenarios) with every allocation failing in turn.
template <typename Runner>
void with_allocation_failures(Runner run) {
    run("allocation failures", [](long n) { g_fail_in = n; }, [] { return g_fail_in.load() == 0; });
}

#ifdef AEAD_TEST_FAULT_BUILD
// The same with every fallible libcrypto call failing in turn. Disarming reports how many fault points
// the scenario passed: the armed one fired if that many were reached.
template <typename Runner>
void with_libcrypto_failures(Runner run) {
    long armed = 0;
    run("libcrypto call failures",
        [&](long n) {
            armed = n;
            aead_test_fail_call(n);
        },
        [&] { return aead_test_fail_call(0) >= armed; });
}
#endif

// A DTLS 1.2 context with a replay window (aead_ctx_new_dtls) allocates its window too: every allocation
// of its creation fails in turn, each one a code (AEAD_ERR_NOMEM for libaead's own) with no context and nothing leaked.
TEST_CASE("every allocation of a windowed DTLS context's creation fails in turn", "[memory][faults]") {
    warm_up();
    const long baseline = g_live.load();
    const Bytes key = test::random_bytes(16), salt(4, 7);
    long failures = 0;
    for (long n = 1;; ++n) {
        INFO("failing allocation #" << n);
        g_fail_in = n;
        aead_ctx *ctx = reinterpret_cast<aead_ctx *>(uintptr_t{1});
        const int rc = in_library([&] {
            return aead_ctx_new_dtls(&ctx, AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, key.data(), key.size(), 0,
                                     test::test_properties(), salt.data(), salt.size(), 1, 128);
        });
        const bool fired = g_fail_in.load() == 0;
        g_fail_in = 0;
        if (rc == 0) {
            CHECK(ctx != nullptr);
            in_library([&] { aead_ctx_free(ctx); return 0; });
        } else {
            CHECK((rc == AEAD_ERR_NOMEM || rc == AEAD_ERR_CRYPTO));  // libcrypto's own allocations: either
            CHECK(ctx == nullptr);
            ++failures;
        }
        ERR_clear_error();
        CHECK(g_live.load() == baseline);
        if (!fired) {
            CHECK(rc == 0);
            break;
        }
        REQUIRE(n < 1000);
    }
    CHECK(failures >= 3);  // the context, its template and its window at least
}

TEST_CASE("every allocation fails in turn", "[memory][faults]") {
    with_allocation_failures([](const char *what, auto arm, auto fired) { run_scenarios(what, arm, fired); });
}

#ifdef AEAD_TEST_FAULT_BUILD
TEST_CASE("every fallible libcrypto call fails in turn", "[memory][faults]") {
    with_libcrypto_failures([](const char *what, auto arm, auto fired) { run_scenarios(what, arm, fired); });
}
#endif

TEST_CASE("the steady state allocates nothing per call", "[memory]") {
    for (const auto &a : test::stage_algs()) {
        INFO(a.name);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, test::random_bytes(a.key));
        const Bytes nonce(12, 3), aad(13, 4), pt(1000, 5);
        Bytes sealed(1016), opened(1000);
        REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == 1016);
        const long before = g_allocs.load();
        for (int i = 0; i < 1000; ++i) {
            REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == 1016);
            REQUIRE(test::open(ctx, nonce, aad, sealed, opened) == 1000);
        }
        sealed[5] ^= 1;
        for (int i = 0; i < 100; ++i) REQUIRE(test::open(ctx, nonce, aad, sealed, opened) == AEAD_ERR_AUTH);
        CHECK(g_allocs.load() == before);
    }
}

TEST_CASE("the steady state allocates nothing: random nonces, TLS with the IV given, batches", "[memory]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), aad5(5, 1), pt(64, 2);
    test::Ctx rnd(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, key), tls(AEAD_AES_128_GCM, AEAD_POLICY_TLS13, key, 0, iv);
    Bytes r(92), back(64), t(80);
    REQUIRE(test::seal(rnd, {}, {}, pt, r) == 92);
    REQUIRE(test::seal(tls, test::tls13_nonce(iv, 0), aad5, pt, t) == 80);
    std::vector<Bytes> outs(100, Bytes(80));
    std::vector<Bytes> nonces;
    for (uint64_t s = 1; s <= 1000; ++s) nonces.push_back(test::tls13_nonce(iv, s));
    std::vector<aead_record> recs(100);
    const long before = g_allocs.load();
    for (int i = 0; i < 500; ++i) {
        REQUIRE(test::seal(rnd, {}, {}, pt, r) == 92);
        REQUIRE(test::open(rnd, {}, {}, r, back) == 64);
    }
    for (size_t b = 0; b < 10; ++b) {
        for (size_t i = 0; i < 100; ++i)
            recs[i] = {nonces[b * 100 + i].data(), 12, aad5.data(), 5, pt.data(), 64, outs[i].data(), 80, 0};
        REQUIRE(aead_seal_open_many(tls, AEAD_SEAL, recs.data(), recs.size()) == 100);
    }
    CHECK(g_allocs.load() == before);
}

TEST_CASE("no freed block holds the key", "[memory][keys]") {
    // The scanner works: a block freed with the key in it is found.
    const Bytes probe = test::random_bytes(32);
    std::memcpy(g_secret, probe.data(), 32);
    g_secret_len = 32;
    void *p = OPENSSL_malloc(64);
    std::memcpy(static_cast<uint8_t *>(p) + 7, probe.data(), 32);
    OPENSSL_free(p);
    CHECK(g_key_hits.exchange(0) == 1);

    for (const auto &a : test::stage_algs()) {
        for (const int policy : {AEAD_POLICY_NONE, AEAD_POLICY_TLS12}) {
            INFO(a.name << " policy " << policy);
            const Bytes key = test::random_bytes(a.key);
            std::memcpy(g_secret, key.data(), key.size());
            g_secret_len = key.size();
            aead_ctx *ctx = nullptr;
            REQUIRE(aead_ctx_new(&ctx, a.alg, policy, key.data(), key.size(), 0) == 0);
            Bytes out(116), back(100);
            const Bytes nonce(12, 1), aad(13, 2), pt(100, 3);
            REQUIRE(test::seal(ctx, nonce, aad, pt, out) == 116);
            REQUIRE(test::open(ctx, nonce, aad, out, back) == 100);
            aead_ctx_free(ctx);
            g_secret_len = 0;
            CHECK(g_key_hits.exchange(0) == 0);
        }
    }
}

// Called by main (memory_main.cpp) before anything allocates through libcrypto; it refuses once it has.
bool install_tracking_allocator() {
    if (CRYPTO_set_mem_functions(crypto_malloc, crypto_realloc, crypto_free) != 1) {
        std::fprintf(stderr, "test_memory: CRYPTO_set_mem_functions refused (libcrypto allocated already)\n");
        return false;
    }
    return true;
}

namespace {

// QUIC packet protection under an armed fault: make a context and a header key, protect a packet and
// unprotect it; every failure is a code, a failed protect leaves the packet zeroed, nothing leaks, and
// once disarmed both objects (where made) protect and unprotect correctly.
template <typename Arm, typename Fired>
void run_quic_scenarios(const char *what, Arm arm, Fired fired) {
    warm_up();
    {  // the header-protection cipher is fetched once per process, like the AEADs' (warm_up)
        const Bytes k(16, 1);
        aead_hp *hp = nullptr;
        REQUIRE(in_library([&] { return aead_hp_new(&hp, AEAD_AES_128_GCM, k.data(), 16, test::test_properties()); }) == 0);
        in_library([&] { aead_hp_free(hp); return 0; });
    }
    const long baseline = g_live.load();
    long injected = 0;
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), hp_key = test::random_bytes(16);
    const Bytes header = test::from_hex("4300000000"), payload = test::random_bytes(100);
    auto fresh_packet = [&] {
        Bytes p = header;
        p.insert(p.end(), payload.begin(), payload.end());
        p.resize(p.size() + 16);
        return p;
    };
    auto is_code = [](int64_t rc) { return rc == AEAD_ERR_NOMEM || rc == AEAD_ERR_CRYPTO; };
    for (long n = 1;; ++n) {
        INFO(what << ": failing call #" << n);
        arm(n);
        aead_ctx *ctx = nullptr;
        aead_hp *hp = nullptr;
        const int rc_ctx = in_library([&] {
            return aead_ctx_new_ex(&ctx, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key.data(), 16, 0, test::test_properties(),
                                   iv.data(), 12);
        });
        const int rc_hp = in_library([&] { return aead_hp_new(&hp, AEAD_AES_128_GCM, hp_key.data(), 16, test::test_properties()); });
        if (rc_ctx != 0) CHECK((is_code(rc_ctx) && ctx == nullptr));
        if (rc_hp != 0) CHECK((is_code(rc_hp) && hp == nullptr));
        uint64_t pn_next = 1;
        if (ctx != nullptr && hp != nullptr) {
            Bytes p = fresh_packet();
            const int64_t s = in_library([&] { return aead_quic_protect(ctx, hp, pn_next, p.data(), 5, 100, p.size()); });
            ++pn_next;
            if (s < 0) {
                CHECK(is_code(s));
                CHECK(zeroed(p, p.size()));
            } else {
                REQUIRE(s == static_cast<int64_t>(p.size()));
                const Bytes sent = p;
                uint64_t pn = 0;
                const int64_t o = in_library([&] { return aead_quic_unprotect(ctx, hp, 0, p.data(), 1, p.size(), &pn); });
                if (o < 0) {
                    CHECK(is_code(o));
                    CHECK(Bytes(p.begin(), p.begin() + 5) == Bytes(sent.begin(), sent.begin() + 5));  // header as it was
                } else {
                    CHECK(o == 100);
                    CHECK(Bytes(p.begin() + 5, p.begin() + 105) == payload);
                }
            }
        }
        const bool fault_fired = fired();
        arm(0);
        if (ctx != nullptr && hp != nullptr) {
            Bytes p = fresh_packet();
            CHECK(in_library([&] { return aead_quic_protect(ctx, hp, pn_next, p.data(), 5, 100, p.size()); }) ==
                  static_cast<int64_t>(p.size()));
            uint64_t pn = 0;
            CHECK(in_library([&] { return aead_quic_unprotect(ctx, hp, pn_next - 1, p.data(), 1, p.size(), &pn); }) == 100);
            CHECK(pn == pn_next);
            CHECK(Bytes(p.begin() + 5, p.begin() + 105) == payload);
        }
        in_library([&] {
            aead_ctx_free(ctx);
            aead_hp_free(hp);
            return 0;
        });
        if (!next_fault(fault_fired, baseline, n, 1000, injected)) break;
    }
    std::printf("%s (QUIC): %ld faults injected, each mapped to a code, nothing leaked, objects usable after\n", what,
                injected);
    CHECK(injected > 0);
}

}  // namespace

// The fault sweeps of one scenario runner: every allocation failing in turn, and in a fault-injection
// build every fallible libcrypto call too.
#define FAULT_SWEEP_CASE(title, tags, sweep, runner)                                                   \
    TEST_CASE(title, tags) {                                                                           \
        sweep([](const char *what, auto arm, auto fired) { runner(what, arm, fired); });               \
    }
#ifdef AEAD_TEST_FAULT_BUILD
#define FAULT_SWEEPS(prefix, tags, runner)                                                                  \
    FAULT_SWEEP_CASE(prefix "every allocation fails in turn", tags, with_allocation_failures, runner)       \
    FAULT_SWEEP_CASE(prefix "every fallible libcrypto call fails in turn", tags, with_libcrypto_failures, runner)
#else
#define FAULT_SWEEPS(prefix, tags, runner) \
    FAULT_SWEEP_CASE(prefix "every allocation fails in turn", tags, with_allocation_failures, runner)
#endif

FAULT_SWEEPS("QUIC: ", "[memory][faults]", run_quic_scenarios)

TEST_CASE("QUIC: protect and unprotect allocate nothing in the steady state", "[memory]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12);
    test::Ctx tx(AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key, 0, iv), rx(AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key, 0, iv);
    aead_hp *hp = nullptr;
    REQUIRE(aead_hp_new(&hp, AEAD_AES_128_GCM, key.data(), 16, test::test_properties()) == 0);
    Bytes p(5 + 64 + 16);
    auto round = [&](uint64_t pn) {
        std::fill(p.begin(), p.end(), uint8_t{7});
        p[0] = 0x43;
        uint64_t got = 0;
        return aead_quic_protect(tx, hp, pn, p.data(), 5, 64, p.size()) == static_cast<int64_t>(p.size()) &&
               aead_quic_unprotect(rx, hp, pn - 1, p.data(), 1, p.size(), &got) == 64 && got == pn;
    };
    REQUIRE(round(1));
    const long before = g_allocs.load();
    for (uint64_t pn = 2; pn < 1000; ++pn) REQUIRE(round(pn));
    uint8_t mask[5];
    for (int i = 0; i < 100; ++i) REQUIRE(aead_hp_mask(hp, p.data() + 10, 16, mask, 5) == 5);
    CHECK(g_allocs.load() == before);
    aead_hp_free(hp);
}

TEST_CASE("DTLS: seals, windowed opens, replays and forgeries allocate nothing in the steady state", "[memory]") {
    const Bytes key = test::random_bytes(16), salt = test::random_bytes(4), pt(64, 2);
    aead_ctx *tx = nullptr, *rx = nullptr;
    REQUIRE(aead_ctx_new_dtls(&tx, AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, key.data(), 16, 0, test::test_properties(),
                              salt.data(), 4, 1, 0) == 0);
    REQUIRE(aead_ctx_new_dtls(&rx, AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, key.data(), 16, 0, test::test_properties(),
                              salt.data(), 4, 1, 256) == 0);
    Bytes nonce = salt, aad(13), sealed(80), back(64);
    nonce.resize(12);
    auto set = [&](uint64_t seq) {  // epoch 1 || seq, in the nonce and the AAD's seq_num
        const uint64_t field = uint64_t{1} << 48 | seq;
        for (size_t i = 0; i < 8; ++i) nonce[4 + i] = aad[i] = static_cast<uint8_t>(field >> (56 - 8 * i));
        aad[8] = 23, aad[9] = 0xfe, aad[10] = 0xfd, aad[11] = 0, aad[12] = 64;
    };
    set(0);
    REQUIRE(test::seal(tx, nonce, aad, pt, sealed) == 80);
    REQUIRE(test::open(rx, nonce, aad, sealed, back) == 64);
    const long before = g_allocs.load();
    for (uint64_t seq = 1; seq < 1000; ++seq) {
        set(seq);
        REQUIRE(test::seal(tx, nonce, aad, pt, sealed) == 80);
        REQUIRE(test::open(rx, nonce, aad, sealed, back) == 64);
        REQUIRE(test::open(rx, nonce, aad, sealed, back) == AEAD_ERR_REPLAY);
    }
    sealed[3] ^= 1;
    set(1000);
    for (int i = 0; i < 100; ++i) REQUIRE(test::open(rx, nonce, aad, sealed, back) == AEAD_ERR_AUTH);
    CHECK(g_allocs.load() == before);
    aead_ctx_free(tx);
    aead_ctx_free(rx);
}

TEST_CASE("DTLS 1.3: one-call protect and unprotect allocate nothing in the steady state", "[memory]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), sn = test::random_bytes(16);
    aead_ctx *tx = nullptr, *rx = nullptr;
    aead_hp *hp = nullptr;
    REQUIRE(aead_ctx_new_dtls(&tx, AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, key.data(), 16, 0, test::test_properties(),
                              iv.data(), 12, 2, 0) == 0);
    REQUIRE(aead_ctx_new_dtls(&rx, AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, key.data(), 16, 0, test::test_properties(),
                              iv.data(), 12, 2, 0) == 0);
    REQUIRE(aead_hp_new(&hp, AEAD_AES_128_GCM, sn.data(), 16, test::test_properties()) == 0);
    Bytes r(5 + 64 + 16), wire(r.size());
    auto round = [&](uint64_t seq) {  // header 0x2e: 16-bit number, length field, epoch bits 2
        std::fill(r.begin(), r.end(), uint8_t{7});
        r[0] = 0x2e;
        uint64_t got = 0;
        if (aead_dtls13_protect(tx, hp, seq, r.data(), 5, 64, r.size()) != static_cast<int64_t>(r.size())) return false;
        std::copy(r.begin(), r.end(), wire.begin());
        return aead_dtls13_unprotect(rx, hp, r.data(), r.size(), 0, &got) == 64 && got == seq &&
               aead_dtls13_unprotect(rx, hp, wire.data(), wire.size(), 0, &got) == AEAD_ERR_REPLAY;
    };
    REQUIRE(round(0));
    const long before = g_allocs.load();
    for (uint64_t seq = 1; seq < 1000; ++seq) REQUIRE(round(seq));
    CHECK(g_allocs.load() == before);
    aead_hp_free(hp);
    aead_ctx_free(tx);
    aead_ctx_free(rx);
}

// ---- ABI 1.2 families (AES-CCM, AES-GCM-SIV, AES-OCB3, XChaCha20-Poly1305), and the later AES-SIV and AEGIS ----
namespace {

struct Family {
    int alg;
    size_t key, nonce;
    int policy;
    const char *name;
};

// What the stage offers: GCM-SIV needs OpenSSL >= 3.2; under the FIPS provider only CCM exists.
std::vector<Family> stage_families() {
    const Family all[] = {{AEAD_AES_128_CCM, 16, 13, AEAD_POLICY_NONE, "AES-128-CCM n13"},
                          {AEAD_AES_256_CCM, 32, 7, AEAD_POLICY_NONE, "AES-256-CCM n7"},
                          {AEAD_AES_128_CCM, 16, 12, AEAD_POLICY_TLS13, "AES-128-CCM TLS13"},
                          {AEAD_AES_256_GCM_SIV, 32, 12, AEAD_POLICY_NONE, "AES-256-GCM-SIV"},
                          {AEAD_AES_128_OCB, 16, 15, AEAD_POLICY_NONE, "AES-128-OCB n15"},
                          {AEAD_XCHACHA20_POLY1305, 32, 24, AEAD_POLICY_NONE, "XChaCha20-Poly1305"},
                          {AEAD_XCHACHA20_POLY1305, 32, 0, AEAD_POLICY_RANDOM_NONCE, "XChaCha20-Poly1305 random"},
                          {AEAD_AES_128_SIV, 32, 16, AEAD_POLICY_NONE, "AES-128-SIV n16"},
                          {AEAD_AES_256_SIV, 64, 0, AEAD_POLICY_NONE, "AES-256-SIV deterministic"},
                          {AEAD_AEGIS_128L, 16, 16, AEAD_POLICY_NONE, "AEGIS-128L"},
                          {AEAD_AEGIS_256X4, 32, 32, AEAD_POLICY_NONE, "AEGIS-256X4"},
                          {AEAD_AEGIS_128X2, 16, 0, AEAD_POLICY_RANDOM_NONCE, "AEGIS-128X2 random"}};
    std::vector<Family> v;
    for (const Family &f : all) {
        const Bytes key(f.key, 1);
        aead_ctx *c = nullptr;
        const int rc = in_library([&] {
            return aead_ctx_new_ex(&c, f.alg, f.policy, key.data(), key.size(), 0, test::test_properties(), nullptr, 0);
        });
        in_library([&] { aead_ctx_free(c); return 0; });
        if (rc == 0) v.push_back(f);
        else CHECK(rc == AEAD_ERR_UNSUPPORTED);
    }
    return v;
}

// The random policy's drawn nonce in front of a sealed message: 24 bytes (XChaCha20-Poly1305), or AEGIS's
// whole nonce (16 or 32).
size_t random_prefix(const Family &f) {
    if (f.policy != AEAD_POLICY_RANDOM_NONCE) return 0;
    return f.alg == AEAD_XCHACHA20_POLY1305 ? 24 : aead_nonce_size(f.alg);
}

// Seal then open one message on a family context (random policy: no nonce, the drawn one in front).
struct FamilyCall {
    const Family &f;
    aead_ctx *ctx;
    size_t pre() const { return random_prefix(f); }
    int64_t seal(const Bytes &nonce, const Bytes &aad, const Bytes &pt, Bytes &out, bool batch) const {
        return call(ctx, AEAD_SEAL, f.policy, nonce, aad, pt, out, batch);
    }
    int64_t open(const Bytes &nonce, const Bytes &aad, const Bytes &in, Bytes &out, bool batch) const {
        return call(ctx, AEAD_OPEN, f.policy, nonce, aad, in, out, batch);
    }
};

// As run_scenarios, for the families: a fault anywhere (context creation, the lazily keyed contexts of
// CCM nonce lengths and directions, HChaCha20, each update) is a code with the output zeroed, nothing
// leaks, and the context works once disarmed.
template <typename Arm, typename Fired>
void run_family_scenarios(const char *what, Arm arm, Fired fired) {
    warm_up();
    const auto families = stage_families();
    for (const Family &f : families) {  // the families' ciphers are fetched once per process too
        test::Ctx c(f.alg, f.policy, Bytes(f.key, 1));
        Bytes out(16 + random_prefix(f));
        const Bytes nonce(f.nonce, 0), none;
        test::seal(c, f.policy == AEAD_POLICY_RANDOM_NONCE ? none : nonce, {}, {}, out);
    }
    const long baseline = g_live.load();
    long injected = 0;
    for (const Family &f : families) {
        // OpenSSL's AES-SIV copy (aes_siv_dupctx, providers/implementations/ciphers/cipher_aes_siv_hw.c, and
        // ossl_siv128_copy_ctx, crypto/modes/siv128.c; 3.0 to 4.0) leaks its half-made copy when an
        // allocation inside it fails: nothing frees the new CTR context or the up-referenced ciphers.
        // libaead's own handling of that failure is swept by the libcrypto-call faults (dupctx failing).
        if (f.alg >= AEAD_AES_128_SIV && f.alg <= AEAD_AES_256_SIV && std::strcmp(what, "allocation failures") == 0) {
            std::printf("%s: %s not swept (OpenSSL's SIV copy leaks on allocation failure)\n", what, f.name);
            continue;
        }
        const Bytes key = test::random_bytes(f.key), aad(f.policy == AEAD_POLICY_TLS13 ? 5 : 13, 1),
                    pt = test::random_bytes(100);
        const size_t pre = random_prefix(f), sealed_len = 116 + pre;
        for (long n = 1;; ++n) {
            INFO(what << " " << f.name << ": failing call #" << n);
            uint8_t seq = 0;
            Bytes nonce(f.nonce, 0);
            arm(n);
            aead_ctx *ctx = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            const int rc = in_library([&] {
                return aead_ctx_new_ex(&ctx, f.alg, f.policy, key.data(), key.size(), 0, test::test_properties(), nullptr, 0);
            });
            if (rc != 0) {
                CHECK((rc == AEAD_ERR_NOMEM || rc == AEAD_ERR_CRYPTO));
                CHECK(ctx == nullptr);
            }
            const FamilyCall fc{f, ctx};
            for (int round = 0; rc == 0 && round < 2; ++round) {
                if (!nonce.empty()) nonce.back() = seq++;
                const bool batch = round == 1;
                faulted_round([&](Bytes &out) { return fc.seal(nonce, aad, pt, out, batch); },
                              [&](const Bytes &in, Bytes &out) { return fc.open(nonce, aad, in, out, batch); }, pt,
                              sealed_len);
            }
            const bool fault_fired = fired();
            arm(0);
            if (rc == 0) {
                if (!nonce.empty()) nonce.back() = seq++;
                Bytes sealed(sealed_len), opened(100);
                CHECK(in_library([&] { return fc.seal(nonce, aad, pt, sealed, false); }) == static_cast<int64_t>(sealed_len));
                CHECK(in_library([&] { return fc.open(nonce, aad, sealed, opened, false); }) == 100);
                CHECK(opened == pt);
                sealed[pre + 3] ^= 1;
                CHECK(in_library([&] { return fc.open(nonce, aad, sealed, opened, false); }) == AEAD_ERR_AUTH);
                in_library([&] { aead_ctx_free(ctx); return 0; });
            }
            if (!next_fault(fault_fired, baseline, n, 1000, injected)) break;
        }
    }
    std::printf("%s (families): %ld faults injected over %zu families, each mapped to a code, nothing leaked\n", what,
                injected, families.size());
    CHECK(injected > 0);
}

}  // namespace

FAULT_SWEEPS("families: ", "[memory][faults][families]", run_family_scenarios)

// No allocation per call by libaead for any family, nor by libcrypto for CCM, OCB3 and XChaCha20-Poly1305.
// AES-SIV's provider serves one operation per keyed state, so each call copies it (libcrypto allocates).
// OpenSSL's GCM-SIV provider itself allocates per operation (it copies the AAD into a buffer of its own
// and re-initialises its internal AES-ECB context per nonce): counted and printed, and required to be
// the same number every call (no growth, nothing left live).
TEST_CASE("families: the steady state allocates nothing per call", "[memory][families]") {
    for (const Family &f : stage_families()) {
        INFO(f.name);
        test::Ctx ctx(f.alg, f.policy, test::random_bytes(f.key));
        const FamilyCall fc{f, ctx};
        const Bytes nonce(f.nonce, 3), aad(f.policy == AEAD_POLICY_TLS13 ? 5 : 13, 4), pt(1000, 5);
        const size_t pre = fc.pre();
        Bytes sealed(1016 + pre), opened(1000);
        // Made before counting: the TLS 1.3 policy needs increasing sequence numbers.
        std::vector<Bytes> nonces;
        for (uint64_t seq = 0; seq <= 503; ++seq)
            nonces.push_back(f.policy == AEAD_POLICY_TLS13 ? test::tls13_nonce(nonce, seq) : nonce);
        size_t next = 0;
        auto next_nonce = [&]() -> const Bytes & { return nonces[next++]; };
        const Bytes *np = &next_nonce();  // the nonce of the latest seal
        REQUIRE(fc.seal(*np, aad, pt, sealed, false) == static_cast<int64_t>(1016 + pre));
        REQUIRE(fc.open(*np, aad, sealed, opened, false) == 1000);
        sealed[pre] ^= 1;
        REQUIRE(fc.open(*np, aad, sealed, opened, false) == AEAD_ERR_AUTH);  // warms the path of a failed open
        sealed[pre] ^= 1;
        for (int i = 0; i < 3; ++i) {  // and a few calls in the library, so that what lives across calls lives now
            np = &next_nonce();
            REQUIRE(in_library([&] { return fc.seal(*np, aad, pt, sealed, false); }) == static_cast<int64_t>(1016 + pre));
            REQUIRE(in_library([&] { return fc.open(*np, aad, sealed, opened, false); }) == 1000);
        }
        const long live = g_live.load();
        long before = g_allocs.load();
        for (int i = 0; i < 500; ++i) {
            np = &next_nonce();
            REQUIRE(in_library([&] { return fc.seal(*np, aad, pt, sealed, false); }) == static_cast<int64_t>(1016 + pre));
            REQUIRE(in_library([&] { return fc.open(*np, aad, sealed, opened, false); }) == 1000);
        }
        const long made = g_allocs.load() - before;
        before = g_allocs.load();
        sealed[pre] ^= 1;
        for (int i = 0; i < 100; ++i)
            REQUIRE(in_library([&] { return fc.open(*np, aad, sealed, opened, false); }) == AEAD_ERR_AUTH);
        const long made_failing = g_allocs.load() - before;
        CHECK(g_live.load() == live);
        std::printf("%s: %ld allocations in 1000 seals and opens, %ld in 100 failed opens\n", f.name, made, made_failing);
        const bool siv = f.alg >= AEAD_AES_128_SIV && f.alg <= AEAD_AES_256_SIV;
        if (f.alg == AEAD_AES_256_GCM_SIV || siv) {
            // inside OpenSSL's GCM-SIV provider, and SIV's per-call copy of the keyed state (shim/siv.cpp):
            // the same number every call
            CHECK(made % 1000 == 0);
            CHECK(made > 0);
        } else {
            CHECK(made == 0);
        }
        // A failed CCM or GCM-SIV open: the provider raises an OpenSSL error, whose queue entry libcrypto
        // allocates (freed again before the call returns: nothing stays live). The others raise none.
        // SIV's failed open makes its per-call copy too.
        if ((f.alg >= AEAD_AES_128_CCM && f.alg <= AEAD_AES_256_GCM_SIV) || siv) CHECK(made_failing % 100 == 0);
        else CHECK(made_failing == 0);
    }
}

TEST_CASE("families: no freed block holds the key", "[memory][keys][families]") {
    for (const Family &f : stage_families()) {
        INFO(f.name);
        const Bytes key = test::random_bytes(f.key);
        std::memcpy(g_secret, key.data(), key.size());
        g_secret_len = key.size();
        {
            test::Ctx ctx(f.alg, f.policy, key);
            const FamilyCall fc{f, ctx};
            Bytes out(116 + fc.pre()), back(100);
            const Bytes nonce(f.nonce, 1), aad(f.policy == AEAD_POLICY_TLS13 ? 5 : 13, 2), pt(100, 3);
            REQUIRE(fc.seal(nonce, aad, pt, out, false) == static_cast<int64_t>(116 + fc.pre()));
            REQUIRE(fc.open(nonce, aad, out, back, false) == 100);
        }
        g_secret_len = 0;
        CHECK(g_key_hits.exchange(0) == 0);
    }
}

#ifdef AEAD_TEST_FAULT_BUILD
namespace {

// One HPKE suite and mode for the fault sweeps.
struct HpkeRun {
    int kem, kdf, mode;
};

// One HPKE exchange with a fault armed (DeriveKeyPair, both setups, a seal, an open, exports): each call
// succeeds or fails with a code, leaving no context and zeroed outputs. Returns whether the whole exchange
// succeeded. sk_s and pk_s: the sender's keys for the auth modes (else empty).
bool hpke_exchange(const HpkeRun &run, const Bytes &sk_r, const Bytes &pk_r, const Bytes &sk_s, const Bytes &pk_s) {
    const bool psk_mode = run.mode == AEAD_HPKE_MODE_PSK || run.mode == AEAD_HPKE_MODE_AUTH_PSK;
    const Bytes info(9, 1), psk(psk_mode ? 32 : 0, 2), psk_id(psk_mode ? 3 : 0, 3), aad(4, 4), pt(50, 5), ikm(32, 6);
    aead_hpke_params p{sizeof p, run.mode, run.kem, run.kdf, AEAD_HPKE_AEAD_AES_128_GCM, info.data(), info.size(),
                       psk.data(), psk.size(), psk_id.data(), psk_id.size(), test::test_properties(), 0, nullptr, 0};
    Bytes sk(aead_hpke_private_key_size(run.kem), 0x5A), pk(aead_hpke_public_key_size(run.kem), 0x5A);
    const int d = in_library([&] { return aead_hpke_derive_keypair(p.kem, ikm.data(), ikm.size(), sk.data(), sk.size(),
                                                                   pk.data(), pk.size(), p.properties); });
    if (d != 0) {
        CHECK(d < 0);
        CHECK((zeroed(sk, sk.size()) && zeroed(pk, pk.size())));
        return false;
    }
    aead_hpke *tx = reinterpret_cast<aead_hpke *>(uintptr_t{1}), *rx = reinterpret_cast<aead_hpke *>(uintptr_t{1});
    Bytes enc(aead_hpke_enc_size(run.kem), 0x5A);
    const int s = in_library([&] {
        return aead_hpke_setup_sender(&tx, &p, pk_r.data(), pk_r.size(), sk_s.empty() ? nullptr : sk_s.data(),
                                      sk_s.size(), enc.data(), enc.size());
    });
    if (s != 0) {
        CHECK(s < 0);
        CHECK(tx == nullptr);
        CHECK(zeroed(enc, enc.size()));
        return false;
    }
    const int r = in_library([&] {
        return aead_hpke_setup_recipient(&rx, &p, enc.data(), enc.size(), sk_r.data(), sk_r.size(),
                                         pk_s.empty() ? nullptr : pk_s.data(), pk_s.size());
    });
    bool ok = r == 0;
    if (r != 0) {
        CHECK(r < 0);
        CHECK(rx == nullptr);
    } else {
        Bytes ct(66, 0x5A), back(50, 0x5A), e1(40, 0x5A), e2(40, 0x5A);
        const int64_t sealed = in_library([&] { return aead_hpke_seal(tx, aad.data(), aad.size(), pt.data(), pt.size(), ct.data(), ct.size(), nullptr); });
        if (sealed < 0) CHECK(zeroed(ct, ct.size()));
        const int64_t opened = sealed < 0 ? sealed : in_library([&] {
            return aead_hpke_open(rx, aad.data(), aad.size(), ct.data(), ct.size(), back.data(), back.size());
        });
        if (sealed >= 0 && opened < 0) CHECK(zeroed(back, back.size()));
        if (opened >= 0) CHECK(back == pt);
        const int x1 = in_library([&] { return aead_hpke_export(tx, info.data(), info.size(), e1.data(), e1.size()); });
        const int x2 = in_library([&] { return aead_hpke_export(rx, info.data(), info.size(), e2.data(), e2.size()); });
        if (x1 != 0) CHECK(zeroed(e1, e1.size()));
        if (x2 != 0) CHECK(zeroed(e2, e2.size()));
        if (x1 == 0 && x2 == 0) CHECK(e1 == e2);
        ok = sealed == 66 && opened == 50 && x1 == 0 && x2 == 0;
    }
    in_library([&] {
        aead_hpke_free(tx);
        aead_hpke_free(rx);
        return 0;
    });
    return ok;
}

template <typename Arm, typename Fired>
void run_hpke(const HpkeRun &run, const char *what, Arm arm, Fired fired) {
    warm_up();
    const bool auth = run.mode == AEAD_HPKE_MODE_AUTH || run.mode == AEAD_HPKE_MODE_AUTH_PSK;
    const size_t nsk = aead_hpke_private_key_size(run.kem), npk = aead_hpke_public_key_size(run.kem);
    Bytes sk_r(nsk), pk_r(npk), sk_s(auth ? nsk : 0), pk_s(auth ? npk : 0);
    REQUIRE(aead_hpke_generate_keypair(run.kem, sk_r.data(), nsk, pk_r.data(), npk, test::test_properties()) == 0);
    if (auth)
        REQUIRE(aead_hpke_generate_keypair(run.kem, sk_s.data(), nsk, pk_s.data(), npk, test::test_properties()) == 0);
    REQUIRE(hpke_exchange(run, sk_r, pk_r, sk_s, pk_s));  // once unarmed: libcrypto's lazily made objects exist now
    ERR_clear_error();
    const long baseline = g_live.load();
    long injected = 0;
    for (long n = 1;; ++n) {
        INFO(what << ": failing #" << n);
        arm(n);
        hpke_exchange(run, sk_r, pk_r, sk_s, pk_s);
        const bool fault_fired = fired();
        arm(0);
        if (!next_fault(fault_fired, baseline, n, 5000, injected)) break;
    }
    CHECK(hpke_exchange(run, sk_r, pk_r, sk_s, pk_s));  // and everything works again
    std::printf("HPKE (KEM 0x%04x, KDF 0x%04x, mode %d), %s: %ld faults injected, each a code with no context and "
                "zeroed outputs, nothing leaked\n", run.kem, run.kdf, run.mode, what, injected);
    CHECK(injected > 0);
}

// The suites of the sweep: P-256 in auth_psk mode (every step of the DHKEM) with HKDF's two-stage and
// SHAKE's one-stage key schedule; where libcrypto has ML-KEM (OpenSSL 3.5 and later), ML-KEM and a
// hybrid in psk mode too.
std::vector<HpkeRun> hpke_runs() {
    std::vector<HpkeRun> runs = {{AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_MODE_AUTH_PSK},
                                 {AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_SHAKE256, AEAD_HPKE_MODE_AUTH_PSK}};
#if OPENSSL_VERSION_NUMBER >= 0x30500000L && !defined(OPENSSL_NO_ML_KEM)
    if (OpenSSL_version_num() >= 0x30500000L) {
        runs.push_back({AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_SHAKE256, AEAD_HPKE_MODE_PSK});
        runs.push_back({AEAD_HPKE_KEM_MLKEM768_P256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_MODE_PSK});
    }
#endif
    return runs;
}

}  // namespace

// (Only libcrypto call failures: with OpenSSL's own allocations failing, the key and KDF fetches leave
// libcrypto's caches in other states than a clean run does, so the live-block count proves nothing there.)
TEST_CASE("HPKE: every fallible libcrypto call fails in turn", "[memory][faults][hpke]") {
    for (const HpkeRun &run : hpke_runs())
        with_libcrypto_failures([&run](const char *what, auto arm, auto fired) { run_hpke(run, what, arm, fired); });
}
#endif

TEST_CASE("HPKE: seals and opens on an established context allocate nothing", "[memory][hpke]") {
    Bytes sk(32), pk(65), enc(65);
    REQUIRE(aead_hpke_generate_keypair(AEAD_HPKE_KEM_P256_SHA256, sk.data(), 32, pk.data(), 65, test::test_properties()) == 0);
    aead_hpke_params p{sizeof p, AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256,
                       AEAD_HPKE_AEAD_AES_128_GCM, nullptr, 0, nullptr, 0, nullptr, 0, test::test_properties(), 0, nullptr, 0};
    aead_hpke *tx = nullptr, *rx = nullptr;
    REQUIRE(aead_hpke_setup_sender(&tx, &p, pk.data(), pk.size(), nullptr, 0, enc.data(), enc.size()) == 0);
    REQUIRE(aead_hpke_setup_recipient(&rx, &p, enc.data(), enc.size(), sk.data(), sk.size(), nullptr, 0) == 0);
    const Bytes pt(64, 1), aad(8, 2);
    Bytes ct(80), back(64);
    REQUIRE(aead_hpke_seal(tx, aad.data(), aad.size(), pt.data(), pt.size(), ct.data(), ct.size(), nullptr) == 80);
    REQUIRE(aead_hpke_open(rx, aad.data(), aad.size(), ct.data(), ct.size(), back.data(), back.size()) == 64);
    const long before = g_allocs.load();
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(aead_hpke_seal(tx, aad.data(), aad.size(), pt.data(), pt.size(), ct.data(), ct.size(), nullptr) == 80);
        REQUIRE(aead_hpke_open(rx, aad.data(), aad.size(), ct.data(), ct.size(), back.data(), back.size()) == 64);
    }
    CHECK(g_allocs.load() == before);
    aead_hpke_free(tx);
    aead_hpke_free(rx);
}
