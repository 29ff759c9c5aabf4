//! Impl blocks shared by the typed wrappers (each wraps one [`crate::Cipher`] in `inner`).

/// `Debug` (no key material), `KeySizeUser` and a `KeyInit` that panics only where `try_new`
/// would return an error.
macro_rules! key_init {
    ($name:ident, $key:ty) => {
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), " { .. }"))
            }
        }

        impl aead::KeySizeUser for $name {
            type KeySize = $key;
        }

        impl aead::KeyInit for $name {
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
