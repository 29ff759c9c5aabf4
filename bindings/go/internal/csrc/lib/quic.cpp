// QUIC packet protection (RFC 9001): header-protection keys, and protect / unprotect of one packet in
// one call (the AEAD through the record layer, where aead_seal_open's checks and the QUIC policy apply).
#include <cstring>
#include <new>

#include "aead.h"
#include "context.h"
#include "header_protection.h"
#include "ranges.h"
#include "record_layer.h"
#include "record_number.h"

namespace {

namespace shim = aead::shim;
using HpLease = aead::WorkerCacheOf<shim::HpWorker>::Lease;

constexpr size_t kSampleSize = 16;
constexpr size_t kMaskSize = 5;
constexpr size_t kTagSize = 16;

using aead::bad_range;

}  // namespace

// The mask for one sample on a worker of the calling thread's; a worker that failed is dropped.
int aead::mask_of(aead_hp &hp, const uint8_t *sample, uint8_t *mask) noexcept {
    HpLease lease;
    if (const int rc = hp.workers.take_or_make(lease, [&](shim::HpWorker **w) { return shim::hp_worker_new(*hp.key, w); }))
        return rc;
    if (const int rc = shim::hp_mask(*lease.worker, sample, mask)) {
        hp.workers.drop(lease);
        return rc;
    }
    hp.workers.give(lease);
    return 0;
}

namespace {

using aead::mask_of;

// RFC 9000 section 17.2 / 17.3: the low 4 bits of a long header's first byte are protected, 5 of a short one's.
constexpr uint8_t first_byte_mask(uint8_t first) noexcept { return (first & 0x80) != 0 ? 0x0f : 0x1f; }

// RFC 9000 Appendix A.3: largest UINT64_MAX (nothing received) expects 0.
uint64_t decode_packet_number(uint64_t largest, uint64_t truncated, size_t pn_len) noexcept {
    return aead::reconstruct_number(largest, truncated, static_cast<unsigned>(8 * pn_len), uint64_t{1} << 62);
}

}  // namespace

