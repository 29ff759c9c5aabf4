//! The AEGIS family (library 1.7): RFC 10032's test vectors for every variant with both tag sizes
//! (sealed, opened, a flipped bit refused), the sizes and errors, the random-nonce types, and a
//! differential test against the `aegis` crate's pure-Rust implementation (which shares no code with
//! the C of libaegis that libaead runs): random keys, nonces, AAD and messages of 0..=64 KiB, each
//! case sealed by one side and opened by the other, counts printed (run with `--nocapture`).
mod common;

use aead::array::typenum::Unsigned;
use aead::consts::{U16, U32};
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Payload, Tag};
use common::{hex, Rng};
use core::marker::PhantomData;
use libaead::{
    Aegis128L, Aegis128LRandomNonce, Aegis128X2, Aegis128X2RandomNonce, Aegis128X4, Aegis128X4RandomNonce, Aegis256,
    Aegis256RandomNonce, Aegis256X2, Aegis256X2RandomNonce, Aegis256X4, Aegis256X4RandomNonce, AegisTagSize, Algorithm,
    Cipher, Error, Policy,
};

const VARIANTS: [Algorithm; 6] = [
    Algorithm::Aegis128L,
    Algorithm::Aegis256,
    Algorithm::Aegis128X2,
    Algorithm::Aegis128X4,
    Algorithm::Aegis256X2,
    Algorithm::Aegis256X4,
];

// ------------------------------------------------------------------------- RFC 10032's vectors

/// One test vector of RFC 10032 (its test-vector appendix, as tests/test_aegis.cpp has them): key,
/// nonce, AD, message, ciphertext, 128-bit tag, 256-bit tag. `msg: None`: the vector must fail.
struct Vector {
    alg: Algorithm,
    name: &'static str,
    key: &'static str,
    nonce: &'static str,
    ad: &'static str,
    msg: Option<&'static str>,
    ct: &'static str,
    tag128: &'static str,
    tag256: &'static str,
}

const K128L: &str = "10010000000000000000000000000000";
const N128L: &str = "10000200000000000000000000000000";
const K256: &str = "1001000000000000000000000000000000000000000000000000000000000000";
const N256: &str = "1000020000000000000000000000000000000000000000000000000000000000";
const KX128: &str = "000102030405060708090a0b0c0d0e0f";
const NX128: &str = "101112131415161718191a1b1c1d1e1f";
const KX256: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const NX256: &str = "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f";
/// The X variants' second vector's message: "04050607" 30 times.
const MSG_X: &str = concat!(
    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607",
    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607",
    "04050607040506070405060704050607"
);

