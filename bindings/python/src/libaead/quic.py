"""QUIC packet protection (RFC 9001) on libaead's ABI 1.2 (docs/quic.md).

``AEAD`` and ``HeaderProtection`` have exactly the interface of aioquic's ``aioquic._crypto`` classes
of the same name (aioquic 1.7.2), so aioquic runs on libaead by replacing those two names::

    import aioquic.quic.crypto, libaead.quic
    aioquic.quic.crypto.AEAD, aioquic.quic.crypto.HeaderProtection = libaead.quic.AEAD, libaead.quic.HeaderProtection

Differences from aioquic, on purpose:

* ``AEAD`` is an ``AEAD_POLICY_QUIC`` context: ``encrypt`` refuses a packet number that is not greater
  than every one it encrypted before, or that is 2**62 or more, with :class:`PacketNumberError` (a
  :class:`CryptoError` and a :class:`libaead.NonceReuseError`); a refused call uses nothing up.
  aioquic's senders only ever increase the packet number of a key, so the swap works unchanged.
  ``decrypt`` checks no order (packets arrive out of order).
* RFC 9001 section 6.6 key-usage limits are enforced per key: after 2**23 AES-GCM encryptions, and
  after 2**52 (AES-GCM) or 2**36 (ChaCha20-Poly1305) failed decryptions, the calls raise
  :class:`KeyLimitError` (a :class:`CryptoError`). ``.usage`` says how close a key is.
* AES-192 keys (which aioquic's pyca-based classes would accept for an AES name) are refused with
  ``ValueError``: QUIC has no such suite.

:class:`CryptoError` is a subclass of ``aioquic._crypto.CryptoError`` when aioquic is importable, so
aioquic's ``except CryptoError`` (a packet that fails to decrypt is dropped) catches libaead's errors.

``PacketProtector`` does a whole packet in one C call (``aead_quic_protect`` / ``aead_quic_unprotect``):
payload protection and header protection, packet-number encoding and decoding included.
"""

from typing import Any, NamedTuple, Optional, Tuple

from libaead import _properties_arg as _properties
from libaead._binding import fast as _fast
from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib
from libaead._errors import NonceReuseError, UnsupportedAlgorithm, library_text
from libaead._types import Buffer

try:  # libaead.quic.CryptoError also passes aioquic's ``except CryptoError``
    from aioquic._crypto import CryptoError as _AioquicCryptoError

    _CRYPTO_ERROR_BASE: Any = _AioquicCryptoError
except Exception:  # aioquic not installed
    _CRYPTO_ERROR_BASE = ValueError

__all__ = [
    "AEAD",
    "CryptoError",
    "HeaderProtection",
    "KeyLimitError",
    "PacketNumberError",
    "PacketProtector",
    "Usage",
]


class CryptoError(_CRYPTO_ERROR_BASE):  # type: ignore[misc]
    """aioquic's CryptoError (a ValueError): invalid cipher name or IV, a packet that does not decrypt
    or is too short to sample. A subclass of ``aioquic._crypto.CryptoError`` when aioquic is importable."""


class PacketNumberError(CryptoError, NonceReuseError):
    """Encryption refused: the packet number is not greater than every one encrypted before with this
    key, or is 2**62 or more (AEAD_ERR_NONCE_ORDER / _NONCE_EXHAUSTED / _NONCE_PREFIX). Nothing was
    encrypted and nothing used up."""


class KeyLimitError(CryptoError):
    """RFC 9001 section 6.6: this key reached its confidentiality limit (encryptions; AES-GCM 2**23) or
    its integrity limit (failed decryptions; AES-GCM 2**52, ChaCha20-Poly1305 2**36), AEAD_ERR_KEY_LIMIT.
    Update the keys (a new object)."""


class Usage(NamedTuple):
    """How much of a key's limits is used (``aead_ctx_usage``)."""

    seals: int      #: packets encrypted with this key
    forgeries: int  #: decryptions that failed authentication


