"""Exceptions and the mapping of libaead's error codes to the ones pyca/cryptography raises.

Both call paths raise through here: the cffi methods call ``raise_for`` and the compiled module calls
``fast_fail`` (its error hook), so types and messages are defined once."""

from typing import Any, Dict, Mapping, NoReturn, Optional, Tuple, Type

from libaead._binding import fast as _fast
from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib

try:  # libaead.InvalidTag also passes ``except cryptography.exceptions.InvalidTag``
    from cryptography.exceptions import InvalidTag as _PycaInvalidTag
    from cryptography.exceptions import UnsupportedAlgorithm as _PycaUnsupported

    _INVALID_TAG_BASE: Any = _PycaInvalidTag
    _UNSUPPORTED_BASE: Any = _PycaUnsupported
    try:
        from cryptography.exceptions import _Reasons

        _UNSUPPORTED_CIPHER: Any = _Reasons.UNSUPPORTED_CIPHER
    except Exception:  # pragma: no cover - a pyca without the private enum
        _UNSUPPORTED_CIPHER = None
except Exception:  # pragma: no cover - cryptography not installed
    _INVALID_TAG_BASE = Exception
    _UNSUPPORTED_BASE = Exception
    _UNSUPPORTED_CIPHER = None


class InvalidTag(_INVALID_TAG_BASE):  # type: ignore[misc]
    """Authentication failed: wrong key, nonce, associated data, ciphertext or tag.

    A subclass of ``cryptography.exceptions.InvalidTag`` when pyca/cryptography is importable. From a
    batch call (``decrypt_many``) its ``index`` names the first failing record."""


class NonceReuseError(ValueError):
    """A TLS, counter-nonce or SSH AEAD refused a nonce on encryption; the message names the rule that was
    broken."""


class NonceLimitError(NonceReuseError):
    """AESGCMRandomNonce: this key has made 2**32 encryptions, the limit for random 96-bit nonces
    (NIST SP 800-38D section 8.3); the random-nonce classes of AEGIS-128L/128X2/128X4: 2**48 (RFC 10032).
    Make a new object with a new key."""


class ForkedContextError(NonceReuseError):
    """A TLS, counter-nonce or SSH AEAD created before ``os.fork()`` (or a ``multiprocessing`` fork) refused
    to encrypt in the child: parent and child would otherwise hold the same "next sequence number" and could both seal
    it (libaead 1.2, AEAD_ERR_FORKED). Decryption keeps working in the child and the parent is never
    affected; create the object in the process that writes the records. Random-nonce objects are not
    refused: they draw fresh nonces in every process."""