#[rustfmt::skip]
const VECTORS: &[Vector] = &[
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 1", key: K128L, nonce: N128L, ad: "",
        msg: Some("00000000000000000000000000000000"), ct: "c1c0e58bd913006feba00f4b3cc3594e",
        tag128: "abe0ece80c24868a226a35d16bdae37a",
        tag256: "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 2", key: K128L, nonce: N128L, ad: "",
        msg: Some(""), ct: "",
        tag128: "c2b879a67def9d74e6c14f708bbcc9b4",
        tag256: "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 3", key: K128L, nonce: N128L, ad: "0001020304050607",
        msg: Some("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        ct: "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
        tag128: "cc6f3372f6aa1bb82388d695c3962d9a",
        tag256: "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 4", key: K128L, nonce: N128L, ad: "0001020304050607",
        msg: Some("000102030405060708090a0b0c0d"), ct: "79d94593d8c2119d7e8fd9b8fc77",
        tag128: "5c04b3dba849b2701effbe32c7f0fab7",
        tag256: "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 5", key: K128L, nonce: N128L,
        ad: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
        msg: Some("101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"),
        ct: "b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10",
        tag128: "7542a745733014f9474417b337399507",
        tag256: "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98" },
    // Must fail: key and nonce swapped; a ciphertext bit; an AD bit; a tag bit.
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 6", key: N128L, nonce: K128L, ad: "0001020304050607",
        msg: None, ct: "79d94593d8c2119d7e8fd9b8fc77",
        tag128: "5c04b3dba849b2701effbe32c7f0fab7",
        tag256: "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 7", key: K128L, nonce: N128L, ad: "0001020304050607",
        msg: None, ct: "79d94593d8c2119d7e8fd9b8fc78",
        tag128: "5c04b3dba849b2701effbe32c7f0fab7",
        tag256: "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 8", key: K128L, nonce: N128L, ad: "0001020304050608",
        msg: None, ct: "79d94593d8c2119d7e8fd9b8fc77",
        tag128: "5c04b3dba849b2701effbe32c7f0fab7",
        tag256: "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac" },
    Vector { alg: Algorithm::Aegis128L, name: "AEGIS-128L test vector 9", key: K128L, nonce: N128L, ad: "0001020304050607",
        msg: None, ct: "79d94593d8c2119d7e8fd9b8fc77",
        tag128: "6c04b3dba849b2701effbe32c7f0fab8",
        tag256: "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 1", key: K256, nonce: N256, ad: "",
        msg: Some("00000000000000000000000000000000"), ct: "754fc3d8c973246dcc6d741412a4b236",
        tag128: "3fe91994768b332ed7f570a19ec5896e",
        tag256: "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 2", key: K256, nonce: N256, ad: "",
        msg: Some(""), ct: "",
        tag128: "e3def978a0f054afd1e761d7553afba3",
        tag256: "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 3", key: K256, nonce: N256, ad: "0001020304050607",
        msg: Some("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        ct: "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
        tag128: "8d86f91ee606e9ff26a01b64ccbdd91d",
        tag256: "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 4", key: K256, nonce: N256, ad: "0001020304050607",
        msg: Some("000102030405060708090a0b0c0d"), ct: "f373079ed84b2709faee37358458",
        tag128: "c60b9c2d33ceb058f96e6dd03c215652",
        tag256: "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 5", key: K256, nonce: N256,
        ad: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
        msg: Some("101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"),
        ct: "57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67",
        tag128: "ab8a7d53fd0e98d727accca94925e128",
        tag256: "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 6", key: N256, nonce: K256, ad: "0001020304050607",
        msg: None, ct: "f373079ed84b2709faee37358458",
        tag128: "c60b9c2d33ceb058f96e6dd03c215652",
        tag256: "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 7", key: K256, nonce: N256, ad: "0001020304050607",
        msg: None, ct: "f373079ed84b2709faee37358459",
        tag128: "c60b9c2d33ceb058f96e6dd03c215652",
        tag256: "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 8", key: K256, nonce: N256, ad: "0001020304050608",
        msg: None, ct: "f373079ed84b2709faee37358458",
        tag128: "c60b9c2d33ceb058f96e6dd03c215652",
        tag256: "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9" },
    Vector { alg: Algorithm::Aegis256, name: "AEGIS-256 test vector 9", key: K256, nonce: N256, ad: "0001020304050607",
        msg: None, ct: "f373079ed84b2709faee37358458",
        tag128: "c60b9c2d33ceb058f96e6dd03c215653",
        tag256: "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da" },
    Vector { alg: Algorithm::Aegis128X2, name: "AEGIS-128X2 test vector 1", key: KX128, nonce: NX128, ad: "",
        msg: Some(""), ct: "",
        tag128: "63117dc57756e402819a82e13eca8379",
        tag256: "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759" },
    Vector { alg: Algorithm::Aegis128X2, name: "AEGIS-128X2 test vector 2", key: KX128, nonce: NX128, ad: "0102030401020304",
        msg: Some(MSG_X),
        ct: concat!(
            "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f8",
            "5b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be",
            "62b29c22cd4b5761b38f43d5a5ee062f"),
        tag128: "1aebc200804f405cab637f2adebb6d77",
        tag256: "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca" },
    Vector { alg: Algorithm::Aegis128X4, name: "AEGIS-128X4 test vector 1", key: KX128, nonce: NX128, ad: "",
        msg: Some(""), ct: "",
        tag128: "5bef762d0947c00455b97bb3af30dfa3",
        tag256: "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68" },
    Vector { alg: Algorithm::Aegis128X4, name: "AEGIS-128X4 test vector 2", key: KX128, nonce: NX128, ad: "0102030401020304",
        msg: Some(MSG_X),
        ct: concat!(
            "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c2",
            "4ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df",
            "7b086af6ce6bc1ed594b8dd64aed2a7e"),
        tag128: "0e56ab94e2e85db80f9d54010caabfb4",
        tag256: "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2" },
    Vector { alg: Algorithm::Aegis256X2, name: "AEGIS-256X2 test vector 1", key: KX256, nonce: NX256, ad: "",
        msg: Some(""), ct: "",
        tag128: "62cdbab084c83dacdb945bb446f049c8",
        tag256: "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7" },
    Vector { alg: Algorithm::Aegis256X2, name: "AEGIS-256X2 test vector 2", key: KX256, nonce: NX256, ad: "0102030401020304",
        msg: Some(MSG_X),
        ct: concat!(
            "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d365221",
            "32761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398c",
            "e6385cd654a19f481cba3b8f25910b42"),
        tag128: "635d391828520bf1512763f0c8f5cdbd",
        tag256: "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7" },
    Vector { alg: Algorithm::Aegis256X4, name: "AEGIS-256X4 test vector 1", key: KX256, nonce: NX256, ad: "",
        msg: Some(""), ct: "",
        tag128: "3b7fee6cee7bf17888ad11ed2397beb4",
        tag256: "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf" },
    Vector { alg: Algorithm::Aegis256X4, name: "AEGIS-256X4 test vector 2", key: KX256, nonce: NX256, ad: "0102030401020304",
        msg: Some(MSG_X),
        ct: concat!(
            "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11",
            "da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5",
            "813808b81748a490dd656465fed61f09"),
        tag128: "b63b611b13975e2f3dc3cb6c2397bfcd",
        tag256: "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c" },
];

