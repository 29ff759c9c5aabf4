"""libaead: AES-GCM and ChaCha20-Poly1305 through libaead (OpenSSL 3).

``AESGCM`` and ``ChaCha20Poly1305`` are drop-in replacements for the classes of the same name in
``cryptography.hazmat.primitives.ciphers.aead`` (pyca/cryptography 48): same constructors, methods,
arguments, return types, accepted sizes and exception types. Differences, all improvements:

* every call releases the GIL, so threads sharing one object encrypt in parallel;
* inputs (data, associated data) longer than 2**31 - 1 bytes work (up to the algorithm's limit);
* when ``decrypt_into`` fails, the output buffer is left zeroed (no unauthenticated plaintext);
* ``AESGCMForTLS12``, ``AESGCMForTLS13``, ``ChaCha20Poly1305ForTLS12``, ``ChaCha20Poly1305ForTLS13``
  check TLS nonce sequencing on encryption and raise :class:`NonceReuseError` naming the rule.

Objects are immutable and safe to share between threads (the C context is documented thread-safe,
the TLS sequence check included). ``backend`` tells whether the compiled cffi module ("api") or the
``ffi.dlopen`` fallback ("abi") is in use.
"""

import operator
import os
import sys
from typing import TYPE_CHECKING, Any, Dict, NoReturn, Optional, Type, TypeVar, Union

from libaead._loader import load as _load

__version__ = "1.0.0"

__all__ = [
    "AESGCM",
    "AESGCMForTLS12",
    "AESGCMForTLS13",
    "ChaCha20Poly1305",
    "ChaCha20Poly1305ForTLS12",
    "ChaCha20Poly1305ForTLS13",
    "InvalidTag",
    "NonceReuseError",
    "backend",
    "library_version",
]

if TYPE_CHECKING:
    from typing_extensions import Buffer  # collections.abc.Buffer (PEP 688) on every version
elif sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    import mmap

    Buffer = Union[bytes, bytearray, memoryview, mmap.mmap]

_T = TypeVar("_T", bound="_AEAD")

_ffi, _lib, backend = _load()
"""``"api"`` (compiled cffi module) or ``"abi"`` (``ffi.dlopen`` fallback)."""

_seal_open = _lib.aead_seal_open
_from_buffer = _ffi.from_buffer
_U8_ARRAY = _ffi.typeof("uint8_t[]")
_TAG = 16
_EMPTY = b""

# Return values are written straight into a freshly created ``bytes`` object that nothing else
# references yet (what C extensions do with PyBytes_FromStringAndSize(NULL, n)): it saves an
# allocation and a copy per call. This relies on CPython passing a bytes object's own storage to a
# ``uint8_t *`` parameter, and on ``bytes(n)`` being a new, unshared object (``bytes(0)`` is the shared
# empty object, but a 0-byte result writes nothing; 1-byte results take the copy path in case an
# interpreter caches them). Other interpreters take the bytearray-and-copy path.
_FRESH_BYTES = sys.implementation.name == "cpython" and os.environ.get("LIBAEAD_NO_FRESH_BYTES", "") in ("", "0")

try:  # libaead.InvalidTag also passes ``except cryptography.exceptions.InvalidTag``
    from cryptography.exceptions import InvalidTag as _PycaInvalidTag

    _INVALID_TAG_BASE: Any = _PycaInvalidTag
except Exception:  # pragma: no cover - cryptography not installed
    _INVALID_TAG_BASE = Exception


class InvalidTag(_INVALID_TAG_BASE):  # type: ignore[misc]
    """Authentication failed: wrong key, nonce, associated data, ciphertext or tag.

    A subclass of ``cryptography.exceptions.InvalidTag`` when pyca/cryptography is importable."""


class NonceReuseError(ValueError):
    """A TLS AEAD refused a nonce on encryption; the message names the rule that was broken."""


def library_version() -> str:
    """The C library's version and the libcrypto it runs on, e.g.
    ``"libaead 1.0.0 (OpenSSL 3.0.19 27 Jan 2026)"``."""
    text: bytes = _ffi.string(_lib.aead_version())
    return text.decode("ascii", "replace")


