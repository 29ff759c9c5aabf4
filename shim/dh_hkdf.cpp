// Key agreement on EVP_PKEY (X25519, X448, P-256, P-384, P-521), raw key (de)serialisation, HKDF
// through EVP_KDF, ML-KEM through EVP_PKEY / EVP_KEM, SHA-3 and SHAKE through EVP_MD: the primitives a key
// schedule is built from (lib/hpke.cpp). Nothing here knows a protocol's labels or sequence rules.
#include <cstring>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "fault_injection.h"
#include "openssl_owners.h"

namespace aead::shim {

namespace {

using BnPtr = std::unique_ptr<BIGNUM, FreeWith<BIGNUM, BN_clear_free>>;
using GroupPtr = std::unique_ptr<EC_GROUP, FreeWith<EC_GROUP, EC_GROUP_free>>;
using PointPtr = std::unique_ptr<EC_POINT, FreeWith<EC_POINT, EC_POINT_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, FreeWith<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamsPtr = std::unique_ptr<OSSL_PARAM, FreeWith<OSSL_PARAM, OSSL_PARAM_free>>;
using KeymgmtPtr = std::unique_ptr<EVP_KEYMGMT, FreeWith<EVP_KEYMGMT, EVP_KEYMGMT_free>>;

struct CurveInfo {
    const char *type;   // the key type: "EC", "X25519", "X448"
    const char *group;  // the EC group; nullptr for X25519 / X448
    int nid;
    size_t sk, pk;      // private and public key sizes
};

const CurveInfo &info(Curve c) noexcept {
    static const CurveInfo kCurves[] = {
        {"EC", "P-256", NID_X9_62_prime256v1, 32, 65},
        {"EC", "P-384", NID_secp384r1, 48, 97},
        {"EC", "P-521", NID_secp521r1, 66, 133},
        {"X25519", nullptr, NID_X25519, 32, 32},
        {"X448", nullptr, NID_X448, 56, 56},
    };
    return kCurves[static_cast<int>(c)];
}

const char *digest_name(Digest d) noexcept {
    constexpr const char *kNames[] = {"SHA256", "SHA384", "SHA512", "SHA1"};
    return kNames[static_cast<int>(d)];
}

// A libcrypto failure caused by the input (a key it refused) is `refusal`; a failed allocation NOMEM.
int refused(int refusal) noexcept {
    const unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    return e != 0 && ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE ? AEAD_ERR_NOMEM : refusal;  // GCOVR_EXCL_BR_LINE allocation failures: the memory suite
}

// Whether a provider offers the curve's keys for the query.
bool available(const CurveInfo &ci, const char *properties) noexcept {
    ERR_set_mark();
    KeymgmtPtr k(EVP_KEYMGMT_fetch(nullptr, ci.type, properties));
    ERR_pop_to_mark();
    return k != nullptr;
}

BnPtr scalar(const CurveInfo &ci, Bytes sk) noexcept {
    return BnPtr(BN_bin2bn(sk.data, static_cast<int>(ci.sk), nullptr));
}

int private_pkey(Curve c, const char *properties, Bytes sk, PkeyPtr &out) noexcept {
    const CurveInfo &ci = info(c);
    if (!private_key_valid(c, sk)) return AEAD_ERR_ARG;
    if (!available(ci, properties)) return AEAD_ERR_UNSUPPORTED;
    if (fault_point()) return AEAD_ERR_NOMEM;
    if (ci.group == nullptr) {
        out.reset(EVP_PKEY_new_raw_private_key_ex(nullptr, ci.type, properties, sk.data, sk.size));
        return out ? 0 : refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE a valid X25519 / X448 key is refused only for want of memory
    }
    BnPtr d = scalar(ci, sk);
    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    if (!d || !bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, ci.group, 0) != 1 ||  // GCOVR_EXCL_BR_LINE allocation failures
        OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get()) != 1)
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    ParamsPtr params(OSSL_PARAM_BLD_to_param(bld.get()));
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, ci.type, properties));
    EVP_PKEY *pkey = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||  // GCOVR_EXCL_BR_LINE allocation failures
        EVP_PKEY_fromdata(ctx.get(), &pkey, EVP_PKEY_KEYPAIR, params.get()) != 1)
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    out.reset(pkey);
    return 0;
}

