//! AES-SIV (RFC 5297, library 1.3): the AEAD form (`Aes128SivAead` / `Aes192SivAead` /
//! `Aes256SivAead`, tag first) and the deterministic multi-header API (`libaead::siv`), against
//! Wycheproof's aead_aes_siv_cmac file (every case accounted for, counts printed: run with
//! `--nocapture`) and against RustCrypto's `aes-siv` on random inputs both ways; hostile inputs;
//! the empty-message rule (refused below OpenSSL 3.5, which skips an empty payload).
mod common;

use aead::consts::{U1, U12, U16, U20, U40};
use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload};
use common::huge::Huge;
use common::wycheproof::Case;
use common::{by_key_len, diff, vectors_dir, Rng};
use libaead::siv::{Aes128Siv, Aes192Siv, Aes256Siv, Siv};
use libaead::{sys, Aes128SivAead, Aes192SivAead, Aes256SivAead, Algorithm, Cipher, Error, Policy, SivKeySize};

/// Whether the loaded libcrypto seals an empty AES-SIV message (OpenSSL >= 3.5), from the version
/// text the library reports; asserts that the library's behaviour agrees.
fn takes_empty() -> bool {
    let v = libaead::version();
    let at = v.find("OpenSSL ").unwrap_or_else(|| panic!("no OpenSSL version in {v:?}")) + 8;
    let mut it = v[at..].split(|c: char| !c.is_ascii_digit()).map(|s| s.parse::<u32>().unwrap());
    let (major, minor) = (it.next().unwrap(), it.next().unwrap());
    let expect = major > 3 || (major == 3 && minor >= 5);
    let c = Cipher::new(Algorithm::Aes128Siv, Policy::None, &[1u8; 32], 16).unwrap();
    let got = c.seal(&[], b"", b"");
    match got {
        Ok(ref ct) => assert_eq!(ct.len(), 16),
        Err(e) => assert_eq!(e, Error::Unsupported),
    }
    assert_eq!(got.is_ok(), expect, "empty-message support does not match the libcrypto: {v}");
    expect
}

// ------------------------------------------------------------------------- Wycheproof

/// The case through a RustCrypto-trait type when its key and nonce sizes are the type's.
fn typed_case<T: KeyInit + AeadInOut>(case: &Case) -> bool {
    let Some((c, nonce)) = case.typed_seal::<T>() else {
        return false;
    };
    let id = &case.id;
    let mut buf = case.sealed.clone();
    let opened = c.decrypt_in_place(&nonce, &case.aad, &mut buf);
    if case.valid {
        assert_eq!(opened, Ok(()), "{id}");
        assert_eq!(buf, case.msg, "{id}: typed decrypt_in_place");
    } else {
        assert_eq!(opened, Err(aead::Error), "{id}: typed decrypt of an invalid case");
        assert_eq!(buf.len(), case.sealed.len());
        assert!(buf[16..].iter().all(|&b| b == 0), "{id}: failed in-place open zeroes");
    }
    true
}

fn typed_any(case: &Case) -> bool {
    typed_case::<Aes128SivAead<U12>>(case)
        || typed_case::<Aes128SivAead>(case)
        || typed_case::<Aes128SivAead<U1>>(case)
        || typed_case::<Aes128SivAead<U20>>(case)
        || typed_case::<Aes128SivAead<U40>>(case)
        || typed_case::<Aes192SivAead<U12>>(case)
        || typed_case::<Aes192SivAead>(case)
        || typed_case::<Aes192SivAead<U1>>(case)
        || typed_case::<Aes192SivAead<U20>>(case)
        || typed_case::<Aes192SivAead<U40>>(case)
        || typed_case::<Aes256SivAead<U12>>(case)
        || typed_case::<Aes256SivAead>(case)
        || typed_case::<Aes256SivAead<U1>>(case)
        || typed_case::<Aes256SivAead<U20>>(case)
        || typed_case::<Aes256SivAead<U40>>(case)
}

/// The deterministic API with the headers `[aad, nonce]` is the AEAD form.
fn headers_case<K: SivKeySize>(case: &Case) -> bool {
    if case.key.len() != K::USIZE {
        return false;
    }
    let s = Siv::<K>::new_from_slice(&case.key).unwrap();
    let sealed = s.encrypt([&case.aad, &case.iv], &case.msg).unwrap();
    assert_eq!(sealed == case.sealed, case.valid, "{}: Siv::encrypt([aad, nonce])", case.id);
    assert_eq!(s.decrypt([&case.aad, &case.iv], &case.sealed).is_ok(), case.valid, "{}", case.id);
    true
}

fn alg_for_key(len: usize) -> Algorithm {
    by_key_len(&[Algorithm::Aes128Siv, Algorithm::Aes192Siv, Algorithm::Aes256Siv], len)
}

