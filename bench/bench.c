/* Side-by-side cost of one seal/open: libaead's aead_seal_open against three hand-written loops: the
 * EVP floor (one keyed EVP_CIPHER_CTX reused, IV set per call), the direct floor (one keyed provider
 * context reused, driven through the cipher implementation's own OSSL_DISPATCH functions, the calls
 * libaead's shim makes by default: docs/libcrypto.md) and the naive way (a fresh EVP context keyed per
 * call). All run in this process, back to back in many short rounds; times are medians over rounds and
 * ratios are medians of each round's own ratio, so the shared machine's noise and slow drift (frequency
 * changes, the other core's load) fall on both sides of a ratio alike.
 * Usage: aead-bench [--quick] [--cpu] [--json FILE]   (FILE: every row machine-readably, for bench/plot.py;
 *        --cpu: time each round by the thread's CPU clock, not the wall clock, so that time other
 *        processes of a busy shared machine take from this one does not count; the thread rows stay
 *        wall-clock rates)
 *        aead-bench --only ours|floor|direct|naive SIZE COUNT [chacha]   (one way only, AES-128-GCM seal or
 *        ChaCha20-Poly1305's: for `valgrind --tool=callgrind`, whose instruction counts do not depend on
 *        the machine's load)
 *        aead-bench --only tls13|counter|xor-counter|ssh SIZE COUNT [chacha]   (libaead's seal under that
 *        nonce policy, one record number after another: what a policy's check-and-commit adds) */
#define _POSIX_C_SOURCE 200809L
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aead.h"
#include "timing.h"

enum { MAX_MSG = 16384, AAD_LEN = 13, TAG = 16 };

typedef struct {
    int alg;
    const char *name;       /* libaead name */
    const char *evp_name;   /* EVP fetch name */
} alg_t;

static const alg_t algs[] = {{AEAD_AES_128_GCM, "AES-128-GCM", "AES-128-GCM"},
                             {AEAD_CHACHA20_POLY1305, "ChaCha20-Poly1305", "ChaCha20-Poly1305"}};
static const size_t sizes[] = {0, 64, 1024, 16384};

static uint8_t key[32], nonce[12], aad[AAD_LEN], msg[MAX_MSG], sealed[MAX_MSG + TAG], out[MAX_MSG + TAG];

static clockid_t round_clock = CLOCK_MONOTONIC; /* --cpu: CLOCK_THREAD_CPUTIME_ID */

