#!/usr/bin/env bash
# The Node.js package (bindings/node): builds the addon as it ships in the npm tarball (prebuildify's
# layout, libaead on the vendored OpenSSL 3.5 linked in and hidden), checks its exports, then runs the
# node:test suites (vectors, differential, policies, hostile callers, workers, API) on it.
#   bash bindings/node/test.sh
# Needs node (>= 18) and npm, and Node's headers beside the node binary (include/node: the nodesource
# and Debian packages install them); nothing is downloaded but the npm packages of package-lock.json.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

command -v node >/dev/null && command -v npm >/dev/null || { echo "node test: node and npm are required" >&2; exit 1; }
echo "node test: node $(node --version), npm $(npm --version)"
# node-gyp would otherwise download Node's headers: use the ones installed with node.
nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
[ -f "$nodedir/include/node/node_api.h" ] || { echo "node test: no Node headers in $nodedir/include/node" >&2; exit 1; }
export npm_config_nodedir="$nodedir"
if command -v ccache >/dev/null; then export CC="ccache gcc" CXX="ccache g++"; fi

npm ci --no-audit --no-fund --loglevel=error --ignore-scripts
prefix="$(bash "$REPO/shim/openssl/build.sh" 3.5 | tail -n 1)"
node scripts/csrc.js
rm -rf build prebuilds
LIBAEAD_OPENSSL_PREFIX="$prefix" JOBS=2 nice npm run --silent prebuild >build-prebuild.log 2>&1 ||
    { tail -40 build-prebuild.log; echo "node test: the prebuild failed" >&2; exit 1; }
if grep -q "warning:" build-prebuild.log; then
    grep -A3 "warning:" build-prebuild.log | head -40
    echo "node test: the compiler warned" >&2
    exit 1
fi
rm -rf build  # node-gyp-build must load the prebuild, not the build tree
addon=prebuilds/linux-x64/libaead.node
[ -f "$addon" ] || { echo "node test: no $addon" >&2; exit 1; }
# Only libaead's C ABI and the N-API entry points are exported (libcrypto stays hidden).
others="$(nm -D --defined-only "$addon" | awk '{print $3}' |
    grep -v -E '^(aead_[a-z0-9_]+|napi_register_module_v1|node_api_module_get_api_version_v1)$' || true)"
[ -z "$others" ] || { echo "node test: $addon exports more than aead_* and N-API: $others" >&2; exit 1; }
version="$(node -p "require('.').libraryVersion()")"
echo "node test: $addon ($(du -k "$addon" | cut -f1) KiB): $version"
case "$version" in *"OpenSSL 3.5"*) ;; *) echo "node test: the prebuild does not run on the vendored OpenSSL 3.5" >&2; exit 1 ;; esac

export AEAD_VECTORS_DIR="${AEAD_VECTORS_DIR:-$(bash "$REPO/tests/vectors.sh" | tail -n 1)}"
node --test --test-reporter=spec test/