#[test]
fn wycheproof_aead_aes_siv_cmac() {
    let rel = "wycheproof/aead_aes_siv_cmac_test.json";
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expected = v["numberOfTests"].as_u64().unwrap() as usize;
    let empty_ok = takes_empty();
    let (mut valid, mut invalid, mut refused, mut typed, mut headers) = (0, 0, 0, 0, 0);
    let mut per_key = std::collections::BTreeMap::<usize, usize>::new();
    for g in v["testGroups"].as_array().unwrap() {
        assert_eq!(g["tagSize"].as_u64(), Some(128));
        for t in g["tests"].as_array().unwrap() {
            let case = Case::from_json(rel, t, true);
            let id = &case.id;
            *per_key.entry(case.key.len() * 8).or_default() += 1;
            let cipher = Cipher::new(alg_for_key(case.key.len()), Policy::None, &case.key, 16).unwrap();
            let mut out = vec![0x55u8; case.msg.len() + 16];
            if case.msg.is_empty() && !empty_ok {
                // By contract below OpenSSL 3.5: refused, nothing written, both ways.
                assert_eq!(cipher.seal_into(&case.iv, &case.aad, &case.msg, &mut out), Err(Error::Unsupported), "{id}");
                assert!(out.iter().all(|&b| b == 0x55), "{id}: refused seal wrote");
                assert_eq!(cipher.open_into(&case.iv, &case.aad, &case.sealed, &mut []), Err(Error::Unsupported), "{id}");
                refused += 1;
                continue;
            }
            assert_eq!(cipher.seal_into(&case.iv, &case.aad, &case.msg, &mut out), Ok(out.len()), "{id}");
            assert_eq!(out == case.sealed, case.valid, "{id}: seal");
            let mut pt = vec![0x55u8; case.sealed.len() - 16];
            let opened = cipher.open_into(&case.iv, &case.aad, &case.sealed, &mut pt);
            if case.valid {
                assert_eq!(opened, Ok(case.msg.len()), "{id}");
                assert_eq!(pt, case.msg, "{id}: open");
                valid += 1;
            } else {
                assert_eq!(opened, Err(Error::Auth), "{id}: open of an invalid case");
                assert!(pt.iter().all(|&b| b == 0), "{id}: failed open zeroes");
                invalid += 1;
            }
            typed += usize::from(typed_any(&case));
            headers += usize::from(
                headers_case::<aead::consts::U32>(&case)
                    || headers_case::<aead::consts::U48>(&case)
                    || headers_case::<aead::consts::U64>(&case),
            );
        }
    }
    assert_eq!(valid + invalid + refused, expected, "{rel}: every case accounted for");
    assert_eq!(typed, valid + invalid, "every run case also through Aes*SivAead");
    assert_eq!(headers, valid + invalid, "every run case also through siv::Siv");
    assert!(valid > 0 && invalid > 0);
    eprintln!(
        "{rel}: {expected} cases (key bits: {per_key:?}): {valid} valid, {invalid} invalid (rejected), \
         {refused} refused by contract (empty message below OpenSSL 3.5); {typed} also through Aes*SivAead<N>, \
         {headers} through siv::Siv with headers [aad, nonce]"
    );
}

// ------------------------------------------------------------------------- differential

/// Ours against `aes_siv`'s AEAD form: random keys, nonces, AAD and messages (0 bytes included),
/// sealed through five API shapes and opened through four, both ways; tampering refused.
/// Returns (compared, empty messages refused by contract).
fn diff_aead<Ours, Ref>(name: &str, rng: &mut Rng, iters: usize, empty_ok: bool) -> (usize, usize)
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    assert_eq!(<Ours as AeadCore>::TAG_POSITION, aead::TagPosition::Prefix);
    assert_eq!(<Ref as AeadCore>::TAG_POSITION, aead::TagPosition::Prefix);
    let (mut compared, mut refused) = (0, 0);
    for i in 0..iters {
        let (key, ours, theirs, nonce) = diff::keyed_pair::<Ours, Ref>(rng);
        let aad = if rng.below(4) == 0 { Vec::new() } else { rng.bytes_below(70) };
        let msg = rng.msg();
        let ctx = format!("{name} iter {i} msg {} aad {}", msg.len(), aad.len());
        let reference = theirs.encrypt(&nonce, Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(reference.len(), msg.len() + 16);
        if msg.is_empty() && !empty_ok {
            assert_eq!(ours.encrypt(&nonce, Payload { msg: &msg, aad: &aad }), Err(aead::Error), "{ctx}");
            assert_eq!(ours.decrypt(&nonce, Payload { msg: &reference, aad: &aad }), Err(aead::Error), "{ctx}");
            refused += 1;
            continue;
        }
        // ---- seal: five shapes
        let ours_ct = match i % 5 {
            4 => {
                let c = Cipher::new(alg_for_key(key.len()), Policy::None, &key, 16).unwrap();
                let mut buf = msg.clone();
                buf.resize(msg.len() + 16, 0);
                assert_eq!(c.seal_in_place(&nonce, &aad, &mut buf, msg.len()), Ok(msg.len() + 16));
                buf
            }
            shape => diff::seal_shape(&ours, shape, &nonce, &aad, &msg),
        };
        assert_eq!(ours_ct, reference, "{ctx}: seal differs from aes-siv");
        assert_eq!(theirs.decrypt(&nonce, Payload { msg: &ours_ct, aad: &aad }).unwrap(), msg, "{ctx}");
        // ---- open theirs: four shapes
        let opened = diff::open_shape(&ours, (i / 5) % 4, &nonce, &aad, &reference);
        assert_eq!(opened, msg, "{ctx}: open of aes-siv's ciphertext");
        // ---- tampering: both refuse; failures zero what was written
        diff::refuses_tampering(&ours, &theirs, rng, &nonce, &aad, &reference, &ctx);
        compared += 1;
    }
    eprintln!("differential {name}: {iters} random cases, {compared} compared, {refused} empty messages refused by contract");
    (compared, refused)
}

