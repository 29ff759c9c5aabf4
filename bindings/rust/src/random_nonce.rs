//! AES-GCM with library-drawn random nonces (`AEAD_POLICY_RANDOM_NONCE`, ABI 1.1): Go's
//! `cipher.NewGCMWithRandomNonce` layout, `nonce(12) || ciphertext || tag(16)`.
use crate::cipher::RANDOM_NONCE_LEN;
use crate::{Algorithm, Cipher, Error, Policy};
use aead::consts::{U0, U16, U24, U32};
use aead::{AeadCore, Key, TagPosition};
#[cfg(feature = "alloc")]
use aead::{Aead, Nonce, Payload};

macro_rules! random_nonce_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty) => {
        $(#[$doc])*
        ///
        /// Seal takes no nonce: the library draws 96 random bits from the DRBG of the context's
        /// library context (the FIPS provider's under a FIPS configuration, IG C.H scenario 2)
        /// and writes `nonce(12) || ciphertext || tag(16)`, [`OVERHEAD`](Self::OVERHEAD) = 28
        /// bytes more than the plaintext. Open reads that layout. Byte-compatible with Go's
        /// `cipher.NewGCMWithRandomNonce` (`NonceSize() == 0`, `Overhead() == 28`) in both
        /// directions. After 2^32 seals (SP 800-38D section 8.3) seal returns
        /// [`Error::NonceLimit`]: make a new key.
        ///
        /// RustCrypto shape: [`KeyInit`](aead::KeyInit), [`AeadCore`] with `NonceSize = U0` (the caller passes
        /// the empty `Nonce::default()`), `TagSize = U16`, and `aead::Aead` directly (with the
        /// default `alloc` feature): its `encrypt`
        /// returns the whole `nonce || ciphertext || tag` and `decrypt` takes it. `AeadInOut`
        /// (detached tag, in-out buffers of the message length) is not implemented, since that
        /// layout has no place for the nonce.
        /// `Send + Sync`; every operation is one C call.
        pub struct $name {
            inner: Cipher,
        }

        impl $name {
            /// Bytes a seal adds: 12-byte nonce + 16-byte tag.
            pub const OVERHEAD: usize = RANDOM_NONCE_LEN + 16;
            /// Length of the nonce at the front of every sealed message.
            pub const NONCE_LEN: usize = RANDOM_NONCE_LEN;

            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Self::with_properties(key, None)
            }

            /// With an OpenSSL property query for the cipher fetch, e.g. `Some("fips=yes")`.
            pub fn with_properties(key: &Key<Self>, properties: Option<&str>) -> Result<Self, Error> {
                let inner = Cipher::with_options($alg, Policy::RandomNonce, key.as_slice(), 16, properties, &[])?;
                Ok($name { inner })
            }

            context_queries!();

            /// Seals into `out` (at least `plaintext.len() + 28` bytes): `nonce || ct || tag`.
            /// Returns the length written.
            #[inline]
            pub fn seal_into(&self, aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                self.inner.seal_into(&[], aad, plaintext, out)
            }

            /// Opens `nonce || ct || tag` into `out`; returns the plaintext length. Input shorter
            /// than 28 bytes, or a wrong tag, is [`Error::Auth`].
            #[inline]
            pub fn open_into(&self, aad: &[u8], sealed: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                self.inner.open_into(&[], aad, sealed, out)
            }

            /// Seals into a new `Vec`.
            pub fn seal(&self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
                self.inner.seal(&[], aad, plaintext)
            }

            /// Opens into a new `Vec`.
            pub fn open(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
                self.inner.open(&[], aad, sealed)
            }

            /// Seals `buf[..plaintext_len]` in place (`buf` needs 28 more bytes); afterwards
            /// `buf[..plaintext_len + 28]` is `nonce || ct || tag`. Moves the plaintext up by 12
            /// bytes first (one `memmove`); a refused seal leaves `buf` as it was.
            pub fn seal_in_place(&self, aad: &[u8], buf: &mut [u8], plaintext_len: usize) -> Result<usize, Error> {
                self.inner.seal_in_place(&[], aad, buf, plaintext_len)
            }

            /// Opens the whole of `buf` (`nonce || ct || tag`) in place; the plaintext is then
            /// `buf[..n]` for the returned `n` (moved down by 12 bytes, one `memmove`).
            pub fn open_in_place(&self, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
                self.inner.open_in_place(&[], aad, buf)
            }
        }

        key_init!($name, $key);

        impl AeadCore for $name {
            type NonceSize = U0;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        #[cfg(feature = "alloc")]
        impl Aead for $name {
            /// Returns `nonce(12) || ciphertext || tag(16)`; the nonce argument is empty.
            fn encrypt<'msg, 'aad>(
                &self,
                _nonce: &Nonce<Self>,
                plaintext: impl Into<Payload<'msg, 'aad>>,
            ) -> aead::Result<Vec<u8>> {
                let p = plaintext.into();
                Ok(self.seal(p.aad, p.msg)?)
            }

            /// Takes `nonce(12) || ciphertext || tag(16)`; the nonce argument is empty.
            fn decrypt<'msg, 'aad>(
                &self,
                _nonce: &Nonce<Self>,
                ciphertext: impl Into<Payload<'msg, 'aad>>,
            ) -> aead::Result<Vec<u8>> {
                let p = ciphertext.into();
                Ok(self.open(p.aad, p.msg)?)
            }
        }
    };
}

random_nonce_type!(
    /// AES-128-GCM with random nonces (16-byte key).
    Aes128GcmRandomNonce, Algorithm::Aes128Gcm, U16
);
random_nonce_type!(
    /// AES-192-GCM with random nonces (24-byte key).
    Aes192GcmRandomNonce, Algorithm::Aes192Gcm, U24
);
random_nonce_type!(
    /// AES-256-GCM with random nonces (32-byte key).
    Aes256GcmRandomNonce, Algorithm::Aes256Gcm, U32
);
