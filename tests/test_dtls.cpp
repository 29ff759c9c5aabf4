// DTLS 1.2 / 1.3 record protection (ABI 1.4): the seal rules, the nonce constructions against a direct EVP
// computation, and the replay window against a reference model of RFC 4303 section 3.4.3's algorithm, a
// forged far-ahead record, concurrent opens of one record, fork, and QUIC's opt-in duplicate check.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_usage(aead_ctx *ctx, uint64_t seals, uint64_t forgeries) noexcept;
#endif

namespace {

// A DTLS context that frees itself.
struct Dtls : test::Owned<aead_ctx, aead_ctx_free> {
    Dtls(int alg, int policy, const Bytes &key, const Bytes &iv, uint64_t epoch, uint32_t window = 0, size_t tag = 0) {
        created(aead_ctx_new_dtls(&p, alg, policy, key.data(), key.size(), tag, test::test_properties(), iv.data(),
                                  iv.size(), epoch, window),
                "aead_ctx_new_dtls");
    }
};

struct Suite {
    int alg;
    int policy;
    size_t key;
    size_t tag;
    const char *name;
};
constexpr Suite kSuites[] = {
    {AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, 16, 16, "DTLS 1.2 AES-128-GCM"},
    {AEAD_AES_256_GCM, AEAD_POLICY_DTLS12, 32, 16, "DTLS 1.2 AES-256-GCM"},
    {AEAD_CHACHA20_POLY1305, AEAD_POLICY_DTLS12, 32, 16, "DTLS 1.2 ChaCha20-Poly1305"},
    {AEAD_AES_128_CCM, AEAD_POLICY_DTLS12, 16, 16, "DTLS 1.2 AES-128-CCM"},
    {AEAD_AES_256_CCM, AEAD_POLICY_DTLS12, 32, 8, "DTLS 1.2 AES-256-CCM_8"},
    {AEAD_AES_128_CCM, AEAD_POLICY_DTLS12, 16, 8, "DTLS 1.2 AES-128-CCM_8"},
    {AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, 16, 16, "DTLS 1.3 AES-128-GCM"},
    {AEAD_AES_256_GCM, AEAD_POLICY_DTLS13, 32, 16, "DTLS 1.3 AES-256-GCM"},
    {AEAD_CHACHA20_POLY1305, AEAD_POLICY_DTLS13, 32, 16, "DTLS 1.3 ChaCha20-Poly1305"},
    {AEAD_AES_128_CCM, AEAD_POLICY_DTLS13, 16, 16, "DTLS 1.3 AES-128-CCM"},
};

bool explicit_nonce(const Suite &s) { return s.policy == AEAD_POLICY_DTLS12 && s.alg != AEAD_CHACHA20_POLY1305; }
Bytes iv_for(const Suite &s) { return test::random_bytes(explicit_nonce(s) ? 4 : 12); }

// The nonce each RFC prescribes, built here from the RFC's text, not from libaead's code.
Bytes nonce_for(const Suite &s, const Bytes &iv, uint64_t epoch, uint64_t seq) {
    if (s.policy == AEAD_POLICY_DTLS13) return test::tls13_nonce(iv, seq);  // RFC 9147 section 4: no epoch
    const uint64_t field = epoch << 48 | seq;                              // RFC 6347 4.1: epoch(2) || seq(6)
    if (explicit_nonce(s)) {                                               // RFC 5288 / RFC 6655: salt || explicit
        Bytes n = iv;
        n.resize(12);
        for (size_t i = 0; i < 8; ++i) n[4 + i] = static_cast<uint8_t>(field >> (56 - 8 * i));
        return n;
    }
    return test::tls13_nonce(iv, field);  // RFC 7905: iv XOR (0^4 || epoch || seq)
}

// DTLS 1.2's AAD (RFC 6347 section 4.1.2.1): seq_num(8) || type || version || length; DTLS 1.3's is
// the unified header (here: 0x2c | epoch bits, a 16-bit sequence number, a 16-bit length).
Bytes aad_for(const Suite &s, uint64_t epoch, uint64_t seq, size_t len) {
    if (s.policy == AEAD_POLICY_DTLS13)
        return {static_cast<uint8_t>(0x2c | (epoch & 3)), static_cast<uint8_t>(seq >> 8), static_cast<uint8_t>(seq),
                static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len)};
    Bytes a(13);
    const uint64_t field = epoch << 48 | seq;
    for (size_t i = 0; i < 8; ++i) a[i] = static_cast<uint8_t>(field >> (56 - 8 * i));
    a[8] = 23, a[9] = 0xfe, a[10] = 0xfd;
    a[11] = static_cast<uint8_t>(len >> 8), a[12] = static_cast<uint8_t>(len);
    return a;
}

// An independent AES-CCM seal (fresh EVP context, the SP 800-38C call sequence OpenSSL documents).
Bytes evp_ccm_seal(size_t key_len, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt, size_t tag) {
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(
        EVP_CIPHER_fetch(nullptr, key_len == 16 ? "AES-128-CCM" : "AES-256-CCM", nullptr), EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    Bytes out(pt.size() + tag);
    int n = 0;
    if (!cipher || !c || EVP_EncryptInit_ex2(c.get(), cipher.get(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag), nullptr) != 1 ||
        EVP_EncryptInit_ex2(c.get(), nullptr, key.data(), nonce.data(), nullptr) != 1 ||
        EVP_EncryptUpdate(c.get(), nullptr, &n, nullptr, static_cast<int>(pt.size())) != 1 ||
        EVP_EncryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1 ||
        // The data update even for an empty message, with a non-NULL input: OpenSSL 3.5's CCM computes the
        // tag there, and takes a NULL input as the end of the message ("tag not set" at the final call).
        EVP_EncryptUpdate(c.get(), out.data(), &n, pt.empty() ? out.data() : pt.data(), static_cast<int>(pt.size())) != 1 ||
        EVP_EncryptFinal_ex(c.get(), out.data() + n, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag), out.data() + pt.size()) != 1)
        throw std::runtime_error("CCM oracle");
    return out;
}

Bytes oracle(const Suite &s, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt) {
    if (s.alg == AEAD_AES_128_CCM || s.alg == AEAD_AES_256_CCM) return evp_ccm_seal(s.key, key, nonce, aad, pt, s.tag);
    return test::evp_seal(s.alg, key, nonce, aad, pt, s.tag);
}

aead_usage usage_of(aead_ctx *c) {
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(c, &u, sizeof u) == 0);
    return u;
}

// One sealed record, ready to arrive.
struct Record {
    uint64_t seq;
    Bytes nonce, aad, ct, pt;
};

