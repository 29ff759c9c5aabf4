/* Built against an installed libaead through pkg-config: header, library and .pc must all be there. */
#include <stdio.h>
#include <string.h>

#include <aead.h>

int main(void) {
    static const uint8_t key[32] = {1}, nonce[12] = {2}, aad[5] = {3};
    const char *msg = "installed and linked";
    uint8_t sealed[64], opened[64];
    aead_ctx *ctx = NULL;
    if (aead_abi_version() != AEAD_ABI_VERSION || aead_ctx_new(&ctx, AEAD_AES_256_GCM, AEAD_POLICY_NONE, key, 32, 0) != 0)
        return 1;
    const int64_t n = aead_seal_open(ctx, AEAD_SEAL, nonce, 12, aad, 5, (const uint8_t *)msg, strlen(msg), sealed, sizeof sealed);
    const int64_t m = aead_seal_open(ctx, AEAD_OPEN, nonce, 12, aad, 5, sealed, (size_t)n, opened, sizeof opened);
    aead_ctx_free(ctx);
    if (n != (int64_t)strlen(msg) + 16 || m != (int64_t)strlen(msg) || memcmp(opened, msg, strlen(msg)) != 0) return 1;
    printf("consumer: %s: round trip ok\n", aead_version());
    return 0;
}
