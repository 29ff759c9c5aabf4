/*
 * libaead: authenticated encryption through OpenSSL 3, one call per operation. For any caller, the
 * AEAD algorithms AES-128/192/256-GCM, ChaCha20-Poly1305, AES-CCM, AES-GCM-SIV, AES-OCB3,
 * XChaCha20-Poly1305 and AES-SIV (docs/algorithms.md); for protocol stacks, record protection for
 * TLS 1.2 / 1.3, QUIC (RFC 9001) and DTLS 1.2 / 1.3, and for any protocol with a counter nonce (storage
 * formats, COSE, SSH), whose nonce sequencing, key-usage limits and replay windows are checked inside the
 * library (the nonce policies); HPKE (RFC 9180); and streaming AEAD for data too large for one call (Tink's
 * AES-GCM-HKDF streaming, age's payload, RFC 8188), whose segment numbers and final flag it keeps.
 *
 * This is the only public header. Every function is declared with its full contract. It is ordered by
 * subject: contexts and algorithms, the seal/open call, the batch and vector calls, nonce policies,
 * record layers (QUIC, DTLS 1.3), header protection, HPKE (RFC 9180), streaming AEAD, the FIPS indicator, sizes
 * and limits, errors, versions.
 *
 * Each declaration says which release added it: "since 1.N" is library 1.N.0 and, for a function, its
 * symbol version LIBAEAD_1.N (LIBAEAD_1 for 1.0). Behaviour added later to an older declaration is
 * tagged where it is described. docs/abi.md has the promise of stability and what each release added.
 *
 * Conventions that hold for every function:
 *  - Nothing but a return code crosses this ABI: no exception, abort or signal, and no thread-local
 *    "last error" (a goroutine may change OS threads between two calls).
 *  - Every buffer is a (pointer, length) pair and may be (NULL, 0). A pointer is never read or written
 *    when its length is 0. A NULL pointer with a non-zero length, or a range that would run past the end
 *    of the address space, is AEAD_ERR_ARG.
 *  - Errors are the negative AEAD_ERR_* codes (see "Errors"); they are stable across versions.
 *  - Sizes are also available as functions (aead_key_size, ...) for callers that cannot see macros.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef AEAD_H
#define AEAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one export macro: the library is built with hidden visibility and exports only aead_*. */
#if defined(AEAD_BUILDING_LIBRARY) && (defined(_WIN32) || defined(__CYGWIN__))
#define AEAD_API __declspec(dllexport)
#elif defined(AEAD_BUILDING_LIBRARY) && defined(__GNUC__)
#define AEAD_API __attribute__((visibility("default")))
#else
#define AEAD_API
#endif

/* C++ callers see the no-throw promise in the type (the library is built without exceptions). */
#if defined(__cplusplus)
#define AEAD_NOEXCEPT noexcept
#else
#define AEAD_NOEXCEPT
#endif

/* ========================================================================================= *
 * Contexts and algorithms
 * ========================================================================================= */

/* Opaque keyed context. See aead_ctx_new for its thread-safety. Since 1.0. */
typedef struct aead_ctx aead_ctx;

/* A keyed QUIC header-protection key ("quic hp"), also DTLS 1.3's record-number key ("Header
 * protection" below). Thread-safety: like aead_ctx (any number of threads may call aead_hp_mask
 * concurrently; no allocation in the steady state). Since 1.2. */
typedef struct aead_hp aead_hp;

/* Algorithms (the alg of aead_ctx_new, aead_ctx_new_ex, aead_ctx_new_dtls and aead_hp_new). */
enum {
    AEAD_AES_128_GCM = 1,         /* since 1.0; key 16 bytes */
    AEAD_AES_192_GCM = 2,         /* since 1.0; key 24 */
    AEAD_AES_256_GCM = 3,         /* since 1.0; key 32 */
    AEAD_CHACHA20_POLY1305 = 4,   /* since 1.0; key 32 */
    AEAD_AES_128_CCM = 5,         /* since 1.2; key 16 */
    AEAD_AES_192_CCM = 6,         /* since 1.2; key 24 */
    AEAD_AES_256_CCM = 7,         /* since 1.2; key 32 */
    AEAD_AES_128_GCM_SIV = 8,     /* since 1.2; key 16 */
    AEAD_AES_192_GCM_SIV = 9,     /* since 1.2; key 24 */
    AEAD_AES_256_GCM_SIV = 10,    /* since 1.2; key 32 */
    AEAD_AES_128_OCB = 11,        /* since 1.2; key 16 */
    AEAD_AES_192_OCB = 12,        /* since 1.2; key 24 */
    AEAD_AES_256_OCB = 13,        /* since 1.2; key 32 */
    AEAD_XCHACHA20_POLY1305 = 14, /* since 1.2; key 32 */
    AEAD_AES_128_SIV = 15,        /* since 1.3; key 32 */
    AEAD_AES_192_SIV = 16,        /* since 1.3; key 48 */
    AEAD_AES_256_SIV = 17,        /* since 1.3; key 64 */
    AEAD_AEGIS_128L = 18,         /* since 1.7; key 16 */
    AEAD_AEGIS_256 = 19,          /* since 1.7; key 32 */
    AEAD_AEGIS_128X2 = 20,        /* since 1.7; key 16 */
    AEAD_AEGIS_128X4 = 21,        /* since 1.7; key 16 */
    AEAD_AEGIS_256X2 = 22,        /* since 1.7; key 32 */
    AEAD_AEGIS_256X4 = 23         /* since 1.7; key 32 */
};

/* The families after AES-GCM and ChaCha20-Poly1305 (docs/algorithms.md). They take the same
 * aead_ctx_new / aead_ctx_new_ex and the same aead_seal_open / aead_seal_open_many. Every promise of
 * aead_seal_open (refusals write nothing, failures zero the output, out == in is the one alias allowed,
 * no allocation by libaead per call, any number of threads per context) holds for the 1.2 families
 * (AES-CCM, AES-GCM-SIV, AES-OCB3, XChaCha20-Poly1305); AES-SIV's differences are given below.
 * Differences from AES-GCM, per family:
 *
 * AEAD_AES_{128,192,256}_CCM (since 1.2; SP 800-38C, RFC 3610; keys 16/24/32; any OpenSSL 3):
 *   nonce 7..13 bytes, chosen per call; tag_len at creation: 0 (= 16) or 4, 6, 8, 10, 12, 14, 16.
 *   A message must be shorter than 2^(8 * (15 - nonce_len)) bytes (e.g. 65536 with a 13-byte nonce):
 *   longer is AEAD_ERR_TOO_LONG ("data too long for the nonce"). Plaintext and AAD are each at most
 *   AEAD_ONE_UPDATE_MAX bytes (libcrypto takes them in one update). Policies: NONE, and TLS12 (RFC 6655:
 *   4-byte salt || 8-byte explicit counter, as AES-GCM) and TLS13 (TLS_AES_128_CCM_SHA256), both with
 *   12-byte nonces and 16-byte tags; since 1.4 also the DTLS policies. FIPS provider: seals and opens
 *   approved (aead_ctx_indicator).
 * AEAD_AES_{128,192,256}_GCM_SIV (since 1.2; RFC 8452; nonce-misuse resistant; keys 16/24/32): nonce 12,
 *   tag 16, policy NONE. Needs OpenSSL >= 3.2 (the vendored build, -Dlibcrypto=vendored, has it): on an
 *   older libcrypto aead_ctx_new returns AEAD_ERR_UNSUPPORTED. Plaintext at most AEAD_ONE_UPDATE_MAX
 *   bytes, AAD at most 2^36. Not in FIPS providers.
 * AEAD_AES_{128,192,256}_OCB (since 1.2; OCB3, RFC 7253; keys 16/24/32): nonce 1..15 bytes
 *   (pyca/cryptography takes 12..15; RFC 7253 allows any length up to 120 bits), tag 16, policy NONE.
 *   Not in FIPS providers.
 * AEAD_XCHACHA20_POLY1305 (since 1.2; draft-irtf-cfrg-xchacha; key 32): nonce 24, tag 16. Built from
 *   OpenSSL's ChaCha20 and ChaCha20-Poly1305 (HChaCha20 subkey from the first 16 nonce bytes, then
 *   ChaCha20-Poly1305 under it with nonce 0^4 || the last 8); byte-compatible with libsodium's
 *   crypto_aead_xchacha20poly1305_ietf and Go's chacha20poly1305.NewX. Policies: NONE and
 *   AEAD_POLICY_RANDOM_NONCE, which draws 24-byte nonces (output nonce(24) || ciphertext || tag, the
 *   in-place alias moves by 24) and has no seal limit. Not in FIPS providers (fips=yes:
 *   AEAD_ERR_UNSUPPORTED).
 *   Key material: contexts of the 1.2 families keep a copy of the key (cleansed by aead_ctx_free) to
 *   key each thread's working context; the 1.0 families keep none where libcrypto copies contexts.
 * AEAD_AES_{128,192,256}_SIV (since 1.3; RFC 5297, deterministic authenticated encryption; keys
 *   32/48/64: the CMAC key, then the CTR key): output SIV(16) || ciphertext, the synthetic IV first (as
 *   RFC 5297 and pyca/cryptography's AESSIV). S2V takes a vector of associated-data strings
 *   ("components"):
 *     - aead_seal_open_v passes aad[0], ..., aad[aad_count - 1], then the nonce as one more component if
 *       nonce_len > 0 (RFC 5297 section 3, nonce-based use). aad_count 0 with nonce_len 0 is S2V of the
 *       plaintext alone (pyca's encrypt(data, None));
 *     - aead_seal_open passes [aad] (one component, even when empty), then the nonce if nonce_len > 0:
 *       RFC 5297 section 6's AEAD_AES_SIV_CMAC_256/384/512 with a nonce (Wycheproof's aead_aes_siv_cmac,
 *       RustCrypto's Aes*SivAead), deterministic SIV without one.
 *   At most AEAD_SIV_MAX_COMPONENTS components, the nonce included (RFC 5297 section 7: S2V takes at
 *   most 127 strings, the plaintext being the last): more is AEAD_ERR_TOO_LONG. Each component and the
 *   plaintext at most AEAD_ONE_UPDATE_MAX bytes (else AEAD_ERR_TOO_LONG), the nonce too (else
 *   AEAD_ERR_NONCE_SIZE). tag_len 0 or 16; AEAD_POLICY_NONE only. aead_nonce_size gives 16 (the AEAD
 *   form's usual nonce); any length from 0 is accepted. An empty plaintext needs OpenSSL >= 3.5 (the
 *   vendored build): before it, OpenSSL's SIV skips an empty payload and so neither makes nor checks a
 *   SIV, and a seal or open of an empty message is AEAD_ERR_UNSUPPORTED (refused: nothing written).
 *   In place means the ciphertext lands where the plaintext was: seal with in == out + 16, open with
 *   out == in + 16 (as AEAD_POLICY_RANDOM_NONCE's layout); out == in is AEAD_ERR_OVERLAP here.
 *   OpenSSL's provider (the default provider of OpenSSL 3.0 and later; no FIPS provider has SIV) does
 *   one operation per keyed state, so each call copies the keyed state: unlike the other families, a
 *   SIV call allocates inside libcrypto (docs/algorithms.md gives the count).
 * AEAD_AEGIS_128L, _128X2, _128X4 (since 1.7; RFC 10032; key 16, nonce 16) and AEAD_AEGIS_256, _256X2,
 *   _256X4 (since 1.7; RFC 10032; key 32, nonce 32): tag_len 0 (= 16), 16 or 32 (AEAD_AEGIS_MAX_TAG),
 *   chosen at creation. Plaintext and AAD each at most 2^61 - 1 bytes (RFC 10032's P_MAX and A_MAX).
 *   Not on OpenSSL: libaegis (Frank Denis's, MIT; compiled into libaead, hidden, with its own choice of
 *   AES-NI / VAES / AVX-512 / ARM crypto / portable code at run time); aead_ctx_provider gives "libaegis".
 *   Policies: NONE, and AEAD_POLICY_RANDOM_NONCE, which draws the algorithm's whole nonce (output
 *   nonce(16 or 32) || ciphertext || tag) with at most 2^48 seals per context for the 128-bit-nonce
 *   variants (RFC 10032's security considerations: random nonces up to 2^48 messages per key) and no
 *   limit for the 256-bit ones. Not FIPS-approved: a context whose properties select a FIPS provider
 *   (fips=yes, or a library context that defaults to it) is AEAD_ERR_UNSUPPORTED; aead_ctx_indicator is
 *   always 0. Key material: the context keeps a copy of the key (cleansed by aead_ctx_free); libaegis
 *   keeps no state between calls. Without hardware AES (portable code) AEGIS is slow and its
 *   software AES (table lookups) is not guaranteed constant-time: prefer XChaCha20-Poly1305 there
 *   (docs/algorithms.md).
 */