_AEAD_NAMES = (b"aes-128-gcm", b"aes-256-gcm", b"chacha20-poly1305")
_HP_NAMES = (b"aes-128-ecb", b"aes-256-ecb", b"chacha20")
_U8_ARRAY = _ffi.typeof("uint8_t[]")
_from_buffer = _ffi.from_buffer
_seal_open = _lib.aead_seal_open
_hp_mask = _lib.aead_hp_mask
_protect = _lib.aead_quic_protect
_unprotect = _lib.aead_quic_unprotect
_AUTH = int(_lib.AEAD_ERR_AUTH)
_KEY_LIMIT = int(_lib.AEAD_ERR_KEY_LIMIT)
_NONCE_ERRORS = (int(_lib.AEAD_ERR_NONCE_ORDER), int(_lib.AEAD_ERR_NONCE_EXHAUSTED), int(_lib.AEAD_ERR_NONCE_PREFIX))
_UINT64_MAX = (1 << 64) - 1
_TAG = 16
_SAMPLE = 16
_Z16 = bytes(16)
# As _cffi_core: results are written into a fresh ``bytes`` object nothing else references yet
# (CPython passes a bytes object's own storage to a ``uint8_t *`` parameter). Elsewhere: bytearray + copy.
from libaead._cffi_core import _FRESH_BYTES, _writable  # noqa: E402


def _address(ptr: Any) -> int:
    return int(_ffi.cast("uintptr_t", ptr))


# The compiled one-call path (_fast.c), when the fast backend is in use: the functions' addresses come
# from cffi's lib, so _fast itself never links them (and still loads on a 1.1 library).
_fast_protect: Any = None
_fast_unprotect: Any = None
_fast_mask: Any = None
_fast_seal_open: Any = None
if _fast is not None and hasattr(_fast, "quic_protect"):
    _fast.set_quic(_address(_ffi.addressof(_lib, "aead_quic_protect")),
                   _address(_ffi.addressof(_lib, "aead_quic_unprotect")),
                   _address(_ffi.addressof(_lib, "aead_hp_mask")))
    _fast_protect, _fast_unprotect = _fast.quic_protect, _fast.quic_unprotect
    _fast_mask, _fast_seal_open = _fast.hp_mask, _fast.seal_open


def _cipher_name(name: Any) -> str:
    try:
        return bytes(name).decode(errors="replace")
    except Exception:
        return repr(name)


def _in(x: Buffer) -> Any:
    return x if type(x) is bytes else _from_buffer(_U8_ARRAY, x)


def _key_alg(key_len: int, chacha: bool, chacha_msg: str, aes_what: str) -> int:
    """The algorithm of a QUIC key (packet or header protection): ChaCha20 with a 32-byte key, else AES-128
    or AES-256 by the key's length. The ValueError messages are those of the class aioquic would use."""
    if chacha:
        if key_len != 32:
            raise ValueError(chacha_msg)
        return int(_lib.AEAD_CHACHA20_POLY1305)
    if key_len == 16:
        return int(_lib.AEAD_AES_128_GCM)
    if key_len == 32:
        return int(_lib.AEAD_AES_256_GCM)
    raise ValueError("%s key must be 128 or 256 bits (QUIC has no AES-192 suite)" % aes_what)


def _construction_error(rc: int, what: str, properties: Optional[str]) -> BaseException:
    if rc == _lib.AEAD_ERR_UNSUPPORTED:
        return UnsupportedAlgorithm("%s is not available from the providers selected by properties=%r" % (what, properties))
    if rc == _lib.AEAD_ERR_KEY_SIZE:
        return ValueError("%s: invalid key size" % what)
    if rc == _lib.AEAD_ERR_NOMEM:
        return MemoryError()
    if rc == _lib.AEAD_ERR_ARG and properties is not None:
        return ValueError("properties must be at most 255 bytes")
    return RuntimeError(library_text(rc))


