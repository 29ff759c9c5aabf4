//! Every suite's libaead Cipher against dimpl's own aws-lc-rs Cipher on random records, both
//! directions, byte for byte; DTLS 1.3's record-number mask against aws-lc-rs's.
mod common;

use common::{aad, dtls12_record, dtls13_record};
use dimpl::crypto::{aws_lc_rs, Buf, Cipher, Nonce, TmpBuf};
use dimpl::CryptoError;

/// SplitMix64 seeded from the clock (printed, and taken from DIMPL_LIBAEAD_SEED to replay).
struct Rng(u64);
impl Rng {
    fn new(test: &str) -> Rng {
        let seed = std::env::var("DIMPL_LIBAEAD_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
        });
        eprintln!("{test}: DIMPL_LIBAEAD_SEED={seed}");
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn seal(c: &mut dyn Cipher, aad_bytes: &[u8], nonce: [u8; 12], msg: &[u8]) -> Vec<u8> {
    let mut b = Buf::new();
    b.extend_from_slice(msg);
    c.encrypt(&mut b, aad(aad_bytes), Nonce(nonce)).expect("encrypt");
    b.into_vec()
}

fn open(c: &mut dyn Cipher, aad_bytes: &[u8], nonce: [u8; 12], ct: &[u8]) -> Option<Vec<u8>> {
    let mut v = ct.to_vec();
    let mut t = TmpBuf::new(&mut v);
    c.decrypt(&mut t, aad(aad_bytes), Nonce(nonce)).ok()?;
    let n = t.len();
    Some(v[..n].to_vec())
}

/// A sending and a receiving Cipher of each provider, all on one key.
struct Sides {
    ours: (Box<dyn Cipher>, Box<dyn Cipher>),
    theirs: (Box<dyn Cipher>, Box<dyn Cipher>),
}

/// A suite's `create_cipher` (the DTLS 1.2 and 1.3 suite traits each have their own).
type Create<'a> = &'a dyn Fn(&[u8]) -> Result<Box<dyn Cipher>, CryptoError>;

impl Sides {
    fn new(key: &[u8], ours: Create, theirs: Create) -> Sides {
        Sides { ours: (ours(key).unwrap(), ours(key).unwrap()), theirs: (theirs(key).unwrap(), theirs(key).unwrap()) }
    }

    /// Seals one record with each: the same bytes, and each opens the other's.
    fn both_ways(&mut self, aad_bytes: &[u8], nonce: [u8; 12], msg: &[u8], what: &str) {
        let a = seal(&mut *self.ours.0, aad_bytes, nonce, msg);
        let b = seal(&mut *self.theirs.0, aad_bytes, nonce, msg);
        assert_eq!(a, b, "{what}: libaead and aws-lc-rs ciphertexts differ ({} bytes)", msg.len());
        assert_eq!(open(&mut *self.theirs.1, aad_bytes, nonce, &a).as_deref(), Some(msg), "{what}: aws-lc-rs opens libaead's");
        assert_eq!(open(&mut *self.ours.1, aad_bytes, nonce, &b).as_deref(), Some(msg), "{what}: libaead opens aws-lc-rs's");
    }
}

#[test]
fn dtls12_suites_match_aws_lc_rs() {
    let mut rng = Rng::new("dtls12 ciphers");
    let aws = aws_lc_rs::default_provider();
    let mut records = 0;
    for ours in dimpl_libaead::DTLS12_SUITES {
        let theirs = aws.cipher_suites.iter().find(|s| s.suite() == ours.suite()).expect("aws-lc-rs has the suite");
        assert_eq!(
            (ours.key_lengths(), ours.explicit_nonce_len(), ours.tag_len(), ours.hash_algorithm()),
            (theirs.key_lengths(), theirs.explicit_nonce_len(), theirs.tag_len(), theirs.hash_algorithm())
        );
        let (_, key_len, iv_len) = ours.key_lengths();
        let key = rng.bytes(key_len);
        let iv = rng.bytes(iv_len);
        let mut sides = Sides::new(&key, &|k| ours.create_cipher(k), &|k| theirs.create_cipher(k));
        let epoch = 1 + rng.below(3) as u16;
        let mut seq = rng.below(100) as u64;
        for _ in 0..300 {
            seq += 1 + rng.below(4) as u64;
            let mlen = rng.below(1400);
            let msg = rng.bytes(mlen);
            let (a, nonce) = dtls12_record(epoch, seq, &iv, msg.len());
            let what = format!("{:?}", ours.suite());
            sides.both_ways(&a, nonce, &msg, &what);
            records += 1;
        }
        // A flipped byte fails in both.
        seq += 1;
        let (a, nonce) = dtls12_record(epoch, seq, &iv, 4);
        let mut ct = seal(&mut *sides.theirs.0, &a, nonce, b"abcd");
        ct[1] ^= 0x40;
        assert_eq!(open(&mut *sides.ours.1, &a, nonce, &ct), None);
        assert_eq!(open(&mut *sides.theirs.1, &a, nonce, &ct), None);
        // While this suite's ciphers live: libaead sealed and accepted its 300 records through
        // AEAD_POLICY_DTLS12 and counted the forgery (other tests' ciphers only add to the sums).
        let u = dimpl_libaead::usage();
        assert!(u.accepted >= 300 && u.seals >= 300 && u.forgeries >= 1, "{u:?}");
    }
    eprintln!("dtls12: {records} records over {} suites", dimpl_libaead::DTLS12_SUITES.len());
}

#[test]
fn dtls13_suites_match_aws_lc_rs() {
    let mut rng = Rng::new("dtls13 ciphers");
    let aws = aws_lc_rs::default_provider();
    let mut records = 0;
    for ours in dimpl_libaead::DTLS13_SUITES {
        let theirs = aws.dtls13_cipher_suites.iter().find(|s| s.suite() == ours.suite()).expect("aws-lc-rs has the suite");
        assert_eq!(
            (ours.key_len(), ours.iv_len(), ours.tag_len(), ours.hash_algorithm()),
            (theirs.key_len(), theirs.iv_len(), theirs.tag_len(), theirs.hash_algorithm())
        );
        let key = rng.bytes(ours.key_len());
        let iv = rng.bytes(12);
        let mut sides = Sides::new(&key, &|k| ours.create_cipher(k), &|k| theirs.create_cipher(k));
        let mut seq = 0u64;
        for i in 0..300 {
            if i > 0 {
                seq += 1 + rng.below(4) as u64;
            }
            let mlen = rng.below(1400);
            let msg = rng.bytes(mlen);
            let (a, nonce) = dtls13_record(seq, &iv, msg.len());
            sides.both_ways(&a, nonce, &msg, &format!("{:?}", ours.suite()));
            records += 1;
            // The record-number mask (RFC 9147 4.2.3) from aead_hp against aws-lc-rs's, over
            // the 5 bytes libaead gives (the record number uses at most 2), and the whole block.
            let sn_key = rng.bytes(ours.key_len());
            let sample: [u8; 16] = rng.bytes(16).try_into().unwrap();
            assert_eq!(ours.encrypt_sn(&sn_key, &sample), theirs.encrypt_sn(&sn_key, &sample));
        }
        // The sender learnt its IV from sequence 0 and sealed under AEAD_POLICY_DTLS13 (which
        // counts seals; a plain context would not).
        assert!(dimpl_libaead::usage().seals >= 300);
    }
    eprintln!("dtls13: {records} records over {} suites", dimpl_libaead::DTLS13_SUITES.len());
}
