// The AEGIS family (ids 18-23; RFC 10032, on libaegis): the specification's own test vectors (the pinned
// aegis crate's JSON files; Wycheproof's AEGIS-128L and AEGIS-256 files are in test_vectors) for every
// variant with both tag lengths (sealed, opened, refused with a flipped bit, the output zeroed), the
// sizes aead.h gives each variant and the codes for wrong ones, the random-nonce policy, and the refusal
// under a FIPS query.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "aegis_ref.h"
#include "catch_compat.h"
#include "checks.h"
#include "support.h"

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept;  // fault builds only
#endif

namespace {

using test::Bytes;
using test::from_hex;

bool all_equal(const uint8_t *p, size_t n, uint8_t v) { return std::all_of(p, p + n, [v](uint8_t b) { return b == v; }); }

struct Variant {
    int alg;
    const char *name;
    size_t key;        // = nonce
    const char *file;  // aegis/aegis-<file>-test-vectors.json
};
constexpr Variant kVariants[] = {
    {AEAD_AEGIS_128L, "AEGIS-128L", 16, "128l"},    {AEAD_AEGIS_256, "AEGIS-256", 32, "256"},
    {AEAD_AEGIS_128X2, "AEGIS-128X2", 16, "128x2"}, {AEAD_AEGIS_128X4, "AEGIS-128X4", 16, "128x4"},
    {AEAD_AEGIS_256X2, "AEGIS-256X2", 32, "256x2"}, {AEAD_AEGIS_256X4, "AEGIS-256X4", 32, "256x4"}};

// RFC 10032's test vectors ("Test Vector 1".. of each variant), from the JSON files of the pinned aegis
// crate (tests/vectors.py unpacks them into aegis/): 26 vectors, 8 of them must fail verification (an
// "error" and no msg). A missing file fails the suite.
struct Vector {
    int alg;
    std::string name;
    bool valid;
    std::string key, nonce, ad, msg, ct, tag128, tag256;
};
const std::vector<Vector> &rfc_vectors() {
    static const std::vector<Vector> all = [] {
        std::vector<Vector> r;
        for (const Variant &var : kVariants) {
            const auto doc = nlohmann::json::parse(
                test::read_file(test::vectors_dir() + "/aegis/aegis-" + var.file + "-test-vectors.json"));
            for (const auto &v : doc) {
                if (!v.contains("ct")) continue;  // the intermediate-state entries
                const bool valid = !v.contains("error");
                r.push_back({var.alg, std::string(var.name) + " " + v.at("name").get<std::string>(), valid,
                             v.at("key"), v.at("nonce"), v.at("ad"), valid ? v.at("msg").get<std::string>() : "",
                             v.at("ct"), v.at("tag128"), v.at("tag256")});
            }
        }
        return r;
    }();
    return all;
}

// Whether AEGIS is offered for this run's properties: everywhere but under a FIPS query (the FIPS stage).
bool offered() { return test::offered(AEAD_AEGIS_128L); }

Bytes cat(const Bytes &a, const Bytes &b) {
    Bytes r = a;
    r.insert(r.end(), b.begin(), b.end());
    return r;
}

}  // namespace

