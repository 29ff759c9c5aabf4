//! `Cipher::seal_many` / `open_many` (one `aead_seal_open_many` call, ABI 1.1): each record's
//! result and output equal what the single call (and RustCrypto) gives, refusals and failures stay
//! in their own record, and TLS sequences are checked record by record in array order.
mod common;

use common::huge::Huge;
use common::{key_len, reference_seal, Rng, ALGS};
use libaead::{tls13_nonce, Algorithm, Cipher, Error, Policy, Record, Tls13Aead};

/// Record i: nonce i, AAD i, input i into output i.
fn records<'a>(nonces: &'a [[u8; 12]], aads: &'a [Vec<u8>], inputs: &'a [Vec<u8>], outs: &'a mut [Vec<u8>]) -> Vec<Record<'a>> {
    nonces
        .iter()
        .zip(aads)
        .zip(inputs)
        .zip(outs.iter_mut())
        .map(|(((nonce, aad), input), out)| Record::new(nonce, aad, input, out))
        .collect()
}

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
        let mut recs = records(&nonces, &aads, &msgs, &mut outs);
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
        let mut recs = records(&nonces, &aads, &sealed_bad, &mut plain);
        assert_eq!(c.open_many(&mut recs), n - 1);
        assert_eq!(recs[bad].result(), Err(Error::Auth));
        drop(recs);
        common::assert_opened_but_one(&plain, &msgs, bad);
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

/// Batches whose summed input lengths exceed `usize::MAX` (every record reads the same huge
/// read-only mapping; three valid small records sit among them): each huge record is refused
/// (`TooLong`) with its output untouched, the valid ones are exactly the single calls' output,
/// and a TLS 1.3 sequence is consumed only by the valid records. Nothing in the binding or the
/// library adds the lengths up, so nothing can wrap. Also the single calls, including the
/// allocating `seal`, which must refuse before reserving anything.
#[test]
fn wrapping_batch_lengths_are_refused_with_nothing_written() {
    let huge = Huge::map();
    let big = huge.bytes();
    let count = usize::try_from((1u128 << 64) / big.len() as u128).unwrap() + 1;
    let summed: u128 = (count as u128) * (big.len() as u128);
    assert!(summed > usize::MAX as u128, "the inputs sum to {summed}, more than usize::MAX");
    let key = [7u8; 16];
    let iv = [0x33; 12];
    let valid_at = [0, count / 2, count - 1];
    let aad = [23, 3, 3, 0, 19];
    for policy in [Policy::None, Policy::Tls13] {
        let c = Cipher::with_options(Algorithm::Aes128Gcm, policy, &key, 16, None, if policy == Policy::Tls13 { &iv[..] } else { &[] })
            .unwrap();
        // Valid record k (k = 0, 1, 2) uses TLS sequence 2k; a huge one between them would take 2k+1.
        let nonces: Vec<[u8; 12]> = (0..6).map(|s| tls13_nonce(&iv, s)).collect();
        let mut outs = vec![0xeeu8; count * 32];
        let mut recs: Vec<Record> = outs
            .chunks_mut(32)
            .enumerate()
            .map(|(i, out)| match valid_at.iter().position(|&v| v == i) {
                Some(k) => Record::new(&nonces[2 * k], &aad, b"rec", &mut out[..19]),
                None => Record::new(&nonces[2 * (i * 3 / count) + 1], &aad, big, out),
            })
            .collect();
        assert_eq!(c.seal_many(&mut recs), 3, "{policy:?}");
        for (i, r) in recs.iter().enumerate() {
            let want = if valid_at.contains(&i) { Ok(19) } else { Err(Error::TooLong) };
            assert_eq!(r.result(), want, "{policy:?} record {i}");
        }
        drop(recs);
        for (i, out) in outs.chunks(32).enumerate() {
            match valid_at.iter().position(|&v| v == i) {
                Some(k) => {
                    assert_eq!(out[..19], reference_seal(Algorithm::Aes128Gcm, &key, &nonces[2 * k], &aad, b"rec")[..]);
                    assert!(out[19..].iter().all(|&b| b == 0xee), "{policy:?} record {i}: written past its result");
                }
                None => assert!(out.iter().all(|&b| b == 0xee), "{policy:?} record {i}: a refused record wrote"),
            }
        }
        if policy == Policy::Tls13 {
            // Sequences 0, 2, 4 were committed, none of the refused 1, 3, 5.
            assert_eq!(c.seal(&nonces[4], &aad, b"rec"), Err(Error::NonceOrder));
            assert!(c.seal(&nonces[5], &aad, b"rec").is_ok());
        }
        // Opening them: the same refusal, nothing written (not even zeros).
        let mut outs = vec![0xeeu8; count * 16];
        let mut recs: Vec<Record> = outs.chunks_mut(16).map(|out| Record::new(&nonces[0], &[], big, out)).collect();
        assert_eq!(c.open_many(&mut recs), 0);
        assert!(recs.iter().all(|r| r.result() == Err(Error::TooLong)));
        drop(recs);
        assert!(outs.iter().all(|&b| b == 0xee), "{policy:?}: a refused open wrote");
        // Single calls on the same input: refused before any write or allocation.
        let mut out = [0xeeu8; 64];
        assert_eq!(c.seal_into(&nonces[0], &aad, big, &mut out), Err(Error::TooLong));
        assert_eq!(c.open_into(&nonces[0], &aad, big, &mut out), Err(Error::TooLong));
        assert!(out.iter().all(|&b| b == 0xee));
        assert_eq!(c.seal(&nonces[0], &aad, big), Err(Error::TooLong));
        assert_eq!(c.open(&nonces[0], &aad, big), Err(Error::TooLong));
        let mut v = vec![1u8, 2, 3];
        assert_eq!(c.seal_append(&nonces[0], &aad, big, &mut v), Err(Error::TooLong));
        assert_eq!(v, [1, 2, 3]);
    }
}
