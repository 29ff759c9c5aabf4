// The families' libcrypto steps, one way or the other: through an EVP_CIPHER_CTX (Evp) or directly on
// a provider context with its implementation's functions (Direct). one_shot.cpp and siv.cpp drive them.
#pragma once

#include <climits>

#include "contexts.h"

namespace aead::shim {

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
// stream ciphers' providers only ask for at least the input's length.
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

[[gnu::cold]] inline int auth_failure() noexcept {
    ERR_clear_error();  // CCM and GCM-SIV push an error for a wrong tag; nothing of this call outlives it
    return AEAD_ERR_AUTH;
}

}  // namespace aead::shim
