// Keyed templates and the working contexts derived from them.
#include <cstring>
#include <new>

#include "contexts.h"
#include "fault_injection.h"

namespace aead::shim {

constexpr size_t kDefaultNonce = 12;

namespace {

// A template of src's cipher `index` for a key of that size: everything set but the keyed state.
int blank_template(CipherSource &src, int index, Bytes key, Template *&t) noexcept {
    const EVP_CIPHER *cipher = fetched_cipher(src, index);
    if (cipher == nullptr) return AEAD_ERR_UNSUPPORTED;
    // GCOVR_EXCL_START lib/ refuses other key sizes first (algorithm.h); this guards the copy below
    if (key.size > sizeof(Template::key) || static_cast<int>(key.size) != EVP_CIPHER_get_key_length(cipher))
        return AEAD_ERR_KEY_SIZE;
    // GCOVR_EXCL_STOP
    t = new (std::nothrow) Template;
    if (t == nullptr) return AEAD_ERR_NOMEM;
    t->cipher = cipher;
    t->source = &src;
    t->index = index;
    t->direct = cipher_dispatch(src, index);
    return 0;
}

constexpr Mode mode_of(Cipher c) noexcept {
    if (c == Cipher::xchacha20_poly1305) return Mode::xchacha;
    if (c >= Cipher::aes_128_siv) return Mode::siv;
    if (c >= Cipher::aes_128_ocb) return Mode::ocb;
    if (c >= Cipher::aes_128_gcm_siv) return Mode::gcm_siv;
    if (c >= Cipher::aes_128_ccm) return Mode::ccm;  // GCOVR_EXCL_BR_LINE called for the families only
    return Mode::stream;  // GCOVR_EXCL_LINE called for the families only
}

// The families (CCM, GCM-SIV, OCB3, XChaCha20-Poly1305, SIV): the template keeps the key and each worker is
// keyed from it (CCM needs a context per nonce length, made when a worker first sees that length;
// XChaCha20-Poly1305 re-keys per call with the subkey, its ChaCha20 context holds the key anyway; SIV
// copies its keyed context per call).
int family_template_new(Template **out, CipherSource &src, Cipher c, Bytes key, size_t tag_len) noexcept {
    const int index = c == Cipher::xchacha20_poly1305 ? static_cast<int>(Cipher::chacha20_poly1305) : static_cast<int>(c);
    Template *t = nullptr;
    if (const int rc = blank_template(src, index, key, t)) return rc;
    // GCOVR_EXCL_START a provider with ChaCha20-Poly1305 but no ChaCha20: not OpenSSL's
    if (c == Cipher::xchacha20_poly1305 && (t->hchacha = fetched_hp_cipher(src, HpCipher::chacha20)) == nullptr) {
        delete t;
        return AEAD_ERR_UNSUPPORTED;
    }
    // GCOVR_EXCL_STOP
    t->mode = mode_of(c);
    t->key_len = key.size;
    t->tag_len = tag_len;
    std::memcpy(t->key, key.data, key.size);
    *out = t;
    return 0;
}

}  // namespace

int family_context(const Template &t, size_t iv_len, bool seal, CipherCtxPtr &evp, ProvCtxPtr &prov) noexcept {
    size_t ivl = iv_len;
    OSSL_PARAM ccm[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl),
                        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, t.tag_len),
                        OSSL_PARAM_END};
    OSSL_PARAM *before_key = t.mode == Mode::ccm ? ccm : nullptr;
    if (const Dispatch *d = t.direct) {
        prov = ProvCtxPtr(fault_point() ? nullptr : d->newctx(d->provctx), ProvCtxFree{d->freectx});
        if (!prov) return AEAD_ERR_NOMEM;
        if (fault_point() || (before_key != nullptr && d->set_ctx_params(prov.get(), before_key) != 1) ||
            fault_point() ||
            (seal ? d->encrypt_init : d->decrypt_init)(prov.get(), t.key, t.key_len, nullptr, 0, nullptr) != 1) {
            prov.reset();
            return failure_code();
        }
        return 0;
    }
    evp.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
    if (!evp) return AEAD_ERR_NOMEM;
    const int enc = seal ? 1 : 0;
    if (fault_point() || EVP_CipherInit_ex2(evp.get(), t.cipher, nullptr, nullptr, enc, before_key) != 1 ||
        fault_point() || EVP_CipherInit_ex2(evp.get(), nullptr, t.key, nullptr, enc, nullptr) != 1) {
        evp.reset();
        return failure_code();
    }
    return 0;
}

