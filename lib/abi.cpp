// The rest of the extern "C" boundary: context lifetime, error text, versions and sizes.
#include <cstdio>
#include <cstring>
#include <new>

#include "aead.h"
#include "context.h"

static_assert(AEAD_ABI_VERSION == LIBAEAD_SOVERSION, "AEAD_ABI_VERSION must equal the SONAME major in meson.build");

namespace {

// What libaead can say about a context under FIPS 140-3 (docs/fips.md): approved needs a FIPS
// provider's AES-GCM with a full tag, and for seals a nonce construction of IG C.H that this library
// enforces itself: the scenario its schedule row names (nonce_schedule.h), the random row's only when
// the DRBG is a FIPS provider's. An arbitrary caller nonce (AEAD_POLICY_NONE) is never an approved seal.
uint32_t fips_indicator(const aead_ctx &ctx, bool fips_cipher) noexcept {
    if (!fips_cipher) return 0;
    uint32_t bits = AEAD_IND_FIPS_PROVIDER;
    // AES-CCM (SP 800-38C) sets no nonce-construction condition like IG C.H's for GCM: a FIPS
    // provider's CCM seals and opens are approved with every nonce and tag length the contract takes.
    if (ctx.alg.family == aead::Family::ccm) return bits | AEAD_IND_SEAL_APPROVED | AEAD_IND_OPEN_APPROVED;
    if (!ctx.alg.gcm || ctx.tag_size != aead::kDefaultTagSize) return bits;
    bits |= AEAD_IND_OPEN_APPROVED;
    const aead::Schedule &s = ctx.nonces.schedule();
    const bool drbg_ok = s.form != aead::Form::random || aead::shim::drbg_is_fips();
    if (s.ig_ch != nullptr && drbg_ok) bits |= AEAD_IND_SEAL_APPROVED;
    return bits;
}

}  // namespace

int aead::ctx_create(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len, size_t tag_len,
                     const char *properties, const uint8_t *iv, size_t iv_len, RecordParams rp) noexcept {
    if (ctx_out == nullptr) return AEAD_ERR_ARG;
    *ctx_out = nullptr;
    const aead::Algorithm *a = aead::find_algorithm(alg);
    if (a == nullptr || !aead::valid_policy(*a, policy) || (key == nullptr && key_len != 0) ||
        (iv == nullptr && iv_len != 0) || (policy == aead::kPolicyHpke) != rp.hpke)
        return AEAD_ERR_ARG;
    const aead::Schedule &s = aead::schedule_of(*a, policy);
    if (s.window == aead::Window::required && !rp.windowed) return AEAD_ERR_ARG;  // DTLS: aead_ctx_new_dtls
    if (rp.windowed) {
        if (s.window == aead::Window::none) return AEAD_ERR_ARG;
        if (s.window == aead::Window::required && rp.window == 0) rp.window = AEAD_DTLS_DEFAULT_WINDOW;
        if (rp.window != 0 && !aead::ReplayWindow::valid_width(rp.window)) return AEAD_ERR_ARG;
        // DTLS 1.2's epoch is 16 bits of every nonce; QUIC has none; DTLS 1.3 headers carry its low bits.
        if (rp.epoch > s.max_epoch()) return AEAD_ERR_ARG;
    }
    if (key_len != a->key_size) return AEAD_ERR_KEY_SIZE;
    if (tag_len == 0) tag_len = aead::kDefaultTagSize;
    if (!aead::valid_tag_size(*a, policy, tag_len)) return AEAD_ERR_TAG_SIZE;
    if (!s.takes_iv(iv_len)) return AEAD_ERR_NONCE_SIZE;

    aead::shim::CipherSource *source = nullptr;
    if (const int rc = aead::shim::cipher_source(properties, &source)) return rc;
    aead::shim::Template *t = nullptr;
    if (const int rc = aead::shim::template_new(&t, *source, a->cipher, {key, key_len}, tag_len)) return rc;
    auto *ctx = new (std::nothrow) aead_ctx(*a, policy, tag_len, t, iv, iv_len, rp.epoch);
    if (ctx == nullptr) {
        aead::shim::template_free(t);
        return AEAD_ERR_NOMEM;
    }
    if (rp.window != 0 && !(ctx->window = aead::ReplayWindow::create(rp.window))) {
        delete ctx;
        return AEAD_ERR_NOMEM;
    }
    // One working context now: a key the provider cannot use fails here rather than on first use,
    // and the first call finds a context waiting.
    aead::shim::Worker *w = nullptr;
    if (const int rc = aead::shim::worker_new(*ctx->key, &w)) {
        delete ctx;
        return rc;
    }
    ctx->workers.give(ctx->workers.adopt(w));
    const aead::shim::Provenance from = aead::shim::template_provenance(*ctx->key);
    ctx->provider = from.provider;
    ctx->indicator = fips_indicator(*ctx, from.fips);
    *ctx_out = ctx;
    return 0;
}

