// The contract of aead.h, point by point.
#include <openssl/crypto.h>
#include <openssl/err.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "catch_compat.h"
#include "checks.h"
#include "support.h"

using test::Bytes;

namespace {

// A pointer that must never be dereferenced: any read through it crashes (and ASan names it).
const uint8_t *const kPoison = reinterpret_cast<const uint8_t *>(uintptr_t{16});

bool all_equal(const uint8_t *p, size_t n, uint8_t v) { return std::all_of(p, p + n, [v](uint8_t b) { return b == v; }); }

}  // namespace

TEST_CASE("sizes, versions and error text", "[contract]") {
    CHECK(aead_abi_version() == AEAD_ABI_VERSION);
    const std::string v = aead_version();
    CHECK(v.rfind("libaead 1.", 0) == 0);
    // The libcrypto it runs on is named (3.0 system, 3.5 / 4.0 vendored: no assumption about which).
    CHECK(v.find("(OpenSSL ") != std::string::npos);
    CHECK(aead_version_number() == AEAD_VERSION_NUMBER);
    for (const auto &a : test::kAllAlgs) {
        CHECK(aead_key_size(a.alg) == a.key);
        CHECK(aead_nonce_size(a.alg) == 12);
        CHECK(aead_tag_size(a.alg) == 16);
    }
    for (int bad : {0, 100, -1, 1000}) {
        CHECK(aead_key_size(bad) == 0);
        CHECK(aead_nonce_size(bad) == 0);
        CHECK(aead_tag_size(bad) == 0);
    }
    std::set<std::string> texts;
    for (int64_t code = AEAD_ERR_STREAM_FINISHED; code <= AEAD_ERR_AUTH; ++code) {
        REQUIRE(aead_strerror(code) != nullptr);
        texts.insert(aead_strerror(code));
    }
    CHECK(texts.size() == 21);  // every code has its own text
    CHECK(texts.count(aead_strerror(-22)) == 0);
    CHECK(std::string(aead_strerror(-22)) == "unknown error code");
    CHECK(std::string(aead_strerror(INT64_MIN)) == "unknown error code");
    CHECK(std::string(aead_strerror(0)) == "success");
}

TEST_CASE("aead_ctx_new refuses bad arguments and leaves *ctx_out NULL", "[contract]") {
    const Bytes key(32, 7);
    auto try_new = [&](int alg, int policy, const uint8_t *k, size_t len, size_t tag) {
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});  // must be overwritten with NULL
        const int rc = aead_ctx_new(&c, alg, policy, k, len, tag);
        if (rc != 0) CHECK(c == nullptr);
        aead_ctx_free(rc == 0 ? c : nullptr);
        return rc;
    };
    CHECK(aead_ctx_new(nullptr, AEAD_AES_128_GCM, 0, key.data(), 16, 0) == AEAD_ERR_ARG);
    CHECK(try_new(0, 0, key.data(), 16, 0) == AEAD_ERR_ARG);
    CHECK(try_new(100, 0, key.data(), 16, 0) == AEAD_ERR_ARG);  // 5..14: the ABI 1.2 families
    CHECK(try_new(AEAD_AES_128_GCM, -1, key.data(), 16, 0) == AEAD_ERR_ARG);
    CHECK(try_new(AEAD_AES_128_GCM, 5, key.data(), 16, 0) == AEAD_ERR_ARG);
    CHECK(try_new(AEAD_AES_128_GCM, AEAD_POLICY_QUIC, key.data(), 16, 0) == AEAD_ERR_NONCE_SIZE);  // needs its IV
    CHECK(try_new(AEAD_CHACHA20_POLY1305, AEAD_POLICY_RANDOM_NONCE, key.data(), 32, 0) == AEAD_ERR_ARG);
    CHECK(try_new(AEAD_AES_128_GCM, 0, nullptr, 16, 0) == AEAD_ERR_ARG);
    CHECK(try_new(AEAD_AES_128_GCM, 0, nullptr, 0, 0) == AEAD_ERR_KEY_SIZE);
    CHECK(try_new(AEAD_AES_128_GCM, 0, kPoison, 0, 0) == AEAD_ERR_KEY_SIZE);  // never read at length 0

    SECTION("key sizes") {
        for (const auto &a : test::kAllAlgs)
            for (size_t len : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{24}, size_t{31}, size_t{32},
                               size_t{33}, size_t{64}, SIZE_MAX}) {
                INFO(a.name << " key " << len);
                const Bytes k(std::min<size_t>(len, 64), 1);
                const int rc = try_new(a.alg, 0, len == SIZE_MAX ? key.data() : k.data(), len, 0);
                CHECK(rc == (len == a.key ? 0 : AEAD_ERR_KEY_SIZE));
            }
    }
    SECTION("tag sizes") {
        for (size_t tag = 0; tag <= 20; ++tag) {
            const bool gcm_ok = tag == 0 || tag == 4 || tag == 8 || (tag >= 12 && tag <= 16);
            const bool other_ok = tag == 0 || tag == 16;
            INFO("tag " << tag);
            CHECK(try_new(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key.data(), 16, tag) == (gcm_ok ? 0 : AEAD_ERR_TAG_SIZE));
            CHECK(try_new(AEAD_AES_256_GCM, AEAD_POLICY_TLS12, key.data(), 32, tag) == (other_ok ? 0 : AEAD_ERR_TAG_SIZE));
            CHECK(try_new(AEAD_AES_256_GCM, AEAD_POLICY_TLS13, key.data(), 32, tag) == (other_ok ? 0 : AEAD_ERR_TAG_SIZE));
            CHECK(try_new(AEAD_CHACHA20_POLY1305, 0, key.data(), 32, tag) == (other_ok ? 0 : AEAD_ERR_TAG_SIZE));
        }
        CHECK(try_new(AEAD_AES_128_GCM, 0, key.data(), 16, SIZE_MAX) == AEAD_ERR_TAG_SIZE);
    }
    aead_ctx_free(nullptr);  // a no-op
}