int public_pkey(Curve c, const char *properties, Bytes pk, PkeyPtr &out) noexcept {
    const CurveInfo &ci = info(c);
    if (pk.size != ci.pk || pk.data == nullptr) return AEAD_ERR_ARG;
    if (!available(ci, properties)) return AEAD_ERR_UNSUPPORTED;  // GCOVR_EXCL_BR_LINE the private key's check came first
    if (fault_point()) return AEAD_ERR_NOMEM;
    if (ci.group == nullptr) {
        out.reset(EVP_PKEY_new_raw_public_key_ex(nullptr, ci.type, properties, pk.data, pk.size));
        return out ? 0 : refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE any string of the size is an X25519 / X448 key
    }
    if (pk.data[0] != 0x04) return AEAD_ERR_ARG;  // only the uncompressed form
    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, ci.group, 0) != 1 ||  // GCOVR_EXCL_BR_LINE allocation failures
        OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, pk.data, pk.size) != 1)
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    ParamsPtr params(OSSL_PARAM_BLD_to_param(bld.get()));
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, ci.type, properties));
    EVP_PKEY *pkey = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1)  // GCOVR_EXCL_BR_LINE allocation failures
        return refused(AEAD_ERR_CRYPTO);                            // GCOVR_EXCL_LINE as above
    // A point off the curve (or not a point at all) is refused here.
    if (EVP_PKEY_fromdata(ctx.get(), &pkey, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) return refused(AEAD_ERR_ARG);
    out.reset(pkey);
    return 0;
}

// DH(mine, pk) into out. The peer's key is validated as RFC 9180 section 7.1.4 asks: a NIST point gets
// SP 800-56A's partial public-key validation (on the curve, not the identity; the curves have cofactor 1,
// so the full check's extra multiplication by the order adds nothing); X25519 / X448 refuse an all-zero
// result.
int derive(Curve c, const char *properties, EVP_PKEY *mine, Bytes pk, uint8_t *out, size_t out_len) noexcept {
    PkeyPtr peer;
    if (const int rc = public_pkey(c, properties, pk, peer)) return rc;
    const bool nist = info(c).group != nullptr;
    if (nist) {
        PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, peer.get(), properties));
        if (!check) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE allocation failures
        if (EVP_PKEY_public_check_quick(check.get()) != 1) return refused(AEAD_ERR_ARG);  // GCOVR_EXCL_BR_LINE the import refused such points first
    }
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, mine, properties));
    if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE allocation failures
    if (EVP_PKEY_derive_set_peer_ex(ctx.get(), peer.get(), nist ? 0 : 1) != 1) return refused(AEAD_ERR_ARG);
    size_t len = out_len;
    if (EVP_PKEY_derive(ctx.get(), out, &len) != 1 || len != out_len) {
        OPENSSL_cleanse(out, out_len);
        return refused(AEAD_ERR_ARG);
    }
    unsigned char any = 0;
    for (size_t i = 0; i < out_len; ++i) any = static_cast<unsigned char>(any | out[i]);
    return any != 0 ? 0 : AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE libcrypto refuses an all-zero result first
}

// A fresh key pair of the curve from the default DRBG.
int generate_pkey(Curve c, const char *properties, PkeyPtr &out) noexcept {
    const CurveInfo &ci = info(c);
    if (!available(ci, properties)) return AEAD_ERR_UNSUPPORTED;
    if (fault_point()) return AEAD_ERR_NOMEM;
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, ci.type, properties));
    if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 ||  // GCOVR_EXCL_BR_LINE allocation failures
        (ci.group != nullptr && EVP_PKEY_CTX_set_group_name(ctx.get(), ci.group) != 1))
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    EVP_PKEY *raw = nullptr;
    if (EVP_PKEY_generate(ctx.get(), &raw) != 1) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE allocation failures
    out.reset(raw);
    return 0;
}

// A key's public half as RFC 9180 serialises it (raw for X25519 / X448, the uncompressed point).
int export_public(Curve c, EVP_PKEY *k, uint8_t *pk, size_t pk_len) noexcept {
    size_t p = pk_len;
    const bool ok = info(c).group == nullptr
                        ? EVP_PKEY_get_raw_public_key(k, pk, &p) == 1
                        : EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, pk, pk_len, &p) == 1;
    return ok && p == pk_len ? 0 : refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE allocation failures
}

