// The aead_ctx behind the opaque handle of the public API.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

#include "algorithm.h"
#include "fork_guard.h"
#include "nonce_policy.h"
#include "replay_window.h"
#include "worker_cache.h"

namespace aead {

// Owns the keyed template; declared before the worker cache so the workers go first.
class TemplateOwner {
public:
    explicit TemplateOwner(shim::Template *t) noexcept : t_(t) {}
    TemplateOwner(const TemplateOwner &) = delete;
    TemplateOwner &operator=(const TemplateOwner &) = delete;
    ~TemplateOwner() { shim::template_free(t_); }
    const shim::Template &operator*() const noexcept { return *t_; }

private:
    shim::Template *t_;
};

}  // namespace aead

namespace aead {

// What aead_ctx_new_dtls adds: the epoch and the replay window. `windowed` says the caller came through
// it: the policies whose row requires a window exist only there (their epoch and IV are part of the
// rule), and one whose row offers it (QUIC, HPKE) gets a window only when asked for one (window > 0).
// hpke: the library's own HPKE context (kPolicyHpke), which no public entry point may create.
struct RecordParams {
    bool windowed = false;
    uint64_t epoch = 0;
    uint32_t window = 0;
    bool hpke = false;
};

// Creates a context: every entry point's checks and work (abi.cpp).
int ctx_create(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len, size_t tag_len,
               const char *properties, const uint8_t *iv, size_t iv_len, RecordParams rp = {}) noexcept;

}  // namespace aead

struct aead_ctx {
    aead_ctx(const aead::Algorithm &a, int p, size_t tag, aead::shim::Template *t, const uint8_t *iv,
             size_t iv_len, uint64_t e = 0) noexcept
        : alg(a), policy(p), epoch(e), tag_size(tag), key(t),
          nonces(aead::schedule_of(a, p), iv, iv_len, aead::seal_limit(a, p), e),
          nonce_min(aead::min_nonce_size(a, p)), nonce_max(aead::max_nonce_size(a, p)),
          prefix(aead::nonce_prefix_size(a, p)), siv(a.family == aead::Family::siv),
          lead(siv ? aead::kSivSize : prefix), overhead(siv ? aead::kSivSize : prefix + tag),
          tls_aad(nonces.sequenced() ? nonces.required_aad_size() : SIZE_MAX), born(aead::fork_generation()),
          forgery_limit(aead::forgery_limit(a, p)),
          ccm(a.family == aead::Family::ccm) {
        for (size_t n = 0; n < ccm_max_plaintext.size(); ++n)
            ccm_max_plaintext[n] = ccm && n >= 7 && n <= 13 ? aead::ccm_max_plaintext(n) : a.max_plaintext;
    }
    aead_ctx(const aead_ctx &) = delete;
    aead_ctx &operator=(const aead_ctx &) = delete;

    const aead::Algorithm &alg;
    const int policy;
    const uint64_t epoch;  // DTLS: the epoch of the keys (DTLS 1.3 headers carry its low 2 bits)
    const size_t tag_size;
    const aead::TemplateOwner key;
    aead::WorkerCache workers;
    aead::NoncePolicy nonces;
    // What every call checks, derived once from the rules in algorithm.h and nonce_schedule.h.
    const size_t nonce_min, nonce_max;  // accepted nonce lengths
    const size_t prefix;                // nonce bytes before the ciphertext (random policy: 12)
    const bool siv;                     // AES-SIV: S2V components, through the SIV path (seal_open.cpp)
    const size_t lead;                  // bytes before the ciphertext: prefix, or SIV's synthetic IV
    const size_t overhead;              // prefix + tag (SIV: its IV)
    const size_t tls_aad;               // the AAD length a TLS seal must have; SIZE_MAX: any
    const uint64_t born;                // the fork generation of the process that made the context
    const uint64_t forgery_limit;       // failed opens after which opens are refused (QUIC); else UINT64_MAX
    const bool ccm;                     // AES-CCM: the plaintext limit depends on the nonce length
    std::array<uint64_t, 16> ccm_max_plaintext{};  // CCM: the plaintext limit by nonce length
    std::atomic<uint64_t> forgeries{0};  // opens that failed the tag check
    std::atomic<uint64_t> replays{0};    // opens the replay window refused
    // The receiving side's replay window (DTLS; QUIC when asked for), set once at creation; else NULL.
    std::unique_ptr<aead::ReplayWindow> window;
    uint32_t indicator = 0;             // AEAD_IND_* bits, fixed at creation
    const char *provider = "";          // the cipher's provider, static for the process
};
