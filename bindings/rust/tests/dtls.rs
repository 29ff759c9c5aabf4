//! DTLS record keys (ABI 1.4): every suite against RustCrypto on random records (both directions,
//! in place and into a buffer), the replay window (a replay refused, a forged record far ahead
//! leaving the window where it was), DTLS 1.2's AAD check, and DTLS 1.3's one-call records.
mod common;

use aead::array::typenum::{U16, U8};
use aead::{Aead, KeyInit, Payload};
use common::Rng;
use libaead::dtls::{dtls12_aad, RecordKey, SequenceNumberKey, Version, MAX_SEQUENCE};
use libaead::{Algorithm, Error};

/// A RustCrypto AEAD of the same key, taking a 12-byte nonce.
type Reference = Box<dyn Fn(&[u8; 12], &[u8], &[u8]) -> Vec<u8>>;
type Opener = Box<dyn Fn(&[u8; 12], &[u8], &[u8]) -> Option<Vec<u8>>>;

fn reference(alg: Algorithm, key: &[u8], tag_len: usize) -> (Reference, Opener) {
    macro_rules! pair {
        ($c:expr) => {{
            let c = std::rc::Rc::new($c);
            let d = c.clone();
            (
                Box::new(move |n: &[u8; 12], aad: &[u8], m: &[u8]| {
                    c.encrypt(n.into(), Payload { msg: m, aad }).unwrap()
                }) as Reference,
                Box::new(move |n: &[u8; 12], aad: &[u8], m: &[u8]| d.decrypt(n.into(), Payload { msg: m, aad }).ok())
                    as Opener,
            )
        }};
    }
    match (alg, tag_len) {
        (Algorithm::Aes128Gcm, _) => pair!(aes_gcm::Aes128Gcm::new_from_slice(key).unwrap()),
        (Algorithm::Aes256Gcm, _) => pair!(aes_gcm::Aes256Gcm::new_from_slice(key).unwrap()),
        (Algorithm::ChaCha20Poly1305, _) => pair!(chacha20poly1305::ChaCha20Poly1305::new_from_slice(key).unwrap()),
        (Algorithm::Aes128Ccm, 8) => pair!(ccm::Ccm::<aes::Aes128, U8, aead::consts::U12>::new_from_slice(key).unwrap()),
        (Algorithm::Aes128Ccm, _) => pair!(ccm::Ccm::<aes::Aes128, U16, aead::consts::U12>::new_from_slice(key).unwrap()),
        (Algorithm::Aes256Ccm, 8) => pair!(ccm::Ccm::<aes::Aes256, U8, aead::consts::U12>::new_from_slice(key).unwrap()),
        (Algorithm::Aes256Ccm, _) => pair!(ccm::Ccm::<aes::Aes256, U16, aead::consts::U12>::new_from_slice(key).unwrap()),
        _ => unreachable!(),
    }
}

fn key_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::Aes128Gcm | Algorithm::Aes128Ccm => 16,
        _ => 32,
    }
}

fn iv_len(version: Version, alg: Algorithm) -> usize {
    match (version, alg) {
        (Version::Dtls12, Algorithm::ChaCha20Poly1305) => 12,
        (Version::Dtls12, _) => 4,
        _ => 12,
    }
}

/// The suites: (version, algorithm, tag length).
const SUITES: &[(Version, Algorithm, usize)] = &[
    (Version::Dtls12, Algorithm::Aes128Gcm, 16),
    (Version::Dtls12, Algorithm::Aes256Gcm, 16),
    (Version::Dtls12, Algorithm::ChaCha20Poly1305, 16),
    (Version::Dtls12, Algorithm::Aes128Ccm, 16),
    (Version::Dtls12, Algorithm::Aes128Ccm, 8),
    (Version::Dtls12, Algorithm::Aes256Ccm, 8),
    (Version::Dtls13, Algorithm::Aes128Gcm, 16),
    (Version::Dtls13, Algorithm::Aes256Gcm, 16),
    (Version::Dtls13, Algorithm::ChaCha20Poly1305, 16),
    (Version::Dtls13, Algorithm::Aes128Ccm, 16),
];

