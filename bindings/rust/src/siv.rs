//! Deterministic AES-SIV with a vector of headers (RFC 5297 section 2.4's S2V over
//! `header_1, ..., header_n, plaintext`; library 1.3), as the `aes_siv::siv` module:
//! [`Aes128Siv`], [`Aes192Siv`], [`Aes256Siv`] with `encrypt(headers, plaintext)` /
//! `decrypt(headers, ciphertext)`, where `headers` is any `IntoIterator` of `AsRef<[u8]>` (e.g.
//! `[ad1, ad2]`, `&[&[u8]]`, a `Vec<Vec<u8>>`). Each operation is one `aead_seal_open_v` call
//! whatever the number of headers: the headers are gathered on the stack (no allocation), at most
//! [`MAX_HEADERS`] (126, as RFC 5297 section 7 and `aes_siv::siv::MAX_HEADERS`; more is
//! [`Error::TooLong`], `aead::Error` through the RustCrypto-shaped methods, nothing written).
//!
//! Output is `SIV(16) || ciphertext`. Unlike RustCrypto's `Siv`, the methods take `&self`: the
//! type is `Send + Sync` and one instance serves any number of threads. A nonce, if the
//! application has one, is just another header (RFC 5297 section 3: put it last); the AEAD form
//! with one AAD and a nonce is [`Aes128SivAead`](crate::Aes128SivAead).
//!
//! Headers and plaintext each at most `INT_MAX` bytes ([`Error::TooLong`]). An empty plaintext
//! is [`Error::Unsupported`] on a libcrypto older than OpenSSL 3.5 (the `vendored` feature has
//! 3.5). Not in FIPS providers.
//!
//! ```
//! use libaead::aead::KeyInit;
//! use libaead::siv::Aes128Siv;
//!
//! let siv = Aes128Siv::new(&[7u8; 32].into());
//! let ct = siv.encrypt([&b"header one"[..], b"header two"], b"secret").unwrap();
//! assert_eq!(ct.len(), 16 + 6);
//! assert_eq!(siv.decrypt([&b"header one"[..], b"header two"], &ct).unwrap(), b"secret");
//! assert!(siv.decrypt([&b"header one"[..]], &ct).is_err());
//! ```
use crate::families::{Sizes, SivKeySize};
use crate::ffi::{Aad, Components};
use crate::{sys, Cipher, Error, Policy};
use aead::array::Array;
use aead::consts::{U16, U32, U48, U64};
use aead::inout::InOutBuf;
use aead::Key;
use core::marker::PhantomData;

/// The most headers one call takes (RFC 5297 section 7: S2V takes at most 127 strings, the
/// plaintext being the last), as `aes_siv::siv::MAX_HEADERS`.
pub const MAX_HEADERS: usize = sys::AEAD_SIV_MAX_COMPONENTS;

/// The synthetic IV, AES-SIV's tag (`aes_siv::Tag`).
pub type Tag = Array<u8, U16>;

/// Deterministic AES-SIV (RFC 5297) with key size `K` (`U32`, `U48`, `U64`): see the
/// [module docs](self). Aliases [`Aes128Siv`], [`Aes192Siv`], [`Aes256Siv`].
pub struct Siv<K: SivKeySize> {
    inner: Cipher,
    _sizes: Sizes<K>,
}

/// AES-CMAC-SIV with two AES-128 keys (32 bytes): `aes_siv::siv::Aes128Siv`.
pub type Aes128Siv = Siv<U32>;
/// AES-CMAC-SIV with two AES-192 keys (48 bytes; the `aes-siv` crate has none).
pub type Aes192Siv = Siv<U48>;
/// AES-CMAC-SIV with two AES-256 keys (64 bytes): `aes_siv::siv::Aes256Siv`.
pub type Aes256Siv = Siv<U64>;

key_init!([K: SivKeySize] Siv<K>, Siv, K);