/// The headers of one case: 0 to 6 components, some empty.
fn random_headers(rng: &mut Rng) -> Vec<Vec<u8>> {
    let n = rng.below(7);
    (0..n).map(|_| if rng.below(5) == 0 { Vec::new() } else { rng.bytes_below(64) }).collect()
}

/// Ours (`libaead::siv::Siv<K>`) against `aes_siv::siv::Siv` with random header vectors,
/// through every API shape both ways; a changed, dropped, added or reordered header is refused.
fn diff_headers<K, R>(name: &str, rng: &mut Rng, iters: usize, empty_ok: bool) -> (usize, usize, [usize; 7])
where
    K: SivKeySize,
    R: KeyInit<KeySize = K>,
    R: SivRef,
{
    let (mut compared, mut refused, mut by_count) = (0, 0, [0usize; 7]);
    for i in 0..iters {
        let key = rng.bytes(K::USIZE);
        let ours = Siv::<K>::new_from_slice(&key).unwrap();
        let mut theirs = R::new_from_slice(&key).unwrap();
        let hs = random_headers(rng);
        by_count[hs.len()] += 1;
        let msg = rng.msg();
        let ctx = format!("{name} iter {i} headers {:?} msg {}", hs.iter().map(Vec::len).collect::<Vec<_>>(), msg.len());
        let reference = theirs.enc(&hs, &msg).unwrap();
        if msg.is_empty() && !empty_ok {
            assert_eq!(ours.seal(&hs, &msg), Err(Error::Unsupported), "{ctx}");
            assert_eq!(ours.open(&hs, &reference), Err(Error::Unsupported), "{ctx}");
            refused += 1;
            continue;
        }
        let sealed = match i % 5 {
            0 => ours.encrypt(&hs, &msg).unwrap(),                               // &Vec<Vec<u8>>: items &Vec<u8>
            1 => ours.encrypt(hs.clone(), &msg).unwrap(),                        // owned items
            2 => ours.encrypt(hs.iter().map(|h| h.as_slice()), &msg).unwrap(), // an iterator of slices
            3 => {
                let mut out = vec![0u8; msg.len() + 16];
                assert_eq!(ours.seal_into(&hs, &msg, &mut out), Ok(msg.len() + 16));
                out
            }
            _ => {
                let mut buf = msg.clone();
                ours.encrypt_in_place(&hs, &mut buf).unwrap();
                buf
            }
        };
        assert_eq!(sealed, reference, "{ctx}: differs from aes_siv::siv");
        let mut out = msg.clone();
        let tag = ours.encrypt_inout_detached(&hs, out.as_mut_slice().into()).unwrap();
        assert_eq!([tag.to_vec(), out].concat(), reference, "{ctx}: detached");
        assert_eq!(theirs.dec(&hs, &sealed).unwrap(), msg, "{ctx}");
        let opened = match (i / 5) % 4 {
            0 => ours.decrypt(&hs, &reference).unwrap(),
            1 => {
                let mut buf = reference.clone();
                ours.decrypt_in_place(&hs, &mut buf).unwrap();
                buf
            }
            2 => {
                let mut out = vec![0x33u8; msg.len()];
                assert_eq!(ours.open_into(&hs, &reference, &mut out), Ok(msg.len()));
                out
            }
            _ => {
                let (t, ct) = reference.split_at(16);
                let mut out = vec![0u8; ct.len()];
                let t = libaead::siv::Tag::try_from(t).unwrap();
                ours.decrypt_inout_detached(&hs, InOutBuf::new(ct, &mut out).unwrap(), &t).unwrap();
                out
            }
        };
        assert_eq!(opened, msg, "{ctx}: open of aes_siv::siv's output");
        // the headers are bound, in order
        let mut other = hs.clone();
        match rng.below(3) {
            0 if !other.is_empty() => {
                let j = rng.below(other.len());
                other[j].push(1);
            }
            1 if !other.is_empty() => {
                other.pop();
            }
            _ => other.push(Vec::new()),
        }
        assert!(theirs.dec(&other, &reference).is_err());
        assert_eq!(ours.open(&other, &reference), Err(Error::Auth), "{ctx}: other headers {other:?}");
        if hs.len() >= 2 && hs[0] != hs[1] {
            let mut swapped = hs.clone();
            swapped.swap(0, 1);
            assert_eq!(ours.open(&swapped, &reference), Err(Error::Auth), "{ctx}: reordered");
        }
        let mut bad = reference.clone();
        let bit = rng.flip_bit(&mut bad);
        let mut out = vec![0x77u8; msg.len()];
        assert_eq!(ours.open_into(&hs, &bad, &mut out), Err(Error::Auth), "{ctx}: bit {bit}");
        assert!(out.iter().all(|&b| b == 0), "{ctx}: failed open zeroes");
        compared += 1;
    }
    eprintln!(
        "differential {name}: {iters} random cases (header counts 0..=6: {by_count:?}), {compared} compared, \
         {refused} empty messages refused by contract"
    );
    (compared, refused, by_count)
}

