// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): ChaCha20-Poly1305 keyed per call with the subkey
// HChaCha20(key, nonce[0..16]) and the 12-byte nonce 0^4 || nonce[16..24]. The template keeps the key; a
// worker has the ChaCha20-Poly1305 context it re-keys, and a ChaCha20 context keyed with the key that
// derives the subkeys.
#include <cstring>

#include "keyed_family.h"

namespace aead::shim {

namespace {

struct XChaChaTemplate : KeyedTemplate {
    const EVP_CIPHER *hchacha = nullptr;  // "ChaCha20", for the HChaCha20 subkey
};

struct XChaChaWorker : Worker {
    CipherCtxPtr hchacha;  // ChaCha20 keyed with the key (EVP)
    NoncePool pool;
    XChaChaWorker() noexcept { nonces = &pool; }
};

int xchacha_template_new(Template **out, const Row &row, const Keying &k, Bytes key, size_t tag_len) noexcept {
    // GCOVR_EXCL_START a provider with ChaCha20-Poly1305 but no ChaCha20: not OpenSSL's
    const EVP_CIPHER *hchacha = fetched_hp_cipher(*k.source, HpCipher::chacha20);
    if (hchacha == nullptr) return AEAD_ERR_UNSUPPORTED;
    // GCOVR_EXCL_STOP
    auto *t = new_template<XChaChaTemplate>(row, k);
    if (t == nullptr) return AEAD_ERR_NOMEM;
    t->hchacha = hchacha;
    t->tag_len = tag_len;
    t->keep(key);
    *out = t;
    return 0;
}

int xchacha_worker_new(const Template &base, Worker **out) noexcept {
    const auto &t = static_cast<const XChaChaTemplate &>(base);
    auto *w = new_worker<XChaChaWorker>(t);
    if (w == nullptr) return AEAD_ERR_NOMEM;
    int rc = keyed_context(t, nullptr, true, w->ctx, w->pctx);
    if (rc == 0) {
        w->hchacha.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!w->hchacha) rc = AEAD_ERR_NOMEM;
        else if (fault_point() || EVP_CipherInit_ex2(w->hchacha.get(), t.hchacha, t.key, nullptr, 1, nullptr) != 1)
            rc = failure_code();
    }
    if (rc != 0) {
        delete w;
        return rc;
    }
    *out = w;
    return 0;
}

uint32_t load_le32(const uint8_t *p) noexcept {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
void store_le32(uint8_t *p, uint32_t v) noexcept {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// HChaCha20(key, nonce[0..16]) from OpenSSL's ChaCha20: its 16-byte IV is state words 12..15 (counter ||
// nonce), so one keystream block of zeros is permute(state) + state word by word; subtracting the
// known words (the constants 0..3, the IV 12..15) leaves the permuted words HChaCha20 outputs.
// The key words 4..11 are not needed. docs/algorithms.md.
int hchacha20(XChaChaWorker &w, const uint8_t *nonce16, uint8_t subkey[32]) noexcept {
    static constexpr uint8_t zeros[64] = {};
    static constexpr uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"
    uint8_t block[64];
    int n = 0;
    if (fault_point() || EVP_CipherInit_ex2(w.hchacha.get(), nullptr, nullptr, nonce16, 1, nullptr) != 1 ||
        fault_point() || EVP_CipherUpdate(w.hchacha.get(), block, &n, zeros, sizeof zeros) != 1 || n != 64) {
        OPENSSL_cleanse(block, sizeof block);
        return failure_code();
    }
    for (int i = 0; i < 4; ++i) {
        store_le32(subkey + 4 * i, load_le32(block + 4 * i) - sigma[i]);
        store_le32(subkey + 16 + 4 * i, load_le32(block + 48 + 4 * i) - load_le32(nonce16 + 4 * i));
    }
    OPENSSL_cleanse(block, sizeof block);
    return 0;
}

template <bool Seal>
int xchacha_call(Worker &base, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<XChaChaWorker &>(base);
    if (nonce.size != 24) return AEAD_ERR_CRYPTO;  // lib/ never passes one
    uint8_t subkey[32];
    if (const int rc = hchacha20(w, nonce.data, subkey)) return rc;
    uint8_t short_nonce[12] = {};
    std::memcpy(short_nonce + 4, nonce.data + 16, 8);
    const int rc = keyed_run<Seal>(PlainSteps{}, w.direct, w.pctx.get(), w.ctx.get(), {subkey, sizeof subkey},
                                   {short_nonce, sizeof short_nonce}, aad, in, tag, out, tag_len);
    OPENSSL_cleanse(subkey, sizeof subkey);
    return rc;
}

int xchacha_seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return xchacha_call<true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
}
int xchacha_open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return xchacha_call<false>(w, nonce, aad, ciphertext, tag, out, tag.size);
}

}  // namespace

// No self-test: it runs on ChaCha20-Poly1305's slot, whose row's family checks it.
const FamilyOps kXChaChaFamily = {
    .uses_copies = false,
    .template_new = xchacha_template_new,
    .worker_new = xchacha_worker_new,
    .frees = frees_of<XChaChaTemplate, XChaChaWorker>,
    .seal = xchacha_seal,
    .open = xchacha_open,
    .self_test = nullptr,
    .provenance = libcrypto_provenance,
};

}  // namespace aead::shim
