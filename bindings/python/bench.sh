#!/usr/bin/env bash
# Runs the Python binding benchmark: libaead vs pyca/cryptography, side by side in one run.
# Usage (from the repo root): bash bindings/python/bench.sh [--rounds N] [--alg aes128|aes256|chacha]
# Installs the package first (as test.sh does), so it measures the compiled cffi module.
# Set LIBAEAD_FORCE_ABI=1 to measure the ffi.dlopen fallback instead.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
export AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
PY="${PYTHON:-python3}"
export PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
if [ "${LIBAEAD_BENCH_NO_INSTALL:-0}" = 0 ]; then
    "$PY" -m pip install --quiet "cffi>=1.17" "cryptography>=48"
    LIBAEAD_REQUIRE_COMPILED=1 "$PY" -m pip install --quiet --force-reinstall --no-deps "$HERE"
fi
cd "$HERE"
exec "$PY" bench/bench.py "$@"
