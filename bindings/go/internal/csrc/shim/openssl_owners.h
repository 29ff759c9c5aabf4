// RAII owners for the OpenSSL objects the shim holds, and the error-queue helper.
#pragma once

#include <memory>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "aead.h"
#include "shim.h"

namespace aead::shim {

struct CipherCtxFree {
    void operator()(EVP_CIPHER_CTX *c) const noexcept { EVP_CIPHER_CTX_free(c); }
};
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree>;

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

// The fetched cipher for one algorithm and property query, fetched once per process (never through
// EVP_aes_*_gcm(), whose implicit fetch on every init costs time and contends on a lock). NULL if no
// provider offers it for that query.
const EVP_CIPHER *fetched_cipher(CipherSource &src, int cipher_index) noexcept;

// Whether EVP_CIPHER_CTX_copy yields an independent, working AEAD context for that source's cipher
// (broken before 3.0.13 / 3.1.5; refused by some FIPS providers).
bool context_copy_works(CipherSource &src, int cipher_index) noexcept;

// Which provider made a source's cipher, and whether it is a FIPS provider.
Provenance cipher_provenance(CipherSource &src, int cipher_index) noexcept;

}  // namespace aead::shim
