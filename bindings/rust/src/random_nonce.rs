//! Library-drawn random nonces (`AEAD_POLICY_RANDOM_NONCE`): AES-GCM (ABI 1.1, Go's
//! `cipher.NewGCMWithRandomNonce` layout, `nonce(12) || ciphertext || tag(16)`),
//! XChaCha20-Poly1305 (library 1.2, `nonce(24) || ciphertext || tag(16)`) and the AEGIS family
//! (library 1.7, `nonce(16 or 32) || ciphertext || tag(16 or 32)`).
use crate::cipher::RANDOM_NONCE_LEN;
use crate::families::{AegisTagSize, Sizes};
use crate::{Algorithm, Cipher, Error, Policy};
use aead::consts::{U0, U16, U24, U32};
use aead::{AeadCore, Key, TagPosition};
use core::marker::PhantomData;
#[cfg(feature = "alloc")]
use aead::{Aead, Nonce, Payload};

/// The methods and traits every random-nonce type shares (`inner` is its [`Cipher`]); `$tag` is
/// the tag size. Generics, with their bounds, go in brackets.
macro_rules! random_nonce_ops {
    ([$($g:tt)*] $ty:ty, $tag:ty) => {
        impl<$($g)*> $ty {
            context_queries!();

            /// Seals into `out` (at least `plaintext.len() + OVERHEAD` bytes): `nonce || ct || tag`.
            /// Returns the length written.
            #[inline]
            pub fn seal_into(&self, aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                self.inner.seal_into(&[], aad, plaintext, out)
            }

            /// Opens `nonce || ct || tag` into `out`; returns the plaintext length. Input shorter
            /// than `OVERHEAD` bytes, or a wrong tag, is [`Error::Auth`].
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

            /// Seals `buf[..plaintext_len]` in place (`buf` needs `OVERHEAD` more bytes); afterwards
            /// `buf[..plaintext_len + OVERHEAD]` is `nonce || ct || tag`. Moves the plaintext up by
            /// `NONCE_LEN` bytes first (one `memmove`); a refused seal leaves `buf` as it was.
            pub fn seal_in_place(&self, aad: &[u8], buf: &mut [u8], plaintext_len: usize) -> Result<usize, Error> {
                self.inner.seal_in_place(&[], aad, buf, plaintext_len)
            }

            /// Opens the whole of `buf` (`nonce || ct || tag`) in place; the plaintext is then
            /// `buf[..n]` for the returned `n` (moved down by `NONCE_LEN` bytes, one `memmove`).
            pub fn open_in_place(&self, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
                self.inner.open_in_place(&[], aad, buf)
            }
        }

        impl<$($g)*> AeadCore for $ty {
            type NonceSize = U0;
            type TagSize = $tag;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        #[cfg(feature = "alloc")]
        impl<$($g)*> Aead for $ty {
            /// Returns `nonce || ciphertext || tag`; the nonce argument is empty.
            fn encrypt<'msg, 'aad>(
                &self,
                _nonce: &Nonce<Self>,
                plaintext: impl Into<Payload<'msg, 'aad>>,
            ) -> aead::Result<Vec<u8>> {
                let p = plaintext.into();
                Ok(self.seal(p.aad, p.msg)?)
            }

            /// Takes `nonce || ciphertext || tag`; the nonce argument is empty.
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

/// What every random-nonce type's documentation says, after its own part.
macro_rules! random_nonce_doc {
    () => {
        r"
Seal takes no nonce: the library draws [`NONCE_LEN`](Self::NONCE_LEN) random bytes
from the DRBG of the context's library context (the FIPS provider's under a FIPS
configuration, IG C.H scenario 2) and writes `nonce || ciphertext || tag`,
[`OVERHEAD`](Self::OVERHEAD) bytes more than the plaintext. Open reads that layout.

RustCrypto shape: [`KeyInit`](aead::KeyInit), [`AeadCore`] with `NonceSize = U0` (the caller passes
the empty `Nonce::default()`), and `aead::Aead` directly (with the default `alloc` feature): its
`encrypt` returns the whole `nonce || ciphertext || tag` and `decrypt` takes it. `AeadInOut`
(detached tag, in-out buffers of the message length) is not implemented, since that
layout has no place for the nonce.
`Send + Sync`; every operation is one C call."
    };
}

macro_rules! random_nonce_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty, $nonce_len:expr) => {
        $(#[$doc])*
        ///
        #[doc = random_nonce_doc!()]
        pub struct $name {
            inner: Cipher,
        }

        impl $name {
            /// Bytes a seal adds: the nonce + 16-byte tag (28; 40 for XChaCha20-Poly1305).
            pub const OVERHEAD: usize = $nonce_len + 16;
            /// Length of the nonce at the front of every sealed message (12; 24 for XChaCha).
            pub const NONCE_LEN: usize = $nonce_len;

            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Self::with_properties(key, None)
            }

            /// With an OpenSSL property query for the cipher fetch, e.g. `Some("fips=yes")`.
            pub fn with_properties(key: &Key<Self>, properties: Option<&str>) -> Result<Self, Error> {
                let inner = Cipher::with_options($alg, Policy::RandomNonce, key.as_slice(), 16, properties, &[])?;
                Ok($name { inner })
            }
        }

        key_init!($name, $key);
        random_nonce_ops!([] $name, U16);
    };
}

/// The AEGIS random-nonce types: generic over the tag size as the nonce-taking ones are.
macro_rules! aegis_random_nonce_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty, $nonce_len:literal) => {
        $(#[$doc])*
        ///
        /// The tag size `T` is `U16` (default) or `U32`. Not FIPS-approved: a property query
        /// selecting a FIPS provider is [`Error::Unsupported`].
        ///
        #[doc = random_nonce_doc!()]
        pub struct $name<T: AegisTagSize = U16> {
            inner: Cipher,
            _sizes: Sizes<T>,
        }

        impl<T: AegisTagSize> $name<T> {
            #[doc = concat!("Bytes a seal adds: the ", $nonce_len, "-byte nonce and the tag.")]
            pub const OVERHEAD: usize = $nonce_len + T::USIZE;
            /// Length of the nonce at the front of every sealed message (the key length).
            pub const NONCE_LEN: usize = $nonce_len;

            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Self::with_properties(key, None)
            }

            /// With an OpenSSL property query for the library context, e.g. `Some("provider=default")`.
            pub fn with_properties(key: &Key<Self>, properties: Option<&str>) -> Result<Self, Error> {
                let inner = Cipher::with_options($alg, Policy::RandomNonce, key.as_slice(), T::USIZE, properties, &[])?;
                Ok($name { inner, _sizes: PhantomData })
            }
        }

        key_init!([T: AegisTagSize] $name<T>, $name, $key);
        random_nonce_ops!([T: AegisTagSize] $name<T>, T);
    };
}

