//! `fips()` of the AEAD algorithms: what libaead's indicator says for a context made the way the
//! record layer or the QUIC packet layer makes them (same algorithm, policy and IV mode), asked
//! once per process. This module knows nothing of the suites: they hold their probes.
use libaead::{Algorithm, Cipher, Indicator, Policy};
use std::sync::OnceLock;

/// Which kind of context a probe makes.
enum Kind {
    /// A TLS record context (`aead_ctx_new_ex` with a TLS policy and the IV up front).
    Record(Policy),
    /// A QUIC packet key (`AEAD_POLICY_QUIC`) and its header-protection key.
    Quic,
}

/// One lazily answered indicator question.
pub(crate) struct Probe {
    alg: Algorithm,
    kind: Kind,
    answer: OnceLock<bool>,
}

impl Probe {
    /// The question for TLS record contexts of `alg` under `policy`.
    pub(crate) const fn record(alg: Algorithm, policy: Policy) -> Self {
        Probe {
            alg,
            kind: Kind::Record(policy),
            answer: OnceLock::new(),
        }
    }

    /// The question for QUIC packet keys of `alg`.
    pub(crate) const fn quic(alg: Algorithm) -> Self {
        Probe {
            alg,
            kind: Kind::Quic,
            answer: OnceLock::new(),
        }
    }

    /// Whether libaead can make this context at all (the algorithm is available).
    pub(crate) fn available(&self) -> bool {
        self.indicator().is_some()
    }

    /// Seals and opens both approved by the indicator.
    pub(crate) fn approved(&self) -> bool {
        *self.answer.get_or_init(|| {
            self.indicator()
                .is_some_and(|ind| ind.seal_approved() && ind.open_approved())
        })
    }

    fn indicator(&self) -> Option<Indicator> {
        let key = &[0u8; 32][..self.alg.key_size()];
        let iv = [0u8; 12];
        match self.kind {
            Kind::Record(policy) => Cipher::with_options(self.alg, policy, key, 16, None, &iv)
                .ok()
                .map(|c| c.indicator()),
            // Header protection must be available too (AES-ECB / ChaCha20 from the same providers).
            Kind::Quic => libaead::quic::HeaderProtectionKey::new(self.alg, key)
                .and_then(|_| libaead::quic::PacketKey::new(self.alg, key, &iv))
                .ok()
                .map(|k| k.indicator()),
        }
    }
}
