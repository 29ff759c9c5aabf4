//! TLS 1.2 / 1.3 nonce policies: the sequences the anchors use (0 ok, 0 refused, 1, 10, 9 refused,
//! 2^64-1 refused), prefix and AAD refusals, refusals that write nothing and consume nothing,
//! TLS 1.3 with a non-trivial mask, unchecked open, and atomicity under 8 concurrent threads.
mod common;

use common::tls::Tls;
use common::{key_len, reference_seal, Rng, ALGS};
use libaead::{tls12_gcm_nonce, tls13_nonce, Algorithm, Error, Tls12Aead, Tls13Aead};

struct Run<'a, T: Tls> {
    c: T,
    alg: Algorithm,
    key: Vec<u8>,
    nonce_for: &'a dyn Fn(u64) -> [u8; 12],
    aad: Vec<u8>,
    msg: Vec<u8>,
    label: String,
    sealed: Vec<(u64, Vec<u8>)>,
}

impl<T: Tls> Run<'_, T> {
    fn ok(&mut self, seq: u64) {
        let n = (self.nonce_for)(seq);
        let mut out = vec![0xee; self.msg.len() + 16];
        let r = self.c.seal_into(&n, &self.aad, &self.msg, &mut out);
        assert_eq!(r, Ok(self.msg.len() + 16), "{}: seal of sequence {seq} must be accepted", self.label);
        assert_eq!(out, reference_seal(self.alg, &self.key, &n, &self.aad, &self.msg), "{}: seq {seq}", self.label);
        assert_eq!(self.c.open(&n, &self.aad, &out).unwrap(), self.msg);
        self.sealed.push((seq, out));
    }

    fn refused_nonce(&mut self, n: &[u8; 12], aad: &[u8], want: Error, what: &str) {
        let mut out = vec![0xee; self.msg.len() + 16];
        assert_eq!(self.c.seal_into(n, aad, &self.msg, &mut out), Err(want), "{}: {what}", self.label);
        assert!(want.is_nonce_misuse());
        assert!(out.iter().all(|&b| b == 0xee), "{}: refused seal wrote to out ({what})", self.label);
        let mut buf = self.msg.clone();
        assert_eq!(self.c.seal_vec_in_place(n, aad, &mut buf), Err(want), "{}: {what} (in place)", self.label);
        assert_eq!(buf, self.msg, "{}: refused in-place seal changed the buffer ({what})", self.label);
    }

    fn refused(&mut self, seq: u64, want: Error) {
        let n = (self.nonce_for)(seq);
        let aad = self.aad.clone();
        self.refused_nonce(&n, &aad, want, &format!("sequence {seq}"));
    }
}

fn sequence<T: Tls>(alg: Algorithm, label: &str, nonce_for: &dyn Fn(u64) -> [u8; 12], rng: &mut Rng) {
    let key = rng.bytes(key_len(alg));
    let len = 1 + rng.below(100);
    let msg = rng.bytes(len);
    let mut r = Run {
        c: T::make(alg, &key).unwrap(),
        alg,
        key: key.clone(),
        nonce_for,
        aad: rng.bytes(T::AAD),
        msg,
        label: format!("{label} {alg:?}"),
        sealed: Vec::new(),
    };
    // AAD size is checked before anything is learned or consumed: these refused first seals
    // carry another prefix and sequence 5; had either been learned, ok(0) below would fail.
    for bad in [0, 5, 12, 13, 14] {
        if bad != T::AAD {
            let mut n = nonce_for(5);
            n[0] ^= 0xff;
            r.refused_nonce(&n, &vec![0x17; bad], Error::AadSize, &format!("aad of {bad} bytes"));
        }
    }
    r.ok(0);
    r.refused(0, Error::NonceOrder);
    r.ok(1);
    r.ok(10);
    r.refused(9, Error::NonceOrder);
    r.refused(10, Error::NonceOrder);
    r.refused(u64::MAX, Error::NonceExhausted);
    // A refused AAD size consumes nothing: 11 is still accepted after it.
    r.refused_nonce(&nonce_for(11), &vec![0; T::AAD + 1], Error::AadSize, "aad+1 at 11");
    r.ok(11);
    // The fixed prefix (bytes 0..4) may never change.
    for byte in 0..4 {
        let mut n = nonce_for(12);
        n[byte] ^= 0x80;
        r.refused_nonce(&n, &r.aad.clone(), Error::NoncePrefix, &format!("prefix byte {byte} changed"));
    }
    r.ok(12);
    r.ok(1 << 40);
    r.ok(u64::MAX - 1);
    r.refused(u64::MAX, Error::NonceExhausted);
    r.refused(u64::MAX - 1, Error::NonceOrder);
    r.refused(13, Error::NonceOrder);
    // Open is never order-checked: every earlier record still opens, in any order.
    for (seq, ct) in r.sealed.iter().rev() {
        assert_eq!(r.c.open(&nonce_for(*seq), &r.aad, ct).unwrap(), r.msg, "{label}: reopen {seq}");
    }
    // ... nor AAD-size checked.
    let n = nonce_for(3);
    let foreign = reference_seal(alg, &key, &n, b"", b"any aad length on open");
    assert_eq!(r.c.open(&n, b"", &foreign).unwrap(), b"any aad length on open");
    let mut bad = foreign.clone();
    bad[0] ^= 1;
    assert_eq!(r.c.open(&n, b"", &bad), Err(Error::Auth));
}

