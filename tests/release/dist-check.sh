#!/usr/bin/env bash
# The C source tarball: `meson dist` (git archive of HEAD: committed files only) makes
# libaead-<version>.tar.xz; it is unpacked away from the checkout, configured, built and its
# unit and memory suites run there on their own, with no AEAD_VECTORS_DIR: the vectors suite fetches the
# conformance vectors through the tarball's own tests/vectors.sh and must pass. The FIPS, large and vendored-OpenSSL checks
# are other stages' and do not run here. meson dist's own test run (every suite, fips included) is
# replaced by this one (--no-tests), which also keeps it to the suites CI can afford.
# The tarball is kept in $AEAD_DIST_DIR (default <repo>/build-release/dist); $AEAD_RELEASE_TABLE, if
# set, gets one tab-separated row: artifact, size, build time, tests.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$REPO/build-release"
dist="${AEAD_DIST_DIR:-$work/dist}"
version="$(sed -n "s/^ *version *: *'\([0-9.]*\)'.*/\1/p" "$REPO/meson.build" | head -n 1)"
mkdir -p "$work" "$dist"

if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ]; then
    echo "== note: uncommitted changes are not in the tarball (meson dist archives HEAD)"
fi
echo "== meson dist (HEAD $(git -C "$REPO" rev-parse --short HEAD))"
[ -f "$work/c/build.ninja" ] || nice meson setup "$work/c" "$REPO" >"$work/c-setup.log"
nice meson dist -C "$work/c" --no-tests --allow-dirty --formats xztar >"$work/dist.log" 2>&1 ||
    { cat "$work/dist.log"; exit 1; }
tarball="$work/c/meson-dist/libaead-$version.tar.xz"
cp "$tarball" "$tarball.sha256sum" "$dist/"
echo "== $(basename "$tarball"): $(du -h "$tarball" | cut -f1), $(tar -tJf "$tarball" | grep -vc '/$') files"
for f in LICENSE README.md meson.build meson_options.txt include/aead.h lib/abi.cpp shim/ciphers.cpp \
    tests/meson.build tests/test_vectors.cpp tests/vectors.sh tests/vectors/Cargo.lock docs/releasing.md; do
    tar -tJf "$tarball" "libaead-$version/$f" >/dev/null 2>&1 || { echo "FAIL: the tarball lacks $f" >&2; exit 1; }
done

# Unpacked at a fixed place (so that ccache, with CCACHE_BASEDIR, reuses objects across runs), with
# nothing of the checkout's beside it: build-release/unpacked/libaead-<version>.
rm -rf "$work/unpacked"
mkdir -p "$work/unpacked"
tar -xJf "$tarball" -C "$work/unpacked"
src="$work/unpacked/libaead-$version"

export CCACHE_BASEDIR="$src"
start=$(date +%s)
nice meson setup "$src/build" "$src" >"$work/unpacked-setup.log" || { cat "$work/unpacked-setup.log"; exit 1; }
nice meson compile -C "$src/build" -j 2 >"$work/unpacked-compile.log" 2>&1 ||
    { tail -40 "$work/unpacked-compile.log"; exit 1; }
build_s=$(($(date +%s) - start))
echo "== configured and built from the tarball in $build_s s"

# As a distribution meets it: nothing but the tarball (its tests/vectors.sh fetches the vectors, or finds
# them in the cache).
out="$(cd "$src/build" && env -u AEAD_VECTORS_DIR meson test --suite unit --suite memory --print-errorlogs 2>&1)" || { echo "$out"; exit 1; }
echo "$out" | grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Skipped|Fail):' || true
echo "$out" | grep -Eq '^ *[0-9]+/[0-9]+ +(libaead:[a-z+]+ / )?vectors +OK' ||
    { echo "FAIL: the tarball's vectors suite did not pass" >&2; exit 1; }
passed="$(echo "$out" | awk '/^Ok:/ {print $2}')"
skipped="$(echo "$out" | awk '/^Skipped:/ {print $2}')"
[ "$skipped" = 0 ] || { echo "FAIL: $skipped suites skipped in the tarball's run" >&2; exit 1; }
vectors_note="vectors fetched by the tarball's tests/vectors.sh"
if [ -n "${AEAD_RELEASE_TABLE:-}" ]; then
    printf 'C source tarball (meson dist)\t%s\t%s s\t%s passed, %s skipped (%s)\n' \
        "$(du -h "$tarball" | cut -f1)" "$build_s" "$passed" "$skipped" "$vectors_note" >>"$AEAD_RELEASE_TABLE"
fi
echo "== the C tarball builds and passes its tests on its own"
