// Seal nonce policies: the atomic check-and-commit of TLS record sequence numbers, and the seal budget
// of random nonces.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace aead {

class NoncePolicy {
public:
    // policy is AEAD_POLICY_*; explicit_counter says whether (D)TLS 1.2 uses the RFC 5288 / RFC 6655
    // explicit counter (AES-GCM, AES-CCM) or the RFC 7905 XOR mask (ChaCha20-Poly1305). seal_limit: the
    // key's confidentiality limit (QUIC, DTLS 1.3, TLS 1.3 AES-GCM), or the random policy's seal budget.
    // epoch: DTLS 1.2's, which every nonce carries. Construct only with iv_len accepted by valid_iv_size.
    NoncePolicy(int policy, bool explicit_counter, const uint8_t *iv, size_t iv_len, uint64_t seal_limit,
                uint64_t epoch = 0) noexcept;

    // The IV lengths aead_ctx_new_ex accepts for a policy: 0 (learned on the first seal), 12, and for
    // TLS 1.2 AES-GCM also 4 (the salt alone: explicit nonce = sequence). QUIC and DTLS 1.3: 12 only;
    // DTLS 1.2: 4 with the explicit counter (explicit nonce = epoch || seq), else 12.
    static bool valid_iv_size(int policy, bool explicit_counter, size_t iv_len) noexcept;

    // Whether seals carry a caller's nonce that the policy checks (the TLS and QUIC policies).
    bool sequenced() const noexcept { return mode_ != Mode::none && mode_ != Mode::random; }
    bool quic() const noexcept { return mode_ == Mode::quic; }
    bool random() const noexcept { return mode_ == Mode::random; }
    // DTLS 1.2: the nonce carries the epoch, and the AAD's seq_num must equal it (RFC 6347 section 4.1.2.1).
    bool dtls12() const noexcept { return dtls12_; }
    // The AAD length a TLS seal must have (13 for (D)TLS 1.2 records, 5 for TLS 1.3); SIZE_MAX: any
    // (QUIC, DTLS 1.3).
    size_t required_aad_size() const noexcept { return required_aad_; }

    // Checks a 12-byte seal nonce and, if it is acceptable, commits its sequence number in the same
    // atomic step. Returns 0, AEAD_ERR_NONCE_PREFIX, AEAD_ERR_NONCE_EXHAUSTED or AEAD_ERR_NONCE_ORDER,
    // and for QUIC AEAD_ERR_KEY_LIMIT (the confidentiality limit); a refused nonce changes nothing.
    int check_and_commit(const uint8_t *nonce) noexcept;

    // QUIC (the IV is always known): the nonce of packet number pn, IV XOR (0^4 || BE64(pn)).
    void quic_nonce(uint64_t pn, uint8_t out[12]) const noexcept;

    // An open's record number, for the replay window of a context whose IV is known (DTLS, QUIC): the
    // nonce's fixed part (and DTLS 1.2's epoch) must be the context's, else AEAD_ERR_NONCE_PREFIX; a
    // number no conforming sender seals is AEAD_ERR_NONCE_EXHAUSTED. Reads only.
    int record_number(const uint8_t *nonce, uint64_t &n) const noexcept;
    // DTLS 1.2: the 8-byte seq_num (epoch || seq) a nonce stands for, which the AAD must begin with.
    uint64_t seq_num_field(const uint8_t *nonce) const noexcept;

    // Seals made under the key (each accepted seal counts): QUIC (RFC 9001 section 6.6), DTLS, contexts
    // with a confidentiality limit, and the random policy's budget.
    uint64_t seals() const noexcept { return counted_ ? seals_.load(std::memory_order_relaxed)
                                             : mode_ == Mode::random ? next_.load(std::memory_order_relaxed) : 0; }
    uint64_t seal_limit() const noexcept { return seal_limit_; }

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
    bool dtls12_;
    bool counted_;  // seals_ counts seals (a limit applies, or the policy reports them)
    size_t required_aad_;
    std::atomic<uint32_t> phase_{kUnlearned};
    uint32_t prefix_ = 0;  // written once: by the constructor (IV given) or the thread that learns it
    uint64_t mask_ = 0;    // XOR mask of the last 8 bytes: the IV's last 8 bytes, or 0 (plain counter)
    uint64_t max_seq_;               // the largest sequence (packet number) ever acceptable
    uint64_t epoch_;                 // DTLS 1.2: the epoch every nonce must carry
    uint64_t seal_limit_;            // QUIC: the confidentiality limit; random: the seal budget (UINT64_MAX: none)
    std::atomic<uint64_t> next_{0};  // TLS/QUIC: the smallest sequence still acceptable; random: seals made
    std::atomic<uint64_t> seals_{0}; // seals made, where counted_
};

}  // namespace aead
