// HPKE (RFC 9180): every case of RFC 9180's published test vectors for the suites libaead has, round trips
// of every suite and mode, the sequence rules (in order, the replay window, the limit), and hostile
// callers (threads, fork, racing buffers, bad keys).
#include "catch_compat.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

using test::Bytes;
using test::from_hex;
using test::random_bytes;

namespace {

constexpr int kKems[] = {AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KEM_P384_SHA384, AEAD_HPKE_KEM_P521_SHA512,
                         AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KEM_X448_SHA512};
constexpr int kKdfs[] = {AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_KDF_HKDF_SHA384, AEAD_HPKE_KDF_HKDF_SHA512};
constexpr int kAeads[] = {AEAD_HPKE_AEAD_AES_128_GCM, AEAD_HPKE_AEAD_AES_256_GCM, AEAD_HPKE_AEAD_CHACHA20_POLY1305,
                          AEAD_HPKE_AEAD_EXPORT_ONLY};
constexpr int kModes[] = {AEAD_HPKE_MODE_BASE, AEAD_HPKE_MODE_PSK, AEAD_HPKE_MODE_AUTH, AEAD_HPKE_MODE_AUTH_PSK};


constexpr int kPqKems[] = {AEAD_HPKE_KEM_MLKEM512, AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KEM_MLKEM1024,
                           AEAD_HPKE_KEM_MLKEM768_P256, AEAD_HPKE_KEM_MLKEM1024_P384, AEAD_HPKE_KEM_MLKEM768_X25519};
constexpr int kShakeKdfs[] = {AEAD_HPKE_KDF_SHAKE128, AEAD_HPKE_KDF_SHAKE256};

bool is_pq(int kem) { return std::find(std::begin(kPqKems), std::end(kPqKems), kem) != std::end(kPqKems); }
bool turboshake(int kdf) { return kdf == AEAD_HPKE_KDF_TURBOSHAKE128 || kdf == AEAD_HPKE_KDF_TURBOSHAKE256; }

// Whether the libcrypto under test has ML-KEM: OpenSSL 3.5 or later, not configured without it (the
// vendored build has it; the system OpenSSL 3.0 and the trimmed cross builds do not). Decided from the
// version and the configuration, not by asking libaead: on such a libcrypto the PQ KEMs must work.
bool mlkem_expected() {
#if OPENSSL_VERSION_NUMBER >= 0x30500000L && !defined(OPENSSL_NO_ML_KEM)
    return OpenSSL_version_num() >= 0x30500000L;
#else
    return false;
#endif
}

// The DHKEMs, and the PQ KEMs where libcrypto has ML-KEM.
std::vector<int> kems_under_test() {
    std::vector<int> kems(std::begin(kKems), std::end(kKems));
    if (mlkem_expected()) kems.insert(kems.end(), std::begin(kPqKems), std::end(kPqKems));
    return kems;
}

bool psk_mode(int mode) { return mode == AEAD_HPKE_MODE_PSK || mode == AEAD_HPKE_MODE_AUTH_PSK; }
bool auth_mode(int mode) { return mode == AEAD_HPKE_MODE_AUTH || mode == AEAD_HPKE_MODE_AUTH_PSK; }

struct Ctx {
    aead_hpke *p = nullptr;
    Ctx() = default;
    Ctx(const Ctx &) = delete;
    Ctx &operator=(const Ctx &) = delete;
    ~Ctx() { aead_hpke_free(p); }
};

struct KeyPair {
    Bytes sk, pk;
};

KeyPair generate(int kem) {
    KeyPair k{Bytes(aead_hpke_private_key_size(kem)), Bytes(aead_hpke_public_key_size(kem))};
    REQUIRE(aead_hpke_generate_keypair(kem, k.sk.data(), k.sk.size(), k.pk.data(), k.pk.size(), nullptr) == 0);
    return k;
}

KeyPair derive(int kem, const Bytes &ikm) {
    KeyPair k{Bytes(aead_hpke_private_key_size(kem)), Bytes(aead_hpke_public_key_size(kem))};
    REQUIRE(aead_hpke_derive_keypair(kem, ikm.data(), ikm.size(), k.sk.data(), k.sk.size(), k.pk.data(), k.pk.size(),
                                     nullptr) == 0);
    return k;
}

// A suite, mode and the key-schedule inputs; the buffers live here.
struct Setup {
    int mode, kem, kdf, aead;
    Bytes info, psk, psk_id, ikm_e;
    uint32_t window = 0;
    aead_hpke_params params() const {
        aead_hpke_params p{};
        p.size = sizeof p;
        p.mode = mode;
        p.kem = kem;
        p.kdf = kdf;
        p.aead = aead;
        p.info = info.data();
        p.info_len = info.size();
        p.psk = psk.data();
        p.psk_len = psk.size();
        p.psk_id = psk_id.data();
        p.psk_id_len = psk_id.size();
        p.window = window;
        p.ikm_e = ikm_e.empty() ? nullptr : ikm_e.data();
        p.ikm_e_len = ikm_e.size();
        return p;
    }
};

int sender(const Setup &s, const KeyPair &r, const KeyPair *snd, Ctx &out, Bytes &enc) {
    enc.assign(aead_hpke_enc_size(s.kem), 0);
    const aead_hpke_params p = s.params();
    return aead_hpke_setup_sender(&out.p, &p, r.pk.data(), r.pk.size(), snd ? snd->sk.data() : nullptr,
                                  snd ? snd->sk.size() : 0, enc.data(), enc.size());
}

int recipient(const Setup &s, const KeyPair &r, const KeyPair *snd, const Bytes &enc, Ctx &out) {
    const aead_hpke_params p = s.params();
    return aead_hpke_setup_recipient(&out.p, &p, enc.data(), enc.size(), r.sk.data(), r.sk.size(),
                                     snd ? snd->pk.data() : nullptr, snd ? snd->pk.size() : 0);
}

int64_t seal(Ctx &c, const Bytes &aad, const Bytes &pt, Bytes &ct, uint64_t *seq = nullptr) {
    ct.assign(pt.size() + AEAD_HPKE_TAG, 0);
    return aead_hpke_seal(c.p, aad.data(), aad.size(), pt.data(), pt.size(), ct.data(), ct.size(), seq);
}

int64_t open(Ctx &c, const Bytes &aad, const Bytes &ct, Bytes &pt) {
    pt.assign(ct.size() >= AEAD_HPKE_TAG ? ct.size() - AEAD_HPKE_TAG : 0, 0);
    return aead_hpke_open(c.p, aad.data(), aad.size(), ct.data(), ct.size(), pt.data(), pt.size());
}

int64_t open_at(Ctx &c, uint64_t seq, const Bytes &aad, const Bytes &ct, Bytes &pt) {
    pt.assign(ct.size() >= AEAD_HPKE_TAG ? ct.size() - AEAD_HPKE_TAG : 0, 0);
    return aead_hpke_open_at(c.p, seq, aad.data(), aad.size(), ct.data(), ct.size(), pt.data(), pt.size());
}

Bytes exported(const Ctx &c, const Bytes &context, size_t len) {
    Bytes out(len);
    REQUIRE(aead_hpke_export(c.p, context.data(), context.size(), out.data(), out.size()) == 0);
    return out;
}

// A sender and recipient pair of one suite and mode, with fresh keys and random inputs.
struct Pair {
    Setup s;
    KeyPair r, snd;
    Ctx tx, rx;
    Bytes enc;
    Pair(int mode, int kem, int kdf, int aead, uint32_t window = 0)
        : s{mode, kem, kdf, aead, random_bytes(test::random_below(80)), {}, {}, {}, window}, r(generate(kem)),
          snd(generate(kem)) {
        if (psk_mode(mode)) {
            s.psk = random_bytes(32 + test::random_below(32));
            s.psk_id = random_bytes(1 + test::random_below(40));
        }
        const KeyPair *a = auth_mode(mode) ? &snd : nullptr;
        REQUIRE(sender(s, r, a, tx, enc) == 0);
        REQUIRE(recipient(s, r, a, enc, rx) == 0);
    }
};

// One vector case's messages on a sender and recipient set up from it: every encryption in sequence
// (the ciphertext and sequence number as the case has them, opened in order), export-only's refusal, and
// every export on both sides. count: cases, encryptions, exports checked.
void check_messages(const nlohmann::json &v, int aead, Ctx &tx, Ctx &rx, std::array<size_t, 3> &count) {
    ++count[0];
    uint64_t expected_seq = 0;
    for (const auto &m : v["encryptions"]) {
        const Bytes aad = from_hex(m["aad"]), pt = from_hex(m["pt"]), ct = from_hex(m["ct"]);
        Bytes got, back;
        uint64_t seq = UINT64_MAX;
        REQUIRE(seal(tx, aad, pt, got, &seq) == static_cast<int64_t>(ct.size()));
        CHECK(seq == expected_seq++);
        CHECK(got == ct);
        REQUIRE(open(rx, aad, ct, back) == static_cast<int64_t>(pt.size()));
        CHECK(back == pt);
        ++count[1];
    }
    if (aead == AEAD_HPKE_AEAD_EXPORT_ONLY) {
        Bytes ct;
        CHECK(seal(tx, {}, Bytes{1, 2, 3}, ct) == AEAD_ERR_ARG);
        CHECK(aead_hpke_aead_ctx(tx.p) == nullptr);
    }
    for (const auto &x : v["exports"]) {
        const Bytes context = from_hex(x["exporter_context"]), value = from_hex(x["exported_value"]);
        CHECK(exported(tx, context, x["L"].get<size_t>()) == value);
        CHECK(exported(rx, context, x["L"].get<size_t>()) == value);
        ++count[2];
    }
}

// A base-mode sender to a bad recipient key: its code; no context and a zeroed enc are left.
int sender_refused(const Setup &s, const KeyPair &bad, Bytes &enc) {
    Ctx c;
    const int rc = sender(s, bad, nullptr, c, enc);
    CHECK(c.p == nullptr);
    CHECK(enc == Bytes(enc.size(), 0));
    return rc;
}

// A pair's round trip: equal exports; unless export-only, `messages` random messages sealed, a tampered
// copy of each refused (out zeroed), each opened in order.
void round_trip(Pair &p, int aead, int messages) {
    const Bytes context = random_bytes(test::random_below(64));
    const size_t len = 1 + test::random_below(100);
    CHECK(exported(p.tx, context, len) == exported(p.rx, context, len));
    if (aead == AEAD_HPKE_AEAD_EXPORT_ONLY) return;
    for (int i = 0; i < messages; ++i) {
        const Bytes aad = random_bytes(test::random_below(40)), pt = random_bytes(test::random_below(300));
        Bytes ct, back;
        REQUIRE(seal(p.tx, aad, pt, ct) == static_cast<int64_t>(pt.size() + 16));
        Bytes bad = ct;
        bad[test::random_below(static_cast<uint32_t>(bad.size()))] ^= 1;
        CHECK(open(p.rx, aad, bad, back) == AEAD_ERR_AUTH);
        CHECK(back == Bytes(back.size(), 0));
        REQUIRE(open(p.rx, aad, ct, back) == static_cast<int64_t>(pt.size()));
        CHECK(back == pt);
    }
}

}  // namespace