TEST_CASE("every buffer may be (NULL, 0) and a zero-length pointer is never read", "[contract]") {
    for (const auto &a : test::kAllAlgs) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key), nonce = test::random_bytes(12);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        const Bytes expected = test::evp_seal(a.alg, key, nonce, {}, {});
        uint8_t tag[16];
        REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, nullptr, 0, tag, 16) == 16);
        CHECK(Bytes(tag, tag + 16) == expected);
        REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, kPoison, 0, kPoison, 0, tag, 16) == 16);
        CHECK(Bytes(tag, tag + 16) == expected);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, nullptr, 0, tag, 16, nullptr, 0) == 0);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, kPoison, 0, tag, 16, const_cast<uint8_t *>(kPoison), 0) == 0);
    }
}

TEST_CASE("NULL with a length, NULL ctx and unknown op are AEAD_ERR_ARG and write nothing", "[contract]") {
    const Bytes key(16, 1), nonce(12, 2), aad(5, 3), pt(40, 4);
    test::Ctx ctx(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    Bytes out(64, 0x5A);
    auto call = [&](aead_ctx *c, int op, const uint8_t *n, size_t nl, const uint8_t *a, size_t al, const uint8_t *i,
                    size_t il, uint8_t *o, size_t oc) { return aead_seal_open(c, op, n, nl, a, al, i, il, o, oc); };
    CHECK(call(nullptr, AEAD_SEAL, nonce.data(), 12, aad.data(), 5, pt.data(), 40, out.data(), 64) == AEAD_ERR_ARG);
    for (int op : {0, 3, -1, AEAD_SEAL | AEAD_OPEN})
        CHECK(call(ctx, op, nonce.data(), 12, aad.data(), 5, pt.data(), 40, out.data(), 64) == AEAD_ERR_ARG);
    for (int op : {AEAD_SEAL, AEAD_OPEN}) {
        CHECK(call(ctx, op, nullptr, 12, aad.data(), 5, pt.data(), 40, out.data(), 64) == AEAD_ERR_ARG);
        CHECK(call(ctx, op, nonce.data(), 12, nullptr, 5, pt.data(), 40, out.data(), 64) == AEAD_ERR_ARG);
        CHECK(call(ctx, op, nonce.data(), 12, aad.data(), 5, nullptr, 40, out.data(), 64) == AEAD_ERR_ARG);
        CHECK(call(ctx, op, nonce.data(), 12, aad.data(), 5, pt.data(), 40, nullptr, 64) == AEAD_ERR_ARG);
    }
    CHECK(all_equal(out.data(), out.size(), 0x5A));
}

TEST_CASE("nonce sizes", "[contract]") {
    const Bytes pt = test::random_bytes(33), aad = test::random_bytes(7);
    for (const auto &a : test::kAllAlgs) {
        const Bytes key = test::random_bytes(a.key);
        const bool gcm = a.alg != AEAD_CHACHA20_POLY1305;
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{11}, size_t{12}, size_t{13}, size_t{16},
                         size_t{64}, size_t{127}, size_t{128}, size_t{129}, size_t{1000}}) {
            INFO(a.name << " nonce " << n);
            const Bytes nonce = test::random_bytes(n);
            Bytes out(pt.size() + 16, 0x77);
            const bool ok = gcm ? (n >= 1 && n <= 128) : n == 12;
            const int64_t r = test::seal(ctx, nonce, aad, pt, out);
            if (!ok) {
                CHECK(r == AEAD_ERR_NONCE_SIZE);
                CHECK(all_equal(out.data(), out.size(), 0x77));
                continue;
            }
            REQUIRE(r == static_cast<int64_t>(out.size()));
            CHECK(out == test::evp_seal(a.alg, key, nonce, aad, pt));
            Bytes back(pt.size());
            CHECK(test::open(ctx, nonce, aad, out, back) == static_cast<int64_t>(pt.size()));
            CHECK(back == pt);
        }
    }
    for (int policy : {AEAD_POLICY_TLS12, AEAD_POLICY_TLS13}) {
        test::Ctx ctx(AEAD_AES_128_GCM, policy, Bytes(16, 1));
        const Bytes aad(policy == AEAD_POLICY_TLS12 ? 13 : 5, 0);
        Bytes out(64);
        for (size_t n : {size_t{8}, size_t{11}, size_t{13}, size_t{16}}) {
            CHECK(test::seal(ctx, Bytes(n, 0), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
            CHECK(test::open(ctx, Bytes(n, 0), aad, out, out) == AEAD_ERR_NONCE_SIZE);
        }
    }
}

TEST_CASE("truncated GCM tags match the leading bytes of the full tag", "[contract]") {
    const Bytes key = test::random_bytes(32), nonce = test::random_bytes(12), aad = test::random_bytes(20),
                pt = test::random_bytes(100);
    for (size_t tag : {size_t{4}, size_t{8}, size_t{12}, size_t{13}, size_t{14}, size_t{15}, size_t{16}}) {
        INFO("tag " << tag);
        test::Ctx ctx(AEAD_AES_256_GCM, AEAD_POLICY_NONE, key, tag);
        test::check_round_trip(ctx, nonce, aad, pt, test::evp_seal(AEAD_AES_256_GCM, key, nonce, aad, pt, tag),
                               pt.size() + tag - 1);
    }
}

TEST_CASE("exact in-place works for seal and open", "[contract]") {
    for (const auto &a : test::kAllAlgs) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key), nonce = test::random_bytes(12), aad = test::random_bytes(9),
                    pt = test::random_bytes(1000);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        Bytes buf = pt;
        buf.resize(pt.size() + 16);
        REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, aad.data(), aad.size(), buf.data(), pt.size(),
                               buf.data(), buf.size()) == 1016);
        CHECK(buf == test::evp_seal(a.alg, key, nonce, aad, pt));
        REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, aad.data(), aad.size(), buf.data(), buf.size(),
                               buf.data(), buf.size()) == 1000);
        CHECK(Bytes(buf.begin(), buf.begin() + 1000) == pt);
    }
}

