// TLS nonce sequencing (seal only): the atomic check-and-commit of record sequence numbers.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace aead {

class NoncePolicy {
public:
    // policy is AEAD_POLICY_*; gcm says whether TLS 1.2 uses the RFC 5288 explicit counter (AES-GCM) or
    // the RFC 7905 XOR mask (ChaCha20-Poly1305).
    NoncePolicy(int policy, bool gcm) noexcept;

    bool enforced() const noexcept { return mode_ != Mode::none; }
    // The AAD length a TLS seal must have (13 for TLS 1.2 records, 5 for TLS 1.3).
    size_t required_aad_size() const noexcept { return required_aad_; }

    // Checks a 12-byte seal nonce and, if it is acceptable, commits its sequence number in the same
    // atomic step. Returns 0, AEAD_ERR_NONCE_PREFIX, AEAD_ERR_NONCE_EXHAUSTED or AEAD_ERR_NONCE_ORDER;
    // a refused nonce changes nothing.
    int check_and_commit(const uint8_t *nonce) noexcept;

private:
    enum class Mode { none, explicit_counter, xor_mask };
    enum : uint32_t { kUnlearned = 0, kLearning = 1, kLearned = 2 };

    void learn(uint32_t prefix, uint64_t last8) noexcept;

    Mode mode_;
    size_t required_aad_;
    std::atomic<uint32_t> phase_{kUnlearned};
    uint32_t prefix_ = 0;  // written once, by the thread that moves phase_ to kLearning
    uint64_t mask_ = 0;    // TLS 1.3 / ChaCha TLS 1.2: the IV's last 8 bytes; explicit counter: 0
    std::atomic<uint64_t> next_{0};  // the smallest sequence number still acceptable
};

}  // namespace aead
