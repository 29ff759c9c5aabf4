//! TLS contexts given their IV up front (ABI 1.1, `with_iv`): every accepted record equals
//! RustCrypto's output for the nonce the construction defines, sequences are checked without a
//! learning seal (first seal at any sequence, concurrent first seals), rustls's TLS 1.2 masked
//! explicit nonce is accepted, and invalid IV lengths are refused.
mod common;

use common::tls::Tls;
use common::{key_len, reference_seal, Rng, ALGS};
use libaead::{tls12_gcm_nonce, tls13_nonce, Algorithm, Cipher, Error, Policy, Tls12Aead, Tls13Aead};
use std::collections::HashSet;
use std::sync::Mutex;

const AES: [Algorithm; 3] = [Algorithm::Aes128Gcm, Algorithm::Aes192Gcm, Algorithm::Aes256Gcm];

/// A context for `alg` given `iv` up front, its random key, and a random AAD of the policy's length.
fn context_with_iv<T: Tls>(rng: &mut Rng, alg: Algorithm, iv: &[u8]) -> (T, Vec<u8>, Vec<u8>) {
    let key = rng.bytes(key_len(alg));
    let t = T::with_iv(alg, &key, iv).unwrap();
    let aad = rng.bytes(T::AAD);
    (t, key, aad)
}

/// Seals `msg` under `nonce` and checks it against RustCrypto; returns the record.
fn seal_ok<T: Tls>(t: &T, alg: Algorithm, key: &[u8], nonce: &[u8; 12], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = vec![0xee; msg.len() + 16];
    assert_eq!(t.seal_into(nonce, aad, msg, &mut out), Ok(msg.len() + 16));
    assert_eq!(out, reference_seal(alg, key, nonce, aad, msg));
    out
}

#[test]
fn tls13_with_iv_sequences_match_rustcrypto() {
    let mut rng = Rng::from_env("tls13_with_iv_sequences_match_rustcrypto");
    for alg in ALGS {
        let iv: [u8; 12] = rng.array();
        let (t, key, aad) = context_with_iv::<Tls13Aead>(&mut rng, alg, &iv);
        // No learning seal: the first record may be any sequence, gaps are allowed.
        for seq in [3u64, 4, 10, 1 << 40] {
            let msg = rng.msg();
            let rec = seal_ok(&t, alg, &key, &tls13_nonce(&iv, seq), &aad, &msg);
            assert_eq!(t.open(&tls13_nonce(&iv, seq), &aad, &rec).unwrap(), msg);
        }
        let mut out = [0xaa; 20];
        for (seq, want) in [(1 << 40, Error::NonceOrder), (5, Error::NonceOrder), (u64::MAX, Error::NonceExhausted)] {
            assert_eq!(t.seal_into(&tls13_nonce(&iv, seq), &aad, b"four", &mut out), Err(want), "{alg:?} {seq}");
            assert_eq!(out, [0xaa; 20], "a refusal writes nothing");
        }
        // The first 4 bytes are the IV's: any other prefix is refused.
        let mut wrong = tls13_nonce(&iv, (1 << 40) + 1);
        wrong[1] ^= 0x80;
        assert_eq!(t.seal_into(&wrong, &aad, b"four", &mut out), Err(Error::NoncePrefix));
        seal_ok(&t, alg, &key, &tls13_nonce(&iv, u64::MAX - 1), &aad, b"last");
        assert_eq!(t.seal_into(&tls13_nonce(&iv, u64::MAX), &aad, b"four", &mut out), Err(Error::NonceExhausted));
    }
}

