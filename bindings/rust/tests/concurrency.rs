//! One object shared by 8 threads, every result verified against RustCrypto.
mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use common::{reference_seal, Rng};
use libaead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Algorithm, ChaCha20Poly1305, Cipher, Tls12Aead, Tls13Aead};

const THREADS: usize = 8;
const OPS: usize = 250;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn all_types_are_send_and_sync() {
    assert_send_sync::<Aes128Gcm>();
    assert_send_sync::<Aes192Gcm>();
    assert_send_sync::<Aes256Gcm>();
    assert_send_sync::<ChaCha20Poly1305>();
    assert_send_sync::<Cipher>();
    assert_send_sync::<Tls12Aead>();
    assert_send_sync::<Tls13Aead>();
}

fn hammer<T: KeyInit + AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16> + Sync>(
    alg: Algorithm,
    seed: u64,
) {
    let mut rng = Rng::new(seed);
    let key = rng.bytes(T::key_size());
    let shared = T::new_from_slice(&key).unwrap();
    let checked: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let shared = &shared;
                let key = &key;
                s.spawn(move || {
                    let mut rng = Rng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9));
                    for i in 0..OPS {
                        let nonce: [u8; 12] = rng.array();
                        let n = nonce.into();
                        let aad = rng.bytes_below(40);
                        let len = rng.below(3000);
                        let msg = rng.bytes(len);
                        let want = reference_seal(alg, key, &nonce, &aad, &msg);
                        let got = if i % 2 == 0 {
                            shared.encrypt(&n, Payload { msg: &msg, aad: &aad }).unwrap()
                        } else {
                            common::diff::seal_out_of_place(shared, &n, &aad, &msg)
                        };
                        assert_eq!(got, want, "{alg:?} thread {t} op {i}");
                        let back = shared.decrypt(&n, Payload { msg: &got, aad: &aad }).unwrap();
                        assert_eq!(back, msg);
                        let mut bad = got;
                        let j = i % bad.len();
                        bad[j] ^= 4;
                        assert!(shared.decrypt(&n, Payload { msg: &bad, aad: &aad }).is_err());
                    }
                    OPS
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(checked, THREADS * OPS);
}

#[test]
fn eight_threads_one_aes128_gcm() {
    hammer::<Aes128Gcm>(Algorithm::Aes128Gcm, Rng::from_env("conc-aes128").next_u64());
}

#[test]
fn eight_threads_one_aes256_gcm() {
    hammer::<Aes256Gcm>(Algorithm::Aes256Gcm, Rng::from_env("conc-aes256").next_u64());
}

#[test]
fn eight_threads_one_chacha20_poly1305() {
    hammer::<ChaCha20Poly1305>(Algorithm::ChaCha20Poly1305, Rng::from_env("conc-chacha").next_u64());
}

#[test]
fn eight_threads_one_object_moved_through_arc() {
    // Send: the object itself crosses threads (and is dropped on whichever finishes last).
    let key = [9u8; 24];
    let c = std::sync::Arc::new(Aes192Gcm::new(&key.into()));
    let hs: Vec<_> = (0..THREADS)
        .map(|t| {
            let c = c.clone();
            std::thread::spawn(move || {
                let nonce = [t as u8; 12];
                let msg = vec![t as u8; 100 + t];
                let ct = c.encrypt(&nonce.into(), &msg[..]).unwrap();
                assert_eq!(ct, reference_seal(Algorithm::Aes192Gcm, &key, &nonce, b"", &msg));
                assert_eq!(c.decrypt(&nonce.into(), &ct[..]).unwrap(), msg);
            })
        })
        .collect();
    drop(c);
    for h in hs {
        h.join().unwrap();
    }
}
