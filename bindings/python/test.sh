#!/usr/bin/env bash
# The Python binding's tests, as a new user gets the package:
#   1. For the vendored and the system libcrypto, side by side (LIBAEAD_LIBCRYPTO=vendored|system: just one):
#      `pip wheel ./bindings/python` in a fresh venv (the wheel builds and bundles libaead.so.1 from
#      this repository on that libcrypto), then that wheel
#      installed into a second fresh venv and the whole suite run there from another directory, three
#      times: on the compiled fast path, on cffi API mode (LIBAEAD_NO_FAST=1) and on ABI mode
#      (LIBAEAD_FORCE_ABI=1, ffi.dlopen). No LD_LIBRARY_PATH, no PKG_CONFIG_PATH.
#      Then the Python blocks of the READMEs (tests/snippets) run on that venv.
#   2. LIBAEAD_SYSTEM=1 against the meson build in $AEAD_BUILD_DIR (when it exists): installed with
#      CC=false, the "no compiler" case, which must fall back to ABI mode and still pass.
# FIPS stage: LIBAEAD_TEST_FIPS=1 (or AEAD_TEST_FIPS=1) with OPENSSL_CONF / OPENSSL_MODULES set
# (tests/fips/env.sh). They apply to the test runs only (pip and the build run without them). A FIPS
# provider module serves one libcrypto per process, the first that loads it, and pytest imports hashlib
# (the system libcrypto): so there pytest is started from a launcher that imports libaead first, which
# makes the vendored build's hidden libcrypto the provider's user (the system build shares it anyway).
# --system-only: just step 2 (the python-vendored stage: step 1 does not depend on $AEAD_BUILD_DIR, so
# there it would repeat the python stage's wheels and six suite runs exactly).
# Usage (from anywhere): bash bindings/python/test.sh [--system-only]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
PY="${PYTHON:-python3}"
TEST_OPENSSL_CONF="${OPENSSL_CONF:-}"
TEST_OPENSSL_MODULES="${OPENSSL_MODULES:-}"
unset OPENSSL_CONF OPENSSL_MODULES LD_LIBRARY_PATH PKG_CONFIG_PATH
# The libcryptos to bundle: both by default.
KINDS="${LIBAEAD_LIBCRYPTO:-vendored system}"
SYSTEM_ONLY=0
case "${1:-}" in
    --system-only) SYSTEM_ONLY=1 ;;
    "") ;;
    *) echo "usage: $0 [--system-only]" >&2; exit 2 ;;
esac
PYTEST=(-m pytest)
if [ "${LIBAEAD_TEST_FIPS:-${AEAD_TEST_FIPS:-0}}" != 0 ]; then
    export LIBAEAD_TEST_FIPS=1
    KINDS="${LIBAEAD_LIBCRYPTO:-system vendored}"
    PYTEST=(-c 'import libaead, sys, pytest; sys.exit(pytest.main(sys.argv[1:]))')
fi
# The environment of every pytest run: the FIPS configuration, when there is one.
TEST_ENV=()
[ -z "$TEST_OPENSSL_CONF" ] || TEST_ENV+=("OPENSSL_CONF=$TEST_OPENSSL_CONF")
[ -z "$TEST_OPENSSL_MODULES" ] || TEST_ENV+=("OPENSSL_MODULES=$TEST_OPENSSL_MODULES")
export PIP_DISABLE_PIP_VERSION_CHECK=1

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# The > 2 GiB tests (marker bigmem, ~50 s a run) test how each backend passes lengths, not the libcrypto:
# they run on the vendored wheel's three backends and are left out on the system wheel and under FIPS
# (the C `large` suite runs them on the system libcrypto).
# The suite runs (one process each) go two at a time (tests/lib/parallel.sh), each in a temporary
# directory of its own; their output is printed in order once they are done.
source "$REPO/tests/lib/parallel.sh"
# shellcheck source=../../tests/python-binding.sh
source "$REPO/tests/python-binding.sh"  # setuptools_config
run_suite() {  # kind, venv python, expected backend, env assignments...; from a directory that is not the source
    local kind=$1 vpy=$2 expect=$3 marks=()
    shift 3
    [ "$kind" = vendored ] && [ "${LIBAEAD_TEST_FIPS:-0}" = 0 ] || marks=(-m "not bigmem")
    echo "== pytest on the installed $kind wheel, backend $expect${marks[*]:+ (${marks[*]})}"
    (cd "$TMP" && env "$@" LIBAEAD_EXPECT_BACKEND="$expect" "${TEST_ENV[@]}" \
        "$vpy" "${PYTEST[@]}" -q -p no:cacheprovider -c "$HERE/pyproject.toml" --rootdir "$HERE" "${marks[@]}" \
        --basetemp "$TMP/pytest-$kind-$expect" "$HERE/tests")
}
snippets() {  # kind, venv python
    echo "== the Python blocks of README.md, bindings/python/README.md and docs/hpke.md on the installed $1 wheel"
    "$PY" "$REPO/tests/snippets/run.py" --lang python --python "$2" "$REPO/README.md" "$HERE/README.md" "$REPO/docs/hpke.md"
}

