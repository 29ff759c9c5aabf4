#!/usr/bin/env bash
# Builds the addon as the npm tarball carries it: prebuilds/linux-x64/libaead.node (prebuildify's layout,
# loaded by node-gyp-build), libaead compiled from csrc/ (bindings/csrc.sh copies the core)
# on the vendored OpenSSL 3.5 of shim/openssl/build.sh, linked in and hidden; fails on a compiler
# warning or on any export but aead_* and the N-API entry points. Used by test.sh and test-package.sh.
#   bash bindings/node/build-prebuild.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

command -v node >/dev/null && command -v npm >/dev/null || { echo "node build: node and npm are required" >&2; exit 1; }
# node-gyp would otherwise download Node's headers: use the ones installed with node.
nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
[ -f "$nodedir/include/node/node_api.h" ] || { echo "node build: no Node headers in $nodedir/include/node" >&2; exit 1; }
export npm_config_nodedir="$nodedir"
if command -v ccache >/dev/null; then export CC="ccache gcc" CXX="ccache g++"; fi

npm ci --no-audit --no-fund --loglevel=error --ignore-scripts
prefix="$(bash "$REPO/shim/openssl/build.sh" 3.5 | tail -n 1)"
bash "$REPO/bindings/csrc.sh" csrc
rm -rf build prebuilds
LIBAEAD_OPENSSL_PREFIX="$prefix" JOBS=2 nice npm run --silent prebuild >build-prebuild.log 2>&1 ||
    { tail -40 build-prebuild.log; echo "node build: the prebuild failed" >&2; exit 1; }
if grep -q "warning:" build-prebuild.log; then
    grep -A3 "warning:" build-prebuild.log | head -40
    echo "node build: the compiler warned" >&2
    exit 1
fi
rm -rf build  # node-gyp-build must load the prebuild, not the build tree
addon=prebuilds/linux-x64/libaead.node
[ -f "$addon" ] || { echo "node build: no $addon" >&2; exit 1; }
# Only libaead's C ABI and the N-API entry points are exported (libcrypto stays hidden).
others="$(nm -D --defined-only "$addon" | awk '{print $3}' |
    grep -v -E '^(aead_[a-z0-9_]+|napi_register_module_v1|node_api_module_get_api_version_v1)$' || true)"
[ -z "$others" ] || { echo "node build: $addon exports more than aead_* and N-API: $others" >&2; exit 1; }
# Nothing the addon needs from the core is left undefined (a source missing from the build would be, and
# the addon would still load, failing only when a caller reached it): its undefined symbols are N-API's
# and the versioned ones of the C and C++ runtimes (weak references, which may stay unresolved, aside).
undefined="$(nm -D -u "$addon" | awk '$1 == "U" {print $2}' | grep -v -E '^(napi_|node_api_)|@' || true)"
[ -z "$undefined" ] || { echo "node build: $addon leaves symbols undefined:" $undefined >&2; exit 1; }
version="$(node -p "require('.').libraryVersion()")"
echo "node build: $addon ($(du -k "$addon" | cut -f1) KiB): $version"
case "$version" in *"OpenSSL 3.5"*) ;; *) echo "node build: the prebuild does not run on the vendored OpenSSL 3.5" >&2; exit 1 ;; esac

