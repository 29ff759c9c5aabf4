#!/usr/bin/env bash
# The Python binding as a manylinux_2_35_aarch64 wheel, cross-built, and its suite under qemu-aarch64 on
# Debian's arm64 CPython 3.11 (the cross-aarch64 stage, tests/run-all.sh):
#   1. Debian's arm64 CPython 3.11 (python3.11-minimal, libpython3.11-stdlib, -dev and the libraries its
#      modules load), fetched with `apt-get download` (checked against the archive's signed index) and
#      unpacked into ${XDG_CACHE_HOME:-$HOME/.cache}/libaead/cross/arm64-python3.11-<version>: its headers
#      for the build, its interpreter for the tests.
#   2. `pip wheel ./bindings/python` on the host's CPython with Debian's aarch64 cross compiler (CC, LDSHARED,
#      _PYTHON_HOST_PLATFORM=linux-aarch64, the arm64 pyconfig.h): the bundled libaead.so.1 built by meson
#      with tests/cross/aarch64-linux-gnu.ini on the vendored OpenSSL 3.5 cross-built (shim/openssl/build.sh,
#      cached), and the _fast and cffi modules on the stable ABI (cp39-abi3), warnings as errors.
#   3. `auditwheel repair` (auditwheel reads the wheel's ELF machine: manylinux_2_35_aarch64), then
#      `auditwheel show` must report that tag; the bundled library exports only aead_* and needs no shared
#      libcrypto (tests/coexist/hidden_symbols.sh); the modules' RUNPATH is $ORIGIN.
#   4. That wheel and the suite's requirements (aarch64 wheels from PyPI, hash-pinned in
#      python-aarch64-requirements.txt) installed with `pip install --target --platform` into a directory,
#      then pytest under qemu-aarch64 on the fast path and on cffi API mode.
# Which tests (CI time: pytest is ~15x slower under qemu-user): by default the suite without the tests
# that fetch from PyPI at test time (test_pyca_suite: pyca's own suite from its sdist; the SIV vectors of
# the 56 MB cryptography_vectors), the ones marked bigmem, the hostile fork and race tests
# and test_threads (processes and threads under one emulator); LIBAEAD_CROSS_PY_FULL=1 runs every test
# but the bigmem ones on both backends. Never here: test_hostile_sizes and test_hostile_siv (their huge
# reserved mappings exhaust qemu-user's page table; they run natively in the python stage), nor the
# streaming peers (Tink Python, http_ece, the age command: test_stream_interop, test_stream_age and the
# command-line test_stream_cli run natively in the python stage; test_stream.py runs here).
# Usage: tests/cross/python-wheel.sh <pkg-config dir of the target's libcrypto> (from tests/setup.sh aarch64)
# The two backends run side by side (tests/lib/parallel.sh): each is one emulated process.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYDIR="$REPO/bindings/python"
PCDIR=${1:?usage: $0 <pkg-config dir of the aarch64 libcrypto>}
OUT="$REPO/build-aarch64-wheel"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/cross"
export PIP_DISABLE_PIP_VERSION_CHECK=1
unset OPENSSL_CONF OPENSSL_MODULES LD_LIBRARY_PATH PKG_CONFIG_PATH LIBAEAD_SYSTEM LIBAEAD_LIBCRYPTO PYTHONPATH
fail() { echo "python-wheel-aarch64: FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", b - a}'; }
t0=$(now)
mkdir -p "$OUT" "$CACHE"
rm -rf "$OUT/raw" "$OUT/wheel" "$OUT/site" "$OUT/bin" "$OUT/py"

# 1. Debian's arm64 CPython, unpacked (once per Debian version).
# libssl3 for the interpreter's own `_ssl` (aioquic's tests import ssl): the installed arm64 libssl may be
# missing, when tests/setup.sh had to unpack the target's libcrypto into the cache instead.
pkgs=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev zlib1g libexpat1 libffi8
      liblzma5 libbz2-1.0 libuuid1 libcrypt1 libssl3)