// n records of len random bytes that tx seals under `epoch`, sequence numbers 0 to n - 1 (16-byte tags).
std::vector<Record> seal_records(const Suite &s, aead_ctx *tx, const Bytes &iv, uint64_t epoch, size_t n, size_t len) {
    std::vector<Record> recs(n);
    for (size_t i = 0; i < n; ++i) {
        Record &r = recs[i];
        r.pt = test::random_bytes(len);
        r.nonce = nonce_for(s, iv, epoch, i);
        r.aad = aad_for(s, epoch, i, len);
        r.ct.resize(len + 16);
        REQUIRE(test::seal(tx, r.nonce, r.aad, r.pt, r.ct) == (int64_t)(len + 16));
    }
    return recs;
}

// The receiver's replay check exactly as RFC 4303 section 3.4.3 / RFC 6347 section 4.1.2.6 state it: the
// right edge is the largest number accepted; a number right of it is new; one more than `width` left of
// it is too old; in between, new unless accepted before. Updated only after a record authenticates.
struct ReferenceWindow {
    explicit ReferenceWindow(uint64_t w) : width(w) {}
    uint64_t width;
    bool any = false;
    uint64_t right = 0;
    std::set<uint64_t> accepted;
    bool refuses(uint64_t n) const {
        if (!any || n > right) return false;
        if (right - n >= width) return true;
        return accepted.count(n) != 0;
    }
    void accept(uint64_t n) {
        accepted.insert(n);
        if (!any || n > right) right = n;
        any = true;
    }
};

}  // namespace

TEST_CASE("DTLS nonce constructions and AAD equal a direct EVP computation; the receiver opens them", "[dtls]") {
    for (const Suite &s : kSuites) {
        INFO(s.name);
        const Bytes key = test::random_bytes(s.key), iv = iv_for(s);
        const uint64_t epoch = 1 + test::random_below(0xfffe);
        Dtls tx(s.alg, s.policy, key, iv, epoch, 0, s.tag), rx(s.alg, s.policy, key, iv, epoch, 0, s.tag);
        uint64_t seq = 0;
        for (int i = 0; i < 40; ++i) {
            seq += test::random_below(3) == 0 ? 1 + test::random_below(1000) : 1;  // gaps are allowed
            if (i == 39) seq = AEAD_DTLS_MAX_SEQUENCE;                            // the last one there is
            const Bytes pt = test::random_bytes(test::random_below(300));
            const Bytes nonce = nonce_for(s, iv, epoch, seq), aad = aad_for(s, epoch, seq, pt.size());
            Bytes ct(pt.size() + s.tag);
            REQUIRE(test::seal(tx, nonce, aad, pt, ct) == static_cast<int64_t>(ct.size()));
            CHECK(ct == oracle(s, key, nonce, aad, pt));
            Bytes back(pt.size());
            CHECK(test::open(rx, nonce, aad, ct, back) == static_cast<int64_t>(pt.size()));
            CHECK(back == pt);
        }
        const aead_usage u = usage_of(rx);
        CHECK(u.accepted == 40);
        CHECK(u.largest == AEAD_DTLS_MAX_SEQUENCE);
        CHECK(u.window == AEAD_DTLS_DEFAULT_WINDOW);
        CHECK(usage_of(tx).seals == 40);
    }
}

TEST_CASE("DTLS seal rules: increasing seq below 2^48, the context's epoch and salt, AAD = nonce; refusals write and consume nothing", "[dtls]") {
    for (const Suite &s : kSuites) {
        INFO(s.name);
        const Bytes key = test::random_bytes(s.key), iv = iv_for(s);
        const uint64_t epoch = 2;
        Dtls tx(s.alg, s.policy, key, iv, epoch, 0, s.tag);
        const Bytes pt = test::random_bytes(32);
        auto try_seal = [&](const Bytes &nonce, const Bytes &aad) {
            Bytes out(pt.size() + s.tag, 0xa5);
            const int64_t rc = test::seal(tx, nonce, aad, pt, out);
            if (rc < 0) CHECK(out == Bytes(out.size(), 0xa5));  // a refusal writes nothing
            return rc;
        };
        auto rec = [&](uint64_t seq) { return try_seal(nonce_for(s, iv, epoch, seq), aad_for(s, epoch, seq, pt.size())); };
        CHECK(rec(5) > 0);
        CHECK(rec(5) == AEAD_ERR_NONCE_ORDER);
        CHECK(rec(4) == AEAD_ERR_NONCE_ORDER);
        // DTLS 1.2 cannot even write seq 2^48: it carries into the epoch, which is not this context's.
        CHECK(rec(AEAD_DTLS_MAX_SEQUENCE + 1) ==
              (s.policy == AEAD_POLICY_DTLS12 ? AEAD_ERR_NONCE_PREFIX : AEAD_ERR_NONCE_EXHAUSTED));
        if (s.policy == AEAD_POLICY_DTLS12) {
            // Another epoch in the nonce (with a matching AAD): not this context's keys.
            CHECK(try_seal(nonce_for(s, iv, epoch + 1, 6), aad_for(s, epoch + 1, 6, pt.size())) == AEAD_ERR_NONCE_PREFIX);
            // A header whose seq_num disagrees with the nonce: refused, and seq 6 is not consumed.
            CHECK(try_seal(nonce_for(s, iv, epoch, 6), aad_for(s, epoch, 7, pt.size())) == AEAD_ERR_AAD_MISMATCH);
            Bytes short_aad = aad_for(s, epoch, 6, pt.size());
            short_aad.pop_back();
            CHECK(try_seal(nonce_for(s, iv, epoch, 6), short_aad) == AEAD_ERR_AAD_SIZE);
        }
        Bytes bad_salt = nonce_for(s, iv, epoch, 6);
        bad_salt[1] ^= 1;
        CHECK(try_seal(bad_salt, aad_for(s, epoch, 6, pt.size())) == AEAD_ERR_NONCE_PREFIX);
        CHECK(rec(6) > 0);  // nothing above consumed 6
        CHECK(usage_of(tx).seals == 2);
    }
}

