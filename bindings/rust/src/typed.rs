//! The RustCrypto-trait types with fixed sizes: AES-GCM and ChaCha20-Poly1305 (12-byte nonce),
//! XChaCha20-Poly1305 (24-byte nonce), 16-byte tag, policy NONE.
use crate::{Algorithm, Cipher, Error, Policy};
use aead::consts::{U12, U16, U24, U32};
use aead::Key;

macro_rules! aead_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty, $nonce:ty, $nonce_len:literal) => {
        $(#[$doc])*
        ///
        #[doc = concat!("Implements [`KeyInit`](aead::KeyInit), [`AeadCore`](aead::AeadCore) (", $nonce_len, "-byte nonce, 16-byte postfix tag) and")]
        /// [`AeadInOut`](aead::AeadInOut) (hence `aead::Aead` with the default `alloc` feature). `Send + Sync`: one instance
        /// may be used from any number of threads at once. Every operation is one C call:
        /// `encrypt_in_place` / `decrypt_in_place` (and therefore `Aead::encrypt/decrypt`) work
        /// directly in the buffer; the detached-tag methods use a scratch buffer as described
        /// on [`Cipher`]. A failed decryption zeroes the written output (also in place).
        pub struct $name {
            inner: Cipher,
        }

        impl $name {
            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Ok($name { inner: Cipher::new($alg, Policy::None, key.as_slice(), 16)? })
            }

            /// The underlying [`Cipher`] (same context): zero-copy `seal_into`/`open_into`
            /// with typed errors (and AES-GCM nonces of 1..=128 bytes).
            pub fn cipher(&self) -> &Cipher {
                &self.inner
            }

            #[inline(always)]
            fn ctx(&self) -> Result<&Cipher, Error> {
                Ok(&self.inner)
            }
        }

        key_init!($name, $key);
        aead_inout!([] $name, $nonce, U16);
    };
}

aead_type!(
    /// AES-128-GCM through libaead (16-byte key).
    Aes128Gcm, Algorithm::Aes128Gcm, U16, U12, "12"
);
aead_type!(
    /// AES-192-GCM through libaead (24-byte key).
    Aes192Gcm, Algorithm::Aes192Gcm, U24, U12, "12"
);
aead_type!(
    /// AES-256-GCM through libaead (32-byte key).
    Aes256Gcm, Algorithm::Aes256Gcm, U32, U12, "12"
);
aead_type!(
    /// ChaCha20-Poly1305 (RFC 8439) through libaead (32-byte key).
    ChaCha20Poly1305, Algorithm::ChaCha20Poly1305, U32, U12, "12"
);
aead_type!(
    /// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha, library 1.2) through libaead (32-byte key,
    /// 24-byte nonce), as `chacha20poly1305::XChaCha20Poly1305`: HChaCha20 subkey from the first 16
    /// nonce bytes, then ChaCha20-Poly1305, built from OpenSSL's primitives. Byte-compatible with
    /// libsodium's `crypto_aead_xchacha20poly1305_ietf` and Go's `chacha20poly1305.NewX`. Not in
    /// FIPS providers.
    XChaCha20Poly1305, Algorithm::XChaCha20Poly1305, U32, U24, "24"
);