TEST_CASE("overlaps other than exact in-place are refused and write nothing", "[contract]") {
    const Bytes key = test::random_bytes(16);
    test::Ctx ctx(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    Bytes mem(400);
    uint8_t *const m = mem.data();
    auto fill = [&] { for (size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<uint8_t>(i); };
    auto unchanged = [&] {
        for (size_t i = 0; i < mem.size(); ++i)
            if (mem[i] != static_cast<uint8_t>(i)) return false;
        return true;
    };
    // in at [100, 200); sealing writes 116 bytes, opening 84.
    for (long shift : {-115L, -50L, -1L, 1L, 50L, 99L}) {
        INFO("out = in + " << shift);
        fill();
        CHECK(aead_seal_open(ctx, AEAD_SEAL, m, 12, m + 20, 13, m + 100, 100, m + 100 + shift, 200) == AEAD_ERR_OVERLAP);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, m, 12, m + 20, 13, m + 100, 100, m + 100 + shift, 200) == AEAD_ERR_OVERLAP);
        CHECK(unchanged());
    }
    fill();
    // Adjacent ranges do not overlap: out just past in, or ending where in starts.
    CHECK(aead_seal_open(ctx, AEAD_SEAL, m, 12, m + 20, 13, m + 100, 100, m + 200, 116) == 116);
    CHECK(aead_seal_open(ctx, AEAD_SEAL, m, 12, m + 20, 13, m + 300, 50, m + 234, 66) == 66);
    for (size_t at : {size_t{0}, size_t{11}, size_t{20}, size_t{32}}) {  // out over the nonce or the AAD
        INFO("out at " << at);
        fill();
        CHECK(aead_seal_open(ctx, AEAD_SEAL, m, 12, m + 20, 13, m + 100, 50, m + at - (at > 10 ? 10 : 0), 66) ==
              AEAD_ERR_OVERLAP);
        CHECK(unchanged());
    }
    fill();
    CHECK(aead_seal_open(ctx, AEAD_SEAL, m + 100, 12, m + 20, 13, m + 100, 50, m + 100, 66) == AEAD_ERR_OVERLAP);
    CHECK(unchanged());  // in-place is allowed for the input only, not over the nonce
}