int kdf_derive(Digest d, const char *properties, int mode, Bytes key, Bytes salt, Bytes info, uint8_t *out,
               size_t out_len) noexcept {
    ERR_set_mark();
    KdfPtr kdf(EVP_KDF_fetch(nullptr, "HKDF", properties));
    if (!kdf) {
        ERR_pop_to_mark();
        return AEAD_ERR_UNSUPPORTED;
    }
    ERR_pop_to_mark();
    if (fault_point()) return AEAD_ERR_NOMEM;
    KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf.get()));
    if (!ctx) return refused(AEAD_ERR_NOMEM);  // GCOVR_EXCL_LINE allocation failures
    OSSL_PARAM params[6];
    size_t n = 0;
    params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char *>(digest_name(d)), 0);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t *>(key.data), key.size);
    if (salt.size != 0)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<uint8_t *>(salt.data), salt.size);
    if (info.size != 0)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<uint8_t *>(info.data), info.size);
    params[n] = OSSL_PARAM_construct_end();
    if (EVP_KDF_derive(ctx.get(), out, out_len, params) != 1) {  // GCOVR_EXCL_BR_LINE lib/ passes only sizes HKDF takes
        OPENSSL_cleanse(out, out_len);                           // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);                         // GCOVR_EXCL_LINE as above
    }
    return 0;
}

}  // namespace

bool private_key_valid(Curve c, Bytes sk) noexcept {
    const CurveInfo &ci = info(c);
    if (sk.size != ci.sk || sk.data == nullptr) return false;
    if (ci.group == nullptr) return true;  // RFC 7748: every string is a key (clamped when used)
    BnPtr d = scalar(ci, sk);
    GroupPtr g(EC_GROUP_new_by_curve_name_ex(nullptr, nullptr, ci.nid));
    const bool ok = d && g && !BN_is_zero(d.get()) && BN_cmp(d.get(), EC_GROUP_get0_order(g.get())) < 0;  // GCOVR_EXCL_BR_LINE allocation failures
    ERR_clear_error();
    return ok;
}

int dh(Curve c, const char *properties, Bytes sk, Bytes pk, uint8_t *out, size_t out_len, uint8_t *own_pk,
       size_t own_pk_len) noexcept {
    PkeyPtr mine;
    if (const int rc = private_pkey(c, properties, sk, mine)) return rc;
    if (const int rc = derive(c, properties, mine.get(), pk, out, out_len)) return rc;
    if (own_pk == nullptr) return 0;
    // X25519 / X448 computed the public key when the private one was imported: read it, not a second
    // scalar multiplication. A NIST key imported from its scalar alone has none yet.
    if (info(c).group != nullptr) return public_key(c, properties, sk, own_pk, own_pk_len);
    size_t len = own_pk_len;
    if (EVP_PKEY_get_raw_public_key(mine.get(), own_pk, &len) != 1 || len != own_pk_len) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE allocation failures
    return 0;
}

int ephemeral_dh(Curve c, const char *properties, Bytes pk, uint8_t *pk_e, size_t pk_e_len, uint8_t *out,
                 size_t out_len) noexcept {
    PkeyPtr k;
    if (const int rc = generate_pkey(c, properties, k)) return rc;
    if (const int rc = export_public(c, k.get(), pk_e, pk_e_len)) return rc;
    return derive(c, properties, k.get(), pk, out, out_len);
}

int public_key(Curve c, const char *properties, Bytes sk, uint8_t *pk, size_t pk_len) noexcept {
    const CurveInfo &ci = info(c);
    if (pk_len != ci.pk) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ passes the curve's size
    if (ci.group == nullptr) {
        PkeyPtr k;
        if (const int rc = private_pkey(c, properties, sk, k)) return rc;
        size_t len = pk_len;
        if (EVP_PKEY_get_raw_public_key(k.get(), pk, &len) != 1 || len != pk_len) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE allocation failures
        return 0;
    }
    if (!private_key_valid(c, sk)) return AEAD_ERR_ARG;
    if (!available(ci, properties)) return AEAD_ERR_UNSUPPORTED;
    if (fault_point()) return AEAD_ERR_NOMEM;
    BnPtr d = scalar(ci, sk);
    GroupPtr g(EC_GROUP_new_by_curve_name_ex(nullptr, properties, ci.nid));
    PointPtr p(g ? EC_POINT_new(g.get()) : nullptr);
    if (!d || !p || EC_POINT_mul(g.get(), p.get(), d.get(), nullptr, nullptr, nullptr) != 1 ||  // GCOVR_EXCL_BR_LINE allocation failures
        EC_POINT_point2oct(g.get(), p.get(), POINT_CONVERSION_UNCOMPRESSED, pk, pk_len, nullptr) != pk_len)
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    return 0;
}