/// `aes_siv::siv::Siv`'s encrypt/decrypt (which take `&mut self`), for the generic test.
trait SivRef {
    fn enc(&mut self, hs: &[Vec<u8>], msg: &[u8]) -> aead::Result<Vec<u8>>;
    fn dec(&mut self, hs: &[Vec<u8>], ct: &[u8]) -> aead::Result<Vec<u8>>;
}
macro_rules! siv_ref {
    ($t:ty) => {
        impl SivRef for $t {
            fn enc(&mut self, hs: &[Vec<u8>], msg: &[u8]) -> aead::Result<Vec<u8>> {
                self.encrypt(hs, msg)
            }
            fn dec(&mut self, hs: &[Vec<u8>], ct: &[u8]) -> aead::Result<Vec<u8>> {
                self.decrypt(hs, ct)
            }
        }
    };
}
siv_ref!(aes_siv::siv::Aes128Siv);
siv_ref!(aes_siv::siv::Aes256Siv);

#[test]
fn differential_aead_form() {
    let mut rng = Rng::from_env("differential_aead_form");
    let empty_ok = takes_empty();
    let a = diff_aead::<Aes128SivAead, aes_siv::Aes128SivAead>("AES-128-SIV AEAD", &mut rng, 180, empty_ok);
    let b = diff_aead::<Aes256SivAead, aes_siv::Aes256SivAead>("AES-256-SIV AEAD", &mut rng, 180, empty_ok);
    let total = a.0 + a.1 + b.0 + b.1;
    assert_eq!(total, 360);
    assert!(a.0 + b.0 >= 300, "at least 300 compared: {a:?} {b:?}");
    eprintln!("differential AES-SIV AEAD form total: {total} ({} compared)", a.0 + b.0);
}

#[test]
fn differential_headers() {
    let mut rng = Rng::from_env("differential_headers");
    let empty_ok = takes_empty();
    let a = diff_headers::<aead::consts::U32, aes_siv::siv::Aes128Siv>("AES-128-SIV headers", &mut rng, 170, empty_ok);
    let b = diff_headers::<aead::consts::U64, aes_siv::siv::Aes256Siv>("AES-256-SIV headers", &mut rng, 170, empty_ok);
    assert!(a.0 + b.0 >= 300, "at least 300 compared: {a:?} {b:?}");
    for k in 0..7 {
        assert!(a.2[k] + b.2[k] > 0, "header count {k} never drawn");
    }
    // AES-192-SIV has no RustCrypto counterpart: its headers API agrees with its AEAD form and
    // with Cipher's _v calls (Wycheproof covers its values).
    let key = rng.bytes(48);
    let s = Aes192Siv::new_from_slice(&key).unwrap();
    let aead = <Aes192SivAead>::new_from_slice(&key).unwrap();
    let c = Cipher::new(Algorithm::Aes192Siv, Policy::None, &key, 16).unwrap();
    for _ in 0..20 {
        let msg_len = 1 + rng.below(100);
        let (aad, msg, nonce) = (rng.bytes_below(40), rng.bytes(msg_len), rng.array::<16>());
        let want = aead.encrypt(&nonce.into(), Payload { msg: &msg, aad: &aad }).unwrap();
        assert_eq!(s.encrypt([&aad[..], &nonce], &msg).unwrap(), want);
        assert_eq!(c.seal_v(&nonce, &[&aad], &msg).unwrap(), want);
        assert_eq!(c.seal_v(&[], &[&aad, &nonce], &msg).unwrap(), want);
        assert_eq!(c.open_v(&nonce, &[&aad], &want).unwrap(), msg);
    }
    eprintln!("differential AES-SIV headers total: {} compared", a.0 + b.0);
}