/// One vector through the RustCrypto-trait type `T` (whose algorithm and tag size the caller
/// matched to it): sealed and opened through `Aead` and in place, each flipped bit of a few
/// positions and another AD refused with the in-place output zeroed; a must-fail vector refused.
/// Returns whether it was a valid vector.
fn vector_typed<T: KeyInit + AeadInOut>(v: &Vector, tag: &[u8]) -> bool {
    let c = T::new_from_slice(&hex(v.key)).unwrap();
    let nonce = Nonce::<T>::try_from(&hex(v.nonce)[..]).unwrap();
    let ad = hex(v.ad);
    let mut sealed = hex(v.ct);
    let ct_len = sealed.len();
    sealed.extend_from_slice(tag);
    let Some(msg) = v.msg.map(hex) else {
        assert!(c.decrypt(&nonce, Payload { msg: &sealed, aad: &ad }).is_err(), "{}", v.name);
        let mut buf = sealed.clone();
        assert!(c.decrypt_in_place(&nonce, &ad, &mut buf).is_err());
        assert!(buf[..ct_len].iter().all(|&b| b == 0), "{}: a failed open leaves no plaintext", v.name);
        return false;
    };
    assert_eq!(c.encrypt(&nonce, Payload { msg: &msg, aad: &ad }).unwrap(), sealed, "{}", v.name);
    assert_eq!(c.decrypt(&nonce, Payload { msg: &sealed, aad: &ad }).unwrap(), msg, "{}", v.name);
    let mut buf = msg.clone();
    c.encrypt_in_place(&nonce, &ad, &mut buf).unwrap();
    assert_eq!(buf, sealed, "{}: in place", v.name);
    c.decrypt_in_place(&nonce, &ad, &mut buf).unwrap();
    assert_eq!(buf, msg, "{}: in place", v.name);
    let mut flips = vec![sealed.len() - 1, ct_len];
    if ct_len > 0 {
        flips.push(0);
    }
    for at in flips {
        let mut bad = sealed.clone();
        bad[at] ^= 1;
        assert!(c.decrypt(&nonce, Payload { msg: &bad, aad: &ad }).is_err(), "{}: flipped byte {at}", v.name);
        assert!(c.decrypt_in_place(&nonce, &ad, &mut bad).is_err());
        assert!(bad[..ct_len].iter().all(|&b| b == 0), "{}: zeroed", v.name);
    }
    let mut other_ad = ad.clone();
    other_ad.push(0);
    assert!(c.decrypt(&nonce, Payload { msg: &sealed, aad: &other_ad }).is_err(), "{}: other AD", v.name);
    true
}

