// Keyed templates and the working contexts derived from them.
#include <cstring>
#include <new>

#include "contexts.h"
#include "fault_injection.h"

namespace aead::shim {

int template_new(Template **out, CipherSource &src, Cipher c, Bytes key) noexcept {
    *out = nullptr;
    const int index = static_cast<int>(c);
    const EVP_CIPHER *cipher = fetched_cipher(src, index);
    if (cipher == nullptr) return AEAD_ERR_UNSUPPORTED;
    if (key.size > sizeof(Template::key) || static_cast<int>(key.size) != EVP_CIPHER_get_key_length(cipher))
        return AEAD_ERR_KEY_SIZE;
    auto *t = new (std::nothrow) Template;
    if (t == nullptr) return AEAD_ERR_NOMEM;
    t->cipher = cipher;
    t->source = &src;
    t->index = index;
    t->direct = cipher_dispatch(src, index);
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

int worker_new(const Template &t, Worker **out) noexcept {
    *out = nullptr;
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
