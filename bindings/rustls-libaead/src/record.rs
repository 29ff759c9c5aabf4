//! What the TLS 1.2 and TLS 1.3 record code shares: the libaead context behind each direction,
//! the error mapping, and the rustls constants.
use libaead::{Algorithm, Cipher, Policy};
use rustls::crypto::cipher::{AeadKey, Iv, UnsupportedOperationError};
use rustls::ConnectionTrafficSecrets;
use rustls::Error;

/// libaead's tag length for every TLS suite.
pub(crate) const TAG_LEN: usize = 16;
/// Largest TLSPlaintext fragment (RFC 8446 section 5.1, RFC 5246 section 6.2.1).
pub(crate) const MAX_FRAGMENT_LEN: usize = 16384;
/// Room for the tag: appended (zeroed) after the plaintext, then overwritten by the seal.
pub(crate) const TAG_SPACE: [u8; TAG_LEN] = [0; TAG_LEN];

/// One direction's keyed context, or why libaead could not make it (every record then fails with
/// that error: rustls's factory traits cannot return an error).
pub(crate) type Keyed = Result<Cipher, libaead::Error>;

/// A TLS-policy context given its IV up front (`aead_ctx_new_ex`): nothing is learned from the
/// first record, and every seal's nonce is checked against `iv` and the sequence.
pub(crate) fn keyed(alg: Algorithm, policy: Policy, key: &AeadKey, iv: &[u8]) -> Keyed {
    Cipher::with_options(alg, policy, key.as_ref(), TAG_LEN, None, iv)
}

/// A refused or failed seal, as rustls sees it.
pub(crate) fn seal_error(e: libaead::Error) -> Error {
    Error::General(format!("libaead did not seal the record: {e}"))
}

/// A plaintext fragment longer than TLS allows (2^14 bytes, RFC 8446 section 5.1, RFC 5246
/// section 6.2.1) is refused before anything is built or sealed: rustls never produces one, and
/// its length would not survive the record's 16-bit length field, which the AAD encodes.
/// Returns the length, so the record's sizes are computed from this checked value only.
#[inline]
pub(crate) fn fragment_len(len: usize) -> Result<usize, Error> {
    if len > MAX_FRAGMENT_LEN {
        return Err(Error::General(format!(
            "libaead did not seal the record: {len}-byte fragment over the TLS limit of {MAX_FRAGMENT_LEN}"
        )));
    }
    Ok(len)
}

/// A failed open: an authentication failure is rustls's `DecryptError` (rustls answers it with a
/// `bad_record_mac` alert); anything else is reported as it is.
pub(crate) fn open_error(e: libaead::Error) -> Error {
    match e {
        libaead::Error::Auth => Error::DecryptError,
        e => Error::General(format!("libaead did not open the record: {e}")),
    }
}

/// The context, or the error it failed with, for a seal.
#[inline]
pub(crate) fn sealer(k: &Keyed) -> Result<&Cipher, Error> {
    k.as_ref().map_err(|e| seal_error(*e))
}

/// The context, or the error it failed with, for an open.
#[inline]
pub(crate) fn opener(k: &Keyed) -> Result<&Cipher, Error> {
    k.as_ref().map_err(|e| open_error(*e))
}

/// `iv XOR (0^4 || BE64(seq))`: the TLS 1.3 / TLS 1.2 ChaCha20-Poly1305 nonce (rustls's `Nonce::new`).
#[inline]
pub(crate) fn xor_nonce(iv: &[u8; 12], seq: u64) -> [u8; 12] {
    libaead::tls13_nonce(iv, seq)
}

/// Opens `payload` (`ciphertext || tag`) in place with one libaead call; returns the plaintext length.
#[inline]
pub(crate) fn open_in_place(
    k: &Keyed,
    nonce: &[u8; 12],
    aad: &[u8],
    payload: &mut [u8],
) -> Result<usize, Error> {
    if payload.len() < TAG_LEN {
        return Err(Error::DecryptError);
    }
    opener(k)?
        .open_in_place(nonce, aad, payload)
        .map_err(open_error)
}

/// The key material of a direction, named by algorithm (`extract_keys`). AES-128-CCM has no
/// `ConnectionTrafficSecrets` variant in rustls 0.23.46 (src/suites.rs, the enum lists AES-128-GCM,
/// AES-256-GCM and ChaCha20-Poly1305 only), so its keys cannot be extracted (kTLS and the like).
pub(crate) fn traffic_secrets(
    alg: Algorithm,
    key: AeadKey,
    iv: Iv,
) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
    Ok(match alg {
        Algorithm::Aes128Gcm => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
        Algorithm::Aes256Gcm => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
        Algorithm::ChaCha20Poly1305 => ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv },
        _ => return Err(UnsupportedOperationError),
    })
}
