"""libaead: AES-GCM, ChaCha20-Poly1305, AES-CCM, AES-GCM-SIV, AES-OCB3, AES-SIV and XChaCha20-Poly1305
through libaead (OpenSSL 3), and the AEGIS family (libaegis inside libaead).

``AESGCM``, ``ChaCha20Poly1305``, ``AESCCM``, ``AESGCMSIV``, ``AESOCB3`` and ``AESSIV`` are drop-in
replacements for the classes of the same name in ``cryptography.hazmat.primitives.ciphers.aead``
(pyca/cryptography 48-50): same constructors, methods, arguments, return types, accepted sizes,
exception types and messages. ``XChaCha20Poly1305`` (24-byte nonce, libsodium's and Go's
``chacha20poly1305.NewX``) and ``XChaCha20Poly1305RandomNonce`` have no pyca counterpart. Additions:

* ``encrypt_many`` / ``decrypt_many`` (and ``_into`` forms) on every class: many records, one C call;
* inputs (data, associated data) longer than 2**31 - 1 bytes work (up to the algorithm's limit);
* when ``decrypt_into`` fails, the output buffer is left zeroed (no unauthenticated plaintext);
* calls on large inputs release the GIL, so threads sharing one object encrypt in parallel;
* ``AESGCMForTLS12``, ``AESGCMForTLS13``, ``ChaCha20Poly1305ForTLS12``, ``ChaCha20Poly1305ForTLS13``
  check TLS nonce sequencing on encryption and raise :class:`NonceReuseError` naming the rule; they
  take the connection IV up front (``iv=``); in a child process forked after the object was made they
  refuse to encrypt with :class:`ForkedContextError` (decryption works), so a sequence number is
  never sealed by two processes;
* ``XChaCha20Poly1305RandomNonce``: the same for XChaCha20-Poly1305 with 24-byte nonces, without a limit
  on the number of encryptions (output nonce(24) || ciphertext || tag, libsodium's usual layout);
* ``AESGCMSIV`` needs OpenSSL >= 3.2: on a build with an older libcrypto (the system OpenSSL 3.0) its
  constructor raises :class:`UnsupportedAlgorithm`, as pyca's does there; the default wheel (vendored
  OpenSSL) has it;
* ``AESSIV`` needs libaead >= 1.3.0 (``aead_seal_open_v``): on an older loaded library its constructor
  raises :class:`UnsupportedAlgorithm`; it refuses more than 126 associated data components (RFC 5297);
* ``AESGCMRandomNonce``: the library draws each nonce (output nonce || ciphertext || tag, the layout of
  Go's ``cipher.NewGCMWithRandomNonce``); it keeps drawing fresh nonces after ``os.fork()`` in the
  parent and in every child;
* ``AESGCMCounterNonce`` / ``ChaCha20Poly1305CounterNonce`` (nonce = fixed(4) || counter(8)),
  ``AESGCMXORCounterNonce`` / ``ChaCha20Poly1305XORCounterNonce`` (fixed(4) || mask XOR counter) and
  ``AESGCMForSSH`` (RFC 5647, with ``.usage`` and its rekey point) check on encryption that the counter
  strictly increases and the fixed field never changes (library 1.5; Go's FIPS module's
  NewGCMWithCounterNonce, NewGCMWithXORCounterNonce and NewGCMForSSH, but thread- and fork-safe);
* ``Aegis128L``, ``Aegis256``, ``Aegis128X2``, ``Aegis128X4``, ``Aegis256X2``, ``Aegis256X4`` (RFC 10032, the
  names of PyPI's ``pyaegis``) in pyca's shape, with a 16- or 32-byte tag (``tag_length``, default 32 as
  pyaegis), and their ``...RandomNonce`` forms (output nonce || ciphertext || tag); not FIPS-approved;
* ``properties=`` (an OpenSSL property query such as ``"fips=yes"``) and ``.indicator`` (provider,
  FIPS-approved seals and opens) on every class.

Objects are immutable and safe to share between threads (the C context is documented thread-safe,
the TLS sequence check included). ``backend`` says which path makes the calls: "fast" (the compiled
C module), "api" (the compiled cffi module) or "abi" (``ffi.dlopen``).
"""

import operator
import os
import sys
from typing import Any, Dict, NamedTuple, NoReturn, Optional, Tuple, Type, TypeVar

from libaead._binding import backend, fast as _fast, ffi as _ffi, lib as _lib
from libaead._cffi_core import CffiCore, CffiRandomNonceCore, CffiSivCore
from libaead._errors import (
    COUNTER_ORIGIN as _COUNTER_ORIGIN,
    RFC5288 as _RFC5288,
    SSH_AAD as _SSH_AAD,
    TLS12_AAD as _TLS12_AAD,
    TLS13_AAD as _TLS13_AAD,
    ForkedContextError,
    InvalidTag,
    NonceLimitError,
    NonceReuseError,
    XOR_COUNTER_ORIGIN as _XOR_COUNTER_ORIGIN,
    UnsupportedAlgorithm,
    counter_rules as _counter_rules,
    raise_for as _raise_for,
    xor_rules as _xor_rules,
)
from libaead._types import Buffer

__version__ = "1.7.0"

