#!/usr/bin/env bash
# The default `bundled` build as a user gets it: a scratch crate in a fresh temporary directory,
# outside the repository, depends on this crate by path and runs `cargo test`, with no meson
# build and no PKG_CONFIG_PATH / LD_LIBRARY_PATH / LIBAEAD_* variables.
#   bash bindings/rust/test-bundled.sh             # bundled libaead + the system libcrypto
#   bash bindings/rust/test-bundled.sh --vendored  # bundled libaead + OpenSSL 3.5.5 (openssl-src)
# Needs: cargo, a C++20 compiler, pkg-config and libssl-dev (the default), or perl and make
# (--vendored). The scratch crate's test checks libaead against RustCrypto and that the test
# binary loads no libaead.so (and with --vendored, no libcrypto.so either).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODE=system
case "${1:-}" in
    "") ;;
    --vendored) MODE=vendored ;;
    *) echo "usage: $0 [--vendored]" >&2; exit 2 ;;
esac
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/libaead-scratch.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

FEATURES=""
[ "$MODE" = vendored ] && FEATURES=', features = ["vendored"]'
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
libaead = { path = "$HERE"$FEATURES }

[dev-dependencies]
aes-gcm = { version = "0.11.1", default-features = false, features = ["aes", "alloc"] }
TOML
echo 'pub use libaead;' >"$SCRATCH/lib.rs"
# The crate's lock file pins the same dependency versions the repository tests with.
cp "$HERE/Cargo.lock" "$SCRATCH/Cargo.lock"
cat >"$SCRATCH/tests/bundled.rs" <<RS
use libaead::aead::{Aead, KeyInit, Payload};

#[test]
fn bundled_library_works() {
    let v = libaead::version();
    assert!(v.starts_with("libaead 1.2"), "{v}");
    if "$MODE" == "vendored" {
        assert!(v.contains("OpenSSL 3.5.5"), "vendored OpenSSL expected: {v}");
    }
    assert!(libaead::version_number() >= 10200);
    let key = [0x42u8; 32];
    let theirs = aes_gcm::Aes256Gcm::new(&key.into());
    let ours = libaead::Aes256Gcm::new(&key.into());
    for len in [0usize, 1, 16, 64, 1000, 16384] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let nonce = [(len % 251) as u8; 12].into();
        let p = || Payload { msg: &msg, aad: b"scratch" };
        let ct = ours.encrypt(&nonce, p()).unwrap();
        assert_eq!(ct, theirs.encrypt(&nonce, p()).unwrap(), "{len}");
        assert_eq!(ours.decrypt(&nonce, Payload { msg: &ct, aad: b"scratch" }).unwrap(), msg);
    }
    let rn = libaead::Aes256GcmRandomNonce::new(&key.into());
    let sealed = rn.seal(b"", b"random").unwrap();
    let n = sealed[..12].try_into().unwrap();
    assert_eq!(theirs.decrypt(&n, &sealed[12..]).unwrap(), b"random");
}
RS

cd "$SCRATCH"
echo "== scratch crate in $SCRATCH (libcrypto: $MODE)"
env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH -u LIBAEAD_SYS_USE_PKG_CONFIG -u RUSTFLAGS \
    cargo test --jobs 2 2>&1 | tee "$SCRATCH/test.log"
BIN="$(ls target/debug/deps/bundled-* | grep -v '\.d$' | head -1)"
echo "== $BIN links:"
ldd "$BIN" | tee "$SCRATCH/ldd.txt"
if grep -q 'libaead' "$SCRATCH/ldd.txt"; then
    echo "test-bundled.sh: the test binary loads a shared libaead; the bundled copy was not used" >&2
    exit 1
fi
if [ "$MODE" = vendored ] && grep -q 'libcrypto' "$SCRATCH/ldd.txt"; then
    echo "test-bundled.sh: --vendored binary loads a shared libcrypto" >&2
    exit 1
fi
echo "== bindings/rust bundled ($MODE): passed"