class UnsupportedAlgorithm(_UNSUPPORTED_BASE):  # type: ignore[misc]
    """No provider offers the algorithm for the requested properties (for example ChaCha20-Poly1305
    under a FIPS-only configuration). A subclass of ``cryptography.exceptions.UnsupportedAlgorithm``
    when pyca/cryptography is importable."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        # pyca's ``_reason``, as its AEAD classes set it (their tests check it): always a cipher here
        self._reason = _UNSUPPORTED_CIPHER


# What a call of an AEAD class raises for each AEAD_ERR_* code: the binding's list of the codes (every code
# of include/aead.h is here, and README.md's Errors table names each type in the row of its code:
# tests/decls/errors.py checks both). _exception gives the message: the class's rule where it has one,
# else aead_strerror's text and the code. libaead.quic, .hpke and .stream map their calls' codes
# themselves.
EXCEPTIONS: Dict[str, Type[BaseException]] = {
    "AEAD_ERR_AUTH": InvalidTag,
    "AEAD_ERR_ARG": RuntimeError,
    "AEAD_ERR_KEY_SIZE": RuntimeError,  # the constructors check the key first (pyca's ValueError)
    "AEAD_ERR_NONCE_SIZE": ValueError,
    "AEAD_ERR_TAG_SIZE": RuntimeError,  # as AEAD_ERR_KEY_SIZE
    "AEAD_ERR_AAD_SIZE": ValueError,
    "AEAD_ERR_TOO_LONG": OverflowError,
    "AEAD_ERR_BUFFER_TOO_SMALL": RuntimeError,  # the buffer's size is checked first (ValueError)
    "AEAD_ERR_OVERLAP": ValueError,
    "AEAD_ERR_NONCE_ORDER": NonceReuseError,
    "AEAD_ERR_NONCE_EXHAUSTED": NonceReuseError,
    "AEAD_ERR_NONCE_PREFIX": NonceReuseError,
    "AEAD_ERR_UNSUPPORTED": UnsupportedAlgorithm,
    "AEAD_ERR_NOMEM": MemoryError,
    "AEAD_ERR_CRYPTO": RuntimeError,
    "AEAD_ERR_NONCE_LIMIT": NonceLimitError,
    "AEAD_ERR_FORKED": ForkedContextError,
    "AEAD_ERR_KEY_LIMIT": RuntimeError,  # AESGCMForTLS13 past AEAD_TLS13_AES_GCM_RECORD_LIMIT encryptions
    "AEAD_ERR_REPLAY": RuntimeError,  # no AEAD class opens through a replay window
    "AEAD_ERR_AAD_MISMATCH": RuntimeError,  # DTLS only: no AEAD class
    "AEAD_ERR_STREAM_FINISHED": RuntimeError,  # streams only (libaead.stream)
}
_BY_CODE = {int(getattr(_lib, name)): kind for name, kind in EXCEPTIONS.items()}

# Messages of the TLS refusals, per nonce construction. {cls} is the class name.
RFC5288 = {
    _lib.AEAD_ERR_NONCE_ORDER: (
        "{cls}: nonce reuse refused: the explicit nonce (bytes 4..11, a big-endian sequence number) must be "
        "strictly greater than the last one encrypted with this key (TLS 1.2 AES-GCM, RFC 5288)"
    ),
    _lib.AEAD_ERR_NONCE_EXHAUSTED: (
        "{cls}: nonce refused: sequence number 2**64-1 is never allowed; the key is exhausted, rekey"
    ),
    _lib.AEAD_ERR_NONCE_PREFIX: (
        "{cls}: nonce refused: the fixed part (bytes 0..3, the implicit salt) differs from the one given or "
        "learned on the first encryption with this key (TLS 1.2 AES-GCM, RFC 5288)"
    ),
}


def xor_rules(rfc: str) -> Dict[int, str]:
    return {
        _lib.AEAD_ERR_NONCE_ORDER: (
            "{cls}: nonce reuse refused: the record sequence number (nonce XOR the IV, given or learned on the "
            "first encryption) must be strictly greater than the last one encrypted with this key (%s)" % rfc
        ),
        _lib.AEAD_ERR_NONCE_EXHAUSTED: (
            "{cls}: nonce refused: sequence number 2**64-1 is never allowed; the key is exhausted, rekey"
        ),
        _lib.AEAD_ERR_NONCE_PREFIX: (
            "{cls}: nonce refused: bytes 0..3 differ from the IV given or learned on the first encryption "
            "(nonce = IV XOR sequence number, %s)" % rfc
        ),
    }


def counter_rules(origin: str) -> Dict[int, str]:
    """The refusals of the counter-nonce classes (library 1.5): nonce = fixed(4) || 8-byte counter field.
    origin: how the counter is read from bytes 4..11."""
    return {
        _lib.AEAD_ERR_NONCE_ORDER: (
            "{cls}: nonce reuse refused: the counter (%s) must be strictly greater than the last one "
            "encrypted with this key" % origin
        ),
        _lib.AEAD_ERR_NONCE_EXHAUSTED: (
            "{cls}: nonce refused: the counter is 2**64-1 steps past its start, which is never allowed (a counter "
            "below the start is read that way too); if the counter really came round, the key is exhausted: rekey"
        ),
        _lib.AEAD_ERR_NONCE_PREFIX: (
            "{cls}: nonce refused: bytes 0..3 (the fixed field) differ from the iv given or the first nonce "
            "encrypted with this key"
        ),
    }


COUNTER_ORIGIN = "bytes 4..11, big-endian, counted from the iv's or the first encryption's"
XOR_COUNTER_ORIGIN = ("bytes 4..11 XOR the 8-byte mask of the iv given, or of the first encryption, which is "
                      "counter 0")
SSH_AAD = ("{cls}: SSH AES-GCM (RFC 5647 section 7.3) requires exactly 4 bytes of associated data (the packet "
           "length)")
TLS12_AAD = "{cls}: TLS 1.2 requires exactly 13 bytes of associated data (seq_num, type, version, length)"
TLS13_AAD = "{cls}: TLS 1.3 requires exactly 5 bytes of associated data (the record header)"
_FORKED = ("{cls}: encryption refused in a forked child: this object was created before the fork and its "
           "next sequence number (or counter) belongs to the parent (decryption still works here; create the "
           "object in the process that writes the records)")
_BATCH_TOO_LARGE = "%s: the batch's total output is larger than sys.maxsize bytes"
_NONCE_LIMIT = ("{cls}: 2**32 encryptions with this key reached, the limit for random 96-bit nonces "
                "(NIST SP 800-38D section 8.3): use a new key")


def _exception(obj: Any, code: int) -> BaseException:
    """EXCEPTIONS' type for code, with the message of the rule obj broke."""
    cls = type(obj).__name__
    kind = _BY_CODE.get(code, RuntimeError)
    if kind is InvalidTag:
        return InvalidTag()
    if kind is MemoryError:
        return MemoryError()
    rule = obj._tls_rules.get(code)
    message = None
    if rule is not None:
        message = rule.format(cls=cls)
    elif code == _lib.AEAD_ERR_FORKED:
        message = _FORKED.format(cls=cls)
    elif code == _lib.AEAD_ERR_NONCE_LIMIT:
        message = (obj._nonce_limit_msg or _NONCE_LIMIT).format(cls=cls)
    elif code == _lib.AEAD_ERR_AAD_SIZE and obj._tls_aad_rule:
        message = obj._tls_aad_rule.format(cls=cls)
    elif code == _lib.AEAD_ERR_NONCE_SIZE:
        message = obj._nonce_msg
    elif code == _lib.AEAD_ERR_TOO_LONG:
        message = obj._too_long_msg or "%s: data or associated data longer than the algorithm allows" % cls
    elif code == _lib.AEAD_ERR_OVERLAP:
        message = ("%s: buf overlaps an input (only exact in-place use, buf starting at the same address as data, "
                   "is allowed)" % cls)
    if message is None:
        message = library_text(code)
    return kind(message)


