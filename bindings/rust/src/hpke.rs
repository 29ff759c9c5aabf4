//! HPKE, hybrid public-key encryption (RFC 9180; library 1.6, docs/hpke.md), shaped like the
//! [`hpke`](https://docs.rs/hpke/0.13) crate: [`setup_sender`] / [`setup_receiver`] return a
//! [`SenderContext`] / [`ReceiverContext`] with `seal`, `open` and `export`, and
//! [`single_shot_seal`] / [`single_shot_open`] do a setup and one message in one call.
//!
//! What differs from that crate:
//!
//! * The suite is a value ([`Suite`]: a [`Kem`], a [`Kdf`] and an [`Aead`], RFC 9180's
//!   identifiers) rather than type parameters, and keys go in as RFC 9180 serialises them
//!   (`&[u8]`: SerializePublicKey, SerializePrivateKey). [`Kem::gen_keypair`] and
//!   [`Kem::derive_keypair`] make them. X448 is there too, and draft-ietf-hpke-pq's ML-KEM KEMs
//!   and hybrids ([`Kem::MlKem768`], [`Kem::MlKem768X25519`], ...) and one-stage SHAKE KDFs
//!   ([`Kdf::Shake256`], ...): the PQ KEMs need ML-KEM in libcrypto (OpenSSL 3.5 or later, found at
//!   run time; else [`Error::Unsupported`]) and take the base and psk modes only.
//! * The contexts take `&self` and are `Send + Sync`: the sequence number lives in the library,
//!   and each seal takes the next one and commits it in one atomic step, so any number of threads
//!   can seal on one [`SenderContext`] and no two messages ever share a nonce. The numbers run
//!   from 0 to [`MAX_SEQUENCE`] (2^64 - 2); after that seals are [`Error::NonceExhausted`].
//! * [`ReceiverContext::open`] opens in order (RFC 9180's context: a reordered, replayed or
//!   dropped-before message fails with [`Error::Auth`]); [`ReceiverContext::open_at`] takes the
//!   sequence number a protocol carries, through a replay window ([`Error::Replay`]).
//! * A sender context set up before `fork()` refuses to seal in the child ([`Error::Forked`]):
//!   parent and child would otherwise seal the same sequence number.
//! * The RNG is the library's (OpenSSL's DRBG): no `csprng` argument.
//! * Errors are this crate's [`Error`]: a forged or out-of-order message is [`Error::Auth`], a
//!   key that is not one of the KEM's (off the curve, a zero or too large scalar, an X25519 / X448
//!   public key giving an all-zero shared secret, psk and psk_id not as the mode needs) is
//!   [`Error::Arg`], a key of the wrong length [`Error::KeySize`], a suite the providers lack
//!   (e.g. X25519 under `fips=yes`) [`Error::Unsupported`].
//!
//! Every seal and open has a `Vec` form, an `_into` form writing into a caller's buffer and an
//! `_in_place` form; the last two allocate nothing (nor does the library, once the context exists).
//!
//! ```
//! use libaead::hpke::{self, Aead, Kdf, Kem, OpModeR, OpModeS, Suite};
//!
//! let suite = Suite::new(Kem::X25519HkdfSha256, Kdf::HkdfSha256, Aead::AesGcm128);
//! let (sk_r, pk_r) = suite.kem.gen_keypair()?;
//!
//! let (enc, sender) = hpke::setup_sender(&suite, &OpModeS::Base, pk_r.as_bytes(), b"info")?;
//! let ct = sender.seal(b"hello", b"aad")?;
//!
//! let receiver = hpke::setup_receiver(&suite, &OpModeR::Base, sk_r.as_bytes(), enc.as_bytes(), b"info")?;
//! assert_eq!(receiver.open(&ct, b"aad")?, b"hello");
//!
//! let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
//! sender.export(b"label", &mut a)?;
//! receiver.export(b"label", &mut b)?;
//! assert_eq!(a, b);
//! # Ok::<(), libaead::Error>(())
//! ```
use crate::dtls::Usage;
use crate::ffi::hpke::{self as raw, HpkeCtx, KeyOp, Params};
use crate::{sys, Error, Indicator};
use core::fmt;

