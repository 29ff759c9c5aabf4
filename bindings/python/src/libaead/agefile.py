"""age files (age-encryption.org/v1) for X25519 recipients: the header in Python (pyca/cryptography), the
payload through libaead (:class:`libaead.stream.AgePayloadWriter` / :class:`~libaead.stream.AgePayloadReader`).

Files are binary (no ASCII armor). ``recipients`` are ``age1...`` strings and ``identities``
``AGE-SECRET-KEY-1...`` strings, as ``age-keygen`` prints them; :func:`generate_identity` makes a pair.

    with agefile.open_writer(dst, ["age1..."]) as w:
        shutil.copyfileobj(src, w)
    with agefile.open_reader(src, ["AGE-SECRET-KEY-1..."]) as r:
        shutil.copyfileobj(r, dst)

A header that does not parse, no stanza that an identity opens, or a header MAC that does not verify
raises :class:`libaead.InvalidTag` (``NoIdentityMatch`` for the second, a subclass); so does a payload that
was cut, reordered, extended or changed, at the read that finds it.
"""

import base64
import hmac
import os
from typing import Any, Iterable, List, Sequence, Tuple

from libaead._errors import InvalidTag
from libaead.stream import AgePayloadReader, AgePayloadWriter

__all__ = ["NoIdentityMatch", "decrypt", "encrypt", "generate_identity", "open_reader", "open_writer",
           "recipient_of"]

_INTRO = b"age-encryption.org/v1\n"
_X25519_LABEL = b"age-encryption.org/v1/X25519"
_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_MAX_HEADER = 1 << 20


class NoIdentityMatch(InvalidTag):
    """No recipient stanza of the header opens with the identities given."""


# bech32 (BIP 173; age uses it without the 90-character limit)

def _polymod(values: Iterable[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def _hrp_expand(hrp: str) -> List[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convert(data: Iterable[int], frm: int, to: int, pad: bool) -> List[int]:
    acc = bits = 0
    out = []
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & ((1 << to) - 1))
    if pad and bits:
        out.append((acc << (to - bits)) & ((1 << to) - 1))
    elif not pad and (bits >= frm or (acc << (to - bits)) & ((1 << to) - 1)):
        raise ValueError("invalid bech32 padding")
    return out


def _bech32_encode(hrp: str, data: bytes) -> str:
    five = _convert(data, 8, 5, True)
    poly = _polymod(_hrp_expand(hrp) + five + [0] * 6) ^ 1
    check = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_CHARSET[d] for d in five + check)


def _bech32_decode(text: str, hrp: str) -> bytes:
    if text.lower() != text and text.upper() != text:
        raise ValueError("mixed-case bech32 string")
    low = text.lower()
    pos = low.rfind("1")
    if pos < 1 or low[:pos] != hrp or len(low) - pos < 7:
        raise ValueError("not a %s bech32 string" % hrp)
    try:
        data = [_CHARSET.index(c) for c in low[pos + 1:]]
    except ValueError:
        raise ValueError("invalid bech32 character") from None
    if _polymod(_hrp_expand(hrp) + data) != 1:
        raise ValueError("invalid bech32 checksum")
    return bytes(_convert(data[:-6], 5, 8, False))


# keys

def _x25519() -> Any:
    from cryptography.hazmat.primitives.asymmetric import x25519

    return x25519


def _raw_public(key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def generate_identity() -> Tuple[str, str]:
    """A new X25519 identity and its recipient: ``("AGE-SECRET-KEY-1...", "age1...")``."""
    from cryptography.hazmat.primitives import serialization

    sk = _x25519().X25519PrivateKey.generate()
    raw = sk.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                           serialization.NoEncryption())
    return _bech32_encode("age-secret-key-", raw).upper(), _bech32_encode("age", _raw_public(sk.public_key()))


def recipient_of(identity: str) -> str:
    """The ``age1...`` recipient of an ``AGE-SECRET-KEY-1...`` identity."""
    sk = _x25519().X25519PrivateKey.from_private_bytes(_bech32_decode(identity.strip(), "age-secret-key-"))
    return _bech32_encode("age", _raw_public(sk.public_key()))


def _hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt or None, info=info).derive(ikm)


def _b64(data: bytes) -> bytes:
    return base64.b64encode(data).rstrip(b"=")


def _unb64(data: bytes) -> bytes:
    if b"=" in data or b"\r" in data or b"\n" in data:
        raise InvalidTag("age header: non-canonical base64")
    try:
        raw = base64.b64decode(data + b"=" * (-len(data) % 4), validate=True)
    except ValueError:  # binascii.Error
        raise InvalidTag("age header: invalid base64") from None
    if _b64(raw) != data:
        raise InvalidTag("age header: non-canonical base64")
    return raw


def _chacha(key: bytes) -> Any:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    return ChaCha20Poly1305(key)


def _wrap_lines(body: bytes) -> bytes:
    b = _b64(body)
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    if not lines or len(lines[-1]) == 64:
        lines.append(b"")
    return b"".join(line + b"\n" for line in lines)