# Messages of the TLS refusals, per nonce construction. {cls} is the class name.
_RFC5288 = {
    _lib.AEAD_ERR_NONCE_ORDER: (
        "{cls}: nonce reuse refused: the explicit nonce (bytes 4..11, a big-endian sequence number) must be "
        "strictly greater than the last one encrypted with this key (TLS 1.2 AES-GCM, RFC 5288)"
    ),
    _lib.AEAD_ERR_NONCE_EXHAUSTED: (
        "{cls}: nonce refused: sequence number 2**64-1 is never allowed; the key is exhausted, rekey"
    ),
    _lib.AEAD_ERR_NONCE_PREFIX: (
        "{cls}: nonce refused: the fixed part (bytes 0..3, the implicit salt) differs from the one learned "
        "on the first encryption with this key (TLS 1.2 AES-GCM, RFC 5288)"
    ),
}


def _xor_rules(rfc: str) -> Dict[int, str]:
    return {
        _lib.AEAD_ERR_NONCE_ORDER: (
            "{cls}: nonce reuse refused: the record sequence number (nonce XOR the IV learned on the first "
            "encryption) must be strictly greater than the last one encrypted with this key (%s)" % rfc
        ),
        _lib.AEAD_ERR_NONCE_EXHAUSTED: (
            "{cls}: nonce refused: sequence number 2**64-1 is never allowed; the key is exhausted, rekey"
        ),
        _lib.AEAD_ERR_NONCE_PREFIX: (
            "{cls}: nonce refused: bytes 0..3 differ from the IV learned on the first encryption "
            "(nonce = IV XOR sequence number, %s)" % rfc
        ),
    }


_TLS12_AAD = "{cls}: TLS 1.2 requires exactly 13 bytes of associated data (seq_num, type, version, length)"
_TLS13_AAD = "{cls}: TLS 1.3 requires exactly 5 bytes of associated data (the record header)"


def _raise(obj: "_AEAD", code: int) -> NoReturn:
    """Turns a negative AEAD_ERR_* code into the exception pyca/cryptography would raise."""
    cls = type(obj).__name__
    if code == _lib.AEAD_ERR_AUTH:
        raise InvalidTag()
    rule = obj._tls_rules.get(code)
    if rule is not None:
        raise NonceReuseError(rule.format(cls=cls))
    if code == _lib.AEAD_ERR_AAD_SIZE and obj._tls_aad_rule:
        raise ValueError(obj._tls_aad_rule.format(cls=cls))
    if code == _lib.AEAD_ERR_NONCE_SIZE:
        raise ValueError(obj._nonce_msg)
    if code == _lib.AEAD_ERR_TOO_LONG:
        raise OverflowError("%s: data or associated data longer than the algorithm allows" % cls)
    if code == _lib.AEAD_ERR_OVERLAP:
        raise ValueError(
            "%s: buf overlaps an input (only exact in-place use, buf starting at the same address as data, "
            "is allowed)" % cls
        )
    if code == _lib.AEAD_ERR_NOMEM:
        raise MemoryError()
    text: bytes = _ffi.string(_lib.aead_strerror(code))
    raise RuntimeError("libaead: %s (code %d)" % (text.decode("ascii", "replace"), code))


def _buffer_error(buf: Any, error: BufferError) -> Exception:
    """What pyca raises for an output buffer that cffi refused: TypeError when it is read-only, else
    cffi's BufferError (not contiguous)."""
    try:
        readonly = memoryview(buf).readonly
    except Exception:
        readonly = False
    if readonly:
        return TypeError("argument 'buf': Buffer is not writable.")
    return error


