/*
 * dlopen consumer of libaead: proves the ABI is usable by a program that has NO project header.
 *
 * Everything this file knows about the library is declared below by hand, with values copied from
 * include/aead.h (ABI version 1). The library is loaded by SONAME ("libaead.so.1") through the normal
 * dynamic-loader search path, so LD_LIBRARY_PATH must point at the build directory.
 *
 * Build:  cc -std=c11 -Wall -Wextra -Werror -o dlopen_consumer dlopen_consumer.c -ldl
 * Run:    LD_LIBRARY_PATH=$AEAD_BUILD_DIR ./dlopen_consumer
 * Prints one line per failed check, then "N passed, N failed"; exit status 1 on any failure.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Copied from include/aead.h (ABI 1); deliberately not #included. ---- */
#define X_ABI_VERSION 1u

enum { X_AES_128_GCM = 1, X_AES_192_GCM = 2, X_AES_256_GCM = 3, X_CHACHA20_POLY1305 = 4 };
enum { X_POLICY_NONE = 0, X_POLICY_TLS12 = 1, X_POLICY_TLS13 = 2 };
enum { X_SEAL = 1, X_OPEN = 2 };
enum {
    X_ERR_AUTH = -1, X_ERR_ARG = -2, X_ERR_KEY_SIZE = -3, X_ERR_NONCE_SIZE = -4,
    X_ERR_TAG_SIZE = -5, X_ERR_AAD_SIZE = -6, X_ERR_TOO_LONG = -7, X_ERR_BUFFER_TOO_SMALL = -8,
    X_ERR_OVERLAP = -9, X_ERR_NONCE_ORDER = -10, X_ERR_NONCE_EXHAUSTED = -11,
    X_ERR_NONCE_PREFIX = -12, X_ERR_UNSUPPORTED = -13, X_ERR_NOMEM = -14, X_ERR_CRYPTO = -15
};

typedef struct x_ctx x_ctx; /* opaque */
typedef int (*fn_ctx_new)(x_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                          size_t tag_len);
typedef void (*fn_ctx_free)(x_ctx *ctx);
typedef int64_t (*fn_seal_open)(x_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                                uint8_t *out, size_t out_cap);
typedef const char *(*fn_strerror)(int64_t code);
typedef uint32_t (*fn_abi_version)(void);
typedef const char *(*fn_version)(void);
typedef size_t (*fn_size)(int alg);
/* ---- End of the copied ABI. ---- */

static fn_ctx_new p_ctx_new;
static fn_ctx_free p_ctx_free;
static fn_seal_open p_seal_open;
static fn_strerror p_strerror;
static fn_abi_version p_abi_version;
static fn_version p_version;
static fn_size p_key_size, p_nonce_size, p_tag_size;

static int passed, failed;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            passed++;                                                           \
        } else {                                                                \
            failed++;                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* dlsym returns void *; converting it to a function pointer goes through memcpy so -Wpedantic-clean
 * ISO C sees no object-to-function pointer cast. */
static int resolve(void *lib, const char *name, void *slot, size_t slot_size) {
    dlerror();
    void *sym = dlsym(lib, name);
    const char *err = dlerror();
    CHECK(sym != NULL && err == NULL, "dlsym(%s): %s", name, err ? err : "NULL symbol");
    if (sym == NULL) return 0;
    memcpy(slot, &sym, slot_size);
    return 1;
}

static size_t unhex(const char *hex, uint8_t *out, size_t cap) {
    size_t n = 0;
    for (const char *p = hex; p[0] && p[1]; p += 2) {
        unsigned v;
        if (n >= cap || sscanf(p, "%2x", &v) != 1) abort();
        out[n++] = (uint8_t)v;
    }
    return n;
}

static int all_bytes(const uint8_t *p, size_t n, uint8_t v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

/* Deterministic filler (xorshift); randomness quality is irrelevant here. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        p[i] = (uint8_t)rng_state;
    }
}

static const char *alg_name(int alg) {
    switch (alg) {
    case X_AES_128_GCM: return "AES-128-GCM";
    case X_AES_192_GCM: return "AES-192-GCM";
    case X_AES_256_GCM: return "AES-256-GCM";
    case X_CHACHA20_POLY1305: return "ChaCha20-Poly1305";
    default: return "?";
    }
}

static void test_sizes(void) {
    static const struct { int alg; size_t key; } want[] = {
        {X_AES_128_GCM, 16}, {X_AES_192_GCM, 24}, {X_AES_256_GCM, 32}, {X_CHACHA20_POLY1305, 32}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK(p_key_size(want[i].alg) == want[i].key, "key_size(%d) = %zu", want[i].alg,
              p_key_size(want[i].alg));
        CHECK(p_nonce_size(want[i].alg) == 12, "nonce_size(%d) = %zu", want[i].alg,
              p_nonce_size(want[i].alg));
        CHECK(p_tag_size(want[i].alg) == 16, "tag_size(%d) = %zu", want[i].alg,
              p_tag_size(want[i].alg));
    }
    static const int unknown[] = {0, 99, -1, 1000}; /* 5-14 are the ABI 1.2 families */
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        int a = unknown[i];
        CHECK(p_key_size(a) == 0 && p_nonce_size(a) == 0 && p_tag_size(a) == 0,
              "sizes of unknown alg %d not 0: %zu %zu %zu", a, p_key_size(a), p_nonce_size(a),
              p_tag_size(a));
    }
}

