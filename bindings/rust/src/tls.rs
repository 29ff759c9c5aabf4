//! TLS record sealing with the nonce policies enforced by the library.
use crate::{Algorithm, Cipher, Error, Policy};

/// TLS 1.2 AES-GCM nonce (RFC 5288): 4-byte implicit salt || 8-byte big-endian explicit nonce.
pub fn tls12_gcm_nonce(salt: &[u8; 4], explicit: u64) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..4].copy_from_slice(salt);
    n[4..].copy_from_slice(&explicit.to_be_bytes());
    n
}

/// TLS 1.3 nonce (RFC 8446 section 5.3), also TLS 1.2 ChaCha20-Poly1305 (RFC 7905):
/// the 12-byte static IV XOR the 64-bit big-endian sequence number, left-padded with zeros.
pub fn tls13_nonce(iv: &[u8; 12], seq: u64) -> [u8; 12] {
    let mut n = *iv;
    for (b, s) in n[4..].iter_mut().zip(seq.to_be_bytes()) {
        *b ^= s;
    }
    n
}

macro_rules! tls_type {
    ($(#[$doc:meta])* $name:ident, $policy:expr, $aad:expr, $iv:ty, $iv_doc:literal) => {
        $(#[$doc])*
        ///
        /// Seal refuses nonce misuse with a typed [`Error`]: [`Error::NonceOrder`] (sequence not
        /// above the last accepted one), [`Error::NonceExhausted`] (sequence 2^64-1),
        /// [`Error::NoncePrefix`] (fixed part changed), [`Error::AadSize`]. A refused seal writes
        /// nothing and consumes no sequence number. Open is never order-checked (aead.h).
        /// Built with [`new`](Self::new), the first seal learns the prefix (and mask): make it
        /// before sharing the object between threads. Built with [`with_iv`](Self::with_iv) or
        /// [`with_options`](Self::with_options) (ABI 1.1), nothing is learned and concurrent first
        /// seals are safe. Either way `Send + Sync`: concurrent seals are checked atomically, so no
        /// sequence number is ever accepted twice. Nonces are 12 bytes, tags 16.
        pub struct $name {
            inner: Cipher,
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("alg", &self.inner.algorithm())
                    .finish_non_exhaustive()
            }
        }

        impl $name {
            /// AAD length the policy requires on seal.
            pub const AAD_LEN: usize = $aad;
            /// Tag length (16).
            pub const TAG_LEN: usize = 16;

            /// Creates a context for `alg` with this TLS policy; the first seal learns the IV.
            pub fn new(alg: Algorithm, key: &[u8]) -> Result<Self, Error> {
                Ok($name { inner: Cipher::new(alg, $policy, key, 16)? })
            }

            /// Creates a context that knows the connection IV up front (ABI 1.1,
            /// `aead_ctx_new_ex`): no first-seal learning, so no first-seal race.
            #[doc = $iv_doc]
            /// Sequence numbers start at 0 and must strictly increase (gaps allowed), never 2^64-1.
            pub fn with_iv(alg: Algorithm, key: &[u8], iv: $iv) -> Result<Self, Error> {
                Self::with_options(alg, key, iv, None)
            }

            /// [`with_iv`](Self::with_iv) plus an OpenSSL property query for every fetch of the
            /// context, e.g. `Some("fips=yes")` (`None`: the default properties). No provider
            /// offering `alg` for the query is [`Error::Unsupported`].
            pub fn with_options(
                alg: Algorithm,
                key: &[u8],
                iv: $iv,
                properties: Option<&str>,
            ) -> Result<Self, Error> {
                Ok($name { inner: Cipher::with_options(alg, $policy, key, 16, properties, &iv[..])? })
            }

            /// The algorithm.
            pub fn algorithm(&self) -> Algorithm {
                self.inner.algorithm()
            }

            context_queries!();

            typed_seal_open!(&[u8; 12]);

            /// Seals `plaintext` into `out` (`ciphertext || tag`); returns the length.
            #[inline]
            pub fn seal_into(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                self.inner.seal_into(nonce, aad, plaintext, out)
            }

            /// Seals an [`aead::Buffer`] in place (grows it by the tag; unchanged on a refusal).
            pub fn seal_in_place(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> Result<(), Error> {
                self.inner.seal_buffer(nonce, aad, buffer)
            }

            /// Opens `ciphertext || tag` into `out`; returns the plaintext length.
            #[inline]
            pub fn open_into(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                ciphertext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                self.inner.open_into(nonce, aad, ciphertext, out)
            }

            /// Opens an [`aead::Buffer`] in place and truncates it to the plaintext.
            pub fn open_in_place(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                buffer: &mut dyn aead::Buffer,
            ) -> Result<(), Error> {
                self.inner.open_buffer(nonce, aad, buffer)
            }
        }
    };
}

tls_type!(
    /// TLS 1.2 record protection (`AEAD_POLICY_TLS12`), AAD 13 bytes on seal.
    ///
    /// AES-GCM (RFC 5288): nonce = 4-byte salt || 8-byte explicit counter ([`tls12_gcm_nonce`]);
    /// the salt is learned on the first seal; the counter must strictly increase.
    /// ChaCha20-Poly1305 (RFC 7905): nonce = IV XOR sequence ([`tls13_nonce`]), checked like TLS 1.3.
    /// AES-CCM (library 1.2, RFC 6655 with 16-byte tags): as AES-GCM.
    Tls12Aead, Policy::Tls12, 13, &[u8],
    "`iv`: AES-GCM takes 4 bytes (the salt; explicit nonce = BE64(seq), RFC 5288, as OpenSSL and \
     Go send) or 12 (salt || 8-byte mask; explicit nonce = mask XOR BE64(seq), as rustls sends); \
     ChaCha20-Poly1305 takes the 12-byte IV (nonce = IV XOR seq). Other lengths: [`Error::NonceSize`]."
);
tls_type!(
    /// TLS 1.3 record protection (`AEAD_POLICY_TLS13`), AAD 5 bytes on seal.
    ///
    /// Nonce = static IV XOR sequence ([`tls13_nonce`]). The first seal is sequence 0 and reveals
    /// the IV; later sequences must strictly increase. Also AES-128-CCM (library 1.2,
    /// TLS_AES_128_CCM_SHA256, 16-byte tag).
    Tls13Aead, Policy::Tls13, 5, &[u8; 12],
    "`iv`: the 12-byte static IV; nonce = IV XOR (0^4 || BE64(seq)) (RFC 8446 section 5.3)."
);