/// The typed AEGIS type for `alg` with tag size `T`, called with `f`.
macro_rules! with_type {
    ($alg:expr, $t:ty, $f:ident ( $($arg:expr),* )) => {
        match $alg {
            Algorithm::Aegis128L => $f::<Aegis128L<$t>>($($arg),*),
            Algorithm::Aegis256 => $f::<Aegis256<$t>>($($arg),*),
            Algorithm::Aegis128X2 => $f::<Aegis128X2<$t>>($($arg),*),
            Algorithm::Aegis128X4 => $f::<Aegis128X4<$t>>($($arg),*),
            Algorithm::Aegis256X2 => $f::<Aegis256X2<$t>>($($arg),*),
            Algorithm::Aegis256X4 => $f::<Aegis256X4<$t>>($($arg),*),
            a => unreachable!("{a:?}"),
        }
    };
}

#[test]
fn rfc10032_vectors() {
    let (mut sealed, mut refused) = (0, 0);
    for v in VECTORS {
        for tag_len in [16, 32] {
            let tag = hex(if tag_len == 16 { v.tag128 } else { v.tag256 });
            assert_eq!(tag.len(), tag_len);
            let valid = if tag_len == 16 {
                with_type!(v.alg, U16, vector_typed(v, &tag))
            } else {
                with_type!(v.alg, U32, vector_typed(v, &tag))
            };
            // The same through Cipher (the whole C API), which takes the tag length at creation.
            let c = Cipher::new(v.alg, Policy::None, &hex(v.key), tag_len).unwrap();
            assert_eq!((c.tag_len(), c.overhead()), (tag_len, tag_len));
            let mut ct_tag = hex(v.ct);
            ct_tag.extend_from_slice(&tag);
            match v.msg.map(hex) {
                Some(msg) => {
                    assert_eq!(c.seal(&hex(v.nonce), &hex(v.ad), &msg).unwrap(), ct_tag, "{}", v.name);
                    assert_eq!(c.open(&hex(v.nonce), &hex(v.ad), &ct_tag).unwrap(), msg, "{}", v.name);
                    sealed += 1;
                }
                None => {
                    assert_eq!(c.open(&hex(v.nonce), &hex(v.ad), &ct_tag), Err(Error::Auth), "{}", v.name);
                    refused += 1;
                }
            }
            assert_eq!(valid, v.msg.is_some());
        }
    }
    eprintln!("RFC 10032 vectors: {sealed} sealed and opened, {refused} refused (both tag sizes, 6 variants)");
    assert_eq!((sealed, refused), (2 * 18, 2 * 8));
}

// ------------------------------------------------------------------------- sizes and errors

