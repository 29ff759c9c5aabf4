//! API contract tests: errors and their codes, sizes, buffers, never-partial-output, library info.
mod common;

use aead::inout::InOutBuf;
use aead::{Aead, AeadInOut, KeyInit, Payload};
use common::{reference_seal, Rng, ALGS};
use libaead::{sys, Aes128Gcm, Aes256Gcm, Algorithm, ChaCha20Poly1305, Cipher, Error, Policy};

#[test]
fn library_identity() {
    assert_eq!(libaead::abi_version(), sys::AEAD_ABI_VERSION);
    let v = libaead::version();
    assert!(v.starts_with("libaead "), "version text: {v:?}");
    assert!(v.contains("OpenSSL"), "version text: {v:?}");
    for (alg, key) in [
        (Algorithm::Aes128Gcm, 16),
        (Algorithm::Aes192Gcm, 24),
        (Algorithm::Aes256Gcm, 32),
        (Algorithm::ChaCha20Poly1305, 32),
    ] {
        assert_eq!((alg.key_size(), alg.nonce_size(), alg.tag_size()), (key, 12, 16), "{alg:?}");
    }
}

#[test]
fn error_codes_round_trip_and_describe() {
    let all = [
        Error::Auth,
        Error::Arg,
        Error::KeySize,
        Error::NonceSize,
        Error::TagSize,
        Error::AadSize,
        Error::TooLong,
        Error::BufferTooSmall,
        Error::Overlap,
        Error::NonceOrder,
        Error::NonceExhausted,
        Error::NoncePrefix,
        Error::Unsupported,
        Error::NoMem,
        Error::Crypto,
        Error::NonceLimit,
        Error::Forked,
        Error::KeyLimit,
    ];
    let mut descs = std::collections::HashSet::new();
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.code(), -(i as i64) - 1);
        assert_eq!(Error::from_code(e.code()), *e);
        assert!(!e.description().is_empty());
        assert!(descs.insert(e.description()), "duplicate description {}", e.description());
        assert!(e.to_string().contains(e.description()));
    }
    assert_eq!(Error::from_code(-99), Error::Unknown(-99));
    assert_eq!(Error::Unknown(-99).code(), -99);
    assert_eq!(Error::from_code(i64::MIN), Error::Unknown(i64::MIN));
    assert_eq!(Error::Forked.code(), i64::from(sys::AEAD_ERR_FORKED));
    assert!(Error::Forked.description().to_lowercase().contains("fork"), "{}", Error::Forked);
    let misuse: Vec<_> = all.iter().filter(|e| e.is_nonce_misuse()).collect();
    assert_eq!(misuse, [&Error::AadSize, &Error::NonceOrder, &Error::NonceExhausted, &Error::NoncePrefix]);
    let _: aead::Error = Error::Auth.into();
}

#[test]
fn constructor_errors() {
    assert_eq!(Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[0; 15], 16).unwrap_err(), Error::KeySize);
    assert_eq!(Cipher::new(Algorithm::Aes256Gcm, Policy::None, &[], 16).unwrap_err(), Error::KeySize);
    assert_eq!(Cipher::new(Algorithm::ChaCha20Poly1305, Policy::None, &[0; 16], 16).unwrap_err(), Error::KeySize);
    for tag in [1, 2, 3, 5, 6, 7, 9, 10, 11, 17, 32] {
        assert_eq!(Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[0; 16], tag).unwrap_err(), Error::TagSize, "{tag}");
    }
    for tag in [4, 8, 12, 13, 14, 15, 16, 0] {
        let c = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[0; 16], tag).unwrap();
        assert_eq!(c.tag_len(), if tag == 0 { 16 } else { tag });
    }
    assert_eq!(Cipher::new(Algorithm::ChaCha20Poly1305, Policy::None, &[0; 32], 12).unwrap_err(), Error::TagSize);
    assert_eq!(Cipher::new(Algorithm::Aes128Gcm, Policy::Tls13, &[0; 16], 12).unwrap_err(), Error::TagSize);
    assert_eq!(Cipher::new(Algorithm::Aes128Gcm, Policy::Tls12, &[0; 16], 8).unwrap_err(), Error::TagSize);
    // RustCrypto KeyInit length check
    assert!(Aes128Gcm::new_from_slice(&[0; 32]).is_err());
    assert!(Aes256Gcm::new_from_slice(&[0; 32]).is_ok());
    let c = Cipher::new(Algorithm::Aes192Gcm, Policy::Tls13, &[1; 24], 0).unwrap();
    assert_eq!((c.algorithm(), c.policy(), c.tag_len()), (Algorithm::Aes192Gcm, Policy::Tls13, 16));
}

