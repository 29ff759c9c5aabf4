// Cipher fetching (once per process and property query, by the registry's names), the runtime probe of
// EVP_CIPHER_CTX_copy, and what a fetched cipher says about its provider.
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include <openssl/crypto.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "cipher_source.h"
#include "contexts.h"
#include "family_ops.h"

namespace aead::shim {

namespace {

CipherSource g_default_source;                   // NULL / "": no list walk on the 1.0 constructor's path
std::atomic<CipherSource *> g_sources{nullptr};  // every other query, newest first

CipherSource *find_source(CipherSource *head, const char *properties) noexcept {
    for (CipherSource *s = head; s != nullptr; s = s->next)
        if (std::strcmp(s->properties, properties) == 0) return s;
    return nullptr;
}

// OpenSSL fixed EVP_CIPHER_CTX_copy of GCM and ChaCha20-Poly1305 contexts (the copy shared the
// original's key schedule) in 3.0.13, 3.1.5 and 3.2.1 (openssl#21955, #21853, #22096). A use after
// free can still seal correctly by luck, so the functional probe alone cannot rule the bug out on the
// releases known to have it; the numeric version (not its text) names them.
bool version_has_copy_fix() noexcept {
    const unsigned long major = OPENSSL_version_major();
    const unsigned long minor = OPENSSL_version_minor();
    const unsigned long patch = OPENSSL_version_patch();
    if (major != 3) return major > 3;  // GCOVR_EXCL_BR_START one libcrypto version per build: the other releases' answers are not reachable in it
    if (minor == 0) return patch >= 13;
    if (minor == 1) return patch >= 5;
    if (minor == 2) return patch >= 1;  // GCOVR_EXCL_BR_STOP
    return true;
}

// Seals one fixed message; returns false on any failure.
bool seal_fixed(EVP_CIPHER_CTX *c, std::array<unsigned char, 48> &out) noexcept {
    static constexpr unsigned char nonce[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static constexpr unsigned char msg[32] = {42};
    int len = 0;
    if (EVP_CipherInit_ex2(c, nullptr, nullptr, nonce, 1, nullptr) != 1) return false;  // GCOVR_EXCL_BR_START libcrypto failing its own fixed seal
    if (EVP_CipherUpdate(c, out.data(), &len, msg, sizeof msg) != 1 || len != sizeof msg) return false;
    if (EVP_CipherFinal_ex(c, out.data() + sizeof msg, &len) != 1) return false;  // GCOVR_EXCL_BR_STOP
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out.data() + sizeof msg, 16), OSSL_PARAM_END};
    return EVP_CIPHER_CTX_get_params(c, p) == 1;
}

enum class Probe { works, broken, inconclusive };

// A copy must seal exactly as a context keyed directly, and keep doing so once the original is gone.
// A failure to allocate or key the probe's own contexts proves nothing about copying: inconclusive.
// (Under some FIPS providers the copy itself fails: broken, and templates keep the key instead.)
Probe probe_copy(const EVP_CIPHER *cipher) noexcept {
#ifdef AEAD_FAULT_INJECTION
    if (std::getenv("AEAD_TEST_NO_COPY") != nullptr) return Probe::broken;  // tests force the re-key path
#endif
    if (!version_has_copy_fix()) return Probe::broken;  // GCOVR_EXCL_BR_START libcrypto failing or miscopying its own contexts: not on OpenSSL >= 3.0.13
    std::array<unsigned char, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0xA5 ^ i);
    CipherCtxPtr original(EVP_CIPHER_CTX_new()), copy(EVP_CIPHER_CTX_new()), direct(EVP_CIPHER_CTX_new());
    if (!original || !copy || !direct) return Probe::inconclusive;
    if (EVP_CipherInit_ex2(original.get(), cipher, key.data(), nullptr, 1, nullptr) != 1 ||
        EVP_CipherInit_ex2(direct.get(), cipher, key.data(), nullptr, 1, nullptr) != 1)
        return Probe::inconclusive;  // GCOVR_EXCL_LINE as above
    std::array<unsigned char, 48> expected{}, got{};
    if (!seal_fixed(direct.get(), expected)) return Probe::inconclusive;
    if (EVP_CIPHER_CTX_copy(copy.get(), original.get()) != 1) return Probe::broken;
    original.reset();
    return seal_fixed(copy.get(), got) && got == expected ? Probe::works : Probe::broken;  // GCOVR_EXCL_BR_STOP
}

