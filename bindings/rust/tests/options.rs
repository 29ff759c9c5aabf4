//! ABI 1.1 context options: OpenSSL property queries, the provider name and the FIPS indicator,
//! and the version number. Under the default configuration nothing is FIPS; with
//! AEAD_TEST_FIPS=1 (a configuration whose only cipher provider is the FIPS one) the indicator
//! must say approved for TLS and random-nonce seals and for opens, never for arbitrary nonces.
mod common;

use common::{reference_seal, Rng};
use libaead::{
    sys, tls13_nonce, Aes128GcmRandomNonce, Aes128GcmSsh, Aes192GcmXorCounterNonce, Aes256GcmCounterNonce, Algorithm,
    ChaCha20Poly1305CounterNonce, Cipher, Error, Policy, Tls12Aead, Tls13Aead,
};

fn fips_run() -> bool {
    std::env::var_os("AEAD_TEST_FIPS").is_some_and(|v| v == "1")
}

#[test]
fn version_number_is_1_7() {
    assert_eq!(sys::AEAD_VERSION_NUMBER, 10700);
    assert!(libaead::version_number() >= sys::AEAD_VERSION_NUMBER, "{}", libaead::version_number());
    assert_eq!(libaead::version_number() / 10000, libaead::abi_version());
}

#[test]
fn property_queries_select_the_fetch() {
    let mut rng = Rng::from_env("property_queries_select_the_fetch");
    let key = rng.bytes(16);
    let nonce: [u8; 12] = rng.array();
    let msg = rng.msg();
    let want = reference_seal(Algorithm::Aes128Gcm, &key, &nonce, b"aad", &msg);
    let default_provider = if fips_run() { "fips" } else { "default" };
    for props in [None, Some(""), Some(if fips_run() { "fips=yes" } else { "provider=default" })] {
        let c = Cipher::with_options(Algorithm::Aes128Gcm, Policy::None, &key, 16, props, &[]).unwrap();
        assert_eq!(c.seal(&nonce, b"aad", &msg).unwrap(), want, "{props:?}");
        assert_eq!(c.provider(), default_provider, "{props:?}");
    }
    for props in ["provider=no-such-provider", "fips=yes,provider=no-such-provider"] {
        let r = Cipher::with_options(Algorithm::Aes128Gcm, Policy::None, &key, 16, Some(props), &[]);
        assert_eq!(r.unwrap_err(), Error::Unsupported, "{props}");
    }
    if !fips_run() {
        // No FIPS provider is loaded: asking for one fails cleanly.
        let r = Tls13Aead::with_options(Algorithm::Aes128Gcm, &key, &[0; 12], Some("fips=yes"));
        assert_eq!(r.unwrap_err(), Error::Unsupported);
    }
    // aead.h: at most 255 bytes; a NUL inside cannot be passed to C at all.
    let long = "a".repeat(256);
    let r = Cipher::with_options(Algorithm::Aes128Gcm, Policy::None, &key, 16, Some(&long), &[]);
    assert_eq!(r.unwrap_err(), Error::Arg);
    let r = Cipher::with_options(Algorithm::Aes128Gcm, Policy::None, &key, 16, Some("fips=yes\0"), &[]);
    assert_eq!(r.unwrap_err(), Error::Arg);
}