#[test]
fn sizes_and_errors() {
    for alg in VARIANTS {
        let k = if matches!(alg, Algorithm::Aegis128L | Algorithm::Aegis128X2 | Algorithm::Aegis128X4) { 16 } else { 32 };
        assert!(alg.is_aegis());
        assert_eq!((alg.key_size(), alg.nonce_size(), alg.tag_size()), (k, k, 16), "{alg:?}");
        let key = vec![7u8; k];
        // Key sizes, tag sizes (0 = 16, 16, 32 only) and policies (None and RandomNonce only).
        assert_eq!(Cipher::new(alg, Policy::None, &key[1..], 0).unwrap_err(), Error::KeySize);
        for tag in 0..=40 {
            for policy in [Policy::None, Policy::RandomNonce] {
                let r = Cipher::new(alg, policy, &key, tag);
                if matches!(tag, 0 | 16 | 32) {
                    assert_eq!(r.unwrap().tag_len(), if tag == 0 { 16 } else { tag });
                } else {
                    assert_eq!(r.unwrap_err(), Error::TagSize, "{alg:?} tag {tag}");
                }
            }
        }
        for policy in [Policy::Tls12, Policy::Tls13, Policy::Counter, Policy::XorCounter, Policy::Ssh] {
            assert_eq!(Cipher::new(alg, policy, &key, 0).unwrap_err(), Error::Arg, "{alg:?} {policy:?}");
        }
        // Not FIPS-approved: a FIPS query is refused; provider and indicator say what runs it.
        for policy in [Policy::None, Policy::RandomNonce] {
            assert_eq!(
                Cipher::with_options(alg, policy, &key, 0, Some("fips=yes"), &[]).unwrap_err(),
                Error::Unsupported
            );
        }
        let c = Cipher::new(alg, Policy::None, &key, 32).unwrap();
        assert_eq!(c.provider(), "libaegis");
        assert_eq!(c.indicator().bits(), 0, "never FIPS-approved");
        // Nonces of any other length: refused, nothing written.
        let mut out = vec![0xeeu8; 40 + 32];
        for n in (0..=40).filter(|&n| n != k) {
            assert_eq!(c.seal_into(&vec![1u8; n], b"ad", &[5u8; 40], &mut out), Err(Error::NonceSize));
        }
        assert!(out.iter().all(|&b| b == 0xee));
        let nonce = vec![3u8; k];
        assert_eq!(c.seal_into(&nonce, b"ad", &[5u8; 40], &mut out[..71]), Err(Error::BufferTooSmall));
        assert!(out.iter().all(|&b| b == 0xee));
        // An open shorter than the tag is Auth.
        assert_eq!(c.open(&nonce, b"", &[0u8; 31]), Err(Error::Auth));
    }
    // KeyInit::new_from_slice refuses the other key length before the library sees it.
    assert!(Aegis128L::<U16>::new_from_slice(&[0u8; 32]).is_err());
    assert!(Aegis256::<U32>::new_from_slice(&[0u8; 16]).is_err());
    assert_eq!((Aegis128L::<U16>::key_size(), Aegis256X4::<U32>::key_size()), (16, 32));
    assert_eq!(<Aegis128X2<U32> as AeadCore>::TagSize::USIZE, 32);
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Aegis128L>();
    send_sync::<Aegis256X4<U32>>();
    send_sync::<Aegis128LRandomNonce<U32>>();
    assert_eq!(format!("{:?}", Aegis128X4::<U16>::new(&Default::default())), "Aegis128X4 { .. }");
}

// ------------------------------------------------------------------------- random nonces