/// The tag every HPKE AEAD appends (16 bytes).
pub const TAG_LEN: usize = sys::AEAD_HPKE_TAG;
/// The largest encapsulated key and public key of the DHKEMs (P-521's 133 bytes).
pub const MAX_ENC_LEN: usize = sys::AEAD_HPKE_MAX_ENC;
/// The largest encapsulated key and public key of every KEM, the post-quantum ones included
/// (MLKEM1024-P384's 1665 bytes).
pub const MAX_PQ_ENC_LEN: usize = sys::AEAD_HPKE_MAX_PQ_ENC;
/// The largest private key of the KEMs (P-521's 66 bytes).
pub const MAX_PRIVATE_KEY_LEN: usize = sys::AEAD_HPKE_MAX_PRIVATE_KEY;
/// The longest exporter context [`SenderContext::export`] and [`ReceiverContext::export`] take.
pub const MAX_EXPORT_CONTEXT_LEN: usize = sys::AEAD_HPKE_MAX_EXPORT_CONTEXT;
/// The last sequence number a context seals or opens: 2^64 - 2.
pub const MAX_SEQUENCE: u64 = sys::AEAD_HPKE_MAX_SEQUENCE;
/// The default replay window of [`ReceiverContext::open_at`], in messages.
pub const DEFAULT_WINDOW: u32 = sys::AEAD_DTLS_DEFAULT_WINDOW;
/// The widest replay window (4096 messages).
pub const MAX_WINDOW: u32 = sys::AEAD_DTLS_MAX_WINDOW;

macro_rules! id_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $raw:path,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every value, in RFC 9180's order, then draft-ietf-hpke-pq's.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The identifier (RFC 9180 section 7, draft-ietf-hpke-pq).
            pub const fn id(self) -> u16 {
                match self {
                    $($name::$variant => $raw as u16,)*
                }
            }

            /// The value of identifier `id`; `None` for one libaead does not have.
            pub const fn from_id(id: u16) -> Option<Self> {
                $(if id == $raw as u16 {
                    return Some($name::$variant);
                })*
                None
            }

            const fn raw(self) -> core::ffi::c_int {
                self.id() as core::ffi::c_int
            }
        }
    };
}

id_enum!(
    /// A KEM (RFC 9180 section 7.1), named as the `hpke` crate names its KEM types.
    Kem {
        /// DHKEM(P-256, HKDF-SHA256), `0x0010`: enc and public key 65 bytes, private key 32.
        DhP256HkdfSha256 = sys::AEAD_HPKE_KEM_P256_SHA256,
        /// DHKEM(P-384, HKDF-SHA384), `0x0011`: 97, 48.
        DhP384HkdfSha384 = sys::AEAD_HPKE_KEM_P384_SHA384,
        /// DHKEM(P-521, HKDF-SHA512), `0x0012`: 133, 66.
        DhP521HkdfSha512 = sys::AEAD_HPKE_KEM_P521_SHA512,
        /// DHKEM(X25519, HKDF-SHA256), `0x0020`: 32, 32.
        X25519HkdfSha256 = sys::AEAD_HPKE_KEM_X25519_SHA256,
        /// DHKEM(X448, HKDF-SHA512), `0x0021`: 56, 56.
        X448HkdfSha512 = sys::AEAD_HPKE_KEM_X448_SHA512,
        /// ML-KEM-512 (FIPS 203), `0x0040`: enc 768, public key 800, private key (a seed) 64.
        /// This and the other post-quantum KEMs need ML-KEM in libcrypto (OpenSSL 3.5 or later;
        /// else every call is [`Error::Unsupported`]) and take the base and psk modes only (the
        /// auth modes are [`Error::Arg`]).
        MlKem512 = sys::AEAD_HPKE_KEM_MLKEM512,
        /// ML-KEM-768, `0x0041`: 1088, 1184, 64.
        MlKem768 = sys::AEAD_HPKE_KEM_MLKEM768,
        /// ML-KEM-1024, `0x0042`: 1568, 1568, 64.
        MlKem1024 = sys::AEAD_HPKE_KEM_MLKEM1024,
        /// MLKEM768-P256 (hybrid), `0x0050`: 1153, 1249, 32.
        MlKem768P256 = sys::AEAD_HPKE_KEM_MLKEM768_P256,
        /// MLKEM1024-P384 (hybrid), `0x0051`: 1665, 1665, 32.
        MlKem1024P384 = sys::AEAD_HPKE_KEM_MLKEM1024_P384,
        /// MLKEM768-X25519 (X-Wing), `0x647A`: 1120, 1216, 32.
        MlKem768X25519 = sys::AEAD_HPKE_KEM_MLKEM768_X25519,
    }
);

