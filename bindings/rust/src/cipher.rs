use crate::ffi::{self, Aad, Components, Ctx, CtxParams, Record, RecordV};
use crate::{sys, Error, Indicator};
use aead::inout::InOutBuf;
use core::ffi::c_int;
use core::mem::MaybeUninit;

/// The AEAD algorithms of libaead. `#[non_exhaustive]` since library 1.2 added families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// AES-128-GCM (16-byte key).
    Aes128Gcm,
    /// AES-192-GCM (24-byte key).
    Aes192Gcm,
    /// AES-256-GCM (32-byte key).
    Aes256Gcm,
    /// ChaCha20-Poly1305, RFC 8439 (32-byte key, 12-byte nonce).
    ChaCha20Poly1305,
    /// AES-128-CCM (library 1.2; nonce 7..=13, tag 4..=16 even).
    Aes128Ccm,
    /// AES-192-CCM (library 1.2).
    Aes192Ccm,
    /// AES-256-CCM (library 1.2).
    Aes256Ccm,
    /// AES-128-GCM-SIV, RFC 8452 (library 1.2; OpenSSL >= 3.2, else [`Error::Unsupported`]).
    Aes128GcmSiv,
    /// AES-192-GCM-SIV (library 1.2; OpenSSL >= 3.2).
    Aes192GcmSiv,
    /// AES-256-GCM-SIV (library 1.2; OpenSSL >= 3.2).
    Aes256GcmSiv,
    /// AES-128-OCB3, RFC 7253 (library 1.2; nonce 1..=15, tag 16).
    Aes128Ocb3,
    /// AES-192-OCB3 (library 1.2).
    Aes192Ocb3,
    /// AES-256-OCB3 (library 1.2).
    Aes256Ocb3,
    /// XChaCha20-Poly1305 (library 1.2; 24-byte nonce; [`Policy::RandomNonce`] draws 24 bytes).
    XChaCha20Poly1305,
    /// AES-SIV, RFC 5297 (library 1.3; 32-byte key: CMAC key then CTR key): output
    /// `SIV(16) || ciphertext`, the tag first. Through `aead_seal_open` the components are
    /// `[aad]` then the nonce if non-empty (RFC 5297 section 6, as `aes_siv::Aes128SivAead`); the
    /// `_v` methods ([`Cipher::seal_v_into`]) take several. Any nonce length, tag 16,
    /// [`Policy::None`] only; an empty message is [`Error::Unsupported`] below OpenSSL 3.5.
    /// Not in FIPS providers.
    Aes128Siv,
    /// AES-SIV with a 48-byte key (two AES-192 keys; library 1.3).
    Aes192Siv,
    /// AES-SIV with a 64-byte key (two AES-256 keys; library 1.3).
    Aes256Siv,
    /// AEGIS-128L, RFC 10032 (library 1.7; key 16, nonce 16, tag 16 or 32). Not on OpenSSL: libaegis,
    /// compiled into libaead ([`Cipher::provider`] is `"libaegis"`). [`Policy::None`] and
    /// [`Policy::RandomNonce`] (16-byte nonces, 2^48 seals); not FIPS-approved (a FIPS property
    /// query is [`Error::Unsupported`]).
    Aegis128L,
    /// AEGIS-256, RFC 10032 (library 1.7; key 32, nonce 32, tag 16 or 32; random nonces: no seal limit).
    Aegis256,
    /// AEGIS-128X2, RFC 10032 (library 1.7; AEGIS-128L on two lanes; key 16, nonce 16).
    Aegis128X2,
    /// AEGIS-128X4, RFC 10032 (library 1.7; AEGIS-128L on four lanes; key 16, nonce 16).
    Aegis128X4,
    /// AEGIS-256X2, RFC 10032 (library 1.7; AEGIS-256 on two lanes; key 32, nonce 32).
    Aegis256X2,
    /// AEGIS-256X4, RFC 10032 (library 1.7; AEGIS-256 on four lanes; key 32, nonce 32).
    Aegis256X4,
}