TEST_CASE("out_cap too small is refused and writes nothing", "[contract]") {
    const Bytes key = test::random_bytes(16), nonce(12, 1), pt(50, 2);
    test::Ctx ctx(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    Bytes out(66, 0x33);
    CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, pt.data(), 50, out.data(), 65) ==
          AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, pt.data(), 50, out.data(), 0) ==
          AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(all_equal(out.data(), out.size(), 0x33));
    REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, pt.data(), 50, out.data(), 66) == 66);
    Bytes back(50, 0x44);
    CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, nullptr, 0, out.data(), 66, back.data(), 49) ==
          AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(all_equal(back.data(), back.size(), 0x44));
}

TEST_CASE("a failed open zeroes min(out_cap, length) bytes and nothing past them", "[contract]") {
    for (const auto &a : test::kAllAlgs) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key), nonce = test::random_bytes(12), aad = test::random_bytes(3),
                    pt = test::random_bytes(300);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        Bytes sealed(316);
        REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == 316);
        for (size_t where : {size_t{0}, size_t{150}, size_t{299}, size_t{300}, size_t{315}}) {
            Bytes bad = sealed;
            bad[where] ^= 0x80;
            Bytes out(310, 0xEE);  // 300 bytes of output room plus a 10-byte guard
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, aad.data(), 3, bad.data(), bad.size(), out.data(),
                                 300) == AEAD_ERR_AUTH);
            CHECK(all_equal(out.data(), 300, 0));
            CHECK(all_equal(out.data() + 300, 10, 0xEE));
        }
        // Wrong AAD and wrong nonce are authentication failures too, and the context still works.
        Bytes out(300);
        CHECK(test::open(ctx, nonce, Bytes{1, 2, 3}, sealed, out) == AEAD_ERR_AUTH);
        CHECK(test::open(ctx, test::random_bytes(12), aad, sealed, out) == AEAD_ERR_AUTH);
        CHECK(test::open(ctx, nonce, aad, sealed, out) == 300);
        CHECK(out == pt);
        // Shorter than a tag: not authentic.
        for (size_t n : {size_t{0}, size_t{1}, size_t{15}}) {
            Bytes small(n, 0);
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, nullptr, 0, small.data(), n, out.data(), 300) ==
                  AEAD_ERR_AUTH);
        }
    }
}

TEST_CASE("lengths over the algorithm's limit are AEAD_ERR_TOO_LONG before anything is read", "[contract]") {
    const Bytes nonce(12, 0);
    uint8_t out[32];
    struct Limit {
        int alg;
        size_t key;
        uint64_t max;
    };
    for (const Limit l : {Limit{AEAD_AES_128_GCM, 16, AEAD_GCM_MAX_PLAINTEXT},
                          Limit{AEAD_CHACHA20_POLY1305, 32, AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT}}) {
        test::Ctx ctx(l.alg, AEAD_POLICY_NONE, Bytes(l.key, 1));
        // A length that runs past the end of the address space is not a buffer at all.
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, kPoison, SIZE_MAX, out, SIZE_MAX) ==
              AEAD_ERR_ARG);
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, kPoison, SIZE_MAX, nullptr, 0, out, 32) == AEAD_ERR_ARG);
#if SIZE_MAX > UINT32_MAX
        // kPoison would crash if read: the refusal must come first.
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, kPoison, l.max + 1, out, SIZE_MAX) ==
              AEAD_ERR_TOO_LONG);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), 12, nullptr, 0, kPoison, l.max + 17, out, SIZE_MAX) ==
              AEAD_ERR_TOO_LONG);
        // At the limit the length is accepted, so the next check (buffer size) answers.
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), 12, nullptr, 0, kPoison, l.max, out, 32) ==
              AEAD_ERR_BUFFER_TOO_SMALL);
#else
        // A 32-bit size_t cannot state a length over either limit: the ranges above are all there is.
        CHECK(l.max > SIZE_MAX);
#endif
    }
#if SIZE_MAX > UINT32_MAX
    test::Ctx gcm(AEAD_AES_128_GCM, AEAD_POLICY_NONE, Bytes(16, 1));
    CHECK(aead_seal_open(gcm, AEAD_SEAL, nonce.data(), 12, kPoison, uint64_t{1} << 61, nullptr, 0, out, 32) ==
          AEAD_ERR_TOO_LONG);
#endif
}

