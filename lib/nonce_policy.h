// Seal nonce policies: the atomic check-and-commit of record sequence numbers under a context's nonce
// schedule (a row of nonce_schedule.h), and the seal budget of random nonces.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "nonce_schedule.h"

namespace aead {

class NoncePolicy {
public:
    // seal_limit: the key's confidentiality limit (QUIC, DTLS, TLS 1.3 AES-GCM), or the random policy's
    // seal budget. epoch: the context's (DTLS), which Epoch::in_field rows put above the counter. Construct
    // only with an iv_len the row takes (Schedule::takes_iv).
    NoncePolicy(const Schedule &s, const uint8_t *iv, size_t iv_len, uint64_t seal_limit, uint64_t epoch = 0) noexcept;

    const Schedule &schedule() const noexcept { return s_; }
    // Whether seals carry a caller's nonce that the policy checks (the TLS, DTLS and QUIC policies).
    bool sequenced() const noexcept { return s_.sequenced(); }
    bool random() const noexcept { return s_.form == Form::random; }
    // DTLS 1.2: the AAD's seq_num must equal the field (epoch || seq, RFC 6347 section 4.1.2.1).
    bool aad_carries_field() const noexcept { return s_.aad == AadRule::dtls12_seq_num; }
    // The AAD length a seal must have (13 for (D)TLS 1.2 records, 5 for TLS 1.3); SIZE_MAX: any.
    size_t required_aad_size() const noexcept { return s_.aad == AadRule::any ? SIZE_MAX : s_.aad_size; }

    // The field (the nonce's last 8 bytes, IV part removed) a 12-byte nonce carries: for DTLS 1.2 the
    // seq_num its AAD must begin with. Reads only; valid once the IV is known.
    uint64_t field_of(const uint8_t *nonce) const noexcept { return unmask(load_field(nonce + kFixedSize)); }
    // The field of record number n (the epoch above it), with no nonce in between.
    uint64_t field_of_number(uint64_t n) const noexcept {
        return s_.epoch == Epoch::in_field ? epoch_ << s_.counter_bits | n : n;
    }

    // Checks a 12-byte seal nonce and, if it is acceptable, commits its sequence number in the same
    // atomic step. Returns 0, AEAD_ERR_NONCE_PREFIX, AEAD_ERR_NONCE_EXHAUSTED or AEAD_ERR_NONCE_ORDER,
    // or the row's key-limit code; a refused nonce changes nothing.
    int check_and_commit(const uint8_t *nonce) noexcept;
    // The same for a record number the library was handed (the record layer: the IV is known).
    int commit(uint64_t n) noexcept;

    // The smallest record number a seal may still commit (HPKE's next sequence number).
    uint64_t next_number() const noexcept { return next_.load(std::memory_order_acquire); }

    // The nonce of record number n (the IV is known): fixed || (mask XOR field).
    void nonce_of(uint64_t n, uint8_t out[kSequencedNonceSize]) const noexcept;

    // An open's record number, for the replay window of a context whose IV is known: the nonce's fixed
    // part (and epoch) must be the context's, else AEAD_ERR_NONCE_PREFIX; a number no conforming sender
    // seals is AEAD_ERR_NONCE_EXHAUSTED. Reads only.
    int record_number(const uint8_t *nonce, uint64_t &n) const noexcept;
    // The same bound for a number handed over (the record layer).
    int check_number(uint64_t n) const noexcept { return n > s_.max ? AEAD_ERR_NONCE_EXHAUSTED : 0; }

    // Seals made under the key (each accepted seal counts): QUIC (RFC 9001 section 6.6), DTLS, contexts
    // with a confidentiality limit, and the random policy's budget.
    uint64_t seals() const noexcept { return counted_ ? seals_.load(std::memory_order_relaxed)
                                             : random() ? next_.load(std::memory_order_relaxed) : 0; }
    uint64_t seal_limit() const noexcept { return seal_limit_; }

    // Random policy: reserves one of the seals a key may make (2^32 with random 96-bit IVs, SP 800-38D
    // section 8.3; 2^48 with AEGIS's 128-bit nonces, RFC 10032; no limit for 192- and 256-bit ones).
    // Returns 0 or AEAD_ERR_NONCE_LIMIT (nothing reserved).
    int reserve_random_seal() noexcept;

    // Test hooks of fault-injection builds (aead_test_set_random_seals, aead_test_set_usage).
    void test_set_count(uint64_t made) noexcept { next_.store(made, std::memory_order_relaxed); }
    void test_set_seals(uint64_t made) noexcept { seals_.store(made, std::memory_order_relaxed); }

private:
    enum : uint32_t { kUnlearned = 0, kLearning = 1, kLearned = 2 };

    uint64_t load_field(const uint8_t *p) const noexcept { return aead::load_field(s_.order, p); }
    // The field a nonce's last 8 bytes carry (the IV's part removed: its mask, an offset row's base), and back.
    uint64_t unmask(uint64_t last8) const noexcept { return (last8 ^ mask_) - base_; }
    uint64_t remask(uint64_t field) const noexcept { return (field + base_) ^ mask_; }
    void learn(uint32_t prefix, uint64_t last8) noexcept;
    // The counter of a field: the epoch above it must be the context's.
    int counter_of(uint64_t field, uint64_t &n) const noexcept;

    const Schedule s_;
    bool counted_;  // seals_ counts seals (a limit applies, or the row reports them)
    std::atomic<uint32_t> phase_{kUnlearned};
    uint32_t prefix_ = 0;  // written once: by the constructor (IV given) or the thread that learns it
    uint64_t mask_ = 0;    // XOR mask of the field: the IV's last 8 bytes, or 0 (plain counter)
    uint64_t base_ = 0;    // Form::offset: the counter's origin (the IV's last 8 bytes or the first seal's)
    uint64_t epoch_;       // the epoch every field carries above its counter (Epoch::in_field rows)
    uint64_t seal_limit_;  // the key's limit (UINT64_MAX: none), or the random policy's budget
    std::atomic<uint64_t> next_;      // sequenced: the smallest counter still acceptable; random: seals made
    std::atomic<uint64_t> seals_{0};  // seals made, where counted_
};

}  // namespace aead