id_enum!(
    /// A KDF (RFC 9180 section 7.2).
    Kdf {
        /// HKDF-SHA256, `1`.
        HkdfSha256 = sys::AEAD_HPKE_KDF_HKDF_SHA256,
        /// HKDF-SHA384, `2`.
        HkdfSha384 = sys::AEAD_HPKE_KDF_HKDF_SHA384,
        /// HKDF-SHA512, `3`.
        HkdfSha512 = sys::AEAD_HPKE_KDF_HKDF_SHA512,
        /// SHAKE128, `0x0010`: draft-ietf-hpke-pq's one-stage key schedule (info, psk and psk_id
        /// at most 65535 bytes each, else [`Error::TooLong`]), with any KEM.
        Shake128 = sys::AEAD_HPKE_KDF_SHAKE128,
        /// SHAKE256, `0x0011`.
        Shake256 = sys::AEAD_HPKE_KDF_SHAKE256,
        /// TurboSHAKE128, `0x0012`: in no OpenSSL release, so always [`Error::Unsupported`].
        TurboShake128 = sys::AEAD_HPKE_KDF_TURBOSHAKE128,
        /// TurboSHAKE256, `0x0013`: always [`Error::Unsupported`].
        TurboShake256 = sys::AEAD_HPKE_KDF_TURBOSHAKE256,
    }
);

id_enum!(
    /// An AEAD (RFC 9180 section 7.3).
    Aead {
        /// AES-128-GCM, `1`.
        AesGcm128 = sys::AEAD_HPKE_AEAD_AES_128_GCM,
        /// AES-256-GCM, `2`.
        AesGcm256 = sys::AEAD_HPKE_AEAD_AES_256_GCM,
        /// ChaCha20-Poly1305, `3`.
        ChaCha20Poly1305 = sys::AEAD_HPKE_AEAD_CHACHA20_POLY1305,
        /// Export-only, `0xFFFF`: no seal or open ([`Error::Arg`]), only `export`.
        ExportOnly = sys::AEAD_HPKE_AEAD_EXPORT_ONLY,
    }
);

/// A serialised key of at most `N` bytes, kept inline (no allocation).
macro_rules! key_bytes {
    ($(#[$doc:meta])* $name:ident, $cap:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            kem: Kem,
            len: usize,
            bytes: [u8; $cap],
        }

        impl $name {
            /// The KEM the key belongs to.
            pub fn kem(&self) -> Kem {
                self.kem
            }

            /// The serialised key.
            pub fn as_bytes(&self) -> &[u8] {
                &self.bytes[..self.len]
            }

            /// The key of `kem` serialised as `bytes` ([`Error::KeySize`] for a length not the
            /// KEM's). Not checked further here: the setup calls refuse a key that is not one of
            /// the KEM's.
            pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
                let mut k = Self::empty(kem, Self::size_of(kem));
                if bytes.len() != k.len {
                    return Err(Error::KeySize);
                }
                k.bytes[..k.len].copy_from_slice(bytes);
                Ok(k)
            }

            fn empty(kem: Kem, len: usize) -> Self {
                $name { kem, len, bytes: [0; $cap] }
            }

            fn buf(&mut self) -> &mut [u8] {
                &mut self.bytes[..self.len]
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                self.as_bytes()
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.kem == other.kem && self.as_bytes() == other.as_bytes()
            }
        }

        impl Eq for $name {}
    };
}