impl Algorithm {
    pub(crate) fn raw(self) -> c_int {
        match self {
            Algorithm::Aes128Gcm => sys::AEAD_AES_128_GCM,
            Algorithm::Aes192Gcm => sys::AEAD_AES_192_GCM,
            Algorithm::Aes256Gcm => sys::AEAD_AES_256_GCM,
            Algorithm::ChaCha20Poly1305 => sys::AEAD_CHACHA20_POLY1305,
            Algorithm::Aes128Ccm => sys::AEAD_AES_128_CCM,
            Algorithm::Aes192Ccm => sys::AEAD_AES_192_CCM,
            Algorithm::Aes256Ccm => sys::AEAD_AES_256_CCM,
            Algorithm::Aes128GcmSiv => sys::AEAD_AES_128_GCM_SIV,
            Algorithm::Aes192GcmSiv => sys::AEAD_AES_192_GCM_SIV,
            Algorithm::Aes256GcmSiv => sys::AEAD_AES_256_GCM_SIV,
            Algorithm::Aes128Ocb3 => sys::AEAD_AES_128_OCB,
            Algorithm::Aes192Ocb3 => sys::AEAD_AES_192_OCB,
            Algorithm::Aes256Ocb3 => sys::AEAD_AES_256_OCB,
            Algorithm::XChaCha20Poly1305 => sys::AEAD_XCHACHA20_POLY1305,
            Algorithm::Aes128Siv => sys::AEAD_AES_128_SIV,
            Algorithm::Aes192Siv => sys::AEAD_AES_192_SIV,
            Algorithm::Aes256Siv => sys::AEAD_AES_256_SIV,
            Algorithm::Aegis128L => sys::AEAD_AEGIS_128L,
            Algorithm::Aegis256 => sys::AEAD_AEGIS_256,
            Algorithm::Aegis128X2 => sys::AEAD_AEGIS_128X2,
            Algorithm::Aegis128X4 => sys::AEAD_AEGIS_128X4,
            Algorithm::Aegis256X2 => sys::AEAD_AEGIS_256X2,
            Algorithm::Aegis256X4 => sys::AEAD_AEGIS_256X4,
        }
    }

    /// Whether this is AES-SIV (tag in front, AAD as S2V components).
    pub fn is_siv(self) -> bool {
        matches!(self, Algorithm::Aes128Siv | Algorithm::Aes192Siv | Algorithm::Aes256Siv)
    }

    /// Key length in bytes, as reported by the library (`aead_key_size`).
    pub fn key_size(self) -> usize {
        ffi::sizes(self.raw()).0
    }

    /// Default nonce length in bytes (`aead_nonce_size`: 12, 24 for XChaCha20-Poly1305, 16 for
    /// AES-SIV, whose AEAD form takes any length; for AEGIS the key length, 16 or 32).
    pub fn nonce_size(self) -> usize {
        ffi::sizes(self.raw()).1
    }

    /// Default tag length in bytes (`aead_tag_size`, 16; AEGIS also takes 32 at creation).
    pub fn tag_size(self) -> usize {
        ffi::sizes(self.raw()).2
    }

    fn max_plaintext(self) -> u64 {
        use Algorithm::*;
        match self {
            ChaCha20Poly1305 | XChaCha20Poly1305 => sys::AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT,
            Aes128Gcm | Aes192Gcm | Aes256Gcm => sys::AEAD_GCM_MAX_PLAINTEXT,
            // CCM is also bounded by its nonce length: the library refuses with TooLong.
            Aes128Ccm | Aes192Ccm | Aes256Ccm | Aes128GcmSiv | Aes192GcmSiv | Aes256GcmSiv | Aes128Siv | Aes192Siv
            | Aes256Siv => sys::AEAD_ONE_UPDATE_MAX,
            Aes128Ocb3 | Aes192Ocb3 | Aes256Ocb3 => 1 << 36,
            // RFC 10032's P_MAX (and A_MAX).
            Aegis128L | Aegis256 | Aegis128X2 | Aegis128X4 | Aegis256X2 | Aegis256X4 => (1 << 61) - 1,
        }
    }

    /// Whether this is one of the AEGIS family (RFC 10032, library 1.7).
    pub fn is_aegis(self) -> bool {
        use Algorithm::*;
        matches!(self, Aegis128L | Aegis256 | Aegis128X2 | Aegis128X4 | Aegis256X2 | Aegis256X4)
    }