namespace {
using aead::ctx_create;
using aead::RecordParams;

// "1.1.0" -> 10100, at compile time, so the header's AEAD_VERSION_NUMBER is tied to meson's version.
constexpr uint32_t version_number(const char *v) noexcept {
    uint32_t parts[3] = {0, 0, 0};
    for (size_t k = 0; *v != 0 && k < 3; ++v) {
        if (*v == '.') ++k;
        else parts[k] = parts[k] * 10 + static_cast<uint32_t>(*v - '0');
    }
    return parts[0] * 10000 + parts[1] * 100 + parts[2];
}
static_assert(version_number(LIBAEAD_VERSION) == AEAD_VERSION_NUMBER,
              "AEAD_VERSION_NUMBER in aead.h must match the project version in meson.build");

}  // namespace

extern "C" {

AEAD_API int aead_ctx_new(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                          size_t tag_len) noexcept {
    return ctx_create(ctx_out, alg, policy, key, key_len, tag_len, nullptr, nullptr, 0);
}

AEAD_API int aead_ctx_new_ex(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                             size_t tag_len, const char *properties, const uint8_t *iv, size_t iv_len) noexcept {
    return ctx_create(ctx_out, alg, policy, key, key_len, tag_len, properties, iv, iv_len);
}

AEAD_API int aead_ctx_new_dtls(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                               size_t tag_len, const char *properties, const uint8_t *iv, size_t iv_len,
                               uint64_t epoch, uint32_t window) noexcept {
    return ctx_create(ctx_out, alg, policy, key, key_len, tag_len, properties, iv, iv_len,
                      RecordParams{true, epoch, window});
}

AEAD_API uint32_t aead_ctx_indicator(const aead_ctx *ctx) noexcept { return ctx != nullptr ? ctx->indicator : 0; }

AEAD_API const char *aead_ctx_provider(const aead_ctx *ctx) noexcept { return ctx != nullptr ? ctx->provider : ""; }

AEAD_API uint32_t aead_version_number(void) noexcept { return AEAD_VERSION_NUMBER; }

#ifdef AEAD_FAULT_INJECTION
// Test-only (fault-injection builds): sets how many random-nonce seals a context has made, so that the
// 2^32 limit can be tested without 2^32 seals.
AEAD_API void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept { ctx->nonces.test_set_count(made); }
// Sets a QUIC context's seal and failed-open counts, so that the RFC 9001 limits can be tested.
AEAD_API void aead_test_set_usage(aead_ctx *ctx, uint64_t seals, uint64_t forgeries) noexcept {
    ctx->nonces.test_set_seals(seals);
    ctx->forgeries.store(forgeries, std::memory_order_relaxed);
}
#endif

AEAD_API void aead_ctx_free(aead_ctx *ctx) noexcept { delete ctx; }

AEAD_API int aead_ctx_usage(const aead_ctx *ctx, uint64_t *seals, uint64_t *forgeries) noexcept {
    if (ctx == nullptr) return AEAD_ERR_ARG;
    if (seals != nullptr) *seals = ctx->nonces.seals();
    if (forgeries != nullptr) *forgeries = ctx->forgeries.load(std::memory_order_relaxed);
    return 0;
}

AEAD_API int aead_ctx_usage_ex(const aead_ctx *ctx, aead_usage *usage, size_t usage_size) noexcept {
    if (ctx == nullptr || usage == nullptr || usage_size == 0) return AEAD_ERR_ARG;
    const aead::ReplayWindow *w = ctx->window.get();
    const aead_usage u = {
        ctx->nonces.seals(),
        ctx->forgeries.load(std::memory_order_relaxed),
        ctx->replays.load(std::memory_order_relaxed),
        w != nullptr ? w->accepted() : 0,
        ctx->nonces.seal_limit(),
        ctx->forgery_limit,
        w != nullptr ? w->width() : 0,
        w != nullptr ? w->largest() : UINT64_MAX,
        ctx->nonces.schedule().rekey_after,
    };
    // A caller built against an older, shorter aead_usage gets its prefix (fields are only appended).
    std::memcpy(usage, &u, usage_size < sizeof u ? usage_size : sizeof u);
    return 0;
}

AEAD_API const char *aead_strerror(int64_t code) noexcept {
    switch (code) {
        case 0: return "success";
        case AEAD_ERR_AUTH: return "authentication failed";
        case AEAD_ERR_ARG: return "invalid argument (NULL pointer with a length, NULL context, or unknown algorithm, policy or operation)";
        case AEAD_ERR_KEY_SIZE: return "invalid key size for the algorithm";
        case AEAD_ERR_NONCE_SIZE: return "invalid nonce size for the algorithm or policy";
        case AEAD_ERR_TAG_SIZE: return "invalid tag size for the algorithm or policy";
        case AEAD_ERR_AAD_SIZE: return "sequenced policy: additional data of the wrong length (13 bytes for (D)TLS 1.2, 5 for TLS 1.3, 4 for SSH)";
        case AEAD_ERR_TOO_LONG: return "input longer than the algorithm allows";
        case AEAD_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
        case AEAD_ERR_OVERLAP: return "output overlaps an input (only exact in-place is allowed)";
        case AEAD_ERR_NONCE_ORDER: return "sequenced policy: record number or counter not greater than the last one sealed (nonce reuse)";
        case AEAD_ERR_NONCE_EXHAUSTED: return "sequenced policy: record number or counter past the policy's last one (sequence exhausted)";
        case AEAD_ERR_NONCE_PREFIX: return "sequenced policy: the nonce's fixed part (or its DTLS 1.2 epoch) is not the context's";
        case AEAD_ERR_UNSUPPORTED: return "algorithm not available from the loaded OpenSSL providers (AES-GCM-SIV needs OpenSSL >= 3.2: build libaead with -Dlibcrypto=vendored; under fips=yes only AES-GCM and AES-CCM exist)";
        case AEAD_ERR_NOMEM: return "out of memory";
        case AEAD_ERR_CRYPTO: return "libcrypto failure";
        case AEAD_ERR_NONCE_LIMIT: return "random-nonce policy: the key's random nonces are spent (2^32 seals, SP 800-38D; AEGIS-128L/128X 2^48, RFC 10032); use a new key";
        case AEAD_ERR_KEY_LIMIT: return "QUIC, DTLS 1.3 or TLS 1.3 AES-GCM: this key reached its confidentiality or integrity limit (RFC 9001 section 6.6, RFC 9147 section 4.5.3, RFC 8446 section 5.5); update keys";
        case AEAD_ERR_REPLAY: return "replay window: record number already accepted, or older than the window (duplicate or replayed record)";
        case AEAD_ERR_AAD_MISMATCH: return "DTLS 1.2: the additional data's seq_num (epoch || sequence) differs from the nonce's";
        case AEAD_ERR_STREAM_FINISHED: return "stream: the final segment was sealed or opened; nothing may follow it";
        case AEAD_ERR_FORKED: return "sequenced policy: this context was created before fork(); seal only in the process that created it (open works)";
        default: return code > 0 ? "success" : "unknown error code";
    }
}

AEAD_API uint32_t aead_abi_version(void) noexcept { return AEAD_ABI_VERSION; }

AEAD_API const char *aead_version(void) noexcept {
    // Built once (thread-safe static initialisation); the libcrypto part is the one loaded at run time.
    static const struct Text {
        char s[160];
        Text() noexcept {
            std::snprintf(s, sizeof s, "libaead %s (%s)", LIBAEAD_VERSION, aead::shim::libcrypto_version());
        }
    } text;
    return text.s;
}

AEAD_API size_t aead_key_size(int alg) noexcept {
    const aead::Algorithm *a = aead::find_algorithm(alg);
    return a != nullptr ? a->key_size : 0;
}

AEAD_API size_t aead_nonce_size(int alg) noexcept {
    const aead::Algorithm *a = aead::find_algorithm(alg);
    return a != nullptr ? a->nonce_size : 0;
}

AEAD_API size_t aead_tag_size(int alg) noexcept {
    return aead::find_algorithm(alg) != nullptr ? aead::kDefaultTagSize : 0;
}

}  // extern "C"
