/*
 * dlopen + dlclose of a vendored libaead, several times, with a provider module (the FIPS test
 * provider, when OPENSSL_CONF selects it) loaded through libaead's hidden libcrypto. Each cycle opens
 * the library, makes an AES-GCM context with the given property query, checks that it seals (and
 * opens its own output) and which provider served it, then closes the library. libaead.so is linked
 * with -z nodelete, so dlclose leaves it mapped: the provider's pointers into that libcrypto stay
 * valid and neither the next cycle nor process exit crashes.
 * Usage: dlopen_cycles <path to libaead.so.1> <cycles> <property query or ""> <expected provider>
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aead.h"

typedef int (*ctx_new_ex_fn)(aead_ctx **, int, int, const uint8_t *, size_t, size_t, const char *,
                             const uint8_t *, size_t);
typedef void (*ctx_free_fn)(aead_ctx *);
typedef int64_t (*seal_open_fn)(aead_ctx *, int, const uint8_t *, size_t, const uint8_t *, size_t,
                                const uint8_t *, size_t, uint8_t *, size_t);
typedef const char *(*text_fn)(void);
typedef const char *(*provider_fn)(const aead_ctx *);

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (p == NULL) {
        fprintf(stderr, "dlopen_cycles: %s missing: %s\n", name, dlerror());
        exit(1);
    }
    return p;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s <libaead.so.1> <cycles> <properties> <expected provider>\n", argv[0]);
        return 2;
    }
    const int cycles = atoi(argv[2]);
    const char *props = argv[3][0] != 0 ? argv[3] : NULL;
    for (int i = 0; i < cycles; ++i) {
        void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            fprintf(stderr, "dlopen_cycles: dlopen: %s\n", dlerror());
            return 1;
        }
        ctx_new_ex_fn ctx_new_ex = (ctx_new_ex_fn)sym(lib, "aead_ctx_new_ex");
        ctx_free_fn ctx_free = (ctx_free_fn)sym(lib, "aead_ctx_free");
        seal_open_fn seal_open = (seal_open_fn)sym(lib, "aead_seal_open");
        provider_fn provider = (provider_fn)sym(lib, "aead_ctx_provider");
        text_fn version = (text_fn)sym(lib, "aead_version");

        const uint8_t key[16] = {1, 2, 3}, nonce[12] = {4}, aad[13] = {5}, pt[64] = {6};
        uint8_t sealed[80], back[64];
        aead_ctx *ctx = NULL;
        int rc = ctx_new_ex(&ctx, AEAD_AES_128_GCM, AEAD_POLICY_NONE, key, sizeof key, 0, props, NULL, 0);
        if (rc != 0) {
            fprintf(stderr, "dlopen_cycles: cycle %d: aead_ctx_new_ex(%s) = %d\n", i, argv[3], rc);
            return 1;
        }
        const char *prov = provider(ctx);
        if (strcmp(prov, argv[4]) != 0 ||
            seal_open(ctx, AEAD_SEAL, nonce, 12, aad, 13, pt, 64, sealed, sizeof sealed) != 80 ||
            seal_open(ctx, AEAD_OPEN, nonce, 12, aad, 13, sealed, 80, back, sizeof back) != 64 ||
            memcmp(back, pt, 64) != 0) {
            fprintf(stderr, "dlopen_cycles: cycle %d: provider '%s' (expected '%s') or round trip failed\n",
                    i, prov, argv[4]);
            return 1;
        }
        if (i == 0) printf("dlopen_cycles: %s, AES-128-GCM from provider '%s'\n", version(), prov);
        ctx_free(ctx);
        if (dlclose(lib) != 0) {
            fprintf(stderr, "dlopen_cycles: dlclose: %s\n", dlerror());
            return 1;
        }
        /* -z nodelete: still mapped after the last reference is gone. */
        void *again = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
        if (again == NULL) {
            fprintf(stderr, "dlopen_cycles: libaead was unloaded by dlclose (not linked -z nodelete?)\n");
            return 1;
        }
        dlclose(again);
    }
    printf("dlopen_cycles: %d dlopen/dlclose cycles passed\n", cycles);
    return 0;
}