TEST_CASE("RFC 9180 test vectors: every case of every suite libaead has, every encryption and export", "[hpke]") {
    const auto doc = nlohmann::json::parse(test::read_file(test::vectors_dir() + "/hpke/rfc9180.json"));
    // (kem, kdf, aead) -> cases, encryptions, exports checked
    std::map<std::tuple<int, int, int>, std::array<size_t, 3>> counts;
    size_t cases = 0;
    for (const auto &v : doc) {
        Setup s{v["mode"].get<int>(), v["kem_id"].get<int>(), v["kdf_id"].get<int>(), v["aead_id"].get<int>(),
                from_hex(v["info"]), {}, {}, from_hex(v["ikmE"])};
        INFO("mode " << s.mode << " kem " << s.kem << " kdf " << s.kdf << " aead " << s.aead);
        if (v.contains("psk")) {
            s.psk = from_hex(v["psk"]);
            s.psk_id = from_hex(v["psk_id"]);
        }
        // DeriveKeyPair of each key pair the case names.
        const KeyPair r = derive(s.kem, from_hex(v["ikmR"]));
        CHECK(r.sk == from_hex(v["skRm"]));
        CHECK(r.pk == from_hex(v["pkRm"]));
        const KeyPair e = derive(s.kem, from_hex(v["ikmE"]));
        CHECK(e.sk == from_hex(v["skEm"]));
        CHECK(e.pk == from_hex(v["pkEm"]));
        KeyPair snd;
        if (auth_mode(s.mode)) {
            snd = derive(s.kem, from_hex(v["ikmS"]));
            CHECK(snd.sk == from_hex(v["skSm"]));
            CHECK(snd.pk == from_hex(v["pkSm"]));
        }
        // The public key of each private key, as deserialised.
        Bytes pk(r.pk.size());
        REQUIRE(aead_hpke_public_key(s.kem, r.sk.data(), r.sk.size(), pk.data(), pk.size(), nullptr) == 0);
        CHECK(pk == r.pk);

        Ctx tx, rx;
        Bytes enc;
        const KeyPair *a = auth_mode(s.mode) ? &snd : nullptr;
        REQUIRE(sender(s, r, a, tx, enc) == 0);
        CHECK(enc == from_hex(v["enc"]));
        REQUIRE(recipient(s, r, a, from_hex(v["enc"]), rx) == 0);
        check_messages(v, s.aead, tx, rx, counts[{s.kem, s.kdf, s.aead}]);
        ++cases;
    }
    // The file's suites: X25519, X448, P-256, P-521 with HKDF-SHA256 and HKDF-SHA512, each AEAD, each mode.
    CHECK(cases == 128);
    CHECK(counts.size() == 32);
    for (const auto &[suite, n] : counts) {
        std::printf("hpke vectors: kem 0x%04x kdf %d aead 0x%04x: %zu cases, %zu encryptions, %zu exports\n",
                    std::get<0>(suite), std::get<1>(suite), std::get<2>(suite), n[0], n[1], n[2]);
        CHECK(n[0] == 4);
        CHECK(n[2] == 12);
        CHECK(n[1] == (std::get<2>(suite) == AEAD_HPKE_AEAD_EXPORT_ONLY ? 0u : 4u * 257u));
    }
}

TEST_CASE("every suite and mode: seal and open round trips, equal exports, tampering refused", "[hpke]") {
    for (int kem : kKems)
        for (int kdf : kKdfs)
            for (int aead : kAeads)
                for (int mode : kModes) {
                    INFO("mode " << mode << " kem " << kem << " kdf " << kdf << " aead " << aead);
                    Pair p(mode, kem, kdf, aead);
                    round_trip(p, aead, 3);
                }
}

