//! RustCrypto-trait types of the library 1.2 families: AES-CCM and AES-OCB3 (generic over their
//! typenum sizes, as the `ccm` and `ocb3` crates are) and AES-GCM-SIV (as `aes-gcm-siv`), and of
//! library 1.3's AES-SIV AEAD form (as `aes_siv::SivAead`, generic over the nonce size), and of
//! library 1.7's AEGIS family (RFC 10032, as the `aegis` crate's `Aegis128L<TAG_BYTES>`, the tag
//! size a typenum parameter).
use crate::{Algorithm, Cipher, Error, Policy};
use aead::array::ArraySize;
use aead::array::typenum::{IsGreaterOrEqual, B1};
use aead::consts::{U1, U10, U11, U12, U13, U14, U15, U16, U2, U24, U3, U32, U4, U48, U5, U6, U64, U7, U8, U9};
use aead::Key;
use core::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// Marks the size parameters without owning them (`fn() -> T` keeps the type `Send + Sync`).
pub(crate) type Sizes<T> = PhantomData<fn() -> T>;

/// AES key sizes (`U16`, `U24`, `U32`): which libaead algorithm each family uses for them.
pub trait AesKeySize: ArraySize + sealed::Sealed {
    /// AES-CCM with this key size.
    const CCM: Algorithm;
    /// AES-OCB3 with this key size.
    const OCB3: Algorithm;
}
impl sealed::Sealed for U16 {}
impl sealed::Sealed for U24 {}
impl sealed::Sealed for U32 {}
impl AesKeySize for U16 {
    const CCM: Algorithm = Algorithm::Aes128Ccm;
    const OCB3: Algorithm = Algorithm::Aes128Ocb3;
}
impl AesKeySize for U24 {
    const CCM: Algorithm = Algorithm::Aes192Ccm;
    const OCB3: Algorithm = Algorithm::Aes192Ocb3;
}
impl AesKeySize for U32 {
    const CCM: Algorithm = Algorithm::Aes256Ccm;
    const OCB3: Algorithm = Algorithm::Aes256Ocb3;
}

/// AES-SIV key sizes (`U32`, `U48`, `U64`: the CMAC key, then the CTR key, each half).
pub trait SivKeySize: ArraySize + sealed::Sealed {
    /// The libaead algorithm for this key size.
    const SIV: Algorithm;
}
impl sealed::Sealed for U48 {}
impl sealed::Sealed for U64 {}
impl SivKeySize for U32 {
    const SIV: Algorithm = Algorithm::Aes128Siv;
}
impl SivKeySize for U48 {
    const SIV: Algorithm = Algorithm::Aes192Siv;
}
impl SivKeySize for U64 {
    const SIV: Algorithm = Algorithm::Aes256Siv;
}

/// AES-CCM tag sizes: `U4`, `U6`, `U8`, `U10`, `U12`, `U14`, `U16` (as `ccm::TagSize`).
pub trait CcmTagSize: ArraySize + sealed::Sealed {}
/// AES-CCM nonce sizes: `U7` ..= `U13` (as `ccm::NonceSize`; the message must be shorter than
/// 2^(8 * (15 - N)) bytes, else [`Error::TooLong`]).
pub trait CcmNonceSize: ArraySize + sealed::Sealed {}
/// AES-OCB3 nonce sizes: `U1` ..= `U15` (RFC 7253; the `ocb3` crate takes 6..=15, pyca 12..=15).
pub trait Ocb3NonceSize: ArraySize + sealed::Sealed {}

macro_rules! size_impls {
    ($tr:ident: $($n:ty),*) => { $(impl $tr for $n {})* };
}
macro_rules! sealed_impls {
    ($($n:ty),*) => { $(impl sealed::Sealed for $n {})* };
}
sealed_impls!(U1, U2, U3, U4, U5, U6, U7, U8, U9, U10, U11, U12, U13, U14, U15);
size_impls!(CcmTagSize: U4, U6, U8, U10, U12, U14, U16);
size_impls!(CcmNonceSize: U7, U8, U9, U10, U11, U12, U13);
size_impls!(Ocb3NonceSize: U1, U2, U3, U4, U5, U6, U7, U8, U9, U10, U11, U12, U13, U14, U15);