TEST_CASE("the caller's OpenSSL error queue neither changes results nor gains entries", "[contract]") {
    // Found by the fuzzer: a stale entry on the calling thread's queue once turned AUTH into CRYPTO.
    for (const auto &a : test::kAllAlgs) {
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key), nonce(12, 1), pt(20, 2);
        test::Ctx ctx(a.alg, AEAD_POLICY_NONE, key);
        Bytes sealed(36), back(20);
        ERR_clear_error();
        REQUIRE(test::seal(ctx, nonce, {}, pt, sealed) == 36);
        sealed[3] ^= 1;
        CHECK(test::open(ctx, nonce, {}, sealed, back) == AEAD_ERR_AUTH);
        CHECK(ERR_peek_error() == 0);  // a forgery leaves nothing on the queue
        ERR_raise(ERR_LIB_EVP, EVP_R_BAD_DECRYPT);  // the caller's own leftover error
        CHECK(test::open(ctx, nonce, {}, sealed, back) == AEAD_ERR_AUTH);
        sealed[3] ^= 1;
        CHECK(test::open(ctx, nonce, {}, sealed, back) == 20);
        CHECK(test::seal(ctx, nonce, {}, pt, sealed) == 36);
        ERR_clear_error();
    }
}

// ---- the 1.2 families (aead.h, "Contexts and algorithms") ----
#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept;  // fault builds only
#endif

namespace {

int make(aead_ctx **c, int alg, int policy, size_t key_len, size_t tag) {
    const Bytes key(key_len, 9);
    return aead_ctx_new_ex(c, alg, policy, key.data(), key.size(), tag, test::test_properties(), nullptr, 0);
}

bool have(int alg) {
    aead_ctx *c = nullptr;
    const int rc = make(&c, alg, AEAD_POLICY_NONE, aead_key_size(alg), 0);
    aead_ctx_free(c);
    return rc == 0;
}

struct Fam {
    int alg;
    size_t key, nonce;
};
const Fam kFamilies[] = {{AEAD_AES_128_CCM, 16, 12},     {AEAD_AES_192_CCM, 24, 7},  {AEAD_AES_256_CCM, 32, 13},
                         {AEAD_AES_128_GCM_SIV, 16, 12}, {AEAD_AES_192_GCM_SIV, 24, 12}, {AEAD_AES_256_GCM_SIV, 32, 12},
                         {AEAD_AES_128_OCB, 16, 12},     {AEAD_AES_192_OCB, 24, 1},  {AEAD_AES_256_OCB, 32, 15},
                         {AEAD_XCHACHA20_POLY1305, 32, 24},
                         {AEAD_AEGIS_128L, 16, 16},      {AEAD_AEGIS_256, 32, 32},   {AEAD_AEGIS_128X2, 16, 16},
                         {AEAD_AEGIS_128X4, 16, 16},     {AEAD_AEGIS_256X2, 32, 32}, {AEAD_AEGIS_256X4, 32, 32}};
bool is_aegis(int alg) { return alg >= AEAD_AEGIS_128L && alg <= AEAD_AEGIS_256X4; }

}  // namespace

TEST_CASE("families: sizes, key sizes and the policies each takes", "[contract][families]") {
    for (const Fam &f : kFamilies) {
        INFO("alg " << f.alg);
        CHECK(aead_key_size(f.alg) == f.key);
        CHECK(aead_nonce_size(f.alg) == (f.alg == AEAD_XCHACHA20_POLY1305 || is_aegis(f.alg) ? f.nonce : 12u));
        CHECK(aead_tag_size(f.alg) == 16);
        if (!have(f.alg)) continue;
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
        CHECK(make(&c, f.alg, AEAD_POLICY_NONE, f.key + 1, 0) == AEAD_ERR_KEY_SIZE);
        CHECK(c == nullptr);
        const bool ccm = f.alg <= AEAD_AES_256_CCM, xchacha = f.alg == AEAD_XCHACHA20_POLY1305 || is_aegis(f.alg);
        // TLS for CCM only; random nonces for XChaCha and AEGIS only; QUIC and the counter policies for none of them.
        for (const int p : {int{AEAD_POLICY_TLS12}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_RANDOM_NONCE}, int{AEAD_POLICY_QUIC},
                            int{AEAD_POLICY_COUNTER}, int{AEAD_POLICY_XOR_COUNTER}, int{AEAD_POLICY_SSH}}) {
            const bool ok = (ccm && (p == AEAD_POLICY_TLS12 || p == AEAD_POLICY_TLS13)) || (xchacha && p == AEAD_POLICY_RANDOM_NONCE);
            c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            const int rc = make(&c, f.alg, p, f.key, 0);
            CHECK(rc == (ok ? 0 : AEAD_ERR_ARG));
            CHECK((c != nullptr) == ok);
            aead_ctx_free(c);
        }
        // Tags: CCM 4..16 even (0 = 16); AEGIS 16 or 32; the others 16 only.
        for (size_t tag = 1; tag <= 34; ++tag) {
            const bool ok = ccm ? tag >= 4 && tag <= 16 && tag % 2 == 0 : tag == 16 || (is_aegis(f.alg) && tag == 32);
            c = nullptr;
            CHECK(make(&c, f.alg, AEAD_POLICY_NONE, f.key, tag) == (ok ? 0 : AEAD_ERR_TAG_SIZE));
            aead_ctx_free(c);
        }
    }
}

