// The steps the families keyed per direction or per call share (AES-CCM, AES-GCM-SIV, AES-OCB3,
// XChaCha20-Poly1305): init, AAD, payload, final, tag, with each family's own rules in a Steps type:
//   bool iv(const Ops &, size_t nonce_len)             the IV length, where the family sets one per call
//   bool aad(const Ops &, Bytes aad, size_t payload)
//   int payload(const Ops &, uint8_t *out, Bytes in, size_t &done, bool open)   0 or a code
// and the known-answer check of those steps, direct against EVP.
#pragma once

#include <array>

#include "family_ops.h"

namespace aead::shim {

// Chunked AAD and payload, no IV length to set (OCB3 adds one; XChaCha20-Poly1305 as is).
struct PlainSteps {
    template <typename Ops>
    bool iv(const Ops &, size_t) const noexcept { return true; }
    template <typename Ops>
    bool aad(const Ops &o, Bytes aad, size_t) const noexcept {
        size_t done = 0;
        return feed(o, nullptr, aad, done);
    }
    template <typename Ops>
    int payload(const Ops &o, uint8_t *out, Bytes in, size_t &done, bool) const noexcept {
        return feed(o, out, in, done) ? 0 : failure_code();  // OCB3 holds back a partial block for final
    }
};

// CCM and GCM-SIV: the payload in one update, made even when empty (an empty one from g_empty).
inline bool one_update(const auto &o, uint8_t *out, Bytes in, size_t &done) noexcept {
    const bool empty = in.size == 0;
    return o.update(empty ? g_empty : out, done, empty ? g_empty : in.data, in.size);
}

template <typename Steps, typename Ops>
int keyed_seal(const Steps &s, const Ops &o, Bytes key, Bytes nonce, Bytes aad, Bytes in, uint8_t *out,
               size_t tag_len) noexcept {
    if (!s.iv(o, nonce.size) || fault_point() || !o.init(key, nonce, true) || !s.aad(o, aad, in.size))
        return failure_code();
    size_t done = 0, rest = 0;
    if (const int rc = s.payload(o, out, in, done, false)) return rc;
    if (fault_point() || !o.final(out + done, rest) || done + rest != in.size || !get_tag(o, out + in.size, tag_len))
        return failure_code();
    return 0;
}

template <typename Steps, typename Ops>
int keyed_open(const Steps &s, const Ops &o, Bytes key, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag,
               uint8_t *out) noexcept {
    if (!s.iv(o, nonce.size) || fault_point() || !o.init(key, nonce, false) || !set_tag(o, tag) ||
        !s.aad(o, aad, ciphertext.size))
        return failure_code();
    size_t done = 0, rest = 0;
    if (const int rc = s.payload(o, out, ciphertext, done, true)) return rc;
    uint8_t scratch[16];
    if (fault_point()) return failure_code();
    // With every step before it done, a failing final is the tag comparison (CCM's was in the payload).
    if (!o.final(out != nullptr ? out + done : scratch, rest)) return auth_failure();
    if (done + rest != ciphertext.size) return failure_code();
    return 0;
}

// One seal or open on a keyed context, direct (prov) or EVP (evp) as d says.
template <bool Seal, typename Steps>
int keyed_run(const Steps &s, const Dispatch *d, void *prov, EVP_CIPHER_CTX *evp, Bytes key, Bytes nonce, Bytes aad,
              Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    if (d != nullptr) {
        const Direct o{d, prov};
        return Seal ? keyed_seal(s, o, key, nonce, aad, in, out, tag_len) : keyed_open(s, o, key, nonce, aad, in, tag, out);
    }
    const Evp o{evp};
    return Seal ? keyed_seal(s, o, key, nonce, aad, in, out, tag_len) : keyed_open(s, o, key, nonce, aad, in, tag, out);
}

// A worker with a keyed context per variant (a direction; CCM: per nonce length too), made on first use.
template <size_t N>
struct VariantWorker : Worker {
    const KeyedTemplate *tmpl = nullptr;
    std::array<CipherCtxPtr, N> keyed_ctx;
    std::array<ProvCtxPtr, N> keyed_pctx;  // the same, direct

