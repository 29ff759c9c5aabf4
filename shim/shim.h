// Interface between lib/ and shim/: what lib/ needs from libcrypto, with no OpenSSL type in sight.
// Every function returns 0 or a negative AEAD_ERR_* code and never throws.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aead::shim {

// The algorithms, each a row of the registry (registry.h), in this order. xchacha20_poly1305 has no
// fetched cipher of its own: it runs on ChaCha20-Poly1305's (and ChaCha20 for its subkey). The AEGIS
// rows run on no libcrypto cipher at all (libaegis, shim/aegis.cpp).
enum class Cipher : int {
    aes_128_gcm, aes_192_gcm, aes_256_gcm, chacha20_poly1305,
    aes_128_ccm, aes_192_ccm, aes_256_ccm,
    aes_128_gcm_siv, aes_192_gcm_siv, aes_256_gcm_siv,
    aes_128_ocb, aes_192_ocb, aes_256_ocb,
    aes_128_siv, aes_192_siv, aes_256_siv,
    xchacha20_poly1305,
    aegis_128l, aegis_256, aegis_128x2, aegis_128x4, aegis_256x2, aegis_256x4
};
inline constexpr int kFetchedCiphers = 16;  // the Ciphers before xchacha20_poly1305

struct Bytes {
    const uint8_t *data;
    size_t size;
};

// Ciphers fetched with one OpenSSL property query; one per distinct query, for the life of the process.
struct CipherSource;
inline constexpr size_t kMaxProperties = 255;
// The source for a query (NULL or "" = the library context's defaults). Returns 0, AEAD_ERR_ARG (query
// longer than kMaxProperties) or AEAD_ERR_NOMEM.
int cipher_source(const char *properties, CipherSource **out) noexcept;

// A keyed template: a keyed cipher context that workers are copied from, or, where libcrypto cannot
// copy AEAD contexts safely, the key itself. Read-only after creation, so safe to share between threads.
// The context is the provider's own, run through the cipher implementation's functions, or (the
// fallback, and with AEAD_DISPATCH=evp) an EVP_CIPHER_CTX; docs/libcrypto.md.
struct Template;
// One working cipher context of the same kind. Used by one thread at a time.
struct Worker;

// Fetches (once) the cipher from src; AEAD_ERR_UNSUPPORTED if no provider offers it for that query.
// tag_len is the tag every seal and open will use (AES-CCM fixes it with the key; the others ignore it).
int template_new(Template **out, CipherSource &src, Cipher cipher, Bytes key, size_t tag_len = 16) noexcept;

// Where a template's cipher comes from: the provider's name (static for the process) and whether that
// provider is a FIPS provider.
struct Provenance {
    const char *provider = "";
    bool fips = false;
};
Provenance template_provenance(const Template &t) noexcept;

// Whether the default library context's DRBG (the one random_nonce draws from) is a FIPS provider's.
bool drbg_is_fips() noexcept;

// Fills out with n (<= 384) fresh bytes of the default library context's DRBG, drawn in blocks per
// worker. Bytes drawn ahead under another `generation` (lib/fork_guard.h: before a fork(), so the
// parent holds them too) are discarded, never handed out. 0, AEAD_ERR_NOMEM or AEAD_ERR_CRYPTO (then
// the worker is dropped like any failed one).
int random_nonce(Worker &w, uint8_t *out, size_t n, uint64_t generation) noexcept;
void template_free(Template *t) noexcept;  // cleanses the key material; NULL is a no-op

int worker_new(const Template &t, Worker **out) noexcept;
void worker_free(Worker *w) noexcept;  // NULL is a no-op

// Writes in.size bytes of ciphertext then tag_len bytes of tag to out.
// Returns 0, AEAD_ERR_NOMEM or AEAD_ERR_CRYPTO; on failure the worker must be freed, not reused.
int seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept;

// Writes ciphertext.size bytes of plaintext to out, then verifies tag.
// Returns 0, AEAD_ERR_AUTH (worker reusable), AEAD_ERR_NOMEM or AEAD_ERR_CRYPTO (worker must be freed).
// out holds unauthenticated plaintext on failure: the caller wipes it.
int open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept;