TEST_CASE("single-shot seal and open", "[hpke]") {
    for (int kem : kKems) {
        Setup s{AEAD_HPKE_MODE_AUTH, kem, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, random_bytes(10), {}, {}, {}};
        const KeyPair r = generate(kem), snd = generate(kem);
        const aead_hpke_params p = s.params();
        const Bytes aad = random_bytes(7), pt = random_bytes(64);
        Bytes enc(AEAD_HPKE_MAX_ENC), ct(pt.size() + 16), back(pt.size());
        REQUIRE(aead_hpke_seal_single(&p, r.pk.data(), r.pk.size(), snd.sk.data(), snd.sk.size(), enc.data(), enc.size(),
                                      aad.data(), aad.size(), pt.data(), pt.size(), ct.data(), ct.size()) == 80);
        REQUIRE(aead_hpke_open_single(&p, enc.data(), aead_hpke_enc_size(kem), r.sk.data(), r.sk.size(), snd.pk.data(),
                                      snd.pk.size(), aad.data(), aad.size(), ct.data(), ct.size(), back.data(),
                                      back.size()) == 64);
        CHECK(back == pt);
        ct[0] ^= 1;
        CHECK(aead_hpke_open_single(&p, enc.data(), aead_hpke_enc_size(kem), r.sk.data(), r.sk.size(), snd.pk.data(),
                                    snd.pk.size(), aad.data(), aad.size(), ct.data(), ct.size(), back.data(),
                                    back.size()) == AEAD_ERR_AUTH);
        CHECK(back == Bytes(back.size(), 0));
        // A seal refused after the setup leaves no enc behind.
        Bytes small(10);
        CHECK(aead_hpke_seal_single(&p, r.pk.data(), r.pk.size(), snd.sk.data(), snd.sk.size(), enc.data(), enc.size(),
                                    aad.data(), aad.size(), pt.data(), pt.size(), small.data(), small.size()) ==
              AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(enc == Bytes(enc.size(), 0));
    }
}

TEST_CASE("keys: generated pairs are consistent; DeriveKeyPair is deterministic", "[hpke]") {
    for (int kem : kems_under_test()) {
        INFO("kem " << kem);
        const KeyPair k = generate(kem);
        Bytes pk(k.pk.size());
        REQUIRE(aead_hpke_public_key(kem, k.sk.data(), k.sk.size(), pk.data(), pk.size(), nullptr) == 0);
        CHECK(pk == k.pk);
        const Bytes ikm = random_bytes(32);
        const KeyPair a = derive(kem, ikm), b = derive(kem, ikm);
        CHECK(a.sk == b.sk);
        CHECK(a.pk == b.pk);
        CHECK(derive(kem, random_bytes(32)).sk != a.sk);
        Bytes small(k.pk.size() - 1);
        CHECK(aead_hpke_public_key(kem, k.sk.data(), k.sk.size(), small.data(), small.size(), nullptr) ==
              AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(aead_hpke_generate_keypair(kem, small.data(), 1, pk.data(), pk.size(), nullptr) == AEAD_ERR_BUFFER_TOO_SMALL);
    }
    Bytes sk(32), pk(32);
    CHECK(aead_hpke_generate_keypair(0x99, sk.data(), sk.size(), pk.data(), pk.size(), nullptr) == AEAD_ERR_ARG);
    CHECK(aead_hpke_enc_size(0x99) == 0);
    CHECK(aead_hpke_private_key_size(0x99) == 0);
    CHECK(aead_hpke_public_key_size(0x99) == 0);
    CHECK(aead_hpke_enc_size(AEAD_HPKE_KEM_P521_SHA512) == AEAD_HPKE_MAX_ENC);
    CHECK(aead_hpke_public_key_size(AEAD_HPKE_KEM_P521_SHA512) == AEAD_HPKE_MAX_ENC);
    CHECK(aead_hpke_private_key_size(AEAD_HPKE_KEM_P521_SHA512) == AEAD_HPKE_MAX_PRIVATE_KEY);
}

TEST_CASE("in-order open: reordered and replayed messages fail authentication", "[hpke]") {
    Pair p(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM);
    const Bytes aad = random_bytes(5);
    Bytes c0, c1, c2, back;
    REQUIRE(seal(p.tx, aad, Bytes{0}, c0) == 17);
    REQUIRE(seal(p.tx, aad, Bytes{1}, c1) == 17);
    REQUIRE(seal(p.tx, aad, Bytes{2}, c2) == 17);
    CHECK(open(p.rx, aad, c1, back) == AEAD_ERR_AUTH);  // expected 0
    REQUIRE(open(p.rx, aad, c0, back) == 1);
    CHECK(back == Bytes{0});
    CHECK(open(p.rx, aad, c0, back) == AEAD_ERR_AUTH);  // a replay
    REQUIRE(open(p.rx, aad, c1, back) == 1);
    CHECK(back == Bytes{1});
    REQUIRE(open(p.rx, aad, c2, back) == 1);
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(aead_hpke_aead_ctx(p.rx.p), &u, sizeof u) == 0);
    CHECK(u.forgeries == 2);
    CHECK(u.accepted == 3);
    REQUIRE(aead_ctx_usage_ex(aead_hpke_aead_ctx(p.tx.p), &u, sizeof u) == 0);
    CHECK(u.seals == 3);
    // A sender does not open; a recipient does not seal.
    CHECK(open(p.tx, aad, c0, back) == AEAD_ERR_ARG);
    CHECK(seal(p.rx, aad, Bytes{1}, back) == AEAD_ERR_ARG);
}

TEST_CASE("explicit-sequence open: the replay window, moved only after the tag verifies", "[hpke]") {
    Pair p(AEAD_HPKE_MODE_PSK, AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_256_GCM, 64);
    std::vector<Bytes> cts(200);
    const Bytes aad = random_bytes(3);
    for (size_t i = 0; i < cts.size(); ++i) {
        uint64_t seq = 0;
        REQUIRE(seal(p.tx, aad, Bytes{static_cast<uint8_t>(i)}, cts[i], &seq) == 17);
        REQUIRE(seq == i);
    }
    Bytes back;
    REQUIRE(open_at(p.rx, 5, aad, cts[5], back) == 1);
    CHECK(back == Bytes{5});
    REQUIRE(open_at(p.rx, 2, aad, cts[2], back) == 1);
    CHECK(open_at(p.rx, 5, aad, cts[5], back) == AEAD_ERR_REPLAY);
    CHECK(open_at(p.rx, 3, aad, cts[4], back) == AEAD_ERR_AUTH);  // wrong number: the tag fails, 3 stays open
    REQUIRE(open_at(p.rx, 3, aad, cts[3], back) == 1);
    // In order continues after the largest opened (5).
    REQUIRE(open(p.rx, aad, cts[6], back) == 1);
    CHECK(back == Bytes{6});
    REQUIRE(open_at(p.rx, 150, aad, cts[150], back) == 1);
    CHECK(open_at(p.rx, 50, aad, cts[50], back) == AEAD_ERR_REPLAY);  // left of the 64-message window
    REQUIRE(open_at(p.rx, 100, aad, cts[100], back) == 1);            // inside it
    CHECK(open_at(p.rx, AEAD_HPKE_MAX_SEQUENCE + 1, aad, cts[0], back) == AEAD_ERR_NONCE_EXHAUSTED);
    aead_usage u{};
    REQUIRE(aead_ctx_usage_ex(aead_hpke_aead_ctx(p.rx.p), &u, sizeof u) == 0);
    CHECK(u.window == 64);
    CHECK(u.largest == 150);
    CHECK(u.replays == 2);
}

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept;  // fault builds only

TEST_CASE("fault build: the sequence limit, 2^64 - 2, then AEAD_ERR_NONCE_EXHAUSTED for good", "[hpke]") {
    for (int aead : {int{AEAD_HPKE_AEAD_AES_128_GCM}, int{AEAD_HPKE_AEAD_CHACHA20_POLY1305}}) {
        Pair p(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, aead);
        // The hook sets the sender's next sequence number (the row's counter) near the end.
        aead_test_set_random_seals(const_cast<aead_ctx *>(aead_hpke_aead_ctx(p.tx.p)), AEAD_HPKE_MAX_SEQUENCE - 1);
        const Bytes aad = random_bytes(4);
        Bytes c1, c2, c3, back;
        uint64_t seq = 0;
        REQUIRE(seal(p.tx, aad, Bytes{1}, c1, &seq) == 17);
        CHECK(seq == AEAD_HPKE_MAX_SEQUENCE - 1);
        REQUIRE(seal(p.tx, aad, Bytes{2}, c2, &seq) == 17);
        CHECK(seq == AEAD_HPKE_MAX_SEQUENCE);
        CHECK(seal(p.tx, aad, Bytes{3}, c3) == AEAD_ERR_NONCE_EXHAUSTED);
        CHECK(c3 == Bytes(c3.size(), 0));
        CHECK(seal(p.tx, aad, Bytes{3}, c3) == AEAD_ERR_NONCE_EXHAUSTED);
        // The recipient derives the same nonces at the end of the range.
        REQUIRE(open_at(p.rx, AEAD_HPKE_MAX_SEQUENCE, aad, c2, back) == 1);
        CHECK(back == Bytes{2});
        REQUIRE(open_at(p.rx, AEAD_HPKE_MAX_SEQUENCE - 1, aad, c1, back) == 1);
        CHECK(open(p.rx, aad, c2, back) == AEAD_ERR_NONCE_EXHAUSTED);
    }
}
#endif

TEST_CASE("two threads sealing on one sender get distinct sequence numbers; all open in order", "[hpke]") {
    Pair p(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM);
    const size_t total = test::under_valgrind() ? 20000 : 1000000;
    constexpr size_t kPt = 8, kCt = kPt + 16;
    std::vector<uint8_t> cts(total * kCt);
    std::vector<uint64_t> seqs(total);
    std::atomic<size_t> failures{0};
    auto work = [&](size_t first, size_t count) {
        uint8_t pt[kPt], ct[kCt];
        for (size_t i = first; i < first + count; ++i) {
            for (size_t b = 0; b < kPt; ++b) pt[b] = static_cast<uint8_t>(i >> (8 * b));
            uint64_t seq = 0;
            if (aead_hpke_seal(p.tx.p, nullptr, 0, pt, kPt, ct, kCt, &seq) != int64_t{kCt} || seq >= total) {
                ++failures;
                continue;
            }
            seqs[i] = seq;
            std::memcpy(cts.data() + seq * kCt, ct, kCt);
        }
    };
    std::thread a(work, 0, total / 2), b(work, total / 2, total - total / 2);
    a.join();
    b.join();
    REQUIRE(failures == 0);
    std::vector<uint8_t> seen(total, 0);
    size_t repeats = 0;
    for (uint64_t s : seqs) repeats += seen[s]++ != 0;
    CHECK(repeats == 0);
    // Every ciphertext opens in sequence order: its nonce was the recipient's for that number.
    size_t bad = 0;
    for (size_t s = 0; s < total; ++s) {
        uint8_t back[kPt];
        bad += aead_hpke_open(p.rx.p, nullptr, 0, cts.data() + s * kCt, kCt, back, kPt) != int64_t{kPt};
    }
    CHECK(bad == 0);
}

TEST_CASE("fork: a sender set up before fork() refuses to seal in the child; the parent goes on", "[hpke]") {
    Pair p(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_CHACHA20_POLY1305);
    Bytes ct, back;
    REQUIRE(seal(p.tx, {}, Bytes{1}, ct) == 17);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        uint8_t out[17];
        const uint8_t pt = 2;
        const int64_t r = aead_hpke_seal(p.tx.p, nullptr, 0, &pt, 1, out, sizeof out, nullptr);
        // A context set up in the child works there.
        Pair fresh(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256,
                   AEAD_HPKE_AEAD_CHACHA20_POLY1305);
        const int64_t f = aead_hpke_seal(fresh.tx.p, nullptr, 0, &pt, 1, out, sizeof out, nullptr);
        test::child_exit(r == AEAD_ERR_FORKED && f == 17 ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    uint64_t seq = 0;
    REQUIRE(seal(p.tx, {}, Bytes{3}, ct, &seq) == 17);
    CHECK(seq == 1);
    REQUIRE(open_at(p.rx, 1, {}, ct, back) == 1);
    CHECK(back == Bytes{3});
}

#ifndef AEAD_TEST_TSAN
TEST_CASE("a racing writer on the caller's buffers: sequence numbers stay distinct, nothing written past out_cap", "[hpke]") {
    Pair p(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM);
    constexpr size_t kPt = 64, kGuard = 32;
    std::vector<uint8_t> pt(kPt), aad(16), out(kPt + 16 + kGuard, 0xA5);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        uint8_t v = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            for (auto &b : pt) reinterpret_cast<volatile uint8_t &>(b) = v;
            for (auto &b : aad) reinterpret_cast<volatile uint8_t &>(b) = v;
            ++v;
        }
    });
    const size_t rounds = test::under_valgrind() ? 200 : 20000;
    uint64_t expected = 0;
    size_t wrong = 0;
    for (size_t i = 0; i < rounds; ++i) {
        uint64_t seq = UINT64_MAX;
        wrong += aead_hpke_seal(p.tx.p, aad.data(), aad.size(), pt.data(), pt.size(), out.data(), kPt + 16, &seq) !=
                     int64_t{kPt + 16} ||
                 seq != expected++;
    }
    stop = true;
    writer.join();
    CHECK(wrong == 0);
    CHECK(std::all_of(out.begin() + kPt + 16, out.end(), [](uint8_t b) { return b == 0xA5; }));
}
#endif

