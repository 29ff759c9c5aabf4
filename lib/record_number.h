// Full record (packet) numbers from their truncated form on the wire: QUIC (RFC 9000 Appendix A.3) and
// DTLS 1.3 (RFC 9147 section 4.2.2) both take the candidate nearest to one more than the largest number
// received so far.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aead {

// largest: the largest number accepted so far (UINT64_MAX: none, so 0 is expected); truncated: the low
// `bits` bits received; limit: one more than the largest number the protocol allows (2^62 QUIC, 2^48
// DTLS). Unsigned arithmetic throughout: expected + hwin cannot wrap for numbers below 2^62.
constexpr uint64_t reconstruct_number(uint64_t largest, uint64_t truncated, unsigned bits, uint64_t limit) noexcept {
    const uint64_t expected = largest + 1;
    const uint64_t win = uint64_t{1} << bits;
    const uint64_t hwin = win / 2;
    const uint64_t candidate = (expected & ~(win - 1)) | truncated;
    if (candidate + hwin <= expected && candidate < limit - win) return candidate + win;
    if (candidate > expected + hwin && candidate >= win) return candidate - win;
    return candidate;
}

// RFC 9000 Appendix A.3's example: largest 0xa82f30ea, 16 bits 0x9b32 received: 0xa82f9b32.
static_assert(reconstruct_number(0xa82f30ea, 0x9b32, 16, uint64_t{1} << 62) == 0xa82f9b32);
static_assert(reconstruct_number(UINT64_MAX, 0, 8, uint64_t{1} << 48) == 0);

}  // namespace aead