def library_text(code: int) -> str:
    """The message for a code without one of its own: the library's text for it and the code."""
    text: bytes = _ffi.string(_lib.aead_strerror(code))
    return "libaead: %s (code %d)" % (text.decode("ascii", "replace"), code)


def raise_refusal(code: int, who: str, refusals: Mapping[str, Tuple[Type[BaseException], str]]) -> NoReturn:
    """Raises for a negative AEAD_ERR_* code of a stream or HPKE call: InvalidTag for AEAD_ERR_AUTH,
    MemoryError for AEAD_ERR_NOMEM, for a code that ``refusals`` names (AEAD_ERR_* name -> exception type,
    message with %s for ``who``) its exception, and RuntimeError with the library's text for any other."""
    if code == _lib.AEAD_ERR_AUTH:
        raise InvalidTag()
    if code == _lib.AEAD_ERR_NOMEM:
        raise MemoryError()
    for name, (exc, message) in refusals.items():
        if code == getattr(_lib, name):
            raise exc(message % who)
    raise RuntimeError(library_text(code))


def _name_record(exc: BaseException, index: int) -> BaseException:
    """The same exception type, its message prefixed with the failing record's index (batch calls);
    ``exc.index`` holds the index too."""
    text = str(exc)
    try:
        named = type(exc)("record %d%s" % (index, ": " + text if text else ""))
    except Exception:  # a type that does not take a message: keep it as it is
        named = exc
    try:
        named.index = index  # type: ignore[attr-defined]
    except Exception:  # pragma: no cover - exceptions without a __dict__
        pass
    return named


