#!/usr/bin/env bash
# Copies the C++ sources the `bundled` build compiles (lib/, shim/ and include/ of the repository)
# into csrc/, so that `cargo package` puts them inside the crate (as libsqlite3-sys ships sqlite3.c).
# csrc/ is generated, git-ignored and never edited: the repository's lib/, shim/ and include/ are the
# only copy anyone edits. In a checkout, build.rs compiles ../../lib etc. directly; csrc/ is what a
# packaged crate (crates.io, a .crate file) compiles.
#   bash bindings/rust/vendor-csrc.sh          # (re)generate csrc/
#   bash bindings/rust/vendor-csrc.sh --check  # exit 1 unless csrc/ is exactly the repository's files
#   bash bindings/rust/vendor-csrc.sh --check DIR  # the same for DIR (e.g. an unpacked .crate's csrc/)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

# The file list, relative to the repository root: what build.rs compiles and includes. Test-only
# fault injection (shim/fault_injection.cpp) and the OpenSSL build scripts (shim/openssl/) stay out.
list_sources() {
    (cd "$REPO" && ls lib/*.cpp lib/*.h shim/*.cpp shim/*.h include/aead.h) | grep -vx 'shim/fault_injection.cpp' | LC_ALL=C sort
}

check() {
    local dir="$1" want got
    want="$(list_sources)"
    got="$(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)"
    if [ "$want" != "$got" ]; then
        echo "vendor-csrc.sh: $dir does not hold exactly the repository's files:" >&2
        diff <(echo "$want") <(echo "$got") >&2 || true
        return 1
    fi
    local f
    for f in $want; do
        cmp -s "$REPO/$f" "$dir/$f" || { echo "vendor-csrc.sh: $dir/$f differs from $REPO/$f" >&2; return 1; }
    done
    echo "== $dir: identical to the repository's $(echo "$want" | wc -l) source files"
}

case "${1:-}" in
    "")
        rm -rf "$HERE/csrc"
        list_sources | while read -r f; do
            mkdir -p "$HERE/csrc/$(dirname "$f")"
            cp -p "$REPO/$f" "$HERE/csrc/$f"
        done
        check "$HERE/csrc"
        ;;
    --check) check "${2:-$HERE/csrc}" ;;
    *) echo "usage: $0 [--check [DIR]]" >&2; exit 2 ;;
esac
