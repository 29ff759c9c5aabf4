//! DTLS 1.2 and 1.3 record protection with a replay window (ABI 1.4, RFC 6347 / RFC 9147;
//! docs/dtls.md): one epoch's keys in one direction, checked inside the library.
//!
//! * [`RecordKey::dtls12`]: AES-128/256-GCM, AES-128/256-CCM (tag 16, or 8 for CCM_8) with the
//!   4-byte salt, ChaCha20-Poly1305 with the 12-byte IV; nonce = salt ‖ epoch ‖ seq (RFC 5288) or
//!   IV XOR (epoch ‖ seq) (RFC 7905); the AAD is the 13-byte `seq_num ‖ type ‖ version ‖ length`
//!   ([`dtls12_aad`]) and its `seq_num` must be the nonce's ([`Error::AadMismatch`]).
//! * [`RecordKey::dtls13`]: AES-128/256-GCM, AES-128-CCM, ChaCha20-Poly1305 with the 12-byte IV;
//!   nonce = IV XOR seq (the epoch selects the key and is not in the nonce); any AAD (the unified
//!   header). [`RecordKey::protect`] / [`RecordKey::unprotect`] do a whole record in one call,
//!   record-number encryption with a [`SequenceNumberKey`] included.
//!
//! Seals: the sequence number must rise (gaps allowed) and stay below 2^48 ([`Error::NonceOrder`],
//! [`Error::NonceExhausted`]; an open of a number above 2^48 - 1 is refused the same way). Opens go through the replay window: a record number accepted before,
//! or left of the window, is [`Error::Replay`] before anything is decrypted; a record that fails
//! to authenticate ([`Error::Auth`]) leaves the window exactly as it was, whatever number it
//! claimed. [`RecordKey::usage`] reports the counters. Both types are `Send + Sync`.
use crate::ffi::{Ctx, CtxParams};
use crate::{sys, Algorithm, Error};

/// Tag length of every DTLS suite but CCM_8.
pub const TAG_LEN: usize = 16;
/// The largest DTLS record sequence number (2^48 - 1).
pub const MAX_SEQUENCE: u64 = sys::AEAD_DTLS_MAX_SEQUENCE;
/// The default replay window width (64 records, the RFCs' minimum).
pub const DEFAULT_WINDOW: u32 = sys::AEAD_DTLS_DEFAULT_WINDOW;
/// The widest replay window (4096 records).
pub const MAX_WINDOW: u32 = sys::AEAD_DTLS_MAX_WINDOW;

/// The protocol version of a [`RecordKey`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// DTLS 1.2 (RFC 6347): the epoch is in every nonce and AAD.
    Dtls12,
    /// DTLS 1.3 (RFC 9147): nonce = IV XOR seq.
    Dtls13,
}

/// A snapshot of a context's counters (`aead_ctx_usage_ex`): a DTLS key's, and (through
/// [`Cipher::usage`](crate::Cipher::usage)) any context's, e.g. an SSH key's
/// ([`Aes128GcmSsh::usage`](crate::Aes128GcmSsh::usage)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Records sealed.
    pub seals: u64,
    /// Opens that failed authentication.
    pub forgeries: u64,
    /// Opens refused by the replay window (before or after decrypting).
    pub replays: u64,
    /// Records accepted into the replay window.
    pub accepted: u64,
    /// Seals allowed under the key (`u64::MAX`: no limit).
    pub seal_limit: u64,
    /// Failed opens after which opens are refused (`u64::MAX`: no limit).
    pub forgery_limit: u64,
    /// The replay window's width in records.
    pub window: u64,
    /// The largest record number accepted (`None` before the first).
    pub largest: Option<u64>,
    /// Seals after which the protocol says to change keys, though nothing is refused there
    /// (library 1.5; SSH: 2^32, RFC 4344 section 3.1; `u64::MAX`: none).
    pub rekey_after: u64,
}

impl Usage {
    pub(crate) fn from_raw(u: sys::aead_usage) -> Self {
        Usage {
            seals: u.seals,
            forgeries: u.forgeries,
            replays: u.replays,
            accepted: u.accepted,
            seal_limit: u.seal_limit,
            forgery_limit: u.forgery_limit,
            window: u.window,
            largest: (u.largest != u64::MAX).then_some(u.largest),
            rekey_after: u.rekey_after,
        }
    }
}

/// One DTLS epoch's record key in one direction, with its replay window.
pub struct RecordKey {
    ctx: Ctx,
    alg: Algorithm,
    version: Version,
    iv: [u8; 12],
    iv_len: usize,
    epoch: u64,
    tag_len: usize,
}

