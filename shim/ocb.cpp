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

int ocb_worker_new(const Template &t, Worker **out) noexcept { return variant_worker_new<OcbWorker>(t, out, 0, nullptr); }

template <bool Seal>
int ocb_call(Worker &base, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<OcbWorker &>(base);
    const size_t i = Seal ? 0 : 1;
    void *prov = nullptr;
    EVP_CIPHER_CTX *evp = nullptr;
    if (const int rc = w.context(i, nullptr, Seal, prov, evp)) return rc;
    return keyed_run<Seal>(OcbSteps{{}, &w.iv_len[i]}, w.direct, prov, evp, {nullptr, 0}, nonce, aad, in, tag, out, tag_len);
}

int ocb_seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return ocb_call<true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
}
int ocb_open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return ocb_call<false>(w, nonce, aad, ciphertext, tag, out, tag.size);
}

Check ocb_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    return keyed_self_test(cipher, d, 12, nullptr, [](size_t *iv) { return OcbSteps{{}, iv}; });
}

}  // namespace

const FamilyOps kOcbFamily = {"ocb", false, kept_key_template, ocb_worker_new, ocb_seal, ocb_open, ocb_self_test,
                              libcrypto_provenance};

}  // namespace aead::shim
