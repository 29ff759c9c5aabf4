//! Counter nonces (library 1.5): the sequences of Go's TestGCMNoncesFIPSV1 (crypto/cipher's
//! NewGCMWithCounterNonce and NewGCMForSSH cases) with the library's typed refusals where Go
//! panics, the IV given up front or learned, what each policy takes, SSH's AAD and seal count,
//! random runs with gaps against RustCrypto through every API shape, and colliding counters from
//! 8 threads (each accepted once). The fork() case is in tests/fork.rs.
mod common;

use aead::consts::U12;
use aead::inout::InOutBuf;
use aead::{Aead, KeyInit, Payload};
use common::counter::{CounterAead, SSH_AAD};
use common::{diff, hex, reference_seal, Rng};
use libaead::{
    counter_nonce, xor_counter_nonce, Aes128GcmCounterNonce, Aes128GcmSsh, Aes128GcmXorCounterNonce, Aes192GcmCounterNonce,
    Aes192GcmXorCounterNonce, Aes256GcmCounterNonce, Aes256GcmSsh, Aes256GcmXorCounterNonce, Algorithm, Cipher,
    ChaCha20Poly1305CounterNonce, ChaCha20Poly1305XorCounterNonce, Error, Policy,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// fixed(4) || BE64(counter).
fn nonce(fixed: u32, counter: u64) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..4].copy_from_slice(&fixed.to_be_bytes());
    n[4..].copy_from_slice(&counter.to_be_bytes());
    n
}

fn h12(s: &str) -> [u8; 12] {
    hex(s).try_into().unwrap()
}

/// Seals "x" as Go's tryNonce does, through the typed method; an accepted seal must equal
/// RustCrypto's, and a refusal must write nothing and be refused through the RustCrypto traits
/// too (opaque error, buffer as it was).
fn try_nonce<T: CounterAead>(c: &T, key: &[u8], n: [u8; 12], aad: &[u8]) -> Result<(), Error> {
    let mut out = [0x5a; 17];
    match c.seal_into_(&n, aad, b"x", &mut out) {
        Ok(len) => {
            assert_eq!(len, 17);
            assert_eq!(out.to_vec(), reference_seal(T::ALG, key, &n, aad, b"x"), "{n:02x?}");
            Ok(())
        }
        Err(e) => {
            assert_eq!(out, [0x5a; 17], "a refused seal wrote to out");
            assert!(c.encrypt(&n.into(), Payload { msg: b"x", aad }).is_err());
            let mut buf = b"x".to_vec();
            assert!(c.encrypt_in_place(&n.into(), aad, &mut buf).is_err());
            assert_eq!(buf, b"x", "a refused encrypt_in_place changed the buffer");
            Err(e)
        }
    }
}

#[test]
fn go_counter_nonce_sequences() {
    // TestGCMNoncesFIPSV1/NewGCMWithCounterNonce, on AES-128 with the zero key; Go panics where
    // these return an error.
    let key = [0u8; 16];
    let fresh = || Aes128GcmCounterNonce::new(&key.into());

    let g = fresh();
    for c in [0, 1, 100, 1 << 8, 1 << 16, 1 << 24, 1 << 32, 1 << 40, 1 << 48, 1 << 56] {
        assert_eq!(try_nonce(&g, &key, nonce(0, c), b""), Ok(()), "counter {c:#x}");
    }
    assert_eq!(try_nonce(&g, &key, nonce(1, 0), b""), Err(Error::NoncePrefix), "changed name");

    let g = fresh();
    assert_eq!(try_nonce(&g, &key, nonce(0, 1), b""), Ok(()));
    // Went down: one below the start is 2^64 - 1 counted from it, the value never sealed.
    assert_eq!(try_nonce(&g, &key, nonce(0, 0), b""), Err(Error::NonceExhausted), "went down");

    let g = fresh();
    assert_eq!(try_nonce(&g, &key, h12("0102030405060708090a0b0c"), b""), Ok(()));
    assert_eq!(try_nonce(&g, &key, h12("0102030405060708090a0b0d"), b""), Ok(()));
    assert_eq!(try_nonce(&g, &key, h12("0102030405060708090a0b0d"), b""), Err(Error::NonceOrder), "did not increment");

    let g = fresh();
    assert_eq!(try_nonce(&g, &key, nonce(0x01020304, 0xffff_ffff_ffff_ff00), b""), Ok(()));
    assert_eq!(try_nonce(&g, &key, nonce(0x01020304, 0xffff_ffff_ffff_ffff), b""), Ok(()));
    assert_eq!(try_nonce(&g, &key, nonce(0x01020304, 0), b""), Ok(()), "a wrap is fine until the values run out");
    assert_eq!(try_nonce(&g, &key, nonce(0x01020304, 0xffff_ffff_ffff_fefe), b""), Ok(()));
    assert_eq!(
        try_nonce(&g, &key, nonce(0x01020304, 0xffff_ffff_ffff_feff), b""),
        Err(Error::NonceExhausted),
        "ran out of counters"
    );

    let g = fresh();
    assert_eq!(try_nonce(&g, &key, nonce(0x01020304, u64::MAX), b""), Ok(()));
    assert_eq!(try_nonce(&g, &key, nonce(0x01020305, 0), b""), Err(Error::NoncePrefix), "wrap with overflow");
}

