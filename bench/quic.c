/* Side-by-side cost of protecting and unprotecting one QUIC packet (docs/quic.md): libaead's one call
 * (aead_quic_protect / aead_quic_unprotect) against the two-call path a QUIC stack makes today
 * (aead_seal_open + aead_hp_mask, the masking by hand) and against a hand-written EVP floor (one keyed
 * AEAD context and one keyed header-protection context reused, the same steps). Interleaved rounds,
 * medians of times and of per-round ratios, as bench.c does.
 * Usage: aead-quic-bench [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aead.h"
#include "timing.h"

enum { HDR = 9, PN_LEN = 4, PN_OFFSET = HDR - PN_LEN, TAG = 16, MAX_PAYLOAD = 1200, ROUNDS = 21 };

typedef struct {
    int alg;
    const char *name, *aead, *hp;
    size_t key_len;
} suite_t;
static const suite_t suites[] = {{AEAD_AES_128_GCM, "AES-128-GCM", "AES-128-GCM", "AES-128-ECB", 16},
                                 {AEAD_CHACHA20_POLY1305, "ChaCha20-Poly1305", "ChaCha20-Poly1305", "ChaCha20", 32}};

static uint8_t key[32], hp_key[32], iv[12], packet[HDR + MAX_PAYLOAD + TAG], protected_pkt[HDR + MAX_PAYLOAD + TAG];

typedef struct bench_job {
    aead_ctx *one, *two, *rx;
    aead_hp *hp;
    EVP_CIPHER_CTX *aead, *hpc; /* the floor's keyed contexts */
    int chacha;
    size_t payload;
    uint64_t pn_one, pn_two, pn_floor;
} job_t;

static void header(uint8_t *p) {
    static const uint8_t h[HDR] = {0x43, 1, 2, 3, 4, 0, 0, 0, 0};
    memcpy(p, h, HDR);
}

static void nonce_of(uint64_t pn, uint8_t n[12]) {
    memcpy(n, iv, 12);
    for (int i = 0; i < 8; i++) n[11 - i] ^= (uint8_t)(pn >> (8 * i));
}

static void mask_header(uint8_t *p, const uint8_t *mask) {
    p[0] ^= mask[0] & 0x1f;
    for (int i = 0; i < PN_LEN; i++) p[PN_OFFSET + i] ^= mask[1 + i];
}

static void write_pn(uint8_t *p, uint64_t pn) {
    for (int i = 0; i < PN_LEN; i++) p[PN_OFFSET + i] = (uint8_t)(pn >> (8 * (PN_LEN - 1 - i)));
}

static void protect_one(job_t *j) {
    header(packet);
    if (aead_quic_protect(j->one, j->hp, ++j->pn_one, packet, HDR, j->payload, sizeof packet) < 0) die("protect");
}

static void protect_two(job_t *j) {
    uint8_t n[12], mask[5];
    header(packet);
    write_pn(packet, ++j->pn_two);
    nonce_of(j->pn_two, n);
    if (aead_seal_open(j->two, AEAD_SEAL, n, 12, packet, HDR, packet + HDR, j->payload, packet + HDR,
                       sizeof packet - HDR) < 0 ||
        aead_hp_mask(j->hp, packet + PN_OFFSET + 4, 16, mask, 5) != 5)
        die("two-call protect");
    mask_header(packet, mask);
}

static void protect_floor(job_t *j) {
    uint8_t n[12], block[16];
    int len = 0;
    header(packet);
    write_pn(packet, ++j->pn_floor);
    nonce_of(j->pn_floor, n);
    OSSL_PARAM tag[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, packet + HDR + j->payload, TAG),
                        OSSL_PARAM_END};
    if (EVP_EncryptInit_ex2(j->aead, NULL, NULL, n, NULL) != 1 || EVP_EncryptUpdate(j->aead, NULL, &len, packet, HDR) != 1 ||
        EVP_EncryptUpdate(j->aead, packet + HDR, &len, packet + HDR, (int)j->payload) != 1 ||
        EVP_EncryptFinal_ex(j->aead, packet + HDR + j->payload, &len) != 1 || EVP_CIPHER_CTX_get_params(j->aead, tag) != 1)
        die("floor seal");
    if (j->chacha) {
        static const uint8_t zeros[5];
        if (EVP_EncryptInit_ex2(j->hpc, NULL, NULL, packet + PN_OFFSET + 4, NULL) != 1 ||
            EVP_EncryptUpdate(j->hpc, block, &len, zeros, 5) != 1)
            die("floor mask");
    } else if (EVP_EncryptUpdate(j->hpc, block, &len, packet + PN_OFFSET + 4, 16) != 1) {
        die("floor mask");
    }
    mask_header(packet, block);
}

static void unprotect_one(job_t *j) {
    uint64_t pn;
    memcpy(packet, protected_pkt, HDR + j->payload + TAG);
    if (aead_quic_unprotect(j->rx, j->hp, 0, packet, PN_OFFSET, HDR + j->payload + TAG, &pn) < 0) die("unprotect");
}

