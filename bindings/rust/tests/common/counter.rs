//! The counter-nonce types (library 1.5) through one interface, for tests/counter.rs and
//! tests/fork.rs.
use super::Rng;
use aead::consts::{U12, U16};
use aead::{AeadInOut, KeyInit};
use libaead::{
    counter_nonce, xor_counter_nonce, Aes128GcmCounterNonce, Aes128GcmSsh, Aes128GcmXorCounterNonce, Aes192GcmCounterNonce,
    Aes192GcmXorCounterNonce, Aes256GcmCounterNonce, Aes256GcmSsh, Aes256GcmXorCounterNonce, Algorithm, Cipher,
    ChaCha20Poly1305CounterNonce, ChaCha20Poly1305XorCounterNonce, Error, Policy,
};

/// A packet length, SSH's 4-byte AAD.
pub const SSH_AAD: [u8; 4] = [0, 0, 0, 0x20];

/// The counter types through one interface, so that every test runs on each of them.
pub trait CounterAead: KeyInit + AeadInOut<NonceSize = U12, TagSize = U16> + Sync {
    const ALG: Algorithm;
    const POLICY: Policy;
    fn with_iv_(key: &[u8], iv: &[u8; 12]) -> Result<Self, Error>;
    fn seal_into_(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn seal_(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error>;
    fn seal_slice_(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error>;
    fn open_(&self, nonce: &[u8; 12], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error>;
    fn open_slice_(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Result<usize, Error>;
    fn cipher_(&self) -> &Cipher;

    /// Message `n`'s nonce under `iv` (the first nonce, or the IV given).
    fn nonce(iv: &[u8; 12], n: u64) -> [u8; 12] {
        match Self::POLICY {
            Policy::XorCounter => xor_counter_nonce(iv, n),
            _ => counter_nonce(iv, n),
        }
    }

    /// An AAD the policy takes: SSH's 4 bytes, else any length.
    fn aad(rng: &mut Rng) -> Vec<u8> {
        match Self::POLICY {
            Policy::Ssh => rng.bytes(4),
            _ => rng.bytes_below(64),
        }
    }
}

macro_rules! counter_aead {
    ($($t:ty: $alg:expr, $policy:expr;)*) => {$(
        impl CounterAead for $t {
            const ALG: Algorithm = $alg;
            const POLICY: Policy = $policy;
            fn with_iv_(key: &[u8], iv: &[u8; 12]) -> Result<Self, Error> {
                Self::with_iv(key.try_into().unwrap(), iv)
            }
            fn seal_into_(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                self.seal_into(nonce.into(), aad, pt, out)
            }
            fn seal_(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
                self.seal(nonce.into(), aad, pt)
            }
            fn seal_slice_(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], len: usize) -> Result<usize, Error> {
                self.seal_in_place_slice(nonce.into(), aad, buf, len)
            }
            fn open_(&self, nonce: &[u8; 12], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
                self.open(nonce.into(), aad, ct)
            }
            fn open_slice_(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
                self.open_in_place_slice(nonce.into(), aad, buf)
            }
            fn cipher_(&self) -> &Cipher {
                self.cipher()
            }
        }
    )*};
}

counter_aead! {
    Aes128GcmCounterNonce: Algorithm::Aes128Gcm, Policy::Counter;
    Aes192GcmCounterNonce: Algorithm::Aes192Gcm, Policy::Counter;
    Aes256GcmCounterNonce: Algorithm::Aes256Gcm, Policy::Counter;
    ChaCha20Poly1305CounterNonce: Algorithm::ChaCha20Poly1305, Policy::Counter;
    Aes128GcmXorCounterNonce: Algorithm::Aes128Gcm, Policy::XorCounter;
    Aes192GcmXorCounterNonce: Algorithm::Aes192Gcm, Policy::XorCounter;
    Aes256GcmXorCounterNonce: Algorithm::Aes256Gcm, Policy::XorCounter;
    ChaCha20Poly1305XorCounterNonce: Algorithm::ChaCha20Poly1305, Policy::XorCounter;
    Aes128GcmSsh: Algorithm::Aes128Gcm, Policy::Ssh;
    Aes256GcmSsh: Algorithm::Aes256Gcm, Policy::Ssh;
}
