// Counter nonces for any protocol (AEAD_POLICY_COUNTER, _XOR_COUNTER) and SSH (AEAD_POLICY_SSH): the
// sequences of Go's TestGCMNoncesFIPSV1, the IV given up front, what each policy takes, refusals that
// write and consume nothing, random runs against a plain EVP seal, colliding threads and fork().
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

// The 12-byte nonce fixed(4) || BE64(counter).
Bytes nonce(uint32_t fixed, uint64_t counter) {
    Bytes n(12);
    for (int i = 0; i < 4; ++i) n[static_cast<size_t>(i)] = static_cast<uint8_t>(fixed >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) n[static_cast<size_t>(4 + i)] = static_cast<uint8_t>(counter >> (56 - 8 * i));
    return n;
}

const Bytes kSshAad = {0, 0, 0, 0x20};  // a packet length

// Seals "x" as Go's test does (SSH with the 4-byte packet length it authenticates); the result code.
int64_t try_nonce(aead_ctx *c, const Bytes &n, const Bytes &aad = {}) {
    Bytes out(17, 0x5a);
    const int64_t r = test::seal(c, n, aad, Bytes{'x'}, out);
    if (r < 0) CHECK(out == Bytes(17, 0x5a));  // a refused seal writes nothing
    return r;
}

}  // namespace

TEST_CASE("COUNTER: Go's TestGCMNoncesFIPSV1 NewGCMWithCounterNonce sequences", "[counter]") {
    const Bytes key(16, 0);
    auto fresh = [&] { return test::Ctx(AEAD_AES_128_GCM, AEAD_POLICY_COUNTER, key); };
    {
        test::Ctx g = fresh();
        for (uint64_t c : {uint64_t{0}, uint64_t{1}, uint64_t{100}, uint64_t{1} << 8, uint64_t{1} << 16, uint64_t{1} << 24,
                           uint64_t{1} << 32, uint64_t{1} << 40, uint64_t{1} << 48, uint64_t{1} << 56})
            CHECK(try_nonce(g, nonce(0, c)) == 17);
        CHECK(try_nonce(g, nonce(1, 0)) == AEAD_ERR_NONCE_PREFIX);  // changed name
    }
    {
        test::Ctx g = fresh();
        CHECK(try_nonce(g, nonce(0, 1)) == 17);
        // Went down: below the start is 2^64-1 counted from it, the one value never sealed (Go checks that first too).
        CHECK(try_nonce(g, nonce(0, 0)) == AEAD_ERR_NONCE_EXHAUSTED);
    }
    {
        test::Ctx g = fresh();
        CHECK(try_nonce(g, test::from_hex("0102030405060708090a0b0c")) == 17);
        CHECK(try_nonce(g, test::from_hex("0102030405060708090a0b0d")) == 17);
        CHECK(try_nonce(g, test::from_hex("0102030405060708090a0b0d")) == AEAD_ERR_NONCE_ORDER);  // did not increment
    }
    {
        test::Ctx g = fresh();
        CHECK(try_nonce(g, nonce(0x01020304, 0xffffffffffffff00)) == 17);
        CHECK(try_nonce(g, nonce(0x01020304, 0xffffffffffffffff)) == 17);
        CHECK(try_nonce(g, nonce(0x01020304, 0)) == 17);  // a wrap is fine until the values run out
        CHECK(try_nonce(g, nonce(0x01020304, 0xfffffffffffffefe)) == 17);
        CHECK(try_nonce(g, nonce(0x01020304, 0xfffffffffffffeff)) == AEAD_ERR_NONCE_EXHAUSTED);  // back to the start
    }
    {
        test::Ctx g = fresh();
        CHECK(try_nonce(g, nonce(0x01020304, 0xffffffffffffffff)) == 17);
        CHECK(try_nonce(g, nonce(0x01020305, 0)) == AEAD_ERR_NONCE_PREFIX);  // a wrap carried into the name
    }
}

