// HPKE (RFC 9180): the DHKEMs, the key schedule (LabeledExtract / LabeledExpand), the secret export and
// the contexts, on the shim's DH and HKDF primitives. A context's AEAD is an ordinary keyed aead_ctx of
// the HPKE row (nonce_schedule.h): its seals commit the sequence number through the row's NoncePolicy,
// its recipient's opens go through a replay window.
#include <cstring>
#include <memory>
#include <new>

#include "aead.h"
#include "context.h"
#include "ranges.h"
#include "seal_open.h"

namespace {

namespace shim = aead::shim;
using shim::Bytes;

constexpr size_t kNn = 12, kNt = 16, kMaxNh = 64, kMaxNk = 32, kMaxSecret = 66;
constexpr size_t kMaxProperties = 255;

struct Kem {
    int id;
    shim::Curve curve;
    shim::Digest digest;
    size_t nh;       // the KEM's KDF's hash size
    size_t nsecret;  // the shared secret's size
    size_t ndh;      // a DH result's size
    size_t npk, nsk;
    uint8_t bitmask; // DeriveKeyPair's candidate mask (NIST curves); 0: X25519 / X448
};
constexpr Kem kKems[] = {
    {AEAD_HPKE_KEM_P256_SHA256, shim::Curve::p256, shim::Digest::sha256, 32, 32, 32, 65, 32, 0xff},
    {AEAD_HPKE_KEM_P384_SHA384, shim::Curve::p384, shim::Digest::sha384, 48, 48, 48, 97, 48, 0xff},
    {AEAD_HPKE_KEM_P521_SHA512, shim::Curve::p521, shim::Digest::sha512, 64, 64, 66, 133, 66, 0x01},
    {AEAD_HPKE_KEM_X25519_SHA256, shim::Curve::x25519, shim::Digest::sha256, 32, 32, 32, 32, 32, 0},
    {AEAD_HPKE_KEM_X448_SHA512, shim::Curve::x448, shim::Digest::sha512, 64, 64, 56, 56, 56, 0},
};
static_assert(AEAD_HPKE_MAX_ENC == 133 && AEAD_HPKE_MAX_PRIVATE_KEY == 66 && AEAD_HPKE_TAG == kNt);

struct Kdf {
    int id;
    shim::Digest digest;
    size_t nh;
};
constexpr Kdf kKdfs[] = {
    {AEAD_HPKE_KDF_HKDF_SHA256, shim::Digest::sha256, 32},
    {AEAD_HPKE_KDF_HKDF_SHA384, shim::Digest::sha384, 48},
    {AEAD_HPKE_KDF_HKDF_SHA512, shim::Digest::sha512, 64},
};

struct Aead {
    int id;
    int alg;  // the libaead algorithm; 0: export-only
    size_t nk;
};
constexpr Aead kAeads[] = {
    {AEAD_HPKE_AEAD_AES_128_GCM, AEAD_AES_128_GCM, 16},
    {AEAD_HPKE_AEAD_AES_256_GCM, AEAD_AES_256_GCM, 32},
    {AEAD_HPKE_AEAD_CHACHA20_POLY1305, AEAD_CHACHA20_POLY1305, 32},
    {AEAD_HPKE_AEAD_EXPORT_ONLY, 0, 0},
};

template <typename T, size_t N>
constexpr const T *find(const T (&rows)[N], int id) noexcept {
    for (const T &r : rows)
        if (r.id == id) return &r;
    return nullptr;
}

// Secrets on the stack, cleansed when they go out of scope.
template <size_t N>
struct Secret {
    uint8_t b[N] = {};
    Secret() noexcept = default;
    Secret(const Secret &) = delete;
    Secret &operator=(const Secret &) = delete;
    ~Secret() { shim::cleanse(b, N); }
};

// A heap buffer for labeled inputs of any length (info, psk), cleansed and freed on destruction.
class Buffer {
public:
    explicit Buffer(size_t n) noexcept : p_(new (std::nothrow) uint8_t[n == 0 ? 1 : n]), n_(n) {}
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    ~Buffer() {
        if (p_) shim::cleanse(p_.get(), n_);
    }
    uint8_t *get() const noexcept { return p_.get(); }

private:
    std::unique_ptr<uint8_t[]> p_;
    size_t n_;
};

void put16(uint8_t *p, size_t v) noexcept {
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

// The KDF under one suite id ("KEM" || kem, or "HPKE" || kem || kdf || aead) and property query.
struct Labeled {
    shim::Digest digest;
    size_t nh;
    const uint8_t *suite;
    size_t suite_len;
    const char *properties;

    static constexpr const char kVersion[] = "HPKE-v1";
    static constexpr size_t kVersionLen = sizeof kVersion - 1;

    // LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm): Nh bytes.
    int extract(Bytes salt, const char *label, Bytes ikm, uint8_t *prk) const noexcept {
        const size_t label_len = std::strlen(label);
        const size_t n = kVersionLen + suite_len + label_len + ikm.size;
        if (ikm.size > SIZE_MAX / 2) return AEAD_ERR_TOO_LONG;  // GCOVR_EXCL_LINE no caller's buffer is that long
        Buffer buf(n);
        if (buf.get() == nullptr) return AEAD_ERR_NOMEM;  // GCOVR_EXCL_LINE allocation failures: the memory suite
        uint8_t *p = buf.get();
        std::memcpy(p, kVersion, kVersionLen);
        std::memcpy(p + kVersionLen, suite, suite_len);
        std::memcpy(p + kVersionLen + suite_len, label, label_len);
        if (ikm.size != 0) std::memcpy(p + kVersionLen + suite_len + label_len, ikm.data, ikm.size);
        return shim::hkdf_extract(digest, properties, salt, Bytes{p, n}, prk, nh);
    }
    // LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
    int expand(const uint8_t *prk, const char *label, Bytes info, uint8_t *out, size_t len) const noexcept {
        const size_t label_len = std::strlen(label);
        // The callers bound both (aead_hpke_export: AEAD_HPKE_MAX_EXPORT_CONTEXT and 255 * Nh).
        const size_t n = 2 + kVersionLen + suite_len + label_len + info.size;
        if (len > 255 * nh || info.size > shim::kHkdfMaxInfo || n > shim::kHkdfMaxInfo) return AEAD_ERR_TOO_LONG;  // GCOVR_EXCL_LINE as above
        uint8_t buf[shim::kHkdfMaxInfo];
        put16(buf, len);
        std::memcpy(buf + 2, kVersion, kVersionLen);
        std::memcpy(buf + 2 + kVersionLen, suite, suite_len);
        std::memcpy(buf + 2 + kVersionLen + suite_len, label, label_len);
        if (info.size != 0) std::memcpy(buf + 2 + kVersionLen + suite_len + label_len, info.data, info.size);
        const int rc = shim::hkdf_expand(digest, properties, Bytes{prk, nh}, Bytes{buf, n}, out, len);
        shim::cleanse(buf, n);
        return rc;
    }
};

struct KemSuite {
    uint8_t id[5];
    explicit KemSuite(const Kem &k) noexcept : id{'K', 'E', 'M', 0, 0} { put16(id + 3, static_cast<size_t>(k.id)); }
};

Labeled kem_kdf(const Kem &k, const KemSuite &s, const char *properties) noexcept {
    return Labeled{k.digest, k.nh, s.id, sizeof s.id, properties};
}

// DeriveKeyPair (RFC 9180 section 7.1.3): sk (Nsk bytes) and pk (Npk bytes) from ikm.
int derive_keypair(const Kem &k, const char *properties, Bytes ikm, uint8_t *sk, uint8_t *pk) noexcept {
    const KemSuite suite(k);
    const Labeled kdf = kem_kdf(k, suite, properties);
    Secret<kMaxNh> prk;
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "dkp_prk", ikm, prk.b)) return rc;
    if (k.bitmask == 0) {
        if (const int rc = kdf.expand(prk.b, "sk", Bytes{nullptr, 0}, sk, k.nsk)) return rc;
    } else {
        bool found = false;
        for (unsigned counter = 0; counter < 256 && !found; ++counter) {
            const uint8_t c = static_cast<uint8_t>(counter);
            if (const int rc = kdf.expand(prk.b, "candidate", Bytes{&c, 1}, sk, k.nsk)) return rc;
            sk[0] &= k.bitmask;
            found = shim::private_key_valid(k.curve, Bytes{sk, k.nsk});
        }
        if (!found) return AEAD_ERR_CRYPTO;  // GCOVR_EXCL_LINE 256 candidates out of range: probability below 2^-8000
    }
    return shim::public_key(k.curve, properties, Bytes{sk, k.nsk}, pk, k.npk);
}