// ------------------------------------------------------------------------- contract

#[test]
fn empty_message_per_libcrypto() {
    let empty_ok = takes_empty();
    let key = [0x42u8; 32];
    let theirs = aes_siv::Aes128SivAead::new(&key.into());
    let nonce = Nonce::<Aes128SivAead>::from([9u8; 16]);
    let reference = theirs.encrypt(&nonce, Payload { msg: b"", aad: b"ad" }).unwrap();
    let ours = Aes128SivAead::new(&key.into());
    let s = Aes128Siv::new(&key.into());
    let mut ref_h = aes_siv::siv::Aes128Siv::new(&key.into());
    let ref_headers = ref_h.encrypt([b"h1", b"h2"], b"").unwrap();
    let c = ours.cipher();
    if empty_ok {
        assert_eq!(ours.encrypt(&nonce, Payload { msg: b"", aad: b"ad" }).unwrap(), reference);
        assert_eq!(ours.decrypt(&nonce, Payload { msg: &reference, aad: b"ad" }).unwrap(), b"");
        assert_eq!(s.encrypt([b"h1", b"h2"], b"").unwrap(), ref_headers);
        assert_eq!(s.decrypt([b"h1", b"h2"], &ref_headers).unwrap(), b"");
        let mut bad = reference.clone();
        bad[3] ^= 1;
        assert_eq!(c.open(&nonce, b"ad", &bad), Err(Error::Auth));
        eprintln!("empty messages: sealed and opened as aes-siv does ({})", libaead::version());
    } else {
        let mut out = [0x11u8; 16];
        assert_eq!(c.seal_into(&nonce, b"ad", b"", &mut out), Err(Error::Unsupported));
        assert_eq!(out, [0x11u8; 16], "nothing written");
        assert_eq!(c.open_into(&nonce, b"ad", &reference, &mut []), Err(Error::Unsupported));
        assert_eq!(ours.encrypt(&nonce, Payload { msg: b"", aad: b"ad" }), Err(aead::Error));
        let mut buf = reference.clone();
        assert_eq!(ours.decrypt_in_place(&nonce, b"ad", &mut buf), Err(aead::Error));
        assert_eq!(buf, reference, "a refused open changes nothing");
        assert_eq!(s.seal([b"h1", b"h2"], b""), Err(Error::Unsupported));
        assert_eq!(s.open([b"h1", b"h2"], &ref_headers), Err(Error::Unsupported));
        let mut v = Vec::new();
        assert_eq!(s.encrypt_in_place([b"h1"], &mut v), Err(aead::Error));
        assert!(v.is_empty(), "a refused in-place seal leaves the buffer as it was");
        eprintln!("empty messages: refused with Unsupported by {} (as documented)", libaead::version());
    }
    // one byte works everywhere
    assert_eq!(
        ours.encrypt(&nonce, Payload { msg: b"x", aad: b"ad" }).unwrap(),
        theirs.encrypt(&nonce, Payload { msg: b"x", aad: b"ad" }).unwrap()
    );
}

