// Seal nonce policies: the atomic check-and-commit of TLS record sequence numbers, and the seal budget
// of random nonces.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace aead {

class NoncePolicy {
public:
    // policy is AEAD_POLICY_*; explicit_counter says whether TLS 1.2 uses the RFC 5288 / RFC 6655 explicit
    // counter (AES-GCM, AES-CCM) or the RFC 7905 XOR mask (ChaCha20-Poly1305). seal_limit: QUIC's
    // confidentiality limit, or the random policy's seal budget. Construct only with iv_len accepted by
    // valid_iv_size.
    NoncePolicy(int policy, bool explicit_counter, const uint8_t *iv, size_t iv_len, uint64_t seal_limit) noexcept;

    // The IV lengths aead_ctx_new_ex accepts for a policy: 0 (learned on the first seal), 12, and for
    // TLS 1.2 AES-GCM also 4 (the salt alone: explicit nonce = sequence). QUIC: 12 only.
    static bool valid_iv_size(int policy, bool explicit_counter, size_t iv_len) noexcept;

    // Whether seals carry a caller's nonce that the policy checks (the TLS and QUIC policies).
    bool sequenced() const noexcept { return mode_ != Mode::none && mode_ != Mode::random; }
    bool quic() const noexcept { return mode_ == Mode::quic; }
    bool random() const noexcept { return mode_ == Mode::random; }
    // The AAD length a TLS seal must have (13 for TLS 1.2 records, 5 for TLS 1.3); SIZE_MAX: any (QUIC).
    size_t required_aad_size() const noexcept { return required_aad_; }

    // Checks a 12-byte seal nonce and, if it is acceptable, commits its sequence number in the same
    // atomic step. Returns 0, AEAD_ERR_NONCE_PREFIX, AEAD_ERR_NONCE_EXHAUSTED or AEAD_ERR_NONCE_ORDER,
    // and for QUIC AEAD_ERR_KEY_LIMIT (the confidentiality limit); a refused nonce changes nothing.
    int check_and_commit(const uint8_t *nonce) noexcept;

    // QUIC (the IV is always known): the nonce of packet number pn, IV XOR (0^4 || BE64(pn)).
    void quic_nonce(uint64_t pn, uint8_t out[12]) const noexcept;

    // QUIC: seals made under the key (each accepted seal counts; RFC 9001 section 6.6).
    uint64_t seals() const noexcept { return mode_ == Mode::quic ? seals_.load(std::memory_order_relaxed)
                                             : mode_ == Mode::random ? next_.load(std::memory_order_relaxed) : 0; }

    // Random policy: reserves one of the seals a key may make (2^32 with random 96-bit IVs, SP 800-38D
    // section 8.3; no limit for 192-bit ones). Returns 0 or AEAD_ERR_NONCE_LIMIT (nothing reserved).
    int reserve_random_seal() noexcept;

    // Test hooks of fault-injection builds (aead_test_set_random_seals, aead_test_set_usage).
    void test_set_count(uint64_t made) noexcept { next_.store(made, std::memory_order_relaxed); }
    void test_set_seals(uint64_t made) noexcept { seals_.store(made, std::memory_order_relaxed); }

private:
    enum class Mode { none, explicit_counter, xor_mask, quic, random };
    enum : uint32_t { kUnlearned = 0, kLearning = 1, kLearned = 2 };

    void learn(uint32_t prefix, uint64_t last8) noexcept;

    Mode mode_;
    size_t required_aad_;
    std::atomic<uint32_t> phase_{kUnlearned};
    uint32_t prefix_ = 0;  // written once: by the constructor (IV given) or the thread that learns it
    uint64_t mask_ = 0;    // XOR mask of the last 8 bytes: the IV's last 8 bytes, or 0 (plain counter)
    uint64_t max_seq_;               // the largest sequence (packet number) ever acceptable
    uint64_t seal_limit_;            // QUIC: the confidentiality limit; random: the seal budget (UINT64_MAX: none)
    std::atomic<uint64_t> next_{0};  // TLS/QUIC: the smallest sequence still acceptable; random: seals made
    std::atomic<uint64_t> seals_{0}; // QUIC: seals made
};

}  // namespace aead