// ExtractAndExpand (section 4.1): the shared secret from the DH results and the KEM context.
int extract_and_expand(const Kem &k, const char *properties, Bytes dh, Bytes kem_context, uint8_t *shared) noexcept {
    const KemSuite suite(k);
    const Labeled kdf = kem_kdf(k, suite, properties);
    Secret<kMaxNh> prk;
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "eae_prk", dh, prk.b)) return rc;
    return kdf.expand(prk.b, "shared_secret", kem_context, shared, k.nsecret);
}

// The KEM inputs of one side; `auth`: the auth modes' second DH with the sender's static key.
struct KemInputs {
    Bytes enc;      // the ephemeral public key
    Bytes pk_r;     // the recipient's public key
    Bytes pk_s;     // the auth modes: the sender's public key; else empty
};

// kem_context = enc || pkR [|| pkS], then ExtractAndExpand.
int shared_secret(const Kem &k, const char *properties, const uint8_t *dh, size_t dh_len, const KemInputs &in,
                  uint8_t *shared) noexcept {
    uint8_t ctx[3 * AEAD_HPKE_MAX_ENC];
    size_t n = 0;
    for (const Bytes &b : {in.enc, in.pk_r, in.pk_s}) {
        if (b.size != 0) std::memcpy(ctx + n, b.data, b.size);
        n += b.size;
    }
    return extract_and_expand(k, properties, Bytes{dh, dh_len}, Bytes{ctx, n}, shared);
}