static void test_strerror_and_version(void) {
    const char *v = p_version();
    CHECK(v != NULL && strncmp(v, "libaead ", 8) == 0 && strstr(v, "OpenSSL") != NULL,
          "aead_version() = %s", v ? v : "(NULL)");
    const char *texts[16];
    for (int c = 0; c >= -15; c--) {
        const char *t = p_strerror(c);
        CHECK(t != NULL && t[0] != '\0', "aead_strerror(%d) NULL or empty", c);
        texts[-c] = t ? t : "";
    }
    /* Every defined error code has its own description. */
    for (int a = 1; a <= 15; a++)
        for (int b = a + 1; b <= 15; b++)
            CHECK(strcmp(texts[a], texts[b]) != 0, "aead_strerror(-%d) == aead_strerror(-%d): %s", a,
                  b, texts[a]);
    static const int64_t unknown[] = {1, 42, -16, -1000, INT64_MIN, INT64_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *t = p_strerror(unknown[i]);
        CHECK(t != NULL && t[0] != '\0', "aead_strerror(%lld) NULL or empty",
              (long long)unknown[i]);
    }
}

/* Seal/open round trips with every algorithm, a few sizes, out-of-place and exact in-place. */
static void test_round_trips(void) {
    static const int algs[] = {X_AES_128_GCM, X_AES_192_GCM, X_AES_256_GCM, X_CHACHA20_POLY1305};
    static const size_t sizes[] = {0, 1, 15, 16, 17, 64, 255, 1000, 4096};
    static const size_t aad_sizes[] = {0, 1, 13, 100};
    uint8_t key[32], nonce[12], aad[100], pt[4096], ct[4096 + 16], back[4096 + 16];
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        int alg = algs[a];
        size_t klen = p_key_size(alg);
        fill(key, klen);
        x_ctx *ctx = (x_ctx *)&ctx; /* must be overwritten */
        int rc = p_ctx_new(&ctx, alg, X_POLICY_NONE, key, klen, 0);
        CHECK(rc == 0 && ctx != NULL, "%s ctx_new rc=%d", alg_name(alg), rc);
        if (rc != 0 || ctx == NULL) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            size_t alen = aad_sizes[s % (sizeof aad_sizes / sizeof aad_sizes[0])];
            fill(nonce, sizeof nonce);
            fill(aad, alen);
            fill(pt, n);
            memset(ct, 0xAA, sizeof ct);
            int64_t r = p_seal_open(ctx, X_SEAL, nonce, 12, alen ? aad : NULL, alen,
                                    n ? pt : NULL, n, ct, n + 16);
            CHECK(r == (int64_t)(n + 16), "%s seal n=%zu aad=%zu returned %lld", alg_name(alg), n,
                  alen, (long long)r);
            CHECK(n < 16 || memcmp(ct, pt, n) != 0, "%s seal n=%zu: ciphertext equals plaintext",
                  alg_name(alg), n);
            memset(back, 0xAA, sizeof back);
            r = p_seal_open(ctx, X_OPEN, nonce, 12, alen ? aad : NULL, alen, ct, n + 16, back, n);
            CHECK(r == (int64_t)n && memcmp(back, pt, n) == 0, "%s open n=%zu returned %lld",
                  alg_name(alg), n, (long long)r);
            /* Exact in-place open: out == in. */
            memcpy(back, ct, n + 16);
            r = p_seal_open(ctx, X_OPEN, nonce, 12, alen ? aad : NULL, alen, back, n + 16, back,
                            n + 16);
            CHECK(r == (int64_t)n && memcmp(back, pt, n) == 0, "%s in-place open n=%zu -> %lld",
                  alg_name(alg), n, (long long)r);
            /* Exact in-place seal gives the same ct||tag. */
            memcpy(back, pt, n);
            r = p_seal_open(ctx, X_SEAL, nonce, 12, alen ? aad : NULL, alen, back, n, back, n + 16);
            CHECK(r == (int64_t)(n + 16) && memcmp(back, ct, n + 16) == 0,
                  "%s in-place seal n=%zu -> %lld", alg_name(alg), n, (long long)r);
        }
        p_ctx_free(ctx);
    }
    p_ctx_free(NULL); /* documented no-op: a crash here kills the run */
}