TEST_CASE("families: nonce lengths, in place, overlap, zeroed output on a forgery", "[contract][families]") {
    for (const Fam &f : kFamilies) {
        if (!have(f.alg)) continue;
        INFO("alg " << f.alg);
        const bool ccm = f.alg <= AEAD_AES_256_CCM, ocb = f.alg >= AEAD_AES_128_OCB && f.alg <= AEAD_AES_256_OCB;
        const size_t lo = ccm ? 7 : ocb ? 1 : f.nonce, hi = ccm ? 13 : ocb ? 15 : f.nonce;
        test::Ctx ctx(f.alg, AEAD_POLICY_NONE, test::random_bytes(f.key));
        const Bytes aad = test::random_bytes(9), pt = test::random_bytes(77);
        for (size_t n = 0; n <= 34; ++n) {
            const Bytes nonce = test::random_bytes(n);
            Bytes out(93, 0xEE);
            const int64_t r = test::seal(ctx, nonce, aad, pt, out);
            if (n < lo || n > hi) {
                CHECK(r == AEAD_ERR_NONCE_SIZE);
                CHECK(all_equal(out.data(), out.size(), 0xEE));  // a refusal writes nothing
                continue;
            }
            REQUIRE(r == 93);
            // In place, both ways: the same bytes.
            Bytes buf(93);
            std::memcpy(buf.data(), pt.data(), pt.size());
            REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), n, aad.data(), aad.size(), buf.data(), 77, buf.data(), 93) == 93);
            CHECK(buf == out);
            REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), n, aad.data(), aad.size(), buf.data(), 93, buf.data(), 93) == 77);
            CHECK(Bytes(buf.begin(), buf.begin() + 77) == pt);
            // Any other overlap is refused, writing nothing.
            Bytes big(200, 0);
            std::memcpy(big.data(), pt.data(), 77);
            const Bytes before = big;
            CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), n, aad.data(), aad.size(), big.data(), 77, big.data() + 1, 93) ==
                  AEAD_ERR_OVERLAP);
            CHECK(big == before);
            // A forgery: AEAD_ERR_AUTH and the output zeroed; too short for a tag: AEAD_ERR_AUTH.
            Bytes forged = out, back(77, 0xEE);
            forged[40] ^= 1;
            CHECK(test::open(ctx, nonce, aad, forged, back) == AEAD_ERR_AUTH);
            CHECK(all_equal(back.data(), back.size(), 0));
            CHECK(test::open(ctx, nonce, aad, Bytes(15, 1), back) == AEAD_ERR_AUTH);
            // out_cap one short: refused, nothing written.
            Bytes small(92, 0xEE);
            CHECK(test::seal(ctx, nonce, aad, pt, small) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(all_equal(small.data(), small.size(), 0xEE));
        }
    }
}

TEST_CASE("AES-CCM: a message must fit the length field of its nonce (data too long for nonce)", "[contract][families]") {
    test::Ctx ctx(AEAD_AES_128_CCM, AEAD_POLICY_NONE, test::random_bytes(16), 8);
    const Bytes aad(3, 1);
    // 13-byte nonce: L = 2, so at most 65535 bytes; 12-byte nonce: L = 3, 2^24 - 1.
    for (const auto &[nonce_len, limit] : {std::pair<size_t, size_t>{13, 65535}, {12, (size_t{1} << 24) - 1}}) {
        INFO("nonce " << nonce_len);
        const Bytes nonce = test::random_bytes(nonce_len), pt(limit + 1, 7);
        Bytes out(limit + 1 + 8, 0xEE);
        CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce_len, aad.data(), 3, pt.data(), limit + 1, out.data(),
                             out.size()) == AEAD_ERR_TOO_LONG);
        CHECK(all_equal(out.data(), out.size(), 0xEE));
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce_len, aad.data(), 3, out.data(), limit + 1 + 8, out.data(),
                             out.size()) == AEAD_ERR_TOO_LONG);
        const int64_t r = aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce_len, aad.data(), 3, pt.data(), limit,
                                         out.data(), out.size());
        CHECK(r == static_cast<int64_t>(limit + 8));
        Bytes back(limit);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce_len, aad.data(), 3, out.data(), limit + 8, back.data(),
                             back.size()) == static_cast<int64_t>(limit));
        CHECK(std::equal(back.begin(), back.end(), pt.begin()));
    }
}

