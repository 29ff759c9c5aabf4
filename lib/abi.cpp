// The rest of the extern "C" boundary: context lifetime, error text, versions and sizes.
#include <cstdio>
#include <new>

#include "aead.h"
#include "context.h"

static_assert(AEAD_ABI_VERSION == LIBAEAD_SOVERSION, "AEAD_ABI_VERSION must equal the SONAME major in meson.build");

extern "C" {

AEAD_API int aead_ctx_new(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                          size_t tag_len) noexcept {
    if (ctx_out == nullptr) return AEAD_ERR_ARG;
    *ctx_out = nullptr;
    const aead::Algorithm *a = aead::find_algorithm(alg);
    if (a == nullptr || !aead::valid_policy(policy) || (key == nullptr && key_len != 0)) return AEAD_ERR_ARG;
    if (key_len != a->key_size) return AEAD_ERR_KEY_SIZE;
    if (tag_len == 0) tag_len = aead::kDefaultTagSize;
    if (!aead::valid_tag_size(*a, policy, tag_len)) return AEAD_ERR_TAG_SIZE;

    aead::shim::Template *t = nullptr;
    if (const int rc = aead::shim::template_new(&t, a->cipher, {key, key_len})) return rc;
    auto *ctx = new (std::nothrow) aead_ctx(*a, policy, tag_len, t);
    if (ctx == nullptr) {
        aead::shim::template_free(t);
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
    *ctx_out = ctx;
    return 0;
}

AEAD_API void aead_ctx_free(aead_ctx *ctx) noexcept { delete ctx; }

AEAD_API const char *aead_strerror(int64_t code) noexcept {
    switch (code) {
        case 0: return "success";
        case AEAD_ERR_AUTH: return "authentication failed";
        case AEAD_ERR_ARG: return "invalid argument (NULL pointer with a length, NULL context, or unknown algorithm, policy or operation)";
        case AEAD_ERR_KEY_SIZE: return "invalid key size for the algorithm";
        case AEAD_ERR_NONCE_SIZE: return "invalid nonce size for the algorithm or policy";
        case AEAD_ERR_TAG_SIZE: return "invalid tag size for the algorithm or policy";
        case AEAD_ERR_AAD_SIZE: return "TLS policy: additional data must be 13 bytes (TLS 1.2) or 5 bytes (TLS 1.3)";
        case AEAD_ERR_TOO_LONG: return "input longer than the algorithm allows";
        case AEAD_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
        case AEAD_ERR_OVERLAP: return "output overlaps an input (only exact in-place is allowed)";
        case AEAD_ERR_NONCE_ORDER: return "TLS policy: record sequence number not greater than the last one sealed (nonce reuse)";
        case AEAD_ERR_NONCE_EXHAUSTED: return "TLS policy: record sequence number 2^64-1 (sequence exhausted)";
        case AEAD_ERR_NONCE_PREFIX: return "TLS policy: fixed nonce prefix changed";
        case AEAD_ERR_UNSUPPORTED: return "algorithm not available from the loaded OpenSSL providers";
        case AEAD_ERR_NOMEM: return "out of memory";
        case AEAD_ERR_CRYPTO: return "libcrypto failure";
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
    return aead::find_algorithm(alg) != nullptr ? aead::kDefaultNonceSize : 0;
}

AEAD_API size_t aead_tag_size(int alg) noexcept {
    return aead::find_algorithm(alg) != nullptr ? aead::kDefaultTagSize : 0;
}

}  // extern "C"
