//! QUIC packet protection (ABI 1.2, RFC 9001; docs/quic.md): a packet key under
//! `AEAD_POLICY_QUIC`, a header-protection key, and the one-call packet functions.
//!
//! * [`PacketKey`]: AES-128-GCM, AES-256-GCM or ChaCha20-Poly1305 with the "quic iv" given at
//!   creation; every seal's nonce is `iv XOR pn`, and the library refuses a packet number that is
//!   not above every one sealed before on the key, or not below 2^62. The RFC 9001 section 6.6
//!   limits are enforced inside the library ([`Error::KeyLimit`]) and visible through
//!   [`PacketKey::usage`].
//! * [`HeaderProtectionKey`]: the "quic hp" key (AES-ECB or ChaCha20), [`HeaderProtectionKey::mask`].
//! * [`PacketKey::protect`] / [`PacketKey::unprotect`]: seal + header protection (and the
//!   reverse, packet-number decoding included) in one C call per packet.
//!
//! Both types are `Send + Sync` (the C objects are safe for concurrent use).
use crate::ffi::{Ctx, CtxParams, Hp};
use crate::{sys, tls13_nonce, Algorithm, Error, Indicator};
use core::mem::MaybeUninit;

/// Tag length of every QUIC AEAD (RFC 9001 section 5.3).
pub const TAG_LEN: usize = 16;
/// Sample length of header protection (RFC 9001 section 5.4.2).
pub const SAMPLE_LEN: usize = 16;
/// Largest packet number (2^62 - 1, RFC 9000 section 12.3).
pub const MAX_PACKET_NUMBER: u64 = sys::AEAD_QUIC_MAX_PACKET_NUMBER;
/// Payloads up to this many bytes are sealed through a stack scratch buffer by
/// [`PacketKey::seal_detached`]; longer ones through one heap allocation.
const DETACHED_STACK: usize = 2048;

/// A QUIC packet-protection key ("quic key" + "quic iv") of one suite and direction.
pub struct PacketKey {
    ctx: Ctx,
    alg: Algorithm,
    iv: [u8; 12],
}

impl core::fmt::Debug for PacketKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PacketKey").field("alg", &self.alg).finish_non_exhaustive()
    }
}

impl PacketKey {
    /// A packet key for `alg` (AES-128-GCM, AES-256-GCM or ChaCha20-Poly1305; AES-192-GCM is
    /// [`Error::Arg`] or [`Error::Unsupported`] as the library says).
    pub fn new(alg: Algorithm, key: &[u8], iv: &[u8; 12]) -> Result<Self, Error> {
        Self::with_properties(alg, key, iv, None)
    }

