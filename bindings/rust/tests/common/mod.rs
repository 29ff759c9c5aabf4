#![allow(dead_code)]

pub mod counter;
pub mod diff;
pub mod huge;
pub mod tls;
pub mod wycheproof;

mod vectors;
#[allow(unused_imports)] // not every test file reads vectors
pub use vectors::vectors_dir;

/// After a batch open in which only record `bad` was tampered with: that output is zeroed (never
/// partial plaintext) and every other one is its message.
pub fn assert_opened_but_one(plain: &[Vec<u8>], msgs: &[Vec<u8>], bad: usize) {
    assert_eq!(plain.len(), msgs.len());
    for (i, (p, m)) in plain.iter().zip(msgs).enumerate() {
        if i == bad {
            assert!(p.iter().all(|&b| b == 0), "a failed open zeroes its output");
        } else {
            assert_eq!(p, m, "record {i}");
        }
    }
}

pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// SplitMix64: small, deterministic, good enough for test inputs. The seed comes from
/// LIBAEAD_TEST_SEED or the clock, and is printed so that a failure can be replayed.
pub struct Rng(u64);

impl Rng {
    pub fn from_env(test: &str) -> Rng {
        let seed = std::env::var("LIBAEAD_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
            });
        eprintln!("{test}: LIBAEAD_TEST_SEED={seed}");
        Rng(seed)
    }
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Flips one random bit of `buf` (not empty) and returns its index.
    pub fn flip_bit(&mut self, buf: &mut [u8]) -> usize {
        let bit = self.below(buf.len() * 8);
        buf[bit / 8] ^= 1 << (bit % 8);
        bit
    }
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0; n];
        self.fill(&mut v);
        v
    }
    pub fn bytes_below(&mut self, n: usize) -> Vec<u8> {
        let len = self.below(n);
        self.bytes(len)
    }
    pub fn msg(&mut self) -> Vec<u8> {
        let len = self.msg_len();
        self.bytes(len)
    }
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0; N];
        self.fill(&mut a);
        a
    }
    /// A message length biased to edges: 0, block and tag boundaries, the detached stack limit.
    pub fn msg_len(&mut self) -> usize {
        const EDGES: [usize; 14] = [0, 1, 15, 16, 17, 31, 63, 64, 65, 255, 256, 4095, 4096, 4097];
        match self.below(4) {
            0 => EDGES[self.below(EDGES.len())],
            1 => self.below(20_000),
            _ => self.below(600),
        }
    }
}

/// `ciphertext || tag` from RustCrypto (the independent implementation) for a 12-byte nonce.
pub fn reference_seal(alg: libaead::Algorithm, key: &[u8], nonce: &[u8; 12], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    use aead::{Aead, KeyInit, Payload};
    use libaead::Algorithm;
    let n: aead::array::Array<u8, aead::consts::U12> = (*nonce).into();
    let p = Payload { msg, aad };
    match alg {
        Algorithm::Aes128Gcm => aes_gcm::Aes128Gcm::new_from_slice(key).unwrap().encrypt(&n, p),
        Algorithm::Aes192Gcm => aes_gcm::AesGcm::<aes_gcm::aes::Aes192, aead::consts::U12>::new_from_slice(key)
            .unwrap()
            .encrypt(&n, p),
        Algorithm::Aes256Gcm => aes_gcm::Aes256Gcm::new_from_slice(key).unwrap().encrypt(&n, p),
        Algorithm::ChaCha20Poly1305 => {
            chacha20poly1305::ChaCha20Poly1305::new_from_slice(key).unwrap().encrypt(&n, p)
        }
        a => panic!("reference_seal: {a:?} (tests/families.rs covers the 1.2 families)"),
    }
    .unwrap()
}

/// The member of `family` whose key is `len` bytes (the files mix the key sizes of one family).
pub fn by_key_len(family: &[libaead::Algorithm], len: usize) -> libaead::Algorithm {
    *family.iter().find(|a| a.key_size() == len).unwrap_or_else(|| panic!("key length {len} in {family:?}"))
}

pub fn key_len(alg: libaead::Algorithm) -> usize {
    match alg {
        libaead::Algorithm::Aes128Gcm => 16,
        libaead::Algorithm::Aes192Gcm => 24,
        _ => 32,
    }
}

pub const ALGS: [libaead::Algorithm; 4] = [
    libaead::Algorithm::Aes128Gcm,
    libaead::Algorithm::Aes192Gcm,
    libaead::Algorithm::Aes256Gcm,
    libaead::Algorithm::ChaCha20Poly1305,
];
