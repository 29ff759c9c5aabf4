// A hostile but ordinary caller: it forks, it changes argument buffers from another thread
// while a call runs, it passes lengths whose sums wrap. None of it may make libaead seal two records
// under one nonce, seal under a nonce it did not check, or write outside [out, out + out_cap).
#include "catch_compat.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <atomic>
#include <csignal>
#include <cstring>
#include <functional>
#include <set>
#include <thread>

#include "support.h"

using test::Bytes;

namespace {

using Nonce = std::array<uint8_t, 12>;

using test::under_valgrind;

// ---- processes -------------------------------------------------------------------------------------

// A child made by the clone system call itself, as a runtime that bypasses fork() makes one: no atfork
// handler runs in it. Only the flags are set (a copy of the parent, SIGCHLD at exit), but where the flags
// go differs: s390 (and CRIS) take the new stack first (the kernel's CLONE_BACKWARDS2).
pid_t raw_clone() {
#if defined(__s390__) || defined(__CRIS__)
    return static_cast<pid_t>(syscall(SYS_clone, 0L, static_cast<long>(SIGCHLD), 0L, 0L, 0L));
#else
    return static_cast<pid_t>(syscall(SYS_clone, static_cast<long>(SIGCHLD), 0L, 0L, 0L, 0L));
#endif
}

// Whether a page marked MADV_WIPEONFORK really reads as zeros in a child: what detects a raw clone's
// child. qemu-user accepts the advice and ignores it, and so may a sandbox; there the library knows of
// a fork only from its atfork handler (docs/security.md), so the raw-clone cases cannot hold.
bool wipe_on_fork_works() {
#ifdef MADV_WIPEONFORK
    const long page = sysconf(_SC_PAGESIZE);
    void *p = mmap(nullptr, static_cast<size_t>(page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    auto *word = static_cast<volatile uint64_t *>(p);
    bool works = false;
    if (madvise(p, static_cast<size_t>(page), MADV_WIPEONFORK) == 0) {
        *word = 0x5a5a5a5a5a5a5a5a;
        const pid_t pid = fork();
        if (pid == 0) _exit(*word == 0 ? 0 : 1);
        int status = 0;
        works = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                *word == 0x5a5a5a5a5a5a5a5a;
    }
    munmap(p, static_cast<size_t>(page));
    return works;
#else
    return false;
#endif
}

// Why the raw-clone cases cannot run here, or nullptr. Valgrind does not model a raw clone either.
const char *no_raw_clone_here() {
    static const bool wipes = wipe_on_fork_works();
    if (under_valgrind()) return "raw clone under valgrind";
    if (!wipes) return "MADV_WIPEONFORK takes no effect here (qemu-user or a sandbox): a child of a raw clone "
                       "is not detected, only fork()'s children are (docs/security.md)";
    return nullptr;
}

// Runs body in a child made by fork() (or, with raw, by a clone system call that skips the atfork
// handlers); the child exits with body's value and never returns into Catch. Returns the exit status.
int in_child(const std::function<int()> &body, bool raw = false) {
    const pid_t pid = raw ? raw_clone() : fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) test::child_exit(body());
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct Pipe {
    int r = -1, w = -1;
    Pipe() {
        int fds[2];
        if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
        r = fds[0];
        w = fds[1];
    }
    ~Pipe() {
        if (r >= 0) close(r);
        if (w >= 0) close(w);
    }
    void close_write() {
        close(w);
        w = -1;
    }
};

bool write_all(int fd, const void *p, size_t n) {
    const auto *b = static_cast<const uint8_t *>(p);
    while (n != 0) {
        const ssize_t k = write(fd, b, n);
        if (k <= 0) return false;
        b += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

std::vector<Nonce> read_nonces(int fd) {
    std::vector<Nonce> all;
    Nonce n{};
    size_t have = 0;
    uint8_t buf[4096];
    for (;;) {
        const ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0) break;
        for (ssize_t i = 0; i < k; ++i) {
            n[have++] = buf[i];
            if (have == n.size()) {
                all.push_back(n);
                have = 0;
            }
        }
    }
    return all;
}

// ---- random nonces ---------------------------------------------------------------------------------

const Bytes kKey = test::from_hex("000102030405060708090a0b0c0d0e0f");
const Bytes kAad = test::from_hex("0102030405");

// Seals count random-nonce records of a distinct plaintext each, checks that each opens, and appends
// the nonces drawn. Returns false on any failure.
bool seal_random(aead_ctx *c, int count, std::vector<Nonce> &nonces) {
    for (int i = 0; i < count; ++i) {
        Bytes pt(40, static_cast<uint8_t>(i));
        Bytes out(pt.size() + 28), back(pt.size());
        if (test::seal(c, {}, kAad, pt, out) != static_cast<int64_t>(out.size())) return false;
        if (test::open(c, {}, kAad, out, back) != static_cast<int64_t>(pt.size()) || back != pt) return false;
        Nonce n;
        std::memcpy(n.data(), out.data(), n.size());
        nonces.push_back(n);
    }
    return true;
}

// The same through one batch.
bool seal_random_batch(aead_ctx *c, int count, std::vector<Nonce> &nonces) {
    std::vector<Bytes> outs(static_cast<size_t>(count), Bytes(16 + 28));
    const Bytes pt(16, 0x5a);
    std::vector<aead_record> recs(static_cast<size_t>(count));
    for (size_t i = 0; i < recs.size(); ++i)
        recs[i] = aead_record{nullptr, 0, kAad.data(), kAad.size(), pt.data(), pt.size(), outs[i].data(), outs[i].size(), 0};
    if (aead_seal_open_many(c, AEAD_SEAL, recs.data(), recs.size()) != count) return false;
    for (const Bytes &o : outs) {
        Nonce n;
        std::memcpy(n.data(), o.data(), n.size());
        nonces.push_back(n);
    }
    return true;
}

bool send(int fd, const std::vector<Nonce> &nonces) {
    return nonces.empty() || write_all(fd, nonces.data(), nonces.size() * sizeof(Nonce));
}

size_t repeats(const std::vector<Nonce> &all) {
    std::set<Nonce> seen(all.begin(), all.end());
    return all.size() - seen.size();
}

// Parent, child and grandchild all seal on one random-nonce context made (and used k times, from
// two threads as well) before the fork. Every nonce of every process comes back to the parent.
void fork_random_after(int k, bool raw) {
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, kKey);
    std::vector<Nonce> before;
    REQUIRE(seal_random(c, k, before));
    // Other threads' workers hold pools of their own: draw from two of them too, then join (a fork
    // copies only the calling thread, but every worker's pool).
    std::vector<Nonce> from_threads[2];
    {
        std::thread t1([&] { seal_random(c, 3, from_threads[0]); });
        std::thread t2([&] { seal_random(c, 3, from_threads[1]); });
        t1.join();
        t2.join();
    }
    REQUIRE(from_threads[0].size() == 3);
    REQUIRE(from_threads[1].size() == 3);

    Pipe p;
    const pid_t child = raw ? raw_clone() : fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(p.r);
        std::vector<Nonce> mine;
        bool ok = seal_random(c, 100, mine) && seal_random_batch(c, 10, mine);
        // The grandchild forks from a child that has drawn (and so pooled) nonces of its own.
        const int grandchild = in_child([&] {
            std::vector<Nonce> g;
            return seal_random(c, 100, g) && seal_random_batch(c, 5, g) && send(p.w, g) ? 0 : 1;
        }, raw);
        ok = ok && seal_random(c, 100, mine) && send(p.w, mine);
        test::child_exit(ok && grandchild == 0 ? 0 : 1);
    }
    std::vector<Nonce> parent;
    const bool parent_ok = seal_random(c, 200, parent) && seal_random_batch(c, 10, parent);
    p.close_write();
    std::vector<Nonce> all = read_nonces(p.r);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(parent_ok);
    CHECK(all.size() == 100 + 10 + 100 + 5 + 100);
    all.insert(all.end(), parent.begin(), parent.end());
    all.insert(all.end(), before.begin(), before.end());
    for (const auto &t : from_threads) all.insert(all.end(), t.begin(), t.end());
    INFO("fork after " << k << " seals (" << (raw ? "raw clone" : "fork") << "), " << all.size() << " nonces");
    CHECK(repeats(all) == 0);
}

// ---- TLS ---------------------------------------------------------------------------------------------

const Bytes kIv = test::from_hex("1b2c3d4e5f60718293a4b5c6");

Nonce tls13_nonce(uint64_t seq) {
    Nonce n;
    std::memcpy(n.data(), kIv.data(), n.size());
    for (int i = 0; i < 8; ++i) n[11 - static_cast<size_t>(i)] ^= static_cast<uint8_t>(seq >> (8 * i));
    return n;
}

int64_t seal_seq(aead_ctx *c, uint64_t seq, Bytes &out, const Bytes &aad) {
    const Nonce n = tls13_nonce(seq);
    const Bytes pt(32, static_cast<uint8_t>(seq));
    return aead_seal_open(c, AEAD_SEAL, n.data(), n.size(), aad.data(), aad.size(), pt.data(), pt.size(), out.data(),
                          out.size());
}

// Child's checks on a TLS context inherited across fork; the exit code names the first that failed.
int tls_child_checks(aead_ctx *inherited, int policy, const Bytes &aad, const Bytes &parent_record, uint64_t next) {
    Bytes out(48, 0xa5);
    if (seal_seq(inherited, next, out, aad) != AEAD_ERR_FORKED) return 2;
    if (out != Bytes(48, 0xa5)) return 3;  // refused: nothing written
    if (seal_seq(inherited, next + 1000, out, aad) != AEAD_ERR_FORKED) return 4;
    const Nonce n = tls13_nonce(next);
    const Bytes pt(32, 1);
    aead_record r{n.data(), n.size(), aad.data(), aad.size(), pt.data(), pt.size(), out.data(), out.size(), 0};
    if (aead_seal_open_many(inherited, AEAD_SEAL, &r, 1) != 0 || r.result != AEAD_ERR_FORKED) return 5;
    // Opening keeps working.
    const Nonce n1 = tls13_nonce(1);
    Bytes back(32);
    if (aead_seal_open(inherited, AEAD_OPEN, n1.data(), n1.size(), aad.data(), aad.size(), parent_record.data(),
                       parent_record.size(), back.data(), back.size()) != 32 ||
        back != Bytes(32, 1))
        return 6;
    // A context made in the child seals there, and is in turn refused in the child's own child.
    test::Ctx own(AEAD_AES_128_GCM, policy, kKey, 0, kIv);
    if (seal_seq(own, 0, out, aad) != 48 || seal_seq(own, 1, out, aad) != 48) return 7;
    if (in_child([&] { return seal_seq(own, 2, out, aad) == AEAD_ERR_FORKED ? 0 : 1; }) != 0) return 8;
    if (seal_seq(own, 2, out, aad) != 48) return 9;
    if (std::strstr(aead_strerror(AEAD_ERR_FORKED), "fork") == nullptr) return 10;
    return 0;
}

void tls_across_fork(int policy, bool raw) {
    const Bytes aad = policy == AEAD_POLICY_TLS13 ? kAad : Bytes(13, 0x17);
    test::Ctx c(AEAD_AES_128_GCM, policy, kKey, 0, kIv);
    Bytes record1;
    for (uint64_t s = 0; s < 3; ++s) {
        Bytes out(48);
        REQUIRE(seal_seq(c, s, out, aad) == 48);
        if (s == 1) record1 = out;
    }
    const int status = in_child([&] { return tls_child_checks(c, policy, aad, record1, 3); }, raw);
    INFO("child exit status (the failed check's number): " << status);
    CHECK(status == 0);
    // The parent was not affected: its sequence goes on where it was.
    Bytes out(48);
    CHECK(seal_seq(c, 2, out, aad) == AEAD_ERR_NONCE_ORDER);
    CHECK(seal_seq(c, 3, out, aad) == 48);
}

}  // namespace

TEST_CASE("random nonces: parent, child and grandchild never share one", "[fork]") {
    for (int k : {0, 1, 31, 32, 33, 100}) fork_random_after(k, false);
}

TEST_CASE("random nonces: a raw clone that skips the atfork handlers draws fresh ones too", "[fork]") {
    // MADV_WIPEONFORK (Linux >= 4.14) is what catches this child.
    if (const char *why = no_raw_clone_here()) {
        WARN("skipped: " << why);
        return;
    }
    for (int k : {0, 5}) fork_random_after(k, true);
}

TEST_CASE("TLS contexts: seals refused in a forked child, opens work, the parent goes on", "[fork]") {
    for (int policy : {AEAD_POLICY_TLS12, AEAD_POLICY_TLS13}) {
        INFO("policy " << policy);
        tls_across_fork(policy, false);
        if (const char *why = no_raw_clone_here())
            WARN("raw-clone half skipped: " << why);
        else
            tls_across_fork(policy, true);
    }
}

TEST_CASE("a context made before fork is unaffected in the parent after many forks", "[fork]") {
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_TLS13, kKey, 0, kIv);
    Bytes out(48);
    for (uint64_t s = 0; s < 20; ++s) {
        REQUIRE(in_child([] { return 0; }) == 0);
        REQUIRE(seal_seq(c, s, out, kAad) == 48);
    }
}