bool is_psk(int mode) noexcept { return mode == AEAD_HPKE_MODE_PSK || mode == AEAD_HPKE_MODE_AUTH_PSK; }
bool is_auth(int mode) noexcept { return mode == AEAD_HPKE_MODE_AUTH || mode == AEAD_HPKE_MODE_AUTH_PSK; }

// The parameters, read once (a caller's struct changing under the call changes nothing checked), with a
// shorter struct from an older caller read as its prefix.
struct Params {
    aead_hpke_params p{};
    const Kem *kem = nullptr;
    const Kdf *kdf = nullptr;
    const Aead *aead = nullptr;
    char properties[kMaxProperties + 1] = {};
    const char *query() const noexcept { return properties[0] != 0 ? properties : nullptr; }
};

int read_params(const aead_hpke_params *in, Params &out) noexcept {
    if (in == nullptr || in->size < offsetof(aead_hpke_params, window)) return AEAD_ERR_ARG;
    std::memcpy(&out.p, in, in->size < sizeof out.p ? in->size : sizeof out.p);
    const aead_hpke_params &p = out.p;
    out.kem = find(kKems, p.kem);
    out.kdf = find(kKdfs, p.kdf);
    out.aead = find(kAeads, p.aead);
    if (out.kem == nullptr || out.kdf == nullptr || out.aead == nullptr || p.mode < AEAD_HPKE_MODE_BASE ||
        p.mode > AEAD_HPKE_MODE_AUTH_PSK || aead::bad_range(p.info, p.info_len) || aead::bad_range(p.psk, p.psk_len) ||
        aead::bad_range(p.psk_id, p.psk_id_len) || aead::bad_range(p.ikm_e, p.ikm_e_len))
        return AEAD_ERR_ARG;
    // VerifyPSKInputs (section 5.1): both or neither, as the mode says.
    if ((p.psk_len != 0) != (p.psk_id_len != 0) || (p.psk_len != 0) != is_psk(p.mode)) return AEAD_ERR_ARG;
    if (p.window != 0 && !aead::ReplayWindow::valid_width(p.window)) return AEAD_ERR_ARG;
    if (p.properties != nullptr) {
        const size_t len = strnlen(p.properties, kMaxProperties + 1);
        if (len > kMaxProperties) return AEAD_ERR_ARG;
        std::memcpy(out.properties, p.properties, len);
    }
    out.p.properties = nullptr;  // the copy is what is used
    // X25519 and X448 are not SP 800-56A key agreement: a FIPS configuration refuses them.
    if (out.kem->bitmask == 0 && shim::hkdf_is_fips(out.query())) return AEAD_ERR_UNSUPPORTED;
    return 0;
}

}  // namespace