TEST_CASE("AEGIS: RFC 10032's test vectors, every variant, 128- and 256-bit tags", "[aegis][vectors]") {
    if (!offered()) return;
    int sealed = 0, refused = 0;
    for (const Vector &v : rfc_vectors()) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = from_hex(v.key), nonce = from_hex(v.nonce), ad = from_hex(v.ad), ct = from_hex(v.ct);
            const Bytes tag = from_hex(tag_len == 16 ? v.tag128 : v.tag256);
            REQUIRE(tag.size() == tag_len);
            test::Ctx ctx(v.alg, AEAD_POLICY_NONE, key, tag_len);
            const Bytes sealed_msg = cat(ct, tag);
            Bytes back(ct.size(), 0xEE);
            if (v.valid) {
                const Bytes msg = from_hex(v.msg);
                Bytes out(msg.size() + tag_len, 0xEE);
                REQUIRE(test::seal(ctx, nonce, ad, msg, out) == static_cast<int64_t>(out.size()));
                CHECK(out == sealed_msg);
                REQUIRE(test::open(ctx, nonce, ad, sealed_msg, back) == static_cast<int64_t>(msg.size()));
                CHECK(back == msg);
                // In place, both ways.
                Bytes buf(msg.size() + tag_len);
                if (!msg.empty()) std::memcpy(buf.data(), msg.data(), msg.size());
                REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), ad.data(), ad.size(), buf.data(),
                                       msg.size(), buf.data(), buf.size()) == static_cast<int64_t>(buf.size()));
                CHECK(buf == sealed_msg);
                REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), ad.data(), ad.size(), buf.data(),
                                       buf.size(), buf.data(), buf.size()) == static_cast<int64_t>(msg.size()));
                CHECK(Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(msg.size())) == msg);
                ++sealed;
                // Each flipped bit, in the ciphertext (first and last byte), the tag and the AD: refused, zeroed.
                std::vector<size_t> flips = {sealed_msg.size() - 1, ct.size()};
                if (!ct.empty()) flips.push_back(0);
                for (const size_t at : flips) {
                    Bytes forged = sealed_msg;
                    forged[at] ^= 0x01;
                    std::fill(back.begin(), back.end(), 0xEE);
                    CHECK(test::open(ctx, nonce, ad, forged, back) == AEAD_ERR_AUTH);
                    CHECK(all_equal(back.data(), back.size(), 0));
                }
                Bytes other_ad = ad;
                other_ad.push_back(0);
                CHECK(test::open(ctx, nonce, other_ad, sealed_msg, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
            } else {
                // The specification's must-fail vectors: refused, and no plaintext left behind.
                CHECK(test::open(ctx, nonce, ad, sealed_msg, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
                ++refused;
            }
        }
    }
    CHECK(sealed == 2 * 18);
    CHECK(refused == 2 * 8);
}

TEST_CASE("AEGIS: the test oracle (tests/aegis_ref.h) reproduces RFC 10032's vectors", "[aegis][vectors]") {
    int checked = 0;
    for (const Vector &v : rfc_vectors()) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = from_hex(v.key), nonce = from_hex(v.nonce), ad = from_hex(v.ad), ct = from_hex(v.ct);
            const Bytes tag = from_hex(tag_len == 16 ? v.tag128 : v.tag256);
            Bytes msg;
            CHECK(aegis_ref::open(v.alg, key.data(), nonce.data(), ad.data(), ad.size(), ct.data(), ct.size(),
                                  tag.data(), tag.size(), &msg) == v.valid);
            if (v.valid) {
                CHECK(msg == from_hex(v.msg));
                CHECK(aegis_ref::seal(v.alg, key.data(), nonce.data(), ad.data(), ad.size(), msg.data(), msg.size(),
                                      tag_len) == cat(ct, tag));
            }
            ++checked;
        }
    }
    CHECK(checked == 2 * 26);
}

// libaegis against the oracle on random input: every variant and tag length, lengths across each
// variant's block (32, 64, 128 bytes for 128L/X2/X4; 16, 32, 64 for 256/X2/X4) and bulk boundaries.
// AEAD_TEST_AEGIS_CASES sets the cases per variant and tag (default 150); the CPU-path runs under qemu
// (tests/aegis-cpu-paths.sh) use the default.
TEST_CASE("AEGIS: random keys, nonces, AD and messages agree with the oracle, both ways; a flipped bit is refused",
          "[aegis][differential]") {
    if (!offered()) return;
    const char *env = std::getenv("AEAD_TEST_AEGIS_CASES");
    const int per = env != nullptr ? std::atoi(env) : 150;
    REQUIRE(per > 0);
    int cases = 0;
    for (const Variant &var : kVariants) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            const Bytes key = test::random_bytes(var.key);
            test::Ctx ctx(var.alg, AEAD_POLICY_NONE, key, tag_len);
            for (int i = 0; i < per; ++i) {
                // Mostly short (the partial-block paths), one in 16 up to 64 KiB.
                const size_t len = i % 16 == 15 ? test::random_below(65537) : test::random_below(1100);
                const Bytes nonce = test::random_bytes(var.key), ad = test::random_bytes(test::random_below(300));
                const Bytes msg = test::random_bytes(len);
                INFO(var.name << ", tag " << tag_len << ", message " << len << ", AD " << ad.size());
                const Bytes want = aegis_ref::seal(var.alg, key.data(), nonce.data(), ad.data(), ad.size(), msg.data(),
                                                   msg.size(), tag_len);
                Bytes out(len + tag_len), back(len, 0xEE);
                REQUIRE(test::seal(ctx, nonce, ad, msg, out) == static_cast<int64_t>(out.size()));
                REQUIRE(out == want);
                REQUIRE(test::open(ctx, nonce, ad, want, back) == static_cast<int64_t>(len));
                REQUIRE(back == msg);
                Bytes forged = want;
                forged[test::random_below(static_cast<uint32_t>(forged.size()))] ^=
                    static_cast<uint8_t>(1u << test::random_below(8));
                Bytes unused;
                CHECK_FALSE(aegis_ref::open(var.alg, key.data(), nonce.data(), ad.data(), ad.size(), forged.data(), len,
                                            forged.data() + len, tag_len, &unused));
                CHECK(test::open(ctx, nonce, ad, forged, back) == AEAD_ERR_AUTH);
                ++cases;
            }
        }
    }
    CHECK(cases == per * 12);
    std::printf("AEGIS against the oracle: %d cases (6 variants x 2 tag lengths x %d), 0 disagreements\n", cases, per);
}