// AES-SIV (RFC 5297): components go to S2V in order (none, one or many, each possibly empty). seal writes
// the 16-byte SIV to siv and in.size bytes of ciphertext to out; open verifies siv over ciphertext
// decrypted into out. Codes as seal and open (open: out holds nothing to keep on failure).
int siv_seal(Worker &w, const Bytes *components, size_t count, Bytes in, uint8_t *siv, uint8_t *out) noexcept;
int siv_open(Worker &w, const Bytes *components, size_t count, Bytes ciphertext, Bytes siv, uint8_t *out) noexcept;
// Whether the loaded libcrypto's SIV takes an empty plaintext: OpenSSL before 3.5 skips an empty payload
// update, so it neither computes nor checks a SIV for one (pyca/cryptography refuses one there too).
bool siv_takes_empty() noexcept;

// QUIC header protection (RFC 9001 section 5.4): AES-ECB or ChaCha20 on one 16-byte sample.
enum class HpCipher : int { aes_128_ecb, aes_256_ecb, chacha20 };
// A header-protection key (the cipher and a copy of the key, cleansed on free). Read-only, shareable.
struct HpKey;
// One working context of a key. Used by one thread at a time.
struct HpWorker;
// Fetches (once per source) the cipher; AEAD_ERR_UNSUPPORTED if no provider offers it for the query.
int hp_key_new(HpKey **out, CipherSource &src, HpCipher cipher, Bytes key) noexcept;
void hp_key_free(HpKey *k) noexcept;  // NULL is a no-op
int hp_worker_new(const HpKey &k, HpWorker **out) noexcept;
void worker_free(HpWorker *w) noexcept;  // NULL is a no-op
// Writes the 5-byte mask for sample[0..16). 0, AEAD_ERR_NOMEM or AEAD_ERR_CRYPTO (then free the worker).
int hp_mask(HpWorker &w, const uint8_t *sample, uint8_t *mask) noexcept;

// ---- Key agreement and HKDF (shim/dh_hkdf.cpp): the primitives of a key schedule, nothing of any
// protocol's labels. properties: an OpenSSL property query for every fetch (NULL or "": the defaults).
// Keys are raw bytes: a NIST curve's private key is its scalar, big-endian, of the curve's scalar size
// (32, 48, 66); its public key the SEC1 uncompressed point (0x04 || x || y); X25519 and X448 keys are
// RFC 7748's strings. Codes: AEAD_ERR_ARG for a key that is not one of the curve (a wrong length, a point
// off the curve or not uncompressed, a scalar 0 or not below the order, an all-zero X25519 / X448
// result), AEAD_ERR_UNSUPPORTED (no provider offers it for the query), AEAD_ERR_NOMEM, AEAD_ERR_CRYPTO.
enum class Curve : int { p256, p384, p521, x25519, x448 };
enum class Digest : int { sha256, sha384, sha512, sha1 };  // sha1: Tink's streaming HKDF only

// The shared secret of private key sk and peer public key pk (the peer key is validated), out_len
// bytes: the x-coordinate's size for a NIST curve, the key size for X25519 / X448. own_pk (optional):
// also sk's public key, own_pk_len bytes (for X25519 / X448 without a second scalar multiplication).
int dh(Curve c, const char *properties, Bytes sk, Bytes pk, uint8_t *out, size_t out_len, uint8_t *own_pk = nullptr,
       size_t own_pk_len = 0) noexcept;
// Encap's DH: a fresh key pair (its public key to pk_e, pk_e_len bytes; the private key never leaves
// libcrypto) and its shared secret with pk, out_len bytes.
int ephemeral_dh(Curve c, const char *properties, Bytes pk, uint8_t *pk_e, size_t pk_e_len, uint8_t *out,
                 size_t out_len) noexcept;