/// Shared parts of the generic family types: `try_new`, `cipher`, and `key_init!`'s `Debug`,
/// `KeySizeUser` and `KeyInit`.
macro_rules! generic_type {
    ([$($g:tt)*] $ty:ty, $name:ident, $key:ty, $alg:expr, $tag:expr) => {
        impl<$($g)*> $ty {
            /// Like [`KeyInit::new`](aead::KeyInit::new) but returns the library error instead of panicking.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                let inner = Cipher::new($alg, Policy::None, key.as_slice(), $tag)?;
                Ok(Self { inner, _sizes: PhantomData })
            }

            /// The underlying [`Cipher`] (same context): typed errors, any nonce length of the family.
            pub fn cipher(&self) -> &Cipher {
                &self.inner
            }

            #[inline(always)]
            fn ctx(&self) -> Result<&Cipher, Error> {
                Ok(&self.inner)
            }
        }

        key_init!([$($g)*] $ty, $name, $key);
    };
}

/// AES-CCM (SP 800-38C, RFC 3610; library 1.2) with key size `K` (`U16`/`U24`/`U32`), tag size
/// `M` and nonce size `N`: the parameters of `ccm::Ccm<Aes128, M, N>` in the same order, the
/// block cipher replaced by its key size. Use the aliases [`Aes128Ccm`], [`Aes192Ccm`],
/// [`Aes256Ccm`], e.g. `Aes128Ccm<U16, U13>` for `ccm::Ccm<aes::Aes128, U16, U13>`.
///
/// The message must be shorter than 2^(8 * (15 - N)) bytes (65536 with `U13`) and at most
/// `INT_MAX` (the AAD too): longer is [`Error::TooLong`] (`aead::Error` through the traits).
/// FIPS-approved where the provider is. `Send + Sync`; every operation is one C call; a failed
/// decryption zeroes the written output. (TLS 1.2 / 1.3 CCM: [`Cipher`] with
/// [`Policy::Tls12`] / [`Policy::Tls13`] and [`Algorithm::Aes128Ccm`].)
pub struct AesCcm<K: AesKeySize, M: CcmTagSize, N: CcmNonceSize> {
    inner: Cipher,
    _sizes: Sizes<(K, M, N)>,
}
/// AES-128-CCM with tag size `M` and nonce size `N` (`ccm::Ccm<aes::Aes128, M, N>`).
pub type Aes128Ccm<M, N> = AesCcm<U16, M, N>;
/// AES-192-CCM with tag size `M` and nonce size `N`.
pub type Aes192Ccm<M, N> = AesCcm<U24, M, N>;
/// AES-256-CCM with tag size `M` and nonce size `N`.
pub type Aes256Ccm<M, N> = AesCcm<U32, M, N>;

generic_type!([K: AesKeySize, M: CcmTagSize, N: CcmNonceSize] AesCcm<K, M, N>, AesCcm, K, K::CCM, M::USIZE);
aead_inout!([K: AesKeySize, M: CcmTagSize, N: CcmNonceSize] AesCcm<K, M, N>, N, M);

/// AES-OCB3 (RFC 7253; library 1.2) with key size `K` and nonce size `N` (default `U12`, any of
/// 1..=15), 16-byte tag: `ocb3::Ocb3<aes::Aes128, N>` with its default tag. Aliases
/// [`Aes128Ocb3`], [`Aes192Ocb3`], [`Aes256Ocb3`]. Not in FIPS providers. `Send + Sync`; every
/// operation is one C call; a failed decryption zeroes the written output.
pub struct AesOcb3<K: AesKeySize, N: Ocb3NonceSize = U12> {
    inner: Cipher,
    _sizes: Sizes<(K, N)>,
}
/// AES-128-OCB3, nonce size `N` (default 12), tag 16.
pub type Aes128Ocb3<N = U12> = AesOcb3<U16, N>;
/// AES-192-OCB3, nonce size `N` (default 12), tag 16.
pub type Aes192Ocb3<N = U12> = AesOcb3<U24, N>;
/// AES-256-OCB3, nonce size `N` (default 12), tag 16.
pub type Aes256Ocb3<N = U12> = AesOcb3<U32, N>;

generic_type!([K: AesKeySize, N: Ocb3NonceSize] AesOcb3<K, N>, AesOcb3, K, K::OCB3, 16);
aead_inout!([K: AesKeySize, N: Ocb3NonceSize] AesOcb3<K, N>, N, U16);

