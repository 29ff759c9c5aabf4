// Compiled only in -Dfault_injection=true builds (see meson.build); never in a released library.
#include <atomic>

#include "aead.h"
#include "fault_injection.h"

namespace {
std::atomic<long> g_countdown{0};  // 0: disarmed; n > 0: the nth fault point from now fails
std::atomic<long> g_points{0};     // fault points passed since the last arming
}  // namespace

namespace aead::shim {
bool fault_point() noexcept {
    g_points.fetch_add(1, std::memory_order_relaxed);
    long n = g_countdown.load(std::memory_order_relaxed);
    while (n > 0)
        if (g_countdown.compare_exchange_weak(n, n - 1, std::memory_order_relaxed)) return n == 1;
    return false;
}
}  // namespace aead::shim

// Arms the switch so that the nth fallible libcrypto call from now fails (0 disarms), and returns how
// many fault points were passed since the previous call.
extern "C" AEAD_API long aead_test_fail_call(long n) noexcept {
    const long passed = g_points.exchange(0, std::memory_order_relaxed);
    g_countdown.store(n, std::memory_order_relaxed);
    return passed;
}
