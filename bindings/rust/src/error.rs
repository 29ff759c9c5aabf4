use crate::{ffi, sys};
use core::fmt;

/// A libaead error: one variant per stable `AEAD_ERR_*` code of aead.h.
///
/// The nonce-misuse variants returned by the TLS and counter-nonce types are [`Error::NonceOrder`],
/// [`Error::NonceExhausted`], [`Error::NoncePrefix`] and [`Error::AadSize`]
/// (see [`Error::is_nonce_misuse`]). Converts into the opaque [`aead::Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// `AEAD_ERR_AUTH`: the tag did not verify (any authentication failure; for an HPKE
    /// receiver's in-order open also a message that is not the next one).
    Auth,
    /// `AEAD_ERR_ARG`: invalid argument (also: an in-place length above the buffer length).
    Arg,
    /// `AEAD_ERR_KEY_SIZE`: key length not valid for the algorithm.
    KeySize,
    /// `AEAD_ERR_NONCE_SIZE`: nonce length not valid for the algorithm or policy.
    NonceSize,
    /// `AEAD_ERR_TAG_SIZE`: tag length not valid for the algorithm or policy.
    TagSize,
    /// `AEAD_ERR_AAD_SIZE`: TLS seal with AAD not 13 (TLS 1.2) or 5 (TLS 1.3) bytes (also DTLS 1.2:
    /// 13; library 1.5's SSH policy: 4).
    AadSize,
    /// `AEAD_ERR_TOO_LONG`: plaintext or AAD over the algorithm's limit.
    TooLong,
    /// `AEAD_ERR_BUFFER_TOO_SMALL`: the output buffer is too small; nothing was written.
    BufferTooSmall,
    /// `AEAD_ERR_OVERLAP`: output partially overlaps an input (cannot happen from safe Rust).
    Overlap,
    /// `AEAD_ERR_NONCE_ORDER`: a seal on a sequenced context (TLS, DTLS, QUIC, and since library
    /// 1.5 the counter policies) with a sequence or counter not greater than the last accepted one.
    NonceOrder,
    /// `AEAD_ERR_NONCE_EXHAUSTED`: a sequenced seal with the last value of the space: TLS
    /// sequence 2^64-1, and for the counter policies counter 2^64-1 from the start (the value just
    /// below the first counter); an HPKE context past sequence number 2^64-2.
    NonceExhausted,
    /// `AEAD_ERR_NONCE_PREFIX`: a sequenced seal whose fixed nonce prefix differs from the
    /// context's (learned or given).
    NoncePrefix,
    /// `AEAD_ERR_UNSUPPORTED`: the algorithm is not available from the loaded OpenSSL providers.
    Unsupported,
    /// `AEAD_ERR_NOMEM`: an allocation failed inside the library.
    NoMem,
    /// `AEAD_ERR_CRYPTO`: libcrypto reported an unexpected failure.
    Crypto,
    /// `AEAD_ERR_NONCE_LIMIT` (ABI 1.1): a random-nonce context has made 2^32 seals
    /// (SP 800-38D section 8.3); use a new key.
    NonceLimit,
    /// `AEAD_ERR_FORKED` (library 1.2): a seal on a TLS-policy context ([`Tls12Aead`](crate::Tls12Aead),
    /// [`Tls13Aead`](crate::Tls13Aead), [`Policy::Tls12`](crate::Policy::Tls12) /
    /// [`Policy::Tls13`](crate::Policy::Tls13); likewise QUIC, DTLS, and since library 1.5 the
    /// counter-nonce types such as [`Aes128GcmCounterNonce`](crate::Aes128GcmCounterNonce) and
    /// [`Aes128GcmSsh`](crate::Aes128GcmSsh), and since library 1.6 an HPKE
    /// [`SenderContext`](crate::hpke::SenderContext)) in a process forked after the context was created.
    /// Parent and child would otherwise hold the same next sequence number and could both seal it,
    /// so the child's seals are refused: nothing is written and no sequence number is consumed.
    /// Opens keep working, the parent is unaffected, and a context created in the child works
    /// normally: create the connection's sealing context in the process that writes its records.
    /// Random-nonce contexts are not affected (the child draws fresh nonces).
    Forked,
    /// `AEAD_ERR_KEY_LIMIT` (ABI 1.2): a QUIC packet key ([`quic::PacketKey`](crate::quic::PacketKey))
    /// reached an RFC 9001 section 6.6 limit: its confidentiality limit of seals (AES-GCM 2^23)
    /// or its integrity limit of failed opens (AES-GCM 2^52, ChaCha20-Poly1305 2^36). Refused,
    /// nothing written: update the keys.
    KeyLimit,
    /// `AEAD_ERR_REPLAY` (ABI 1.4): a DTLS open ([`dtls::RecordKey`](crate::dtls::RecordKey), or
    /// since library 1.6 [`hpke::ReceiverContext::open_at`](crate::hpke::ReceiverContext::open_at))
    /// of a record number the replay window refuses: accepted before, or left of the window. Nothing
    /// was decrypted (or, when a concurrent open accepted the same record first, the output was
    /// zeroed); drop the record silently (RFC 6347, RFC 9147).
    Replay,
    /// `AEAD_ERR_AAD_MISMATCH` (ABI 1.4): DTLS 1.2: the AAD's `seq_num` (epoch || seq) is not the
    /// nonce's. Refused, nothing written.
    AadMismatch,
    /// `AEAD_ERR_STREAM_FINISHED` (ABI 1.7): a stream's final segment was sealed or opened: nothing
    /// may follow it (a write after the end, or data after the final segment).
    StreamFinished,
    /// A negative code this crate does not know (a newer library).
    Unknown(i64),
}

