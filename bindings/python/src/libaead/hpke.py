"""HPKE, hybrid public-key encryption (RFC 9180), on libaead 1.6 (docs/hpke.md).

The names follow pyhpke's context API, so that code written for pyhpke switches by its imports::

    from libaead.hpke import AEADId, CipherSuite, KDFId, KEMId

    suite = CipherSuite.new(KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
    keys = suite.generate_key_pair()
    enc, sender = suite.create_sender_context(keys.public_key, info=b"app")
    ct = sender.seal(b"hello", aad=b"header")
    recipient = suite.create_recipient_context(enc, keys.private_key, info=b"app")
    assert recipient.open(ct, aad=b"header") == b"hello"

and the errors follow pyca/cryptography's AEAD classes: a message that does not open raises
:class:`libaead.InvalidTag` (pyca's ``InvalidTag`` when pyca is installed), bad arguments ``ValueError``
or ``TypeError``, a suite no provider offers :class:`libaead.UnsupportedAlgorithm`.

Keys are bytes as RFC 9180 serialises them (SerializePublicKey / SerializePrivateKey: SEC1 uncompressed
points and big-endian scalars for the NIST curves, raw for X25519 and X448). pyhpke's ``KEMKey`` objects
and pyca/cryptography's X25519, X448 and EC key objects are taken too.

What the library adds to pyhpke's contexts:

* the sequence number lives in the C context: ``seal`` checks and commits it in one atomic step, so
  any number of threads may seal on one sender and no two seals share a nonce; after 2**64 - 1
  messages the context refuses with :class:`libaead.NonceLimitError`;
* a sender set up before ``os.fork()`` refuses to seal in the child (:class:`libaead.ForkedContextError`);
* ``RecipientContext.open_at(seq, ...)`` opens by an explicit sequence number through a replay window
  (:class:`ReplayError` for a number already opened or left of the window);
* a failed open raises and returns nothing; the secrets are cleansed when a context is freed
  (``close()``, ``with``, or garbage collection).
"""

import enum
from typing import Any, NamedTuple, Optional, Tuple

from libaead import Indicator, _properties_arg
from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib
from libaead._errors import ForkedContextError, InvalidTag, NonceLimitError, UnsupportedAlgorithm, raise_refusal
from libaead._types import Buffer

__all__ = [
    "AEADId",
    "CipherSuite",
    "KDFId",
    "KEMId",
    "KeyPair",
    "MAX_SEQUENCE",
    "Mode",
    "RecipientContext",
    "ReplayError",
    "SenderContext",
]

#: The last sequence number a context seals or opens (2**64 - 2).
MAX_SEQUENCE = int(_lib.AEAD_HPKE_MAX_SEQUENCE)
_TAG = int(_lib.AEAD_HPKE_TAG)


class Mode(enum.IntEnum):
    """RFC 9180's modes (section 5). The context constructors pick the mode from the arguments, as
    pyhpke does: psk and psk_id make it a PSK mode, a sender's private key (sks / pks) an auth mode."""

    BASE = 0
    PSK = 1
    AUTH = 2
    AUTH_PSK = 3


class KEMId(enum.IntEnum):
    """The KEMs: RFC 9180's (section 7.1), with pyhpke's names, and draft-ietf-hpke-pq's post-quantum ones
    named the same way. The post-quantum KEMs need ML-KEM in libcrypto (OpenSSL 3.5 or newer; else every
    call raises :class:`libaead.UnsupportedAlgorithm`), take the base and PSK modes only, and have a seed
    as private key (64 bytes for ML-KEM, 32 for the hybrids)."""

    DHKEM_P256_HKDF_SHA256 = 0x0010
    DHKEM_P384_HKDF_SHA384 = 0x0011
    DHKEM_P521_HKDF_SHA512 = 0x0012
    DHKEM_X25519_HKDF_SHA256 = 0x0020
    DHKEM_X448_HKDF_SHA512 = 0x0021
    MLKEM512 = 0x0040
    MLKEM768 = 0x0041
    MLKEM1024 = 0x0042
    MLKEM768_P256 = 0x0050
    MLKEM1024_P384 = 0x0051
    MLKEM768_X25519 = 0x647A  # X-Wing


