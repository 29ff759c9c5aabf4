// HPKE (RFC 9180, with draft-ietf-hpke-pq's KEMs and one-stage KDFs): the DHKEMs, ML-KEM and the
// hybrid KEMs, the key schedules (LabeledExtract / LabeledExpand, or LabeledDerive), the secret export
// and the contexts, on the shim's DH, ML-KEM, HKDF and SHA-3 primitives. A context's AEAD is an ordinary keyed aead_ctx of
// the HPKE row (nonce_schedule.h): its seals commit the sequence number through the row's NoncePolicy,
// its recipient's opens go through a replay window.
#include <cstring>
#include <memory>
#include <new>

#include "aead.h"
#include "context.h"
#include "ranges.h"
#include "seal_open.h"
#include "secret.h"

namespace {

namespace shim = aead::shim;
using shim::Bytes;

constexpr size_t kNn = 12, kNt = 16, kMaxNh = 64, kMaxNk = 32, kMaxSecret = 66;
constexpr size_t kMaxProperties = 255;
constexpr size_t kOneStageMax = 0xFFFF;  // a one-stage KDF's length prefixes and output lengths: 2 bytes

enum class KemKind { dh, mlkem, hybrid };

struct Kem {
    int id;
    KemKind kind;
    shim::Curve curve;    // dh, hybrid: the curve
    shim::Digest digest;  // dh: the KEM's KDF's hash
    size_t nh;            // dh: that hash's size
    size_t nsecret;       // the shared secret's size
    size_t ndh;           // dh, hybrid: a DH result's size
    size_t npk, nsk, nenc;
    uint8_t bitmask;      // DeriveKeyPair's candidate mask (NIST curves); 0: X25519 / X448 (and ML-KEM)
    shim::MlKem mlkem;    // mlkem, hybrid: the ML-KEM parameter set
    size_t npq_ek, npq_ct;  // mlkem, hybrid: its encapsulation key and ciphertext sizes
    size_t nseed_t;       // hybrid: the curve's private key (one candidate) size
    const char *label;    // hybrid: the combiner's label
};
using shim::Curve;
using shim::Digest;
using shim::MlKem;
constexpr Kem kKems[] = {
    {AEAD_HPKE_KEM_P256_SHA256, KemKind::dh, Curve::p256, Digest::sha256, 32, 32, 32, 65, 32, 65, 0xff, MlKem::k768, 0, 0, 0, nullptr},
    {AEAD_HPKE_KEM_P384_SHA384, KemKind::dh, Curve::p384, Digest::sha384, 48, 48, 48, 97, 48, 97, 0xff, MlKem::k768, 0, 0, 0, nullptr},
    {AEAD_HPKE_KEM_P521_SHA512, KemKind::dh, Curve::p521, Digest::sha512, 64, 64, 66, 133, 66, 133, 0x01, MlKem::k768, 0, 0, 0, nullptr},
    {AEAD_HPKE_KEM_X25519_SHA256, KemKind::dh, Curve::x25519, Digest::sha256, 32, 32, 32, 32, 32, 32, 0, MlKem::k768, 0, 0, 0, nullptr},
    {AEAD_HPKE_KEM_X448_SHA512, KemKind::dh, Curve::x448, Digest::sha512, 64, 64, 56, 56, 56, 56, 0, MlKem::k768, 0, 0, 0, nullptr},
    {AEAD_HPKE_KEM_MLKEM512, KemKind::mlkem, Curve::p256, Digest::sha256, 0, 32, 0, 800, 64, 768, 0, MlKem::k512, 800, 768, 0, nullptr},
    {AEAD_HPKE_KEM_MLKEM768, KemKind::mlkem, Curve::p256, Digest::sha256, 0, 32, 0, 1184, 64, 1088, 0, MlKem::k768, 1184, 1088, 0, nullptr},
    {AEAD_HPKE_KEM_MLKEM1024, KemKind::mlkem, Curve::p256, Digest::sha256, 0, 32, 0, 1568, 64, 1568, 0, MlKem::k1024, 1568, 1568, 0, nullptr},
    {AEAD_HPKE_KEM_MLKEM768_P256, KemKind::hybrid, Curve::p256, Digest::sha256, 0, 32, 32, 1184 + 65, 32, 1088 + 65, 0xff,
     MlKem::k768, 1184, 1088, 32, "MLKEM768-P256"},
    {AEAD_HPKE_KEM_MLKEM1024_P384, KemKind::hybrid, Curve::p384, Digest::sha256, 0, 32, 48, 1568 + 97, 32, 1568 + 97, 0xff,
     MlKem::k1024, 1568, 1568, 48, "MLKEM1024-P384"},
    // X-Wing's label is the six characters \./ and /^\ .
    {AEAD_HPKE_KEM_MLKEM768_X25519, KemKind::hybrid, Curve::x25519, Digest::sha256, 0, 32, 32, 1184 + 32, 32, 1088 + 32, 0,
     MlKem::k768, 1184, 1088, 32, "\\./" "/^\\"},
};
static_assert(AEAD_HPKE_MAX_ENC == 133 && AEAD_HPKE_MAX_PQ_ENC == 1568 + 97 && AEAD_HPKE_MAX_PRIVATE_KEY == 66 &&
              AEAD_HPKE_TAG == kNt);
constexpr size_t kMaxSeedT = 48, kSeedCandidates = 8, kMaxDhPk = 133;

// X25519 and X448 are not SP 800-56A key agreement: a FIPS configuration refuses the KEMs that use them.
constexpr bool montgomery(const Kem &k) noexcept {
    return k.kind != KemKind::mlkem && (k.curve == Curve::x25519 || k.curve == Curve::x448);
}

enum class KdfKind { hkdf, shake, unavailable };

struct Kdf {
    int id;
    KdfKind kind;
    shim::Digest digest;  // hkdf
    shim::Hash xof;       // shake
    size_t nh;
};
constexpr Kdf kKdfs[] = {
    {AEAD_HPKE_KDF_HKDF_SHA256, KdfKind::hkdf, Digest::sha256, shim::Hash::shake256, 32},
    {AEAD_HPKE_KDF_HKDF_SHA384, KdfKind::hkdf, Digest::sha384, shim::Hash::shake256, 48},
    {AEAD_HPKE_KDF_HKDF_SHA512, KdfKind::hkdf, Digest::sha512, shim::Hash::shake256, 64},
    {AEAD_HPKE_KDF_SHAKE128, KdfKind::shake, Digest::sha256, shim::Hash::shake128, 32},
    {AEAD_HPKE_KDF_SHAKE256, KdfKind::shake, Digest::sha256, shim::Hash::shake256, 64},
    // TurboSHAKE (RFC 9861) is in no OpenSSL release: known, and refused with AEAD_ERR_UNSUPPORTED.
    {AEAD_HPKE_KDF_TURBOSHAKE128, KdfKind::unavailable, Digest::sha256, shim::Hash::shake128, 32},
    {AEAD_HPKE_KDF_TURBOSHAKE256, KdfKind::unavailable, Digest::sha256, shim::Hash::shake256, 64},
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

using aead::Secret;

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

// LabeledDerive (draft-ietf-hpke-pq, the one-stage KDFs) = Derive(ikm || "HPKE-v1" || suite_id ||
// I2OSP(len(label), 2) || label || I2OSP(L, 2) || context, L), ikm and context given as parts. SHAKE's
// output is a prefix of any longer output: one call gives what Go's hpke reads in several.
template <size_t I, size_t C>
int labeled_derive(shim::Hash xof, const char *properties, Bytes suite, const Bytes (&ikm)[I], const char *label,
                   const Bytes (&context)[C], uint8_t *out, size_t len) noexcept {
    const size_t label_len = std::strlen(label);
    uint8_t label_prefix[2], len_prefix[2];
    put16(label_prefix, label_len);
    put16(len_prefix, len);
    Bytes parts[I + 5 + C];
    size_t n = 0;
    for (const Bytes &b : ikm) parts[n++] = b;
    parts[n++] = Bytes{reinterpret_cast<const uint8_t *>(Labeled::kVersion), Labeled::kVersionLen};
    parts[n++] = suite;
    parts[n++] = Bytes{label_prefix, 2};
    parts[n++] = Bytes{reinterpret_cast<const uint8_t *>(label), label_len};
    parts[n++] = Bytes{len_prefix, 2};
    for (const Bytes &b : context) parts[n++] = b;
    return shim::hash(xof, properties, parts, n, out, len);
}

struct KemSuite {
    uint8_t id[5];
    explicit KemSuite(const Kem &k) noexcept : id{'K', 'E', 'M', 0, 0} { put16(id + 3, static_cast<size_t>(k.id)); }
};

Labeled kem_kdf(const Kem &k, const KemSuite &s, const char *properties) noexcept {
    return Labeled{k.digest, k.nh, s.id, sizeof s.id, properties};
}

// DeriveKeyPair (RFC 9180 section 7.1.3) of a DHKEM: sk (Nsk bytes) and pk (Npk bytes) from ikm.
int derive_dh_keypair(const Kem &k, const char *properties, Bytes ikm, uint8_t *sk, uint8_t *pk) noexcept {
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
    uint8_t ctx[3 * kMaxDhPk];
    size_t n = 0;
    for (const Bytes &b : {in.enc, in.pk_r, in.pk_s}) {
        if (b.size != 0) std::memcpy(ctx + n, b.data, b.size);
        n += b.size;
    }
    return extract_and_expand(k, properties, Bytes{dh, dh_len}, Bytes{ctx, n}, shared);
}

// ---- ML-KEM and the hybrids (draft-ietf-hpke-pq). An ML-KEM private key is its 64-byte seed; a
// hybrid's is a 32-byte seed that SHAKE256 expands into ML-KEM's seed and the curve's private key. A
// hybrid's public key is ML-KEM's encapsulation key || the curve's point, its enc ML-KEM's ciphertext ||
// the ephemeral point, its shared secret SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label).

size_t curve_pk(const Kem &k) noexcept { return k.npk - k.npq_ek; }
size_t curve_ct(const Kem &k) noexcept { return k.nenc - k.npq_ct; }

// The hybrid's ML-KEM seed and curve private key (the first candidate that is a scalar of the curve).
int expand_hybrid(const Kem &k, const char *q, const uint8_t *seed, uint8_t *pq_seed, uint8_t *sk_t) noexcept {
    Secret<shim::kMlKemSeed + kMaxSeedT * kSeedCandidates> x;
    const Bytes in{seed, k.nsk};
    if (const int rc = shim::hash(shim::Hash::shake256, q, &in, 1, x.b, shim::kMlKemSeed + k.nseed_t * kSeedCandidates))
        return rc;
    std::memcpy(pq_seed, x.b, shim::kMlKemSeed);
    for (size_t i = 0; i < kSeedCandidates; ++i) {
        const uint8_t *c = x.b + shim::kMlKemSeed + i * k.nseed_t;
        if (shim::private_key_valid(k.curve, Bytes{c, k.nseed_t})) {
            std::memcpy(sk_t, c, k.nseed_t);
            return 0;
        }
    }
    return AEAD_ERR_CRYPTO;  // GCOVR_EXCL_LINE eight candidates out of range: probability below 2^-250
}

// The public key (Npk bytes) of a PQ KEM's private key.
int pq_public_key(const Kem &k, const char *q, const uint8_t *sk, uint8_t *pk) noexcept {
    if (k.kind == KemKind::mlkem) return shim::mlkem_public_key(k.mlkem, q, Bytes{sk, k.nsk}, pk, k.npk);
    Secret<shim::kMlKemSeed> pq_seed;
    Secret<kMaxSeedT> sk_t;
    if (const int rc = expand_hybrid(k, q, sk, pq_seed.b, sk_t.b)) return rc;
    if (const int rc = shim::mlkem_public_key(k.mlkem, q, Bytes{pq_seed.b, shim::kMlKemSeed}, pk, k.npq_ek)) return rc;
    return shim::public_key(k.curve, q, Bytes{sk_t.b, k.nseed_t}, pk + k.npq_ek, curve_pk(k));
}

// DeriveKeyPair of a PQ KEM: sk = LabeledDerive with SHAKE256 under "KEM" || kem_id (Nsk bytes), then pk.
int derive_pq_keypair(const Kem &k, const char *q, Bytes ikm, uint8_t *sk, uint8_t *pk) noexcept {
    const KemSuite suite(k);
    const Bytes in[] = {ikm}, none[] = {Bytes{nullptr, 0}};
    if (const int rc = labeled_derive(shim::Hash::shake256, q, Bytes{suite.id, sizeof suite.id}, in, "DeriveKeyPair",
                                      none, sk, k.nsk))
        return rc;
    return pq_public_key(k, q, sk, pk);
}

int pq_generate(const Kem &k, const char *q, uint8_t *sk, uint8_t *pk) noexcept {
    if (k.kind == KemKind::mlkem) return shim::mlkem_generate(k.mlkem, q, sk, pk, k.npk);
    if (!shim::mlkem_available(k.mlkem, q)) return AEAD_ERR_UNSUPPORTED;
    if (const int rc = shim::random_bytes(sk, k.nsk)) return rc;
    return pq_public_key(k, q, sk, pk);
}

// The hybrid's combiner.
int combine(const Kem &k, const char *q, const uint8_t *ss_pq, const uint8_t *ss_t, const uint8_t *ct_t,
            const uint8_t *ek_t, uint8_t *shared) noexcept {
    const Bytes parts[] = {Bytes{ss_pq, shim::kMlKemSecret}, Bytes{ss_t, k.ndh}, Bytes{ct_t, curve_ct(k)},
                           Bytes{ek_t, curve_pk(k)},
                           Bytes{reinterpret_cast<const uint8_t *>(k.label), std::strlen(k.label)}};
    return shim::hash(shim::Hash::sha3_256, q, parts, 5, shared, k.nsecret);
}

// Whether ikm_e has the shape of a PQ KEM's encapsulation randomness (see aead_hpke_params.ikm_e).
bool pq_ikm_e_valid(const Kem &k, Bytes ikm_e) noexcept {
    if (k.kind == KemKind::mlkem) return ikm_e.size == shim::kMlKemRandom;
    return ikm_e.size >= shim::kMlKemRandom + k.nseed_t && (ikm_e.size - shim::kMlKemRandom) % k.nseed_t == 0;
}

// Encap: enc (Nenc bytes) and the shared secret to pk; the randomness from ikm_e (known-answer tests) or
// the DRBG.
int pq_encap(const Kem &k, const char *q, const uint8_t *pk, Bytes ikm_e, uint8_t *enc, uint8_t *shared) noexcept {
    const uint8_t *m = ikm_e.data;  // ML-KEM's randomness: the first 32 bytes, or NULL
    if (k.kind == KemKind::mlkem) return shim::mlkem_encapsulate(k.mlkem, q, Bytes{pk, k.npk}, m, enc, k.nenc, shared);
    Secret<shim::kMlKemSecret> ss_pq;
    Secret<kMaxSecret> ss_t;
    Secret<kMaxSeedT> ske;
    if (const int rc = shim::mlkem_encapsulate(k.mlkem, q, Bytes{pk, k.npq_ek}, m, enc, k.npq_ct, ss_pq.b)) return rc;
    uint8_t *ct_t = enc + k.npq_ct;
    if (m != nullptr) {
        bool found = false;
        for (size_t off = shim::kMlKemRandom; off < ikm_e.size && !found; off += k.nseed_t) {
            found = shim::private_key_valid(k.curve, Bytes{ikm_e.data + off, k.nseed_t});
            if (found) std::memcpy(ske.b, ikm_e.data + off, k.nseed_t);
        }
        if (!found) return AEAD_ERR_ARG;
        if (const int rc = shim::public_key(k.curve, q, Bytes{ske.b, k.nseed_t}, ct_t, curve_ct(k))) return rc;
    } else if (const int rc = shim::generate_key(k.curve, q, ske.b, k.nseed_t, ct_t, curve_ct(k))) {
        return rc;
    }
    const uint8_t *ek_t = pk + k.npq_ek;
    if (const int rc = shim::dh(k.curve, q, Bytes{ske.b, k.nseed_t}, Bytes{ek_t, curve_pk(k)}, ss_t.b, k.ndh)) return rc;
    return combine(k, q, ss_pq.b, ss_t.b, ct_t, ek_t, shared);
}

// Decap: the shared secret of enc for the private key sk.
int pq_decap(const Kem &k, const char *q, const uint8_t *enc, const uint8_t *sk, uint8_t *shared) noexcept {
    if (k.kind == KemKind::mlkem)
        return shim::mlkem_decapsulate(k.mlkem, q, Bytes{sk, k.nsk}, Bytes{enc, k.nenc}, shared);
    Secret<shim::kMlKemSeed> pq_seed;
    Secret<kMaxSeedT> sk_t;
    Secret<shim::kMlKemSecret> ss_pq;
    Secret<kMaxSecret> ss_t;
    uint8_t ek_t[kMaxDhPk];
    const uint8_t *ct_t = enc + k.npq_ct;
    if (const int rc = expand_hybrid(k, q, sk, pq_seed.b, sk_t.b)) return rc;
    if (const int rc = shim::mlkem_decapsulate(k.mlkem, q, Bytes{pq_seed.b, shim::kMlKemSeed}, Bytes{enc, k.npq_ct}, ss_pq.b))
        return rc;
    if (const int rc = shim::dh(k.curve, q, Bytes{sk_t.b, k.nseed_t}, Bytes{ct_t, curve_ct(k)}, ss_t.b, k.ndh)) return rc;
    if (const int rc = shim::public_key(k.curve, q, Bytes{sk_t.b, k.nseed_t}, ek_t, curve_pk(k))) return rc;
    return combine(k, q, ss_pq.b, ss_t.b, ct_t, ek_t, shared);
}

// The key calls of every KEM.
int derive_keypair(const Kem &k, const char *q, Bytes ikm, uint8_t *sk, uint8_t *pk) noexcept {
    return k.kind == KemKind::dh ? derive_dh_keypair(k, q, ikm, sk, pk) : derive_pq_keypair(k, q, ikm, sk, pk);
}
int generate_keypair(const Kem &k, const char *q, uint8_t *sk, uint8_t *pk) noexcept {
    return k.kind == KemKind::dh ? shim::generate_key(k.curve, q, sk, k.nsk, pk, k.npk) : pq_generate(k, q, sk, pk);
}
int public_key_of(const Kem &k, const char *q, const uint8_t *sk, uint8_t *pk) noexcept {
    return k.kind == KemKind::dh ? shim::public_key(k.curve, q, Bytes{sk, k.nsk}, pk, k.npk) : pq_public_key(k, q, sk, pk);
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
    // ML-KEM and the hybrids have no AuthEncap: the auth modes are not defined for them.
    if (out.kem->kind != KemKind::dh && is_auth(p.mode)) return AEAD_ERR_ARG;
    // A known-answer test's ephemeral input for a PQ KEM: its randomness, of the KEM's shape.
    if (out.kem->kind != KemKind::dh && p.ikm_e != nullptr && !pq_ikm_e_valid(*out.kem, Bytes{p.ikm_e, p.ikm_e_len}))
        return AEAD_ERR_ARG;
    if (p.window != 0 && !aead::ReplayWindow::valid_width(p.window)) return AEAD_ERR_ARG;
    if (p.properties != nullptr) {
        const size_t len = strnlen(p.properties, kMaxProperties + 1);
        if (len > kMaxProperties) return AEAD_ERR_ARG;
        std::memcpy(out.properties, p.properties, len);
    }
    out.p.properties = nullptr;  // the copy is what is used
    // A one-stage KDF length-prefixes its inputs with two bytes.
    if (out.kdf->kind == KdfKind::shake &&
        (p.info_len > kOneStageMax || p.psk_len > kOneStageMax || p.psk_id_len > kOneStageMax))
        return AEAD_ERR_TOO_LONG;
    if (out.kdf->kind == KdfKind::unavailable) return AEAD_ERR_UNSUPPORTED;
    if (out.kem->kind != KemKind::dh && !shim::mlkem_available(out.kem->mlkem, out.query())) return AEAD_ERR_UNSUPPORTED;
    if (montgomery(*out.kem) && shim::hkdf_is_fips(out.query())) return AEAD_ERR_UNSUPPORTED;
    return 0;
}

}  // namespace

struct aead_hpke {
    bool sender = false;
    aead_ctx *aead = nullptr;  // NULL: export-only
    shim::Digest digest = shim::Digest::sha256;
    bool one_stage = false;  // a one-stage KDF: exports are LabeledDerive with xof
    shim::Hash xof = shim::Hash::shake256;
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
    const char *query() const noexcept { return properties[0] != 0 ? properties : nullptr; }
    Labeled kdf() const noexcept { return Labeled{digest, nh, suite, sizeof suite, query()}; }
};

namespace {

// CombineSecrets_TwoStage (RFC 9180 section 5.1's KeySchedule): key, base_nonce and exporter_secret.
int combine_two_stage(const Params &in, const aead_hpke &h, const uint8_t *shared, uint8_t *key, uint8_t *base_nonce,
                      uint8_t *exporter_secret) noexcept {
    const aead_hpke_params &p = in.p;
    const Labeled kdf = h.kdf();
    uint8_t ksc[1 + 2 * kMaxNh];  // key_schedule_context = mode || psk_id_hash || info_hash
    ksc[0] = static_cast<uint8_t>(p.mode);
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "psk_id_hash", Bytes{p.psk_id, p.psk_id_len}, ksc + 1)) return rc;
    if (const int rc = kdf.extract(Bytes{nullptr, 0}, "info_hash", Bytes{p.info, p.info_len}, ksc + 1 + h.nh)) return rc;
    const Bytes context{ksc, 1 + 2 * h.nh};
    Secret<kMaxNh> secret;
    if (const int rc = kdf.extract(Bytes{shared, in.kem->nsecret}, "secret", Bytes{p.psk, p.psk_len}, secret.b)) return rc;
    if (const int rc = kdf.expand(secret.b, "exp", context, exporter_secret, h.nh)) return rc;
    if (in.aead->alg == 0) return 0;
    if (const int rc = kdf.expand(secret.b, "key", context, key, in.aead->nk)) return rc;
    return kdf.expand(secret.b, "base_nonce", context, base_nonce, kNn);
}

