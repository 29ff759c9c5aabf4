#!/usr/bin/env bash
# Benchmarks of the Rust binding: this crate vs a direct unsafe aead_seal_open call vs RustCrypto
# aes-gcm, AES-128-GCM at 64 B and 16 KiB. Prints criterion's output, then a Markdown table.
#   bash bindings/rust/bench.sh              # everything (about 2 minutes after the build)
#   bash bindings/rust/bench.sh seal_64      # criterion filter
# Uses the C library in $AEAD_BUILD_DIR (default: <repo>/build).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
AEAD_BUILD_DIR="$(cd "$AEAD_BUILD_DIR" && pwd)"
export PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$AEAD_BUILD_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CRITERION_HOME="$HERE/target/criterion"

cd "$HERE"
cargo bench --locked -p libaead-bench --bench seal_open -- "$@"
