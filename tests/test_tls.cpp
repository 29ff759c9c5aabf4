// TLS 1.2 / 1.3 nonce policies: the anchors' sequences, prefix and mask rules, refusals that consume
// nothing, and concurrent seals with colliding sequence numbers.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

constexpr uint64_t kMax = UINT64_MAX;

// How each policy turns a record sequence number into the 12-byte nonce a TLS stack would pass.
struct NonceMaker {
    Bytes iv;       // TLS 1.2 GCM: the 4-byte implicit part then anything; TLS 1.3 / ChaCha: the static IV
    bool xor_mask;  // TLS 1.3 and TLS 1.2 ChaCha20-Poly1305 (RFC 7905)
    Bytes operator()(uint64_t seq) const { return xor_mask ? test::tls13_nonce(iv, seq) : test::tls12_gcm_nonce(iv, seq); }
};

struct Setup {
    const char *name;
    int alg;
    int policy;
    NonceMaker make;
    size_t aad;
};

std::vector<Setup> setups() {
    Bytes masked(12, 0);
    masked[9] ^= 0x42;
    masked[11] ^= 0x01;  // seq 1 XOR mask < seq 0 XOR mask: forgetting to unmask looks like going backwards
    Bytes random_iv = test::random_bytes(12);
    return {
        {"TLS 1.2 AES-128-GCM", AEAD_AES_128_GCM, AEAD_POLICY_TLS12, {Bytes{1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0}, false}, 13},
        {"TLS 1.2 AES-256-GCM", AEAD_AES_256_GCM, AEAD_POLICY_TLS12, {Bytes(12, 0), false}, 13},
        {"TLS 1.3 AES-128-GCM zero IV", AEAD_AES_128_GCM, AEAD_POLICY_TLS13, {Bytes(12, 0), true}, 5},
        {"TLS 1.3 AES-128-GCM masked IV", AEAD_AES_128_GCM, AEAD_POLICY_TLS13, {masked, true}, 5},
        {"TLS 1.3 AES-256-GCM random IV", AEAD_AES_256_GCM, AEAD_POLICY_TLS13, {random_iv, true}, 5},
        {"TLS 1.3 ChaCha20-Poly1305 masked IV", AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS13, {masked, true}, 5},
        {"TLS 1.2 ChaCha20-Poly1305 random IV", AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS12, {random_iv, true}, 13},
    };
}

}  // namespace

TEST_CASE("the anchors' sequence: 0, 0 refused, 1, 10, 9 refused, 2^64-1 refused", "[tls]") {
    for (const Setup &s : setups()) {
        INFO(s.name);
        const Bytes key = test::random_bytes(aead_key_size(s.alg));
        test::Ctx ctx(s.alg, s.policy, key);
        const Bytes aad = test::random_bytes(s.aad), pt = test::random_bytes(64);
        Bytes out(80, 0x11);
        auto seal = [&](uint64_t seq) { return test::seal(ctx, s.make(seq), aad, pt, out); };
        REQUIRE(seal(0) == 80);
        CHECK(out == test::evp_seal(s.alg, key, s.make(0), aad, pt));  // an accepted TLS seal is a plain seal
        std::fill(out.begin(), out.end(), 0x11);
        CHECK(seal(0) == AEAD_ERR_NONCE_ORDER);
        CHECK(out == Bytes(80, 0x11));  // a refused seal writes nothing
        CHECK(seal(1) == 80);
        CHECK(seal(10) == 80);
        CHECK(seal(9) == AEAD_ERR_NONCE_ORDER);
        CHECK(seal(10) == AEAD_ERR_NONCE_ORDER);
        CHECK(seal(kMax) == AEAD_ERR_NONCE_EXHAUSTED);
        CHECK(seal(kMax - 1) == 80);  // the last usable sequence number
        CHECK(seal(kMax) == AEAD_ERR_NONCE_EXHAUSTED);
        CHECK(seal(kMax - 1) == AEAD_ERR_NONCE_ORDER);

        // Open never checks order: any earlier record opens, repeatedly.
        Bytes sealed(80), back(64);
        test::Ctx peer(s.alg, AEAD_POLICY_NONE, key);
        for (uint64_t seq : {uint64_t{3}, uint64_t{0}, uint64_t{3}}) {
            REQUIRE(test::seal(peer, s.make(seq), aad, pt, sealed) == 80);
            CHECK(test::open(ctx, s.make(seq), aad, sealed, back) == 64);
            CHECK(back == pt);
        }
    }
}

TEST_CASE("the fixed prefix is learned on the first seal and may not change", "[tls]") {
    for (const Setup &s : setups()) {
        INFO(s.name);
        test::Ctx ctx(s.alg, s.policy, test::random_bytes(aead_key_size(s.alg)));
        const Bytes aad(s.aad, 0), pt(10, 1);
        Bytes out(26);
        REQUIRE(test::seal(ctx, s.make(0), aad, pt, out) == 26);
        for (size_t byte = 0; byte < 4; ++byte) {
            Bytes n = s.make(5);
            n[byte] ^= 0x10;
            CHECK(test::seal(ctx, n, aad, pt, out) == AEAD_ERR_NONCE_PREFIX);
        }
        CHECK(test::seal(ctx, s.make(5), aad, pt, out) == 26);  // the refusals consumed nothing
    }
}