// ---- argument buffers changed during the call ----------------------------------------------------

#ifndef AEAD_TEST_TSAN
namespace {

// A nonce buffer another thread keeps advancing (never backwards): sequence s in the low 4 bytes, one
// aligned store per value, published after the store. The main thread seals from the same buffer.
struct MovingNonce {
    alignas(16) uint8_t storage[16] = {};
    uint8_t *nonce = storage + 4;  // nonce[4..12) is the aligned 8-byte word storage[8..16)
    std::atomic<uint64_t> published{0};
    std::atomic<bool> stop{false};

    MovingNonce() { set(0); }
    void set(uint64_t s) {
        const Nonce n = tls13_nonce(s);
        uint64_t word;
        std::memcpy(&word, n.data() + 4, 8);
        std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t *>(storage + 8)).store(word, std::memory_order_relaxed);
        if (s == 0) std::memcpy(nonce, n.data(), 4);
    }
    // One step at a random moment of each of the sealing thread's calls, roughly: a writer that ran
    // flat out would move the buffer on before the next call could read the old value again, and a
    // nonce read twice would then go unnoticed. `calls` is bumped by the sealer before each call.
    std::atomic<uint64_t> calls{0};
    void run() {
        uint64_t seen = 0, rng = 0x9e3779b97f4a7c15u;
        for (uint64_t s = 1; !stop.load(std::memory_order_relaxed); ++s) {
            while (calls.load(std::memory_order_relaxed) == seen && !stop.load(std::memory_order_relaxed)) {
            }
            seen = calls.load(std::memory_order_relaxed);
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            for (uint64_t d = rng % 64; d != 0; --d) std::atomic_signal_fence(std::memory_order_seq_cst);
            set(s);
            published.store(s, std::memory_order_seq_cst);
        }
    }
};