TEST_CASE("SSH: Go's TestGCMNoncesFIPSV1 NewGCMForSSH sequences (x/crypto/ssh's incIV)", "[ssh]") {
    const Bytes key(16, 0);
    auto inc_iv = [](Bytes &iv) {
        for (size_t i = 4 + 7; i >= 4; --i)
            if (++iv[i] != 0) break;
    };
    // Go's step: a seal at 11223344 || counter is accepted, and the one after incIV gives want.
    auto seal_then_next = [&](test::Ctx &g, const char *counter, int64_t want) {
        INFO("counter " << counter);
        Bytes iv = test::from_hex(std::string("11223344") + counter);
        CHECK(try_nonce(g, iv, kSshAad) == 17);
        inc_iv(iv);
        CHECK(try_nonce(g, iv, kSshAad) == want);
    };
    {
        test::Ctx g(AEAD_AES_128_GCM, AEAD_POLICY_SSH, key);
        seal_then_next(g, "0000000000000000", 17);
        seal_then_next(g, "fffffffffffffffe", AEAD_ERR_NONCE_EXHAUSTED);
    }
    {
        test::Ctx g(AEAD_AES_128_GCM, AEAD_POLICY_SSH, key);
        Bytes iv = test::from_hex("11223344" "fffffffffffffffe");
        for (int k = 0; k < 4; ++k, inc_iv(iv)) CHECK(try_nonce(g, iv, kSshAad) == 17);  // wraps past 2^64-1
    }
    {
        test::Ctx g(AEAD_AES_128_GCM, AEAD_POLICY_SSH, key);
        CHECK(try_nonce(g, test::from_hex("11223344" "aaaaaaaaaaaaaaaa"), kSshAad) == 17);
        seal_then_next(g, "ffffffffffffffff", 17);
        seal_then_next(g, "aaaaaaaaaaaaaaa8", AEAD_ERR_NONCE_EXHAUSTED);
        CHECK(try_nonce(g, test::from_hex("11223344" "bbbbbbbbbbbbbbbb"), kSshAad) == AEAD_ERR_NONCE_ORDER);
    }
}

TEST_CASE("XOR_COUNTER: the mask is learned from counter 0 or given, and the counter strictly increases", "[counter]") {
    const Bytes key = test::random_bytes(32);
    const Bytes iv = test::from_hex("a0a1a2a3" "0123456789abcdef");
    for (bool given : {false, true}) {
        INFO("IV given: " << given);
        test::Ctx c(AEAD_AES_256_GCM, AEAD_POLICY_XOR_COUNTER, key, 0, given ? iv : Bytes{});
        const Bytes aad = test::random_bytes(test::random_below(40)), pt = test::random_bytes(50);
        Bytes out(66);
        for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{7}}) {
            const Bytes x = test::tls13_nonce(iv, n);
            REQUIRE(test::seal(c, x, aad, pt, out) == 66);
            CHECK(out == test::evp_seal(AEAD_AES_256_GCM, key, x, aad, pt));
        }
        CHECK(try_nonce(c, test::tls13_nonce(iv, 7)) == AEAD_ERR_NONCE_ORDER);
        CHECK(try_nonce(c, test::tls13_nonce(iv, 3)) == AEAD_ERR_NONCE_ORDER);
        CHECK(try_nonce(c, test::tls13_nonce(iv, UINT64_MAX)) == AEAD_ERR_NONCE_EXHAUSTED);
        Bytes other = test::tls13_nonce(iv, 8);
        other[0] ^= 1;
        CHECK(try_nonce(c, other) == AEAD_ERR_NONCE_PREFIX);
        CHECK(try_nonce(c, test::tls13_nonce(iv, UINT64_MAX - 1)) == 17);  // the last one
        CHECK(try_nonce(c, test::tls13_nonce(iv, UINT64_MAX - 1)) == AEAD_ERR_NONCE_ORDER);
    }
}