key_bytes!(
    /// A KEM public key, serialised (SerializePublicKey: the uncompressed point of a NIST curve,
    /// the raw 32 / 56 bytes of X25519 / X448, FIPS 203's encapsulation key for ML-KEM, that key
    /// followed by the curve's for a hybrid).
    PublicKey,
    MAX_PQ_ENC_LEN
);
key_bytes!(
    /// The encapsulated key a sender's setup makes (`enc`), for the receiver's setup.
    EncappedKey,
    MAX_PQ_ENC_LEN
);
key_bytes!(
    /// A KEM private key, serialised (SerializePrivateKey: the big-endian scalar of a NIST curve,
    /// the raw bytes of X25519 / X448, the seed of a post-quantum KEM). Overwritten with zeros when dropped; `Debug` does not show it.
    PrivateKey,
    MAX_PRIVATE_KEY_LEN
);

impl PublicKey {
    fn size_of(kem: Kem) -> usize {
        kem.public_key_len()
    }
}

impl EncappedKey {
    fn size_of(kem: Kem) -> usize {
        kem.enc_len()
    }
}

impl PrivateKey {
    fn size_of(kem: Kem) -> usize {
        kem.private_key_len()
    }

    /// The public key of this private key (`aead_hpke_public_key`).
    pub fn public_key(&self) -> Result<PublicKey, Error> {
        let mut pk = PublicKey::empty(self.kem, self.kem.public_key_len());
        let mut sk = self.bytes;
        let r = raw::keypair(KeyOp::Public, self.kem.raw(), &mut sk[..self.len], pk.buf());
        raw::cleanse(&mut sk);
        r.map(|()| pk)
    }
}

impl Drop for PrivateKey {
    fn drop(&mut self) {
        raw::cleanse(&mut self.bytes);
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey").field("kem", &self.kem).finish_non_exhaustive()
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey").field("kem", &self.kem).field("bytes", &self.as_bytes()).finish()
    }
}

impl fmt::Debug for EncappedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncappedKey").field("kem", &self.kem).field("bytes", &self.as_bytes()).finish()
    }
}

impl Kem {
    /// Nenc: the length of an encapsulated key.
    pub fn enc_len(self) -> usize {
        raw::kem_sizes(self.raw()).0
    }

    /// Npk: the length of a public key (Nenc for the DHKEMs, mostly not for the post-quantum KEMs).
    pub fn public_key_len(self) -> usize {
        raw::kem_sizes(self.raw()).1
    }

    /// Nsk: the length of a private key.
    pub fn private_key_len(self) -> usize {
        raw::kem_sizes(self.raw()).2
    }

    /// A fresh key pair from the library's DRBG (`aead_hpke_generate_keypair`).
    pub fn gen_keypair(self) -> Result<(PrivateKey, PublicKey), Error> {
        self.keypair(KeyOp::Generate)
    }

    /// DeriveKeyPair(ikm) (RFC 9180 section 7.1.3; `aead_hpke_derive_keypair`): the same `ikm`
    /// gives the same key pair. RFC 9180 advises `ikm` at least [`private_key_len`](Self::private_key_len)
    /// bytes of entropy.
    pub fn derive_keypair(self, ikm: &[u8]) -> Result<(PrivateKey, PublicKey), Error> {
        self.keypair(KeyOp::Derive(ikm))
    }