#[test]
fn tls12_gcm_with_salt_is_rfc5288_counter() {
    let mut rng = Rng::from_env("tls12_gcm_with_salt_is_rfc5288_counter");
    for alg in AES {
        let salt: [u8; 4] = rng.array();
        let (t, key, aad) = context_with_iv::<Tls12Aead>(&mut rng, alg, &salt);
        for seq in [0u64, 1, 2, 77] {
            seal_ok(&t, alg, &key, &tls12_gcm_nonce(&salt, seq), &aad, &rng.msg());
        }
        let mut out = [0; 32];
        assert_eq!(t.seal_into(&tls12_gcm_nonce(&salt, 77), &aad, b"x", &mut out), Err(Error::NonceOrder));
        let other = [salt[0] ^ 1, salt[1], salt[2], salt[3]];
        assert_eq!(t.seal_into(&tls12_gcm_nonce(&other, 78), &aad, b"x", &mut out), Err(Error::NoncePrefix));
        assert_eq!(t.seal_into(&tls12_gcm_nonce(&salt, 78), &[0; 5], b"x", &mut out), Err(Error::AadSize));
    }
}

/// rustls's TLS 1.2 GCM explicit nonce is (random 8-byte mask XOR sequence): not increasing as a
/// number, so only a context that knows the mask can check it.
#[test]
fn tls12_gcm_with_mask_accepts_rustls_nonces() {
    let mut rng = Rng::from_env("tls12_gcm_with_mask_accepts_rustls_nonces");
    for alg in AES {
        let mut iv: [u8; 12] = rng.array();
        // A mask whose low bit is set makes sequence 0 -> 1 decrease the explicit nonce (with
        // the low 6 bits all clear, 1 run in 64 per algorithm, sequences 0..64 never did).
        iv[11] |= 1;
        let (t, key, aad) = context_with_iv::<Tls12Aead>(&mut rng, alg, &iv);
        let mut explicit_decreased = false;
        let mut last = None;
        for seq in 0..64u64 {
            let nonce = tls13_nonce(&iv, seq); // salt || (mask XOR BE64(seq)), rustls's construction
            assert_eq!(nonce[..4], iv[..4]);
            let explicit = u64::from_be_bytes(nonce[4..].try_into().unwrap());
            explicit_decreased |= last.is_some_and(|l| explicit < l);
            last = Some(explicit);
            seal_ok(&t, alg, &key, &nonce, &aad, &rng.bytes_below(300));
        }
        assert!(explicit_decreased, "the sequence must exercise a decreasing explicit nonce");
        let mut out = [0; 32];
        assert_eq!(t.seal_into(&tls13_nonce(&iv, 63), &aad, b"x", &mut out), Err(Error::NonceOrder));
        assert_eq!(t.seal_into(&tls13_nonce(&iv, u64::MAX), &aad, b"x", &mut out), Err(Error::NonceExhausted));
    }
}

#[test]
fn tls12_chacha_with_iv_is_rfc7905() {
    let mut rng = Rng::from_env("tls12_chacha_with_iv_is_rfc7905");
    let alg = Algorithm::ChaCha20Poly1305;
    let iv: [u8; 12] = rng.array();
    let (t, key, aad) = context_with_iv::<Tls12Aead>(&mut rng, alg, &iv);
    for seq in [0u64, 9, 10] {
        seal_ok(&t, alg, &key, &tls13_nonce(&iv, seq), &aad, &rng.msg());
    }
    assert_eq!(t.seal_into(&tls13_nonce(&iv, 9), &aad, b"x", &mut [0; 17]), Err(Error::NonceOrder));
}

