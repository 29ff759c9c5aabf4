// AES-GCM-SIV (RFC 8452): one operation per init; the AAD accumulates across operations until an empty
// AAD update resets it, so every call starts with one; the payload goes in one update, made even when
// empty (the tag is computed there). A worker keeps a keyed context per direction.
#include "keyed_family.h"

namespace aead::shim {

namespace {

struct GcmSivSteps : PlainSteps {
    template <typename Ops>
    bool aad(const Ops &o, Bytes aad, size_t) const noexcept {
        size_t w = 0;
        if (fault_point() || !o.update(nullptr, w, g_empty, 0)) return false;
        return feed(o, nullptr, aad, w);
    }
    template <typename Ops>
    int payload(const Ops &o, uint8_t *out, Bytes in, size_t &done, bool) const noexcept {
        if (fault_point() || !one_update(o, out, in, done)) return failure_code();
        return 0;
    }
};

struct GcmSiv {
    using W = VariantWorker<2>;
    using BeforeKey = NoneBeforeKey;
    static constexpr size_t kFirstNonce = 12;
    static constexpr size_t variant(size_t, bool seal) noexcept { return seal ? 0 : 1; }
    static GcmSivSteps steps(W &, size_t) noexcept { return {}; }
};

Check gcm_siv_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    return keyed_self_test(cipher, d, 12, nullptr, [](size_t *) { return GcmSivSteps{}; });
}

}  // namespace

constinit const FamilyOps kGcmSivFamily = keyed_family_ops<GcmSiv>(gcm_siv_self_test);

}  // namespace aead::shim