struct kat {
    const char *source, *name;
    int alg;
    const char *key, *nonce, *aad, *pt, *ct, *tag;
};

/* Known answers, copied from their published sources (data, not output of this library):
 *  - McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)" (2005), Appendix B, Test Cases 1, 2, 4
 *    (AES-128), also in NIST's gcmEncryptExtIV128 set.
 *  - RFC 8439 section 2.8.2 (ChaCha20-Poly1305 AEAD example); pt is the ASCII sentence
 *    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future,
 *    sunscreen would be it." */
static const struct kat kats[] = {
    {"GCM spec Appendix B", "Test Case 1", X_AES_128_GCM, "00000000000000000000000000000000",
     "000000000000000000000000", "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
    {"GCM spec Appendix B", "Test Case 2", X_AES_128_GCM, "00000000000000000000000000000000",
     "000000000000000000000000", "", "00000000000000000000000000000000",
     "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
    {"GCM spec Appendix B", "Test Case 4", X_AES_128_GCM, "feffe9928665731c6d6a8f9467308308",
     "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"RFC 8439", "section 2.8.2", X_CHACHA20_POLY1305,
     "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "070000004041424344454647",
     "50515253c0c1c2c3c4c5c6c7",
     "4c616469657320616e642047656e746c656d656e206f662074686520636c6173"
     "73206f66202739393a204966204920636f756c64206f6666657220796f75206f"
     "6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73"
     "637265656e20776f756c642062652069742e",
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
     "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
     "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
     "3ff4def08e4b7a9de576d26586cec64b6116",
     "1ae10b594f09e26a7e902ecbd0600691"},
};

static void test_kats(void) {
    for (size_t k = 0; k < sizeof kats / sizeof kats[0]; k++) {
        const struct kat *t = &kats[k];
        uint8_t key[32], nonce[12], aad[64], pt[256], want[256 + 16], out[256 + 16];
        size_t klen = unhex(t->key, key, sizeof key), nlen = unhex(t->nonce, nonce, sizeof nonce);
        size_t alen = unhex(t->aad, aad, sizeof aad), plen = unhex(t->pt, pt, sizeof pt);
        size_t clen = unhex(t->ct, want, sizeof want);
        clen += unhex(t->tag, want + clen, sizeof want - clen);
        x_ctx *ctx = NULL;
        int rc = p_ctx_new(&ctx, t->alg, X_POLICY_NONE, key, klen, 16);
        CHECK(rc == 0, "%s %s ctx_new rc=%d", t->source, t->name, rc);
        if (rc != 0) continue;
        memset(out, 0xAA, sizeof out);
        int64_t r = p_seal_open(ctx, X_SEAL, nonce, nlen, alen ? aad : NULL, alen,
                                plen ? pt : NULL, plen, out, sizeof out);
        CHECK(r == (int64_t)clen && memcmp(out, want, clen) == 0, "%s %s seal -> %lld", t->source,
              t->name, (long long)r);
        memset(out, 0xAA, sizeof out);
        r = p_seal_open(ctx, X_OPEN, nonce, nlen, alen ? aad : NULL, alen, want, clen, out,
                        sizeof out);
        CHECK(r == (int64_t)plen && memcmp(out, pt, plen) == 0, "%s %s open -> %lld", t->source,
              t->name, (long long)r);
        /* Truncated tag (AES-GCM only): SP 800-38D tags are prefixes of the full tag. */
        if (t->alg != X_CHACHA20_POLY1305) {
            x_ctx *c12 = NULL;
            rc = p_ctx_new(&c12, t->alg, X_POLICY_NONE, key, klen, 12);
            CHECK(rc == 0, "%s %s ctx_new tag 12 rc=%d", t->source, t->name, rc);
            if (rc == 0) {
                r = p_seal_open(c12, X_SEAL, nonce, nlen, alen ? aad : NULL, alen,
                                plen ? pt : NULL, plen, out, sizeof out);
                CHECK(r == (int64_t)(plen + 12) && memcmp(out, want, plen + 12) == 0,
                      "%s %s seal tag 12 -> %lld", t->source, t->name, (long long)r);
                p_ctx_free(c12);
            }
        }
        p_ctx_free(ctx);
    }
}

/* Authentication failures: -1 and the whole output zeroed (pre-filled with 0xAA). */
static void test_auth_failure(void) {
    static const int algs[] = {X_AES_128_GCM, X_AES_256_GCM, X_CHACHA20_POLY1305};
    uint8_t key[32], nonce[12], aad[20], pt[100], ct[116], bad[116], out[116];
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        int alg = algs[a];
        fill(key, 32);
        fill(nonce, 12);
        fill(aad, sizeof aad);
        fill(pt, sizeof pt);
        x_ctx *ctx = NULL;
        int rc = p_ctx_new(&ctx, alg, X_POLICY_NONE, key, p_key_size(alg), 0);
        CHECK(rc == 0, "%s ctx_new rc=%d", alg_name(alg), rc);
        if (rc != 0) continue;
        int64_t r = p_seal_open(ctx, X_SEAL, nonce, 12, aad, sizeof aad, pt, sizeof pt, ct,
                                sizeof ct);
        CHECK(r == (int64_t)sizeof ct, "%s seal -> %lld", alg_name(alg), (long long)r);

        /* Flip one bit at several positions: ciphertext start, middle, end, tag start, tag end. */
        static const size_t pos[] = {0, 50, 99, 100, 115};
        for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
            memcpy(bad, ct, sizeof ct);
            bad[pos[i]] ^= 0x01;
            memset(out, 0xAA, sizeof out);
            r = p_seal_open(ctx, X_OPEN, nonce, 12, aad, sizeof aad, bad, sizeof bad, out,
                            sizeof out);
            CHECK(r == X_ERR_AUTH, "%s tampered byte %zu -> %lld", alg_name(alg), pos[i],
                  (long long)r);
            /* min(out_cap, output length) = 100 bytes zeroed; the rest of out is not ours. */
            CHECK(all_bytes(out, sizeof pt, 0), "%s tampered byte %zu: output not zeroed",
                  alg_name(alg), pos[i]);
        }
        /* Wrong AAD and wrong nonce. */
        uint8_t aad2[20], nonce2[12];
        memcpy(aad2, aad, sizeof aad);
        aad2[19] ^= 0x80;
        memset(out, 0xAA, sizeof out);
        r = p_seal_open(ctx, X_OPEN, nonce, 12, aad2, sizeof aad2, ct, sizeof ct, out, sizeof pt);
        CHECK(r == X_ERR_AUTH && all_bytes(out, sizeof pt, 0), "%s wrong AAD -> %lld",
              alg_name(alg), (long long)r);
        memcpy(nonce2, nonce, 12);
        nonce2[0] ^= 0x01;
        memset(out, 0xAA, sizeof out);
        r = p_seal_open(ctx, X_OPEN, nonce2, 12, aad, sizeof aad, ct, sizeof ct, out, sizeof pt);
        CHECK(r == X_ERR_AUTH && all_bytes(out, sizeof pt, 0), "%s wrong nonce -> %lld",
              alg_name(alg), (long long)r);
        /* Missing AAD. */
        memset(out, 0xAA, sizeof out);
        r = p_seal_open(ctx, X_OPEN, nonce, 12, NULL, 0, ct, sizeof ct, out, sizeof pt);
        CHECK(r == X_ERR_AUTH && all_bytes(out, sizeof pt, 0), "%s no AAD -> %lld", alg_name(alg),
              (long long)r);
        /* In-place failed open: the buffer's plaintext part must be zeroed. */
        memcpy(bad, ct, sizeof ct);
        bad[115] ^= 0x40;
        r = p_seal_open(ctx, X_OPEN, nonce, 12, aad, sizeof aad, bad, sizeof bad, bad, sizeof bad);
        CHECK(r == X_ERR_AUTH && all_bytes(bad, sizeof pt, 0), "%s in-place tampered -> %lld",
              alg_name(alg), (long long)r);
        /* Input shorter than the tag. */
        r = p_seal_open(ctx, X_OPEN, nonce, 12, aad, sizeof aad, ct, 15, out, sizeof out);
        CHECK(r == X_ERR_AUTH, "%s open of 15 bytes -> %lld", alg_name(alg), (long long)r);
        r = p_seal_open(ctx, X_OPEN, nonce, 12, aad, sizeof aad, NULL, 0, NULL, 0);
        CHECK(r == X_ERR_AUTH, "%s open of 0 bytes -> %lld", alg_name(alg), (long long)r);
        p_ctx_free(ctx);
    }
}

