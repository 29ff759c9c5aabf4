#!/usr/bin/env bash
# pyca/cryptography's own AEAD tests (tests/hazmat/primitives/test_aead.py) run on libaead's Python binding:
# first unchanged on pyca/cryptography (the control), then with its one import of AESGCM,
# ChaCha20Poly1305, AESCCM, AESGCMSIV, AESOCB3 and AESSIV rewritten to `from libaead import` (peers.py swap),
# once per backend: fast, api (LIBAEAD_NO_FAST=1), abi (LIBAEAD_FORCE_ABI=1).
# The suite and its support files (tests/conftest.py, tests/utils.py, tests/hazmat/primitives/utils.py, the
# packages' __init__.py, the pytest settings of pyproject.toml) come from pyca's sdist, its vectors from the
# cryptography_vectors wheel, and the control runs on pyca's wheel: all three at PYCA_VERSION, fetched
# from the package index pip uses and checked against the sha256 pinned below, into
# ${XDG_CACHE_HOME:-~/.cache}/libaead/peers-python (never into the repository). pytest is pinned too.
# The venv (there too, keyed on the pins and the Python) is made once; libaead is installed into it anew
# each run with `pip install ./bindings/python`, which reuses the python stage's meson build of the bundled
# libaead.so.1 (vendored OpenSSL 3.5; bindings/python/build/libaead-vendored), so a warm run only relinks.
# Each test's outcome (libaead_peers_check.py) is compared with the control's: a difference must be listed
# under "## python" in tests/peers/differences.txt, and a listed one must occur on every backend.
# Not run on libaead: the four 4 GiB test_data_too_large cases of LARGE (listed differences). pyca raises
# OverflowError at once; libaead, which takes inputs over 2 GiB by design, encrypts the whole 4 GiB mapping
# into a 4 GiB result, about 20 s and 4 GiB of memory each, far over this stage's budget. The control runs
# them. LIBAEAD_PEERS_LARGE=1 runs them on the fast backend too, which shows the difference still occurs
# (the python stage's bigmem tests cover inputs over 2 GiB on all three backends).
# Usage: bash tests/peers/python.sh   (no variables needed; PYTHON picks the interpreter, default python3)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PEERS="$HERE/python"
PY="${PYTHON:-python3}"
PYCA_VERSION=50.0.2
PYCA_SDIST_SHA256=7b46165bb56eb4704e2eaaf86f3c940d19154535d9b0ca7d6d590b04060e00d5
VECTORS_SHA256=51641f03a3eb4edbe9fb68e3a3574d25f86aa502d06391fffa886330d02778a0
# pyca's abi3 wheel for CPython >= 3.9 on glibc >= 2.28, per machine.
declare -A PYCA_WHEEL_SHA256=(
    [x86_64]=f21e8a22c8605750c7af886bab299a363721264061b4ac0a30efb73cfd58efc5
    [aarch64]=dfe9763530994147d9af1def057a5b9658b00e8f8fe8743d144d1e0911c2e454
)
PYTEST_VERSION=9.2.0
SUITE_FILES=(pyproject.toml tests/__init__.py tests/conftest.py tests/utils.py tests/hazmat/__init__.py
    tests/hazmat/primitives/__init__.py tests/hazmat/primitives/utils.py tests/hazmat/primitives/test_aead.py)
TEST=tests/hazmat/primitives/test_aead.py
LARGE=(TestAESGCM TestChaCha20Poly1305 TestAESOCB3 TestAESGCMSIV)
# Nothing of the caller's environment chooses the library, the backend or the libcrypto's configuration.
unset LD_LIBRARY_PATH PKG_CONFIG_PATH OPENSSL_CONF OPENSSL_MODULES LIBAEAD_LIBRARY LIBAEAD_NO_FAST LIBAEAD_FORCE_ABI \
    LIBAEAD_SYSTEM LIBAEAD_LIBCRYPTO LIBAEAD_MESON_BUILD_DIR LIBAEAD_MESON_ARGS PYTHONPATH
export PIP_DISABLE_PIP_VERSION_CHECK=1
start=$(date +%s)
fail() { echo "FAIL: peers python: $*" >&2; exit 1; }

arch="$(uname -m)"
[ -n "${PYCA_WHEEL_SHA256[$arch]:-}" ] || fail "no pinned cryptography $PYCA_VERSION wheel for $arch"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/peers-python"
mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9 # one run at a time over the cached venv

sdist="cryptography-$PYCA_VERSION.tar.gz"
vectors="cryptography_vectors-$PYCA_VERSION-py3-none-any.whl"
wheel="cryptography-$PYCA_VERSION-cp39-abi3-manylinux_2_28_$arch.whl"
"$PY" "$PEERS/peers.py" fetch cryptography "$sdist" "$PYCA_SDIST_SHA256" "$cache/$sdist"
"$PY" "$PEERS/peers.py" fetch cryptography-vectors "$vectors" "$VECTORS_SHA256" "$cache/$vectors"
"$PY" "$PEERS/peers.py" fetch cryptography "$wheel" "${PYCA_WHEEL_SHA256[$arch]}" "$cache/$wheel"

