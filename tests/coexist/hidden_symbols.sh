#!/usr/bin/env bash
# A vendored libaead.so hides its libcrypto: it exports only aead_* (versioned), needs no libcrypto.so,
# imports no OpenSSL symbol, and is marked NODELETE (see docs/libcrypto.md).
# Usage: tests/coexist/hidden_symbols.sh [build dir]   (default: $AEAD_BUILD_DIR, else build-vendored)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${AEAD_BUILD_DIR:-$repo/build-vendored}}
lib="$build/libaead.so.1"
fail() { echo "hidden symbols: FAIL: $*" >&2; exit 1; }

exported=$(nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}')
others=$(grep -v '^aead_' <<<"$exported" || true)
[ -z "$others" ] || fail "exports other than aead_*: $(head -5 <<<"$others" | tr '\n' ' ')"
echo "ok: $(wc -l <<<"$exported") exported symbols, all aead_*"
imported=$(nm -D --undefined-only "$lib" | awk '{print $2}' |
    grep -E '^(EVP_|OSSL_|OPENSSL_|CRYPTO_|ERR_|RAND_|BIO_|OpenSSL_)' || true)
[ -z "$imported" ] || fail "imports OpenSSL symbols: $(head -5 <<<"$imported" | tr '\n' ' ')"
echo "ok: no OpenSSL symbol imported"
! readelf -d "$lib" | grep -E 'NEEDED.*lib(crypto|ssl)\.so' || fail "needs a shared libcrypto"
echo "ok: no libcrypto.so / libssl.so in NEEDED"
grep -q 'FLAGS_1.*NODELETE' <<<"$(readelf -d "$lib")" || fail "not linked with -z nodelete"
echo "ok: NODELETE"