TEST_CASE("aead_ctx_new_dtls refuses what it must; DTLS policies only through it", "[dtls]") {
    const Bytes k16 = test::random_bytes(16), k24 = test::random_bytes(24), iv4 = test::random_bytes(4),
                iv12 = test::random_bytes(12);
    aead_ctx *c = reinterpret_cast<aead_ctx *>(1);
    auto make = [&](int alg, int policy, const Bytes &key, const Bytes &iv, uint64_t epoch, uint32_t window, size_t tag) {
        c = reinterpret_cast<aead_ctx *>(1);
        const int rc = aead_ctx_new_dtls(&c, alg, policy, key.data(), key.size(), tag, nullptr, iv.data(), iv.size(),
                                         epoch, window);
        if (rc == 0) aead_ctx_free(c);
        else CHECK(c == nullptr);
        return rc;
    };
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 0, 0) == 0);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv12, 0, 0, 0) == AEAD_ERR_NONCE_SIZE);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, k16, iv4, 0, 0, 0) == AEAD_ERR_NONCE_SIZE);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0x10000, 0, 0) == AEAD_ERR_ARG);  // 16-bit epoch
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, k16, iv12, 0x10000, 0, 0) == 0);           // not in the nonce
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 4096, 0) == 0);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 4160, 0) == AEAD_ERR_ARG);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 100, 0) == AEAD_ERR_ARG);
    CHECK(make(AEAD_AES_192_GCM, AEAD_POLICY_DTLS12, k24, iv4, 0, 0, 0) == AEAD_ERR_ARG);
    CHECK(make(AEAD_AES_128_CCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 0, 8) == 0);
    CHECK(make(AEAD_AES_128_CCM, AEAD_POLICY_DTLS13, k16, iv12, 0, 0, 8) == AEAD_ERR_TAG_SIZE);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16, iv4, 0, 0, 8) == AEAD_ERR_TAG_SIZE);
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_TLS13, k16, iv12, 0, 0, 0) == AEAD_ERR_ARG);  // no window there
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_QUIC, k16, iv12, 1, 64, 0) == AEAD_ERR_ARG);  // QUIC has no epoch
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_QUIC, k16, iv12, 0, 64, 0) == 0);
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, k16.data(), 16, 0, nullptr, iv4.data(), 4) == AEAD_ERR_ARG);
    CHECK(aead_ctx_new(&c, AEAD_AES_128_GCM, AEAD_POLICY_DTLS13, k16.data(), 16, 0) == AEAD_ERR_ARG);
    aead_usage u{};
    CHECK(aead_ctx_usage_ex(nullptr, &u, sizeof u) == AEAD_ERR_ARG);
    CHECK(std::string(aead_strerror(AEAD_ERR_REPLAY)).find("replay") != std::string::npos);
    CHECK(std::string(aead_strerror(AEAD_ERR_AAD_MISMATCH)).find("DTLS 1.2") != std::string::npos);
}

TEST_CASE("the replay window against RFC 4303's algorithm on random arrivals (differential)", "[dtls]") {
    std::mt19937_64 rng(test::random_below(UINT32_MAX));
    for (const uint32_t width : {64u, 128u, 1024u, 4096u}) {
        for (const Suite &s : {kSuites[0], kSuites[2], kSuites[5], kSuites[6]}) {
            INFO(s.name << ", window " << width);
            const Bytes key = test::random_bytes(s.key), iv = iv_for(s);
            const uint64_t epoch = 3;
            Dtls tx(s.alg, s.policy, key, iv, epoch, 0, s.tag), rx(s.alg, s.policy, key, iv, epoch, width, s.tag);
            // Records 0 .. n-1 (with one big jump, so a slide of more than the ring happens), sealed once.
            const size_t n = 3 * width + 600;
            std::vector<Record> recs(n);
            for (size_t i = 0; i < n; ++i) {
                Record &r = recs[i];
                r.seq = i < n / 2 ? i : i + 5 * width;
                r.pt = test::random_bytes(1 + i % 40);
                r.nonce = nonce_for(s, iv, epoch, r.seq);
                r.aad = aad_for(s, epoch, r.seq, r.pt.size());
                r.ct.resize(r.pt.size() + s.tag);
                REQUIRE(test::seal(tx, r.nonce, r.aad, r.pt, r.ct) == static_cast<int64_t>(r.ct.size()));
            }
            ReferenceWindow model(width);
            uint64_t replays = 0, forgeries = 0, accepted = 0;
            size_t pos = 0;
            bool agree = true;
            for (size_t step = 0; step < 4 * n && agree; ++step) {
                // Arrivals around a point that moves through the records: reordering, duplicates, stale
                // records, some forged.
                pos = std::min(n - 1, pos + (rng() % 3 == 0));
                const int64_t off = static_cast<int64_t>(rng() % (2 * width + 64)) - static_cast<int64_t>(width + 32);
                const int64_t at = std::clamp<int64_t>(static_cast<int64_t>(pos) + (rng() % 4 == 0 ? off * 2 : off / 4), 0,
                                                       static_cast<int64_t>(n - 1));
                const bool forged = rng() % 10 == 0;
                size_t idx = static_cast<size_t>(at);
                if (forged && rng() % 2 == 0) {
                    // Half the forgeries hit a record right of the window's edge (never a replay, so
                    // the count of forgeries the window must survive does not depend on chance).
                    const auto ahead = std::upper_bound(recs.begin(), recs.end(), model.right,
                                                        [](uint64_t v, const Record &rec) { return v < rec.seq; });
                    if (ahead != recs.end())
                        idx = std::min(n - 1, static_cast<size_t>(ahead - recs.begin()) + static_cast<size_t>(rng() % 4));
                }
                const Record &r = recs[idx];
                Bytes ct = r.ct;
                if (forged) ct[rng() % ct.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
                Bytes out(r.pt.size(), 0x5a);
                const int64_t got = test::open(rx, r.nonce, r.aad, ct, out);
                int64_t want;
                if (model.refuses(r.seq)) {
                    want = AEAD_ERR_REPLAY;
                    ++replays;
                } else if (forged) {
                    want = AEAD_ERR_AUTH;
                    ++forgeries;
                } else {
                    want = static_cast<int64_t>(r.pt.size());
                    model.accept(r.seq);
                    ++accepted;
                }
                agree = got == want && (got < 0 || out == r.pt) &&
                        (got != AEAD_ERR_REPLAY || out == Bytes(out.size(), 0x5a)) &&  // refused before decrypting
                        (got != AEAD_ERR_AUTH || out == Bytes(out.size(), 0));         // a failure zeroes
                if (!agree) FAIL_CHECK("step " << step << " seq " << r.seq << ": got " << got << ", want " << want);
            }
            CHECK(agree);
            const aead_usage u = usage_of(rx);
            CHECK(u.replays == replays);
            CHECK(u.forgeries == forgeries);
            CHECK(u.accepted == accepted);
            CHECK(u.largest == model.right);
            CHECK(u.window == width);
            // Every kind of arrival happened.
            CHECK(replays > 100);
            CHECK(forgeries > 5);
            CHECK(accepted > n / 8);
        }
    }
}

TEST_CASE("a forged record far ahead leaves the window exactly as it was", "[dtls]") {
    for (const Suite &s : {kSuites[0], kSuites[2], kSuites[6]}) {
        INFO(s.name);
        const Bytes key = test::random_bytes(s.key), iv = iv_for(s);
        Dtls tx(s.alg, s.policy, key, iv, 1), rx(s.alg, s.policy, key, iv, 1);
        std::map<uint64_t, Record> recs;
        for (uint64_t seq : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100000}) {
            Record &r = recs[seq];
            r.seq = seq;
            r.pt = test::random_bytes(20);
            r.nonce = nonce_for(s, iv, 1, seq);
            r.aad = aad_for(s, 1, seq, r.pt.size());
            r.ct.resize(r.pt.size() + 16);
            REQUIRE(test::seal(tx, r.nonce, r.aad, r.pt, r.ct) > 0);
        }
        Bytes out(20);
        for (uint64_t seq = 0; seq < 10; seq += 2) REQUIRE(test::open(rx, recs[seq].nonce, recs[seq].aad, recs[seq].ct, out) == 20);
        const aead_usage before = usage_of(rx);
        // A forgery with a record number far right of the window (and one inside it, not yet seen).
        for (uint64_t seq : {uint64_t{100000}, uint64_t{7}}) {
            Bytes forged = recs[seq].ct;
            forged.back() ^= 0x80;
            CHECK(test::open(rx, recs[seq].nonce, recs[seq].aad, forged, out) == AEAD_ERR_AUTH);
            CHECK(out == Bytes(20, 0));
        }
        const aead_usage after = usage_of(rx);
        CHECK(after.largest == before.largest);
        CHECK(after.accepted == before.accepted);
        CHECK(after.forgeries == before.forgeries + 2);
        // The genuine records right after, and the one the forgery claimed, are all still accepted.
        for (uint64_t seq : {uint64_t{10}, uint64_t{7}, uint64_t{1}, uint64_t{100000}})
            CHECK(test::open(rx, recs[seq].nonce, recs[seq].aad, recs[seq].ct, out) == 20);
        CHECK(test::open(rx, recs[1].nonce, recs[1].aad, recs[1].ct, out) == AEAD_ERR_REPLAY);
        CHECK(test::open(rx, recs[11].nonce, recs[11].aad, recs[11].ct, out) == AEAD_ERR_REPLAY);  // now left of the window
        CHECK(usage_of(rx).replays == 2);
        // DTLS 1.2: a header that disagrees with the nonce, or another epoch, is refused on open too.
        if (s.policy == AEAD_POLICY_DTLS12) {
            CHECK(test::open(rx, recs[100000].nonce, recs[9].aad, recs[100000].ct, out) == AEAD_ERR_AAD_MISMATCH);
            CHECK(test::open(rx, nonce_for(s, iv, 2, 100001), aad_for(s, 2, 100001, 20), recs[9].ct, out) == AEAD_ERR_NONCE_PREFIX);
        }
    }
}