int generate_key(Curve c, const char *properties, uint8_t *sk, size_t sk_len, uint8_t *pk, size_t pk_len) noexcept {
    const CurveInfo &ci = info(c);
    if (sk_len != ci.sk || pk_len != ci.pk) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ passes the curve's sizes
    PkeyPtr k;
    if (const int rc = generate_pkey(c, properties, k)) return rc;
    bool ok = export_public(c, k.get(), pk, pk_len) == 0;
    if (ci.group == nullptr) {
        size_t s = sk_len;
        ok = ok && EVP_PKEY_get_raw_private_key(k.get(), sk, &s) == 1 && s == sk_len;  // GCOVR_EXCL_BR_LINE allocation failures
    } else {
        BIGNUM *d = nullptr;
        ok = ok && EVP_PKEY_get_bn_param(k.get(), OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1;
        BnPtr owned(d);
        ok = ok && BN_bn2binpad(d, sk, static_cast<int>(sk_len)) == static_cast<int>(sk_len);  // GCOVR_EXCL_BR_LINE allocation failures
    }
    if (!ok) {                              // GCOVR_EXCL_BR_LINE allocation failures
        OPENSSL_cleanse(sk, sk_len);        // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);    // GCOVR_EXCL_LINE as above
    }
    return 0;
}

int hkdf_extract(Digest d, const char *properties, Bytes salt, Bytes ikm, uint8_t *prk, size_t prk_len) noexcept {
    static const uint8_t kZeros[64] = {};
    if (salt.size == 0) salt = Bytes{kZeros, prk_len};  // RFC 5869 section 2.2: HashLen zeros
    return kdf_derive(d, properties, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, salt, Bytes{nullptr, 0}, prk, prk_len);
}

int hkdf_expand(Digest d, const char *properties, Bytes prk, Bytes info, uint8_t *out, size_t out_len) noexcept {
    if (info.size > kHkdfMaxInfo) return AEAD_ERR_TOO_LONG;
    return kdf_derive(d, properties, EVP_KDF_HKDF_MODE_EXPAND_ONLY, prk, Bytes{nullptr, 0}, info, out, out_len);
}

namespace {

// Whether the algorithm fetched with the query comes from the provider that "fips=yes" fetches it from.
template <typename T, T *(*Fetch)(OSSL_LIB_CTX *, const char *, const char *), void (*Free)(T *), auto Provider>
bool fetched_from_fips(const char *name, const char *properties) noexcept {
    ERR_set_mark();
    std::unique_ptr<T, FreeWith<T, Free>> mine(Fetch(nullptr, name, properties));
    std::unique_ptr<T, FreeWith<T, Free>> fips(Fetch(nullptr, name, "fips=yes"));
    const bool yes = mine && fips && Provider(mine.get()) == Provider(fips.get());
    ERR_pop_to_mark();
    return yes;
}

}  // namespace

bool hkdf_is_fips(const char *properties) noexcept {
    return fetched_from_fips<EVP_KDF, EVP_KDF_fetch, EVP_KDF_free, EVP_KDF_get0_provider>("HKDF", properties);
}

// ---- ML-KEM and SHA-3.

namespace {

using KemPtr = std::unique_ptr<EVP_KEM, FreeWith<EVP_KEM, EVP_KEM_free>>;
using MdPtr = std::unique_ptr<EVP_MD, FreeWith<EVP_MD, EVP_MD_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, FreeWith<EVP_MD_CTX, EVP_MD_CTX_free>>;

struct MlKemInfo {
    const char *name;
    size_t ek, ct;
};

const MlKemInfo &info(MlKem k) noexcept {
    static const MlKemInfo kMlKems[] = {
        {"ML-KEM-512", 800, 768},
        {"ML-KEM-768", 1184, 1088},
        {"ML-KEM-1024", 1568, 1568},
    };
    return kMlKems[static_cast<int>(k)];
}

// The parameter names as strings: the shim also builds against OpenSSL 3.0's headers, which lack them.
constexpr const char kSeed[] = "seed", kPub[] = "pub", kIkme[] = "ikme";

// A key from one octet-string parameter: the seed (a key pair) or the encapsulation key (public only).
int mlkem_pkey(MlKem k, const char *properties, const char *param, Bytes value, int selection, PkeyPtr &out) noexcept {
    if (!mlkem_available(k, properties)) return AEAD_ERR_UNSUPPORTED;
    if (fault_point()) return AEAD_ERR_NOMEM;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(param, const_cast<uint8_t *>(value.data), value.size),
        OSSL_PARAM_construct_end(),
    };
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, info(k).name, properties));
    if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE allocation failures
    EVP_PKEY *pkey = nullptr;
    // An encapsulation key with a coefficient not below q (FIPS 203's modulus check) is refused here.
    if (EVP_PKEY_fromdata(ctx.get(), &pkey, selection, params) != 1) return refused(AEAD_ERR_ARG);
    out.reset(pkey);
    return 0;
}

