// Cipher fetching (once per process and property query), the runtime probe of EVP_CIPHER_CTX_copy,
// what a fetched cipher says about its provider, and the dispatch table its provider runs it with.
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include <openssl/crypto.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "openssl_owners.h"
#include "shim.h"

namespace aead::shim {

// Ciphers fetched with one property query. Nodes are created on first use of a query and live for the
// life of the process (as the ciphers they hold do), linked into a lock-free list.
struct CipherSource {
    enum : int { kProbeUnknown = 0, kCopyWorks = 1, kCopyBroken = 2 };

    char properties[kMaxProperties + 1] = {};  // "" : the library context's default properties
    std::array<std::atomic<EVP_CIPHER *>, kFetchedCiphers> ciphers{};
    std::array<std::atomic<int>, kFetchedCiphers> copy_probe{};
    std::array<std::atomic<int>, kFetchedCiphers> fips{};  // kProbeUnknown, or 1 + whether a FIPS provider's
    std::array<std::atomic<const Dispatch *>, kFetchedCiphers> dispatch{};  // NULL: undecided; &g_via_evp: EVP
    std::array<std::atomic<EVP_CIPHER *>, 3> hp_ciphers{};    // QUIC header protection, by HpCipher
    CipherSource *next = nullptr;

    const char *query() const noexcept { return properties[0] != 0 ? properties : nullptr; }
};

namespace {

constexpr std::array<const char *, kFetchedCiphers> kCipherNames = {
    "AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "ChaCha20-Poly1305", "AES-128-CCM", "AES-192-CCM", "AES-256-CCM",
    "AES-128-GCM-SIV", "AES-192-GCM-SIV", "AES-256-GCM-SIV", "AES-128-OCB", "AES-192-OCB", "AES-256-OCB",
    "AES-128-SIV", "AES-192-SIV", "AES-256-SIV"};
constexpr std::array<int, kFetchedCiphers> kKeySizes = {16, 24, 32, 32, 16, 24, 32, 16, 24, 32, 16, 24, 32, 32, 48, 64};
constexpr std::array<const char *, 3> kHpCipherNames = {"AES-128-ECB", "AES-256-ECB", "ChaCha20"};
constexpr std::array<int, 3> kHpKeySizes = {16, 32, 32};

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

// ---- Direct dispatch: the provider's own functions for a fetched cipher ----

// AEAD_DISPATCH=evp: every cipher through EVP (for diagnosis, and the tests' second pass). Read once, when
// libaead is loaded, so the choice is fixed before any context exists.
const bool g_force_evp = [] {
    const char *v = std::getenv("AEAD_DISPATCH");
    return v != nullptr && std::strcmp(v, "evp") == 0;  // GCOVR_EXCL_BR_LINE AEAD_DISPATCH set to anything else: no stage does
}();

const Dispatch g_via_evp{};  // the "decided: through EVP" mark in CipherSource::dispatch

// Whether an OSSL_ALGORITHM's names ("AES-128-GCM:id-aes128-GCM:2.16...") start with exactly `name`:
// the whole first name, so that AES-128-GCM does not match AES-128-GCM-SIV.
bool first_name_is(const char *names, const char *name) noexcept {
    if (names == nullptr || name == nullptr) return false;  // GCOVR_EXCL_BR_LINE OpenSSL's tables name every algorithm
    const size_t n = std::strlen(name);
    return std::strncmp(names, name, n) == 0 && (names[n] == 0 || names[n] == ':');
}

// The functions libaead calls, from one implementation's table; false if one it needs is missing.
bool take_functions(const OSSL_DISPATCH *fns, Dispatch &d) noexcept {
    for (const OSSL_DISPATCH *f = fns; f != nullptr && f->function_id != 0; ++f) {  // GCOVR_EXCL_BR_START OpenSSL's own providers' tables have every function libaead calls
        switch (f->function_id) {
#define AEAD_TAKE(id, member, type) \
    case id: d.member = OSSL_FUNC_##type(f); break
            AEAD_TAKE(OSSL_FUNC_CIPHER_NEWCTX, newctx, cipher_newctx);
            AEAD_TAKE(OSSL_FUNC_CIPHER_FREECTX, freectx, cipher_freectx);
            AEAD_TAKE(OSSL_FUNC_CIPHER_DUPCTX, dupctx, cipher_dupctx);
            AEAD_TAKE(OSSL_FUNC_CIPHER_ENCRYPT_INIT, encrypt_init, cipher_encrypt_init);
            AEAD_TAKE(OSSL_FUNC_CIPHER_DECRYPT_INIT, decrypt_init, cipher_decrypt_init);
            AEAD_TAKE(OSSL_FUNC_CIPHER_UPDATE, update, cipher_update);
            AEAD_TAKE(OSSL_FUNC_CIPHER_FINAL, final, cipher_final);
            AEAD_TAKE(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, get_ctx_params, cipher_get_ctx_params);
            AEAD_TAKE(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, set_ctx_params, cipher_set_ctx_params);
#undef AEAD_TAKE
            default:
                break;
        }
    }
    return d.newctx != nullptr && d.freectx != nullptr && d.encrypt_init != nullptr && d.decrypt_init != nullptr &&
           d.update != nullptr && d.final != nullptr && d.get_ctx_params != nullptr && d.set_ctx_params != nullptr;  // GCOVR_EXCL_BR_STOP
}

// The table of the one implementation in `prov` whose first name is the fetched cipher's. The provider's
// algorithm array is handed back with unquery whatever is found (its function pointers stay valid: they
// are the provider's code, loaded while the fetched cipher holds the provider).
bool find_functions(const OSSL_PROVIDER *prov, const char *name, Dispatch &d) noexcept {
    int no_store = 0;
    const OSSL_ALGORITHM *algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_store);
    if (algs == nullptr) return false;  // GCOVR_EXCL_BR_START OpenSSL's own providers answer the query and name each cipher once
    const OSSL_ALGORITHM *found = nullptr;
    int matches = 0;
    for (const OSSL_ALGORITHM *a = algs; a->algorithm_names != nullptr; ++a)
        if (first_name_is(a->algorithm_names, name)) {
            found = a;
            ++matches;
        }
    const bool ok = matches == 1 && take_functions(found->implementation, d);  // GCOVR_EXCL_BR_STOP
    OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, algs);
    return ok;
}

