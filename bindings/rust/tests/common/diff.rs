//! The differential test shared by tests/differential.rs and tests/families.rs: a libaead
//! RustCrypto-trait type against the RustCrypto crate of the same algorithm and sizes.
use super::Rng;
use aead::array::typenum::Unsigned;
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload, Tag};

/// A random key, Ours and Ref on it, and a random nonce (key then nonce drawn from `rng`).
pub fn keyed_pair<Ours: KeyInit + AeadCore, Ref: KeyInit>(rng: &mut Rng) -> (Vec<u8>, Ours, Ref, Nonce<Ours>) {
    let key = rng.bytes(Ours::key_size());
    let ours = Ours::new_from_slice(&key).unwrap();
    let theirs = Ref::new_from_slice(&key).unwrap();
    let mut nonce = Nonce::<Ours>::default();
    rng.fill(&mut nonce);
    (key, ours, theirs, nonce)
}

/// Seals `msg` out of place into a new buffer through `encrypt_inout_detached`, the tag appended.
pub fn seal_out_of_place<A: AeadInOut>(a: &A, nonce: &Nonce<A>, aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; msg.len()];
    let tag = a.encrypt_inout_detached(nonce, aad, InOutBuf::new(msg, &mut out).unwrap()).unwrap();
    out.extend_from_slice(&tag);
    out
}

/// Random keys, nonces, AAD and messages (at most `max_msg` bytes): seal through four API
/// shapes equals theirs and opens with theirs; ours opens theirs through four shapes; a flipped
/// bit, another AAD and another nonce are refused (in-place and detached failures zeroed).
pub fn diff<Ours, Ref>(name: &str, rng: &mut Rng, iters: usize, max_msg: usize)
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    let tag_len = <Ours as AeadCore>::TagSize::USIZE;
    assert_eq!(Ours::key_size(), Ref::key_size());
    for i in 0..iters {
        let (_, ours, theirs, nonce) = keyed_pair::<Ours, Ref>(rng);
        let aad = if rng.below(4) == 0 { Vec::new() } else { rng.bytes_below(70) };
        let mut msg = rng.msg();
        msg.truncate(max_msg);
        let ctx = format!("{name} iter {i} msg {} aad {}", msg.len(), aad.len());

        // ---- seal: ours vs theirs, four API shapes
        let reference = theirs.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(reference.len(), msg.len() + tag_len);
        let ours_ct = match i % 4 {
            0 => ours.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap(),
            1 => {
                let mut buf = msg.clone();
                let tag = ours.encrypt_inout_detached(&nonce, &aad, buf.as_mut_slice().into()).unwrap();
                buf.extend_from_slice(&tag);
                buf
            }
            2 => seal_out_of_place(&ours, &nonce, &aad, &msg),
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
        let bit = rng.flip_bit(&mut bad);
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
        let j = rng.below(n2.len());
        n2[j] ^= 1;
        assert!(ours.decrypt(&n2, Payload { msg: &reference, aad: &aad }).is_err(), "{ctx}: wrong nonce");
    }
}
