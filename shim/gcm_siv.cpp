// AES-GCM-SIV (RFC 8452): one operation per init; the AAD accumulates across operations until an empty
// AAD update resets it, so every call starts with one; the payload goes in one update, made even when
// empty (the tag is computed there). A worker keeps a keyed context per direction.
#include "keyed_family.h"

namespace aead::shim {

namespace {

using GcmSivWorker = VariantWorker<2>;

struct GcmSivSteps {
    template <typename Ops>
    bool iv(const Ops &, size_t) const noexcept { return true; }
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

int gcm_siv_worker_new(const Template &t, Worker **out) noexcept {
    return variant_worker_new<GcmSivWorker>(t, out, 0, nullptr);
}

template <bool Seal>
int gcm_siv_call(Worker &base, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<GcmSivWorker &>(base);
    void *prov = nullptr;
    EVP_CIPHER_CTX *evp = nullptr;
    if (const int rc = w.context(Seal ? 0 : 1, nullptr, Seal, prov, evp)) return rc;
    return keyed_run<Seal>(GcmSivSteps{}, w.direct, prov, evp, {nullptr, 0}, nonce, aad, in, tag, out, tag_len);
}

int gcm_siv_seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return gcm_siv_call<true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
}
int gcm_siv_open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return gcm_siv_call<false>(w, nonce, aad, ciphertext, tag, out, tag.size);
}

Check gcm_siv_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    return keyed_self_test(cipher, d, 12, nullptr, [](size_t *) { return GcmSivSteps{}; });
}

}  // namespace

const FamilyOps kGcmSivFamily = {"gcm-siv", false, kept_key_template, gcm_siv_worker_new, gcm_siv_seal, gcm_siv_open,
                                 gcm_siv_self_test, libcrypto_provenance};

}  // namespace aead::shim
