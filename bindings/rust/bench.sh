#!/usr/bin/env bash
# Benchmark of the Rust binding (benches/seal_open.rs): libaead vs RustCrypto aes-gcm, ring,
# aws-lc-rs and a direct C call, AES-128-GCM seal/open at 64 B and 16 KiB, interleaved A/B.
# Prints a Markdown table; writes JSON to $LIBAEAD_BENCH_JSON (default target/bench-rust.json).
#   bash bindings/rust/bench.sh
# By default libaead is the crate's bundled build on OpenSSL 3.5.5 from openssl-src (the
# `vendored` feature; the first build compiles OpenSSL, a few minutes). To measure a meson build
# instead (e.g. -Dlibcrypto=vendored or system): LIBAEAD_SYS_USE_PKG_CONFIG=1 AEAD_BUILD_DIR=<dir>.
# Run it on a quiet machine; only the ratios, measured side by side, are meaningful.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${LIBAEAD_SYS_USE_PKG_CONFIG:-}" ]; then
    source "$HERE/../../tests/lib/build_dir.sh"
    use_build_dir bindings/rust/bench.sh
fi
cd "$HERE"
if cargo clippy --version >/dev/null 2>&1; then
    cargo clippy --locked -p libaead-bench --all-targets -- -D warnings
fi
cargo bench --locked -p libaead-bench --bench seal_open -- "$@"
