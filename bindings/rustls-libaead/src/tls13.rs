//! TLS 1.3 record protection (RFC 8446 section 5.2): `AEAD_POLICY_TLS13` with the IV up front.
use crate::fips::Probe;
use crate::record::{self, Keyed, TAG_LEN, TAG_SPACE};
use libaead::{Algorithm, Policy};
use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter,
    MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload,
    Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};

/// A TLS 1.3 AEAD algorithm served by libaead.
pub(crate) struct Tls13Aead {
    alg: Algorithm,
    pub(crate) probe: Probe,
}

impl Tls13Aead {
    pub(crate) const fn new(alg: Algorithm) -> Self {
        Tls13Aead {
            alg,
            probe: Probe::record(alg, Policy::Tls13),
        }
    }

    fn keyed(&self, key: &AeadKey, iv: &Iv) -> (Keyed, [u8; 12]) {
        let iv: [u8; 12] = iv.as_ref().try_into().expect("rustls IVs are 12 bytes");
        (record::keyed(self.alg, Policy::Tls13, key, &iv), iv)
    }
}

pub(crate) static AES_128_GCM: Tls13Aead = Tls13Aead::new(Algorithm::Aes128Gcm);
pub(crate) static AES_256_GCM: Tls13Aead = Tls13Aead::new(Algorithm::Aes256Gcm);
pub(crate) static CHACHA20_POLY1305: Tls13Aead = Tls13Aead::new(Algorithm::ChaCha20Poly1305);
/// TLS_AES_128_CCM_SHA256 (RFC 8446 section B.4): AES-128-CCM with a 12-byte nonce and a 16-byte
/// tag, the nonce built as for every TLS 1.3 suite (libaead's `AEAD_POLICY_TLS13` takes it as for
/// AES-GCM). `extract_keys` answers `UnsupportedOperationError`: rustls 0.23.46's
/// `ConnectionTrafficSecrets` has no CCM variant (record::traffic_secrets).
pub(crate) static AES_128_CCM: Tls13Aead = Tls13Aead::new(Algorithm::Aes128Ccm);

impl Tls13AeadAlgorithm for Tls13Aead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        let (ctx, iv) = self.keyed(&key, &iv);
        Box::new(Encrypter { ctx, iv })
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        let (ctx, iv) = self.keyed(&key, &iv);
        Box::new(Decrypter { ctx, iv })
    }

    fn key_len(&self) -> usize {
        self.alg.key_size()
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        record::traffic_secrets(self.alg, key, iv)
    }

    fn fips(&self) -> bool {
        self.probe.approved()
    }
}

struct Encrypter {
    ctx: Keyed,
    iv: [u8; 12],
}

impl MessageEncrypter for Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let cipher = record::sealer(&self.ctx)?;
        // TLSInnerPlaintext = content || type (no padding), sealed in place in the one buffer
        // rustls's API requires: the copy in and the tag room are all that happens besides the call.
        // The payload length is read once and bounded (at most 2^14, so the sums cannot wrap).
        let inner_len = record::fragment_len(msg.payload.len())? + 1;
        let total_len = inner_len + TAG_LEN;
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&msg.typ.to_array());
        payload.extend_from_slice(&TAG_SPACE);
        // The nonce libaead checks and seals with is this local array, computed here.
        let nonce = record::xor_nonce(&self.iv, seq);
        let aad = make_tls13_aad(total_len);
        cipher
            .seal_in_place(&nonce, &aad, payload.as_mut(), inner_len)
            .map_err(record::seal_error)?;
        // RFC 8446 section 5.1: every protected record is application_data with legacy version 1.2.
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        // Saturating: a length `encrypt` refuses (over 2^14) must not wrap into a small one.
        payload_len.saturating_add(1 + TAG_LEN)
    }
}

struct Decrypter {
    ctx: Keyed,
    iv: [u8; 12],
}

impl MessageDecrypter for Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let nonce = record::xor_nonce(&self.iv, seq);
        let aad = make_tls13_aad(msg.payload.len());
        let n = record::open_in_place(&self.ctx, &nonce, &aad, &mut msg.payload)?;
        msg.payload.truncate(n);
        msg.into_tls13_unpadded_message()
    }
}
