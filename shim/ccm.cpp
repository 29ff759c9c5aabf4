// AES-CCM: the payload length goes in before any AAD (Update(NULL, NULL, len)); AAD and payload in one
// update each; an open's tag is checked in the payload update, so that update is made even for an empty
// message (with no payload call a CCM final checks nothing). The nonce length (L = 15 - n) and the tag
// length are fixed with the key: a worker keeps a context per nonce length 7..13 and direction.
#include "keyed_family.h"

namespace aead::shim {

namespace {

constexpr size_t kMinNonce = 7, kMaxNonce = 13;

// What is set before the key: the nonce length (its lifetime: ivl's) and the tag length.
struct CcmBeforeKey {
    size_t ivl;
    OSSL_PARAM p[3];
    CcmBeforeKey(size_t nonce_len, size_t tag_len) noexcept
        : ivl(nonce_len),
          p{OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl),
            OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, tag_len), OSSL_PARAM_END} {}
    CcmBeforeKey(const CcmBeforeKey &) = delete;
    CcmBeforeKey &operator=(const CcmBeforeKey &) = delete;
    const OSSL_PARAM *params() const noexcept { return p; }
};

struct CcmSteps : PlainSteps {
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

struct Ccm {
    using W = VariantWorker<(kMaxNonce - kMinNonce + 1) * 2>;
    using BeforeKey = CcmBeforeKey;
    static constexpr size_t kFirstNonce = 12;
    // Out of range (below kMinNonce it wraps): past the worker's contexts, refused.
    static constexpr size_t variant(size_t nonce_len, bool seal) noexcept {
        return (nonce_len - kMinNonce) * 2 + (seal ? 0 : 1);
    }
    static CcmSteps steps(W &, size_t) noexcept { return {}; }
};

// With a 13-byte nonce and a 16-byte tag.
Check ccm_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    const CcmBeforeKey b(13, 16);
    return keyed_self_test(cipher, d, 13, b.params(), [](size_t *) { return CcmSteps{}; });
}

}  // namespace

constinit const FamilyOps kCcmFamily = keyed_family_ops<Ccm>(ccm_self_test);

}  // namespace aead::shim
