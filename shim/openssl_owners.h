// RAII owners for the OpenSSL objects the shim holds, and the error-queue helper.
#pragma once

#include <memory>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "aead.h"
#include "shim.h"

namespace aead::shim {

struct CipherCtxFree {
    void operator()(EVP_CIPHER_CTX *c) const noexcept { EVP_CIPHER_CTX_free(c); }
};
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree>;

// The key-agreement and KDF objects of shim/dh_hkdf.cpp (BIGNUMs hold private scalars: cleared on free).
template <typename T, void (*Free)(T *)>
struct FreeWith {
    void operator()(T *p) const noexcept { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, FreeWith<EVP_PKEY, EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, FreeWith<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using KdfPtr = std::unique_ptr<EVP_KDF, FreeWith<EVP_KDF, EVP_KDF_free>>;
using KdfCtxPtr = std::unique_ptr<EVP_KDF_CTX, FreeWith<EVP_KDF_CTX, EVP_KDF_CTX_free>>;

// A cipher implementation's own functions, taken from its provider's OSSL_DISPATCH table: the functions
// EVP_Cipher* would call for it, called without the EVP layer in between (docs/libcrypto.md). Found once
// per source and cipher (cipher_dispatch) and kept for the process, as the fetched cipher that holds
// the provider (and so its code) loaded is.
struct Dispatch {
    void *provctx = nullptr;  // OSSL_PROVIDER_get0_provider_ctx: what EVP creates its contexts with
    OSSL_FUNC_cipher_newctx_fn *newctx = nullptr;
    OSSL_FUNC_cipher_freectx_fn *freectx = nullptr;
    OSSL_FUNC_cipher_dupctx_fn *dupctx = nullptr;  // optional: without it workers are keyed afresh
    OSSL_FUNC_cipher_encrypt_init_fn *encrypt_init = nullptr;
    OSSL_FUNC_cipher_decrypt_init_fn *decrypt_init = nullptr;
    OSSL_FUNC_cipher_update_fn *update = nullptr;
    OSSL_FUNC_cipher_final_fn *final = nullptr;
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params = nullptr;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params = nullptr;
};

// Owns one provider-side cipher context (what newctx or dupctx returned); freectx cleanses it.
struct ProvCtxFree {
    OSSL_FUNC_cipher_freectx_fn *freectx = nullptr;
    void operator()(void *c) const noexcept {
        if (c != nullptr) freectx(c);
    }
};
using ProvCtxPtr = std::unique_ptr<void, ProvCtxFree>;

// Turns a libcrypto failure into a code and drains the calling thread's error queue, so nothing this
// call pushed outlives it (the queue is per thread and a goroutine may move threads between calls).
// The newest entry is this call's own: libcrypto pushed it as the failing call returned. The queue is
// not cleared on entry to every call, which would cost a thread-local lookup per operation.
inline int failure_code() noexcept {
    const unsigned long e = ERR_peek_last_error();
    const int code = (e != 0 && ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE) ? AEAD_ERR_NOMEM : AEAD_ERR_CRYPTO;
    ERR_clear_error();
    return code;
}

// The fetched cipher of a slot (registry.h) for one property query, fetched once per process (never through
// EVP_aes_*_gcm(), whose implicit fetch on every init costs time and contends on a lock). NULL if no
// provider offers it for that query.
const EVP_CIPHER *fetched_cipher(CipherSource &src, int slot) noexcept;

// The same for a QUIC header-protection cipher (AES-ECB, ChaCha20).
const EVP_CIPHER *fetched_hp_cipher(CipherSource &src, HpCipher cipher) noexcept;

// Whether EVP_CIPHER_CTX_copy yields an independent, working AEAD context for that source's cipher
// (broken before 3.0.13 / 3.1.5; refused by some FIPS providers).
bool context_copy_works(CipherSource &src, int slot) noexcept;

// The dispatch table to run a source's cipher with directly, or NULL where it runs through EVP: the
// provider is not one of OpenSSL's own (default, fips), its table lacks a function libaead calls, the
// implementation cannot be identified uniquely, a known-answer check of the direct calls against EVP
// failed, or AEAD_DISPATCH=evp was set when libaead was loaded. Decided once per source and cipher (a
// probe that fails for want of memory is not remembered: NULL this time, asked again next time).
const Dispatch *cipher_dispatch(CipherSource &src, int slot) noexcept;

// Whether AEAD_DISPATCH=evp was set in the environment when libaead was loaded.
bool dispatch_forced_evp() noexcept;

// Which provider made a source's cipher, and whether it is a FIPS provider.
Provenance cipher_provenance(CipherSource &src, int slot) noexcept;

// Whether a source's query selects FIPS providers' algorithms (fips=yes, or a library context whose
// default properties have it): its AES-128-ECB comes from a FIPS provider, or no provider offers it. The
// families libaead runs without libcrypto (AEGIS), which no FIPS provider has, are refused under it.
bool query_selects_fips(CipherSource &src) noexcept;

}  // namespace aead::shim
