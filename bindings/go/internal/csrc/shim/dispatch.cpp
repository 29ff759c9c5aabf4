// Direct dispatch: whether a fetched cipher runs on its provider's own functions (the calls EVP_Cipher*
// would make, without the EVP layer; docs/libcrypto.md) or through EVP, decided once per source and slot
// with its family's known-answer check (FamilyOps::self_test).
#include <cstdlib>
#include <cstring>
#include <new>

#include <openssl/provider.h>

#include "cipher_source.h"
#include "family_ops.h"

namespace aead::shim {

namespace {

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
// Whether the cipher may run on its provider's functions, and with which; nullptr: inconclusive.
const Dispatch *choose_dispatch(CipherSource &src, int slot, const EVP_CIPHER *cipher) noexcept {
    if (g_force_evp) return &g_via_evp;
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher);
    if (prov == nullptr) return &g_via_evp;  // GCOVR_EXCL_BR_START third-party providers and disagreeing tables: OpenSSL's own providers take one way
    // OpenSSL's own providers only: a third-party provider may lean on what the EVP layer does for it.
    const char *pname = OSSL_PROVIDER_get0_name(prov);
    const bool own = pname != nullptr && (std::strcmp(pname, "default") == 0 || std::strcmp(pname, "fips") == 0);
    if (!own && !cipher_provenance(src, slot).fips) return &g_via_evp;
    Dispatch d;
    ERR_set_mark();  // whatever the search and the check push is theirs, not the caller's
    const bool found = find_functions(prov, EVP_CIPHER_get0_name(cipher), d);
    if (found) d.provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    // The family of the row that owns the slot checks its direct calls against EVP.
    const Check k = found ? kRows[slot].ops->self_test(cipher, d) : Check::differs;
    ERR_pop_to_mark();
    if (k == Check::inconclusive) return nullptr;
    if (k == Check::differs) return &g_via_evp;
    auto *kept = new (std::nothrow) Dispatch(d);  // once per source and cipher, kept for the process  // GCOVR_EXCL_BR_STOP
    return kept;  // NULL (out of memory): inconclusive
}

}  // namespace

const Dispatch *cipher_dispatch(CipherSource &src, int slot) noexcept {
    auto &decided = src.dispatch[static_cast<size_t>(slot)];
    const Dispatch *d = decided.load(std::memory_order_acquire);
    if (d == nullptr) {
        const EVP_CIPHER *cipher = fetched_cipher(src, slot);
        if (cipher == nullptr) return nullptr;  // GCOVR_EXCL_BR_START no cipher, or two threads deciding at once
        d = choose_dispatch(src, slot, cipher);
        if (d == nullptr) return nullptr;  // inconclusive: through EVP this time, asked again next time
        const Dispatch *expected = nullptr;
        if (!decided.compare_exchange_strong(expected, d, std::memory_order_acq_rel)) {
            if (d != &g_via_evp) delete d;  // another thread decided first  GCOVR_EXCL_LINE timing  GCOVR_EXCL_BR_STOP
            d = expected;  // GCOVR_EXCL_LINE as above
        }
    }
    return d == &g_via_evp ? nullptr : d;
}

bool dispatch_forced_evp() noexcept { return g_force_evp; }

}  // namespace aead::shim
