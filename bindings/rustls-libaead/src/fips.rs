//! `fips()` of the AEAD algorithms: what libaead's indicator says for a context made the way the
//! record layer makes them (same algorithm, TLS policy and IV mode), asked once per process.
use libaead::{Algorithm, Cipher, Policy};
use std::sync::OnceLock;

/// One lazily answered indicator question.
pub(crate) struct Probe {
    alg: Algorithm,
    policy: Policy,
    answer: OnceLock<bool>,
}

impl Probe {
    pub(crate) const fn new(alg: Algorithm, policy: Policy) -> Self {
        Probe {
            alg,
            policy,
            answer: OnceLock::new(),
        }
    }

    /// Whether libaead can make this context at all (the algorithm is available).
    pub(crate) fn available(&self) -> bool {
        self.context().is_some()
    }

    /// Seals and opens both approved by the indicator.
    pub(crate) fn approved(&self) -> bool {
        *self.answer.get_or_init(|| {
            self.context().is_some_and(|c| {
                let ind = c.indicator();
                ind.seal_approved() && ind.open_approved()
            })
        })
    }

    fn context(&self) -> Option<Cipher> {
        let key = [0u8; 32];
        let iv = [0u8; 12];
        Cipher::with_options(
            self.alg,
            self.policy,
            &key[..self.alg.key_size()],
            16,
            None,
            &iv,
        )
        .ok()
    }
}

pub(crate) fn all_approved() -> bool {
    crate::suites::probes().all(|p| !p.available() || p.approved())
}