TEST_CASE("two and four threads opening the same records: exactly one success each", "[dtls]") {
    for (const unsigned threads : {2u, 4u}) {
        for (const Suite &s : {kSuites[0], kSuites[8]}) {
            INFO(s.name << ", " << threads << " threads");
            const Bytes key = test::random_bytes(s.key), iv = iv_for(s);
            Dtls tx(s.alg, s.policy, key, iv, 0), rx(s.alg, s.policy, key, iv, 0, 1024);
            const size_t n = 400;
            std::vector<Record> recs(n);
            for (size_t i = 0; i < n; ++i) {
                Record &r = recs[i];
                r.seq = i;
                r.pt = test::random_bytes(64);
                r.nonce = nonce_for(s, iv, 0, i);
                r.aad = aad_for(s, 0, i, 64);
                r.ct.resize(64 + 16);
                REQUIRE(test::seal(tx, r.nonce, r.aad, r.pt, r.ct) == 80);
            }
            std::vector<std::atomic<int>> wins(n);
            std::atomic<int> bad{0};
            std::atomic<unsigned> ready{0};
            std::vector<std::thread> pool;
            for (unsigned t = 0; t < threads; ++t)
                pool.emplace_back([&, t] {
                    ++ready;
                    while (ready.load() < threads) std::this_thread::yield();
                    // Each thread walks the records in its own order: from the front, the back, or by strides.
                    for (size_t k = 0; k < n; ++k) {
                        const size_t i = t % 2 == 0 ? k : n - 1 - k;
                        Bytes out(64, 0x33);
                        const int64_t rc = test::open(rx, recs[i].nonce, recs[i].aad, recs[i].ct, out);
                        if (rc == 64 && out == recs[i].pt) ++wins[i];
                        else if (rc != AEAD_ERR_REPLAY || (out != Bytes(64, 0x33) && out != Bytes(64, 0))) ++bad;
                    }
                });
            for (auto &th : pool) th.join();
            CHECK(bad == 0);
            size_t exactly_one = 0;
            for (auto &w : wins) exactly_one += w.load() == 1;
            CHECK(exactly_one == n);
            const aead_usage u = usage_of(rx);
            CHECK(u.accepted == n);
            CHECK(u.replays == (threads - 1) * n);
        }
    }
}

TEST_CASE("DTLS contexts across fork: the child may not seal; opens work", "[dtls]") {
    const Suite &s = kSuites[0];
    const Bytes key = test::random_bytes(16), iv = iv_for(s), pt = test::random_bytes(16);
    Dtls tx(s.alg, s.policy, key, iv, 1), rx(s.alg, s.policy, key, iv, 1);
    Bytes ct(32);
    REQUIRE(test::seal(tx, nonce_for(s, iv, 1, 0), aad_for(s, 1, 0, 16), pt, ct) == 32);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        Bytes out(32, 7), back(16);
        const bool ok = test::seal(tx, nonce_for(s, iv, 1, 1), aad_for(s, 1, 1, 16), pt, out) == AEAD_ERR_FORKED &&
                        out == Bytes(32, 7) && test::open(rx, nonce_for(s, iv, 1, 0), aad_for(s, 1, 0, 16), ct, back) == 16 &&
                        back == pt;
        test::child_exit(ok ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    Bytes out(32);
    CHECK(test::seal(tx, nonce_for(s, iv, 1, 1), aad_for(s, 1, 1, 16), pt, out) == 32);
}

TEST_CASE("QUIC's opt-in duplicate check: a window only when asked for", "[dtls][quic]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), hpk = test::random_bytes(16);
    aead_ctx *tx = nullptr, *plain = nullptr, *windowed = nullptr;
    aead_hp *hp = nullptr;
    REQUIRE(aead_ctx_new_ex(&tx, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key.data(), 16, 0, nullptr, iv.data(), 12) == 0);
    REQUIRE(aead_ctx_new_ex(&plain, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key.data(), 16, 0, nullptr, iv.data(), 12) == 0);
    REQUIRE(aead_ctx_new_dtls(&windowed, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key.data(), 16, 0, nullptr, iv.data(), 12, 0, 128) == 0);
    REQUIRE(aead_hp_new(&hp, AEAD_AES_128_GCM, hpk.data(), 16, nullptr) == 0);
    for (uint64_t pn : {0, 1, 2, 500}) {
        Bytes packet = test::from_hex("4011223344");
        packet.resize(5 + 40 + 16, 9);
        REQUIRE(aead_quic_protect(tx, hp, pn, packet.data(), 5, 40, packet.size()) == static_cast<int64_t>(packet.size()));
        uint64_t got = 0;
        for (int again = 0; again < 2; ++again) {
            Bytes a = packet, b = packet;
            CHECK(aead_quic_unprotect(plain, hp, pn == 0 ? UINT64_MAX : pn - 1, a.data(), 4, a.size(), &got) == 40);
            const int64_t rc = aead_quic_unprotect(windowed, hp, pn == 0 ? UINT64_MAX : pn - 1, b.data(), 4, b.size(), &got);
            if (again == 0) CHECK(rc == 40);
            else {
                CHECK(rc == AEAD_ERR_REPLAY);
                CHECK(b == packet);  // refused: the packet as it arrived
            }
        }
    }
    // Packet 0 is now left of the 128-wide window (the right edge is 500).
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(windowed, &u, sizeof u) == 0);
    CHECK(u.replays == 4);
    CHECK(u.largest == 500);
    REQUIRE(aead_ctx_usage_ex(plain, &u, sizeof u) == 0);
    CHECK(u.window == 0);
    CHECK(u.replays == 0);
    aead_hp_free(hp);
    aead_ctx_free(tx);
    aead_ctx_free(plain);
    aead_ctx_free(windowed);
}