TEST_CASE("AAD length is enforced on seal only, and refused calls consume nothing", "[tls]") {
    for (const Setup &s : setups()) {
        INFO(s.name);
        const Bytes key = test::random_bytes(aead_key_size(s.alg));
        test::Ctx ctx(s.alg, s.policy, key);
        const Bytes aad(s.aad, 0), pt(10, 1);
        Bytes out(26);
        for (size_t bad : {size_t{0}, size_t{4}, size_t{5}, size_t{12}, size_t{13}, size_t{14}}) {
            if (bad == s.aad) continue;
            CHECK(test::seal(ctx, s.make(0), Bytes(bad, 0), pt, out) == AEAD_ERR_AAD_SIZE);
        }
        // Refused for size, overlap, nonce size: sequence 0 is still unused, as is the prefix.
        Bytes small(25);
        CHECK(test::seal(ctx, s.make(0), aad, pt, small) == AEAD_ERR_BUFFER_TOO_SMALL);
        Bytes buf(60);
        std::copy(aad.begin(), aad.end(), buf.begin());
        CHECK(aead_seal_open(ctx, AEAD_SEAL, s.make(0).data(), 12, buf.data(), s.aad, pt.data(), 10, buf.data() + 1,
                             26) == AEAD_ERR_OVERLAP);
        REQUIRE(test::seal(ctx, s.make(0), aad, pt, out) == 26);
        // Open with any AAD length is a plain open.
        test::Ctx peer(s.alg, AEAD_POLICY_NONE, key);
        const Bytes other_aad(7, 3);
        REQUIRE(test::seal(peer, s.make(0), other_aad, pt, out) == 26);
        Bytes back(10);
        CHECK(test::open(ctx, s.make(0), other_aad, out, back) == 10);
    }
}

TEST_CASE("a first seal that is refused learns nothing", "[tls]") {
    test::Ctx ctx(AEAD_AES_128_GCM, AEAD_POLICY_TLS12, Bytes(16, 9));
    Bytes n{9, 9, 9, 9, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const Bytes aad(13, 0), pt(3, 1);
    Bytes out(19);
    CHECK(test::seal(ctx, n, aad, pt, out) == AEAD_ERR_NONCE_EXHAUSTED);  // counter 2^64-1 first
    CHECK(test::seal(ctx, Bytes{7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 5}, Bytes(12, 0), pt, out) == AEAD_ERR_AAD_SIZE);
    // Neither fixed the prefix: this one does, with a counter that is not zero (gaps are allowed).
    CHECK(test::seal(ctx, Bytes{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 5}, aad, pt, out) == 19);
    CHECK(test::seal(ctx, Bytes{7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 6}, aad, pt, out) == AEAD_ERR_NONCE_PREFIX);
    CHECK(test::seal(ctx, Bytes{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 4}, aad, pt, out) == AEAD_ERR_NONCE_ORDER);
    CHECK(test::seal(ctx, Bytes{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 6}, aad, pt, out) == 19);
}

// 8 threads seal on one context; each thread walks its own shuffled slice of a pool in which every
// sequence number appears three times. No number may be accepted twice, and every accepted record opens.
TEST_CASE("concurrent seals with colliding sequence numbers: none accepted twice", "[tls][concurrency]") {
    for (const Setup &s : setups()) {
        INFO(s.name);
        const Bytes key = test::random_bytes(aead_key_size(s.alg));
        test::Ctx ctx(s.alg, s.policy, key);
        const Bytes aad = test::random_bytes(s.aad);
        constexpr uint64_t kValues = 3000;
        // Each thread gets an increasing run of numbers; the runs interleave and collide.
        const test::Race race = test::race_seals(kValues, 48, [&](uint64_t seq, int t, Bytes &out) {
            return test::seal(ctx, s.make(seq), aad, Bytes(32, static_cast<uint8_t>(t)), out);
        });
        CHECK(race.bad_codes == 0);
        REQUIRE(!race.accepted.empty());
        CHECK(race.accepted_more_than_once().empty());  // the sequence numbers accepted twice or more
        const auto &accepted = race.accepted;
        test::Ctx peer(s.alg, AEAD_POLICY_NONE, key);
        for (const auto &[seq, sealed] : race.records) {
            Bytes back(32);
            CHECK(test::open(peer, s.make(seq), aad, sealed, back) == 32);
        }
        // Whatever the interleaving, nothing after the largest accepted number can be reused either.
        Bytes out(48);
        CHECK(test::seal(ctx, s.make(accepted.rbegin()->first), aad, Bytes(32, 0), out) == AEAD_ERR_NONCE_ORDER);
        std::printf("%s: %zu of %llu distinct sequence numbers accepted once, %zu attempts refused\n", s.name,
                    accepted.size(), static_cast<unsigned long long>(kValues),
                    static_cast<size_t>(3 * kValues - accepted.size()));
    }
}