class KDFId(enum.IntEnum):
    """The KDFs: RFC 9180's HKDFs (section 7.2) and draft-ietf-hpke-pq's one-stage SHAKE128 and SHAKE256
    (with every KEM, on any OpenSSL 3)."""

    HKDF_SHA256 = 0x0001
    HKDF_SHA384 = 0x0002
    HKDF_SHA512 = 0x0003
    SHAKE128 = 0x0010
    SHAKE256 = 0x0011


class AEADId(enum.IntEnum):
    """The AEADs (RFC 9180 section 7.3). EXPORT_ONLY contexts only export."""

    AES128_GCM = 0x0001
    AES256_GCM = 0x0002
    CHACHA20_POLY1305 = 0x0003
    EXPORT_ONLY = 0xFFFF


class KeyPair(NamedTuple):
    """A KEM key pair, serialised as the setup calls take it."""

    private_key: bytes
    public_key: bytes


class ReplayError(InvalidTag):
    """``open_at``: this sequence number was already opened on the context, or is left of its replay
    window (AEAD_ERR_REPLAY). Nothing was decrypted. A subclass of :class:`libaead.InvalidTag`, so code
    that drops messages that do not open drops these too."""


# An HPKE call's refusals: code name -> (exception type, message; %s is the call that refused).
_REFUSALS = {
    "AEAD_ERR_REPLAY": (ReplayError, "%s: sequence number already opened, or left of the replay window"),
    "AEAD_ERR_FORKED": (
        ForkedContextError,
        "%s: sealing refused in a forked child: this context was set up before the fork and its next "
        "sequence number belongs to the parent (opening and exporting still work here; set up a new "
        "context in the process that seals)"),
    "AEAD_ERR_NONCE_EXHAUSTED": (NonceLimitError, "%s: the context's sequence numbers are used up (the last is "
                                 "2**64 - 2): set up a new context"),
    "AEAD_ERR_UNSUPPORTED": (
        UnsupportedAlgorithm,
        "%s: the KEM, KDF or AEAD is not available from the loaded providers (under a FIPS provider X25519, X448 "
        "and ChaCha20-Poly1305 are refused; the post-quantum KEMs need ML-KEM, OpenSSL 3.5 or newer)"),
    "AEAD_ERR_KEY_SIZE": (ValueError, "%s: a key of the wrong length for the KEM"),
    "AEAD_ERR_ARG": (
        ValueError,
        "%s: invalid argument (not a key of the KEM: off the curve, a zero or too large scalar, an all-zero "
        "shared secret; psk and psk_id not both given; or a call the context's suite or side does not have)"),
    "AEAD_ERR_TOO_LONG": (OverflowError, "%s: input or output longer than the suite allows"),
}


def _raise(code: int, who: str) -> Any:
    """Raises for a negative AEAD_ERR_* code of an HPKE call."""
    raise_refusal(code, who, _REFUSALS)


def _bytes(cdata: Any, n: int = -1) -> bytes:
    out: bytes = (_ffi.buffer(cdata) if n < 0 else _ffi.buffer(cdata, n))[:]
    return out


def _buf(data: Any, name: str) -> Any:
    if isinstance(data, str) or data is None:
        raise TypeError("%s must be bytes-like" % name)
    try:
        return _ffi.from_buffer("uint8_t[]", data)
    except TypeError:
        raise TypeError("%s must be bytes-like" % name) from None


def _public_bytes(key: Any) -> Any:
    """Public key bytes: bytes-like, a pyhpke KEMKey, or a pyca X25519 / X448 / EC public key."""
    if hasattr(key, "to_public_bytes"):  # pyhpke
        return key.to_public_bytes()
    if hasattr(key, "public_bytes_raw"):  # pyca X25519, X448
        return key.public_bytes_raw()
    if hasattr(key, "public_numbers") and hasattr(key, "curve"):  # pyca EC
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return key


