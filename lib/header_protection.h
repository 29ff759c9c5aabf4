// The aead_hp behind the opaque handle: a header-protection key (QUIC) or record-number key (DTLS 1.3),
// with its per-thread working contexts.
#pragma once

#include <cstdint>

#include "../shim/shim.h"
#include "worker_cache.h"

struct aead_hp {
    explicit aead_hp(aead::shim::HpKey *k) noexcept : key(k) {}
    aead_hp(const aead_hp &) = delete;
    aead_hp &operator=(const aead_hp &) = delete;
    ~aead_hp() { aead::shim::hp_key_free(key); }  // after the workers (declared below), which go first

    aead::shim::HpKey *const key;
    aead::WorkerCacheOf<aead::shim::HpWorker> workers;
};

namespace aead {

// The 5-byte mask of one 16-byte sample (RFC 9001 section 5.4, RFC 9147 section 4.2.3). 0, or
// AEAD_ERR_NOMEM / AEAD_ERR_CRYPTO (the failed worker is dropped).
int mask_of(aead_hp &hp, const uint8_t *sample, uint8_t *mask) noexcept;

}  // namespace aead