pyver=$(apt-cache policy python3.11-minimal:arm64 | sed -n 's/^ *Candidate: //p')
[ -n "$pyver" ] && [ "$pyver" != "(none)" ] ||
    fail "no python3.11-minimal:arm64 in the archive (tests/setup.sh aarch64 adds the architecture)"
ROOT="$CACHE/arm64-python3.11-$pyver-ssl"
if [ ! -f "$ROOT/done" ]; then
    echo "== apt-get download ${pkgs[*]/%/:arm64} (CPython $pyver), unpacked into $ROOT"
    rm -rf "$ROOT" && mkdir -p "$ROOT/debs"
    (cd "$ROOT/debs" && apt-get download -qq "${pkgs[@]/%/:arm64}" 2>/dev/null) || fail "apt-get download"
    for deb in "$ROOT"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT"; done
    rm -rf "$ROOT/debs"
    touch "$ROOT/done"
fi
# The interpreter as a program this machine can run (no binfmt here): a script that hands it to qemu with
# its own path as argv[0], so that sys.executable is the script and the tests' subprocesses of
# sys.executable run under qemu too (PYTHONHOME: the standard library beside the real one).
mkdir -p "$OUT/py"
cat >"$OUT/py/python3.11" <<EOF
#!/bin/sh
PYTHONHOME="$ROOT/usr" exec qemu-aarch64 -0 "\$0" -E "LD_LIBRARY_PATH=$ROOT/lib/aarch64-linux-gnu:$ROOT/usr/lib/aarch64-linux-gnu" \\
    "$ROOT/usr/bin/python3.11" "\$@"
EOF
chmod +x "$OUT/py/python3.11"
PY_ARM=("$OUT/py/python3.11")
echo "   $("${PY_ARM[@]}" -c 'import sys, platform; print("Python", sys.version.split()[0], platform.machine(), sys.executable)') (qemu-aarch64)"

# 2. The host's build tools (hash-pinned), then the cross-built wheel.
TOOLS="$OUT/tools"
{ [ -x "$TOOLS/bin/auditwheel" ] && cmp -s "$REPO/tests/cross/python-host-requirements.txt" "$TOOLS/requirements.txt"; } || {
    rm -rf "$TOOLS" && "${PYTHON:-python3}" -m venv "$TOOLS" &&
        "$TOOLS/bin/pip" install -q --require-hashes --only-binary :all: -r "$REPO/tests/cross/python-host-requirements.txt" &&
        cp "$REPO/tests/cross/python-host-requirements.txt" "$TOOLS/requirements.txt"; } || fail "the host tools"
printf "[properties]\npkg_config_libdir = ['%s', '/usr/share/pkgconfig']\n" "$PCDIR" >"$OUT/libcrypto.ini"
echo "== pip wheel ./bindings/python, cross-built for aarch64 (vendored OpenSSL 3.5 cross-built, cached)"
tb=$(now)
(cd "$REPO" && env PATH="$TOOLS/bin:$PATH" CC=aarch64-linux-gnu-gcc LDSHARED="aarch64-linux-gnu-gcc -shared" \
    _PYTHON_HOST_PLATFORM=linux-aarch64 CFLAGS="-I$ROOT/usr/include/python3.11 -I$ROOT/usr/include" \
    LIBAEAD_REQUIRE_COMPILED=1 LIBAEAD_WERROR=1 LIBAEAD_MESON_BUILD_DIR="$OUT/meson" \
    LIBAEAD_MESON_ARGS="--cross-file $REPO/tests/cross/aarch64-linux-gnu.ini --cross-file $OUT/libcrypto.ini" \
    nice -n 10 "$TOOLS/bin/pip" wheel -v --no-build-isolation --no-deps -w "$OUT/raw" "$PYDIR") >"$OUT/build.log" 2>&1 ||
    { tail -40 "$OUT/build.log"; fail "pip wheel (log: $OUT/build.log)"; }
grep -q -- '-I.*arm64-python3.11' "$OUT/build.log" && grep -q 'aarch64-linux-gnu-gcc -shared' "$OUT/build.log" ||
    fail "the modules were not compiled with the arm64 headers and the cross compiler ($OUT/build.log)"