#[test]
fn go_ssh_sequences() {
    // TestGCMNoncesFIPSV1/NewGCMForSSH with x/crypto/ssh's incIV, each seal with a 4-byte AAD.
    let key = [0u8; 16];
    let inc_iv = |iv: &mut [u8; 12]| *iv = counter_nonce(iv, 1);
    // incIV as x/crypto/ssh writes it, so that counter_nonce(iv, 1) is checked to be it.
    let inc_iv_ssh = |iv: &[u8; 12]| {
        let mut iv = *iv;
        for i in (4..=11).rev() {
            iv[i] = iv[i].wrapping_add(1);
            if iv[i] != 0 {
                break;
            }
        }
        iv
    };

    let g = Aes128GcmSsh::new(&key.into());
    let mut iv = h12("112233440000000000000000");
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    assert_eq!(inc_iv_ssh(&iv), counter_nonce(&iv, 1));
    inc_iv(&mut iv);
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    iv = h12("11223344fffffffffffffffe");
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    inc_iv(&mut iv);
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Err(Error::NonceExhausted));

    // Wrapping is fine as long as the values do not run out.
    let g = Aes128GcmSsh::new(&key.into());
    let mut iv = h12("11223344fffffffffffffffe");
    for _ in 0..4 {
        assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
        assert_eq!(inc_iv_ssh(&iv), counter_nonce(&iv, 1));
        inc_iv(&mut iv);
    }

    let g = Aes128GcmSsh::new(&key.into());
    assert_eq!(try_nonce(&g, &key, h12("11223344aaaaaaaaaaaaaaaa"), &SSH_AAD), Ok(()));
    let mut iv = h12("11223344ffffffffffffffff");
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    inc_iv(&mut iv);
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    let mut iv = h12("11223344aaaaaaaaaaaaaaa8");
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Ok(()));
    inc_iv(&mut iv);
    assert_eq!(try_nonce(&g, &key, iv, &SSH_AAD), Err(Error::NonceExhausted));
    assert_eq!(try_nonce(&g, &key, h12("11223344bbbbbbbbbbbbbbbb"), &SSH_AAD), Err(Error::NonceOrder));
    assert_eq!(g.usage().seals, 4, "the refusals were not counted");
}

/// Counter 0, 1 and 7, then a repeat, a lower one, 2^64 - 1, another fixed part, the last value
/// and it again.
fn xor_rules<T: CounterAead>(c: &T, key: &[u8], iv: &[u8; 12]) {
    for n in [0, 1, 7] {
        assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, n), b"hdr"), Ok(()), "n = {n}");
    }
    assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, 7), b""), Err(Error::NonceOrder));
    assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, 3), b""), Err(Error::NonceOrder));
    assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, u64::MAX), b""), Err(Error::NonceExhausted));
    let mut other = xor_counter_nonce(iv, 8);
    other[0] ^= 1;
    assert_eq!(try_nonce(c, key, other, b""), Err(Error::NoncePrefix));
    assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, u64::MAX - 1), b""), Ok(()), "the last value");
    assert_eq!(try_nonce(c, key, xor_counter_nonce(iv, u64::MAX - 1), b""), Err(Error::NonceOrder));
}