    /// Nonce bytes a [`Policy::RandomNonce`] seal puts in front: 24 for XChaCha20-Poly1305, the
    /// whole nonce (16 or 32) for AEGIS, else 12.
    pub(crate) fn random_nonce_len(self) -> usize {
        match self {
            Algorithm::XChaCha20Poly1305 => sys::AEAD_XCHACHA20_POLY1305_NONCE,
            a if a.is_aegis() => a.nonce_size(),
            _ => RANDOM_NONCE_LEN,
        }
    }
}

/// Nonce policy of a context, enforced by the library on seal only (see aead.h).
/// `#[non_exhaustive]` since library 1.5 added the counter policies (a `match` on it needs a
/// wildcard arm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// Any nonce the algorithm accepts; the caller guarantees uniqueness.
    None,
    /// TLS 1.2 (RFC 5288 for AES-GCM, RFC 7905 for ChaCha20-Poly1305); 13-byte AAD.
    Tls12,
    /// TLS 1.3 (RFC 8446 section 5.3); 5-byte AAD.
    Tls13,
    /// AES-GCM (ABI 1.1) and XChaCha20-Poly1305 (library 1.2, 24-byte nonces, no seal limit):
    /// seal takes an empty nonce and draws 12 (24) random bytes from the
    /// library context's DRBG; output and open input are `nonce(12) || ciphertext || tag`
    /// (Go's `cipher.NewGCMWithRandomNonce`). At most 2^32 seals per context
    /// ([`Error::NonceLimit`] after). See [`Aes128GcmRandomNonce`](crate::Aes128GcmRandomNonce).
    /// The AEGIS family (library 1.7) draws its whole nonce (16 or 32 bytes), at most 2^48 seals
    /// with 16-byte nonces and no limit with 32 (see [`Aegis128LRandomNonce`](crate::Aegis128LRandomNonce)).
    RandomNonce,
    /// Counter nonces (library 1.5; AES-GCM, ChaCha20-Poly1305; 12-byte nonce, 16-byte tag, any
    /// AAD): nonce = fixed(4) || BE64(start + n), n strictly increasing (gaps allowed) and below
    /// 2^64 - 1, the fixed part constant. The fixed part and start are the first seal's, or the
    /// 12-byte `iv` of [`Cipher::with_options`] (fixed || BE64(start)). As Go's FIPS
    /// `NewGCMWithCounterNonce`. See [`Aes128GcmCounterNonce`](crate::Aes128GcmCounterNonce).
    Counter,
    /// XOR-masked counter nonces (library 1.5; as [`Policy::Counter`]): nonce = fixed(4) ||
    /// BE64(mask XOR n), n from 0; the fixed part and mask are the first seal's (n = 0) or `iv`'s
    /// (fixed || mask). As Go's FIPS `NewGCMWithXORCounterNonce`. See
    /// [`Aes128GcmXorCounterNonce`](crate::Aes128GcmXorCounterNonce).
    XorCounter,
    /// SSH's AES-GCM, RFC 5647 (library 1.5; AES-128-GCM and AES-256-GCM): [`Policy::Counter`]'s
    /// rules with `iv` the key exchange's initial IV, AAD exactly 4 bytes (the packet length),
    /// seals counted toward RFC 4344's rekey point ([`Cipher::usage`]). As Go's FIPS
    /// `NewGCMForSSH`. See [`Aes128GcmSsh`](crate::Aes128GcmSsh).
    Ssh,
}

impl Policy {
    fn raw(self) -> c_int {
        match self {
            Policy::None => sys::AEAD_POLICY_NONE,
            Policy::Tls12 => sys::AEAD_POLICY_TLS12,
            Policy::Tls13 => sys::AEAD_POLICY_TLS13,
            Policy::RandomNonce => sys::AEAD_POLICY_RANDOM_NONCE,
            Policy::Counter => sys::AEAD_POLICY_COUNTER,
            Policy::XorCounter => sys::AEAD_POLICY_XOR_COUNTER,
            Policy::Ssh => sys::AEAD_POLICY_SSH,
        }
    }
}

