// Cipher fetching (once per process) and the runtime probe of EVP_CIPHER_CTX_copy.
#include <array>
#include <atomic>
#include <cstring>

#include <openssl/crypto.h>

#include "openssl_owners.h"
#include "shim.h"

namespace aead::shim {
namespace {

constexpr std::array<const char *, 4> kCipherNames = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM",
                                                      "ChaCha20-Poly1305"};
constexpr std::array<int, 4> kKeySizes = {16, 24, 32, 32};

std::array<std::atomic<EVP_CIPHER *>, 4> g_ciphers{};

enum : int { kProbeUnknown = 0, kCopyWorks = 1, kCopyBroken = 2 };
std::array<std::atomic<int>, 4> g_copy_probe{};

// OpenSSL fixed EVP_CIPHER_CTX_copy of GCM and ChaCha20-Poly1305 contexts (the copy shared the
// original's key schedule) in 3.0.13, 3.1.5 and 3.2.1 (openssl#21955, #21853, #22096).
bool version_has_copy_fix() noexcept {
    const unsigned long major = OPENSSL_version_major();
    const unsigned long minor = OPENSSL_version_minor();
    const unsigned long patch = OPENSSL_version_patch();
    if (major != 3) return major > 3;
    if (minor == 0) return patch >= 13;
    if (minor == 1) return patch >= 5;
    if (minor == 2) return patch >= 1;
    return true;
}

// Seals one fixed message; returns false on any failure.
bool seal_fixed(EVP_CIPHER_CTX *c, std::array<unsigned char, 48> &out) noexcept {
    static constexpr unsigned char nonce[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static constexpr unsigned char msg[32] = {42};
    int len = 0;
    if (EVP_CipherInit_ex2(c, nullptr, nullptr, nonce, 1, nullptr) != 1) return false;
    if (EVP_CipherUpdate(c, out.data(), &len, msg, sizeof msg) != 1 || len != sizeof msg) return false;
    if (EVP_CipherFinal_ex(c, out.data() + sizeof msg, &len) != 1) return false;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out.data() + sizeof msg, 16), OSSL_PARAM_END};
    return EVP_CIPHER_CTX_get_params(c, p) == 1;
}

enum class Probe { works, broken, inconclusive };

// A copy must seal exactly as a context keyed directly, and keep doing so once the original is gone.
// A failure to allocate or key the probe's own contexts proves nothing about copying: inconclusive.
Probe probe_copy(int index) noexcept {
    const EVP_CIPHER *cipher = fetched_cipher(index);
    if (cipher == nullptr) return Probe::inconclusive;
    if (!version_has_copy_fix()) return Probe::broken;
    std::array<unsigned char, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0xA5 ^ i);
    CipherCtxPtr original(EVP_CIPHER_CTX_new()), copy(EVP_CIPHER_CTX_new()), direct(EVP_CIPHER_CTX_new());
    if (!original || !copy || !direct) return Probe::inconclusive;
    if (EVP_CipherInit_ex2(original.get(), cipher, key.data(), nullptr, 1, nullptr) != 1 ||
        EVP_CipherInit_ex2(direct.get(), cipher, key.data(), nullptr, 1, nullptr) != 1)
        return Probe::inconclusive;
    std::array<unsigned char, 48> expected{}, got{};
    if (!seal_fixed(direct.get(), expected)) return Probe::inconclusive;
    if (EVP_CIPHER_CTX_copy(copy.get(), original.get()) != 1) return Probe::broken;
    original.reset();
    return seal_fixed(copy.get(), got) && got == expected ? Probe::works : Probe::broken;
}

}  // namespace

const EVP_CIPHER *fetched_cipher(int index) noexcept {
    auto &slot = g_ciphers[static_cast<size_t>(index)];
    EVP_CIPHER *c = slot.load(std::memory_order_acquire);
    if (c != nullptr) return c;
    c = EVP_CIPHER_fetch(nullptr, kCipherNames[static_cast<size_t>(index)], nullptr);
    if (c == nullptr) {
        ERR_clear_error();
        return nullptr;
    }
    if (EVP_CIPHER_get_key_length(c) != kKeySizes[static_cast<size_t>(index)]) {
        EVP_CIPHER_free(c);
        return nullptr;
    }
    EVP_CIPHER *expected = nullptr;
    if (!slot.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) {
        EVP_CIPHER_free(c);  // another thread fetched it first
        return expected;
    }
    return c;  // kept for the life of the process
}

bool context_copy_works(int index) noexcept {
    auto &state = g_copy_probe[static_cast<size_t>(index)];
    const int s = state.load(std::memory_order_acquire);
    if (s != kProbeUnknown) return s == kCopyWorks;
    const Probe p = probe_copy(index);
    ERR_clear_error();
    if (p == Probe::inconclusive) return false;  // not remembered: ask again next time
    state.store(p == Probe::works ? kCopyWorks : kCopyBroken, std::memory_order_release);
    return p == Probe::works;
}

const char *libcrypto_version() noexcept { return OpenSSL_version(OPENSSL_VERSION); }

}  // namespace aead::shim
