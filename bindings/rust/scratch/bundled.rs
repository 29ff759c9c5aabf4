//! The scratch crate's test (bindings/rust/test.py --package copies it there): libaead as a user gets it
//! from a registry, against RustCrypto. The script sets SCRATCH_MODE (system, vendored or pkg-config),
//! SCRATCH_VERSION (the package's version) and SCRATCH_OUT (where the version line goes, for its NOTICE
//! check).
use libaead::aead::{Aead, KeyInit, Payload};

fn scratch(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is set by test.py --package"))
}
fn vendored() -> bool {
    scratch("SCRATCH_MODE") == "vendored"
}
fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn bundled_library_works() {
    let v = libaead::version();
    std::fs::write(std::path::Path::new(&scratch("SCRATCH_OUT")).join("version.txt"), &v).unwrap();
    assert!(v.starts_with(&format!("libaead {} ", scratch("SCRATCH_VERSION"))), "{v}");
    if vendored() {
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
    if vendored() {
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