__all__ = [
    "AESCCM",
    "AESGCM",
    "AESGCMCounterNonce",
    "AESGCMForSSH",
    "AESGCMForTLS12",
    "AESGCMForTLS13",
    "AESGCMRandomNonce",
    "AESGCMSIV",
    "AESGCMXORCounterNonce",
    "AESOCB3",
    "AESSIV",
    "Aegis128L",
    "Aegis128LRandomNonce",
    "Aegis128X2",
    "Aegis128X2RandomNonce",
    "Aegis128X4",
    "Aegis128X4RandomNonce",
    "Aegis256",
    "Aegis256RandomNonce",
    "Aegis256X2",
    "Aegis256X2RandomNonce",
    "Aegis256X4",
    "Aegis256X4RandomNonce",
    "ChaCha20Poly1305",
    "ChaCha20Poly1305CounterNonce",
    "ChaCha20Poly1305ForTLS12",
    "ChaCha20Poly1305ForTLS13",
    "ChaCha20Poly1305XORCounterNonce",
    "ForkedContextError",
    "Indicator",
    "InvalidTag",
    "NonceLimitError",
    "NonceReuseError",
    "SSHUsage",
    "UnsupportedAlgorithm",
    "XChaCha20Poly1305",
    "XChaCha20Poly1305RandomNonce",
    "backend",
    "library_version",
    "library_version_number",
]

_T = TypeVar("_T", bound="_Common")


def library_version() -> str:
    """The loaded C library's version string: its name, version and the libcrypto it runs on, as
    ``"libaead MAJOR.MINOR.PATCH (OpenSSL 3.5.5 27 Jan 2026)"``."""
    text: bytes = _ffi.string(_lib.aead_version())
    return text.decode("ascii", "replace")


def library_version_number() -> int:
    """The loaded library's AEAD_VERSION_NUMBER: MAJOR * 10000 + MINOR * 100 + PATCH of its version."""
    return int(_lib.aead_version_number())


class Indicator(NamedTuple):
    """What libaead knows about a context's FIPS status (``obj.indicator``); see docs/fips.md. The
    validated boundary is the provider's: this says which provider serves the cipher and whether the
    nonce construction of this class is one FIPS 140-3 IG C.H approves."""

    provider: str        #: the provider the cipher was fetched from ("default", "fips", ...)
    fips: bool           #: that provider reports itself FIPS
    seal_approved: bool  #: encryptions are approved (FIPS provider, AES-GCM, TLS or random-nonce class)
    open_approved: bool  #: decryptions are approved (FIPS provider, AES-GCM)


if _fast is not None:
    class _Core(_fast.Core):  # type: ignore[misc]
        __slots__ = ("_ctx",)

    class _RandomNonceCore(_fast.RandomNonceCore):  # type: ignore[misc]
        __slots__ = ("_ctx",)
else:
    _Core = CffiCore  # type: ignore[misc,assignment]
    _RandomNonceCore = CffiRandomNonceCore  # type: ignore[misc,assignment]

# AES-SIV's calls (aead_seal_open_v, library 1.3): compiled when _fast has them, else cffi. _fast reaches the
# two functions through addresses from cffi's lib (set_siv), so it never links them itself.
_SIV_MIN_VERSION = 10300
_HAS_SIV_ABI = int(_lib.aead_version_number()) >= _SIV_MIN_VERSION
if _fast is not None and hasattr(_fast, "SivCore") and _HAS_SIV_ABI:
    _fast.set_siv(int(_ffi.cast("uintptr_t", _ffi.addressof(_lib, "aead_seal_open_v"))),
                  int(_ffi.cast("uintptr_t", _ffi.addressof(_lib, "aead_seal_open_many_v"))))

    class _SivCore(_fast.SivCore):  # type: ignore[misc]
        __slots__ = ("_ctx",)
else:
    _SivCore = CffiSivCore  # type: ignore[misc,assignment]


def _properties_arg(properties: Optional[str]) -> Any:
    if properties is None:
        return _ffi.NULL
    if not isinstance(properties, str):
        raise TypeError("properties must be a str (an OpenSSL property query such as 'fips=yes') or None")
    return properties.encode("ascii")