#[test]
fn xor_counter_mask_learned_from_counter_zero_or_given() {
    let mut rng = Rng::from_env("xor_counter_mask_learned_from_counter_zero_or_given");
    let key = rng.bytes(32);
    let iv = h12("a0a1a2a30123456789abcdef");
    xor_rules(&Aes256GcmXorCounterNonce::new_from_slice(&key).unwrap(), &key, &iv);
    xor_rules(&Aes256GcmXorCounterNonce::with_iv(key[..].try_into().unwrap(), &iv).unwrap(), &key, &iv);
    xor_rules(&ChaCha20Poly1305XorCounterNonce::with_iv_(&key, &iv).unwrap(), &key, &iv);
    // Given the IV, the first seal need not be n = 0: n = 5 is accepted, and then 4 is not.
    let c = Aes128GcmXorCounterNonce::with_iv_(&key[..16], &iv).unwrap();
    assert_eq!(try_nonce(&c, &key[..16], xor_counter_nonce(&iv, 5), b""), Ok(()));
    assert_eq!(try_nonce(&c, &key[..16], xor_counter_nonce(&iv, 4), b""), Err(Error::NonceOrder));
    // Learned, the first seal is n = 0 whatever it is: a later "n = 0 under the real mask" is
    // another n here.
    let c = Aes128GcmXorCounterNonce::new_from_slice(&key[..16]).unwrap();
    assert_eq!(try_nonce(&c, &key[..16], xor_counter_nonce(&iv, 5), b""), Ok(()));
    assert_eq!(try_nonce(&c, &key[..16], xor_counter_nonce(&iv, 5), b""), Err(Error::NonceOrder));
    assert_eq!(try_nonce(&c, &key[..16], xor_counter_nonce(&iv, 4), b""), Ok(()), "5 ^ 4 = 1 from the learned mask");
}

#[test]
fn counter_and_ssh_with_iv_start_at_its_value() {
    let mut rng = Rng::from_env("counter_and_ssh_with_iv_start_at_its_value");
    let key = rng.bytes(16);
    fn run<T: CounterAead>(key: &[u8], aad: &[u8]) {
        let c = T::with_iv_(key, &nonce(0xcafe_f00d, 5)).unwrap();
        assert_eq!(try_nonce(&c, key, nonce(0xcafe_f00d, 4), aad), Err(Error::NonceExhausted), "one before the start");
        assert_eq!(try_nonce(&c, key, nonce(0xcafe_f00e, 5), aad), Err(Error::NoncePrefix));
        assert_eq!(try_nonce(&c, key, nonce(0xcafe_f00d, 5), aad), Ok(()));
        assert_eq!(try_nonce(&c, key, nonce(0xcafe_f00d, 5), aad), Err(Error::NonceOrder));
        assert_eq!(try_nonce(&c, key, nonce(0xcafe_f00d, 9), aad), Ok(()));
    }
    run::<Aes128GcmCounterNonce>(&key, b"");
    run::<Aes128GcmCounterNonce>(&key, b"any aad");
    run::<Aes128GcmSsh>(&key, &SSH_AAD);
    // A given start near 2^64 - 1 wraps past it.
    let c = Aes128GcmCounterNonce::with_iv_(&key, &nonce(7, u64::MAX - 1)).unwrap();
    for n in [0, 1, 2, 3] {
        assert_eq!(try_nonce(&c, &key, counter_nonce(&nonce(7, u64::MAX - 1), n), b""), Ok(()), "n = {n}");
    }
    assert_eq!(counter_nonce(&nonce(7, u64::MAX - 1), 3), nonce(7, 1));
}