/// Longest message (in bytes) for which the detached-tag operations
/// (`encrypt_inout_detached` / `decrypt_inout_detached`) use a stack scratch buffer; longer
/// messages use one heap allocation of `len + 16` bytes. See [`Cipher`] for why.
pub const DETACHED_STACK_LIMIT: usize = 4096;
const SCRATCH: usize = DETACHED_STACK_LIMIT + sys::AEAD_AEGIS_MAX_TAG;
/// The longest [`Cipher::overhead`]: AEGIS-256's 32-byte random nonce and 32-byte tag.
const MAX_OVERHEAD: usize = sys::AEAD_AEGIS_MAX_TAG + 32;
const ZERO_TAG: [u8; MAX_OVERHEAD] = [0; MAX_OVERHEAD];
/// Nonce bytes an AES-GCM [`Policy::RandomNonce`] seal puts in front of the ciphertext.
pub(crate) const RANDOM_NONCE_LEN: usize = 12;

/// A keyed libaead context with any algorithm, policy and tag length: the whole C API, safely.
///
/// Every operation is exactly one `aead_seal_open` call. The C ABI seals to `ciphertext || tag`
/// in one contiguous buffer and opens from one, so:
///
/// * [`seal_into`](Cipher::seal_into) / [`open_into`](Cipher::open_into) (distinct buffers),
///   [`seal_in_place`](Cipher::seal_in_place) / [`open_in_place`](Cipher::open_in_place)
///   (a slice with room for the tag) and the [`aead::Buffer`] methods (which grow the buffer by the
///   tag length first) are zero-copy and allocation-free;
/// * the detached-tag trait methods (`ciphertext` and `tag` in separate buffers) go through a
///   scratch buffer holding `ciphertext || tag`: on the stack up to [`DETACHED_STACK_LIMIT`]
///   message bytes (uninitialized, so no zero-fill cost), on the heap above. The scratch only ever
///   holds ciphertext and tag, never plaintext; the extra cost is one `memcpy` of the message.
///
/// AES-SIV ([`Algorithm::Aes128Siv`], ...) puts the tag first, `SIV || ciphertext`: its in-place
/// seal moves the plaintext up by 16 bytes first (the C layout is `in == out + 16`), its open
/// lands 16 bytes in and moves the plaintext down, and its detached scratch holds `SIV || ct`.
///
/// Never a partial output (aead.h): a refused call writes nothing; a failed open (wrong tag)
/// leaves the written part of the output zeroed, also when decrypting in place.
pub struct Cipher {
    pub(crate) ctx: Ctx,
    alg: Algorithm,
    policy: Policy,
    tag_len: usize,
}

impl core::fmt::Debug for Cipher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cipher")
            .field("alg", &self.alg)
            .field("policy", &self.policy)
            .field("tag_len", &self.tag_len)
            .finish_non_exhaustive()
    }
}

impl Cipher {
    /// Creates a keyed context (`aead_ctx_new`). `tag_len` 0 means 16; AES-GCM with
    /// [`Policy::None`] also takes 4, 8 and 12..=15, AEGIS takes 32. The key may be wiped once this returns.
    pub fn new(alg: Algorithm, policy: Policy, key: &[u8], tag_len: usize) -> Result<Self, Error> {
        let ctx = Ctx::new(alg.raw(), policy.raw(), key, tag_len)?;
        Ok(Self::from_ctx(ctx, alg, policy, tag_len))
    }

    /// Creates a keyed context with `aead_ctx_new_ex` (ABI 1.1):
    ///
    /// * `properties`: an OpenSSL property query for every fetch of this context, e.g.
    ///   `Some("fips=yes")`; `None` (or `Some("")`) is [`Cipher::new`]'s behaviour. No provider
    ///   offering the algorithm for the query is [`Error::Unsupported`]; a query over 255 bytes
    ///   or with a NUL byte is [`Error::Arg`].
    /// * `iv`: the TLS connection IV for [`Policy::Tls12`] / [`Policy::Tls13`] (empty: learned on
    ///   the first seal, as with `new`): 12 bytes for TLS 1.3 and TLS 1.2 ChaCha20-Poly1305; 4
    ///   (salt, explicit nonce = sequence) or 12 (salt || mask, explicit nonce = mask XOR
    ///   sequence, as rustls sends) for TLS 1.2 AES-GCM; 12 bytes for the counter policies
    ///   (library 1.5: fixed || BE64(start) for [`Policy::Counter`] and [`Policy::Ssh`], fixed ||
    ///   mask for [`Policy::XorCounter`]). Other lengths, or an IV with another policy, are
    ///   [`Error::NonceSize`].
    pub fn with_options(
        alg: Algorithm,
        policy: Policy,
        key: &[u8],
        tag_len: usize,
        properties: Option<&str>,
        iv: &[u8],
    ) -> Result<Self, Error> {
        let ctx = Ctx::new_ex(CtxParams { alg: alg.raw(), policy: policy.raw(), key, tag_len, properties, iv })?;
        Ok(Self::from_ctx(ctx, alg, policy, tag_len))
    }

