//! HPKE's post-quantum KEMs and one-stage KDFs (draft-ietf-hpke-pq, library 1.6): every case of
//! Go's hpke-pq.json, the key sizes, and round trips with generated keys for each PQ KEM. The PQ
//! KEMs need ML-KEM in libcrypto (OpenSSL 3.5 or later): on an older one every call with them is
//! asserted to be refused with `Error::Unsupported` (never skipped). Self-contained (libaead and
//! serde_json only): test.py --package runs this file against the packaged crate too.
#[path = "common/vectors.rs"]
mod vectors;

use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Options, PrivateKey, PskBundle, PublicKey, Suite};
use libaead::Error;
use std::collections::BTreeMap;

const PQ_KEMS: [Kem; 6] = [Kem::MlKem512, Kem::MlKem768, Kem::MlKem1024, Kem::MlKem768P256, Kem::MlKem1024P384, Kem::MlKem768X25519];

fn is_pq(kem: Kem) -> bool {
    PQ_KEMS.contains(&kem)
}

fn turboshake(kdf: Kdf) -> bool {
    matches!(kdf, Kdf::TurboShake128 | Kdf::TurboShake256)
}

/// Whether the loaded libcrypto has ML-KEM: OpenSSL 3.5 or later, read from the version text
/// ("libaead X.Y.Z (OpenSSL A.B.C ...)").
fn mlkem_expected() -> bool {
    let v = libaead::version();
    let rest = v.split("OpenSSL ").nth(1).unwrap_or_else(|| panic!("no OpenSSL version in {v:?}"));
    let mut parts = rest.split(|c: char| !c.is_ascii_digit()).map(|p| p.parse::<u32>().unwrap());
    let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
    (major, minor) >= (3, 5)
}

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd hex length");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn field(case: &serde_json::Value, name: &str) -> Vec<u8> {
    hex(case[name].as_str().unwrap_or_else(|| panic!("vector field {name}")))
}

fn export(f: impl Fn(&mut [u8]) -> Result<(), Error>, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    f(&mut out).unwrap();
    out
}

