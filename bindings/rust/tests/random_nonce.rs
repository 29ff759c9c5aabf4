//! The random-nonce AES-GCM types (ABI 1.1): `nonce(12) || ciphertext || tag` opened by
//! RustCrypto `aes-gcm` with that nonce, and RustCrypto's `nonce || ct || tag` opened by libaead,
//! through every API shape; nonces never repeat; refusals write nothing.
mod common;

use aead::{Aead, AeadCore, KeyInit, Nonce, Payload};
use common::Rng;
use libaead::{Aes128GcmRandomNonce, Aes192GcmRandomNonce, Aes256GcmRandomNonce, Algorithm, Cipher, Error, Policy};
use std::collections::HashSet;

type Aes192 = aes_gcm::AesGcm<aes_gcm::aes::Aes192, aead::consts::U12>;

/// The RustCrypto reference for one key size, and the libaead type under test.
trait Pair {
    type Ours: Aead + KeyInit;
    type Theirs: Aead + KeyInit;
    fn seal(c: &Self::Ours, aad: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error>;
    fn open(c: &Self::Ours, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error>;
    fn seal_into(c: &Self::Ours, aad: &[u8], msg: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn open_into(c: &Self::Ours, aad: &[u8], sealed: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn seal_in_place(c: &Self::Ours, aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error>;
    fn open_in_place(c: &Self::Ours, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error>;
}

macro_rules! pair {
    ($p:ident, $ours:ty, $theirs:ty) => {
        struct $p;
        impl Pair for $p {
            type Ours = $ours;
            type Theirs = $theirs;
            fn seal(c: &$ours, aad: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
                c.seal(aad, msg)
            }
            fn open(c: &$ours, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
                c.open(aad, sealed)
            }
            fn seal_into(c: &$ours, aad: &[u8], msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                c.seal_into(aad, msg, out)
            }
            fn open_into(c: &$ours, aad: &[u8], sealed: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                c.open_into(aad, sealed, out)
            }
            fn seal_in_place(c: &$ours, aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error> {
                c.seal_in_place(aad, buf, len)
            }
            fn open_in_place(c: &$ours, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
                c.open_in_place(aad, buf)
            }
        }
    };
}
pair!(P128, Aes128GcmRandomNonce, aes_gcm::Aes128Gcm);
pair!(P192, Aes192GcmRandomNonce, Aes192);
pair!(P256, Aes256GcmRandomNonce, aes_gcm::Aes256Gcm);

fn theirs_open<P: Pair>(t: &P::Theirs, aad: &[u8], sealed: &[u8]) -> Vec<u8>
where
    P::Theirs: AeadCore<NonceSize = aead::consts::U12>,
{
    let nonce = Nonce::<P::Theirs>::try_from(&sealed[..12]).unwrap();
    t.decrypt(&nonce, Payload { msg: &sealed[12..], aad }).expect("aes-gcm opens libaead's output")
}

fn theirs_seal<P: Pair>(t: &P::Theirs, nonce: &[u8; 12], aad: &[u8], msg: &[u8]) -> Vec<u8>
where
    P::Theirs: AeadCore<NonceSize = aead::consts::U12>,
{
    let mut out = nonce.to_vec();
    out.extend(t.encrypt(&(*nonce).into(), Payload { msg, aad }).unwrap());
    out
}

fn differential<P: Pair>(name: &str)
where
    P::Theirs: AeadCore<NonceSize = aead::consts::U12>,
{
    let mut rng = Rng::from_env(name);
    let key = rng.bytes(<P::Ours as aead::KeySizeUser>::key_size());
    let ours = P::Ours::new_from_slice(&key).unwrap();
    let theirs = P::Theirs::new_from_slice(&key).unwrap();
    for _ in 0..60 {
        let msg = rng.msg();
        let aad = rng.bytes_below(40);
        // libaead -> aes-gcm, through each seal shape.
        let a = P::seal(&ours, &aad, &msg).unwrap();
        assert_eq!(a.len(), msg.len() + 28);
        assert_eq!(theirs_open::<P>(&theirs, &aad, &a), msg);
        let mut b = vec![0u8; msg.len() + 28];
        assert_eq!(P::seal_into(&ours, &aad, &msg, &mut b), Ok(msg.len() + 28));
        assert_eq!(theirs_open::<P>(&theirs, &aad, &b), msg);
        let mut c = msg.clone();
        c.resize(msg.len() + 28, 0);
        assert_eq!(P::seal_in_place(&ours, &aad, &mut c, msg.len()), Ok(msg.len() + 28));
        assert_eq!(theirs_open::<P>(&theirs, &aad, &c), msg);
        let d = ours.encrypt(&Nonce::<P::Ours>::default(), Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(theirs_open::<P>(&theirs, &aad, &d), msg);
        assert!(a[..12] != b[..12] && b[..12] != c[..12] && c[..12] != d[..12], "fresh nonces");

        // aes-gcm with a random nonce -> libaead, through each open shape.
        let sealed = theirs_seal::<P>(&theirs, &rng.array(), &aad, &msg);
        assert_eq!(P::open(&ours, &aad, &sealed).unwrap(), msg);
        let mut out = vec![0u8; msg.len()];
        assert_eq!(P::open_into(&ours, &aad, &sealed, &mut out), Ok(msg.len()));
        assert_eq!(out, msg);
        let mut buf = sealed.clone();
        assert_eq!(P::open_in_place(&ours, &aad, &mut buf), Ok(msg.len()));
        assert_eq!(buf[..msg.len()], msg[..]);
        let pt = ours.decrypt(&Nonce::<P::Ours>::default(), Payload { msg: &sealed, aad: &aad }).unwrap();
        assert_eq!(pt, msg);

        // Tampering anywhere (nonce, ciphertext, tag) or a different AAD fails.
        let mut bad = sealed.clone();
        let at = rng.below(bad.len());
        bad[at] ^= 1 << rng.below(8);
        assert_eq!(P::open(&ours, &aad, &bad), Err(Error::Auth), "flip at {at}");
        let mut other_aad = aad.clone();
        other_aad.push(0);
        assert_eq!(P::open(&ours, &other_aad, &sealed), Err(Error::Auth));
    }
}

#[test]
fn aes128_matches_rustcrypto_both_ways() {
    differential::<P128>("aes128_matches_rustcrypto_both_ways");
}

#[test]
fn aes192_matches_rustcrypto_both_ways() {
    differential::<P192>("aes192_matches_rustcrypto_both_ways");
}

#[test]
fn aes256_matches_rustcrypto_both_ways() {
    differential::<P256>("aes256_matches_rustcrypto_both_ways");
}

#[test]
fn nonces_never_repeat() {
    let c = Aes128GcmRandomNonce::new(&[5u8; 16].into());
    let mut seen = HashSet::new();
    for _ in 0..20_000 {
        let s = c.seal(b"", b"").unwrap();
        assert_eq!(s.len(), 28);
        assert!(seen.insert(s[..12].to_vec()), "repeated nonce");
    }
    assert!(!seen.contains(&[0u8; 12][..]));
}

#[test]
fn shape_and_refusals() {
    assert_eq!(Aes256GcmRandomNonce::OVERHEAD, 28);
    assert_eq!(Nonce::<Aes256GcmRandomNonce>::default().len(), 0);
    let c = Aes256GcmRandomNonce::new(&[1u8; 32].into());
    assert_eq!(c.cipher().policy(), Policy::RandomNonce);
    assert_eq!(c.cipher().overhead(), 28);
    // Too short to hold nonce and tag, or a wrong size for the output: errors, nothing written.
    for n in [0, 1, 12, 27] {
        assert_eq!(c.open(b"", &vec![0; n]), Err(Error::Auth), "{n}");
        assert_eq!(c.open_in_place(b"", &mut vec![0; n]), Err(Error::Auth), "{n}");
    }
    let mut out = [0xaa; 30];
    assert_eq!(c.seal_into(b"", b"abc", &mut out), Err(Error::BufferTooSmall));
    assert_eq!(out, [0xaa; 30]);
    let mut buf = *b"abc_____________________________";
    assert_eq!(c.seal_in_place(b"", &mut buf[..30], 3), Err(Error::BufferTooSmall));
    assert_eq!(&buf, b"abc_____________________________", "a refused in-place seal leaves the buffer");
    let sealed = c.seal(b"", b"abc").unwrap();
    let mut small = [0xaa; 2];
    assert_eq!(c.open_into(b"", &sealed, &mut small), Err(Error::BufferTooSmall));
    assert_eq!(small, [0xaa; 2]);
    // The generic context: a nonce is refused, ChaCha20-Poly1305 and short tags are not offered.
    let g = Cipher::with_options(Algorithm::Aes128Gcm, Policy::RandomNonce, &[0; 16], 16, None, &[]).unwrap();
    assert_eq!(g.seal(&[0; 12], b"", b"x"), Err(Error::NonceSize));
    let mut v = b"in a vec".to_vec();
    g.seal_buffer(&[], b"hdr", &mut v).unwrap();
    assert_eq!(v.len(), 8 + 28);
    g.open_buffer(&[], b"hdr", &mut v).unwrap();
    assert_eq!(v, b"in a vec");
    let chacha = Cipher::with_options(Algorithm::ChaCha20Poly1305, Policy::RandomNonce, &[0; 32], 16, None, &[]);
    assert_eq!(chacha.unwrap_err(), Error::Arg);
    let short_tag = Cipher::with_options(Algorithm::Aes128Gcm, Policy::RandomNonce, &[0; 16], 12, None, &[]);
    assert_eq!(short_tag.unwrap_err(), Error::TagSize);
    // Default provider: not FIPS, so nothing approved.
    assert_eq!(c.provider(), "default");
    assert_eq!(c.indicator().bits(), 0);
}