#[test]
fn nonce_size_errors() {
    let gcm = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[0; 16], 16).unwrap();
    let chacha = Cipher::new(Algorithm::ChaCha20Poly1305, Policy::None, &[0; 32], 16).unwrap();
    let mut out = [0u8; 64];
    assert_eq!(gcm.seal_into(&[], b"", b"x", &mut out), Err(Error::NonceSize));
    assert_eq!(gcm.seal_into(&[0; 129], b"", b"x", &mut out), Err(Error::NonceSize));
    assert_eq!(gcm.seal_into(&[0; 1], b"", b"x", &mut out), Ok(17));
    assert_eq!(gcm.seal_into(&[0; 128], b"", b"x", &mut out), Ok(17));
    for n in [0, 8, 11, 13, 24] {
        assert_eq!(chacha.seal_into(&vec![0; n], b"", b"x", &mut out), Err(Error::NonceSize), "{n}");
        assert_eq!(chacha.open_into(&vec![0; n], b"", &[0; 17], &mut out), Err(Error::NonceSize), "{n}");
    }
    let tls = Cipher::new(Algorithm::Aes128Gcm, Policy::Tls12, &[0; 16], 16).unwrap();
    assert_eq!(tls.seal_into(&[0; 16], &[0; 13], b"x", &mut out), Err(Error::NonceSize));
}

#[test]
fn buffers_too_small_write_nothing() {
    let c = Cipher::new(Algorithm::Aes256Gcm, Policy::None, &[3; 32], 16).unwrap();
    let nonce = [5u8; 12];
    let msg = [7u8; 40];
    for cap in [0, 1, 40, 55] {
        let mut out = vec![0xccu8; cap];
        assert_eq!(c.seal_into(&nonce, b"a", &msg, &mut out), Err(Error::BufferTooSmall), "{cap}");
        assert!(out.iter().all(|&b| b == 0xcc));
    }
    let sealed = c.seal(&nonce, b"a", &msg).unwrap();
    let mut out = vec![0xccu8; 39];
    assert_eq!(c.open_into(&nonce, b"a", &sealed, &mut out), Err(Error::BufferTooSmall));
    assert!(out.iter().all(|&b| b == 0xcc));
    // larger buffers are fine; the rest of them is untouched
    let mut out = vec![0xccu8; 100];
    assert_eq!(c.seal_into(&nonce, b"a", &msg, &mut out), Ok(56));
    assert_eq!(&out[..56], &sealed[..]);
    assert!(out[56..].iter().all(|&b| b == 0xcc));
    // in place: no room for the tag, or a length beyond the slice
    let mut buf = msg.to_vec();
    assert_eq!(c.seal_in_place(&nonce, b"a", &mut buf, 40), Err(Error::BufferTooSmall));
    assert_eq!(buf, msg);
    assert_eq!(c.seal_in_place(&nonce, b"a", &mut buf, 41), Err(Error::Arg));
}

#[test]
fn empty_message_and_aad() {
    for alg in ALGS {
        let key = vec![0x42; common::key_len(alg)];
        let c = Cipher::new(alg, Policy::None, &key, 16).unwrap();
        let nonce = [0u8; 12];
        let sealed = c.seal(&nonce, b"", b"").unwrap();
        assert_eq!(sealed, reference_seal(alg, &key, &nonce, b"", b""));
        assert_eq!(c.open(&nonce, b"", &sealed).unwrap(), b"");
        let mut out: [u8; 0] = [];
        assert_eq!(c.open_into(&nonce, b"", &sealed, &mut out), Ok(0));
        // shorter than a tag: authentication failure
        for short in [0usize, 1, 15] {
            assert_eq!(c.open(&nonce, b"", &sealed[..short]), Err(Error::Auth), "{alg:?} {short}");
        }
    }
    let c = ChaCha20Poly1305::new(&[1u8; 32].into());
    let mut tag_only = Vec::new();
    c.encrypt_in_place(&[0u8; 12].into(), b"", &mut tag_only).unwrap();
    assert_eq!(tag_only.len(), 16);
    let t = c.encrypt_inout_detached(&[0u8; 12].into(), b"", (&mut [][..]).into()).unwrap();
    assert_eq!(&t[..], &tag_only[..]);
    c.decrypt_inout_detached(&[0u8; 12].into(), b"", (&mut [][..]).into(), &t).unwrap();
}