TEST_CASE("key limits: TLS 1.3 AES-GCM (RFC 8446 5.5) and DTLS 1.3 (RFC 9147 4.5.3) reported and enforced", "[dtls]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12);
    test::Ctx tls(AEAD_AES_128_GCM, AEAD_POLICY_TLS13, key, 0, iv);
    Bytes out(16 + 16);
    const Bytes pt(16, 1), aad(5, 0x17);
    REQUIRE(test::seal(tls, test::tls13_nonce(iv, 0), aad, pt, out) == 32);
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(tls, &u, sizeof u) == 0);
    CHECK(u.seals == 1);
    CHECK(u.seal_limit == AEAD_TLS13_AES_GCM_RECORD_LIMIT);
    uint64_t seals = 0;
    REQUIRE(aead_ctx_usage(tls, &seals, nullptr) == 0);
    CHECK(seals == 1);
    test::Ctx chacha(AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS13, test::random_bytes(32), 0, iv);
    REQUIRE(aead_ctx_usage_ex(chacha, &u, sizeof u) == 0);
    CHECK(u.seal_limit == UINT64_MAX);
    const Suite &s = kSuites[9];  // DTLS 1.3 AES-128-CCM: 2^23.5 of each
    Dtls d(s.alg, s.policy, key, iv, 0);
    REQUIRE(aead_ctx_usage_ex(d, &u, sizeof u) == 0);
    CHECK(u.seal_limit == AEAD_DTLS13_AES_CCM_LIMIT);
    CHECK(u.forgery_limit == AEAD_DTLS13_AES_CCM_LIMIT);
    // A caller built against a shorter aead_usage gets exactly its prefix.
    uint64_t two[3] = {7, 7, 7};
    REQUIRE(aead_ctx_usage_ex(d, reinterpret_cast<aead_usage *>(two), 2 * sizeof(uint64_t)) == 0);
    CHECK(two[2] == 7);
#ifdef AEAD_TEST_FAULT_BUILD
    aead_test_set_usage(tls, AEAD_TLS13_AES_GCM_RECORD_LIMIT, 0);
    Bytes o2(32, 4);
    CHECK(test::seal(tls, test::tls13_nonce(iv, 1), aad, pt, o2) == AEAD_ERR_KEY_LIMIT);
    CHECK(o2 == Bytes(32, 4));
    aead_test_set_usage(d, 0, AEAD_DTLS13_AES_CCM_LIMIT);
    CHECK(test::open(d, test::tls13_nonce(iv, 0), aad, out, o2) == AEAD_ERR_KEY_LIMIT);
#endif
}

// ---- DTLS 1.3 in one call: aead_dtls13_protect / aead_dtls13_unprotect ----
namespace {

using test::Hp;

// RFC 9147 section 4.2.3's mask, computed here with EVP directly: AES-ECB of the sample, or ChaCha20
// with the sample's first 4 bytes as the counter and the other 12 as the nonce (OpenSSL's IV layout).
Bytes evp_sn_mask(int alg, const Bytes &key, const uint8_t *sample) {
    const char *name = alg == AEAD_CHACHA20_POLY1305 ? "ChaCha20" : key.size() == 16 ? "AES-128-ECB" : "AES-256-ECB";
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, name, nullptr), EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    Bytes out(32);
    int n = 0;
    const bool chacha = alg == AEAD_CHACHA20_POLY1305;
    const Bytes zeros(16, 0);
    if (!cipher || !c || EVP_EncryptInit_ex2(c.get(), cipher.get(), key.data(), chacha ? sample : nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_set_padding(c.get(), 0) != 1 ||
        EVP_EncryptUpdate(c.get(), out.data(), &n, chacha ? zeros.data() : sample, 16) != 1)
        throw std::runtime_error("mask oracle");
    out.resize(2);
    return out;
}

// A unified header: 0 0 1 C S L E E, the connection ID, room for the sequence number and length.
Bytes unified_header(bool s16, bool with_length, const Bytes &cid, uint64_t epoch) {
    // Sized once and filled in place: GCC 12 at -O3 reports a false -Warray-bounds for an insert after a
    // one-byte initializer list.
    Bytes h(1 + cid.size() + (s16 ? 2 : 1) + (with_length ? 2 : 0), 0xee);
    h[0] = static_cast<uint8_t>(0x20 | (cid.empty() ? 0 : 0x10) | (s16 ? 0x08 : 0) | (with_length ? 0x04 : 0) | (epoch & 3));
    std::copy(cid.begin(), cid.end(), h.begin() + 1);
    return h;
}

}  // namespace