/// Every case of draft-ietf-hpke-pq's vectors (hpke/hpke-pq.json, Go 1.26's file, by
/// tests/vectors.py; a missing file fails): 13 cases in base mode. With ML-KEM: the 10 whose KDF
/// OpenSSL has pass (DeriveKeyPair gives the keys, the public key of the private key, enc from
/// ikmE, every encryption in sequence and every export on both sides), the 3 TurboSHAKE ones are
/// refused; without: the 2 DHKEM + SHAKE ones pass and 11 are refused. A refused case is refused
/// as sender and as receiver.
#[test]
fn hpke_pq_vectors() {
    let path = vectors::vectors_dir().join("hpke/hpke-pq.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (tests/vectors.py fetches it)", path.display()));
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("hpke-pq.json is JSON");
    let pq = mlkem_expected();
    // suite -> (cases, encryptions, exports)
    let mut counts: BTreeMap<(u16, u16, u16), [usize; 3]> = BTreeMap::new();
    let (mut passed, mut refused_turboshake, mut refused_mlkem) = (0usize, 0usize, 0usize);
    for (i, case) in cases.iter().enumerate() {
        let id = |k: &str| u16::try_from(case[k].as_u64().unwrap()).unwrap();
        let suite = Suite::new(
            Kem::from_id(id("kem_id")).unwrap_or_else(|| panic!("case {i}: KEM {:#x}", id("kem_id"))),
            Kdf::from_id(id("kdf_id")).unwrap_or_else(|| panic!("case {i}: KDF {:#x}", id("kdf_id"))),
            Aead::from_id(id("aead_id")).unwrap(),
        );
        let what = format!("case {i} ({suite:?})");
        assert_eq!(case["mode"].as_u64(), Some(0), "{what}: base mode");
        let (sk_file, pk_file, enc_file) = (field(case, "skRm"), field(case, "pkRm"), field(case, "enc"));
        assert_eq!(sk_file.len(), suite.kem.private_key_len(), "{what}");
        assert_eq!(pk_file.len(), suite.kem.public_key_len(), "{what}");
        assert_eq!(enc_file.len(), suite.kem.enc_len(), "{what}");
        let (info, ikm_e) = (field(case, "info"), field(case, "ikmE"));
        let with_ikm_e = Options::new().ikm_e_for_tests_only(&ikm_e);
        if turboshake(suite.kdf) || (is_pq(suite.kem) && !pq) {
            let s = hpke::setup_sender_with(&suite, &OpModeS::Base, &pk_file, &info, &with_ikm_e);
            assert_eq!(s.err(), Some(Error::Unsupported), "{what}: sender");
            let r = hpke::setup_receiver(&suite, &OpModeR::Base, &sk_file, &enc_file, &info);
            assert_eq!(r.err(), Some(Error::Unsupported), "{what}: receiver");
            *(if turboshake(suite.kdf) { &mut refused_turboshake } else { &mut refused_mlkem }) += 1;
            continue;
        }
        let (sk_r, pk_r) = suite.kem.derive_keypair(&field(case, "ikmR")).unwrap();
        assert_eq!(sk_r.as_bytes(), sk_file, "{what}: skR");
        assert_eq!(pk_r.as_bytes(), pk_file, "{what}: pkR");
        assert_eq!(PrivateKey::from_bytes(suite.kem, &sk_file).unwrap().public_key().unwrap(), pk_r, "{what}");
        let (enc, tx) = hpke::setup_sender_with(&suite, &OpModeS::Base, pk_r.as_bytes(), &info, &with_ikm_e).unwrap();
        assert_eq!(enc.as_bytes(), enc_file, "{what}: enc");
        let rx = hpke::setup_receiver(&suite, &OpModeR::Base, sk_r.as_bytes(), &enc_file, &info).unwrap();
        let n = counts.entry((suite.kem.id(), suite.kdf.id(), suite.aead.id())).or_default();
        n[0] += 1;
        for (seq, e) in case["encryptions"].as_array().expect("encryptions").iter().enumerate() {
            let (aad, pt, ct) = (field(e, "aad"), field(e, "pt"), field(e, "ct"));
            assert_eq!(tx.seal(&pt, &aad).unwrap(), ct, "{what}: encryption {seq}");
            assert_eq!(rx.open(&ct, &aad).unwrap(), pt, "{what}: open {seq}");
            n[1] += 1;
        }
        for x in case["exports"].as_array().expect("exports") {
            let (ctx, want) = (field(x, "exporter_context"), field(x, "exported_value"));
            assert_eq!(x["L"].as_u64().unwrap() as usize, want.len());
            assert_eq!(export(|o| tx.export(&ctx, o), want.len()), want, "{what}: sender export");
            assert_eq!(export(|o| rx.export(&ctx, o), want.len()), want, "{what}: receiver export");
            n[2] += 1;
        }
        passed += 1;
    }
    println!(
        "hpke/hpke-pq.json: {} cases: {passed} passed, {refused_turboshake} refused (TurboSHAKE), {refused_mlkem} refused (PQ KEM, no ML-KEM) on {}",
        cases.len(),
        libaead::version()
    );
    for (s, n) in &counts {
        println!("hpke/hpke-pq.json: kem {:#06x} kdf {:#06x} aead {:#06x}: {} cases, {} encryptions, {} exports", s.0, s.1, s.2, n[0], n[1], n[2]);
    }
    assert_eq!(cases.len(), 13);
    assert_eq!(refused_turboshake, 3);
    assert_eq!((passed, refused_mlkem), if pq { (10, 0) } else { (2, 8) });
    assert_eq!(counts.len(), passed);
    assert!(counts.values().all(|n| *n == [1, 10, 5]), "{counts:?}");
    let p384_shake = (Kem::DhP384HkdfSha384.id(), Kdf::Shake256.id(), Aead::AesGcm256.id());
    assert!(counts.contains_key(&p384_shake));
    if pq {
        for kem in PQ_KEMS {
            let n: usize = counts.iter().filter(|(s, _)| s.0 == kem.id()).map(|(_, n)| n[0]).sum();
            let want = if matches!(kem, Kem::MlKem768P256 | Kem::MlKem768X25519) { 2 } else { 1 };
            assert_eq!(n, want, "{kem:?}");
        }
    }
}