struct aead_hpke {
    bool sender = false;
    aead_ctx *aead = nullptr;  // NULL: export-only
    shim::Digest digest = shim::Digest::sha256;
    size_t nh = 0;
    uint8_t suite[10] = {};
    char properties[kMaxProperties + 1] = {};
    uint8_t exporter_secret[kMaxNh] = {};
    uint32_t indicator = 0;

    aead_hpke() noexcept = default;
    aead_hpke(const aead_hpke &) = delete;
    aead_hpke &operator=(const aead_hpke &) = delete;
    ~aead_hpke() {
        aead_ctx_free(aead);
        shim::cleanse(exporter_secret, sizeof exporter_secret);
    }
    Labeled kdf() const noexcept {
        return Labeled{digest, nh, suite, sizeof suite, properties[0] != 0 ? properties : nullptr};
    }
};

namespace {

// KeySchedule (section 5.1) from the shared secret: the context, its AEAD keyed with key and base_nonce.
int key_schedule(const Params &in, bool sender, const uint8_t *shared, aead_hpke **out) noexcept {
    const aead_hpke_params &p = in.p;
    auto *h = new (std::nothrow) aead_hpke;
    if (h == nullptr) return AEAD_ERR_NOMEM;  // GCOVR_EXCL_LINE allocation failures: the memory suite
    std::unique_ptr<aead_hpke> owner(h);
    h->sender = sender;
    h->digest = in.kdf->digest;
    h->nh = in.kdf->nh;
    std::memcpy(h->properties, in.properties, sizeof h->properties);
    std::memcpy(h->suite, "HPKE", 4);
    put16(h->suite + 4, static_cast<size_t>(in.kem->id));
    put16(h->suite + 6, static_cast<size_t>(in.kdf->id));
    put16(h->suite + 8, static_cast<size_t>(in.aead->id));
    const Labeled kdf = h->kdf();

    uint8_t ksc[1 + 2 * kMaxNh];  // key_schedule_context = mode || psk_id_hash || info_hash
    ksc[0] = static_cast<uint8_t>(p.mode);
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "psk_id_hash", Bytes{p.psk_id, p.psk_id_len}, ksc + 1)) return rc;
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "info_hash", Bytes{p.info, p.info_len}, ksc + 1 + h->nh)) return rc;
    const Bytes context{ksc, 1 + 2 * h->nh};
    Secret<kMaxNh> secret;
    if (const int rc = kdf.extract(Bytes{shared, in.kem->nsecret}, "secret", Bytes{p.psk, p.psk_len}, secret.b)) return rc;
    if (const int rc = kdf.expand(secret.b, "exp", context, h->exporter_secret, h->nh)) return rc;
    if (in.aead->alg != 0) {
        Secret<kMaxNk> key;
        Secret<kNn> base_nonce;
        if (const int rc = kdf.expand(secret.b, "key", context, key.b, in.aead->nk)) return rc;
        if (const int rc = kdf.expand(secret.b, "base_nonce", context, base_nonce.b, kNn)) return rc;
        aead::RecordParams rp;
        rp.hpke = true;
        rp.windowed = !sender;
        rp.window = sender ? 0 : p.window != 0 ? p.window : AEAD_DTLS_DEFAULT_WINDOW;
        if (const int rc = aead::ctx_create(&h->aead, in.aead->alg, aead::kPolicyHpke, key.b, in.aead->nk, 0,
                                            h->properties[0] != 0 ? h->properties : nullptr, base_nonce.b, kNn, rp))
            return rc;
    }
    // FIPS: the KDF's provider, and the AEAD's; the approved bits only for the NIST-curve KEMs.
    const bool fips_kdf = shim::hkdf_is_fips(kdf.properties);
    if (fips_kdf) {
        const uint32_t a = h->aead != nullptr ? aead_ctx_indicator(h->aead) : uint32_t{AEAD_IND_FIPS_PROVIDER};
        h->indicator = (a & AEAD_IND_FIPS_PROVIDER) != 0 && in.kem->bitmask != 0 ? a : a & AEAD_IND_FIPS_PROVIDER;
    }
    *out = owner.release();
    return 0;
}