TEST_CASE("DTLS 1.3 one-call records equal the RFC 9147 construction computed with EVP; unprotect inverts them", "[dtls]") {
    for (const Suite &s : {kSuites[6], kSuites[7], kSuites[8], kSuites[9]}) {
        INFO(s.name);
        const Bytes key = test::random_bytes(s.key), iv = test::random_bytes(12);
        const Bytes sn_key = test::random_bytes(s.alg == AEAD_AES_256_GCM || s.alg == AEAD_CHACHA20_POLY1305 ? 32 : 16);
        const uint64_t epoch = 3 + test::random_below(1000);
        Dtls tx(s.alg, s.policy, key, iv, epoch), rx(s.alg, s.policy, key, iv, epoch, 256);
        Hp hp(s.alg, sn_key);
        uint64_t seq = 0;
        for (int i = 0; i < 200; ++i) {
            seq += 1 + (i % 7 == 0 ? test::random_below(40) : 0);
            const bool s16 = i % 2 == 0, with_length = i % 3 != 0;
            const Bytes cid = test::random_bytes(i % 4 == 0 ? 0 : test::random_below(9));
            const Bytes header = unified_header(s16, with_length, cid, epoch);
            const Bytes inner = test::random_bytes(test::random_below(200));
            Bytes record = header;
            record.insert(record.end(), inner.begin(), inner.end());
            record.resize(record.size() + 16);
            const int64_t n = aead_dtls13_protect(tx, hp, seq, record.data(), header.size(), inner.size(), record.size());
            REQUIRE(n == static_cast<int64_t>(record.size()));
            // The oracle: the header as RFC 9147 section 4 fills it, the AEAD under IV XOR seq with that
            // header as AAD, then the sequence number bytes masked.
            Bytes aad = header;
            const size_t so = 1 + cid.size(), sl = s16 ? 2 : 1;
            for (size_t k = 0; k < sl; ++k) aad[so + k] = static_cast<uint8_t>(seq >> (8 * (sl - 1 - k)));
            if (with_length) {
                aad[so + sl] = static_cast<uint8_t>((inner.size() + 16) >> 8);
                aad[so + sl + 1] = static_cast<uint8_t>(inner.size() + 16);
            }
            Bytes want = aad;
            const Bytes ct = oracle(s, key, test::tls13_nonce(iv, seq), aad, inner);
            want.insert(want.end(), ct.begin(), ct.end());
            const Bytes mask = evp_sn_mask(s.alg, sn_key, ct.data());
            for (size_t k = 0; k < sl; ++k) want[so + k] ^= mask[k];
            CHECK(record == want);
            uint64_t got = 0;
            CHECK(aead_dtls13_unprotect(rx, hp, record.data(), record.size(), cid.size(), &got) == static_cast<int64_t>(inner.size()));
            CHECK(got == seq);
            CHECK(Bytes(record.begin(), record.begin() + static_cast<long>(header.size())) == aad);
            CHECK(Bytes(record.begin() + static_cast<long>(header.size()), record.end() - 16) == inner);
        }
    }
}

TEST_CASE("DTLS 1.3 record numbers reconstructed from 8 and 16 bits at the wrap edges (RFC 9147 4.2.2)", "[dtls]") {
    const Suite &s = kSuites[6];
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), sn_key = test::random_bytes(16);
    Hp hp(s.alg, sn_key);
    auto make = [&](uint64_t seq, bool s16, aead_ctx *tx) {
        Bytes r = unified_header(s16, true, {}, 0);
        const size_t h = r.size();
        r.resize(h + 20 + 16, 0x61);
        REQUIRE(aead_dtls13_protect(tx, hp, seq, r.data(), h, 20, r.size()) == static_cast<int64_t>(r.size()));
        return r;
    };
    size_t cases = 0;
    for (const bool s16 : {false, true}) {
        const uint64_t win = s16 ? 0x10000 : 0x100, hwin = win / 2;
        for (const uint64_t largest : {win - 2, win - 1, win, win + 1, 5 * win - 1, 5 * win + hwin, 7 * win + hwin - 1}) {
            // Targets nearest to largest + 1: across the wrap ahead, and behind within the window.
            const uint64_t behind = std::min<uint64_t>(hwin - 2, 4000);
            for (const uint64_t target : {largest + 1, largest + 2, largest + hwin - 1, largest + hwin, largest - 1,
                                          largest - behind, (largest + win) & ~(win - 1), ((largest + win) & ~(win - 1)) - 1}) {
                if (target == largest || target > largest + hwin || target + behind < largest) continue;
                INFO((s16 ? "16" : "8") << "-bit, largest " << largest << ", target " << target);
                Dtls tx(s.alg, s.policy, key, iv, 0), rx(s.alg, s.policy, key, iv, 0, 4096);
                // The receiver's right edge is brought to `largest` by records with 16-bit numbers, each
                // less than half of 2^16 past the one before (so each reconstructs), all below the target.
                std::map<uint64_t, std::pair<bool, Bytes>> plan;  // seq -> (16-bit header, record)
                const uint64_t below = std::min(target, largest) - 1;
                for (uint64_t p = 0; p < below; p += 30000) plan[p] = {true, {}};
                plan[below] = {true, {}};
                plan[largest] = {true, {}};
                plan[target] = {s16, {}};
                for (auto &[seq, r] : plan) r.second = make(seq, r.first, tx);  // sealed in increasing order
                uint64_t got = 0;
                for (auto &[seq, r] : plan) {
                    if (seq == target) continue;
                    REQUIRE(aead_dtls13_unprotect(rx, hp, r.second.data(), r.second.size(), 0, &got) == 20);
                    REQUIRE(got == seq);
                }
                Bytes second = plan[target].second;
                CHECK(aead_dtls13_unprotect(rx, hp, second.data(), second.size(), 0, &got) == 20);
                CHECK(got == target);
                ++cases;
            }
        }
    }
    CHECK(cases > 80);
    // Exactly half a window behind is a tie, which RFC 9000 A.3 (and so RFC 9147 4.2.2's "closest")
    // resolves ahead: that record reconstructs to the wrong number and fails to authenticate.
    Dtls tx(s.alg, s.policy, key, iv, 0), rx(s.alg, s.policy, key, iv, 0, 4096);
    const Bytes tie = make(200 - 127, false, tx), edge = make(200, false, tx);
    uint64_t got = 0;
    Bytes e = edge, t = tie;
    REQUIRE(aead_dtls13_unprotect(rx, hp, e.data(), e.size(), 0, &got) == 20);
    REQUIRE(got == 200);
    CHECK(aead_dtls13_unprotect(rx, hp, t.data(), t.size(), 0, &got) == AEAD_ERR_AUTH);
}