class _Common:
    """Construction and the object protocol shared by every class. The per-call methods come from the
    core the class also derives from (compiled or cffi)."""

    __slots__ = ()

    _ctx: Any
    _policy: int = 0
    _nonce_sizes: range = range(12, 13)
    _nonce_msg: str = "Nonce must be 12 bytes"
    _max_plaintext: int = int(_lib.AEAD_GCM_MAX_PLAINTEXT)  # longest data (bytes), checked before each call
    _iv_msg: str = ""
    _tls_rules: Dict[int, str] = {}
    _tls_aad_rule: str = ""
    _final: bool = False
    _tag: int = 16          # the tag length (AESCCM: per object)
    _ccm: bool = False      # AES-CCM's message-length-for-nonce rule applies
    _unsupported: str = ""  # pyca's UnsupportedAlgorithm message when the libcrypto lacks the algorithm
    _too_long_msg: str = ""  # the OverflowError message for AEAD_ERR_TOO_LONG when not the generic one
    _siv: bool = False       # AESSIV: the compiled core binds differently
    _own_tag: bool = False   # the tag length is the object's (a slot), chosen at construction (AESCCM, AEGIS)
    _nonce_limit_msg: str = ""  # NonceLimitError's message when not AES-GCM's (2**32 random 96-bit nonces)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__mro__[1:]:
            if base.__dict__.get("_final"):
                raise TypeError("type '%s.%s' is not an acceptable base type" % (base.__module__, base.__qualname__))

    @classmethod
    def _algorithm(cls, key_len: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    @classmethod
    def _make(cls: Type[_T], key: Buffer, iv: Optional[Buffer], properties: Optional[str], tag_len: int = 16) -> _T:
        k_: Any = key if type(key) is bytes else _ffi.from_buffer(key)
        key_len = len(k_)
        alg = cls._algorithm(key_len)
        props = _properties_arg(properties)
        if iv is None:
            iv_, iv_len = _ffi.NULL, 0
        else:
            iv_ = iv if type(iv) is bytes else _ffi.from_buffer(iv)
            iv_len = len(iv_)
            if iv_len == 0:  # the C library reads 0 as "no IV"; here that is spelled None
                raise ValueError(cls._iv_msg)
        self = super().__new__(cls)
        ctx_out = _ffi.new("aead_ctx **")
        rc = _lib.aead_ctx_new_ex(ctx_out, alg, cls._policy, k_, key_len, tag_len, props, iv_, iv_len)
        if rc != 0:
            self._construction_failed(rc, iv is not None, properties)
        ctx = _ffi.gc(ctx_out[0], _lib.aead_ctx_free)
        object.__setattr__(self, "_ctx", ctx)
        random_nonce = cls._policy == _lib.AEAD_POLICY_RANDOM_NONCE
        if cls._own_tag:
            object.__setattr__(self, "_tag", tag_len)
            if random_nonce:  # the drawn nonce and this object's tag
                object.__setattr__(self, "OVERHEAD", getattr(cls, "NONCE_SIZE") + tag_len)
        if cls._siv:
            self._siv_bound(ctx)  # type: ignore[attr-defined]  # AESSIV's
        elif _fast is not None:
            overhead = getattr(self, "OVERHEAD") if random_nonce else tag_len
            bind = self._bind  # type: ignore[attr-defined]  # defined by _fast.Core
            bind(ctx, int(_ffi.cast("uintptr_t", ctx)), cls._nonce_sizes.start, cls._nonce_sizes.stop - 1,
                 random_nonce, min(cls._max_plaintext, sys.maxsize >> 1), overhead, cls._ccm)
        return self

    def _construction_failed(self, rc: int, has_iv: bool, properties: Optional[str]) -> NoReturn:
        cls = type(self)
        if rc == _lib.AEAD_ERR_UNSUPPORTED and cls._unsupported and properties is None:
            raise UnsupportedAlgorithm(cls._unsupported)
        if rc == _lib.AEAD_ERR_UNSUPPORTED:
            raise UnsupportedAlgorithm(
                "%s is not available from the providers selected by properties=%r"
                % (cls.__name__.replace("ForTLS12", "").replace("ForTLS13", ""), properties)
            )
        if rc == _lib.AEAD_ERR_NONCE_SIZE and has_iv:
            raise ValueError(cls._iv_msg or "%s takes no iv" % cls.__name__)
        if rc == _lib.AEAD_ERR_ARG and properties is not None:
            raise ValueError("properties must be at most 255 bytes")
        _raise_for(self, rc)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("'%s' object attribute '%s' is read-only" % (type(self).__name__, name))

    def __delattr__(self, name: str) -> None:
        raise AttributeError("'%s' object attribute '%s' is read-only" % (type(self).__name__, name))

    def __reduce__(self) -> NoReturn:
        raise TypeError("cannot pickle '%s' object" % type(self).__name__)

    @property
    def indicator(self) -> Indicator:
        """The FIPS indicator of this object's context (fixed for its life)."""
        bits = int(_lib.aead_ctx_indicator(self._ctx))
        provider: bytes = _ffi.string(_lib.aead_ctx_provider(self._ctx))
        return Indicator(
            provider.decode("ascii", "replace"),
            bool(bits & _lib.AEAD_IND_FIPS_PROVIDER),
            bool(bits & _lib.AEAD_IND_SEAL_APPROVED),
            bool(bits & _lib.AEAD_IND_OPEN_APPROVED),
        )


class _AEAD(_Common, _Core):
    """A class with a nonce argument (pyca's shape), without a TLS IV."""

    __slots__ = ()

    def __new__(cls: Type[_T], key: Buffer, *, properties: Optional[str] = None) -> _T:
        return cls._make(key, None, properties)


class _RandomNonce(_Common, _RandomNonceCore):
    """A class without a nonce argument: the library draws it."""

    __slots__ = ()
    _policy = int(_lib.AEAD_POLICY_RANDOM_NONCE)

    def __new__(cls: Type[_T], key: Buffer, *, properties: Optional[str] = None) -> _T:
        return cls._make(key, None, properties)


class _TLS(_Common, _Core):
    """A TLS record class: the IV may be given up front (else the first encryption fixes it)."""

    __slots__ = ()

    def __new__(cls: Type[_T], key: Buffer, iv: Optional[Buffer] = None, *, properties: Optional[str] = None) -> _T:
        return cls._make(key, iv, properties)


_AES_KEY_SIZES = (16, 24, 32)


def _aes_algorithm(key_len: int, algs: Any = (_lib.AEAD_AES_128_GCM, _lib.AEAD_AES_192_GCM, _lib.AEAD_AES_256_GCM),
                   message: str = "AESGCM key must be 128, 192, or 256 bits.") -> int:
    if key_len in _AES_KEY_SIZES:
        return int(algs[_AES_KEY_SIZES.index(key_len)])
    raise ValueError(message)


def _random_key(bit_length: int, allowed: Tuple[int, ...], message: str) -> bytes:
    """os.urandom(bit_length // 8) for an allowed bit_length; pyca's errors (and their order) otherwise."""
    bit_length = operator.index(bit_length)
    if bit_length < 0 or bit_length >= 1 << 64:
        raise OverflowError("bit_length out of range")
    if bit_length not in allowed:
        raise ValueError(message)
    return os.urandom(bit_length // 8)


def _aes_generate_key(bit_length: int) -> bytes:
    return _random_key(bit_length, (128, 192, 256), "bit_length must be 128, 192, or 256")


class _AESMixin:
    __slots__ = ()
    _algs: Any = (_lib.AEAD_AES_128_GCM, _lib.AEAD_AES_192_GCM, _lib.AEAD_AES_256_GCM)
    _key_msg = "AESGCM key must be 128, 192, or 256 bits."

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        return _aes_algorithm(key_len, cls._algs, cls._key_msg)

    @staticmethod
    def generate_key(bit_length: int) -> bytes:
        """A random key of 128, 192 or 256 bits (os.urandom)."""
        return _aes_generate_key(bit_length)


class _ChaChaMixin:
    __slots__ = ()
    _max_plaintext = int(_lib.AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT)
    _alg = int(_lib.AEAD_CHACHA20_POLY1305)
    _key_msg = "ChaCha20Poly1305 key must be 32 bytes."

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        if key_len != 32:
            raise ValueError(cls._key_msg)
        return cls._alg

    @staticmethod
    def generate_key() -> bytes:
        """A random 32-byte key (os.urandom)."""
        return os.urandom(32)


class AESGCM(_AESMixin, _AEAD):
    """AES-GCM with a 16-byte tag; key 16, 24 or 32 bytes; nonce 8 to 128 bytes (as pyca/cryptography).
    The caller guarantees nonce uniqueness."""

    __slots__ = ()
    _final = True
    _nonce_sizes = range(8, 129)
    _nonce_msg = "Nonce must be between 8 and 128 bytes"


class ChaCha20Poly1305(_ChaChaMixin, _AEAD):
    """ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, 16-byte tag."""

    __slots__ = ()
    _final = True


class AESGCMForTLS12(_AESMixin, _TLS):
    """AES-GCM for TLS 1.2 records (RFC 5288). Encryption enforces: 12-byte nonce = 4-byte fixed salt
    (never changing) || 8-byte explicit nonce whose sequence number is strictly greater than the last
    one and never 2**64-1; associated data exactly 13 bytes. Decryption is not order-checked.

    ``iv``: None (the first encryption fixes the salt: make it before sharing the object between
    threads), the 4-byte salt (explicit nonce = BE64(sequence), as OpenSSL's libssl and Go send), or 12
    bytes = salt || 8-byte mask (explicit nonce = mask XOR BE64(sequence), the construction rustls sends)."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS12)
    _iv_msg = "AESGCMForTLS12: iv must be 4 bytes (the fixed salt) or 12 bytes (salt || 8-byte explicit-nonce mask)"
    _tls_rules = _RFC5288
    _tls_aad_rule = _TLS12_AAD


class _XorIV(_TLS):
    """The TLS record classes whose nonce is the static IV XOR the sequence number (TLS 1.3; ChaCha20-Poly1305
    in TLS 1.2)."""

    __slots__ = ()
    _iv_msg = "iv must be 12 bytes (the TLS static IV)"


class _TLS13(_XorIV):
    """The TLS 1.3 record rules (RFC 8446 section 5.3), whatever the cipher."""

    __slots__ = ()
    _policy = int(_lib.AEAD_POLICY_TLS13)
    _tls_rules = _xor_rules("TLS 1.3, RFC 8446 section 5.3")
    _tls_aad_rule = _TLS13_AAD


class AESGCMForTLS13(_AESMixin, _TLS13):
    """AES-GCM for TLS 1.3 records (RFC 8446 section 5.3): nonces must be the static IV XOR a strictly
    increasing sequence number (never 2**64-1); associated data exactly 5 bytes. Decryption is not
    order-checked. ``iv``: the 12-byte static IV, or None (the first encryption is then sequence 0 and
    reveals it: make it before sharing the object between threads)."""

    __slots__ = ()
    _final = True


class ChaCha20Poly1305ForTLS12(_ChaChaMixin, _XorIV):
    """ChaCha20-Poly1305 for TLS 1.2 records (RFC 7905): nonce = IV XOR sequence number as in TLS 1.3,
    associated data exactly 13 bytes. Same checks as AESGCMForTLS13 otherwise."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_TLS12)
    _tls_rules = _xor_rules("TLS 1.2 ChaCha20-Poly1305, RFC 7905")
    _tls_aad_rule = _TLS12_AAD


class ChaCha20Poly1305ForTLS13(_ChaChaMixin, _TLS13):
    """ChaCha20-Poly1305 for TLS 1.3 records (RFC 8446 section 5.3); see AESGCMForTLS13."""

    __slots__ = ()
    _final = True


class AESGCMRandomNonce(_AESMixin, _RandomNonce):
    """AES-GCM whose nonces the library draws (96 bits from the DRBG of the context's provider; FIPS 140-3
    IG C.H scenario 2). ``encrypt(data, associated_data)`` returns nonce(12) || ciphertext || tag(16) and
    ``decrypt`` reads that layout: byte-compatible with Go's ``cipher.NewGCMWithRandomNonce``. After 2**32
    encryptions (NIST SP 800-38D section 8.3) the object refuses with :class:`NonceLimitError`."""

    __slots__ = ()
    _final = True
    NONCE_SIZE = 12
    OVERHEAD = 28  #: nonce + tag: len(encrypt(data, ad)) == len(data) + OVERHEAD


# ---- library 1.2: more families (pyca's AESCCM, AESGCMSIV, AESOCB3, AESSIV; XChaCha20-Poly1305) ----

_CCM_TAGS = (4, 6, 8, 10, 12, 14, 16)


def _tag_length_arg(tag_length: Any) -> int:
    """pyca reads tag_length as a Rust usize: an int (bool included), OverflowError when negative or
    too large, TypeError otherwise; None is 16."""
    if tag_length is None:
        return 16
    value = operator.index(tag_length)
    if value < 0 or value >= 1 << 64:
        raise OverflowError("can't convert tag_length to usize")
    return value


def _make_tagged(cls: Any, key: Buffer, properties: Optional[str], tag_len: int, tags: Tuple[int, ...],
                 message: str) -> Any:
    """A class whose tag length is the object's (AESCCM, AEGIS): the key's error before the tag length's,
    in pyca's order."""
    k_: Any = key if type(key) is bytes else _ffi.from_buffer(key)
    cls._algorithm(len(k_))
    if tag_len not in tags:
        raise ValueError(message)
    return cls._make(key, None, properties, tag_len)


class AESCCM(_AESMixin, _AEAD):
    """AES-CCM (NIST SP 800-38C, RFC 3610): key 16, 24 or 32 bytes; nonce 7 to 13 bytes; tag_length 4, 6,
    8, 10, 12, 14 or 16 (the default). A message must be shorter than 2**(8 * (15 - len(nonce))) bytes
    (65536 with a 13-byte nonce): longer is ValueError("Data too long for nonce"), as in pyca. The caller
    guarantees nonce uniqueness."""

    __slots__ = ("_tag",)
    _final = True
    _ccm = True
    _own_tag = True
    _nonce_sizes = range(7, 14)
    _nonce_msg = "Nonce must be between 7 and 13 bytes"
    _max_plaintext = int(_lib.AEAD_ONE_UPDATE_MAX)
    _algs = (_lib.AEAD_AES_128_CCM, _lib.AEAD_AES_192_CCM, _lib.AEAD_AES_256_CCM)
    _key_msg = "AESCCM key must be 128, 192, or 256 bits."

    def __new__(cls, key: Buffer, tag_length: Optional[int] = 16, *,
                properties: Optional[str] = None) -> "AESCCM":
        tag_len = _tag_length_arg(tag_length)
        result: "AESCCM" = _make_tagged(cls, key, properties, tag_len, _CCM_TAGS, "Invalid tag_length")
        return result


class AESGCMSIV(_AESMixin, _AEAD):
    """AES-GCM-SIV (RFC 8452, nonce-misuse resistant): key 16, 24 or 32 bytes, nonce 12 bytes, tag 16.
    Needs OpenSSL >= 3.2: with an older libcrypto (the system OpenSSL 3.0 build) the constructor raises
    UnsupportedAlgorithm; the default wheel (vendored OpenSSL) has it. Data at most 2**31 - 1 bytes."""

    __slots__ = ()
    _final = True
    _nonce_msg = "Nonce must be 12 bytes long"
    _max_plaintext = int(_lib.AEAD_ONE_UPDATE_MAX)
    _algs = (_lib.AEAD_AES_128_GCM_SIV, _lib.AEAD_AES_192_GCM_SIV, _lib.AEAD_AES_256_GCM_SIV)
    _key_msg = "AES-GCM-SIV key must be 128, 192 or 256 bits."
    _unsupported = ("AES-GCM-SIV is not supported by this version of OpenSSL (libaead needs OpenSSL >= 3.2 "
                    "for it: use the wheel with the vendored OpenSSL, LIBAEAD_LIBCRYPTO=vendored)")


class AESOCB3(_AESMixin, _AEAD):
    """AES-OCB3 (RFC 7253): key 16, 24 or 32 bytes, nonce 12 to 15 bytes (as pyca), tag 16. The caller
    guarantees nonce uniqueness. Not available from FIPS providers."""

    __slots__ = ()
    _final = True
    _nonce_sizes = range(12, 16)
    _nonce_msg = "Nonce must be between 12 and 15 bytes"
    _algs = (_lib.AEAD_AES_128_OCB, _lib.AEAD_AES_192_OCB, _lib.AEAD_AES_256_OCB)
    _key_msg = "AESOCB3 key must be 128, 192, or 256 bits."
    _unsupported = "AES-OCB3 is not supported by this version of OpenSSL"


class _XChaChaMixin(_ChaChaMixin):
    __slots__ = ()
    _alg = int(_lib.AEAD_XCHACHA20_POLY1305)
    _key_msg = "XChaCha20Poly1305 key must be 32 bytes."
    _unsupported = "XChaCha20-Poly1305 is not available from the loaded providers"


class XChaCha20Poly1305(_XChaChaMixin, _AEAD):
    """XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): 32-byte key, 24-byte nonce (random nonces are safe
    at any volume), 16-byte tag; byte-compatible with libsodium's crypto_aead_xchacha20poly1305_ietf and
    Go's chacha20poly1305.NewX. Same methods as ChaCha20Poly1305. Not available from FIPS providers."""

    __slots__ = ()
    _final = True
    _nonce_sizes = range(24, 25)
    _nonce_msg = "Nonce must be 24 bytes"


class XChaCha20Poly1305RandomNonce(_XChaChaMixin, _RandomNonce):
    """XChaCha20-Poly1305 whose 24-byte nonces the library draws: ``encrypt(data, associated_data)``
    returns nonce(24) || ciphertext || tag(16) and ``decrypt`` reads that layout (libsodium's and Go's
    usual "nonce first" framing). 192-bit random nonces never collide in practice: no encryption limit."""

    __slots__ = ()
    _final = True
    NONCE_SIZE = 24
    OVERHEAD = 40  #: nonce + tag: len(encrypt(data, ad)) == len(data) + OVERHEAD


# ---- library 1.3: AES-SIV (pyca's AESSIV) ----

_SIV_ALGS = {32: int(_lib.AEAD_AES_128_SIV), 48: int(_lib.AEAD_AES_192_SIV), 64: int(_lib.AEAD_AES_256_SIV)}
_siv_no_empty: Optional[bool] = None  # the libcrypto cannot seal an empty message (OpenSSL < 3.5); probed once


def _probe_siv_empty(ctx: Any) -> bool:
    """Whether the C library refuses an empty plaintext with this libcrypto (it does below OpenSSL 3.5,
    whose SIV skips an empty payload): one seal of nothing, once per process."""
    out = _ffi.new("uint8_t[16]")
    r = int(_lib.aead_seal_open_v(ctx, _lib.AEAD_SEAL, _ffi.NULL, 0, _ffi.NULL, 0, _ffi.new("uint8_t[1]"), 0, out, 16))
    if r == _lib.AEAD_ERR_UNSUPPORTED:
        return True
    if r != 16:  # pragma: no cover - the library refused for another reason
        raise RuntimeError("libaead: the AES-SIV probe failed: %s (code %d)"
                           % (_ffi.string(_lib.aead_strerror(r)).decode("ascii", "replace"), r))
    return False


class AESSIV(_Common, _SivCore):
    """AES-SIV (RFC 5297, deterministic authenticated encryption): key 32, 48 or 64 bytes (the CMAC key,
    then the CTR key); ``associated_data`` is a list of components (or None, the same as []), each one
    string of S2V; output SIV(16) || ciphertext, as pyca/cryptography's AESSIV. For RFC 5297's
    nonce-based form (Wycheproof's aead_aes_siv_cmac, RustCrypto's Aes*SivAead) pass the nonce as the
    last component: ``[aad, nonce]``.

    Differences from pyca, on purpose: more than 126 components (RFC 5297 section 7: S2V takes at most
    127 strings, the plaintext being the last) is ValueError; an empty plaintext is refused only where
    the libcrypto cannot seal one (OpenSSL < 3.5, ValueError("data must not be zero length") as pyca
    there; decrypting a 16-byte input raises InvalidTag there). Data and each component at most 2**31 - 1
    bytes (OverflowError, as pyca). Needs libaead >= 1.3.0; not available from FIPS providers
    (UnsupportedAlgorithm)."""

    __slots__ = ()
    _final = True
    _siv = True
    _tag = 16
    _nonce_sizes = range(0, 1)
    _max_plaintext = int(_lib.AEAD_ONE_UPDATE_MAX)
    _key_msg = "AESSIV key must be 256, 384, or 512 bits."
    _unsupported = "AES-SIV is not supported by this version of OpenSSL"
    _too_long_msg = "Data or associated data too long. Max 2**31 - 1 bytes"
    _siv_no_empty = False  # the cffi core's copy of the probe (class-wide: one libcrypto per process)

    def __new__(cls, key: Buffer, *, properties: Optional[str] = None) -> "AESSIV":
        if not _HAS_SIV_ABI:
            raise UnsupportedAlgorithm(
                "AESSIV needs libaead >= 1.3.0 (aead_seal_open_v); the loaded library is %s" % library_version())
        return cls._make(key, None, properties)

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        alg = _SIV_ALGS.get(key_len)
        if alg is None:
            raise ValueError(cls._key_msg)
        return alg

    def _siv_bound(self, ctx: Any) -> None:
        global _siv_no_empty
        if _siv_no_empty is None:
            _siv_no_empty = _probe_siv_empty(ctx)
            type.__setattr__(AESSIV, "_siv_no_empty", _siv_no_empty)
        if isinstance(self, getattr(_fast, "SivCore", ())):
            bind = self._bind  # defined by _fast.SivCore
            bind(ctx, int(_ffi.cast("uintptr_t", ctx)), _siv_no_empty)

    @staticmethod
    def generate_key(bit_length: int) -> bytes:
        """A random key of 256, 384 or 512 bits (os.urandom)."""
        return _random_key(bit_length, (256, 384, 512), "bit_length must be 256, 384, or 512")


# ---- library 1.5: counter nonces for any protocol, and SSH (RFC 5647) ----

class SSHUsage(NamedTuple):
    """How much an :class:`AESGCMForSSH` key has been used (``aead_ctx_usage_ex``)."""

    seals: int        #: packets encrypted with this key (refused calls are not counted)
    forgeries: int    #: decryptions that failed authentication
    rekey_after: int  #: 2**32: after this many packets RFC 4344 section 3.1 says to rekey (nothing is refused)


class _CounterNonce(_Common, _Core):
    """A class whose 12-byte nonce is fixed(4) || an 8-byte counter field that must strictly increase on
    encryption (library 1.5). ``iv``: None (the first encryption fixes the fixed field and the counter's
    origin: make it before sharing the object between threads) or 12 bytes."""

    __slots__ = ()

    def __new__(cls: Type[_T], key: Buffer, iv: Optional[Buffer] = None, *, properties: Optional[str] = None) -> _T:
        return cls._make(key, iv, properties)


class _CounterRule:
    """fixed(4) || BE64(start + n)."""

    __slots__ = ()
    _policy = int(_lib.AEAD_POLICY_COUNTER)
    _iv_msg = "iv must be 12 bytes: the fixed field (4) and the first counter (8, big-endian)"
    _tls_rules = _counter_rules(_COUNTER_ORIGIN)


class _XORCounterRule:
    """fixed(4) || BE64(mask XOR n)."""

    __slots__ = ()
    _policy = int(_lib.AEAD_POLICY_XOR_COUNTER)
    _iv_msg = "iv must be 12 bytes: the fixed field (4) and the counter's mask (8)"
    _tls_rules = _counter_rules(_XOR_COUNTER_ORIGIN)


class AESGCMCounterNonce(_AESMixin, _CounterRule, _CounterNonce):
    """AES-GCM whose nonces are fixed(4) || BE64(counter) (FIPS 140-3 IG C.H scenario 3; Go's FIPS module's
    NewGCMWithCounterNonce, but safe for concurrent use). Encryption refuses with :class:`NonceReuseError`
    a counter not strictly greater than the last one encrypted (gaps are allowed), 2**64-1 steps past the
    start (the counter may wrap past 2**64-1, never come back to its start) and a changed fixed field.
    Any associated data. Decryption checks nothing. ``iv``: None (the first encryption gives the fixed
    field and the start) or 12 bytes fixed || BE64(start). Key 16, 24 or 32 bytes."""

    __slots__ = ()
    _final = True


class ChaCha20Poly1305CounterNonce(_ChaChaMixin, _CounterRule, _CounterNonce):
    """ChaCha20-Poly1305 with AESGCMCounterNonce's nonce rule (fixed(4) || BE64(counter))."""

    __slots__ = ()
    _final = True


class AESGCMXORCounterNonce(_AESMixin, _XORCounterRule, _CounterNonce):
    """AES-GCM whose nonces are fixed(4) || BE64(mask XOR n), n = 0, 1, 2, ... strictly increasing (gaps
    allowed, never 2**64-1): the TLS 1.3 construction with any associated data (Go's FIPS module's
    NewGCMWithXORCounterNonce, but safe for concurrent use). ``iv``: None (the first encryption is n = 0
    and gives the fixed field and the mask) or 12 bytes fixed || mask. Decryption checks nothing."""

    __slots__ = ()
    _final = True


class ChaCha20Poly1305XORCounterNonce(_ChaChaMixin, _XORCounterRule, _CounterNonce):
    """ChaCha20-Poly1305 with AESGCMXORCounterNonce's nonce rule (fixed(4) || BE64(mask XOR n))."""

    __slots__ = ()
    _final = True


class AESGCMForSSH(_AESMixin, _CounterNonce):
    """AES-GCM for SSH packets (RFC 5647, aes128-gcm@openssh.com and aes256-gcm@openssh.com): key 16 or 32
    bytes; the nonce is the key exchange's IV, fixed(4) || invocation counter(8), the counter incremented
    per packet; associated data exactly the 4-byte packet length. Encryption enforces AESGCMCounterNonce's
    rules with ``iv`` (the 12-byte IV from the key exchange, or None: the first encryption gives it).
    ``usage`` counts the packets encrypted; at ``usage.rekey_after`` (2**32, RFC 4344 section 3.1) the
    connection should rekey (a new object with the new key and IV; nothing is refused there)."""

    __slots__ = ()
    _final = True
    _policy = int(_lib.AEAD_POLICY_SSH)
    _key_msg = "AESGCMForSSH key must be 128 or 256 bits."
    _iv_msg = "iv must be 12 bytes (the SSH initial IV: fixed field (4) and invocation counter (8))"
    _tls_rules = _counter_rules("bytes 4..11, the invocation counter, counted from the iv's or the first encryption's")
    _tls_aad_rule = _SSH_AAD

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        if key_len not in (16, 32):
            raise ValueError(cls._key_msg)
        return _aes_algorithm(key_len)

    @staticmethod
    def generate_key(bit_length: int) -> bytes:
        """A random key of 128 or 256 bits (os.urandom)."""
        bit_length = operator.index(bit_length)
        if bit_length not in (128, 256):
            raise ValueError("bit_length must be 128 or 256")
        return os.urandom(bit_length // 8)

    @property
    def usage(self) -> SSHUsage:
        """Packets encrypted, failed decryptions and the rekey point of this key (a snapshot)."""
        u = _ffi.new("aead_usage *")
        _lib.aead_ctx_usage_ex(self._ctx, u, _ffi.sizeof("aead_usage"))
        return SSHUsage(int(u.seals), int(u.forgeries), int(u.rekey_after))


# ---- library 1.7: the AEGIS family (RFC 10032), named as PyPI's pyaegis names it ----

_AEGIS_TAGS = (16, 32)
_AEGIS_MAX = (1 << 61) - 1  # RFC 10032's P_MAX and A_MAX (bytes)


# Each public class's variant, from its name (less "RandomNonce"): the algorithm id and the RFC's name.
_AEGIS_VARIANTS = {
    "Aegis128L": (_lib.AEAD_AEGIS_128L, "AEGIS-128L"), "Aegis128X2": (_lib.AEAD_AEGIS_128X2, "AEGIS-128X2"),
    "Aegis128X4": (_lib.AEAD_AEGIS_128X4, "AEGIS-128X4"), "Aegis256": (_lib.AEAD_AEGIS_256, "AEGIS-256"),
    "Aegis256X2": (_lib.AEAD_AEGIS_256X2, "AEGIS-256X2"), "Aegis256X4": (_lib.AEAD_AEGIS_256X4, "AEGIS-256X4"),
}


class _AegisMixin:
    """What the AEGIS classes share: the key check, ``tag_length`` (16 or 32; 32 by default, as pyaegis),
    ``generate_key()``. KEY_SIZE and NONCE_SIZE (= KEY_SIZE) come from _Aegis128 / _Aegis256; the algorithm
    from the class's name, so that a variant's two classes cannot disagree."""

    __slots__ = ()
    _alg: int
    _name: str
    KEY_SIZE: int
    NONCE_SIZE: int
    _tag: int
    _own_tag = True
    _max_plaintext = _AEGIS_MAX

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__name__.replace("RandomNonce", "")
        if name in _AEGIS_VARIANTS:
            alg, label = _AEGIS_VARIANTS[name]
            cls._alg, cls._name = int(alg), name
            setattr(cls, "_unsupported", "%s is not available from FIPS providers (not an approved algorithm)" % label)

    def __new__(cls, key: Buffer, tag_length: Optional[int] = 32, *, properties: Optional[str] = None) -> Any:
        # None is the default too (pyca's AESCCM reads None as its default)
        tag_len = 32 if tag_length is None else _tag_length_arg(tag_length)
        return _make_tagged(cls, key, properties, tag_len, _AEGIS_TAGS, "tag_length must be 16 or 32")

    @classmethod
    def _algorithm(cls, key_len: int) -> int:
        if key_len != cls.KEY_SIZE:
            raise ValueError("%s key must be %d bytes." % (cls._name, cls.KEY_SIZE))
        return cls._alg

    @classmethod
    def generate_key(cls) -> bytes:
        """A random key of KEY_SIZE bytes (os.urandom)."""
        return os.urandom(cls.KEY_SIZE)

    @property
    def tag_length(self) -> int:
        """This object's tag length in bytes: 16 or 32."""
        return self._tag


class _Aegis128(_AegisMixin):
    """The 128-bit variants: key and nonce 16 bytes; the random-nonce form allows 2**48 encryptions per key."""

    __slots__ = ()
    KEY_SIZE = NONCE_SIZE = 16
    _nonce_sizes = range(16, 17)
    _nonce_msg = "Nonce must be 16 bytes"
    _nonce_limit_msg = ("{cls}: 2**48 encryptions with this key reached, the limit for random 128-bit nonces "
                        "(RFC 10032, security considerations): use a new key")


class _Aegis256(_AegisMixin):
    """The 256-bit variants: key and nonce 32 bytes; random nonces without a limit."""

    __slots__ = ()
    KEY_SIZE = NONCE_SIZE = 32
    _nonce_sizes = range(32, 33)
    _nonce_msg = "Nonce must be 32 bytes"


class _AegisAEAD(_AEAD):
    """An AEGIS class with a nonce argument: the tag length is the object's."""

    __slots__ = ("_tag",)


class _AegisRandomNonce(_RandomNonce):
    """An AEGIS class whose nonces the library draws: OVERHEAD is per object (NONCE_SIZE + tag_length)."""

    __slots__ = ("_tag", "OVERHEAD")


class Aegis128L(_Aegis128, _AegisAEAD):
    """AEGIS-128L (RFC 10032): key 16 bytes, nonce 16 bytes, tag 16 or 32 bytes (``tag_length``, default 32
    as pyaegis). ``encrypt(nonce, data, associated_data)`` returns ciphertext || tag. The caller guarantees
    nonce uniqueness (random 128-bit nonces: at most 2**48 messages per key). Not available from FIPS
    providers."""

    __slots__ = ()
    _final = True


class Aegis128X2(_Aegis128, _AegisAEAD):
    """AEGIS-128X2 (RFC 10032, two AEGIS-128L lanes in parallel; not interoperable with AEGIS-128L): sizes and
    methods as Aegis128L."""

    __slots__ = ()
    _final = True


class Aegis128X4(_Aegis128, _AegisAEAD):
    """AEGIS-128X4 (RFC 10032, four AEGIS-128L lanes): sizes and methods as Aegis128L."""

    __slots__ = ()
    _final = True


class Aegis256(_Aegis256, _AegisAEAD):
    """AEGIS-256 (RFC 10032): key 32 bytes, nonce 32 bytes (random nonces are safe at any volume), tag 16 or
    32 bytes (``tag_length``, default 32). Same methods as Aegis128L. Not available from FIPS providers."""

    __slots__ = ()
    _final = True


class Aegis256X2(_Aegis256, _AegisAEAD):
    """AEGIS-256X2 (RFC 10032, two AEGIS-256 lanes): sizes and methods as Aegis256."""

    __slots__ = ()
    _final = True


class Aegis256X4(_Aegis256, _AegisAEAD):
    """AEGIS-256X4 (RFC 10032, four AEGIS-256 lanes): sizes and methods as Aegis256."""

    __slots__ = ()
    _final = True


class Aegis128LRandomNonce(_Aegis128, _AegisRandomNonce):
    """AEGIS-128L whose 16-byte nonces the library draws: ``encrypt(data, associated_data)`` returns
    nonce(16) || ciphertext || tag and ``decrypt`` reads that layout; ``OVERHEAD`` (per object) is 16 +
    tag_length. After 2**48 encryptions the object refuses with :class:`NonceLimitError`."""

    __slots__ = ()
    _final = True


class Aegis128X2RandomNonce(_Aegis128, _AegisRandomNonce):
    """AEGIS-128X2 with library-drawn nonces: as Aegis128LRandomNonce."""

    __slots__ = ()
    _final = True


class Aegis128X4RandomNonce(_Aegis128, _AegisRandomNonce):
    """AEGIS-128X4 with library-drawn nonces: as Aegis128LRandomNonce."""

    __slots__ = ()
    _final = True


class Aegis256RandomNonce(_Aegis256, _AegisRandomNonce):
    """AEGIS-256 whose 32-byte nonces the library draws: ``encrypt(data, associated_data)`` returns
    nonce(32) || ciphertext || tag; ``OVERHEAD`` (per object) is 32 + tag_length. 256-bit random nonces
    never collide in practice: no encryption limit."""

    __slots__ = ()
    _final = True


class Aegis256X2RandomNonce(_Aegis256, _AegisRandomNonce):
    """AEGIS-256X2 with library-drawn nonces: as Aegis256RandomNonce."""

    __slots__ = ()
    _final = True


class Aegis256X4RandomNonce(_Aegis256, _AegisRandomNonce):
    """AEGIS-256X4 with library-drawn nonces: as Aegis256RandomNonce."""

    __slots__ = ()
    _final = True