    fn keypair(self, op: KeyOp<'_>) -> Result<(PrivateKey, PublicKey), Error> {
        let mut sk = PrivateKey::empty(self, self.private_key_len());
        let mut pk = PublicKey::empty(self, self.public_key_len());
        raw::keypair(op, self.raw(), sk.buf(), pk.buf())?;
        Ok((sk, pk))
    }
}

/// A ciphersuite: KEM, KDF and AEAD.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Suite {
    /// The KEM.
    pub kem: Kem,
    /// The KDF of the key schedule.
    pub kdf: Kdf,
    /// The AEAD of the context.
    pub aead: Aead,
}

impl Suite {
    /// The suite of these three.
    pub const fn new(kem: Kem, kdf: Kdf, aead: Aead) -> Self {
        Suite { kem, kdf, aead }
    }
}

/// The pre-shared key of the psk modes: both parts non-empty (else the setup is [`Error::Arg`]).
#[derive(Clone, Copy)]
pub struct PskBundle<'a> {
    /// The PSK (RFC 9180 advises at least 32 bytes of entropy).
    pub psk: &'a [u8],
    /// Its identifier.
    pub psk_id: &'a [u8],
}

impl fmt::Debug for PskBundle<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PskBundle").field("psk_id", &self.psk_id).finish_non_exhaustive()
    }
}

/// A side's mode: the enum, and (mode id, psk bundle, the sender's key) for the library, the
/// sender's key being its private key when sending, its public key when receiving.
macro_rules! op_mode {
    ($(#[$doc:meta])* $mode:ident, $auth_key:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub enum $mode<'a> {
            /// mode_base.
            Base,
            /// mode_psk.
            Psk(PskBundle<'a>),
            #[doc = concat!("mode_auth: the sender's ", $auth_key, ".")]
            Auth(&'a [u8]),
            /// mode_auth_psk.
            AuthPsk(&'a [u8], PskBundle<'a>),
        }

        impl<'a> $mode<'a> {
            fn parts(&self) -> (core::ffi::c_int, Option<PskBundle<'a>>, &'a [u8]) {
                match *self {
                    $mode::Base => (sys::AEAD_HPKE_MODE_BASE, None, &[]),
                    $mode::Psk(b) => (sys::AEAD_HPKE_MODE_PSK, Some(b), &[]),
                    $mode::Auth(k) => (sys::AEAD_HPKE_MODE_AUTH, None, k),
                    $mode::AuthPsk(k, b) => (sys::AEAD_HPKE_MODE_AUTH_PSK, Some(b), k),
                }
            }
        }
    };
}

op_mode!(
    /// The sender's mode (RFC 9180 section 5): base, psk, auth (the sender's serialised private key),
    /// auth_psk.
    OpModeS,
    "private key"
);
op_mode!(
    /// The receiver's mode: base, psk, auth (the sender's serialised public key), auth_psk.
    OpModeR,
    "public key"
);

/// What a setup takes besides the suite, mode, keys and info: an OpenSSL property query, the
/// receiver's replay window, and (known-answer tests only) a fixed ephemeral key.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    properties: Option<&'a str>,
    window: u32,
    ikm_e: Option<&'a [u8]>,
}

impl<'a> Options<'a> {
    /// The defaults: the library context's properties, the default window, a random ephemeral key.
    pub const fn new() -> Self {
        Options { properties: None, window: 0, ikm_e: None }
    }

    /// An OpenSSL property query for every fetch of the setup and the context, e.g. `"fips=yes"`.
    pub const fn properties(mut self, properties: &'a str) -> Self {
        self.properties = Some(properties);
        self
    }

    /// The receiver's replay window for [`ReceiverContext::open_at`], in messages: 0 means
    /// [`DEFAULT_WINDOW`], else a multiple of 64 up to [`MAX_WINDOW`] (else the setup is
    /// [`Error::Arg`]).
    pub const fn window(mut self, window: u32) -> Self {
        self.window = window;
        self
    }

    /// The sender's ephemeral key pair becomes DeriveKeyPair(`ikm_e`) instead of a fresh random one.
    /// **For known-answer tests only** (RFC 9180's test vectors): an ephemeral key used twice
    /// breaks HPKE's security. For a post-quantum KEM, `ikm_e` is the 32 bytes of ML-KEM's
    /// encapsulation randomness (then, for a hybrid, the curve's candidate private keys), as
    /// draft-ietf-hpke-pq's vectors give them.
    pub const fn ikm_e_for_tests_only(mut self, ikm_e: &'a [u8]) -> Self {
        self.ikm_e = Some(ikm_e);
        self
    }
}

fn params<'a>(suite: &Suite, psk: Option<PskBundle<'a>>, mode: core::ffi::c_int, info: &'a [u8], o: &Options<'a>) -> Params<'a> {
    Params {
        mode,
        kem: suite.kem.raw(),
        kdf: suite.kdf.raw(),
        aead: suite.aead.raw(),
        info,
        psk: psk.map_or(&[], |b| b.psk),
        psk_id: psk.map_or(&[], |b| b.psk_id),
        properties: o.properties,
        window: o.window,
        ikm_e: o.ikm_e,
    }
}

