// shim.h's templates and workers: each entry finds the algorithm's row (registry.h), or the template's
// or worker's family, and calls its FamilyOps. Nothing here knows a family.
#include <cstring>

#include <openssl/rand.h>

#include "family_ops.h"

namespace aead::shim {

int template_new(Template **out, CipherSource &src, const Row &row, Bytes key, size_t tag_len) noexcept {
    *out = nullptr;
    Keying k;
    k.source = &src;
    const bool libcrypto = row.name != nullptr;  // a row with no provider name runs on no libcrypto cipher
    if (libcrypto) {
        k.cipher = fetched_cipher(src, row.slot);
        if (k.cipher == nullptr) return AEAD_ERR_UNSUPPORTED;
    }
    if (key.size != row.key_size) return AEAD_ERR_KEY_SIZE;  // lib/ refuses other key sizes first (algorithm.h)
    if (libcrypto) {
        k.direct = cipher_dispatch(src, row.slot);
        k.copy_works = row.ops->uses_copies && context_copy_works(src, row.slot);
    }
    return row.ops->template_new(out, row, k, key, tag_len);
}

int template_new(Template **out, CipherSource &src, Cipher c, Bytes key, size_t tag_len) noexcept {
    return template_new(out, src, row(c), key, tag_len);
}

void template_free(Template *t) noexcept {
    if (t != nullptr) t->ops->frees.template_free(t);
}

Provenance template_provenance(const Template &t) noexcept { return t.ops->provenance(t); }

int worker_new(const Template &t, Worker **out) noexcept {
    *out = nullptr;
    return t.ops->worker_new(t, out);
}

void worker_free(Worker *w) noexcept {
    if (w != nullptr) w->ops->frees.worker_free(w);
}

int seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return w.ops->seal(w, nonce, aad, in, out, tag_len);
}

int open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return w.ops->open(w, nonce, aad, ciphertext, tag, out);
}

// From the library context's public DRBG: under a FIPS configuration the FIPS provider's (SP 800-90A),
// which IG C.H scenario 2 asks of a random 96-bit GCM IV. Drawn here rather than by the provider's own IV
// generation, which OpenSSL 3 performs only on a context that never had an IV (a fresh context, and so
// an allocation, per seal). Buffered per worker (contexts.h).
int random_nonce(Worker &w, uint8_t *out, size_t n, uint64_t generation) noexcept {
    NoncePool *pool = w.nonces;
    if (pool == nullptr || n > NoncePool::kSize) return AEAD_ERR_CRYPTO;  // lib/ never asks one without the policy
    if (pool->generation != generation) [[unlikely]] {  // a forked copy of the pool: the parent has it too
        OPENSSL_cleanse(pool->bytes, NoncePool::kSize);
        pool->used = NoncePool::kSize;
        pool->generation = generation;
    }
    // OpenSSL 3's DRBGs reseed when they see a new process id, so the refill below differs from the parent's.
    if (NoncePool::kSize - pool->used < n) {
        if (fault_point() || RAND_bytes_ex(nullptr, pool->bytes, NoncePool::kSize, 0) != 1) return failure_code();
        pool->used = 0;
    }
    std::memcpy(out, pool->bytes + pool->used, n);
    OPENSSL_cleanse(pool->bytes + pool->used, n);  // a used nonce leaves no copy behind
    pool->used += n;
    return 0;
}

}  // namespace aead::shim