    /// As [`new`](Self::new), with an OpenSSL property query (e.g. `Some("fips=yes")`).
    pub fn with_properties(
        alg: Algorithm,
        key: &[u8],
        iv: &[u8; 12],
        properties: Option<&str>,
    ) -> Result<Self, Error> {
        let ctx = Ctx::new_ex(CtxParams { alg: alg.raw(), policy: sys::AEAD_POLICY_QUIC, key, tag_len: TAG_LEN, properties, iv })?;
        Ok(PacketKey { ctx, alg, iv: *iv })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The nonce of packet number `pn`: `iv XOR (0^4 || BE64(pn))` (RFC 9001 section 5.3).
    #[inline]
    pub fn nonce(&self, pn: u64) -> [u8; 12] {
        tls13_nonce(&self.iv, pn)
    }

    /// Seals `buf[..payload_len]` in place with `header` as AAD under packet number `pn`, the
    /// tag following it (`buf` needs 16 spare bytes). Returns `payload_len + 16`.
    #[inline]
    pub fn seal_in_place(
        &self,
        pn: u64,
        header: &[u8],
        buf: &mut [u8],
        payload_len: usize,
    ) -> Result<usize, Error> {
        self.ctx.seal_open_in_place(sys::AEAD_SEAL, &self.nonce(pn), header, buf, payload_len)
    }

    /// Seals `payload` in place and returns the tag separately (the shape of rustls's
    /// `quic::PacketKey`). The C call writes `ciphertext || tag` contiguously, so this goes
    /// through a scratch buffer (stack up to 2048 bytes) and copies the ciphertext back: one
    /// `memcpy` of the payload. A refused seal changes nothing.
    #[inline]
    pub fn seal_detached(&self, pn: u64, header: &[u8], payload: &mut [u8]) -> Result<[u8; TAG_LEN], Error> {
        let nonce = self.nonce(pn);
        let total = payload.len().checked_add(TAG_LEN).ok_or(Error::TooLong)?;
        let mut tag = [0u8; TAG_LEN];
        if total <= DETACHED_STACK + TAG_LEN {
            let mut scratch = [MaybeUninit::<u8>::uninit(); DETACHED_STACK + TAG_LEN];
            let sealed =
                self.ctx.seal_open_uninit(sys::AEAD_SEAL, &nonce, header, payload, &mut scratch[..total])?;
            split_sealed(sealed, payload, &mut tag)?;
        } else {
            let mut v = Vec::new();
            self.ctx.seal_open_append(sys::AEAD_SEAL, &nonce, header, payload, &mut v, total)?;
            split_sealed(&v, payload, &mut tag)?;
        }
        Ok(tag)
    }

    /// Opens `buf` (`ciphertext || tag`) in place with `header` as AAD under packet number `pn`;
    /// the plaintext is `buf[..n]`. On [`Error::Auth`] the ciphertext part is zeroed and the
    /// key's forgery count rises.
    #[inline]
    pub fn open_in_place(&self, pn: u64, header: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
        let len = buf.len();
        self.ctx.seal_open_in_place(sys::AEAD_OPEN, &self.nonce(pn), header, buf, len)
    }

    /// Protects one packet in place in one C call (`aead_quic_protect`): `packet[..header_len]` is
    /// the header (its packet-number field the last `(packet[0] & 3) + 1` bytes, written by the
    /// library from `pn`), `packet[header_len..header_len + payload_len]` the payload; the tag
    /// is appended and the header protected. `packet.len()` is the capacity. Returns the
    /// packet length `header_len + payload_len + 16`. Refusals write nothing.
    #[inline]
    pub fn protect(
        &self,
        hp: &HeaderProtectionKey,
        pn: u64,
        packet: &mut [u8],
        header_len: usize,
        payload_len: usize,
    ) -> Result<usize, Error> {
        self.ctx.protect(sys::aead_quic_protect, &hp.hp, pn, packet, header_len, payload_len)
    }

    /// Removes the protection of the whole of `packet` in one C call (`aead_quic_unprotect`):
    /// `pn_offset` is where its packet-number field starts, `largest_pn` the largest packet number
    /// received so far in its space (`None`: none yet). Returns the full packet number and the
    /// plaintext length; the unprotected header is `packet[..pn_offset + pn_len]` and the
    /// plaintext follows it. On [`Error::Auth`] the header is as it arrived and the payload zeroed.
    #[inline]
    pub fn unprotect(
        &self,
        hp: &HeaderProtectionKey,
        largest_pn: Option<u64>,
        packet: &mut [u8],
        pn_offset: usize,
    ) -> Result<(u64, usize), Error> {
        self.ctx.quic_unprotect(&hp.hp, largest_pn.unwrap_or(u64::MAX), packet, pn_offset)
    }

    /// How much of the key's limits is used: (seals made, opens that failed authentication)
    /// (`aead_ctx_usage`), so a stack can schedule its key update.
    pub fn usage(&self) -> (u64, u64) {
        self.ctx.usage()
    }

    /// RFC 9001 section 6.6 confidentiality limit of the algorithm, in packets sealed: AES-GCM
    /// 2^23; ChaCha20-Poly1305 has none (`u64::MAX`, as rustls reports it).
    pub fn confidentiality_limit(&self) -> u64 {
        confidentiality_limit(self.alg)
    }

    /// RFC 9001 section 6.6 integrity limit, in failed opens: AES-GCM 2^52, ChaCha20-Poly1305 2^36.
    pub fn integrity_limit(&self) -> u64 {
        integrity_limit(self.alg)
    }

    /// The key's FIPS indicator (`aead_ctx_indicator`).
    pub fn indicator(&self) -> Indicator {
        Indicator::from_bits(self.ctx.indicator())
    }

    /// Name of the OpenSSL provider serving the key (`aead_ctx_provider`).
    pub fn provider(&self) -> &'static str {
        self.ctx.provider()
    }
}

/// Copies one seal's `ciphertext || tag` back to the payload and the tag.
#[inline(always)]
fn split_sealed(sealed: &[u8], payload: &mut [u8], tag: &mut [u8; TAG_LEN]) -> Result<(), Error> {
    if sealed.len() != payload.len() + TAG_LEN {
        return Err(Error::Crypto);
    }
    let (ct, t) = sealed.split_at(payload.len());
    payload.copy_from_slice(ct);
    tag.copy_from_slice(t);
    Ok(())
}

/// The confidentiality limit the library enforces for `alg` (see [`PacketKey::confidentiality_limit`]).
pub fn confidentiality_limit(alg: Algorithm) -> u64 {
    match alg {
        Algorithm::ChaCha20Poly1305 => u64::MAX,
        _ => sys::AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT,
    }
}

/// The integrity limit the library enforces for `alg` (see [`PacketKey::integrity_limit`]).
pub fn integrity_limit(alg: Algorithm) -> u64 {
    match alg {
        Algorithm::ChaCha20Poly1305 => sys::AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT,
        _ => sys::AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT,
    }
}

/// A QUIC header-protection key ("quic hp"): AES-ECB for the AES suites, ChaCha20 for
/// ChaCha20-Poly1305 (RFC 9001 section 5.4).
pub struct HeaderProtectionKey {
    hp: Hp,
    alg: Algorithm,
}

impl core::fmt::Debug for HeaderProtectionKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HeaderProtectionKey").field("alg", &self.alg).finish_non_exhaustive()
    }
}

impl HeaderProtectionKey {
    /// A header-protection key for the suite of `alg` (16-byte key for AES-128-GCM, 32 for the others).
    pub fn new(alg: Algorithm, key: &[u8]) -> Result<Self, Error> {
        Self::with_properties(alg, key, None)
    }

    /// As [`new`](Self::new), with an OpenSSL property query.
    pub fn with_properties(alg: Algorithm, key: &[u8], properties: Option<&str>) -> Result<Self, Error> {
        Ok(HeaderProtectionKey { hp: Hp::new(alg.raw(), key, properties)?, alg })
    }

    /// The algorithm whose suite this key belongs to.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    pub(crate) fn raw(&self) -> &Hp {
        &self.hp
    }

    /// The 5-byte mask of a 16-byte ciphertext sample (`aead_hp_mask`); another sample length is
    /// [`Error::Arg`].
    #[inline]
    pub fn mask(&self, sample: &[u8]) -> Result<[u8; 5], Error> {
        self.hp.mask(sample)
    }
}
