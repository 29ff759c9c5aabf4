// Keyed contexts for the families that keep their key in the template (keyed_family.h, contexts.h).
#include "keyed_family.h"

namespace aead::shim {

int keyed_context(const KeyedTemplate &t, const OSSL_PARAM *before_key, bool seal, CipherCtxPtr &evp,
                  ProvCtxPtr &prov) noexcept {
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

int kept_key_template(Template **out, const Row &row, const Keying &k, Bytes key, size_t tag_len) noexcept {
    auto *t = new_template<KeyedTemplate>(row, k);
    if (t == nullptr) return AEAD_ERR_NOMEM;
    t->tag_len = tag_len;
    t->keep(key);
    *out = t;
    return 0;
}

}  // namespace aead::shim
