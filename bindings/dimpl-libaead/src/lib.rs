//! A [dimpl](https://crates.io/crates/dimpl) (DTLS 1.2 / 1.3, sans-IO) [`CryptoProvider`] whose
//! record protection is **libaead**: dimpl's aws-lc-rs provider with its DTLS 1.2 and DTLS 1.3
//! cipher suites replaced, one libaead call per record. Key exchange, signatures, hashes, HMAC
//! (and so the PRF / HKDF) and randomness stay aws-lc-rs's.
//!
//! ```no_run
//! use std::sync::Arc;
//! let config = Arc::new(dimpl::Config::builder().with_crypto_provider(dimpl_libaead::provider()).build().unwrap());
//! ```
//!
//! | suite | libaead context |
//! |---|---|
//! | DTLS 1.2 ChaCha20-Poly1305, and AES-128/256-GCM, AES-128-CCM_8 whose explicit nonce is the record's epoch and sequence number (RFC 6347) | `AEAD_POLICY_DTLS12`: the IV or salt, epoch and rising sequence checked on seal, the AAD's `seq_num` against the nonce, and libaead's replay window on open |
//! | DTLS 1.2 AES suites with another explicit nonce (dimpl's own sender draws them at random, as RFC 5288 allows) | a plain context: one `aead_seal_open` per record |
//! | DTLS 1.3 AES-128/256-GCM, ChaCha20-Poly1305: seal | `AEAD_POLICY_DTLS13` (sequence order, RFC 9147 key limits) when the first record sealed under the key is sequence 0, as RFC 9147 has it; otherwise a plain context |
//! | DTLS 1.3: open | a plain context (dimpl passes the nonce, not the IV, so the window stays dimpl's) |
//! | DTLS 1.3 record-number mask | `aead_hp` (AES-ECB or ChaCha20), the key cached per thread: the 5 bytes it gives, of which a record uses 1 or 2 (for the AES suites the other 11 bytes of the block, which dimpl's provider self-check compares, are aws-lc-rs's) |
//!
//! dimpl's [`Cipher`] is created from the key alone and is handed each record's full nonce; the
//! DTLS 1.2 context is made on the first record sealed, or the first opened that authenticates,
//! its salt (or IV) and epoch read off that record's nonce and AAD. [`usage`] sums libaead's counters over the live record keys.
use dimpl::crypto::{
    Aad, Buf, Cipher, CryptoProvider, Dtls12CipherSuite, Dtls13CipherSuite, HashAlgorithm, Nonce,
    SupportedDtls12CipherSuite, SupportedDtls13CipherSuite, TmpBuf,
};
use dimpl::{CryptoError, CryptoOperation};
use libaead::dtls::{RecordKey, SequenceNumberKey, Version};
use libaead::{Algorithm, Policy};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// dimpl's aws-lc-rs provider with every DTLS 1.2 and 1.3 cipher suite's record protection
/// (and DTLS 1.3's record-number mask) done by libaead.
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: DTLS12_SUITES,
        dtls13_cipher_suites: DTLS13_SUITES,
        ..dimpl::crypto::aws_lc_rs::default_provider()
    }
}

/// The DTLS 1.2 suites (dimpl 0.7's set: ECDHE_ECDSA AES-128-GCM, AES-256-GCM,
/// ChaCha20-Poly1305, and PSK AES-128-CCM_8).
pub static DTLS12_SUITES: &[&dyn SupportedDtls12CipherSuite] = &[
    &Suite12 { suite: Dtls12CipherSuite::ECDHE_ECDSA_AES128_GCM_SHA256, alg: Algorithm::Aes128Gcm, hash: HashAlgorithm::SHA256, key: 16, iv: 4, tag: 16 },
    &Suite12 { suite: Dtls12CipherSuite::ECDHE_ECDSA_AES256_GCM_SHA384, alg: Algorithm::Aes256Gcm, hash: HashAlgorithm::SHA384, key: 32, iv: 4, tag: 16 },
    &Suite12 { suite: Dtls12CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256, alg: Algorithm::ChaCha20Poly1305, hash: HashAlgorithm::SHA256, key: 32, iv: 12, tag: 16 },
    &Suite12 { suite: Dtls12CipherSuite::PSK_AES128_CCM_8, alg: Algorithm::Aes128Ccm, hash: HashAlgorithm::SHA256, key: 16, iv: 4, tag: 8 },
];

