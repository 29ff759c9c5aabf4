//! The RustCrypto-trait types: 12-byte nonce, 16-byte tag, policy NONE.
use crate::{Algorithm, Cipher, Error, Policy};
use aead::consts::{U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, Nonce, Tag, TagPosition};

macro_rules! aead_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty) => {
        $(#[$doc])*
        ///
        /// Implements [`KeyInit`](aead::KeyInit), [`AeadCore`] (12-byte nonce, 16-byte postfix tag) and
        /// [`AeadInOut`] (hence `aead::Aead` with the default `alloc` feature). `Send + Sync`: one instance
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
            /// with typed errors, and AES-GCM nonces of 1..=128 bytes.
            pub fn cipher(&self) -> &Cipher {
                &self.inner
            }

            /// Seals `plaintext` into `out` (`ciphertext || tag`), zero-copy; returns the length.
            #[inline]
            pub fn seal_into(
                &self,
                nonce: &Nonce<Self>,
                aad: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                self.inner.seal_into(nonce.as_slice(), aad, plaintext, out)
            }

            /// Opens `ciphertext || tag` into `out`, zero-copy; returns the plaintext length.
            #[inline]
            pub fn open_into(
                &self,
                nonce: &Nonce<Self>,
                aad: &[u8],
                ciphertext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                self.inner.open_into(nonce.as_slice(), aad, ciphertext, out)
            }
        }

        key_init!($name, $key);

        impl AeadCore for $name {
            type NonceSize = U12;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                let mut tag = Tag::<Self>::default();
                self.inner.seal_detached(nonce.as_slice(), associated_data, buffer, &mut tag)?;
                Ok(tag)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                Ok(self.inner.open_detached(nonce.as_slice(), associated_data, buffer, tag)?)
            }

            /// One C call in the buffer: grows it by 16 bytes, seals in place.
            fn encrypt_in_place(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> aead::Result<()> {
                Ok(self.inner.seal_buffer(nonce.as_slice(), associated_data, buffer)?)
            }

            /// One C call in the buffer; on failure the ciphertext part is zeroed and the
            /// length is unchanged.
            fn decrypt_in_place(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> aead::Result<()> {
                Ok(self.inner.open_buffer(nonce.as_slice(), associated_data, buffer)?)
            }
        }
    };
}

aead_type!(
    /// AES-128-GCM through libaead (16-byte key).
    Aes128Gcm, Algorithm::Aes128Gcm, U16
);
aead_type!(
    /// AES-192-GCM through libaead (24-byte key).
    Aes192Gcm, Algorithm::Aes192Gcm, U24
);
aead_type!(
    /// AES-256-GCM through libaead (32-byte key).
    Aes256Gcm, Algorithm::Aes256Gcm, U32
);
aead_type!(
    /// ChaCha20-Poly1305 (RFC 8439) through libaead (32-byte key).
    ChaCha20Poly1305, Algorithm::ChaCha20Poly1305, U32
);