impl core::fmt::Debug for RecordKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RecordKey")
            .field("alg", &self.alg)
            .field("version", &self.version)
            .field("epoch", &self.epoch)
            .finish_non_exhaustive()
    }
}

/// The DTLS 1.2 AAD of a record: `epoch(2) ‖ seq(6) ‖ type ‖ version(2) ‖ length(2)`
/// (RFC 6347 section 4.1.2.1; `length` is the plaintext's).
pub fn dtls12_aad(epoch: u16, seq: u64, content_type: u8, version: [u8; 2], length: u16) -> [u8; 13] {
    let mut aad = [0u8; 13];
    aad[..8].copy_from_slice(&seq.to_be_bytes());
    aad[..2].copy_from_slice(&epoch.to_be_bytes());
    aad[8] = content_type;
    aad[9..11].copy_from_slice(&version);
    aad[11..].copy_from_slice(&length.to_be_bytes());
    aad
}

impl RecordKey {
    /// A DTLS 1.2 record key: `iv` is the 4-byte salt (AES-GCM, AES-CCM) or the 12-byte IV
    /// (ChaCha20-Poly1305); `epoch` below 2^16; `tag_len` 16, or 8 for AES-CCM_8; `window` 0 (64)
    /// or a multiple of 64 up to [`MAX_WINDOW`].
    pub fn dtls12(alg: Algorithm, key: &[u8], iv: &[u8], epoch: u16, tag_len: usize, window: u32) -> Result<Self, Error> {
        Self::with_options(Version::Dtls12, alg, key, iv, u64::from(epoch), tag_len, window, None)
    }

    /// A DTLS 1.3 record key: the 12-byte IV; `epoch` is kept for the caller (not in the nonce).
    pub fn dtls13(alg: Algorithm, key: &[u8], iv: &[u8; 12], epoch: u64, window: u32) -> Result<Self, Error> {
        Self::with_options(Version::Dtls13, alg, key, iv, epoch, TAG_LEN, window, None)
    }