#[test]
fn tls12_sequences() {
    let rng = &mut Rng::from_env("tls12");
    let salt: [u8; 4] = rng.array();
    let iv: [u8; 12] = rng.array();
    for alg in ALGS {
        if alg == Algorithm::ChaCha20Poly1305 {
            // RFC 7905: IV XOR sequence, checked like TLS 1.3 (with 13-byte AAD).
            sequence::<Tls12Aead>(alg, "TLS1.2 (RFC 7905)", &|s| tls13_nonce(&iv, s), rng);
        } else {
            sequence::<Tls12Aead>(alg, "TLS1.2 (RFC 5288)", &|s| tls12_gcm_nonce(&salt, s), rng);
        }
    }
}

/// A TLS 1.3 IV of a random 4-byte fixed part and an all-zero mask.
fn unmasked_iv(rng: &mut Rng) -> [u8; 12] {
    let mut iv = [0u8; 12];
    iv[..4].copy_from_slice(&rng.array::<4>());
    iv
}

#[test]
fn tls13_sequences_zero_mask() {
    let rng = &mut Rng::from_env("tls13");
    let iv = unmasked_iv(rng);
    for alg in ALGS {
        sequence::<Tls13Aead>(alg, "TLS1.3 mask 0", &|s| tls13_nonce(&iv, s), rng);
    }
}

#[test]
fn tls13_sequences_with_mask() {
    // n[9] ^= 0x42, n[11] ^= 0x01: sequence 1 has a *smaller* raw counter than sequence 0, so a
    // library that forgot to unmask would refuse it.
    let rng = &mut Rng::from_env("tls13-mask");
    let mut iv = unmasked_iv(rng);
    iv[9] ^= 0x42;
    iv[11] ^= 0x01;
    for alg in ALGS {
        sequence::<Tls13Aead>(alg, "TLS1.3 mask 42/01", &|s| tls13_nonce(&iv, s), rng);
        let random_iv: [u8; 12] = rng.array();
        sequence::<Tls13Aead>(alg, "TLS1.3 random IV", &|s| tls13_nonce(&random_iv, s), rng);
    }
    // Also TLS 1.2 ChaCha with the same mask.
    sequence::<Tls12Aead>(Algorithm::ChaCha20Poly1305, "TLS1.2 ChaCha mask", &|s| tls13_nonce(&iv, s), rng);
}

#[test]
fn tls_nonce_helpers() {
    assert_eq!(
        tls12_gcm_nonce(&[1, 2, 3, 4], 0x0102_0304_0506_0708),
        [1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8]
    );
    let iv = [0xffu8; 12];
    assert_eq!(tls13_nonce(&iv, 0), iv);
    assert_eq!(tls13_nonce(&iv, 1)[11], 0xfe);
    assert_eq!(tls13_nonce(&iv, 1 << 56)[4], 0xfe);
    assert_eq!(&tls13_nonce(&iv, u64::MAX)[..4], &[0xff; 4]);
    assert_eq!(&tls13_nonce(&iv, u64::MAX)[4..], &[0; 8]);
    assert_eq!(Tls12Aead::AAD_LEN, 13);
    assert_eq!(Tls13Aead::AAD_LEN, 5);
}

fn concurrent<T: Tls>(alg: Algorithm, nonce_for: &(dyn Fn(u64) -> [u8; 12] + Sync), rng: &mut Rng) {
    const THREADS: usize = 8;
    const LAST: u64 = 1500;
    let key = rng.bytes(key_len(alg));
    let aad = rng.bytes(T::AAD);
    let c = T::make(alg, &key).unwrap();
    let msg = b"concurrent tls record";
    // The first seal learns prefix/mask: done before sharing, as aead.h asks.
    let mut out = [0u8; 64];
    c.seal_into(&nonce_for(0), &aad, msg, &mut out).unwrap();
    let accepted: Vec<Vec<(u64, Vec<u8>)>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    let mut out = [0u8; 64];
                    for seq in 1..=LAST {
                        match c.seal_into(&nonce_for(seq), &aad, msg, &mut out) {
                            Ok(n) => mine.push((seq, out[..n].to_vec())),
                            Err(Error::NonceOrder) => {}
                            Err(e) => panic!("unexpected {e}"),
                        }
                    }
                    mine
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut count = vec![0u32; LAST as usize + 1];
    let mut total = 0;
    for (seq, ct) in accepted.iter().flatten() {
        count[*seq as usize] += 1;
        total += 1;
        assert_eq!(*ct, reference_seal(alg, &key, &nonce_for(*seq), &aad, msg), "seq {seq}");
    }
    assert!(count.iter().all(|&k| k <= 1), "{alg:?}: a sequence number was accepted twice");
    // Each thread tries 1..=LAST in order, so the first check of s precedes every check of s+1:
    // with an atomic check-and-commit, every sequence is accepted exactly once overall.
    assert!(count[1..].iter().all(|&k| k == 1), "{alg:?}: a sequence was accepted by no thread");
    // each thread's accepted sequences are strictly increasing
    for mine in &accepted {
        assert!(mine.windows(2).all(|w| w[0].0 < w[1].0));
    }
    eprintln!("{alg:?}: {total} of {LAST} sequences accepted across {THREADS} threads, none twice");
}

#[test]
fn tls_concurrent_seals_never_accept_a_sequence_twice() {
    let rng = &mut Rng::from_env("tls-concurrent");
    let salt: [u8; 4] = rng.array();
    let iv: [u8; 12] = rng.array();
    concurrent::<Tls12Aead>(Algorithm::Aes128Gcm, &|s| tls12_gcm_nonce(&salt, s), rng);
    concurrent::<Tls13Aead>(Algorithm::Aes256Gcm, &|s| tls13_nonce(&iv, s), rng);
    concurrent::<Tls13Aead>(Algorithm::ChaCha20Poly1305, &|s| tls13_nonce(&iv, s), rng);
}