// The one sequence in [lo, hi] under which record (ct || tag of 32 bytes of `seq`-derived plaintext)
// opens, through a context with no policy: UINT64_MAX if none. Several would mean a broken test.
uint64_t sequence_of(aead_ctx *plain, const Bytes &record, const Bytes &aad, uint64_t lo, uint64_t hi, int &found) {
    found = 0;
    uint64_t which = UINT64_MAX;
    Bytes back(record.size() - 16);
    for (uint64_t s = lo; s <= hi; ++s) {
        const Nonce n = tls13_nonce(s);
        if (aead_seal_open(plain, AEAD_OPEN, n.data(), n.size(), aad.data(), aad.size(), record.data(), record.size(),
                           back.data(), back.size()) >= 0) {
            ++found;
            which = s;
        }
    }
    return which;
}

// Valgrind runs one thread at a time, so the racing cases cannot race under it: says so (a warning in the
// output) and returns true there.
bool racing_skipped_under_valgrind() {
    if (!under_valgrind()) return false;
    WARN("skipped: " "racing threads under valgrind");
    return true;
}

}  // namespace

TEST_CASE("a nonce buffer changed during seals: each record is sealed under the nonce that was checked", "[race]") {
    if (racing_skipped_under_valgrind()) return;
    // (AEAD_POLICY_XOR_COUNTER with the IV given builds its nonces as TLS 1.3 does, with any AAD.)
    for (int policy : {AEAD_POLICY_TLS12, AEAD_POLICY_TLS13, AEAD_POLICY_XOR_COUNTER}) {
        for (bool batch : {false, true}) {
            INFO("policy " << policy << (batch ? ", batches" : ", single seals"));
            const Bytes aad = policy == AEAD_POLICY_TLS12 ? Bytes(13, 0x17) : kAad;
            test::Ctx c(AEAD_AES_128_GCM, policy, kKey, 0, kIv);
            test::Ctx plain(AEAD_AES_128_GCM, AEAD_POLICY_NONE, kKey);
            MovingNonce mn;
            std::thread writer([&] { mn.run(); });
            struct Accepted {
                Bytes record;
                uint64_t lo, hi;
            };
            std::vector<Accepted> accepted;
            size_t refused = 0, unbounded = 0;
            constexpr uint64_t kMaxCandidates = 20000;
            const Bytes pt(32, 0x42);
            // Until 1500 records are accepted (with a bounded range of candidates: a call descheduled while
            // the writer ran on is not searched), or 20 s on a loaded machine.
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (accepted.size() < 1500 && std::chrono::steady_clock::now() < deadline) {
                const uint64_t lo = mn.published.load(std::memory_order_seq_cst);
                mn.calls.fetch_add(1, std::memory_order_relaxed);
                constexpr size_t kBatch = 8;
                std::array<Bytes, kBatch> outs;
                std::array<aead_record, kBatch> recs{};
                const size_t n = batch ? kBatch : 1;
                for (size_t i = 0; i < n; ++i) {
                    outs[i] = Bytes(48);
                    recs[i] = aead_record{mn.nonce, 12, aad.data(), aad.size(), pt.data(), pt.size(),
                                          outs[i].data(), outs[i].size(), 0};
                }
                if (batch) {
                    aead_seal_open_many(c, AEAD_SEAL, recs.data(), n);
                } else {
                    recs[0].result = aead_seal_open(c, AEAD_SEAL, mn.nonce, 12, aad.data(), aad.size(), pt.data(),
                                                    pt.size(), outs[0].data(), outs[0].size());
                }
                // The writer may be one value past what it published when the call read the buffer.
                const uint64_t hi = mn.published.load(std::memory_order_seq_cst) + 1;
                for (size_t i = 0; i < n; ++i) {
                    if (recs[i].result == 48) {
                        if (hi - lo <= kMaxCandidates) accepted.push_back({outs[i], lo, hi});
                        else ++unbounded;
                    } else {
                        REQUIRE(recs[i].result == AEAD_ERR_NONCE_ORDER);
                        REQUIRE(outs[i] == Bytes(48, 0));  // refused: nothing written
                        ++refused;
                    }
                }
            }
            mn.stop = true;
            writer.join();
            INFO(accepted.size() << " records accepted and attributable, " << unbounded
                                 << " accepted while the writer ran too far to search, " << refused << " refused");
            REQUIRE(accepted.size() >= 100);
            uint64_t last = 0;
            bool first = true;
            size_t unattributed = 0, ambiguous = 0, out_of_order = 0;
            for (const Accepted &a : accepted) {
                int found = 0;
                const uint64_t s = sequence_of(plain, a.record, aad, a.lo, a.hi, found);
                if (found == 0) ++unattributed;
                if (found > 1) ++ambiguous;
                if (found == 1) {
                    // Strictly increasing in call order: a nonce used twice would repeat a sequence.
                    if (!first && s <= last) ++out_of_order;
                    last = s;
                    first = false;
                }
            }
            CHECK(unattributed == 0);
            CHECK(ambiguous == 0);
            CHECK(out_of_order == 0);
        }
    }
}