/* A few refusals, checked through the hand-declared ABI: the codes and "nothing written". */
static void test_refusals(void) {
    uint8_t key[32] = {0}, nonce[12] = {0}, pt[32] = {0}, out[64];
    x_ctx *ctx = (x_ctx *)&ctx;
    CHECK(p_ctx_new(&ctx, X_AES_128_GCM, X_POLICY_NONE, key, 15, 0) == X_ERR_KEY_SIZE && ctx == NULL,
          "ctx_new with a 15-byte key");
    ctx = (x_ctx *)&ctx;
    CHECK(p_ctx_new(&ctx, 99, X_POLICY_NONE, key, 16, 0) == X_ERR_ARG && ctx == NULL,
          "ctx_new with alg 99");
    ctx = (x_ctx *)&ctx;
    CHECK(p_ctx_new(&ctx, X_CHACHA20_POLY1305, X_POLICY_NONE, key, 32, 12) == X_ERR_TAG_SIZE &&
              ctx == NULL,
          "ctx_new ChaCha with tag 12");
    CHECK(p_ctx_new(NULL, X_AES_128_GCM, X_POLICY_NONE, key, 16, 0) == X_ERR_ARG,
          "ctx_new with NULL ctx_out");
    CHECK(p_seal_open(NULL, X_SEAL, nonce, 12, NULL, 0, pt, 32, out, sizeof out) == X_ERR_ARG,
          "seal with NULL ctx");

    ctx = NULL;
    int rc = p_ctx_new(&ctx, X_AES_128_GCM, X_POLICY_NONE, key, 16, 0);
    CHECK(rc == 0, "ctx_new rc=%d", rc);
    if (rc != 0) return;
    memset(out, 0xAA, sizeof out);
    int64_t r = p_seal_open(ctx, X_SEAL, nonce, 12, NULL, 0, pt, 32, out, 47);
    CHECK(r == X_ERR_BUFFER_TOO_SMALL && all_bytes(out, sizeof out, 0xAA),
          "seal with out_cap 47 -> %lld", (long long)r);
    r = p_seal_open(ctx, X_SEAL, nonce, 0, NULL, 0, pt, 32, out, sizeof out);
    CHECK(r == X_ERR_NONCE_SIZE && all_bytes(out, sizeof out, 0xAA), "seal with empty nonce -> %lld",
          (long long)r);
    r = p_seal_open(ctx, X_SEAL, NULL, 12, NULL, 0, pt, 32, out, sizeof out);
    CHECK(r == X_ERR_ARG && all_bytes(out, sizeof out, 0xAA), "seal with NULL nonce -> %lld",
          (long long)r);
    r = p_seal_open(ctx, 3, nonce, 12, NULL, 0, pt, 32, out, sizeof out);
    CHECK(r == X_ERR_ARG && all_bytes(out, sizeof out, 0xAA), "op 3 -> %lld", (long long)r);
    /* out overlapping in at an offset. */
    uint8_t buf[64] = {0};
    r = p_seal_open(ctx, X_SEAL, nonce, 12, NULL, 0, buf, 32, buf + 1, 48);
    CHECK(r == X_ERR_OVERLAP, "partial overlap -> %lld", (long long)r);
    p_ctx_free(ctx);
}

