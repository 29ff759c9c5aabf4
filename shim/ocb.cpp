// AES-OCB3 (RFC 7253): nonces of 1..15 bytes, the IV length set on a context when it changes; updates
// hold back a partial block, which final writes. A worker keeps a keyed context per direction (OpenSSL
// picks its accelerated block functions, encrypting or decrypting, with the key).
#include "keyed_family.h"

namespace aead::shim {

namespace {

struct OcbWorker : VariantWorker<2> {
    size_t iv_len[2] = {12, 12};  // the IV length its seal and open contexts are set to
};

struct OcbSteps : PlainSteps {
    size_t *cur;  // the context's IV length
    template <typename Ops>
    bool iv(const Ops &o, size_t nonce_len) const noexcept { return set_iv_len(o, *cur, nonce_len); }
};

struct Ocb {
    using W = OcbWorker;
    using BeforeKey = NoneBeforeKey;
    static constexpr size_t kFirstNonce = 12;
    static constexpr size_t variant(size_t, bool seal) noexcept { return seal ? 0 : 1; }
    static OcbSteps steps(W &w, size_t i) noexcept { return {{}, &w.iv_len[i]}; }
};

Check ocb_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    return keyed_self_test(cipher, d, 12, nullptr, [](size_t *iv) { return OcbSteps{{}, iv}; });
}

}  // namespace

constinit const FamilyOps kOcbFamily = keyed_family_ops<Ocb>(ocb_self_test);

}  // namespace aead::shim