TEST_CASE("random nonces: an out buffer scribbled on during the seal never changes the nonce used", "[race]") {
    if (racing_skipped_under_valgrind()) return;
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, kKey);
    test::Ctx plain(AEAD_AES_128_GCM, AEAD_POLICY_NONE, kKey);
    const Nonce stale = tls13_nonce(7);  // what the other thread keeps writing over the nonce's place
    alignas(16) uint8_t out[64] = {};
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        uint64_t head;
        uint32_t tail;
        std::memcpy(&head, stale.data(), 8);
        std::memcpy(&tail, stale.data() + 8, 4);
        while (!stop.load(std::memory_order_relaxed)) {
            std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t *>(out)).store(head, std::memory_order_relaxed);
            std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t *>(out + 8)).store(tail, std::memory_order_relaxed);
        }
    });
    const Bytes pt(20, 0x33);
    // Until 300 seals saw the writer at work (their nonce overwritten by it afterwards), or 10 s.
    size_t opened_under_stale = 0, sealed = 0, scribbled = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((scribbled < 300 || sealed < 3000) && std::chrono::steady_clock::now() < deadline) {
        if (aead_seal_open(c, AEAD_SEAL, nullptr, 0, kAad.data(), kAad.size(), pt.data(), pt.size(), out, 48) != 48)
            continue;
        ++sealed;
        Bytes body(out + 12, out + 48), back(20);
        if (std::memcmp(out, stale.data(), 8) == 0) ++scribbled;
        if (aead_seal_open(plain, AEAD_OPEN, stale.data(), 12, kAad.data(), kAad.size(), body.data(), body.size(),
                           back.data(), back.size()) >= 0)
            ++opened_under_stale;
    }
    stop = true;
    writer.join();
    INFO(sealed << " seals, " << scribbled << " of them with the nonce overwritten while the writer ran");
    CHECK(scribbled >= 300);
    CHECK(opened_under_stale == 0);
}

