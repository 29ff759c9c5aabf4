//! Counter nonces for any protocol (library 1.5): `AEAD_POLICY_COUNTER`, `AEAD_POLICY_XOR_COUNTER`
//! and SSH's `AEAD_POLICY_SSH` (RFC 5647), the nonces of Go's FIPS module's
//! `NewGCMWithCounterNonce`, `NewGCMWithXORCounterNonce` and `NewGCMForSSH`, checked inside the
//! library: safe for concurrent use, refused with an error rather than a panic.
use crate::dtls::Usage;
use crate::{tls13_nonce, Algorithm, Cipher, Error, Policy};
use aead::consts::{U12, U16, U24, U32};
use aead::{Key, Nonce};

/// The nonce of message `n` of a [`Policy::Counter`] or [`Policy::Ssh`] context whose first nonce
/// is `iv` = fixed(4) || BE64(start): fixed || BE64(start + n mod 2^64). `counter_nonce(iv, 0)` is
/// `iv`; for SSH, `counter_nonce(iv, k)` is the IV of the k-th packet (RFC 5647 section 7.1).
pub fn counter_nonce(iv: &[u8; 12], n: u64) -> [u8; 12] {
    let mut nonce = *iv;
    let mut start = [0u8; 8];
    start.copy_from_slice(&iv[4..]);
    nonce[4..].copy_from_slice(&u64::from_be_bytes(start).wrapping_add(n).to_be_bytes());
    nonce
}

/// The nonce of message `n` of a [`Policy::XorCounter`] context whose IV is `iv` = fixed(4) ||
/// mask(8): fixed || BE64(mask XOR n), i.e. `iv XOR (0^4 || BE64(n))` (the construction of TLS 1.3,
/// [`tls13_nonce`]).
pub fn xor_counter_nonce(iv: &[u8; 12], n: u64) -> [u8; 12] {
    tls13_nonce(iv, n)
}

macro_rules! counter_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $policy:expr, $key:ty, $iv_doc:expr) => {
        $(#[$doc])*
        ///
        /// Seal checks the nonce inside the library, atomically: the typed-error methods
        /// (`seal_into`, `seal`, `seal_in_place_slice`) refuse a misused nonce with
        /// [`Error::NoncePrefix`] (the fixed part changed), [`Error::NonceOrder`] (a counter not
        /// above every one sealed before) or [`Error::NonceExhausted`] (the counter came back to the
        /// one before its start: no value is left), in a process forked after the context was made
        /// with [`Error::Forked`]; the RustCrypto traits return the opaque `aead::Error` for them.
        /// A refused seal writes nothing and consumes no counter (an `aead::Buffer` is left as it
        /// was). Open checks no nonce: records open in any order.
        ///
        /// RustCrypto shape: [`KeyInit`](aead::KeyInit), [`AeadCore`](aead::AeadCore) (12-byte
        /// nonce, 16-byte postfix tag) and [`AeadInOut`](aead::AeadInOut) (hence `aead::Aead`
        /// with the default `alloc` feature), every operation one C call as for the plain AEAD
        /// types. Made with `KeyInit::new` or [`try_new`](Self::try_new), the first seal teaches
        /// the context its nonce's fixed part and origin: make it before sharing the object between
        /// threads, or give them to [`with_iv`](Self::with_iv). `Send + Sync`: concurrent seals
        /// are checked and committed atomically, so no nonce is ever accepted twice.
        pub struct $name {
            inner: Cipher,
        }

        impl $name {
            /// Nonce length (12).
            pub const NONCE_LEN: usize = 12;
            /// Tag length (16).
            pub const TAG_LEN: usize = 16;

            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of
            /// panicking. The first seal teaches the context its IV.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Self::with_options(key, None, None)
            }

            /// Creates a context that knows its IV up front (`aead_ctx_new_ex`): no first-seal
            /// learning, so no first-seal race.
            #[doc = $iv_doc]
            pub fn with_iv(key: &Key<Self>, iv: &[u8; 12]) -> Result<Self, Error> {
                Self::with_options(key, Some(iv), None)
            }

            /// [`with_iv`](Self::with_iv) (or, with `iv` `None`, [`try_new`](Self::try_new)) plus an
            /// OpenSSL property query for every fetch of the context, e.g. `Some("fips=yes")`
            /// (`None`: the default properties). No provider offering the algorithm for the query
            /// is [`Error::Unsupported`].
            pub fn with_options(key: &Key<Self>, iv: Option<&[u8; 12]>, properties: Option<&str>) -> Result<Self, Error> {
                let iv: &[u8] = iv.map_or(&[], |iv| &iv[..]);
                Ok($name { inner: Cipher::with_options($alg, $policy, key.as_slice(), 16, properties, iv)? })
            }

            context_queries!();

            #[inline(always)]
            fn ctx(&self) -> Result<&Cipher, Error> {
                Ok(&self.inner)
            }

            typed_seal_open!(&Nonce<Self>);
        }

        key_init!($name, $key);
        aead_inout!([] $name, U12, U16);
    };
}

