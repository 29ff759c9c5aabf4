//! The library 1.2 families (AES-CCM, AES-GCM-SIV, AES-OCB3, XChaCha20-Poly1305): differential
//! tests on random inputs against the RustCrypto crates (`ccm`, `aes-gcm-siv`, `ocb3`,
//! `chacha20poly1305::XChaCha20Poly1305`, all on aead 0.6), and the Wycheproof files, every case
//! accounted for (counts printed; run with `--nocapture` to see them).
//! AES-GCM-SIV needs OpenSSL >= 3.2: on an older libcrypto its tests check the documented
//! refusal (and that the libcrypto really is older) instead.
mod common;

use aead::array::typenum::Unsigned;
use aead::consts::{U10, U12, U13, U15, U16, U4, U6, U7, U8};
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload};
use common::wycheproof::Case;
use common::{by_key_len, vectors_dir, Rng};
use libaead::{Algorithm, Cipher, Error, Policy};

const ITERS: usize = 200;

/// Whether the loaded libcrypto has AES-GCM-SIV (OpenSSL >= 3.2); asserts that the answer
/// matches the version the library reports, so a missing algorithm cannot pass as "old".
fn gcm_siv_supported() -> bool {
    let ok = libaead::Aes128GcmSiv::is_supported();
    let v = libaead::version();
    let old = v.contains("OpenSSL 3.0.") || v.contains("OpenSSL 3.1.");
    assert_eq!(ok, !old, "GCM-SIV support {ok} does not match the libcrypto: {v}");
    ok
}

/// The shared differential test (tests/common/diff.rs), `ITERS` cases; returns the count.
fn diff<Ours, Ref>(name: &str, rng: &mut Rng, max_msg: usize) -> usize
where
    Ours: KeyInit + AeadInOut,
    Ref: KeyInit<KeySize = Ours::KeySize> + AeadInOut + AeadCore<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    common::diff::diff::<Ours, Ref>(name, rng, ITERS, max_msg);
    eprintln!("differential {name}: {ITERS} random cases");
    ITERS
}

#[test]
fn ccm_differential() {
    let mut rng = Rng::from_env("ccm_differential");
    type Ref<C, M, N> = ccm::Ccm<C, M, N>;
    let mut n = 0;
    // pyca's default (tag 16, nonce 13: messages < 64 KiB), Bluetooth/Matter-like sizes, extremes.
    n += diff::<libaead::Aes128Ccm<U16, U13>, Ref<aes::Aes128, U16, U13>>("AES-128-CCM t16 n13", &mut rng, 65535);
    n += diff::<libaead::Aes256Ccm<U8, U13>, Ref<aes::Aes256, U8, U13>>("AES-256-CCM t8 n13", &mut rng, 65535);
    n += diff::<libaead::Aes192Ccm<U16, U12>, Ref<aes::Aes192, U16, U12>>("AES-192-CCM t16 n12", &mut rng, usize::MAX);
    n += diff::<libaead::Aes128Ccm<U4, U7>, Ref<aes::Aes128, U4, U7>>("AES-128-CCM t4 n7", &mut rng, usize::MAX);
    n += diff::<libaead::Aes256Ccm<U10, U8>, Ref<aes::Aes256, U10, U8>>("AES-256-CCM t10 n8", &mut rng, usize::MAX);
    n += diff::<libaead::Aes128Ccm<U6, U10>, Ref<aes::Aes128, U6, U10>>("AES-128-CCM t6 n10", &mut rng, usize::MAX);
    eprintln!("differential AES-CCM total: {n}");
}

#[test]
fn ccm_length_bound() {
    // 13-byte nonce: L = 2, messages below 2^16 bytes. At the bound: TooLong, nothing written.
    let c = libaead::Aes128Ccm::<U16, U13>::new(&[1u8; 16].into());
    let nonce = Nonce::<libaead::Aes128Ccm<U16, U13>>::default();
    let msg = vec![7u8; 65536];
    let mut out = vec![0xaau8; 65536 + 16];
    assert_eq!(c.seal_into(&nonce, b"", &msg, &mut out), Err(Error::TooLong));
    assert!(out.iter().all(|&b| b == 0xaa), "a refused seal writes nothing");
    assert_eq!(c.seal_into(&nonce, b"", &msg[..65535], &mut out), Ok(65535 + 16));
    assert!(c.encrypt(&nonce, &msg[..]).is_err());
}