static double round_ns(void) {
    struct timespec t;
    clock_gettime(round_clock, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The implementation's own functions, from its provider's dispatch table (found as libaead finds them). */
typedef struct {
    void *provctx;
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *einit;
    OSSL_FUNC_cipher_decrypt_init_fn *dinit;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
} direct_fns;

/* ---- the four ways of doing one operation ---- */
typedef struct {
    aead_ctx *ctx;            /* libaead */
    EVP_CIPHER *cipher;       /* fetched once */
    EVP_CIPHER_CTX *keyed;    /* EVP floor: one keyed context, reused */
    direct_fns fn;            /* direct floor: the cipher's provider functions */
    void *pkeyed;             /*   and one keyed provider context, reused */
    int op;
    size_t len;
} job_t;

/* Finds the fetched cipher's implementation in its provider (the exact first name: AES-128-GCM is a
 * prefix of AES-128-GCM-SIV) and keys a provider context with it. */
static void direct_setup(job_t *j) {
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(j->cipher);
    const char *name = EVP_CIPHER_get0_name(j->cipher);
    int no_store = 0;
    const OSSL_ALGORITHM *algs = prov ? OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_store) : NULL;
    if (algs == NULL) die("OSSL_PROVIDER_query_operation");
    memset(&j->fn, 0, sizeof j->fn);
    size_t n = strlen(name);
    for (const OSSL_ALGORITHM *a = algs; a->algorithm_names != NULL; ++a) {
        if (strncmp(a->algorithm_names, name, n) != 0 || (a->algorithm_names[n] != 0 && a->algorithm_names[n] != ':'))
            continue;
        for (const OSSL_DISPATCH *f = a->implementation; f->function_id != 0; ++f) switch (f->function_id) {
            case OSSL_FUNC_CIPHER_NEWCTX: j->fn.newctx = OSSL_FUNC_cipher_newctx(f); break;
            case OSSL_FUNC_CIPHER_FREECTX: j->fn.freectx = OSSL_FUNC_cipher_freectx(f); break;
            case OSSL_FUNC_CIPHER_ENCRYPT_INIT: j->fn.einit = OSSL_FUNC_cipher_encrypt_init(f); break;
            case OSSL_FUNC_CIPHER_DECRYPT_INIT: j->fn.dinit = OSSL_FUNC_cipher_decrypt_init(f); break;
            case OSSL_FUNC_CIPHER_UPDATE: j->fn.update = OSSL_FUNC_cipher_update(f); break;
            case OSSL_FUNC_CIPHER_FINAL: j->fn.final = OSSL_FUNC_cipher_final(f); break;
            case OSSL_FUNC_CIPHER_GET_CTX_PARAMS: j->fn.get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(f); break;
            case OSSL_FUNC_CIPHER_SET_CTX_PARAMS: j->fn.set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(f); break;
            default: break;
        }
        break;
    }
    OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, algs);
    if (!j->fn.newctx || !j->fn.freectx || !j->fn.einit || !j->fn.dinit || !j->fn.update || !j->fn.final ||
        !j->fn.get_ctx_params || !j->fn.set_ctx_params)
        die("finding the cipher's dispatch table");
    j->fn.provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    j->pkeyed = j->fn.newctx(j->fn.provctx);
    if (j->pkeyed == NULL ||
        j->fn.einit(j->pkeyed, key, (size_t)EVP_CIPHER_get_key_length(j->cipher), NULL, 0, NULL) != 1)
        die("direct setup");
}

static void direct_teardown(job_t *j) { j->fn.freectx(j->pkeyed); }

/* A sequenced policy's seal: the next record number in the nonce's last 8 bytes (IV, start and mask 0),
 * and the AAD length the policy takes (TLS 1.3's 5 bytes where any is taken, to compare like for like). */
static uint64_t next_seq;
static size_t seq_aad_len = AAD_LEN;
static void ours_seq(job_t *j) {
    for (int i = 0; i < 8; ++i) nonce[4 + i] = (uint8_t)(next_seq >> (56 - 8 * i));
    ++next_seq;
    if (aead_seal_open(j->ctx, AEAD_SEAL, nonce, 12, aad, seq_aad_len, msg, j->len, out, sizeof out) < 0)
        die("aead_seal_open (sequenced)");
}

static void ours(job_t *j) {
    size_t in_len = j->op == AEAD_SEAL ? j->len : j->len + TAG;
    int64_t r = aead_seal_open(j->ctx, j->op, nonce, 12, aad, AAD_LEN, j->op == AEAD_SEAL ? msg : sealed, in_len,
                               out, sizeof out);
    if (r < 0) die("aead_seal_open");
}

/* One operation on a keyed context: exactly the EVP calls libaead's shim makes. */
static void evp_op(EVP_CIPHER_CTX *c, int op, size_t len) {
    int n = 0;
    if (op == AEAD_SEAL) {
        if (EVP_CipherInit_ex2(c, NULL, NULL, nonce, 1, NULL) != 1 || EVP_CipherUpdate(c, NULL, &n, aad, AAD_LEN) != 1 ||
            (len && EVP_CipherUpdate(c, out, &n, msg, (int)len) != 1) || EVP_CipherFinal_ex(c, out + len, &n) != 1)
            die("EVP seal");
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + len, TAG), OSSL_PARAM_END};
        if (EVP_CIPHER_CTX_get_params(c, p) != 1) die("EVP get tag");
    } else {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, sealed + len, TAG), OSSL_PARAM_END};
        if (EVP_CipherInit_ex2(c, NULL, NULL, nonce, 0, NULL) != 1 || EVP_CIPHER_CTX_set_params(c, p) != 1 ||
            EVP_CipherUpdate(c, NULL, &n, aad, AAD_LEN) != 1 || (len && EVP_CipherUpdate(c, out, &n, sealed, (int)len) != 1) ||
            EVP_CipherFinal_ex(c, out + len, &n) != 1)
            die("EVP open");
    }
}

