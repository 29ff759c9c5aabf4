//! TLS 1.2 record protection: AES-GCM (RFC 5288) and ChaCha20-Poly1305 (RFC 7905) under
//! `AEAD_POLICY_TLS12`, with the IV up front.
//!
//! rustls's AES-GCM explicit nonce is not a counter: it is `mask XOR seq`, the mask being the
//! 8 extra key-block bytes (`KeyBlockShape::explicit_nonce_len`). libaead takes `salt || mask`
//! (12 bytes) and checks exactly that construction. ChaCha20-Poly1305 has a 12-byte IV and no
//! explicit part: its nonce is `iv XOR seq`. Either way the sealing context gets 12 bytes.
use crate::fips::Probe;
use crate::record::{self, Keyed, MAX_FRAGMENT_LEN, TAG_LEN, TAG_SPACE};
use libaead::{Algorithm, Policy};
use rustls::crypto::cipher::{
    make_tls12_aad, AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape,
    MessageDecrypter, MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, UnsupportedOperationError,
};
use rustls::{ConnectionTrafficSecrets, Error};

/// AES-GCM: 4-byte salt from the key block, 8-byte explicit nonce in each record.
const GCM_SALT_LEN: usize = 4;
const GCM_EXPLICIT_LEN: usize = 8;

/// A TLS 1.2 AEAD algorithm served by libaead.
pub(crate) struct Tls12Aead {
    alg: Algorithm,
    pub(crate) probe: Probe,
}

impl Tls12Aead {
    const fn new(alg: Algorithm) -> Self {
        Tls12Aead {
            alg,
            probe: Probe::record(alg, Policy::Tls12),
        }
    }

    /// Bytes of each record's nonce that travel in the record.
    fn explicit_len(&self) -> usize {
        match self.alg {
            Algorithm::ChaCha20Poly1305 => 0,
            _ => GCM_EXPLICIT_LEN,
        }
    }
}

pub(crate) static AES_128_GCM: Tls12Aead = Tls12Aead::new(Algorithm::Aes128Gcm);
pub(crate) static AES_256_GCM: Tls12Aead = Tls12Aead::new(Algorithm::Aes256Gcm);
pub(crate) static CHACHA20_POLY1305: Tls12Aead = Tls12Aead::new(Algorithm::ChaCha20Poly1305);

/// `fixed || explicit` as 12 bytes: rustls's "IV" for `extract_keys`, and libaead's TLS 1.2 IV
/// (AES-GCM: salt || mask; ChaCha20-Poly1305: the IV itself, `explicit` being empty).
fn iv12(fixed: &[u8], explicit: &[u8]) -> [u8; 12] {
    let mut iv = [0u8; 12];
    iv[..fixed.len()].copy_from_slice(fixed);
    iv[fixed.len()..].copy_from_slice(explicit);
    iv
}

impl Tls12AeadAlgorithm for Tls12Aead {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        let iv = iv12(iv, &extra[..self.explicit_len()]);
        let ctx = record::keyed(self.alg, Policy::Tls12, &key, &iv);
        Box::new(Encrypter {
            ctx,
            iv,
            explicit_len: self.explicit_len(),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        // Opens are not sequence-checked, so the context needs no IV.
        let ctx = record::keyed(self.alg, Policy::Tls12, &key, &[]);
        let nonce = match self.explicit_len() {
            0 => NonceSource::Sequence(iv12(iv, &[])),
            _ => NonceSource::Record(iv.try_into().expect("KeyBlockShape::fixed_iv_len is 4")),
        };
        Box::new(Decrypter { ctx, nonce })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: self.alg.key_size(),
            fixed_iv_len: 12 - self.explicit_len(),
            explicit_nonce_len: self.explicit_len(),
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        record::traffic_secrets(
            self.alg,
            key,
            Iv::new(iv12(iv, &explicit[..self.explicit_len()])),
        )
    }

    fn fips(&self) -> bool {
        self.probe.approved()
    }
}

struct Encrypter {
    ctx: Keyed,
    iv: [u8; 12],
    explicit_len: usize,
}

impl MessageEncrypter for Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let cipher = record::sealer(&self.ctx)?;
        // Read once and bounded (at most 2^14, so the sizes below cannot wrap).
        let len = record::fragment_len(msg.payload.len())?;
        // The nonce libaead checks and seals with is this local array, computed here; the explicit
        // part sent in the record is copied from it.
        let nonce = record::xor_nonce(&self.iv, seq);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, len);
        // GenericAEADCipher = explicit nonce (AES-GCM: the nonce's last 8 bytes) || ciphertext
        // || tag, sealed in place after the explicit part.
        let mut payload = PrefixedPayload::with_capacity(self.encrypted_payload_len(len));
        payload.extend_from_slice(&nonce[12 - self.explicit_len..]);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&TAG_SPACE);
        cipher
            .seal_in_place(
                &nonce,
                &aad,
                &mut payload.as_mut()[self.explicit_len..],
                len,
            )
            .map_err(record::seal_error)?;
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        // Saturating: a length `encrypt` refuses (over 2^14) must not wrap into a small one.
        payload_len.saturating_add(self.explicit_len + TAG_LEN)
    }
}

/// Where a received record's nonce comes from.
enum NonceSource {
    /// AES-GCM: the 4-byte salt || the record's 8-byte explicit nonce.
    Record([u8; GCM_SALT_LEN]),
    /// ChaCha20-Poly1305: the IV XOR the sequence number.
    Sequence([u8; 12]),
}

struct Decrypter {
    ctx: Keyed,
    nonce: NonceSource,
}

impl MessageDecrypter for Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let (explicit, total) = (self.explicit_len(), msg.payload.len());
        if total < explicit + TAG_LEN {
            return Err(Error::DecryptError);
        }
        let nonce = match &self.nonce {
            NonceSource::Record(salt) => iv12(salt, &msg.payload[..explicit]),
            NonceSource::Sequence(iv) => record::xor_nonce(iv, seq),
        };
        let aad = make_tls12_aad(seq, msg.typ, msg.version, total - explicit - TAG_LEN);
        let n = record::open_in_place(&self.ctx, &nonce, &aad, &mut msg.payload[explicit..])?;
        if n > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        Ok(msg.into_plain_message_range(explicit..explicit + n))
    }
}

impl Decrypter {
    fn explicit_len(&self) -> usize {
        match self.nonce {
            NonceSource::Record(_) => GCM_EXPLICIT_LEN,
            NonceSource::Sequence(_) => 0,
        }
    }
}
