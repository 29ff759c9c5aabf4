//! Differential tests against RustCrypto's `aes-gcm` and `chacha20poly1305` on random inputs, in
//! both directions, through every API shape (Vec, in-place buffer, detached in place and in-out,
//! stack and heap scratch paths), plus tampering.
mod common;

use aead::consts::{U12, U16, U8};
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload};
use common::{diff, Rng};
use libaead::{Algorithm, Cipher, Policy};

const ITERS: usize = 300;

#[test]
fn differential_aes128_gcm() {
    diff::diff::<libaead::Aes128Gcm, aes_gcm::Aes128Gcm>("AES-128-GCM", &mut Rng::from_env("aes128"), ITERS, usize::MAX);
}

#[test]
fn differential_aes192_gcm() {
    type RefAes192Gcm = aes_gcm::AesGcm<aes_gcm::aes::Aes192, U12>;
    diff::diff::<libaead::Aes192Gcm, RefAes192Gcm>("AES-192-GCM", &mut Rng::from_env("aes192"), ITERS, usize::MAX);
}

#[test]
fn differential_aes256_gcm() {
    diff::diff::<libaead::Aes256Gcm, aes_gcm::Aes256Gcm>("AES-256-GCM", &mut Rng::from_env("aes256"), ITERS, usize::MAX);
}

#[test]
fn differential_chacha20_poly1305() {
    diff::diff::<libaead::ChaCha20Poly1305, chacha20poly1305::ChaCha20Poly1305>(
        "ChaCha20-Poly1305",
        &mut Rng::from_env("chacha"),
        ITERS,
        usize::MAX,
    );
}

/// The generic [`Cipher`] with non-12-byte nonces and truncated tags vs `aes_gcm::AesGcm<_, N, T>`.
fn diff_cipher<Ref: KeyInit + AeadInOut>(alg: Algorithm, tag_len: usize, rng: &mut Rng) {
    let nonce_len = <Ref as AeadCore>::NonceSize::to_usize_();
    for i in 0..100 {
        let key = rng.bytes(Ref::key_size());
        let ours = Cipher::new(alg, Policy::None, &key, tag_len).unwrap();
        let theirs = Ref::new_from_slice(&key).unwrap();
        let nonce = rng.bytes(nonce_len);
        let rnonce = Nonce::<Ref>::try_from(&nonce[..]).unwrap();
        let aad = rng.bytes_below(40);
        let msg = rng.msg();
        let reference = theirs.encrypt(&rnonce, Payload { msg: &msg, aad: &aad }).unwrap();
        let mut out = vec![0u8; msg.len() + tag_len];
        assert_eq!(ours.seal_into(&nonce, &aad, &msg, &mut out), Ok(msg.len() + tag_len));
        assert_eq!(out, reference, "{alg:?} nonce {nonce_len} tag {tag_len} iter {i}");
        // in place
        let mut buf = msg.clone();
        buf.resize(msg.len() + tag_len, 0);
        assert_eq!(ours.seal_in_place(&nonce, &aad, &mut buf, msg.len()), Ok(msg.len() + tag_len));
        assert_eq!(buf, reference);
        assert_eq!(ours.open(&nonce, &aad, &reference).unwrap(), msg);
        assert_eq!(ours.open_in_place(&nonce, &aad, &mut buf), Ok(msg.len()));
        assert_eq!(&buf[..msg.len()], &msg[..]);
        let mut bad = reference.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(theirs.decrypt(&rnonce, Payload { msg: &bad, aad: &aad }).is_err());
        assert_eq!(ours.open(&nonce, &aad, &bad), Err(libaead::Error::Auth));
    }
}

trait ToUsize {
    fn to_usize_() -> usize;
}
impl<T: aead::array::typenum::Unsigned> ToUsize for T {
    fn to_usize_() -> usize {
        T::USIZE
    }
}

#[test]
fn differential_gcm_long_and_short_nonces_truncated_tags() {
    use aes_gcm::aes::{Aes128, Aes256};
    let rng = &mut Rng::from_env("cipher");
    diff_cipher::<aes_gcm::AesGcm<Aes128, U16>>(Algorithm::Aes128Gcm, 16, rng);
    diff_cipher::<aes_gcm::AesGcm<Aes256, U8>>(Algorithm::Aes256Gcm, 16, rng);
    diff_cipher::<aes_gcm::AesGcm<Aes128, U12, U12>>(Algorithm::Aes128Gcm, 12, rng);
    diff_cipher::<aes_gcm::AesGcm<Aes256, U12, aead::consts::U13>>(Algorithm::Aes256Gcm, 13, rng);
}
