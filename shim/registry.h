// The algorithm registry, in the shape of BoringSSL's EVP_AEAD: one row per algorithm with what defines
// it and the family (FamilyOps, family_ops.h) that runs it. No OpenSSL type here: a row names its
// family by pointer only, so the table can be read where libcrypto is not (tests/test_family.cpp checks
// it against lib/algorithm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aead.h"
#include "shim.h"

namespace aead::shim {

struct FamilyOps;  // family_ops.h
extern const FamilyOps kGcmChaChaFamily;  // gcm_chacha.cpp: AES-GCM and ChaCha20-Poly1305
extern const FamilyOps kCcmFamily;        // ccm.cpp
extern const FamilyOps kGcmSivFamily;     // gcm_siv.cpp
extern const FamilyOps kOcbFamily;        // ocb.cpp
extern const FamilyOps kXChaChaFamily;    // xchacha.cpp
extern const FamilyOps kSivFamily;        // siv.cpp
extern const FamilyOps kAegisFamily;      // aegis.cpp: libaegis, no libcrypto cipher

// The tag lengths an algorithm takes with no policy, one bit per length (bit n: n bytes; up to 63).
constexpr uint64_t tag_bits(size_t from, size_t to, size_t step) noexcept {
    uint64_t bits = 0;
    for (size_t n = from; n <= to; n += step) bits |= uint64_t{1} << n;
    return bits;
}
inline constexpr uint64_t kTag16 = tag_bits(16, 16, 1);
inline constexpr uint64_t kGcmTags = tag_bits(4, 4, 1) | tag_bits(8, 8, 1) | tag_bits(12, 16, 1);  // SP 800-38D 5.2.1.2
inline constexpr uint64_t kCcmTags = tag_bits(4, 16, 2);                                           // SP 800-38C, RFC 3610
inline constexpr uint64_t kAegisTags = tag_bits(16, 16, 1) | tag_bits(32, 32, 1);                  // RFC 10032: 128 or 256 bits

inline constexpr uint64_t kGcmMaxAad = (uint64_t{1} << 61) - 1;  // SP 800-38D: 2^64-1 bits
// CCM, GCM-SIV and SIV take payload (and CCM its AAD) in one libcrypto update, whose EVP length is an int.
inline constexpr uint64_t kOneUpdateMax = 0x7fffffff;
inline constexpr uint64_t kGcmSivMaxAad = uint64_t{1} << 36;  // RFC 8452 section 6
inline constexpr uint64_t kOcbMax = uint64_t{1} << 36;         // 2^32 blocks of 16 bytes per message
inline constexpr uint64_t kAegisMax = (uint64_t{1} << 61) - 1;  // RFC 10032: P_MAX and A_MAX, 2^64 - 8 bits

struct Row {
    int id;                  // AEAD_* (include/aead.h)
    Cipher cipher;           // shim.h's name for it: its index in kRows
    const char *name;        // the provider's name for the cipher it runs on (fetched by it); NULL: none (AEGIS)
    int slot;                // its place in a CipherSource: fetched once per slot (XChaCha20-Poly1305 shares ChaCha20-Poly1305's); -1: none
    size_t key_size;         // bytes
    size_t nonce_min, nonce_max, nonce_usual;  // with no policy; usual: aead_nonce_size
    uint64_t tags;           // tag lengths with no policy (tag_bits)
    uint64_t max_plaintext;  // bytes (CCM: also bounded by the nonce length)
    uint64_t max_aad;        // bytes (SIV: per S2V component)
    const FamilyOps *ops;
};

inline constexpr Row kRows[] = {
    {AEAD_AES_128_GCM, Cipher::aes_128_gcm, "AES-128-GCM", 0, 16, 1, AEAD_MAX_NONCE, 12, kGcmTags, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, &kGcmChaChaFamily},
    {AEAD_AES_192_GCM, Cipher::aes_192_gcm, "AES-192-GCM", 1, 24, 1, AEAD_MAX_NONCE, 12, kGcmTags, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, &kGcmChaChaFamily},
    {AEAD_AES_256_GCM, Cipher::aes_256_gcm, "AES-256-GCM", 2, 32, 1, AEAD_MAX_NONCE, 12, kGcmTags, AEAD_GCM_MAX_PLAINTEXT, kGcmMaxAad, &kGcmChaChaFamily},
    {AEAD_CHACHA20_POLY1305, Cipher::chacha20_poly1305, "ChaCha20-Poly1305", 3, 32, 12, 12, 12, kTag16,
     AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT, UINT64_MAX, &kGcmChaChaFamily},
    {AEAD_AES_128_CCM, Cipher::aes_128_ccm, "AES-128-CCM", 4, 16, 7, 13, 12, kCcmTags, kOneUpdateMax, kOneUpdateMax, &kCcmFamily},
    {AEAD_AES_192_CCM, Cipher::aes_192_ccm, "AES-192-CCM", 5, 24, 7, 13, 12, kCcmTags, kOneUpdateMax, kOneUpdateMax, &kCcmFamily},
    {AEAD_AES_256_CCM, Cipher::aes_256_ccm, "AES-256-CCM", 6, 32, 7, 13, 12, kCcmTags, kOneUpdateMax, kOneUpdateMax, &kCcmFamily},
    {AEAD_AES_128_GCM_SIV, Cipher::aes_128_gcm_siv, "AES-128-GCM-SIV", 7, 16, 12, 12, 12, kTag16, kOneUpdateMax, kGcmSivMaxAad, &kGcmSivFamily},
    {AEAD_AES_192_GCM_SIV, Cipher::aes_192_gcm_siv, "AES-192-GCM-SIV", 8, 24, 12, 12, 12, kTag16, kOneUpdateMax, kGcmSivMaxAad, &kGcmSivFamily},
    {AEAD_AES_256_GCM_SIV, Cipher::aes_256_gcm_siv, "AES-256-GCM-SIV", 9, 32, 12, 12, 12, kTag16, kOneUpdateMax, kGcmSivMaxAad, &kGcmSivFamily},
    {AEAD_AES_128_OCB, Cipher::aes_128_ocb, "AES-128-OCB", 10, 16, 1, 15, 12, kTag16, kOcbMax, kOcbMax, &kOcbFamily},
    {AEAD_AES_192_OCB, Cipher::aes_192_ocb, "AES-192-OCB", 11, 24, 1, 15, 12, kTag16, kOcbMax, kOcbMax, &kOcbFamily},
    {AEAD_AES_256_OCB, Cipher::aes_256_ocb, "AES-256-OCB", 12, 32, 1, 15, 12, kTag16, kOcbMax, kOcbMax, &kOcbFamily},
    {AEAD_AES_128_SIV, Cipher::aes_128_siv, "AES-128-SIV", 13, 32, 0, kOneUpdateMax, 16, kTag16, kOneUpdateMax, kOneUpdateMax, &kSivFamily},
    {AEAD_AES_192_SIV, Cipher::aes_192_siv, "AES-192-SIV", 14, 48, 0, kOneUpdateMax, 16, kTag16, kOneUpdateMax, kOneUpdateMax, &kSivFamily},
    {AEAD_AES_256_SIV, Cipher::aes_256_siv, "AES-256-SIV", 15, 64, 0, kOneUpdateMax, 16, kTag16, kOneUpdateMax, kOneUpdateMax, &kSivFamily},
    // On ChaCha20-Poly1305, keyed per call with an HChaCha20 subkey (xchacha.cpp).
    {AEAD_XCHACHA20_POLY1305, Cipher::xchacha20_poly1305, "ChaCha20-Poly1305", 3, 32, 24, 24, 24, kTag16,
     AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT, UINT64_MAX, &kXChaChaFamily},
    // libaegis (aegis.cpp), no provider: no name, no slot. Nonce = key size; tags 16 or 32.
    {AEAD_AEGIS_128L, Cipher::aegis_128l, nullptr, -1, 16, 16, 16, 16, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
    {AEAD_AEGIS_256, Cipher::aegis_256, nullptr, -1, 32, 32, 32, 32, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
    {AEAD_AEGIS_128X2, Cipher::aegis_128x2, nullptr, -1, 16, 16, 16, 16, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
    {AEAD_AEGIS_128X4, Cipher::aegis_128x4, nullptr, -1, 16, 16, 16, 16, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
    {AEAD_AEGIS_256X2, Cipher::aegis_256x2, nullptr, -1, 32, 32, 32, 32, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
    {AEAD_AEGIS_256X4, Cipher::aegis_256x4, nullptr, -1, 32, 32, 32, 32, kAegisTags, kAegisMax, kAegisMax, &kAegisFamily},
};

// QUIC header protection's ciphers, by HpCipher.
struct HpRow {
    const char *name;
    size_t key_size;
};
inline constexpr HpRow kHpRows[] = {{"AES-128-ECB", 16}, {"AES-256-ECB", 32}, {"ChaCha20", 32}};

constexpr const Row &row(Cipher c) noexcept { return kRows[static_cast<size_t>(c)]; }

// Every row sits at its Cipher's index, and the fetched slots are exactly the rows that own one; a row
// with no provider name has no slot.
constexpr bool rows_in_order() noexcept {
    int owners = 0;
    for (size_t i = 0; i < sizeof kRows / sizeof kRows[0]; ++i) {
        if (static_cast<size_t>(kRows[i].cipher) != i) return false;
        if (kRows[i].name == nullptr) {
            if (kRows[i].slot != -1) return false;
            continue;
        }
        if (kRows[i].slot < 0 || kRows[i].slot >= kFetchedCiphers) return false;
        if (static_cast<size_t>(kRows[i].slot) == i) ++owners;
    }
    return owners == kFetchedCiphers;
}
static_assert(rows_in_order(), "kRows: one row per Cipher, in enum order; one owner per fetched slot");

}  // namespace aead::shim