#[test]
fn policies_take_their_algorithms_tags_and_ivs() {
    let (k16, k24, k32) = ([1u8; 16], [1u8; 24], [1u8; 32]);
    let new = |alg, policy, key: &[u8]| Cipher::new(alg, policy, key, 0).map(|_| ());
    assert_eq!(new(Algorithm::Aes192Gcm, Policy::Counter, &k24), Ok(()));
    assert_eq!(new(Algorithm::ChaCha20Poly1305, Policy::Counter, &k32), Ok(()));
    assert_eq!(new(Algorithm::ChaCha20Poly1305, Policy::XorCounter, &k32), Ok(()));
    assert_eq!(new(Algorithm::Aes256Gcm, Policy::Ssh, &k32), Ok(()));
    // RFC 5647 has AES-128-GCM and AES-256-GCM only.
    assert_eq!(new(Algorithm::Aes192Gcm, Policy::Ssh, &k24), Err(Error::Arg));
    assert_eq!(new(Algorithm::ChaCha20Poly1305, Policy::Ssh, &k32), Err(Error::Arg));
    assert_eq!(new(Algorithm::Aes128Ccm, Policy::Counter, &k16), Err(Error::Arg));
    assert_eq!(new(Algorithm::XChaCha20Poly1305, Policy::XorCounter, &k32), Err(Error::Arg));
    assert_eq!(new(Algorithm::Aes128GcmSiv, Policy::Counter, &k16), Err(Error::Arg));
    for policy in [Policy::Counter, Policy::XorCounter, Policy::Ssh] {
        assert_eq!(Cipher::new(Algorithm::Aes128Gcm, policy, &k16, 12).map(|_| ()), Err(Error::TagSize), "{policy:?}");
        for iv_len in [4, 8, 16] {
            let r = Cipher::with_options(Algorithm::Aes128Gcm, policy, &k16, 0, None, &vec![2u8; iv_len]);
            assert_eq!(r.map(|_| ()), Err(Error::NonceSize), "{policy:?} iv {iv_len}");
        }
        let c = Cipher::with_options(Algorithm::Aes128Gcm, policy, &k16, 0, None, &[2u8; 12]).unwrap();
        assert_eq!(c.policy(), policy);
        assert_eq!(c.overhead(), 16);
        let aad: &[u8] = if policy == Policy::Ssh { &SSH_AAD } else { b"" };
        assert_eq!(c.seal(&[0u8; 8], aad, b"four"), Err(Error::NonceSize), "{policy:?}: an 8-byte nonce");
        assert_eq!(c.seal(&[2u8; 12], aad, b"four").map(|v| v.len()), Ok(20));
    }
    // The types' own constants and the construction of their nonces.
    assert_eq!((Aes128GcmSsh::AAD_LEN, Aes256GcmSsh::REKEY_AFTER), (4, 1 << 32));
    assert_eq!((Aes128GcmCounterNonce::NONCE_LEN, Aes128GcmCounterNonce::TAG_LEN), (12, 16));
    let iv = h12("000000010000000000000002");
    assert_eq!(counter_nonce(&iv, 3), h12("000000010000000000000005"));
    assert_eq!(xor_counter_nonce(&iv, 3), h12("000000010000000000000001"));
    assert_eq!(counter_nonce(&nonce(9, u64::MAX), 1), nonce(9, 0), "the fixed part never carries");
}

#[test]
fn ssh_aad_is_the_packet_length_and_seals_are_counted() {
    let mut rng = Rng::from_env("ssh_aad_is_the_packet_length_and_seals_are_counted");
    let key = rng.bytes(32);
    let c = Aes256GcmSsh::new_from_slice(&key).unwrap();
    for len in [0, 3, 5, 13] {
        assert_eq!(try_nonce(&c, &key, nonce(7, 100), &vec![0; len]), Err(Error::AadSize), "AAD {len}");
    }
    let u = c.usage();
    assert_eq!((u.seals, u.forgeries, u.rekey_after, u.seal_limit), (0, 0, 1 << 32, u64::MAX));
    for k in 0..5 {
        assert_eq!(try_nonce(&c, &key, nonce(7, 100 + k), &SSH_AAD), Ok(()));
    }
    assert_eq!(try_nonce(&c, &key, nonce(7, 100), &SSH_AAD), Err(Error::NonceOrder));
    assert_eq!(c.usage().seals, 5);
    assert_eq!(c.cipher().usage(), c.usage());
    // Open checks nothing: records of the session open in any order, and the AAD is not policed.
    let peer = libaead::Aes256Gcm::new_from_slice(&key).unwrap();
    for n in [3u64, 1, 3] {
        let sealed = peer.encrypt(&nonce(7, n).into(), Payload { msg: b"hello", aad: &[1; 9] }).unwrap();
        assert_eq!(c.open(&nonce(7, n).into(), &[1; 9], &sealed).unwrap(), b"hello");
        let mut bad = sealed.clone();
        bad[0] ^= 1;
        assert_eq!(c.open(&nonce(7, n).into(), &[1; 9], &bad), Err(Error::Auth));
    }
    assert_eq!(c.usage().forgeries, 3);
    // The counter policies count no seals and have no rekey point.
    let counter = Aes256GcmCounterNonce::new_from_slice(&key).unwrap();
    counter.seal(&nonce(7, 0).into(), b"", b"x").unwrap();
    let u = counter.cipher().usage();
    assert_eq!((u.seals, u.rekey_after), (0, u64::MAX));
}