enum class Check { same, differs, inconclusive };

// One seal and opens of a fixed message with a 12-byte and then a 16-byte nonce on a provider context
// made from d, against EVP on the fetched cipher: the direct calls must produce EVP's bytes exactly,
// accept the right tag and refuse a wrong one. A failure to allocate proves nothing: inconclusive.
Check known_answer(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    static constexpr unsigned char nonce[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
    static constexpr unsigned char aad[13] = {1, 2, 3};
    static constexpr unsigned char msg[40] = {42, 43};
    std::array<unsigned char, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x3C ^ (i * 5));
    const size_t key_len = static_cast<size_t>(EVP_CIPHER_get_key_length(cipher));
    if (key_len > key.size()) return Check::differs;  // GCOVR_EXCL_BR_START a provider's direct calls disagreeing with its own EVP path, or failing: not OpenSSL's
    CipherCtxPtr evp(EVP_CIPHER_CTX_new());
    ProvCtxPtr direct(d.newctx(d.provctx), ProvCtxFree{d.freectx});
    if (!evp || !direct) return Check::inconclusive;
    if (EVP_CipherInit_ex2(evp.get(), cipher, key.data(), nullptr, 1, nullptr) != 1) return Check::inconclusive;
    if (d.encrypt_init(direct.get(), key.data(), key_len, nullptr, 0, nullptr) != 1) return Check::differs;
    const bool gcm = EVP_CIPHER_get_mode(cipher) == EVP_CIPH_GCM_MODE;
    for (const size_t iv_len : {size_t{12}, size_t{16}}) {
        if (iv_len != 12 && !gcm) break;  // ChaCha20-Poly1305 takes 12-byte nonces only
        std::array<unsigned char, sizeof msg + 16> want{}, got{}, back{};
        int n = 0;
        OSSL_PARAM ivlen[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, const_cast<size_t *>(&iv_len)),
                              OSSL_PARAM_END};
        OSSL_PARAM tag_out[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, want.data() + sizeof msg, 16),
                                OSSL_PARAM_END};
        if (EVP_CIPHER_CTX_set_params(evp.get(), ivlen) != 1 ||
            EVP_CipherInit_ex2(evp.get(), nullptr, nullptr, nonce, 1, nullptr) != 1 ||
            EVP_CipherUpdate(evp.get(), nullptr, &n, aad, sizeof aad) != 1 ||
            EVP_CipherUpdate(evp.get(), want.data(), &n, msg, sizeof msg) != 1 ||
            EVP_CipherFinal_ex(evp.get(), want.data() + sizeof msg, &n) != 1 || EVP_CIPHER_CTX_get_params(evp.get(), tag_out) != 1)
            return Check::inconclusive;  // GCOVR_EXCL_LINE as above
        size_t outl = 0;
        OSSL_PARAM tag_got[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, got.data() + sizeof msg, 16),
                                OSSL_PARAM_END};
        if (d.set_ctx_params(direct.get(), ivlen) != 1 || d.encrypt_init(direct.get(), nullptr, 0, nonce, iv_len, nullptr) != 1 ||
            d.update(direct.get(), nullptr, &outl, sizeof aad, aad, sizeof aad) != 1 ||
            d.update(direct.get(), got.data(), &outl, sizeof msg, msg, sizeof msg) != 1 || outl != sizeof msg ||
            d.final(direct.get(), got.data() + sizeof msg, &outl, 0) != 1 || outl != 0 ||
            d.get_ctx_params(direct.get(), tag_got) != 1 || got != want)
            return Check::differs;  // GCOVR_EXCL_LINE as above
        for (const bool forged : {false, true}) {
            got[sizeof msg + 15] ^= forged ? 1 : 0;
            OSSL_PARAM tag_in[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, got.data() + sizeof msg, 16),
                                   OSSL_PARAM_END};
            if (d.decrypt_init(direct.get(), nullptr, 0, nonce, iv_len, nullptr) != 1 ||
                d.set_ctx_params(direct.get(), tag_in) != 1 ||
                d.update(direct.get(), nullptr, &outl, sizeof aad, aad, sizeof aad) != 1 ||
                d.update(direct.get(), back.data(), &outl, sizeof msg, got.data(), sizeof msg) != 1 ||
                std::memcmp(back.data(), msg, sizeof msg) != 0)
                return Check::differs;  // GCOVR_EXCL_LINE as above
            if ((d.final(direct.get(), back.data() + sizeof msg, &outl, 0) == 1) == forged) return Check::differs;  // GCOVR_EXCL_BR_STOP
        }
    }
    return Check::same;
}