def _call_error(obj: Any, rc: int) -> BaseException:
    name = type(obj).__name__
    if rc == _AUTH:
        return CryptoError("")  # aioquic: CryptoError(str(InvalidTag())), an empty message
    if rc in _NONCE_ERRORS:
        return PacketNumberError(
            "%s: packet number refused: it must be below 2**62 and greater than every packet number encrypted "
            "before with this key (RFC 9000 section 12.3; libaead AEAD_POLICY_QUIC)" % name)
    if rc == _KEY_LIMIT:
        return KeyLimitError(
            "%s: the key's RFC 9001 section 6.6 usage limit is reached (confidentiality: encryptions, or "
            "integrity: failed decryptions): update the keys" % name)
    if rc == _lib.AEAD_ERR_TOO_LONG:
        return CryptoError("%s: packet too short to sample (the packet number and payload need 4 bytes)" % name)
    if rc == _lib.AEAD_ERR_ARG:
        return ValueError("%s: invalid header (shorter than its packet-number field)" % name)
    if rc == _lib.AEAD_ERR_NOMEM:
        return MemoryError()
    return RuntimeError(library_text(rc))


def _new_ctx(cipher_name: bytes, key: Buffer, iv: Buffer, properties: Optional[str], what: str) -> Any:
    if cipher_name not in _AEAD_NAMES:
        raise CryptoError("Invalid cipher name: %s" % _cipher_name(cipher_name))
    iv_ = _in(iv)
    if len(iv_) != 12:
        raise CryptoError("Invalid iv length")
    k_ = _in(key)
    alg = _key_alg(len(k_), cipher_name == b"chacha20-poly1305", "ChaCha20Poly1305 key must be 32 bytes.", "AESGCM")
    out = _ffi.new("aead_ctx **")
    rc = _lib.aead_ctx_new_ex(out, alg, _lib.AEAD_POLICY_QUIC, k_, len(k_), 0, _properties(properties), iv_, 12)
    if rc != 0:
        raise _construction_error(rc, what, properties)
    return _ffi.gc(out[0], _lib.aead_ctx_free)


def _new_hp(cipher_name: bytes, key: Buffer, properties: Optional[str], what: str) -> Any:
    if cipher_name not in _HP_NAMES:
        raise CryptoError("Invalid cipher name: %s" % _cipher_name(cipher_name))
    k_ = _in(key)
    alg = _key_alg(len(k_), cipher_name == b"chacha20", "key must be 32 bytes", "AES header-protection")
    out = _ffi.new("aead_hp **")
    rc = _lib.aead_hp_new(out, alg, k_, len(k_), _properties(properties))
    if rc != 0:
        raise _construction_error(rc, what, properties)
    return _ffi.gc(out[0], _lib.aead_hp_free)


def _usage(ctx: Any) -> Usage:
    seals = _ffi.new("uint64_t[2]")
    _lib.aead_ctx_usage(ctx, seals, seals + 1)
    return Usage(int(seals[0]), int(seals[1]))


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("'%s' object attribute '%s' is read-only" % (type(self).__name__, name))

    def __reduce__(self) -> Any:
        raise TypeError("cannot pickle '%s' object" % type(self).__name__)


