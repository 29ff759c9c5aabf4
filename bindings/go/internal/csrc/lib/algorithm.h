// What each algorithm accepts: key, nonce and tag sizes and length limits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aead.h"
#include "../shim/shim.h"

namespace aead {

struct Algorithm {
    int id;
    shim::Cipher cipher;
    size_t key_size;
    bool gcm;                // AES-GCM: variable nonce and truncated tags allowed (policy NONE only)
    uint64_t max_plaintext;  // bytes
    uint64_t max_aad;        // bytes
};

inline constexpr uint64_t kGcmMaxAad = (uint64_t{1} << 61) - 1;  // SP 800-38D: 2^64-1 bits

inline constexpr Algorithm kAlgorithms[] = {
    {AEAD_AES_128_GCM, shim::Cipher::aes_128_gcm, 16, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad},
    {AEAD_AES_192_GCM, shim::Cipher::aes_192_gcm, 24, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad},
    {AEAD_AES_256_GCM, shim::Cipher::aes_256_gcm, 32, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad},
    {AEAD_CHACHA20_POLY1305, shim::Cipher::chacha20_poly1305, 32, false, AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT,
     UINT64_MAX},
};

inline constexpr size_t kDefaultNonceSize = 12;
inline constexpr size_t kDefaultTagSize = 16;

constexpr const Algorithm *find_algorithm(int id) noexcept {
    for (const Algorithm &a : kAlgorithms)
        if (a.id == id) return &a;
    return nullptr;
}

inline constexpr size_t kRandomNonceSize = 12;  // AEAD_POLICY_RANDOM_NONCE: 96 bits from the DRBG

// AEAD_POLICY_RANDOM_NONCE exists for AES-GCM only (Go's NewGCMWithRandomNonce, SP 800-38D section 8.2.2);
// AEAD_POLICY_QUIC for QUIC's three AEADs (RFC 9001 section 5.3: no AES-192).
constexpr bool valid_policy(const Algorithm &a, int policy) noexcept {
    return policy == AEAD_POLICY_NONE || policy == AEAD_POLICY_TLS12 || policy == AEAD_POLICY_TLS13 ||
           (policy == AEAD_POLICY_RANDOM_NONCE && a.gcm) ||
           (policy == AEAD_POLICY_QUIC && a.id != AEAD_AES_192_GCM);
}

// RFC 9001 section 6.6, per key: seals (confidentiality) and failed opens (integrity) allowed.
// ChaCha20-Poly1305's confidentiality limit exceeds the 2^62 packet numbers: none.
constexpr uint64_t quic_seal_limit(const Algorithm &a) noexcept {
    return a.gcm ? AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT : UINT64_MAX;
}
constexpr uint64_t quic_forgery_limit(const Algorithm &a) noexcept {
    return a.gcm ? AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT : AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT;
}

// The bytes that precede the ciphertext in a sealed message: the drawn nonce, for the random policy.
constexpr size_t nonce_prefix_size(int policy) noexcept {
    return policy == AEAD_POLICY_RANDOM_NONCE ? kRandomNonceSize : 0;
}

// AES-GCM with no policy: 4, 8 and 12..16 (SP 800-38D section 5.2.1.2). Everything else: 16.
constexpr bool valid_tag_size(const Algorithm &a, int policy, size_t tag) noexcept {
    if (!a.gcm || policy != AEAD_POLICY_NONE) return tag == kDefaultTagSize;
    return tag == 4 || tag == 8 || (tag >= 12 && tag <= 16);
}

// Nonce lengths: AES-GCM with no policy 1..128 bytes (OpenSSL 3 refuses longer IVs); the random policy
// none (the library draws it); everything else 12.
constexpr size_t min_nonce_size(const Algorithm &a, int policy) noexcept {
    if (policy == AEAD_POLICY_RANDOM_NONCE) return 0;
    return a.gcm && policy == AEAD_POLICY_NONE ? 1 : kDefaultNonceSize;
}
constexpr size_t max_nonce_size(const Algorithm &a, int policy) noexcept {
    if (policy == AEAD_POLICY_RANDOM_NONCE) return 0;
    return a.gcm && policy == AEAD_POLICY_NONE ? AEAD_MAX_NONCE : kDefaultNonceSize;
}

}  // namespace aead