/// A fixed-capacity aead::Buffer, like arrayvec::ArrayVec.
struct Fixed<const N: usize> {
    data: [u8; N],
    len: usize,
}
impl<const N: usize> AsRef<[u8]> for Fixed<N> {
    fn as_ref(&self) -> &[u8] {
        &self.data[..self.len]
    }
}
impl<const N: usize> AsMut<[u8]> for Fixed<N> {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.data[..self.len]
    }
}
impl<const N: usize> aead::Buffer for Fixed<N> {
    fn extend_from_slice(&mut self, other: &[u8]) -> aead::Result<()> {
        let end = self.len + other.len();
        if end > N {
            return Err(aead::Error);
        }
        self.data[self.len..end].copy_from_slice(other);
        self.len = end;
        Ok(())
    }
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

#[test]
fn fixed_capacity_buffer() {
    let key = [8u8; 16];
    let c = Aes128Gcm::new(&key.into());
    let nonce = [2u8; 12];
    // too small to grow by the tag: refused, unchanged
    let mut b = Fixed::<64> { data: [1; 64], len: 60 };
    assert!(c.encrypt_in_place(&nonce.into(), b"x", &mut b).is_err());
    assert_eq!((b.len, &b.data[..]), (60, &[1u8; 64][..]));
    // fits exactly
    let mut b = Fixed::<64> { data: [1; 64], len: 48 };
    c.encrypt_in_place(&nonce.into(), b"x", &mut b).unwrap();
    assert_eq!(b.as_ref(), &reference_seal(Algorithm::Aes128Gcm, &key, &nonce, b"x", &[1; 48])[..]);
    c.decrypt_in_place(&nonce.into(), b"x", &mut b).unwrap();
    assert_eq!(b.as_ref(), &[1u8; 48][..]);
}

#[test]
fn detached_paths_stack_and_heap_boundaries() {
    let rng = &mut Rng::from_env("detached");
    let key: [u8; 32] = rng.array();
    let c = Aes256Gcm::new(&key.into());
    for len in [0, 1, 4095, 4096, 4097, 70_000] {
        let nonce: [u8; 12] = rng.array();
        let msg = rng.bytes(len);
        let want = reference_seal(Algorithm::Aes256Gcm, &key, &nonce, b"hdr", &msg);
        let mut buf = msg.clone();
        let tag = c.encrypt_inout_detached(&nonce.into(), b"hdr", buf.as_mut_slice().into()).unwrap();
        assert_eq!(&buf[..], &want[..len], "{len}");
        assert_eq!(&tag[..], &want[len..], "{len}");
        let mut out = vec![0u8; len];
        c.decrypt_inout_detached(&nonce.into(), b"hdr", InOutBuf::new(&buf, &mut out).unwrap(), &tag).unwrap();
        assert_eq!(out, msg, "{len}");
        c.decrypt_inout_detached(&nonce.into(), b"hdr", buf.as_mut_slice().into(), &tag).unwrap();
        assert_eq!(buf, msg, "{len}");
        // Vec-based trait path
        let ct = c.encrypt(&nonce.into(), Payload { msg: &msg, aad: b"hdr" }).unwrap();
        assert_eq!(ct, want);
    }
}

#[test]
fn cipher_vec_and_append_apis() {
    let c = Cipher::new(Algorithm::ChaCha20Poly1305, Policy::None, &[4; 32], 0).unwrap();
    let nonce = [6u8; 12];
    let mut out = b"prefix".to_vec();
    assert_eq!(c.seal_append(&nonce, b"ad", b"payload", &mut out), Ok(7 + 16));
    assert_eq!(&out[..6], b"prefix");
    assert_eq!(&out[6..], &reference_seal(Algorithm::ChaCha20Poly1305, &[4; 32], &nonce, b"ad", b"payload")[..]);
    let mut pt = b"pt:".to_vec();
    assert_eq!(c.open_append(&nonce, b"ad", &out[6..], &mut pt), Ok(7));
    assert_eq!(pt, b"pt:payload");
    let mut bad = out[6..].to_vec();
    bad[3] ^= 1;
    let mut pt = b"pt:".to_vec();
    assert_eq!(c.open_append(&nonce, b"ad", &bad, &mut pt), Err(Error::Auth));
    assert_eq!(pt, b"pt:");
}

#[test]
fn display_of_auth_error_uses_strerror() {
    let c = Aes128Gcm::new(&[0u8; 16].into());
    let err = c.cipher().open(&[0; 12], b"", &[0; 16]).unwrap_err();
    assert_eq!(err, Error::Auth);
    let text = err.to_string();
    assert!(text.starts_with("libaead error -1: "), "{text}");
    assert_eq!(text.len(), "libaead error -1: ".len() + Error::Auth.description().len());
}

/// The usage snippet of README.md, verbatim apart from the final checks.
#[test]
fn readme_usage() -> Result<(), Box<dyn std::error::Error>> {
    use libaead::{counter_nonce, tls13_nonce, Aes128GcmSsh, Aes256GcmCounterNonce, Aes256GcmRandomNonce, Tls13Aead};

    // RustCrypto traits
    let cipher = Aes256Gcm::new(&[7u8; 32].into());
    let nonce = [1u8; 12].into();
    let ct = cipher.encrypt(&nonce, Payload { msg: b"hello", aad: b"hdr" }).map_err(|_| "encrypt")?; // ct || tag
    let pt = cipher.decrypt(&nonce, Payload { msg: &ct, aad: b"hdr" }).map_err(|_| "decrypt")?;

    // zero-copy, typed errors
    let mut out = [0u8; 5 + 16];
    let n = cipher.seal_into(&nonce, b"hdr", b"hello", &mut out)?;

    // any nonce length / truncated tag
    let gcm = Cipher::new(Algorithm::Aes128Gcm, Policy::None, &[0u8; 16], 12)?;
    let sealed = gcm.seal(&[9u8; 16], b"", b"msg")?;

    // TLS 1.3 records, IV given up front: the library refuses reused or decreasing sequences
    let iv = [3u8; 12];
    let tls = Tls13Aead::with_iv(Algorithm::Aes128Gcm, &[0u8; 16], &iv)?;
    let hdr = [23, 3, 3, 0, 21]; // 5-byte record header = AAD
    let rec0 = tls.seal(&tls13_nonce(&iv, 0), &hdr, b"hello")?;
    assert_eq!(tls.seal(&tls13_nonce(&iv, 0), &hdr, b"again"), Err(Error::NonceOrder));
    let rec1 = tls.seal(&tls13_nonce(&iv, 1), &hdr, b"world")?;
    let ind = tls.indicator(); // FIPS: ind.seal_approved() under a FIPS provider
    println!("{} {}", tls.provider(), ind.fips_provider());

    // random nonces (Go's NewGCMWithRandomNonce layout): nonce || ciphertext || tag
    let rn = Aes256GcmRandomNonce::new(&[7u8; 32].into());
    let boxed = rn.seal(b"hdr", b"hello")?; // 5 + 28 bytes
    assert_eq!(rn.open(b"hdr", &boxed)?, b"hello");

    // counter nonces (Go's NewGCMWithCounterNonce): fixed(4) || BE64(start + n), n must rise
    let civ = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]; // fixed || BE64(start), or learned with `new`
    let ctr = Aes256GcmCounterNonce::with_iv(&[7u8; 32].into(), &civ)?;
    let m5 = ctr.seal(&counter_nonce(&civ, 5).into(), b"", b"gaps are fine")?;
    assert_eq!(ctr.seal(&counter_nonce(&civ, 5).into(), b"", b"again"), Err(Error::NonceOrder));

    // SSH (RFC 5647): AAD = the 4-byte packet length; seals counted toward RFC 4344's rekey point
    let ssh = Aes128GcmSsh::with_iv(&[5u8; 16].into(), &civ)?;
    let pkt = ssh.seal(&counter_nonce(&civ, 0).into(), &28u32.to_be_bytes(), b"payload")?;
    assert!(ssh.usage().seals < ssh.usage().rekey_after);

    assert_eq!(pt, b"hello");
    assert_eq!((n, &out[..]), (21, &ct[..]));
    assert_eq!(sealed.len(), 3 + 12);
    assert_eq!(tls.open(&tls13_nonce(&iv, 1), &hdr, &rec1)?, b"world");
    assert_eq!(tls.open(&tls13_nonce(&iv, 0), &hdr, &rec0)?, b"hello");
    assert_eq!(ctr.open(&counter_nonce(&civ, 5).into(), b"", &m5)?, b"gaps are fine");
    assert_eq!((pkt.len(), ssh.usage().seals, ssh.usage().rekey_after), (7 + 16, 1, 1 << 32));
    Ok(())
}