/// Gathers `headers` (kept alive on the stack) and runs `f` on them as C components.
#[inline]
fn with_headers<I, T, R>(headers: I, f: impl FnOnce(Aad<'_>) -> Result<R, Error>) -> Result<R, Error>
where
    I: IntoIterator<Item = T>,
    T: AsRef<[u8]>,
{
    let mut held: [Option<T>; MAX_HEADERS] = [const { None }; MAX_HEADERS];
    let mut n = 0;
    for h in headers {
        let slot = held.get_mut(n).ok_or(Error::TooLong)?;
        *slot = Some(h);
        n += 1;
    }
    let mut c = Components::new();
    for h in held[..n].iter().flatten() {
        c.push(h.as_ref())?;
    }
    f((&c).into())
}

impl<K: SivKeySize> Siv<K> {
    /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
    pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
        let inner = Cipher::new(K::SIV, Policy::None, key.as_slice(), 16)?;
        Ok(Siv { inner, _sizes: PhantomData })
    }

    /// The underlying [`Cipher`] (same context; its `_v` methods take components as slices).
    pub fn cipher(&self) -> &Cipher {
        &self.inner
    }

    /// Encrypts `plaintext` under `headers` into a new `Vec`: `SIV(16) || ciphertext`.
    #[cfg(feature = "alloc")]
    pub fn encrypt<I, T>(&self, headers: I, plaintext: &[u8]) -> aead::Result<Vec<u8>>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(self.seal(headers, plaintext)?)
    }

    /// Decrypts `SIV || ciphertext` under `headers` into a new `Vec`.
    #[cfg(feature = "alloc")]
    pub fn decrypt<I, T>(&self, headers: I, ciphertext: &[u8]) -> aead::Result<Vec<u8>>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(self.open(headers, ciphertext)?)
    }

    /// [`encrypt`](Self::encrypt) with the library's typed error.
    pub fn seal<I, T>(&self, headers: I, plaintext: &[u8]) -> Result<Vec<u8>, Error>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let mut out = Vec::new();
        with_headers(headers, |aad| self.inner.seal_append_aad(&[], aad, plaintext, &mut out))?;
        Ok(out)
    }

    /// [`decrypt`](Self::decrypt) with the library's typed error.
    pub fn open<I, T>(&self, headers: I, ciphertext: &[u8]) -> Result<Vec<u8>, Error>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let mut out = Vec::new();
        with_headers(headers, |aad| self.inner.open_append_aad(&[], aad, ciphertext, &mut out))?;
        Ok(out)
    }

    /// Encrypts into `out` (at least `plaintext.len() + 16` bytes, else
    /// [`Error::BufferTooSmall`], nothing written): `SIV || ciphertext`; returns the length.
    /// Zero-copy, no allocation in Rust (libcrypto allocates its per-call copy of the keyed state).
    pub fn seal_into<I, T>(&self, headers: I, plaintext: &[u8], out: &mut [u8]) -> Result<usize, Error>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        with_headers(headers, |aad| self.inner.ctx.seal_open(sys::AEAD_SEAL, &[], aad, plaintext, out))
    }

    /// Decrypts `SIV || ciphertext` into `out` (at least `ciphertext.len() - 16` bytes); returns
    /// the plaintext length. On [`Error::Auth`] the written part of `out` is zeroed; input
    /// shorter than 16 bytes is [`Error::Auth`].
    pub fn open_into<I, T>(&self, headers: I, ciphertext: &[u8], out: &mut [u8]) -> Result<usize, Error>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        with_headers(headers, |aad| self.inner.ctx.seal_open(sys::AEAD_OPEN, &[], aad, ciphertext, out))
    }

    /// Encrypts the buffer's contents in place (RustCrypto's `Siv::encrypt_in_place`): grows it
    /// by 16 bytes, moves the message up and makes one C call; afterwards it holds
    /// `SIV || ciphertext`. A refused call leaves it as it was.
    pub fn encrypt_in_place<I, T>(&self, headers: I, buffer: &mut dyn aead::Buffer) -> aead::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(with_headers(headers, |aad| self.inner.seal_buffer_aad(&[], aad, buffer))?)
    }

    /// Decrypts `SIV || ciphertext` in place and truncates the buffer to the plaintext. On
    /// failure its length is unchanged and the ciphertext part is zeroed.
    pub fn decrypt_in_place<I, T>(&self, headers: I, buffer: &mut dyn aead::Buffer) -> aead::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(with_headers(headers, |aad| self.inner.open_buffer_aad(&[], aad, buffer))?)
    }

    /// Encrypts `buffer` (in place or in-out) and returns the SIV (RustCrypto's
    /// `Siv::encrypt_inout_detached`). One C call through a scratch buffer (see [`Cipher`]).
    pub fn encrypt_inout_detached<I, T>(&self, headers: I, buffer: InOutBuf<'_, '_, u8>) -> aead::Result<Tag>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let mut tag = Tag::default();
        with_headers(headers, |aad| self.inner.seal_detached(&[], aad, buffer, &mut tag))?;
        Ok(tag)
    }

    /// Decrypts `buffer` (in place or in-out) against the SIV `tag`; on failure the output is
    /// zeroed.
    pub fn decrypt_inout_detached<I, T>(&self, headers: I, buffer: InOutBuf<'_, '_, u8>, tag: &Tag) -> aead::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(with_headers(headers, |aad| self.inner.open_detached(&[], aad, buffer, tag))?)
    }
}