TEST_CASE("bad keys are refused with a clear code and leave nothing behind", "[hpke]") {
    Setup s{AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, {}, {}, {}, {}};
    const KeyPair r = generate(s.kem);
    Ctx c;
    Bytes enc;
    auto refused = [&](const KeyPair &bad) { return sender_refused(s, bad, enc); };
    // P-256: a point off the curve, the compressed form, a wrong length.
    KeyPair off = r;
    off.pk.back() ^= 1;
    CHECK(refused(off) == AEAD_ERR_ARG);
    KeyPair compressed = r;
    compressed.pk[0] = 0x02;
    CHECK(refused(compressed) == AEAD_ERR_ARG);
    KeyPair shortk = r;
    shortk.pk.resize(33);
    CHECK(refused(shortk) == AEAD_ERR_KEY_SIZE);
    // A recipient's private scalar of 0, or not below the order.
    for (const Bytes &sk : {Bytes(32, 0), Bytes(32, 0xff)}) {
        KeyPair bad{sk, r.pk};
        Ctx rc;
        CHECK(recipient(s, bad, nullptr, r.pk, rc) == AEAD_ERR_ARG);
        CHECK(rc.p == nullptr);
        Bytes pk(65, 1);
        CHECK(aead_hpke_public_key(s.kem, sk.data(), sk.size(), pk.data(), pk.size(), nullptr) == AEAD_ERR_ARG);
        CHECK(pk == Bytes(65, 0));
    }
    // X25519 and X448: a small-order public key makes an all-zero shared secret.
    for (int kem : {int{AEAD_HPKE_KEM_X25519_SHA256}, int{AEAD_HPKE_KEM_X448_SHA512}}) {
        s.kem = kem;
        const KeyPair x = generate(kem);
        KeyPair zero{x.sk, Bytes(x.pk.size(), 0)};
        CHECK(refused(zero) == AEAD_ERR_ARG);
        Ctx rc;
        CHECK(recipient(s, x, nullptr, zero.pk, rc) == AEAD_ERR_ARG);
        KeyPair longk = x;
        longk.pk.push_back(0);
        CHECK(refused(longk) == AEAD_ERR_KEY_SIZE);
        CHECK(recipient(s, KeyPair{Bytes(x.sk.size() - 1, 1), x.pk}, nullptr, x.pk, rc) == AEAD_ERR_KEY_SIZE);
    }
    // The auth modes: the sender's key too.
    s = Setup{AEAD_HPKE_MODE_AUTH, AEAD_HPKE_KEM_P384_SHA384, AEAD_HPKE_KDF_HKDF_SHA384, AEAD_HPKE_AEAD_AES_256_GCM, {}, {}, {}, {}};
    const KeyPair r3 = generate(s.kem), s3 = generate(s.kem);
    KeyPair bad_s{Bytes(48, 0), s3.pk};
    CHECK(sender(s, r3, &bad_s, c, enc) == AEAD_ERR_ARG);
    KeyPair off_s = s3;
    off_s.pk[10] ^= 4;
    CHECK(recipient(s, r3, &off_s, s3.pk, c) == AEAD_ERR_ARG);
    CHECK(sender(s, r3, nullptr, c, enc) == AEAD_ERR_ARG);  // auth without the sender's key
}

