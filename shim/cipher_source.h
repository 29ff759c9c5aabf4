// The fetched ciphers of one property query, and what is learnt about each, per slot (registry.h).
// ciphers.cpp fetches and probes; dispatch.cpp decides how each runs.
#pragma once

#include <array>
#include <atomic>

#include "openssl_owners.h"

namespace aead::shim {

// Ciphers fetched with one property query. Nodes are created on first use of a query and live for the
// life of the process (as the ciphers they hold do), linked into a lock-free list.
struct CipherSource {
    enum : int { kProbeUnknown = 0, kCopyWorks = 1, kCopyBroken = 2 };

    char properties[kMaxProperties + 1] = {};  // "" : the library context's default properties
    std::array<std::atomic<EVP_CIPHER *>, kFetchedCiphers> ciphers{};
    std::array<std::atomic<int>, kFetchedCiphers> copy_probe{};
    std::array<std::atomic<int>, kFetchedCiphers> fips{};  // kProbeUnknown, or 1 + whether a FIPS provider's
    std::array<std::atomic<const Dispatch *>, kFetchedCiphers> dispatch{};  // NULL: undecided; &g_via_evp: EVP
    std::array<std::atomic<EVP_CIPHER *>, 3> hp_ciphers{};    // QUIC header protection, by HpCipher
    std::atomic<int> fips_query{};  // kProbeUnknown, or 1 + whether the query selects FIPS providers
    CipherSource *next = nullptr;

    const char *query() const noexcept { return properties[0] != 0 ? properties : nullptr; }
};

}  // namespace aead::shim