impl Error {
    /// Maps a negative `AEAD_ERR_*` return code to an [`Error`].
    pub fn from_code(code: i64) -> Self {
        let Ok(c) = i32::try_from(code) else {
            return Error::Unknown(code);
        };
        match c {
            sys::AEAD_ERR_AUTH => Error::Auth,
            sys::AEAD_ERR_ARG => Error::Arg,
            sys::AEAD_ERR_KEY_SIZE => Error::KeySize,
            sys::AEAD_ERR_NONCE_SIZE => Error::NonceSize,
            sys::AEAD_ERR_TAG_SIZE => Error::TagSize,
            sys::AEAD_ERR_AAD_SIZE => Error::AadSize,
            sys::AEAD_ERR_TOO_LONG => Error::TooLong,
            sys::AEAD_ERR_BUFFER_TOO_SMALL => Error::BufferTooSmall,
            sys::AEAD_ERR_OVERLAP => Error::Overlap,
            sys::AEAD_ERR_NONCE_ORDER => Error::NonceOrder,
            sys::AEAD_ERR_NONCE_EXHAUSTED => Error::NonceExhausted,
            sys::AEAD_ERR_NONCE_PREFIX => Error::NoncePrefix,
            sys::AEAD_ERR_UNSUPPORTED => Error::Unsupported,
            sys::AEAD_ERR_NOMEM => Error::NoMem,
            sys::AEAD_ERR_CRYPTO => Error::Crypto,
            sys::AEAD_ERR_NONCE_LIMIT => Error::NonceLimit,
            sys::AEAD_ERR_FORKED => Error::Forked,
            sys::AEAD_ERR_KEY_LIMIT => Error::KeyLimit,
            sys::AEAD_ERR_REPLAY => Error::Replay,
            sys::AEAD_ERR_AAD_MISMATCH => Error::AadMismatch,
            sys::AEAD_ERR_STREAM_FINISHED => Error::StreamFinished,
            _ => Error::Unknown(code),
        }
    }

    /// The stable negative `AEAD_ERR_*` code.
    pub fn code(&self) -> i64 {
        i64::from(match self {
            Error::Auth => sys::AEAD_ERR_AUTH,
            Error::Arg => sys::AEAD_ERR_ARG,
            Error::KeySize => sys::AEAD_ERR_KEY_SIZE,
            Error::NonceSize => sys::AEAD_ERR_NONCE_SIZE,
            Error::TagSize => sys::AEAD_ERR_TAG_SIZE,
            Error::AadSize => sys::AEAD_ERR_AAD_SIZE,
            Error::TooLong => sys::AEAD_ERR_TOO_LONG,
            Error::BufferTooSmall => sys::AEAD_ERR_BUFFER_TOO_SMALL,
            Error::Overlap => sys::AEAD_ERR_OVERLAP,
            Error::NonceOrder => sys::AEAD_ERR_NONCE_ORDER,
            Error::NonceExhausted => sys::AEAD_ERR_NONCE_EXHAUSTED,
            Error::NoncePrefix => sys::AEAD_ERR_NONCE_PREFIX,
            Error::Unsupported => sys::AEAD_ERR_UNSUPPORTED,
            Error::NoMem => sys::AEAD_ERR_NOMEM,
            Error::Crypto => sys::AEAD_ERR_CRYPTO,
            Error::NonceLimit => sys::AEAD_ERR_NONCE_LIMIT,
            Error::Forked => sys::AEAD_ERR_FORKED,
            Error::KeyLimit => sys::AEAD_ERR_KEY_LIMIT,
            Error::Replay => sys::AEAD_ERR_REPLAY,
            Error::AadMismatch => sys::AEAD_ERR_AAD_MISMATCH,
            Error::StreamFinished => sys::AEAD_ERR_STREAM_FINISHED,
            Error::Unknown(c) => return *c,
        })
    }

    /// True for the nonce-policy refusals (TLS, DTLS, QUIC, the counter policies): order,
    /// exhaustion, prefix and AAD size.
    /// Such a refused seal wrote nothing and consumed no sequence number.
    pub fn is_nonce_misuse(&self) -> bool {
        matches!(
            self,
            Error::NonceOrder | Error::NonceExhausted | Error::NoncePrefix | Error::AadSize
        )
    }

    /// The library's static English description (`aead_strerror`).
    pub fn description(&self) -> &'static str {
        ffi::strerror(self.code())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "libaead error {}: {}", self.code(), self.description())
    }
}

impl std::error::Error for Error {}

impl From<Error> for aead::Error {
    fn from(_: Error) -> Self {
        aead::Error
    }
}