static void floor_way(job_t *j) { evp_op(j->keyed, j->op, j->len); }

/* The same operation on the keyed provider context, through the implementation's functions: the calls
 * libaead's direct path makes (an AAD update needs outsize >= its length even with no output). */
static void direct_way(job_t *j) {
    const direct_fns *f = &j->fn;
    void *c = j->pkeyed;
    size_t n = 0, len = j->len;
    if (j->op == AEAD_SEAL) {
        if (f->einit(c, NULL, 0, nonce, 12, NULL) != 1 || f->update(c, NULL, &n, AAD_LEN, aad, AAD_LEN) != 1 ||
            (len && f->update(c, out, &n, len, msg, len) != 1) || f->final(c, out + len, &n, 0) != 1)
            die("direct seal");
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + len, TAG), OSSL_PARAM_END};
        if (f->get_ctx_params(c, p) != 1) die("direct get tag");
    } else {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, sealed + len, TAG), OSSL_PARAM_END};
        if (f->dinit(c, NULL, 0, nonce, 12, NULL) != 1 || f->set_ctx_params(c, p) != 1 ||
            f->update(c, NULL, &n, AAD_LEN, aad, AAD_LEN) != 1 || (len && f->update(c, out, &n, len, sealed, len) != 1) ||
            f->final(c, out + len, &n, 0) != 1)
            die("direct open");
    }
}

static void naive_way(job_t *j) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (c == NULL || EVP_CipherInit_ex2(c, j->cipher, key, NULL, j->op == AEAD_SEAL, NULL) != 1) die("EVP new");
    evp_op(c, j->op, j->len);
    EVP_CIPHER_CTX_free(c);
}

typedef void (*way_fn)(job_t *);

static double run(way_fn f, job_t *j, long iters) {
    double t0 = round_ns();
    for (long i = 0; i < iters; ++i) f(j);
    return (round_ns() - t0) / (double)iters;
}

/* ---- two threads on one libaead context ---- */
typedef struct {
    aead_ctx *ctx;
    long iters;
    size_t len;
    double ns;
} thread_job_t;

static void *thread_seal(void *arg) {
    thread_job_t *t = arg;
    uint8_t local_out[MAX_MSG + TAG];
    double t0 = now_ns();
    for (long i = 0; i < t->iters; ++i)
        if (aead_seal_open(t->ctx, AEAD_SEAL, nonce, 12, aad, AAD_LEN, msg, t->len, local_out, sizeof local_out) < 0)
            die("threaded seal");
    t->ns = now_ns() - t0;
    return NULL;
}

static double threads_rate(aead_ctx *ctx, int nthreads, size_t len, long iters) {
    pthread_t th[2];
    thread_job_t jobs[2];
    double t0 = now_ns();
    for (int i = 0; i < nthreads; ++i) {
        jobs[i] = (thread_job_t){ctx, iters, len, 0};
        if (pthread_create(&th[i], NULL, thread_seal, &jobs[i]) != 0) die("pthread_create");
    }
    for (int i = 0; i < nthreads; ++i) pthread_join(th[i], NULL);
    return (double)(nthreads * iters) / ((now_ns() - t0) / 1e9); /* ops per second */
}