static void unprotect_two(job_t *j) {
    uint8_t mask[5], n[12];
    memcpy(packet, protected_pkt, HDR + j->payload + TAG);
    if (aead_hp_mask(j->hp, packet + PN_OFFSET + 4, 16, mask, 5) != 5) die("two-call mask");
    mask_header(packet, mask);
    uint64_t pn = 0;
    for (int i = 0; i < PN_LEN; i++) pn = pn << 8 | packet[PN_OFFSET + i];
    nonce_of(pn, n);
    if (aead_seal_open(j->rx, AEAD_OPEN, n, 12, packet, HDR, packet + HDR, j->payload + TAG, packet + HDR,
                       j->payload + TAG) < 0)
        die("two-call open");
}

int main(int argc, char **argv) {
    bench_name = "aead-quic-bench";
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const long per_round = quick ? 2000 : 20000;
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)i, hp_key[i] = (uint8_t)(0x80 + i);
    for (size_t i = 0; i < sizeof iv; i++) iv[i] = (uint8_t)(0x40 + i);
    printf("QUIC packet protection, one call vs two calls vs the EVP floor (%s)\n", aead_version());
    printf("%-18s %7s | %-34s | %-34s\n", "suite", "payload", "protect ns: one / two / floor", "unprotect ns: one / two");
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        const suite_t *su = &suites[s];
        for (size_t payload = 64; payload <= MAX_PAYLOAD; payload = payload == 64 ? 1200 : MAX_PAYLOAD + 1) {
            job_t j = {0};
            j.chacha = su->alg == AEAD_CHACHA20_POLY1305;
            j.payload = payload;
            if (aead_ctx_new_ex(&j.one, su->alg, AEAD_POLICY_QUIC, key, su->key_len, 0, NULL, iv, 12) != 0 ||
                aead_ctx_new_ex(&j.two, su->alg, AEAD_POLICY_QUIC, key, su->key_len, 0, NULL, iv, 12) != 0 ||
                aead_ctx_new_ex(&j.rx, su->alg, AEAD_POLICY_QUIC, key, su->key_len, 0, NULL, iv, 12) != 0 ||
                aead_hp_new(&j.hp, su->alg, hp_key, su->key_len, NULL) != 0)
                die("context");
            EVP_CIPHER *ac = EVP_CIPHER_fetch(NULL, su->aead, NULL), *hc = EVP_CIPHER_fetch(NULL, su->hp, NULL);
            j.aead = EVP_CIPHER_CTX_new();
            j.hpc = EVP_CIPHER_CTX_new();
            if (ac == NULL || hc == NULL || EVP_EncryptInit_ex2(j.aead, ac, key, NULL, NULL) != 1 ||
                EVP_EncryptInit_ex2(j.hpc, hc, hp_key, NULL, NULL) != 1 || EVP_CIPHER_CTX_set_padding(j.hpc, 0) != 1)
                die("floor contexts");
            /* The packet every unprotect opens: packet number 1. */
            header(protected_pkt);
            aead_ctx *tx;
            if (aead_ctx_new_ex(&tx, su->alg, AEAD_POLICY_QUIC, key, su->key_len, 0, NULL, iv, 12) != 0 ||
                aead_quic_protect(tx, j.hp, 1, protected_pkt, HDR, payload, sizeof protected_pkt) < 0)
                die("reference packet");
            aead_ctx_free(tx);
            static const bench_way ways[5] = {protect_one, protect_two, protect_floor, unprotect_one, unprotect_two};
            double t[5][ROUNDS], r_two[ROUNDS], r_floor[ROUNDS], r_un[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                for (int k = 0; k < 5; k++) t[k][r] = time_way(ways[k], &j, per_round);
                r_two[r] = t[0][r] / t[1][r];
                r_floor[r] = t[0][r] / t[2][r];
                r_un[r] = t[3][r] / t[4][r];
            }
            double m[5];
            for (int k = 0; k < 5; k++) m[k] = median(t[k], ROUNDS);
            printf("%-18s %5zu B | %6.0f / %6.0f / %6.0f (one/two %.3f, one/floor %.3f) | %6.0f / %6.0f (%.3f)\n",
                   su->name, payload, m[0], m[1], m[2], median(r_two, ROUNDS), median(r_floor, ROUNDS), m[3], m[4],
                   median(r_un, ROUNDS));
            EVP_CIPHER_CTX_free(j.aead);
            EVP_CIPHER_CTX_free(j.hpc);
            EVP_CIPHER_free(ac);
            EVP_CIPHER_free(hc);
            aead_ctx_free(j.one);
            aead_ctx_free(j.two);
            aead_ctx_free(j.rx);
            aead_hp_free(j.hp);
        }
    }
    return 0;
}
