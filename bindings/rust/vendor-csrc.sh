#!/usr/bin/env bash
# Puts the core's C++ sources (bindings/csrc.sh's copy: sources.txt, the sources it lists, the headers,
# build_config.h with meson.build's version) into csrc/, so that `cargo package` puts them inside the crate
# (as libsqlite3-sys ships sqlite3.c). csrc/ is generated, git-ignored and never edited. In a checkout,
# build.rs makes the same copy in its OUT_DIR; csrc/ is what a packaged crate (crates.io, a .crate file)
# compiles. It also copies the NOTICE and LICENSE-OpenSSL.txt that shim/openssl/build.sh writes into its
# cached build of OpenSSL 3.5 (the release the `vendored` feature links: openssl-src's pin) next to
# Cargo.toml, generated and git-ignored too, for the crate's `include` (docs/releasing.md, Licences), and
# libaegis's licence (LICENSE-libaegis.txt, the pinned aegis crate's: every build compiles libaegis in).
#   bash bindings/rust/vendor-csrc.sh              # (re)generate csrc/, NOTICE, LICENSE-OpenSSL.txt, LICENSE-libaegis.txt
#   bash bindings/rust/vendor-csrc.sh --check      # exit 1 unless csrc/ is exactly the repository's files
#   bash bindings/rust/vendor-csrc.sh --check DIR  # the same for DIR (e.g. an unpacked .crate's csrc/)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "${1:-}" in
    "") bash "$HERE/../csrc.sh" "$HERE/csrc"
        notice="$(bash "$HERE/../../shim/openssl/build.sh" 3.5 | tail -n 1)/notice"
        cp "$notice/NOTICE" "$notice/LICENSE-OpenSSL.txt" "$HERE/"
        cp "$(bash "$HERE/../../shim/aegis/fetch.sh" | tail -n 1)/LICENSE" "$HERE/LICENSE-libaegis.txt" ;;
    --check) bash "$HERE/../csrc.sh" --check "${2:-$HERE/csrc}" ;;
    *) echo "usage: $0 [--check [DIR]]" >&2; exit 2 ;;
esac
