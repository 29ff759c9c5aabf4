//! `Cipher::seal_many` / `open_many` (one `aead_seal_open_many` call, ABI 1.1): each record's
//! result and output equal what the single call (and RustCrypto) gives, refusals and failures stay
//! in their own record, and TLS sequences are checked record by record in array order.
mod common;

use common::{key_len, reference_seal, Rng, ALGS};
use libaead::{tls13_nonce, Algorithm, Cipher, Error, Policy, Record, Tls13Aead};

#[test]
fn batch_equals_single_calls() {
    let mut rng = Rng::from_env("batch_equals_single_calls");
    for alg in ALGS {
        let key = rng.bytes(key_len(alg));
        let c = Cipher::new(alg, Policy::None, &key, 16).unwrap();
        let n = 1 + rng.below(40);
        let nonces: Vec<[u8; 12]> = (0..n).map(|_| rng.array()).collect();
        let aads: Vec<Vec<u8>> = (0..n).map(|_| rng.bytes_below(30)).collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|_| rng.msg()).collect();
        let small = rng.below(n); // this record's output is one byte short
        let mut outs: Vec<Vec<u8>> = msgs
            .iter()
            .enumerate()
            .map(|(i, m)| vec![0xee; m.len() + 16 - usize::from(i == small)])
            .collect();
        let mut recs: Vec<Record> = nonces
            .iter()
            .zip(&aads)
            .zip(&msgs)
            .zip(outs.iter_mut())
            .map(|(((nonce, aad), m), out)| Record::new(nonce, aad, m, out))
            .collect();
        assert_eq!(c.seal_many(&mut recs), n - 1);
        for (i, r) in recs.iter().enumerate() {
            let want = if i == small { Err(Error::BufferTooSmall) } else { Ok(msgs[i].len() + 16) };
            assert_eq!(r.result(), want, "{alg:?} record {i}");
        }
        drop(recs);
        for i in 0..n {
            if i == small {
                assert!(outs[i].iter().all(|&b| b == 0xee), "a refused record writes nothing");
            } else {
                assert_eq!(outs[i], reference_seal(alg, &key, &nonces[i], &aads[i], &msgs[i]), "{alg:?} {i}");
            }
        }

        // Open them back, one tampered.
        let sealed: Vec<Vec<u8>> = (0..n).map(|i| reference_seal(alg, &key, &nonces[i], &aads[i], &msgs[i])).collect();
        let mut sealed_bad = sealed.clone();
        let bad = rng.below(n);
        let last = sealed_bad[bad].len() - 1;
        sealed_bad[bad][last] ^= 1;
        let mut plain: Vec<Vec<u8>> = msgs.iter().map(|m| vec![0xee; m.len()]).collect();
        let mut recs: Vec<Record> = nonces
            .iter()
            .zip(&aads)
            .zip(&sealed_bad)
            .zip(plain.iter_mut())
            .map(|(((nonce, aad), s), out)| Record::new(nonce, aad, s, out))
            .collect();
        assert_eq!(c.open_many(&mut recs), n - 1);
        assert_eq!(recs[bad].result(), Err(Error::Auth));
        drop(recs);
        for i in 0..n {
            if i == bad {
                assert!(plain[i].iter().all(|&b| b == 0), "a failed open zeroes its output");
            } else {
                assert_eq!(plain[i], msgs[i]);
            }
        }
    }
}

#[test]
fn tls_sequences_checked_per_record() {
    let iv = [0x5a; 12];
    let key = [3u8; 16];
    let t = Tls13Aead::with_iv(Algorithm::Aes128Gcm, &key, &iv).unwrap();
    let seqs = [0u64, 1, 1, 0, 5, 4, 6];
    let want = [true, true, false, false, true, false, true];
    let nonces: Vec<[u8; 12]> = seqs.iter().map(|&s| tls13_nonce(&iv, s)).collect();
    let aad = [23, 3, 3, 0, 19];
    let mut outs = vec![[0u8; 3 + 16]; seqs.len()];
    let mut recs: Vec<Record> = nonces.iter().zip(outs.iter_mut()).map(|(n, o)| Record::new(n, &aad, b"rec", o)).collect();
    assert_eq!(t.cipher().seal_many(&mut recs), 4);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.result(), if want[i] { Ok(19) } else { Err(Error::NonceOrder) }, "record {i}");
    }
    drop(recs);
    for i in 0..seqs.len() {
        if want[i] {
            assert_eq!(outs[i][..], reference_seal(Algorithm::Aes128Gcm, &key, &nonces[i], &aad, b"rec")[..]);
        } else {
            assert_eq!(outs[i], [0; 19]);
        }
    }
    // The batch committed sequence 6: a single call continues from there.
    assert_eq!(t.seal(&tls13_nonce(&iv, 6), &aad, b"rec"), Err(Error::NonceOrder));
    assert!(t.seal(&tls13_nonce(&iv, 7), &aad, b"rec").is_ok());
    // An empty batch does nothing; an unrun record reports an argument error.
    assert_eq!(t.cipher().seal_many(&mut []), 0);
    let mut o = [0u8; 20];
    assert_eq!(Record::new(&[], &[], &[], &mut o).result(), Err(Error::Arg));
}
