#include "replay_window.h"

#include <cstddef>
#include <new>
#include <thread>

#include "aead.h"

namespace aead {

namespace {
// The ring word of a word number: masked first, so below 4096 / 64 + 1 words and exact in any size_t.
constexpr std::size_t slot(uint64_t word_number, uint64_t mask) noexcept {
    return static_cast<std::size_t>(word_number & mask);
}
}  // namespace

static_assert(ReplayWindow::valid_width(AEAD_DTLS_DEFAULT_WINDOW) && ReplayWindow::valid_width(AEAD_DTLS_MAX_WINDOW) &&
              !ReplayWindow::valid_width(AEAD_DTLS_MAX_WINDOW + 64));

std::unique_ptr<ReplayWindow> ReplayWindow::create(uint32_t width) noexcept {
    // One word more than the window, so that the words of every record in the window are distinct from
    // the word the right edge moves into (RFC 6479 section 2); a power of two, so that indexing masks.
    std::size_t words = 1;
    while (words < width / 64 + 1) words <<= 1;
    std::unique_ptr<std::atomic<uint64_t>[]> bits(new (std::nothrow) std::atomic<uint64_t>[words]);
    if (!bits) return nullptr;
    for (std::size_t i = 0; i < words; ++i) bits[i].store(0, std::memory_order_relaxed);
    return std::unique_ptr<ReplayWindow>(new (std::nothrow) ReplayWindow(width, words, std::move(bits)));
}

bool ReplayWindow::seen_now(uint64_t n) const noexcept {
    const uint64_t top = top_.load(std::memory_order_relaxed);
    if (n >= top) return false;                 // right of the window (or nothing accepted yet): new
    if (top - 1 - n >= width_) return true;     // left of the window: too old to tell, so refused
    return (bits_[slot(n >> 6, mask_)].load(std::memory_order_relaxed) >> (n & 63) & 1) != 0;
}

bool ReplayWindow::seen(uint64_t n) const noexcept {
    for (;;) {
        const uint64_t before = version_.load(std::memory_order_acquire);
        if ((before & 1) == 0) {
            const bool r = seen_now(n);
            std::atomic_thread_fence(std::memory_order_acquire);
            if (version_.load(std::memory_order_relaxed) == before) return r;
        }
        std::this_thread::yield();  // a writer is inside its few stores
    }
}

bool ReplayWindow::accept(uint64_t n) noexcept {
    uint64_t v = version_.load(std::memory_order_relaxed);
    for (;;) {
        if ((v & 1) == 0 &&
            version_.compare_exchange_weak(v, v + 1, std::memory_order_acquire, std::memory_order_relaxed))
            break;
        std::this_thread::yield();  // GCOVR_EXCL_LINE another writer inside: timing, not on demand (the dtls suite's threads make it likely)
        v = version_.load(std::memory_order_relaxed);  // GCOVR_EXCL_LINE as above
    }
    std::atomic_thread_fence(std::memory_order_release);  // readers that see a word below see v + 1 too
    const bool fresh = !seen_now(n);
    if (fresh) {
        const uint64_t top = top_.load(std::memory_order_relaxed);
        if (n >= top) {
            // The right edge moves to n: the words it enters are cleared (they hold records a ring's
            // length older, all left of the new window). The edge's old word keeps its bits.
            if (top != 0) {
                const uint64_t from = (top - 1) >> 6, to = n >> 6;
                const uint64_t count = to - from > mask_ ? mask_ + 1 : to - from;
                for (uint64_t i = 1; i <= count; ++i) bits_[slot(from + i, mask_)].store(0, std::memory_order_relaxed);
            }
            top_.store(n + 1, std::memory_order_relaxed);
        }
        std::atomic<uint64_t> &word = bits_[slot(n >> 6, mask_)];
        word.store(word.load(std::memory_order_relaxed) | uint64_t{1} << (n & 63), std::memory_order_relaxed);
        accepted_.fetch_add(1, std::memory_order_relaxed);
    }
    version_.store(v + 2, std::memory_order_release);
    return fresh;
}

}  // namespace aead