int template_new(Template **out, CipherSource &src, Cipher c, Bytes key, size_t tag_len) noexcept {
    *out = nullptr;
    if (c >= Cipher::aes_128_ccm) [[unlikely]] return family_template_new(out, src, c, key, tag_len);
    const int index = static_cast<int>(c);
    Template *t = nullptr;
    if (const int rc = blank_template(src, index, key, t)) return rc;
    const EVP_CIPHER *cipher = t->cipher;
    const bool copy = context_copy_works(src, index);
    if (const Dispatch *d = t->direct) {
        if (copy && d->dupctx != nullptr) {
            t->keyed_direct = ProvCtxPtr(fault_point() ? nullptr : d->newctx(d->provctx), ProvCtxFree{d->freectx});
            if (!t->keyed_direct) {
                delete t;
                return AEAD_ERR_NOMEM;
            }
            if (fault_point() || d->encrypt_init(t->keyed_direct.get(), key.data, key.size, nullptr, 0, nullptr) != 1) {
                delete t;
                return failure_code();
            }
        } else {
            std::memcpy(t->key, key.data, key.size);
        }
    } else if (copy) {
        t->keyed.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!t->keyed) {
            delete t;
            return AEAD_ERR_NOMEM;
        }
        if (fault_point() || EVP_CipherInit_ex2(t->keyed.get(), cipher, key.data, nullptr, 1, nullptr) != 1) {
            delete t;
            return failure_code();
        }
    } else {
        std::memcpy(t->key, key.data, key.size);
    }
    *out = t;
    return 0;
}

void template_free(Template *t) noexcept { delete t; }

Provenance template_provenance(const Template &t) noexcept { return cipher_provenance(*t.source, t.index); }

namespace {

// A provider context for t: a dupctx of the keyed template, or (where copies are unsafe) a new one keyed
// with the kept key.
int direct_worker(const Template &t, const Dispatch &d, ProvCtxPtr &out) noexcept {
    if (t.keyed_direct) {
        out = ProvCtxPtr(fault_point() ? nullptr : d.dupctx(t.keyed_direct.get()), ProvCtxFree{d.freectx});
        return out ? 0 : failure_code();  // NULL: out of memory, or (some FIPS providers) a refused copy
    }
    out = ProvCtxPtr(fault_point() ? nullptr : d.newctx(d.provctx), ProvCtxFree{d.freectx});
    if (!out) return AEAD_ERR_NOMEM;
    const auto key_len = static_cast<size_t>(EVP_CIPHER_get_key_length(t.cipher));
    if (fault_point() || d.encrypt_init(out.get(), t.key, key_len, nullptr, 0, nullptr) != 1) return failure_code();
    return 0;
}

}  // namespace

namespace {

// A family worker: its first context (for sealing, CCM with 12-byte nonces, so a key the provider refuses
// fails at creation; the others are made on first use), and for XChaCha20-Poly1305 the keyed ChaCha20 context that derives subkeys.
int family_worker_new(const Template &t, Worker **out) noexcept {
    auto *w = new (std::nothrow) Worker;
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->direct = t.direct;
    w->mode = t.mode;
    w->tmpl = &t;
    const size_t first = keyed_variant(t.mode, kDefaultNonce, true);
    int rc = t.mode != Mode::xchacha ? family_context(t, kDefaultNonce, true, w->keyed_ctx[first], w->keyed_pctx[first])
                                     : family_context(t, kDefaultNonce, true, w->ctx, w->pctx);
    // SIV through EVP: the context each call copies the keyed one into (siv.cpp).
    if (rc == 0 && t.mode == Mode::siv && t.direct == nullptr) {
        w->ctx.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!w->ctx) rc = AEAD_ERR_NOMEM;
    }
    if (rc == 0 && t.mode == Mode::xchacha) {
        w->hchacha.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!w->hchacha) rc = AEAD_ERR_NOMEM;
        else if (fault_point() || EVP_CipherInit_ex2(w->hchacha.get(), t.hchacha, t.key, nullptr, 1, nullptr) != 1)
            rc = failure_code();
    }
    if (rc != 0) {
        delete w;
        return rc;
    }
    *out = w;
    return 0;
}

}  // namespace

int worker_new(const Template &t, Worker **out) noexcept {
    *out = nullptr;
    if (t.mode != Mode::stream) [[unlikely]] return family_worker_new(t, out);
    if (const Dispatch *d = t.direct) {
        ProvCtxPtr pctx;
        if (const int rc = direct_worker(t, *d, pctx)) return rc;
        auto *w = new (std::nothrow) Worker;
        if (w == nullptr) return AEAD_ERR_NOMEM;
        w->direct = d;
        w->pctx = std::move(pctx);
        *out = w;
        return 0;
    }
    CipherCtxPtr ctx(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
    if (!ctx) return AEAD_ERR_NOMEM;
    const int ok = t.keyed ? EVP_CIPHER_CTX_copy(ctx.get(), t.keyed.get())
                           : EVP_CipherInit_ex2(ctx.get(), t.cipher, t.key, nullptr, 1, nullptr);
    if (fault_point() || ok != 1) return failure_code();
    auto *w = new (std::nothrow) Worker;
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->ctx = std::move(ctx);
    *out = w;
    return 0;
}

void worker_free(Worker *w) noexcept { delete w; }

}  // namespace aead::shim