/// Enc, public key and private key sizes of each PQ KEM (`aead_hpke_public_key_size` for the
/// public key); a key of another length is `Error::KeySize`. Without ML-KEM every key and setup
/// call with a PQ KEM is `Error::Unsupported`.
#[test]
fn pq_sizes_and_refusals() {
    let sizes = [(768, 800, 64), (1088, 1184, 64), (1568, 1568, 64), (1153, 1249, 32), (1665, 1665, 32), (1120, 1216, 32)];
    for (kem, want) in PQ_KEMS.into_iter().zip(sizes) {
        assert_eq!((kem.enc_len(), kem.public_key_len(), kem.private_key_len()), want, "{kem:?}");
        assert!(want.0 <= hpke::MAX_PQ_ENC_LEN && want.1 <= hpke::MAX_PQ_ENC_LEN && want.2 <= hpke::MAX_PRIVATE_KEY_LEN);
        assert_eq!(PublicKey::from_bytes(kem, &vec![1u8; want.0 + 1]).unwrap_err(), Error::KeySize, "{kem:?}");
        assert_eq!(PrivateKey::from_bytes(kem, &[1u8; 48]).unwrap_err(), Error::KeySize, "{kem:?}");
    }
    assert_eq!(Kem::MlKem1024P384.enc_len(), hpke::MAX_PQ_ENC_LEN);
    assert_eq!(Kem::X25519HkdfSha256.public_key_len(), Kem::X25519HkdfSha256.enc_len());
    assert_eq!(Kem::MlKem768X25519.id(), 0x647a);
    if mlkem_expected() {
        return; // pq_round_trips runs every PQ KEM
    }
    for kem in PQ_KEMS {
        assert_eq!(kem.gen_keypair().unwrap_err(), Error::Unsupported, "{kem:?}");
        assert_eq!(kem.derive_keypair(&[7u8; 32]).unwrap_err(), Error::Unsupported, "{kem:?}");
        let sk = PrivateKey::from_bytes(kem, &vec![7u8; kem.private_key_len()]).unwrap();
        assert_eq!(sk.public_key().unwrap_err(), Error::Unsupported, "{kem:?}");
        let (pk, enc) = (vec![7u8; kem.public_key_len()], vec![7u8; kem.enc_len()]);
        for kdf in [Kdf::HkdfSha256, Kdf::Shake256] {
            let suite = Suite::new(kem, kdf, Aead::AesGcm128);
            assert_eq!(hpke::setup_sender(&suite, &OpModeS::Base, &pk, b"").err(), Some(Error::Unsupported), "{suite:?}");
            assert_eq!(hpke::setup_receiver(&suite, &OpModeR::Base, sk.as_bytes(), &enc, b"").err(), Some(Error::Unsupported), "{suite:?}");
        }
    }
}

/// Seals three messages (one through the single-shot call), opens them, refuses a tampered one and
/// compares exports, for one suite and mode with a generated recipient key.
fn round_trip(suite: Suite, mode_s: &OpModeS<'_>, mode_r: &OpModeR<'_>, sk_r: &PrivateKey, pk_r: &PublicKey) {
    let info = b"hpke-pq round trip";
    let (enc, tx) = hpke::setup_sender(&suite, mode_s, pk_r.as_bytes(), info).unwrap();
    assert_eq!(enc.as_bytes().len(), suite.kem.enc_len());
    let rx = hpke::setup_receiver(&suite, mode_r, sk_r.as_bytes(), enc.as_bytes(), info).unwrap();
    let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
    tx.export(b"ctx", &mut a).unwrap();
    rx.export(b"ctx", &mut b).unwrap();
    assert_eq!(a, b, "{suite:?}");
    assert_ne!(a, [0u8; 64]);
    if suite.aead == Aead::ExportOnly {
        assert_eq!(tx.seal(b"m", b""), Err(Error::Arg));
        return;
    }
    for len in [0usize, 17, 1000] {
        let pt: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
        let ct = tx.seal(&pt, b"aad").unwrap();
        let mut bad = ct.clone();
        bad[len / 2] ^= 4;
        assert_eq!(rx.open(&bad, b"aad"), Err(Error::Auth), "{suite:?}: tampered");
        assert_eq!(rx.open(&ct, b"aad").unwrap(), pt, "{suite:?}");
    }
    let (enc, ct) = hpke::single_shot_seal(&suite, mode_s, pk_r.as_bytes(), info, b"one shot", b"").unwrap();
    assert_eq!(hpke::single_shot_open(&suite, mode_r, sk_r.as_bytes(), enc.as_bytes(), info, &ct, b"").unwrap(), b"one shot");
}