// The public key of private key sk, pk_len bytes.
int public_key(Curve c, const char *properties, Bytes sk, uint8_t *pk, size_t pk_len) noexcept;
// Whether sk is a private key of the curve (NIST: 0 < scalar < order; X25519 / X448: any string of the
// size, RFC 7748 clamps it).
bool private_key_valid(Curve c, Bytes sk) noexcept;
// A fresh key pair from the default DRBG (the FIPS provider's under a FIPS configuration).
int generate_key(Curve c, const char *properties, uint8_t *sk, size_t sk_len, uint8_t *pk, size_t pk_len) noexcept;
// RFC 5869 HKDF-Extract (an empty salt is HashLen zero bytes) and HKDF-Expand through EVP_KDF "HKDF".
// Expand takes at most kHkdfMaxInfo bytes of info (OpenSSL 3.0's bound) and 255 * HashLen of output.
inline constexpr size_t kHkdfMaxInfo = 1024;
int hkdf_extract(Digest d, const char *properties, Bytes salt, Bytes ikm, uint8_t *prk, size_t prk_len) noexcept;
int hkdf_expand(Digest d, const char *properties, Bytes prk, Bytes info, uint8_t *out, size_t out_len) noexcept;
// Whether HKDF fetched with the query comes from a FIPS provider.
bool hkdf_is_fips(const char *properties) noexcept;

// ---- ML-KEM (FIPS 203) through EVP_PKEY and EVP_KEM (OpenSSL 3.5 and later), SHA-3 through EVP_MD, and
// the DRBG (shim/dh_hkdf.cpp). A private key is its 64-byte seed (d || z), an encapsulation key FIPS
// 203's encoding. The availability is found at run time by fetching the algorithm: a libcrypto without
// ML-KEM (OpenSSL 3.0 to 3.4, or one configured without it) answers false and every call below
// AEAD_ERR_UNSUPPORTED. Codes otherwise as above: AEAD_ERR_ARG for an encapsulation key that fails FIPS
// 203's checks (its length, a coefficient not below q) or a ciphertext of the wrong length.
enum class MlKem : int { k512, k768, k1024 };
inline constexpr size_t kMlKemSeed = 64, kMlKemSecret = 32, kMlKemRandom = 32;
bool mlkem_available(MlKem k, const char *properties) noexcept;
// Whether ML-KEM fetched with the query comes from a FIPS provider.
bool mlkem_is_fips(MlKem k, const char *properties) noexcept;
// The encapsulation key (ek_len bytes) of the key whose seed is seed.
int mlkem_public_key(MlKem k, const char *properties, Bytes seed, uint8_t *ek, size_t ek_len) noexcept;
// A fresh key from the provider's key generation: its seed and encapsulation key.
int mlkem_generate(MlKem k, const char *properties, uint8_t *seed, uint8_t *ek, size_t ek_len) noexcept;
// Encapsulates to ek: the ciphertext (ct_len bytes) and the 32-byte shared secret. random: NULL for the
// provider's DRBG, else kMlKemRandom bytes of encapsulation randomness (FIPS 203's m; known-answer tests
// only), passed as the "ikme" parameter of the encapsulation.
int mlkem_encapsulate(MlKem k, const char *properties, Bytes ek, const uint8_t *random, uint8_t *ct, size_t ct_len,
                      uint8_t *secret) noexcept;
// Decapsulates ct with the key of seed: the 32-byte shared secret (FIPS 203's implicit rejection: a
// ciphertext of the right length that is not the key's gives an unrelated secret, not an error).
int mlkem_decapsulate(MlKem k, const char *properties, Bytes seed, Bytes ct, uint8_t *secret) noexcept;

enum class Hash : int { sha3_256, shake128, shake256 };
// The hash of the concatenation of count parts: SHA3-256 (out_len 32), or out_len bytes of SHAKE.
int hash(Hash h, const char *properties, const Bytes *parts, size_t count, uint8_t *out, size_t out_len) noexcept;
// Whether the hash fetched with the query comes from a FIPS provider.
bool hash_is_fips(Hash h, const char *properties) noexcept;
// n bytes from the library context's private DRBG (the FIPS provider's under a FIPS configuration).
int random_bytes(uint8_t *out, size_t n) noexcept;
// OPENSSL_cleanse.
void cleanse(void *p, size_t n) noexcept;

// "OpenSSL 3.0.19 27 Jan 2026": the libcrypto actually loaded.
const char *libcrypto_version() noexcept;

}  // namespace aead::shim
