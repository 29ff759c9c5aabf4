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
cat >"$SCRATCH/tests/bundled.rs" <<RS
use libaead::aead::{Aead, KeyInit, Payload};

#[test]
fn bundled_library_works() {
    let v = libaead::version();
    std::fs::write("$SCRATCH/version.txt", &v).unwrap(); // for the NOTICE check (--vendored)
    assert!(v.starts_with("libaead $VERSION "), "{v}");
    if "$MODE" == "vendored" {
        assert!(v.contains("OpenSSL 3.5.5"), "vendored OpenSSL expected: {v}");
    }
    assert!(libaead::version_number() >= 10300);
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

/// The library 1.2 families are compiled in (shim/registry.h: a FamilyOps per family) and agree with
/// RustCrypto; AES-GCM-SIV exactly where the libcrypto has it (OpenSSL >= 3.2).
#[test]
fn bundled_families_work() {
    use libaead::aead::consts::{U13, U16};
    let key = [0x24u8; 32];
    let msg = b"families in the bundled build";
    let p = || Payload { msg, aad: b"ad" };
    let x = libaead::XChaCha20Poly1305::new(&key.into());
    let xn = [5u8; 24].into();
    assert_eq!(x.encrypt(&xn, p()).unwrap(), chacha20poly1305::XChaCha20Poly1305::new(&key.into()).encrypt(&xn, p()).unwrap());
    let k16: [u8; 16] = key[..16].try_into().unwrap();
    let c = libaead::Aes128Ccm::<U16, U13>::new(&k16.into());
    let cn = [6u8; 13].into();
    assert_eq!(c.encrypt(&cn, p()).unwrap(), ccm::Ccm::<aes::Aes128, U16, U13>::new(&k16.into()).encrypt(&cn, p()).unwrap());
    let o = libaead::Aes256Ocb3::<libaead::aead::consts::U12>::new(&key.into());
    let on = [7u8; 12].into();
    assert_eq!(o.encrypt(&on, p()).unwrap(), ocb3::Ocb3::<aes::Aes256>::new(&key.into()).encrypt(&on, p()).unwrap());
    let v = libaead::version();
    let old = v.contains("OpenSSL 3.0.") || v.contains("OpenSSL 3.1.");
    if "$MODE" == "vendored" {
        assert!(!old, "{v}");
    }
    match libaead::Aes256GcmSiv::try_new(&key.into()) {
        Ok(s) => {
            assert!(!old, "GCM-SIV on {v}");
            let n = [8u8; 12].into();
            assert_eq!(s.encrypt(&n, p()).unwrap(), aes_gcm_siv::Aes256GcmSiv::new(&key.into()).encrypt(&n, p()).unwrap());
        }
        Err(e) => {
            assert!(old, "GCM-SIV refused ({e:?}) on {v}");
            assert_eq!(e, libaead::Error::Unsupported);
            assert!(libaead::Aes256GcmSiv::new(&key.into()).encrypt(&[8u8; 12].into(), p()).is_err());
        }
    }
}
/// libaegis (library 1.7's AEGIS family, shim/aegis.cpp) is compiled in: RFC 10032's AEGIS-128L test
/// vector 4 with both tag sizes, and AEGIS-256X4 with random nonces round-trips.
#[test]
fn bundled_aegis_works() {
    use libaead::aead::consts::{U16, U32};
    let hex = |s: &str| -> Vec<u8> { (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect() };
    let key: [u8; 16] = hex("10010000000000000000000000000000").try_into().unwrap();
    let nonce: [u8; 16] = hex("10000200000000000000000000000000").try_into().unwrap();
    let (msg, aad) = (hex("000102030405060708090a0b0c0d"), hex("0001020304050607"));
    let p = || Payload { msg: &msg, aad: &aad };
    let c16 = libaead::Aegis128L::<U16>::new(&key.into());
    assert_eq!(c16.encrypt(&nonce.into(), p()).unwrap(), hex("79d94593d8c2119d7e8fd9b8fc775c04b3dba849b2701effbe32c7f0fab7"));
    let c32 = libaead::Aegis128L::<U32>::new(&key.into());
    assert_eq!(c32.encrypt(&nonce.into(), p()).unwrap(),
        hex("79d94593d8c2119d7e8fd9b8fc7786f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"));
    assert_eq!(c16.cipher().provider(), "libaegis");
    let rn = libaead::Aegis256X4RandomNonce::<U32>::new(&[3u8; 32].into());
    let sealed = rn.seal(b"ad", b"bundled").unwrap();
    assert_eq!(sealed.len(), 7 + 32 + 32);
    assert_eq!(rn.open(b"ad", &sealed).unwrap(), b"bundled");
}
/// HPKE (library 1.6, lib/hpke.cpp and shim/dh_hkdf.cpp) is compiled in: RFC 9180 A.1.1's first
/// encryption (DHKEM(X25519), HKDF-SHA256, AES-128-GCM, base mode), and a P-256 round trip.
#[test]
fn bundled_hpke_works() {
    use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Options, Suite};
    let hex = |s: &str| -> Vec<u8> { (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect() };
    let suite = Suite::new(Kem::X25519HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
    let (sk, pk) = suite.kem.derive_keypair(&hex("6db9df30aa07dd42ee5e8181afdb977e538f5e1fec8a06223f33f7013e525037")).unwrap();
    assert_eq!(pk.as_bytes(), hex("3948cfe0ad1ddb695d780e59077195da6c56506b027329794ab02bca80815c4d"));
    let info = hex("4f6465206f6e2061204772656369616e2055726e");
    let ikm_e = hex("7268600d403fce431561aef583ee1613527cff655c1343f29812e66706df3234");
    let (enc, tx) = hpke::setup_sender_with(&suite, &OpModeS::Base, pk.as_bytes(), &info, &Options::new().ikm_e_for_tests_only(&ikm_e)).unwrap();
    assert_eq!(enc.as_bytes(), hex("37fda3567bdbd628e88668c3c8d7e97d1d1253b6d4ea6d44c150f741f1bf4431"));
    let (aad, pt) = (hex("436f756e742d30"), hex("4265617574792069732074727574682c20747275746820626561757479"));
    let ct = tx.seal(&pt, &aad).unwrap();
    assert_eq!(ct, hex("f938558b5d72f1a23810b4be2ab4f84331acc02fc97babc53a52ae8218a355a96d8770ac83d07bea87e13c512a"));
    let rx = hpke::setup_receiver(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), &info).unwrap();
    assert_eq!(rx.open(&ct, &aad).unwrap(), pt);
    let p256 = Suite::new(Kem::DhP256HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm256);
    let (sk, pk) = p256.kem.gen_keypair().unwrap();
    let (enc, ct) = hpke::single_shot_seal(&p256, &OpModeS::Base, pk.as_bytes(), b"", b"p256", b"").unwrap();
    assert_eq!(hpke::single_shot_open(&p256, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"", &ct, b"").unwrap(), b"p256");
}
RS

# hpke_pq reads hpke/hpke-pq.json from the conformance vectors (tests/run-all.sh exports the directory).
AEAD_VECTORS_DIR="${AEAD_VECTORS_DIR:-$(bash "$REPO/tests/vectors.sh" | tail -n 1)}"
export AEAD_VECTORS_DIR
cd "$SCRATCH"
echo "== scratch crate in $SCRATCH (mode: $MODE)"
RUN=(env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH -u LIBAEAD_SYS_USE_PKG_CONFIG -u RUSTFLAGS -u CARGO_TARGET_DIR)
if [ "$MODE" = pkg-config ]; then
    AEAD_BUILD_DIR="$(cd "${AEAD_BUILD_DIR:-$REPO/build}" 2>/dev/null && pwd)" || {
        echo "test-bundled.sh: --pkg-config needs a meson build of the C library (meson setup build && meson compile -C build)" >&2
        exit 1
    }
    [ -e "$AEAD_BUILD_DIR/libaead.so.1" ] && [ -d "$AEAD_BUILD_DIR/meson-uninstalled" ] || {
        echo "test-bundled.sh: $AEAD_BUILD_DIR has no libaead.so.1 or meson-uninstalled/: build the C library first" >&2
        exit 1
    }
    # What a user of an installed libaead sets for a meson tree that is not installed.
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
