#!/usr/bin/env bash
# The crate as a user gets it from a registry: the libaead .crate file is made (`cargo package`,
# with csrc/ from vendor-csrc.sh) and unpacked, and a scratch crate (a folder per mode in the cache,
# emptied but for its target/), outside the repository, depends on `libaead = "=X.Y.Z"` patched to
# that unpacked package (never to this directory) and runs `cargo test`, with no meson build and no
# PKG_CONFIG_PATH / LD_LIBRARY_PATH / LIBAEAD_* variables.
#   bash bindings/rust/test-bundled.sh              # bundled libaead + the system libcrypto
#   bash bindings/rust/test-bundled.sh --vendored   # bundled libaead + OpenSSL 3.5.5 (openssl-src)
#   bash bindings/rust/test-bundled.sh --pkg-config # default-features = false: the installed libaead
#                                                   # of a meson tree ($AEAD_BUILD_DIR, default <repo>/build)
# LIBAEAD_CRATE=<path to libaead-X.Y.Z.crate> tests that file instead of packaging this checkout.
# Needs: cargo, a C++20 compiler, pkg-config and libssl-dev (the default), or perl and make
# (--vendored), or a meson build of the C library (--pkg-config). The scratch crate's test checks
# libaead against RustCrypto and which libraries the test binary loads: no libaead.so when bundled
# (and with --vendored, no libcrypto.so either, and the package's NOTICE and LICENSE-OpenSSL.txt name
# the OpenSSL the library reports: check-notice.sh), the meson tree's libaead.so.1 with --pkg-config.
# It also runs the package's tests/hpke_pq.rs (draft-ietf-hpke-pq's vectors, hpke/hpke-pq.json from
# tests/vectors.sh): with --vendored's OpenSSL 3.5 the 10 cases OpenSSL can run pass, on a system
# OpenSSL without ML-KEM the post-quantum cases are refused.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
MODE=system
case "${1:-}" in
    "") ;;
    --vendored) MODE=vendored ;;
    --pkg-config) MODE=pkg-config ;;
    *) echo "usage: $0 [--vendored | --pkg-config]" >&2; exit 2 ;;
esac
# One scratch folder per mode in the cache, emptied but for its target/: cargo then reuses its builds of
# the registry crates (with --vendored, openssl-src's OpenSSL: minutes of CPU) while their versions stay,
# as it does for a user building twice; the unpacked libaead is new each time and so always compiled
# (checked below).
SCRATCH="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/rust-scratch-$MODE"
mkdir -p "$SCRATCH"
find "$SCRATCH" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +

