//! The cipher suites: rustls's *ring* suites (hash, HKDF / PRF, key exchange and signature
//! schemes kept as they are) with the AEAD replaced by libaead's. Built at first use because
//! *ring*'s hash and HKDF objects are only reachable through its suites.
use crate::fips::Probe;
use crate::{quic, tls12, tls13};
use rustls::crypto::cipher::{Tls12AeadAlgorithm, Tls13AeadAlgorithm};
use rustls::crypto::ring::cipher_suite as ring;
use rustls::{
    CipherSuite, CipherSuiteCommon, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};
use std::sync::LazyLock;

fn ring13(ring_suite: SupportedCipherSuite) -> &'static Tls13CipherSuite {
    let SupportedCipherSuite::Tls13(s) = ring_suite else {
        unreachable!("a TLS 1.3 suite")
    };
    s
}

fn with_aead13(
    ring_suite: SupportedCipherSuite,
    aead: &'static dyn Tls13AeadAlgorithm,
    quic: &'static dyn rustls::quic::Algorithm,
) -> Tls13CipherSuite {
    let s = ring13(ring_suite);
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

        /// Every default suite, in rustls's *ring* preference order, with whether libaead can serve it.
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

/// TLS_AES_128_CCM_SHA256's `confidentiality_limit`, in records: draft-irtf-cfrg-aead-limits
/// (section 5.3) bounds AES-CCM's confidentiality advantage by (2l * q)^2 / 2^128 for q records of
/// l blocks; with rustls's own convention for AES-GCM (advantage 2^-60, l = 2^14 / 16 + 2 = 1026
/// blocks) q <= 2^34 / 2052, about 2^22.997, rounded down to a power of two as rustls does.
const CCM_CONFIDENTIALITY_LIMIT: u64 = 1 << 22;

/// TLS_AES_128_CCM_SHA256 (0x1304): *ring*'s SHA-256 hash and HKDF (those of its
/// TLS13_AES_128_GCM_SHA256) with libaead's AES-128-CCM record protection. No QUIC: RFC 9001
/// allows AES-128-CCM, but this crate's QUIC side (packet keys, header protection) is AES-GCM
/// and ChaCha20-Poly1305 only, so `quic` is `None` and rustls never offers the suite on a QUIC
/// connection (`SupportedCipherSuite::usable_for_protocol`, rustls src/suites.rs).
static CCM13: LazyLock<Tls13CipherSuite> = LazyLock::new(|| {
    let s = ring13(ring::TLS13_AES_128_GCM_SHA256);
    Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_128_CCM_SHA256,
            hash_provider: s.common.hash_provider,
            confidentiality_limit: CCM_CONFIDENTIALITY_LIMIT,
        },
        hkdf_provider: s.hkdf_provider,
        aead_alg: &tls13::AES_128_CCM,
        quic: None,
    }
});

/// `TLS13_AES_128_CCM_SHA256` (TLS 1.3, 0x1304), record protection by libaead's AES-128-CCM
/// (16-byte tags). **Opt-in**: not in [`provider`](crate::provider) nor
/// [`cipher_suites`](crate::cipher_suites) (few peers enable it; OpenSSL has it off by default).
/// Add it to a provider's `cipher_suites` to offer or accept it:
///
/// ```
/// let mut provider = rustls_libaead::provider();
/// provider.cipher_suites.push(*rustls_libaead::TLS13_AES_128_CCM_SHA256);
/// ```
///
/// Its `fips()` is libaead's indicator for an AES-128-CCM `AEAD_POLICY_TLS13` context (approved
/// under a FIPS provider, like the AES-GCM suites). Not for QUIC (`quic` is `None`), and
/// `dangerous_extract_secrets` fails with it: rustls's `ConnectionTrafficSecrets` has no CCM
/// variant. [`opt_in_cipher_suites`](crate::opt_in_cipher_suites) lists it only when the loaded
/// OpenSSL providers can serve it.
pub static TLS13_AES_128_CCM_SHA256: LazyLock<SupportedCipherSuite> =
    LazyLock::new(|| SupportedCipherSuite::Tls13(&CCM13));

/// The opt-in suites, with whether libaead can serve them.
fn opt_in() -> [(SupportedCipherSuite, &'static Probe); 1] {
    [(*TLS13_AES_128_CCM_SHA256, &tls13::AES_128_CCM.probe)]
}

/// Every suite whose AEAD libaead can serve with the loaded OpenSSL providers (all nine with
/// OpenSSL's default provider; the AES-GCM ones only under a FIPS-only configuration), in
/// rustls's *ring* preference order: TLS 1.3 first, AES-256-GCM before AES-128-GCM before
/// ChaCha20-Poly1305, ECDSA before RSA.
pub fn cipher_suites() -> Vec<SupportedCipherSuite> {
    available(all())
}

/// The suites of `list` whose probe says libaead can serve them.
fn available<const N: usize>(
    list: [(SupportedCipherSuite, &'static Probe); N],
) -> Vec<SupportedCipherSuite> {
    list.into_iter()
        .filter(|(_, p)| p.available())
        .map(|(s, _)| s)
        .collect()
}

/// The opt-in suites (today [`TLS13_AES_128_CCM_SHA256`] alone) that libaead can serve with the
/// loaded OpenSSL providers: not in [`cipher_suites`]; add them to a provider to enable them.
pub fn opt_in_cipher_suites() -> Vec<SupportedCipherSuite> {
    available(opt_in())
}

/// The libaead-backed suite with this IANA / rustls name (e.g. `TLS13_AES_128_GCM_SHA256`,
/// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256`, the opt-in `TLS13_AES_128_CCM_SHA256`),
/// available or not.
pub fn suite_by_name(name: &str) -> Option<SupportedCipherSuite> {
    all()
        .into_iter()
        .chain(opt_in())
        .map(|(s, _)| s)
        .find(|s| s.suite().as_str() == Some(name))
}

/// True when the record-protection probe of every suite of `cipher_suites` is approved
/// (`rustls_libaead::record_protection_fips`; the opt-in suites have their own `fips()`).
pub(crate) fn all_approved() -> bool {
    all()
        .into_iter()
        .all(|(_, p)| !p.available() || p.approved())
}
