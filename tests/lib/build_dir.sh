# The meson build of the C library that a test script links, set up one way for every script (sourced):
#   use_build_dir NAME   AEAD_BUILD_DIR (default <repo>/build), made absolute, must hold libaead.so.1 and
#                        meson-uninstalled/ (else "NAME: ..." and exit 1); exported with pkg-config's path
#                        (meson's aead-uninstalled.pc first) and the loader's (its libaead.so.1 first).
# shellcheck shell=bash
use_build_dir() {
    local want
    want="${AEAD_BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}"
    AEAD_BUILD_DIR="$(cd "$want" 2>/dev/null && pwd)" &&
        [ -e "$AEAD_BUILD_DIR/libaead.so.1" ] && [ -d "$AEAD_BUILD_DIR/meson-uninstalled" ] || {
        echo "$1: $want has no libaead.so.1 or meson-uninstalled/: build the C library first" \
            "(meson setup build && meson compile -C build, or tests/run-all.sh build)" >&2
        exit 1
    }
    export AEAD_BUILD_DIR PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export LD_LIBRARY_PATH="$AEAD_BUILD_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