TEST_CASE("arguments: modes, suites, sizes and outputs refused before any work", "[hpke]") {
    const KeyPair r = generate(AEAD_HPKE_KEM_X25519_SHA256);
    Setup s{AEAD_HPKE_MODE_PSK, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, {}, {}, {}, {}};
    Ctx c;
    Bytes enc;
    CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_ARG);  // PSK mode without a PSK
    s.psk = random_bytes(32);
    CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_ARG);  // a PSK without its id
    s.mode = AEAD_HPKE_MODE_BASE;
    s.psk_id = random_bytes(4);
    CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_ARG);  // base mode with a PSK
    s.psk.clear();
    s.psk_id.clear();
    for (auto bad : {std::tuple{7, 0x20, 1, 1}, std::tuple{0, 0x99, 1, 1}, std::tuple{0, 0x20, 9, 1}, std::tuple{0, 0x20, 1, 9}}) {
        Setup b = s;
        std::tie(b.mode, b.kem, b.kdf, b.aead) = bad;
        CHECK(sender(b, r, nullptr, c, enc) == AEAD_ERR_ARG);
    }
    s.window = 100;
    CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_ARG);
    s.window = 0;
    aead_hpke_params p = s.params();
    Bytes e(31);
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) ==
          AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(aead_hpke_setup_sender(nullptr, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == AEAD_ERR_ARG);
    CHECK(aead_hpke_setup_sender(&c.p, nullptr, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == AEAD_ERR_ARG);
    p.size = 8;
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == AEAD_ERR_ARG);
    char long_query[300];
    std::memset(long_query, 'a', sizeof long_query - 1);
    long_query[sizeof long_query - 1] = 0;
    p = s.params();
    p.properties = long_query;
    e.resize(32);
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == AEAD_ERR_ARG);
    p.properties = "provider=nonesuch";
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == AEAD_ERR_UNSUPPORTED);
    // Keys where the mode takes none, and no enc buffer.
    p = s.params();
    const KeyPair snd = generate(s.kem);
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), snd.sk.data(), snd.sk.size(), e.data(), e.size()) ==
          AEAD_ERR_ARG);
    CHECK(aead_hpke_setup_sender(&c.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, nullptr, 0) == AEAD_ERR_ARG);
    CHECK(aead_hpke_setup_recipient(&c.p, &p, r.pk.data(), r.pk.size(), r.sk.data(), r.sk.size(), snd.pk.data(),
                                    snd.pk.size()) == AEAD_ERR_ARG);
    CHECK(aead_hpke_setup_recipient(nullptr, &p, r.pk.data(), r.pk.size(), r.sk.data(), r.sk.size(), nullptr, 0) ==
          AEAD_ERR_ARG);
    CHECK(aead_hpke_setup_recipient(&c.p, nullptr, r.pk.data(), r.pk.size(), r.sk.data(), r.sk.size(), nullptr, 0) ==
          AEAD_ERR_ARG);
    Bytes ksk(32), kpk(32);
    CHECK(aead_hpke_generate_keypair(s.kem, ksk.data(), ksk.size(), kpk.data(), kpk.size(), long_query) == AEAD_ERR_ARG);
    CHECK(aead_hpke_public_key(s.kem, r.sk.data(), r.sk.size(), kpk.data(), kpk.size(), long_query) == AEAD_ERR_ARG);
    CHECK(aead_hpke_public_key(0x99, r.sk.data(), r.sk.size(), kpk.data(), kpk.size(), nullptr) == AEAD_ERR_ARG);
    CHECK(aead_hpke_derive_keypair(s.kem, nullptr, 5, ksk.data(), ksk.size(), kpk.data(), kpk.size(), nullptr) == AEAD_ERR_ARG);
    // An export-only suite has no single-shot open.
    Setup xo = s;
    xo.aead = AEAD_HPKE_AEAD_EXPORT_ONLY;
    p = xo.params();
    {
        Ctx t;
        REQUIRE(aead_hpke_setup_sender(&t.p, &p, r.pk.data(), r.pk.size(), nullptr, 0, e.data(), e.size()) == 0);
        Bytes ct(16), pt(0);
        CHECK(aead_hpke_open_single(&p, e.data(), e.size(), r.sk.data(), r.sk.size(), nullptr, 0, nullptr, 0, ct.data(),
                                    ct.size(), pt.data(), 0) == AEAD_ERR_ARG);
    }
    // Export limits; seal and open output checks.
    Pair q(AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM);
    Bytes out(255 * 32 + 1);
    const Bytes big(AEAD_HPKE_MAX_EXPORT_CONTEXT + 1);
    CHECK(aead_hpke_export(q.tx.p, big.data(), big.size(), out.data(), 16) == AEAD_ERR_TOO_LONG);
    CHECK(aead_hpke_export(q.tx.p, nullptr, 0, out.data(), out.size()) == AEAD_ERR_TOO_LONG);
    CHECK(aead_hpke_export(q.tx.p, big.data(), AEAD_HPKE_MAX_EXPORT_CONTEXT, out.data(), 255 * 32) == 0);
    CHECK(aead_hpke_export(nullptr, nullptr, 0, out.data(), 16) == AEAD_ERR_ARG);
    CHECK(aead_hpke_export(q.tx.p, nullptr, 0, nullptr, 0) == 0);
    Bytes pt(10), small(25);
    CHECK(aead_hpke_seal(q.tx.p, nullptr, 0, pt.data(), pt.size(), small.data(), small.size(), nullptr) ==
          AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(aead_hpke_seal(q.tx.p, pt.data(), pt.size(), pt.data(), pt.size(), pt.data() + 1, 26, nullptr) == AEAD_ERR_OVERLAP);
    Bytes ct;
    uint64_t seq = 9;
    REQUIRE(seal(q.tx, {}, pt, ct, &seq) == 26);
    CHECK(seq == 0);  // the refusals consumed nothing
    CHECK(aead_hpke_seal(nullptr, nullptr, 0, nullptr, 0, nullptr, 0, nullptr) == AEAD_ERR_ARG);
    CHECK(aead_hpke_open(nullptr, nullptr, 0, nullptr, 0, nullptr, 0) == AEAD_ERR_ARG);
    CHECK(aead_hpke_open(q.rx.p, nullptr, 0, ct.data(), 15, nullptr, 0) == AEAD_ERR_AUTH);
    CHECK(aead_hpke_aead_ctx(nullptr) == nullptr);
    CHECK(aead_hpke_indicator(nullptr) == 0);
    CHECK(aead_hpke_indicator(q.tx.p) == 0);  // the default provider
    aead_hpke_free(nullptr);
    // HPKE's nonce row is the library's own: no public policy value creates it.
    aead_ctx *x = nullptr;
    const Bytes key(16), iv(12);
    CHECK(aead_ctx_new_ex(&x, AEAD_AES_128_GCM, 1000, key.data(), key.size(), 0, nullptr, iv.data(), iv.size()) == AEAD_ERR_ARG);
    CHECK(x == nullptr);
}