// CombineSecrets_OneStage (draft-ietf-hpke-pq): secret = LabeledDerive(lengthPrefixed(psk) ||
// lengthPrefixed(shared_secret), "secret", mode || lengthPrefixed(psk_id) || lengthPrefixed(info),
// Nk + Nn + Nh), split into key, base_nonce and exporter_secret (no key or nonce for export-only).
int combine_one_stage(const Params &in, const aead_hpke &h, const uint8_t *shared, uint8_t *key, uint8_t *base_nonce,
                      uint8_t *exporter_secret) noexcept {
    const aead_hpke_params &p = in.p;
    const size_t nk = in.aead->nk, nn = in.aead->alg != 0 ? kNn : 0;
    uint8_t lpsk[2], lss[2], lpsk_id[2], linfo[2];
    const uint8_t mode = static_cast<uint8_t>(p.mode);
    put16(lpsk, p.psk_len);
    put16(lss, in.kem->nsecret);
    put16(lpsk_id, p.psk_id_len);
    put16(linfo, p.info_len);
    const Bytes secrets[] = {Bytes{lpsk, 2}, Bytes{p.psk, p.psk_len}, Bytes{lss, 2}, Bytes{shared, in.kem->nsecret}};
    const Bytes context[] = {Bytes{&mode, 1}, Bytes{lpsk_id, 2}, Bytes{p.psk_id, p.psk_id_len}, Bytes{linfo, 2},
                             Bytes{p.info, p.info_len}};
    Secret<kMaxNk + kNn + kMaxNh> secret;
    if (const int rc = labeled_derive(h.xof, h.query(), Bytes{h.suite, sizeof h.suite}, secrets, "secret", context,
                                      secret.b, nk + nn + h.nh))
        return rc;
    std::memcpy(key, secret.b, nk);
    std::memcpy(base_nonce, secret.b + nk, nn);
    std::memcpy(exporter_secret, secret.b + nk + nn, h.nh);
    return 0;
}