#[test]
fn ocb3_differential() {
    let mut rng = Rng::from_env("ocb3_differential");
    let mut n = 0;
    n += diff::<libaead::Aes128Ocb3, ocb3::Ocb3<aes::Aes128>>("AES-128-OCB3 n12", &mut rng, usize::MAX);
    n += diff::<libaead::Aes192Ocb3, ocb3::Ocb3<aes::Aes192>>("AES-192-OCB3 n12", &mut rng, usize::MAX);
    n += diff::<libaead::Aes256Ocb3<U15>, ocb3::Ocb3<aes::Aes256, U15>>("AES-256-OCB3 n15", &mut rng, usize::MAX);
    n += diff::<libaead::Aes128Ocb3<U6>, ocb3::Ocb3<aes::Aes128, U6>>("AES-128-OCB3 n6", &mut rng, usize::MAX);
    eprintln!("differential AES-OCB3 total: {n}");
}

#[test]
fn xchacha_differential() {
    let mut rng = Rng::from_env("xchacha_differential");
    let n = diff::<libaead::XChaCha20Poly1305, chacha20poly1305::XChaCha20Poly1305>(
        "XChaCha20-Poly1305",
        &mut rng,
        usize::MAX,
    );
    assert_eq!(n, ITERS);
}

#[test]
fn gcm_siv_differential_or_unsupported() {
    if !gcm_siv_supported() {
        // The documented refusal: try_new errs, KeyInit::new defers it to every operation.
        let key = [3u8; 16].into();
        assert_eq!(libaead::Aes128GcmSiv::try_new(&key).unwrap_err(), Error::Unsupported);
        assert_eq!(libaead::Aes256GcmSiv::try_new(&[3u8; 32].into()).unwrap_err(), Error::Unsupported);
        let c = libaead::Aes128GcmSiv::new(&key);
        assert_eq!(c.cipher().unwrap_err(), Error::Unsupported);
        let nonce = Nonce::<libaead::Aes128GcmSiv>::default();
        assert_eq!(c.encrypt(&nonce, &b"abc"[..]), Err(aead::Error));
        let mut out = [0x55u8; 19];
        assert_eq!(c.seal_into(&nonce, b"", b"abc", &mut out), Err(Error::Unsupported));
        assert_eq!(out, [0x55u8; 19], "nothing written");
        let mut buf = vec![9u8; 20];
        assert_eq!(c.decrypt_in_place(&nonce, b"", &mut buf), Err(aead::Error));
        assert_eq!(buf, vec![9u8; 20]);
        eprintln!("AES-GCM-SIV: unsupported by {} (as documented): refusal checked", libaead::version());
        return;
    }
    let mut rng = Rng::from_env("gcm_siv_differential");
    let mut n = 0;
    n += diff::<libaead::Aes128GcmSiv, aes_gcm_siv::Aes128GcmSiv>("AES-128-GCM-SIV", &mut rng, usize::MAX);
    n += diff::<libaead::Aes256GcmSiv, aes_gcm_siv::Aes256GcmSiv>("AES-256-GCM-SIV", &mut rng, usize::MAX);
    eprintln!("differential AES-GCM-SIV total: {n}");
    // Nonce reuse is the point of SIV: same nonce, same message -> same ciphertext; other
    // message -> other ciphertext (and 192 works where the crate has none: round trip).
    let c = libaead::Aes192GcmSiv::new(&[5u8; 24].into());
    let nonce = Nonce::<libaead::Aes192GcmSiv>::default();
    let a = c.encrypt(&nonce, &b"same"[..]).unwrap();
    assert_eq!(a, c.encrypt(&nonce, &b"same"[..]).unwrap());
    assert_ne!(a, c.encrypt(&nonce, &b"other"[..]).unwrap());
    assert_eq!(c.decrypt(&nonce, &a[..]).unwrap(), b"same");
}

// ------------------------------------------------------------------------- Wycheproof

#[derive(Default, Debug)]
struct Counts {
    valid: usize,
    invalid: usize,
    refused: usize, // sizes the library refuses by contract (NonceSize / TagSize), all `invalid`
}

