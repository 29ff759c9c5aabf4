//! The differential test shared by tests/differential.rs and tests/families.rs: a libaead
//! RustCrypto-trait type against the RustCrypto crate of the same algorithm and sizes.
use super::Rng;
use aead::array::typenum::Unsigned;
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload, Tag, TagPosition};

/// A random key, Ours and Ref on it, and a random nonce (key then nonce drawn from `rng`).
pub fn keyed_pair<Ours: KeyInit + AeadCore, Ref: KeyInit>(rng: &mut Rng) -> (Vec<u8>, Ours, Ref, Nonce<Ours>) {
    let key = rng.bytes(Ours::key_size());
    let ours = Ours::new_from_slice(&key).unwrap();
    let theirs = Ref::new_from_slice(&key).unwrap();
    let mut nonce = Nonce::<Ours>::default();
    rng.fill(&mut nonce);
    (key, ours, theirs, nonce)
}

/// `sealed` split into its ciphertext and its tag, wherever `A` puts the tag (AES-SIV: first).
pub fn split<A: AeadCore>(sealed: &[u8]) -> (&[u8], &[u8]) {
    let tag_len = A::TagSize::USIZE;
    match A::TAG_POSITION {
        TagPosition::Prefix => {
            let (tag, ct) = sealed.split_at(tag_len);
            (ct, tag)
        }
        TagPosition::Postfix => sealed.split_at(sealed.len() - tag_len),
    }
}

/// A detached seal's ciphertext and tag as the type's own `encrypt` returns them.
fn join<A: AeadCore>(mut ct: Vec<u8>, tag: &[u8]) -> Vec<u8> {
    match A::TAG_POSITION {
        TagPosition::Prefix => [tag, &ct].concat(),
        TagPosition::Postfix => {
            ct.extend_from_slice(tag);
            ct
        }
    }
}

/// Seals `msg` out of place into a new buffer through `encrypt_inout_detached`.
pub fn seal_out_of_place<A: AeadInOut>(a: &A, nonce: &Nonce<A>, aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; msg.len()];
    let tag = a.encrypt_inout_detached(nonce, aad, InOutBuf::new(msg, &mut out).unwrap()).unwrap();
    join::<A>(out, &tag)
}

/// Seals `msg` through API shape `shape % 4`: `encrypt`, `encrypt_in_place`, and
/// `encrypt_inout_detached` in place and out of place.
pub fn seal_shape<A: AeadInOut>(a: &A, shape: usize, nonce: &Nonce<A>, aad: &[u8], msg: &[u8]) -> Vec<u8> {
    match shape % 4 {
        0 => a.encrypt(nonce, Payload { msg, aad }).unwrap(),
        1 => {
            let mut buf = msg.to_vec();
            a.encrypt_in_place(nonce, aad, &mut buf).unwrap();
            buf
        }
        2 => {
            let mut buf = msg.to_vec();
            let tag = a.encrypt_inout_detached(nonce, aad, buf.as_mut_slice().into()).unwrap();
            join::<A>(buf, &tag)
        }
        _ => seal_out_of_place(a, nonce, aad, msg),
    }
}

/// Opens `sealed` through API shape `shape % 4`: `decrypt`, `decrypt_in_place`, and
/// `decrypt_inout_detached` in place and out of place.
pub fn open_shape<A: AeadInOut>(a: &A, shape: usize, nonce: &Nonce<A>, aad: &[u8], sealed: &[u8]) -> Vec<u8> {
    let (ct, tag) = split::<A>(sealed);
    let tag = Tag::<A>::try_from(tag).unwrap();
    match shape % 4 {
        0 => a.decrypt(nonce, Payload { msg: sealed, aad }).unwrap(),
        1 => {
            let mut buf = sealed.to_vec();
            a.decrypt_in_place(nonce, aad, &mut buf).unwrap();
            buf
        }
        2 => {
            let mut buf = ct.to_vec();
            a.decrypt_inout_detached(nonce, aad, buf.as_mut_slice().into(), &tag).unwrap();
            buf
        }
        _ => {
            let mut out = vec![0u8; ct.len()];
            a.decrypt_inout_detached(nonce, aad, InOutBuf::new(ct, &mut out).unwrap(), &tag).unwrap();
            out
        }
    }
}