// Whether the cipher may run on its provider's functions, and with which; nullptr: inconclusive.
const Dispatch *choose_dispatch(CipherSource &src, int index, const EVP_CIPHER *cipher) noexcept {
    if (g_force_evp) return &g_via_evp;
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher);
    if (prov == nullptr) return &g_via_evp;  // GCOVR_EXCL_BR_START third-party providers and disagreeing tables: OpenSSL's own providers take one way
    // OpenSSL's own providers only: a third-party provider may lean on what the EVP layer does for it.
    const char *pname = OSSL_PROVIDER_get0_name(prov);
    const bool own = pname != nullptr && (std::strcmp(pname, "default") == 0 || std::strcmp(pname, "fips") == 0);
    if (!own && !cipher_provenance(src, index).fips) return &g_via_evp;
    Dispatch d;
    ERR_set_mark();  // whatever the search and the check push is theirs, not the caller's
    const bool found = find_functions(prov, EVP_CIPHER_get0_name(cipher), d);
    if (found) d.provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    const int first_family = static_cast<int>(Cipher::aes_128_ccm);
    const Check k = !found                  ? Check::differs
                    : index < first_family ? known_answer(cipher, d)
                                           : static_cast<Check>(family_known_answer(cipher, d, index));
    ERR_pop_to_mark();
    if (k == Check::inconclusive) return nullptr;
    if (k == Check::differs) return &g_via_evp;
    auto *kept = new (std::nothrow) Dispatch(d);  // once per source and cipher, kept for the process  // GCOVR_EXCL_BR_STOP
    return kept;  // NULL (out of memory): inconclusive
}

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
                             int key_len) noexcept {
    EVP_CIPHER *c = slot.load(std::memory_order_acquire);
    if (c != nullptr) return c;
    c = EVP_CIPHER_fetch(nullptr, name, src.query());
    if (c == nullptr) {
        ERR_clear_error();
        return nullptr;
    }
    // GCOVR_EXCL_START a provider's cipher of this name with another key size: not OpenSSL's
    if (EVP_CIPHER_get_key_length(c) != key_len) {
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

const EVP_CIPHER *fetched_cipher(CipherSource &src, int index) noexcept {
    const auto i = static_cast<size_t>(index);
    return fetch_once(src.ciphers[i], src, kCipherNames[i], kKeySizes[i]);
}

const EVP_CIPHER *fetched_hp_cipher(CipherSource &src, HpCipher c) noexcept {
    const auto i = static_cast<size_t>(c);
    return fetch_once(src.hp_ciphers[i], src, kHpCipherNames[i], kHpKeySizes[i]);
}

bool context_copy_works(CipherSource &src, int index) noexcept {
    auto &state = src.copy_probe[static_cast<size_t>(index)];
    const int s = state.load(std::memory_order_acquire);
    if (s != CipherSource::kProbeUnknown) return s == CipherSource::kCopyWorks;
    const EVP_CIPHER *cipher = fetched_cipher(src, index);
    const Probe p = cipher != nullptr ? probe_copy(cipher) : Probe::inconclusive;  // GCOVR_EXCL_BR_START no cipher, an inconclusive probe: each libcrypto answers one way
    ERR_clear_error();
    if (p == Probe::inconclusive) return false;  // not remembered: ask again next time
    state.store(p == Probe::works ? CipherSource::kCopyWorks : CipherSource::kCopyBroken, std::memory_order_release);  // GCOVR_EXCL_BR_STOP
    return p == Probe::works;
}

// Asked once per source and cipher (a fetch costs, and allocates): the answer cannot change while the
// fetched cipher, which is kept for the process, exists.
Provenance cipher_provenance(CipherSource &src, int index) noexcept {
    Provenance p;
    const EVP_CIPHER *cipher = fetched_cipher(src, index);
    if (cipher == nullptr) return p;  // GCOVR_EXCL_BR_START a fetched cipher always has its provider
    if (const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher)) p.provider = OSSL_PROVIDER_get0_name(prov);  // GCOVR_EXCL_BR_STOP
    p.fips = remembered(src.fips[static_cast<size_t>(index)], [&] {
        return from_fips_provider(cipher, EVP_CIPHER_get0_name(cipher), EVP_CIPHER_fetch, EVP_CIPHER_get0_provider,
                                  EVP_CIPHER_free);
    });
    return p;
}

const Dispatch *cipher_dispatch(CipherSource &src, int index) noexcept {
    auto &slot = src.dispatch[static_cast<size_t>(index)];
    const Dispatch *d = slot.load(std::memory_order_acquire);
    if (d == nullptr) {
        const EVP_CIPHER *cipher = fetched_cipher(src, index);
        if (cipher == nullptr) return nullptr;  // GCOVR_EXCL_BR_START no cipher, or two threads deciding at once
        d = choose_dispatch(src, index, cipher);
        if (d == nullptr) return nullptr;  // inconclusive: through EVP this time, asked again next time
        const Dispatch *expected = nullptr;
        if (!slot.compare_exchange_strong(expected, d, std::memory_order_acq_rel)) {
            if (d != &g_via_evp) delete d;  // another thread decided first  GCOVR_EXCL_LINE timing  GCOVR_EXCL_BR_STOP
            d = expected;  // GCOVR_EXCL_LINE as above
        }
    }
    return d == &g_via_evp ? nullptr : d;
}

bool dispatch_forced_evp() noexcept { return g_force_evp; }

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