macro_rules! gcm_siv_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty) => {
        $(#[$doc])*
        ///
        /// Nonce 12, tag 16, nonce-misuse resistant (a repeated nonce reveals only whether the
        /// messages were equal). Plaintext at most `INT_MAX` bytes. Not in FIPS providers.
        ///
        /// **Needs OpenSSL >= 3.2** (the `vendored` feature, or a libaead built with
        /// `-Dlibcrypto=vendored`). On an older libcrypto [`try_new`](Self::try_new) returns
        /// [`Error::Unsupported`]; [`KeyInit::new`](aead::KeyInit::new), which cannot fail, does
        /// not panic: it returns a value whose every operation fails (`aead::Error` through the
        /// traits, [`Error::Unsupported`] from `seal_into` / `open_into` / [`cipher`](Self::cipher)),
        /// writing nothing. [`is_supported`](Self::is_supported) asks up front.
        /// `Send + Sync`; every operation is one C call.
        pub struct $name {
            inner: Result<Cipher, Error>,
        }

        impl $name {
            /// Creates the context; [`Error::Unsupported`] on a libcrypto older than 3.2.
            pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
                Ok($name { inner: Ok(Cipher::new($alg, Policy::None, key.as_slice(), 16)?) })
            }

            /// Whether the loaded libcrypto has this algorithm (creates and frees a context).
            pub fn is_supported() -> bool {
                Self::try_new(&Key::<Self>::default()).is_ok()
            }

            /// The underlying [`Cipher`], or the error that [`KeyInit::new`](aead::KeyInit::new) met.
            pub fn cipher(&self) -> Result<&Cipher, Error> {
                self.ctx()
            }

            #[inline(always)]
            fn ctx(&self) -> Result<&Cipher, Error> {
                self.inner.as_ref().map_err(|e| *e)
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match &self.inner {
                    Ok(_) => f.write_str(concat!(stringify!($name), " { .. }")),
                    Err(e) => write!(f, concat!(stringify!($name), " {{ error: {:?} }}"), e),
                }
            }
        }

        impl aead::KeySizeUser for $name {
            type KeySize = $key;
        }

        impl aead::KeyInit for $name {
            /// Creates the context. Never panics: a failure (e.g. [`Error::Unsupported`] on
            /// OpenSSL < 3.2) is kept and returned by every operation.
            fn new(key: &Key<Self>) -> Self {
                Self::try_new(key).unwrap_or_else(|e| $name { inner: Err(e) })
            }
        }

        aead_inout!([] $name, U12, U16);
    };
}

gcm_siv_type!(
    /// AES-128-GCM-SIV (RFC 8452; library 1.2), as `aes_gcm_siv::Aes128GcmSiv` (16-byte key).
    Aes128GcmSiv, Algorithm::Aes128GcmSiv, U16
);
gcm_siv_type!(
    /// AES-192-GCM-SIV (library 1.2; 24-byte key; the `aes-gcm-siv` crate has no 192).
    Aes192GcmSiv, Algorithm::Aes192GcmSiv, U24
);
gcm_siv_type!(
    /// AES-256-GCM-SIV (RFC 8452; library 1.2), as `aes_gcm_siv::Aes256GcmSiv` (32-byte key).
    Aes256GcmSiv, Algorithm::Aes256GcmSiv, U32
);

/// AES-SIV's AEAD form (RFC 5297 section 6; library 1.3) with key size `K` (`U32`/`U48`/`U64`)
/// and nonce size `N` (default `U16`, any of at least one byte): `aes_siv::SivAead<Aes128, Cmac,
/// N>` with the block cipher replaced by the key size. Use the aliases [`Aes128SivAead`],
/// [`Aes192SivAead`] (no RustCrypto counterpart) and [`Aes256SivAead`].
///
/// S2V runs over the components `[associated_data, nonce]`, as `aes_siv::Aes128SivAead` and
/// Wycheproof's `aead_aes_siv_cmac`; the tag (the synthetic IV) comes first:
/// `TAG_POSITION = Prefix`, so `Aead::encrypt` returns `SIV(16) || ciphertext`, byte for byte the
/// RustCrypto output, and `encrypt_in_place` / `decrypt_in_place` are one C call in the buffer
/// (the message moves by 16 bytes, as RustCrypto's does). Deterministic: the same nonce, AAD and
/// message give the same output, and a repeated nonce reveals only that equality.
/// For several AAD components see [`siv::Siv`](crate::siv::Siv).
///
/// Plaintext and AAD at most `INT_MAX` bytes ([`Error::TooLong`]). **An empty message** is
/// [`Error::Unsupported`] (`aead::Error` through the traits) on a libcrypto older than OpenSSL 3.5
/// (its SIV skips an empty payload); the `vendored` feature builds 3.5. Not in FIPS providers.
/// `Send + Sync`; every operation is one C call (which copies the keyed state inside libcrypto:
/// AES-SIV's one allocation per call); a failed decryption zeroes the written output.
pub struct AesSivAead<K: SivKeySize, N: ArraySize + IsGreaterOrEqual<U1, Output = B1> = U16> {
    inner: Cipher,
    _sizes: Sizes<(K, N)>,
}
/// AES-SIV-CMAC-256 AEAD (two AES-128 keys, 32 bytes), nonce size `N` (default 16): `aes_siv::Aes128SivAead`.
pub type Aes128SivAead<N = U16> = AesSivAead<U32, N>;
/// AES-SIV-CMAC-384 AEAD (two AES-192 keys, 48 bytes), nonce size `N` (default 16).
pub type Aes192SivAead<N = U16> = AesSivAead<U48, N>;
/// AES-SIV-CMAC-512 AEAD (two AES-256 keys, 64 bytes), nonce size `N` (default 16): `aes_siv::Aes256SivAead`.
pub type Aes256SivAead<N = U16> = AesSivAead<U64, N>;