def _private_bytes(key: Any, nsk: int) -> Any:
    """Private key bytes: bytes-like, a pyhpke KEMKey, or a pyca X25519 / X448 / EC private key."""
    if hasattr(key, "to_private_bytes") and hasattr(key, "raw"):  # pyhpke: its pyca key (its to_private_bytes
        key = key.raw                                               # pads NIST scalars to the size in bits)
    if hasattr(key, "private_bytes_raw"):  # pyca X25519, X448
        return key.private_bytes_raw()
    if hasattr(key, "private_numbers") and hasattr(key, "curve"):  # pyca EC
        return int(key.private_numbers().private_value).to_bytes(nsk, "big")
    return key


class _Params:
    """An aead_hpke_params and the buffers it points into (kept alive as long as this object)."""

    __slots__ = ("ptr", "_keep")

    def __init__(self, suite: "CipherSuite", mode: int, info: Buffer, psk: Buffer, psk_id: Buffer,
                 window: int = 0, ikm_e: Optional[Buffer] = None) -> None:
        p = _ffi.new("aead_hpke_params *")
        p.size = _ffi.sizeof("aead_hpke_params")
        p.mode = mode
        p.kem, p.kdf, p.aead = int(suite.kem_id), int(suite.kdf_id), int(suite.aead_id)
        keep = [_buf(info, "info"), _buf(psk, "psk"), _buf(psk_id, "psk_id"), suite._properties]
        p.info, p.info_len = keep[0], len(keep[0])
        p.psk, p.psk_len = keep[1], len(keep[1])
        p.psk_id, p.psk_id_len = keep[2], len(keep[2])
        p.properties = suite._properties
        if not 0 <= window <= 0xFFFFFFFF:
            raise ValueError("window must be 0 (the default, 64) or a multiple of 64 up to 4096")
        p.window = window
        if ikm_e is not None:
            e = _buf(ikm_e, "ikm_e")
            keep.append(e)
            p.ikm_e, p.ikm_e_len = e, len(e)
        self.ptr = p
        self._keep = keep


def _mode(psk: Buffer, psk_id: Buffer, auth: bool) -> int:
    if memoryview(psk).nbytes or memoryview(psk_id).nbytes:
        return Mode.AUTH_PSK if auth else Mode.PSK
    return Mode.AUTH if auth else Mode.BASE


def _key_arg(key: Any, name: str) -> Tuple[Any, int]:
    if key is None:
        return _ffi.NULL, 0
    b = _buf(key, name)
    return b, len(b)


class _Context:
    """What a sender's and a recipient's context share: export, the indicator and freeing."""

    __slots__ = ("_ctx", "suite")

    def __init__(self, ptr: Any, suite: "CipherSuite") -> None:
        self._ctx = _ffi.gc(ptr, _lib.aead_hpke_free)
        self.suite = suite

    def _live(self) -> Any:
        if self._ctx is None:
            raise ValueError("%s: the context is closed" % type(self).__name__)
        return self._ctx

    def export(self, exporter_context: Buffer, length: int) -> bytes:
        """The secret export interface (RFC 9180 section 5.3): ``length`` bytes bound to this context and
        ``exporter_context`` (at most 960 bytes); the same on both sides."""
        if not isinstance(length, int) or length < 0:
            raise ValueError("length must be a non-negative int")
        ec = _buf(exporter_context, "exporter_context")
        out = _ffi.new("uint8_t[]", length)
        rc = _lib.aead_hpke_export(self._live(), ec, len(ec), out, length)
        if rc != 0:
            _raise(rc, "%s.export" % type(self).__name__)
        return _bytes(out, length)

    @property
    def indicator(self) -> Indicator:
        """The FIPS indicator of the context (docs/hpke.md has the table per suite). ``provider`` is the
        AEAD's provider ("" for an export-only suite)."""
        ctx = self._live()
        bits = int(_lib.aead_hpke_indicator(ctx))
        inner = _lib.aead_hpke_aead_ctx(ctx)
        name = ""
        if inner != _ffi.NULL:
            name = _ffi.string(_lib.aead_ctx_provider(inner)).decode("ascii", "replace")
        return Indicator(name, bool(bits & _lib.AEAD_IND_FIPS_PROVIDER), bool(bits & _lib.AEAD_IND_SEAL_APPROVED),
                         bool(bits & _lib.AEAD_IND_OPEN_APPROVED))

    def close(self) -> None:
        """Frees the context now and cleanses its secrets (later calls raise ValueError). Not to be
        called while another thread uses the context."""
        ctx, self._ctx = self._ctx, None
        if ctx is not None:
            _ffi.release(ctx)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SenderContext(_Context):
    """A sender's context (RFC 9180 ContextS), from :meth:`CipherSuite.create_sender_context`. Any number
    of threads may seal and export on it at once."""

    __slots__ = ()

    def seal_with_sequence(self, pt: Buffer, aad: Buffer = b"") -> Tuple[int, bytes]:
        """Seals ``pt`` and returns (the sequence number it used, ciphertext || tag)."""
        a, p = _buf(aad, "aad"), _buf(pt, "pt")
        out = _ffi.new("uint8_t[]", len(p) + _TAG)
        seq = _ffi.new("uint64_t *")
        n = _lib.aead_hpke_seal(self._live(), a, len(a), p, len(p), out, len(out), seq)
        if n < 0:
            _raise(n, "SenderContext.seal")
        return int(seq[0]), _bytes(out, n)

    def seal(self, pt: Buffer, aad: Buffer = b"") -> bytes:
        """ContextS.Seal: encrypts ``pt`` under the context's next sequence number; returns ciphertext ||
        tag (16 bytes longer)."""
        return self.seal_with_sequence(pt, aad)[1]


