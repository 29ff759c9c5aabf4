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
};

}  // namespace aead::shim