// ---- draft-ietf-hpke-pq: ML-KEM, the hybrids and the one-stage KDFs.

TEST_CASE("draft-ietf-hpke-pq test vectors (Go 1.26's hpke-pq.json): every case, every encryption and export",
          "[hpke][pq]") {
    const auto doc = nlohmann::json::parse(test::read_file(test::vectors_dir() + "/hpke/hpke-pq.json"));
    const bool pq = mlkem_expected();
    // (kem, kdf, aead) -> cases, encryptions, exports checked
    std::map<std::tuple<int, int, int>, std::array<size_t, 3>> counts;
    size_t cases = 0, passed = 0, refused_turboshake = 0, refused_mlkem = 0;
    for (const auto &v : doc) {
        ++cases;
        Setup s{v["mode"].get<int>(), v["kem_id"].get<int>(), v["kdf_id"].get<int>(), v["aead_id"].get<int>(),
                from_hex(v["info"]), {}, {}, from_hex(v["ikmE"])};
        INFO("mode " << s.mode << " kem " << s.kem << " kdf " << s.kdf << " aead " << s.aead);
        REQUIRE(s.mode == AEAD_HPKE_MODE_BASE);
        const KeyPair file{from_hex(v["skRm"]), from_hex(v["pkRm"])};
        REQUIRE(file.sk.size() == aead_hpke_private_key_size(s.kem));
        REQUIRE(file.pk.size() == aead_hpke_public_key_size(s.kem));
        REQUIRE(from_hex(v["enc"]).size() == aead_hpke_enc_size(s.kem));
        Ctx tx, rx;
        Bytes enc;
        if (turboshake(s.kdf) || (is_pq(s.kem) && !pq)) {
            // Refused, as sender and as recipient, before any work.
            CHECK(sender(s, file, nullptr, tx, enc) == AEAD_ERR_UNSUPPORTED);
            CHECK(tx.p == nullptr);
            CHECK(enc == Bytes(enc.size(), 0));
            CHECK(recipient(s, file, nullptr, from_hex(v["enc"]), rx) == AEAD_ERR_UNSUPPORTED);
            CHECK(rx.p == nullptr);
            ++(turboshake(s.kdf) ? refused_turboshake : refused_mlkem);
            continue;
        }
        // DeriveKeyPair, and the public key of the private key.
        const KeyPair r = derive(s.kem, from_hex(v["ikmR"]));
        CHECK(r.sk == file.sk);
        CHECK(r.pk == file.pk);
        Bytes pk(file.pk.size());
        REQUIRE(aead_hpke_public_key(s.kem, file.sk.data(), file.sk.size(), pk.data(), pk.size(), nullptr) == 0);
        CHECK(pk == file.pk);
        // Encapsulation with the case's randomness (ML-KEM's through OpenSSL's "ikme"), decapsulation.
        REQUIRE(sender(s, file, nullptr, tx, enc) == 0);
        CHECK(enc == from_hex(v["enc"]));
        REQUIRE(recipient(s, file, nullptr, from_hex(v["enc"]), rx) == 0);
        check_messages(v, s.aead, tx, rx, counts[{s.kem, s.kdf, s.aead}]);
        ++passed;
    }
    std::printf("hpke-pq vectors: %zu cases: %zu passed, %zu refused (TurboSHAKE), %zu refused (no ML-KEM in %s)\n",
                cases, passed, refused_turboshake, refused_mlkem, aead_version());
    for (const auto &[suite, n] : counts)
        std::printf("hpke-pq vectors: kem 0x%04x kdf 0x%04x aead 0x%04x: %zu cases, %zu encryptions, %zu exports\n",
                    std::get<0>(suite), std::get<1>(suite), std::get<2>(suite), n[0], n[1], n[2]);
    // The file: ML-KEM-512/768/1024, the three hybrids and four DHKEMs, with HKDF, SHAKE and TurboSHAKE.
    CHECK(cases == 13);
    CHECK(refused_turboshake == 3);
    // With ML-KEM: the ten cases whose KDF OpenSSL has, in ten suites; without: the two DHKEM ones.
    CHECK(passed == (pq ? 10u : 2u));
    CHECK(refused_mlkem == (pq ? 0u : 8u));
    CHECK(counts.size() == passed);
    for (const auto &[suite, n] : counts) {
        CHECK(n[0] == 1);
        CHECK(n[1] == 10);
        CHECK(n[2] == 5);
    }
    CHECK(counts.count({AEAD_HPKE_KEM_P384_SHA384, AEAD_HPKE_KDF_SHAKE256, AEAD_HPKE_AEAD_AES_256_GCM}) == 1);
    if (pq) {
        for (int kem : kPqKems) {
            size_t n = 0;
            for (const auto &[suite, c] : counts) n += std::get<0>(suite) == kem ? c[0] : 0;
            INFO("kem " << kem);
            CHECK(n == (kem == AEAD_HPKE_KEM_MLKEM768_P256 || kem == AEAD_HPKE_KEM_MLKEM768_X25519 ? 2u : 1u));
        }
    }
}

