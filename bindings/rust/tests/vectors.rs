//! Known-answer tests: Wycheproof (AES-GCM v1 and legacy v0, ChaCha20-Poly1305) and NIST CAVP GCM,
//! read from the conformance vectors (tests/vectors.py; common::vectors_dir). A missing directory fails.
mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use common::{by_key_len, hex, vectors_dir};
use libaead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Algorithm, ChaCha20Poly1305, Cipher, Error, Policy};
use serde_json::Value;

fn load_json(rel: &str) -> Value {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn gcm_alg(key_len: usize) -> Algorithm {
    by_key_len(&[Algorithm::Aes128Gcm, Algorithm::Aes192Gcm, Algorithm::Aes256Gcm], key_len)
}

/// Checks one 12-byte-nonce case through the RustCrypto traits of a typed cipher.
fn typed_case<T: KeyInit + AeadInOut>(key: &[u8], iv: &[u8], aad: &[u8], msg: &[u8], ct_tag: &[u8], valid: bool, id: &str) {
    let c = T::new_from_slice(key).unwrap();
    let nonce = aead::Nonce::<T>::try_from(iv).unwrap();
    let sealed = c.encrypt(&nonce, Payload { msg, aad }).unwrap();
    assert_eq!(sealed == ct_tag, valid, "{id}: typed encrypt");
    let opened = c.decrypt(&nonce, Payload { msg: ct_tag, aad });
    if valid {
        assert_eq!(opened.as_deref(), Ok(msg), "{id}: typed decrypt");
        // detached, out of place
        let (ct, tag) = ct_tag.split_at(ct_tag.len() - 16);
        let mut out = vec![0u8; ct.len()];
        let tag = aead::Tag::<T>::try_from(tag).unwrap();
        c.decrypt_inout_detached(&nonce, aad, aead::inout::InOutBuf::new(ct, &mut out).unwrap(), &tag).unwrap();
        assert_eq!(out, msg, "{id}: detached decrypt");
    } else {
        assert_eq!(opened, Err(aead::Error), "{id}: typed decrypt of an invalid case");
    }
}

/// Runs a Wycheproof AEAD file; returns the number of cases checked.
fn run_wycheproof(rel: &str, chacha: bool) -> (usize, usize) {
    let v = load_json(rel);
    let expected = v["numberOfTests"].as_u64().unwrap() as usize;
    let mut n = 0;
    let (mut valid_n, mut invalid_n, mut long_iv) = (0, 0, 0);
    for g in v["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            n += 1;
            let id = format!("{rel} tcId {}", t["tcId"]);
            let key = hex(t["key"].as_str().unwrap());
            let iv = hex(t["iv"].as_str().unwrap());
            let aad = hex(t["aad"].as_str().unwrap());
            let msg = hex(t["msg"].as_str().unwrap());
            let mut ct_tag = hex(t["ct"].as_str().unwrap());
            ct_tag.extend(hex(t["tag"].as_str().unwrap()));
            let valid = match t["result"].as_str().unwrap() {
                "valid" | "acceptable" => true,
                "invalid" => false,
                r => panic!("{id}: result {r}"),
            };
            if valid { valid_n += 1 } else { invalid_n += 1 }
            let alg = if chacha { Algorithm::ChaCha20Poly1305 } else { gcm_alg(key.len()) };
            let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
            let c = Cipher::new(alg, Policy::None, &key, tag_len).unwrap();
            let nonce_ok = if chacha { iv.len() == 12 } else { (1..=128).contains(&iv.len()) };
            if !nonce_ok {
                // Zero-length nonces are invalid cases. AES-GCM nonces over 128 bytes are valid GCM
                // but outside the library's documented range (aead.h: 1..128, OpenSSL 3 refuses
                // longer): both must be refused with NonceSize, never sealed or opened.
                if iv.is_empty() || chacha {
                    assert!(!valid, "{id}: a valid case with a nonce the library refuses");
                } else {
                    assert!(iv.len() > 128, "{id}");
                    long_iv += 1;
                }
                assert_eq!(c.seal(&iv, &aad, &msg), Err(Error::NonceSize), "{id}");
                assert_eq!(c.open(&iv, &aad, &ct_tag), Err(Error::NonceSize), "{id}");
                continue;
            }
            let sealed = c.seal(&iv, &aad, &msg).unwrap();
            assert_eq!(sealed == ct_tag, valid, "{id}: seal");
            let opened = c.open(&iv, &aad, &ct_tag);
            if valid {
                assert_eq!(opened.as_deref(), Ok(&msg[..]), "{id}: open");
                // in place
                let mut buf = ct_tag.clone();
                let m = c.open_in_place(&iv, &aad, &mut buf).unwrap();
                assert_eq!(&buf[..m], &msg[..], "{id}: open_in_place");
            } else {
                assert_eq!(opened, Err(Error::Auth), "{id}: open of an invalid case");
                // never a partial output: the written part is zeroed
                let mut out = vec![0xa5u8; ct_tag.len().saturating_sub(16)];
                assert_eq!(c.open_into(&iv, &aad, &ct_tag, &mut out), Err(Error::Auth));
                assert!(out.iter().all(|&b| b == 0), "{id}: output not zeroed after Auth");
            }
            if iv.len() == 12 && tag_len == 16 {
                match alg {
                    Algorithm::Aes128Gcm => typed_case::<Aes128Gcm>(&key, &iv, &aad, &msg, &ct_tag, valid, &id),
                    Algorithm::Aes192Gcm => typed_case::<Aes192Gcm>(&key, &iv, &aad, &msg, &ct_tag, valid, &id),
                    Algorithm::Aes256Gcm => typed_case::<Aes256Gcm>(&key, &iv, &aad, &msg, &ct_tag, valid, &id),
                    Algorithm::ChaCha20Poly1305 => {
                        typed_case::<ChaCha20Poly1305>(&key, &iv, &aad, &msg, &ct_tag, valid, &id)
                    }
                    a => unreachable!("{a:?}: this file runs AES-GCM and ChaCha20-Poly1305 only"),
                }
            }
        }
    }
    assert_eq!(n, expected, "{rel}: numberOfTests");
    assert!(valid_n > 0 && invalid_n > 0);
    eprintln!(
        "{rel}: {n} cases ({valid_n} valid/acceptable, {invalid_n} invalid; {long_iv} with nonces over 128 bytes checked as refused)"
    );
    (n, long_iv)
}

