//! Safe Rust binding of **libaead**: AES-128/192/256-GCM and ChaCha20-Poly1305 through OpenSSL 3,
//! one C call per operation, with TLS 1.2 / TLS 1.3 nonce sequencing checked inside the library.
//!
//! * [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`], [`ChaCha20Poly1305`] implement the RustCrypto
//!   [`aead`] 0.6 traits ([`KeyInit`](aead::KeyInit), [`AeadCore`](aead::AeadCore),
//!   [`AeadInOut`](aead::AeadInOut), and so `aead::Aead` with this crate's default `alloc`
//!   feature), so they drop into code written against the
//!   `aes-gcm` / `chacha20poly1305` crates (12-byte nonces, 16-byte tags).
//! * Library 1.2 families, named as the RustCrypto crates name them: [`Aes128Ccm`]`<M, N>`
//!   (tag and nonce sizes as typenum parameters, as `ccm::Ccm<Aes128, M, N>`), [`Aes128GcmSiv`] /
//!   [`Aes256GcmSiv`] (OpenSSL >= 3.2: see their docs for how an older libcrypto is reported),
//!   [`Aes128Ocb3`]`<N = U12>` (as `ocb3::Ocb3`), and [`XChaCha20Poly1305`] (24-byte nonce;
//!   [`XChaCha20Poly1305RandomNonce`] draws them).
//! * Library 1.3, AES-SIV (RFC 5297): [`Aes128SivAead`]`<N = U16>` / [`Aes256SivAead`] (as
//!   `aes_siv::Aes128SivAead`: output `tag || ciphertext`) and [`siv::Aes128Siv`] (as
//!   `aes_siv::siv::Aes128Siv`: `encrypt(headers, plaintext)` with any number of headers, one C
//!   call); 192-bit keys too. An empty message needs OpenSSL >= 3.5.
//! * Library 1.7, AEGIS (RFC 10032, computed by libaegis inside libaead): [`Aegis128L`]`<T = U16>`,
//!   [`Aegis128X2`], [`Aegis128X4`], [`Aegis256`], [`Aegis256X2`], [`Aegis256X4`], the tag size `T`
//!   `U16` or `U32` (as the `aegis` crate's `Aegis128L<16>` / `<32>`), and their random-nonce forms
//!   ([`Aegis128LRandomNonce`], ...: output `nonce || ciphertext || tag`).
//! * [`Tls12Aead`] and [`Tls13Aead`] seal records under the TLS nonce policies and return a typed
//!   [`Error`] on nonce misuse ([`Error::NonceOrder`], [`Error::NonceExhausted`],
//!   [`Error::NoncePrefix`], [`Error::AadSize`]).
//!   `with_iv` / `with_options` (ABI 1.1) take the connection IV and an OpenSSL property query.
//! * [`Aes128GcmRandomNonce`] / [`Aes256GcmRandomNonce`]: library-drawn nonces, output
//!   `nonce || ciphertext || tag` (Go's `cipher.NewGCMWithRandomNonce` layout).
//! * Counter nonces for any protocol (library 1.5), the nonces of Go's FIPS
//!   `NewGCMWithCounterNonce`, `NewGCMWithXORCounterNonce` and `NewGCMForSSH` checked inside the
//!   library: [`Aes128GcmCounterNonce`] (fixed ‖ start + n), [`Aes128GcmXorCounterNonce`]
//!   (fixed ‖ mask XOR n), both also with ChaCha20-Poly1305, and [`Aes128GcmSsh`] /
//!   [`Aes256GcmSsh`] (RFC 5647: 4-byte AAD, seals counted toward RFC 4344's rekey point). They
//!   implement the RustCrypto traits; a refused nonce is a typed [`Error`] from their own methods.
//! * [`quic`] (ABI 1.2): QUIC packet protection, RFC 9001: [`quic::PacketKey`] (nonce = IV XOR
//!   packet number, strictly increasing on seal, RFC 9001 key-usage limits enforced),
//!   [`quic::HeaderProtectionKey`], and one C call per packet ([`quic::PacketKey::protect`] /
//!   [`quic::PacketKey::unprotect`]).
//! * [`dtls`] (ABI 1.4): DTLS 1.2 / 1.3 record protection, RFC 6347 / RFC 9147:
//!   [`dtls::RecordKey`] (one epoch and direction; the sequence number checked on seal, the replay
//!   window kept on open: [`Error::Replay`], [`Error::AadMismatch`]; counters in
//!   [`dtls::RecordKey::usage`]), [`dtls::SequenceNumberKey`] and one C call per DTLS 1.3 record.
//! * [`hpke`] (library 1.6): HPKE, RFC 9180, shaped like the `hpke` crate:
//!   [`hpke::setup_sender`] / [`hpke::setup_receiver`] give `Send + Sync` contexts whose sequence
//!   number the library keeps (any number of threads may seal on one context), with `seal`,
//!   `open`, `open_at` (a replay window) and `export`; single-shot seal and open; every RFC 9180
//!   suite (DHKEM P-256/384/521, X25519, X448; HKDF-SHA256/384/512; AES-128/256-GCM,
//!   ChaCha20-Poly1305, export-only) and mode.
//! * [`stream`] (library 1.7): streaming AEAD for files and HTTP bodies as `std::io` adapters:
//!   Tink's AES-GCM-HKDF streaming (with `Read + Seek` random access), age's payload and RFC 8188
//!   `aes128gcm`; a stream cut short, reordered, extended or modified is an `InvalidData` error
//!   wrapping [`Error::Auth`], never an early end of file.
//! * [`Cipher`] exposes the full C API safely (any algorithm, policy, nonce length and tag length,
//!   property queries, the FIPS [`Indicator`], batches of [`Record`]s, and (ABI 1.3) the AAD as
//!   components with batches of [`RecordV`]s).
//!
//! Every type is `Send + Sync`: the C context is documented safe for concurrent use by any number
//! of threads, TLS policies included. `Drop` frees (and cleanses) the context.
//!
//! After `fork()` (library 1.2) random-nonce types keep sealing with fresh nonces in parent and
//! child; a TLS, counter-nonce or HPKE sender type made before the fork refuses seals in the child with [`Error::Forked`]
//! (opens work, the parent is unaffected).
//!
//! ```
//! use libaead::aead::{Aead, AeadCore, KeyInit, Payload};
//! use libaead::Aes256Gcm;
//!
//! let cipher = Aes256Gcm::new(&[7u8; 32].into());
//! let nonce = [1u8; 12].into();
//! let ct = cipher.encrypt(&nonce, Payload { msg: b"hello", aad: b"hdr" }).unwrap();
//! assert_eq!(ct.len(), 5 + 16);
//! let pt = cipher.decrypt(&nonce, Payload { msg: &ct, aad: b"hdr" }).unwrap();
//! assert_eq!(pt, b"hello");
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub use aead;