// KeySchedule (section 5.1) from the shared secret: the context, its AEAD keyed with key and base_nonce.
int key_schedule(const Params &in, bool sender, const uint8_t *shared, aead_hpke **out) noexcept {
    const aead_hpke_params &p = in.p;
    auto *h = new (std::nothrow) aead_hpke;
    if (h == nullptr) return AEAD_ERR_NOMEM;  // GCOVR_EXCL_LINE allocation failures: the memory suite
    std::unique_ptr<aead_hpke> owner(h);
    h->sender = sender;
    h->digest = in.kdf->digest;
    h->one_stage = in.kdf->kind == KdfKind::shake;
    h->xof = in.kdf->xof;
    h->nh = in.kdf->nh;
    std::memcpy(h->properties, in.properties, sizeof h->properties);
    std::memcpy(h->suite, "HPKE", 4);
    put16(h->suite + 4, static_cast<size_t>(in.kem->id));
    put16(h->suite + 6, static_cast<size_t>(in.kdf->id));
    put16(h->suite + 8, static_cast<size_t>(in.aead->id));

    Secret<kMaxNk> key;
    Secret<kNn> base_nonce;
    if (const int rc = (h->one_stage ? combine_one_stage : combine_two_stage)(in, *h, shared, key.b, base_nonce.b,
                                                                                h->exporter_secret))
        return rc;
    if (in.aead->alg != 0) {
        aead::RecordParams rp;
        rp.hpke = true;
        rp.windowed = !sender;
        rp.window = sender ? 0 : p.window != 0 ? p.window : AEAD_DTLS_DEFAULT_WINDOW;
        if (const int rc = aead::ctx_create(&h->aead, in.aead->alg, aead::kPolicyHpke, key.b, in.aead->nk, 0, h->query(),
                                            base_nonce.b, kNn, rp))
            return rc;
    }
    // FIPS: the KDF's provider, ML-KEM's, and the AEAD's. The approved bits: only for the NIST-curve
    // DHKEMs and ML-KEM (FIPS 203), with HKDF; never for the hybrids or the one-stage SHAKE KDFs.
    const char *q = h->query();
    const bool fips_kdf = h->one_stage ? shim::hash_is_fips(h->xof, q) : shim::hkdf_is_fips(q);
    const bool fips_kem = in.kem->kind == KemKind::dh || shim::mlkem_is_fips(in.kem->mlkem, q);
    if (fips_kdf && fips_kem) {
        const uint32_t a = h->aead != nullptr ? aead_ctx_indicator(h->aead) : uint32_t{AEAD_IND_FIPS_PROVIDER};
        const bool approved = !h->one_stage && (in.kem->kind == KemKind::mlkem || (in.kem->kind == KemKind::dh && in.kem->bitmask != 0));
        h->indicator = (a & AEAD_IND_FIPS_PROVIDER) != 0 && approved ? a : a & AEAD_IND_FIPS_PROVIDER;
    }
    *out = owner.release();
    return 0;
}

