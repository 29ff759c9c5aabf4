// The shim's two context types (declared opaque in shim.h).
#pragma once

#include <array>

#include <openssl/crypto.h>

#include "openssl_owners.h"
#include "shim.h"

namespace aead::shim {

// How a template's cipher is driven: the 1.0 stream AEADs (AES-GCM, ChaCha20-Poly1305) on the hot path,
// or one of the families with steps of their own (one_shot.cpp, "Families").
enum class Mode : uint8_t { stream, ccm, gcm_siv, ocb, xchacha, siv };

// The families' keyed contexts: one per direction (OpenSSL's CCM and OCB pick their accelerated block
// functions, encrypting or decrypting, when the key is set), and for AES-CCM per nonce length 7..13 too
// (L = 15 - n is fixed with the key). XChaCha20-Poly1305 re-keys per call and needs one.
inline constexpr size_t kCcmMinNonce = 7;
inline constexpr size_t kKeyedVariants = 14;
constexpr size_t keyed_variant(Mode m, size_t nonce_len, bool seal) noexcept {
    return (m == Mode::ccm ? (nonce_len - kCcmMinNonce) * 2 : 0) + (seal ? 0 : 1);
}

// Each runs one of two ways, fixed when the template is made: through EVP (an EVP_CIPHER_CTX), or
// directly on the cipher implementation's provider functions (`direct` set: a provider context, the
// object EVP_CIPHER_CTX wraps, driven with the calls EVP would make; docs/libcrypto.md).
struct Template {
    const EVP_CIPHER *cipher = nullptr;
    CipherSource *source = nullptr;  // where cipher was fetched, and cipher's index there
    int index = 0;
    const Dispatch *direct = nullptr;  // set: workers are provider contexts run through these functions
    CipherCtxPtr keyed;          // EVP: set when workers are copies of it (the usual case)
    ProvCtxPtr keyed_direct;     // direct: the same, a keyed provider context that workers are dupctx'd from
    unsigned char key[64] = {};  // set only where context copies are unsafe, and for the families (Mode)
    Mode mode = Mode::stream;
    size_t key_len = 0;                // the families: the length of key
    size_t tag_len = 16;               // the families: the tag (CCM fixes it with the key)
    const EVP_CIPHER *hchacha = nullptr;  // XChaCha20-Poly1305: "ChaCha20", for the HChaCha20 subkey

    Template() = default;
    Template(const Template &) = delete;
    Template &operator=(const Template &) = delete;
    ~Template() { OPENSSL_cleanse(key, sizeof key); }  // keyed's provider context cleanses itself
};

struct Worker {
    const Dispatch *direct = nullptr;  // as its template's
    CipherCtxPtr ctx;                  // EVP
    ProvCtxPtr pctx;                   // direct
    Mode mode = Mode::stream;          // as its template's
    const Template *tmpl = nullptr;    // the families: where further contexts are keyed from
    // CCM, GCM-SIV, OCB, EVP: by keyed_variant, made on first use; SIV: [0] is never run, only copied
    std::array<CipherCtxPtr, kKeyedVariants> keyed_ctx;
    std::array<ProvCtxPtr, kKeyedVariants> keyed_pctx;   // the same, direct
    CipherCtxPtr hchacha;              // XChaCha20-Poly1305: ChaCha20 keyed with the key (EVP)
    size_t ocb_iv_len[2] = {12, 12};   // OCB3: the IV length its seal and open contexts are set to
    size_t iv_len = 12;  // the IV length the context is set to; changed only when a nonce's differs
    // Random-nonce policy: DRBG output drawn 32 nonces at a time (one RAND_bytes_ex call costs about
    // 300 ns on 3.5 and 1 us on 3.0, a copy out of this buffer nothing). Each nonce is taken once, by the
    // one thread that holds the worker; a new worker starts empty, so no two workers share bytes.
    static constexpr size_t kNoncePool = 32 * 12;
    unsigned char nonce_pool[kNoncePool];
    size_t pool_used = kNoncePool;
    uint64_t pool_generation = 0;  // lib's fork generation the pool was drawn in (0: none yet)
};

// A family's keyed working context (EVP into evp, or direct into prov, as t runs): for CCM with the nonce
// length iv_len and the template's tag length set before the key, and keyed for one direction (seal), as
// CCM needs. 0 or a code.
int family_context(const Template &t, size_t iv_len, bool seal, CipherCtxPtr &evp, ProvCtxPtr &prov) noexcept;

}  // namespace aead::shim
