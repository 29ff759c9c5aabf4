//! The AEGIS family (library 1.7): RFC 10032's test vectors for every variant with both tag sizes,
//! read from the conformance vectors (tests/vectors.py): sealed, opened, a flipped bit refused; the
//! sizes and errors, the random-nonce types, and a differential test against the `aegis` crate's
//! pure-Rust implementation (which shares no code with the C of libaegis that libaead runs): random
//! keys, nonces, AAD and messages of 0..=64 KiB, each case sealed by one side and opened by the
//! other, counts printed (run with `--nocapture`).
mod common;

use aead::array::typenum::Unsigned;
use aead::consts::{U16, U32};
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Payload, Tag};
use common::{hex, vectors_dir, Rng};
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

/// One of RFC 10032's test vectors. `msg: None`: the vector must fail verification.
struct Vector {
    alg: Algorithm,
    name: String,
    key: Vec<u8>,
    nonce: Vec<u8>,
    ad: Vec<u8>,
    msg: Option<Vec<u8>>,
    ct: Vec<u8>,
    tag128: Vec<u8>,
    tag256: Vec<u8>,
}

/// Every variant's vectors, as the pinned `aegis` crate ships them in the conformance vectors
/// (tests/vectors.py: aegis/aegis-<variant>-test-vectors.json, the order of `VARIANTS`); the entries
/// without "ct" are intermediate states, skipped. A missing or unreadable file fails the test.
fn rfc_vectors() -> Vec<Vector> {
    let files = ["128l", "256", "128x2", "128x4", "256x2", "256x4"];
    let mut all = Vec::new();
    for (alg, file) in VARIANTS.into_iter().zip(files) {
        let path = vectors_dir().join(format!("aegis/aegis-{file}-test-vectors.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for e in doc.as_array().expect("a list of vectors").iter().filter(|e| e.get("ct").is_some()) {
            let name = format!("{alg:?} {}", e["name"].as_str().expect("name"));
            let h = |k: &str| hex(e[k].as_str().unwrap_or_else(|| panic!("{name}: no {k}")));
            assert_ne!(e.get("msg").is_some(), e.get("error").is_some(), "{name}: a msg or an error");
            let msg = e.get("msg").map(|_| h("msg"));
            let [key, nonce, ad, ct, tag128, tag256] = ["key", "nonce", "ad", "ct", "tag128", "tag256"].map(h);
            all.push(Vector { alg, name, key, nonce, ad, msg, ct, tag128, tag256 });
        }
    }
    all
}

/// One vector through the RustCrypto-trait type `T` (whose algorithm and tag size the caller
/// matched to it): sealed and opened through `Aead` and in place, each flipped bit of a few
/// positions and another AD refused with the in-place output zeroed; a must-fail vector refused.
/// Returns whether it was a valid vector.
fn vector_typed<T: KeyInit + AeadInOut>(v: &Vector, tag: &[u8]) -> bool {
    let c = T::new_from_slice(&v.key).unwrap();
    let nonce = Nonce::<T>::try_from(&v.nonce[..]).unwrap();
    let ad = &v.ad;
    let sealed = [&v.ct[..], tag].concat();
    let ct_len = v.ct.len();
    let Some(msg) = &v.msg else {
        assert!(c.decrypt(&nonce, Payload { msg: &sealed, aad: ad }).is_err(), "{}", v.name);
        let mut buf = sealed.clone();
        assert!(c.decrypt_in_place(&nonce, ad, &mut buf).is_err());
        assert!(buf[..ct_len].iter().all(|&b| b == 0), "{}: a failed open leaves no plaintext", v.name);
        return false;
    };
    assert_eq!(c.encrypt(&nonce, Payload { msg, aad: ad }).unwrap(), sealed, "{}", v.name);
    assert_eq!(&c.decrypt(&nonce, Payload { msg: &sealed, aad: ad }).unwrap(), msg, "{}", v.name);
    let mut buf = msg.clone();
    c.encrypt_in_place(&nonce, ad, &mut buf).unwrap();
    assert_eq!(buf, sealed, "{}: in place", v.name);
    c.decrypt_in_place(&nonce, ad, &mut buf).unwrap();
    assert_eq!(&buf, msg, "{}: in place", v.name);
    let mut flips = vec![sealed.len() - 1, ct_len];
    if ct_len > 0 {
        flips.push(0);
    }
    for at in flips {
        let mut bad = sealed.clone();
        bad[at] ^= 1;
        assert!(c.decrypt(&nonce, Payload { msg: &bad, aad: ad }).is_err(), "{}: flipped byte {at}", v.name);
        assert!(c.decrypt_in_place(&nonce, ad, &mut bad).is_err());
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
    let vectors = rfc_vectors();
    let (mut sealed, mut refused) = (0, 0);
    for v in &vectors {
        for tag_len in [16, 32] {
            let tag = if tag_len == 16 { &v.tag128 } else { &v.tag256 };
            assert_eq!(tag.len(), tag_len);
            let valid = if tag_len == 16 {
                with_type!(v.alg, U16, vector_typed(v, tag))
            } else {
                with_type!(v.alg, U32, vector_typed(v, tag))
            };
            // The same through Cipher (the whole C API), which takes the tag length at creation.
            let c = Cipher::new(v.alg, Policy::None, &v.key, tag_len).unwrap();
            assert_eq!((c.tag_len(), c.overhead()), (tag_len, tag_len));
            let ct_tag = [&v.ct[..], tag].concat();
            match &v.msg {
                Some(msg) => {
                    assert_eq!(c.seal(&v.nonce, &v.ad, msg).unwrap(), ct_tag, "{}", v.name);
                    assert_eq!(&c.open(&v.nonce, &v.ad, &ct_tag).unwrap(), msg, "{}", v.name);
                    sealed += 1;
                }
                None => {
                    assert_eq!(c.open(&v.nonce, &v.ad, &ct_tag), Err(Error::Auth), "{}", v.name);
                    refused += 1;
                }
            }
            assert_eq!(valid, v.msg.is_some());
        }
    }
    eprintln!(
        "RFC 10032 vectors: {} read, {sealed} sealed and opened, {refused} refused (both tag sizes, 6 variants)",
        vectors.len()
    );
    assert_eq!((vectors.len(), sealed, refused), (26, 2 * 18, 2 * 8));
}

// ------------------------------------------------------------------------- sizes and errors

#[test]
fn sizes_and_errors() {
    for alg in VARIANTS {
        let k =
            if matches!(alg, Algorithm::Aegis128L | Algorithm::Aegis128X2 | Algorithm::Aegis128X4) { 16 } else { 32 };
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
    assert_eq!(
        Aegis128LRandomNonce::<U16>::with_properties(&[1u8; 16].into(), Some("fips=yes")).unwrap_err(),
        Error::Unsupported
    );
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
/// refused by both. Our side seals through the four API shapes in turn (common::diff::seal_shape).
/// Returns the cases run and the disagreements (the test fails on any).
fn against_crate<Ours, Ref>(name: &str, rng: &mut Rng, n: usize) -> (usize, usize)
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    let tag_len = <Ours as AeadCore>::TagSize::USIZE;
    let (mut disagreements, mut bytes) = (0, 0);
    for i in 0..n {
        let (_, ours, theirs, nonce) = common::diff::keyed_pair::<Ours, Ref>(rng);
        let aad_len = if rng.below(8) == 0 { length(rng) } else { rng.below(64) };
        let aad = rng.bytes(aad_len);
        let msg_len = length(rng);
        let msg = rng.bytes(msg_len);
        bytes += msg.len();
        let p = |m| Payload { msg: m, aad: &aad };
        let ours_sealed = common::diff::seal_shape(&ours, i, &nonce, &aad, &msg);
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
        let ours_refused =
            ours.decrypt_in_place(&nonce, &aad, &mut buf).is_err() && buf[..msg.len()].iter().all(|&b| b == 0);
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