TEST_CASE("batch records are read once: a length changed during the batch never writes past out_cap", "[race]") {
    if (racing_skipped_under_valgrind()) return;
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_NONE, kKey);
    constexpr size_t kRecs = 64, kCap = 64 + 16, kGuard = 64;
    std::vector<uint8_t> outs(kRecs * (kCap + kGuard));
    const Bytes pt(1000, 0x77), nonce(12, 9);
    std::vector<aead_record> recs(kRecs);
    std::atomic<bool> stop{false};
    size_t sealed = 0, too_small = 0;
    std::thread writer([&] {
        for (size_t flip = 0; !stop.load(std::memory_order_relaxed); ++flip)
            for (auto &r : recs)
                std::atomic_ref<size_t>(r.in_len).store(flip % 2 ? 1000 : 64, std::memory_order_relaxed);
    });
    for (int round = 0; round < 200; ++round) {
        std::fill(outs.begin(), outs.end(), uint8_t{0xee});
        for (size_t i = 0; i < kRecs; ++i) {
            std::atomic_ref<size_t>(recs[i].in_len).store(64, std::memory_order_relaxed);
            recs[i].nonce = nonce.data();
            recs[i].nonce_len = nonce.size();
            recs[i].aad = nullptr;
            recs[i].aad_len = 0;
            recs[i].in = pt.data();
            recs[i].out = outs.data() + i * (kCap + kGuard);
            recs[i].out_cap = kCap;
        }
        aead_seal_open_many(c, AEAD_SEAL, recs.data(), recs.size());
        for (size_t i = 0; i < kRecs; ++i) {
            const uint8_t *o = outs.data() + i * (kCap + kGuard);
            REQUIRE(std::all_of(o + kCap, o + kCap + kGuard, [](uint8_t b) { return b == 0xee; }));
            if (recs[i].result == static_cast<int64_t>(kCap)) {
                ++sealed;
                Bytes back(64);
                REQUIRE(aead_seal_open(c, AEAD_OPEN, nonce.data(), 12, nullptr, 0, o, kCap, back.data(), 64) == 64);
                REQUIRE(back == Bytes(pt.begin(), pt.begin() + 64));
            } else {
                REQUIRE(recs[i].result == AEAD_ERR_BUFFER_TOO_SMALL);
                REQUIRE(std::all_of(o, o + kCap, [](uint8_t b) { return b == 0xee; }));
                ++too_small;
            }
        }
    }
    stop = true;
    writer.join();
    INFO(sealed << " sealed, " << too_small << " refused as too small");
    CHECK(sealed + too_small == 200 * kRecs);
}
#endif  // AEAD_TEST_TSAN