// Which of libaegis's implementations this CPU gets, by libaegis's own rule (its cpu.c and each
// variant's pick_best_implementation, x86): no AES-NI or no AVX (with the OS's XSAVE support): the
// portable code; VAES with AVX-512F: AVX-512 for the X4 variants (VAES/AVX2 for X2, AES-NI for 128L/256);
// VAES with AVX2: VAES/AVX2 for the X variants; else AES-NI. tests/aegis-cpu-paths.sh runs this suite
// under qemu-x86_64 CPU models and names the path each must get (AEAD_TEST_AEGIS_PATH): a model that did
// not give the features meant fails here, so each path is known to have run the vectors and the oracle.
std::string aegis_x86_path() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return "portable";
    const bool aesni = (c >> 25 & 1) != 0, osxsave = (c >> 27 & 1) != 0, avx_cpu = (c >> 28 & 1) != 0;
    unsigned xcr0 = 0, hi = 0;
    if (osxsave) __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
    const bool avx = avx_cpu && osxsave && (xcr0 & 6) == 6;
    unsigned b7 = 0, c7 = 0;
    if (__get_cpuid_count(7, 0, &a, &b7, &c7, &d) == 0) b7 = c7 = 0;
    const bool avx2 = avx && (b7 >> 5 & 1) != 0, vaes = avx && aesni && (c7 >> 9 & 1) != 0;
    const bool avx512f = avx2 && (b7 >> 16 & 1) != 0 && (xcr0 & 0xe0) == 0xe0;
    if (!aesni || !avx) return "portable";
    if (vaes && avx512f) return "avx512";
    if (vaes && avx2) return "vaes-avx2";
    return "aes-ni";
#else
    return "not x86";
#endif
}

TEST_CASE("AEGIS: the CPU path libaegis takes here is the one asked for", "[aegis][cpu]") {
    const std::string path = aegis_x86_path();
    std::printf("AEGIS: libaegis's implementation on this CPU: %s\n", path.c_str());
    const char *want = std::getenv("AEAD_TEST_AEGIS_PATH");
    if (want != nullptr) CHECK(path == want);
}