TEST_CASE("DTLS 1.3 one-call refusals change nothing; replays and forgeries leave the record as it arrived", "[dtls]") {
    const Suite &s = kSuites[8];
    const Bytes key = test::random_bytes(32), iv = test::random_bytes(12), sn_key = test::random_bytes(32);
    Dtls tx(s.alg, s.policy, key, iv, 6), rx(s.alg, s.policy, key, iv, 6);
    Hp hp(s.alg, sn_key);
    const Bytes header = unified_header(true, true, {}, 6), inner = test::random_bytes(30);
    Bytes record = header;
    record.insert(record.end(), inner.begin(), inner.end());
    record.resize(record.size() + 16);
    const Bytes before = record;
    Bytes wrong_epoch = record;
    wrong_epoch[0] ^= 1;
    CHECK(aead_dtls13_protect(tx, hp, 0, wrong_epoch.data(), header.size(), inner.size(), record.size()) == AEAD_ERR_NONCE_PREFIX);
    Bytes not_unified = record;
    not_unified[0] = 0x17;
    CHECK(aead_dtls13_protect(tx, hp, 0, not_unified.data(), header.size(), inner.size(), record.size()) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_protect(tx, hp, 0, record.data(), header.size() + 1, inner.size() - 1, record.size()) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_protect(tx, hp, 0, record.data(), header.size(), inner.size(), record.size() - 1) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(record == before);
    REQUIRE(aead_dtls13_protect(tx, hp, 0, record.data(), header.size(), inner.size(), record.size()) == static_cast<int64_t>(record.size()));
    Bytes again = before;
    CHECK(aead_dtls13_protect(tx, hp, 0, again.data(), header.size(), inner.size(), again.size()) == AEAD_ERR_NONCE_ORDER);
    CHECK(again == before);  // the header bytes it wrote are put back
    const Bytes wire = record;
    Bytes forged = wire;
    forged[header.size() + 3] ^= 4;
    CHECK(aead_dtls13_unprotect(rx, hp, forged.data(), forged.size(), 0, nullptr) == AEAD_ERR_AUTH);
    CHECK(Bytes(forged.begin(), forged.begin() + static_cast<long>(header.size())) == Bytes(wire.begin(), wire.begin() + static_cast<long>(header.size())));
    CHECK(Bytes(forged.begin() + static_cast<long>(header.size()), forged.end() - 16) == Bytes(inner.size(), 0));
    Bytes short_rec = wire;
    short_rec.resize(header.size() + 15);
    CHECK(aead_dtls13_unprotect(rx, hp, short_rec.data(), short_rec.size(), 0, nullptr) == AEAD_ERR_AUTH);
    Bytes other_epoch = wire;
    other_epoch[0] ^= 3;
    CHECK(aead_dtls13_unprotect(rx, hp, other_epoch.data(), other_epoch.size(), 0, nullptr) == AEAD_ERR_NONCE_PREFIX);
    Bytes ok = wire;
    uint64_t got = 9;
    CHECK(aead_dtls13_unprotect(rx, hp, ok.data(), ok.size(), 0, &got) == 30);
    CHECK(got == 0);
    Bytes replay = wire;
    CHECK(aead_dtls13_unprotect(rx, hp, replay.data(), replay.size(), 0, &got) == AEAD_ERR_REPLAY);
    CHECK(replay == wire);
    const aead_usage u = usage_of(rx);
    CHECK(u.forgeries == 1);
    CHECK(u.replays == 1);
    CHECK(u.accepted == 1);
}

TEST_CASE("DTLS 1.3 one-call argument refusals, each condition on its own: the code, and the record untouched", "[dtls]") {
    const Suite &s = kSuites[6];
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), sn_key = test::random_bytes(16);
    Dtls tx(s.alg, s.policy, key, iv, 1), rx(s.alg, s.policy, key, iv, 1);
    Dtls dtls12(AEAD_AES_128_GCM, AEAD_POLICY_DTLS12, key, test::random_bytes(4), 1);
    Hp hp(s.alg, sn_key);
    const Bytes header = unified_header(false, true, {}, 1);  // 1 + 1 + 2 bytes
    Bytes record = header;
    record.resize(header.size() + 40 + 16, 0x5a);
    const Bytes before = record;
    const size_t h = header.size(), n = 40, cap = record.size();
    auto protect = [&](aead_ctx *c, aead_hp *k, uint64_t seq, Bytes &r, size_t hl, size_t pl, size_t rc) {
        return aead_dtls13_protect(c, k, seq, r.empty() ? nullptr : r.data(), hl, pl, rc);
    };
    Bytes r = record;
    CHECK(protect(nullptr, hp, 0, r, h, n, cap) == AEAD_ERR_ARG);
    CHECK(protect(tx, nullptr, 0, r, h, n, cap) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_protect(tx, hp, 0, nullptr, h, n, cap) == AEAD_ERR_ARG);
    CHECK(protect(dtls12, hp, 0, r, h, n, cap) == AEAD_ERR_ARG);  // not a DTLS 1.3 context
    CHECK(protect(tx, hp, 0, r, 0, n, cap) == AEAD_ERR_ARG);
    CHECK(protect(tx, hp, 0, r, h - 1, n, cap) == AEAD_ERR_ARG);  // shorter than its own first byte says
    CHECK(r == before);
    Bytes cid_without_bit = record;  // a connection ID's bytes but the C bit clear
    cid_without_bit.insert(cid_without_bit.begin() + 1, 0x11);
    const Bytes cwb = cid_without_bit;
    CHECK(protect(tx, hp, 0, cid_without_bit, h + 1, n, cap + 1) == AEAD_ERR_ARG);
    CHECK(cid_without_bit == cwb);
    CHECK(protect(tx, hp, 0, r, h, SIZE_MAX - 8, cap) == AEAD_ERR_TOO_LONG);  // header + payload + tag wraps
    CHECK(protect(tx, hp, 0, r, SIZE_MAX - 4, n, cap) == AEAD_ERR_ARG);       // no such header form
    CHECK(protect(tx, hp, AEAD_DTLS_MAX_SEQUENCE + 1, r, h, n, cap) == AEAD_ERR_NONCE_EXHAUSTED);
    CHECK(r == before);
    // A length field holds at most 2^16 - 1: a longer record can only go without one.
    Bytes big = header;
    big.resize(h + 70000 + 16, 0x33);
    const Bytes big_before = big;
    CHECK(protect(tx, hp, 0, big, h, 70000, big.size()) == AEAD_ERR_TOO_LONG);
    CHECK(big == big_before);
    Bytes no_len = unified_header(false, false, {}, 1);
    no_len.resize(2 + 70000 + 16, 0x33);
    CHECK(protect(tx, hp, 0, no_len, 2, 70000, no_len.size()) == static_cast<int64_t>(no_len.size()));
    CHECK(usage_of(tx).seals == 1);  // only the last call sealed

    // Unprotect: argument refusals, and inputs that are not a record of this form (AEAD_ERR_AUTH: as a
    // failed deprotection, RFC 9147 4.5.2), each leaving the datagram as it arrived.
    Bytes wire = record;
    REQUIRE(protect(tx, hp, 1, wire, h, n, cap) == static_cast<int64_t>(cap));
    const Bytes sent = wire;
    uint64_t got = 77;
    CHECK(aead_dtls13_unprotect(nullptr, hp, wire.data(), wire.size(), 0, &got) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_unprotect(rx, nullptr, wire.data(), wire.size(), 0, &got) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_unprotect(rx, hp, nullptr, wire.size(), 0, &got) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_unprotect(dtls12, hp, wire.data(), wire.size(), 0, &got) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_unprotect(rx, hp, wire.data(), 0, 0, &got) == AEAD_ERR_ARG);
    CHECK(aead_dtls13_unprotect(rx, hp, wire.data(), SIZE_MAX, 0, &got) == AEAD_ERR_ARG);  // wraps the address space
    CHECK(aead_dtls13_unprotect(rx, hp, wire.data(), wire.size(), wire.size() + 1, &got) == AEAD_ERR_AUTH);
    CHECK(aead_dtls13_unprotect(rx, hp, wire.data(), wire.size(), 3, &got) == AEAD_ERR_AUTH);  // CID length, C bit clear
    Bytes bad_fixed = wire;
    bad_fixed[0] = static_cast<uint8_t>(bad_fixed[0] ^ 0x40);
    const Bytes bf = bad_fixed;
    CHECK(aead_dtls13_unprotect(rx, hp, bad_fixed.data(), bad_fixed.size(), 0, &got) == AEAD_ERR_AUTH);
    CHECK(bad_fixed == bf);
    Bytes header_only = wire;
    header_only.resize(h - 1);
    CHECK(aead_dtls13_unprotect(rx, hp, header_only.data(), header_only.size(), 0, &got) == AEAD_ERR_AUTH);
    Bytes longer = wire;  // two records in one call: the length field covers only the first
    longer.insert(longer.end(), sent.begin(), sent.end());
    CHECK(aead_dtls13_unprotect(rx, hp, longer.data(), longer.size(), 0, &got) == AEAD_ERR_AUTH);
    CHECK(Bytes(longer.begin(), longer.begin() + static_cast<long>(sent.size())) == sent);
    CHECK(wire == sent);
    CHECK(got == 77);  // written only on success
    CHECK(aead_dtls13_unprotect(rx, hp, wire.data(), wire.size(), 0, &got) == static_cast<int64_t>(n));
    CHECK(got == 1);
    const aead_usage u = usage_of(rx);
    CHECK(u.accepted == 1);
    CHECK(u.forgeries == 0);  // refusals of malformed input are not counted as forgeries of the key
}