/// A random-nonce type `R` against the nonce-taking type `N` of the same algorithm and tag size:
/// `nonce || ct || tag`, the nonce fresh each time, the body what `N` seals under that nonce; in
/// place; a flipped bit and a short input refused.
fn random_nonce_case<R, N>(rng: &mut Rng, nonce_len: usize)
where
    R: KeyInit + Aead + RandomNonceOps,
    N: KeyInit<KeySize = R::KeySize> + AeadInOut,
{
    let key = rng.bytes(R::key_size());
    let (r, n) = (R::new_from_slice(&key).unwrap(), N::new_from_slice(&key).unwrap());
    let tag_len = <R as AeadCore>::TagSize::USIZE;
    assert_eq!((R::nonce_len(), R::overhead()), (nonce_len, nonce_len + tag_len));
    let mut seen = std::collections::HashSet::new();
    for i in 0..40 {
        let msg = rng.bytes_below(300);
        let aad = rng.bytes_below(20);
        let sealed = r.encrypt(&Default::default(), Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(sealed.len(), msg.len() + nonce_len + tag_len);
        assert!(seen.insert(sealed[..nonce_len].to_vec()), "nonce repeated");
        let nonce = Nonce::<N>::try_from(&sealed[..nonce_len]).unwrap();
        assert_eq!(n.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap(), sealed[nonce_len..], "iter {i}");
        assert_eq!(r.decrypt(&Default::default(), Payload { msg: &sealed, aad: &aad }).unwrap(), msg);
        let mut buf = msg.clone();
        buf.resize(msg.len() + nonce_len + tag_len, 0);
        assert_eq!(r.seal_in_place(&aad, &mut buf, msg.len()), Ok(buf.len()));
        assert_eq!(r.open_in_place(&aad, &mut buf), Ok(msg.len()));
        assert_eq!(&buf[..msg.len()], &msg[..]);
        let mut bad = sealed.clone();
        rng.flip_bit(&mut bad);
        assert_eq!(r.open(&aad, &bad), Err(Error::Auth));
    }
    assert_eq!(r.open(b"", &vec![0u8; nonce_len + tag_len - 1]), Err(Error::Auth));
    assert_eq!(r.provider(), "libaegis");
}

/// What `random_nonce_case` calls on the random-nonce types beyond the traits.
trait RandomNonceOps {
    fn nonce_len() -> usize;
    fn overhead() -> usize;
    fn open(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error>;
    fn seal_in_place(&self, aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error>;
    fn open_in_place(&self, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error>;
    fn provider(&self) -> &'static str;
}
macro_rules! random_nonce_ops {
    ($($ty:ident),*) => {$(
        impl<T: AegisTagSize> RandomNonceOps for $ty<T> {
            fn nonce_len() -> usize { Self::NONCE_LEN }
            fn overhead() -> usize { Self::OVERHEAD }
            fn open(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> { $ty::open(self, aad, sealed) }
            fn seal_in_place(&self, aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error> {
                $ty::seal_in_place(self, aad, buf, len)
            }
            fn open_in_place(&self, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> { $ty::open_in_place(self, aad, buf) }
            fn provider(&self) -> &'static str { $ty::provider(self) }
        }
    )*};
}
random_nonce_ops!(
    Aegis128LRandomNonce,
    Aegis128X2RandomNonce,
    Aegis128X4RandomNonce,
    Aegis256RandomNonce,
    Aegis256X2RandomNonce,
    Aegis256X4RandomNonce
);

#[test]
fn random_nonce_types() {
    let mut rng = Rng::from_env("aegis random_nonce_types");
    random_nonce_case::<Aegis128LRandomNonce, Aegis128L>(&mut rng, 16);
    random_nonce_case::<Aegis128LRandomNonce<U32>, Aegis128L<U32>>(&mut rng, 16);
    random_nonce_case::<Aegis128X2RandomNonce, Aegis128X2>(&mut rng, 16);
    random_nonce_case::<Aegis128X2RandomNonce<U32>, Aegis128X2<U32>>(&mut rng, 16);
    random_nonce_case::<Aegis128X4RandomNonce, Aegis128X4>(&mut rng, 16);
    random_nonce_case::<Aegis128X4RandomNonce<U32>, Aegis128X4<U32>>(&mut rng, 16);
    random_nonce_case::<Aegis256RandomNonce, Aegis256>(&mut rng, 32);
    random_nonce_case::<Aegis256RandomNonce<U32>, Aegis256<U32>>(&mut rng, 32);
    random_nonce_case::<Aegis256X2RandomNonce, Aegis256X2>(&mut rng, 32);
    random_nonce_case::<Aegis256X2RandomNonce<U32>, Aegis256X2<U32>>(&mut rng, 32);
    random_nonce_case::<Aegis256X4RandomNonce, Aegis256X4>(&mut rng, 32);
    random_nonce_case::<Aegis256X4RandomNonce<U32>, Aegis256X4<U32>>(&mut rng, 32);
    // The constants, and a FIPS query refused.
    assert_eq!((Aegis256RandomNonce::<U32>::NONCE_LEN, Aegis256RandomNonce::<U32>::OVERHEAD), (32, 64));
    assert_eq!(Aegis128LRandomNonce::<U16>::OVERHEAD, 32);
    assert_eq!(Aegis128LRandomNonce::<U16>::with_properties(&[1u8; 16].into(), Some("fips=yes")).unwrap_err(), Error::Unsupported);
    let c = Aegis128LRandomNonce::<U16>::with_properties(&[1u8; 16].into(), Some("provider=default")).unwrap();
    assert_eq!(c.open(b"", &c.seal(b"", b"q").unwrap()).unwrap(), b"q");
    // Policy::RandomNonce through Cipher: overhead nonce + tag, a nonce argument refused.
    let c = Cipher::new(Algorithm::Aegis256X2, Policy::RandomNonce, &[2u8; 32], 32).unwrap();
    assert_eq!(c.overhead(), 64);
    assert_eq!(c.seal(&[0u8; 32], b"", b"x"), Err(Error::NonceSize));
}

// ------------------------------------------------------------------------- against the `aegis` crate

/// The `aegis` crate's pure-Rust AEGIS behind the RustCrypto traits (its native API seals and
/// opens in place with a detached tag), so that one generic test drives both sides. Only the
/// detached methods are given: the traits' `encrypt` / `decrypt` are built on them.
macro_rules! reference {
    ($name:ident, $module:ident :: $ty:ident, $key:ty) => {
        struct $name<T: AegisTagSize> {
            key: Key<Self>,
            _t: PhantomData<T>,
        }
        impl<T: AegisTagSize> KeySizeUser for $name<T> {
            type KeySize = $key;
        }
        impl<T: AegisTagSize> KeyInit for $name<T> {
            fn new(key: &Key<Self>) -> Self {
                Self { key: *key, _t: PhantomData }
            }
        }
        impl<T: AegisTagSize> AeadCore for $name<T> {
            type NonceSize = $key;
            type TagSize = T;
            const TAG_POSITION: aead::TagPosition = aead::TagPosition::Postfix;
        }
        reference!(@inout $name, $module::$ty, U16, 16);
        reference!(@inout $name, $module::$ty, U32, 32);
    };
    (@inout $name:ident, $module:ident :: $ty:ident, $t:ty, $n:literal) => {
        impl AeadInOut for $name<$t> {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                ad: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                let out = buffer.into_out_with_copied_in();
                let tag = aegis::$module::$ty::<$n>::new(self.key.as_ref(), nonce.as_ref()).encrypt_in_place(out, ad);
                Ok(tag.into())
            }
            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                ad: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                let out = buffer.into_out_with_copied_in();
                let tag: &[u8; $n] = tag.as_ref();
                aegis::$module::$ty::<$n>::new(self.key.as_ref(), nonce.as_ref())
                    .decrypt_in_place(out, tag, ad)
                    .map_err(|_| aead::Error)
            }
        }
    };
}
reference!(Ref128L, aegis128l::Aegis128L, U16);
reference!(Ref128X2, aegis128x2::Aegis128X2, U16);
reference!(Ref128X4, aegis128x4::Aegis128X4, U16);
reference!(Ref256, aegis256::Aegis256, U32);
reference!(Ref256X2, aegis256x2::Aegis256X2, U32);
reference!(Ref256X4, aegis256x4::Aegis256X4, U32);

/// Cases per variant and tag size (LIBAEAD_AEGIS_CASES overrides, e.g. for a longer soak).
fn cases() -> usize {
    std::env::var("LIBAEAD_AEGIS_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

/// A length of 0..=65536 bytes, mostly small: edges of the 16- and 32-byte blocks (and the lanes
/// of the X variants: 64 and 128 bytes), then short, medium and (one case in 16) up to 64 KiB.
fn length(rng: &mut Rng) -> usize {
    const EDGES: [usize; 16] = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 4096, 65536];
    match rng.below(16) {
        0..=2 => EDGES[rng.below(EDGES.len())],
        3..=10 => rng.below(256),
        11..=14 => rng.below(4097),
        _ => rng.below(65537),
    }
}

/// `n` random cases: a random key, nonce, AAD and message; one side seals and the other opens
/// (alternating which), the two seals are equal, and a flipped bit of the sealed message is
/// refused by both. Our side goes through the `Aead` Vec API, in place (`aead::Buffer`) and
/// detached in turn. Returns the cases run and the disagreements (the test fails on any).
fn against_crate<Ours, Ref>(name: &str, rng: &mut Rng, n: usize) -> (usize, usize)
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    let tag_len = <Ours as AeadCore>::TagSize::USIZE;
    let (mut disagreements, mut bytes) = (0, 0);
    for i in 0..n {
        let key = rng.bytes(Ours::key_size());
        let (ours, theirs) = (Ours::new_from_slice(&key).unwrap(), Ref::new_from_slice(&key).unwrap());
        let mut nonce = Nonce::<Ours>::default();
        rng.fill(&mut nonce);
        let aad_len = if rng.below(8) == 0 { length(rng) } else { rng.below(64) };
        let aad = rng.bytes(aad_len);
        let msg_len = length(rng);
        let msg = rng.bytes(msg_len);
        bytes += msg.len();
        let p = |m| Payload { msg: m, aad: &aad };
        let ours_sealed = match i % 3 {
            0 => ours.encrypt(&nonce, p(&msg)).unwrap(),
            1 => {
                let mut buf = msg.clone();
                ours.encrypt_in_place(&nonce, &aad, &mut buf).unwrap();
                buf
            }
            _ => {
                let mut out = vec![0u8; msg.len()];
                let tag = ours.encrypt_inout_detached(&nonce, &aad, InOutBuf::new(&msg, &mut out).unwrap()).unwrap();
                out.extend_from_slice(&tag);
                out
            }
        };
        let theirs_sealed = theirs.encrypt(&nonce, p(&msg)).unwrap();
        let ok = ours_sealed.len() == msg.len() + tag_len && ours_sealed == theirs_sealed;
        // One side opens what the other sealed: theirs ours on even cases, ours theirs on odd.
        let opened = if i % 2 == 0 {
            theirs.decrypt(&nonce, p(&ours_sealed)).ok()
        } else {
            let mut buf = theirs_sealed.clone();
            ours.decrypt_in_place(&nonce, &aad, &mut buf).ok().map(|()| buf)
        };
        let ok = ok && opened.as_deref() == Some(&msg[..]);
        // A flipped bit: both refuse (ours leaves no plaintext behind).
        let mut bad = theirs_sealed.clone();
        let bit = rng.flip_bit(&mut bad);
        let theirs_refused = theirs.decrypt(&nonce, p(&bad)).is_err();
        let mut buf = bad.clone();
        let ours_refused = ours.decrypt_in_place(&nonce, &aad, &mut buf).is_err() && buf[..msg.len()].iter().all(|&b| b == 0);
        if !(ok && theirs_refused && ours_refused) {
            disagreements += 1;
            eprintln!(
                "{name} case {i}: DISAGREE (msg {}, aad {}, seals equal {}, opened {}, bit {bit} refused: theirs {theirs_refused} ours {ours_refused})",
                msg.len(),
                aad.len(),
                ours_sealed == theirs_sealed,
                opened.as_deref() == Some(&msg[..]),
            );
        }
    }
    eprintln!("aegis crate: {name}: {n} cases, {} KiB of messages, {disagreements} disagreements", bytes / 1024);
    (n, disagreements)
}

/// Both tag sizes of one variant against the crate.
macro_rules! variant_against_crate {
    ($test:ident, $name:literal, $ours:ident, $ref:ident) => {
        #[test]
        fn $test() {
            let mut rng = Rng::from_env(concat!("aegis crate ", $name));
            let n = cases();
            let a = against_crate::<$ours<U16>, $ref<U16>>(concat!($name, " tag 16"), &mut rng, n);
            let b = against_crate::<$ours<U32>, $ref<U32>>(concat!($name, " tag 32"), &mut rng, n);
            assert_eq!((a, b), ((n, 0), (n, 0)), "disagreements with the aegis crate");
        }
    };
}
variant_against_crate!(aegis_crate_128l, "AEGIS-128L", Aegis128L, Ref128L);
variant_against_crate!(aegis_crate_128x2, "AEGIS-128X2", Aegis128X2, Ref128X2);
variant_against_crate!(aegis_crate_128x4, "AEGIS-128X4", Aegis128X4, Ref128X4);
variant_against_crate!(aegis_crate_256, "AEGIS-256", Aegis256, Ref256);
variant_against_crate!(aegis_crate_256x2, "AEGIS-256X2", Aegis256X2, Ref256X2);
variant_against_crate!(aegis_crate_256x4, "AEGIS-256X4", Aegis256X4, Ref256X4);
