// What each algorithm accepts: key, nonce and tag sizes and length limits.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>

#include "aead.h"
#include "../shim/shim.h"

namespace aead {

// The AEAD families: each has its own nonce and tag rules (below) and its own way through the shim.
enum class Family : uint8_t { gcm, chacha, ccm, gcm_siv, ocb, xchacha, siv, aegis };

struct Algorithm {
    int id;
    shim::Cipher cipher;
    size_t key_size;
    Family family;
    bool gcm;                // AES-GCM: variable nonce and truncated tags allowed (policy NONE only)
    uint64_t max_plaintext;  // bytes (CCM: also bounded by the nonce length, ccm_max_plaintext)
    uint64_t max_aad;        // bytes
    size_t nonce_size;       // aead_nonce_size: the usual nonce length
};

inline constexpr uint64_t kGcmMaxAad = (uint64_t{1} << 61) - 1;  // SP 800-38D: 2^64-1 bits
// CCM and GCM-SIV take payload (and CCM its AAD) in one libcrypto update, whose EVP length is an int.
inline constexpr uint64_t kOneUpdateMax = INT_MAX;
inline constexpr uint64_t kGcmSivMaxAad = uint64_t{1} << 36;  // RFC 8452 section 6
inline constexpr uint64_t kOcbMax = uint64_t{1} << 36;         // 2^32 blocks of 16 bytes per message
inline constexpr uint64_t kAegisMax = (uint64_t{1} << 61) - 1;  // RFC 10032: P_MAX and A_MAX (2^64 - 8 bits)

inline constexpr Algorithm kAlgorithms[] = {
    {AEAD_AES_128_GCM, shim::Cipher::aes_128_gcm, 16, Family::gcm, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, 12},
    {AEAD_AES_192_GCM, shim::Cipher::aes_192_gcm, 24, Family::gcm, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, 12},
    {AEAD_AES_256_GCM, shim::Cipher::aes_256_gcm, 32, Family::gcm, true, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, 12},
    {AEAD_CHACHA20_POLY1305, shim::Cipher::chacha20_poly1305, 32, Family::chacha, false,
     AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT, UINT64_MAX, 12},
    {AEAD_AES_128_CCM, shim::Cipher::aes_128_ccm, 16, Family::ccm, false, kOneUpdateMax, kOneUpdateMax, 12},
    {AEAD_AES_192_CCM, shim::Cipher::aes_192_ccm, 24, Family::ccm, false, kOneUpdateMax, kOneUpdateMax, 12},
    {AEAD_AES_256_CCM, shim::Cipher::aes_256_ccm, 32, Family::ccm, false, kOneUpdateMax, kOneUpdateMax, 12},
    {AEAD_AES_128_GCM_SIV, shim::Cipher::aes_128_gcm_siv, 16, Family::gcm_siv, false, kOneUpdateMax, kGcmSivMaxAad, 12},
    {AEAD_AES_192_GCM_SIV, shim::Cipher::aes_192_gcm_siv, 24, Family::gcm_siv, false, kOneUpdateMax, kGcmSivMaxAad, 12},
    {AEAD_AES_256_GCM_SIV, shim::Cipher::aes_256_gcm_siv, 32, Family::gcm_siv, false, kOneUpdateMax, kGcmSivMaxAad, 12},
    {AEAD_AES_128_OCB, shim::Cipher::aes_128_ocb, 16, Family::ocb, false, kOcbMax, kOcbMax, 12},
    {AEAD_AES_192_OCB, shim::Cipher::aes_192_ocb, 24, Family::ocb, false, kOcbMax, kOcbMax, 12},
    {AEAD_AES_256_OCB, shim::Cipher::aes_256_ocb, 32, Family::ocb, false, kOcbMax, kOcbMax, 12},
    {AEAD_XCHACHA20_POLY1305, shim::Cipher::xchacha20_poly1305, 32, Family::xchacha, false,
     AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT, UINT64_MAX, 24},
    // AES-SIV: max_aad bounds each S2V component; nonce_size is the AEAD form's usual 16 (any is taken).
    {AEAD_AES_128_SIV, shim::Cipher::aes_128_siv, 32, Family::siv, false, kOneUpdateMax, kOneUpdateMax, 16},
    {AEAD_AES_192_SIV, shim::Cipher::aes_192_siv, 48, Family::siv, false, kOneUpdateMax, kOneUpdateMax, 16},
    {AEAD_AES_256_SIV, shim::Cipher::aes_256_siv, 64, Family::siv, false, kOneUpdateMax, kOneUpdateMax, 16},
    // AEGIS (RFC 10032, libaegis): the nonce is as long as the key.
    {AEAD_AEGIS_128L, shim::Cipher::aegis_128l, 16, Family::aegis, false, kAegisMax, kAegisMax, 16},
    {AEAD_AEGIS_256, shim::Cipher::aegis_256, 32, Family::aegis, false, kAegisMax, kAegisMax, 32},
    {AEAD_AEGIS_128X2, shim::Cipher::aegis_128x2, 16, Family::aegis, false, kAegisMax, kAegisMax, 16},
    {AEAD_AEGIS_128X4, shim::Cipher::aegis_128x4, 16, Family::aegis, false, kAegisMax, kAegisMax, 16},
    {AEAD_AEGIS_256X2, shim::Cipher::aegis_256x2, 32, Family::aegis, false, kAegisMax, kAegisMax, 32},
    {AEAD_AEGIS_256X4, shim::Cipher::aegis_256x4, 32, Family::aegis, false, kAegisMax, kAegisMax, 32},
};

inline constexpr size_t kDefaultNonceSize = 12;

// The policy of the AEAD context inside an HPKE context (lib/hpke.cpp): not a public policy value, so
// aead_ctx_new and its siblings refuse it; only the library creates such contexts.
inline constexpr int kPolicyHpke = 1000;
inline constexpr size_t kDefaultTagSize = 16;

constexpr const Algorithm *find_algorithm(int id) noexcept {
    for (const Algorithm &a : kAlgorithms)
        if (a.id == id) return &a;
    return nullptr;
}

inline constexpr size_t kRandomNonceSize = 12;         // AEAD_POLICY_RANDOM_NONCE: 96 bits from the DRBG
inline constexpr size_t kXChaChaRandomNonceSize = 24;  // ... and 192 for XChaCha20-Poly1305
inline constexpr size_t kMaxRandomNonceSize = 32;      // ... and AEGIS's whole nonce: 128 or 256 bits

// AEAD_POLICY_RANDOM_NONCE exists for AES-GCM (Go's NewGCMWithRandomNonce, SP 800-38D section 8.2.2) and
// XChaCha20-Poly1305 (192-bit nonces: what it is for); AEAD_POLICY_QUIC for QUIC's three AEADs (RFC 9001
// section 5.3: no AES-192); the TLS policies for AES-GCM, ChaCha20-Poly1305 and AES-CCM (RFC 6655,
// TLS_AES_128_CCM_SHA256). AES-GCM-SIV, AES-OCB3 and AES-SIV take caller nonces only. AEGIS takes caller
// nonces and random ones (RFC 10032's security considerations: both nonce sizes are meant for it).
// The DTLS policies take the suites DTLS defines: AES-128/256-GCM, ChaCha20-Poly1305 and AES-128/256-CCM
// for DTLS 1.2 (RFC 6655, RFC 7251), and TLS 1.3's for DTLS 1.3 (AES-128-CCM its only CCM). The counter
// policies take the 12-byte-nonce AEADs of IG C.H and RFC 8439; SSH the two of RFC 5647.
constexpr bool valid_policy(const Algorithm &a, int policy) noexcept {
    switch (a.family) {
        case Family::gcm:
        case Family::chacha:
            return policy == AEAD_POLICY_NONE || policy == AEAD_POLICY_TLS12 || policy == AEAD_POLICY_TLS13 ||
                   (policy == AEAD_POLICY_RANDOM_NONCE && a.gcm) ||
                   ((policy == AEAD_POLICY_QUIC || policy == AEAD_POLICY_DTLS12 || policy == AEAD_POLICY_DTLS13) &&
                    a.id != AEAD_AES_192_GCM) ||
                   policy == AEAD_POLICY_COUNTER || policy == AEAD_POLICY_XOR_COUNTER ||
                   (policy == AEAD_POLICY_SSH && (a.id == AEAD_AES_128_GCM || a.id == AEAD_AES_256_GCM)) ||
                   (policy == kPolicyHpke && a.id != AEAD_AES_192_GCM);  // RFC 9180's AEADs
        case Family::ccm:
            return policy == AEAD_POLICY_NONE || policy == AEAD_POLICY_TLS12 || policy == AEAD_POLICY_TLS13 ||
                   (policy == AEAD_POLICY_DTLS12 && a.id != AEAD_AES_192_CCM) ||
                   (policy == AEAD_POLICY_DTLS13 && a.id == AEAD_AES_128_CCM);
        case Family::xchacha:
        case Family::aegis:
            return policy == AEAD_POLICY_NONE || policy == AEAD_POLICY_RANDOM_NONCE;
        case Family::gcm_siv:
        case Family::ocb:
        case Family::siv:
            return policy == AEAD_POLICY_NONE;
    }
    return false;  // GCOVR_EXCL_LINE every Family is a case of the switch above
}

// TLS 1.2 with an explicit 8-byte counter after a 4-byte salt (RFC 5288 GCM, RFC 6655 CCM); otherwise
// (ChaCha20-Poly1305, RFC 7905) the TLS 1.3-style XOR mask.
constexpr bool tls12_explicit_counter(const Algorithm &a) noexcept { return a.gcm || a.family == Family::ccm; }

// RFC 9001 section 6.6, per key: seals (confidentiality) and failed opens (integrity) allowed.
// ChaCha20-Poly1305's confidentiality limit exceeds the 2^62 packet numbers: none.
constexpr uint64_t quic_seal_limit(const Algorithm &a) noexcept {
    return a.gcm ? AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT : UINT64_MAX;
}
constexpr uint64_t quic_forgery_limit(const Algorithm &a) noexcept {
    return a.gcm ? AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT : AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT;
}


// Random-nonce seals allowed per key: 2^32 for 96-bit IVs (SP 800-38D section 8.3); XChaCha20-Poly1305's
// 192-bit nonces have no such limit (a collision after 2^64 seals has probability about 2^-64). AEGIS:
// 2^48 with 128-bit nonces (RFC 10032's security considerations; a collision then has probability about
// 2^-33), none with 256-bit ones (after 2^64 seals about 2^-129).
inline constexpr uint64_t kAegis128RandomSealLimit = uint64_t{1} << 48;
constexpr uint64_t random_seal_limit(const Algorithm &a) noexcept {
    if (a.family == Family::aegis) return a.nonce_size == 16 ? kAegis128RandomSealLimit : UINT64_MAX;
    return a.family == Family::xchacha ? UINT64_MAX : uint64_t{1} << 32;
}

// The per-key limits a policy enforces: QUIC's (RFC 9001 section 6.6), DTLS 1.3's (RFC 9147 section 4.5.3:
// AES-GCM 2^24.5 records and 2^36 forgeries, ChaCha20-Poly1305 2^36 forgeries, AES-128-CCM 2^23.5 of
// each), TLS 1.3 AES-GCM's record limit (RFC 8446 section 5.5), the random policy's budget; else none.
constexpr uint64_t seal_limit(const Algorithm &a, int policy) noexcept {
    switch (policy) {
        case AEAD_POLICY_QUIC: return quic_seal_limit(a);
        case AEAD_POLICY_RANDOM_NONCE: return random_seal_limit(a);
        case AEAD_POLICY_TLS13: return a.gcm ? AEAD_TLS13_AES_GCM_RECORD_LIMIT : UINT64_MAX;
        case AEAD_POLICY_DTLS13:
            return a.gcm ? AEAD_TLS13_AES_GCM_RECORD_LIMIT : a.family == Family::ccm ? AEAD_DTLS13_AES_CCM_LIMIT : UINT64_MAX;
        default: return UINT64_MAX;
    }
}
constexpr uint64_t forgery_limit(const Algorithm &a, int policy) noexcept {
    if (policy == AEAD_POLICY_QUIC) return quic_forgery_limit(a);
    if (policy == AEAD_POLICY_DTLS13) return a.family == Family::ccm ? AEAD_DTLS13_AES_CCM_LIMIT : AEAD_DTLS13_INTEGRITY_LIMIT;
    return UINT64_MAX;
}

// The bytes that precede the ciphertext in a sealed message: the drawn nonce, for the random policy.
constexpr size_t nonce_prefix_size(const Algorithm &a, int policy) noexcept {
    if (policy != AEAD_POLICY_RANDOM_NONCE) return 0;
    if (a.family == Family::aegis) return a.nonce_size;  // the whole nonce: 16 or 32
    return a.family == Family::xchacha ? kXChaChaRandomNonceSize : kRandomNonceSize;
}

// AES-GCM with no policy: 4, 8 and 12..16 (SP 800-38D section 5.2.1.2); AES-CCM with no policy: 4..16
// even (SP 800-38C, RFC 3610); AEGIS 16 or 32 under both its policies (RFC 10032). Everything else: 16.
inline constexpr size_t kAegisLongTag = AEAD_AEGIS_MAX_TAG;
constexpr bool valid_tag_size(const Algorithm &a, int policy, size_t tag) noexcept {
    if (a.family == Family::aegis) return tag == kDefaultTagSize || tag == kAegisLongTag;
    // DTLS 1.2's AES-CCM_8 suites (RFC 6655, RFC 7251: the IoT ones) have 8-byte tags.
    if (policy == AEAD_POLICY_DTLS12 && a.family == Family::ccm) return tag == kDefaultTagSize || tag == 8;
    if (policy != AEAD_POLICY_NONE) return tag == kDefaultTagSize;
    if (a.family == Family::ccm) return tag >= 4 && tag <= 16 && tag % 2 == 0;
    if (!a.gcm) return tag == kDefaultTagSize;
    return tag == 4 || tag == 8 || (tag >= 12 && tag <= 16);
}

// Nonce lengths with no policy: AES-GCM 1..128 bytes (OpenSSL 3 refuses longer IVs), AES-CCM 7..13
// (SP 800-38C: 15 - L with L = 2..8), AES-OCB3 1..15 (RFC 7253: at most 120 bits), XChaCha20-Poly1305
// 24, AES-SIV 0 (none) up to one update, AEGIS its 16 or 32, the others 12. The random policy: none (the library draws it); the TLS policies: 12.
constexpr size_t min_nonce_size(const Algorithm &a, int policy) noexcept {
    if (policy == AEAD_POLICY_RANDOM_NONCE) return 0;
    if (policy != AEAD_POLICY_NONE) return kDefaultNonceSize;
    switch (a.family) {
        case Family::gcm: return 1;
        case Family::ccm: return 7;
        case Family::ocb: return 1;
        case Family::xchacha: return 24;
        case Family::siv: return 0;
        case Family::aegis: return a.nonce_size;
        default: return kDefaultNonceSize;
    }
}
constexpr size_t max_nonce_size(const Algorithm &a, int policy) noexcept {
    if (policy == AEAD_POLICY_RANDOM_NONCE) return 0;
    if (policy != AEAD_POLICY_NONE) return kDefaultNonceSize;
    switch (a.family) {
        case Family::gcm: return AEAD_MAX_NONCE;
        case Family::ccm: return 13;
        case Family::ocb: return 15;
        case Family::xchacha: return 24;
        case Family::siv: return kOneUpdateMax;
        case Family::aegis: return a.nonce_size;
        default: return kDefaultNonceSize;
    }
}

// AES-CCM's message length field has L = 15 - nonce_len bytes: a message must be below 2^(8L) bytes
// (and, being fed in one update, at most INT_MAX).
constexpr uint64_t ccm_max_plaintext(size_t nonce_len) noexcept {
    const size_t l = 15 - nonce_len;
    const uint64_t field = l >= 8 ? UINT64_MAX : (uint64_t{1} << (8 * l)) - 1;
    return field < kOneUpdateMax ? field : kOneUpdateMax;
}

// AES-SIV: the synthetic IV (its tag) leads the output, where the random policy's nonce would be.
inline constexpr size_t kSivSize = 16;
// RFC 5297 section 7: S2V takes at most 127 strings, the plaintext one of them.
inline constexpr size_t kSivMaxComponents = AEAD_SIV_MAX_COMPONENTS;

}  // namespace aead