class AEAD(_Frozen):
    """aioquic's ``AEAD(cipher_name, key, iv)``: b"aes-128-gcm", b"aes-256-gcm" or b"chacha20-poly1305",
    the "quic key" and the 12-byte "quic iv"; nonce = iv XOR packet_number, 16-byte tag.

    ``encrypt`` enforces the QUIC nonce rule (:class:`PacketNumberError`) and the confidentiality limit
    (:class:`KeyLimitError`); ``decrypt`` raises :class:`CryptoError` on any failure and
    :class:`KeyLimitError` once the integrity limit is reached."""

    __slots__ = ("_ctx", "_iv", "_ctx_addr")

    def __init__(self, cipher_name: bytes, key: Buffer, iv: Buffer, *, properties: Optional[str] = None) -> None:
        ctx = _new_ctx(cipher_name, key, iv, properties, "AEAD %s" % _cipher_name(cipher_name))
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_iv", int.from_bytes(bytes(iv), "big"))
        object.__setattr__(self, "_ctx_addr", _address(ctx))

    def encrypt(self, data: Buffer, associated_data: Buffer, packet_number: int) -> bytes:
        """The ciphertext and tag of ``data`` with the header ``associated_data`` as AAD."""
        nonce = (self._iv ^ packet_number).to_bytes(12, "big")
        if _fast_seal_open is not None:
            r = _fast_seal_open(self._ctx_addr, 1, nonce, associated_data, data)
            if type(r) is int:
                raise _call_error(self, r)
            return r  # type: ignore[no-any-return]
        d_, a_ = _in(data), _in(associated_data)
        n = len(d_) + _TAG
        if _FRESH_BYTES:
            out = bytes(n)
            rc = _seal_open(self._ctx, 1, nonce, 12, a_, len(a_), d_, len(d_), out, n)
            if rc < 0:
                raise _call_error(self, rc)
            return out
        buf = bytearray(n)
        rc = _seal_open(self._ctx, 1, nonce, 12, a_, len(a_), d_, len(d_), _from_buffer(_U8_ARRAY, buf, True), n)
        if rc < 0:
            raise _call_error(self, rc)
        return bytes(buf)

    def decrypt(self, data: Buffer, associated_data: Buffer, packet_number: int) -> bytes:
        """The plaintext of ``data`` (ciphertext and tag); :class:`CryptoError` if it does not verify."""
        nonce = (self._iv ^ packet_number).to_bytes(12, "big")
        if _fast_seal_open is not None:
            r = _fast_seal_open(self._ctx_addr, 2, nonce, associated_data, data)
            if type(r) is int:
                raise _call_error(self, r)
            return r  # type: ignore[no-any-return]
        d_, a_ = _in(data), _in(associated_data)
        n = len(d_) - _TAG
        if n < 0:
            raise CryptoError("")
        if _FRESH_BYTES and n > 1:
            out = bytes(n)
            rc = _seal_open(self._ctx, 2, nonce, 12, a_, len(a_), d_, len(d_), out, n)
            if rc < 0:
                raise _call_error(self, rc)
            return out
        buf = bytearray(n)
        rc = _seal_open(self._ctx, 2, nonce, 12, a_, len(a_), d_, len(d_),
                        _from_buffer(_U8_ARRAY, buf, True) if n else _ffi.NULL, n)
        if rc < 0:
            raise _call_error(self, rc)
        return bytes(buf)

    @property
    def usage(self) -> Usage:
        """(seals, forgeries) of this key so far, to schedule a key update before the limits."""
        return _usage(self._ctx)