// ---- lengths whose sums wrap ---------------------------------------------------------------------

// A 64-bit size_t only: in 32 bits no length exceeds GCM's limit (2^36 - 32 bytes), and no terabyte fits.
#if SIZE_MAX > UINT32_MAX
TEST_CASE("a batch whose lengths sum past SIZE_MAX: every huge record refused, nothing written", "[sizes]") {
    // A terabyte of read-only address space: never real memory (private, read-only, not reserved).
    constexpr size_t kMap = size_t{1} << 40;
    void *m = mmap(nullptr, kMap, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        WARN("skipped: " "no 1 TiB read-only mapping here");
        return;
    }
    const auto *big = static_cast<const uint8_t *>(m);
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_NONE, kKey);
    const Bytes nonce(12, 3), pt(16, 4);
    Bytes small(64, 0xcc), ok_out(32, 0);
    std::vector<aead_record> recs;
    // 32 records of 2^40 bytes each (2^45 in all) with out_cap SIZE_MAX / 2 each (sums wrap many times).
    for (int i = 0; i < 32; ++i)
        recs.push_back({nonce.data(), 12, nullptr, 0, big, kMap, small.data(), SIZE_MAX / 2, 0});
    // The largest plaintext GCM allows, with a truthful small out_cap: too small, not written.
    recs.push_back({nonce.data(), 12, nullptr, 0, big, AEAD_GCM_MAX_PLAINTEXT, small.data(), small.size(), 0});
    // An AAD whose range runs off the end of the address space (GCM allows 2^61 bytes of AAD, so the
    // length alone is no refusal; the range is).
    recs.push_back({nonce.data(), 12, big, SIZE_MAX - 8, pt.data(), pt.size(), small.data(), small.size(), 0});
    // An out range that wraps.
    recs.push_back({nonce.data(), 12, nullptr, 0, pt.data(), pt.size(),
                    reinterpret_cast<uint8_t *>(UINTPTR_MAX - 15), SIZE_MAX, 0});
    // And one ordinary record, which must still be sealed.
    recs.push_back({nonce.data(), 12, nullptr, 0, pt.data(), pt.size(), ok_out.data(), ok_out.size(), 0});
    CHECK(aead_seal_open_many(c, AEAD_SEAL, recs.data(), recs.size()) == 1);
    for (size_t i = 0; i < 32; ++i) CHECK(recs[i].result == AEAD_ERR_TOO_LONG);
    CHECK(recs[32].result == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(recs[33].result == AEAD_ERR_ARG);
    CHECK(recs[34].result == AEAD_ERR_ARG);
    CHECK(recs[35].result == 32);
    CHECK(small == Bytes(64, 0xcc));
    Bytes back(16);
    CHECK(test::open(c, nonce, {}, ok_out, back) == 16);
    CHECK(back == pt);

    aead_record open_big{nonce.data(), 12, nullptr, 0, big, kMap, small.data(), SIZE_MAX, 0};
    CHECK(aead_seal_open_many(c, AEAD_OPEN, &open_big, 1) == 0);
    CHECK(open_big.result == AEAD_ERR_TOO_LONG);
    CHECK(small == Bytes(64, 0xcc));
    munmap(m, kMap);
}
#endif  // SIZE_MAX > UINT32_MAX
