// Streaming AEAD formats as data: each row says how a segment's nonce is built from its number and the
// last-segment flag, the segment limit, the per-segment overhead and the format's rules on sizes.
// lib/stream.cpp reads the rows; a new format is a new row (plus its key derivation and header).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aead.h"

namespace aead {

enum class SegmentNonce : uint8_t {
    counter_flag,  // prefix || BE(segment, counter_bytes) || last (1 byte): Tink, age
    xor_record,    // base XOR BE96(segment): RFC 8188 (the last record is marked in the plaintext)
};
enum class StreamKeys : uint8_t {
    tink_hkdf,    // HKDF(hash, key, salt = header salt, info = associated data) -> AES-GCM key
    age_payload,  // HKDF-SHA256(file key, salt = header nonce, "payload") -> ChaCha20-Poly1305 key
    rfc8188,      // HKDF-SHA256(salt, key): "Content-Encoding: aes128gcm\0" key, "...: nonce\0" nonce
};

struct StreamFormat {
    int id;
    StreamKeys keys;
    SegmentNonce nonce;
    size_t counter_bytes;   // counter_flag: the counter's width; xor_record: 0
    uint64_t max_segments;  // segments a stream may have; the next is refused (NONCE_EXHAUSTED)
    size_t overhead;        // ciphertext bytes per segment beyond its data: the tag (+ RFC 8188's delimiter)
    bool padded;            // RFC 8188: data || delimiter || zeros
    bool empty_last_alone;  // age: the last chunk is empty only when it is the first
    size_t header_lead;     // header bytes a reader needs before it knows the header's length
};

inline constexpr size_t kStreamNonce = 12, kStreamTag = 16;
inline constexpr uint64_t kStreamMaxSegments = uint64_t{1} << 63;  // the state word keeps a flag above the number

// clang-format off
//                                                    id                              keys                     nonce                        counter max_segments           overhead  padded empty_last_alone header_lead
inline constexpr StreamFormat kStreamTink         = {AEAD_STREAM_TINK_AES_GCM_HKDF, StreamKeys::tink_hkdf,   SegmentNonce::counter_flag,  4,      uint64_t{1} << 32,     16,       false, false,           1};
inline constexpr StreamFormat kStreamAge          = {AEAD_STREAM_AGE,               StreamKeys::age_payload, SegmentNonce::counter_flag,  11,     kStreamMaxSegments,    16,       false, true,            16};
inline constexpr StreamFormat kStreamRfc8188      = {AEAD_STREAM_RFC8188,           StreamKeys::rfc8188,     SegmentNonce::xor_record,    0,      kStreamMaxSegments,    17,       true,  false,           21};
// clang-format on
inline constexpr const StreamFormat *kStreamFormats[] = {&kStreamTink, &kStreamAge, &kStreamRfc8188};

constexpr const StreamFormat *find_stream_format(int id) noexcept {
    for (const StreamFormat *f : kStreamFormats)
        if (f->id == id) return f;
    return nullptr;
}

// The nonce of segment n: base holds the prefix (counter_flag) or the XOR mask (xor_record).
constexpr void segment_nonce(const StreamFormat &f, const uint8_t *base, uint64_t n, bool last, uint8_t *nonce) noexcept {
    for (size_t i = 0; i < kStreamNonce; ++i) nonce[i] = base[i];
    if (f.nonce == SegmentNonce::counter_flag) {
        // The counter fills the bytes before the flag, big-endian: n's 8 bytes at their end, zeros above.
        const size_t end = kStreamNonce - 1, start = end - f.counter_bytes;
        for (size_t i = start; i < end; ++i) {
            const size_t shift = 8 * (end - 1 - i);
            nonce[i] = shift < 64 ? static_cast<uint8_t>(n >> shift) : uint8_t{0};
        }
        nonce[end] = static_cast<uint8_t>(last ? 1 : 0);
    } else {
        for (size_t i = 0; i < 8; ++i) nonce[4 + i] ^= static_cast<uint8_t>(n >> (56 - 8 * i));
    }
}

namespace stream_checks {
constexpr bool nonce_is(const StreamFormat &f, uint64_t n, bool last, size_t at, uint8_t v) noexcept {
    uint8_t base[kStreamNonce] = {}, out[kStreamNonce] = {};
    segment_nonce(f, base, n, last, out);
    return out[at] == v;
}
// Tink: prefix(7) || BE32 || flag; age: BE88 || flag; RFC 8188: XOR into the low 8 bytes.
static_assert(nonce_is(kStreamTink, 0x01020304, true, 7, 0x01) && nonce_is(kStreamTink, 0x01020304, true, 10, 0x04) &&
              nonce_is(kStreamTink, 0x01020304, true, 11, 1) && nonce_is(kStreamTink, 5, false, 11, 0));
static_assert(nonce_is(kStreamAge, 0x0102030405060708, false, 3, 0x01) && nonce_is(kStreamAge, 1, false, 2, 0) &&
              nonce_is(kStreamAge, 0x0102030405060708, true, 10, 0x08) && nonce_is(kStreamAge, 0, true, 11, 1));
static_assert(nonce_is(kStreamRfc8188, 0x0102030405060708, false, 4, 0x01) &&
              nonce_is(kStreamRfc8188, 0x0102030405060708, false, 11, 0x08) && nonce_is(kStreamRfc8188, 1, true, 3, 0));
}  // namespace stream_checks

}  // namespace aead
