#include "nonce_policy.h"

#include <thread>

#include "aead.h"

namespace aead {
namespace {

uint32_t load_be32(const uint8_t *p) noexcept {
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

}  // namespace

NoncePolicy::NoncePolicy(const Schedule &s, const uint8_t *iv, size_t iv_len, uint64_t seal_limit,
                         uint64_t epoch) noexcept
    : s_(s),
      counted_(s.counted || (s.form != Form::random && seal_limit != UINT64_MAX)),
      epoch_(epoch),
      seal_limit_(seal_limit),
      next_(s.sequenced() ? s.first : 0) {
    // An IV given up front: nothing is learned, so there is no first-seal race. A 12-byte IV is
    // fixed || mask (an offset row's: fixed || base); a 4-byte one is the fixed part alone (a concat
    // row's field is then the counter).
    if (iv_len >= kFixedSize && sequenced()) {
        prefix_ = load_be32(iv);
        const uint64_t last8 = iv_len == kSequencedNonceSize ? load_field(iv + kFixedSize) : 0;
        (s.form == Form::offset ? base_ : mask_) = last8;
        phase_.store(kLearned, std::memory_order_relaxed);
    }
}

void NoncePolicy::nonce_of(uint64_t n, uint8_t out[kSequencedNonceSize]) const noexcept {
    for (size_t i = 0; i < kFixedSize; ++i) out[i] = static_cast<uint8_t>(prefix_ >> (24 - 8 * i));
    store_field(s_.order, remask(field_of_number(n)), out + kFixedSize);
}

int NoncePolicy::counter_of(uint64_t field, uint64_t &n) const noexcept {
    if (s_.epoch == Epoch::in_field) {  // epoch || counter: the epoch is this context's keys' own
        if (field >> s_.counter_bits != epoch_) return AEAD_ERR_NONCE_PREFIX;
        field &= (uint64_t{1} << s_.counter_bits) - 1;
    }
    n = field;
    return 0;
}

int NoncePolicy::record_number(const uint8_t *nonce, uint64_t &n) const noexcept {
    if (load_be32(nonce) != prefix_) return AEAD_ERR_NONCE_PREFIX;
    uint64_t counter = 0;
    if (const int rc = counter_of(field_of(nonce), counter)) return rc;
    if (const int rc = check_number(counter)) return rc;
    n = counter;
    return 0;
}

int NoncePolicy::reserve_random_seal() noexcept {
    uint64_t made = next_.load(std::memory_order_relaxed);
    do {
        if (made >= seal_limit_) return s_.at_key_limit;
    } while (!next_.compare_exchange_weak(made, made + 1, std::memory_order_relaxed));
    return 0;
}

// The first seal fixes the prefix (and an XOR row's mask). Exactly one thread writes them; threads that
// race it wait the few instructions until they are published. This happens once per context.
void NoncePolicy::learn(uint32_t prefix, uint64_t last8) noexcept {
    uint32_t expected = kUnlearned;
    if (phase_.compare_exchange_strong(expected, kLearning, std::memory_order_acq_rel)) {
        prefix_ = prefix;
        mask_ = s_.form == Form::xor_iv ? last8 ^ s_.first : 0;  // the first nonce is counter `first`
        base_ = s_.form == Form::offset ? last8 - s_.first : 0;
        phase_.store(kLearned, std::memory_order_release);
        return;
    }
    while (phase_.load(std::memory_order_acquire) != kLearned) std::this_thread::yield();  // GCOVR_EXCL_LINE a lost race for the first seal: timing, not on demand
}

int NoncePolicy::check_and_commit(const uint8_t *nonce) noexcept {
    const uint32_t prefix = load_be32(nonce);
    const uint64_t last8 = load_field(nonce + kFixedSize);
    if (phase_.load(std::memory_order_acquire) != kLearned) {
        // Refuse an unusable first nonce before it can fix the prefix. (An XOR or offset row's first
        // nonce is counter `first` by definition, so only a concat row's counter can be past its limit.)
        if (s_.form == Form::concat && last8 > s_.max) return AEAD_ERR_NONCE_EXHAUSTED;
        learn(prefix, last8);
    }
    if (prefix != prefix_) return AEAD_ERR_NONCE_PREFIX;
    uint64_t n = 0;
    if (const int rc = counter_of(unmask(last8), n)) return rc;
    return commit(n);
}

int NoncePolicy::commit(uint64_t n) noexcept {
    if (const int rc = check_number(n)) return rc;
    // A seal is reserved under the key's limit first, and given back if the counter is then refused, so
    // a refusal consumes neither.
    if (counted_) {
        uint64_t made = seals_.load(std::memory_order_relaxed);
        do {
            if (made >= seal_limit_) return s_.at_key_limit;
        } while (!seals_.compare_exchange_weak(made, made + 1, std::memory_order_relaxed));
    }
    // Accept n only if it is at least next_, and move next_ past it in the same atomic step.
    uint64_t next = next_.load(std::memory_order_relaxed);
    do {
        if (n < next) {
            if (counted_) seals_.fetch_sub(1, std::memory_order_relaxed);
            return AEAD_ERR_NONCE_ORDER;
        }
    } while (!next_.compare_exchange_weak(next, n + 1, std::memory_order_acq_rel, std::memory_order_relaxed));
    return 0;
}

}  // namespace aead
