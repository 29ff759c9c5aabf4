#include "fork_guard.h"

#if defined(__unix__) || defined(__APPLE__)
#define AEAD_HAVE_FORK 1
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <new>

namespace aead::fork_detail {
namespace {

// Every generation ever used in this process's memory is at most `issued`; a child takes issued + 1.
// Siblings may end up with equal numbers: harmless, since a generation is only ever compared with
// state in the same process's memory.
std::atomic<uint64_t> issued{1};
std::atomic<uint64_t> fallback{1};  // the word where no wipe-on-fork page can be had

// In the child, before fork() returns there (one thread, so plain steps suffice).
[[maybe_unused]] void on_fork_child() noexcept {
    word->store(issued.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

std::atomic<uint64_t> *wipe_on_fork_word() noexcept {
#if defined(AEAD_HAVE_FORK) && defined(MADV_WIPEONFORK)
    const long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return nullptr; // GCOVR_EXCL_BR_LINE POSIX systems with mmap always have a page size
    void *p = mmap(nullptr, static_cast<size_t>(page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr; // GCOVR_EXCL_BR_LINE one page at load time: never refused outside a broken process
    if (madvise(p, static_cast<size_t>(page), MADV_WIPEONFORK) != 0) { // GCOVR_EXCL_BR_LINE refused only by kernels before 4.14
        munmap(p, static_cast<size_t>(page)); // GCOVR_EXCL_LINE kernels before 4.14 only
        return nullptr;  // GCOVR_EXCL_LINE kernels before 4.14 only
    }
    // Never unmapped: a thread may still be in a call while the process exits.
    return new (p) std::atomic<uint64_t>(fallback.load(std::memory_order_relaxed));
#else
    return nullptr;
#endif
}

// At load time, before any context can exist (a library's initialisers run before its users').
[[maybe_unused]] const bool installed = [] {
    if (std::atomic<uint64_t> *w = wipe_on_fork_word()) word = w; // GCOVR_EXCL_BR_LINE NULL only as above
#ifdef AEAD_HAVE_FORK
    // glibc ties the handler to this library (__dso_handle): dlclose unregisters it.
    return pthread_atfork(nullptr, nullptr, on_fork_child) == 0;
#else
    return true;  // no fork() on this platform
#endif
}();

}  // namespace

std::atomic<uint64_t> *word = &fallback;

// A zeroed word: this is a child the atfork handler did not see. Threads that race here agree on the
// one value that wins the exchange.
uint64_t renew() noexcept {
    const uint64_t fresh = issued.fetch_add(1, std::memory_order_relaxed) + 1;
    uint64_t seen = 0;
    if (word->compare_exchange_strong(seen, fresh, std::memory_order_relaxed)) return fresh;  // GCOVR_EXCL_BR_LINE race below
    return seen;  // GCOVR_EXCL_LINE two threads of a new child racing here: not reproducible on demand
}

}  // namespace aead::fork_detail