TEST_CASE("COUNTER and SSH with the IV given: the counter starts at its value", "[counter][ssh]") {
    const Bytes key = test::random_bytes(16);
    for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_SSH}) {
        INFO("policy " << policy);
        const Bytes aad = policy == AEAD_POLICY_SSH ? kSshAad : Bytes{};
        test::Ctx c(AEAD_AES_128_GCM, policy, key, 0, nonce(0xcafef00d, 5));
        CHECK(try_nonce(c, nonce(0xcafef00d, 4), aad) == AEAD_ERR_NONCE_EXHAUSTED);  // one before the start: 2^64-1
        CHECK(try_nonce(c, nonce(0xcafef00e, 5), aad) == AEAD_ERR_NONCE_PREFIX);
        CHECK(try_nonce(c, nonce(0xcafef00d, 5), aad) == 17);
        CHECK(try_nonce(c, nonce(0xcafef00d, 5), aad) == AEAD_ERR_NONCE_ORDER);
        CHECK(try_nonce(c, nonce(0xcafef00d, 9), aad) == 17);
    }
}

TEST_CASE("counter policies: which algorithms, tags and IVs they take", "[counter][ssh]") {
    const Bytes k16(16, 1), k24(24, 1), k32(32, 1);
    aead_ctx *c = nullptr;
    struct Pairing {
        int alg;
        const Bytes &key;
        int policy;
        int want;
    };
    for (const Pairing &p : std::vector<Pairing>{
             {AEAD_AES_128_GCM, k16, AEAD_POLICY_COUNTER, 0},
             {AEAD_AES_192_GCM, k24, AEAD_POLICY_COUNTER, 0},
             {AEAD_CHACHA20_POLY1305, k32, AEAD_POLICY_COUNTER, 0},
             {AEAD_CHACHA20_POLY1305, k32, AEAD_POLICY_XOR_COUNTER, 0},
             {AEAD_AES_256_GCM, k32, AEAD_POLICY_SSH, 0},
             {AEAD_AES_192_GCM, k24, AEAD_POLICY_SSH, AEAD_ERR_ARG},  // RFC 5647 has AES-128 and AES-256
             {AEAD_CHACHA20_POLY1305, k32, AEAD_POLICY_SSH, AEAD_ERR_ARG},
             {AEAD_AES_128_CCM, k16, AEAD_POLICY_COUNTER, AEAD_ERR_ARG},
             {AEAD_XCHACHA20_POLY1305, k32, AEAD_POLICY_XOR_COUNTER, AEAD_ERR_ARG},
             {AEAD_AES_128_GCM_SIV, k16, AEAD_POLICY_COUNTER, AEAD_ERR_ARG},
             {AEAD_AES_128_GCM, k16, 10, AEAD_ERR_ARG},  // the next policy value does not exist yet
         }) {
        INFO("alg " << p.alg << " policy " << p.policy);
        CHECK(aead_ctx_new(&c, p.alg, p.policy, p.key.data(), p.key.size(), 0) == p.want);
        aead_ctx_free(c);
        c = nullptr;
    }
    for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_XOR_COUNTER, AEAD_POLICY_SSH}) {
        INFO("policy " << policy);
        CHECK(aead_ctx_new(&c, AEAD_AES_128_GCM, policy, k16.data(), 16, 12) == AEAD_ERR_TAG_SIZE);
        for (size_t iv_len : {4, 8, 16}) {
            const Bytes iv(iv_len, 2);
            CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_GCM, policy, k16.data(), 16, 0, nullptr, iv.data(), iv.size()) ==
                  AEAD_ERR_NONCE_SIZE);
        }
        test::Ctx ok(AEAD_AES_128_GCM, policy, k16);
        Bytes out(40);
        CHECK(test::seal(ok, Bytes(8, 0), policy == AEAD_POLICY_SSH ? kSshAad : Bytes{}, Bytes(4, 0), out) ==
              AEAD_ERR_NONCE_SIZE);
        CHECK(c == nullptr);
    }
}