    fn from_ctx(ctx: Ctx, alg: Algorithm, policy: Policy, tag_len: usize) -> Self {
        let tag_len = if tag_len == 0 { sys::AEAD_MAX_TAG } else { tag_len };
        Cipher { ctx, alg, policy, tag_len }
    }

    /// The context's FIPS indicator (`aead_ctx_indicator`, ABI 1.1).
    pub fn indicator(&self) -> Indicator {
        Indicator::from_bits(self.ctx.indicator())
    }

    /// Name of the OpenSSL provider the cipher was fetched from, e.g. `"default"` or `"fips"`
    /// (`aead_ctx_provider`, ABI 1.1).
    pub fn provider(&self) -> &'static str {
        self.ctx.provider()
    }

    /// The context's counters (`aead_ctx_usage_ex`, ABI 1.4): opens that failed authentication
    /// on every context; seals for the policies that count them (docs/dtls.md).
    pub fn usage(&self) -> crate::dtls::Usage {
        crate::dtls::Usage::from_raw(self.ctx.usage_ex())
    }

    /// Bytes a seal adds: the tag, plus the nonce under [`Policy::RandomNonce`] (12 bytes; 24
    /// for XChaCha20-Poly1305, 16 or 32 for AEGIS).
    pub fn overhead(&self) -> usize {
        match self.policy {
            Policy::RandomNonce => self.tag_len + self.alg.random_nonce_len(),
            _ => self.tag_len,
        }
    }

    /// Seals every record in one C call (`aead_seal_open_many`, ABI 1.1): for each, in order,
    /// exactly what [`seal_into`](Cipher::seal_into) would do, its outcome in
    /// [`Record::result`]. Returns how many succeeded. TLS sequences are checked per record.
    /// Nothing is summed across records (each is checked on its own, so lengths that add up past
    /// `usize::MAX` cannot wrap anything): a refused record writes nothing, the others proceed.
    pub fn seal_many(&self, records: &mut [Record<'_>]) -> usize {
        self.ctx.seal_open_many(sys::AEAD_SEAL, records)
    }

    /// Opens every record in one C call; see [`seal_many`](Cipher::seal_many).
    pub fn open_many(&self, records: &mut [Record<'_>]) -> usize {
        self.ctx.seal_open_many(sys::AEAD_OPEN, records)
    }

    /// Seals every record, each with its AAD as components, in one C call
    /// (`aead_seal_open_many_v`, ABI 1.3): for each, in order, exactly what
    /// [`seal_v_into`](Cipher::seal_v_into) would do, its outcome in [`RecordV::result`].
    /// Returns how many succeeded. For AES-SIV this is pyca's `AESSIV.encrypt(data, [ad1, ...])`
    /// over many messages in one crossing.
    pub fn seal_many_v(&self, records: &mut [RecordV<'_>]) -> usize {
        self.ctx.seal_open_many_v(sys::AEAD_SEAL, records)
    }

    /// Opens every record in one C call; see [`seal_many_v`](Cipher::seal_many_v).
    pub fn open_many_v(&self, records: &mut [RecordV<'_>]) -> usize {
        self.ctx.seal_open_many_v(sys::AEAD_OPEN, records)
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The nonce policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// Seals `plaintext` into `out` as `ciphertext || tag` (`nonce || ciphertext || tag` under
    /// [`Policy::RandomNonce`], whose `nonce` argument is empty; `SIV || ciphertext` for AES-SIV);
    /// returns `plaintext.len() + overhead()`.
    /// `out` must hold at least that many bytes ([`Error::BufferTooSmall`] otherwise, nothing written).
    #[inline]
    pub fn seal_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.ctx.seal_open(sys::AEAD_SEAL, nonce, aad, plaintext, out)
    }

    /// Opens `ciphertext || tag` (or the random-nonce layout, or AES-SIV's `SIV || ciphertext`)
    /// into `out`; returns the plaintext length (`ciphertext.len() - overhead()`).
    /// On [`Error::Auth`] the written part of `out` is zeroed.
    #[inline]
    pub fn open_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.ctx.seal_open(sys::AEAD_OPEN, nonce, aad, ciphertext, out)
    }

    /// As [`seal_into`](Cipher::seal_into) with the associated data as components, one
    /// `aead_seal_open_v` call (ABI 1.3). AES-SIV gives S2V `aad[0]`, ..., then the nonce if it is
    /// not empty (RFC 5297 section 3; an empty `aad` and nonce is S2V of the plaintext alone);
    /// more than [`sys::AEAD_SIV_MAX_COMPONENTS`] components in all is [`Error::TooLong`]. Every
    /// other algorithm takes at most one component (more is [`Error::Arg`]).
    pub fn seal_v_into(
        &self,
        nonce: &[u8],
        aad: &[&[u8]],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let c = Components::from_slices(aad)?;
        self.ctx.seal_open(sys::AEAD_SEAL, nonce, &c, plaintext, out)
    }

    /// As [`open_into`](Cipher::open_into) with the associated data as components
    /// (`aead_seal_open_v`, ABI 1.3; see [`seal_v_into`](Cipher::seal_v_into)).
    pub fn open_v_into(
        &self,
        nonce: &[u8],
        aad: &[&[u8]],
        ciphertext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let c = Components::from_slices(aad)?;
        self.ctx.seal_open(sys::AEAD_OPEN, nonce, &c, ciphertext, out)
    }

    /// [`seal_v_into`](Cipher::seal_v_into) into a new `Vec`.
    pub fn seal_v(&self, nonce: &[u8], aad: &[&[u8]], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let c = Components::from_slices(aad)?;
        let mut out = Vec::new();
        self.seal_append_aad(nonce, (&c).into(), plaintext, &mut out)?;
        Ok(out)
    }

    /// [`open_v_into`](Cipher::open_v_into) into a new `Vec`.
    pub fn open_v(&self, nonce: &[u8], aad: &[&[u8]], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        let c = Components::from_slices(aad)?;
        let mut out = Vec::new();
        self.open_append_aad(nonce, (&c).into(), ciphertext, &mut out)?;
        Ok(out)
    }

    /// Bytes the C layout puts in front of the ciphertext, and so how far an in-place seal moves
    /// the plaintext up: the drawn nonce under [`Policy::RandomNonce`], the SIV for AES-SIV.
    fn front(&self) -> usize {
        if self.policy == Policy::RandomNonce {
            self.alg.random_nonce_len()
        } else if self.alg.is_siv() {
            sys::AEAD_SIV_SIZE
        } else {
            0
        }
    }

    /// Seals `buf[..plaintext_len]` in place; `buf` must have room for the tag after it.
    /// Returns the sealed length. [`Error::Arg`] if `plaintext_len > buf.len()`.
    /// Under [`Policy::RandomNonce`] `buf` needs `overhead()` (28; 40 for XChaCha20-Poly1305) spare
    /// bytes and the plaintext is first moved up by the nonce length (the C layout wants
    /// `in == out + 12`, `+ 24` for XChaCha); AES-SIV likewise moves it up by 16 (`SIV || ct`).
    /// A refused seal moves it back.
    #[inline]
    pub fn seal_in_place(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, Error> {
        self.seal_in_place_aad(nonce, aad.into(), buf, plaintext_len)
    }

    #[inline]
    pub(crate) fn seal_in_place_aad(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, Error> {
        let shift = self.front();
        if shift == 0 {
            return self.ctx.seal_open_in_place(sys::AEAD_SEAL, nonce, aad, buf, plaintext_len);
        }
        // The C layout puts the ciphertext `shift` bytes after the plaintext's start
        // (in == out + shift), so the plaintext moves up first, and back if the seal is refused.
        if plaintext_len > buf.len() {
            return Err(Error::Arg);
        }
        if buf.len() - plaintext_len < self.overhead() {
            return Err(Error::BufferTooSmall);
        }
        buf.copy_within(..plaintext_len, shift);
        let r = self.ctx.seal_open_shifted(sys::AEAD_SEAL, nonce, aad, buf, shift, plaintext_len, 0);
        if r.is_err() {
            buf.copy_within(shift..shift + plaintext_len, 0);
        }
        r
    }

    /// Opens the whole of `buf` (`ciphertext || tag`) in place; the plaintext is `buf[..n]` for the
    /// returned `n`. On [`Error::Auth`] the ciphertext part of `buf` is zeroed. Under
    /// [`Policy::RandomNonce`] the plaintext is opened to `buf[12..]` (`buf[24..]` for XChaCha),
    /// AES-SIV's to `buf[16..]`, then moved to the front.
    #[inline]
    pub fn open_in_place(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<usize, Error> {
        self.open_in_place_aad(nonce, aad.into(), buf)
    }

    #[inline]
    pub(crate) fn open_in_place_aad(&self, nonce: &[u8], aad: Aad<'_>, buf: &mut [u8]) -> Result<usize, Error> {
        let len = buf.len();
        let shift = self.front();
        if shift == 0 {
            return self.ctx.seal_open_in_place(sys::AEAD_OPEN, nonce, aad, buf, len);
        }
        if len < self.overhead() {
            return Err(Error::Auth); // aead.h: shorter than nonce + tag (or the SIV); nothing written
        }
        // The plaintext lands `shift` bytes in (out == in + shift), then moves to the front.
        let n = self.ctx.seal_open_shifted(sys::AEAD_OPEN, nonce, aad, buf, 0, len, shift)?;
        buf.copy_within(shift..shift + n, 0);
        Ok(n)
    }

    /// Seals into a new `Vec` (`ciphertext || tag`).
    pub fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.seal_append(nonce, aad, plaintext, &mut out)?;
        Ok(out)
    }

    /// Opens into a new `Vec`.
    pub fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.open_append(nonce, aad, ciphertext, &mut out)?;
        Ok(out)
    }

    /// Seals and appends `ciphertext || tag` to `out` (no zero-fill); returns the appended length.
    pub fn seal_append(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, Error> {
        self.seal_append_aad(nonce, aad.into(), plaintext, out)
    }

    pub(crate) fn seal_append_aad(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, Error> {
        self.check_len(plaintext.len())?;
        let max = self.sealed_len(plaintext.len())?;
        self.ctx.seal_open_append(sys::AEAD_SEAL, nonce, aad, plaintext, out, max)
    }

    /// Opens and appends the plaintext to `out`; returns the appended length. On failure `out`
    /// is unchanged (its spare capacity may have been zeroed).
    pub fn open_append(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, Error> {
        self.open_append_aad(nonce, aad.into(), ciphertext, out)
    }

    pub(crate) fn open_append_aad(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        ciphertext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, Error> {
        let max = ciphertext.len().saturating_sub(self.overhead());
        // Refused before reserving: an over-long input must be TooLong (as the C call says), not
        // an attempt to allocate its length.
        self.check_len(max)?;
        self.ctx.seal_open_append(sys::AEAD_OPEN, nonce, aad, ciphertext, out, max)
    }

    /// Seals the contents of an [`aead::Buffer`] in place: grows it by the tag length, then one C
    /// call. If the buffer cannot grow, returns [`Error::BufferTooSmall`] and leaves it unchanged.
    pub fn seal_buffer(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buffer: &mut dyn aead::Buffer,
    ) -> Result<(), Error> {
        self.seal_buffer_aad(nonce, aad.into(), buffer)
    }

    pub(crate) fn seal_buffer_aad(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        buffer: &mut dyn aead::Buffer,
    ) -> Result<(), Error> {
        let len = buffer.len();
        buffer
            .extend_from_slice(&ZERO_TAG[..self.overhead()])
            .map_err(|_| Error::BufferTooSmall)?;
        match self.seal_in_place_aad(nonce, aad, buffer.as_mut(), len) {
            Ok(_) => Ok(()),
            Err(e) => {
                buffer.truncate(len);
                Err(e)
            }
        }
    }

    /// Opens an [`aead::Buffer`] holding `ciphertext || tag` in place (one C call) and truncates
    /// it to the plaintext. On [`Error::Auth`] its length is unchanged and the ciphertext part is
    /// zeroed.
    pub fn open_buffer(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buffer: &mut dyn aead::Buffer,
    ) -> Result<(), Error> {
        self.open_buffer_aad(nonce, aad.into(), buffer)
    }

    pub(crate) fn open_buffer_aad(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        buffer: &mut dyn aead::Buffer,
    ) -> Result<(), Error> {
        let n = self.open_in_place_aad(nonce, aad, buffer.as_mut())?;
        buffer.truncate(n);
        Ok(())
    }

    /// `plaintext_len + overhead()`, the output length of a seal, or [`Error::TooLong`] when the
    /// sum is not representable (checked: no length arithmetic in this crate wraps).
    fn sealed_len(&self, plaintext_len: usize) -> Result<usize, Error> {
        plaintext_len.checked_add(self.overhead()).ok_or(Error::TooLong)
    }

    fn check_len(&self, len: usize) -> Result<(), Error> {
        if len as u64 > self.alg.max_plaintext() {
            Err(Error::TooLong)
        } else {
            Ok(())
        }
    }

    /// Seals `buf` (in place or in-out) writing the tag to `tag`: one C call through a scratch
    /// buffer (see the type-level docs). AES-SIV's scratch holds `SIV || ciphertext`.
    pub(crate) fn seal_detached(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        mut buf: InOutBuf<'_, '_, u8>,
        tag: &mut [u8],
    ) -> Result<(), Error> {
        debug_assert_eq!(tag.len(), self.tag_len);
        let len = buf.len();
        self.check_len(len)?;
        let total = len.checked_add(self.tag_len).ok_or(Error::TooLong)?;
        let tag_first = self.alg.is_siv();
        if total <= SCRATCH {
            let mut scratch = [MaybeUninit::<u8>::uninit(); SCRATCH];
            let sealed = self.ctx.seal_open_uninit(sys::AEAD_SEAL, nonce, aad, buf.get_in(), &mut scratch[..total])?;
            split_sealed(sealed, tag_first, &mut buf, tag)
        } else {
            let mut v = Vec::new();
            self.ctx.seal_open_append(sys::AEAD_SEAL, nonce, aad, buf.get_in(), &mut v, total)?;
            split_sealed(&v, tag_first, &mut buf, tag)
        }
    }

    /// Opens `buf` (in place or in-out) against a detached `tag`: one C call whose input,
    /// `ciphertext || tag` (`tag || ciphertext` for AES-SIV), is assembled in a scratch buffer
    /// (see the type-level docs).
    pub(crate) fn open_detached(
        &self,
        nonce: &[u8],
        aad: Aad<'_>,
        mut buf: InOutBuf<'_, '_, u8>,
        tag: &[u8],
    ) -> Result<(), Error> {
        let len = buf.len();
        self.check_len(len)?;
        let total = len.checked_add(tag.len()).ok_or(Error::TooLong)?;
        let (first, second) = if self.alg.is_siv() { (tag, buf.get_in()) } else { (buf.get_in(), tag) };
        let n = if total <= SCRATCH {
            let mut scratch = [MaybeUninit::<u8>::uninit(); SCRATCH];
            let input = ffi::concat_uninit(&mut scratch[..total], first, second);
            self.ctx.seal_open(sys::AEAD_OPEN, nonce, aad, input, buf.get_out())?
        } else {
            let mut input = Vec::with_capacity(total);
            input.extend_from_slice(first);
            input.extend_from_slice(second);
            self.ctx.seal_open(sys::AEAD_OPEN, nonce, aad, &input, buf.get_out())?
        };
        if n != len {
            return Err(Error::Crypto);
        }
        Ok(())
    }
}

/// Copies one seal output, `ciphertext || tag` (`tag || ciphertext` when `tag_first`), to the
/// detached destinations.
#[inline(always)]
fn split_sealed(sealed: &[u8], tag_first: bool, buf: &mut InOutBuf<'_, '_, u8>, tag: &mut [u8]) -> Result<(), Error> {
    let len = buf.len();
    if sealed.len() != len + tag.len() {
        return Err(Error::Crypto);
    }
    let (ct, t) = if tag_first {
        let (t, ct) = sealed.split_at(tag.len());
        (ct, t)
    } else {
        sealed.split_at(len)
    };
    buf.get_out().copy_from_slice(ct);
    tag.copy_from_slice(t);
    Ok(())
}