fn pair(rng: &mut Rng, version: Version, alg: Algorithm, tag: usize, epoch: u16) -> (RecordKey, RecordKey, Vec<u8>, Vec<u8>) {
    let key = rng.bytes(key_len(alg));
    let iv = rng.bytes(iv_len(version, alg));
    let mk = || match version {
        Version::Dtls12 => RecordKey::dtls12(alg, &key, &iv, epoch, tag, 0).unwrap(),
        Version::Dtls13 => RecordKey::dtls13(alg, &key, &iv.clone().try_into().unwrap(), u64::from(epoch), 0).unwrap(),
    };
    (mk(), mk(), key, iv)
}

fn aad_for(version: Version, rng: &mut Rng, epoch: u16, seq: u64, len: usize) -> Vec<u8> {
    match version {
        Version::Dtls12 => dtls12_aad(epoch, seq, 23, [0xfe, 0xfd], len as u16).to_vec(),
        Version::Dtls13 => {
            let n = 1 + rng.below(5);
            rng.bytes(n)
        }
    }
}

/// The nonce the RFC prescribes, computed here independently of the crate.
fn rfc_nonce(version: Version, iv: &[u8], epoch: u16, seq: u64) -> [u8; 12] {
    let explicit = match version {
        Version::Dtls12 => (u64::from(epoch) << 48) | seq,
        Version::Dtls13 => seq,
    }
    .to_be_bytes();
    let mut n = [0u8; 12];
    if iv.len() == 4 {
        n[..4].copy_from_slice(iv);
        n[4..].copy_from_slice(&explicit);
    } else {
        n.copy_from_slice(iv);
        for i in 0..8 {
            n[4 + i] ^= explicit[i];
        }
    }
    n
}

#[test]
fn every_suite_matches_rustcrypto_both_directions() {
    let mut rng = Rng::from_env("dtls differential");
    let mut records = 0;
    for &(version, alg, tag) in SUITES {
        let epoch = 1 + rng.below(100) as u16;
        let (sender, receiver, key, iv) = pair(&mut rng, version, alg, tag, epoch);
        let (seal_ref, open_ref) = reference(alg, &key, tag);
        let mut seq = rng.below(1000) as u64;
        for i in 0..200 {
            seq += 1 + rng.below(3) as u64;
            let msg = rng.bytes_below(1500);
            let aad = aad_for(version, &mut rng, epoch, seq, msg.len());
            let nonce = rfc_nonce(version, &iv, epoch, seq);
            assert_eq!(sender.nonce(seq), nonce);
            let want = seal_ref(&nonce, &aad, &msg);
            // libaead seals, in place or into a buffer (alternating); RustCrypto opens.
            let got = if i % 2 == 0 {
                let mut buf = msg.clone();
                buf.resize(msg.len() + tag, 0);
                let n = sender.seal_in_place(seq, &aad, &mut buf, msg.len()).unwrap();
                buf.truncate(n);
                buf
            } else {
                let mut out = vec![0; msg.len() + tag];
                let n = sender.seal(seq, &aad, &msg, &mut out).unwrap();
                out.truncate(n);
                out
            };
            assert_eq!(got, want, "{version:?} {alg:?} tag {tag}: seal of {} bytes", msg.len());
            assert_eq!(open_ref(&nonce, &aad, &got).as_deref(), Some(&msg[..]));
            // RustCrypto seals (the same bytes), libaead opens through the window.
            let opened = if i % 2 == 0 {
                let mut buf = want.clone();
                let n = receiver.open_in_place(seq, &aad, &mut buf).unwrap();
                buf.truncate(n);
                buf
            } else {
                let mut out = vec![0; want.len()];
                let n = receiver.open(seq, &aad, &want, &mut out).unwrap();
                out.truncate(n);
                out
            };
            assert_eq!(opened, msg);
            records += 1;
        }
        let (s, r) = (sender.usage(), receiver.usage());
        assert_eq!((s.seals, r.accepted, r.forgeries, r.replays), (200, 200, 0, 0), "{version:?} {alg:?}");
        assert_eq!(r.largest, Some(seq));
    }
    eprintln!("dtls differential: {records} records, {} suites", SUITES.len());
}