#[test]
fn header_count_limit() {
    let key = [0x24u8; 32];
    let ours = Aes128Siv::new(&key.into());
    let mut theirs = aes_siv::siv::Aes128Siv::new(&key.into());
    let hs: Vec<[u8; 2]> = (0..127u16).map(|i| i.to_be_bytes()).collect();
    // 126 headers: the most, equal to aes-siv's (its MAX_HEADERS is 126 too)
    assert_eq!(libaead::siv::MAX_HEADERS, aes_siv::siv::MAX_HEADERS);
    let want = theirs.encrypt(&hs[..126], b"msg").unwrap();
    assert_eq!(ours.encrypt(&hs[..126], b"msg").unwrap(), want);
    assert_eq!(ours.decrypt(&hs[..126], &want).unwrap(), b"msg");
    // 127: refused by both, nothing written
    assert!(theirs.encrypt(&hs, b"msg").is_err());
    assert_eq!(ours.encrypt(&hs, b"msg"), Err(aead::Error));
    let mut out = [0x66u8; 19];
    assert_eq!(ours.seal_into(&hs, b"msg", &mut out), Err(Error::TooLong));
    assert_eq!(ours.open_into(&hs, &want, &mut out), Err(Error::TooLong));
    assert_eq!(out, [0x66u8; 19]);
    let mut buf = b"msg".to_vec();
    assert_eq!(ours.encrypt_in_place(&hs, &mut buf), Err(aead::Error));
    assert_eq!(buf, b"msg");
    // an unbounded iterator stops being read past the limit
    assert_eq!(ours.seal(std::iter::repeat(b"x"), b"msg"), Err(Error::TooLong));
    // Cipher's _v: the nonce counts as a component
    let c = ours.cipher();
    let slices: Vec<&[u8]> = hs.iter().map(|h| &h[..]).collect();
    assert_eq!(c.seal_v_into(b"nonce", &slices[..126], b"msg", &mut out), Err(Error::TooLong));
    assert_eq!(c.seal_v_into(&[], &slices[..126], b"msg", &mut out), Ok(19));
    assert_eq!(out.to_vec(), want);
    let with_nonce = theirs.encrypt(slices[..125].iter().chain([&&b"nonce"[..]]), b"msg").unwrap();
    assert_eq!(c.seal_v(b"nonce", &slices[..125], b"msg").unwrap(), with_nonce);
    assert_eq!(c.seal_v(b"nonce", &slices[..127], b"msg"), Err(Error::TooLong));
    // the C call's own check, past what the safe API can hold: 127 components
    let bufs: Vec<sys::aead_buf> = hs.iter().map(|h| sys::aead_buf { data: h.as_ptr(), len: 2 }).collect();
    let mut raw: *mut sys::aead_ctx = core::ptr::null_mut();
    // SAFETY: a valid out-pointer and a 32-byte key; the context is freed below.
    let rc = unsafe { sys::aead_ctx_new(&mut raw, sys::AEAD_AES_128_SIV, sys::AEAD_POLICY_NONE, key.as_ptr(), 32, 16) };
    assert_eq!(rc, 0);
    let mut o = [0x66u8; 19];
    for (count, want_rc) in [(127usize, i64::from(sys::AEAD_ERR_TOO_LONG)), (126, 19)] {
        // SAFETY: a live context; every pointer is a live buffer of the given length.
        let rc = unsafe {
            sys::aead_seal_open_v(
                raw,
                sys::AEAD_SEAL,
                core::ptr::null(),
                0,
                bufs.as_ptr(),
                count,
                b"msg".as_ptr(),
                3,
                o.as_mut_ptr(),
                o.len(),
            )
        };
        assert_eq!(rc, want_rc, "{count} components");
        if count == 127 {
            assert_eq!(o, [0x66u8; 19], "a refused call writes nothing");
        }
    }
    assert_eq!(o.to_vec(), want);
    // SAFETY: created above, freed once, no call running.
    unsafe { sys::aead_ctx_free(raw) };
}