#[test]
fn invalid_iv_lengths_are_refused() {
    let key16 = [1u8; 16];
    let key32 = [1u8; 32];
    for len in [1, 3, 5, 8, 11, 13, 16] {
        let iv = vec![0u8; len];
        assert_eq!(Tls12Aead::with_iv(Algorithm::Aes128Gcm, &key16, &iv).unwrap_err(), Error::NonceSize, "{len}");
    }
    for len in [4, 8, 16] {
        let iv = vec![0u8; len];
        assert_eq!(Tls12Aead::with_iv(Algorithm::ChaCha20Poly1305, &key32, &iv).unwrap_err(), Error::NonceSize);
        let r = Cipher::with_options(Algorithm::Aes128Gcm, Policy::Tls13, &key16, 16, None, &iv);
        assert_eq!(r.unwrap_err(), Error::NonceSize, "TLS 1.3 takes 12 bytes only, not {len}");
    }
    for policy in [Policy::None, Policy::RandomNonce] {
        let r = Cipher::with_options(Algorithm::Aes128Gcm, policy, &key16, 16, None, &[0; 12]);
        assert_eq!(r.unwrap_err(), Error::NonceSize, "{policy:?} takes no IV");
    }
    // An empty IV is the learning mode of `new`.
    let t = Cipher::with_options(Algorithm::Aes128Gcm, Policy::Tls13, &key16, 16, None, &[]).unwrap();
    assert_eq!(t.seal(&[9; 12], &[0; 5], b"x").unwrap().len(), 17);
}

/// Eight threads race from the very first record: with the IV given, nothing is learned, so
/// every sequence is accepted exactly once and each record is RustCrypto's.
#[test]
fn concurrent_first_seals_with_iv() {
    let mut rng = Rng::from_env("concurrent_first_seals_with_iv");
    let key = rng.bytes(16);
    let iv: [u8; 12] = rng.array();
    let t = Tls13Aead::with_iv(Algorithm::Aes128Gcm, &key, &iv).unwrap();
    let aad = [23, 3, 3, 0, 20];
    let accepted = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for seq in 0..400u64 {
                    let mut out = [0u8; 4 + 16];
                    match t.seal_into(&tls13_nonce(&iv, seq), &aad, &seq.to_le_bytes()[..4], &mut out) {
                        Ok(20) => accepted.lock().unwrap().push((seq, out)),
                        Err(Error::NonceOrder) => assert_eq!(out, [0; 20]),
                        other => panic!("unexpected {other:?}"),
                    }
                }
            });
        }
    });
    let accepted = accepted.into_inner().unwrap();
    let seqs: HashSet<u64> = accepted.iter().map(|(s, _)| *s).collect();
    assert_eq!(seqs.len(), accepted.len(), "a sequence was accepted twice");
    assert!(seqs.contains(&399));
    for (seq, out) in &accepted {
        let want = reference_seal(Algorithm::Aes128Gcm, &key, &tls13_nonce(&iv, *seq), &aad, &seq.to_le_bytes()[..4]);
        assert_eq!(&out[..], &want[..]);
    }
}

/// The allocation-free record path a TLS stack uses: seal and open in the record buffer.
#[test]
fn in_place_slices() {
    let mut rng = Rng::from_env("in_place_slices");
    for alg in ALGS {
        let iv: [u8; 12] = rng.array();
        let (t, key, aad) = context_with_iv::<Tls13Aead>(&mut rng, alg, &iv);
        for seq in 0..20u64 {
            let msg = rng.msg();
            let nonce = tls13_nonce(&iv, seq);
            let mut buf = msg.clone();
            buf.resize(msg.len() + 16, 0);
            assert_eq!(t.seal_in_place_slice(&nonce, &aad, &mut buf, msg.len()), Ok(msg.len() + 16));
            assert_eq!(buf, reference_seal(alg, &key, &nonce, &aad, &msg));
            let mut bad = buf.clone();
            let at = rng.below(bad.len());
            bad[at] ^= 1 << rng.below(8);
            assert_eq!(t.open_in_place_slice(&nonce, &aad, &mut bad), Err(Error::Auth));
            assert!(bad[..msg.len()].iter().all(|&b| b == 0), "failed open zeroes the output");
            assert_eq!(t.open_in_place_slice(&nonce, &aad, &mut buf), Ok(msg.len()));
            assert_eq!(buf[..msg.len()], msg[..]);
        }
        let mut short = vec![0u8; 10];
        assert_eq!(t.seal_in_place_slice(&tls13_nonce(&iv, 99), &aad, &mut short, 10), Err(Error::BufferTooSmall));
        assert_eq!(short, [0; 10]);
    }
}