    // The context of variant i, keyed for seal or open with before_key (keyed_context) the first time.
    int context(size_t i, const OSSL_PARAM *before_key, bool seal, void *&prov, EVP_CIPHER_CTX *&evp) noexcept {
        if (!keyed_pctx[i] && !keyed_ctx[i]) [[unlikely]] {
            if (const int rc = keyed_context(*tmpl, before_key, seal, keyed_ctx[i], keyed_pctx[i])) return rc;
        }
        prov = keyed_pctx[i].get();
        evp = keyed_ctx[i].get();
        return 0;
    }
};

// A family template that keeps the key (and tag length), every worker keyed from it.
int kept_key_template(Template **out, const Row &row, const Keying &k, Bytes key, size_t tag_len) noexcept;

// A variant worker of t with its first context (variant `first`, for sealing), so that a key the provider
// refuses fails at creation; the others are made on first use.
template <typename W>
int variant_worker_new(const Template &t, Worker **out, size_t first, const OSSL_PARAM *first_before_key) noexcept {
    auto *w = new_worker<W>(t);
    if (w == nullptr) return AEAD_ERR_NOMEM;
    w->tmpl = &static_cast<const KeyedTemplate &>(t);
    void *prov = nullptr;
    EVP_CIPHER_CTX *evp = nullptr;
    if (const int rc = w->context(first, first_before_key, true, prov, evp)) {
        delete w;
        return rc;
    }
    *out = w;
    return 0;
}

// What a family with no parameters before the key sets there: nothing.
struct NoneBeforeKey {
    NoneBeforeKey(size_t, size_t) noexcept {}
    const OSSL_PARAM *params() const noexcept { return nullptr; }
};

// Seal (Seal) or open on a VariantWorker family F, which gives its worker type F::W, the variant of a
// nonce length and direction F::variant, what it sets before a key F::BeforeKey(nonce_len, tag_len), and
// the steps of a variant's context F::steps(w, variant).
template <typename F, bool Seal>
int variant_call(Worker &base, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out, size_t tag_len) noexcept {
    auto &w = static_cast<typename F::W &>(base);
    const size_t i = F::variant(nonce.size, Seal);
    if (i >= w.keyed_ctx.size()) return AEAD_ERR_CRYPTO;  // lib/ never passes such a nonce  GCOVR_EXCL_LINE (lib/seal_open.cpp checks nonce sizes first)
    void *prov = nullptr;
    EVP_CIPHER_CTX *evp = nullptr;
    const typename F::BeforeKey b(nonce.size, w.tmpl->tag_len);
    if (const int rc = w.context(i, b.params(), Seal, prov, evp)) return rc;
    return keyed_run<Seal>(F::steps(w, i), w.direct, prov, evp, {nullptr, 0}, nonce, aad, in, tag, out, tag_len);
}
template <typename F>
int variant_seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    return variant_call<F, true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
}
template <typename F>
int variant_open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    return variant_call<F, false>(w, nonce, aad, ciphertext, tag, out, tag.size);
}
template <typename F>
int variant_worker(const Template &t, Worker **out) noexcept {
    const typename F::BeforeKey b(F::kFirstNonce, static_cast<const KeyedTemplate &>(t).tag_len);
    return variant_worker_new<typename F::W>(t, out, F::variant(F::kFirstNonce, true), b.params());
}

// The method table of a keyed family F (CCM, GCM-SIV, OCB): the shared template, worker, seal and open
// over F's steps, with F's own self-test.
template <typename F>
constexpr FamilyOps keyed_family_ops(Check (*self_test)(const EVP_CIPHER *, const Dispatch &) noexcept) noexcept {
    return {
        .uses_copies = false,
        .template_new = kept_key_template,
        .worker_new = variant_worker<F>,
        .frees = frees_of<KeyedTemplate, typename F::W>,
        .seal = variant_seal<F>,
        .open = variant_open<F>,
        .self_test = self_test,
        .provenance = libcrypto_provenance,
    };
}

// Seals and opens a fixed message the same way through EVP and through d, on contexts made here (with
// before_key, for a nonce of nonce_len bytes and a 16-byte tag): the direct calls must give EVP's bytes
// and verdicts. make_steps(size_t *iv_len) gives the Steps of one context.
template <typename MakeSteps>
Check keyed_self_test(const EVP_CIPHER *cipher, const Dispatch &d, size_t nonce_len, const OSSL_PARAM *before_key,
                      MakeSteps make_steps) noexcept {
    static constexpr unsigned char aad[13] = {1, 2, 3};
    static constexpr unsigned char msg[40] = {42, 43};
    std::array<unsigned char, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x5A ^ (i * 7));
    std::array<unsigned char, 16> nonce{};
    for (size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<unsigned char>(i * 3 + 1);
    const auto key_len = static_cast<size_t>(EVP_CIPHER_get_key_length(cipher));
    if (key_len > key.size()) return Check::differs;
    KeyedTemplate t;  // a stand-in template for keyed_context: EVP, then direct
    t.cipher = cipher;
    t.keep({key.data(), key_len});
    CipherCtxPtr evp, unused_evp;
    ProvCtxPtr prov, prov_open, unused_prov;
    if (keyed_context(t, before_key, true, evp, unused_prov) != 0) return Check::inconclusive;
    t.direct = &d;
    if (keyed_context(t, before_key, true, unused_evp, prov) != 0 ||
        keyed_context(t, before_key, false, unused_evp, prov_open) != 0)
        return Check::differs;  // GCOVR_EXCL_LINE a provider failing its own direct calls: not OpenSSL's
    std::array<unsigned char, sizeof msg + 16> want{}, got{}, back{};
    size_t evp_iv = 12, direct_iv = 12;
    const Bytes n{nonce.data(), nonce_len}, a{aad, sizeof aad}, pt{msg, sizeof msg}, none{nullptr, 0};
    if (keyed_seal(make_steps(&evp_iv), Evp{evp.get()}, none, n, a, pt, want.data(), 16) != 0) return Check::inconclusive;
    for (int round = 0; round < 2; ++round) {  // twice: the context must serve one operation after another
        if (keyed_seal(make_steps(&direct_iv), Direct{&d, prov.get()}, none, n, a, pt, got.data(), 16) != 0 || got != want)
            return Check::differs;
    }
    for (const bool forged : {false, true}) {
        got[sizeof msg + 15] ^= forged ? 1 : 0;
        size_t open_iv = direct_iv;
        const int rc = keyed_open(make_steps(&open_iv), Direct{&d, prov_open.get()}, none, n, a, {got.data(), sizeof msg},
                                  {got.data() + sizeof msg, 16}, back.data());
        if (rc != (forged ? AEAD_ERR_AUTH : 0)) return Check::differs;
        if (!forged && std::memcmp(back.data(), msg, sizeof msg) != 0) return Check::differs;
    }
    return Check::same;
}

}  // namespace aead::shim
