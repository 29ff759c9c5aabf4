/* Side-by-side cost of HPKE (docs/hpke.md) in C: a 64-byte seal on an established sender context
 * (aead_hpke_seal) against aead_seal_open on a context of the same algorithm and key size, under
 * AEAD_POLICY_NONE (a caller's nonce, no check) and AEAD_POLICY_TLS13 (a sequence number checked and
 * committed, as HPKE's is); and a sender's setup plus its first 64-byte seal. Built against OpenSSL 3.2 or
 * later, the setup is also timed through OpenSSL's own OSSL_HPKE_* (the same curve code: the peer the
 * setup ratio is about). Interleaved rounds; medians of the times and of the per-round ratios.
 * Usage: aead-hpke-bench [--quick] [--json FILE] */
#define _POSIX_C_SOURCE 200809L
#include <openssl/opensslv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
#include <openssl/hpke.h>
#define HAVE_OSSL_HPKE 1
#else
#define HAVE_OSSL_HPKE 0
#endif

#include "aead.h"
#include "timing.h"

enum { MSG = 64, ROUNDS = 21 };
/* One row of the JSON: suite, operation, peer, libaead ns, peer ns, libaead / peer. */
#define ROW "{\"suite\": \"%s\", \"op\": \"%s\", \"peer\": \"%s\", \"libaead_ns\": %.1f, \"peer_ns\": %.1f, \"ratio\": %.3f}"

typedef struct {
    const char *name;
    int kem, kdf, aead, alg;
    size_t key_len;
    int ossl_kem, ossl_kdf, ossl_aead;
} suite_t;

static const suite_t suites[] = {
    {"X25519, HKDF-SHA256, AES-128-GCM", AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256,
     AEAD_HPKE_AEAD_AES_128_GCM, AEAD_AES_128_GCM, 16, 0x20, 1, 1},
    {"X25519, HKDF-SHA256, ChaCha20-Poly1305", AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KDF_HKDF_SHA256,
     AEAD_HPKE_AEAD_CHACHA20_POLY1305, AEAD_CHACHA20_POLY1305, 32, 0x20, 1, 3},
    {"P-256, HKDF-SHA256, AES-128-GCM", AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_HKDF_SHA256,
     AEAD_HPKE_AEAD_AES_128_GCM, AEAD_AES_128_GCM, 16, 0x10, 1, 1},
};

typedef struct bench_job {
    const suite_t *s;
    aead_hpke *tx;
    aead_ctx *none, *tls13;
    uint8_t pk[133], sk[66], enc[133], key[32], iv[12], pt[MSG], out[MSG + 16];
    size_t pk_len;
    uint64_t seq;
} job_t;

static void hpke_seal(job_t *j) {
    if (aead_hpke_seal(j->tx, NULL, 0, j->pt, MSG, j->out, sizeof j->out, NULL) != MSG + 16) die("aead_hpke_seal");
}

static void seal_none(job_t *j) {
    if (aead_seal_open(j->none, 1, j->iv, 12, NULL, 0, j->pt, MSG, j->out, sizeof j->out) != MSG + 16)
        die("aead_seal_open NONE");
}

static void seal_tls13(job_t *j) {
    uint8_t n[12] = {0};
    uint64_t s = j->seq++;
    for (int i = 0; i < 8; i++) n[11 - i] = (uint8_t)(s >> (8 * i));
    for (int i = 0; i < 12; i++) n[i] ^= j->iv[i];
    uint8_t aad[5] = {23, 3, 3, 0, MSG + 16};
    if (aead_seal_open(j->tls13, 1, n, 12, aad, 5, j->pt, MSG, j->out, sizeof j->out) != MSG + 16)
        die("aead_seal_open TLS13");
}

static void setup_seal(job_t *j) {
    aead_hpke_params p = {.size = sizeof p, .mode = AEAD_HPKE_MODE_BASE, .kem = j->s->kem, .kdf = j->s->kdf,
                          .aead = j->s->aead};
    aead_hpke *tx;
    if (aead_hpke_setup_sender(&tx, &p, j->pk, j->pk_len, NULL, 0, j->enc, sizeof j->enc) != 0)
        die("aead_hpke_setup_sender");
    if (aead_hpke_seal(tx, NULL, 0, j->pt, MSG, j->out, sizeof j->out, NULL) != MSG + 16) die("first seal");
    aead_hpke_free(tx);
}

#if HAVE_OSSL_HPKE
static void ossl_setup_seal(job_t *j) {
    OSSL_HPKE_SUITE su = {(uint16_t)j->s->ossl_kem, (uint16_t)j->s->ossl_kdf, (uint16_t)j->s->ossl_aead};
    OSSL_HPKE_CTX *c = OSSL_HPKE_CTX_new(OSSL_HPKE_MODE_BASE, su, OSSL_HPKE_ROLE_SENDER, NULL, NULL);
    size_t enc_len = sizeof j->enc, out_len = sizeof j->out;
    if (c == NULL || OSSL_HPKE_encap(c, j->enc, &enc_len, j->pk, j->pk_len, NULL, 0) != 1 ||
        OSSL_HPKE_seal(c, j->out, &out_len, NULL, 0, j->pt, MSG) != 1)
        die("OSSL_HPKE encap + seal");
    OSSL_HPKE_CTX_free(c);
}
#endif