RAW="$(ls "$OUT"/raw/libaead-*-cp39-abi3-linux_aarch64.whl)" || fail "no cp39-abi3-linux_aarch64 wheel"
echo "   $(basename "$RAW") in $(secs "$tb" "$(now)") s"

# 3. auditwheel repair (its --plat choices are the host's architecture's; without it, the best tag for the
# wheel's own: manylinux_2_35_aarch64, checked below; strip: the cross binutils' strip, by its plain name).
mkdir -p "$OUT/bin" && ln -s "$(command -v aarch64-linux-gnu-strip)" "$OUT/bin/strip"
PATH="$OUT/bin:$TOOLS/bin:$PATH" auditwheel repair --strip -w "$OUT/wheel" "$RAW" \
    >"$OUT/repair.log" 2>&1 || { cat "$OUT/repair.log"; fail "auditwheel repair"; }
WHEEL="$(ls "$OUT"/wheel/libaead-*.whl)"
case "$(basename "$WHEEL")" in *-cp39-abi3-manylinux_2_35_aarch64.whl) ;; *) fail "$(basename "$WHEEL") is not cp39-abi3-manylinux_2_35_aarch64" ;; esac
"$TOOLS/bin/auditwheel" show "$WHEEL" >"$OUT/show.log" 2>&1 || { cat "$OUT/show.log"; fail "auditwheel show"; }
tr '\n' ' ' <"$OUT/show.log" | grep -Eq 'consistent with the +following platform tag: +"manylinux_2_35_aarch64"' ||
    { cat "$OUT/show.log"; fail "auditwheel show does not report manylinux_2_35_aarch64"; }