class _AEAD:
    """Shared implementation. The public classes only set the constants below."""

    __slots__ = ("_ctx",)

    _ctx: Any
    _policy: int = 0
    _nonce_sizes: range = range(12, 13)
    _nonce_msg: str = "Nonce must be 12 bytes"
    _tls_rules: Dict[int, str] = {}
    _tls_aad_rule: str = ""
    _final: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__mro__[1:]:
            if base.__dict__.get("_final"):
                raise TypeError("type '%s.%s' is not an acceptable base type" % (base.__module__, base.__qualname__))

    @classmethod
    def _algorithm(cls, key_len: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def __new__(cls: Type[_T], key: Buffer) -> _T:
        k_: Any = key if type(key) is bytes else _from_buffer(key)
        key_len = len(k_)
        alg = cls._algorithm(key_len)
        self = object.__new__(cls)
        ctx_out = _ffi.new("aead_ctx **")
        rc = _lib.aead_ctx_new(ctx_out, alg, cls._policy, k_, key_len, 0)
        if rc != 0:
            _raise(self, rc)
        object.__setattr__(self, "_ctx", _ffi.gc(ctx_out[0], _lib.aead_ctx_free))
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("'%s' object attribute '%s' is read-only" % (type(self).__name__, name))

    def __delattr__(self, name: str) -> None:
        raise AttributeError("'%s' object attribute '%s' is read-only" % (type(self).__name__, name))

    def __reduce__(self) -> NoReturn:
        raise TypeError("cannot pickle '%s' object" % type(self).__name__)

    # The four methods below are written out in full (no shared helper) because every Python-level call
    # costs tens of nanoseconds on a 64-byte operation. The argument conversions come first, then the
    # checks, in pyca/cryptography's order, so that the same bad input raises the same exception type.

    def encrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns ciphertext || 16-byte tag."""
        n_: Any = nonce if type(nonce) is bytes else _from_buffer(nonce)
        d_: Any = data if type(data) is bytes else _from_buffer(data)
        a_: Any = (
            _EMPTY if associated_data is None
            else associated_data if type(associated_data) is bytes
            else _from_buffer(associated_data)
        )
        nonce_len = len(n_)
        if nonce_len not in self._nonce_sizes:
            raise ValueError(self._nonce_msg)
        n = len(d_)
        out_len = n + _TAG
        if _FRESH_BYTES:
            out = bytes(out_len)
            r = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise(self, r)
            return out
        scratch = bytearray(out_len)
        r = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True), out_len)
        if r < 0:
            _raise(self, r)
        return bytes(scratch)

    def decrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Verifies and returns the plaintext of ciphertext || tag; raises InvalidTag on any failure."""
        n_: Any = nonce if type(nonce) is bytes else _from_buffer(nonce)
        d_: Any = data if type(data) is bytes else _from_buffer(data)
        a_: Any = (
            _EMPTY if associated_data is None
            else associated_data if type(associated_data) is bytes
            else _from_buffer(associated_data)
        )
        nonce_len = len(n_)
        if nonce_len not in self._nonce_sizes:
            raise ValueError(self._nonce_msg)
        n = len(d_)
        out_len = n - _TAG
        if out_len < 0:
            raise InvalidTag()
        if _FRESH_BYTES and out_len != 1:
            out = bytes(out_len)
            r = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise(self, r)
            return out
        scratch = bytearray(out_len)
        r = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True), out_len)
        if r < 0:
            _raise(self, r)
        return bytes(scratch)

    def encrypt_into(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Writes ciphertext || tag into ``buf``, which must be exactly len(data) + 16 bytes; returns that
        count. ``buf`` may be ``data``'s own storage (same start address) for in-place encryption."""
        n_: Any = nonce if type(nonce) is bytes else _from_buffer(nonce)
        d_: Any = data if type(data) is bytes else _from_buffer(data)
        a_: Any = (
            _EMPTY if associated_data is None
            else associated_data if type(associated_data) is bytes
            else _from_buffer(associated_data)
        )
        try:
            out = _from_buffer(_U8_ARRAY, buf, True)
        except BufferError as e:
            raise _buffer_error(buf, e) from None
        nonce_len = len(n_)
        if nonce_len not in self._nonce_sizes:
            raise ValueError(self._nonce_msg)
        n = len(d_)
        out_len = n + _TAG
        if len(out) != out_len:
            raise ValueError("buffer must be %d bytes" % out_len)
        r: int = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
        if r < 0:
            _raise(self, r)
        return r

    def decrypt_into(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Verifies ciphertext || tag and writes the plaintext into ``buf``, which must be exactly
        len(data) - 16 bytes; returns that count. On failure ``buf`` is left zeroed."""
        n_: Any = nonce if type(nonce) is bytes else _from_buffer(nonce)
        d_: Any = data if type(data) is bytes else _from_buffer(data)
        a_: Any = (
            _EMPTY if associated_data is None
            else associated_data if type(associated_data) is bytes
            else _from_buffer(associated_data)
        )
        try:
            out = _from_buffer(_U8_ARRAY, buf, True)
        except BufferError as e:
            raise _buffer_error(buf, e) from None
        nonce_len = len(n_)
        if nonce_len not in self._nonce_sizes:
            raise ValueError(self._nonce_msg)
        n = len(d_)
        out_len = n - _TAG
        if out_len < 0:
            raise InvalidTag()
        if len(out) != out_len:
            raise ValueError("buffer must be %d bytes" % out_len)
        r: int = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
        if r < 0:
            _raise(self, r)
        return r


def _aes_algorithm(key_len: int) -> int:
    if key_len == 16:
        return int(_lib.AEAD_AES_128_GCM)
    if key_len == 24:
        return int(_lib.AEAD_AES_192_GCM)
    if key_len == 32:
        return int(_lib.AEAD_AES_256_GCM)
    raise ValueError("AESGCM key must be 128, 192, or 256 bits.")


def _aes_generate_key(bit_length: int) -> bytes:
    bit_length = operator.index(bit_length)
    if bit_length < 0 or bit_length >= 1 << 64:
        raise OverflowError("bit_length out of range")
    if bit_length not in (128, 192, 256):
        raise ValueError("bit_length must be 128, 192, or 256")
    return os.urandom(bit_length // 8)


class _AESGCMBase(_AEAD):
    __slots__ = ()

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        return _aes_algorithm(key_len)

    @staticmethod
    def generate_key(bit_length: int) -> bytes:
        """A random key of 128, 192 or 256 bits (os.urandom)."""
        return _aes_generate_key(bit_length)


class _ChaChaBase(_AEAD):
    __slots__ = ()

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        if key_len != 32:
            raise ValueError("ChaCha20Poly1305 key must be 32 bytes.")
        return int(_lib.AEAD_CHACHA20_POLY1305)

    @staticmethod
    def generate_key() -> bytes:
        """A random 32-byte key (os.urandom)."""
        return os.urandom(32)


class AESGCM(_AESGCMBase):
    """AES-GCM with a 16-byte tag; key 16, 24 or 32 bytes; nonce 8 to 128 bytes (as pyca/cryptography).
    The caller guarantees nonce uniqueness."""

    __slots__ = ()
    _final = True
    _nonce_sizes = range(8, 129)
    _nonce_msg = "Nonce must be between 8 and 128 bytes"


class ChaCha20Poly1305(_ChaChaBase):
    """ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, 16-byte tag."""

    __slots__ = ()
    _final = True


class AESGCMForTLS12(_AESGCMBase):
    """AES-GCM for TLS 1.2 records (RFC 5288). Encryption enforces: 12-byte nonce = 4-byte fixed salt
    (learned on the first encryption, never changing) || 8-byte big-endian sequence number strictly
    greater than the last one and never 2**64-1; associated data exactly 13 bytes. Decryption is not
    order-checked. Make the first encryption before sharing the object between threads."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS12)
    _tls_rules = _RFC5288
    _tls_aad_rule = _TLS12_AAD


class AESGCMForTLS13(_AESGCMBase):
    """AES-GCM for TLS 1.3 records (RFC 8446 section 5.3). The first encryption is sequence 0 and so
    reveals the IV; later nonces must be that IV XOR a strictly increasing sequence number (never
    2**64-1); associated data exactly 5 bytes. Decryption is not order-checked."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS13)
    _tls_rules = _xor_rules("TLS 1.3, RFC 8446 section 5.3")
    _tls_aad_rule = _TLS13_AAD


class ChaCha20Poly1305ForTLS12(_ChaChaBase):
    """ChaCha20-Poly1305 for TLS 1.2 records (RFC 7905): nonce = IV XOR sequence number as in TLS 1.3,
    associated data exactly 13 bytes. Same checks as AESGCMForTLS13 otherwise."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS12)
    _tls_rules = _xor_rules("TLS 1.2 ChaCha20-Poly1305, RFC 7905")
    _tls_aad_rule = _TLS12_AAD


class ChaCha20Poly1305ForTLS13(_ChaChaBase):
    """ChaCha20-Poly1305 for TLS 1.3 records (RFC 8446 section 5.3); see AESGCMForTLS13."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS13)
    _tls_rules = _xor_rules("TLS 1.3, RFC 8446 section 5.3")
    _tls_aad_rule = _TLS13_AAD