/// With ML-KEM: each PQ KEM with generated keys (sizes, DeriveKeyPair deterministic, the public key
/// of the private key) round-trips with HKDF and SHAKE, every AEAD, in base and psk mode; the
/// auth modes are `Error::Arg`. The DHKEMs with the SHAKE KDFs in every mode (any OpenSSL 3).
#[test]
fn pq_round_trips() {
    let bundle = PskBundle { psk: &[0x5a; 32], psk_id: b"psk id" };
    let mut trips = 0;
    let kems: &[Kem] = if mlkem_expected() { &PQ_KEMS } else { &[] };
    for &kem in kems {
        let (sk_r, pk_r) = kem.gen_keypair().unwrap();
        assert_eq!((pk_r.as_bytes().len(), sk_r.as_bytes().len()), (kem.public_key_len(), kem.private_key_len()));
        assert_eq!(sk_r.public_key().unwrap(), pk_r, "{kem:?}");
        let d = kem.derive_keypair(b"derive me, deterministically").unwrap();
        assert_eq!(kem.derive_keypair(b"derive me, deterministically").unwrap().1, d.1, "{kem:?}");
        assert_ne!(d.1, pk_r);
        let (sk_s, pk_s) = kem.gen_keypair().unwrap();
        for kdf in [Kdf::HkdfSha256, Kdf::HkdfSha512, Kdf::Shake128, Kdf::Shake256] {
            for &aead in Aead::ALL {
                let suite = Suite::new(kem, kdf, aead);
                round_trip(suite, &OpModeS::Base, &OpModeR::Base, &sk_r, &pk_r);
                round_trip(suite, &OpModeS::Psk(bundle), &OpModeR::Psk(bundle), &sk_r, &pk_r);
                trips += 2;
                let auth = hpke::setup_sender(&suite, &OpModeS::Auth(sk_s.as_bytes()), pk_r.as_bytes(), b"");
                assert_eq!(auth.err(), Some(Error::Arg), "{suite:?}: auth");
                let enc = vec![0u8; kem.enc_len()];
                let auth = hpke::setup_receiver(&suite, &OpModeR::AuthPsk(pk_s.as_bytes(), bundle), sk_r.as_bytes(), &enc, b"");
                assert_eq!(auth.err(), Some(Error::Arg), "{suite:?}: auth_psk");
            }
        }
    }
    for kem in [Kem::DhP256HkdfSha256, Kem::DhP384HkdfSha384, Kem::X25519HkdfSha256] {
        let (sk_r, pk_r) = kem.gen_keypair().unwrap();
        let (sk_s, pk_s) = kem.gen_keypair().unwrap();
        for kdf in [Kdf::Shake128, Kdf::Shake256] {
            let suite = Suite::new(kem, kdf, Aead::AesGcm256);
            round_trip(suite, &OpModeS::Base, &OpModeR::Base, &sk_r, &pk_r);
            round_trip(suite, &OpModeS::Psk(bundle), &OpModeR::Psk(bundle), &sk_r, &pk_r);
            round_trip(suite, &OpModeS::Auth(sk_s.as_bytes()), &OpModeR::Auth(pk_s.as_bytes()), &sk_r, &pk_r);
            round_trip(suite, &OpModeS::AuthPsk(sk_s.as_bytes(), bundle), &OpModeR::AuthPsk(pk_s.as_bytes(), bundle), &sk_r, &pk_r);
            trips += 4;
        }
        let turbo = Suite::new(kem, Kdf::TurboShake256, Aead::AesGcm128);
        assert_eq!(hpke::setup_sender(&turbo, &OpModeS::Base, pk_r.as_bytes(), b"").err(), Some(Error::Unsupported));
    }
    let pq_trips = if mlkem_expected() { 6 * 4 * 4 * 2 } else { 0 };
    assert_eq!(trips, pq_trips + 3 * 2 * 4);
    println!("hpke pq round trips: {trips} (PQ KEMs: {pq_trips}) on {}", libaead::version());
}