static int only(const char *way, size_t len, long count, const alg_t *alg) {
    job_t j = {0};
    static const struct {
        const char *way;
        int policy;
        size_t aad_len;
    } sequenced[] = {{"tls13", AEAD_POLICY_TLS13, 5}, {"counter", AEAD_POLICY_COUNTER, 5},
                     {"xor-counter", AEAD_POLICY_XOR_COUNTER, 5}, {"ssh", AEAD_POLICY_SSH, 4}};
    int policy = AEAD_POLICY_NONE;
    for (size_t i = 0; i < sizeof sequenced / sizeof sequenced[0]; ++i)
        if (strcmp(way, sequenced[i].way) == 0) {
            policy = sequenced[i].policy;
            seq_aad_len = sequenced[i].aad_len;
        }
    memset(nonce, 0, sizeof nonce);
    if (aead_ctx_new(&j.ctx, alg->alg, policy, key, aead_key_size(alg->alg), 0) != 0) die("aead_ctx_new");
    j.cipher = EVP_CIPHER_fetch(NULL, alg->evp_name, NULL);
    j.keyed = EVP_CIPHER_CTX_new();
    if (!j.cipher || !j.keyed || EVP_CipherInit_ex2(j.keyed, j.cipher, key, NULL, 1, NULL) != 1) die("EVP setup");
    direct_setup(&j);
    j.op = AEAD_SEAL;
    j.len = len;
    way_fn f = policy != AEAD_POLICY_NONE       ? ours_seq
               : strcmp(way, "ours") == 0     ? ours
               : strcmp(way, "floor") == 0  ? floor_way
               : strcmp(way, "direct") == 0 ? direct_way
                                            : naive_way;
    for (long i = 0; i < count; ++i) f(&j);
    direct_teardown(&j);
    EVP_CIPHER_CTX_free(j.keyed);
    EVP_CIPHER_free(j.cipher);
    aead_ctx_free(j.ctx);
    return 0;
}

/* One JSON object per measured row, written as the table is printed. */
static FILE *json;
static int json_rows;

/* ratio_to_floor: to the EVP floor; ratio_to_direct: to the direct floor. */
static void json_row(const char *impl, const char *alg, const char *op, size_t bytes, double ns, double ratio,
                     double ratio_direct) {
    if (json == NULL) return;
    fprintf(json, "%s\n  {\"bench\": \"c\", \"impl\": \"%s\", \"alg\": \"%s\", \"op\": \"%s\", \"bytes\": %zu, "
                  "\"ns\": %.1f, \"ratio_to_floor\": %.4f, \"ratio_to_direct\": %.4f, \"libcrypto\": \"%s\"}",
            json_rows++ ? "," : "[", impl, alg, op, bytes, ns, ratio, ratio_direct, OpenSSL_version(OPENSSL_VERSION));
}