#[test]
fn hostile_inputs() {
    let key = [0x35u8; 64];
    let ours = Aes256SivAead::new(&key.into());
    let s = Aes256Siv::new(&key.into());
    let c = Cipher::new(Algorithm::Aes256Siv, Policy::None, &key, 16).unwrap();
    let nonce = Nonce::<Aes256SivAead>::default();
    // short ciphertext (below the 16-byte SIV): Auth, nothing written, every API
    for len in 0..16 {
        let ct = vec![0xabu8; len];
        assert_eq!(ours.decrypt(&nonce, &ct[..]), Err(aead::Error), "{len}");
        assert_eq!(s.decrypt([b"h"], &ct), Err(aead::Error), "{len}");
        let mut out = [0x44u8; 8];
        assert_eq!(c.open_into(&nonce, b"", &ct, &mut out), Err(Error::Auth), "{len}");
        assert_eq!(s.open_into([b"h"], &ct, &mut out), Err(Error::Auth), "{len}");
        assert_eq!(out, [0x44u8; 8]);
        let mut buf = ct.clone();
        assert_eq!(ours.decrypt_in_place(&nonce, b"", &mut buf), Err(aead::Error));
        assert_eq!(buf, ct);
        assert_eq!(c.open_in_place(&nonce, b"", &mut buf), Err(Error::Auth));
    }
    // output buffers one byte short: refused, nothing written
    let sealed = c.seal(&nonce, b"a", b"hello").unwrap();
    let mut out = [0x44u8; 20];
    assert_eq!(c.seal_into(&nonce, b"a", b"hello", &mut out), Err(Error::BufferTooSmall));
    assert_eq!(s.seal_into([b"a"], b"hello", &mut out), Err(Error::BufferTooSmall));
    assert_eq!(c.open_into(&nonce, b"a", &sealed, &mut out[..4]), Err(Error::BufferTooSmall));
    assert_eq!(out, [0x44u8; 20]);
    let mut small = b"hello".to_vec();
    small.resize(20, 0);
    assert_eq!(c.seal_in_place(&nonce, b"a", &mut small, 5), Err(Error::BufferTooSmall));
    assert_eq!(&small[..5], b"hello");
    // huge lengths over a never-backed read-only mapping: refused without reading them
    let huge = Huge::map();
    let big = &huge.bytes()[..(1usize << 31)]; // INT_MAX + 1
    let mut out = [0x44u8; 17];
    assert_eq!(c.seal_v_into(&nonce, &[b"ok", big], b"x", &mut out), Err(Error::TooLong), "component > INT_MAX");
    assert_eq!(s.seal_into([&b"ok"[..], big], b"x", &mut out), Err(Error::TooLong));
    assert_eq!(ours.encrypt(&nonce, Payload { msg: b"x", aad: big }), Err(aead::Error));
    assert_eq!(c.seal_into(&nonce, big, b"x", &mut out), Err(Error::TooLong), "AAD > INT_MAX");
    assert_eq!(out, [0x44u8; 17]);
    assert_eq!(c.seal(&nonce, b"", big), Err(Error::TooLong), "plaintext > INT_MAX");
    assert_eq!(s.seal([b"h"], big), Err(Error::TooLong));
    assert_eq!(c.open(&nonce, b"", &huge.bytes()[..(1usize << 31) + 16]), Err(Error::TooLong));
    let mut o = [0x44u8; 4];
    let r = s.open_into([b"h"], &huge.bytes()[..(1usize << 31) + 16], &mut o);
    assert_eq!(r, Err(Error::TooLong), "the length is checked before the output's room");
    assert_eq!(o, [0x44u8; 4]);
    let r = c.seal_into(&nonce, b"", huge.bytes(), &mut out);
    assert_eq!(r, Err(Error::TooLong), "the length is checked before the output's room");
    // creation: tag 16 only, policy NONE only, keys 32/48/64
    assert_eq!(Cipher::new(Algorithm::Aes256Siv, Policy::None, &key, 12).unwrap_err(), Error::TagSize);
    assert!(Cipher::new(Algorithm::Aes256Siv, Policy::Tls13, &key, 16).is_err());
    assert!(Cipher::new(Algorithm::Aes256Siv, Policy::RandomNonce, &key, 16).is_err());
    assert_eq!(Cipher::new(Algorithm::Aes256Siv, Policy::None, &key[..32], 16).unwrap_err(), Error::KeySize);
    assert!(Aes128Siv::new_from_slice(&key).is_err(), "a 64-byte key for Aes128Siv");
    for (alg, k) in [(Algorithm::Aes128Siv, 32), (Algorithm::Aes192Siv, 48), (Algorithm::Aes256Siv, 64)] {
        assert_eq!((alg.key_size(), alg.nonce_size(), alg.tag_size()), (k, 16, 16), "{alg:?}");
        assert!(alg.is_siv());
    }
    assert!(!Algorithm::Aes256GcmSiv.is_siv());
    // a non-SIV context takes at most one component through the _v calls
    let g = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[1u8; 16], 16).unwrap();
    let n12 = [2u8; 12];
    assert_eq!(g.seal_v(&n12, &[b"ad"], b"m").unwrap(), g.seal(&n12, b"ad", b"m").unwrap());
    assert_eq!(g.seal_v(&n12, &[], b"m").unwrap(), g.seal(&n12, b"", b"m").unwrap());
    assert_eq!(g.seal_v(&n12, &[b"a", b"d"], b"m"), Err(Error::Arg));
}

/// Ours (`Cipher`, AES-128-SIV) and RustCrypto's deterministic `Siv` on one random key.
fn aes128_siv_pair(rng: &mut Rng) -> (Cipher, aes_siv::siv::Aes128Siv) {
    let key = rng.bytes(32);
    let c = Cipher::new(Algorithm::Aes128Siv, Policy::None, &key, 16).unwrap();
    (c, aes_siv::siv::Aes128Siv::new_from_slice(&key).unwrap())
}

#[test]
fn nonce_lengths_and_determinism() {
    // An empty nonce is no component at all: S2V(aad, plaintext), RustCrypto's Siv with [aad];
    // a nonce of any length is the last component.
    let mut rng = Rng::from_env("nonce_lengths_and_determinism");
    let (c, mut theirs) = aes128_siv_pair(&mut rng);
    for len in [0usize, 1, 12, 16, 17, 64, 200] {
        let (nonce, aad) = (rng.bytes(len), rng.bytes_below(30));
        let msg_len = 1 + rng.below(50);
        let msg = rng.bytes(msg_len);
        let want = if len == 0 {
            theirs.encrypt([&aad], &msg).unwrap()
        } else {
            theirs.encrypt([&aad, &nonce], &msg).unwrap()
        };
        let got = c.seal(&nonce, &aad, &msg).unwrap();
        assert_eq!(got, want, "nonce {len}");
        assert_eq!(got, c.seal(&nonce, &aad, &msg).unwrap(), "deterministic");
        assert_eq!(c.open(&nonce, &aad, &got).unwrap(), msg);
    }
    // no components at all: S2V of the plaintext alone (pyca's encrypt(data, None))
    let msg = rng.bytes(33);
    let none: [&[u8]; 0] = [];
    assert_eq!(c.seal_v(&[], &none, &msg).unwrap(), theirs.encrypt(none, &msg).unwrap());
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Aes128SivAead>();
    send_sync::<Aes192SivAead<U12>>();
    send_sync::<Aes256SivAead<U16>>();
    send_sync::<Aes128Siv>();
    send_sync::<Aes192Siv>();
}