# The venv with pyca's wheel, the vectors and pytest, made once per set of pins (and the Python).
key="$({ "$PY" -c 'import sys; print(sys.version)'; echo "${PYCA_WHEEL_SHA256[$arch]} $VECTORS_SHA256 $PYTEST_VERSION"; } |
    sha256sum | cut -c1-16)"
venv="$cache/venv-$key"
if [ ! -e "$venv/.complete" ]; then
    echo "== peers python: venv $venv (cryptography $PYCA_VERSION, cryptography_vectors, pytest $PYTEST_VERSION)"
    rm -rf "$venv" "$cache"/venv-*
    "$PY" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --only-binary :all: "$cache/$wheel" "$cache/$vectors" \
        "pytest==$PYTEST_VERSION"
    touch "$venv/.complete"
fi
VPY="$venv/bin/python"

echo "== peers python: pip install ./bindings/python into $venv"
t0=$SECONDS
# As the python stage builds it: a module that fails to compile is an error, _fast.c with -Werror.
LIBAEAD_REQUIRE_COMPILED=1 LIBAEAD_WERROR=1 "$VPY" -m pip install --quiet --no-deps --force-reinstall \
    "$REPO/bindings/python" >"$cache/pip.log" 2>&1 || { cat "$cache/pip.log" >&2; fail "pip install ./bindings/python"; }
echo "   $("$VPY" -c 'import libaead; print(libaead.__version__, libaead.library_version())') ($((SECONDS - t0)) s)"

# Two copies of the suite: pyca's as shipped, and the rewritten one. Same relative paths, so same test ids.
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
for side in pyca libaead; do
    mkdir -p "$TMP/$side"
    tar -xzf "$cache/$sdist" -C "$TMP/$side" --strip-components=1 "${SUITE_FILES[@]/#/cryptography-$PYCA_VERSION/}"
done
"$PY" "$PEERS/peers.py" swap "$TMP/pyca/$TEST" "$TMP/libaead/$TEST"

run() {  # $1 = pyca or a backend, rest = env assignments
    local side="$1" tree=libaead args=()
    shift
    [ "$side" != pyca ] || tree=pyca
    if [ "$side" != pyca ] && { [ "$side" != fast ] || [ "${LIBAEAD_PEERS_LARGE:-0}" = 0 ]; }; then
        for cls in "${LARGE[@]}"; do args+=(--deselect "$TEST::$cls::test_data_too_large"); done
    fi
    # pyca's pytest settings, but for its addopts, which need pytest-benchmark.
    local rc=0 t0=$SECONDS
    (cd "$TMP/$tree" && env "$@" LIBAEAD_PEERS_SIDE="$side" LIBAEAD_PEERS_PYCA="$PYCA_VERSION" LIBAEAD_PEERS_OUTCOMES="$TMP/$side.json" \
        PYTHONPATH="$PEERS" "$VPY" -m pytest -p no:cacheprovider -p libaead_peers_check -c pyproject.toml \
        --rootdir . -o addopts="--strict-markers" -q -rfEs "${args[@]}" "$TEST") >"$TMP/$side.log" 2>&1 || rc=$?
    # 0: all passed; 1: some failed (compared below). Anything else (5: no tests, 2-4: errors) fails.
    if [ $rc -gt 1 ] || [ ! -s "$TMP/$side.json" ]; then
        cat "$TMP/$side.log" >&2
        fail "pytest on $side exited with $rc"
    fi
    echo "   $side: $(tail -n 1 "$TMP/$side.log") (exit $rc, $((SECONDS - t0)) s)"
}
echo "== peers python: pyca/cryptography $PYCA_VERSION $TEST, control and libaead's three backends"
run pyca
run fast
run api LIBAEAD_NO_FAST=1
run abi LIBAEAD_FORCE_ABI=1
status=0
"$PY" "$PEERS/peers.py" compare "$HERE/differences.txt" "$TMP/pyca.json" fast="$TMP/fast.json" \
    api="$TMP/api.json" abi="$TMP/abi.json" >"$TMP/compare.out" || status=1
head -n -1 "$TMP/compare.out"
large="on libaead"
[ "${LIBAEAD_PEERS_LARGE:-0}" = 0 ] || large="on api and abi"
echo "== peers python: $(($(date +%s) - start)) s; not run $large: ${LARGE[*]/%/::test_data_too_large} (4 GiB each)"
[ $status = 0 ] || echo "FAIL: peers python: outcomes differ from the control (above)" >&2
tail -n 1 "$TMP/compare.out"
exit $status
