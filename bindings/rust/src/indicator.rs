//! The FIPS approved-use indicator of a context (`aead_ctx_indicator`, ABI 1.1; docs/fips.md).
use crate::sys;

/// What libaead knows about a context's FIPS status: fixed for the life of the context.
///
/// The validated boundary is the provider's; this records which provider serves the context and
/// whether its operations use a construction FIPS 140-3 IG C.H approves (docs/fips.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Indicator(u32);

impl Indicator {
    /// Wraps raw `AEAD_IND_*` bits.
    pub const fn from_bits(bits: u32) -> Self {
        Indicator(bits)
    }

    /// The raw `AEAD_IND_*` bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// `AEAD_IND_FIPS_PROVIDER`: the cipher comes from a provider that reports itself FIPS.
    pub const fn fips_provider(self) -> bool {
        self.0 & sys::AEAD_IND_FIPS_PROVIDER != 0
    }

    /// `AEAD_IND_SEAL_APPROVED`: seals are approved (FIPS provider, AES-GCM, 16-byte tag, and a
    /// nonce construction the library enforces: TLS 1.2 / 1.3 or random nonce). Never for
    /// [`Policy::None`](crate::Policy::None).
    pub const fn seal_approved(self) -> bool {
        self.0 & sys::AEAD_IND_SEAL_APPROVED != 0
    }

    /// `AEAD_IND_OPEN_APPROVED`: opens are approved (FIPS provider, AES-GCM).
    pub const fn open_approved(self) -> bool {
        self.0 & sys::AEAD_IND_OPEN_APPROVED != 0
    }
}