#[test]
fn batches_of_components() {
    // Cipher::seal_many_v / open_many_v (one aead_seal_open_many_v call): each record is exactly
    // its single call (equal to aes_siv::siv), refusals stay in their own record.
    use libaead::{Component, RecordV};
    /// One record per input, with its components and output, no nonce.
    fn batch<'a>(comps: &'a [Vec<Component<'a>>], inputs: &'a [Vec<u8>], outs: &'a mut [Vec<u8>]) -> Vec<RecordV<'a>> {
        comps.iter().zip(inputs).zip(outs).map(|((cs, m), out)| RecordV::new(&[], cs, m, out)).collect()
    }
    let mut rng = Rng::from_env("batches_of_components");
    let (c, mut theirs) = aes128_siv_pair(&mut rng);
    let n = 30;
    let headers: Vec<Vec<Vec<u8>>> = (0..n).map(|_| random_headers(&mut rng)).collect();
    let msgs: Vec<Vec<u8>> = (0..n)
        .map(|_| {
            let len = 1 + rng.below(300);
            rng.bytes(len)
        })
        .collect();
    let (small, too_many) = (3, 7);
    let filler: Vec<[u8; 1]> = (0..127u8).map(|i| [i]).collect();
    let comps: Vec<Vec<Component>> = (0..n)
        .map(|i| {
            if i == too_many {
                filler.iter().map(Component::from).collect()
            } else {
                headers[i].iter().map(|h| Component::from(&h[..])).collect()
            }
        })
        .collect();
    let mut outs: Vec<Vec<u8>> = (0..n).map(|i| vec![0xee; msgs[i].len() + 16 - usize::from(i == small)]).collect();
    let mut recs = batch(&comps, &msgs, &mut outs);
    assert_eq!(c.seal_many_v(&mut recs), n - 2);
    for (i, r) in recs.iter().enumerate() {
        let want = match i {
            i if i == small => Err(Error::BufferTooSmall),
            i if i == too_many => Err(Error::TooLong),
            _ => Ok(msgs[i].len() + 16),
        };
        assert_eq!(r.result(), want, "record {i}");
    }
    drop(recs);
    let mut sealed = Vec::new();
    for i in 0..n {
        if i == small || i == too_many {
            assert!(outs[i].iter().all(|&b| b == 0xee), "a refused record writes nothing");
            sealed.push(theirs.encrypt(&headers[i], &msgs[i]).unwrap());
        } else {
            assert_eq!(outs[i], theirs.encrypt(&headers[i], &msgs[i]).unwrap(), "record {i}");
            let hs: Vec<&[u8]> = headers[i].iter().map(|h| &h[..]).collect();
            assert_eq!(outs[i], c.seal_v(&[], &hs, &msgs[i]).unwrap(), "record {i}: single call");
            sealed.push(outs[i].clone());
        }
    }
    // open them back (headers as sealed), one tampered
    let bad = 11;
    sealed[bad][0] ^= 1;
    let comps: Vec<Vec<Component>> = headers.iter().map(|hs| hs.iter().map(|h| Component::from(&h[..])).collect()).collect();
    let mut plain: Vec<Vec<u8>> = msgs.iter().map(|m| vec![0xee; m.len()]).collect();
    let mut recs = batch(&comps, &sealed, &mut plain);
    assert_eq!(c.open_many_v(&mut recs), n - 1);
    assert_eq!(recs[bad].result(), Err(Error::Auth));
    drop(recs);
    common::assert_opened_but_one(&plain, &msgs, bad);
    // another family takes at most one component per record
    let g = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[1u8; 16], 16).unwrap();
    let two = [Component::from(b"a"), Component::from(b"b")];
    let one = [Component::from(b"ab")];
    let (mut o1, mut o2) = ([0u8; 17], [0u8; 17]);
    let mut recs = [RecordV::new(&[2u8; 12], &two, b"m", &mut o1), RecordV::new(&[2u8; 12], &one, b"m", &mut o2)];
    assert_eq!(g.seal_many_v(&mut recs), 1);
    assert_eq!(recs[0].result(), Err(Error::Arg));
    assert_eq!(recs[1].result(), Ok(17));
    assert_eq!(o2.to_vec(), g.seal(&[2u8; 12], b"ab", b"m").unwrap());
    eprintln!("batches_of_components: {n} records sealed and opened in one call each");
}