/// Runs one Wycheproof AEAD file through [`Cipher`] (any nonce and tag length), each case with the
/// member of `family` its key is for; `typed` also runs the cases of one size through a
/// RustCrypto-trait type. Every case is accounted for.
fn wycheproof(rel: &str, family: &[Algorithm], typed: &dyn Fn(&Case) -> bool) -> Counts {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expected = v["numberOfTests"].as_u64().unwrap() as usize;
    let mut c = Counts::default();
    let mut typed_n = 0;
    for g in v["testGroups"].as_array().unwrap() {
        let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
        for t in g["tests"].as_array().unwrap() {
            let case = Case::from_json(rel, t, false);
            let id = &case.id;
            let cipher = match Cipher::new(by_key_len(family, case.key.len()), Policy::None, &case.key, tag_len) {
                Ok(cipher) => cipher,
                Err(e) => {
                    assert_eq!(e, Error::TagSize, "{id}");
                    assert!(!case.valid, "{id}: a valid case with a tag size the library refuses");
                    c.refused += 1;
                    continue;
                }
            };
            let mut out = vec![0x55u8; case.msg.len() + tag_len];
            match cipher.seal_into(&case.iv, &case.aad, &case.msg, &mut out) {
                Err(Error::NonceSize) => {
                    assert!(!case.valid, "{id}: a valid case with a nonce size the library refuses");
                    assert!(out.iter().all(|&b| b == 0x55), "{id}: refused seal wrote");
                    let mut o = vec![0u8; case.msg.len()];
                    assert_eq!(cipher.open_into(&case.iv, &case.aad, &case.sealed, &mut o), Err(Error::NonceSize));
                    c.refused += 1;
                    continue;
                }
                r => assert_eq!(r, Ok(out.len()), "{id}"),
            }
            assert_eq!(out == case.sealed, case.valid, "{id}: seal");
            let mut pt = vec![0x55u8; case.sealed.len().saturating_sub(tag_len)];
            let opened = cipher.open_into(&case.iv, &case.aad, &case.sealed, &mut pt);
            if case.valid {
                assert_eq!(opened, Ok(case.msg.len()), "{id}");
                assert_eq!(pt, case.msg, "{id}: open");
                c.valid += 1;
            } else {
                assert_eq!(opened, Err(Error::Auth), "{id}: open of an invalid case");
                assert!(pt.iter().all(|&b| b == 0), "{id}: failed open zeroes");
                c.invalid += 1;
            }
            if typed(&case) {
                typed_n += 1;
            }
        }
    }
    assert_eq!(c.valid + c.invalid + c.refused, expected, "{rel}: every case accounted for");
    eprintln!(
        "{rel}: {expected} cases: {} valid, {} invalid (rejected), {} refused by contract (nonce/tag size); {typed_n} also through the typed API",
        c.valid, c.invalid, c.refused
    );
    c
}

/// The case through a typed wrapper when its key, nonce and tag sizes are the type's.
fn typed_case<T: KeyInit + AeadInOut>(case: &Case) -> bool {
    if case.sealed.len() != case.msg.len() + <T as AeadCore>::TagSize::USIZE {
        return false;
    }
    let Some((c, nonce)) = case.typed_seal::<T>() else {
        return false;
    };
    let id = &case.id;
    let opened = c.decrypt(&nonce, Payload { msg: &case.sealed, aad: &case.aad });
    if case.valid {
        assert_eq!(opened.as_deref(), Ok(&case.msg[..]), "{id}: typed decrypt");
    } else {
        assert_eq!(opened, Err(aead::Error), "{id}: typed decrypt of an invalid case");
    }
    true
}

#[test]
fn wycheproof_aes_ccm() {
    let ccm = [Algorithm::Aes128Ccm, Algorithm::Aes192Ccm, Algorithm::Aes256Ccm];
    let c = wycheproof("wycheproof/aes_ccm_test.json", &ccm, &|case| {
        typed_case::<libaead::Aes128Ccm<U16, U13>>(case)
            || typed_case::<libaead::Aes256Ccm<U16, U12>>(case)
            || typed_case::<libaead::Aes128Ccm<U16, U12>>(case)
            || typed_case::<libaead::Aes192Ccm<U16, U7>>(case)
    });
    assert!(c.valid > 0 && c.invalid > 0 && c.refused > 0, "{c:?}");
}

#[test]
fn wycheproof_xchacha20_poly1305() {
    let c = wycheproof(
        "wycheproof/xchacha20_poly1305_test.json",
        &[Algorithm::XChaCha20Poly1305],
        &typed_case::<libaead::XChaCha20Poly1305>,
    );
    assert!(c.valid > 0 && c.invalid > 0, "{c:?}");
}