int check_key(const uint8_t *key, size_t len, size_t expected) noexcept {
    if (key == nullptr || aead::bad_range(key, len)) return AEAD_ERR_ARG;
    return len == expected ? 0 : AEAD_ERR_KEY_SIZE;
}

int setup_sender(aead_hpke **ctx_out, const aead_hpke_params *params, const uint8_t *pk_r, size_t pk_r_len,
                 const uint8_t *sk_s, size_t sk_s_len, uint8_t *enc, size_t enc_cap) noexcept {
    if (ctx_out == nullptr) return AEAD_ERR_ARG;
    *ctx_out = nullptr;
    Params in;
    if (const int rc = read_params(params, in)) return rc;
    const Kem &k = *in.kem;
    if (enc == nullptr || aead::bad_range(enc, enc_cap)) return AEAD_ERR_ARG;
    if (const int rc = check_key(pk_r, pk_r_len, k.npk)) return rc;
    const bool auth = is_auth(in.p.mode);
    if (auth) {
        if (const int rc = check_key(sk_s, sk_s_len, k.nsk)) return rc;
    } else if (sk_s_len != 0) {
        return AEAD_ERR_ARG;
    }
    if (enc_cap < k.npk) return AEAD_ERR_BUFFER_TOO_SMALL;
    const char *q = in.query();
    // Copies of the caller's keys: what is checked is what is used.
    uint8_t pkr[AEAD_HPKE_MAX_ENC], pke[AEAD_HPKE_MAX_ENC], pks[AEAD_HPKE_MAX_ENC];
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> ske, sks;
    std::memcpy(pkr, pk_r, k.npk);
    if (auth) std::memcpy(sks.b, sk_s, k.nsk);
    const int rc = [&]() noexcept -> int {
        // Encap / AuthEncap (section 4.1).
        Secret<2 * kMaxSecret> dh;
        if (in.p.ikm_e != nullptr) {
            if (const int r = derive_keypair(k, q, Bytes{in.p.ikm_e, in.p.ikm_e_len}, ske.b, pke)) return r;
            if (const int r = shim::dh(k.curve, q, Bytes{ske.b, k.nsk}, Bytes{pkr, k.npk}, dh.b, k.ndh)) return r;
        } else if (const int r = shim::ephemeral_dh(k.curve, q, Bytes{pkr, k.npk}, pke, k.npk, dh.b, k.ndh)) {
            return r;
        }
        if (auth) {
            if (const int r = shim::dh(k.curve, q, Bytes{sks.b, k.nsk}, Bytes{pkr, k.npk}, dh.b + k.ndh, k.ndh, pks, k.npk))
                return r;
        }
        Secret<kMaxNh> shared;
        const KemInputs kin{Bytes{pke, k.npk}, Bytes{pkr, k.npk}, Bytes{pks, auth ? k.npk : 0}};
        if (const int r = shared_secret(k, q, dh.b, auth ? 2 * k.ndh : k.ndh, kin, shared.b)) return r;
        return key_schedule(in, true, shared.b, ctx_out);
    }();
    if (rc != 0) {
        std::memset(enc, 0, k.npk);
        return rc;
    }
    std::memcpy(enc, pke, k.npk);
    return 0;
}