/*
 * Creates a keyed context. Since 1.0.
 *   alg     : AEAD_AES_128_GCM (key 16 bytes), _192_ (24), _256_ (32), AEAD_CHACHA20_POLY1305 (32); the
 *             later families with the key sizes the algorithm enum gives.
 *   policy  : AEAD_POLICY_NONE, _TLS12, _TLS13, (since 1.1) _RANDOM_NONCE or (since 1.5) _COUNTER,
 *             _XOR_COUNTER, _SSH, each only with the algorithms it accepts ("Nonce policies": another
 *             pairing is AEAD_ERR_ARG). AEAD_POLICY_QUIC
 *             needs its IV (aead_ctx_new_ex: here AEAD_ERR_NONCE_SIZE); the DTLS policies are created by
 *             aead_ctx_new_dtls only (here AEAD_ERR_ARG).
 *   tag_len : 0 means 16. AES-GCM with AEAD_POLICY_NONE also takes 4, 8 and 12..15 (SP 800-38D);
 *             ChaCha20-Poly1305 and both TLS policies take only 16 (the later families: see above).
 * Returns 0 and stores the context in *ctx_out, or returns AEAD_ERR_ARG, _KEY_SIZE, _TAG_SIZE,
 * _UNSUPPORTED, _NOMEM or _CRYPTO and stores NULL in *ctx_out (when ctx_out is not NULL).
 * The library keeps no copy of the raw key where libcrypto can copy a keyed context (OpenSSL >= 3.0.13);
 * the caller may wipe `key` as soon as this returns.
 * Thread-safety: safe to call concurrently; the new context is not shared until the caller shares it.
 */
AEAD_API int aead_ctx_new(aead_ctx **ctx_out, int alg, int policy,
                          const uint8_t *key, size_t key_len, size_t tag_len) AEAD_NOEXCEPT;

/*
 * Creates a keyed context, like aead_ctx_new, with two more inputs. Since 1.1.
 *   properties: an OpenSSL property query used for every fetch this context makes (cipher and, for
 *               the random-nonce policy, nothing else: the DRBG is the library context's), e.g.
 *               "fips=yes" or "provider=default". NULL or "" means aead_ctx_new's behaviour (the
 *               library context's default properties). Fetched ciphers are cached per distinct query
 *               for the life of the process. No provider offering the algorithm for that query is
 *               AEAD_ERR_UNSUPPORTED. A query longer than 255 bytes is AEAD_ERR_ARG.
 *   iv, iv_len: the TLS connection IV, known when the record keys are derived, for the TLS policies
 *               (and the counter policies' fixed part and start or mask):
 *     - iv_len 0: as aead_ctx_new (the first seal fixes prefix and mask);
 *     - AEAD_POLICY_TLS13 (either algorithm), AEAD_POLICY_TLS12 with ChaCha20-Poly1305: 12 bytes, the
 *       static IV; seal nonce = iv XOR (0^4 || BE64(seq)); nothing is learned, so concurrent first seals
 *       are safe; seq starts at 0 and must strictly increase (gaps allowed), never 2^64-1;
 *     - AEAD_POLICY_TLS12 with AES-GCM (since 1.2 also AES-CCM): 4 bytes (the fixed salt; explicit
 *       nonce = BE64(seq), RFC 5288, as OpenSSL's libssl and Go send) or 12 bytes (salt || 8-byte mask;
 *       explicit nonce = mask XOR BE64(seq), the construction rustls sends); same sequence rules;
 *     - since 1.2, AEAD_POLICY_QUIC: the 12-byte packet-protection IV ("quic iv"), required;
 *     - since 1.5, AEAD_POLICY_COUNTER and AEAD_POLICY_SSH: 12 bytes, fixed || BE64(start) (SSH: the
 *       key exchange's initial IV); AEAD_POLICY_XOR_COUNTER: 12 bytes, fixed || mask ("Nonce policies");
 *     - any other policy, or any other length: AEAD_ERR_NONCE_SIZE.
 *   The library keeps iv (it is not secret in TLS, but is cleansed on free).
 * Returns as aead_ctx_new. Thread-safety: as aead_ctx_new.
 */
AEAD_API int aead_ctx_new_ex(aead_ctx **ctx_out, int alg, int policy,
                             const uint8_t *key, size_t key_len, size_t tag_len,
                             const char *properties,
                             const uint8_t *iv, size_t iv_len) AEAD_NOEXCEPT;

/*
 * Creates a record-protection context with a replay window (since 1.4), like aead_ctx_new_ex, plus:
 *   policy: AEAD_POLICY_DTLS12, AEAD_POLICY_DTLS13, or AEAD_POLICY_QUIC (the opt-in duplicate check:
 *           with window > 0, aead_seal_open opens and aead_quic_unprotect refuse a packet number already
 *           accepted or left of the window with AEAD_ERR_REPLAY; window 0 is aead_ctx_new_ex's context).
 *   iv, iv_len: as the DTLS policies describe ("Nonce policies": DTLS 1.2 AES: 4; otherwise 12);
 *           required.
 *   epoch: the epoch of this context's keys: DTLS 1.2 below 2^16 (it is in every nonce); DTLS 1.3 any
 *          (not in the nonce: kept for the caller's header); QUIC 0. Else AEAD_ERR_ARG.
 *   window: the replay window's width in records: 0 means AEAD_DTLS_DEFAULT_WINDOW (64, the RFCs'
 *           minimum) for DTLS; otherwise a multiple of 64 up to AEAD_DTLS_MAX_WINDOW (else AEAD_ERR_ARG).
 *   tag_len: 0 or 16; DTLS 1.2 AES-CCM also 8 (CCM_8).
 * Returns as aead_ctx_new_ex. The window costs (window / 64 + 1) 8-byte words, rounded up to a power
 * of two, allocated here. Thread-safety: as aead_ctx_new.
 */
AEAD_API int aead_ctx_new_dtls(aead_ctx **ctx_out, int alg, int policy,
                               const uint8_t *key, size_t key_len, size_t tag_len,
                               const char *properties, const uint8_t *iv, size_t iv_len,
                               uint64_t epoch, uint32_t window) AEAD_NOEXCEPT;

/* Frees a context and cleanses its key material. NULL is a no-op. Since 1.0.
 * Thread-safety: the caller must ensure no other call on ctx is running or will start. */
AEAD_API void aead_ctx_free(aead_ctx *ctx) AEAD_NOEXCEPT;

/* How much a context has been used: seals made (counted for AEAD_POLICY_QUIC and
 * AEAD_POLICY_RANDOM_NONCE contexts, since 1.4 also the DTLS policies and AEAD_POLICY_TLS13 with AES-GCM,
 * since 1.5 AEAD_POLICY_SSH; 0 for the others) and opens that failed authentication (every context). aead_ctx_usage_ex (since
 * 1.4) gives these and the replay window's counts. Either pointer may be NULL. Returns 0, or
 * AEAD_ERR_ARG for a NULL ctx.
 * Thread-safety: any thread, concurrently with any call on ctx but aead_ctx_free; the values are a
 * snapshot. After fork() each process counts on from the inherited values. Since 1.2. */
AEAD_API int aead_ctx_usage(const aead_ctx *ctx, uint64_t *seals, uint64_t *forgeries) AEAD_NOEXCEPT;

/* What aead_ctx_usage_ex reports. Fields may be added at the end in later versions: pass sizeof.
 * Since 1.4. */
typedef struct aead_usage {
    uint64_t seals;         /* seals counted (QUIC, random nonce, DTLS, TLS 1.3 AES-GCM, SSH) */
    uint64_t forgeries;     /* opens that failed authentication */
    uint64_t replays;       /* opens refused by the replay window (before or after decrypting) */
    uint64_t accepted;      /* records accepted into the replay window */
    uint64_t seal_limit;    /* seals allowed under the key; UINT64_MAX: no limit */
    uint64_t forgery_limit; /* failed opens after which opens are refused; UINT64_MAX: no limit */
    uint64_t window;        /* the replay window's width; 0: no window */
    uint64_t largest;       /* the largest record number accepted; UINT64_MAX: none yet (or no window) */
    uint64_t rekey_after;   /* since 1.5: seals after which the protocol says to change keys (SSH: 2^32,
                               RFC 4344 section 3.1); nothing is refused there. UINT64_MAX: none */
} aead_usage;

/* Fills the first min(usage_size, sizeof(aead_usage)) bytes of *usage with a snapshot of ctx's counters.
 * Returns 0, or AEAD_ERR_ARG (NULL ctx or usage, usage_size 0). Thread-safety: as aead_ctx_usage.
 * Since 1.4. */
AEAD_API int aead_ctx_usage_ex(const aead_ctx *ctx, aead_usage *usage, size_t usage_size) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * The seal/open call
 * ========================================================================================= */

/* Directions for aead_seal_open and its batch and vector siblings. Since 1.0. */
enum {
    AEAD_SEAL = 1,
    AEAD_OPEN = 2
};

/*
 * Seals (op = AEAD_SEAL) or opens (op = AEAD_OPEN) one message: the whole operation in one call.
 * Since 1.0.
 *   seal: reads in_len bytes of plaintext, writes ciphertext || tag, returns in_len + tag_len.
 *   open: reads ciphertext || tag (in_len bytes), writes the plaintext, returns in_len - tag_len.
 *   nonce: AES-GCM with AEAD_POLICY_NONE takes 1..128 bytes; ChaCha20-Poly1305 and both TLS policies
 *          exactly 12 (the later families: see the algorithms). aad: any length up to the algorithm's
 *          limit (TLS policies: see "Nonce policies", seal only).
 * Buffers: out == in (exact in-place) is allowed. Any other overlap of the written part of out with in,
 *   or any overlap of it with aad or nonce, is AEAD_ERR_OVERLAP. out_cap below the output length is
 *   AEAD_ERR_BUFFER_TOO_SMALL. An open whose input is shorter than the tag is AEAD_ERR_AUTH.
 * Never a partial output:
 *   - refused calls (argument, size, overlap and nonce-policy errors) write nothing to out and change
 *     no state: a refused TLS seal consumes no sequence number;
 *   - a failure after those checks (AEAD_ERR_AUTH above all, or _NOMEM / _CRYPTO) leaves the first
 *     min(out_cap, output length) bytes of out zeroed: unauthenticated plaintext never escapes.
 *     A TLS sequence number accepted by a seal that then fails with _NOMEM / _CRYPTO stays consumed.
 * Returns the output length (>= 0) or a negative AEAD_ERR_* code.
 * Thread-safety: any number of threads may call this concurrently on one ctx, TLS policies included;
 *   the TLS sequence check and its update are one atomic step, so no sequence is accepted twice.
 *   In the steady state a call allocates nothing and holds no lock across the cryptographic work.
 *   The very first seal on a TLS context learns the prefix (and TLS 1.3 mask): make it before sharing
 *   the context, or make sure concurrent first seals carry the same nonce. (A context given its IV by
 *   aead_ctx_new_ex, since 1.1, learns nothing and has no such first seal.)
 * Since 1.1: AEAD_POLICY_RANDOM_NONCE takes nonce_len 0 and puts the drawn nonce before the ciphertext
 *   (see "Nonce policies"); the in-place alias moves by those 12 bytes accordingly.
 * Caller memory is read once (since 1.2): the nonce a policy checks is copied first, and the copy is
 *   what libcrypto gets; a random nonce is drawn into the library's memory, sealed with, then written to
 *   out. A caller changing an argument buffer during a call (its own data race) can get garbage, never a
 *   seal under a nonce that was not checked, and never a write outside [out, out + out_cap).
 *   docs/security.md, "What a caller can and cannot break".
 */
