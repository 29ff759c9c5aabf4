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

// W is the working context (shim::Worker for AEADs, shim::HpWorker for header protection); the shim
// frees it with an overload of shim::worker_free.
template <typename W>
class WorkerCacheOf {
public:
    // A worker on loan, and the slot it returns to (kNoSlot: a transient worker, freed when returned).
    struct Lease {
        W *worker = nullptr;
        size_t slot = kNoSlot;
    };
    static constexpr size_t kNoSlot = SIZE_MAX;

    WorkerCacheOf() = default;
    WorkerCacheOf(const WorkerCacheOf &) = delete;
    WorkerCacheOf &operator=(const WorkerCacheOf &) = delete;
    ~WorkerCacheOf() {
        for (Slot &s : slots_) shim::worker_free(s.worker.exchange(nullptr, std::memory_order_acquire));
    }

    // The calling thread's own worker, or an empty lease when its home slot has none yet (the caller then
    // makes one and adopts it, so each thread soon works on a slot of its own and no cache line moves
    // between cores). Only when another thread shares the home slot and has its worker out (more
    // threads than slots) is a free worker of another slot taken.
    Lease take() noexcept {
        const size_t home = home_slot();
        Slot &h = slots_[home];
        if (W *w = h.worker.exchange(nullptr, std::memory_order_acquire)) return {w, home};
        if (!h.owned.load(std::memory_order_relaxed)) return {};
        for (size_t i = 1; i < kSlots; ++i) {  // GCOVR_EXCL_BR_LINE every slot out: more than 16 threads in calls at once
            const size_t k = (home + i) % kSlots;
            Slot &s = slots_[k];
            if (s.worker.load(std::memory_order_relaxed) == nullptr) continue;
            if (W *w = s.worker.exchange(nullptr, std::memory_order_acquire)) return {w, k};
        }
        return {};  // GCOVR_EXCL_LINE only with more than 16 threads inside calls on one context at once
    }

    // take(), or, when that finds none, a worker made by make(W **) (returning 0 or a code) and adopted.
    // On a code, l stays empty.
    template <typename Make>
    [[gnu::always_inline]] int take_or_make(Lease &l, Make make) noexcept {
        l = take();
        if (l.worker != nullptr) [[likely]] return 0;
        W *w = nullptr;
        if (const int rc = make(&w)) return rc;
        l = adopt(w);
        return 0;
    }

    // Gives a new worker a slot of its own, the caller's home slot first; without a free slot (more
    // concurrent callers than slots) it stays transient.
    Lease adopt(W *w) noexcept {
        const size_t start = home_slot();
        for (size_t i = 0; i < kSlots; ++i) {  // GCOVR_EXCL_BR_LINE every slot owned: more than 16 threads in calls at once
            const size_t k = (start + i) % kSlots;
            bool owned = false;
            if (!slots_[k].owned.load(std::memory_order_relaxed) &&
                slots_[k].owned.compare_exchange_strong(owned, true, std::memory_order_acquire))
                return {w, k};
        }
        return {w, kNoSlot}; // GCOVR_EXCL_LINE only with more than 16 threads inside calls on one context at once
    }

    // Returns a worker after a call that left it in a known state (success or a failed tag check).
    void give(const Lease &l) noexcept {
        if (l.slot == kNoSlot) {  // GCOVR_EXCL_START a transient worker: more than 16 threads in calls at once
            shim::worker_free(l.worker);
            return;
        }  // GCOVR_EXCL_STOP
        slots_[l.slot].worker.store(l.worker, std::memory_order_release);
    }

    // Frees a worker that failed midway (it is not trusted again) and frees its slot for a new one.
    void drop(const Lease &l) noexcept {
        shim::worker_free(l.worker);
        if (l.slot != kNoSlot) slots_[l.slot].owned.store(false, std::memory_order_release);  // GCOVR_EXCL_BR_LINE as give()
    }

private:
    static constexpr size_t kSlots = 16;
    // One slot per cache line, so threads working different slots do not contend.
    struct alignas(64) Slot {
        std::atomic<W *> worker{nullptr};  // the slot's worker while it is free; NULL while out
        std::atomic<bool> owned{false};               // whether a worker (free or out) belongs to the slot
    };

    // Each thread starts its search at a slot of its own, handed out round-robin on its first call, so
    // that up to 16 threads never meet on a cache line. (A hash of the stack address, used before, put
    // two threads on one slot in some address layouts, every vendored build among them: the two then
    // took each other's worker on every call and 2 threads ran at 1.0x one thread's rate.)
    // The compiler's own TLS model (a __tls_get_addr call, once per call into the library: 14 more
    // instructions per 64-byte seal, 0.7%). initial-exec, forced here before, made libaead.so impossible
    // to dlopen on musl ("initial-exec TLS resolves to dynamic definition") and used up glibc's small
    // surplus of static TLS that dlopen'ed libraries share.
    static size_t home_slot() noexcept {
        uint32_t h = t_home_slot;
        if (h == 0) [[unlikely]] {
            h = g_next_home.fetch_add(1, std::memory_order_relaxed) % kSlots + 1;
            t_home_slot = h;
        }
        return h - 1;
    }
    static inline thread_local uint32_t t_home_slot = 0;  // slot + 1; 0: none yet
    static inline std::atomic<uint32_t> g_next_home{0};

    std::array<Slot, kSlots> slots_{};
};

using WorkerCache = WorkerCacheOf<shim::Worker>;

}  // namespace aead
