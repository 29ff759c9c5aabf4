#!/usr/bin/env bash
# The installed-library path: builds libaead from this checkout in a temporary
# directory, `meson install`s it into a temporary prefix, and runs the Go binding's test.sh against
# that prefix alone (every test; the race detector and the documents' blocks run on the build tree
# only): PKG_CONFIG_PATH is the prefix's pkgconfig directory (no build tree, no aead-uninstalled.pc),
# no LD_LIBRARY_PATH, and the test binaries find libaead.so.1 through an rpath to the prefix's libdir
# (TestLoadedLibrary checks that the prefix's copy is the one loaded).
#   bash bindings/go/test-installed.sh                       # system libcrypto
#   MESON_ARGS=-Dlibcrypto=vendored bash bindings/go/test-installed.sh
#   KEEP=1 ...                                                # keep the temporary directory
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TMP="$(mktemp -d /tmp/libaead-go-installed.XXXXXX)"
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$TMP"' EXIT; fi

echo "== meson setup/compile/install into $TMP/prefix ${MESON_ARGS:-}"
# shellcheck disable=SC2086 # MESON_ARGS is a list of options
nice -n 10 meson setup "$TMP/build" "$REPO" --prefix="$TMP/prefix" --buildtype=release ${MESON_ARGS:-} >"$TMP/setup.log"
# Only what gets installed: the library (header and .pc come with it).
nice -n 10 meson compile -C "$TMP/build" -j2 aead >"$TMP/compile.log"
meson install -C "$TMP/build" --no-rebuild --quiet
find "$TMP/prefix" -type f -o -type l | sed "s|$TMP/prefix/|   installed: |" | sort

# Nothing of the build tree may leak in: hide it from the tests.
rm -rf "$TMP/build"
unset AEAD_BUILD_DIR LD_LIBRARY_PATH PKG_CONFIG_PATH
echo "== pkg-config --cflags --libs aead: $(PKG_CONFIG_PATH="$(dirname "$(find "$TMP/prefix" -name aead.pc)")" pkg-config --cflags --libs aead)"
AEAD_PREFIX="$TMP/prefix" bash "$REPO/bindings/go/test.sh"
echo "== Go binding tests passed against the installed prefix"
