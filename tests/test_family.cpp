// The shim's algorithm registry and family method tables (shim/registry.h, shim/family_ops.h): the
// registry agrees with what lib/ enforces (lib/algorithm.h), each row's cipher is what libcrypto names it,
// and a family that is not OpenSSL fits as one more FamilyOps: a toy family defined here, in this test
// only, runs through the shim's generic entry points (template_new with its row, worker_new, seal, open,
// template_provenance, the frees) with no change to shim/. The toy is no cipher: a keyed XOR and a
// checksum, enough to see every call reach it with its arguments.
#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "../lib/algorithm.h"
#include "../shim/family_ops.h"
#include "catch_compat.h"
#include "support.h"

using test::Bytes;
namespace shim = aead::shim;

namespace {

// ---- the toy family ----

int g_live_templates = 0, g_live_workers = 0;

struct ToyTemplate : shim::Template {
    std::array<uint8_t, 16> key{};
    ToyTemplate() { ++g_live_templates; }
    ~ToyTemplate() { --g_live_templates; }
};
struct ToyWorker : shim::Worker {
    const ToyTemplate *t = nullptr;
    ToyWorker() { ++g_live_workers; }
    ~ToyWorker() { --g_live_workers; }
};

// The toy's whole algorithm: ciphertext = plaintext XOR key XOR nonce (cycled); tag = an FNV-1a
// checksum of key, nonce, AAD and ciphertext, spread over tag_len bytes.
void toy_xor(const ToyTemplate &t, shim::Bytes nonce, shim::Bytes in, uint8_t *out) {
    for (size_t i = 0; i < in.size; ++i) out[i] = in.data[i] ^ t.key[i % 16] ^ nonce.data[i % nonce.size];
}
void toy_tag(const ToyTemplate &t, shim::Bytes nonce, shim::Bytes aad, shim::Bytes ct, uint8_t *tag, size_t len) {
    uint64_t h = 0xcbf29ce484222325u;
    auto mix = [&](const uint8_t *p, size_t n) {
        for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3u;
    };
    mix(t.key.data(), t.key.size());
    mix(nonce.data, nonce.size);
    mix(aad.data, aad.size);
    mix(ct.data, ct.size);
    for (size_t i = 0; i < len; ++i) {
        tag[i] = static_cast<uint8_t>(h >> (8 * (i % 8)));
        if (i % 8 == 7) h = (h ^ i) * 0x100000001b3u;
    }
}

int toy_template_new(shim::Template **out, const shim::Row &row, const shim::Keying &k, shim::Bytes key, size_t) noexcept {
    auto *t = shim::new_template<ToyTemplate>(row, k);
    if (t == nullptr) return AEAD_ERR_NOMEM;
    std::memcpy(t->key.data(), key.data, key.size);
    *out = t;
    return 0;
}
int toy_worker_new(const shim::Template &t, shim::Worker **out) noexcept {
    auto *w = shim::new_worker<ToyWorker>(t);
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->t = &static_cast<const ToyTemplate &>(t);
    *out = w;
    return 0;
}
int toy_seal(shim::Worker &base, shim::Bytes nonce, shim::Bytes aad, shim::Bytes in, uint8_t *out, size_t tag_len) noexcept {
    const auto &w = static_cast<ToyWorker &>(base);
    toy_xor(*w.t, nonce, in, out);
    toy_tag(*w.t, nonce, aad, {out, in.size}, out + in.size, tag_len);
    return 0;
}
int toy_open(shim::Worker &base, shim::Bytes nonce, shim::Bytes aad, shim::Bytes ct, shim::Bytes tag, uint8_t *out) noexcept {
    const auto &w = static_cast<ToyWorker &>(base);
    std::array<uint8_t, 16> want{};
    toy_tag(*w.t, nonce, aad, ct, want.data(), tag.size);
    if (std::memcmp(want.data(), tag.data, tag.size) != 0) return AEAD_ERR_AUTH;
    toy_xor(*w.t, nonce, ct, out);
    return 0;
}
shim::Provenance toy_provenance(const shim::Template &) noexcept { return {"toy", false}; }

const shim::FamilyOps kToyFamily = {
    .uses_copies = false,
    .template_new = toy_template_new,
    .worker_new = toy_worker_new,
    .frees = shim::frees_of<ToyTemplate, ToyWorker>,
    .seal = toy_seal,
    .open = toy_open,
    .self_test = nullptr,
    .provenance = toy_provenance,
};
// Its row: no provider name (no libcrypto cipher), so no slot.
const shim::Row kToyRow = {-1, static_cast<shim::Cipher>(-1), nullptr, -1, 16, 12, 12, 12, shim::kTag16,
                           uint64_t{1} << 30, uint64_t{1} << 30, &kToyFamily};

Bytes pattern(size_t n, uint8_t seed) {
    Bytes b(n);
    for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(seed + 13 * i);
    return b;
}

shim::CipherSource &source() {
    shim::CipherSource *src = nullptr;
    REQUIRE(shim::cipher_source(test::test_properties(), &src) == 0);
    return *src;
}

}  // namespace