#[test]
fn wycheproof_aes_gcm_siv() {
    if !gcm_siv_supported() {
        eprintln!("wycheproof/aes_gcm_siv_test.json: not run, AES-GCM-SIV unsupported by {}", libaead::version());
        return;
    }
    let gcm_siv = [Algorithm::Aes128GcmSiv, Algorithm::Aes192GcmSiv, Algorithm::Aes256GcmSiv];
    let c = wycheproof("wycheproof/aes_gcm_siv_test.json", &gcm_siv, &|case| {
        typed_case::<libaead::Aes128GcmSiv>(case) || typed_case::<libaead::Aes256GcmSiv>(case)
    });
    assert!(c.valid > 0 && c.invalid > 0, "{c:?}");
}

// AEGIS-128L and AEGIS-256 (library 1.7; its other tests are tests/aegis.rs): every case a valid
// one sealed and opened or an invalid one rejected, none refused by contract.
#[test]
fn wycheproof_aegis() {
    let l = wycheproof("wycheproof/aegis128L_test.json", &[Algorithm::Aegis128L], &typed_case::<libaead::Aegis128L<U16>>);
    let b = wycheproof("wycheproof/aegis256_test.json", &[Algorithm::Aegis256], &typed_case::<libaead::Aegis256<U16>>);
    assert_eq!([(l.valid, l.invalid, l.refused), (b.valid, b.invalid, b.refused)], [(367, 112, 0), (360, 112, 0)]);
}

#[test]
fn ocb3_nonce_sizes() {
    // RFC 7253 allows 1..=15 bytes; the library too (the ocb3 crate only 6..=15): round trip with a
    // 1-byte nonce, and the 16-byte and empty nonces refused through Cipher.
    let key = [9u8; 16];
    let c = libaead::Aes128Ocb3::<aead::consts::U1>::new(&key.into());
    let nonce = Nonce::<libaead::Aes128Ocb3<aead::consts::U1>>::from([4u8]);
    let ct = c.encrypt(&nonce, &b"x"[..]).unwrap();
    assert_eq!(c.decrypt(&nonce, &ct[..]).unwrap(), b"x");
    let raw = Cipher::new(Algorithm::Aes128Ocb3, Policy::None, &key, 16).unwrap();
    let mut out = [0u8; 17];
    assert_eq!(raw.seal_into(&[0u8; 16], b"", b"x", &mut out), Err(Error::NonceSize));
    assert_eq!(raw.seal_into(&[], b"", b"x", &mut out), Err(Error::NonceSize));
    // and a tag length other than 16 is refused at creation
    assert_eq!(Cipher::new(Algorithm::Aes128Ocb3, Policy::None, &key, 12).unwrap_err(), Error::TagSize);
}

#[test]
fn xchacha_random_nonce_cipher() {
    // Policy::RandomNonce on XChaCha20-Poly1305: nonce(24) || ct || tag, opened by the reference
    // with the leading 24 bytes; the in-place paths move the message by 24 bytes.
    let mut rng = Rng::from_env("xchacha_random_nonce_cipher");
    let key = rng.bytes(32);
    let c = Cipher::new(Algorithm::XChaCha20Poly1305, Policy::RandomNonce, &key, 16).unwrap();
    assert_eq!(c.overhead(), 40);
    let theirs = chacha20poly1305::XChaCha20Poly1305::new_from_slice(&key).unwrap();
    let mut seen = std::collections::HashSet::new();
    for i in 0..200 {
        let msg = rng.bytes_below(300);
        let aad = rng.bytes_below(20);
        let sealed = if i % 2 == 0 {
            c.seal(&[], &aad, &msg).unwrap()
        } else {
            let mut buf = msg.clone();
            buf.resize(msg.len() + 40, 0);
            assert_eq!(c.seal_in_place(&[], &aad, &mut buf, msg.len()), Ok(msg.len() + 40));
            buf
        };
        assert_eq!(sealed.len(), msg.len() + 40);
        assert!(seen.insert(sealed[..24].to_vec()), "nonce repeated");
        let n = Nonce::<chacha20poly1305::XChaCha20Poly1305>::try_from(&sealed[..24]).unwrap();
        assert_eq!(theirs.decrypt(&n, Payload { msg: &sealed[24..], aad: &aad }).unwrap(), msg, "iter {i}");
        let mut buf = sealed.clone();
        assert_eq!(c.open_in_place(&[], &aad, &mut buf), Ok(msg.len()));
        assert_eq!(&buf[..msg.len()], &msg[..]);
        let mut bad = sealed.clone();
        bad[rng.below(sealed.len())] ^= 4;
        assert_eq!(c.open(&[], &aad, &bad), Err(Error::Auth));
    }
    // a refused in-place seal (no room) leaves the buffer as it was
    let mut small = vec![1u8; 10 + 39];
    assert_eq!(c.seal_in_place(&[], b"", &mut small, 10), Err(Error::BufferTooSmall));
    assert_eq!(small, vec![1u8; 49]);
}

