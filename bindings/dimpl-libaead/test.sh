#!/usr/bin/env bash
# Tests of bindings/dimpl-libaead, the dimpl (DTLS 1.2 / 1.3) crypto provider whose record
# protection is libaead: each suite's Cipher against dimpl's aws-lc-rs Cipher, full in-memory
# handshakes against dimpl + aws-lc-rs with 1 MiB echoed, then clippy with warnings as errors, then
# the UDP echo examples against dimpl + aws-lc-rs and Debian's openssl (udp_interop.py).
# Links the meson-built libaead in $AEAD_BUILD_DIR (default <repo>/build) through pkg-config.
# Crates from crates.io, pinned by Cargo.lock; aws-lc-sys compiles C with cmake on the first run.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
source "$REPO/tests/lib/build_dir.sh"
use_build_dir dimpl
for tool in cargo pkg-config cmake; do
    command -v "$tool" >/dev/null 2>&1 || { echo "dimpl: not available here: $tool (needed to build dimpl and aws-lc-sys)" >&2; exit 1; }
done
export LIBAEAD_SYS_USE_PKG_CONFIG=1
export RUSTFLAGS="-D warnings"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
# A target directory in the cache, shared by every clone: aws-lc-sys (minutes of C and cmake) is compiled
# once per version, not once per checkout; cargo rebuilds what comes from this checkout's paths (what
# earlier checkouts left there goes after days unread).
source <(python3 "$REPO/tests/lib/prune_cargo_target.py" --cache-target dimpl-libaead)
cd "$HERE"
echo "== cargo $(cargo --version | cut -d' ' -f2), library: $AEAD_BUILD_DIR"
cargo fetch --locked
out="$(cargo test --locked -- --nocapture 2>&1)" || { echo "$out"; exit 1; }
grep -E '^(test result|dtls1[23]:|V1[23]\(|[0-9]+ connections)' <<<"$out"
grep -q '^12 connections, 1 MiB echoed on each' <<<"$out" || { echo "dimpl: the handshake test printed no summary" >&2; exit 1; }
if ! cargo clippy --version >/dev/null 2>&1; then
    echo "dimpl: not available here: cargo clippy (rustup component add clippy)" >&2
    exit 1
fi
echo "== cargo clippy"
cargo clippy --locked --all-targets -- -D warnings
echo "== the Rust blocks of the README, built and run (tests/snippets/rust.py)"
python3 "$REPO/tests/snippets/rust.py" --crate "$HERE" "$HERE/README.md"
echo "== the examples over UDP: against dimpl + aws-lc-rs and openssl -dtls1_2, through tests/lib/fault_proxy.py (udp_interop.py)"
cargo build --locked --examples
python3 "$HERE/udp_interop.py" "$CARGO_TARGET_DIR/debug/examples"
echo "== bindings/dimpl-libaead: all tests passed"