generic_type!([K: SivKeySize, N: ArraySize + IsGreaterOrEqual<U1, Output = B1>] AesSivAead<K, N>, AesSivAead, K, K::SIV, 16);
aead_inout!([K: SivKeySize, N: ArraySize + IsGreaterOrEqual<U1, Output = B1>] AesSivAead<K, N>, N, U16, Prefix);

/// AEGIS tag sizes (RFC 10032): `U16` (the default) and `U32`.
pub trait AegisTagSize: ArraySize + sealed::Sealed {}
impl AegisTagSize for U16 {}
impl AegisTagSize for U32 {}

macro_rules! aegis_type {
    ($(#[$doc:meta])* $name:ident, $alg:expr, $key:ty) => {
        $(#[$doc])*
        ///
        /// The tag size `T` is `U16` (default) or `U32`, as the `aegis` crate's `TAG_BYTES`;
        /// the nonce is as long as the key and may be random (RFC 10032 allows 2^48 random
        /// 128-bit nonces per key; 256-bit ones have no practical limit). Output
        /// `ciphertext || tag`; plaintext and AAD at most 2^61 - 1 bytes. Computed by libaegis
        /// inside libaead ([`Cipher::provider`] is `"libaegis"`), with AES-NI / VAES / ARM crypto
        /// where the CPU has them; without hardware AES it is slow and not guaranteed constant-time.
        /// Not FIPS-approved. `Send + Sync`; every operation is one C call; a failed decryption
        /// zeroes the written output.
        pub struct $name<T: AegisTagSize = U16> {
            inner: Cipher,
            _sizes: Sizes<T>,
        }

        generic_type!([T: AegisTagSize] $name<T>, $name, $key, $alg, T::USIZE);
        aead_inout!([T: AegisTagSize] $name<T>, $key, T);
    };
}

aegis_type!(
    /// AEGIS-128L (RFC 10032; library 1.7): 16-byte key and nonce, as `aegis::aegis128l::Aegis128L`.
    Aegis128L, Algorithm::Aegis128L, U16
);
aegis_type!(
    /// AEGIS-128X2 (RFC 10032; library 1.7): AEGIS-128L on two lanes (faster with wide vector
    /// AES), 16-byte key and nonce, as `aegis::aegis128x2::Aegis128X2`.
    Aegis128X2, Algorithm::Aegis128X2, U16
);
aegis_type!(
    /// AEGIS-128X4 (RFC 10032; library 1.7): AEGIS-128L on four lanes (AVX-512 / VAES), 16-byte
    /// key and nonce, as `aegis::aegis128x4::Aegis128X4`.
    Aegis128X4, Algorithm::Aegis128X4, U16
);
aegis_type!(
    /// AEGIS-256 (RFC 10032; library 1.7): 32-byte key and nonce, as `aegis::aegis256::Aegis256`.
    Aegis256, Algorithm::Aegis256, U32
);
aegis_type!(
    /// AEGIS-256X2 (RFC 10032; library 1.7): AEGIS-256 on two lanes, 32-byte key and nonce, as
    /// `aegis::aegis256x2::Aegis256X2`.
    Aegis256X2, Algorithm::Aegis256X2, U32
);
aegis_type!(
    /// AEGIS-256X4 (RFC 10032; library 1.7): AEGIS-256 on four lanes, 32-byte key and nonce, as
    /// `aegis::aegis256x4::Aegis256X4`.
    Aegis256X4, Algorithm::Aegis256X4, U32
);
