/* Side-by-side throughput of the AEGIS family (libaegis inside libaead) against libaead's own AES-128-GCM
 * and ChaCha20-Poly1305 on the same call, aead_seal_open, one keyed context each, 16-byte tags, 13 bytes
 * of AAD. Interleaved rounds: in every round each algorithm seals each size for about the same time, and
 * a round's ratio is its AEGIS rate over its AES-128-GCM rate; the table gives the medians of rates and
 * of ratios over the rounds, so load and frequency drift fall on both sides of a ratio alike. Rounds are
 * timed by the thread's CPU clock (time other processes take does not count).
 * Usage: aead-aegis-bench [--quick] [--json FILE] */
#define _POSIX_C_SOURCE 200809L
#include <openssl/crypto.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "aead.h"
#include "timing.h"

enum { MAX_MSG = 65536, AAD_LEN = 13, TAG = 16, MAX_ROUNDS = 31 };

typedef struct {
    int alg;
    const char *name;
    size_t key_len, nonce_len;
} alg_t;
static const alg_t algs[] = {{AEAD_AES_128_GCM, "AES-128-GCM", 16, 12}, {AEAD_CHACHA20_POLY1305, "ChaCha20-Poly1305", 32, 12},
                             {AEAD_AEGIS_128L, "AEGIS-128L", 16, 16},   {AEAD_AEGIS_128X2, "AEGIS-128X2", 16, 16},
                             {AEAD_AEGIS_128X4, "AEGIS-128X4", 16, 16}, {AEAD_AEGIS_256, "AEGIS-256", 32, 32},
                             {AEAD_AEGIS_256X2, "AEGIS-256X2", 32, 32}, {AEAD_AEGIS_256X4, "AEGIS-256X4", 32, 32}};
enum { N_ALGS = sizeof algs / sizeof algs[0] };
static const size_t sizes[] = {64, 1024, 16384, 65536};
enum { N_SIZES = sizeof sizes / sizeof sizes[0] };

static uint8_t key[32], nonce[32], aad[AAD_LEN], msg[MAX_MSG], out[MAX_MSG + TAG];

static double cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Bytes per ns (= GB/s) of n seals of size bytes. */
static double rate(aead_ctx *ctx, size_t nonce_len, size_t size, long n) {
    const double t0 = cpu_ns();
    for (long i = 0; i < n; i++) {
        nonce[0] = (uint8_t)i; /* a fresh nonce per call, as a caller would use */
        if (aead_seal_open(ctx, AEAD_SEAL, nonce, nonce_len, aad, AAD_LEN, msg, size, out, size + TAG) !=
            (int64_t)(size + TAG))
            die("aead_seal_open");
    }
    return (double)size * (double)n / (cpu_ns() - t0);
}

/* What the CPU offers libaegis (its dispatch picks from these at run time: docs/algorithms.md). */
static void cpu_line(void) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0, b7 = 0, c7 = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && __get_cpuid_count(7, 0, &a, &b7, &c7, &d))
        printf("CPU: AES-NI %s, AVX2 %s, VAES %s, AVX-512F %s\n", c >> 25 & 1 ? "yes" : "no", b7 >> 5 & 1 ? "yes" : "no",
               c7 >> 9 & 1 ? "yes" : "no", b7 >> 16 & 1 ? "yes" : "no");
#endif
}

static double med(const double *v, int n) { /* median() sorts: a copy */
    double t[MAX_ROUNDS];
    memcpy(t, v, (size_t)n * sizeof *v);
    return median(t, n);
}

int main(int argc, char **argv) {
    bench_name = "aead-aegis-bench";
    int rounds = 15;
    double budget_ns = 4e6; /* per algorithm, size and round */
    FILE *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            rounds = 3;
            budget_ns = 5e5;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            if ((json = fopen(argv[++i], "w")) == NULL) die("--json: opening the file");
        } else {
            fprintf(stderr, "usage: %s [--quick] [--json FILE]\n", argv[0]);
            return 2;
        }
    }
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 31);
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i + 1);
    aead_ctx *ctx[N_ALGS];
    for (int a = 0; a < N_ALGS; a++)
        if (aead_ctx_new(&ctx[a], algs[a].alg, AEAD_POLICY_NONE, key, algs[a].key_len, TAG) != 0) die("aead_ctx_new");
    /* Calls per measurement: sized once so that each takes about budget_ns. */
    long calls[N_ALGS][N_SIZES];
    for (int a = 0; a < N_ALGS; a++)
        for (int s = 0; s < N_SIZES; s++) {
            const double r = rate(ctx[a], algs[a].nonce_len, sizes[s], 64);
            const double n = budget_ns * r / (double)sizes[s];
            calls[a][s] = n < 16 ? 16 : (long)n;
        }
    static double gbps[N_ALGS][N_SIZES][MAX_ROUNDS], ratio[N_ALGS][N_SIZES][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++)
        for (int s = 0; s < N_SIZES; s++) {
            for (int a = 0; a < N_ALGS; a++) gbps[a][s][r] = rate(ctx[a], algs[a].nonce_len, sizes[s], calls[a][s]);
            for (int a = 0; a < N_ALGS; a++) ratio[a][s][r] = gbps[a][s][r] / gbps[0][s][r];
        }
    printf("AEGIS against AES-128-GCM and ChaCha20-Poly1305, libaead on %s; seal, 16-byte tags, %d AAD bytes;\n"
           "median of %d interleaved rounds (thread CPU time): GB/s, and (x) the ratio to AES-128-GCM\n",
           OpenSSL_version(OPENSSL_VERSION), AAD_LEN, rounds);
    cpu_line();
    printf("\n| algorithm |");
    for (int s = 0; s < N_SIZES; s++) printf(" %zu B |", sizes[s]);
    printf("\n|---|");
    for (int s = 0; s < N_SIZES; s++) printf("---|");
    printf("\n");
    if (json != NULL) fprintf(json, "{\"libcrypto\": \"%s\", \"rounds\": %d, \"rows\": [", OpenSSL_version(OPENSSL_VERSION), rounds);
    for (int a = 0; a < N_ALGS; a++) {
        printf("| %s |", algs[a].name);
        for (int s = 0; s < N_SIZES; s++) {
            const double g = med(gbps[a][s], rounds), x = med(ratio[a][s], rounds);
            printf(" %.2f (%.2fx) |", g, x);
            if (json != NULL)
                fprintf(json, "%s\n {\"algorithm\": \"%s\", \"size\": %zu, \"gbps\": %.4f, \"ratio_to_aes_128_gcm\": %.4f}",
                        a == 0 && s == 0 ? "" : ",", algs[a].name, sizes[s], g, x);
        }
        printf("\n");
    }
    if (json != NULL) {
        fprintf(json, "\n]}\n");
        if (fclose(json) != 0) die("writing the JSON");
    }
    for (int a = 0; a < N_ALGS; a++) aead_ctx_free(ctx[a]);
    return 0;
}