int encoded_public_key(const MlKemInfo &ki, const EVP_PKEY *pkey, uint8_t *ek, size_t ek_len) noexcept {
    size_t n = 0;
    if (ek_len != ki.ek || EVP_PKEY_get_octet_string_param(pkey, kPub, ek, ek_len, &n) != 1 || n != ek_len)  // GCOVR_EXCL_BR_LINE lib/ passes the size; allocation failures
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    return 0;
}

const char *hash_name(Hash h) noexcept {
    return h == Hash::sha3_256 ? "SHA3-256" : h == Hash::shake128 ? "SHAKE128" : "SHAKE256";
}

}  // namespace

bool mlkem_available(MlKem k, const char *properties) noexcept {
    ERR_set_mark();
    KeymgmtPtr km(EVP_KEYMGMT_fetch(nullptr, info(k).name, properties));
    KemPtr kem(km ? EVP_KEM_fetch(nullptr, info(k).name, properties) : nullptr);
    ERR_pop_to_mark();
    return km && kem;
}

bool mlkem_is_fips(MlKem k, const char *properties) noexcept {
    return fetched_from_fips<EVP_KEM, EVP_KEM_fetch, EVP_KEM_free, EVP_KEM_get0_provider>(info(k).name, properties);
}

int mlkem_public_key(MlKem k, const char *properties, Bytes seed, uint8_t *ek, size_t ek_len) noexcept {
    if (seed.size != kMlKemSeed || seed.data == nullptr) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ passes the size
    PkeyPtr key;
    if (const int rc = mlkem_pkey(k, properties, kSeed, seed, EVP_PKEY_KEYPAIR, key)) return rc;
    return encoded_public_key(info(k), key.get(), ek, ek_len);
}

int mlkem_generate(MlKem k, const char *properties, uint8_t *seed, uint8_t *ek, size_t ek_len) noexcept {
    if (!mlkem_available(k, properties)) return AEAD_ERR_UNSUPPORTED;
    if (fault_point()) return AEAD_ERR_NOMEM;
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, info(k).name, properties));
    EVP_PKEY *raw = nullptr;
    if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_generate(ctx.get(), &raw) != 1)  // GCOVR_EXCL_BR_LINE allocation failures
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    PkeyPtr key(raw);
    size_t n = 0;
    // The provider keeps the seed of a key it generated (its "retain_seed" default).
    if (EVP_PKEY_get_octet_string_param(key.get(), kSeed, seed, kMlKemSeed, &n) != 1 || n != kMlKemSeed) {  // GCOVR_EXCL_BR_LINE as above
        OPENSSL_cleanse(seed, kMlKemSeed);  // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);    // GCOVR_EXCL_LINE as above
    }
    return encoded_public_key(info(k), key.get(), ek, ek_len);
}

