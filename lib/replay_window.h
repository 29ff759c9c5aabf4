// The receiving side's replay window (RFC 4303 section 3.4.3, RFC 6347 section 4.1.2.6, RFC 9147 section
// 4.5.1), kept as RFC 6479's ring of 64-bit words so that moving the window never shifts bits.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace aead {

class ReplayWindow {
public:
    // width: a multiple of 64, at most AEAD_DTLS_MAX_WINDOW (valid_width). NULL if the ring cannot be
    // allocated.
    static std::unique_ptr<ReplayWindow> create(uint32_t width) noexcept;
    static constexpr bool valid_width(uint32_t width) noexcept;

    // Before decrypting: whether record number n lies left of the window or was already accepted.
    // Lock-free and writes nothing (a reader that meets a concurrent update reads again).
    bool seen(uint64_t n) const noexcept;

    // After the tag verified: accepts n and moves the window, in one step under the window's own lock
    // (held for a few stores, never across any cryptography). False if n was seen meanwhile (another
    // open of the same record won): nothing changes then.
    bool accept(uint64_t n) noexcept;

    uint32_t width() const noexcept { return width_; }
    uint64_t accepted() const noexcept { return accepted_.load(std::memory_order_relaxed); }
    // The largest record number accepted; UINT64_MAX: none yet.
    uint64_t largest() const noexcept { return top_.load(std::memory_order_relaxed) - 1; }

    ReplayWindow(uint32_t width, uint64_t words, std::unique_ptr<std::atomic<uint64_t>[]> bits) noexcept
        : width_(width), mask_(words - 1), bits_(std::move(bits)) {}

private:
    bool seen_now(uint64_t n) const noexcept;  // the check itself, on whatever the words hold now

    const uint32_t width_;
    const uint64_t mask_;  // ring words - 1 (a power of two, at least width / 64 + 1 words)
    // A sequence lock: even when stable, odd while the one writer (accept) updates; writers take it with
    // a compare-and-swap, readers (seen) retry if it moved under them.
    std::atomic<uint64_t> version_{0};
    std::atomic<uint64_t> top_{0};  // the largest accepted record number + 1; 0: none yet
    std::atomic<uint64_t> accepted_{0};
    // Bit (n & 63) of word (n / 64) & mask_ is record n. Atomics only so that a reader racing the writer
    // is defined behaviour; the sequence lock decides which reads count.
    const std::unique_ptr<std::atomic<uint64_t>[]> bits_;
};

constexpr bool ReplayWindow::valid_width(uint32_t width) noexcept {
    return width >= 64 && width <= 4096 && width % 64 == 0;
}

}  // namespace aead