/// `sealed` with a flipped bit, another AAD (a bit flipped, or a byte added to an empty one; and a
/// byte appended) and another nonce: refused by both (the nonce by ours); ours's failed in-place
/// and detached opens zero what they wrote, never partial plaintext.
pub fn refuses_tampering<Ours, Ref>(ours: &Ours, theirs: &Ref, rng: &mut Rng, nonce: &Nonce<Ours>, aad: &[u8], sealed: &[u8], ctx: &str)
where
    Ours: AeadInOut,
    Ref: AeadInOut + AeadCore<NonceSize = Ours::NonceSize>,
{
    let mut bad = sealed.to_vec();
    let bit = rng.flip_bit(&mut bad);
    assert!(theirs.decrypt(nonce, Payload { msg: &bad, aad }).is_err());
    assert!(ours.decrypt(nonce, Payload { msg: &bad, aad }).is_err(), "{ctx}: tampered bit {bit}");
    // in place: refused, length unchanged, ciphertext part zeroed
    let mut buf = bad.clone();
    assert_eq!(ours.decrypt_in_place(nonce, aad, &mut buf), Err(aead::Error), "{ctx}: bit {bit}");
    assert_eq!(buf.len(), bad.len());
    assert!(split::<Ours>(&buf).0.iter().all(|&b| b == 0), "{ctx}: in-place failure not zeroed");
    // detached out of place: output zeroed, input untouched
    let (bct, btag) = split::<Ours>(&bad);
    let mut out = vec![0x5au8; bct.len()];
    let btag = Tag::<Ours>::try_from(btag).unwrap();
    assert!(ours.decrypt_inout_detached(nonce, aad, InOutBuf::new(bct, &mut out).unwrap(), &btag).is_err());
    assert!(out.iter().all(|&b| b == 0), "{ctx}: detached failure not zeroed");
    // wrong AAD
    let mut flipped = aad.to_vec();
    if flipped.is_empty() {
        flipped.push(0);
    } else {
        let j = rng.below(flipped.len());
        flipped[j] ^= 0x80;
    }
    let appended = [aad, &[rng.below(256) as u8]].concat();
    for aad2 in [flipped, appended] {
        assert!(theirs.decrypt(nonce, Payload { msg: sealed, aad: &aad2 }).is_err());
        assert!(ours.decrypt(nonce, Payload { msg: sealed, aad: &aad2 }).is_err(), "{ctx}: wrong aad");
    }
    // wrong nonce
    let mut n2 = nonce.clone();
    let j = rng.below(n2.len());
    n2[j] ^= 1;
    assert!(ours.decrypt(&n2, Payload { msg: sealed, aad }).is_err(), "{ctx}: wrong nonce");
}

/// Random keys, nonces, AAD and messages (at most `max_msg` bytes): seal through four API
/// shapes equals theirs and opens with theirs; ours opens theirs through four shapes; tampering
/// refused ([`refuses_tampering`]).
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
        let ours_ct = seal_shape(&ours, i, &nonce, &aad, &msg);
        assert_eq!(ours_ct, reference, "{ctx}: seal differs from RustCrypto");
        // theirs opens ours
        assert_eq!(theirs.decrypt(&nonce, Payload { msg: &ours_ct, aad: &aad }).unwrap(), msg, "{ctx}");

        // ---- open: ours opens theirs, four API shapes
        let opened = open_shape(&ours, i / 4, &nonce, &aad, &reference);
        assert_eq!(opened, msg, "{ctx}: open of RustCrypto's ciphertext");

        // ---- tampering: both refuse
        refuses_tampering(&ours, &theirs, rng, &nonce, &aad, &reference, &ctx);
    }
}
