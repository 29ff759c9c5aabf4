//! QUIC packet protection (RFC 9001) for rustls's `quic` API, and so for quinn: a
//! [`rustls::quic::Algorithm`] per TLS 1.3 suite whose packet keys are libaead `AEAD_POLICY_QUIC`
//! contexts (the IV given at creation, nonce = IV XOR packet number checked and committed inside
//! the library, RFC 9001 section 6.6 limits enforced there) and whose header-protection keys are
//! libaead `aead_hp` objects. Key derivation ("quic key", "quic iv", "quic hp", "quic ku") stays
//! in rustls.
use crate::fips::Probe;
use libaead::quic::{self as lq, SAMPLE_LEN, TAG_LEN};
use libaead::Algorithm;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{self, Tag};
use rustls::Error;
use std::sync::atomic::{AtomicU64, Ordering};

/// The QUIC key factory of one TLS 1.3 suite.
pub(crate) struct QuicAead {
    alg: Algorithm,
    probe: Probe,
}

impl QuicAead {
    const fn new(alg: Algorithm) -> Self {
        QuicAead {
            alg,
            probe: Probe::quic(alg),
        }
    }
}

pub(crate) static AES_128_GCM: QuicAead = QuicAead::new(Algorithm::Aes128Gcm);
pub(crate) static AES_256_GCM: QuicAead = QuicAead::new(Algorithm::Aes256Gcm);
pub(crate) static CHACHA20_POLY1305: QuicAead = QuicAead::new(Algorithm::ChaCha20Poly1305);

/// Packet keys made by this module in this process: see [`packet_keys`].
static PACKET_KEYS: AtomicU64 = AtomicU64::new(0);

/// How many QUIC packet keys this crate's suites have made in this process. rustls makes two per
/// key set (one for each direction): Initial, Handshake, 1-RTT, and quinn asks for the next
/// 1-RTT set once at the handshake and again at every key update, so each key update of a
/// connection adds exactly two. A diagnostic (the tests and examples use it to see key updates).
pub fn packet_keys() -> u64 {
    PACKET_KEYS.load(Ordering::Relaxed)
}

impl quic::Algorithm for QuicAead {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        PACKET_KEYS.fetch_add(1, Ordering::Relaxed);
        let key = match <[u8; 12]>::try_from(iv.as_ref()) {
            Ok(iv) => lq::PacketKey::new(self.alg, key.as_ref(), &iv),
            Err(_) => Err(libaead::Error::NonceSize),
        };
        Box::new(PacketKey {
            key,
            alg: self.alg,
            forgeries_reported: AtomicU64::new(0),
        })
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        Box::new(HeaderProtectionKey(lq::HeaderProtectionKey::new(
            self.alg,
            key.as_ref(),
        )))
    }

    fn aead_key_len(&self) -> usize {
        self.alg.key_size()
    }

    fn fips(&self) -> bool {
        self.probe.approved()
    }
}

/// A packet key, or why libaead could not make it (every packet then fails with that error:
/// rustls's factory cannot return one).
pub(crate) struct PacketKey {
    key: Result<lq::PacketKey, libaead::Error>,
    alg: Algorithm,
    /// The key's forgery count already added to [`FORGERIES`].
    forgeries_reported: AtomicU64,
}

/// Failed opens counted by libaead (`aead_ctx_usage`) on every packet key of this module, in
/// this process: see [`forgeries`].
static FORGERIES: AtomicU64 = AtomicU64::new(0);

/// How many received QUIC packets failed authentication under this crate's packet keys in this
/// process (a process-wide total of libaead's per-key forgery counts, `aead_ctx_usage`): quinn
/// drops such packets, so a connection under attack still completes while this number rises.
pub fn forgeries() -> u64 {
    FORGERIES.load(Ordering::Relaxed)
}

impl PacketKey {
    fn libaead(&self) -> Result<&lq::PacketKey, libaead::Error> {
        self.key.as_ref().map_err(|e| *e)
    }

    /// After a failed open: adds what libaead's count for this key rose by to [`FORGERIES`].
    #[cold]
    fn count_forgeries(&self, key: &lq::PacketKey) {
        let now = key.usage().1;
        let before = self.forgeries_reported.fetch_max(now, Ordering::Relaxed);
        if now > before {
            FORGERIES.fetch_add(now - before, Ordering::Relaxed);
        }
    }
}

fn seal_error(e: libaead::Error) -> Error {
    Error::General(format!("libaead did not seal the packet: {e}"))
}

/// A packet that does not authenticate is rustls's `DecryptError` (quinn drops it); any other
/// refusal (the integrity limit) is reported as it is.
fn open_error(e: libaead::Error) -> Error {
    match e {
        libaead::Error::Auth => Error::DecryptError,
        e => Error::General(format!("libaead did not open the packet: {e}")),
    }
}

impl quic::PacketKey for PacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        let key = self.libaead().map_err(seal_error)?;
        let tag = key
            .seal_detached(packet_number, header, payload)
            .map_err(seal_error)?;
        Ok(Tag::from(&tag[..]))
    }

    /// Multipath (path id in the nonce's first 4 bytes): only path 0, whose nonce is the
    /// ordinary one. libaead's QUIC policy refuses any other prefix, so other paths are refused.
    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        match path_id {
            0 => self.encrypt_in_place(packet_number, header, payload),
            _ => Err(Error::EncryptError),
        }
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        if payload.len() < TAG_LEN {
            return Err(Error::DecryptError);
        }
        let key = self.libaead().map_err(open_error)?;
        match key.open_in_place(packet_number, header, payload) {
            Ok(n) => Ok(&payload[..n]),
            Err(e) => {
                if e == libaead::Error::Auth {
                    self.count_forgeries(key);
                }
                Err(open_error(e))
            }
        }
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        match path_id {
            0 => self.decrypt_in_place(packet_number, header, payload),
            _ => Err(Error::DecryptError),
        }
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        lq::confidentiality_limit(self.alg)
    }

    fn integrity_limit(&self) -> u64 {
        lq::integrity_limit(self.alg)
    }
}

/// A header-protection key, or why libaead could not make it.
pub(crate) struct HeaderProtectionKey(Result<lq::HeaderProtectionKey, libaead::Error>);

impl HeaderProtectionKey {
    /// RFC 9001 section 5.4.1, as rustls's *ring* provider applies it; every check (sample
    /// length, packet-number length, the mask itself) comes before the first byte is changed.
    fn xor_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        masked: bool,
    ) -> Result<(), Error> {
        let hp = self.0.as_ref().map_err(|e| {
            Error::General(format!("libaead has no header-protection key: {e}"))
        })?;
        if sample.len() != SAMPLE_LEN {
            return Err(Error::General("sample of invalid length".into()));
        }
        if packet_number.len() > 4 {
            return Err(Error::General("packet number too long".into()));
        }
        let mask = hp
            .mask(sample)
            .map_err(|e| Error::General(format!("libaead header protection failed: {e}")))?;
        // Infallible from here on.
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let first_plain = if masked {
            *first ^ (mask[0] & bits)
        } else {
            *first
        };
        let pn_len = usize::from(first_plain & 0x03) + 1;
        *first ^= mask[0] & bits;
        for (dst, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *dst ^= m;
        }
        Ok(())
    }
}

impl quic::HeaderProtectionKey for HeaderProtectionKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_in_place(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_in_place(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
