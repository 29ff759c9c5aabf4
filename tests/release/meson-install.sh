#!/usr/bin/env bash
# `meson install` of a -Dlibcrypto=vendored build (the release stage): the installed tree holds
# share/licenses/libaead/{LICENSE,NOTICE,LICENSE-OpenSSL.txt}, and the NOTICE names the OpenSSL version that
# the installed libaead.so.1 reports (check-notice.sh). The build directory is kept (build-release/vendored)
# so that a second run only relinks; the install goes to a temporary DESTDIR.
# $AEAD_RELEASE_TABLE, if set, gets one row: artifact, size, build time, tests.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$REPO/build-release/vendored"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "meson-install: FAIL: $*" >&2; exit 1; }

start=$(date +%s)
[ -f "$build/build.ninja" ] ||
    nice meson setup "$build" "$REPO" -Dlibcrypto=vendored -Dtests=false --buildtype=release --prefix=/usr \
        >"$TMP/setup.log" 2>&1 || { tail -30 "$TMP/setup.log"; fail "meson setup"; }
nice meson install -C "$build" --destdir "$TMP/root" --quiet >"$TMP/install.log" 2>&1 ||
    { tail -30 "$TMP/install.log"; fail "meson install"; }
secs=$(($(date +%s) - start))
lib=$(find "$TMP/root/usr" -name libaead.so.1 | head -1)
[ -n "$lib" ] || fail "no libaead.so.1 installed"
runtime=$(python3 -c 'import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.aead_version.restype = ctypes.c_char_p
print(lib.aead_version().decode())' "$lib")
licences="$TMP/root/usr/share/licenses/libaead"
notice=$(bash "$REPO/tests/release/check-notice.sh" "meson install (vendored)" "$licences" "$runtime") || exit 1
echo "$notice"
echo "meson-install: $(cd "$licences" && ls | tr '\n' ' ')in share/licenses/libaead; built and installed in $secs s"
[ -z "${AEAD_RELEASE_TABLE:-}" ] ||
    printf 'meson install -Dlibcrypto=vendored\t%s\t%s s\t%s\n' "$(du -h "$lib" | cut -f1)" "$secs" \
        "share/licenses/libaead: NOTICE names $(grep -Eo 'OpenSSL [0-9.]+[0-9]' <<<"$runtime" | head -1), as the library reports" >>"$AEAD_RELEASE_TABLE"