int main(int argc, char **argv) {
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "--only") == 0)
        return only(argv[2], (size_t)atol(argv[3]), atol(argv[4]), &algs[argc == 6 && strcmp(argv[5], "chacha") == 0]);
    int quick = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--cpu") == 0) {
            round_clock = CLOCK_THREAD_CPUTIME_ID;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            if ((json = fopen(argv[++i], "w")) == NULL) die("--json: cannot open the file");
        } else {
            fprintf(stderr, "usage: %s [--quick] [--cpu] [--json FILE] | --only ours|floor|direct|naive SIZE COUNT [chacha]\n", argv[0]);
            return 2;
        }
    }
    const int rounds = quick ? 5 : 31;
    for (size_t i = 0; i < sizeof key; ++i) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof msg; ++i) msg[i] = (uint8_t)i;

    /* Bring the core to its working frequency before the first measurement. */
    for (double t0 = now_ns(); now_ns() - t0 < 300e6;) (void)aead_abi_version();
    printf("%s; %d rounds, medians, %s clock; AAD 13 bytes, 12-byte nonce, 16-byte tag\n", aead_version(), rounds,
           round_clock == CLOCK_MONOTONIC ? "wall" : "thread CPU");
    printf("| algorithm | bytes | op | libaead ns/op | EVP floor ns/op | direct floor ns/op | naive ns/op | libaead MB/s "
           "| libaead / EVP | libaead / direct | direct / EVP | naive / EVP |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t a = 0; a < sizeof algs / sizeof *algs; ++a) {
        const size_t key_len = aead_key_size(algs[a].alg);
        job_t j = {0};
        if (aead_ctx_new(&j.ctx, algs[a].alg, AEAD_POLICY_NONE, key, key_len, 0) != 0) die("aead_ctx_new");
        j.cipher = EVP_CIPHER_fetch(NULL, algs[a].evp_name, NULL);
        j.keyed = EVP_CIPHER_CTX_new();
        if (!j.cipher || !j.keyed || EVP_CipherInit_ex2(j.keyed, j.cipher, key, NULL, 1, NULL) != 1) die("EVP setup");
        direct_setup(&j);
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
            j.len = sizes[s];
            if (aead_seal_open(j.ctx, AEAD_SEAL, nonce, 12, aad, AAD_LEN, msg, j.len, sealed, sizeof sealed) < 0)
                die("seal for open");
            for (int op = AEAD_SEAL; op <= AEAD_OPEN; ++op) {
                j.op = op;
                /* about 4 ms a round at the floor's speed */
                long iters = (long)(4e6 / (150.0 + (double)j.len * 0.5));
                if (quick) iters /= 4;
                enum { W = 4 };
                way_fn ways[W] = {ours, floor_way, direct_way, naive_way};
                double t[W][64], ratio_floor[64], ratio_direct[64], direct_floor[64], ratio_naive[64];
                for (int w = 0; w < W; ++w) run(ways[w], &j, iters / 4 + 1); /* warm up */
                for (int r = 0; r < rounds; ++r) {
                    for (int w = 0; w < W; ++w) t[w][r] = run(ways[w], &j, iters);
                    ratio_floor[r] = t[0][r] / t[1][r];
                    ratio_direct[r] = t[0][r] / t[2][r];
                    direct_floor[r] = t[2][r] / t[1][r];
                    ratio_naive[r] = t[3][r] / t[1][r];
                }
                double m[W];
                for (int w = 0; w < W; ++w) m[w] = median(t[w], rounds);
                const double rf = median(ratio_floor, rounds), rd = median(ratio_direct, rounds),
                             df = median(direct_floor, rounds), nf = median(ratio_naive, rounds);
                printf("| %s | %zu | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f | %.3f | %.3f | %.2f |\n", algs[a].name,
                       j.len, op == AEAD_SEAL ? "seal" : "open", m[0], m[1], m[2], m[3], (double)j.len * 1e3 / m[0], rf, rd,
                       df, nf);
                fflush(stdout);
                const char *opn = op == AEAD_SEAL ? "seal" : "open";
                json_row("libaead", algs[a].name, opn, j.len, m[0], rf, rd);
                json_row("evp-floor", algs[a].name, opn, j.len, m[1], 1.0, 1.0 / df);
                json_row("direct-floor", algs[a].name, opn, j.len, m[2], df, 1.0);
                json_row("evp-fresh-context", algs[a].name, opn, j.len, m[3], nf, nf / df);
            }
        }
        /* Concurrency: the same context from two threads at once (this machine has 2 cores). */
        if (a == 0) {
            /* Long enough (about 100 ms a sample) that waking the second core up is noise: with 2-5 ms
             * samples a VM's idle vCPU wake-up made 2 threads look no faster than one. */
            const long iters = quick ? 300000 : 1000000;
            const int trounds = quick ? 3 : 7;
            double r1[64], r2[64];
            for (int r = 0; r < trounds; ++r) {
                r1[r] = threads_rate(j.ctx, 1, 64, iters);
                r2[r] = threads_rate(j.ctx, 2, 64, iters);
            }
            const double one = median(r1, trounds), two = median(r2, trounds);
            printf("\nAES-128-GCM 64-byte seal, one context shared: 1 thread %.2f Mop/s, 2 threads %.2f Mop/s, speed-up %.2fx\n\n",
                   one / 1e6, two / 1e6, two / one);
            if (json != NULL)
                fprintf(json, "%s\n  {\"bench\": \"c-threads\", \"alg\": \"%s\", \"op\": \"seal\", \"bytes\": 64, "
                              "\"one_thread_mops\": %.2f, \"two_threads_mops\": %.2f, \"speedup\": %.2f, \"libcrypto\": \"%s\"}",
                        json_rows++ ? "," : "[", algs[a].name, one / 1e6, two / 1e6, two / one,
                        OpenSSL_version(OPENSSL_VERSION));
        }
        direct_teardown(&j);
        EVP_CIPHER_CTX_free(j.keyed);
        EVP_CIPHER_free(j.cipher);
        aead_ctx_free(j.ctx);
    }
    if (json != NULL) {
        fprintf(json, "\n]\n");
        if (fclose(json) != 0) die("--json: write failed");
    }
    return 0;
}