/* TLS 1.3 policy through the raw ABI: first seal learns IV, a reused sequence is refused. */
static void test_tls13(void) {
    uint8_t key[16], iv[12], hdr[5] = {0x17, 0x03, 0x03, 0x00, 0x20}, pt[16] = {1}, out[32];
    fill(key, sizeof key);
    fill(iv, sizeof iv);
    x_ctx *ctx = NULL;
    int rc = p_ctx_new(&ctx, X_AES_128_GCM, X_POLICY_TLS13, key, 16, 0);
    CHECK(rc == 0, "TLS13 ctx_new rc=%d", rc);
    if (rc != 0) return;
    uint8_t n[12];
    for (uint64_t seq = 0; seq < 3; seq++) {
        memcpy(n, iv, 12);
        for (int i = 0; i < 8; i++) n[11 - i] ^= (uint8_t)(seq >> (8 * i));
        int64_t r = p_seal_open(ctx, X_SEAL, n, 12, hdr, 5, pt, 16, out, sizeof out);
        CHECK(r == 32, "TLS13 seal seq %llu -> %lld", (unsigned long long)seq, (long long)r);
    }
    /* seq 1 again */
    memcpy(n, iv, 12);
    n[11] ^= 1;
    memset(out, 0xAA, sizeof out);
    int64_t r = p_seal_open(ctx, X_SEAL, n, 12, hdr, 5, pt, 16, out, sizeof out);
    CHECK(r == X_ERR_NONCE_ORDER && all_bytes(out, sizeof out, 0xAA), "TLS13 reused seq -> %lld",
          (long long)r);
    r = p_seal_open(ctx, X_SEAL, n, 12, hdr, 4, pt, 16, out, sizeof out);
    CHECK(r == X_ERR_AAD_SIZE, "TLS13 4-byte AAD -> %lld", (long long)r);
    p_ctx_free(ctx);
}