/// What a seal wrote: the ciphertext's length (plaintext + [`TAG_LEN`]) and the sequence number
/// it was sealed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sealed {
    /// Bytes written.
    pub len: usize,
    /// The sequence number used (the receiver's [`ReceiverContext::open_at`] takes it).
    pub seq: u64,
}

/// A context type: the struct (the C context and its suite), `Debug`, and the queries both answer.
macro_rules! context_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name {
            ctx: HpkeCtx,
            suite: Suite,
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).field("suite", &self.suite).finish_non_exhaustive()
            }
        }

        impl $name {
            /// The suite.
            pub fn suite(&self) -> Suite {
                self.suite
            }

            /// The secret export interface (RFC 9180 section 5.3): fills `out_buf` with
            /// `Export(exporter_ctx, out_buf.len())`. `exporter_ctx` at most
            /// [`MAX_EXPORT_CONTEXT_LEN`] bytes and `out_buf` at most 255 times the KDF's hash size
            /// ([`Error::TooLong`] otherwise).
            pub fn export(&self, exporter_ctx: &[u8], out_buf: &mut [u8]) -> Result<(), Error> {
                self.ctx.export(exporter_ctx, out_buf)
            }

            /// The FIPS indicator (`aead_hpke_indicator`, docs/hpke.md).
            pub fn indicator(&self) -> Indicator {
                Indicator::from_bits(self.ctx.indicator())
            }

            /// The AEAD context's counters (seals made, failed opens, the replay window); `None` for
            /// the export-only AEAD.
            pub fn usage(&self) -> Option<Usage> {
                self.ctx.usage().map(Usage::from_raw)
            }

            /// Name of the OpenSSL provider serving the AEAD; `None` for the export-only AEAD.
            pub fn provider(&self) -> Option<&'static str> {
                self.ctx.provider()
            }
        }
    };
}

context_type!(
    /// A sender's context (RFC 9180's ContextS): seals messages in sequence, exports secrets.
    /// `Send + Sync`; see the [module documentation](self).
    SenderContext
);

impl SenderContext {
    /// Seals `plaintext` under the next sequence number: `ciphertext || tag` in a new `Vec`.
    pub fn seal(&self, plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; plaintext.len().checked_add(TAG_LEN).ok_or(Error::TooLong)?];
        let s = self.seal_into(plaintext, aad, &mut out)?;
        out.truncate(s.len);
        Ok(out)
    }

    /// Seals `plaintext` into `out` (at least `plaintext.len() + TAG_LEN` bytes, else
    /// [`Error::BufferTooSmall`] with nothing written and no sequence number used).
    #[inline]
    pub fn seal_into(&self, plaintext: &[u8], aad: &[u8], out: &mut [u8]) -> Result<Sealed, Error> {
        self.ctx.seal(aad, plaintext, out).map(|(len, seq)| Sealed { len, seq })
    }

    /// Seals `buf[..plaintext_len]` in place, the tag appended (`buf` needs [`TAG_LEN`] more bytes).
    #[inline]
    pub fn seal_in_place(&self, buf: &mut [u8], plaintext_len: usize, aad: &[u8]) -> Result<Sealed, Error> {
        self.ctx.seal_in_place(aad, buf, plaintext_len).map(|(len, seq)| Sealed { len, seq })
    }
}

