//! Record seal / open through dimpl's `Cipher` trait: dimpl + libaead against dimpl + aws-lc-rs,
//! 64 B and 1200 B records, every suite; prints ns per record and libaead's time as a ratio of
//! aws-lc-rs's (below 1: libaead faster). `cargo bench --bench records` (release build).
#[path = "../tests/common/mod.rs"]
mod common;

use common::{aad, dtls12_record, dtls13_record};
use dimpl::crypto::{aws_lc_rs, Buf, Cipher, Nonce, TmpBuf};
use std::time::Instant;

const ROUNDS: u32 = 20_000;

/// ns per record of sealing then opening `len` bytes `ROUNDS` times (AAD and nonces of the RFCs'
/// form, so that libaead's DTLS policy contexts are measured wherever the crate uses them).
fn time(sealer: &mut dyn Cipher, opener: &mut dyn Cipher, iv: &[u8], len: usize, dtls13: bool) -> (f64, f64) {
    let msg = vec![0x5a; len];
    let (mut seal_ns, mut open_ns) = (0u128, 0u128);
    for seq in 0..u64::from(ROUNDS) {
        let (a, n) = if dtls13 { dtls13_record(seq, iv, len) } else { dtls12_record(1, seq, iv, len) };
        let (ad, nonce) = (aad(&a), Nonce(n));
        let mut buf = Buf::new();
        buf.extend_from_slice(&msg);
        let t = Instant::now();
        sealer.encrypt(&mut buf, ad.clone(), nonce).unwrap();
        seal_ns += t.elapsed().as_nanos();
        let mut v = buf.into_vec();
        let t = Instant::now();
        let mut tb = TmpBuf::new(&mut v);
        opener.decrypt(&mut tb, ad, nonce).unwrap();
        open_ns += t.elapsed().as_nanos();
    }
    (seal_ns as f64 / f64::from(ROUNDS), open_ns as f64 / f64::from(ROUNDS))
}

fn main() {
    let aws = aws_lc_rs::default_provider();
    println!("{:<42} {:>5} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}", "suite", "bytes", "seal lib", "seal aws", "open lib", "open aws", "seal", "open");
    let row = |name: String, len: usize, l: (f64, f64), a: (f64, f64)| {
        println!("{name:<42} {len:>5} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>6.2} {:>6.2}", l.0, a.0, l.1, a.1, l.0 / a.0, l.1 / a.1);
    };
    for len in [64, 1200] {
        for ours in dimpl_libaead::DTLS12_SUITES {
            let theirs = aws.cipher_suites.iter().find(|s| s.suite() == ours.suite()).unwrap();
            let (_, k, ivl) = ours.key_lengths();
            let (key, iv) = (vec![7u8; k], vec![9u8; ivl]);
            let l = time(&mut *ours.create_cipher(&key).unwrap(), &mut *ours.create_cipher(&key).unwrap(), &iv, len, false);
            let a = time(&mut *theirs.create_cipher(&key).unwrap(), &mut *theirs.create_cipher(&key).unwrap(), &iv, len, false);
            row(format!("DTLS 1.2 {:?}", ours.suite()), len, l, a);
        }
        for ours in dimpl_libaead::DTLS13_SUITES {
            let theirs = aws.dtls13_cipher_suites.iter().find(|s| s.suite() == ours.suite()).unwrap();
            let (key, iv) = (vec![7u8; ours.key_len()], vec![9u8; 12]);
            let l = time(&mut *ours.create_cipher(&key).unwrap(), &mut *ours.create_cipher(&key).unwrap(), &iv, len, true);
            let a = time(&mut *theirs.create_cipher(&key).unwrap(), &mut *theirs.create_cipher(&key).unwrap(), &iv, len, true);
            row(format!("DTLS 1.3 {:?}", ours.suite()), len, l, a);
        }
    }
    println!("(ns per record through dimpl's Cipher trait; ratio = libaead / aws-lc-rs, below 1 is faster)");
}