class HeaderProtection(_Frozen):
    """aioquic's ``HeaderProtection(cipher_name, key)``: b"aes-128-ecb", b"aes-256-ecb" or b"chacha20"
    and the "quic hp" key (RFC 9001 section 5.4)."""

    __slots__ = ("_hp", "_hp_addr")

    def __init__(self, cipher_name: bytes, key: Buffer, *, properties: Optional[str] = None) -> None:
        hp = _new_hp(cipher_name, key, properties, "HeaderProtection %s" % _cipher_name(cipher_name))
        object.__setattr__(self, "_hp", hp)
        object.__setattr__(self, "_hp_addr", _address(hp))

    def _mask(self, sample: Any) -> bytes:
        if _fast_mask is not None:
            r = _fast_mask(self._hp_addr, sample)
            if type(r) is int:
                raise _call_error(self, r)
            return r  # type: ignore[no-any-return]
        mask = bytes(5) if _FRESH_BYTES else _ffi.new("uint8_t[5]")
        rc = _hp_mask(self._hp, sample, _SAMPLE, mask, 5)
        if rc < 0:
            raise _call_error(self, rc)
        return mask if _FRESH_BYTES else bytes(_ffi.buffer(mask))

    def apply(self, plain_header: Buffer, protected_payload: Buffer) -> bytes:
        """The protected packet: ``plain_header`` (its packet-number field last) with its first byte and
        packet number masked, followed by ``protected_payload`` (which the sample is taken from)."""
        header = bytearray(plain_header)
        if not header:
            raise CryptoError("Header is empty")
        pn_length = (header[0] & 0x03) + 1
        pn_offset = len(header) - pn_length
        if pn_offset < 1:
            raise CryptoError("Header is shorter than its packet number")
        sample_offset = 4 - pn_length
        sample = bytes(protected_payload[sample_offset:sample_offset + _SAMPLE])
        if len(sample) != _SAMPLE:
            raise CryptoError("Payload is too short to sample")
        mask = self._mask(sample)
        header[0] ^= mask[0] & (0x0F if header[0] & 0x80 else 0x1F)
        for i in range(pn_length):
            header[pn_offset + i] ^= mask[1 + i]
        return bytes(header) + bytes(protected_payload)

    def remove(self, packet: Buffer, encrypted_offset: int) -> Tuple[bytes, int]:
        """(plain_header, truncated packet number): the header up to the end of the packet-number field
        with the protection removed, and that field's value (decode it against the largest packet number
        received, RFC 9000 Appendix A.3)."""
        pn_offset = encrypted_offset
        if pn_offset < 0:
            raise ValueError("encrypted_offset must not be negative")
        sample_offset = pn_offset + 4
        if sample_offset + _SAMPLE > len(packet):
            raise CryptoError("Packet is too short to sample")
        mask = self._mask(bytes(packet[sample_offset:sample_offset + _SAMPLE]))
        first = packet[0]
        first ^= mask[0] & (0x0F if first & 0x80 else 0x1F)
        pn_length = (first & 0x03) + 1
        header = bytearray(packet[:pn_offset + pn_length])
        header[0] = first
        truncated = 0
        for i in range(pn_length):
            b = header[pn_offset + i] ^ mask[1 + i]
            header[pn_offset + i] = b
            truncated = (truncated << 8) | b
        return bytes(header), truncated