#[test]
fn replay_refused_and_forgery_far_ahead_leaves_the_window() {
    let mut rng = Rng::from_env("dtls replay");
    for &(version, alg, tag) in SUITES {
        let (sender, receiver, _, _) = pair(&mut rng, version, alg, tag, 3);
        let mut sealed = Vec::new();
        for seq in 1..=10u64 {
            let aad = aad_for(version, &mut rng, 3, seq, 5);
            let mut buf = b"hello".to_vec();
            buf.resize(5 + tag, 0);
            sender.seal_in_place(seq, &aad, &mut buf, 5).unwrap();
            sealed.push((seq, aad, buf));
        }
        // Deliver 1..=8, then 8 again: a replay, refused before decrypting, output untouched.
        for (seq, aad, ct) in &sealed[..8] {
            let mut buf = ct.clone();
            assert_eq!(receiver.open_in_place(*seq, aad, &mut buf), Ok(5));
        }
        let (seq, aad, ct) = &sealed[7];
        let mut buf = ct.clone();
        assert_eq!(receiver.open_in_place(*seq, aad, &mut buf), Err(Error::Replay), "{version:?} {alg:?}");
        assert_eq!(&buf, ct, "a refused replay writes nothing");
        let before = receiver.usage();
        assert_eq!((before.replays, before.accepted, before.largest), (1, 8, Some(8)));
        // A forgery claiming a record number far ahead: refused as a forgery, window unmoved.
        let far = 1_000_000u64;
        let aad_far = aad_for(version, &mut rng, 3, far, 5);
        let mut forged = rng.bytes(5 + tag);
        assert_eq!(receiver.open_in_place(far, &aad_far, &mut forged), Err(Error::Auth));
        assert!(forged[..5].iter().all(|&b| b == 0), "a forgery's plaintext is zeroed");
        let after = receiver.usage();
        assert_eq!(after.largest, Some(8), "{version:?} {alg:?}: the forgery moved the window");
        assert_eq!((after.forgeries, after.accepted), (1, 8));
        // So genuine records still in order (9, 10) and late-but-new ones are accepted.
        for (seq, aad, ct) in &sealed[8..] {
            let mut buf = ct.clone();
            assert_eq!(receiver.open_in_place(*seq, aad, &mut buf), Ok(5));
        }
        assert_eq!(receiver.usage().largest, Some(10));
        // The sender refuses a sequence number at or below the last sealed.
        let aad = aad_for(version, &mut rng, 3, 10, 5);
        let mut buf = [0u8; 64];
        assert_eq!(sender.seal_in_place(10, &aad, &mut buf, 5), Err(Error::NonceOrder));
        assert_eq!(sender.usage().seals, 10);
    }
}