#[test]
fn indicator_per_policy() {
    let key16 = [7u8; 16];
    let key32 = [7u8; 32];
    let fips = fips_run();
    let none = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &key16, 16).unwrap().indicator();
    let tls12 = Tls12Aead::with_iv(Algorithm::Aes128Gcm, &key16, &[1; 12]).unwrap().indicator();
    let tls13 = Tls13Aead::with_iv(Algorithm::Aes256Gcm, &key32, &[1; 12]).unwrap().indicator();
    let learned = Tls13Aead::new(Algorithm::Aes128Gcm, &key16).unwrap().indicator();
    let random = Aes128GcmRandomNonce::try_new(&key16.into()).unwrap().indicator();
    // Library 1.5: counter nonces are IG C.H scenario 3, SSH's scenario 1.d.
    let counter = Aes256GcmCounterNonce::try_new(&key32.into()).unwrap().indicator();
    let xor = Aes192GcmXorCounterNonce::with_iv(&[7u8; 24].into(), &[1; 12]).unwrap().indicator();
    let ssh = Aes128GcmSsh::with_options(&key16.into(), Some(&[1; 12]), None).unwrap().indicator();
    for (name, ind) in [
        ("none", none),
        ("tls12", tls12),
        ("tls13", tls13),
        ("tls13 learned", learned),
        ("random", random),
        ("counter", counter),
        ("xor counter", xor),
        ("ssh", ssh),
    ] {
        assert_eq!(ind.fips_provider(), fips, "{name}");
        assert_eq!(ind.open_approved(), fips, "{name}");
        assert_eq!(ind.seal_approved(), fips && name != "none", "{name}");
        assert_eq!(ind.bits() & !7, 0, "{name}: unknown bits");
    }
    if !fips {
        let chacha = Tls13Aead::with_iv(Algorithm::ChaCha20Poly1305, &key32, &[1; 12]).unwrap();
        assert_eq!(chacha.indicator().bits(), 0, "ChaCha20-Poly1305 is never approved");
        assert_eq!(chacha.provider(), "default");
        let chacha = ChaCha20Poly1305CounterNonce::try_new(&key32.into()).unwrap();
        assert_eq!(chacha.indicator().bits(), 0, "ChaCha20-Poly1305 counter nonces are not approved");
    } else {
        let r = Tls13Aead::with_iv(Algorithm::ChaCha20Poly1305, &key32, &[1; 12]);
        assert_eq!(r.unwrap_err(), Error::Unsupported, "the FIPS provider has no ChaCha20-Poly1305");
        let r = ChaCha20Poly1305CounterNonce::try_new(&key32.into());
        assert_eq!(r.unwrap_err(), Error::Unsupported, "nor ChaCha20-Poly1305 counter nonces");
    }
    // Records sealed under an approved construction still equal RustCrypto's.
    let t = Tls13Aead::with_iv(Algorithm::Aes128Gcm, &key16, &[1; 12]).unwrap();
    let n = tls13_nonce(&[1; 12], 0);
    assert_eq!(t.seal(&n, &[0; 5], b"rec").unwrap(), reference_seal(Algorithm::Aes128Gcm, &key16, &n, &[0; 5], b"rec"));
}

#[test]
fn families_under_fips_queries() {
    // Library 1.2 families: only AES-CCM is in FIPS providers. Under AEAD_TEST_FIPS=1 a CCM
    // context is served by the FIPS provider with approved opens (and approved TLS seals); the
    // others (XChaCha20-Poly1305, OCB3, GCM-SIV) are Unsupported with "fips=yes", as they are
    // when no FIPS provider is loaded at all.
    let key = [0x2au8; 32];
    for alg in [Algorithm::XChaCha20Poly1305, Algorithm::Aes256Ocb3, Algorithm::Aes256GcmSiv] {
        let r = Cipher::with_options(alg, Policy::None, &key, 16, Some("fips=yes"), &[]);
        assert_eq!(r.unwrap_err(), Error::Unsupported, "{alg:?}");
    }
    // Library 1.3's AES-SIV: no FIPS provider has it either.
    let r = Cipher::with_options(Algorithm::Aes256Siv, Policy::None, &[0x2au8; 64], 16, Some("fips=yes"), &[]);
    assert_eq!(r.unwrap_err(), Error::Unsupported);
    let ccm = Cipher::with_options(Algorithm::Aes128Ccm, Policy::None, &key[..16], 16, Some("fips=yes"), &[]);
    let tls = Tls13Aead::with_options(Algorithm::Aes128Ccm, &key[..16], &[0; 12], Some("fips=yes"));
    if fips_run() {
        let (ccm, tls) = (ccm.unwrap(), tls.unwrap());
        assert_eq!(ccm.provider(), "fips");
        assert!(ccm.indicator().fips_provider() && ccm.indicator().open_approved());
        assert!(tls.indicator().seal_approved(), "TLS 1.3 CCM seals approved");
        let ct = ccm.seal(&[1u8; 13], b"", b"fips ccm").unwrap();
        assert_eq!(ccm.open(&[1u8; 13], b"", &ct).unwrap(), b"fips ccm");
    } else {
        assert_eq!(ccm.unwrap_err(), Error::Unsupported);
        assert_eq!(tls.unwrap_err(), Error::Unsupported);
        let c = Cipher::new(Algorithm::Aes128Ccm, Policy::None, &key[..16], 16).unwrap();
        assert!(!c.indicator().fips_provider(), "default provider");
    }
}