    /// Either version, with an OpenSSL property query (e.g. `Some("fips=yes")`).
    #[allow(clippy::too_many_arguments)]
    pub fn with_options(
        version: Version,
        alg: Algorithm,
        key: &[u8],
        iv: &[u8],
        epoch: u64,
        tag_len: usize,
        window: u32,
        properties: Option<&str>,
    ) -> Result<Self, Error> {
        let policy = match version {
            Version::Dtls12 => sys::AEAD_POLICY_DTLS12,
            Version::Dtls13 => sys::AEAD_POLICY_DTLS13,
        };
        if iv.len() > 12 {
            return Err(Error::Arg);
        }
        let ctx = Ctx::new_dtls(CtxParams { alg: alg.raw(), policy, key, tag_len, properties, iv }, epoch, window)?;
        let mut iv12 = [0u8; 12];
        iv12[..iv.len()].copy_from_slice(iv);
        let tag_len = if tag_len == 0 { TAG_LEN } else { tag_len };
        Ok(RecordKey { ctx, alg, version, iv: iv12, iv_len: iv.len(), epoch, tag_len })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// DTLS 1.2 or 1.3.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The epoch given at creation.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The tag length (16, or 8 for DTLS 1.2 AES-CCM_8).
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// The nonce of record `seq` in this key's epoch, as the RFCs build it. `seq` is at most
    /// [`MAX_SEQUENCE`]: DTLS 1.2's nonce has room for its low 48 bits only.
    pub fn nonce(&self, seq: u64) -> [u8; 12] {
        let mut n = self.iv;
        let explicit = match self.version {
            // epoch(2) || seq(6)
            Version::Dtls12 => (self.epoch << 48) | (seq & MAX_SEQUENCE),
            Version::Dtls13 => seq,
        };
        let e = explicit.to_be_bytes();
        if self.iv_len == 4 {
            n[4..].copy_from_slice(&e);
        } else {
            for (b, x) in n[4..].iter_mut().zip(e) {
                *b ^= x;
            }
        }
        n
    }

    /// The nonce of record `seq` for the seq-taking calls: a number above [`MAX_SEQUENCE`] is no
    /// DTLS record number ([`Error::NonceExhausted`], nothing written) rather than its low 48 bits,
    /// which DTLS 1.2's nonce alone would keep.
    #[inline]
    fn record_nonce(&self, seq: u64) -> Result<[u8; 12], Error> {
        if seq > MAX_SEQUENCE {
            return Err(Error::NonceExhausted);
        }
        Ok(self.nonce(seq))
    }

    /// Seals record `seq`: `buf[..payload_len]` in place, the tag appended (`buf` needs
    /// [`tag_len`](Self::tag_len) spare bytes). Returns `payload_len + tag_len`.
    #[inline]
    pub fn seal_in_place(&self, seq: u64, aad: &[u8], buf: &mut [u8], payload_len: usize) -> Result<usize, Error> {
        self.seal_in_place_with_nonce(&self.record_nonce(seq)?, aad, buf, payload_len)
    }

    /// Seals record `seq` from `plaintext` into `out` (at least `plaintext.len() + tag_len`).
    #[inline]
    pub fn seal(&self, seq: u64, aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.seal_open(sys::AEAD_SEAL, &self.record_nonce(seq)?, aad, plaintext, out)
    }

    /// Opens record `seq` (`buf` is `ciphertext ‖ tag`) in place through the replay window;
    /// the plaintext is `buf[..n]`.
    #[inline]
    pub fn open_in_place(&self, seq: u64, aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
        self.open_in_place_with_nonce(&self.record_nonce(seq)?, aad, buf)
    }

    /// Opens record `seq` from `ciphertext` (with its tag) into `out` through the replay window.
    #[inline]
    pub fn open(&self, seq: u64, aad: &[u8], ciphertext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.ctx.seal_open(sys::AEAD_OPEN, &self.record_nonce(seq)?, aad, ciphertext, out)
    }

    /// [`seal_in_place`](Self::seal_in_place) with the nonce a stack computed itself (it must be
    /// the one the RFC prescribes for this key: the library checks its fixed part, epoch and order).
    #[inline]
    pub fn seal_in_place_with_nonce(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        payload_len: usize,
    ) -> Result<usize, Error> {
        self.ctx.seal_open_in_place(sys::AEAD_SEAL, nonce, aad, buf, payload_len)
    }

    /// [`open_in_place`](Self::open_in_place) with the nonce a stack computed itself.
    #[inline]
    pub fn open_in_place_with_nonce(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
        let len = buf.len();
        self.ctx.seal_open_in_place(sys::AEAD_OPEN, nonce, aad, buf, len)
    }

    /// DTLS 1.3: protects one record in place in one C call (`aead_dtls13_protect`):
    /// `record[..header_len]` is the unified header (the library writes its sequence number and
    /// length fields), `record[header_len..header_len + payload_len]` the DTLSInnerPlaintext; the
    /// tag is appended and the sequence number encrypted with `sn`. `record.len()` is the
    /// capacity. Returns the record's length.
    pub fn protect(
        &self,
        sn: &SequenceNumberKey,
        seq: u64,
        record: &mut [u8],
        header_len: usize,
        payload_len: usize,
    ) -> Result<usize, Error> {
        self.ctx.protect(sys::aead_dtls13_protect, sn.raw(), seq, record, header_len, payload_len)
    }

    /// DTLS 1.3: removes the protection of exactly one record in place (`aead_dtls13_unprotect`):
    /// unmasks the sequence number, reconstructs it, opens through the replay window. Returns
    /// (full sequence number, plaintext length); the plaintext follows the unmasked header.
    pub fn unprotect(&self, sn: &SequenceNumberKey, record: &mut [u8], cid_len: usize) -> Result<(u64, usize), Error> {
        self.ctx.dtls13_unprotect(sn.raw(), record, cid_len)
    }

    /// The key's counters and its window (`aead_ctx_usage_ex`).
    pub fn usage(&self) -> Usage {
        Usage::from_raw(self.ctx.usage_ex())
    }

    /// Name of the OpenSSL provider serving the key (`aead_ctx_provider`).
    pub fn provider(&self) -> &'static str {
        self.ctx.provider()
    }
}

/// DTLS 1.3's record-number key ("sn", RFC 9147 section 4.2.3): AES-ECB for the AES suites
/// (AES-128-CCM included), ChaCha20 for ChaCha20-Poly1305. The mask is QUIC's header-protection
/// mask (`aead_hp`), so this is [`quic::HeaderProtectionKey`](crate::quic::HeaderProtectionKey):
/// `SequenceNumberKey::new(alg, sn_key)`, and `mask(&ciphertext[..16])` gives the first 5 bytes
/// (the record number takes at most 2 of them).
pub type SequenceNumberKey = crate::quic::HeaderProtectionKey;
