// A family's method table (FamilyOps, one per family file, named by the registry's rows), and the two
// drivers every libcrypto family runs its steps with: through an EVP_CIPHER_CTX (Evp) or directly on a
// provider context with its implementation's functions (Direct), with the steps they share (feed, the
// IV length, the tag).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <new>

#include "contexts.h"
#include "fault_injection.h"

namespace aead::shim {

// What the generic template_new (template.cpp) has found for a row before its family keys a template:
// the fetched cipher, how it runs, whether its contexts copy safely (asked only of families that copy).
// A family not on libcrypto gets only its source (cipher NULL).
struct Keying {
    CipherSource *source = nullptr;
    const EVP_CIPHER *cipher = nullptr;
    const Dispatch *direct = nullptr;
    bool copy_works = false;
};

// A known-answer check's verdict on a provider's direct calls against its EVP path.
enum class Check { same, differs, inconclusive };

// How a family's templates and workers are freed: always the deletes of its own types (frees_of, below).
struct Frees {
    void (*template_free)(Template *t) noexcept;  // t not NULL
    void (*worker_free)(Worker *w) noexcept;      // w not NULL
};

struct FamilyOps {
    bool uses_copies;  // workers are copies of a keyed template context: template_new probes the copy first
    int (*template_new)(Template **out, const Row &row, const Keying &k, Bytes key, size_t tag_len) noexcept;
    int (*worker_new)(const Template &t, Worker **out) noexcept;
    Frees frees;  // frees_of<the family's template type, its worker type>
    int (*seal)(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept;
    int (*open)(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept;
    // The direct calls d on cipher against EVP on the same steps (dispatch.cpp asks it once per source
    // and slot). NULL for a row that runs on another row's slot, or on no libcrypto cipher.
    Check (*self_test)(const EVP_CIPHER *cipher, const Dispatch &d) noexcept;
    Provenance (*provenance)(const Template &t) noexcept;
};

// Makes a template of row for a family (the base filled in; the family keys the rest), or a worker of t.
template <typename T>
T *new_template(const Row &row, const Keying &k) noexcept {
    auto *t = new (std::nothrow) T;
    if (t != nullptr) {
        t->row = &row;
        t->ops = row.ops;
        t->direct = k.direct;
        t->cipher = k.cipher;
        t->source = k.source;
    }
    return t;
}
template <typename W>
W *new_worker(const Template &t) noexcept {
    auto *w = new (std::nothrow) W;
    if (w != nullptr) {
        w->ops = t.ops;
        w->direct = t.direct;
    }
    return w;
}

// The frees of a family whose template and worker types are T and W; its table names the two types once,
// in frees_of<T, W>.
template <typename T>
void free_template(Template *t) noexcept {
    delete static_cast<T *>(t);
}
template <typename W>
void free_worker(Worker *w) noexcept {
    delete static_cast<W *>(w);
}
template <typename T, typename W>
inline constexpr Frees frees_of = {free_template<T>, free_worker<W>};

// The generic entry with a row that need not be in kRows (template.cpp; tests/test_family.cpp).
int template_new(Template **out, CipherSource &src, const Row &row, Bytes key, size_t tag_len) noexcept;
// A libcrypto family's template provenance: its fetched cipher's (ciphers.cpp).
Provenance libcrypto_provenance(const Template &t) noexcept;

// A non-NULL place for empty updates (CCM, GCM-SIV and SIV need them made; a NULL input or output means
// something else to their providers).
inline unsigned char g_empty[16];

struct Evp {
    EVP_CIPHER_CTX *c;
    bool init(Bytes key, Bytes iv, bool enc) const noexcept {
        return EVP_CipherInit_ex2(c, nullptr, key.data, iv.data, enc ? 1 : 0, nullptr) == 1;
    }
    bool set(const OSSL_PARAM *p) const noexcept { return EVP_CIPHER_CTX_set_params(c, p) == 1; }
    bool get(OSSL_PARAM *p) const noexcept { return EVP_CIPHER_CTX_get_params(c, p) == 1; }
    bool update(uint8_t *out, size_t &written, const uint8_t *in, size_t n) const noexcept {
        int w = 0;
        written = 0;
        if (n > INT_MAX || EVP_CipherUpdate(c, out, &w, in, static_cast<int>(n)) != 1) return false;
        written = static_cast<size_t>(w);
        return true;
    }
    bool final(uint8_t *out, size_t &written) const noexcept {
        int w = 0;
        written = 0;
        if (EVP_CipherFinal_ex(c, out, &w) != 1) return false;
        written = static_cast<size_t>(w);
        return true;
    }
};

// outsize: the input's length plus a block, what EVP passes for a block-size-16 cipher (OCB3); the
// stream ciphers' providers only ask for at least the input's length (also for AAD, out NULL).
struct Direct {
    const Dispatch *d;
    void *c;
    bool init(Bytes key, Bytes iv, bool enc) const noexcept {
        return (enc ? d->encrypt_init : d->decrypt_init)(c, key.data, key.size, iv.data, iv.size, nullptr) == 1;
    }
    bool set(const OSSL_PARAM *p) const noexcept { return d->set_ctx_params(c, p) == 1; }
    bool get(OSSL_PARAM *p) const noexcept { return d->get_ctx_params(c, p) == 1; }
    bool update(uint8_t *out, size_t &written, const uint8_t *in, size_t n) const noexcept {
        written = 0;
        return d->update(c, out, &written, n + 16, in, n) == 1;
    }
    bool final(uint8_t *out, size_t &written) const noexcept {
        written = 0;
        return d->final(c, out, &written, 16) == 1;
    }
};

// EVP_CipherUpdate takes an int length: larger inputs go in chunks (the same through Direct: no provider
// is asked for more at once than through EVP). Zero-length input is skipped, never passed.
inline constexpr size_t kChunk = size_t{1} << 30;
#ifdef AEAD_FAULT_INJECTION
// Fault-injection builds only: AEAD_TEST_CHUNK=n (read once per call) makes the chunk n bytes, so the
// tests run the chunked loops, and fail each of their calls, on small inputs.
inline size_t chunk() noexcept {
    const char *v = std::getenv("AEAD_TEST_CHUNK");
    const unsigned long long n = v != nullptr ? std::strtoull(v, nullptr, 10) : 0;
    return n != 0 && n < kChunk ? static_cast<size_t>(n) : kChunk;
}
#else
constexpr size_t chunk() noexcept { return kChunk; }
#endif

// Feeds in (AAD with out NULL) in chunks; done: the bytes written. Inlined: this is the hot path, and
// out-of-line helpers cost a tenth of a small seal.
template <typename Ops>
[[gnu::always_inline]] inline bool feed(const Ops &o, uint8_t *out, Bytes in, size_t &done) noexcept {
    size_t w = 0;
    done = 0;
    const size_t step = chunk();
    if (in.size <= step) [[likely]] {  // one update: the common case, without the loop's bookkeeping
        if (in.size == 0) return true;
        if (fault_point() || !o.update(out, w, in.data, in.size)) return false;
        done = w;
        return true;
    }
    while (in.size != 0) {
        const size_t n = std::min(in.size, step);
        if (fault_point() || !o.update(out != nullptr ? out + done : nullptr, w, in.data, n)) return false;
        done += w;
        in.data += n;
        in.size -= n;
    }
    return true;
}

// Sets the IV length when a nonce's differs from the one the context has (cur).
template <typename Ops>
[[gnu::always_inline]] inline bool set_iv_len(const Ops &o, size_t &cur, size_t want) noexcept {
    if (cur == want) [[likely]] return true;
    size_t len = want;
    const OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_END};
    if (fault_point() || !o.set(p)) return false;
    cur = want;
    return true;
}

// get_params with the tag param is measurably cheaper than the EVP_CTRL_AEAD_GET_TAG ctrl in 3.0.
template <typename Ops>
[[gnu::always_inline]] inline bool get_tag(const Ops &o, uint8_t *tag, size_t len) noexcept {
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, len), OSSL_PARAM_END};
    return !fault_point() && o.get(p);
}
// An open's expected tag: set after the decrypting init and before the final call.
template <typename Ops>
[[gnu::always_inline]] inline bool set_tag(const Ops &o, Bytes tag) noexcept {
    const OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                              const_cast<uint8_t *>(tag.data), tag.size),
                            OSSL_PARAM_END};
    return !fault_point() && o.set(p);
}

[[gnu::cold]] inline int auth_failure() noexcept {
    ERR_clear_error();  // CCM and GCM-SIV push an error for a wrong tag; nothing of this call outlives it
    return AEAD_ERR_AUTH;
}

}  // namespace aead::shim