TEST_CASE("batches open through the window in array order: a record twice in one batch opens once", "[dtls]") {
    const Suite &s = kSuites[3];  // DTLS 1.2 AES-128-CCM
    const Bytes key = test::random_bytes(16), iv = iv_for(s);
    Dtls tx(s.alg, s.policy, key, iv, 4), rx(s.alg, s.policy, key, iv, 4);
    std::vector<Record> recs = seal_records(s, tx, iv, 4, 3, 10);
    std::vector<Bytes> outs(5, Bytes(10, 0x77));
    const size_t order[5] = {1, 0, 1, 2, 0};
    std::vector<aead_record> batch(5);
    for (size_t k = 0; k < 5; ++k) {
        const Record &r = recs[order[k]];
        batch[k] = {r.nonce.data(), 12, r.aad.data(), 13, r.ct.data(), 26, outs[k].data(), 10, 0};
    }
    CHECK(aead_seal_open_many(rx, AEAD_OPEN, batch.data(), batch.size()) == 3);
    const int64_t want[5] = {10, 10, AEAD_ERR_REPLAY, 10, AEAD_ERR_REPLAY};
    for (size_t k = 0; k < 5; ++k) {
        CHECK(batch[k].result == want[k]);
        CHECK(outs[k] == (want[k] == 10 ? recs[order[k]].pt : Bytes(10, 0x77)));
    }
    CHECK(usage_of(rx).replays == 2);
}

TEST_CASE("four threads sliding a 64-record window: no record accepted twice, every call accounted for", "[dtls]") {
    const Suite &s = kSuites[0];
    const Bytes key = test::random_bytes(16), iv = iv_for(s);
    Dtls tx(s.alg, s.policy, key, iv, 0), rx(s.alg, s.policy, key, iv, 0);
    const size_t n = 3000;
    std::vector<Record> recs = seal_records(s, tx, iv, 0, n, 16);
    std::vector<std::atomic<int>> wins(n);
    std::atomic<uint64_t> ok{0}, replayed{0}, other{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < 4; ++t)
        pool.emplace_back([&, t] {
            std::mt19937 rng(t);
            // Each thread walks forward with local reordering (up to 40 back), so the window keeps moving
            // under concurrent checks and commits.
            for (size_t k = 0; k < n; ++k) {
                const size_t i = k >= 40 && rng() % 3 == 0 ? k - rng() % 40 : k;
                Bytes out(16);
                const int64_t rc = test::open(rx, recs[i].nonce, recs[i].aad, recs[i].ct, out);
                if (rc == 16 && out == recs[i].pt) ++wins[i], ++ok;
                else if (rc == AEAD_ERR_REPLAY) ++replayed;
                else ++other;
            }
        });
    for (auto &th : pool) th.join();
    size_t twice = 0;
    for (auto &w : wins) twice += w.load() > 1;
    CHECK(twice == 0);
    CHECK(other == 0);
    CHECK(ok + replayed == 4 * n);
    const aead_usage u = usage_of(rx);
    CHECK(u.accepted == ok);
    CHECK(u.replays == replayed);
    CHECK(u.largest == n - 1);
    CHECK(ok > n / 2);
}

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" long aead_test_fail_call(long n) noexcept;  // fault builds only

TEST_CASE("fault build: each failed libcrypto call of a one-call DTLS 1.3 seal is a code, the record zeroed", "[dtls]") {
    const Suite &s = kSuites[6];
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), sn_key = test::random_bytes(16);
    Hp hp(s.alg, sn_key);
    Dtls tx(s.alg, s.policy, key, iv, 0);
    long failures = 0;
    for (long n = 1;; ++n) {  // a failed seal consumes its sequence number: each attempt takes the next
        Bytes r = unified_header(false, true, {}, 0);
        const size_t h = r.size();
        r.resize(h + 20 + 16, 0x61);
        aead_test_fail_call(n);
        const int64_t rc = aead_dtls13_protect(tx, hp, static_cast<uint64_t>(n), r.data(), h, 20, r.size());
        if (aead_test_fail_call(0) < n) {  // past the last fallible call: the record is sealed
            CHECK(rc == static_cast<int64_t>(r.size()));
            break;
        }
        CHECK((rc == AEAD_ERR_CRYPTO || rc == AEAD_ERR_NOMEM));
        CHECK(r == Bytes(r.size(), 0));
        ++failures;
    }
    CHECK(failures >= 3);  // the seal's calls and the record-number mask's
}
#endif
