// DTLS 1.3 records in one call (RFC 9147): the unified header's sequence number and length written by
// the library, the AEAD through the record layer (the DTLS 1.3 policy and replay window applied to the
// record number), and record number encryption with an aead_hp key.
#include <cstring>

#include "aead.h"
#include "context.h"
#include "header_protection.h"
#include "ranges.h"
#include "record_layer.h"
#include "record_number.h"

namespace {

using aead::bad_range;

constexpr size_t kSampleSize = 16;  // RFC 9147 section 4.2.3: the first 16 bytes of the ciphertext
constexpr size_t kMaskSize = 5;
constexpr size_t kTagSize = 16;

// The unified header's first byte (RFC 9147 section 4): 0 0 1 C S L E E.
constexpr uint8_t kFixedBits = 0xe0, kFixed = 0x20, kCid = 0x10, kSeq16 = 0x08, kLength = 0x04, kEpochBits = 0x03;

struct Layout {
    size_t seq_offset, seq_len, length_offset, header_len;
};

// Where the header's fields lie, from its first byte and the connection ID's length (which the stack
// negotiated; the header does not say it). False if the byte is not a unified header's.
bool layout_of(uint8_t first, size_t cid_len, Layout &l) noexcept {
    if ((first & kFixedBits) != kFixed || ((first & kCid) == 0 && cid_len != 0)) return false;
    l.seq_offset = 1 + cid_len;
    l.seq_len = (first & kSeq16) != 0 ? 2 : 1;
    l.length_offset = l.seq_offset + l.seq_len;
    l.header_len = l.length_offset + ((first & kLength) != 0 ? 2 : 0);
    return true;
}

}  // namespace

