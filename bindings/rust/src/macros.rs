//! Impl blocks shared by the typed wrappers (each wraps one [`crate::Cipher`] in `inner`).

/// `Debug` (no key material), `KeySizeUser` and a `KeyInit` that panics only where `try_new`
/// would return an error. A generic type gives its generics in brackets, then the type, then its
/// name: `key_init!([T: AegisTagSize] Aegis128LRandomNonce<T>, Aegis128LRandomNonce, U16)`.
macro_rules! key_init {
    ($name:ident, $key:ty) => {
        key_init!([] $name, $name, $key);
    };
    ([$($g:tt)*] $ty:ty, $name:ident, $key:ty) => {
        impl<$($g)*> core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), " { .. }"))
            }
        }

        impl<$($g)*> aead::KeySizeUser for $ty {
            type KeySize = $key;
        }

        impl<$($g)*> aead::KeyInit for $ty {
            /// Creates the context.
            ///
            /// # Panics
            /// If the library cannot create it (`AEAD_ERR_UNSUPPORTED`, `_NOMEM`, `_CRYPTO`: e.g.
            /// an OpenSSL configuration without the algorithm). Use `try_new` to handle that.
            fn new(key: &aead::Key<Self>) -> Self {
                match Self::try_new(key) {
                    Ok(c) => c,
                    Err(e) => panic!(concat!("libaead: ", stringify!($name), "::new failed: {}"), e),
                }
            }
        }
    };
}

/// The ABI 1.1 context queries, forwarded to `inner`.
macro_rules! context_queries {
    () => {
        /// The context's FIPS indicator (ABI 1.1; see [`Indicator`](crate::Indicator)).
        pub fn indicator(&self) -> crate::Indicator {
            self.inner.indicator()
        }

        /// Name of the OpenSSL provider serving this context (ABI 1.1), e.g. `"default"`.
        pub fn provider(&self) -> &'static str {
            self.inner.provider()
        }

        /// The underlying [`Cipher`](crate::Cipher) (same context and policy).
        pub fn cipher(&self) -> &crate::Cipher {
            &self.inner
        }
    };
}

/// The typed-error seal and open of a type whose nonce argument is `$nonce`, forwarded to
/// `inner`: into a new `Vec`, and in place within a slice.
macro_rules! typed_seal_open {
    ($nonce:ty) => {
        /// Seals into a new `Vec` (`ciphertext || tag`).
        pub fn seal(&self, nonce: $nonce, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, crate::Error> {
            self.inner.seal(&nonce[..], aad, plaintext)
        }

        /// Opens `ciphertext || tag` into a new `Vec`.
        pub fn open(&self, nonce: $nonce, aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, crate::Error> {
            self.inner.open(&nonce[..], aad, ciphertext)
        }

        /// Seals `buf[..plaintext_len]` in place (`buf` needs 16 more bytes for the tag);
        /// returns the sealed length. Zero-copy and allocation-free.
        #[inline]
        pub fn seal_in_place_slice(
            &self,
            nonce: $nonce,
            aad: &[u8],
            buf: &mut [u8],
            plaintext_len: usize,
        ) -> Result<usize, crate::Error> {
            self.inner.seal_in_place(&nonce[..], aad, buf, plaintext_len)
        }

        /// Opens the whole of `buf` (`ciphertext || tag`) in place; the plaintext is
        /// `buf[..n]` for the returned `n`. On [`Error::Auth`](crate::Error::Auth) the ciphertext
        /// part is zeroed.
        #[inline]
        pub fn open_in_place_slice(&self, nonce: $nonce, aad: &[u8], buf: &mut [u8]) -> Result<usize, crate::Error> {
            self.inner.open_in_place(&nonce[..], aad, buf)
        }
    };
}

/// `AeadCore`, `AeadInOut` and the zero-copy `seal_into` / `open_into` for a type with
/// `fn ctx(&self) -> Result<&Cipher, Error>` (every operation is one C call). The generics (with
/// their bounds) go in brackets: `aead_inout!([K: AesKeySize] AesOcb3<K>, U12, U16)`. An
/// optional last argument `Prefix` puts the tag first (AES-SIV), as the C output does.
macro_rules! aead_inout {
    ([$($g:tt)*] $ty:ty, $nonce:ty, $tag:ty) => {
        aead_inout!([$($g)*] $ty, $nonce, $tag, Postfix, "`ciphertext || tag`");
    };
    ([$($g:tt)*] $ty:ty, $nonce:ty, $tag:ty, Prefix) => {
        aead_inout!([$($g)*] $ty, $nonce, $tag, Prefix, "`tag || ciphertext`, the SIV first");
    };
    ([$($g:tt)*] $ty:ty, $nonce:ty, $tag:ty, $pos:ident, $layout:literal) => {
        impl<$($g)*> $ty {
            #[doc = concat!("Seals `plaintext` into `out` (", $layout, "), zero-copy; returns the length.")]
            #[inline]
            pub fn seal_into(
                &self,
                nonce: &aead::Nonce<Self>,
                aad: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, crate::Error> {
                self.ctx()?.seal_into(nonce.as_slice(), aad, plaintext, out)
            }

            #[doc = concat!("Opens ", $layout, " into `out`, zero-copy; returns the plaintext length.")]
            #[inline]
            pub fn open_into(
                &self,
                nonce: &aead::Nonce<Self>,
                aad: &[u8],
                ciphertext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, crate::Error> {
                self.ctx()?.open_into(nonce.as_slice(), aad, ciphertext, out)
            }
        }

        impl<$($g)*> aead::AeadCore for $ty {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const TAG_POSITION: aead::TagPosition = aead::TagPosition::$pos;
        }

        impl<$($g)*> aead::AeadInOut for $ty {
            fn encrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: aead::inout::InOutBuf<'_, '_, u8>,
            ) -> aead::Result<aead::Tag<Self>> {
                let mut tag = aead::Tag::<Self>::default();
                self.ctx()?.seal_detached(nonce.as_slice(), associated_data.into(), buffer, &mut tag)?;
                Ok(tag)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: aead::inout::InOutBuf<'_, '_, u8>,
                tag: &aead::Tag<Self>,
            ) -> aead::Result<()> {
                Ok(self.ctx()?.open_detached(nonce.as_slice(), associated_data.into(), buffer, tag)?)
            }

            /// One C call in the buffer: grows it by the tag length, seals in place.
            fn encrypt_in_place(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> aead::Result<()> {
                Ok(self.ctx()?.seal_buffer(nonce.as_slice(), associated_data, buffer)?)
            }

            /// One C call in the buffer; on failure the ciphertext part is zeroed and the
            /// length is unchanged.
            fn decrypt_in_place(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> aead::Result<()> {
                Ok(self.ctx()?.open_buffer(nonce.as_slice(), associated_data, buffer)?)
            }
        }
    };
}