#[test]
fn wycheproof_aes_gcm() {
    assert_eq!(run_wycheproof("wycheproof/aes_gcm_test.json", false), (316, 3));
}

#[test]
fn wycheproof_aes_gcm_legacy_acceptable() {
    assert_eq!(run_wycheproof("wycheproof/legacy/aes_gcm_test.json", false), (256, 3));
}

#[test]
fn wycheproof_chacha20_poly1305() {
    assert_eq!(run_wycheproof("wycheproof/chacha20_poly1305_test.json", true), (325, 0));
}

/// One CAVP case: the fields of a block plus the section's tag length.
#[derive(Default)]
struct Cavp {
    tag_bits: usize,
    key: Vec<u8>,
    iv: Vec<u8>,
    pt: Option<Vec<u8>>,
    aad: Vec<u8>,
    ct: Vec<u8>,
    tag: Vec<u8>,
    fail: bool,
}

fn parse_cavp(rel: &str) -> Vec<Cavp> {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = Vec::new();
    let mut tag_bits = 0;
    let mut cur: Option<Cavp> = None;
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("[Taglen = ") {
            tag_bits = v.trim_end_matches(']').trim().parse().unwrap();
            continue;
        }
        if line == "FAIL" {
            cur.as_mut().unwrap().fail = true;
            continue;
        }
        let Some((k, v)) = line.split_once('=') else { continue };
        let (k, v) = (k.trim(), v.trim());
        if k == "Count" {
            if let Some(c) = cur.take() {
                cases.push(c);
            }
            cur = Some(Cavp { tag_bits, ..Default::default() });
            continue;
        }
        let Some(c) = cur.as_mut() else { continue };
        match k {
            "Key" => c.key = hex(v),
            "IV" => c.iv = hex(v),
            "PT" => c.pt = Some(hex(v)),
            "AAD" => c.aad = hex(v),
            "CT" => c.ct = hex(v),
            "Tag" => c.tag = hex(v),
            _ => {}
        }
    }
    cases.extend(cur);
    cases
}

fn run_cavp(bits: usize) {
    let enc = parse_cavp(&format!("nist-cavp/gcmEncryptExtIV{bits}.rsp"));
    assert_eq!(enc.len(), 7875);
    for (i, c) in enc.iter().enumerate() {
        assert_eq!(c.key.len() * 8, bits);
        let cipher = Cipher::new(gcm_alg(c.key.len()), Policy::None, &c.key, c.tag_bits / 8).unwrap();
        let sealed = cipher.seal(&c.iv, &c.aad, c.pt.as_ref().unwrap()).unwrap();
        let mut expect = c.ct.clone();
        expect.extend(&c.tag);
        assert_eq!(sealed, expect, "encrypt {bits} case {i}");
    }
    let dec = parse_cavp(&format!("nist-cavp/gcmDecrypt{bits}.rsp"));
    assert_eq!(dec.len(), 7875);
    let mut fails = 0;
    for (i, c) in dec.iter().enumerate() {
        let cipher = Cipher::new(gcm_alg(c.key.len()), Policy::None, &c.key, c.tag_bits / 8).unwrap();
        let mut input = c.ct.clone();
        input.extend(&c.tag);
        let r = cipher.open(&c.iv, &c.aad, &input);
        if c.fail {
            fails += 1;
            assert_eq!(r, Err(Error::Auth), "decrypt {bits} case {i} must fail");
        } else {
            assert_eq!(r.as_ref(), Ok(c.pt.as_ref().unwrap()), "decrypt {bits} case {i}");
        }
    }
    let expected_fails = match bits {
        128 => 4011,
        192 => 3978,
        _ => 3919,
    };
    assert_eq!(fails, expected_fails);
    eprintln!("nist-cavp/gcmEncryptExtIV{bits}.rsp: 7875 cases sealed as expected");
    eprintln!("nist-cavp/gcmDecrypt{bits}.rsp: 7875 cases: {} authentic opened, {fails} FAIL rejected", 7875 - fails);
}

#[test]
fn nist_cavp_gcm_128() {
    run_cavp(128);
}

#[test]
fn nist_cavp_gcm_192() {
    run_cavp(192);
}

#[test]
fn nist_cavp_gcm_256() {
    run_cavp(256);
}