int check_key(const uint8_t *key, size_t len, size_t expected) noexcept {
    if (key == nullptr || aead::bad_range(key, len)) return AEAD_ERR_ARG;
    return len == expected ? 0 : AEAD_ERR_KEY_SIZE;
}

// The sender's static key (sk_s, pk_s): checked as any key in the auth modes; the other modes take none.
int check_auth_key(bool auth, const uint8_t *key, size_t len, size_t expected) noexcept {
    if (auth) return check_key(key, len, expected);
    return len != 0 ? AEAD_ERR_ARG : 0;
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
    if (const int rc = check_auth_key(auth, sk_s, sk_s_len, k.nsk)) return rc;
    if (enc_cap < k.nenc) return AEAD_ERR_BUFFER_TOO_SMALL;
    const char *q = in.query();
    // Copies of the caller's keys: what is checked is what is used.
    uint8_t pkr[AEAD_HPKE_MAX_PQ_ENC], pke[AEAD_HPKE_MAX_PQ_ENC], pks[AEAD_HPKE_MAX_PQ_ENC];
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> ske, sks;
    std::memcpy(pkr, pk_r, k.npk);
    if (auth) std::memcpy(sks.b, sk_s, k.nsk);
    const int rc = [&]() noexcept -> int {
        if (k.kind != KemKind::dh) {
            Secret<kMaxNh> shared;
            const Bytes ikm_e{in.p.ikm_e, in.p.ikm_e != nullptr ? in.p.ikm_e_len : 0};
            if (const int r = pq_encap(k, q, pkr, ikm_e, pke, shared.b)) return r;
            return key_schedule(in, true, shared.b, ctx_out);
        }
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
        std::memset(enc, 0, k.nenc);
        return rc;
    }
    std::memcpy(enc, pke, k.nenc);
    return 0;
}