context_type!(
    /// A receiver's context (RFC 9180's ContextR): opens messages, exports secrets. `Send + Sync`.
    ReceiverContext
);

impl ReceiverContext {
    /// Opens the next message in order (one past the largest opened so far; 0 at first) into a
    /// new `Vec`. A message sealed under another sequence number, or forged, is [`Error::Auth`].
    pub fn open(&self, ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        self.open_vec(None, ciphertext, aad)
    }

    /// [`open`](Self::open) into `out` (at least `ciphertext.len() - TAG_LEN` bytes); returns the
    /// plaintext's length. A failed open zeroes `out`.
    #[inline]
    pub fn open_into(&self, ciphertext: &[u8], aad: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.open(None, aad, ciphertext, out)
    }

    /// [`open`](Self::open) of the whole of `buf` (`ciphertext || tag`) in place; the plaintext
    /// is `buf[..n]` for the returned `n`.
    #[inline]
    pub fn open_in_place(&self, buf: &mut [u8], aad: &[u8]) -> Result<usize, Error> {
        self.ctx.open_in_place(None, aad, buf)
    }

    /// Opens the message of sequence number `seq` (for protocols that carry it) through the
    /// replay window: a number already opened, or left of the window, is [`Error::Replay`]
    /// before anything is decrypted; a forgery leaves the window as it was.
    pub fn open_at(&self, seq: u64, ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        self.open_vec(Some(seq), ciphertext, aad)
    }

    /// [`open_at`](Self::open_at) into `out`.
    #[inline]
    pub fn open_at_into(&self, seq: u64, ciphertext: &[u8], aad: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.open(Some(seq), aad, ciphertext, out)
    }

    /// [`open_at`](Self::open_at) of the whole of `buf` in place; the plaintext is `buf[..n]`.
    #[inline]
    pub fn open_at_in_place(&self, seq: u64, buf: &mut [u8], aad: &[u8]) -> Result<usize, Error> {
        self.ctx.open_in_place(Some(seq), aad, buf)
    }

    fn open_vec(&self, seq: Option<u64>, ciphertext: &[u8], aad: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; ciphertext.len().saturating_sub(TAG_LEN)];
        let n = self.ctx.open(seq, aad, ciphertext, &mut out)?;
        out.truncate(n);
        Ok(out)
    }
}

/// Sets up a sender (SetupBaseS, SetupPSKS, SetupAuthS, SetupAuthPSKS): encapsulates to the
/// receiver's serialised public key `pk_recip`. Returns the encapsulated key for the receiver and
/// the context.
pub fn setup_sender(suite: &Suite, mode: &OpModeS<'_>, pk_recip: &[u8], info: &[u8]) -> Result<(EncappedKey, SenderContext), Error> {
    setup_sender_with(suite, mode, pk_recip, info, &Options::new())
}

/// [`setup_sender`] with [`Options`].
pub fn setup_sender_with(
    suite: &Suite,
    mode: &OpModeS<'_>,
    pk_recip: &[u8],
    info: &[u8],
    options: &Options<'_>,
) -> Result<(EncappedKey, SenderContext), Error> {
    let (m, psk, sk_s) = mode.parts();
    let mut enc = EncappedKey::empty(suite.kem, suite.kem.enc_len());
    let ctx = HpkeCtx::sender(&params(suite, psk, m, info, options), pk_recip, sk_s, enc.buf())?;
    Ok((enc, SenderContext { ctx, suite: *suite }))
}

