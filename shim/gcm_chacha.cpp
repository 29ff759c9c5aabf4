// The 1.0 stream AEADs, AES-GCM and ChaCha20-Poly1305, on the hot path: a template holds a keyed context
// that workers are copies of (or, where libcrypto cannot copy AEAD contexts safely, the key), and each
// call sets the nonce on the worker's keyed context and runs. Through EVP or directly (family_ops.h).
#include <array>
#include <cstring>

#include "family_ops.h"

namespace aead::shim {

namespace {

struct GcmTemplate : KeyedTemplate {  // the key (in KeyedTemplate) is kept only where copies are unsafe
    CipherCtxPtr keyed;       // EVP: set when workers are copies of it (the usual case)
    ProvCtxPtr keyed_direct;  // direct: the same, a keyed provider context that workers are dupctx'd from
};

struct GcmWorker : Worker {
    size_t iv_len = 12;  // the IV length the context is set to; changed only when a nonce's differs
    NoncePool pool;
    GcmWorker() noexcept { nonces = &pool; }
};

int gcm_template_new(Template **out, const Row &row, const Keying &k, Bytes key, size_t) noexcept {
    auto *t = new_template<GcmTemplate>(row, k);
    if (t == nullptr) return AEAD_ERR_NOMEM;
    int rc = 0;
    if (const Dispatch *d = t->direct) {
        if (k.copy_works && d->dupctx != nullptr) {
            t->keyed_direct = ProvCtxPtr(fault_point() ? nullptr : d->newctx(d->provctx), ProvCtxFree{d->freectx});
            if (!t->keyed_direct) rc = AEAD_ERR_NOMEM;
            else if (fault_point() || d->encrypt_init(t->keyed_direct.get(), key.data, key.size, nullptr, 0, nullptr) != 1)
                rc = failure_code();
        } else {
            t->keep(key);
        }
    } else if (k.copy_works) {
        t->keyed.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!t->keyed) rc = AEAD_ERR_NOMEM;
        else if (fault_point() || EVP_CipherInit_ex2(t->keyed.get(), k.cipher, key.data, nullptr, 1, nullptr) != 1)
            rc = failure_code();
    } else {
        t->keep(key);
    }
    if (rc != 0) {
        delete t;
        return rc;
    }
    *out = t;
    return 0;
}

// A provider context for t: a dupctx of the keyed template, or (where copies are unsafe) a new one keyed
// with the kept key.
int direct_worker(const GcmTemplate &t, const Dispatch &d, ProvCtxPtr &out) noexcept {
    if (t.keyed_direct) {
        out = ProvCtxPtr(fault_point() ? nullptr : d.dupctx(t.keyed_direct.get()), ProvCtxFree{d.freectx});
        return out ? 0 : failure_code();  // NULL: out of memory, or (some FIPS providers) a refused copy
    }
    out = ProvCtxPtr(fault_point() ? nullptr : d.newctx(d.provctx), ProvCtxFree{d.freectx});
    if (!out) return AEAD_ERR_NOMEM;
    if (fault_point() || d.encrypt_init(out.get(), t.key, t.key_len, nullptr, 0, nullptr) != 1) return failure_code();
    return 0;
}

int gcm_worker_new(const Template &base, Worker **out) noexcept {
    const auto &t = static_cast<const GcmTemplate &>(base);
    if (const Dispatch *d = t.direct) {
        ProvCtxPtr pctx;
        if (const int rc = direct_worker(t, *d, pctx)) return rc;
        auto *w = new_worker<GcmWorker>(t);
        if (w == nullptr) return AEAD_ERR_NOMEM;
        w->pctx = std::move(pctx);
        *out = w;
        return 0;
    }
    CipherCtxPtr ctx(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
    if (!ctx) return AEAD_ERR_NOMEM;
    const int ok = t.keyed ? EVP_CIPHER_CTX_copy(ctx.get(), t.keyed.get())
                           : EVP_CipherInit_ex2(ctx.get(), t.cipher, t.key, nullptr, 1, nullptr);
    if (fault_point() || ok != 1) return failure_code();
    auto *w = new_worker<GcmWorker>(t);
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->ctx = std::move(ctx);
    *out = w;
    return 0;
}

// Sets the nonce alone (the context stays keyed) and the direction, the IV length first if it changes.
template <typename Ops>
[[gnu::always_inline]] inline bool start(const Ops &o, size_t &iv, Bytes nonce, bool enc) noexcept {
    return set_iv_len(o, iv, nonce.size) && !fault_point() && o.init({nullptr, 0}, nonce, enc);
}

template <typename Ops>
[[gnu::always_inline]] inline int stream_seal(const Ops &o, size_t &iv, Bytes nonce, Bytes aad, Bytes in, uint8_t *out,
                                              size_t tag_len) noexcept {
    size_t done = 0, final_len = 0;
    // The stream ciphers write every chunk's output at once: exactly the input's length.
    if (!start(o, iv, nonce, true) || !feed(o, nullptr, aad, done) || !feed(o, out, in, done) || done != in.size ||
        fault_point() || !o.final(out + in.size, final_len) || final_len != 0 || !get_tag(o, out + in.size, tag_len))
        return failure_code();
    return 0;
}

template <typename Ops>
[[gnu::always_inline]] inline int stream_open(const Ops &o, size_t &iv, Bytes nonce, Bytes aad, Bytes ciphertext,
                                              Bytes tag, uint8_t *out) noexcept {
    size_t done = 0, final_len = 0;
    if (!start(o, iv, nonce, false) || !set_tag(o, tag) || !feed(o, nullptr, aad, done) ||
        !feed(o, out, ciphertext, done) || done != ciphertext.size)
        return failure_code();
    uint8_t none = 0;  // the final call writes nothing, but out may be NULL for an empty message
    if (fault_point()) return failure_code();
    // Every step before succeeded, so a failing final call is the tag comparison (GCM and
    // ChaCha20-Poly1305 push no error for it). The queue is not consulted: it may hold the caller's
    // own earlier errors, which must not turn a forgery into AEAD_ERR_CRYPTO.
    if (!o.final(out != nullptr ? out + ciphertext.size : &none, final_len)) return AEAD_ERR_AUTH;
    return 0;
}

// One seal and opens of a fixed message with a 12-byte and then a 16-byte nonce on a provider context
// made from d, against EVP on the fetched cipher: the direct calls must produce EVP's bytes exactly,
// accept the right tag and refuse a wrong one. A failure to allocate proves nothing: inconclusive.
// Raw calls, not the steps above: the check must not pass the fault points (fault_injection.h), or an
// armed fault would send the cipher through EVP for the rest of the process.
Check gcm_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
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

int gcm_seal(Worker &base, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<GcmWorker &>(base);
    if (const Dispatch *d = w.direct) [[likely]]
        return stream_seal(Direct{d, w.pctx.get()}, w.iv_len, nonce, aad, in, out, tag_len);
    return stream_seal(Evp{w.ctx.get()}, w.iv_len, nonce, aad, in, out, tag_len);
}

int gcm_open(Worker &base, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    auto &w = static_cast<GcmWorker &>(base);
    if (const Dispatch *d = w.direct) [[likely]]
        return stream_open(Direct{d, w.pctx.get()}, w.iv_len, nonce, aad, ciphertext, tag, out);
    return stream_open(Evp{w.ctx.get()}, w.iv_len, nonce, aad, ciphertext, tag, out);
}

}  // namespace

const FamilyOps kGcmChaChaFamily = {
    .uses_copies = true,
    .template_new = gcm_template_new,
    .worker_new = gcm_worker_new,
    .frees = frees_of<GcmTemplate, GcmWorker>,
    .seal = gcm_seal,
    .open = gcm_open,
    .self_test = gcm_self_test,
    .provenance = libcrypto_provenance,
};

}  // namespace aead::shim