TEST_CASE("SSH: the AAD is the 4-byte packet length; seals are counted toward RFC 4344's rekey point", "[ssh]") {
    const Bytes key = test::random_bytes(32);
    test::Ctx c(AEAD_AES_256_GCM, AEAD_POLICY_SSH, key);
    for (size_t aad_len : {0, 3, 5, 13}) CHECK(try_nonce(c, nonce(7, 100), Bytes(aad_len, 0)) == AEAD_ERR_AAD_SIZE);
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(c, &u, sizeof u) == 0);
    CHECK(u.seals == 0);  // refusals count nothing
    CHECK(u.rekey_after == uint64_t{1} << 32);
    CHECK(u.seal_limit == UINT64_MAX);
    for (uint64_t k = 0; k < 5; ++k) CHECK(try_nonce(c, nonce(7, 100 + k), kSshAad) == 17);
    CHECK(try_nonce(c, nonce(7, 100), kSshAad) == AEAD_ERR_NONCE_ORDER);
    REQUIRE(aead_ctx_usage_ex(c, &u, sizeof u) == 0);
    CHECK(u.seals == 5);
    // A caller built against 1.4's shorter struct gets its prefix and nothing past it.
    aead_usage old{};
    old.rekey_after = 42;
    REQUIRE(aead_ctx_usage_ex(c, &old, offsetof(aead_usage, rekey_after)) == 0);
    CHECK(old.seals == 5);
    CHECK(old.rekey_after == 42);
    test::Ctx counter(AEAD_AES_256_GCM, AEAD_POLICY_COUNTER, key);
    REQUIRE(aead_ctx_usage_ex(counter, &u, sizeof u) == 0);
    CHECK(u.rekey_after == UINT64_MAX);
    // Open checks nothing: any record of the session opens, in any order, and the AAD is not policed.
    test::Ctx peer(AEAD_AES_256_GCM, AEAD_POLICY_NONE, key);
    Bytes sealed(21), back(5);
    for (uint64_t n : {uint64_t{3}, uint64_t{1}, uint64_t{3}}) {
        REQUIRE(test::seal(peer, nonce(7, n), Bytes(9, 1), Bytes(5, 2), sealed) == 21);
        CHECK(test::open(c, nonce(7, n), Bytes(9, 1), sealed, back) == 5);
    }
}

TEST_CASE("counter policies: random runs with gaps equal a plain EVP seal", "[counter][ssh][differential]") {
    struct Run {
        int alg;
        int policy;
    };
    for (const Run &r : {Run{AEAD_AES_128_GCM, AEAD_POLICY_COUNTER}, Run{AEAD_AES_256_GCM, AEAD_POLICY_COUNTER},
                         Run{AEAD_CHACHA20_POLY1305, AEAD_POLICY_COUNTER}, Run{AEAD_AES_192_GCM, AEAD_POLICY_XOR_COUNTER},
                         Run{AEAD_CHACHA20_POLY1305, AEAD_POLICY_XOR_COUNTER}, Run{AEAD_AES_128_GCM, AEAD_POLICY_SSH},
                         Run{AEAD_AES_256_GCM, AEAD_POLICY_SSH}}) {
        INFO("alg " << r.alg << " policy " << r.policy);
        const Bytes key = test::random_bytes(aead_key_size(r.alg)), iv = test::random_bytes(12);
        test::Ctx c(r.alg, r.policy, key);
        uint64_t n = 0;
        for (int k = 0; k < 200; ++k) {
            // fixed || start + n: the start is the IV's last 8 bytes (near 2^64-1 for about one run in 2^8).
            uint64_t start = 0;
            for (size_t i = 4; i < 12; ++i) start = start << 8 | iv[i];
            const uint32_t fixed = static_cast<uint32_t>(iv[0]) << 24 | uint32_t{iv[1]} << 16 | uint32_t{iv[2]} << 8 | iv[3];
            const Bytes nn = r.policy == AEAD_POLICY_XOR_COUNTER ? test::tls13_nonce(iv, n) : nonce(fixed, start + n);
            const Bytes aad = r.policy == AEAD_POLICY_SSH ? test::random_bytes(4) : test::random_bytes(test::random_below(64));
            const Bytes pt = test::random_bytes(test::random_below(300));
            Bytes out(pt.size() + 16);
            REQUIRE(test::seal(c, nn, aad, pt, out) == static_cast<int64_t>(out.size()));
            CHECK(out == test::evp_seal(r.alg, key, nn, aad, pt));
            if (k % 7 == 3) CHECK(try_nonce(c, nn, r.policy == AEAD_POLICY_SSH ? kSshAad : Bytes{}) == AEAD_ERR_NONCE_ORDER);
            n += 1 + test::random_below(k % 5 == 0 ? 1000 : 2);
        }
    }
}