int main(void) {
    void *lib = dlopen("libaead.so.1", RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL, "dlopen(libaead.so.1): %s", dlerror());
    if (lib == NULL) {
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }
    int ok = 1;
    ok &= resolve(lib, "aead_ctx_new", &p_ctx_new, sizeof p_ctx_new);
    ok &= resolve(lib, "aead_ctx_free", &p_ctx_free, sizeof p_ctx_free);
    ok &= resolve(lib, "aead_seal_open", &p_seal_open, sizeof p_seal_open);
    ok &= resolve(lib, "aead_strerror", &p_strerror, sizeof p_strerror);
    ok &= resolve(lib, "aead_abi_version", &p_abi_version, sizeof p_abi_version);
    ok &= resolve(lib, "aead_version", &p_version, sizeof p_version);
    ok &= resolve(lib, "aead_key_size", &p_key_size, sizeof p_key_size);
    ok &= resolve(lib, "aead_nonce_size", &p_nonce_size, sizeof p_nonce_size);
    ok &= resolve(lib, "aead_tag_size", &p_tag_size, sizeof p_tag_size);
    if (!ok) {
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }

    uint32_t abi = p_abi_version();
    CHECK(abi == X_ABI_VERSION, "aead_abi_version() = %u, expected %u", abi, X_ABI_VERSION);

    test_sizes();
    test_strerror_and_version();
    test_round_trips();
    test_kats();
    test_auth_failure();
    test_refusals();
    test_tls13();

    dlclose(lib);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