// Whether `impl` comes from a FIPS provider: the provider that answers a "fips=yes" fetch of the same
// algorithm is the one that made it. A functional test; provider names are the configuration's choice.
// Inconclusive when that fetch failed for want of memory (the answer is then not remembered).
enum class Fips { yes, no, inconclusive };
template <typename Method, typename Fetch, typename Provider, typename Free>
Fips from_fips_provider(const Method *impl, const char *name, Fetch fetch, Provider provider, Free free) noexcept {
    if (impl == nullptr || name == nullptr) return Fips::no;  // GCOVR_EXCL_BR_START the fips=yes fetch's outcomes per configuration: no single run has all of them
    ERR_set_mark();
    Method *fips = fetch(nullptr, name, "fips=yes");
    const unsigned long e = fips == nullptr ? ERR_peek_last_error() : 0;
    const Fips r = fips != nullptr && provider(fips) == provider(impl) ? Fips::yes
                   : e != 0 && ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE ? Fips::inconclusive
                                                                           : Fips::no;  // GCOVR_EXCL_BR_STOP
    free(fips);
    ERR_pop_to_mark();
    return r;
}

// Remembers a yes/no answer in `state` (0 unknown, 1 no, 2 yes); asks again after an inconclusive one.
template <typename Ask>
bool remembered(std::atomic<int> &state, Ask ask) noexcept {
    const int s = state.load(std::memory_order_acquire);
    if (s != 0) return s == 2;
    const Fips f = ask();
    if (f == Fips::inconclusive) return false;  // GCOVR_EXCL_BR_LINE a fips=yes fetch that ran out of memory
    state.store(f == Fips::yes ? 2 : 1, std::memory_order_release);
    return f == Fips::yes;
}

std::atomic<int> g_drbg_fips{0};


}  // namespace