TEST_CASE("counter policies: colliding counters from 8 threads, each accepted once", "[counter][ssh][concurrency]") {
    for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_XOR_COUNTER, AEAD_POLICY_SSH}) {
        INFO("policy " << policy);
        const Bytes key = test::random_bytes(16), iv = test::random_bytes(12);
        const Bytes aad = policy == AEAD_POLICY_SSH ? kSshAad : Bytes{};
        uint64_t start = 0;
        for (size_t i = 4; i < 12; ++i) start = start << 8 | iv[i];
        const uint32_t fixed = static_cast<uint32_t>(iv[0]) << 24 | uint32_t{iv[1]} << 16 | uint32_t{iv[2]} << 8 | iv[3];
        auto make = [&](uint64_t n) { return policy == AEAD_POLICY_XOR_COUNTER ? test::tls13_nonce(iv, n) : nonce(fixed, start + n); };
        test::Ctx ctx(AEAD_AES_128_GCM, policy, key, 0, iv);
        const test::Race race = test::race_seals(2000, 32, [&](uint64_t v, int, Bytes &out) {
            return test::seal(ctx, make(v), aad, Bytes(16, 3), out);
        });
        CHECK(race.bad_codes == 0);
        REQUIRE(!race.accepted.empty());
        CHECK(race.accepted_more_than_once().empty());  // the counters accepted twice or more
        if (policy == AEAD_POLICY_SSH) {
            uint64_t seals = 0;
            REQUIRE(aead_ctx_usage(ctx, &seals, nullptr) == 0);
            CHECK(seals == race.accepted.size());  // a refused seal gave its count back
        }
    }
}

TEST_CASE("counter policies: a context made before fork() seals only in the parent", "[counter][ssh][fork]") {
    for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_XOR_COUNTER, AEAD_POLICY_SSH}) {
        INFO("policy " << policy);
        const Bytes key = test::random_bytes(16), aad = policy == AEAD_POLICY_SSH ? kSshAad : Bytes{};
        test::Ctx c(AEAD_AES_128_GCM, policy, key);
        REQUIRE(try_nonce(c, nonce(9, 0), aad) == 17);
        Bytes sealed(17);
        REQUIRE(test::seal(c, nonce(9, 1), aad, Bytes{'y'}, sealed) == 17);
        std::fflush(nullptr);
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            Bytes out(17), back(1);
            int rc = 0;
            if (test::seal(c, nonce(9, 2), aad, Bytes{'z'}, out) != AEAD_ERR_FORKED) rc = 1;
            else if (test::open(c, nonce(9, 1), aad, sealed, back) != 1 || back[0] != 'y') rc = 2;
            test::child_exit(rc);
        }
        int status = 0;
        REQUIRE(waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
        CHECK(try_nonce(c, nonce(9, 1), aad) == AEAD_ERR_NONCE_ORDER);  // the parent goes on where it was
        CHECK(try_nonce(c, nonce(9, 2), aad) == 17);
    }
}