TEST_CASE("AEGIS: key, nonce and tag sizes; wrong ones are refused and write nothing", "[aegis][contract]") {
    for (const Variant &v : kVariants) {
        INFO(v.name);
        CHECK(aead_key_size(v.alg) == v.key);
        CHECK(aead_nonce_size(v.alg) == v.key);
        CHECK(aead_tag_size(v.alg) == 16);
        if (!offered()) continue;
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
        const Bytes long_key(v.key + 1, 1);
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, long_key.data(), v.key - 1, 0, test::test_properties(),
                              nullptr, 0) == AEAD_ERR_KEY_SIZE);
        CHECK(c == nullptr);
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, long_key.data(), v.key + 1, 0, test::test_properties(),
                              nullptr, 0) == AEAD_ERR_KEY_SIZE);
        // Tags: 0 (= 16), 16 and 32 under both policies; nothing else.
        for (const int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_RANDOM_NONCE}}) {
            for (size_t tag = 0; tag <= 40; ++tag) {
                const bool ok = tag == 0 || tag == 16 || tag == 32;
                c = nullptr;
                CHECK(aead_ctx_new_ex(&c, v.alg, policy, long_key.data(), v.key, tag, test::test_properties(), nullptr,
                                      0) == (ok ? 0 : AEAD_ERR_TAG_SIZE));
                CHECK((c != nullptr) == ok);
                aead_ctx_free(c);
            }
        }
        // Policies: NONE and RANDOM_NONCE only.
        for (const int p : {int{AEAD_POLICY_TLS12}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_QUIC}, int{AEAD_POLICY_COUNTER},
                            int{AEAD_POLICY_XOR_COUNTER}, int{AEAD_POLICY_SSH}, int{AEAD_POLICY_DTLS12}}) {
            c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            CHECK(aead_ctx_new_ex(&c, v.alg, p, long_key.data(), v.key, 0, test::test_properties(), nullptr, 0) ==
                  AEAD_ERR_ARG);
            CHECK(c == nullptr);
        }
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO("tag " << tag_len);
            test::Ctx ctx(v.alg, AEAD_POLICY_NONE, test::random_bytes(v.key), tag_len);
            CHECK(std::string(aead_ctx_provider(ctx)) == "libaegis");
            CHECK(aead_ctx_indicator(ctx) == 0);  // never FIPS-approved
            const Bytes aad = test::random_bytes(5), pt = test::random_bytes(40);
            const size_t sealed_len = pt.size() + tag_len;
            // Nonces of any other length: refused, nothing written.
            for (size_t n = 0; n <= 40; ++n) {
                if (n == v.key) continue;
                Bytes out(sealed_len, 0xEE);
                CHECK(test::seal(ctx, Bytes(n, 3), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
                CHECK(all_equal(out.data(), out.size(), 0xEE));
            }
            const Bytes nonce = test::random_bytes(v.key);
            // out_cap one short: refused, nothing written; an open too short to hold a tag: AEAD_ERR_AUTH.
            Bytes small(sealed_len - 1, 0xEE);
            CHECK(test::seal(ctx, nonce, aad, pt, small) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(all_equal(small.data(), small.size(), 0xEE));
            Bytes sealed(sealed_len);
            REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == static_cast<int64_t>(sealed_len));
            Bytes back(pt.size(), 0xEE), tiny(pt.size() - 1, 0xEE);
            CHECK(test::open(ctx, nonce, aad, Bytes(tag_len - 1, 1), back) == AEAD_ERR_AUTH);
            CHECK(test::open(ctx, nonce, aad, sealed, tiny) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(all_equal(tiny.data(), tiny.size(), 0xEE));
            // Any overlap but the exact alias is refused.
            Bytes big(200, 0);
            std::memcpy(big.data(), pt.data(), pt.size());
            const Bytes before = big;
            CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), aad.data(), aad.size(), big.data(), pt.size(),
                                 big.data() + 1, sealed_len) == AEAD_ERR_OVERLAP);
            CHECK(big == before);
            // Empty message and AD (NULL pointers): a tag alone, which opens to nothing.
            Bytes tag_only(tag_len);
            REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), nullptr, 0, nullptr, 0, tag_only.data(),
                                   tag_only.size()) == static_cast<int64_t>(tag_len));
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), nullptr, 0, tag_only.data(), tag_len, nullptr,
                                 0) == 0);
            tag_only[0] ^= 1;
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), nullptr, 0, tag_only.data(), tag_len, nullptr,
                                 0) == AEAD_ERR_AUTH);
        }
    }
}

TEST_CASE("AEGIS: every length from 0 to 600 round-trips (each variant's block and bulk paths)", "[aegis][contract]") {
    if (!offered()) return;
    for (const Variant &v : kVariants) {
        INFO(v.name);
        test::Ctx ctx(v.alg, AEAD_POLICY_NONE, test::random_bytes(v.key), 32);
        const Bytes nonce = test::random_bytes(v.key);
        for (size_t n = 0; n <= 600; n += (n < 300 ? 1 : 37)) {
            INFO("length " << n);
            const Bytes pt = test::random_bytes(n), aad = test::random_bytes(n % 97);
            Bytes out(n + 32), back(n, 0xEE);
            REQUIRE(test::seal(ctx, nonce, aad, pt, out) == static_cast<int64_t>(n + 32));
            REQUIRE(test::open(ctx, nonce, aad, out, back) == static_cast<int64_t>(n));
            CHECK(back == pt);
            out[n / 2] ^= 0x80;
            CHECK(test::open(ctx, nonce, aad, out, back) == AEAD_ERR_AUTH);
            CHECK(all_equal(back.data(), back.size(), 0));
        }
    }
}

