// AES-SIV (RFC 5297) on OpenSSL's "AES-*-SIV": each AAD update is one S2V component, the payload update
// does the whole operation, and a keyed state serves one operation only (its S2V accumulator is not
// reset). So every call runs on a copy of the worker's keyed context, never on that context itself: the
// provider's dupctx directly, or EVP_CIPHER_CTX_copy. Those copies are SIV's allocations per call.
#include <array>
#include <cstring>

#include "keyed_family.h"

namespace aead::shim {

namespace {

constexpr size_t kSiv = 16;

// keyed_ctx[0] / keyed_pctx[0]: the keyed context, never run, only copied (EVP: into ctx, per call).
using SivWorker = VariantWorker<1>;

int siv_worker_new(const Template &t, Worker **out) noexcept {
    Worker *made = nullptr;
    if (const int rc = variant_worker_new<SivWorker>(t, &made, 0, nullptr)) return rc;
    auto *w = static_cast<SivWorker *>(made);
    if (t.direct == nullptr) {
        w->ctx.reset(fault_point() ? nullptr : EVP_CIPHER_CTX_new());
        if (!w->ctx) {
            delete w;
            return AEAD_ERR_NOMEM;
        }
    }
    *out = w;
    return 0;
}

// One operation on a keyed copy. Empty components and payloads are fed from g_empty: to the provider a
// NULL input means "final" and a NULL output "associated data".
template <typename Ops>
int siv_run(const Ops &o, bool seal, const Bytes *components, size_t count, Bytes in, const uint8_t *siv_in,
            uint8_t *siv_out, uint8_t *out) noexcept {
    if (fault_point() || !o.init({nullptr, 0}, {nullptr, 0}, seal)) return failure_code();  // direction only
    if (!seal) {
        const OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                                  const_cast<uint8_t *>(siv_in), kSiv),
                                OSSL_PARAM_END};
        if (fault_point() || !o.set(p)) return failure_code();
    }
    size_t w = 0;
    for (size_t i = 0; i < count; ++i) {
        const Bytes c = components[i];
        if (fault_point() || !o.update(nullptr, w, c.size != 0 ? c.data : g_empty, c.size)) return failure_code();
    }
    const bool empty = in.size == 0;
    uint8_t scratch[kSiv];
    if (fault_point()) return failure_code();
    // An open's SIV is compared in this update (a mismatch fails it, and the provider wipes out).
    if (!o.update(empty ? scratch : out, w, empty ? g_empty : in.data, in.size) || w != in.size)
        return seal ? failure_code() : auth_failure();
    size_t rest = 0;
    if (fault_point()) return failure_code();
    if (!o.final(scratch, rest) || rest != 0) return seal ? failure_code() : auth_failure();
    if (seal) {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, siv_out, kSiv), OSSL_PARAM_END};
        if (fault_point() || !o.get(p)) return failure_code();
    }
    return 0;
}

int siv_call(Worker &base, bool seal, const Bytes *components, size_t count, Bytes in, const uint8_t *siv_in,
             uint8_t *siv_out, uint8_t *out) noexcept {
    if (base.ops != &kSivFamily) return AEAD_ERR_CRYPTO;  // lib/ never passes one
    auto &w = static_cast<SivWorker &>(base);
    if (const Dispatch *d = w.direct) {
        ProvCtxPtr copy(fault_point() ? nullptr : d->dupctx(w.keyed_pctx[0].get()), ProvCtxFree{d->freectx});
        if (!copy) return failure_code();
        return siv_run(Direct{d, copy.get()}, seal, components, count, in, siv_in, siv_out, out);
    }
    if (fault_point() || EVP_CIPHER_CTX_copy(w.ctx.get(), w.keyed_ctx[0].get()) != 1) return failure_code();
    return siv_run(Evp{w.ctx.get()}, seal, components, count, in, siv_in, siv_out, out);
}

}  // namespace

int siv_seal(Worker &w, const Bytes *components, size_t count, Bytes in, uint8_t *siv, uint8_t *out) noexcept {
    return siv_call(w, true, components, count, in, nullptr, siv, out);
}