def raise_for(obj: Any, code: int, index: int = -1) -> NoReturn:
    """Raises for a negative AEAD_ERR_* code what pyca/cryptography would raise (index >= 0: from record
    ``index`` of a batch)."""
    exc = _exception(obj, code)
    if index >= 0:
        raise _name_record(exc, index)
    raise exc


def batch_too_large(obj: Any) -> OverflowError:
    """A batch whose summed output lengths cannot be represented (refused before the call)."""
    return OverflowError(_BATCH_TOO_LARGE % type(obj).__name__)


def buffer_size(out_len: int) -> ValueError:
    return ValueError("buffer must be %d bytes" % out_len)


LENGTHS = "the sequences of a batch call must have the same length"

# AESSIV (library 1.3)
SIV_EMPTY = "data must not be zero length"  # pyca's message on a libcrypto < 3.5
SIV_MAX_COMPONENTS = int(_lib.AEAD_SIV_MAX_COMPONENTS)
_SIV_COMPONENTS = ("AESSIV: at most %d associated data components (RFC 5297 section 7: S2V takes at most 127 "
                   "strings, the plaintext being the last), got %d")


def siv_components(count: int) -> ValueError:
    """More associated data components than RFC 5297 allows (a deliberate difference from pyca, which
    passes any number to OpenSSL)."""
    return ValueError(_SIV_COMPONENTS % (SIV_MAX_COMPONENTS, count))


def not_a_list(value: Any, name: str = "associated_data") -> TypeError:
    """AESSIV's associated data must be a list (or None), as pyca's (a tuple or bytes is refused)."""
    return TypeError("argument '%s': '%s' object is not an instance of 'list'" % (name, type(value).__name__))


def raise_named(exc: BaseException, index: int) -> NoReturn:
    """Raises exc as from record ``index`` of a batch."""
    raise _name_record(exc, index)


def raise_converted(exc: BaseException, index: int) -> NoReturn:
    """A record's argument failed to convert (TypeError, BufferError): the same type, naming the record."""
    raise _name_record(exc, index) from exc


def fast_fail(obj: Any, code: int, index: int, extra: int, exc: Optional[BaseException]) -> NoReturn:
    """The compiled module's error hook; see _fast.c for the pseudo-codes."""
    if code == _fast.FAIL_BUFFER_SIZE:
        raise buffer_size(extra)
    if code == _fast.FAIL_CONVERT and exc is not None:
        raise_converted(exc, index)
    if code == _fast.FAIL_LENGTHS:
        raise ValueError(LENGTHS)
    if code == _fast.FAIL_TOTAL:
        raise batch_too_large(obj)
    named: Optional[BaseException] = None
    if code == _fast.FAIL_CCM_LENGTH:
        named = ValueError("Data too long for nonce")  # pyca's message
    elif code == _fast.FAIL_SIV_EMPTY:
        named = ValueError(SIV_EMPTY)
    elif code == _fast.FAIL_SIV_COMPONENTS:
        named = siv_components(extra)
    elif code == _fast.FAIL_NOT_LIST:
        named = not_a_list(exc)  # exc: the offending object here
    if named is not None:
        if index >= 0:
            raise_named(named, index)
        raise named
    if code == _fast.FAIL_UNBOUND:
        raise ValueError("%s object was not initialised by its constructor" % type(obj).__name__)
    raise_for(obj, code, index)


if _fast is not None:
    _fast.set_error_hook(fast_fail)
