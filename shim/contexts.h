// The shim's two context types (declared opaque in shim.h).
#pragma once

#include <openssl/crypto.h>

#include "openssl_owners.h"
#include "shim.h"

namespace aead::shim {

struct Template {
    const EVP_CIPHER *cipher = nullptr;
    CipherSource *source = nullptr;  // where cipher was fetched, and cipher's index there
    int index = 0;
    CipherCtxPtr keyed;          // set when workers are copies of it (the usual case)
    unsigned char key[32] = {};  // set only where context copies are unsafe (the cipher fixes its length)

    Template() = default;
    Template(const Template &) = delete;
    Template &operator=(const Template &) = delete;
    ~Template() { OPENSSL_cleanse(key, sizeof key); }  // keyed's provider context cleanses itself
};

struct Worker {
    CipherCtxPtr ctx;
    size_t iv_len = 12;  // the IV length the context is set to; changed only when a nonce's differs
    // Random-nonce policy: DRBG output drawn 32 nonces at a time (one RAND_bytes_ex call costs about
    // 300 ns on 3.5 and 1 us on 3.0, a copy out of this buffer nothing). Each nonce is taken once, by the
    // one thread that holds the worker; a new worker starts empty, so no two workers share bytes.
    static constexpr size_t kNoncePool = 32 * 12;
    unsigned char nonce_pool[kNoncePool];
    size_t pool_used = kNoncePool;
    uint64_t pool_generation = 0;  // lib's fork generation the pool was drawn in (0: none yet)
};

}  // namespace aead::shim