TEST_CASE("PQ KEMs: sizes; without ML-KEM in libcrypto every call refuses AEAD_ERR_UNSUPPORTED", "[hpke][pq]") {
    const std::map<int, std::array<size_t, 3>> sizes = {  // enc, public key, private key
        {AEAD_HPKE_KEM_MLKEM512, {768, 800, 64}},         {AEAD_HPKE_KEM_MLKEM768, {1088, 1184, 64}},
        {AEAD_HPKE_KEM_MLKEM1024, {1568, 1568, 64}},      {AEAD_HPKE_KEM_MLKEM768_P256, {1153, 1249, 32}},
        {AEAD_HPKE_KEM_MLKEM1024_P384, {1665, 1665, 32}}, {AEAD_HPKE_KEM_MLKEM768_X25519, {1120, 1216, 32}}};
    for (const auto &[kem, n] : sizes) {
        INFO("kem " << kem);
        CHECK(aead_hpke_enc_size(kem) == n[0]);
        CHECK(aead_hpke_public_key_size(kem) == n[1]);
        CHECK(aead_hpke_private_key_size(kem) == n[2]);
        CHECK(n[0] <= AEAD_HPKE_MAX_PQ_ENC);
        CHECK(n[1] <= AEAD_HPKE_MAX_PQ_ENC);
        CHECK(n[2] <= AEAD_HPKE_MAX_PRIVATE_KEY);
    }
    CHECK(aead_hpke_enc_size(AEAD_HPKE_KEM_MLKEM1024_P384) == AEAD_HPKE_MAX_PQ_ENC);
    CHECK(aead_hpke_public_key_size(AEAD_HPKE_KEM_MLKEM1024_P384) == AEAD_HPKE_MAX_PQ_ENC);
    if (mlkem_expected()) return;  // the other test cases run every PQ KEM
    for (int kem : kPqKems) {
        INFO("kem " << kem);
        Bytes sk(aead_hpke_private_key_size(kem), 7), pk(aead_hpke_public_key_size(kem), 7);
        const Bytes ikm = random_bytes(32), enc(aead_hpke_enc_size(kem), 1);
        CHECK(aead_hpke_generate_keypair(kem, sk.data(), sk.size(), pk.data(), pk.size(), nullptr) == AEAD_ERR_UNSUPPORTED);
        CHECK(sk == Bytes(sk.size(), 0));
        CHECK(aead_hpke_derive_keypair(kem, ikm.data(), ikm.size(), sk.data(), sk.size(), pk.data(), pk.size(), nullptr) ==
              AEAD_ERR_UNSUPPORTED);
        sk.assign(sk.size(), 7);
        CHECK(aead_hpke_public_key(kem, sk.data(), sk.size(), pk.data(), pk.size(), nullptr) == AEAD_ERR_UNSUPPORTED);
        for (int kdf : {int{AEAD_HPKE_KDF_HKDF_SHA256}, int{AEAD_HPKE_KDF_SHAKE256}}) {
            Setup s{AEAD_HPKE_MODE_BASE, kem, kdf, AEAD_HPKE_AEAD_AES_128_GCM, {}, {}, {}, {}};
            Ctx c;
            Bytes e;
            CHECK(sender(s, KeyPair{sk, pk}, nullptr, c, e) == AEAD_ERR_UNSUPPORTED);
            CHECK(recipient(s, KeyPair{sk, pk}, nullptr, enc, c) == AEAD_ERR_UNSUPPORTED);
            CHECK(c.p == nullptr);
        }
    }
}

TEST_CASE("PQ KEMs and one-stage KDFs: round trips in base and psk mode; the auth modes refused", "[hpke][pq]") {
    size_t trips = 0;
    for (int kem : kems_under_test())
        for (int kdf : {int{AEAD_HPKE_KDF_HKDF_SHA256}, int{AEAD_HPKE_KDF_HKDF_SHA384}, int{AEAD_HPKE_KDF_SHAKE128},
                        int{AEAD_HPKE_KDF_SHAKE256}})
            for (int aead : kAeads)
                for (int mode : kModes) {
                    // The DHKEMs were run with HKDF above; here with the one-stage KDFs, every mode.
                    if (!is_pq(kem) && (kdf == AEAD_HPKE_KDF_HKDF_SHA256 || kdf == AEAD_HPKE_KDF_HKDF_SHA384)) continue;
                    INFO("mode " << mode << " kem " << kem << " kdf " << kdf << " aead " << aead);
                    if (is_pq(kem) && auth_mode(mode)) {
                        const KeyPair r = generate(kem), snd = generate(kem);
                        Setup s{mode, kem, kdf, aead, {}, {}, {}, {}};
                        if (psk_mode(mode)) s.psk = random_bytes(32), s.psk_id = random_bytes(4);
                        Ctx c;
                        Bytes enc;
                        CHECK(sender(s, r, &snd, c, enc) == AEAD_ERR_ARG);
                        CHECK(recipient(s, r, &snd, Bytes(aead_hpke_enc_size(kem)), c) == AEAD_ERR_ARG);
                        CHECK(c.p == nullptr);
                        continue;
                    }
                    Pair p(mode, kem, kdf, aead);
                    round_trip(p, aead, 2);
                    ++trips;
                    // Another PSK gives another context.
                    if (psk_mode(mode)) {
                        Setup other = p.s;
                        other.psk[0] ^= 1;
                        Ctx rx;
                        REQUIRE(recipient(other, p.r, auth_mode(mode) ? &p.snd : nullptr, p.enc, rx) == 0);
                        const Bytes context = random_bytes(8);
                        CHECK(exported(rx, context, 32) != exported(p.tx, context, 32));
                    }
                }
    // 5 DHKEMs x 2 one-stage KDFs x 4 AEADs x 4 modes, and with ML-KEM 6 PQ KEMs x 4 KDFs x 4 AEADs x 2 modes.
    CHECK(trips == 160 + (mlkem_expected() ? 192u : 0u));
}

TEST_CASE("PQ KEMs: bad keys and inputs are refused", "[hpke][pq]") {
    if (!mlkem_expected()) return;  // the refusals without ML-KEM: "PQ KEMs: sizes; ..."
    for (int kem : kPqKems) {
        INFO("kem " << kem);
        const KeyPair k = generate(kem);  // consistent: "keys: generated pairs are consistent; ..."
        CHECK(generate(kem).sk != k.sk);
        Setup s{AEAD_HPKE_MODE_BASE, kem, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, {}, {}, {}, {}};
        Ctx c;
        Bytes enc;
        auto refused = [&](const KeyPair &bad) { return sender_refused(s, bad, enc); };
        // Wrong lengths: the public key, the private key, enc, the enc buffer.
        KeyPair shortk = k;
        shortk.pk.pop_back();
        CHECK(refused(shortk) == AEAD_ERR_KEY_SIZE);
        KeyPair longk = k;
        longk.pk.push_back(0);
        CHECK(refused(longk) == AEAD_ERR_KEY_SIZE);
        Ctx tx0;
        REQUIRE(sender(s, k, nullptr, tx0, enc) == 0);
        CHECK(recipient(s, KeyPair{Bytes(k.sk.size() - 1, 1), k.pk}, nullptr, enc, c) == AEAD_ERR_KEY_SIZE);
        CHECK(recipient(s, KeyPair{Bytes(k.sk.size() + 1, 1), k.pk}, nullptr, enc, c) == AEAD_ERR_KEY_SIZE);
        CHECK(recipient(s, k, nullptr, Bytes(enc.begin(), enc.end() - 1), c) == AEAD_ERR_KEY_SIZE);
        {
            const aead_hpke_params p = s.params();
            Ctx t;
            Bytes e(aead_hpke_enc_size(kem) - 1);
            CHECK(aead_hpke_setup_sender(&t.p, &p, k.pk.data(), k.pk.size(), nullptr, 0, e.data(), e.size()) ==
                  AEAD_ERR_BUFFER_TOO_SMALL);
        }
        // An ML-KEM encapsulation key whose first coefficient is 4095, not below q = 3329: FIPS 203's
        // modulus check (OpenSSL refuses it on import).
        KeyPair modulus = k;
        modulus.pk[0] = 0xff;
        modulus.pk[1] |= 0x0f;
        CHECK(refused(modulus) == AEAD_ERR_ARG);
        // The curve's part of a hybrid's key: off the curve, or X25519's all-zero point.
        if (kem == AEAD_HPKE_KEM_MLKEM768_P256 || kem == AEAD_HPKE_KEM_MLKEM1024_P384) {
            KeyPair off = k;
            off.pk.back() ^= 1;
            CHECK(refused(off) == AEAD_ERR_ARG);
            Bytes bad_enc = enc;
            bad_enc.back() ^= 1;
            CHECK(recipient(s, k, nullptr, bad_enc, c) == AEAD_ERR_ARG);
            CHECK(c.p == nullptr);
        }
        if (kem == AEAD_HPKE_KEM_MLKEM768_X25519) {
            KeyPair zero = k;
            std::fill(zero.pk.end() - 32, zero.pk.end(), 0);
            CHECK(refused(zero) == AEAD_ERR_ARG);
            Bytes bad_enc = enc;
            std::fill(bad_enc.end() - 32, bad_enc.end(), 0);
            CHECK(recipient(s, k, nullptr, bad_enc, c) == AEAD_ERR_ARG);
        }
        // ML-KEM's implicit rejection: a changed ciphertext decapsulates to another secret, so the context
        // is set up and its first open fails.
        {
            Ctx tx, rx;
            Bytes e;
            REQUIRE(sender(s, k, nullptr, tx, e) == 0);
            e[5] ^= 0x40;
            REQUIRE(recipient(s, k, nullptr, e, rx) == 0);
            Bytes ct, back;
            REQUIRE(seal(tx, {}, Bytes{1, 2, 3}, ct) == 19);
            CHECK(open(rx, {}, ct, back) == AEAD_ERR_AUTH);
        }
        // ikm_e of another shape than the KEM's randomness.
        Setup bad_ikm = s;
        bad_ikm.ikm_e = random_bytes(kem <= AEAD_HPKE_KEM_MLKEM1024 ? 33 : 32);
        {
            Ctx t;
            Bytes e;
            CHECK(sender(bad_ikm, k, nullptr, t, e) == AEAD_ERR_ARG);
            CHECK(t.p == nullptr);
        }
        // A hybrid's ikm_e whose curve candidates are all out of range (P-256, P-384: 0xff... is not
        // below the order).
        if (kem == AEAD_HPKE_KEM_MLKEM768_P256 || kem == AEAD_HPKE_KEM_MLKEM1024_P384) {
            Setup none = s;
            none.ikm_e = random_bytes(32);
            const size_t nseed = kem == AEAD_HPKE_KEM_MLKEM768_P256 ? 32 : 48;
            none.ikm_e.resize(32 + 2 * nseed, 0xff);
            Ctx t;
            Bytes e;
            CHECK(sender(none, k, nullptr, t, e) == AEAD_ERR_ARG);
        }
    }
}