/// The SSH types' usage report and constants.
macro_rules! ssh_extras {
    ($($name:ident),*) => {$(
        impl $name {
            /// AAD length a seal takes: the 4-byte packet length (RFC 5647 section 7.3).
            pub const AAD_LEN: usize = 4;
            /// Seals after which RFC 4344 section 3.1 says to rekey (2^32); nothing is refused there.
            pub const REKEY_AFTER: u64 = 1 << 32;

            /// The context's counters (`aead_ctx_usage_ex`): `seals` made (a refused seal counts
            /// nothing), `forgeries` (opens that failed authentication) and `rekey_after` (2^32):
            /// once `seals` reaches it, run a key exchange and replace the context.
            pub fn usage(&self) -> Usage {
                self.inner.usage()
            }
        }
    )*};
}

macro_rules! counter_iv {
    () => {
        "`iv` = fixed(4) || BE64(start): the fixed part and the counter's first value (the \
     first nonce is `iv`, message `n` [`counter_nonce`]`(iv, n)`). Message numbers must rise (gaps \
     allowed); the counter may wrap past 2^64 - 1 but never come back to `start - 1`."
    };
}

counter_type!(
    /// AES-128-GCM with counter nonces (library 1.5, `AEAD_POLICY_COUNTER`; 16-byte key).
    ///
    /// Nonce = fixed(4) || BE64(start + n) ([`counter_nonce`]), n strictly increasing (gaps
    /// allowed) and below 2^64 - 1, any AAD: the nonces Go's FIPS `NewGCMWithCounterNonce` takes,
    /// FIPS 140-3 IG C.H scenario 3 (approved seals under a FIPS provider).
    Aes128GcmCounterNonce, Algorithm::Aes128Gcm, Policy::Counter, U16, counter_iv!()
);
counter_type!(
    /// AES-192-GCM with counter nonces (library 1.5, `AEAD_POLICY_COUNTER`; 24-byte key); see
    /// [`Aes128GcmCounterNonce`].
    Aes192GcmCounterNonce, Algorithm::Aes192Gcm, Policy::Counter, U24, counter_iv!()
);
counter_type!(
    /// AES-256-GCM with counter nonces (library 1.5, `AEAD_POLICY_COUNTER`; 32-byte key); see
    /// [`Aes128GcmCounterNonce`].
    Aes256GcmCounterNonce, Algorithm::Aes256Gcm, Policy::Counter, U32, counter_iv!()
);
counter_type!(
    /// ChaCha20-Poly1305 with counter nonces (library 1.5, `AEAD_POLICY_COUNTER`; 32-byte key);
    /// see [`Aes128GcmCounterNonce`]. Not in FIPS providers.
    ChaCha20Poly1305CounterNonce, Algorithm::ChaCha20Poly1305, Policy::Counter, U32, counter_iv!()
);