/// The DTLS 1.3 suites (dimpl 0.7's set: AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305).
pub static DTLS13_SUITES: &[&dyn SupportedDtls13CipherSuite] = &[
    &Suite13 { suite: Dtls13CipherSuite::AES_128_GCM_SHA256, alg: Algorithm::Aes128Gcm, hash: HashAlgorithm::SHA256, key: 16 },
    &Suite13 { suite: Dtls13CipherSuite::AES_256_GCM_SHA384, alg: Algorithm::Aes256Gcm, hash: HashAlgorithm::SHA384, key: 32 },
    &Suite13 { suite: Dtls13CipherSuite::CHACHA20_POLY1305_SHA256, alg: Algorithm::ChaCha20Poly1305, hash: HashAlgorithm::SHA256, key: 32 },
];

/// A DTLS 1.2 suite: its dimpl identity and libaead algorithm.
#[derive(Debug)]
pub struct Suite12 {
    suite: Dtls12CipherSuite,
    alg: Algorithm,
    hash: HashAlgorithm,
    key: usize,
    iv: usize,
    tag: usize,
}

impl SupportedDtls12CipherSuite for Suite12 {
    fn suite(&self) -> Dtls12CipherSuite {
        self.suite
    }
    fn hash_algorithm(&self) -> HashAlgorithm {
        self.hash
    }
    fn key_lengths(&self) -> (usize, usize, usize) {
        (0, self.key, self.iv)
    }
    fn explicit_nonce_len(&self) -> usize {
        if self.iv == 4 {
            8
        } else {
            0
        }
    }
    fn tag_len(&self) -> usize {
        self.tag
    }
    fn create_cipher(&self, key: &[u8]) -> Result<Box<dyn Cipher>, CryptoError> {
        LibaeadCipher::new(Version::Dtls12, self.alg, self.tag, key)
    }
}

/// A DTLS 1.3 suite: its dimpl identity and libaead algorithm.
#[derive(Debug)]
pub struct Suite13 {
    suite: Dtls13CipherSuite,
    alg: Algorithm,
    hash: HashAlgorithm,
    key: usize,
}

impl SupportedDtls13CipherSuite for Suite13 {
    fn suite(&self) -> Dtls13CipherSuite {
        self.suite
    }
    fn hash_algorithm(&self) -> HashAlgorithm {
        self.hash
    }
    fn key_len(&self) -> usize {
        self.key
    }
    fn iv_len(&self) -> usize {
        12
    }
    fn tag_len(&self) -> usize {
        16
    }
    fn create_cipher(&self, key: &[u8]) -> Result<Box<dyn Cipher>, CryptoError> {
        LibaeadCipher::new(Version::Dtls13, self.alg, 16, key)
    }
    fn encrypt_sn(&self, sn_key: &[u8], sample: &[u8; 16]) -> [u8; 16] {
        let mut out = [0u8; 16];
        if self.alg != Algorithm::ChaCha20Poly1305 {
            // dimpl's provider self-check compares the whole AES block, of which a record uses
            // at most 2 bytes; libaead's aead_hp gives 5, so bytes 5..16 are aws-lc-rs's.
            let aws = dimpl::crypto::aws_lc_rs::default_provider();
            if let Some(s) = aws.dtls13_cipher_suites.iter().find(|s| s.suite() == self.suite) {
                out = s.encrypt_sn(sn_key, sample);
            }
        }
        out[..5].copy_from_slice(&record_number_mask(self.alg, sn_key, sample));
        out
    }
}

thread_local! {
    /// The last record-number key used on this thread: dimpl passes the key bytes per record.
    static SN_KEY: std::cell::RefCell<Option<(Algorithm, Vec<u8>, SequenceNumberKey)>> = const { std::cell::RefCell::new(None) };
}

/// RFC 9147 section 4.2.3's mask from libaead's `aead_hp`: its first 5 bytes (the record number
/// takes at most 2). dimpl's trait cannot fail: a key libaead refuses panics, as dimpl's own
/// providers do.
fn record_number_mask(alg: Algorithm, sn_key: &[u8], sample: &[u8; 16]) -> [u8; 5] {
    SN_KEY.with(|cell| {
        let mut slot = cell.borrow_mut();
        if !matches!(&*slot, Some((a, k, _)) if *a == alg && k == sn_key) {
            let key = SequenceNumberKey::new(alg, sn_key).expect("libaead: record-number key");
            *slot = Some((alg, sn_key.to_vec(), key));
        }
        let (_, _, key) = slot.as_ref().expect("set above");
        key.mask(sample).expect("libaead: record-number mask")
    })
}