rm -rf "$OUT/unzipped" && mkdir "$OUT/unzipped" && (cd "$OUT/unzipped" && unzip -q "$WHEEL")
PKG="$OUT/unzipped/libaead"
glibc=$(for f in "$PKG"/*.so*; do aarch64-linux-gnu-objdump -T "$f"; done | grep -Eo 'GLIBC_2\.[0-9]+' | sort -t. -k2 -n -u | tail -1)
needed=$(for f in "$PKG"/*.so*; do aarch64-linux-gnu-readelf -d "$f"; done | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | tr '\n' ' ')
for m in "$PKG"/_aead_cffi.abi3.so "$PKG"/_fast.abi3.so; do
    aarch64-linux-gnu-readelf -h "$m" | grep -q 'Machine: *AArch64' || fail "$(basename "$m") is not AArch64"
    rpath=$(aarch64-linux-gnu-readelf -d "$m" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [ "$rpath" = '$ORIGIN' ] || fail "$(basename "$m") has RUNPATH '$rpath', not \$ORIGIN"
done
PATH="$OUT/bin:$PATH" bash "$REPO/tests/coexist/hidden_symbols.sh" "$PKG" | sed 's/^/   /'
echo "   $(basename "$WHEEL"): auditwheel show: manylinux_2_35_aarch64; newest glibc symbol $glibc; needs $needed"

# 4. Install the wheel and the requirements for aarch64 into one directory, then pytest under qemu (the
#    cross-trimmed OpenSSL is built with no-ml-kem: HPKE's post-quantum KEMs are refused, LIBAEAD_EXPECT_MLKEM=0).
pip_arm=(--only-binary=:all: --platform manylinux_2_35_aarch64 --platform manylinux2014_aarch64
         --python-version 3.11 --implementation cp)
WHEELS="$CACHE/pywheels-aarch64"
"$TOOLS/bin/pip" download -q --require-hashes --no-deps "${pip_arm[@]}" -d "$WHEELS" \
    -r "$REPO/tests/cross/python-aarch64-requirements.txt" || fail "pip download of the aarch64 requirements"
"$TOOLS/bin/pip" install -q --no-index --no-deps "${pip_arm[@]}" --target "$OUT/site" "$WHEEL" \
    $(sed -n 's/^\([A-Za-z0-9_.-]*\)==\([^ ]*\) .*/\1==\2/p' "$REPO/tests/cross/python-aarch64-requirements.txt") \
    --find-links "$WHEELS" || fail "pip install --target of the wheel and the requirements"
# Never under qemu-user: the reserved 2^45- and 2^33-byte mappings of test_hostile_sizes and
# test_hostile_siv (qemu keeps a flag per guest page: the process grows until the kernel kills it).
never=(--ignore "$PYDIR/tests/test_hostile_sizes.py" --ignore "$PYDIR/tests/test_hostile_siv.py"
       --ignore "$PYDIR/tests/test_stream_interop.py" --ignore "$PYDIR/tests/test_stream_age.py"
       --ignore "$PYDIR/tests/test_stream_cli.py")
sel=("${never[@]}" -m "not bigmem" --ignore "$PYDIR/tests/test_pyca_suite.py"
     --ignore "$PYDIR/tests/test_hostile_fork.py" --ignore "$PYDIR/tests/test_hostile_race.py"
     --ignore "$PYDIR/tests/test_threads.py"
     --deselect tests/test_siv.py::test_openssl_txt_vectors_through_batches)  # (relative to --rootdir)
if [ "${LIBAEAD_CROSS_PY_FULL:-0}" = 1 ]; then
    sel=("${never[@]}" -m "not bigmem")
    # What tests/_pypi.py would install with pip at test time (the arm64 CPython has no pip): installed
    # here by the host's pip into the cache directory it looks in (pure Python).
    cv="cryptography_vectors==$(sed -n 's/^cryptography==\([^ ]*\) .*/\1/p' "$REPO/tests/cross/python-aarch64-requirements.txt")"
    [ -d "$OUT/test-cache/site-${cv//==/_}/cryptography_vectors" ] ||
        "$TOOLS/bin/pip" install -q --no-deps --only-binary=:all: --target "$OUT/test-cache/site-${cv//==/_}" "$cv" ||
        fail "pip install $cv"
fi
# The conformance vectors (pinned, checksummed, cached: tests/vectors.sh), as tests/run-all.sh gives them.
vectors=${AEAD_VECTORS_DIR:-$(bash "$REPO/tests/vectors.sh" | tail -n 1)}
[ -d "$vectors" ] || fail "no conformance vectors (tests/vectors.sh)"
suite() {  # backend, env...
    local expect=$1 ts
    shift
    ts=$(now)
    (cd "$OUT" && env "$@" AEAD_VECTORS_DIR="$vectors" PYTHONPATH="$OUT/site" LIBAEAD_EXPECT_BACKEND="$expect" LIBAEAD_TEST_CACHE="$OUT/test-cache" \
        LIBAEAD_EXPECT_MLKEM=0 \
        "${PY_ARM[@]}" -m pytest -q -p no:cacheprovider -c "$PYDIR/pyproject.toml" --rootdir "$PYDIR" "${sel[@]}" \
        --basetemp "$OUT/pytest-tmp-$expect" \
        "$PYDIR/tests") >"$OUT/pytest-$expect.log" 2>&1 || { tail -40 "$OUT/pytest-$expect.log"; fail "the suite ($expect) under qemu"; }
    grep -Eq '[0-9]+ passed' <(tail -1 "$OUT/pytest-$expect.log") || fail "no test passed ($expect)"
    ! grep -Eq '[0-9]+ (failed|error)' <(tail -1 "$OUT/pytest-$expect.log") || fail "failures ($expect)"
    echo "   backend $expect under qemu-aarch64: $(tail -1 "$OUT/pytest-$expect.log" | tr -d '=') ($(secs "$ts" "$(now)") s)"
}
echo "== pytest under qemu-aarch64 on Debian's arm64 CPython ($([ "${LIBAEAD_CROSS_PY_FULL:-0}" = 1 ] && echo "all but bigmem" || echo "the default selection: see the header"))"
source "$REPO/tests/lib/parallel.sh"
together "pytest under qemu-aarch64, backend fast" suite fast LIBAEAD_NO_FAST=0
together "pytest under qemu-aarch64, backend api" suite api LIBAEAD_NO_FAST=1
together_wait || fail "the suite under qemu (above)"
echo "python-wheel-aarch64: $(basename "$WHEEL") ($(du -h "$WHEEL" | cut -f1)) passed in $(secs "$t0" "$(now)") s"
