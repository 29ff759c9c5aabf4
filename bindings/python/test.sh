#!/usr/bin/env bash
# Installs the Python binding's test dependencies and the package itself, then runs the tests twice:
# once on the compiled cffi module (API mode) and once forced onto the ffi.dlopen fallback (ABI mode),
# plus an install on a "machine without a C compiler" (CC=false) that must fall back to ABI mode.
# Usage (from the repo root): bash bindings/python/test.sh   [AEAD_BUILD_DIR=/abs/build/dir]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
export AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
PY="${PYTHON:-python3}"

if [ ! -e "$AEAD_BUILD_DIR/libaead.so.1" ]; then
    echo "test.sh: $AEAD_BUILD_DIR/libaead.so.1 not found: build the C library first (meson/ninja)" >&2
    exit 1
fi
export PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pkg-config --exists aead || { echo "test.sh: pkg-config cannot find aead in $PKG_CONFIG_PATH" >&2; exit 1; }

export PIP_DISABLE_PIP_VERSION_CHECK=1
"$PY" -m pip install --quiet "cffi>=1.17" pytest "cryptography>=48"
# A compile failure must fail here, not silently fall back to ABI mode.
LIBAEAD_REQUIRE_COMPILED=1 "$PY" -m pip install --quiet --force-reinstall --no-deps "$HERE"

cd "$HERE"   # pytest's rootdir/config; the package under test is the installed one (src/ layout)
# No LD_LIBRARY_PATH: the compiled module finds libaead.so.1 through its rpath.
unset LD_LIBRARY_PATH
echo "== pytest, API mode (compiled cffi module)"
LIBAEAD_EXPECT_BACKEND=api "$PY" -m pytest -q -p no:cacheprovider tests
echo "== pytest, ABI mode (LIBAEAD_FORCE_ABI=1: ffi.dlopen, same cdef)"
LIBAEAD_FORCE_ABI=1 LIBAEAD_EXPECT_BACKEND=abi "$PY" -m pytest -q -p no:cacheprovider tests

echo "== install without a C compiler (CC=false): must fall back to ABI mode"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
CC=false LDSHARED=false "$PY" -m pip install --quiet --no-deps --target "$TMP/site" "$HERE" >"$TMP/pip.log" 2>&1 || {
    cat "$TMP/pip.log" >&2; echo "test.sh: install without a compiler failed" >&2; exit 1; }
if ls "$TMP/site/libaead/"_aead_cffi*.so >/dev/null 2>&1; then
    echo "test.sh: CC=false still produced a compiled module; the fallback test proves nothing" >&2; exit 1
fi
(cd "$TMP" && PYTHONPATH="$TMP/site" LIBAEAD_EXPECT_BACKEND=abi "$PY" -m pytest -q -p no:cacheprovider \
    -c "$HERE/pyproject.toml" --rootdir "$HERE" "$HERE/tests/test_backend.py" "$HERE/tests/test_differential.py")
echo "test.sh: all Python binding tests passed"