#[test]
fn xchacha_random_nonce_type() {
    use libaead::XChaCha20Poly1305RandomNonce as X;
    assert_eq!((X::NONCE_LEN, X::OVERHEAD), (24, 40));
    let key = [0x61u8; 32];
    let x = X::new(&key.into());
    let theirs = chacha20poly1305::XChaCha20Poly1305::new(&key.into());
    let sealed = x.encrypt(&Default::default(), Payload { msg: b"random 192", aad: b"ad" }).unwrap();
    assert_eq!(sealed.len(), 10 + 40);
    let n = Nonce::<chacha20poly1305::XChaCha20Poly1305>::try_from(&sealed[..24]).unwrap();
    assert_eq!(theirs.decrypt(&n, Payload { msg: &sealed[24..], aad: b"ad" }).unwrap(), b"random 192");
    // theirs under a nonce of our layout opens with ours
    let mut boxed = n.to_vec();
    boxed.extend(theirs.encrypt(&n, Payload { msg: b"back", aad: b"" }).unwrap());
    assert_eq!(x.open(b"", &boxed).unwrap(), b"back");
    let mut buf = b"in place".to_vec();
    buf.resize(8 + 40, 0);
    assert_eq!(x.seal_in_place(b"", &mut buf, 8), Ok(48));
    assert_eq!(x.open_in_place(b"", &mut buf), Ok(8));
    assert_eq!(&buf[..8], b"in place");
    assert_eq!(x.open(b"", &sealed[..39]), Err(Error::Auth));
    fn send_sync<T: Send + Sync>() {}
    send_sync::<X>();
    send_sync::<libaead::Aes128Ccm<U16, U13>>();
    send_sync::<libaead::Aes256Ocb3>();
    send_sync::<libaead::Aes128GcmSiv>();
    send_sync::<libaead::XChaCha20Poly1305>();
}

#[test]
fn tls_ccm() {
    // TLS_AES_128_CCM_SHA256 (TLS 1.3) and RFC 6655 (TLS 1.2 salt || explicit counter): records
    // equal ccm's with the policy's nonce; a reused sequence is refused and writes nothing.
    use libaead::{tls12_gcm_nonce, tls13_nonce, Tls12Aead, Tls13Aead};
    type Ref = ccm::Ccm<aes::Aes128, U16, U12>;
    let key = [0x71u8; 16];
    let theirs = Ref::new(&key.into());
    let iv = [0x0fu8; 12];
    let t13 = Tls13Aead::with_iv(Algorithm::Aes128Ccm, &key, &iv).unwrap();
    let hdr = [23, 3, 3, 0, 21];
    for seq in [0u64, 1, 7] {
        let n = tls13_nonce(&iv, seq);
        let rec = t13.seal(&n, &hdr, b"hello").unwrap();
        assert_eq!(rec, theirs.encrypt(&n.into(), Payload { msg: b"hello", aad: &hdr }).unwrap(), "seq {seq}");
        assert_eq!(t13.open(&n, &hdr, &rec).unwrap(), b"hello");
    }
    let mut out = [0x33u8; 21];
    assert_eq!(t13.seal_into(&tls13_nonce(&iv, 7), &hdr, b"again", &mut out), Err(Error::NonceOrder));
    assert_eq!(out, [0x33u8; 21]);

    let salt = [1u8, 2, 3, 4];
    let t12 = Tls12Aead::with_iv(Algorithm::Aes128Ccm, &key, &salt).unwrap();
    let aad = [0u8; 13];
    for seq in [0u64, 5] {
        let n = tls12_gcm_nonce(&salt, seq);
        let rec = t12.seal(&n, &aad, b"tls12 ccm").unwrap();
        assert_eq!(rec, theirs.encrypt(&n.into(), Payload { msg: b"tls12 ccm", aad: &aad }).unwrap());
    }
    assert_eq!(t12.seal(&tls12_gcm_nonce(&salt, 5), &aad, b"x"), Err(Error::NonceOrder));
}