/// The contexts of one record key, made on first use (see the crate docs): one of the two.
#[derive(Default)]
struct Contexts {
    /// DTLS 1.2 with the RFC's nonces, or DTLS 1.3 sealing with the IV learnt from sequence 0.
    dtls: OnceLock<RecordKey>,
    /// The rest: one nonce-checked-by-nobody AEAD call per record.
    plain: OnceLock<libaead::Cipher>,
    /// Records this key opened (authenticated), whichever context.
    opened: AtomicU64,
}

fn live() -> &'static Mutex<Vec<Weak<Contexts>>> {
    static LIVE: OnceLock<Mutex<Vec<Weak<Contexts>>>> = OnceLock::new();
    LIVE.get_or_init(Mutex::default)
}

/// libaead's counters summed over the record keys alive in this process (`aead_ctx_usage_ex`):
/// seals, forgeries (opens that failed authentication), replays refused and records accepted, and
/// the records opened, counted by this crate (plain contexts have no such counter).
pub fn usage() -> Usage {
    let mut list = live().lock().unwrap_or_else(|e| e.into_inner());
    list.retain(|w| w.strong_count() > 0);
    let mut sum = Usage::default();
    for c in list.iter().filter_map(Weak::upgrade) {
        sum.opened += c.opened.load(Ordering::Relaxed);
        let parts = [c.dtls.get().map(RecordKey::usage), c.plain.get().map(libaead::Cipher::usage)];
        for u in parts.into_iter().flatten() {
            sum.seals += u.seals;
            sum.forgeries += u.forgeries;
            sum.replays += u.replays;
            sum.accepted += u.accepted;
        }
    }
    sum
}

/// Counters summed by [`usage`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Records sealed under a DTLS policy (plain contexts do not count seals).
    pub seals: u64,
    /// Opens that failed authentication.
    pub forgeries: u64,
    /// Opens refused by libaead's replay window.
    pub replays: u64,
    /// Records accepted into libaead's replay window.
    pub accepted: u64,
    /// Records opened by libaead (authenticated and decrypted), in either kind of context.
    pub opened: u64,
}

/// dimpl's per-key [`Cipher`] over libaead.
struct LibaeadCipher {
    version: Version,
    alg: Algorithm,
    tag: usize,
    key: Vec<u8>,
    ctx: Arc<Contexts>,
}

impl std::fmt::Debug for LibaeadCipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibaeadCipher").field("version", &self.version).field("alg", &self.alg).finish_non_exhaustive()
    }
}

impl Drop for LibaeadCipher {
    fn drop(&mut self) {
        self.key.fill(0);
    }
}

const fn op_failed(op: CryptoOperation) -> CryptoError {
    CryptoError::OperationFailed(op)
}

impl LibaeadCipher {
    #[allow(clippy::new_ret_no_self)]
    fn new(version: Version, alg: Algorithm, tag: usize, key: &[u8]) -> Result<Box<dyn Cipher>, CryptoError> {
        if key.len() != alg.key_size() {
            return Err(op_failed(CryptoOperation::CreateCipher));
        }
        let ctx = Arc::new(Contexts::default());
        live().lock().unwrap_or_else(|e| e.into_inner()).push(Arc::downgrade(&ctx));
        Ok(Box::new(LibaeadCipher { version, alg, tag, key: key.to_vec(), ctx }))
    }

    /// DTLS 1.2: a context for this key's epoch from a record's nonce and AAD, when the nonce is
    /// the RFC's: RFC 7905's IV XOR seq_num (ChaCha20-Poly1305), or, for AES, RFC 6347's explicit
    /// nonce equal to the record's epoch and sequence number. dimpl draws AES-GCM's explicit
    /// nonces at random, which RFC 5288 allows and AEAD_POLICY_DTLS12 does not: those go to a
    /// plain context.
    fn dtls12_candidate(&self, aad: &[u8], nonce: &[u8; 12]) -> Option<RecordKey> {
        let seq_num: [u8; 8] = aad.get(..8)?.try_into().ok()?;
        let epoch = u16::from_be_bytes([seq_num[0], seq_num[1]]);
        let mut iv = *nonce;
        let iv_len = if self.alg == Algorithm::ChaCha20Poly1305 {
            for (b, s) in iv[4..].iter_mut().zip(seq_num) {
                *b ^= s;
            }
            12
        } else if nonce[4..] == seq_num {
            4
        } else {
            return None;
        };
        RecordKey::dtls12(self.alg, &self.key, &iv[..iv_len], epoch, self.tag, 0).ok()
    }

