//! The cipher suites: rustls's *ring* suites (hash, HKDF / PRF, key exchange and signature
//! schemes kept as they are) with the AEAD replaced by libaead's. Built at first use because
//! *ring*'s hash and HKDF objects are only reachable through its suites.
use crate::fips::Probe;
use crate::{quic, tls12, tls13};
use rustls::crypto::cipher::{Tls12AeadAlgorithm, Tls13AeadAlgorithm};
use rustls::crypto::ring::cipher_suite as ring;
use rustls::{CipherSuiteCommon, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite};
use std::sync::LazyLock;

fn with_aead13(
    ring_suite: SupportedCipherSuite,
    aead: &'static dyn Tls13AeadAlgorithm,
    quic: &'static dyn rustls::quic::Algorithm,
) -> Tls13CipherSuite {
    let SupportedCipherSuite::Tls13(s) = ring_suite else {
        unreachable!("a TLS 1.3 suite")
    };
    Tls13CipherSuite {
        common: copy_common(&s.common),
        hkdf_provider: s.hkdf_provider,
        aead_alg: aead,
        quic: Some(quic), // QUIC packet and header protection: libaead too (quic.rs)
    }
}

fn with_aead12(
    ring_suite: SupportedCipherSuite,
    aead: &'static dyn Tls12AeadAlgorithm,
) -> Tls12CipherSuite {
    let SupportedCipherSuite::Tls12(s) = ring_suite else {
        unreachable!("a TLS 1.2 suite")
    };
    Tls12CipherSuite {
        common: copy_common(&s.common),
        prf_provider: s.prf_provider,
        kx: s.kx,
        sign: s.sign,
        aead_alg: aead,
    }
}

fn copy_common(c: &CipherSuiteCommon) -> CipherSuiteCommon {
    CipherSuiteCommon {
        suite: c.suite,
        hash_provider: c.hash_provider,
        confidentiality_limit: c.confidentiality_limit,
    }
}

macro_rules! suites {
    ($( $v:ident $name:ident = $with:ident($ring:ident, $($aead:path),+; $probe:expr); )*) => {
        $( static $name: LazyLock<$v> = LazyLock::new(|| $with(ring::$ring, $(&$aead),+)); )*

        /// Every suite, in rustls's *ring* preference order, with whether libaead can serve it.
        fn all() -> [(SupportedCipherSuite, &'static Probe); 9] {
            [$( (suites!(@wrap $v, &*$name), $probe) ),*]
        }
    };
    (@wrap Tls13CipherSuite, $s:expr) => { SupportedCipherSuite::Tls13($s) };
    (@wrap Tls12CipherSuite, $s:expr) => { SupportedCipherSuite::Tls12($s) };
}

suites! {
    Tls13CipherSuite TLS13_AES_256_GCM_SHA384 = with_aead13(TLS13_AES_256_GCM_SHA384, tls13::AES_256_GCM, quic::AES_256_GCM; &tls13::AES_256_GCM.probe);
    Tls13CipherSuite TLS13_AES_128_GCM_SHA256 = with_aead13(TLS13_AES_128_GCM_SHA256, tls13::AES_128_GCM, quic::AES_128_GCM; &tls13::AES_128_GCM.probe);
    Tls13CipherSuite TLS13_CHACHA20_POLY1305_SHA256 = with_aead13(TLS13_CHACHA20_POLY1305_SHA256, tls13::CHACHA20_POLY1305, quic::CHACHA20_POLY1305; &tls13::CHACHA20_POLY1305.probe);
    Tls12CipherSuite ECDSA_AES_256_GCM = with_aead12(TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls12::AES_256_GCM; &tls12::AES_256_GCM.probe);
    Tls12CipherSuite ECDSA_AES_128_GCM = with_aead12(TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls12::AES_128_GCM; &tls12::AES_128_GCM.probe);
    Tls12CipherSuite ECDSA_CHACHA20_POLY1305 = with_aead12(TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls12::CHACHA20_POLY1305; &tls12::CHACHA20_POLY1305.probe);
    Tls12CipherSuite RSA_AES_256_GCM = with_aead12(TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, tls12::AES_256_GCM; &tls12::AES_256_GCM.probe);
    Tls12CipherSuite RSA_AES_128_GCM = with_aead12(TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, tls12::AES_128_GCM; &tls12::AES_128_GCM.probe);
    Tls12CipherSuite RSA_CHACHA20_POLY1305 = with_aead12(TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, tls12::CHACHA20_POLY1305; &tls12::CHACHA20_POLY1305.probe);
}

/// Every suite whose AEAD libaead can serve with the loaded OpenSSL providers (all nine with
/// OpenSSL's default provider; the AES-GCM ones only under a FIPS-only configuration), in
/// rustls's *ring* preference order: TLS 1.3 first, AES-256-GCM before AES-128-GCM before
/// ChaCha20-Poly1305, ECDSA before RSA.
pub fn cipher_suites() -> Vec<SupportedCipherSuite> {
    all()
        .into_iter()
        .filter(|(_, p)| p.available())
        .map(|(s, _)| s)
        .collect()
}

/// The libaead-backed suite with this IANA / rustls name (e.g. `TLS13_AES_128_GCM_SHA256`,
/// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256`), available or not.
pub fn suite_by_name(name: &str) -> Option<SupportedCipherSuite> {
    all()
        .into_iter()
        .map(|(s, _)| s)
        .find(|s| s.suite().as_str() == Some(name))
}

/// True when the record-protection probe of every suite libaead can serve is approved
/// (`rustls_libaead::record_protection_fips`).
pub(crate) fn all_approved() -> bool {
    all()
        .into_iter()
        .all(|(_, p)| !p.available() || p.approved())
}