TEST_CASE("a family that is not OpenSSL runs through the shim's entry points", "[family]") {
    const Bytes key = pattern(16, 3), nonce = pattern(12, 5), aad = pattern(9, 7), pt = pattern(37, 11);
    shim::Template *t = nullptr;
    REQUIRE(shim::template_new(&t, source(), kToyRow, {key.data(), key.size()}, 16) == 0);
    REQUIRE(t != nullptr);
    CHECK(t->ops == &kToyFamily);
    CHECK(t->cipher == nullptr);
    CHECK(t->direct == nullptr);
    CHECK(std::string(shim::template_provenance(*t).provider) == "toy");
    shim::Worker *w = nullptr;
    REQUIRE(shim::worker_new(*t, &w) == 0);
    CHECK(g_live_workers == 1);

    // The toy's bytes, computed here without the shim.
    ToyTemplate ref;
    std::memcpy(ref.key.data(), key.data(), 16);
    Bytes want(pt.size() + 16);
    toy_xor(ref, {nonce.data(), nonce.size()}, {pt.data(), pt.size()}, want.data());
    toy_tag(ref, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {want.data(), pt.size()}, want.data() + pt.size(), 16);

    Bytes sealed(pt.size() + 16, 0xEE);
    REQUIRE(shim::seal(*w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {pt.data(), pt.size()}, sealed.data(), 16) == 0);
    CHECK(sealed == want);
    CHECK(sealed != pt);
    Bytes back(pt.size(), 0xEE);
    CHECK(shim::open(*w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {sealed.data(), pt.size()},
                     {sealed.data() + pt.size(), 16}, back.data()) == 0);
    CHECK(back == pt);
    sealed.back() ^= 1;
    CHECK(shim::open(*w, {nonce.data(), nonce.size()}, {aad.data(), aad.size()}, {sealed.data(), pt.size()},
                     {sealed.data() + pt.size(), 16}, back.data()) == AEAD_ERR_AUTH);

    // No random-nonce pool in this family: the shim refuses rather than draw into nothing.
    uint8_t drawn[12];
    CHECK(shim::random_nonce(*w, drawn, sizeof drawn, 1) == AEAD_ERR_CRYPTO);

    shim::worker_free(w);
    shim::template_free(t);
    CHECK(g_live_workers == 0);
    CHECK(g_live_templates == 1);  // ref only: the shim freed its template through the family's free

    // The row's key size is checked before the family is asked.
    t = nullptr;
    CHECK(shim::template_new(&t, source(), kToyRow, {key.data(), 15}, 16) == AEAD_ERR_KEY_SIZE);
    CHECK(t == nullptr);
    CHECK(g_live_templates == 1);
}

TEST_CASE("the registry agrees with lib/'s algorithm table", "[family]") {
    size_t seen = 0;
    for (const aead::Algorithm &a : aead::kAlgorithms) {
        INFO("algorithm " << a.id);
        const shim::Row &r = shim::row(a.cipher);
        CHECK(r.id == a.id);
        CHECK(r.cipher == a.cipher);
        CHECK(r.key_size == a.key_size);
        CHECK(r.nonce_usual == a.nonce_size);
        CHECK(r.nonce_min == aead::min_nonce_size(a, AEAD_POLICY_NONE));
        CHECK(r.nonce_max == aead::max_nonce_size(a, AEAD_POLICY_NONE));
        for (size_t tag = 0; tag <= 40; ++tag)
            CHECK(((r.tags >> tag) & 1) == (aead::valid_tag_size(a, AEAD_POLICY_NONE, tag) ? 1u : 0u));
        CHECK(r.max_plaintext == a.max_plaintext);
        CHECK(r.max_aad == a.max_aad);
        const shim::FamilyOps *want = nullptr;
        switch (a.family) {
            case aead::Family::gcm:
            case aead::Family::chacha: want = &shim::kGcmChaChaFamily; break;
            case aead::Family::ccm: want = &shim::kCcmFamily; break;
            case aead::Family::gcm_siv: want = &shim::kGcmSivFamily; break;
            case aead::Family::ocb: want = &shim::kOcbFamily; break;
            case aead::Family::xchacha: want = &shim::kXChaChaFamily; break;
            case aead::Family::siv: want = &shim::kSivFamily; break;
            case aead::Family::aegis: want = &shim::kAegisFamily; break;
        }
        // A row with no libcrypto cipher (AEGIS) has no provider name and no slot.
        CHECK((r.name == nullptr) == (a.family == aead::Family::aegis));
        CHECK((r.slot < 0) == (r.name == nullptr));
        CHECK(r.ops == want);
        ++seen;
    }
    CHECK(seen == std::size(shim::kRows));
}

TEST_CASE("each row names the cipher libcrypto has with its key size", "[family]") {
    for (const shim::Row &r : shim::kRows) {
        INFO((r.name != nullptr ? r.name : "a row on no libcrypto cipher") << " (" << r.id << ")");
        const Bytes key = pattern(r.key_size, 1);
        shim::Template *t = nullptr;
        const int rc = shim::template_new(&t, source(), r.cipher, {key.data(), key.size()});
        if (rc == AEAD_ERR_UNSUPPORTED) continue;  // not offered for this query (a FIPS-only configuration)
        REQUIRE(rc == 0);
        CHECK(t->row == &r);
        CHECK(t->ops == r.ops);
        if (r.name == nullptr) {  // AEGIS: libaegis, no fetched cipher
            CHECK(t->cipher == nullptr);
            CHECK(std::string(shim::template_provenance(*t).provider) == "libaegis");
        } else {
            CHECK(EVP_CIPHER_is_a(t->cipher, r.name) == 1);
            CHECK(static_cast<size_t>(EVP_CIPHER_get_key_length(t->cipher)) == r.key_size);
        }
        shim::Template *short_key = nullptr;
        CHECK(shim::template_new(&short_key, source(), r.cipher, {key.data(), key.size() - 1}) == AEAD_ERR_KEY_SIZE);
        CHECK(short_key == nullptr);
        shim::template_free(t);
    }
}
