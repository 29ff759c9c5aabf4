"""The C declarations of libaead, shared by the compiled (API mode) and the dlopen (ABI mode) paths.

This mirrors include/aead.h exactly: every value is written out so that ABI mode, which never sees the
header, has it; in API mode cffi checks each value against the header at build time.
"""

CDEF = """
#define AEAD_ABI_VERSION 1
#define AEAD_VERSION_NUMBER 10700
#define AEAD_GCM_MAX_PLAINTEXT 68719476704
#define AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT 274877906880

typedef struct aead_ctx aead_ctx;

enum {
    AEAD_AES_128_GCM = 1,
    AEAD_AES_192_GCM = 2,
    AEAD_AES_256_GCM = 3,
    AEAD_CHACHA20_POLY1305 = 4
};

enum {
    AEAD_POLICY_NONE = 0,
    AEAD_POLICY_TLS12 = 1,
    AEAD_POLICY_TLS13 = 2,
    AEAD_POLICY_RANDOM_NONCE = 3
};

enum {
    AEAD_SEAL = 1,
    AEAD_OPEN = 2
};

enum {
    AEAD_ERR_AUTH = -1,
    AEAD_ERR_ARG = -2,
    AEAD_ERR_KEY_SIZE = -3,
    AEAD_ERR_NONCE_SIZE = -4,
    AEAD_ERR_TAG_SIZE = -5,
    AEAD_ERR_AAD_SIZE = -6,
    AEAD_ERR_TOO_LONG = -7,
    AEAD_ERR_BUFFER_TOO_SMALL = -8,
    AEAD_ERR_OVERLAP = -9,
    AEAD_ERR_NONCE_ORDER = -10,
    AEAD_ERR_NONCE_EXHAUSTED = -11,
    AEAD_ERR_NONCE_PREFIX = -12,
    AEAD_ERR_UNSUPPORTED = -13,
    AEAD_ERR_NOMEM = -14,
    AEAD_ERR_CRYPTO = -15,
    AEAD_ERR_NONCE_LIMIT = -16
};

/* library 1.2.0 */
enum {
    AEAD_ERR_FORKED = -17
};

/* ABI 1.2: QUIC packet protection (RFC 9001) */
enum {
    AEAD_POLICY_QUIC = 4
};

enum {
    AEAD_ERR_KEY_LIMIT = -18
};

#define AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT 8388608
#define AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT 4503599627370496
#define AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT 68719476736
#define AEAD_QUIC_MAX_PACKET_NUMBER 4611686018427387903

/* since 1.2: more AEAD families (aead.h "Contexts and algorithms") */
enum {
    AEAD_AES_128_CCM = 5,
    AEAD_AES_192_CCM = 6,
    AEAD_AES_256_CCM = 7,
    AEAD_AES_128_GCM_SIV = 8,
    AEAD_AES_192_GCM_SIV = 9,
    AEAD_AES_256_GCM_SIV = 10,
    AEAD_AES_128_OCB = 11,
    AEAD_AES_192_OCB = 12,
    AEAD_AES_256_OCB = 13,
    AEAD_XCHACHA20_POLY1305 = 14
};

#define AEAD_ONE_UPDATE_MAX 2147483647
#define AEAD_XCHACHA20_POLY1305_NONCE 24

enum {
    AEAD_IND_FIPS_PROVIDER = 1,
    AEAD_IND_SEAL_APPROVED = 2,
    AEAD_IND_OPEN_APPROVED = 4
};

typedef struct aead_record {
    const uint8_t *nonce;
    size_t nonce_len;
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *in;
    size_t in_len;
    uint8_t *out;
    size_t out_cap;
    int64_t result;
} aead_record;

int aead_ctx_new(aead_ctx **ctx_out, int alg, int policy,
                 const uint8_t *key, size_t key_len, size_t tag_len);
void aead_ctx_free(aead_ctx *ctx);
int64_t aead_seal_open(aead_ctx *ctx, int op,
                       const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len,
                       const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap);
const char *aead_strerror(int64_t code);
uint32_t aead_abi_version(void);
const char *aead_version(void);
size_t aead_key_size(int alg);
size_t aead_nonce_size(int alg);
size_t aead_tag_size(int alg);

/* ABI 1.1 */
int aead_ctx_new_ex(aead_ctx **ctx_out, int alg, int policy,
                    const uint8_t *key, size_t key_len, size_t tag_len,
                    const char *properties,
                    const uint8_t *iv, size_t iv_len);
uint32_t aead_ctx_indicator(const aead_ctx *ctx);
const char *aead_ctx_provider(const aead_ctx *ctx);
int64_t aead_seal_open_many(aead_ctx *ctx, int op, aead_record *records, size_t count);
uint32_t aead_version_number(void);

/* ABI 1.2: QUIC */
typedef struct aead_hp aead_hp;
int aead_ctx_usage(const aead_ctx *ctx, uint64_t *seals, uint64_t *forgeries);
int aead_hp_new(aead_hp **hp_out, int alg, const uint8_t *key, size_t key_len, const char *properties);
int64_t aead_hp_mask(aead_hp *hp, const uint8_t *sample, size_t sample_len, uint8_t *mask, size_t mask_cap);
void aead_hp_free(aead_hp *hp);
int64_t aead_quic_protect(aead_ctx *ctx, aead_hp *hp, uint64_t pn, uint8_t *packet,
                          size_t header_len, size_t payload_len, size_t packet_cap);
int64_t aead_quic_unprotect(aead_ctx *ctx, aead_hp *hp, uint64_t largest_pn, uint8_t *packet,
                            size_t pn_offset, size_t packet_len, uint64_t *pn_out);

/* ABI 1.3 (library 1.3.0): AES-SIV, and AAD as components */
enum {
    AEAD_AES_128_SIV = 15,
    AEAD_AES_192_SIV = 16,
    AEAD_AES_256_SIV = 17
};

#define AEAD_SIV_MAX_COMPONENTS 126

typedef struct aead_buf {
    const uint8_t *data;
    size_t len;
} aead_buf;

typedef struct aead_record_v {
    const uint8_t *nonce;
    size_t nonce_len;
    const aead_buf *aad;
    size_t aad_count;
    const uint8_t *in;
    size_t in_len;
    uint8_t *out;
    size_t out_cap;
    int64_t result;
} aead_record_v;

int64_t aead_seal_open_v(aead_ctx *ctx, int op,
                         const uint8_t *nonce, size_t nonce_len,
                         const aead_buf *aad, size_t aad_count,
                         const uint8_t *in, size_t in_len,
                         uint8_t *out, size_t out_cap);
int64_t aead_seal_open_many_v(aead_ctx *ctx, int op, aead_record_v *records, size_t count);

/* library 1.5.0: counter nonces for any protocol, and SSH (RFC 5647) */
enum {
    AEAD_POLICY_COUNTER = 7,
    AEAD_POLICY_XOR_COUNTER = 8,
    AEAD_POLICY_SSH = 9
};

/* library 1.4.0 (rekey_after since 1.5.0) */
typedef struct aead_usage {
    uint64_t seals;
    uint64_t forgeries;
    uint64_t replays;
    uint64_t accepted;
    uint64_t seal_limit;
    uint64_t forgery_limit;
    uint64_t window;
    uint64_t largest;
    uint64_t rekey_after;
} aead_usage;

int aead_ctx_usage_ex(const aead_ctx *ctx, aead_usage *usage, size_t usage_size);
/* library 1.4.0: the replay window's refusal (used by HPKE's explicit-sequence open), and DTLS 1.2's
   AAD refusal (no class here has DTLS: declared so that _errors.EXCEPTIONS names every code) */
enum {
    AEAD_ERR_REPLAY = -19,
    AEAD_ERR_AAD_MISMATCH = -20
};

/* library 1.6.0: HPKE (RFC 9180) */
typedef struct aead_hpke aead_hpke;

enum {
    AEAD_HPKE_MODE_BASE = 0,
    AEAD_HPKE_MODE_PSK = 1,
    AEAD_HPKE_MODE_AUTH = 2,
    AEAD_HPKE_MODE_AUTH_PSK = 3
};
enum {
    AEAD_HPKE_KEM_P256_SHA256 = 0x0010,
    AEAD_HPKE_KEM_P384_SHA384 = 0x0011,
    AEAD_HPKE_KEM_P521_SHA512 = 0x0012,
    AEAD_HPKE_KEM_X25519_SHA256 = 0x0020,
    AEAD_HPKE_KEM_X448_SHA512 = 0x0021
};
enum {
    AEAD_HPKE_KDF_HKDF_SHA256 = 1,
    AEAD_HPKE_KDF_HKDF_SHA384 = 2,
    AEAD_HPKE_KDF_HKDF_SHA512 = 3
};
enum {
    AEAD_HPKE_AEAD_AES_128_GCM = 1,
    AEAD_HPKE_AEAD_AES_256_GCM = 2,
    AEAD_HPKE_AEAD_CHACHA20_POLY1305 = 3,
    AEAD_HPKE_AEAD_EXPORT_ONLY = 0xFFFF
};

#define AEAD_HPKE_MAX_ENC 133
#define AEAD_HPKE_MAX_PRIVATE_KEY 66
#define AEAD_HPKE_TAG 16
#define AEAD_HPKE_MAX_EXPORT_CONTEXT 960
#define AEAD_HPKE_MAX_SEQUENCE 18446744073709551614

typedef struct aead_hpke_params {
    size_t size;
    int mode;
    int kem, kdf, aead;
    const uint8_t *info;
    size_t info_len;
    const uint8_t *psk;
    size_t psk_len;
    const uint8_t *psk_id;
    size_t psk_id_len;
    const char *properties;
    uint32_t window;
    const uint8_t *ikm_e;
    size_t ikm_e_len;
} aead_hpke_params;

int aead_hpke_setup_sender(aead_hpke **ctx_out, const aead_hpke_params *params,
                           const uint8_t *pk_r, size_t pk_r_len,
                           const uint8_t *sk_s, size_t sk_s_len,
                           uint8_t *enc, size_t enc_cap);
int aead_hpke_setup_recipient(aead_hpke **ctx_out, const aead_hpke_params *params,
                              const uint8_t *enc, size_t enc_len,
                              const uint8_t *sk_r, size_t sk_r_len,
                              const uint8_t *pk_s, size_t pk_s_len);
void aead_hpke_free(aead_hpke *ctx);
int64_t aead_hpke_seal(aead_hpke *ctx, const uint8_t *aad, size_t aad_len,
                       const uint8_t *pt, size_t pt_len, uint8_t *out, size_t out_cap,
                       uint64_t *seq_out);
int64_t aead_hpke_open(aead_hpke *ctx, const uint8_t *aad, size_t aad_len,
                       const uint8_t *ct, size_t ct_len, uint8_t *out, size_t out_cap);
int64_t aead_hpke_open_at(aead_hpke *ctx, uint64_t seq, const uint8_t *aad, size_t aad_len,
                          const uint8_t *ct, size_t ct_len, uint8_t *out, size_t out_cap);
int aead_hpke_export(const aead_hpke *ctx, const uint8_t *exporter_context, size_t exporter_context_len,
                     uint8_t *out, size_t out_len);
int64_t aead_hpke_seal_single(const aead_hpke_params *params, const uint8_t *pk_r, size_t pk_r_len,
                              const uint8_t *sk_s, size_t sk_s_len, uint8_t *enc, size_t enc_cap,
                              const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len,
                              uint8_t *out, size_t out_cap);
int64_t aead_hpke_open_single(const aead_hpke_params *params, const uint8_t *enc, size_t enc_len,
                              const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s, size_t pk_s_len,
                              const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len,
                              uint8_t *out, size_t out_cap);
int aead_hpke_derive_keypair(int kem, const uint8_t *ikm, size_t ikm_len, uint8_t *sk, size_t sk_cap,
                             uint8_t *pk, size_t pk_cap, const char *properties);
int aead_hpke_generate_keypair(int kem, uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap,
                               const char *properties);
int aead_hpke_public_key(int kem, const uint8_t *sk, size_t sk_len, uint8_t *pk, size_t pk_cap,
                         const char *properties);
size_t aead_hpke_enc_size(int kem);
size_t aead_hpke_public_key_size(int kem);
size_t aead_hpke_private_key_size(int kem);
const aead_ctx *aead_hpke_aead_ctx(const aead_hpke *ctx);
uint32_t aead_hpke_indicator(const aead_hpke *ctx);

/* library 1.7.0: streaming AEAD */
typedef struct aead_stream aead_stream;

enum {
    AEAD_STREAM_TINK_AES_GCM_HKDF = 1,
    AEAD_STREAM_AGE = 2,
    AEAD_STREAM_RFC8188 = 3
};
enum { AEAD_STREAM_SHA1 = 1, AEAD_STREAM_SHA256 = 2, AEAD_STREAM_SHA512 = 3 };
enum {
    AEAD_ERR_STREAM_FINISHED = -21
};

#define AEAD_STREAM_MAX_SEGMENT 16777216
#define AEAD_STREAM_MAX_HEADER 276
#define AEAD_STREAM_AGE_CHUNK 65536

typedef struct aead_stream_params {
    size_t size;
    int format;
    const uint8_t *key;
    size_t key_len;
    size_t key_size;
    int hkdf_hash;
    uint32_t segment_size;
    uint32_t first_segment_offset;
    const uint8_t *associated_data;
    size_t associated_data_len;
    const uint8_t *keyid;
    size_t keyid_len;
    const char *properties;
} aead_stream_params;

int aead_stream_writer_new(aead_stream **s_out, const aead_stream_params *params, uint8_t *header,
                           size_t header_cap, size_t *header_len);
int aead_stream_reader_new(aead_stream **s_out, const aead_stream_params *params, const uint8_t *in,
                           size_t in_len, size_t *header_len);
void aead_stream_free(aead_stream *s);
int64_t aead_stream_seal(aead_stream *s, const uint8_t *in, size_t in_len, size_t pad, int final,
                         uint8_t *out, size_t out_cap);
int64_t aead_stream_open(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                         size_t out_cap);
int64_t aead_stream_seal_many(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                              size_t out_cap);
int64_t aead_stream_open_many(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                              size_t out_cap);
int64_t aead_stream_open_segment(const aead_stream *s, uint64_t index, const uint8_t *in, size_t in_len,
                                 int final, uint8_t *out, size_t out_cap);
size_t aead_stream_segment_size(const aead_stream *s, uint64_t index);
size_t aead_stream_overhead(const aead_stream *s);
int64_t aead_stream_position(const aead_stream *s);
"""
