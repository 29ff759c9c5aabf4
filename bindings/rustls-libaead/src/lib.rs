//! A [rustls] [`CryptoProvider`] whose record protection is **libaead**.
//!
//! Every AEAD cipher suite of rustls's *ring* provider is offered, with its record encryption and
//! decryption done by libaead (one C call per record, nonce rules enforced inside the library):
//!
//! * TLS 1.3: `TLS13_AES_128_GCM_SHA256`, `TLS13_AES_256_GCM_SHA384`,
//!   `TLS13_CHACHA20_POLY1305_SHA256`;
//! * TLS 1.2: `TLS_ECDHE_{ECDSA,RSA}_WITH_AES_{128,256}_GCM_SHA{256,384}` and
//!   `TLS_ECDHE_{ECDSA,RSA}_WITH_CHACHA20_POLY1305_SHA256`;
//! * opt-in, not in [`provider`]: [`TLS13_AES_128_CCM_SHA256`] (TLS 1.3, AES-128-CCM; push it
//!   onto a provider's `cipher_suites` to enable it; TCP only, no QUIC).
//!
//! Those three TLS 1.3 suites also carry QUIC packet protection (`Tls13CipherSuite.quic`, RFC 9001):
//! packet keys are libaead `AEAD_POLICY_QUIC` contexts (nonce = IV XOR packet number checked
//! inside the library, RFC 9001 key-usage limits), header protection is libaead's `aead_hp`; so
//! quinn runs on [`provider`] (quinn still needs its own `rustls-ring` feature for Retry and
//! token keys). [`quic_forgeries`] and [`quic_packet_keys`] are diagnostics of that side.
//!
//! Key exchange, signatures, HKDF / PRF and randomness are rustls's *ring* provider's.
//! Each encrypter hands libaead the IV rustls derived (`aead_ctx_new_ex`), so the library checks
//! every record nonce against the construction rustls uses: TLS 1.3 and TLS 1.2
//! ChaCha20-Poly1305 `iv XOR seq`; TLS 1.2 AES-GCM `salt || (mask XOR seq)` with the mask from
//! the key block. A nonce the library refuses is a [`rustls::Error`], never a panic in this
//! crate: rustls 0.23 itself unwraps the encrypter's result (`RecordLayer::encrypt_outgoing`), which
//! it can do because its sequence numbers never repeat and stop before 2^64-1 (see the README).
//!
//! ```no_run
//! let config = rustls::ClientConfig::builder_with_provider(rustls_libaead::provider().into())
//!     .with_safe_default_protocol_versions()
//!     .unwrap()
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! # drop(config);
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

// Modules import in one direction only: lib -> suites -> {tls13, tls12, quic} -> {record, fips}
// -> libaead. `fips` answers indicator questions and knows no suite; `suites` owns the probes.
mod fips;
mod quic;
mod record;
mod suites;
mod tls12;
mod tls13;

pub use quic::{forgeries as quic_forgeries, packet_keys as quic_packet_keys};
pub use suites::{cipher_suites, opt_in_cipher_suites, suite_by_name, TLS13_AES_128_CCM_SHA256};

use rustls::crypto::CryptoProvider;

/// rustls's *ring* provider with every cipher suite's record protection replaced by libaead.
///
/// Suites whose algorithm the loaded OpenSSL providers cannot serve (ChaCha20-Poly1305 under a
/// FIPS-only configuration) are left out, so a connection never picks a suite whose records
/// could not be protected.
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: cipher_suites(),
        ..rustls::crypto::ring::default_provider()
    }
}

/// True when libaead's indicator (`aead_ctx_indicator`) reports both seals and opens approved
/// for every AEAD algorithm [`provider`] offers (the opt-in [`TLS13_AES_128_CCM_SHA256`] is not
/// among them; its own `Tls13AeadAlgorithm::fips` asks the indicator the same way).
///
/// This is what the suites' `Tls13AeadAlgorithm::fips` / `Tls12AeadAlgorithm::fips` return
/// (per algorithm). `CryptoProvider::fips()` of [`provider`] is still `false`: *ring*, which
/// does key exchange, signatures and HKDF here, is not a FIPS module.
pub fn record_protection_fips() -> bool {
    suites::all_approved()
}