#[test]
fn dtls12_aad_must_carry_the_nonces_epoch_and_seq() {
    let k = RecordKey::dtls12(Algorithm::Aes128Gcm, &[1; 16], &[2; 4], 1, 16, 0).unwrap();
    let mut buf = [0u8; 64];
    let aad = dtls12_aad(1, 6, 23, [0xfe, 0xfd], 5);
    assert_eq!(k.seal_in_place(5, &aad, &mut buf, 5), Err(Error::AadMismatch));
    assert_eq!(k.seal_in_place(5, &aad[..12], &mut buf, 5), Err(Error::AadSize));
    // Another epoch in the nonce is another key's record.
    let other = RecordKey::dtls12(Algorithm::Aes128Gcm, &[1; 16], &[2; 4], 2, 16, 0).unwrap();
    assert_eq!(k.seal_in_place_with_nonce(&other.nonce(5), &dtls12_aad(2, 5, 23, [0xfe, 0xfd], 5), &mut buf, 5), Err(Error::NoncePrefix));
    assert_eq!(k.seal_in_place(5, &dtls12_aad(1, 5, 23, [0xfe, 0xfd], 5), &mut buf, 5), Ok(21));
    assert_eq!(RecordKey::dtls12(Algorithm::Aes128Gcm, &[1; 16], &[2; 4], 1, 16, 100).unwrap_err(), Error::Arg);
    // A number above 2^48 - 1 is refused, not sealed or opened as its low 48 bits (seq 7 here).
    let big = (MAX_SEQUENCE + 1) | 7;
    let aad7 = dtls12_aad(1, 7, 23, [0xfe, 0xfd], 5);
    let mut out = [0x55u8; 64];
    assert_eq!(k.seal_in_place(big, &aad7, &mut out, 5), Err(Error::NonceExhausted));
    assert_eq!(k.seal(big, &aad7, &[1; 5], &mut out), Err(Error::NonceExhausted));
    assert_eq!(k.open(big, &aad7, &[0; 21], &mut out), Err(Error::NonceExhausted));
    assert_eq!(k.open_in_place(big, &aad7, &mut out[..21]), Err(Error::NonceExhausted));
    assert_eq!(out, [0x55u8; 64]);
    assert_eq!(k.usage().seals, 1);
    assert_eq!(k.seal_in_place(7, &aad7, &mut buf, 5), Ok(21));
    let w = RecordKey::dtls12(Algorithm::Aes128Gcm, &[1; 16], &[2; 4], 1, 16, 4096).unwrap();
    assert_eq!(w.usage().window, 4096);
    assert_eq!(w.usage().largest, None);
}

#[test]
fn dtls13_one_call_records_roundtrip_and_match_the_two_call_path() {
    let mut rng = Rng::from_env("dtls13 protect");
    for alg in [Algorithm::Aes128Gcm, Algorithm::Aes256Gcm, Algorithm::ChaCha20Poly1305, Algorithm::Aes128Ccm] {
        let key = rng.bytes(key_len(alg));
        let iv: [u8; 12] = rng.array();
        let sn_key = rng.bytes(key_len(alg));
        let sender = RecordKey::dtls13(alg, &key, &iv, 3, 0).unwrap();
        let receiver = RecordKey::dtls13(alg, &key, &iv, 3, 0).unwrap();
        let check = RecordKey::dtls13(alg, &key, &iv, 3, 0).unwrap();
        let sn = SequenceNumberKey::new(alg, &sn_key).unwrap();
        for seq in 0..50u64 {
            let plen = 16 + rng.below(300);
            let payload = rng.bytes(plen);
            // 0 0 1 C=0 S=1 L=1 E=3: header = first byte, 2-byte seq, 2-byte length.
            let mut rec = vec![0x2f, 0, 0, 0, 0];
            rec.extend_from_slice(&payload);
            rec.resize(5 + payload.len() + 16, 0);
            let n = sender.protect(&sn, seq, &mut rec, 5, payload.len()).unwrap();
            assert_eq!(n, rec.len());
            // Independently: unmask with the sn key, then open the same bytes on the two-call path.
            let mask = sn.mask(&rec[5..21]).unwrap();
            let mut hdr = rec[..5].to_vec();
            hdr[1] ^= mask[0];
            hdr[2] ^= mask[1];
            assert_eq!(u16::from_be_bytes([hdr[1], hdr[2]]), seq as u16);
            let mut body = rec[5..].to_vec();
            assert_eq!(check.open_in_place(seq, &hdr, &mut body), Ok(payload.len()));
            assert_eq!(&body[..payload.len()], &payload[..]);
            let mut again = rec.clone();
            assert_eq!(receiver.unprotect(&sn, &mut rec, 0), Ok((seq, payload.len())));
            assert_eq!(&rec[5..5 + payload.len()], &payload[..]);
            assert_eq!(receiver.unprotect(&sn, &mut again, 0), Err(Error::Replay));
        }
        assert_eq!(receiver.usage().replays, 50);
    }
}

#[test]
fn dtls_keys_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<RecordKey>();
    check::<SequenceNumberKey>();
}