TEST_CASE("AES-CCM under the TLS 1.3 policy (TLS_AES_128_CCM_SHA256): sequence rules hold", "[contract][families]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12), aad(5, 0x17), pt(40, 1);
    test::Ctx ctx(AEAD_AES_128_CCM, AEAD_POLICY_TLS13, key, 0, iv);
    test::Ctx plain(AEAD_AES_128_CCM, AEAD_POLICY_NONE, key);
    Bytes out(56), want(56);
    for (uint64_t seq : {0, 1, 5}) {
        const Bytes n = test::tls13_nonce(iv, seq);
        REQUIRE(test::seal(ctx, n, aad, pt, out) == 56);
        REQUIRE(test::seal(plain, n, aad, pt, want) == 56);
        CHECK(out == want);
    }
    CHECK(test::seal(ctx, test::tls13_nonce(iv, 5), aad, pt, out) == AEAD_ERR_NONCE_ORDER);
    CHECK(test::seal(ctx, test::tls13_nonce(iv, 6), Bytes(13, 0), pt, out) == AEAD_ERR_AAD_SIZE);
    aead_ctx *c = nullptr;
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_CCM, AEAD_POLICY_TLS13, key.data(), 16, 8, test::test_properties(), iv.data(),
                          12) == AEAD_ERR_TAG_SIZE);
    // TLS 1.2 (RFC 6655): 4-byte salt, explicit counter.
    test::Ctx t12(AEAD_AES_128_CCM, AEAD_POLICY_TLS12, key, 0, Bytes(iv.begin(), iv.begin() + 4));
    const Bytes aad13(13, 0x16);
    REQUIRE(test::seal(t12, test::tls12_gcm_nonce(iv, 7), aad13, pt, out) == 56);
    CHECK(test::seal(t12, test::tls12_gcm_nonce(iv, 7), aad13, pt, out) == AEAD_ERR_NONCE_ORDER);
}

