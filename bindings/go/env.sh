# Sourced (through bash) by test.py and bench.py: finds the repo root relative to this file and points pkg-config,
# the linker and the dynamic loader at one libaead, so that nothing else is picked up:
#   - AEAD_PREFIX set: an installed prefix (meson install; test.py --installed): PKG_CONFIG_PATH is that
#     prefix's pkgconfig directory only, and the test binaries carry an rpath to its libdir;
#   - otherwise the meson build directory AEAD_BUILD_DIR (default $REPO/build), through the
#     aead-uninstalled.pc meson writes there, and LD_LIBRARY_PATH.
# Exports AEAD_EXPECT_LIB_DIR (checked by TestLoadedLibrary) and AEAD_LIB (the libaead.so.1 file).
GO_BINDING_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$GO_BINDING_DIR/../.." && pwd)"

if [ -n "${AEAD_PREFIX:-}" ]; then
    AEAD_LIB="$(find "$AEAD_PREFIX" -name libaead.so.1 2>/dev/null | head -n 1)"
    if [ -z "$AEAD_LIB" ] || [ ! -e "$(dirname "$AEAD_LIB")/pkgconfig/aead.pc" ]; then
        echo "error: no libaead.so.1 with pkgconfig/aead.pc beside it under $AEAD_PREFIX" >&2
        exit 1
    fi
    AEAD_EXPECT_LIB_DIR="$(dirname "$AEAD_LIB")"
    export PKG_CONFIG_PATH="$AEAD_EXPECT_LIB_DIR/pkgconfig"
    export CGO_LDFLAGS="-Wl,-rpath,$AEAD_EXPECT_LIB_DIR${CGO_LDFLAGS:+ $CGO_LDFLAGS}"
    unset LD_LIBRARY_PATH
    AEAD_SOURCE="prefix $AEAD_PREFIX"
else
    source "$REPO/tests/lib/build_dir.sh"
    use_build_dir bindings/go  # aead-uninstalled.pc is what pkg-config then finds for "aead"
    AEAD_LIB="$AEAD_BUILD_DIR/libaead.so.1"
    AEAD_EXPECT_LIB_DIR="$AEAD_BUILD_DIR"
    AEAD_SOURCE="build tree $AEAD_BUILD_DIR"
fi
export AEAD_LIB AEAD_EXPECT_LIB_DIR
export CGO_ENABLED=1
# These scripts test one libaead.so (build tree or prefix): the binding's libaead_system build tag
# links it through pkg-config instead of compiling the bundled copy (test-module.sh tests that one).
case " ${GOFLAGS:-} " in
    *libaead_system*) ;;
    *) export GOFLAGS="-tags=libaead_system${GOFLAGS:+ $GOFLAGS}" ;;
esac

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    export PATH="/usr/local/go/bin:$PATH"
fi
command -v go >/dev/null 2>&1 || { echo "error: Go toolchain (go) not found in PATH" >&2; exit 1; }
if ! command -v pkg-config >/dev/null 2>&1; then
    echo "pkg-config missing: installing it with apt-get" >&2
    apt-get install -y pkg-config >/dev/null
fi
# Older toolchains fetch the Go release the modules ask for from the module proxy.
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

# vendored_libcrypto: true when libaead.so.1 needs no shared libcrypto (a -Dlibcrypto=vendored build).
vendored_libcrypto() {
    ! grep -q 'NEEDED.*libcrypto' <<<"$(LC_ALL=C readelf -d "$AEAD_LIB")"
}
