/*
 * One process, two libcrypto copies: this program links the SYSTEM libcrypto and makes its own EVP
 * AES-GCM calls, and also links a libaead built with -Dlibcrypto=vendored (its OpenSSL hidden inside).
 * Checks: on random inputs both produce the same bytes (seal) and open each other's output; each side
 * reports its own library (aead_version() names the vendored OpenSSL, OpenSSL_version() the system one).
 * Usage: system_and_vendored <text the vendored version must contain> <system version prefix>
 */
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aead.h"

static int passed, failed;
#define CHECK(cond, ...)                                       \
    do {                                                       \
        if (cond) {                                            \
            ++passed;                                          \
        } else {                                               \
            ++failed;                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                      \
            fputc('\n', stderr);                               \
        }                                                      \
    } while (0)

/* The system libcrypto's own AES-GCM: seal (enc = 1) writes ciphertext || 16-byte tag; open (enc = 0)
 * reads that and writes the plaintext. Returns 1 on success (open: the tag verified). */
static int evp_gcm(int enc, const char *name, const unsigned char *key, const unsigned char *nonce,
                   const unsigned char *aad, int aad_len, const unsigned char *in, int pt_len,
                   unsigned char *out) {
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, name, NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *tag = enc ? out + pt_len : (unsigned char *)in + pt_len;
    int len = 0, ok = cipher != NULL && ctx != NULL &&
                      EVP_CipherInit_ex2(ctx, cipher, key, nonce, enc, NULL) == 1 &&
                      (aad_len == 0 || EVP_CipherUpdate(ctx, NULL, &len, aad, aad_len) == 1) &&
                      EVP_CipherUpdate(ctx, out, &len, in, pt_len) == 1 &&
                      (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) == 1) &&
                      EVP_CipherFinal_ex(ctx, out + len, &len) == 1 &&
                      (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

static unsigned rand_below(unsigned n) {
    unsigned v = 0;
    RAND_bytes((unsigned char *)&v, sizeof v);
    return v % n;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <vendored version text> <system version prefix>\n", argv[0]);
        return 2;
    }
    const char *lib_version = aead_version(), *sys_version = OpenSSL_version(OPENSSL_VERSION);
    printf("aead_version(): %s\nOpenSSL_version(): %s\n", lib_version, sys_version);
    CHECK(strstr(lib_version, argv[1]) != NULL, "aead_version() does not name %s", argv[1]);
    CHECK(strncmp(sys_version, argv[2], strlen(argv[2])) == 0, "system libcrypto is not %s", argv[2]);
    CHECK(strstr(lib_version, sys_version) == NULL, "libaead runs on the system libcrypto");

    static const struct { int alg; const char *name; size_t key_len; } algs[] = {
        {AEAD_AES_128_GCM, "AES-128-GCM", 16}, {AEAD_AES_256_GCM, "AES-256-GCM", 32}};
    enum { MAX_PT = 20000 };
    static unsigned char key[32], nonce[12], aad[64], pt[MAX_PT], ours[MAX_PT + 16], theirs[MAX_PT + 16],
        back[MAX_PT];
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; ++a) {
        for (int round = 0; round < 200; ++round) {
            const int pt_len = round < 4 ? (int[]){0, 1, 16, 64}[round] : (int)rand_below(MAX_PT);
            const int aad_len = (int)rand_below(sizeof aad + 1);
            RAND_bytes(key, sizeof key);
            RAND_bytes(nonce, sizeof nonce);
            RAND_bytes(aad, sizeof aad);
            RAND_bytes(pt, pt_len > 0 ? pt_len : 1);
            aead_ctx *ctx = NULL;
            if (aead_ctx_new(&ctx, algs[a].alg, AEAD_POLICY_NONE, key, algs[a].key_len, 0) != 0) {
                CHECK(0, "aead_ctx_new %s", algs[a].name);
                break;
            }
            const int64_t n = aead_seal_open(ctx, AEAD_SEAL, nonce, 12, aad, (size_t)aad_len, pt,
                                             (size_t)pt_len, ours, sizeof ours);
            const int evp_ok = evp_gcm(1, algs[a].name, key, nonce, aad, aad_len, pt, pt_len, theirs);
            CHECK(n == pt_len + 16 && evp_ok && memcmp(ours, theirs, (size_t)n) == 0,
                  "%s seal of %d bytes differs from the system EVP's", algs[a].name, pt_len);
            CHECK(evp_gcm(0, algs[a].name, key, nonce, aad, aad_len, ours, pt_len, back) &&
                      memcmp(back, pt, (size_t)pt_len) == 0,
                  "system EVP cannot open libaead's %s output (%d bytes)", algs[a].name, pt_len);
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce, 12, aad, (size_t)aad_len, theirs,
                                 (size_t)pt_len + 16, back, sizeof back) == pt_len &&
                      memcmp(back, pt, (size_t)pt_len) == 0,
                  "libaead cannot open the system EVP's %s output (%d bytes)", algs[a].name, pt_len);
            aead_ctx_free(ctx);
        }
    }
    printf("system_and_vendored: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