class RecipientContext(_Context):
    """A recipient's context (RFC 9180 ContextR), from :meth:`CipherSuite.create_recipient_context`."""

    __slots__ = ()

    def _opened(self, n: int, out: Any, who: str) -> bytes:
        if n < 0:
            _raise(n, who)
        return _bytes(out, n)

    def open(self, ct: Buffer, aad: Buffer = b"") -> bytes:
        """ContextR.Open: opens the next message in order (sequence 0, 1, ...); a message out of order,
        tampered with or under other AAD raises :class:`libaead.InvalidTag`."""
        a, c = _buf(aad, "aad"), _buf(ct, "ct")
        out = _ffi.new("uint8_t[]", max(len(c) - _TAG, 0))
        return self._opened(_lib.aead_hpke_open(self._live(), a, len(a), c, len(c), out, len(out)), out,
                            "RecipientContext.open")

    def open_at(self, seq: int, ct: Buffer, aad: Buffer = b"") -> bytes:
        """Opens the message sealed under sequence number ``seq`` (for protocols that carry it), through
        the context's replay window: a number already opened or left of the window raises
        :class:`ReplayError`; a failed open leaves the window as it was."""
        if not isinstance(seq, int) or not 0 <= seq <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError("seq must be an int from 0 to 2**64 - 1")
        a, c = _buf(aad, "aad"), _buf(ct, "ct")
        out = _ffi.new("uint8_t[]", max(len(c) - _TAG, 0))
        return self._opened(_lib.aead_hpke_open_at(self._live(), seq, a, len(a), c, len(c), out, len(out)), out,
                            "RecipientContext.open_at")