int setup_recipient(aead_hpke **ctx_out, const aead_hpke_params *params, const uint8_t *enc, size_t enc_len,
                    const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s, size_t pk_s_len) noexcept {
    if (ctx_out == nullptr) return AEAD_ERR_ARG;
    *ctx_out = nullptr;
    Params in;
    if (const int rc = read_params(params, in)) return rc;
    const Kem &k = *in.kem;
    if (const int rc = check_key(enc, enc_len, k.nenc)) return rc;
    if (const int rc = check_key(sk_r, sk_r_len, k.nsk)) return rc;
    const bool auth = is_auth(in.p.mode);
    if (const int rc = check_auth_key(auth, pk_s, pk_s_len, k.npk)) return rc;
    const char *q = in.query();
    uint8_t pke[AEAD_HPKE_MAX_PQ_ENC], pkr[AEAD_HPKE_MAX_PQ_ENC], pks[AEAD_HPKE_MAX_PQ_ENC];
    Secret<AEAD_HPKE_MAX_PRIVATE_KEY> skr;
    std::memcpy(pke, enc, k.nenc);
    std::memcpy(skr.b, sk_r, k.nsk);
    if (auth) std::memcpy(pks, pk_s, k.npk);
    if (k.kind != KemKind::dh) {
        Secret<kMaxNh> shared;
        if (const int rc = pq_decap(k, q, pke, skr.b, shared.b)) return rc;
        return key_schedule(in, false, shared.b, ctx_out);
    }
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
    uint8_t p[AEAD_HPKE_MAX_PQ_ENC];
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
    if (exporter_context_len > AEAD_HPKE_MAX_EXPORT_CONTEXT || out_len > (ctx->one_stage ? kOneStageMax : 255 * ctx->nh))
        return AEAD_ERR_TOO_LONG;
    if (out_len == 0) return 0;
    const Bytes context{exporter_context, exporter_context_len};
    int rc = 0;
    if (ctx->one_stage) {
        // Export_OneStage: LabeledDerive(exporter_secret, "sec", exporter_context, L).
        const Bytes secret[] = {Bytes{ctx->exporter_secret, ctx->nh}}, parts[] = {context};
        rc = labeled_derive(ctx->xof, ctx->query(), Bytes{ctx->suite, sizeof ctx->suite}, secret, "sec", parts, out, out_len);
    } else {
        rc = ctx->kdf().expand(ctx->exporter_secret, "sec", context, out, out_len);
    }
    if (rc != 0) std::memset(out, 0, out_len);  // GCOVR_EXCL_BR_LINE the KDF failing on sizes checked above: allocation failures
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
    if (r < 0) std::memset(enc, 0, enc_cap < AEAD_HPKE_MAX_PQ_ENC ? enc_cap : AEAD_HPKE_MAX_PQ_ENC);
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
        return generate_keypair(*k, properties, s, p);
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
    uint8_t p[AEAD_HPKE_MAX_PQ_ENC];
    const int rc = public_key_of(*k, properties, s.b, p);
    if (rc != 0) {
        std::memset(pk, 0, k->npk);
        return rc;
    }
    std::memcpy(pk, p, k->npk);
    return 0;
}

AEAD_API size_t aead_hpke_enc_size(int kem) noexcept {
    const Kem *k = kem_or_null(kem);
    return k != nullptr ? k->nenc : 0;
}

AEAD_API size_t aead_hpke_public_key_size(int kem) noexcept {
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