TEST_CASE("AEGIS with random nonces: nonce(16 or 32) || ct || tag, fresh nonces; 2^48 seals for 128-bit nonces",
          "[aegis][contract]") {
    if (!offered()) return;
    for (const Variant &v : kVariants) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = test::random_bytes(v.key), aad(4, 2), pt = test::random_bytes(50);
            test::Ctx rnd(v.alg, AEAD_POLICY_RANDOM_NONCE, key, tag_len), plain(v.alg, AEAD_POLICY_NONE, key, tag_len);
            const size_t body_len = pt.size() + tag_len, total = v.key + body_len;
            const auto p = static_cast<std::ptrdiff_t>(v.key);
            std::set<std::string> nonces;  // (not set<Bytes>: GCC 12 -O3 sees a bogus memcmp bound in its <=>)
            for (int i = 0; i < 50; ++i) {
                Bytes out(total);
                REQUIRE(test::seal(rnd, {}, aad, pt, out) == static_cast<int64_t>(total));
                const Bytes nonce(out.begin(), out.begin() + p), body(out.begin() + p, out.end());
                nonces.emplace(nonce.begin(), nonce.end());
                Bytes want(body_len), back(pt.size());
                REQUIRE(test::seal(plain, nonce, aad, pt, want) == static_cast<int64_t>(body_len));
                CHECK(body == want);
                REQUIRE(test::open(rnd, {}, aad, out, back) == static_cast<int64_t>(pt.size()));
                CHECK(back == pt);
                out[total - 1] ^= 1;
                CHECK(test::open(rnd, {}, aad, out, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
            }
            CHECK(nonces.size() == 50);
            // In place: the ciphertext lands where the plaintext was (in == out + nonce).
            Bytes buf(total);
            std::memcpy(buf.data() + v.key, pt.data(), pt.size());
            REQUIRE(aead_seal_open(rnd, AEAD_SEAL, nullptr, 0, aad.data(), 4, buf.data() + v.key, pt.size(), buf.data(),
                                   buf.size()) == static_cast<int64_t>(total));
            REQUIRE(aead_seal_open(rnd, AEAD_OPEN, nullptr, 0, aad.data(), 4, buf.data(), total, buf.data() + v.key,
                                   body_len) == static_cast<int64_t>(pt.size()));
            CHECK(Bytes(buf.begin() + p, buf.begin() + p + 50) == pt);
            // A nonce given to a random-policy seal is refused; so is a sealed message too short on open.
            Bytes out(total), back(pt.size());
            CHECK(test::seal(rnd, Bytes(v.key, 1), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
            CHECK(test::open(rnd, {}, aad, Bytes(v.key + tag_len - 1, 0), back) == AEAD_ERR_AUTH);
#ifdef AEAD_TEST_FAULT_BUILD
            // The budget: 2^48 seals with a 128-bit nonce (RFC 10032's usage guidelines), none with 256 bits.
            aead_test_set_random_seals(rnd, (uint64_t{1} << 48) - 1);
            CHECK(test::seal(rnd, {}, aad, pt, out) == static_cast<int64_t>(total));
            const Bytes untouched(total, 0xEE);
            out = untouched;
            CHECK(test::seal(rnd, {}, aad, pt, out) == (v.key == 16 ? int64_t{AEAD_ERR_NONCE_LIMIT} : static_cast<int64_t>(total)));
            if (v.key == 16) CHECK(out == untouched);
#endif
        }
    }
}

TEST_CASE("AEGIS is refused under a FIPS query (no FIPS provider has it)", "[aegis][fips]") {
    for (const Variant &v : kVariants) {
        INFO(v.name);
        const Bytes key(v.key, 9);
        for (const int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_RANDOM_NONCE}}) {
            aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            CHECK(aead_ctx_new_ex(&c, v.alg, policy, key.data(), key.size(), 0, "fips=yes", nullptr, 0) ==
                  AEAD_ERR_UNSUPPORTED);
            CHECK(c == nullptr);
        }
        // A query that selects a non-FIPS provider offers it (unless this run's libcrypto is FIPS-only).
        if (test::fips_stage()) continue;
        aead_ctx *c = nullptr;
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0, "provider=default", nullptr, 0) == 0);
        if (c != nullptr) CHECK(aead_ctx_indicator(c) == 0);
        aead_ctx_free(c);
    }
}
