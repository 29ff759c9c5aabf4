// A small lock-free cache of working contexts, so that concurrent calls on one aead_ctx each get a
// context of their own without a lock, and the steady state allocates nothing.
//
// Each cached worker is bound to a slot of its own. Taking it is one atomic exchange (which decides,
// among racing threads, who gets it); giving it back is a plain release store into its own slot, since
// no other thread writes a slot while its worker is out. One locked instruction per call, not two.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "../shim/shim.h"

namespace aead {

class WorkerCache {
public:
    // A worker on loan, and the slot it returns to (kNoSlot: a transient worker, freed when returned).
    struct Lease {
        shim::Worker *worker = nullptr;
        size_t slot = kNoSlot;
    };
    static constexpr size_t kNoSlot = SIZE_MAX;

    WorkerCache() = default;
    WorkerCache(const WorkerCache &) = delete;
    WorkerCache &operator=(const WorkerCache &) = delete;
    ~WorkerCache() {
        for (Slot &s : slots_) shim::worker_free(s.worker.exchange(nullptr, std::memory_order_acquire));
    }

    // A cached worker, or an empty lease if none is free (the caller then makes one and adopts it).
    Lease take() noexcept {
        const size_t start = home_slot();
        for (size_t i = 0; i < kSlots; ++i) {
            const size_t k = (start + i) % kSlots;
            Slot &s = slots_[k];
            if (s.worker.load(std::memory_order_relaxed) == nullptr) continue;
            if (shim::Worker *w = s.worker.exchange(nullptr, std::memory_order_acquire)) return {w, k};
        }
        return {};
    }

    // Gives a new worker a slot of its own, the caller's home slot first; without a free slot (more
    // concurrent callers than slots) it stays transient.
    Lease adopt(shim::Worker *w) noexcept {
        const size_t start = home_slot();
        for (size_t i = 0; i < kSlots; ++i) {
            const size_t k = (start + i) % kSlots;
            bool owned = false;
            if (!slots_[k].owned.load(std::memory_order_relaxed) &&
                slots_[k].owned.compare_exchange_strong(owned, true, std::memory_order_acquire))
                return {w, k};
        }
        return {w, kNoSlot};
    }

    // Returns a worker after a call that left it in a known state (success or a failed tag check).
    void give(const Lease &l) noexcept {
        if (l.slot == kNoSlot) {
            shim::worker_free(l.worker);
            return;
        }
        slots_[l.slot].worker.store(l.worker, std::memory_order_release);
    }

    // Frees a worker that failed midway (it is not trusted again) and frees its slot for a new one.
    void drop(const Lease &l) noexcept {
        shim::worker_free(l.worker);
        if (l.slot != kNoSlot) slots_[l.slot].owned.store(false, std::memory_order_release);
    }

private:
    static constexpr size_t kSlots = 16;
    // One slot per cache line, so threads working different slots do not contend.
    struct alignas(64) Slot {
        std::atomic<shim::Worker *> worker{nullptr};  // the slot's worker while it is free; NULL while out
        std::atomic<bool> owned{false};               // whether a worker (free or out) belongs to the slot
    };

    // Threads start their search at different slots: the address of a local variable identifies the
    // calling thread's stack (thread stacks are megabytes apart) at the cost of no thread-local lookup.
    static size_t home_slot() noexcept {
        const char marker = 0;
        // Fibonacci hashing of the 64 KiB stack region: neighbouring stacks land on unrelated slots.
        const uint64_t region = reinterpret_cast<uintptr_t>(&marker) >> 16;
        return static_cast<size_t>((region * 0x9E3779B97F4A7C15u) >> 60);  // top 4 bits: 0..15
    }

    std::array<Slot, kSlots> slots_{};
};

}  // namespace aead