int main(int argc, char **argv) {
    bench_name = "aead-hpke-bench";
    int quick = 0;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) json = argv[++i];
        else {
            fprintf(stderr, "usage: aead-hpke-bench [--quick] [--json FILE]\n");
            return 2;
        }
    }
    const long seals = quick ? 2000 : 50000, setups = quick ? 50 : 500;
    FILE *js = json ? fopen(json, "w") : NULL;
    if (json && js == NULL) die("opening the JSON file");
    if (js) fprintf(js, "{\"bench\": \"hpke\", \"lang\": \"C\", \"libcrypto\": \"%s\", \"rounds\": %d, \"rows\": [",
                    aead_version(), ROUNDS);
    printf("HPKE, %d-byte messages (%s); medians of %d interleaved rounds\n", MSG, aead_version(), ROUNDS);
    printf("%-40s | %-44s | %s\n", "suite", "seal ns: context / NONE / TLS13 (ratios)",
           HAVE_OSSL_HPKE ? "setup + seal ns: libaead / OSSL_HPKE (ratio)" : "setup + seal ns");
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        job_t j = {.s = &suites[s]};
        for (size_t i = 0; i < sizeof j.key; i++) j.key[i] = (uint8_t)(i * 7 + 1);
        for (size_t i = 0; i < sizeof j.iv; i++) j.iv[i] = (uint8_t)(0x40 + i);
        j.pk_len = aead_hpke_enc_size(j.s->kem);
        if (aead_hpke_generate_keypair(j.s->kem, j.sk, aead_hpke_private_key_size(j.s->kem), j.pk, j.pk_len, NULL) !=
            0)
            die("key pair");
        aead_hpke_params p = {.size = sizeof p, .mode = AEAD_HPKE_MODE_BASE, .kem = j.s->kem, .kdf = j.s->kdf,
                              .aead = j.s->aead};
        if (aead_hpke_setup_sender(&j.tx, &p, j.pk, j.pk_len, NULL, 0, j.enc, sizeof j.enc) != 0 ||
            aead_ctx_new(&j.none, j.s->alg, AEAD_POLICY_NONE, j.key, j.s->key_len, 0) != 0 ||
            aead_ctx_new_ex(&j.tls13, j.s->alg, AEAD_POLICY_TLS13, j.key, j.s->key_len, 0, NULL, j.iv, 12) != 0)
            die("contexts");
        double t[5][ROUNDS], r_none[ROUNDS], r_tls[ROUNDS], r_ossl[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            t[0][r] = time_way(hpke_seal, &j, seals);
            t[1][r] = time_way(seal_none, &j, seals);
            t[2][r] = time_way(seal_tls13, &j, seals);
            t[3][r] = time_way(setup_seal, &j, setups);
#if HAVE_OSSL_HPKE
            t[4][r] = time_way(ossl_setup_seal, &j, setups);
#else
            t[4][r] = 0;
#endif
            r_none[r] = t[0][r] / t[1][r];
            r_tls[r] = t[0][r] / t[2][r];
            r_ossl[r] = HAVE_OSSL_HPKE ? t[3][r] / t[4][r] : 0;
        }
        double m[5];
        for (int k = 0; k < 5; k++) m[k] = median(t[k], ROUNDS);
        const double rn = median(r_none, ROUNDS), rt = median(r_tls, ROUNDS), ro = median(r_ossl, ROUNDS);
        printf("%-40s | %5.0f / %5.0f / %5.0f (%.2fx, %.2fx)", j.s->name, m[0], m[1], m[2], rn, rt);
        if (HAVE_OSSL_HPKE) printf("         | %6.0f / %6.0f (%.2fx)\n", m[3], m[4], ro);
        else printf("         | %6.0f\n", m[3]);
        if (js) {
            const char *sep = s ? "," : "";
            fprintf(js, "%s\n  " ROW ",\n  " ROW, sep, j.s->name, "64 B seal on a context", "aead_seal_open, AEAD_POLICY_NONE",
                    m[0], m[1], rn, j.s->name, "64 B seal on a context", "aead_seal_open, AEAD_POLICY_TLS13", m[0], m[2], rt);
            if (HAVE_OSSL_HPKE)
                fprintf(js, ",\n  " ROW, j.s->name, "setup + 64 B seal", "OpenSSL OSSL_HPKE_*", m[3], m[4], ro);
            else
                fprintf(js, ",\n  {\"suite\": \"%s\", \"op\": \"setup + 64 B seal\", \"peer\": null, "
                            "\"libaead_ns\": %.1f}", j.s->name, m[3]);
        }
        aead_hpke_free(j.tx);
        aead_ctx_free(j.none);
        aead_ctx_free(j.tls13);
    }
    if (js) {
        fprintf(js, "\n]}\n");
        if (fclose(js) != 0) die("writing the JSON file");
    }
    return 0;
}
