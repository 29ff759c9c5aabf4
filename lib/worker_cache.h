// A small lock-free cache of working contexts, so that concurrent calls on one aead_ctx each get a
// context of their own without a lock, and the steady state allocates nothing.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "../shim/shim.h"

namespace aead {

class WorkerCache {
public:
    WorkerCache() = default;
    WorkerCache(const WorkerCache &) = delete;
    WorkerCache &operator=(const WorkerCache &) = delete;
    ~WorkerCache() {
        for (Slot &s : slots_) shim::worker_free(s.worker.exchange(nullptr, std::memory_order_acquire));
    }

    // A cached worker, or NULL if every slot is empty (the caller then makes a new one).
    shim::Worker *take() noexcept {
        const size_t start = home_slot();
        for (size_t i = 0; i < kSlots; ++i) {
            Slot &s = slots_[(start + i) % kSlots];
            if (s.worker.load(std::memory_order_relaxed) == nullptr) continue;
            if (shim::Worker *w = s.worker.exchange(nullptr, std::memory_order_acquire)) return w;
        }
        return nullptr;
    }

    // Returns a worker to an empty slot; frees it if all slots are full (more concurrent callers than
    // slots: the extra contexts are transient).
    void give(shim::Worker *w) noexcept {
        const size_t start = home_slot();
        for (size_t i = 0; i < kSlots; ++i) {
            Slot &s = slots_[(start + i) % kSlots];
            shim::Worker *empty = nullptr;
            if (s.worker.load(std::memory_order_relaxed) == nullptr &&
                s.worker.compare_exchange_strong(empty, w, std::memory_order_release, std::memory_order_relaxed))
                return;
        }
        shim::worker_free(w);
    }

private:
    static constexpr size_t kSlots = 16;
    // One slot per cache line, so threads working different slots do not contend.
    struct alignas(64) Slot {
        std::atomic<shim::Worker *> worker{nullptr};
    };

    // Threads start their search at different slots: the address of a local variable identifies the
    // calling thread's stack (thread stacks are megabytes apart) at the cost of no thread-local lookup.
    static size_t home_slot() noexcept {
        const char marker = 0;
        const auto addr = reinterpret_cast<uintptr_t>(&marker) >> 20;
        return static_cast<size_t>(addr ^ (addr >> 4)) % kSlots;
    }

    std::array<Slot, kSlots> slots_{};
};

}  // namespace aead