class PacketProtector(_Frozen):
    """One packet-protection key and its header-protection key, a whole packet per C call.

    ``PacketProtector(cipher_name, key, iv, hp_key)``: cipher_name as for :class:`AEAD`
    (b"aes-128-gcm", b"aes-256-gcm", b"chacha20-poly1305"; the header protection is the same suite's),
    the "quic key", "quic iv" and "quic hp". Use one object per direction and key phase (a key update is
    a new object; the hp key stays the same, RFC 9001 section 6)."""

    __slots__ = ("_ctx", "_hp", "_ctx_addr", "_hp_addr")

    def __init__(self, cipher_name: bytes, key: Buffer, iv: Buffer, hp_key: Buffer, *,
                 properties: Optional[str] = None) -> None:
        what = "PacketProtector %s" % _cipher_name(cipher_name)
        ctx = _new_ctx(cipher_name, key, iv, properties, what)
        hp_name = {b"aes-128-gcm": b"aes-128-ecb", b"aes-256-gcm": b"aes-256-ecb"}.get(cipher_name, b"chacha20")
        hp = _new_hp(hp_name, hp_key, properties, what)
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_hp", hp)
        object.__setattr__(self, "_ctx_addr", _address(ctx))
        object.__setattr__(self, "_hp_addr", _address(hp))

    def protect(self, header: Buffer, payload: Buffer, packet_number: int) -> bytes:
        """The protected packet (header, ciphertext, tag; header protection applied). ``header`` ends
        with its packet-number field (length ``(header[0] & 3) + 1``), which the library fills from
        ``packet_number``: its content is ignored. Raises :class:`PacketNumberError`,
        :class:`KeyLimitError`, :class:`CryptoError` (pn length + payload below 4 bytes: no sample) or
        ``ValueError`` (a header shorter than its packet-number field plus one byte)."""
        if _fast_protect is not None:
            r = _fast_protect(self._ctx_addr, self._hp_addr, packet_number, header, payload)
            if type(r) is int:
                raise _call_error(self, r)
            return r  # type: ignore[no-any-return]
        h_, p_ = _in(header), _in(payload)
        hl, pl = len(h_), len(p_)
        if _FRESH_BYTES:
            out = (header if type(header) is bytes else _ffi.buffer(h_)[:]) + \
                  (payload if type(payload) is bytes else _ffi.buffer(p_)[:]) + _Z16
            n = len(out)
            rc = _protect(self._ctx, self._hp, packet_number, out, hl, pl, n)
            if rc < 0:
                raise _call_error(self, rc)
            return out
        buf = bytearray(h_) + bytearray(p_) + bytearray(_TAG)
        rc = _protect(self._ctx, self._hp, packet_number, _from_buffer(_U8_ARRAY, buf, True), hl, pl, len(buf))
        if rc < 0:
            raise _call_error(self, rc)
        return bytes(buf)

    def protect_into(self, buf: Any, header_len: int, payload_len: int, packet_number: int) -> int:
        """In place: ``buf`` (writable) holds the header then the payload, with room for the 16-byte tag
        after them; returns the packet's length (header_len + payload_len + 16)."""
        b_ = _writable(buf)
        if header_len < 0 or payload_len < 0:
            raise ValueError("header_len and payload_len must not be negative")
        rc = _protect(self._ctx, self._hp, packet_number, b_, header_len, payload_len, len(b_))
        if rc == _lib.AEAD_ERR_BUFFER_TOO_SMALL:
            raise ValueError("buffer must hold header_len + payload_len + 16 bytes")
        if rc < 0:
            raise _call_error(self, rc)
        return int(rc)

    def unprotect(self, packet: Buffer, pn_offset: int, largest_pn: Optional[int] = None) -> Tuple[bytes, bytes, int]:
        """(header, payload, packet_number) of a received packet: the unprotected header (up to the end of
        its packet-number field), the plaintext, and the full packet number decoded against
        ``largest_pn``, the largest received so far in the packet-number space (None: none yet).
        :class:`CryptoError` when it does not verify or is too short; :class:`KeyLimitError` once the
        integrity limit is reached."""
        if _fast_unprotect is not None:
            r = _fast_unprotect(self._ctx_addr, self._hp_addr, _UINT64_MAX if largest_pn is None else largest_pn,
                                packet, pn_offset)
            if type(r) is int:
                raise _call_error(self, r)
            return r  # type: ignore[no-any-return]
        buf = bytearray(packet)
        b_ = _from_buffer(_U8_ARRAY, buf, True)
        pn = _ffi.new("uint64_t *")
        rc = _unprotect(self._ctx, self._hp, _UINT64_MAX if largest_pn is None else largest_pn, b_,
                        pn_offset, len(buf), pn)
        if rc < 0:
            raise _call_error(self, rc)
        hl = len(buf) - _TAG - rc
        mv = memoryview(buf)
        return bytes(mv[:hl]), bytes(mv[hl:hl + rc]), int(pn[0])

    def unprotect_into(self, buf: Any, pn_offset: int, largest_pn: Optional[int] = None) -> Tuple[int, int, int]:
        """In place on the writable ``buf`` (exactly the packet): returns (header_len, payload_len,
        packet_number); the plaintext is at buf[header_len:header_len + payload_len]. On failure the
        header is restored, the payload zeroed, and :class:`CryptoError` raised."""
        b_ = _from_buffer(_U8_ARRAY, buf, True)
        pn = _ffi.new("uint64_t *")
        n = len(b_)
        rc = _unprotect(self._ctx, self._hp, _UINT64_MAX if largest_pn is None else largest_pn, b_, pn_offset, n, pn)
        if rc < 0:
            raise _call_error(self, rc)
        return n - _TAG - int(rc), int(rc), int(pn[0])

    @property
    def usage(self) -> Usage:
        """(seals, forgeries) of the packet-protection key so far."""
        return _usage(self._ctx)

