#!/usr/bin/env bash
# Puts the core's C++ sources (bindings/csrc.sh's copy: sources.txt, the sources it lists, the headers,
# build_config.h with meson.build's version) into csrc/, so that `cargo package` puts them inside the crate
# (as libsqlite3-sys ships sqlite3.c). csrc/ is generated, git-ignored and never edited. In a checkout,
# build.rs makes the same copy in its OUT_DIR; csrc/ is what a packaged crate (crates.io, a .crate file)
# compiles.
#   bash bindings/rust/vendor-csrc.sh              # (re)generate csrc/
#   bash bindings/rust/vendor-csrc.sh --check      # exit 1 unless csrc/ is exactly the repository's files
#   bash bindings/rust/vendor-csrc.sh --check DIR  # the same for DIR (e.g. an unpacked .crate's csrc/)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "${1:-}" in
    "") bash "$HERE/../csrc.sh" "$HERE/csrc" ;;
    --check) bash "$HERE/../csrc.sh" --check "${2:-$HERE/csrc}" ;;
    *) echo "usage: $0 [--check [DIR]]" >&2; exit 2 ;;
esac