#[macro_use]
mod macros;
mod cipher;
mod counter;
pub mod dtls;
mod error;
mod families;
mod ffi;
pub mod hpke;
mod indicator;
pub mod quic;
mod random_nonce;
pub mod siv;
pub mod stream;
pub mod sys;
mod tls;
mod typed;

pub use cipher::{Algorithm, Cipher, Policy, DETACHED_STACK_LIMIT};
pub use counter::{
    counter_nonce, xor_counter_nonce, Aes128GcmCounterNonce, Aes128GcmSsh, Aes128GcmXorCounterNonce, Aes192GcmCounterNonce,
    Aes192GcmXorCounterNonce, Aes256GcmCounterNonce, Aes256GcmSsh, Aes256GcmXorCounterNonce, ChaCha20Poly1305CounterNonce,
    ChaCha20Poly1305XorCounterNonce,
};
pub use error::Error;
pub use families::{
    Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4, AegisTagSize, Aes128Ccm, Aes128GcmSiv, Aes128Ocb3, Aes128SivAead, Aes192Ccm, Aes192GcmSiv, Aes192Ocb3, Aes192SivAead, Aes256Ccm,
    Aes256GcmSiv, Aes256Ocb3, Aes256SivAead, AesCcm, AesKeySize, AesOcb3, AesSivAead, CcmNonceSize, CcmTagSize,
    Ocb3NonceSize, SivKeySize,
};
pub use ffi::{Component, Record, RecordV};
pub use indicator::Indicator;
pub use random_nonce::{
    Aegis128LRandomNonce, Aegis128X2RandomNonce, Aegis128X4RandomNonce, Aegis256RandomNonce, Aegis256X2RandomNonce,
    Aegis256X4RandomNonce, Aes128GcmRandomNonce, Aes192GcmRandomNonce, Aes256GcmRandomNonce, XChaCha20Poly1305RandomNonce,
};
pub use tls::{tls12_gcm_nonce, tls13_nonce, Tls12Aead, Tls13Aead};
pub use typed::{Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, XChaCha20Poly1305};

/// `AEAD_ABI_VERSION` of the loaded library (`aead_abi_version()`); equals [`sys::AEAD_ABI_VERSION`]
/// for the ABI this crate was written against.
pub fn abi_version() -> u32 {
    ffi::abi_version()
}

/// `AEAD_VERSION_NUMBER` of the loaded library (`aead_version_number()`, ABI 1.1), e.g. 10500.
pub fn version_number() -> u32 {
    ffi::version_number()
}

/// Version text of the loaded library and its libcrypto, e.g.
/// `"libaead 1.0.0 (OpenSSL 3.0.19 27 Jan 2026)"`.
pub fn version() -> &'static str {
    ffi::version()
}