VERSION="$(sed -n 's/^version = "\([^"]*\)"/\1/p' "$HERE/Cargo.toml" | head -1)"
if [ -n "${LIBAEAD_CRATE:-}" ]; then
    CRATE_FILE="$LIBAEAD_CRATE"
else
    # Not verified here (package.sh does that): the scratch build below is the build that counts.
    bash "$HERE/vendor-csrc.sh" >/dev/null
    (cd "$HERE" && cargo package -p libaead --allow-dirty --no-verify --quiet --target-dir "$SCRATCH/package-target")
    CRATE_FILE="$SCRATCH/package-target/package/libaead-$VERSION.crate"
fi
mkdir -p "$SCRATCH/crates"
tar -xzf "$CRATE_FILE" -C "$SCRATCH/crates"
PACKAGE="$SCRATCH/crates/libaead-$VERSION"
# tar keeps the archive's times: newer ones make cargo compile this libaead, not reuse the last run's.
find "$PACKAGE" -type f -exec touch {} +
[ -f "$PACKAGE/Cargo.toml" ] || { echo "test-bundled.sh: $CRATE_FILE holds no libaead-$VERSION/" >&2; exit 1; }
bash "$HERE/vendor-csrc.sh" --check "$PACKAGE/csrc"
echo "== $(basename "$CRATE_FILE"): $(wc -c <"$CRATE_FILE") bytes"

FEATURES=""
[ "$MODE" = vendored ] && FEATURES=', features = ["vendored"]'
[ "$MODE" = pkg-config ] && FEATURES=', default-features = false, features = ["alloc"]'
mkdir -p "$SCRATCH/tests"
cat >"$SCRATCH/Cargo.toml" <<TOML
[package]
name = "libaead-scratch"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[dependencies]
libaead = { version = "=$VERSION"$FEATURES }

[dev-dependencies]
aes-gcm = { version = "0.11.1", default-features = false, features = ["aes", "alloc"] }
aes-gcm-siv = { version = "0.12.1", default-features = false, features = ["aes", "alloc"] }
ccm = { version = "0.6.1", default-features = false, features = ["alloc"] }
ocb3 = { version = "0.2.0", default-features = false, features = ["alloc"] }
chacha20poly1305 = { version = "0.11.0", default-features = false, features = ["alloc"] }
aes = "0.9.4"
serde_json = "1"

# draft-ietf-hpke-pq's vectors and PQ round trips: the package's own test file.
[[test]]
name = "hpke_pq"
path = "$PACKAGE/tests/hpke_pq.rs"

# The unpacked .crate stands in for the libaead that crates.io would serve.
[patch.crates-io]
libaead = { path = "$PACKAGE" }
TOML
echo 'pub use libaead;' >"$SCRATCH/lib.rs"
# The crate's lock file pins the same dependency versions the repository tests with.
cp "$HERE/Cargo.lock" "$SCRATCH/Cargo.lock"
cp "$HERE/scratch/bundled.rs" "$SCRATCH/tests/bundled.rs"

# hpke_pq reads hpke/hpke-pq.json from the conformance vectors (tests/run-all.sh exports the directory).
AEAD_VECTORS_DIR="${AEAD_VECTORS_DIR:-$(bash "$REPO/tests/vectors.sh" | tail -n 1)}"
export AEAD_VECTORS_DIR
cd "$SCRATCH"
echo "== scratch crate in $SCRATCH (mode: $MODE)"
# scratch/bundled.rs is told the mode, the package's version and where to leave the version line.
RUN=(env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH -u LIBAEAD_SYS_USE_PKG_CONFIG -u RUSTFLAGS -u CARGO_TARGET_DIR
    SCRATCH_MODE="$MODE" SCRATCH_VERSION="$VERSION" SCRATCH_OUT="$SCRATCH")
if [ "$MODE" = pkg-config ]; then
    source "$REPO/tests/lib/build_dir.sh"
    use_build_dir "test-bundled.sh --pkg-config"
    # What a user of an installed libaead sets for a meson tree that is not installed (only these: RUN
    # drops what the environment had).
    RUN+=(PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled" LD_LIBRARY_PATH="$AEAD_BUILD_DIR")
fi
"${RUN[@]}" nice cargo test --jobs 2 -- --nocapture 2>&1 | tee "$SCRATCH/test.log"
# The counts follow the libcrypto's version (the test asserts them); OpenSSL 3.5's are fixed here.
PQ_WANT=""
[ "$MODE" = vendored ] && PQ_WANT="10 passed, 3 refused (TurboSHAKE), 0 refused"
grep -q "^hpke/hpke-pq.json: 13 cases: $PQ_WANT" "$SCRATCH/test.log" || {
    echo "test-bundled.sh: tests/hpke_pq.rs did not report \"13 cases: $PQ_WANT\"" >&2
    exit 1
}
grep -q "Compiling libaead v$VERSION ($PACKAGE)" "$SCRATCH/test.log" || {
    echo "test-bundled.sh: libaead was not compiled from the unpacked package $PACKAGE" >&2
    exit 1
}
BIN="$(ls target/debug/deps/bundled-* | grep -v '\.d$' | head -1)"
echo "== $BIN links:"
"${RUN[@]}" ldd "$BIN" | tee "$SCRATCH/ldd.txt"
if [ "$MODE" = pkg-config ]; then
    if ! grep -q "libaead.so.1 => $AEAD_BUILD_DIR/" "$SCRATCH/ldd.txt"; then
        echo "test-bundled.sh: --pkg-config binary does not load $AEAD_BUILD_DIR/libaead.so.1" >&2
        exit 1
    fi
    echo "== bindings/rust from its package (pkg-config, $AEAD_BUILD_DIR): passed"
    exit 0
fi
if grep -q 'libaead' "$SCRATCH/ldd.txt"; then
    echo "test-bundled.sh: the test binary loads a shared libaead; the bundled copy was not used" >&2
    exit 1
fi
if [ "$MODE" = vendored ] && grep -q 'libcrypto' "$SCRATCH/ldd.txt"; then
    echo "test-bundled.sh: --vendored binary loads a shared libcrypto" >&2
    exit 1
fi
# The package's NOTICE and OpenSSL's licence name the OpenSSL that the `vendored` build reports.
if [ "$MODE" = vendored ]; then
    bash "$REPO/tests/release/check-notice.sh" crate "$PACKAGE" "$(cat "$SCRATCH/version.txt")"
fi
echo "== bindings/rust from its package, bundled ($MODE): passed"