// ---- differential: RustCrypto's aes-gcm and chacha20poly1305 on random inputs

/// The first seal of a fresh context takes any nonce: the whole RustCrypto surface of each type
/// (four seal and four open shapes, tampering) against the reference crate.
#[test]
fn differential_first_seal_against_rustcrypto() {
    type RefAes192Gcm = aes_gcm::AesGcm<aes_gcm::aes::Aes192, U12>;
    type RefChaCha = chacha20poly1305::ChaCha20Poly1305;
    let rng = &mut Rng::from_env("differential_first_seal_against_rustcrypto");
    diff::diff::<Aes128GcmCounterNonce, aes_gcm::Aes128Gcm>("AES-128-GCM counter", rng, 60, usize::MAX);
    diff::diff::<Aes192GcmCounterNonce, RefAes192Gcm>("AES-192-GCM counter", rng, 60, usize::MAX);
    diff::diff::<Aes256GcmCounterNonce, aes_gcm::Aes256Gcm>("AES-256-GCM counter", rng, 60, usize::MAX);
    diff::diff::<ChaCha20Poly1305CounterNonce, RefChaCha>("ChaCha20-Poly1305 counter", rng, 60, usize::MAX);
    diff::diff::<Aes128GcmXorCounterNonce, aes_gcm::Aes128Gcm>("AES-128-GCM XOR counter", rng, 60, usize::MAX);
    diff::diff::<Aes192GcmXorCounterNonce, RefAes192Gcm>("AES-192-GCM XOR counter", rng, 60, usize::MAX);
    diff::diff::<Aes256GcmXorCounterNonce, aes_gcm::Aes256Gcm>("AES-256-GCM XOR counter", rng, 60, usize::MAX);
    diff::diff::<ChaCha20Poly1305XorCounterNonce, RefChaCha>("ChaCha20-Poly1305 XOR counter", rng, 60, usize::MAX);
}

/// Seals message `n` through API shape `shape` (six of them); `Err` for a refusal, after checking
/// that it changed nothing the caller gave.
fn seal_shape<T: CounterAead>(c: &T, shape: usize, nonce: &[u8; 12], aad: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
    let n = (*nonce).into();
    match shape % 6 {
        0 => c.encrypt(&n, Payload { msg, aad }).map_err(|_| Error::Unknown(0)),
        1 => {
            let mut buf = msg.to_vec();
            let r = c.encrypt_in_place(&n, aad, &mut buf);
            if r.is_err() {
                assert_eq!(buf, msg, "a refused encrypt_in_place changed the buffer");
            }
            r.map(|_| buf).map_err(|_| Error::Unknown(0))
        }
        2 => {
            let mut out = vec![0x33; msg.len()];
            let r = c.encrypt_inout_detached(&n, aad, InOutBuf::new(msg, &mut out).unwrap());
            if r.is_err() {
                assert!(out.iter().all(|&b| b == 0x33), "a refused detached seal wrote");
            }
            r.map(|tag| [out, tag.to_vec()].concat()).map_err(|_| Error::Unknown(0))
        }
        3 => {
            let mut out = vec![0x44; msg.len() + 16];
            let r = c.seal_into_(nonce, aad, msg, &mut out);
            if r.is_err() {
                assert!(out.iter().all(|&b| b == 0x44), "a refused seal_into wrote");
            }
            r.map(|len| {
                assert_eq!(len, out.len());
                out
            })
        }
        4 => {
            let mut buf = [msg, &[0x55; 16][..]].concat();
            let r = c.seal_slice_(nonce, aad, &mut buf, msg.len());
            if r.is_err() {
                assert_eq!(&buf[..msg.len()], msg, "a refused in-place seal changed the plaintext");
            }
            r.map(|_| buf)
        }
        _ => c.seal_(nonce, aad, msg),
    }
}