def _header(file_key: bytes, recipients: Sequence[str]) -> bytes:
    if not recipients:
        raise ValueError("at least one recipient")
    out = [_INTRO]
    x = _x25519()
    for r in recipients:
        pk = _bech32_decode(r.strip(), "age")
        if len(pk) != 32:
            raise ValueError("an X25519 recipient is 32 bytes")
        eph = x.X25519PrivateKey.generate()
        share = _raw_public(eph.public_key())
        shared = eph.exchange(x.X25519PublicKey.from_public_bytes(pk))
        wrap = _hkdf(shared, share + pk, _X25519_LABEL)
        body = _chacha(wrap).encrypt(bytes(12), file_key, None)
        out.append(b"-> X25519 " + _b64(share) + b"\n" + _wrap_lines(body))
    out.append(b"---")
    head = b"".join(out)
    mac = hmac.new(_hkdf(file_key, b"", b"header"), head, "sha256").digest()
    return head + b" " + _b64(mac) + b"\n"


def open_writer(destination: Any, recipients: Sequence[str], *, close_destination: bool = False) -> AgePayloadWriter:
    """Writes an age header for ``recipients`` to ``destination`` and returns the payload writer."""
    file_key = os.urandom(16)
    destination.write(_header(file_key, recipients))
    return AgePayloadWriter(destination, file_key, close_destination=close_destination)


class _Lines:
    def __init__(self, source: Any) -> None:
        self.src = source
        self.buf = b""
        self.consumed = 0

    def line(self) -> bytes:
        """The next line with its newline; InvalidTag at the end of the input or past the header's bound."""
        while b"\n" not in self.buf:
            chunk = self.src.read(4096)
            if not chunk:
                raise InvalidTag("age header: truncated")
            self.buf += chunk
            if len(self.buf) + self.consumed > _MAX_HEADER:
                raise InvalidTag("age header: too long")
        i = self.buf.index(b"\n") + 1
        line, self.buf = self.buf[:i], self.buf[i:]
        self.consumed += i
        return line


def _read_header(source: Any) -> Tuple[List[Tuple[List[bytes], bytes]], bytes, bytes, bytes]:
    """(stanzas as (arguments, body), the header up to '---', its MAC, the bytes read past the header)."""
    lines = _Lines(source)
    if lines.line() != _INTRO:
        raise InvalidTag("age header: not an age-encryption.org/v1 file")
    head = [_INTRO]
    stanzas = []
    while True:
        line = lines.line()
        head.append(line)
        if line.startswith(b"--- "):
            mac = _unb64(line[4:-1])
            head[-1] = b"---"
            break
        if not line.startswith(b"-> "):
            raise InvalidTag("age header: malformed stanza")
        args = line[3:-1].split(b" ")
        if not all(args) or any(not (33 <= c <= 126) for a in args for c in a):
            raise InvalidTag("age header: malformed stanza arguments")
        body = b""
        while True:
            bl = lines.line()
            head.append(bl)
            if len(bl) - 1 > 64:
                raise InvalidTag("age header: stanza line too long")
            body += bl[:-1]
            if len(bl) - 1 < 64:
                break
        stanzas.append((args, _unb64(body)))
    return stanzas, b"".join(head), mac, lines.buf


def open_reader(source: Any, identities: Sequence[str], *, close_source: bool = False) -> AgePayloadReader:
    """Reads and checks the age header of ``source`` (its X25519 stanzas against ``identities``, and the
    MAC) and returns the payload reader."""
    x = _x25519()
    keys = []
    for ident in identities:
        raw = _bech32_decode(ident.strip(), "age-secret-key-")
        sk = x.X25519PrivateKey.from_private_bytes(raw)
        keys.append((sk, _raw_public(sk.public_key())))
    stanzas, head, mac, rest = _read_header(source)
    file_key = None
    for args, body in stanzas:
        if args[0] != b"X25519":
            continue
        if len(args) != 2 or len(body) != 32:
            raise InvalidTag("age header: malformed X25519 stanza")
        share = _unb64(args[1])
        if len(share) != 32:
            raise InvalidTag("age header: malformed X25519 stanza")
        for sk, pk in keys:
            try:
                shared = sk.exchange(x.X25519PublicKey.from_public_bytes(share))
            except ValueError:  # an all-zero shared secret (a low-order share)
                raise InvalidTag("age header: low-order X25519 share") from None
            try:
                file_key = _chacha(_hkdf(shared, share + pk, _X25519_LABEL)).decrypt(bytes(12), body, None)
            except Exception:
                continue
            break
        if file_key is not None:
            break
    if file_key is None:
        raise NoIdentityMatch("no identity matched any of the recipients")
    want = hmac.new(_hkdf(file_key, b"", b"header"), head, "sha256").digest()
    if not hmac.compare_digest(want, mac):
        raise InvalidTag("age header: bad header MAC")
    return AgePayloadReader(source, file_key, close_source=close_source, initial=rest)


def encrypt(data: bytes, recipients: Sequence[str]) -> bytes:
    """A whole age file of ``data`` for ``recipients``."""
    import io

    out = io.BytesIO()
    with open_writer(out, recipients) as w:
        w.write(data)
    return out.getvalue()


def decrypt(data: bytes, identities: Sequence[str]) -> bytes:
    """The plaintext of a whole age file."""
    import io

    with open_reader(io.BytesIO(data), identities) as r:
        return r.readall()
