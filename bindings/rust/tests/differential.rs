//! Differential tests against RustCrypto's `aes-gcm` and `chacha20poly1305` on random inputs, in
//! both directions, through every API shape (Vec, in-place buffer, detached in place and in-out,
//! stack and heap scratch paths), plus tampering.
mod common;

use aead::consts::{U12, U16, U8};
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload, Tag};
use common::Rng;
use libaead::{Algorithm, Cipher, Policy};

const ITERS: usize = 300;

fn diff<Ours, Ref>(name: &str, rng: &mut Rng)
where
    Ours: KeyInit + AeadInOut + AeadCore<NonceSize = U12, TagSize = U16>,
    Ref: KeyInit + AeadInOut + AeadCore<NonceSize = U12, TagSize = U16>,
{
    assert_eq!(Ours::key_size(), Ref::key_size());
    for i in 0..ITERS {
        let key = rng.bytes(Ours::key_size());
        let ours = Ours::new_from_slice(&key).unwrap();
        let theirs = Ref::new_from_slice(&key).unwrap();
        let nonce: Nonce<Ours> = rng.array::<12>().into();
        let aad = if rng.below(4) == 0 { Vec::new() } else { rng.bytes_below(70) };
        let msg = rng.msg();
        let ctx = format!("{name} iter {i} msg {} aad {}", msg.len(), aad.len());

        // ---- seal: ours vs theirs, four API shapes
        let reference = theirs.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(reference.len(), msg.len() + 16);
        let ours_ct = match i % 4 {
            0 => ours.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap(),
            1 => {
                let mut buf = msg.clone();
                let tag = ours.encrypt_inout_detached(&nonce, &aad, buf.as_mut_slice().into()).unwrap();
                buf.extend_from_slice(&tag);
                buf
            }
            2 => {
                let mut out = vec![0u8; msg.len()];
                let tag = ours
                    .encrypt_inout_detached(&nonce, &aad, InOutBuf::new(&msg, &mut out).unwrap())
                    .unwrap();
                out.extend_from_slice(&tag);
                out
            }
            _ => {
                let mut buf = msg.clone();
                ours.encrypt_in_place(&nonce, &aad, &mut buf).unwrap();
                buf
            }
        };
        assert_eq!(ours_ct, reference, "{ctx}: seal differs from RustCrypto");
        // theirs opens ours
        assert_eq!(theirs.decrypt(&nonce, Payload { msg: &ours_ct, aad: &aad }).unwrap(), msg, "{ctx}");

        // ---- open: ours opens theirs, four API shapes
        let (ct, tag) = reference.split_at(msg.len());
        let tag = Tag::<Ours>::try_from(tag).unwrap();
        let opened = match (i / 4) % 4 {
            0 => ours.decrypt(&nonce, Payload { msg: &reference, aad: &aad }).unwrap(),
            1 => {
                let mut buf = ct.to_vec();
                ours.decrypt_inout_detached(&nonce, &aad, buf.as_mut_slice().into(), &tag).unwrap();
                buf
            }
            2 => {
                let mut out = vec![0u8; ct.len()];
                ours.decrypt_inout_detached(&nonce, &aad, InOutBuf::new(ct, &mut out).unwrap(), &tag)
                    .unwrap();
                out
            }
            _ => {
                let mut buf = reference.clone();
                ours.decrypt_in_place(&nonce, &aad, &mut buf).unwrap();
                buf
            }
        };
        assert_eq!(opened, msg, "{ctx}: open of RustCrypto's ciphertext");

        // ---- tampering: both refuse
        let mut bad = reference.clone();
        let bit = rng.below(bad.len() * 8);
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(theirs.decrypt(&nonce, Payload { msg: &bad, aad: &aad }).is_err());
        assert!(ours.decrypt(&nonce, Payload { msg: &bad, aad: &aad }).is_err(), "{ctx}: tampered bit {bit}");
        // in place: refused, length unchanged, ciphertext part zeroed (never partial output)
        let mut buf = bad.clone();
        assert!(ours.decrypt_in_place(&nonce, &aad, &mut buf).is_err());
        assert_eq!(buf.len(), bad.len());
        assert!(buf[..msg.len()].iter().all(|&b| b == 0), "{ctx}: in-place failure not zeroed");
        // detached out of place: output zeroed, input untouched
        let (bct, btag) = bad.split_at(msg.len());
        let mut out = vec![0x5au8; msg.len()];
        let btag = Tag::<Ours>::try_from(btag).unwrap();
        assert!(ours
            .decrypt_inout_detached(&nonce, &aad, InOutBuf::new(bct, &mut out).unwrap(), &btag)
            .is_err());
        assert!(out.iter().all(|&b| b == 0), "{ctx}: detached failure not zeroed");
        // wrong AAD
        let mut aad2 = aad.clone();
        if aad2.is_empty() {
            aad2.push(0);
        } else {
            let j = rng.below(aad2.len());
            aad2[j] ^= 0x80;
        }
        assert!(theirs.decrypt(&nonce, Payload { msg: &reference, aad: &aad2 }).is_err());
        assert!(ours.decrypt(&nonce, Payload { msg: &reference, aad: &aad2 }).is_err(), "{ctx}: wrong aad");
        // wrong nonce
        let mut n2 = nonce;
        n2[rng.below(12)] ^= 1;
        assert!(ours.decrypt(&n2, Payload { msg: &reference, aad: &aad }).is_err(), "{ctx}: wrong nonce");
    }
}

#[test]
fn differential_aes128_gcm() {
    diff::<libaead::Aes128Gcm, aes_gcm::Aes128Gcm>("AES-128-GCM", &mut Rng::from_env("aes128"));
}

#[test]
fn differential_aes192_gcm() {
    type RefAes192Gcm = aes_gcm::AesGcm<aes_gcm::aes::Aes192, U12>;
    diff::<libaead::Aes192Gcm, RefAes192Gcm>("AES-192-GCM", &mut Rng::from_env("aes192"));
}

#[test]
fn differential_aes256_gcm() {
    diff::<libaead::Aes256Gcm, aes_gcm::Aes256Gcm>("AES-256-GCM", &mut Rng::from_env("aes256"));
}

#[test]
fn differential_chacha20_poly1305() {
    diff::<libaead::ChaCha20Poly1305, chacha20poly1305::ChaCha20Poly1305>(
        "ChaCha20-Poly1305",
        &mut Rng::from_env("chacha"),
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