/// One context, a random run of 300 seals with gaps (now and then a long one) through every shape,
/// each equal to RustCrypto's seal under the nonce the construction defines; a repeat now and then,
/// refused; then every record opens, newest first, through the typed and in-place opens.
fn run_with_gaps<T: CounterAead>(rng: &mut Rng, given: bool) {
    let key = rng.bytes(T::key_size());
    let mut iv: [u8; 12] = rng.array();
    if rng.below(8) == 0 {
        iv[4..].copy_from_slice(&(u64::MAX - rng.below(4) as u64).to_be_bytes()); // about to wrap
    }
    let c = if given { T::with_iv_(&key, &iv).unwrap() } else { T::new_from_slice(&key).unwrap() };
    let mut n: u64 = if given { rng.below(3) as u64 } else { 0 };
    let mut records = Vec::new();
    for k in 0..300 {
        let nonce = T::nonce(&iv, n);
        let aad = T::aad(rng);
        let msg = if rng.below(8) == 0 { rng.msg() } else { rng.bytes_below(300) };
        let what = format!("{:?} {:?} given {given} seal {k} n {n}", T::ALG, T::POLICY);
        let sealed = seal_shape(&c, k, &nonce, &aad, &msg).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        assert_eq!(sealed, reference_seal(T::ALG, &key, &nonce, &aad, &msg), "{what}");
        if k % 7 == 3 {
            let shape = k / 7;
            let again = seal_shape(&c, shape, &nonce, &aad, &msg);
            assert!(again.is_err(), "{what}: a repeated nonce was accepted");
            if shape % 6 >= 3 {
                assert_eq!(again, Err(Error::NonceOrder), "{what}");
            }
        }
        records.push((nonce, aad, msg, sealed));
        n += 1 + rng.below(if k % 5 == 0 { 1000 } else { 2 }) as u64;
    }
    for (i, (nonce, aad, msg, sealed)) in records.iter().enumerate().rev() {
        if i % 2 == 0 {
            assert_eq!(&c.open_(nonce, aad, sealed).unwrap(), msg);
        } else {
            let mut buf = sealed.clone();
            assert_eq!(c.open_slice_(nonce, aad, &mut buf), Ok(msg.len()));
            assert_eq!(&buf[..msg.len()], &msg[..]);
        }
    }
}

macro_rules! runs_with_gaps {
    ($($test:ident: $t:ty;)*) => {$(
        #[test]
        fn $test() {
            let rng = &mut Rng::from_env(stringify!($test));
            for given in [false, true, false, true] {
                run_with_gaps::<$t>(rng, given);
            }
        }
    )*};
}

runs_with_gaps! {
    differential_runs_aes128_gcm_counter: Aes128GcmCounterNonce;
    differential_runs_aes192_gcm_counter: Aes192GcmCounterNonce;
    differential_runs_aes256_gcm_counter: Aes256GcmCounterNonce;
    differential_runs_chacha20_poly1305_counter: ChaCha20Poly1305CounterNonce;
    differential_runs_aes128_gcm_xor_counter: Aes128GcmXorCounterNonce;
    differential_runs_aes192_gcm_xor_counter: Aes192GcmXorCounterNonce;
    differential_runs_aes256_gcm_xor_counter: Aes256GcmXorCounterNonce;
    differential_runs_chacha20_poly1305_xor_counter: ChaCha20Poly1305XorCounterNonce;
    differential_runs_aes128_gcm_ssh: Aes128GcmSsh;
    differential_runs_aes256_gcm_ssh: Aes256GcmSsh;
}

// ---- threads

const THREADS: usize = 8;
const VALUES: u64 = 2000;