int setup_recipient(aead_hpke **ctx_out, const aead_hpke_params *params, const uint8_t *enc, size_t enc_len,
                    const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s, size_t pk_s_len) noexcept {
    if (ctx_out == nullptr) return AEAD_ERR_ARG;
    *ctx_out = nullptr;
    Params in;
    if (const int rc = read_params(params, in)) return rc;
    const Kem &k = *in.kem;
    if (const int rc = check_key(enc, enc_len, k.npk)) return rc;
    if (const int rc = check_key(sk_r, sk_r_len, k.nsk)) return rc;
    const bool auth = is_auth(in.p.mode);
    if (auth) {
        if (const int rc = check_key(pk_s, pk_s_len, k.npk)) return rc;
    } else if (pk_s_len != 0) {
        return AEAD_ERR_ARG;
    }
    const char *q = in.query();
    uint8_t pke[AEAD_HPKE_MAX_ENC], pkr[AEAD_HPKE_MAX_ENC], pks[AEAD_HPKE_MAX_ENC];
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> skr;
    std::memcpy(pke, enc, k.npk);
    std::memcpy(skr.b, sk_r, k.nsk);
    if (auth) std::memcpy(pks, pk_s, k.npk);
    // Decap / AuthDecap (section 4.1).
    Secret<2 * kMaxSecret> dh;
    if (const int rc = shim::dh(k.curve, q, Bytes{skr.b, k.nsk}, Bytes{pke, k.npk}, dh.b, k.ndh, pkr, k.npk)) return rc;
    if (auth) {
        if (const int rc = shim::dh(k.curve, q, Bytes{skr.b, k.nsk}, Bytes{pks, k.npk}, dh.b + k.ndh, k.ndh)) return rc;
    }
    Secret<kMaxNh> shared;
    const KemInputs kin{Bytes{pke, k.npk}, Bytes{pkr, k.npk}, Bytes{pks, auth ? k.npk : 0}};
    if (const int rc = shared_secret(k, q, dh.b, auth ? 2 * k.ndh : k.ndh, kin, shared.b)) return rc;
    return key_schedule(in, false, shared.b, ctx_out);
}

int64_t seal(aead_hpke *h, const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len, uint8_t *out,
             size_t out_cap, uint64_t *seq_out) noexcept {
    if (h == nullptr || !h->sender || h->aead == nullptr) return AEAD_ERR_ARG;
    aead_ctx &ctx = *h->aead;
    // The next sequence number, committed by the seal itself (NoncePolicy::commit, one atomic step): a
    // concurrent seal that took the same number first makes this one's commit NONCE_ORDER before anything
    // is written, and it tries the next.
    for (;;) {
        uint64_t n = ctx.nonces.next_number();
        uint8_t nonce[kNn];
        ctx.nonces.nonce_of(n, nonce);
        const int64_t r = aead::seal_open_call<AEAD_SEAL>(ctx, &n, nonce, kNn, aad, aad_len, pt, pt_len, out, out_cap);
        if (r == AEAD_ERR_NONCE_ORDER) continue;  // GCOVR_EXCL_BR_LINE a lost race for a number: timing, not on demand
        if (r >= 0 && seq_out != nullptr) *seq_out = n;
        return r;
    }
}

int64_t open_at(aead_hpke *h, uint64_t seq, const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len,
                uint8_t *out, size_t out_cap) noexcept {
    if (h == nullptr || h->sender || h->aead == nullptr) return AEAD_ERR_ARG;
    aead_ctx &ctx = *h->aead;
    uint8_t nonce[kNn];
    ctx.nonces.nonce_of(seq, nonce);
    return aead::seal_open_call<AEAD_OPEN>(ctx, &seq, nonce, kNn, aad, aad_len, ct, ct_len, out, out_cap);
}

const Kem *kem_or_null(int kem) noexcept { return find(kKems, kem); }

int keypair_out(const Kem *k, uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap) noexcept {
    if (k == nullptr || sk == nullptr || pk == nullptr || aead::bad_range(sk, sk_cap) || aead::bad_range(pk, pk_cap))
        return AEAD_ERR_ARG;
    return sk_cap < k->nsk || pk_cap < k->npk ? AEAD_ERR_BUFFER_TOO_SMALL : 0;
}

