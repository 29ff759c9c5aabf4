// The aead_ctx behind the opaque handle of the public API.
#pragma once

#include <cstddef>

#include "algorithm.h"
#include "fork_guard.h"
#include "nonce_policy.h"
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

struct aead_ctx {
    aead_ctx(const aead::Algorithm &a, int p, size_t tag, aead::shim::Template *t, const uint8_t *iv,
             size_t iv_len) noexcept
        : alg(a), policy(p), tag_size(tag), key(t), nonces(p, a.gcm, iv, iv_len),
          nonce_min(aead::min_nonce_size(a, p)), nonce_max(aead::max_nonce_size(a, p)),
          prefix(aead::nonce_prefix_size(p)), overhead(prefix + tag),
          tls_aad(nonces.sequenced() ? nonces.required_aad_size() : SIZE_MAX), born(aead::fork_generation()) {}
    aead_ctx(const aead_ctx &) = delete;
    aead_ctx &operator=(const aead_ctx &) = delete;

    const aead::Algorithm &alg;
    const int policy;
    const size_t tag_size;
    const aead::TemplateOwner key;
    aead::WorkerCache workers;
    aead::NoncePolicy nonces;
    // What every call checks, derived once from the rules in algorithm.h and nonce_policy.h.
    const size_t nonce_min, nonce_max;  // accepted nonce lengths
    const size_t prefix;                // nonce bytes before the ciphertext (random policy: 12)
    const size_t overhead;              // prefix + tag
    const size_t tls_aad;               // the AAD length a TLS seal must have; SIZE_MAX: any
    const uint64_t born;                // the fork generation of the process that made the context
    uint32_t indicator = 0;             // AEAD_IND_* bits, fixed at creation
    const char *provider = "";          // the cipher's provider, static for the process
};