int mlkem_encapsulate(MlKem k, const char *properties, Bytes ek, const uint8_t *random, uint8_t *ct, size_t ct_len,
                      uint8_t *secret) noexcept {
    const MlKemInfo &ki = info(k);
    if (ek.size != ki.ek || ek.data == nullptr || ct_len != ki.ct) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ checks the sizes
    PkeyPtr key;
    if (const int rc = mlkem_pkey(k, properties, kPub, ek, EVP_PKEY_PUBLIC_KEY, key)) return rc;
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), properties));
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(kIkme, const_cast<uint8_t *>(random), kMlKemRandom),
        OSSL_PARAM_construct_end(),
    };
    if (!ctx || EVP_PKEY_encapsulate_init(ctx.get(), random != nullptr ? params : nullptr) != 1)  // GCOVR_EXCL_BR_LINE allocation failures
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    size_t n = ct_len, s = kMlKemSecret;
    if (EVP_PKEY_encapsulate(ctx.get(), ct, &n, secret, &s) != 1 || n != ct_len || s != kMlKemSecret) {  // GCOVR_EXCL_BR_LINE as above
        OPENSSL_cleanse(secret, kMlKemSecret);  // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);        // GCOVR_EXCL_LINE as above
    }
    return 0;
}

int mlkem_decapsulate(MlKem k, const char *properties, Bytes seed, Bytes ct, uint8_t *secret) noexcept {
    if (ct.size != info(k).ct || ct.data == nullptr) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ checks the sizes
    PkeyPtr key;
    if (const int rc = mlkem_pkey(k, properties, kSeed, seed, EVP_PKEY_KEYPAIR, key)) return rc;
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), properties));
    if (!ctx || EVP_PKEY_decapsulate_init(ctx.get(), nullptr) != 1) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE allocation failures
    size_t s = kMlKemSecret;
    if (EVP_PKEY_decapsulate(ctx.get(), secret, &s, ct.data, ct.size) != 1 || s != kMlKemSecret) {  // GCOVR_EXCL_BR_LINE as above
        OPENSSL_cleanse(secret, kMlKemSecret);  // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);        // GCOVR_EXCL_LINE as above
    }
    return 0;
}

int hash(Hash h, const char *properties, const Bytes *parts, size_t count, uint8_t *out, size_t out_len) noexcept {
    ERR_set_mark();
    MdPtr md(EVP_MD_fetch(nullptr, hash_name(h), properties));
    ERR_pop_to_mark();
    if (!md) return AEAD_ERR_UNSUPPORTED;
    if (h == Hash::sha3_256 && out_len != 32) return AEAD_ERR_ARG;  // GCOVR_EXCL_BR_LINE lib/ passes 32
    if (fault_point()) return AEAD_ERR_NOMEM;
    MdCtxPtr ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) != 1) return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE allocation failures
    for (size_t i = 0; i < count; ++i)
        if (parts[i].size != 0 && EVP_DigestUpdate(ctx.get(), parts[i].data, parts[i].size) != 1)  // GCOVR_EXCL_BR_LINE as above
            return refused(AEAD_ERR_CRYPTO);                                                      // GCOVR_EXCL_LINE as above
    unsigned int n = 0;
    const int ok = h == Hash::sha3_256 ? EVP_DigestFinal_ex(ctx.get(), out, &n) : EVP_DigestFinalXOF(ctx.get(), out, out_len);
    if (ok != 1) {                      // GCOVR_EXCL_BR_LINE as above
        OPENSSL_cleanse(out, out_len);  // GCOVR_EXCL_LINE as above
        return refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_LINE as above
    }
    return 0;
}

bool hash_is_fips(Hash h, const char *properties) noexcept {
    return fetched_from_fips<EVP_MD, EVP_MD_fetch, EVP_MD_free, EVP_MD_get0_provider>(hash_name(h), properties);
}

int random_bytes(uint8_t *out, size_t n) noexcept {
    if (fault_point()) return AEAD_ERR_NOMEM;
    return RAND_priv_bytes_ex(nullptr, out, n, 0) == 1 ? 0 : refused(AEAD_ERR_CRYPTO);  // GCOVR_EXCL_BR_LINE a DRBG failure
}

void cleanse(void *p, size_t n) noexcept { OPENSSL_cleanse(p, n); }

}  // namespace aead::shim
