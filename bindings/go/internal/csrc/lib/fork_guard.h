// Fork detection: a generation number that is fixed for the life of a process and different in every
// child of fork(), so that state copied into a child (a TLS context's next sequence, a worker's pool of
// pre-drawn nonces) can tell it is no longer in the process it was made in.
#pragma once

#include <atomic>
#include <cstdint>

namespace aead {

namespace fork_detail {
// The generation word. It lives in a MADV_WIPEONFORK page where the kernel has them (Linux >= 4.14),
// so a child made by any means (fork(), a raw clone without the atfork handlers) finds it zeroed; the
// pthread_atfork child handler also sets a fresh value. Points to a static word until the page is set
// up at load time, before any context exists.
extern std::atomic<uint64_t> *word;
[[gnu::cold]] uint64_t renew() noexcept;
}  // namespace fork_detail

// The current process's generation: never 0. One load and compare in the steady state.
[[gnu::always_inline]] inline uint64_t fork_generation() noexcept {
    const uint64_t g = fork_detail::word->load(std::memory_order_relaxed);
    if (g == 0) [[unlikely]] return fork_detail::renew();  // wiped by the kernel in a new child
    return g;
}

}  // namespace aead
