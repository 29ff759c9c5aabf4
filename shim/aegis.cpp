// The AEGIS family (RFC 10032): AEGIS-128L, AEGIS-256, AEGIS-128X2, AEGIS-128X4, AEGIS-256X2 and
// AEGIS-256X4, on libaegis (its C sources from the pinned aegis crate, compiled into libaead and hidden
// there: meson.build, shim/aegis/). No libcrypto cipher: the registry's rows have no provider name and no
// slot. The template keeps the key and the tag length; a worker has only the random-nonce pool, since
// libaegis's one-shot calls keep their whole state on the stack. libaegis picks its implementation for
// the CPU (AES-NI, VAES/AVX2, AVX-512, ARM crypto, portable) in aegis_init, run once per process before
// the first template is made.
// libaegis under libaead's own names (shim/aegis/prefix.h), as its sources are compiled.
#include "aegis/prefix.h"
#include <aegis.h>

#include "family_ops.h"

namespace aead::shim {

namespace {

// One variant's one-shot calls with a detached tag: libaegis's <variant>_encrypt_detached and
// _decrypt_detached (0, or -1 for a tag that does not verify, which also zeroes m).
struct Variant {
    int (*seal)(uint8_t *c, uint8_t *mac, size_t maclen, const uint8_t *m, size_t mlen, const uint8_t *ad,
                size_t adlen, const uint8_t *npub, const uint8_t *k);
    int (*open)(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t *mac, size_t maclen, const uint8_t *ad,
                size_t adlen, const uint8_t *npub, const uint8_t *k);
    size_t key_size, nonce_size;
};

// By Cipher, from aegis_128l on (shim.h's order).
constexpr Variant kVariants[] = {
    {aegis128l_encrypt_detached, aegis128l_decrypt_detached, aegis128l_KEYBYTES, aegis128l_NPUBBYTES},
    {aegis256_encrypt_detached, aegis256_decrypt_detached, aegis256_KEYBYTES, aegis256_NPUBBYTES},
    {aegis128x2_encrypt_detached, aegis128x2_decrypt_detached, aegis128x2_KEYBYTES, aegis128x2_NPUBBYTES},
    {aegis128x4_encrypt_detached, aegis128x4_decrypt_detached, aegis128x4_KEYBYTES, aegis128x4_NPUBBYTES},
    {aegis256x2_encrypt_detached, aegis256x2_decrypt_detached, aegis256x2_KEYBYTES, aegis256x2_NPUBBYTES},
    {aegis256x4_encrypt_detached, aegis256x4_decrypt_detached, aegis256x4_KEYBYTES, aegis256x4_NPUBBYTES},
};
constexpr auto kFirst = static_cast<size_t>(Cipher::aegis_128l);

// Each variant's row (found by its Cipher) has the variant's key and nonce, libaegis's two tag lengths and
// no provider name. By Cipher and by index, with no pointer compared: GCC with -fsanitize=address,undefined
// does not take a comparison of an object's address (with another's, or with null) as a constant expression.
constexpr bool rows_match_variants() noexcept {
    for (size_t i = 0; i < std::size(kVariants); ++i) {
        size_t at = std::size(kRows);
        for (size_t j = 0; j < std::size(kRows); ++j)
            if (kRows[j].cipher == static_cast<Cipher>(kFirst + i)) at = j;
        if (at == std::size(kRows)) return false;
        const Row &row = kRows[at];
        if (row.name != nullptr || row.key_size != kVariants[i].key_size || row.nonce_min != kVariants[i].nonce_size ||
            row.nonce_max != kVariants[i].nonce_size || row.nonce_usual != kVariants[i].nonce_size ||
            row.tags != kAegisTags)
            return false;
    }
    return true;
}
static_assert(rows_match_variants(), "every AEGIS row is its libaegis variant's");
static_assert(aegis128l_ABYTES_MIN == 16 && aegis128l_ABYTES_MAX == 32 && aegis256_ABYTES_MIN == 16 &&
              aegis256_ABYTES_MAX == 32);

struct AegisTemplate : KeyedTemplate {
    const Variant *v = nullptr;
};

struct AegisWorker : Worker {
    const AegisTemplate *t = nullptr;
    NoncePool pool;
    AegisWorker() noexcept { nonces = &pool; }
};

// aegis_init is not thread-safe and must run before libaegis's first call for its CPU choice (without
// it libaegis runs its portable code): a function-local static runs it once, and every later call is
// ordered after it (a context exists only after its template, made past this point).
void init_once() noexcept {
    static const int done = (aegis_init(), 1);
    (void)done;
}

// libaegis indexes and copies from its pointers even for zero lengths: an empty buffer gets a real address.
const uint8_t *nonnull(const uint8_t *p) noexcept { return p != nullptr ? p : g_empty; }

int aegis_template_new(Template **out, const Row &row, const Keying &k, Bytes key, size_t tag_len) noexcept {
    // No FIPS provider has AEGIS: under a query that selects FIPS providers it is not offered, as a
    // provider's cipher would not be (aead_ctx_new: AEAD_ERR_UNSUPPORTED).
    if (query_selects_fips(*k.source)) return AEAD_ERR_UNSUPPORTED;
    const auto i = static_cast<size_t>(row.cipher) - kFirst;
    // lib/ passes only these (algorithm.h)  GCOVR_EXCL_START
    if (i >= std::size(kVariants) || key.size != kVariants[i].key_size || (tag_len != 16 && tag_len != 32))
        return AEAD_ERR_CRYPTO;
    // GCOVR_EXCL_STOP
    init_once();
    auto *t = new_template<AegisTemplate>(row, k);
    if (t == nullptr) return AEAD_ERR_NOMEM;
    t->v = &kVariants[i];
    t->tag_len = tag_len;
    t->keep(key);
    *out = t;
    return 0;
}

int aegis_worker_new(const Template &base, Worker **out) noexcept {
    auto *w = new_worker<AegisWorker>(base);
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->t = &static_cast<const AegisTemplate &>(base);
    *out = w;
    return 0;
}

// out == in.data (in place) is what lib/ allows: libaegis reads each block before it writes it.
int aegis_seal(Worker &base, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    const auto &w = static_cast<AegisWorker &>(base);
    const AegisTemplate &t = *w.t;
    if (nonce.size != t.v->nonce_size || tag_len != t.tag_len) return AEAD_ERR_CRYPTO;  // lib/ never passes one
    if (fault_point() ||
        t.v->seal(out, out + in.size, tag_len, nonnull(in.data), in.size, nonnull(aad.data), aad.size, nonce.data,
                  t.key) != 0)
        return AEAD_ERR_CRYPTO;  // GCOVR_EXCL_LINE libaegis's seal fails only for a tag length it lacks
    return 0;
}

int aegis_open(Worker &base, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    const auto &w = static_cast<AegisWorker &>(base);
    const AegisTemplate &t = *w.t;
    if (nonce.size != t.v->nonce_size || tag.size != t.tag_len) return AEAD_ERR_CRYPTO;  // lib/ never passes one
    if (fault_point()) return AEAD_ERR_CRYPTO;
    // out may be NULL only for an empty message: then libaegis still checks the tag, writing nothing.
    uint8_t *m = out != nullptr ? out : g_empty;
    if (t.v->open(m, nonnull(ciphertext.data), ciphertext.size, tag.data, tag.size, nonnull(aad.data), aad.size,
                  nonce.data, t.key) != 0)
        return AEAD_ERR_AUTH;  // libaegis has zeroed out; lib/ zeroes it again
    return 0;
}

Provenance aegis_provenance(const Template &) noexcept { return {"libaegis", false}; }

}  // namespace

// No self-test: there is no provider's direct path to check against EVP (tests/test_aegis.cpp has RFC
// 10032's vectors).
const FamilyOps kAegisFamily = {
    .uses_copies = false,
    .template_new = aegis_template_new,
    .worker_new = aegis_worker_new,
    .frees = frees_of<AegisTemplate, AegisWorker>,
    .seal = aegis_seal,
    .open = aegis_open,
    .self_test = nullptr,
    .provenance = aegis_provenance,
};

}  // namespace aead::shim