int siv_open(Worker &w, const Bytes *components, size_t count, Bytes ciphertext, Bytes siv, uint8_t *out) noexcept {
    if (siv.size != kSiv) return AEAD_ERR_CRYPTO;  // lib/ never passes one
    return siv_call(w, false, components, count, ciphertext, siv.data, nullptr, out);
}

bool siv_takes_empty() noexcept {
    static const bool takes = OPENSSL_version_major() > 3 || (OPENSSL_version_major() == 3 && OPENSSL_version_minor() >= 5);
    return takes;
}

namespace {

// Seals a fixed message under two components (one empty) through EVP and directly on copies of a keyed
// provider context, twice (the copies must not share state), then opens it directly, as is and forged.
Check siv_self_test(const EVP_CIPHER *cipher, const Dispatch &d) noexcept {
    if (d.dupctx == nullptr) return Check::differs;
    static constexpr unsigned char aad[13] = {1, 2, 3};
    static constexpr unsigned char msg[40] = {42, 43};
    std::array<unsigned char, 64> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x69 ^ (i * 11));
    const auto key_len = static_cast<size_t>(EVP_CIPHER_get_key_length(cipher));
    if (key_len > key.size()) return Check::differs;
    const Bytes parts[2] = {{aad, sizeof aad}, {nullptr, 0}};
    CipherCtxPtr evp(EVP_CIPHER_CTX_new());
    ProvCtxPtr keyed(d.newctx(d.provctx), ProvCtxFree{d.freectx});
    if (!evp || !keyed) return Check::inconclusive;
    if (EVP_CipherInit_ex2(evp.get(), cipher, key.data(), nullptr, 1, nullptr) != 1) return Check::inconclusive;
    if (d.encrypt_init(keyed.get(), key.data(), key_len, nullptr, 0, nullptr) != 1) return Check::differs;
    std::array<unsigned char, kSiv + sizeof msg> want{}, got{};
    std::array<unsigned char, sizeof msg> back{};
    if (siv_run(Evp{evp.get()}, true, parts, 2, {msg, sizeof msg}, nullptr, want.data(), want.data() + kSiv) != 0)
        return Check::inconclusive;  // GCOVR_EXCL_LINE EVP failing its own fixed seal
    for (int round = 0; round < 2; ++round) {
        ProvCtxPtr copy(d.dupctx(keyed.get()), ProvCtxFree{d.freectx});
        if (!copy) return Check::inconclusive;
        if (siv_run(Direct{&d, copy.get()}, true, parts, 2, {msg, sizeof msg}, nullptr, got.data(),
                    got.data() + kSiv) != 0 ||
            got != want)
            return Check::differs;  // GCOVR_EXCL_LINE a provider's direct calls disagreeing with its own EVP path: not OpenSSL's
    }
    for (const bool forged : {false, true}) {
        got[0] ^= forged ? 1 : 0;
        ProvCtxPtr copy(d.dupctx(keyed.get()), ProvCtxFree{d.freectx});
        if (!copy) return Check::inconclusive;
        const int rc = siv_run(Direct{&d, copy.get()}, false, parts, 2, {got.data() + kSiv, sizeof msg}, got.data(),
                               nullptr, back.data());
        if (rc != (forged ? AEAD_ERR_AUTH : 0)) return Check::differs;
        if (!forged && std::memcmp(back.data(), msg, sizeof msg) != 0) return Check::differs;
    }
    return Check::same;
}

// The AEAD form's seal and open: lib/ runs AES-SIV through siv_seal and siv_open, never these.
int siv_aead(Worker &, Bytes, Bytes, Bytes, uint8_t *, size_t) noexcept { return AEAD_ERR_CRYPTO; }  // GCOVR_EXCL_LINE never called (above)
int siv_aead_open(Worker &, Bytes, Bytes, Bytes, Bytes, uint8_t *) noexcept { return AEAD_ERR_CRYPTO; }  // GCOVR_EXCL_LINE never called (above)

}  // namespace

const FamilyOps kSivFamily = {
    .uses_copies = false,
    .template_new = kept_key_template,
    .worker_new = siv_worker_new,
    .frees = frees_of<KeyedTemplate, SivWorker>,
    .seal = siv_aead,
    .open = siv_aead_open,
    .self_test = siv_self_test,
    .provenance = libcrypto_provenance,
};

}  // namespace aead::shim