    fn plain(&self) -> Result<&libaead::Cipher, CryptoError> {
        if let Some(c) = self.ctx.plain.get() {
            return Ok(c);
        }
        let c = libaead::Cipher::new(self.alg, Policy::None, &self.key, self.tag)
            .map_err(|_| op_failed(CryptoOperation::CreateCipher))?;
        Ok(self.ctx.plain.get_or_init(|| c))
    }
}

/// DTLS 1.3: whether a unified header (no connection ID) carries sequence number bits all zero.
fn dtls13_header_seq_is_zero(header: &[u8]) -> bool {
    let Some(&first) = header.first() else { return false };
    if first & 0xe0 != 0x20 || first & 0x10 != 0 {
        return false;
    }
    let n = if first & 0x08 != 0 { 2 } else { 1 };
    header.get(1..1 + n).is_some_and(|s| s.iter().all(|&b| b == 0))
}

impl Cipher for LibaeadCipher {
    fn encrypt(&mut self, plaintext: &mut Buf, aad: Aad, nonce: Nonce) -> Result<(), CryptoError> {
        let len = plaintext.len();
        plaintext.resize(len + self.tag, 0);
        // The first record sealed under the key chooses the context (see the crate docs).
        if self.ctx.dtls.get().is_none() && self.ctx.plain.get().is_none() {
            let first = match self.version {
                Version::Dtls12 => self.dtls12_candidate(&aad.0, &nonce.0),
                // Sequence 0, the first of the key (RFC 9147 section 4): nonce == IV.
                Version::Dtls13 if dtls13_header_seq_is_zero(&aad.0) => {
                    RecordKey::dtls13(self.alg, &self.key, &nonce.0, 0, 0).ok()
                }
                Version::Dtls13 => None,
            };
            if let Some(k) = first {
                let _ = self.ctx.dtls.set(k);
            }
        }
        let r = match self.ctx.dtls.get() {
            Some(k) => k.seal_in_place_with_nonce(&nonce.0, &aad.0, plaintext, len),
            None => self.plain()?.seal_in_place(&nonce.0, &aad.0, plaintext, len),
        };
        match r {
            Ok(n) if n == len + self.tag => Ok(()),
            _ => {
                plaintext.resize(len, 0);
                Err(op_failed(CryptoOperation::Encrypt))
            }
        }
    }

    fn decrypt(&mut self, ciphertext: &mut TmpBuf, aad: Aad, nonce: Nonce) -> Result<(), CryptoError> {
        if ciphertext.len() < self.tag {
            return Err(CryptoError::CiphertextTooShort {
                minimum: self.tag as u8,
                actual: u8::try_from(ciphertext.len()).unwrap_or(u8::MAX),
            });
        }
        let r = match self.version {
            Version::Dtls12 => match (self.ctx.dtls.get(), self.ctx.plain.get()) {
                (Some(k), _) => k.open_in_place_with_nonce(&nonce.0, &aad.0, ciphertext.as_mut()),
                (None, Some(c)) => c.open_in_place(&nonce.0, &aad.0, ciphertext.as_mut()),
                // The first record chooses, once it has authenticated: a forgery cannot.
                (None, None) => match self.dtls12_candidate(&aad.0, &nonce.0) {
                    Some(k) => {
                        let r = k.open_in_place_with_nonce(&nonce.0, &aad.0, ciphertext.as_mut());
                        if r.is_ok() {
                            let _ = self.ctx.dtls.set(k);
                        }
                        r
                    }
                    None => self.plain()?.open_in_place(&nonce.0, &aad.0, ciphertext.as_mut()),
                },
            },
            Version::Dtls13 => self.plain()?.open_in_place(&nonce.0, &aad.0, ciphertext.as_mut()),
        };
        let n = r.map_err(|_| op_failed(CryptoOperation::Decrypt))?;
        self.ctx.opened.fetch_add(1, Ordering::Relaxed);
        ciphertext.truncate(n);
        Ok(())
    }
}