macro_rules! xor_iv {
    () => {
        "`iv` = fixed(4) || mask(8) (Go's `SetNoncePrefixAndMask`): message `n`'s nonce is \
     [`xor_counter_nonce`]`(iv, n)`, n from 0, rising (gaps allowed), never 2^64 - 1. Without it the \
     first seal is taken as n = 0 and gives both."
    };
}

counter_type!(
    /// AES-128-GCM with XOR-masked counter nonces (library 1.5, `AEAD_POLICY_XOR_COUNTER`; 16-byte
    /// key).
    ///
    /// Nonce = fixed(4) || BE64(mask XOR n) ([`xor_counter_nonce`]), n from 0, strictly increasing
    /// (gaps allowed) and below 2^64 - 1, any AAD: the nonces Go's FIPS
    /// `NewGCMWithXORCounterNonce` takes, FIPS 140-3 IG C.H scenario 3.
    Aes128GcmXorCounterNonce, Algorithm::Aes128Gcm, Policy::XorCounter, U16, xor_iv!()
);
counter_type!(
    /// AES-192-GCM with XOR-masked counter nonces (library 1.5, `AEAD_POLICY_XOR_COUNTER`;
    /// 24-byte key); see [`Aes128GcmXorCounterNonce`].
    Aes192GcmXorCounterNonce, Algorithm::Aes192Gcm, Policy::XorCounter, U24, xor_iv!()
);
counter_type!(
    /// AES-256-GCM with XOR-masked counter nonces (library 1.5, `AEAD_POLICY_XOR_COUNTER`;
    /// 32-byte key); see [`Aes128GcmXorCounterNonce`].
    Aes256GcmXorCounterNonce, Algorithm::Aes256Gcm, Policy::XorCounter, U32, xor_iv!()
);
counter_type!(
    /// ChaCha20-Poly1305 with XOR-masked counter nonces (library 1.5, `AEAD_POLICY_XOR_COUNTER`;
    /// 32-byte key); see [`Aes128GcmXorCounterNonce`]. Not in FIPS providers.
    ChaCha20Poly1305XorCounterNonce, Algorithm::ChaCha20Poly1305, Policy::XorCounter, U32, xor_iv!()
);

macro_rules! ssh_iv {
    () => {
        "`iv`: the key exchange's initial IV, fixed(4) || invocation counter(8) (RFC 5647 section \
     7.1); packet k's nonce is [`counter_nonce`]`(iv, k)`."
    };
}

counter_type!(
    /// SSH's AES-128-GCM, `aes128-gcm@openssh.com` / RFC 5647 (library 1.5, `AEAD_POLICY_SSH`;
    /// 16-byte key).
    ///
    /// Nonce = the 12-byte IV, fixed(4) || invocation counter(8), the counter incremented mod 2^64
    /// per packet ([`counter_nonce`]): [`Aes128GcmCounterNonce`]'s rules, plus an AAD of exactly
    /// [`AAD_LEN`](Self::AAD_LEN) = 4 bytes, the packet length ([`Error::AadSize`] otherwise).
    /// Seals are counted: [`usage`](Self::usage) tells when RFC 4344's 2^32-packet rekey point
    /// is reached. The nonces of Go's FIPS `NewGCMForSSH` (FIPS 140-3 IG C.H scenario 1.d).
    Aes128GcmSsh, Algorithm::Aes128Gcm, Policy::Ssh, U16, ssh_iv!()
);
counter_type!(
    /// SSH's AES-256-GCM, `aes256-gcm@openssh.com` / RFC 5647 (library 1.5, `AEAD_POLICY_SSH`;
    /// 32-byte key); see [`Aes128GcmSsh`].
    Aes256GcmSsh, Algorithm::Aes256Gcm, Policy::Ssh, U32, ssh_iv!()
);
ssh_extras!(Aes128GcmSsh, Aes256GcmSsh);
