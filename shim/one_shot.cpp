// The one-shot seal and open on a keyed working context: set the IV, feed AAD and data, finish, tag.
#include <algorithm>
#include <climits>
#include <cstring>

#include <openssl/rand.h>

#include "contexts.h"
#include "fault_injection.h"

namespace aead::shim {

namespace {

// EVP_CipherUpdate takes an int length: larger inputs go in chunks (GCM and ChaCha20-Poly1305 stream,
// so every chunk's output is exactly its input length). Zero-length input is skipped, never passed.
constexpr size_t kChunk = size_t{1} << 30;

// Inlined, like start(): this is the hot path, and out-of-line helpers cost a tenth of a small seal.
[[gnu::always_inline]] inline bool feed(EVP_CIPHER_CTX *c, uint8_t *out, Bytes in) noexcept {
    int written = 0;
    if (in.size <= kChunk) [[likely]] {  // one update: the common case, without the loop's bookkeeping
        if (in.size == 0) return true;
        if (fault_point() || EVP_CipherUpdate(c, out, &written, in.data, static_cast<int>(in.size)) != 1) return false;
        return out == nullptr || static_cast<size_t>(written) == in.size;
    }
    while (in.size != 0) {
        const size_t n = std::min(in.size, kChunk);
        if (fault_point() || EVP_CipherUpdate(c, out, &written, in.data, static_cast<int>(n)) != 1) return false;
        if (out != nullptr) {
            if (static_cast<size_t>(written) != n) return false;
            out += n;
        }
        in.data += n;
        in.size -= n;
    }
    return true;
}

// Sets the nonce (changing the IV length first if this nonce's differs) and the direction.
[[gnu::always_inline]] inline bool start(Worker &w, Bytes nonce, int enc) noexcept {
    if (nonce.size != w.iv_len) {
        size_t len = nonce.size;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_END};
        if (fault_point() || EVP_CIPHER_CTX_set_params(w.ctx.get(), p) != 1) return false;
        w.iv_len = nonce.size;
    }
    return !fault_point() && EVP_CipherInit_ex2(w.ctx.get(), nullptr, nullptr, nonce.data, enc, nullptr) == 1;
}

}  // namespace

int seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    EVP_CIPHER_CTX *c = w.ctx.get();
    int final_len = 0;
    if (!start(w, nonce, 1) || !feed(c, nullptr, aad) || !feed(c, out, in) ||
        fault_point() || EVP_CipherFinal_ex(c, out + in.size, &final_len) != 1 || final_len != 0)
        return failure_code();
    // get_params with the tag param is measurably cheaper than the EVP_CTRL_AEAD_GET_TAG ctrl in 3.0.
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + in.size, tag_len),
                      OSSL_PARAM_END};
    if (fault_point() || EVP_CIPHER_CTX_get_params(c, p) != 1) return failure_code();
    return 0;
}

int open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    EVP_CIPHER_CTX *c = w.ctx.get();
    // The tag must be set after the decrypting init and before the final call.
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                        const_cast<uint8_t *>(tag.data), tag.size),
                      OSSL_PARAM_END};
    if (!start(w, nonce, 0) || fault_point() || EVP_CIPHER_CTX_set_params(c, p) != 1 || !feed(c, nullptr, aad) ||
        !feed(c, out, ciphertext))
        return failure_code();
    uint8_t none = 0;  // the final call writes nothing, but out may be NULL for an empty message
    int final_len = 0;
    if (fault_point()) return failure_code();
    // Every step before succeeded, so a failing final call is the tag comparison (GCM and
    // ChaCha20-Poly1305 push no error for it). The queue is not consulted: it may hold the caller's
    // own earlier errors, which must not turn a forgery into AEAD_ERR_CRYPTO.
    if (EVP_CipherFinal_ex(c, out != nullptr ? out + ciphertext.size : &none, &final_len) != 1) return AEAD_ERR_AUTH;
    return 0;
}

// From the library context's public DRBG: under a FIPS configuration the FIPS provider's (SP 800-90A),
// which IG C.H scenario 2 asks of a random 96-bit GCM IV. Drawn here rather than by the provider's own IV
// generation, which OpenSSL 3 performs only on a context that never had an IV (a fresh context, and so
// an allocation, per seal). Buffered per worker (contexts.h).
int random_nonce(Worker &w, uint8_t *out, size_t n, uint64_t generation) noexcept {
    if (n > Worker::kNoncePool) return AEAD_ERR_CRYPTO;
    if (w.pool_generation != generation) [[unlikely]] {  // a forked copy of the pool: the parent has it too
        OPENSSL_cleanse(w.nonce_pool, Worker::kNoncePool);
        w.pool_used = Worker::kNoncePool;
        w.pool_generation = generation;
    }
    // OpenSSL 3's DRBGs reseed when they see a new process id, so the refill below differs from the parent's.
    if (Worker::kNoncePool - w.pool_used < n) {
        if (fault_point() || RAND_bytes_ex(nullptr, w.nonce_pool, Worker::kNoncePool, 0) != 1) return failure_code();
        w.pool_used = 0;
    }
    std::memcpy(out, w.nonce_pool + w.pool_used, n);
    OPENSSL_cleanse(w.nonce_pool + w.pool_used, n);  // a used nonce leaves no copy behind
    w.pool_used += n;
    return 0;
}

}  // namespace aead::shim
