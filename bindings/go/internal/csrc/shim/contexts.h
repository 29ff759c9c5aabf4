// The shim's two context types (declared opaque in shim.h): what every family's template and worker
// share. Each family derives its own with the state it needs (gcm_chacha.cpp, ccm.cpp, ...), and its
// FamilyOps makes, runs and frees them. Not polymorphic: shim/ is built without RTTI, and a vtable
// without type information would fail the sanitizers' checks of code built with it (the tests).
#pragma once

#include <cstring>

#include <openssl/crypto.h>

#include "openssl_owners.h"
#include "registry.h"

namespace aead::shim {

struct Template {
    const Row *row = nullptr;
    const FamilyOps *ops = nullptr;
    // libcrypto families: the provider functions workers run on directly, or NULL (EVP; a family not
    // on libcrypto). Its workers have the same.
    const Dispatch *direct = nullptr;
    const EVP_CIPHER *cipher = nullptr;  // the fetched cipher (NULL: a family not on libcrypto)
    CipherSource *source = nullptr;      // where it was fetched

    Template() = default;
    Template(const Template &) = delete;
    Template &operator=(const Template &) = delete;
};

// Random-nonce policy: DRBG output drawn 32 nonces at a time (one RAND_bytes_ex call costs about 300 ns
// on 3.5 and 1 us on 3.0, a copy out of this buffer nothing). Each nonce is taken once, by the one
// thread that holds the worker; a new worker starts empty, so no two workers share bytes. Only the
// families with that policy (AES-GCM, XChaCha20-Poly1305) have one.
struct NoncePool {
    static constexpr size_t kSize = 32 * 12;
    unsigned char bytes[kSize];
    size_t used = kSize;
    uint64_t generation = 0;  // lib's fork generation the pool was drawn in (0: none yet)
};

struct Worker {
    const FamilyOps *ops = nullptr;    // as its template's
    const Dispatch *direct = nullptr;  // as its template's
    // The working context, EVP or direct, of the families that run on one (AES-GCM, ChaCha20-Poly1305,
    // XChaCha20-Poly1305; SIV copies into ctx); the others keep theirs per direction.
    CipherCtxPtr ctx;
    ProvCtxPtr pctx;
    NoncePool *nonces = nullptr;  // the family's pool, if it has the random-nonce policy

    Worker() = default;
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;
};

// A template that keeps its key (the families keyed per worker, per direction or per call; and
// AES-GCM where context copies are unsafe). Cleansed when freed.
struct KeyedTemplate : Template {
    unsigned char key[64] = {};
    size_t key_len = 0;
    size_t tag_len = 16;  // CCM fixes it with the key

    void keep(Bytes k) noexcept {
        std::memcpy(key, k.data, k.size);
        key_len = k.size;
    }
    ~KeyedTemplate() { OPENSSL_cleanse(key, sizeof key); }
};
constexpr bool keys_fit() noexcept {
    for (const Row &r : kRows)
        if (r.key_size > sizeof KeyedTemplate::key) return false;
    return true;
}
static_assert(keys_fit(), "KeyedTemplate::key holds every registered key");

// A new keyed context of t's cipher, EVP (into evp) or direct (into prov) as t runs, keyed for one
// direction (CCM and OCB pick their accelerated block functions, encrypting or decrypting, with the
// key); before_key (may be NULL) is set first (CCM: nonce and tag lengths). 0 or a code. keyed.cpp.
int keyed_context(const KeyedTemplate &t, const OSSL_PARAM *before_key, bool seal, CipherCtxPtr &evp,
                  ProvCtxPtr &prov) noexcept;

}  // namespace aead::shim