/// 8 threads seal counters 0..2000 of one context, each value planned in three threads, even ones
/// through the typed method and odd ones through `Aead::encrypt` (whose opaque refusal is counted
/// as a nonce-order one): every value accepted at most once, every typed refusal a nonce-order
/// one, every accepted record RustCrypto's seal of one thread's message.
fn colliding_threads<T: CounterAead>(seed: u64) {
    let mut rng = Rng::new(seed);
    let key = rng.bytes(T::key_size());
    let iv: [u8; 12] = rng.array();
    let c = T::with_iv_(&key, &iv).unwrap();
    let aad = if T::POLICY == Policy::Ssh { SSH_AAD.to_vec() } else { rng.bytes_below(20) };
    let mut plans: Vec<Vec<u64>> = vec![Vec::new(); THREADS];
    for v in 0..VALUES {
        for copy in 0..3u64 {
            plans[((v * 3 + copy * 5) % THREADS as u64) as usize].push(v);
        }
    }
    let accepted: Mutex<HashMap<u64, Vec<Vec<u8>>>> = Mutex::new(HashMap::new());
    let refused = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for (t, plan) in plans.iter().enumerate() {
            let (c, aad, accepted, refused) = (&c, &aad, &accepted, &refused);
            s.spawn(move || {
                let msg = [t as u8; 16];
                for &v in plan {
                    let nonce = T::nonce(&iv, v);
                    let r = if v % 2 == 0 {
                        c.seal_(&nonce, aad, &msg)
                    } else {
                        c.encrypt(&nonce.into(), Payload { msg: &msg, aad }).map_err(|_| Error::NonceOrder)
                    };
                    match r {
                        Ok(sealed) => accepted.lock().unwrap().entry(v).or_default().push(sealed),
                        Err(e) => {
                            assert_eq!(e, Error::NonceOrder, "thread {t} value {v}");
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let accepted = accepted.into_inner().unwrap();
    assert!(!accepted.is_empty());
    let records: usize = accepted.values().map(Vec::len).sum();
    assert_eq!(records + refused.into_inner(), 3 * VALUES as usize, "every attempt accounted for");
    for (v, sealed) in &accepted {
        assert_eq!(sealed.len(), 1, "{:?}: counter {v} accepted {} times", T::POLICY, sealed.len());
        let nonce = T::nonce(&iv, *v);
        let t = (0..THREADS).find(|&t| reference_seal(T::ALG, &key, &nonce, &aad, &[t as u8; 16]) == sealed[0]);
        assert!(t.is_some(), "{:?}: counter {v}: no thread's message seals to the record", T::POLICY);
    }
    if T::POLICY == Policy::Ssh {
        assert_eq!(c.cipher_().usage().seals, accepted.len() as u64, "a refused seal counted");
    }
}

#[test]
fn colliding_counters_from_8_threads_each_accepted_once() {
    let seed = Rng::from_env("colliding_counters_from_8_threads_each_accepted_once").next_u64();
    colliding_threads::<Aes128GcmCounterNonce>(seed);
    colliding_threads::<ChaCha20Poly1305XorCounterNonce>(seed ^ 1);
    colliding_threads::<Aes128GcmSsh>(seed ^ 2);
}

/// Learned from a first seal made before the threads start, the IV is then shared as if given.
#[test]
fn learned_then_shared_between_threads() {
    let key = [3u8; 32];
    let iv = nonce(0x0bad_cafe, 40);
    let c = Aes256GcmCounterNonce::new(&key.into());
    c.seal(&iv.into(), b"", b"first").unwrap();
    let wins = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for k in 1..=200 {
                    if c.seal(&counter_nonce(&iv, k).into(), b"", b"x").is_ok() {
                        wins.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let wins = wins.into_inner();
    assert!((1..=200).contains(&wins), "{wins} seals accepted of 200 values");
    assert_eq!(c.seal(&iv.into(), b"", b"x"), Err(Error::NonceOrder), "the start again");
    assert_eq!(c.seal(&counter_nonce(&iv, u64::MAX).into(), b"", b"x"), Err(Error::NonceExhausted), "one before the start");
}

#[test]
fn types_are_send_sync_and_debug_shows_no_key() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Aes128GcmCounterNonce>();
    send_sync::<ChaCha20Poly1305XorCounterNonce>();
    send_sync::<Aes256GcmSsh>();
    let c = Aes128GcmSsh::new(&[0x42; 16].into());
    assert_eq!(format!("{c:?}"), "Aes128GcmSsh { .. }");
    assert_eq!(c.cipher().policy(), Policy::Ssh);
    assert_eq!(c.cipher().algorithm(), Algorithm::Aes128Gcm);
    assert!(!c.provider().is_empty());
}
