"""One Python process with the system libcrypto (ssl, hashlib), pyca/cryptography's own OpenSSL, and a
vendored libaead loaded through cffi's ffi.dlopen: each works, their AES-GCM outputs agree byte for byte,
and the process then exits cleanly (the caller checks the exit code: a crash at exit shows there).
Usage: python3 python_process.py <libaead.so.1> <property query or ""> <expected provider> [<openssl.cnf>]
With an openssl.cnf (tests/fips/env.sh's FIPS-only one), OPENSSL_CONF is set only after the system
libcrypto and pyca's OpenSSL have initialised, so that only libaead's hidden copy loads the provider
module: one fips.so file cannot serve two libcrypto copies at once (docs/libcrypto.md).
"""
import hashlib
import os
import ssl
import sys

import cffi
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

CDEF = """
typedef struct aead_ctx aead_ctx;
int aead_ctx_new_ex(aead_ctx **ctx_out, int alg, int policy, const uint8_t *key, size_t key_len,
                    size_t tag_len, const char *properties, const uint8_t *iv, size_t iv_len);
void aead_ctx_free(aead_ctx *ctx);
int64_t aead_seal_open(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap);
const char *aead_version(void);
const char *aead_ctx_provider(const aead_ctx *ctx);
"""
AES_128_GCM, AES_256_GCM, SEAL = 1, 3, 1


def main() -> int:
    path, props, expected_provider = sys.argv[1], sys.argv[2].encode() or None, sys.argv[3]
    # The system libcrypto, through the standard library, and pyca's own OpenSSL: both initialised now.
    ssl.create_default_context()
    assert hashlib.sha256(b"abc").hexdigest().startswith("ba7816bf")
    assert len(AESGCM(bytes(16)).encrypt(bytes(12), b"", None)) == 16
    if len(sys.argv) > 4:
        os.environ["OPENSSL_CONF"] = sys.argv[4]  # read by libaead's copy when it initialises
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    lib = ffi.dlopen(path)
    print("python_process:", ssl.OPENSSL_VERSION, "|", ffi.string(lib.aead_version()).decode())
    assert b"OpenSSL" in ffi.string(lib.aead_version())
    assert ffi.string(lib.aead_version()).decode().find(ssl.OPENSSL_VERSION) < 0, "libaead on the system libcrypto"
    checks = 0
    for alg, key_len in ((AES_128_GCM, 16), (AES_256_GCM, 32)):
        for size in (0, 1, 64, 1000, 16384, *(int.from_bytes(os.urandom(2), "big") for _ in range(20))):
            key, nonce, aad, pt = os.urandom(key_len), os.urandom(12), os.urandom(size % 50), os.urandom(size)
            ctx = ffi.new("aead_ctx **")
            rc = lib.aead_ctx_new_ex(ctx, alg, 0, key, len(key), 0, props if props else ffi.NULL, ffi.NULL, 0)
            assert rc == 0, rc
            provider = ffi.string(lib.aead_ctx_provider(ctx[0])).decode()
            assert provider == expected_provider, provider
            out = ffi.new("uint8_t[]", size + 16)
            n = lib.aead_seal_open(ctx[0], SEAL, nonce, 12, aad, len(aad), pt, size, out, size + 16)
            lib.aead_ctx_free(ctx[0])
            assert n == size + 16, n
            assert ffi.buffer(out, n)[:] == AESGCM(key).encrypt(nonce, pt, aad), f"differs at {size} bytes"
            checks += 1
    print(f"python_process: {checks} seals identical to pyca/cryptography's; provider '{expected_provider}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