TEST_CASE("one-stage KDFs: length limits of the inputs and of exports", "[hpke][pq]") {
    const KeyPair r = generate(AEAD_HPKE_KEM_X25519_SHA256);
    for (int kdf : kShakeKdfs) {
        INFO("kdf " << kdf);
        Setup s{AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, kdf, AEAD_HPKE_AEAD_AES_128_GCM, Bytes(65536), {}, {}, {}};
        Ctx c;
        Bytes enc;
        CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_TOO_LONG);
        s.info.resize(65535);
        REQUIRE(sender(s, r, nullptr, c, enc) == 0);
        Ctx rx;
        REQUIRE(recipient(s, r, nullptr, enc, rx) == 0);
        Bytes out(65536);
        CHECK(aead_hpke_export(c.p, nullptr, 0, out.data(), out.size()) == AEAD_ERR_TOO_LONG);
        REQUIRE(aead_hpke_export(c.p, nullptr, 0, out.data(), 65535) == 0);
        Bytes back(65535);
        REQUIRE(aead_hpke_export(rx.p, nullptr, 0, back.data(), back.size()) == 0);
        CHECK(Bytes(out.begin(), out.begin() + 65535) == back);
        // SHAKE's output: a shorter export is not a prefix of a longer one (L is in the input).
        Bytes first(32);
        REQUIRE(aead_hpke_export(c.p, nullptr, 0, first.data(), first.size()) == 0);
        CHECK(first != Bytes(back.begin(), back.begin() + 32));
        Setup psk{AEAD_HPKE_MODE_PSK, AEAD_HPKE_KEM_X25519_SHA256, kdf, AEAD_HPKE_AEAD_AES_128_GCM, {}, Bytes(65536, 1),
                  Bytes(4, 2), {}};
        Ctx t;
        CHECK(sender(psk, r, nullptr, t, enc) == AEAD_ERR_TOO_LONG);
        psk.psk.resize(32);
        psk.psk_id.resize(65536);
        CHECK(sender(psk, r, nullptr, t, enc) == AEAD_ERR_TOO_LONG);
        CHECK(t.p == nullptr);
    }
    for (int kdf : {int{AEAD_HPKE_KDF_TURBOSHAKE128}, int{AEAD_HPKE_KDF_TURBOSHAKE256}}) {
        Setup s{AEAD_HPKE_MODE_BASE, AEAD_HPKE_KEM_X25519_SHA256, kdf, AEAD_HPKE_AEAD_AES_128_GCM, {}, {}, {}, {}};
        Ctx c;
        Bytes enc;
        CHECK(sender(s, r, nullptr, c, enc) == AEAD_ERR_UNSUPPORTED);
        CHECK(c.p == nullptr);
    }
}

#if OPENSSL_VERSION_NUMBER >= 0x30200000L
#include <openssl/hpke.h>

// OpenSSL's own HPKE (3.2 and later: the vendored build), an independent implementation: the same
// ephemeral input gives the same enc and ciphertexts, and each side opens the other's.
TEST_CASE("OpenSSL's OSSL_HPKE agrees: base mode, X25519 and P-256, both directions", "[hpke][openssl]") {
    for (int kem : {int{AEAD_HPKE_KEM_X25519_SHA256}, int{AEAD_HPKE_KEM_P256_SHA256}}) {
        INFO("kem " << kem);
        const OSSL_HPKE_SUITE suite = {static_cast<uint16_t>(kem), OSSL_HPKE_KDF_ID_HKDF_SHA256, OSSL_HPKE_AEAD_ID_AES_GCM_128};
        Setup s{AEAD_HPKE_MODE_BASE, kem, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, random_bytes(20), {}, {},
                random_bytes(32)};
        const KeyPair r = generate(kem);
        Ctx tx, rx;
        Bytes enc;
        REQUIRE(sender(s, r, nullptr, tx, enc) == 0);
        REQUIRE(recipient(s, r, nullptr, enc, rx) == 0);

        OSSL_HPKE_CTX *os = OSSL_HPKE_CTX_new(OSSL_HPKE_MODE_BASE, suite, OSSL_HPKE_ROLE_SENDER, nullptr, nullptr);
        REQUIRE(os != nullptr);
        REQUIRE(OSSL_HPKE_CTX_set1_ikme(os, s.ikm_e.data(), s.ikm_e.size()) == 1);
        Bytes oenc(AEAD_HPKE_MAX_ENC);
        size_t oenc_len = oenc.size();
        REQUIRE(OSSL_HPKE_encap(os, oenc.data(), &oenc_len, r.pk.data(), r.pk.size(), s.info.data(), s.info.size()) == 1);
        oenc.resize(oenc_len);
        CHECK(oenc == enc);
        for (int i = 0; i < 20; ++i) {
            // At least one byte: OSSL_HPKE_seal refuses an empty plaintext (libaead seals one: the round trips).
            const Bytes aad = random_bytes(test::random_below(30)), pt = random_bytes(1 + test::random_below(200));
            Bytes ours, theirs(pt.size() + 16), back;
            size_t theirs_len = theirs.size();
            REQUIRE(seal(tx, aad, pt, ours) == static_cast<int64_t>(pt.size() + 16));
            REQUIRE(OSSL_HPKE_seal(os, theirs.data(), &theirs_len, aad.data(), aad.size(), pt.data(), pt.size()) == 1);
            CHECK(theirs == ours);
            REQUIRE(open(rx, aad, theirs, back) == static_cast<int64_t>(pt.size()));
            CHECK(back == pt);
        }
        Bytes a(32), b(32);
        REQUIRE(OSSL_HPKE_export(os, a.data(), a.size(), s.info.data(), s.info.size()) == 1);
        REQUIRE(aead_hpke_export(tx.p, s.info.data(), s.info.size(), b.data(), b.size()) == 0);
        CHECK(a == b);
        OSSL_HPKE_CTX_free(os);
    }
}
#endif