int cipher_source(const char *properties, CipherSource **out) noexcept {
    *out = nullptr;
    if (properties == nullptr || properties[0] == 0) {
        *out = &g_default_source;
        return 0;
    }
    const size_t len = std::strlen(properties);
    if (len > kMaxProperties) return AEAD_ERR_ARG;
    CipherSource *head = g_sources.load(std::memory_order_acquire);
    if (CipherSource *s = find_source(head, properties)) {
        *out = s;
        return 0;
    }
    auto *fresh = new (std::nothrow) CipherSource;  // GCOVR_EXCL_BR_START a new query's node failing to allocate: once per query and process, before the memory suite arms
    if (fresh == nullptr) return AEAD_ERR_NOMEM;  // GCOVR_EXCL_BR_STOP
    std::memcpy(fresh->properties, properties, len + 1);
    for (;;) {
        fresh->next = head;
        if (g_sources.compare_exchange_weak(head, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {  // GCOVR_EXCL_BR_LINE the lost race below
            *out = fresh;
            return 0;
        }
        // Another query was added meanwhile: it may be this one.
        // GCOVR_EXCL_START two threads adding a new query at the same instant: not reproducible on demand
        if (CipherSource *s = find_source(head, properties)) {
            delete fresh;
            *out = s;
            return 0;
        }
        // GCOVR_EXCL_STOP
    }  // GCOVR_EXCL_LINE round again with the head just seen: after a lost race only
}

namespace {

// The cipher in slot, fetched by name with the source's query on first use; NULL if no provider offers
// it with that key length.
const EVP_CIPHER *fetch_once(std::atomic<EVP_CIPHER *> &slot, const CipherSource &src, const char *name,
                             size_t key_len) noexcept {
    EVP_CIPHER *c = slot.load(std::memory_order_acquire);
    if (c != nullptr) return c;
    c = EVP_CIPHER_fetch(nullptr, name, src.query());
    if (c == nullptr) {
        ERR_clear_error();
        return nullptr;
    }
    // GCOVR_EXCL_START a provider's cipher of this name with another key size: not OpenSSL's
    if (static_cast<size_t>(EVP_CIPHER_get_key_length(c)) != key_len) {
        EVP_CIPHER_free(c);
        return nullptr;
    }
    // GCOVR_EXCL_STOP
    EVP_CIPHER *expected = nullptr;
    if (!slot.compare_exchange_strong(expected, c, std::memory_order_acq_rel)) {  // GCOVR_EXCL_BR_LINE two first fetches racing
        EVP_CIPHER_free(c);  // another thread fetched it first  GCOVR_EXCL_LINE timing, not on demand
        return expected;  // GCOVR_EXCL_LINE as above
    }
    return c;  // kept for the life of the process
}

}  // namespace

const EVP_CIPHER *fetched_cipher(CipherSource &src, int slot) noexcept {
    const auto i = static_cast<size_t>(slot);
    return fetch_once(src.ciphers[i], src, kRows[i].name, kRows[i].key_size);  // a slot's owner is the row at its index
}

const EVP_CIPHER *fetched_hp_cipher(CipherSource &src, HpCipher c) noexcept {
    const auto i = static_cast<size_t>(c);
    return fetch_once(src.hp_ciphers[i], src, kHpRows[i].name, kHpRows[i].key_size);
}

bool context_copy_works(CipherSource &src, int slot) noexcept {
    auto &state = src.copy_probe[static_cast<size_t>(slot)];
    const int s = state.load(std::memory_order_acquire);
    if (s != CipherSource::kProbeUnknown) return s == CipherSource::kCopyWorks;
    const EVP_CIPHER *cipher = fetched_cipher(src, slot);
    const Probe p = cipher != nullptr ? probe_copy(cipher) : Probe::inconclusive;  // GCOVR_EXCL_BR_START no cipher, an inconclusive probe: each libcrypto answers one way
    ERR_clear_error();
    if (p == Probe::inconclusive) return false;  // not remembered: ask again next time
    state.store(p == Probe::works ? CipherSource::kCopyWorks : CipherSource::kCopyBroken, std::memory_order_release);  // GCOVR_EXCL_BR_STOP
    return p == Probe::works;
}

// Asked once per source and cipher (a fetch costs, and allocates): the answer cannot change while the
// fetched cipher, which is kept for the process, exists.
Provenance cipher_provenance(CipherSource &src, int slot) noexcept {
    Provenance p;
    const EVP_CIPHER *cipher = fetched_cipher(src, slot);
    if (cipher == nullptr) return p;  // GCOVR_EXCL_BR_START a fetched cipher always has its provider
    if (const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher)) p.provider = OSSL_PROVIDER_get0_name(prov);  // GCOVR_EXCL_BR_STOP
    p.fips = remembered(src.fips[static_cast<size_t>(slot)], [&] {
        return from_fips_provider(cipher, EVP_CIPHER_get0_name(cipher), EVP_CIPHER_fetch, EVP_CIPHER_get0_provider,
                                  EVP_CIPHER_free);
    });
    return p;
}

Provenance libcrypto_provenance(const Template &t) noexcept { return cipher_provenance(*t.source, t.row->slot); }

// AES-128-ECB is the witness: every provider with AES has it, and the source fetches it once anyway (QUIC
// header protection). None at all (fips=yes with no FIPS provider loaded, a provider that does not
// exist) counts as FIPS and is asked again next time: a failed fetch may have been a want of memory.
bool query_selects_fips(CipherSource &src) noexcept {
    const int s = src.fips_query.load(std::memory_order_acquire);
    if (s != 0) return s == 2;
    const EVP_CIPHER *aes = fetched_hp_cipher(src, HpCipher::aes_128_ecb);
    if (aes == nullptr) return true;
    return remembered(src.fips_query, [&] {
        return from_fips_provider(aes, EVP_CIPHER_get0_name(aes), EVP_CIPHER_fetch, EVP_CIPHER_get0_provider,
                                  EVP_CIPHER_free);
    });
}


// The library context's DRBG is set up once per process, so its provider is asked once too.
bool drbg_is_fips() noexcept {
    return remembered(g_drbg_fips, [] {
        ERR_set_mark();
        EVP_RAND_CTX *drbg = RAND_get0_public(nullptr);
        const EVP_RAND *rand = drbg != nullptr ? EVP_RAND_CTX_get0_rand(drbg) : nullptr;  // GCOVR_EXCL_BR_START the library context always has a public DRBG
        const Fips f = drbg == nullptr ? Fips::inconclusive
                                       : from_fips_provider(rand, rand != nullptr ? EVP_RAND_get0_name(rand) : nullptr,  // GCOVR_EXCL_BR_STOP
                                                            EVP_RAND_fetch, EVP_RAND_get0_provider, EVP_RAND_free);
        ERR_pop_to_mark();
        return f;
    });
}

const char *libcrypto_version() noexcept { return OpenSSL_version(OPENSSL_VERSION); }

}  // namespace aead::shim