class CipherSuite:
    """A KEM, KDF and AEAD (pyhpke's ``CipherSuite``): sets up contexts, seals and opens single-shot, and
    makes key pairs. ``properties``: an OpenSSL property query for every fetch (``"fips=yes"``)."""

    __slots__ = ("kem_id", "kdf_id", "aead_id", "_properties")

    def __init__(self, kem_id: int, kdf_id: int, aead_id: int, *, properties: Optional[str] = None) -> None:
        try:
            self.kem_id, self.kdf_id, self.aead_id = KEMId(kem_id), KDFId(kdf_id), AEADId(aead_id)
        except ValueError as e:
            raise UnsupportedAlgorithm("CipherSuite: %s" % e) from None
        self._properties = _properties_arg(properties)

    @classmethod
    def new(cls, kem_id: int, kdf_id: int, aead_id: int, *, properties: Optional[str] = None) -> "CipherSuite":
        """pyhpke's constructor: ``CipherSuite.new(KEMId..., KDFId..., AEADId...)``."""
        return cls(kem_id, kdf_id, aead_id, properties=properties)

    def __repr__(self) -> str:
        return "CipherSuite(%s, %s, %s)" % (self.kem_id.name, self.kdf_id.name, self.aead_id.name)

    @property
    def enc_size(self) -> int:
        """Nenc: the length of enc."""
        return int(_lib.aead_hpke_enc_size(self.kem_id))

    @property
    def public_key_size(self) -> int:
        """Npk: the length of a public key (enc's for the DHKEMs, mostly not for the post-quantum KEMs)."""
        return int(_lib.aead_hpke_public_key_size(self.kem_id))

    @property
    def private_key_size(self) -> int:
        """Nsk: the length of a private key."""
        return int(_lib.aead_hpke_private_key_size(self.kem_id))

    # ---- keys ----

    def _pair(self, call: Any, who: str) -> KeyPair:
        sk = _ffi.new("uint8_t[]", self.private_key_size)
        pk = _ffi.new("uint8_t[]", self.public_key_size)
        rc = call(sk, pk)
        if rc != 0:
            _raise(rc, who)
        return KeyPair(_bytes(sk), _bytes(pk))

    def derive_key_pair(self, ikm: Buffer) -> KeyPair:
        """DeriveKeyPair(ikm) (RFC 9180 section 7.1.3): ikm should be at least as long as a private key."""
        i = _buf(ikm, "ikm")
        return self._pair(lambda sk, pk: _lib.aead_hpke_derive_keypair(
            self.kem_id, i, len(i), sk, len(sk), pk, len(pk), self._properties), "CipherSuite.derive_key_pair")

    def generate_key_pair(self) -> KeyPair:
        """A fresh random key pair (the library's DRBG)."""
        return self._pair(lambda sk, pk: _lib.aead_hpke_generate_keypair(
            self.kem_id, sk, len(sk), pk, len(pk), self._properties), "CipherSuite.generate_key_pair")

    def public_key(self, private_key: Any) -> bytes:
        """The public key of a private key."""
        s = _buf(_private_bytes(private_key, self.private_key_size), "private_key")
        pk = _ffi.new("uint8_t[]", self.public_key_size)
        rc = _lib.aead_hpke_public_key(self.kem_id, s, len(s), pk, len(pk), self._properties)
        if rc != 0:
            _raise(rc, "CipherSuite.public_key")
        return _bytes(pk)

    # ---- contexts ----

    def create_sender_context(self, pkr: Any, info: Buffer = b"", sks: Any = None, psk: Buffer = b"",
                              psk_id: Buffer = b"", *, ikm_e: Optional[Buffer] = None) -> Tuple[bytes, SenderContext]:
        """SetupBaseS / SetupPSKS / SetupAuthS / SetupAuthPSKS (the mode from psk, psk_id and sks):
        returns (enc, context). ``ikm_e`` derives the ephemeral key (known-answer tests only: an
        ephemeral key used twice breaks HPKE)."""
        params = _Params(self, _mode(psk, psk_id, sks is not None), info, psk, psk_id, ikm_e=ikm_e)
        r = _buf(_public_bytes(pkr), "pkr")
        s, s_len = _key_arg(None if sks is None else _private_bytes(sks, self.private_key_size), "sks")
        enc = _ffi.new("uint8_t[]", self.enc_size)
        ctx = _ffi.new("aead_hpke **")
        rc = _lib.aead_hpke_setup_sender(ctx, params.ptr, r, len(r), s, s_len, enc, len(enc))
        if rc != 0:
            _raise(rc, "CipherSuite.create_sender_context")
        return _bytes(enc), SenderContext(ctx[0], self)

    def create_recipient_context(self, enc: Buffer, skr: Any, info: Buffer = b"", pks: Any = None,
                                 psk: Buffer = b"", psk_id: Buffer = b"", *, window: int = 0) -> RecipientContext:
        """SetupBaseR / SetupPSKR / SetupAuthR / SetupAuthPSKR (the mode from psk, psk_id and pks).
        ``window``: the replay window of ``open_at`` in messages (0: 64; else a multiple of 64 up to 4096)."""
        params = _Params(self, _mode(psk, psk_id, pks is not None), info, psk, psk_id, window=window)
        e = _buf(enc, "enc")
        r = _buf(_private_bytes(skr, self.private_key_size), "skr")
        s, s_len = _key_arg(None if pks is None else _public_bytes(pks), "pks")
        ctx = _ffi.new("aead_hpke **")
        rc = _lib.aead_hpke_setup_recipient(ctx, params.ptr, e, len(e), r, len(r), s, s_len)
        if rc != 0:
            _raise(rc, "CipherSuite.create_recipient_context")
        return RecipientContext(ctx[0], self)

    # ---- single-shot (RFC 9180 section 6) ----

    def seal(self, pkr: Any, pt: Buffer, info: Buffer = b"", aad: Buffer = b"", psk: Buffer = b"",
             psk_id: Buffer = b"", sks: Any = None, *, ikm_e: Optional[Buffer] = None) -> Tuple[bytes, bytes]:
        """Single-shot seal: setup and one seal in one call; returns (enc, ciphertext || tag)."""
        params = _Params(self, _mode(psk, psk_id, sks is not None), info, psk, psk_id, ikm_e=ikm_e)
        r = _buf(_public_bytes(pkr), "pkr")
        s, s_len = _key_arg(None if sks is None else _private_bytes(sks, self.private_key_size), "sks")
        a, p = _buf(aad, "aad"), _buf(pt, "pt")
        enc = _ffi.new("uint8_t[]", self.enc_size)
        out = _ffi.new("uint8_t[]", len(p) + _TAG)
        n = _lib.aead_hpke_seal_single(params.ptr, r, len(r), s, s_len, enc, len(enc), a, len(a), p, len(p),
                                       out, len(out))
        if n < 0:
            _raise(n, "CipherSuite.seal")
        return _bytes(enc), _bytes(out, n)

    def open(self, enc: Buffer, skr: Any, ct: Buffer, info: Buffer = b"", aad: Buffer = b"", psk: Buffer = b"",
             psk_id: Buffer = b"", pks: Any = None) -> bytes:
        """Single-shot open: setup and one open (sequence 0) in one call; returns the plaintext."""
        params = _Params(self, _mode(psk, psk_id, pks is not None), info, psk, psk_id)
        e = _buf(enc, "enc")
        r = _buf(_private_bytes(skr, self.private_key_size), "skr")
        s, s_len = _key_arg(None if pks is None else _public_bytes(pks), "pks")
        a, c = _buf(aad, "aad"), _buf(ct, "ct")
        out = _ffi.new("uint8_t[]", max(len(c) - _TAG, 0))
        n = _lib.aead_hpke_open_single(params.ptr, e, len(e), r, len(r), s, s_len, a, len(a), c, len(c),
                                       out, len(out))
        if n < 0:
            _raise(n, "CipherSuite.open")
        return _bytes(out, n)

    # ---- pyca/cryptography's single-shot Suite (base mode, enc || ciphertext) ----

    def encrypt(self, plaintext: Buffer, public_key: Any, info: Optional[Buffer] = None) -> bytes:
        """pyca/cryptography's ``Suite.encrypt``: base mode, no AAD; returns enc || ciphertext || tag."""
        enc, ct = self.seal(public_key, plaintext, b"" if info is None else info)
        return enc + ct

    def decrypt(self, ciphertext: Buffer, private_key: Any, info: Optional[Buffer] = None) -> bytes:
        """pyca/cryptography's ``Suite.decrypt`` of enc || ciphertext || tag (base mode, no AAD). As pyca's,
        every message that does not open raises :class:`libaead.InvalidTag`, an enc that is not a point
        of the curve too."""
        sk = _private_bytes(private_key, self.private_key_size)
        if len(_buf(sk, "private_key")) != self.private_key_size:
            raise ValueError("CipherSuite.decrypt: a key of the wrong length for the KEM")
        c = memoryview(ciphertext).cast("B")
        if len(c) < self.enc_size:
            raise InvalidTag()
        try:
            return self.open(c[:self.enc_size], sk, c[self.enc_size:], b"" if info is None else info)
        except ValueError as e:  # an enc off the curve (or an all-zero shared secret): not a message
            raise InvalidTag() from e