extern "C" {

AEAD_API int64_t aead_dtls13_protect(aead_ctx *ctx, aead_hp *hp, uint64_t seq, uint8_t *record, size_t header_len,
                                     size_t payload_len, size_t record_cap) noexcept {
    if (ctx == nullptr || hp == nullptr || record == nullptr || ctx->policy != AEAD_POLICY_DTLS13 || header_len == 0)
        return AEAD_ERR_ARG;
    const uint8_t first = record[0];  // read once: it says where every field is
    Layout l{};
    const size_t fixed = size_t{1} + ((first & kSeq16) != 0 ? 2u : 1u) + ((first & kLength) != 0 ? 2u : 0u);
    if (header_len < fixed || !layout_of(first, header_len - fixed, l) || l.header_len != header_len) return AEAD_ERR_ARG;
    if ((first & kEpochBits) != (ctx->epoch & kEpochBits)) return AEAD_ERR_NONCE_PREFIX;  // another epoch's keys
    if (header_len > SIZE_MAX - kTagSize || payload_len > SIZE_MAX - kTagSize - header_len) return AEAD_ERR_TOO_LONG;
    const size_t total = header_len + payload_len + kTagSize;
    if (record_cap < total) return AEAD_ERR_BUFFER_TOO_SMALL;
    if (bad_range(record, total)) return AEAD_ERR_ARG;
    const size_t body = payload_len + kTagSize;  // the encrypted record, tag included
    if ((first & kLength) != 0 && body > UINT16_MAX) return AEAD_ERR_TOO_LONG;
    if (seq > AEAD_DTLS_MAX_SEQUENCE) return AEAD_ERR_NONCE_EXHAUSTED;

    // The header's sequence number and length are the library's to write (from seq and the sizes, so the
    // AAD cannot disagree with the nonce); a refused seal puts the caller's bytes back.
    uint8_t saved[4];
    const size_t written = header_len - l.seq_offset;
    std::memcpy(saved, record + l.seq_offset, written);
    for (size_t i = 0; i < l.seq_len; ++i) record[l.seq_offset + i] = static_cast<uint8_t>(seq >> (8 * (l.seq_len - 1 - i)));
    if ((first & kLength) != 0) {
        record[l.length_offset] = static_cast<uint8_t>(body >> 8);
        record[l.length_offset + 1] = static_cast<uint8_t>(body);
    }
    // The nonce is IV XOR (0^4 || BE64(seq)): RFC 9147 section 4, as QUIC's (nonce_schedule.h).
    const int64_t sealed = aead::seal_sequence(*ctx, seq, record, header_len, payload_len, record_cap);
    if (sealed < 0) {
        if (aead::is_failure(sealed)) std::memset(record, 0, total);
        else std::memcpy(record + l.seq_offset, saved, written);
        return sealed;
    }
    // Record number encryption (RFC 9147 section 4.2.3): the mask from the first 16 bytes of the
    // encrypted record (always there: the tag alone is 16), over the sequence number bytes only.
    uint8_t sample[kSampleSize], mask[kMaskSize];
    std::memcpy(sample, record + header_len, sizeof sample);
    if (const int rc = aead::mask_of(*hp, sample, mask)) {
        std::memset(record, 0, total);  // the sequence number stays consumed, as after any failed seal
        return rc;
    }
    for (size_t i = 0; i < l.seq_len; ++i) record[l.seq_offset + i] ^= mask[i];
    return static_cast<int64_t>(total);
}

AEAD_API int64_t aead_dtls13_unprotect(aead_ctx *ctx, aead_hp *hp, uint8_t *record, size_t record_len, size_t cid_len,
                                       uint64_t *seq_out) noexcept {
    if (ctx == nullptr || hp == nullptr || record == nullptr || ctx->policy != AEAD_POLICY_DTLS13 ||
        bad_range(record, record_len) || record_len == 0)
        return AEAD_ERR_ARG;
    const uint8_t first = record[0];
    Layout l{};
    if (cid_len > record_len || !layout_of(first, cid_len, l)) return AEAD_ERR_AUTH;  // not a DTLSCiphertext
    if ((first & kEpochBits) != (ctx->epoch & kEpochBits)) return AEAD_ERR_NONCE_PREFIX;
    // RFC 9147 section 4.2.3: shorter than a sample is discarded as if it failed to deprotect.
    static_assert(kSampleSize >= kTagSize, "a record that holds a sample holds a tag");
    if (record_len < l.header_len || record_len - l.header_len < kSampleSize) return AEAD_ERR_AUTH;
    const size_t body = record_len - l.header_len;
    if ((first & kLength) != 0 && (size_t{record[l.length_offset]} << 8 | record[l.length_offset + 1]) != body)
        return AEAD_ERR_AUTH;  // one record per call: its length field must cover exactly the rest
    uint8_t sample[kSampleSize], mask[kMaskSize];
    std::memcpy(sample, record + l.header_len, sizeof sample);
    if (const int rc = aead::mask_of(*hp, sample, mask)) return rc;  // nothing changed yet

    uint8_t saved[2];
    std::memcpy(saved, record + l.seq_offset, l.seq_len);
    uint64_t truncated = 0;
    for (size_t i = 0; i < l.seq_len; ++i) {
        const uint8_t b = static_cast<uint8_t>(saved[i] ^ mask[i]);
        truncated = truncated << 8 | b;
        record[l.seq_offset + i] = b;
    }
    // RFC 9147 section 4.2.2: the full number nearest to one more than the highest deprotected so far,
    // which is the replay window's right edge.
    const uint64_t largest = ctx->window ? ctx->window->largest() : UINT64_MAX;
    const uint64_t seq = aead::reconstruct_number(largest, truncated, static_cast<unsigned>(8 * l.seq_len),
                                                  AEAD_DTLS_MAX_SEQUENCE + 1);
    const int64_t opened = aead::open_sequence(*ctx, seq, record, l.header_len, body);
    if (opened < 0) {
        // The header goes back as it arrived; the payload was zeroed by a failed open (or, after a
        // refusal, never touched).
        std::memcpy(record + l.seq_offset, saved, l.seq_len);
        return opened;
    }
    if (seq_out != nullptr) *seq_out = seq;
    return opened;
}

}  // extern "C"