// Writes a key pair made by `make` into the caller's buffers, or zeroes them.
template <typename Make>
int keypair(const Kem *k, uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap, const char *properties,
            Make make) noexcept {
    if (const int rc = keypair_out(k, sk, sk_cap, pk, pk_cap)) return rc;
    if (properties != nullptr && strnlen(properties, kMaxProperties + 1) > kMaxProperties) return AEAD_ERR_ARG;
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> s;
    uint8_t p[AEAD_HPKE_MAX_ENC];
    if (const int rc = make(s.b, p)) {
        std::memset(sk, 0, k->nsk);
        std::memset(pk, 0, k->npk);
        return rc;
    }
    std::memcpy(sk, s.b, k->nsk);
    std::memcpy(pk, p, k->npk);
    return 0;
}

}  // namespace

extern "C" {

AEAD_API int aead_hpke_setup_sender(aead_hpke **ctx_out, const aead_hpke_params *params, const uint8_t *pk_r,
                                    size_t pk_r_len, const uint8_t *sk_s, size_t sk_s_len, uint8_t *enc,
                                    size_t enc_cap) noexcept {
    return setup_sender(ctx_out, params, pk_r, pk_r_len, sk_s, sk_s_len, enc, enc_cap);
}

AEAD_API int aead_hpke_setup_recipient(aead_hpke **ctx_out, const aead_hpke_params *params, const uint8_t *enc,
                                       size_t enc_len, const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s,
                                       size_t pk_s_len) noexcept {
    return setup_recipient(ctx_out, params, enc, enc_len, sk_r, sk_r_len, pk_s, pk_s_len);
}

AEAD_API void aead_hpke_free(aead_hpke *ctx) noexcept { delete ctx; }

AEAD_API int64_t aead_hpke_seal(aead_hpke *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len,
                                uint8_t *out, size_t out_cap, uint64_t *seq_out) noexcept {
    return seal(ctx, aad, aad_len, pt, pt_len, out, out_cap, seq_out);
}

AEAD_API int64_t aead_hpke_open(aead_hpke *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len,
                                uint8_t *out, size_t out_cap) noexcept {
    if (ctx == nullptr || ctx->aead == nullptr || !ctx->aead->window) return AEAD_ERR_ARG;
    // One past the largest opened (UINT64_MAX + 1 = 0: none yet).
    return open_at(ctx, ctx->aead->window->largest() + 1, aad, aad_len, ct, ct_len, out, out_cap);
}

AEAD_API int64_t aead_hpke_open_at(aead_hpke *ctx, uint64_t seq, const uint8_t *aad, size_t aad_len,
                                   const uint8_t *ct, size_t ct_len, uint8_t *out, size_t out_cap) noexcept {
    return open_at(ctx, seq, aad, aad_len, ct, ct_len, out, out_cap);
}

AEAD_API int aead_hpke_export(const aead_hpke *ctx, const uint8_t *exporter_context, size_t exporter_context_len,
                              uint8_t *out, size_t out_len) noexcept {
    if (ctx == nullptr || aead::bad_range(exporter_context, exporter_context_len) || aead::bad_range(out, out_len) ||
        (out == nullptr && out_len != 0))
        return AEAD_ERR_ARG;
    if (exporter_context_len > AEAD_HPKE_MAX_EXPORT_CONTEXT || out_len > 255 * ctx->nh) return AEAD_ERR_TOO_LONG;
    if (out_len == 0) return 0;
    const int rc = ctx->kdf().expand(ctx->exporter_secret, "sec", Bytes{exporter_context, exporter_context_len}, out, out_len);
    if (rc != 0) std::memset(out, 0, out_len);  // GCOVR_EXCL_BR_LINE HKDF failing on sizes checked above: allocation failures
    return rc;
}

AEAD_API int64_t aead_hpke_seal_single(const aead_hpke_params *params, const uint8_t *pk_r, size_t pk_r_len,
                                       const uint8_t *sk_s, size_t sk_s_len, uint8_t *enc, size_t enc_cap,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len,
                                       uint8_t *out, size_t out_cap) noexcept {
    aead_hpke *h = nullptr;
    if (const int rc = setup_sender(&h, params, pk_r, pk_r_len, sk_s, sk_s_len, enc, enc_cap)) return rc;
    const int64_t r = seal(h, aad, aad_len, pt, pt_len, out, out_cap, nullptr);
    delete h;
    if (r < 0) std::memset(enc, 0, enc_cap < AEAD_HPKE_MAX_ENC ? enc_cap : AEAD_HPKE_MAX_ENC);
    return r;
}

AEAD_API int64_t aead_hpke_open_single(const aead_hpke_params *params, const uint8_t *enc, size_t enc_len,
                                       const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s, size_t pk_s_len,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len,
                                       uint8_t *out, size_t out_cap) noexcept {
    aead_hpke *h = nullptr;
    if (const int rc = setup_recipient(&h, params, enc, enc_len, sk_r, sk_r_len, pk_s, pk_s_len)) return rc;
    const int64_t r = h->aead != nullptr ? open_at(h, 0, aad, aad_len, ct, ct_len, out, out_cap) : int64_t{AEAD_ERR_ARG};
    delete h;
    return r;
}

AEAD_API int aead_hpke_derive_keypair(int kem, const uint8_t *ikm, size_t ikm_len, uint8_t *sk, size_t sk_cap,
                                      uint8_t *pk, size_t pk_cap, const char *properties) noexcept {
    const Kem *k = kem_or_null(kem);
    if (aead::bad_range(ikm, ikm_len)) return AEAD_ERR_ARG;
    return keypair(k, sk, sk_cap, pk, pk_cap, properties, [&](uint8_t *s, uint8_t *p) noexcept {
        return derive_keypair(*k, properties, Bytes{ikm, ikm_len}, s, p);
    });
}

AEAD_API int aead_hpke_generate_keypair(int kem, uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap,
                                        const char *properties) noexcept {
    const Kem *k = kem_or_null(kem);
    return keypair(k, sk, sk_cap, pk, pk_cap, properties, [&](uint8_t *s, uint8_t *p) noexcept {
        return shim::generate_key(k->curve, properties, s, k->nsk, p, k->npk);
    });
}

AEAD_API int aead_hpke_public_key(int kem, const uint8_t *sk, size_t sk_len, uint8_t *pk, size_t pk_cap,
                                  const char *properties) noexcept {
    const Kem *k = kem_or_null(kem);
    if (k == nullptr || pk == nullptr || aead::bad_range(pk, pk_cap)) return AEAD_ERR_ARG;
    if (const int rc = check_key(sk, sk_len, k->nsk)) return rc;
    if (pk_cap < k->npk) return AEAD_ERR_BUFFER_TOO_SMALL;
    if (properties != nullptr && strnlen(properties, kMaxProperties + 1) > kMaxProperties) return AEAD_ERR_ARG;
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> s;
    std::memcpy(s.b, sk, k->nsk);
    uint8_t p[AEAD_HPKE_MAX_ENC];
    const int rc = shim::public_key(k->curve, properties, Bytes{s.b, k->nsk}, p, k->npk);
    if (rc != 0) {
        std::memset(pk, 0, k->npk);
        return rc;
    }
    std::memcpy(pk, p, k->npk);
    return 0;
}

AEAD_API size_t aead_hpke_enc_size(int kem) noexcept {
    const Kem *k = kem_or_null(kem);
    return k != nullptr ? k->npk : 0;
}

AEAD_API size_t aead_hpke_private_key_size(int kem) noexcept {
    const Kem *k = kem_or_null(kem);
    return k != nullptr ? k->nsk : 0;
}

AEAD_API const aead_ctx *aead_hpke_aead_ctx(const aead_hpke *ctx) noexcept { return ctx != nullptr ? ctx->aead : nullptr; }

AEAD_API uint32_t aead_hpke_indicator(const aead_hpke *ctx) noexcept { return ctx != nullptr ? ctx->indicator : 0; }

}  // extern "C"