/// Sets up a receiver (SetupBaseR, ...): decapsulates `encapped_key` with the receiver's
/// serialised private key `sk_recip`.
pub fn setup_receiver(
    suite: &Suite,
    mode: &OpModeR<'_>,
    sk_recip: &[u8],
    encapped_key: &[u8],
    info: &[u8],
) -> Result<ReceiverContext, Error> {
    setup_receiver_with(suite, mode, sk_recip, encapped_key, info, &Options::new())
}

/// [`setup_receiver`] with [`Options`] (e.g. a wider replay window for
/// [`ReceiverContext::open_at`]).
pub fn setup_receiver_with(
    suite: &Suite,
    mode: &OpModeR<'_>,
    sk_recip: &[u8],
    encapped_key: &[u8],
    info: &[u8],
    options: &Options<'_>,
) -> Result<ReceiverContext, Error> {
    let (m, psk, pk_s) = mode.parts();
    let ctx = HpkeCtx::recipient(&params(suite, psk, m, info, options), encapped_key, sk_recip, pk_s)?;
    Ok(ReceiverContext { ctx, suite: *suite })
}

/// Single-shot seal (RFC 9180 section 6.1): a sender's setup and one seal (sequence number 0),
/// no context kept. Returns the encapsulated key and `ciphertext || tag`.
pub fn single_shot_seal(
    suite: &Suite,
    mode: &OpModeS<'_>,
    pk_recip: &[u8],
    info: &[u8],
    plaintext: &[u8],
    aad: &[u8],
) -> Result<(EncappedKey, Vec<u8>), Error> {
    let mut out = vec![0u8; plaintext.len().checked_add(TAG_LEN).ok_or(Error::TooLong)?];
    let (enc, n) = single_shot_seal_into(suite, mode, pk_recip, info, plaintext, aad, &mut out)?;
    out.truncate(n);
    Ok((enc, out))
}

/// [`single_shot_seal`] into `out` (at least `plaintext.len() + TAG_LEN` bytes); returns the
/// encapsulated key and the ciphertext's length.
#[allow(clippy::too_many_arguments)]
pub fn single_shot_seal_into(
    suite: &Suite,
    mode: &OpModeS<'_>,
    pk_recip: &[u8],
    info: &[u8],
    plaintext: &[u8],
    aad: &[u8],
    out: &mut [u8],
) -> Result<(EncappedKey, usize), Error> {
    let (m, psk, sk_s) = mode.parts();
    let mut enc = EncappedKey::empty(suite.kem, suite.kem.enc_len());
    let n = raw::seal_single(&params(suite, psk, m, info, &Options::new()), pk_recip, sk_s, enc.buf(), aad, plaintext, out)?;
    Ok((enc, n))
}

/// Single-shot open (RFC 9180 section 6.1): a receiver's setup and one open.
pub fn single_shot_open(
    suite: &Suite,
    mode: &OpModeR<'_>,
    sk_recip: &[u8],
    encapped_key: &[u8],
    info: &[u8],
    ciphertext: &[u8],
    aad: &[u8],
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; ciphertext.len().saturating_sub(TAG_LEN)];
    let n = single_shot_open_into(suite, mode, sk_recip, encapped_key, info, ciphertext, aad, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// [`single_shot_open`] into `out`; returns the plaintext's length.
#[allow(clippy::too_many_arguments)]
pub fn single_shot_open_into(
    suite: &Suite,
    mode: &OpModeR<'_>,
    sk_recip: &[u8],
    encapped_key: &[u8],
    info: &[u8],
    ciphertext: &[u8],
    aad: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let (m, psk, pk_s) = mode.parts();
    raw::open_single(&params(suite, psk, m, info, &Options::new()), encapped_key, sk_recip, pk_s, aad, ciphertext, out)
}
