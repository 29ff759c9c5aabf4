// QUIC header protection: the 5-byte mask of RFC 9001 section 5.4 from AES-ECB or ChaCha20, on fetched
// ciphers and per-thread working contexts, as for the AEADs.
#include <array>
#include <cstring>
#include <new>

#include "fault_injection.h"
#include "openssl_owners.h"
#include "registry.h"

namespace aead::shim {

struct HpKey {
    const EVP_CIPHER *cipher = nullptr;
    HpCipher kind = HpCipher::aes_128_ecb;
    unsigned char key[32] = {};

    HpKey() = default;
    HpKey(const HpKey &) = delete;
    HpKey &operator=(const HpKey &) = delete;
    ~HpKey() { OPENSSL_cleanse(key, sizeof key); }
};

struct HpWorker {
    CipherCtxPtr ctx;
    HpCipher kind = HpCipher::aes_128_ecb;
};

int hp_key_new(HpKey **out, CipherSource &src, HpCipher c, Bytes key) noexcept {
    *out = nullptr;
    if (key.size != kHpRows[static_cast<size_t>(c)].key_size) return AEAD_ERR_KEY_SIZE;
    const EVP_CIPHER *cipher = fetched_hp_cipher(src, c);
    if (cipher == nullptr) return AEAD_ERR_UNSUPPORTED;
    auto *k = new (std::nothrow) HpKey;
    if (k == nullptr) return AEAD_ERR_NOMEM;
    k->cipher = cipher;
    k->kind = c;
    std::memcpy(k->key, key.data, key.size);
    *out = k;
    return 0;
}

void hp_key_free(HpKey *k) noexcept { delete k; }

int hp_worker_new(const HpKey &k, HpWorker **out) noexcept {
    *out = nullptr;
    CipherCtxPtr ctx(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
    if (!ctx) return AEAD_ERR_NOMEM;
    if (fault_point() || EVP_CipherInit_ex2(ctx.get(), k.cipher, k.key, nullptr, 1, nullptr) != 1) return failure_code();
    // ECB without padding: one block in, one block out, and no state carried between calls.
    if (k.kind != HpCipher::chacha20 && (fault_point() || EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1))
        return failure_code();
    auto *w = new (std::nothrow) HpWorker;
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->ctx = std::move(ctx);
    w->kind = k.kind;
    *out = w;
    return 0;
}

void worker_free(HpWorker *w) noexcept { delete w; }

int hp_mask(HpWorker &w, const uint8_t *sample, uint8_t *mask) noexcept {
    EVP_CIPHER_CTX *c = w.ctx.get();
    int len = 0;
    if (w.kind == HpCipher::chacha20) {
        // OpenSSL's "ChaCha20" IV is the 4-byte little-endian block counter then the 12-byte nonce:
        // exactly the sample's layout in RFC 9001 section 5.4.4.
        static constexpr uint8_t kZeros[5] = {};
        if (fault_point() || EVP_CipherInit_ex2(c, nullptr, nullptr, sample, 1, nullptr) != 1 ||
            fault_point() || EVP_CipherUpdate(c, mask, &len, kZeros, sizeof kZeros) != 1 || len != 5)
            return failure_code();
        return 0;
    }
    uint8_t block[16];
    if (fault_point() || EVP_CipherUpdate(c, block, &len, sample, 16) != 1 || len != 16) return failure_code();
    std::memcpy(mask, block, 5);
    OPENSSL_cleanse(block, sizeof block);
    return 0;
}

}  // namespace aead::shim