random_nonce_type!(
    /// AES-128-GCM with random nonces (16-byte key).
    ///
    /// 96-bit nonces, output `nonce(12) || ciphertext || tag(16)`: byte-compatible with Go's
    /// `cipher.NewGCMWithRandomNonce` (`NonceSize() == 0`, `Overhead() == 28`) in both
    /// directions. After 2^32 seals (SP 800-38D section 8.3) seal returns
    /// [`Error::NonceLimit`]: make a new key.
    Aes128GcmRandomNonce, Algorithm::Aes128Gcm, U16, RANDOM_NONCE_LEN
);
random_nonce_type!(
    /// AES-192-GCM with random nonces (24-byte key).
    ///
    /// 96-bit nonces, output `nonce(12) || ciphertext || tag(16)`: byte-compatible with Go's
    /// `cipher.NewGCMWithRandomNonce` (`NonceSize() == 0`, `Overhead() == 28`) in both
    /// directions. After 2^32 seals (SP 800-38D section 8.3) seal returns
    /// [`Error::NonceLimit`]: make a new key.
    Aes192GcmRandomNonce, Algorithm::Aes192Gcm, U24, RANDOM_NONCE_LEN
);
random_nonce_type!(
    /// AES-256-GCM with random nonces (32-byte key).
    ///
    /// 96-bit nonces, output `nonce(12) || ciphertext || tag(16)`: byte-compatible with Go's
    /// `cipher.NewGCMWithRandomNonce` (`NonceSize() == 0`, `Overhead() == 28`) in both
    /// directions. After 2^32 seals (SP 800-38D section 8.3) seal returns
    /// [`Error::NonceLimit`]: make a new key.
    Aes256GcmRandomNonce, Algorithm::Aes256Gcm, U32, RANDOM_NONCE_LEN
);
random_nonce_type!(
    /// XChaCha20-Poly1305 with random nonces (library 1.2; 32-byte key).
    ///
    /// 192-bit nonces, output `nonce(24) || ciphertext || tag(16)` (libsodium's
    /// `crypto_aead_xchacha20poly1305_ietf` with the nonce in front). No seal limit: a collision
    /// of 192-bit random nonces after 2^64 seals has probability about 2^-64. Not in FIPS
    /// providers.
    XChaCha20Poly1305RandomNonce, Algorithm::XChaCha20Poly1305, U32, crate::sys::AEAD_XCHACHA20_POLY1305_NONCE
);

aegis_random_nonce_type!(
    /// AEGIS-128L with random nonces (library 1.7; 16-byte key): output
    /// `nonce(16) || ciphertext || tag`. After 2^48 seals (RFC 10032's bound for random 128-bit
    /// nonces) seal returns [`Error::NonceLimit`]: make a new key.
    Aegis128LRandomNonce, Algorithm::Aegis128L, U16, 16
);
aegis_random_nonce_type!(
    /// AEGIS-128X2 with random nonces (library 1.7; 16-byte key): output
    /// `nonce(16) || ciphertext || tag`, at most 2^48 seals ([`Error::NonceLimit`] after).
    Aegis128X2RandomNonce, Algorithm::Aegis128X2, U16, 16
);
aegis_random_nonce_type!(
    /// AEGIS-128X4 with random nonces (library 1.7; 16-byte key): output
    /// `nonce(16) || ciphertext || tag`, at most 2^48 seals ([`Error::NonceLimit`] after).
    Aegis128X4RandomNonce, Algorithm::Aegis128X4, U16, 16
);
aegis_random_nonce_type!(
    /// AEGIS-256 with random nonces (library 1.7; 32-byte key): output
    /// `nonce(32) || ciphertext || tag`. No seal limit (256-bit random nonces).
    Aegis256RandomNonce, Algorithm::Aegis256, U32, 32
);
aegis_random_nonce_type!(
    /// AEGIS-256X2 with random nonces (library 1.7; 32-byte key): output
    /// `nonce(32) || ciphertext || tag`, no seal limit.
    Aegis256X2RandomNonce, Algorithm::Aegis256X2, U32, 32
);
aegis_random_nonce_type!(
    /// AEGIS-256X4 with random nonces (library 1.7; 32-byte key): output
    /// `nonce(32) || ciphertext || tag`, no seal limit.
    Aegis256X4RandomNonce, Algorithm::Aegis256X4, U32, 32
);