/// HPKE (library 1.6) and the FIPS provider (docs/hpke.md's table): under `fips=yes`, a NIST-curve
/// KEM with AES-GCM works and its indicator says FIPS provider, seal and open approved; export-only
/// says FIPS provider only; X25519 and ChaCha20-Poly1305 are `Unsupported` at setup. Without a FIPS
/// provider (the default run), `fips=yes` is `Unsupported` for every suite and the default
/// properties give an indicator without the FIPS bit.
#[test]
fn hpke_fips_indicator() {
    use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Options, Suite};
    let fips = Options::new().properties("fips=yes");
    let setup = |suite: Suite, o: &Options<'_>| {
        let (sk, pk) = suite.kem.gen_keypair()?;
        let (enc, tx) = hpke::setup_sender_with(&suite, &OpModeS::Base, pk.as_bytes(), b"", o)?;
        let rx = hpke::setup_receiver_with(&suite, &OpModeR::Base, sk.as_bytes(), enc.as_bytes(), b"", o)?;
        Ok::<_, Error>((tx, rx))
    };
    let p256 = Suite::new(Kem::DhP256HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
    let (tx, _) = setup(p256, &Options::new()).unwrap();
    if !fips_run() {
        assert!(!tx.indicator().fips_provider());
        assert_eq!(setup(p256, &fips).unwrap_err(), Error::Unsupported);
        return;
    }
    for (kem, kdf) in [(Kem::DhP256HkdfSha256, Kdf::HkdfSha256), (Kem::DhP384HkdfSha384, Kdf::HkdfSha384), (Kem::DhP521HkdfSha512, Kdf::HkdfSha512)] {
        for aead in [Aead::AesGcm128, Aead::AesGcm256] {
            let (tx, rx) = setup(Suite::new(kem, kdf, aead), &fips).unwrap();
            let ind = tx.indicator();
            assert!(ind.fips_provider() && ind.seal_approved() && ind.open_approved(), "{kem:?} {aead:?}: {ind:?}");
            assert_eq!(rx.open(&tx.seal(b"fips", b"").unwrap(), b"").unwrap(), b"fips");
        }
        let (tx, _) = setup(Suite::new(kem, kdf, Aead::ExportOnly), &fips).unwrap();
        let ind = tx.indicator();
        assert!(ind.fips_provider() && !ind.seal_approved() && !ind.open_approved(), "{kem:?} export-only: {ind:?}");
        assert_eq!(setup(Suite::new(kem, kdf, Aead::ChaCha20Poly1305), &fips).unwrap_err(), Error::Unsupported);
    }
    for kem in [Kem::X25519HkdfSha256, Kem::X448HkdfSha512] {
        let suite = Suite::new(kem, Kdf::HkdfSha256, Aead::AesGcm128);
        // The curve's base point (u = 9, u = 5) as the recipient's key: a valid one, but no FIPS
        // provider has the curve, so neither the key pair nor the setup can be made.
        let mut pk = vec![0u8; kem.enc_len()];
        pk[0] = if kem == Kem::X25519HkdfSha256 { 9 } else { 5 };
        assert_eq!(kem.gen_keypair().unwrap_err(), Error::Unsupported);
        assert_eq!(hpke::setup_sender_with(&suite, &OpModeS::Base, &pk, b"", &fips).unwrap_err(), Error::Unsupported);
    }
}