AEAD_API int64_t aead_seal_open(aead_ctx *ctx, int op,
                                const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *aad, size_t aad_len,
                                const uint8_t *in, size_t in_len,
                                uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * The batch and vector calls
 * ========================================================================================= */

/* One record of aead_seal_open_many: the arguments of one aead_seal_open call and its result.
 * Since 1.1. */
typedef struct aead_record {
    const uint8_t *nonce;
    size_t nonce_len;
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *in;
    size_t in_len;
    uint8_t *out;
    size_t out_cap;
    int64_t result; /* written by the call: what aead_seal_open would have returned for this record */
} aead_record;

/*
 * Seals or opens count independent records on one context in one call: for each record, in order,
 * exactly what aead_seal_open(ctx, op, its arguments) would do and return, stored in its result
 * (refusals write nothing, failures zero that record's output; TLS sequence numbers are checked and
 * committed per record, atomically, in array order). Records never affect each other except through
 * the TLS sequence (a refused record consumes nothing). No allocation in the steady state.
 * Buffers of different records may not overlap each other's outputs (not checked across records).
 * Returns the number of records whose result is >= 0, or AEAD_ERR_ARG (nothing done) when ctx is NULL,
 * op is unknown or records is NULL with count > 0.
 * Thread-safety: as aead_seal_open; concurrent batches interleave record by record. Since 1.1.
 */
AEAD_API int64_t aead_seal_open_many(aead_ctx *ctx, int op, aead_record *records,
                                     size_t count) AEAD_NOEXCEPT;

/* One associated-data component: data may be NULL when len is 0. Since 1.3. */
typedef struct aead_buf {
    const uint8_t *data;
    size_t len;
} aead_buf;

/*
 * As aead_seal_open, with the associated data given as aad_count components (aad may be NULL when
 * aad_count is 0). The array is read once, at the start of the call. Since 1.3.
 *   AES-SIV: each component goes to S2V in order, then the nonce if nonce_len > 0 (see AES-SIV under
 *   the algorithms).
 *   Every other algorithm takes one AAD: aad_count 0 is no AAD, aad_count 1 is exactly aead_seal_open
 *   with aad[0]; aad_count > 1 is AEAD_ERR_ARG (nothing done).
 * Every promise of aead_seal_open holds: refusals write nothing and change nothing, a failure zeroes
 * the output, and the written part of out may meet no component, no nonce and no input but through the
 * in-place alias. Returns the output length or a negative AEAD_ERR_* code.
 * Thread-safety: as aead_seal_open.
 */
AEAD_API int64_t aead_seal_open_v(aead_ctx *ctx, int op,
                                  const uint8_t *nonce, size_t nonce_len,
                                  const aead_buf *aad, size_t aad_count,
                                  const uint8_t *in, size_t in_len,
                                  uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/* One record of aead_seal_open_many_v: the arguments of one aead_seal_open_v call and its result.
 * Since 1.3. */
typedef struct aead_record_v {
    const uint8_t *nonce;
    size_t nonce_len;
    const aead_buf *aad;
    size_t aad_count;
    const uint8_t *in;
    size_t in_len;
    uint8_t *out;
    size_t out_cap;
    int64_t result; /* written by the call: what aead_seal_open_v would have returned for this record */
} aead_record_v;

/* As aead_seal_open_many, with aead_seal_open_v records: for each record, in order, exactly what
 * aead_seal_open_v would do, its return value stored in result. Returns the number of records whose
 * result is >= 0, or AEAD_ERR_ARG (nothing done) for a NULL ctx, an unknown op, or NULL records with
 * count > 0. Thread-safety: as aead_seal_open_many. Since 1.3. */
AEAD_API int64_t aead_seal_open_many_v(aead_ctx *ctx, int op, aead_record_v *records,
                                       size_t count) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Nonce policies
 * ========================================================================================= */

/* Nonce policies, enforced on seal only (open never checks order; see docs/tls-nonces.md; since 1.4 the
 * DTLS policies, and QUIC when asked for, keep a replay window on open: docs/dtls.md). A policy accepts
 * only some algorithms; any other pairing is AEAD_ERR_ARG when the context is created:
 *   AEAD_POLICY_NONE          every algorithm
 *   AEAD_POLICY_TLS12, _TLS13 AES-128/192/256-GCM, ChaCha20-Poly1305, AES-128/192/256-CCM
 *   AEAD_POLICY_RANDOM_NONCE  AES-128/192/256-GCM, XChaCha20-Poly1305, (since 1.7) the AEGIS family
 *   AEAD_POLICY_QUIC          AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305
 *   AEAD_POLICY_DTLS12        AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305, AES-128-CCM, AES-256-CCM
 *   AEAD_POLICY_DTLS13        AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305, AES-128-CCM
 *   AEAD_POLICY_COUNTER,      AES-128/192/256-GCM, ChaCha20-Poly1305
 *     _XOR_COUNTER
 *   AEAD_POLICY_SSH           AES-128-GCM, AES-256-GCM
 * The sequenced policies are TLS12, TLS13, QUIC, DTLS12, DTLS13, COUNTER, XOR_COUNTER and SSH.
 */
enum {
    AEAD_POLICY_NONE = 0,         /* since 1.0 */
    AEAD_POLICY_TLS12 = 1,        /* since 1.0 */
    AEAD_POLICY_TLS13 = 2,        /* since 1.0 */
    AEAD_POLICY_RANDOM_NONCE = 3, /* since 1.1 */
    AEAD_POLICY_QUIC = 4,         /* since 1.2 */
    AEAD_POLICY_DTLS12 = 5,       /* since 1.4 */
    AEAD_POLICY_DTLS13 = 6,       /* since 1.4 */
    AEAD_POLICY_COUNTER = 7,      /* since 1.5 */
    AEAD_POLICY_XOR_COUNTER = 8,  /* since 1.5 */
    AEAD_POLICY_SSH = 9           /* since 1.5 */
};

/*
 * AEAD_POLICY_NONE (since 1.0): any nonce the algorithm accepts; the caller guarantees uniqueness.
 *
 * AEAD_POLICY_TLS12 (since 1.0):
 *   AES-GCM (RFC 5288): nonce = 4-byte fixed prefix || 8-byte big-endian counter; the prefix is learned
 *   on the first seal and may never change; the counter must be strictly greater than the last accepted
 *   one and never 2^64-1; AAD exactly 13 bytes.
 *   ChaCha20-Poly1305 (RFC 7905): as AEAD_POLICY_TLS13 below but with 13-byte AAD.
 *   (AES-CCM, since 1.2: as AES-GCM, RFC 6655.)
 * AEAD_POLICY_TLS13 (since 1.0): nonce = static IV XOR (0^4 || 64-bit sequence) (RFC 8446 section 5.3).
 *   The first seal is sequence 0 and so reveals the IV: its first 4 bytes become the prefix and its last
 *   8 the mask. Later seals: same prefix, and (last 8 bytes XOR mask), read big-endian, strictly greater
 *   than the last accepted sequence and never 2^64-1. AAD exactly 5 bytes.
 *   Since 1.4, AEAD_POLICY_TLS13 contexts of AES-GCM enforce RFC 8446 section 5.5's limit too: after
 *   2^24.5 seals (AEAD_TLS13_AES_GCM_RECORD_LIMIT) further seals are refused with AEAD_ERR_KEY_LIMIT
 *   (aead_ctx_usage counts them).
 * Both TLS policies take only 12-byte nonces and 16-byte tags. aead_ctx_new_ex can give them the IV up
 * front, so that nothing is learned (since 1.1).
 *
 * AEAD_POLICY_RANDOM_NONCE (since 1.1; AES-GCM, and since 1.2 XChaCha20-Poly1305, which draws 24-byte
 * nonces and has no seal limit, and since 1.7 the AEGIS family, which draws its whole 16- or 32-byte nonce
 * with a budget of 2^48 seals or none: see the algorithms; ChaCha20-Poly1305 is AEAD_ERR_ARG). With AES-GCM: seal
 * takes no nonce (nonce_len 0) and draws 12 bytes from the DRBG of the context's library context (under a
 * FIPS configuration: the FIPS provider's), writing nonce(12) || ciphertext || tag, i.e. in_len + 28
 * bytes; open takes nonce_len 0 and reads that layout (an input shorter than 28 bytes is AEAD_ERR_AUTH).
 * Byte-compatible with Go's cipher.NewGCMWithRandomNonce. At most 2^32 seals per context (SP 800-38D
 * section 8.3, random 96-bit IVs under one key): the next is refused with AEAD_ERR_NONCE_LIMIT. Tag 16
 * only. "In place" here means the ciphertext lands where the plaintext was: seal with in == out + 12, open
 * with out == in + 12; any other overlap is AEAD_ERR_OVERLAP.
 *
 * AEAD_POLICY_QUIC (since 1.2; AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305; created with aead_ctx_new_ex
 * and the 12-byte packet-protection IV, "quic iv", or since 1.4 with aead_ctx_new_dtls for a replay
 * window; tag 16). docs/quic.md has the rules, the limits and what a QUIC stack still owns.
 *   Seal: nonce = IV XOR (0^4 || BE64(pn)): the first 4 bytes of nonce XOR IV must be zero (else
 *   AEAD_ERR_NONCE_PREFIX); the packet number pn (last 8 bytes XOR the IV's) must be below 2^62 (else
 *   AEAD_ERR_NONCE_EXHAUSTED) and greater than every pn sealed before on the context (else
 *   AEAD_ERR_NONCE_ORDER; gaps allowed), checked and committed in one atomic step as for TLS. Any AAD
 *   length (the header). Open checks no order.
 *   RFC 9001 section 6.6 limits, per context (one key): after the confidentiality limit of seals
 *   (AES-GCM 2^23; ChaCha20-Poly1305 none below 2^62) further seals are refused, and after the integrity
 *   limit of failed opens (AES-GCM 2^52, ChaCha20-Poly1305 2^36) further opens are refused, both with
 *   AEAD_ERR_KEY_LIMIT; aead_ctx_usage tells how close a context is, so a stack can update keys first.
 *   aead_quic_protect / aead_quic_unprotect ("Record layers") do a whole packet in one call.
 *
 * AEAD_POLICY_DTLS12 and AEAD_POLICY_DTLS13 (since 1.4): DTLS 1.2 / 1.3 record protection with a replay
 * window on the receiving side, checked and updated inside the library; docs/dtls.md has the rules and
 * what a DTLS stack still owns.
 * AEAD_POLICY_DTLS12 (RFC 6347; AES-128/256-GCM, AES-128/256-CCM with tag 16 or 8 (CCM_8, RFC 6655 /
 *   RFC 7251), ChaCha20-Poly1305), created with aead_ctx_new_dtls only:
 *     - AES-GCM / AES-CCM: iv is the 4-byte salt; nonce = salt || epoch(2) || seq(6) (RFC 5288, RFC 6347
 *       section 4.1.2.1: the 8-byte explicit nonce is the record's epoch || sequence number);
 *     - ChaCha20-Poly1305: iv is the 12-byte IV; nonce = iv XOR (0^4 || epoch(2) || seq(6)) (RFC 7905).
 *   AAD exactly 13 bytes (seq_num(8) || type || version || length; RFC 9146 connection IDs are not
 *   taken), and its first 8 bytes must equal the nonce's epoch || seq (else AEAD_ERR_AAD_MISMATCH), on
 *   seal and on open.
 * AEAD_POLICY_DTLS13 (RFC 9147; AES-128/256-GCM, AES-128-CCM, ChaCha20-Poly1305; tag 16), created with
 *   aead_ctx_new_dtls only: iv is the 12-byte IV; nonce = iv XOR (0^4 || BE64(seq)), seq the record's
 *   64-bit sequence number within its epoch (RFC 9147 section 4: unlike DTLS 1.2 the epoch is not part
 *   of the nonce; each epoch has its own keys, so its own context). Any AAD length (the unified header).
 *   aead_dtls13_protect / aead_dtls13_unprotect ("Record layers") do a whole record in one call.
 * Both: the nonce's fixed part (the salt; the IV's first 4 bytes) must be the context's (else
 *   AEAD_ERR_NONCE_PREFIX), and for DTLS 1.2 its epoch the context's (else AEAD_ERR_NONCE_PREFIX).
 *   Seal: seq below 2^48 (else AEAD_ERR_NONCE_EXHAUSTED) and greater than every seq sealed before on the
 *   context (else AEAD_ERR_NONCE_ORDER; gaps allowed), checked and committed in one atomic step as for
 *   TLS; refused in a forked child (AEAD_ERR_FORKED) as TLS is. DTLS 1.3 limits per key (RFC 9147
 *   section 4.5.3), enforced with AEAD_ERR_KEY_LIMIT as QUIC's: AES-GCM 2^24.5 seals and 2^36 failed
 *   opens, ChaCha20-Poly1305 2^36 failed opens, AES-CCM 2^23.5 of each.
 *   Open: the record number (seq) comes from the nonce. Before decrypting, a seq left of the replay window
 *   or already accepted is refused with AEAD_ERR_REPLAY (cheap: no lock, nothing written). After the tag
 *   verifies the seq is committed to the window in one atomic step; if another call committed it first
 *   (two concurrent opens of one record) this one returns AEAD_ERR_REPLAY with its output zeroed, so
 *   exactly one of them succeeds. A record that fails to authenticate leaves the window exactly as it was.
 *   The window is RFC 4303 section 3.4.3's (RFC 6347 section 4.1.2.6), kept as RFC 6479's bitmap.
 *   aead_seal_open_many and _v open their records through it one by one, in array order (a batch
 *   holding one record twice opens it once). A forked child inherits a copy of the window.
 *
 * Counter nonces for any protocol (since 1.5; docs/fips.md: FIPS 140-3 IG C.H scenario 3, and 1.d for
 * SSH). Each takes 12-byte nonces and 16-byte tags; aead_ctx_new learns the fixed part (and the counter's
 * origin or mask) from the first seal, aead_ctx_new_ex takes them as a 12-byte iv up front. Seal checks
 * and commits the counter in one atomic step, as for TLS (thread-safe, refused in a forked child with
 * AEAD_ERR_FORKED); a refused seal writes nothing. Open checks nothing. Byte-compatible with, and
 * accepting exactly the nonces of, Go's FIPS module's NewGCMWithCounterNonce, NewGCMWithXORCounterNonce
 * and NewGCMForSSH (which, unlike these, are not safe for concurrent use).
 * AEAD_POLICY_COUNTER: nonce = fixed(4) || BE64(c), c = start + n mod 2^64. fixed and start are the first
 *   seal's (or iv's: fixed || BE64(start)). fixed never changes (else AEAD_ERR_NONCE_PREFIX); n = c - start
 *   mod 2^64 must be greater than every n sealed before (else AEAD_ERR_NONCE_ORDER; gaps allowed) and
 *   below 2^64-1 (else AEAD_ERR_NONCE_EXHAUSTED): the counter may wrap past 2^64-1 but never come back to
 *   its start. Any AAD.
 * AEAD_POLICY_XOR_COUNTER: nonce = fixed(4) || BE64(mask XOR n), n from 0; fixed and mask are the first
 *   seal's (it is n = 0) or iv's (fixed || mask). The rules for fixed and n are AEAD_POLICY_COUNTER's (as
 *   AEAD_POLICY_TLS13's, with any AAD).
 * AEAD_POLICY_SSH (RFC 5647 section 7.1, AES-GCM in SSH): the IV is fixed(4) || invocation counter(8), the
 *   counter incremented mod 2^64 per packet: the rules of AEAD_POLICY_COUNTER, with iv the key exchange's
 *   initial IV. AAD exactly 4 bytes (the packet length; else AEAD_ERR_AAD_SIZE). Seals are counted
 *   (aead_ctx_usage); aead_usage.rekey_after is 2^32, RFC 4344 section 3.1's rekey point: a context that
 *   has made that many seals should be replaced by a key exchange (nothing is refused there).
 *
 * fork() (since 1.2; docs/security.md, "What a caller can and cannot break"): a process that forks keeps
 * every context working in the parent. In the child:
 *   - AEAD_POLICY_RANDOM_NONCE contexts keep working and draw fresh nonces (nonces drawn ahead of use
 *     before the fork are discarded in the child; the DRBG reseeds after fork);
 *   - seals on a context of a sequenced policy (AEAD_POLICY_TLS12 / _TLS13 / _QUIC, and since 1.4
 *     _DTLS12 / _DTLS13) created before the fork are refused with AEAD_ERR_FORKED, by every call that
 *     seals (aead_seal_open and its batch and vector siblings, aead_quic_protect, aead_dtls13_protect):
 *     parent and child would otherwise both hold the same "next sequence" and could both seal it.
 *     Opens keep working; contexts created in the child are unaffected.
 *     (A TLS connection has one writer: create its context in the process that writes the records.)
 */

/* ========================================================================================= *
 * Record layers: QUIC packets, DTLS 1.3 records
 * ========================================================================================= */

/*
 * Protects one QUIC packet in place, in one call: seal + header protection. Since 1.2.
 *   packet[0 .. header_len) is the header, its packet-number field being the last pn_len bytes, where
 *   pn_len = (packet[0] & 3) + 1 as RFC 9000 encodes it; the library writes the low pn_len bytes of pn
 *   (big-endian) there. packet[header_len .. header_len + payload_len) is the plaintext payload.
 *   The call seals the payload under nonce = IV XOR pn with the whole header as AAD (the ciphertext
 *   replaces the payload, the 16-byte tag follows it), then samples the 16 bytes at
 *   header_len - pn_len + 4 and masks the first byte's low bits (4 for a long header, 0x80 set; 5 for a
 *   short one) and the packet-number bytes.
 *   ctx: an AEAD_POLICY_QUIC context (its seal rules and limits apply to pn); hp: the same suite's key.
 * Returns the packet's length (header_len + payload_len + 16), or a code: AEAD_ERR_ARG (NULL, a ctx of
 *   another policy, header_len < pn_len + 1), AEAD_ERR_BUFFER_TOO_SMALL (packet_cap below the packet's
 *   length), AEAD_ERR_TOO_LONG (pn_len + payload_len < 4: no room for the sample), the nonce errors and
 *   AEAD_ERR_KEY_LIMIT as for a seal. Refusals write nothing; a failure after them zeroes the packet.
 * Thread-safety: as aead_seal_open (concurrent packets on one ctx and hp). */
AEAD_API int64_t aead_quic_protect(aead_ctx *ctx, aead_hp *hp, uint64_t pn, uint8_t *packet,
                                   size_t header_len, size_t payload_len, size_t packet_cap) AEAD_NOEXCEPT;

/*
 * Removes the protection of one received QUIC packet in place, in one call. Since 1.2.
 *   packet[0 .. packet_len) is the whole packet; pn_offset is where its packet-number field starts
 *   (after the connection ID, and for long headers the length field). largest_pn is the largest packet
 *   number received so far in the packet-number space (UINT64_MAX: none yet); the full packet number
 *   is decoded from it (RFC 9000 Appendix A.3) and stored in *pn_out.
 *   The call unmasks the first byte and the packet-number bytes, then opens the payload in place with
 *   the unprotected header as AAD. On success the header is unprotected in packet[0 .. pn_offset +
 *   pn_len), the plaintext follows it, and the return value is its length (packet_len - pn_offset -
 *   pn_len - 16).
 * Codes: AEAD_ERR_ARG (NULL, ctx not AEAD_POLICY_QUIC), AEAD_ERR_AUTH (too short for a sample and tag,
 *   or the tag did not verify: the header is restored as it was, the payload zeroed, the context's
 *   forgery count rises), AEAD_ERR_KEY_LIMIT (the integrity limit was reached: refused, nothing changed),
 *   and, on a context created by aead_ctx_new_dtls with a window (since 1.4), AEAD_ERR_REPLAY (the packet
 *   number was accepted before or is left of the window: the packet is as it arrived, or, if a
 *   concurrent call accepted it first, its payload zeroed), AEAD_ERR_NONCE_EXHAUSTED (the decoded number
 *   is above 2^62 - 1, which no sender may use: drop the packet; nothing written or counted).
 * Thread-safety: as aead_seal_open. */
AEAD_API int64_t aead_quic_unprotect(aead_ctx *ctx, aead_hp *hp, uint64_t largest_pn, uint8_t *packet,
                                     size_t pn_offset, size_t packet_len, uint64_t *pn_out) AEAD_NOEXCEPT;

/*
 * Protects one DTLS 1.3 record in place, in one call (RFC 9147 section 4): seal + record number encryption.
 * Since 1.4.
 *   record[0 .. header_len) is the unified header: its first byte 0 0 1 C S L E E (the caller's choice of
 *   connection ID C, 16-bit sequence number S, length field L; E E must be the context's epoch's low 2
 *   bits, else AEAD_ERR_NONCE_PREFIX), then the connection ID (header_len tells its length), then room
 *   for the 1- or 2-byte sequence number and, with L, the 2-byte length: the library writes those from
 *   seq and the record's size, so the header cannot disagree with the nonce.
 *   record[header_len .. header_len + payload_len) is the DTLSInnerPlaintext (content || type || zeros,
 *   built by the caller). The call seals it under nonce = IV XOR seq with the whole header as AAD (the
 *   16-byte tag follows the ciphertext), then XORs the sequence number bytes with a mask of the first
 *   16 bytes of the encrypted record: AES-ECB (AES suites) or ChaCha20, exactly aead_hp_mask's.
 *   ctx: an AEAD_POLICY_DTLS13 context (its seal rules and limits apply to seq); hp: an aead_hp of the
 *   suite made from the epoch's sn_key (AEAD_AES_128_GCM or AEAD_AES_128_CCM: AES-128; AEAD_AES_256_GCM:
 *   AES-256; AEAD_CHACHA20_POLY1305: ChaCha20).
 * Returns the record's length (header_len + payload_len + 16), or a code: AEAD_ERR_ARG (NULL, another
 *   policy, a first byte that is not a unified header's, a header_len its fields do not fit),
 *   AEAD_ERR_BUFFER_TOO_SMALL, AEAD_ERR_TOO_LONG (with L: the encrypted record over 65535 bytes), the
 *   seal's nonce and limit codes. Refusals write nothing; a failure after them zeroes the record.
 * Thread-safety: as aead_seal_open.
 */
AEAD_API int64_t aead_dtls13_protect(aead_ctx *ctx, aead_hp *hp, uint64_t seq, uint8_t *record,
                                     size_t header_len, size_t payload_len, size_t record_cap) AEAD_NOEXCEPT;

/*
 * Removes the protection of one received DTLS 1.3 record in place, in one call. Since 1.4.
 *   record[0 .. record_len) is exactly one record (with L set, its length field must cover exactly the
 *   rest); cid_len is the length of its connection ID (0 without one). The call unmasks the sequence
 *   number bytes, reconstructs the full sequence number nearest to one more than the largest the replay
 *   window has accepted (RFC 9147 section 4.2.2), stores it in *seq_out (may be NULL), and opens the
 *   payload in place with the unmasked header as AAD, through the replay window.
 *   On success the header is unmasked, the DTLSInnerPlaintext follows it, and the return value is its
 *   length (record_len - header length - 16).
 * Codes: AEAD_ERR_ARG (NULL, ctx not AEAD_POLICY_DTLS13), AEAD_ERR_NONCE_PREFIX (the epoch bits are not
 *   the context's: another epoch's record), AEAD_ERR_AUTH (not a unified header, shorter than a sample
 *   and tag, a length field that disagrees, or the tag did not verify: the header is restored, the
 *   payload zeroed, the forgery count rises), AEAD_ERR_REPLAY (the window refused the number: the record
 *   is as it arrived, or, when a concurrent call accepted it first, its payload zeroed), AEAD_ERR_KEY_LIMIT,
 *   AEAD_ERR_NONCE_EXHAUSTED (the reconstructed number is above 2^48 - 1: the record is as it arrived).
 * Thread-safety: as aead_seal_open.
 */
AEAD_API int64_t aead_dtls13_unprotect(aead_ctx *ctx, aead_hp *hp, uint8_t *record, size_t record_len,
                                       size_t cid_len, uint64_t *seq_out) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Header protection (the aead_hp type is declared with aead_ctx, above)
 * ========================================================================================= */

/* Creates a header-protection key for the suite of an AEAD algorithm: AEAD_AES_128_GCM (16-byte key)
 * or AEAD_AES_256_GCM (32): AES-ECB; AEAD_CHACHA20_POLY1305 (32): ChaCha20; since 1.4 also
 * AEAD_AES_128_CCM (16) and AEAD_AES_256_CCM (32): AES-ECB (DTLS 1.3 record-number keys). properties: as for
 * aead_ctx_new_ex ("fips=yes": the AES suites only; ChaCha20 is AEAD_ERR_UNSUPPORTED there).
 * Returns 0, AEAD_ERR_ARG, _KEY_SIZE, _UNSUPPORTED, _NOMEM or _CRYPTO (*hp_out NULL on failure).
 * Since 1.2. */
AEAD_API int aead_hp_new(aead_hp **hp_out, int alg, const uint8_t *key, size_t key_len,
                         const char *properties) AEAD_NOEXCEPT;

/* The 5-byte mask for a 16-byte ciphertext sample (RFC 9001 section 5.4): AES suites: the first 5 bytes
 * of AES-ECB(key, sample); ChaCha20: ChaCha20(key, counter = LE32(sample[0..4]), nonce = sample[4..16])
 * applied to 5 zero bytes. sample_len must be 16 and mask_cap at least 5 (else AEAD_ERR_ARG, or
 * AEAD_ERR_BUFFER_TOO_SMALL; nothing written). Returns 5, or a code (mask zeroed after a libcrypto failure).
 * Since 1.2. */
AEAD_API int64_t aead_hp_mask(aead_hp *hp, const uint8_t *sample, size_t sample_len, uint8_t *mask,
                              size_t mask_cap) AEAD_NOEXCEPT;

/* Frees a header-protection key and cleanses it. NULL is a no-op. As aead_ctx_free for thread-safety.
 * Since 1.2. */
AEAD_API void aead_hp_free(aead_hp *hp) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * HPKE: hybrid public-key encryption (RFC 9180; docs/hpke.md). Since 1.6.
 * ========================================================================================= */

/* An HPKE context (RFC 9180 section 5): a sender's or a recipient's, after the key schedule. Its AEAD is
 * an ordinary keyed aead_ctx (the same keyed, thread-safe state as aead_seal_open) whose sequence number
 * the library keeps: seals check and commit it in one atomic step. Thread-safety: as aead_ctx (any number
 * of threads may seal, open and export concurrently on one context). Since 1.6. */
typedef struct aead_hpke aead_hpke;

/* Modes, KEMs, KDFs and AEADs: RFC 9180's identifiers (section 7), and draft-ietf-hpke-pq's post-quantum
 * KEMs and one-stage KDFs (as Go 1.26's crypto/hpke has them; docs/hpke.md). Since 1.6. */
enum {
    AEAD_HPKE_MODE_BASE = 0,
    AEAD_HPKE_MODE_PSK = 1,
    AEAD_HPKE_MODE_AUTH = 2,
    AEAD_HPKE_MODE_AUTH_PSK = 3
};
enum {
    AEAD_HPKE_KEM_P256_SHA256 = 0x0010,   /* DHKEM(P-256, HKDF-SHA256): enc and public key 65, private 32 */
    AEAD_HPKE_KEM_P384_SHA384 = 0x0011,   /* DHKEM(P-384, HKDF-SHA384): 97, 48 */
    AEAD_HPKE_KEM_P521_SHA512 = 0x0012,   /* DHKEM(P-521, HKDF-SHA512): 133, 66 */
    AEAD_HPKE_KEM_X25519_SHA256 = 0x0020, /* DHKEM(X25519, HKDF-SHA256): 32, 32 */
    AEAD_HPKE_KEM_X448_SHA512 = 0x0021,   /* DHKEM(X448, HKDF-SHA512): 56, 56 */
    /* ML-KEM (FIPS 203) and the hybrids: enc, public key, private key (a seed). They need a provider with
     * ML-KEM for the properties (OpenSSL 3.5 and later have one), found at run time: without one every
     * call with them is AEAD_ERR_UNSUPPORTED. Base and psk modes only (the auth modes are AEAD_ERR_ARG). */
    AEAD_HPKE_KEM_MLKEM512 = 0x0040,      /* ML-KEM-512: 768, 800, 64 */
    AEAD_HPKE_KEM_MLKEM768 = 0x0041,      /* ML-KEM-768: 1088, 1184, 64 */
    AEAD_HPKE_KEM_MLKEM1024 = 0x0042,     /* ML-KEM-1024: 1568, 1568, 64 */
    AEAD_HPKE_KEM_MLKEM768_P256 = 0x0050, /* MLKEM768-P256: 1153, 1249, 32 */
    AEAD_HPKE_KEM_MLKEM1024_P384 = 0x0051, /* MLKEM1024-P384: 1665, 1665, 32 */
    AEAD_HPKE_KEM_MLKEM768_X25519 = 0x647A /* MLKEM768-X25519 (X-Wing): 1120, 1216, 32 */
};
enum {
    AEAD_HPKE_KDF_HKDF_SHA256 = 1,
    AEAD_HPKE_KDF_HKDF_SHA384 = 2,
    AEAD_HPKE_KDF_HKDF_SHA512 = 3,
    /* The one-stage KDFs (LabeledDerive; info, psk and psk_id at most 65535 bytes each, else
     * AEAD_ERR_TOO_LONG). TurboSHAKE is in no OpenSSL release: its suites are AEAD_ERR_UNSUPPORTED. */
    AEAD_HPKE_KDF_SHAKE128 = 0x0010,
    AEAD_HPKE_KDF_SHAKE256 = 0x0011,
    AEAD_HPKE_KDF_TURBOSHAKE128 = 0x0012,
    AEAD_HPKE_KDF_TURBOSHAKE256 = 0x0013
};
enum {
    AEAD_HPKE_AEAD_AES_128_GCM = 1,
    AEAD_HPKE_AEAD_AES_256_GCM = 2,
    AEAD_HPKE_AEAD_CHACHA20_POLY1305 = 3,
    AEAD_HPKE_AEAD_EXPORT_ONLY = 0xFFFF   /* no seal or open: aead_hpke_export only */
};

/* Sizes, in bytes (since 1.6): the largest enc and public key of the DHKEMs (P-521's 133) and of every
 * KEM, the post-quantum ones included (MLKEM1024-P384's 1665), the largest private key (P-521's 66),
 * the tag every HPKE AEAD appends, and the longest exporter_context aead_hpke_export takes. */
#define AEAD_HPKE_MAX_ENC 133u
#define AEAD_HPKE_MAX_PQ_ENC 1665u
#define AEAD_HPKE_MAX_PRIVATE_KEY 66u
#define AEAD_HPKE_TAG 16u
#define AEAD_HPKE_MAX_EXPORT_CONTEXT 960u
/* The last sequence number a context seals or opens: 2^64 - 2 (see aead_hpke_seal). */
#define AEAD_HPKE_MAX_SEQUENCE (UINT64_MAX - 1)

/* The suite, mode and inputs of a key schedule (RFC 9180 section 5.1). Set size to
 * sizeof(aead_hpke_params): fields may be appended in later versions (a smaller size from an older
 * caller means the later fields are 0). Since 1.6. */
typedef struct aead_hpke_params {
    size_t size;               /* sizeof(aead_hpke_params) */
    int mode;                  /* AEAD_HPKE_MODE_* */
    int kem, kdf, aead;        /* AEAD_HPKE_KEM_*, _KDF_*, _AEAD_* */
    const uint8_t *info;       /* the application's info (any length) */
    size_t info_len;
    const uint8_t *psk;        /* the PSK modes: both psk and psk_id non-empty; the others: both empty */
    size_t psk_len;
    const uint8_t *psk_id;
    size_t psk_id_len;
    const char *properties;    /* OpenSSL property query for every fetch, as aead_ctx_new_ex; NULL: defaults */
    uint32_t window;           /* recipient: the replay window of aead_hpke_open_at, in messages: 0 means
                                  AEAD_DTLS_DEFAULT_WINDOW (64), else a multiple of 64 up to 4096 */
    const uint8_t *ikm_e;      /* sender, known-answer tests only: the ephemeral key pair is
                                  DeriveKeyPair(ikm_e) instead of a fresh random one. NULL: random. An
                                  ephemeral key used twice breaks HPKE's security: never in production.
                                  ML-KEM: the 32 bytes of encapsulation randomness (FIPS 203's m); a
                                  hybrid: those 32 bytes, then candidates for the curve's ephemeral private
                                  key (32 bytes each for X25519 and P-256, 48 for P-384; the first that is
                                  a valid scalar is used), as draft-ietf-hpke-pq's vectors give them;
                                  another length is AEAD_ERR_ARG. */
    size_t ikm_e_len;
} aead_hpke_params;

/*
 * Sets up a sender (RFC 9180 section 5.1: SetupBaseS, SetupPSKS, SetupAuthS, SetupAuthPSKS). Since 1.6.
 *   pk_r: the recipient's public key, serialised (SerializePublicKey: SEC1 uncompressed for the NIST
 *         curves, RFC 7748 for X25519 / X448, FIPS 203's encapsulation key for ML-KEM, that key followed
 *         by the curve's for a hybrid); sk_s: the sender's private key for the auth modes (else NULL, 0).
 *   enc: receives the encapsulated key, aead_hpke_enc_size(kem) bytes (enc_cap at least that; else
 *        AEAD_ERR_BUFFER_TOO_SMALL).
 * Returns 0 and stores the context in *ctx_out, or a code and stores NULL (enc zeroed on failure):
 *   AEAD_ERR_ARG (NULL, unknown mode / KEM / KDF / AEAD, psk and psk_id not as the mode requires, an
 *   auth mode with ML-KEM or a hybrid, a key that is not one of the KEM's: a point off the curve or not
 *   uncompressed, a private scalar 0 or not below the order, an all-zero X25519 / X448 shared secret, an
 *   ML-KEM encapsulation key failing FIPS 203's modulus check; a bad params->size, window or ikm_e),
 *   AEAD_ERR_KEY_SIZE (a key or enc of the wrong length), AEAD_ERR_TOO_LONG (a one-stage KDF's input
 *   over 65535 bytes), AEAD_ERR_UNSUPPORTED (the KEM, KDF or AEAD is not available for the properties:
 *   ML-KEM and the hybrids where no provider has ML-KEM, the TurboSHAKE KDFs always; under a FIPS
 *   provider also X25519, X448 and MLKEM768-X25519), _NOMEM, _CRYPTO.
 * Thread-safety: safe to call concurrently.
 */
AEAD_API int aead_hpke_setup_sender(aead_hpke **ctx_out, const aead_hpke_params *params,
                                    const uint8_t *pk_r, size_t pk_r_len,
                                    const uint8_t *sk_s, size_t sk_s_len,
                                    uint8_t *enc, size_t enc_cap) AEAD_NOEXCEPT;

/*
 * Sets up a recipient (SetupBaseR, SetupPSKR, SetupAuthR, SetupAuthPSKR). Since 1.6.
 *   enc: the sender's encapsulated key; sk_r: the recipient's private key (DeserializePrivateKey: the
 *   NIST curves' scalar, big-endian, of the scalar size; X25519 / X448 raw; ML-KEM's 64-byte seed d || z;
 *   a hybrid's 32-byte seed); pk_s: the sender's public key for the auth modes (else NULL, 0). An ML-KEM
 *   ciphertext of the right length that was not made for the key is not refused (FIPS 203's implicit
 *   rejection): the key schedule differs and the first open fails with AEAD_ERR_AUTH.
 * Returns as aead_hpke_setup_sender. Thread-safety: safe to call concurrently.
 */
AEAD_API int aead_hpke_setup_recipient(aead_hpke **ctx_out, const aead_hpke_params *params,
                                       const uint8_t *enc, size_t enc_len,
                                       const uint8_t *sk_r, size_t sk_r_len,
                                       const uint8_t *pk_s, size_t pk_s_len) AEAD_NOEXCEPT;

/* Frees a context and cleanses its secrets (the AEAD key, base nonce and exporter secret). NULL is a
 * no-op. Thread-safety: as aead_ctx_free. Since 1.6. */
AEAD_API void aead_hpke_free(aead_hpke *ctx) AEAD_NOEXCEPT;

/*
 * Seals one message on a sender context (ContextS.Seal): nonce = base_nonce XOR I2OSP(seq, 12) with the
 * context's next sequence number seq, which the library checks and commits in one atomic step. Since 1.6.
 *   Writes pt_len + 16 bytes (ciphertext || tag) to out; out == pt (exact in-place) is allowed; any other
 *   overlap is AEAD_ERR_OVERLAP. seq_out (may be NULL) receives the sequence number used.
 * The limit: seq runs from 0 to AEAD_HPKE_MAX_SEQUENCE (2^64 - 2); the seal after that is refused with
 *   AEAD_ERR_NONCE_EXHAUSTED, and so is every later one. RFC 9180 lets a context go to 2^96 - 1 (Nn = 12);
 *   libaead's counter is the 64 bits its other sequenced policies use: 2^64 - 1 messages take centuries
 *   at a billion seals a second, and no nonce repeats or wraps on the way.
 * Returns pt_len + 16, or a code: AEAD_ERR_ARG (NULL, a recipient's context, an export-only suite),
 *   AEAD_ERR_BUFFER_TOO_SMALL, AEAD_ERR_OVERLAP, AEAD_ERR_TOO_LONG, AEAD_ERR_NONCE_EXHAUSTED,
 *   AEAD_ERR_FORKED (a context set up before fork(), sealed in the child: refused, as for the TLS
 *   policies, so parent and child never seal the same sequence number), _NOMEM, _CRYPTO. Refusals write
 *   nothing and consume no sequence number; a failure after them zeroes out and consumes it.
 * Thread-safety: any number of threads may seal concurrently; each seal gets its own sequence number.
 *   No allocation in the steady state.
 */
AEAD_API int64_t aead_hpke_seal(aead_hpke *ctx, const uint8_t *aad, size_t aad_len,
                                const uint8_t *pt, size_t pt_len, uint8_t *out, size_t out_cap,
                                uint64_t *seq_out) AEAD_NOEXCEPT;

/*
 * Opens the next message in order on a recipient context (ContextR.Open): the sequence number is one
 * past the largest this context has opened (0 at first). Since 1.6.
 *   A message sealed under another sequence number (reordered, replayed, dropped before it) fails
 *   authentication: AEAD_ERR_AUTH, as RFC 9180's in-order context does. Opens are in order per context:
 *   concurrent in-order opens race for the same number (one of them fails); use aead_hpke_open_at then.
 * Returns ct_len - 16, or a code: AEAD_ERR_ARG (NULL, a sender's context, an export-only suite),
 *   AEAD_ERR_AUTH (also ct_len < 16), AEAD_ERR_BUFFER_TOO_SMALL, AEAD_ERR_OVERLAP, AEAD_ERR_TOO_LONG,
 *   AEAD_ERR_NONCE_EXHAUSTED (past AEAD_HPKE_MAX_SEQUENCE), _NOMEM, _CRYPTO. A failed open zeroes out.
 * Thread-safety: as aead_hpke_seal.
 */
AEAD_API int64_t aead_hpke_open(aead_hpke *ctx, const uint8_t *aad, size_t aad_len,
                                const uint8_t *ct, size_t ct_len, uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/*
 * Opens the message of sequence number seq, for protocols that carry it, through the context's replay
 * window (params->window; RFC 4303's window as the DTLS policies keep it). Since 1.6.
 *   A seq already opened, or left of the window, is refused with AEAD_ERR_REPLAY before decrypting
 *   (nothing written); seq is committed to the window only after the tag verifies, in one atomic step (of
 *   two concurrent opens of one message exactly one succeeds, the other gets AEAD_ERR_REPLAY and a
 *   zeroed out). A failed authentication leaves the window as it was.
 * Returns as aead_hpke_open, plus AEAD_ERR_REPLAY. Thread-safety: as aead_hpke_seal.
 */
AEAD_API int64_t aead_hpke_open_at(aead_hpke *ctx, uint64_t seq, const uint8_t *aad, size_t aad_len,
                                   const uint8_t *ct, size_t ct_len, uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/*
 * The secret export interface (Context.Export, RFC 9180 section 5.3): out_len bytes of
 * LabeledExpand(exporter_secret, "sec", exporter_context, out_len), on either side, every suite (the
 * export-only one too). Since 1.6.
 *   exporter_context at most AEAD_HPKE_MAX_EXPORT_CONTEXT bytes (else AEAD_ERR_TOO_LONG); out_len at
 *   most 255 times the KDF's hash size, 65535 for the one-stage KDFs (Export_OneStage: LabeledDerive of
 *   the exporter secret) (else AEAD_ERR_TOO_LONG); out_len 0 writes nothing.
 * Returns 0 or a code (AEAD_ERR_ARG, _TOO_LONG, _NOMEM, _CRYPTO; out zeroed on failure).
 * Thread-safety: any thread, concurrently with any call on ctx but aead_hpke_free.
 */
AEAD_API int aead_hpke_export(const aead_hpke *ctx, const uint8_t *exporter_context, size_t exporter_context_len,
                              uint8_t *out, size_t out_len) AEAD_NOEXCEPT;

/*
 * Single-shot (RFC 9180 section 6): setup and one seal, or setup and one open, in one call. Since 1.6.
 *   aead_hpke_seal_single: as aead_hpke_setup_sender then aead_hpke_seal at sequence 0; writes enc and
 *   returns the ciphertext's length. aead_hpke_open_single: as aead_hpke_setup_recipient then
 *   aead_hpke_open; returns the plaintext's length. The codes of the two calls; no context remains.
 * Thread-safety: safe to call concurrently.
 */
AEAD_API int64_t aead_hpke_seal_single(const aead_hpke_params *params, const uint8_t *pk_r, size_t pk_r_len,
                                       const uint8_t *sk_s, size_t sk_s_len, uint8_t *enc, size_t enc_cap,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len,
                                       uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;
AEAD_API int64_t aead_hpke_open_single(const aead_hpke_params *params, const uint8_t *enc, size_t enc_len,
                                       const uint8_t *sk_r, size_t sk_r_len, const uint8_t *pk_s, size_t pk_s_len,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len,
                                       uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/*
 * Keys (RFC 9180 section 7.1), serialised as the setup calls take them. Since 1.6.
 *   aead_hpke_derive_keypair: DeriveKeyPair(ikm) (section 7.1.3; ikm at least as long as the private
 *     key is RFC 9180's advice, any length is taken);
 *   aead_hpke_generate_keypair: a fresh key pair from the DRBG;
 *   aead_hpke_public_key: the public key of a private key.
 *   sk receives aead_hpke_private_key_size(kem) bytes, pk aead_hpke_public_key_size(kem) bytes (sk_cap,
 *   pk_cap at least that: else AEAD_ERR_BUFFER_TOO_SMALL); properties as in aead_hpke_params. ML-KEM and
 *   the hybrids derive with SHAKE256's LabeledDerive (draft-ietf-hpke-pq) and expand a hybrid's seed with
 *   SHAKE256; every seed of the right length is a valid private key.
 * Returns 0 or a code (AEAD_ERR_ARG: unknown KEM, NULL, an invalid private key; AEAD_ERR_KEY_SIZE,
 *   _UNSUPPORTED, _NOMEM, _CRYPTO); outputs zeroed on failure. Thread-safety: safe to call concurrently.
 */
AEAD_API int aead_hpke_derive_keypair(int kem, const uint8_t *ikm, size_t ikm_len, uint8_t *sk, size_t sk_cap,
                                      uint8_t *pk, size_t pk_cap, const char *properties) AEAD_NOEXCEPT;
AEAD_API int aead_hpke_generate_keypair(int kem, uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap,
                                        const char *properties) AEAD_NOEXCEPT;
AEAD_API int aead_hpke_public_key(int kem, const uint8_t *sk, size_t sk_len, uint8_t *pk, size_t pk_cap,
                                  const char *properties) AEAD_NOEXCEPT;

/* The KEM's enc size (Nenc), public key size (Npk; Nenc for the DHKEMs, mostly not for the PQ KEMs)
 * and private key size (Nsk); 0 for an unknown KEM. Thread-safe. Since 1.6. */
AEAD_API size_t aead_hpke_enc_size(int kem) AEAD_NOEXCEPT;
AEAD_API size_t aead_hpke_public_key_size(int kem) AEAD_NOEXCEPT;
AEAD_API size_t aead_hpke_private_key_size(int kem) AEAD_NOEXCEPT;

/* The AEAD context inside an HPKE context, for aead_ctx_usage_ex (seals made, failed opens, the replay
 * window), aead_ctx_indicator and aead_ctx_provider; NULL for NULL or an export-only suite. Valid until
 * aead_hpke_free. Sealing or opening on it directly is not HPKE's interface. Thread-safety: as
 * aead_ctx_indicator. Since 1.6. */
AEAD_API const aead_ctx *aead_hpke_aead_ctx(const aead_hpke *ctx) AEAD_NOEXCEPT;

/* The FIPS indicator of an HPKE context (AEAD_IND_* bits; 0 for NULL): AEAD_IND_FIPS_PROVIDER when its
 * KDF (HKDF, or SHAKE), its ML-KEM (if any) and its AEAD (if any) come from a FIPS provider; the seal and
 * open bits as aead_ctx_indicator of its AEAD context (AES-GCM: approved, the nonce being the library's
 * IG C.H scenario 3 counter), given for the NIST-curve DHKEMs and ML-KEM with HKDF only (not for the
 * hybrids, not for the one-stage SHAKE KDFs). docs/hpke.md has the table. Thread-safety: as aead_ctx_indicator.
 * Since 1.6. */
AEAD_API uint32_t aead_hpke_indicator(const aead_hpke *ctx) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Streaming AEAD: a stream cut into segments, each sealed under a nonce built from the segment's
 * number and a last-segment flag that the library keeps (docs/streaming.md). Since 1.7.
 *
 * A writer seals segment 0, 1, 2, ... in order and marks one of them final; a reader opens them in the
 * same order and knows where the stream ends only from the final one. So segments cannot be dropped,
 * reordered or repeated, a stream cut at a segment boundary does not open as a shorter one, and no data
 * may follow the final segment. The formats (each byte-compatible with its peers):
 *   AEAD_STREAM_TINK_AES_GCM_HKDF  Tink's AesGcmHkdfStreaming (the raw-key primitive of Java, Go,
 *       Python and C++ Tink): AES-GCM under HKDF(key, salt, associated data); nonce = 7-byte prefix ||
 *       BE32(segment) || last (1 byte). Header: its length (1 byte), salt (key_size), prefix (7).
 *       Every segment but the last has segment_size bytes of ciphertext, the first segment
 *       header + first_segment_offset bytes less; at most 2^32 segments.
 *   AEAD_STREAM_AGE  age's payload (age-encryption.org/v1, "STREAM"): ChaCha20-Poly1305 under
 *       HKDF-SHA256(file key, salt = 16-byte header nonce, "payload"); nonce = BE88(chunk) || last; 64 KiB
 *       chunks (65,552 bytes of ciphertext). The last chunk is empty only when the whole payload is.
 *       The header here is the payload's 16-byte nonce; age's recipient stanzas and MAC are the
 *       caller's (the file key comes from them). At most 2^63 chunks (age allows 2^88: never reached).
 *   AEAD_STREAM_RFC8188  the "aes128gcm" content coding of RFC 8188 (and Web Push, RFC 8291):
 *       AES-128-GCM under keys HKDF-SHA256(salt, key) derives; nonce = NONCE XOR BE96(record). A record
 *       is data || delimiter (1: more follow, 2: the last) || zero padding; every record but the last
 *       has exactly segment_size ("rs") bytes of ciphertext. Header: salt (16), rs (4), idlen (1),
 *       keyid. At most 2^63 records.
 *
 * Thread-safety: a stream may be used from any thread. Concurrent seals on one writer each take a
 * different segment number (never the same nonce) but the caller then orders their outputs; concurrent
 * opens on one reader race for the next number (the loser gets AEAD_ERR_NONCE_ORDER, its out zeroed).
 * aead_stream_open_segment and the size queries are safe concurrently with anything but aead_stream_free.
 * ========================================================================================= */

typedef struct aead_stream aead_stream;

/* Formats (aead_stream_params.format) and Tink's HKDF hashes (.hkdf_hash). Since 1.7. */
enum {
    AEAD_STREAM_TINK_AES_GCM_HKDF = 1,
    AEAD_STREAM_AGE = 2,
    AEAD_STREAM_RFC8188 = 3
};
enum { AEAD_STREAM_SHA1 = 1, AEAD_STREAM_SHA256 = 2, AEAD_STREAM_SHA512 = 3 };

/* The largest segment (Tink) or record (RFC 8188) size either side takes, in ciphertext bytes: a header
 * that claims more is refused before anything is allocated. The longest header (RFC 8188 with a 255-byte
 * keyid), and age's chunk. Since 1.7. */
#define AEAD_STREAM_MAX_SEGMENT (UINT32_C(1) << 24)
#define AEAD_STREAM_MAX_HEADER 276u
#define AEAD_STREAM_AGE_CHUNK 65536u

/* A stream's parameters. Fields a format does not use must be 0 / NULL (else AEAD_ERR_ARG). size is
 * sizeof(aead_stream_params): fields may be appended in later versions. */
typedef struct aead_stream_params {
    size_t size;                    /* sizeof(aead_stream_params) */
    int format;                     /* AEAD_STREAM_* */
    const uint8_t *key;             /* Tink: the main key (HKDF's input, at least 16 bytes and at least
                                       key_size); age: the 16-byte file key; RFC 8188: the input keying
                                       material (1 to 255 bytes; 16 for Web Push) */
    size_t key_len;
    size_t key_size;                /* Tink: the AES key HKDF derives, 16 or 32 */
    int hkdf_hash;                  /* Tink: AEAD_STREAM_SHA1, _SHA256 or _SHA512 */
    uint32_t segment_size;          /* Tink: ciphertext bytes of a segment (Tink's "ciphertext segment size",
                                       e.g. 4096 or 1 MiB). RFC 8188 writer: rs, 18 to AEAD_STREAM_MAX_SEGMENT
                                       (0: 4096); RFC 8188 reader: the largest rs taken (0:
                                       AEAD_STREAM_MAX_SEGMENT). At most AEAD_STREAM_MAX_SEGMENT. age: 0 */
    uint32_t first_segment_offset;  /* Tink: bytes of the ciphertext before the header (usually 0) */
    const uint8_t *associated_data; /* Tink: the stream's associated data (HKDF's info), at most 1024 bytes */
    size_t associated_data_len;
    const uint8_t *keyid;           /* RFC 8188 writer: the header's keyid, at most 255 bytes */
    size_t keyid_len;
    const char *properties;         /* OpenSSL property query for the cipher and HKDF, as aead_ctx_new_ex's */
} aead_stream_params;

/* Creates a writer: draws the header's random parts (Tink: salt and prefix; age: the payload nonce;
 * RFC 8188: the salt) from the DRBG, derives the key and writes the header to header (*header_len: its
 * length). The caller writes the header, then each aead_stream_seal output, in order.
 * Returns 0, or AEAD_ERR_ARG (a NULL pointer, a field out of range, a field the format does not use),
 * AEAD_ERR_KEY_SIZE, AEAD_ERR_BUFFER_TOO_SMALL (header_cap below the header: *header_len says how much;
 * nothing created), AEAD_ERR_UNSUPPORTED, AEAD_ERR_NOMEM or AEAD_ERR_CRYPTO.
 * Thread-safety: safe to call concurrently. Since 1.7. */
AEAD_API int aead_stream_writer_new(aead_stream **s_out, const aead_stream_params *params, uint8_t *header,
                                    size_t header_cap, size_t *header_len) AEAD_NOEXCEPT;

/* Creates a reader from the start of a stream: in holds in_len bytes of it (more may follow). Returns 0
 * with *header_len set to the header's length (the first segment starts there); or
 * AEAD_ERR_BUFFER_TOO_SMALL when in_len is too short to tell, with *header_len set to the bytes to call
 * again with (Tink: 1 then the header; age: 16; RFC 8188: 21, then 21 + idlen); AEAD_ERR_AUTH for a
 * header that is not one of the format's (Tink: a length byte other than 1 + key_size + 7; RFC 8188: rs
 * below 18); AEAD_ERR_TOO_LONG for an RFC 8188 rs above the bound (segment_size); else as
 * aead_stream_writer_new. Thread-safety: safe to call concurrently. Since 1.7. */
AEAD_API int aead_stream_reader_new(aead_stream **s_out, const aead_stream_params *params, const uint8_t *in,
                                    size_t in_len, size_t *header_len) AEAD_NOEXCEPT;

/* Frees a writer or reader and cleanses its key. NULL is a no-op. Thread-safety: not concurrently with any
 * other call on the same stream. Since 1.7. */
AEAD_API void aead_stream_free(aead_stream *s) AEAD_NOEXCEPT;

/* Seals the writer's next segment: in_len bytes of plaintext; final != 0 makes it the last. Writes the
 * segment's ciphertext to out and returns its length.
 *   - A segment that is not final holds exactly aead_stream_segment_size(s, n) - aead_stream_overhead(s)
 *     bytes (RFC 8188: at most that; the record is padded with zeros to rs); a final one at most that
 *     (age: not empty unless it is segment 0). Else AEAD_ERR_ARG, nothing written, nothing used.
 *   - pad: RFC 8188's final record only: zero bytes after its delimiter (data + 1 + pad + 16 at most rs);
 *     else 0 (AEAD_ERR_ARG).
 *   - After the final segment every seal is AEAD_ERR_STREAM_FINISHED; past the format's last segment
 *     AEAD_ERR_NONCE_EXHAUSTED; in a fork()ed child AEAD_ERR_FORKED; on a reader AEAD_ERR_ARG.
 *   - out may equal in (in place); any other overlap is AEAD_ERR_OVERLAP. out_cap below the segment's
 *     ciphertext is AEAD_ERR_BUFFER_TOO_SMALL. A refused seal takes no segment number.
 * Thread-safety: see the section's head. Since 1.7. */
AEAD_API int64_t aead_stream_seal(aead_stream *s, const uint8_t *in, size_t in_len, size_t pad, int final,
                                  uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/* Opens the reader's next segment: in_len bytes of ciphertext; final != 0 says the input ends after it
 * (the caller has read to the end). Returns the plaintext's length (RFC 8188: without delimiter and
 * padding) written to out, and moves to the next segment.
 *   - A segment sealed final opens only with final != 0, and one not sealed final only with final == 0:
 *     else AEAD_ERR_AUTH. So a stream cut at a segment boundary, reordered, or extended fails here.
 *   - A segment of the wrong length for its place (a non-final one not full; any one over the full
 *     size; an empty age chunk after the first; an RFC 8188 record whose delimiter disagrees) is
 *     AEAD_ERR_AUTH.
 *   - After the final segment every open is AEAD_ERR_STREAM_FINISHED (data after the end).
 *   - On any failure out is zeroed up to the length it would have had, and the reader stays where it was.
 *   - out may equal in; out_cap below in_len - 16 (RFC 8188: the record with its delimiter and padding,
 *     which are stripped after decryption) is AEAD_ERR_BUFFER_TOO_SMALL.
 * Thread-safety: see the section's head. Since 1.7. */
AEAD_API int64_t aead_stream_open(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                                  size_t out_cap) AEAD_NOEXCEPT;

/* Seals several segments in one call (the per-call cost of a binding paid once per batch): in holds the
 * plaintext of whole segments from the writer's position, each the size a non-final aead_stream_seal
 * takes (RFC 8188: full records), and, when final != 0, the rest (at most a segment, possibly none) as
 * the last one. Writes the segments' ciphertexts back to back to out and returns their total length (0
 * for an empty batch that is not final).
 *   - The batch's segment numbers are taken at once, after every check: a refused batch takes none, and
 *     a concurrent seal or batch gets numbers before or after the whole batch.
 *   - in that does not split into whole segments (final == 0), or a last segment the format refuses
 *     (age: an empty one after the first), is AEAD_ERR_ARG. No padding (use aead_stream_seal).
 *   - out must not overlap in at all (AEAD_ERR_OVERLAP); out_cap below the ciphertext is
 *     AEAD_ERR_BUFFER_TOO_SMALL; else as aead_stream_seal. On a failure nothing is left in out.
 * Thread-safety: see the section's head. Since 1.7. */
AEAD_API int64_t aead_stream_seal_many(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                                       size_t out_cap) AEAD_NOEXCEPT;

/* Opens several segments in one call: in holds whole segments of ciphertext from the reader's position
 * (aead_stream_segment_size each) and, when final != 0 (the input ends after it), the rest as the last
 * one. Writes the plaintexts back to back to out, returns their total length and moves the reader past
 * them; each segment is checked as aead_stream_open checks it.
 *   - All or nothing: if any segment fails, out is zeroed, the reader stays where it was and the error
 *     is that segment's (AEAD_ERR_AUTH for a forgery, a cut, a reordering or an extension).
 *   - in that does not split into whole segments (final == 0) is AEAD_ERR_ARG; out must not overlap in
 *     (AEAD_ERR_OVERLAP); out_cap below in_len less 16 per segment is AEAD_ERR_BUFFER_TOO_SMALL.
 * Thread-safety: see the section's head. Since 1.7. */
AEAD_API int64_t aead_stream_open_many(aead_stream *s, const uint8_t *in, size_t in_len, int final, uint8_t *out,
                                       size_t out_cap) AEAD_NOEXCEPT;

/* Random access (as Tink's seekable decryption): opens segment `index` of the reader's stream with the
 * same checks as aead_stream_open, final != 0 when it is the stream's last segment (the caller knows the
 * stream's length). Does not move the reader. Thread-safety: safe concurrently with any call but
 * aead_stream_free. Since 1.7. */
AEAD_API int64_t aead_stream_open_segment(const aead_stream *s, uint64_t index, const uint8_t *in, size_t in_len,
                                          int final, uint8_t *out, size_t out_cap) AEAD_NOEXCEPT;

/* Ciphertext bytes of segment `index` when it is not the last (Tink's first segment is the shorter one;
 * age 65,552; RFC 8188 rs); 0 for NULL. Thread-safety: as aead_stream_open_segment. Since 1.7. */
AEAD_API size_t aead_stream_segment_size(const aead_stream *s, uint64_t index) AEAD_NOEXCEPT;
/* Ciphertext bytes per segment beyond its plaintext: 16 (the tag); RFC 8188 17 (and its delimiter).
 * Thread-safety: as aead_stream_open_segment. Since 1.7. */
AEAD_API size_t aead_stream_overhead(const aead_stream *s) AEAD_NOEXCEPT;
/* The number of the next segment to seal or open (>= 0), or AEAD_ERR_STREAM_FINISHED once the final one
 * is through, or AEAD_ERR_ARG for NULL. Thread-safety: one atomic read, safe concurrently with any call but
 * aead_stream_free (a concurrent seal or open may move it at once). Since 1.7. */
AEAD_API int64_t aead_stream_position(const aead_stream *s) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * The FIPS indicator (docs/fips.md)
 * ========================================================================================= */

/* Bits of aead_ctx_indicator. Since 1.1. */
enum {
    AEAD_IND_FIPS_PROVIDER = 1, /* the cipher comes from a provider that reports itself FIPS
                                   ("fips=yes" fetches it; the provider named "fips") */
    AEAD_IND_SEAL_APPROVED = 2, /* seals are approved: FIPS provider, AES-GCM, 16-byte tag, and a
                                   nonce construction of FIPS 140-3 IG C.H that libaead enforces:
                                   TLS12 / TLS13 (scenario 1.a), RANDOM_NONCE with the DRBG from
                                   a FIPS provider (scenario 2), since 1.2 QUIC (scenario 5),
                                   since 1.5 COUNTER / XOR_COUNTER (scenario 3) and SSH
                                   (scenario 1.d). Never for AES-GCM under AEAD_POLICY_NONE or
                                   the DTLS policies. Since 1.2 also every AES-CCM seal, under
                                   every policy (SP 800-38C sets no IV construction). */
    AEAD_IND_OPEN_APPROVED = 4  /* opens are approved: FIPS provider, AES-GCM (16-byte tag); since
                                   1.2 also AES-CCM */
};

/* The FIPS indicator of a context: a combination of AEAD_IND_* bits (0 for NULL). Fixed for the life of
 * the context: it follows from the provider, the algorithm, the tag length and the policy alone
 * (docs/fips.md's table of constructions, which the FIPS stage checks against it). This records what libaead knows; the validated boundary is the provider's (docs/fips.md).
 * Thread-safety: any thread, concurrently with any call on ctx but aead_ctx_free. Since 1.1. */
AEAD_API uint32_t aead_ctx_indicator(const aead_ctx *ctx) AEAD_NOEXCEPT;

/* Name of the provider the context's cipher was fetched from ("default", "fips", ...); valid while the
 * process runs. "" for NULL. Thread-safety: as aead_ctx_indicator. Since 1.1. */
AEAD_API const char *aead_ctx_provider(const aead_ctx *ctx) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Sizes and limits, in bytes unless said otherwise
 * ========================================================================================= */

/* Algorithm limits (since 1.0). A seal of more plaintext (or an open of more ciphertext, tag excluded)
 * returns AEAD_ERR_TOO_LONG. Inputs above INT_MAX are fed to OpenSSL in chunks. */
#define AEAD_GCM_MAX_PLAINTEXT ((UINT64_C(1) << 36) - 32u) /* SP 800-38D: 2^39-256 bits */
#define AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT ((UINT64_C(1) << 38) - 64u) /* RFC 8439: 2^32-1 blocks */
#define AEAD_MAX_NONCE 128u  /* longest AES-GCM nonce (OpenSSL 3 refuses longer) */
#define AEAD_MAX_TAG 16u

/* The most plaintext (and CCM AAD) the one-update families (AES-CCM, AES-GCM-SIV) take: INT_MAX.
 * Since 1.2. */
#define AEAD_ONE_UPDATE_MAX 2147483647u
#define AEAD_XCHACHA20_POLY1305_NONCE 24u /* since 1.2 */
#define AEAD_SIV_MAX_COMPONENTS 126u      /* since 1.3; see AES-SIV under the algorithms */
#define AEAD_AEGIS_MAX_TAG 32u            /* since 1.7; AEGIS's long tag (AEAD_MAX_TAG stays the others' 16) */

/* Key-usage limits of AEAD_POLICY_QUIC, in seals and failed opens (since 1.2; "Nonce policies"). */
#define AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT (UINT64_C(1) << 23)
#define AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT (UINT64_C(1) << 52)
#define AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT (UINT64_C(1) << 36)
#define AEAD_QUIC_MAX_PACKET_NUMBER ((UINT64_C(1) << 62) - 1)

/* DTLS sequence numbers and replay windows (in records), and the TLS 1.3 / DTLS 1.3 key-usage limits
 * (since 1.4). floor(2^24.5) and floor(2^23.5): RFC 8446 section 5.5 / RFC 9147 section 4.5.3 limits. */
#define AEAD_DTLS_MAX_SEQUENCE ((UINT64_C(1) << 48) - 1)
#define AEAD_DTLS_DEFAULT_WINDOW 64u
#define AEAD_DTLS_MAX_WINDOW 4096u
#define AEAD_TLS13_AES_GCM_RECORD_LIMIT UINT64_C(23726566)
#define AEAD_DTLS13_AES_CCM_LIMIT UINT64_C(11863283)
#define AEAD_DTLS13_INTEGRITY_LIMIT (UINT64_C(1) << 36)

/* Key size, default nonce size (12; XChaCha20-Poly1305 24) and default tag size (16) of an algorithm,
 * in bytes; 0 for an unknown algorithm. Thread-safe. Since 1.0. */
AEAD_API size_t aead_key_size(int alg) AEAD_NOEXCEPT;
AEAD_API size_t aead_nonce_size(int alg) AEAD_NOEXCEPT;
AEAD_API size_t aead_tag_size(int alg) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Errors
 * ========================================================================================= */

/* Error codes: negative and stable. aead_strerror gives a static description of each. */
enum {
    AEAD_ERR_AUTH = -1,              /* since 1.0; open: the tag did not verify (any authentication failure) */
    AEAD_ERR_ARG = -2,               /* since 1.0; NULL ctx/ctx_out, NULL pointer with non-zero length,
                                        unknown alg/policy/op */
    AEAD_ERR_KEY_SIZE = -3,          /* since 1.0; key length not valid for the algorithm */
    AEAD_ERR_NONCE_SIZE = -4,        /* since 1.0; nonce length not valid for the algorithm or policy */
    AEAD_ERR_TAG_SIZE = -5,          /* since 1.0; tag length not valid for the algorithm or policy */
    AEAD_ERR_AAD_SIZE = -6,          /* since 1.0; sequenced seal: AAD not the policy's length (13, 5, SSH 4) */
    AEAD_ERR_TOO_LONG = -7,          /* since 1.0; plaintext or AAD over the algorithm's limit */
    AEAD_ERR_BUFFER_TOO_SMALL = -8,  /* since 1.0; out_cap below the output length; nothing written */
    AEAD_ERR_OVERLAP = -9,           /* since 1.0; out partially overlaps in, or overlaps aad or nonce */
    AEAD_ERR_NONCE_ORDER = -10,      /* since 1.0; sequenced seal: counter not above the last accepted one */
    AEAD_ERR_NONCE_EXHAUSTED = -11,  /* since 1.0; sequenced seal: counter past the policy's last */
    AEAD_ERR_NONCE_PREFIX = -12,     /* since 1.0; sequenced seal: fixed part differs from the context's */
    AEAD_ERR_UNSUPPORTED = -13,      /* since 1.0; the algorithm is not available from the loaded providers */
    AEAD_ERR_NOMEM = -14,            /* since 1.0; an allocation failed */
    AEAD_ERR_CRYPTO = -15,           /* since 1.0; libcrypto reported an unexpected failure */
    AEAD_ERR_NONCE_LIMIT = -16,      /* since 1.1; random-nonce seal: made its 2^32 seals (AEGIS-128L/128X: 2^48) (refused) */
    AEAD_ERR_FORKED = -17,           /* since 1.2; seal on a context of a sequenced policy (TLS, QUIC, DTLS,
                                        counters, SSH) inherited across fork() (refused; open works; "Nonce policies") */
    AEAD_ERR_KEY_LIMIT = -18,        /* since 1.2; QUIC (since 1.4 also DTLS 1.3, TLS 1.3 AES-GCM): the key's
                                        confidentiality (seals) or integrity (failed opens) limit is reached */
    AEAD_ERR_REPLAY = -19,           /* since 1.4; open: record number left of the replay window or already accepted */
    AEAD_ERR_AAD_MISMATCH = -20,     /* since 1.4; DTLS 1.2: the AAD's seq_num (epoch || seq) differs from
                                        the nonce's */
    AEAD_ERR_STREAM_FINISHED = -21   /* since 1.7; stream: the final segment was sealed or opened; nothing
                                        may follow it */
};

/* Static English text for a return code (0 and any unknown code included); never NULL. Thread-safe.
 * Since 1.0. */
AEAD_API const char *aead_strerror(int64_t code) AEAD_NOEXCEPT;

/* ========================================================================================= *
 * Versions
 * ========================================================================================= */

/* Bumped only on an incompatible ABI change; equals the SONAME major (libaead.so.1).
 * Compare with aead_abi_version() to detect header/library skew. Within it every release is additive:
 * a binary built against an older header runs unchanged on a newer library (docs/abi.md). Since 1.0. */
#define AEAD_ABI_VERSION 1

/* MAJOR * 10000 + MINOR * 100 + PATCH of the header; aead_version_number() gives the loaded library's.
 * Since 1.1. A caller that needs release 1.N checks aead_version_number() >= 10000 + 100 * N (or simply
 * links against a function added in 1.N: the loader refuses an older library, which lacks the
 * LIBAEAD_1.N node). */
#define AEAD_VERSION_NUMBER 10700

/* AEAD_ABI_VERSION of the library actually loaded. Thread-safe. Since 1.0. */
AEAD_API uint32_t aead_abi_version(void) AEAD_NOEXCEPT;

/* Static text naming the library version and the libcrypto it runs on, e.g.
 * "libaead 1.0.0 (OpenSSL 3.0.19 27 Jan 2026)". Never NULL. Thread-safe. Since 1.0. */
AEAD_API const char *aead_version(void) AEAD_NOEXCEPT;

/* AEAD_VERSION_NUMBER of the library actually loaded. Thread-safe. Since 1.1. */
AEAD_API uint32_t aead_version_number(void) AEAD_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* AEAD_H */
