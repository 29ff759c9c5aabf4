#include "nonce_policy.h"

#include <thread>

#include "aead.h"

namespace aead {
namespace {

uint32_t load_be32(const uint8_t *p) noexcept {
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

uint64_t load_be64(const uint8_t *p) noexcept { return uint64_t{load_be32(p)} << 32 | load_be32(p + 4); }

}  // namespace

namespace {
bool is_dtls(int policy) noexcept { return policy == AEAD_POLICY_DTLS12 || policy == AEAD_POLICY_DTLS13; }
}  // namespace

NoncePolicy::NoncePolicy(int policy, bool explicit_counter, const uint8_t *iv, size_t iv_len, uint64_t seal_limit,
                         uint64_t epoch) noexcept
    : mode_(policy == AEAD_POLICY_NONE             ? Mode::none
            : policy == AEAD_POLICY_RANDOM_NONCE   ? Mode::random
            : policy == AEAD_POLICY_QUIC           ? Mode::quic
            : (policy == AEAD_POLICY_TLS12 || policy == AEAD_POLICY_DTLS12) && explicit_counter ? Mode::explicit_counter
                                                   : Mode::xor_mask),
      dtls12_(policy == AEAD_POLICY_DTLS12),
      counted_(policy == AEAD_POLICY_QUIC || is_dtls(policy) ||
               (policy != AEAD_POLICY_RANDOM_NONCE && seal_limit != UINT64_MAX)),
      required_aad_(policy == AEAD_POLICY_TLS13 ? 5
                    : policy == AEAD_POLICY_QUIC || policy == AEAD_POLICY_DTLS13 ? SIZE_MAX : 13),
      // TLS: every sequence but 2^64-1; QUIC: packet numbers are 62-bit (RFC 9000 section 12.3); DTLS:
      // 48-bit sequence numbers (RFC 6347 section 4.1; RFC 9147 keeps them for its record numbers' use).
      max_seq_(policy == AEAD_POLICY_QUIC ? AEAD_QUIC_MAX_PACKET_NUMBER
               : is_dtls(policy)         ? AEAD_DTLS_MAX_SEQUENCE
                                         : UINT64_MAX - 1),
      epoch_(epoch),
      seal_limit_(seal_limit) {
    // An IV given up front: nothing is learned, so there is no first-seal race. A 12-byte TLS 1.2
    // AES-GCM IV is salt || mask (explicit nonce = mask XOR sequence); the 4-byte one is the salt alone.
    if (iv_len >= 4 && sequenced()) {
        prefix_ = load_be32(iv);
        mask_ = iv_len == 12 ? load_be64(iv + 4) : 0;
        phase_.store(kLearned, std::memory_order_relaxed);
    }
}

bool NoncePolicy::valid_iv_size(int policy, bool explicit_counter, size_t iv_len) noexcept {
    if (policy == AEAD_POLICY_QUIC || policy == AEAD_POLICY_DTLS13) return iv_len == 12;  // nothing to learn
    if (policy == AEAD_POLICY_DTLS12) return iv_len == (explicit_counter ? 4u : 12u);
    if (iv_len == 0) return true;
    if (policy == AEAD_POLICY_TLS13) return iv_len == 12;
    if (policy == AEAD_POLICY_TLS12) return iv_len == 12 || (explicit_counter && iv_len == 4);
    return false;
}

void NoncePolicy::quic_nonce(uint64_t pn, uint8_t out[12]) const noexcept {
    const uint64_t last8 = pn ^ mask_;
    for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(prefix_ >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) out[4 + i] = static_cast<uint8_t>(last8 >> (56 - 8 * i));
}

uint64_t NoncePolicy::seq_num_field(const uint8_t *nonce) const noexcept { return load_be64(nonce + 4) ^ mask_; }

int NoncePolicy::record_number(const uint8_t *nonce, uint64_t &n) const noexcept {
    if (load_be32(nonce) != prefix_) return AEAD_ERR_NONCE_PREFIX;
    uint64_t seq = seq_num_field(nonce);
    if (dtls12_) {
        if (seq >> 48 != epoch_) return AEAD_ERR_NONCE_PREFIX;
        seq &= AEAD_DTLS_MAX_SEQUENCE;
    }
    if (seq > max_seq_) return AEAD_ERR_NONCE_EXHAUSTED;
    n = seq;
    return 0;
}

int NoncePolicy::reserve_random_seal() noexcept {
    uint64_t made = next_.load(std::memory_order_relaxed);
    do {
        if (made >= seal_limit_) return AEAD_ERR_NONCE_LIMIT;
    } while (!next_.compare_exchange_weak(made, made + 1, std::memory_order_relaxed));
    return 0;
}

// The first seal fixes the prefix (and mask). Exactly one thread writes them; threads that race it
// wait the few instructions until they are published. This happens once per context.
void NoncePolicy::learn(uint32_t prefix, uint64_t last8) noexcept {
    uint32_t expected = kUnlearned;
    if (phase_.compare_exchange_strong(expected, kLearning, std::memory_order_acq_rel)) {
        prefix_ = prefix;
        mask_ = mode_ == Mode::xor_mask ? last8 : 0;
        phase_.store(kLearned, std::memory_order_release);
        return;
    }
    while (phase_.load(std::memory_order_acquire) != kLearned) std::this_thread::yield();  // GCOVR_EXCL_LINE a lost race for the first seal: timing, not on demand
}

int NoncePolicy::check_and_commit(const uint8_t *nonce) noexcept {
    const uint32_t prefix = load_be32(nonce);
    const uint64_t last8 = load_be64(nonce + 4);
    if (phase_.load(std::memory_order_acquire) != kLearned) {
        // Refuse an unusable first nonce before it can fix the prefix. (In XOR mode the first nonce is
        // sequence 0 by definition, so only the explicit counter can be exhausted here.)
        if (mode_ == Mode::explicit_counter && last8 == UINT64_MAX) return AEAD_ERR_NONCE_EXHAUSTED;
        learn(prefix, last8);
    }
    if (prefix != prefix_) return AEAD_ERR_NONCE_PREFIX;
    uint64_t seq = last8 ^ mask_;
    if (dtls12_) {  // epoch(2) || seq(6): the epoch is this context's keys' own
        if (seq >> 48 != epoch_) return AEAD_ERR_NONCE_PREFIX;
        seq &= AEAD_DTLS_MAX_SEQUENCE;
    }
    if (seq > max_seq_) return AEAD_ERR_NONCE_EXHAUSTED;
    // A seal is reserved under the confidentiality limit first, and given back if the sequence number is
    // then refused, so a refusal consumes neither.
    if (counted_) {
        uint64_t made = seals_.load(std::memory_order_relaxed);
        do {
            if (made >= seal_limit_) return AEAD_ERR_KEY_LIMIT;
        } while (!seals_.compare_exchange_weak(made, made + 1, std::memory_order_relaxed));
    }
    // Accept seq only if it is at least next_, and move next_ past it in the same atomic step.
    uint64_t next = next_.load(std::memory_order_relaxed);
    do {
        if (seq < next) {
            if (counted_) seals_.fetch_sub(1, std::memory_order_relaxed);
            return AEAD_ERR_NONCE_ORDER;
        }
    } while (!next_.compare_exchange_weak(next, seq + 1, std::memory_order_acq_rel, std::memory_order_relaxed));
    return 0;
}

}  // namespace aead