# Each kind's wheel build and venvs (mostly one pip process at a time) go beside the other kind's, each
# build with setuptools folders of its own (setuptools_config). (The meson build of libaead is
# build/libaead-<kind> already.)
# LIBAEAD_PY_PREPARED=DIR (tests/run-all.sh: one per run, removed at its end): the wheels and venvs go
# there, and a later call in the same run (the python stage after the fips stage) uses them again, since
# neither the sources nor the build's environment (FIPS applies to the test runs only) differ.
PREP="${LIBAEAD_PY_PREPARED:-$TMP}"
prepare() {  # kind
    local kind=$1 wheel vpy=$PREP/venv-$1/bin/python cfg
    if [ -e "$PREP/ready-$kind" ]; then
        echo "== the $kind wheel and its venv, made earlier in this run: $(cat "$PREP/ready-$kind")"
        return 0
    fi
    rm -rf "${PREP:?}"/{build-venv,wheels,venv}-"$kind"
    echo "== pip wheel in a fresh venv (bundles libaead.so.1, libcrypto=$kind)"
    "$PY" -m venv "$PREP/build-venv-$kind"
    cfg=$(setuptools_config "$kind")
    # A failed compile must fail here, not silently fall back; -Werror on _fast.c.
    DIST_EXTRA_CONFIG="$cfg" LIBAEAD_LIBCRYPTO="$kind" LIBAEAD_REQUIRE_COMPILED=1 LIBAEAD_WERROR=1 \
        nice -n 10 "$PREP/build-venv-$kind/bin/pip" wheel --quiet --no-deps -w "$PREP/wheels-$kind" "$HERE"
    wheel="$(ls "$PREP/wheels-$kind"/libaead-*.whl)"
    echo "   $(basename "$wheel"): $(unzip -Z1 "$wheel" | grep -E '\.so' | tr '\n' ' ')"
    echo "== install the wheel into a second fresh venv"
    "$PY" -m venv "$PREP/venv-$kind"
    # PyNaCl: libsodium, the XChaCha20-Poly1305 and AEGIS-128L/-256 peer (1.6 binds AEGIS)
    "$vpy" -m pip install --quiet "$wheel" pytest "cryptography>=48" "aioquic==1.7.2" "pyhpke==0.6.5" "pynacl==1.6.2"
    # libaead.stream's peers (Tink Python, http_ece), hash-pinned
    "$vpy" -m pip install --quiet --require-hashes --no-deps -r "$HERE/tests/requirements-stream.txt"
    basename "$wheel" >"$PREP/ready-$kind"
}
[ $SYSTEM_ONLY = 0 ] || KINDS=""
for kind in $KINDS; do together "$kind wheel, built and installed" prepare "$kind"; done
[ -z "$KINDS" ] || together_wait
for kind in $KINDS; do
    VPY="$PREP/venv-$kind/bin/python"
    # HPKE's post-quantum KEMs: ML-KEM is in the vendored OpenSSL 3.5; in the system libcrypto from 3.5 on;
    # in the fips stage's FIPS provider (3.5's) whichever the core.
    MLKEM=1
    if [ "$kind" = system ] && [ "${LIBAEAD_TEST_FIPS:-0}" = 0 ]; then
        printf '%s\n' 3.5 "$(pkg-config --modversion libcrypto)" | sort -V -C || MLKEM=0
    fi
    together "$kind wheel, fast path" run_suite "$kind" "$VPY" fast LIBAEAD_NO_FAST=0 LIBAEAD_EXPECT_MLKEM=$MLKEM
    together "$kind wheel, cffi API mode" run_suite "$kind" "$VPY" api LIBAEAD_NO_FAST=1 LIBAEAD_EXPECT_MLKEM=$MLKEM
    together "$kind wheel, cffi ABI mode" run_suite "$kind" "$VPY" abi LIBAEAD_FORCE_ABI=1 LIBAEAD_EXPECT_MLKEM=$MLKEM
    together "$kind wheel, the documents' Python blocks" snippets "$kind" "$VPY"
done
[ -z "$KINDS" ] || together_wait

# pyca/cryptography cannot share a FIPS provider with libaead (tests/conftest.py): vectors instead.
SECOND_FILE=test_differential.py
[ "${LIBAEAD_TEST_FIPS:-0}" = 0 ] || SECOND_FILE=test_vectors.py
if [ -e "$AEAD_BUILD_DIR/libaead.so.1" ]; then
    if [ $SYSTEM_ONLY = 1 ]; then
        "$PY" -m venv "$TMP/venv-tests"
        VPY="$TMP/venv-tests/bin/python"
        "$VPY" -m pip install --quiet pytest "cryptography>=48" "cffi>=1.17"
    fi
    echo "== LIBAEAD_SYSTEM=1 without a C compiler (CC=false): must fall back to ABI mode"
    PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled" LIBAEAD_SYSTEM=1 CC=false LDSHARED=false \
        "$VPY" -m pip install --quiet --no-deps --target "$TMP/site" "$HERE" >"$TMP/pip.log" 2>&1 || {
        cat "$TMP/pip.log" >&2; echo "test.sh: install without a compiler failed" >&2; exit 1; }
    if ls "$TMP/site/libaead/"*.so* >/dev/null 2>&1; then
        echo "test.sh: CC=false still produced a compiled module or a bundled library" >&2; exit 1
    fi
    (cd "$TMP" && env PYTHONPATH="$TMP/site" LIBAEAD_EXPECT_BACKEND=abi "${TEST_ENV[@]}" "$VPY" "${PYTEST[@]}" -q -p no:cacheprovider \
        -c "$HERE/pyproject.toml" --rootdir "$HERE" "$HERE/tests/test_backend.py" "$HERE/tests/$SECOND_FILE")
elif [ $SYSTEM_ONLY = 1 ]; then
    echo "test.sh: --system-only needs a meson build at $AEAD_BUILD_DIR" >&2; exit 1
else
    echo "== skipped the LIBAEAD_SYSTEM=1 / no-compiler check: no meson build at $AEAD_BUILD_DIR"
fi
echo "test.sh: all Python binding tests passed"