TEST_CASE("XChaCha20-Poly1305 with random nonces: nonce(24) || ct || tag, fresh nonces, no limit", "[contract][families]") {
    if (!have(AEAD_XCHACHA20_POLY1305)) return;  // the FIPS stage: refused, checked by the vectors suite
    const Bytes key = test::random_bytes(32), aad(4, 2), pt = test::random_bytes(50);
    test::Ctx rnd(AEAD_XCHACHA20_POLY1305, AEAD_POLICY_RANDOM_NONCE, key), plain(AEAD_XCHACHA20_POLY1305, AEAD_POLICY_NONE, key);
    std::set<Bytes> nonces;
    for (int i = 0; i < 200; ++i) {
        Bytes out(24 + 50 + 16);
        REQUIRE(test::seal(rnd, {}, aad, pt, out) == 90);
        const Bytes nonce(out.begin(), out.begin() + 24), body(out.begin() + 24, out.end());
        nonces.insert(nonce);
        Bytes want(66), back(50);
        REQUIRE(test::seal(plain, nonce, aad, pt, want) == 66);
        CHECK(body == want);
        REQUIRE(test::open(rnd, {}, aad, out, back) == 50);
        CHECK(back == pt);
    }
    CHECK(nonces.size() == 200);
    uint64_t seals = 0;
    REQUIRE(aead_ctx_usage(rnd, &seals, nullptr) == 0);
    CHECK(seals == 200);
    // In place: the ciphertext lands where the plaintext was (in == out + 24).
    Bytes buf(24 + 50 + 16);
    std::memcpy(buf.data() + 24, pt.data(), 50);
    REQUIRE(aead_seal_open(rnd, AEAD_SEAL, nullptr, 0, aad.data(), 4, buf.data() + 24, 50, buf.data(), buf.size()) == 90);
    REQUIRE(aead_seal_open(rnd, AEAD_OPEN, nullptr, 0, aad.data(), 4, buf.data(), 90, buf.data() + 24, 66) == 50);
    CHECK(Bytes(buf.begin() + 24, buf.begin() + 74) == pt);
    // A nonce given to a random-policy seal is refused; so is a short sealed message on open.
    Bytes out(90), back(50);
    CHECK(test::seal(rnd, Bytes(24, 1), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
    CHECK(test::open(rnd, {}, aad, Bytes(39, 0), back) == AEAD_ERR_AUTH);
#ifdef AEAD_TEST_FAULT_BUILD
    // No 2^32 budget as for 96-bit random nonces: past it, seals go on.
    aead_test_set_random_seals(rnd, uint64_t{1} << 33);
    CHECK(test::seal(rnd, {}, aad, pt, out) == 90);
#endif
}

TEST_CASE("AES-GCM-SIV needs OpenSSL >= 3.2: otherwise refused at creation, naming the vendored build", "[contract][families]") {
    aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
    const int rc = make(&c, AEAD_AES_128_GCM_SIV, AEAD_POLICY_NONE, 16, 0);
    const bool new_enough = OpenSSL_version_num() >= 0x30200000L && !test::fips_stage();
    CHECK(rc == (new_enough ? 0 : AEAD_ERR_UNSUPPORTED));
    if (rc != 0) {
        CHECK(c == nullptr);
        CHECK(std::string(aead_strerror(rc)).find("-Dlibcrypto=vendored") != std::string::npos);
    }
    aead_ctx_free(c);
}

#ifdef AEAD_TEST_FAULT_BUILD
namespace {
// AEAD_TEST_CHUNK (fault builds only, shim/family_ops.h) for the life of one scope.
struct ChunkOf {
    explicit ChunkOf(const char *n) { setenv("AEAD_TEST_CHUNK", n, 1); }
    ~ChunkOf() { unsetenv("AEAD_TEST_CHUNK"); }
    ChunkOf(const ChunkOf &) = delete;
    ChunkOf &operator=(const ChunkOf &) = delete;
};
}  // namespace

// Inputs over INT_MAX go to libcrypto in chunks (the large stage runs 2 GiB); the fault build shrinks the
// chunk to 7 bytes, so the same loops run on 1,000 bytes here, and each of their calls fails in turn.
TEST_CASE("fault build: inputs fed in chunks seal and open as one update does; each failed chunk is a code", "[contract][families]") {
    struct Case {
        int alg;
        size_t key, nonce;
    };
    const Case cases[] = {{AEAD_AES_128_GCM, 16, 12}, {AEAD_CHACHA20_POLY1305, 32, 12}, {AEAD_AES_128_OCB, 16, 12},
                          {AEAD_AES_128_GCM_SIV, 16, 12}, {AEAD_XCHACHA20_POLY1305, 32, 24}};
    const Bytes aad = test::random_bytes(100), pt = test::random_bytes(1000);
    for (const Case &c : cases) {
        CAPTURE(c.alg);
        const Bytes key = test::random_bytes(c.key), nonce = test::random_bytes(c.nonce);
        aead_ctx *raw = nullptr;
        const int rc = aead_ctx_new_ex(&raw, c.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0,
                                       test::test_properties(), nullptr, 0);
        if (rc == AEAD_ERR_UNSUPPORTED && c.alg == AEAD_AES_128_GCM_SIV && OpenSSL_version_num() < 0x30200000L)
            continue;  // refused below OpenSSL 3.2 (the case above)
        REQUIRE(rc == 0);
        const std::unique_ptr<aead_ctx, decltype(&aead_ctx_free)> owner(raw, aead_ctx_free);
        const auto sealed_len = static_cast<int64_t>(pt.size() + 16);
        Bytes whole(pt.size() + 16), chunked(pt.size() + 16), back(pt.size());
        REQUIRE(test::seal(raw, nonce, aad, pt, whole) == sealed_len);
        if (c.alg == AEAD_AES_128_GCM || c.alg == AEAD_CHACHA20_POLY1305)
            CHECK(whole == test::evp_seal(c.alg, key, nonce, aad, pt));
        const ChunkOf chunk("7");
        REQUIRE(test::seal(raw, nonce, aad, pt, chunked) == sealed_len);
        CHECK(chunked == whole);
        REQUIRE(test::open(raw, nonce, aad, chunked, back) == static_cast<int64_t>(pt.size()));
        CHECK(back == pt);
        Bytes forged = chunked;
        forged[500] ^= 1;
        CHECK(test::open(raw, nonce, aad, forged, back) == AEAD_ERR_AUTH);
        CHECK(back == Bytes(pt.size(), 0));
        // Every fallible call of a chunked seal, then of a chunked open, fails in turn: a code, never a
        // result; once the armed call is past the last, the call succeeds with the same bytes.
        for (const bool sealing : {true, false}) {
            const long failures = test::check_each_call_fails(
                [&](Bytes &out) { return sealing ? test::seal(raw, nonce, aad, pt, out) : test::open(raw, nonce, aad, chunked, out); },
                sealing ? chunked : pt);
            // One per chunk at least (AES-GCM-SIV takes its message in one update: only its AAD is chunked).
            CHECK(failures > static_cast<long>((c.alg == AEAD_AES_128_GCM_SIV ? aad.size() : pt.size()) / 7));
        }
    }
}
#endif
