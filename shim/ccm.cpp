// AES-CCM: the payload length goes in before any AAD (Update(NULL, NULL, len)); AAD and payload in one
// update each; an open's tag is checked in the payload update, so that update is made even for an empty
// message (with no payload call a CCM final checks nothing). The nonce length (L = 15 - n) and the tag
// length are fixed with the key: a worker keeps a context per nonce length 7..13 and direction.
#include "keyed_family.h"

namespace aead::shim {

namespace {

constexpr size_t kMinNonce = 7, kMaxNonce = 13;
using CcmWorker = VariantWorker<(kMaxNonce - kMinNonce + 1) * 2>;

constexpr size_t variant(size_t nonce_len, bool seal) noexcept { return (nonce_len - kMinNonce) * 2 + (seal ? 0 : 1); }

// What is set before the key: the nonce length (its lifetime: *ivl's) and the tag length.
struct BeforeKey {
    size_t ivl;
    OSSL_PARAM p[3];
    BeforeKey(size_t nonce_len, size_t tag_len) noexcept
        : ivl(nonce_len),
          p{OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl),
            OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, tag_len), OSSL_PARAM_END} {}
    BeforeKey(const BeforeKey &) = delete;
    BeforeKey &operator=(const BeforeKey &) = delete;
};

struct CcmSteps {
    template <typename Ops>
    bool iv(const Ops &, size_t) const noexcept { return true; }
    template <typename Ops>
    bool aad(const Ops &o, Bytes aad, size_t payload) const noexcept {
        size_t w = 0;
        if (fault_point() || !o.update(nullptr, w, nullptr, payload)) return false;
        return aad.size == 0 || (!fault_point() && o.update(nullptr, w, aad.data, aad.size));
    }
    template <typename Ops>
    int payload(const Ops &o, uint8_t *out, Bytes in, size_t &done, bool open) const noexcept {
        if (fault_point()) return failure_code();
        if (!one_update(o, out, in, done)) return open ? auth_failure() : failure_code();
        return 0;
    }
};

int ccm_worker_new(const Template &t, Worker **out) noexcept {
    const BeforeKey b(12, static_cast<const KeyedTemplate &>(t).tag_len);
    return variant_worker_new<CcmWorker>(t, out, variant(12, true), b.p);
}

template <bool Seal>
int ccm_call(Worker &base, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<CcmWorker &>(base);
    if (nonce.size < kMinNonce || nonce.size > kMaxNonce)
        return AEAD_ERR_CRYPTO;  // lib/ never passes one  GCOVR_EXCL_LINE (lib/seal_open.cpp checks nonce sizes first)
    void *prov = nullptr;
    EVP_CIPHER_CTX *evp = nullptr;
    const BeforeKey b(nonce.size, w.tmpl->tag_len);
    if (const int rc = w.context(variant(nonce.size, Seal), b.p, Seal, prov, evp)) return rc;
    return keyed_run<Seal>(CcmSteps{}, w.direct, prov, evp, {nullptr, 0}, nonce, aad, in, tag, out, tag_len);
}

int ccm_seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return ccm_call<true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
}
int ccm_open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return ccm_call<false>(w, nonce, aad, ciphertext, tag, out, tag.size);
}

// With a 13-byte nonce and a 16-byte tag.
Check ccm_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    const BeforeKey b(13, 16);
    return keyed_self_test(cipher, d, 13, b.p, [](size_t *) { return CcmSteps{}; });
}

}  // namespace

const FamilyOps kCcmFamily = {"ccm", false, kept_key_template, ccm_worker_new, ccm_seal, ccm_open, ccm_self_test,
                              libcrypto_provenance};

}  // namespace aead::shim
