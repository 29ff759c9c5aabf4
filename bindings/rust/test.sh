#!/usr/bin/env bash
# Tests of the Rust binding (bindings/rust) on the pkg-config path: the crate without its
# `bundled` feature, linked to the meson-built libaead in $AEAD_BUILD_DIR (default: <repo>/build).
# Run from anywhere, e.g. from the repository root:
#   bash bindings/rust/test.sh
# Needs: a Rust toolchain (cargo >= 1.85), pkg-config, and the C library already built.
# Crates come from crates.io (cargo fetch --locked). The default (bundled) build: test-bundled.sh.
#   bash bindings/rust/test.sh --fips   # also: tests/options.rs under the FIPS test provider
#                                       # (tests/fips/env.sh), expecting approved TLS/random seals
set -euo pipefail
FIPS=0
case "${1:-}" in
    "") ;;
    --fips) FIPS=1 ;;
    *) echo "usage: $0 [--fips]" >&2; exit 2 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
source "$REPO/tests/lib/build_dir.sh"
use_build_dir bindings/rust
command -v cargo >/dev/null 2>&1 || { echo "test.sh: cargo not found; install a Rust toolchain (>= 1.85)" >&2; exit 1; }
command -v pkg-config >/dev/null 2>&1 || { echo "test.sh: pkg-config not found (apt-get install pkg-config)" >&2; exit 1; }

# The workspace's benchmark member enables default features; this switch makes it (and anything
# else) link the meson build too.
export LIBAEAD_SYS_USE_PKG_CONFIG=1
export RUSTFLAGS="-D warnings"
export RUSTDOCFLAGS="-D warnings"
# Its own target folder in the cache, as the other crates' (tests/lib/common.sh): a fresh clone then
# compiles the binding, not its dev-dependencies again; what earlier clones left there goes after days unread.
source <(python3 "$REPO/tests/lib/prune_cargo_target.py" --cache-target rust)

cd "$HERE"
echo "== cargo $(cargo --version | cut -d' ' -f2), library: $AEAD_BUILD_DIR"
cargo fetch --locked
# The tests that print counts (HPKE, streaming, the conformance vectors) run once, below, with their
# output shown.
cargo test --locked --no-default-features --features alloc -- --skip rfc9180_vectors --skip interop_with_hpke_crate \
    --skip hpke_pq_vectors --skip rfc8188_against_oracle --skip age_against_oracle --skip tink_against_oracle \
    --skip wycheproof --skip nist_cavp --skip aegis_crate
echo "== HPKE (tests/hpke.rs): RFC 9180's vectors and interop with the hpke crate, their counts shown"
hpke_out="$(cargo test --locked --no-default-features --features alloc --test hpke \
    -- --nocapture --exact rfc9180_vectors interop_with_hpke_crate 2>&1)" || { echo "$hpke_out"; exit 1; }
grep -E '^hpke|^test result' <<<"$hpke_out"
[ "$(grep -cE '^hpke/rfc9180.json: 128 cases|^hpke interop: ' <<<"$hpke_out")" = 3 ] ||
    { echo "FAIL: tests/hpke.rs did not print its vector and interop counts" >&2; echo "$hpke_out"; exit 1; }
echo "== HPKE post-quantum (tests/hpke_pq.rs): draft-ietf-hpke-pq's vectors, their counts shown"
pq_out="$(cargo test --locked --no-default-features --features alloc --test hpke_pq \
    -- --nocapture --exact hpke_pq_vectors 2>&1)" || { echo "$pq_out"; exit 1; }
grep -E '^hpke/hpke-pq.json|^test result' <<<"$pq_out"
grep -q '^hpke/hpke-pq.json: 13 cases: ' <<<"$pq_out" ||
    { echo "FAIL: tests/hpke_pq.rs did not print its vector counts" >&2; echo "$pq_out"; exit 1; }
echo "== streaming AEAD (tests/stream.rs): each format against its RustCrypto oracle, the counts shown"
stream_out="$(cargo test --locked --no-default-features --features alloc --test stream \
    -- --nocapture --exact rfc8188_against_oracle age_against_oracle tink_against_oracle 2>&1)" || { echo "$stream_out"; exit 1; }
grep -oE '(rfc8188|age|tink) oracle: .*|^test result.*' <<<"$stream_out"
[ "$(grep -cE '(rfc8188|age|tink) oracle: ' <<<"$stream_out")" = 3 ] ||
    { echo "FAIL: tests/stream.rs did not print its oracle counts" >&2; echo "$stream_out"; exit 1; }
echo "== AEGIS (tests/aegis.rs): each variant and tag size against the aegis crate's pure-Rust code, the counts shown"
aegis_out="$(cargo test --locked --no-default-features --features alloc --test aegis -- --nocapture aegis_crate 2>&1)" ||
    { echo "$aegis_out"; exit 1; }
grep -E '^aegis crate: |^test result' <<<"$aegis_out"
[ "$(grep -cE '^aegis crate: AEGIS-.* tag (16|32): [0-9]+ cases, .* 0 disagreements$' <<<"$aegis_out")" = 12 ] ||
    { echo "FAIL: tests/aegis.rs did not report 12 runs against the aegis crate without disagreement" >&2; echo "$aegis_out"; exit 1; }
echo "== conformance vectors, per file (tests/vectors.rs, families.rs, siv.rs), their counts shown"
vec_out="$(cargo test --locked --no-default-features --features alloc --test vectors --test families --test siv \
    -- --nocapture wycheproof nist_cavp 2>&1)" || { echo "$vec_out"; exit 1; }
grep -E '^(wycheproof|nist-cavp)/' <<<"$vec_out" || { echo "FAIL: the vector tests printed no counts" >&2; exit 1; }
# The pkg-config path must really link the meson build's shared library.
API_BIN="$(ls -t "$CARGO_TARGET_DIR"/debug/deps/api-* | grep -v '\.d$' | head -1)"
if ! grep -q "libaead.so.1 => $AEAD_BUILD_DIR/" <<<"$(ldd "$API_BIN")"; then
    echo "test.sh: $API_BIN does not load $AEAD_BUILD_DIR/libaead.so.1:" >&2
    ldd "$API_BIN" >&2
    exit 1
fi
echo "== linked $AEAD_BUILD_DIR/libaead.so.1 through pkg-config"
echo "== the Rust blocks of README.md and this README, built and run (tests/snippets/rust.py)"
python3 "$REPO/tests/snippets/rust.py" --crate "$HERE" --self 'default-features = false, features = ["alloc"]' \
    "$REPO/README.md" "$HERE/README.md"
echo "== cargo doc (broken intra-doc links are errors)"
cargo doc --locked --no-deps
if cargo clippy --version >/dev/null 2>&1; then
    echo "== cargo clippy"
    # The binding only: the benchmark member (aws-lc-rs, ring) is linted by bench.sh.
    cargo clippy --locked -p libaead --all-targets -- -D warnings
else
    echo "== cargo clippy not installed: skipped"
fi
if [ "$FIPS" = 1 ]; then
    echo "== FIPS provider as the only cipher provider: tests/options.rs with AEAD_TEST_FIPS=1"
    # shellcheck source=/dev/null
    source "$REPO/tests/fips/env.sh"
    AEAD_TEST_FIPS=1 cargo test --locked --no-default-features --features alloc --test options
fi
echo "== bindings/rust: all tests passed"