extern "C" {

AEAD_API int aead_hp_new(aead_hp **hp_out, int alg, const uint8_t *key, size_t key_len,
                         const char *properties) noexcept {
    if (hp_out == nullptr) return AEAD_ERR_ARG;
    *hp_out = nullptr;
    if (key == nullptr && key_len != 0) return AEAD_ERR_ARG;
    shim::HpCipher c;
    switch (alg) {
        case AEAD_AES_128_GCM: c = shim::HpCipher::aes_128_ecb; break;
        case AEAD_AES_256_GCM: c = shim::HpCipher::aes_256_ecb; break;
        case AEAD_CHACHA20_POLY1305: c = shim::HpCipher::chacha20; break;
        case AEAD_AES_128_CCM: c = shim::HpCipher::aes_128_ecb; break;  // DTLS 1.3's TLS_AES_128_CCM_SHA256
        case AEAD_AES_256_CCM: c = shim::HpCipher::aes_256_ecb; break;
        default: return AEAD_ERR_ARG;
    }
    shim::CipherSource *source = nullptr;
    if (const int rc = shim::cipher_source(properties, &source)) return rc;
    shim::HpKey *k = nullptr;
    if (const int rc = shim::hp_key_new(&k, *source, c, {key, key_len})) return rc;
    auto *hp = new (std::nothrow) aead_hp(k);
    if (hp == nullptr) {
        shim::hp_key_free(k);
        return AEAD_ERR_NOMEM;
    }
    // One working context now, as for aead_ctx: a key the provider refuses fails here, not on first use.
    shim::HpWorker *w = nullptr;
    if (const int rc = shim::hp_worker_new(*hp->key, &w)) {
        delete hp;
        return rc;
    }
    hp->workers.give(hp->workers.adopt(w));
    *hp_out = hp;
    return 0;
}

AEAD_API void aead_hp_free(aead_hp *hp) noexcept { delete hp; }

AEAD_API int64_t aead_hp_mask(aead_hp *hp, const uint8_t *sample, size_t sample_len, uint8_t *mask,
                              size_t mask_cap) noexcept {
    if (hp == nullptr || sample_len != kSampleSize || bad_range(sample, sample_len) || bad_range(mask, mask_cap))
        return AEAD_ERR_ARG;
    if (mask_cap < kMaskSize) return AEAD_ERR_BUFFER_TOO_SMALL;
    uint8_t s[kSampleSize], m[kMaskSize];
    std::memcpy(s, sample, sizeof s);  // read once, even if mask overlaps sample
    if (const int rc = mask_of(*hp, s, m)) {
        std::memset(mask, 0, kMaskSize);
        return rc;
    }
    std::memcpy(mask, m, sizeof m);
    return static_cast<int64_t>(kMaskSize);
}

AEAD_API int64_t aead_quic_protect(aead_ctx *ctx, aead_hp *hp, uint64_t pn, uint8_t *packet, size_t header_len,
                                   size_t payload_len, size_t packet_cap) noexcept {
    if (ctx == nullptr || hp == nullptr || packet == nullptr || ctx->policy != AEAD_POLICY_QUIC) return AEAD_ERR_ARG;
    const uint8_t first = packet[0];  // read once: it says how long the packet number is
    const size_t pn_len = (first & 3u) + 1;
    if (header_len < pn_len + 1) return AEAD_ERR_ARG;
    // Each term checked before the sum: SIZE_MAX - kTagSize - header_len itself wraps for a huge header.
    if (header_len > SIZE_MAX - kTagSize || payload_len > SIZE_MAX - kTagSize - header_len) return AEAD_ERR_TOO_LONG;
    const size_t total = header_len + payload_len + kTagSize;
    if (packet_cap < total) return AEAD_ERR_BUFFER_TOO_SMALL;
    if (bad_range(packet, total)) return AEAD_ERR_ARG;
    // The sample starts 4 bytes after the packet number's start and must lie in the ciphertext.
    if (pn_len + payload_len < 4) return AEAD_ERR_TOO_LONG;
    const size_t pn_offset = header_len - pn_len;
    if (pn > AEAD_QUIC_MAX_PACKET_NUMBER) return AEAD_ERR_NONCE_EXHAUSTED;

    // The header's packet-number field is the library's to write (from pn, so it cannot disagree with
    // the nonce); a refused seal puts the caller's bytes back.
    uint8_t saved[4];
    std::memcpy(saved, packet + pn_offset, pn_len);
    for (size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] = static_cast<uint8_t>(pn >> (8 * (pn_len - 1 - i)));
    const int64_t sealed = aead::seal_sequence(*ctx, pn, packet, header_len, payload_len, packet_cap);
    if (sealed < 0) {
        if (aead::is_failure(sealed)) std::memset(packet, 0, total);
        else std::memcpy(packet + pn_offset, saved, pn_len);
        return sealed;
    }
    uint8_t sample[kSampleSize], mask[kMaskSize];
    std::memcpy(sample, packet + pn_offset + 4, sizeof sample);
    if (const int rc = mask_of(*hp, sample, mask)) {
        std::memset(packet, 0, total);  // the packet number stays consumed, as after any failed seal
        return rc;
    }
    packet[0] = static_cast<uint8_t>(first ^ (mask[0] & first_byte_mask(first)));
    for (size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] ^= mask[1 + i];
    return static_cast<int64_t>(total);
}

AEAD_API int64_t aead_quic_unprotect(aead_ctx *ctx, aead_hp *hp, uint64_t largest_pn, uint8_t *packet,
                                     size_t pn_offset, size_t packet_len, uint64_t *pn_out) noexcept {
    if (ctx == nullptr || hp == nullptr || packet == nullptr || ctx->policy != AEAD_POLICY_QUIC ||
        bad_range(packet, packet_len))
        return AEAD_ERR_ARG;
    // Room for the sample (4 bytes past the packet number's start, 16 long) and, below, for the tag.
    if (packet_len < kSampleSize + 4 || pn_offset > packet_len - kSampleSize - 4) return AEAD_ERR_AUTH;
    uint8_t sample[kSampleSize], mask[kMaskSize];
    std::memcpy(sample, packet + pn_offset + 4, sizeof sample);
    if (const int rc = mask_of(*hp, sample, mask)) return rc;  // nothing changed yet

    const uint8_t first = packet[0];
    const uint8_t plain_first = static_cast<uint8_t>(first ^ (mask[0] & first_byte_mask(first)));
    const size_t pn_len = (plain_first & 3u) + 1;
    const size_t header_len = pn_offset + pn_len;
    // No length check here: the sample check above left 4 + 16 bytes from pn_offset and pn_len is at
    // most 4, so at least a tag's 16 bytes follow the header.
    static_assert(kSampleSize >= kTagSize, "a packet that holds a sample holds a tag");
    uint8_t saved[4];
    std::memcpy(saved, packet + pn_offset, pn_len);
    uint64_t truncated = 0;
    for (size_t i = 0; i < pn_len; ++i) {
        const uint8_t b = static_cast<uint8_t>(saved[i] ^ mask[1 + i]);
        truncated = truncated << 8 | b;
        packet[pn_offset + i] = b;
    }
    packet[0] = plain_first;
    const uint64_t pn = decode_packet_number(largest_pn, truncated, pn_len);
    const int64_t opened = aead::open_sequence(*ctx, pn, packet, header_len, packet_len - header_len);
    if (opened < 0) {
        // The header goes back as it arrived; the payload was zeroed by the failed open (or, after a
        // refusal, never touched).
        packet[0] = first;
        std::memcpy(packet + pn_offset, saved, pn_len);
        return opened;
    }
    if (pn_out != nullptr) *pn_out = pn;
    return opened;
}

}  // extern "C"
