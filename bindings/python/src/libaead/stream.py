"""Streaming AEAD on libaead 1.7 (docs/streaming.md): files and HTTP bodies of any length, in three
formats that their own tools read and write.

* :class:`AesGcmHkdfStreaming`: Tink's AES-GCM-HKDF streaming primitive, shaped as Tink Python's
  ``StreamingAead`` (``new_encrypting_stream(ciphertext_destination, associated_data)``,
  ``new_decrypting_stream(ciphertext_source, associated_data)``) on a raw key and its parameters;
  ``read_segment`` / ``decrypt_segment`` open one segment by its number (random access).
* :class:`AgePayloadWriter` / :class:`AgePayloadReader`: the payload of an age file (age-encryption.org/v1,
  "STREAM") under its 16-byte file key; ``libaead.agefile`` adds the header (X25519 recipients).
* :class:`RFC8188Writer` / :class:`RFC8188Reader`: HTTP's "aes128gcm" content coding (RFC 8188, and Web
  Push's RFC 8291), and the one-call :func:`encrypt` / :func:`decrypt` in the shape of http_ece's.

Writers and readers are ``io.RawIOBase`` objects: use them with ``with``, ``shutil.copyfileobj``,
``io.BufferedReader`` and so on. Bytes go in and out. A writer holds back the last full segment until
``close()``, so that the final segment (the one marked last) carries data, as Tink's and age's writers do;
nothing is complete before ``close()``. A reader reads a segment and one byte more, so it knows which
segment is the last, and returns plaintext only after its segment authenticated. A stream that was cut
(even at a segment boundary), reordered, extended after its final segment or changed raises
:class:`libaead.InvalidTag` at the read that finds it, never a silent end of file.
"""

import io
from typing import Any, List, Optional, Tuple

from libaead import _properties_arg
from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib
from libaead._errors import ForkedContextError, InvalidTag, UnsupportedAlgorithm, raise_refusal
from libaead._types import Buffer

__all__ = [
    "AesGcmHkdfStreaming",
    "AgePayloadReader",
    "AgePayloadWriter",
    "MAX_SEGMENT",
    "RFC8188Reader",
    "RFC8188Writer",
    "StreamReader",
    "StreamWriter",
    "decrypt",
    "encrypt",
]

#: The largest Tink segment or RFC 8188 record (in ciphertext bytes) either side takes.
MAX_SEGMENT = int(_lib.AEAD_STREAM_MAX_SEGMENT)
_MAX_HEADER = int(_lib.AEAD_STREAM_MAX_HEADER)
_HASHES = {"SHA1": int(_lib.AEAD_STREAM_SHA1), "SHA256": int(_lib.AEAD_STREAM_SHA256),
           "SHA512": int(_lib.AEAD_STREAM_SHA512)}
_TOO_SMALL = int(_lib.AEAD_ERR_BUFFER_TOO_SMALL)


# A stream call's refusals: code name -> (exception type, message; %s is the class that refused).
_REFUSALS = {
    "AEAD_ERR_STREAM_FINISHED": (ValueError, "%s: the stream's final segment is through; nothing may follow it"),
    "AEAD_ERR_KEY_SIZE": (ValueError, "%s: invalid key size"),
    "AEAD_ERR_TOO_LONG": (ValueError, "%s: the record size in the header is above the largest this reader takes"),
    "AEAD_ERR_ARG": (ValueError, "%s: invalid stream parameters"),
    "AEAD_ERR_UNSUPPORTED": (UnsupportedAlgorithm, "%s: no provider offers this format's cipher for these properties"),
    "AEAD_ERR_NONCE_EXHAUSTED": (OverflowError, "%s: the format's last segment number is reached"),
    "AEAD_ERR_FORKED": (ForkedContextError, "%s: this writer was created before fork(); write in the process that made it"),
}


def _raise(code: int, who: str) -> Any:
    """Raises for a negative AEAD_ERR_* code of a stream call."""
    raise_refusal(code, who, _REFUSALS)


def _bytes_arg(value: Any, name: str) -> bytes:
    if isinstance(value, str) or not isinstance(value, (bytes, bytearray, memoryview)):
        try:
            value = memoryview(value)
        except TypeError:
            raise TypeError("%s must be bytes-like" % name) from None
    return bytes(value)


class _Params:
    """An aead_stream_params and the buffers it points to (kept alive as long as the stream)."""

    def __init__(self, fmt: int, key: Any, *, key_size: int = 0, hkdf_hash: int = 0, segment_size: int = 0,
                 first_segment_offset: int = 0, associated_data: Any = None, keyid: Any = None,
                 properties: Optional[str] = None) -> None:
        self._key = _bytes_arg(key, "key")
        self._ad = b"" if associated_data is None else _bytes_arg(associated_data, "associated_data")
        self._keyid = b"" if keyid is None else _bytes_arg(keyid, "keyid")
        self._props = _properties_arg(properties)
        self._props_c = _ffi.NULL if self._props is _ffi.NULL else _ffi.new("char[]", self._props)
        p = _ffi.new("aead_stream_params *")
        p.size = _ffi.sizeof("aead_stream_params")
        p.format = fmt
        self._key_c = _ffi.new("uint8_t[]", self._key) if self._key else _ffi.NULL
        p.key = self._key_c
        p.key_len = len(self._key)
        p.key_size = key_size
        p.hkdf_hash = hkdf_hash
        if not 0 <= segment_size <= 0xFFFFFFFF or not 0 <= first_segment_offset <= 0xFFFFFFFF:
            raise ValueError("segment size and offset must fit 32 bits")
        p.segment_size = segment_size
        p.first_segment_offset = first_segment_offset
        self._ad_c = _ffi.new("uint8_t[]", self._ad) if self._ad else _ffi.NULL
        p.associated_data = self._ad_c
        p.associated_data_len = len(self._ad)
        self._keyid_c = _ffi.new("uint8_t[]", self._keyid) if self._keyid else _ffi.NULL
        p.keyid = self._keyid_c
        p.keyid_len = len(self._keyid)
        p.properties = self._props_c
        self.c = p

    def wipe(self) -> None:
        if self._key_c != _ffi.NULL:
            _ffi.memmove(self._key_c, bytes(len(self._key)), len(self._key))


_BATCH_BYTES = 1 << 20  # plaintext or ciphertext per aead_stream_seal_many / _open_many call


def _write_all(dest: Any, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = dest.write(view)
        if n is None:  # a non-blocking raw stream that took nothing
            raise BlockingIOError("the ciphertext destination would block")
        view = view[n:]


def _new_writer(params: _Params, who: str) -> Tuple[Any, bytes]:
    """A writer's aead_stream (freed when collected) and its header; raises, naming ``who``, for parameters
    it refuses. The parameters' key copy is wiped either way."""
    sp = _ffi.new("aead_stream **")
    header = _ffi.new("uint8_t[]", _MAX_HEADER)
    hlen = _ffi.new("size_t *")
    rc = _lib.aead_stream_writer_new(sp, params.c, header, _MAX_HEADER, hlen)
    params.wipe()
    if rc != 0:
        _raise(rc, who)
    return _ffi.gc(sp[0], _lib.aead_stream_free), bytes(_ffi.buffer(header, hlen[0]))


def _check(params: _Params, who: str) -> None:
    """Raises for parameters a writer would refuse."""
    s, _ = _new_writer(params, who)
    _ffi.release(s)  # freed now


class StreamWriter(io.RawIOBase):
    """Encrypts what is written to it into ``destination`` (any object with ``write``): the header at
    once, then each segment as soon as a later byte shows it is not the last; the final segment at
    ``close()``. ``close_destination``: close ``destination`` too at ``close()``."""

    _who = "StreamWriter"

    def __init__(self, destination: Any, params: _Params, *, close_destination: bool = False,
                 final_padding: int = 0) -> None:
        super().__init__()
        self._dest = destination
        self._params = params
        self._close_dest = close_destination
        self._pad = final_padding
        self._buf = bytearray()
        self._failed = False
        self._s, header = _new_writer(params, self._who)
        self._overhead = int(_lib.aead_stream_overhead(self._s))
        self._index = 0
        self._room0, self._room = self._plain_size(0), self._plain_size(1)  # (all but the first hold as much)
        self._batch = max(1, _BATCH_BYTES // self._room)  # segments per call: bounds the output buffer
        self._out = _ffi.new("uint8_t[]", int(_lib.aead_stream_segment_size(self._s, 0)) + 1)
        self._out_cap = len(self._out)
        self.header = header
        _write_all(destination, self.header)

    def _plain_size(self, index: int) -> int:
        """Plaintext bytes of segment ``index`` when it is not the last."""
        return int(_lib.aead_stream_segment_size(self._s, index)) - self._overhead

    def _seal(self, chunk: Any, final: bool, pad: int = 0) -> None:
        need = len(chunk) + pad + self._overhead + 1
        if need > self._out_cap:
            self._out = _ffi.new("uint8_t[]", need)
            self._out_cap = need
        src = _ffi.from_buffer("uint8_t[]", chunk)
        n = _lib.aead_stream_seal(self._s, src, len(chunk), pad, 1 if final else 0, self._out, self._out_cap)
        if n < 0:
            self._failed = True
            _raise(n, self._who)
        self._index += 1
        _write_all(self._dest, bytes(_ffi.buffer(self._out, n)))

    def writable(self) -> bool:
        return True

    def write(self, b: Buffer) -> int:  # type: ignore[override]
        if self.closed:
            raise ValueError("write to a closed stream")
        if self._failed:
            raise ValueError("%s: an earlier write failed; the stream is unusable" % self._who)
        buf = self._buf
        before = len(buf)
        buf += b  # one copy: a buffer changed later (or by another thread) cannot change what is sealed
        written = len(buf) - before
        # Every whole segment that more bytes follow is not the last one: sealed now, a batch per call.
        room0, room = self._room0, self._room
        while True:
            avail, take, count = len(buf), 0, 0
            if self._index == 0 and avail > room0:
                take, count = room0, 1
            if avail - take > room:
                k = min((avail - take - 1) // room, self._batch - count)
                take += k * room
                count += k
            if not count:
                return written
            self._seal_many(buf, take, count)
            del buf[:take]

    def _seal_many(self, buf: bytearray, take: int, count: int) -> None:
        need = take + count * self._overhead
        if need > self._out_cap:
            self._out = _ffi.new("uint8_t[]", need)
            self._out_cap = need
        with _ffi.from_buffer("uint8_t[]", buf) as src:  # released before buf is resized
            n = _lib.aead_stream_seal_many(self._s, src, take, 0, self._out, self._out_cap)
        if n < 0:
            self._failed = True
            _raise(n, self._who)
        self._index += count
        _write_all(self._dest, bytes(_ffi.buffer(self._out, n)))

    def close(self) -> None:
        if self.closed:
            return
        try:
            if not self._failed and getattr(self, "_s", None) is not None:
                self._seal(bytes(self._buf), True, self._pad)
        finally:
            self._buf = bytearray()
            s = getattr(self, "_s", None)
            if s is not None:
                _ffi.release(s)
                self._s = None
            super().close()
            if self._close_dest:
                self._dest.close()

    def __del__(self) -> None:  # no implicit final segment from the garbage collector
        s = getattr(self, "_s", None)
        if s is not None:
            self._failed = True
            try:
                super().close()
            except Exception:  # pragma: no cover
                pass


class StreamReader(io.RawIOBase):
    """Decrypts ``source`` (any object with ``read``). ``read``/``readinto`` return authenticated plaintext
    only; the end of the plaintext is reported (b"" / 0) only after the final segment opened.
    ``close_source``: close ``source`` too at ``close()``."""

    _who = "StreamReader"

    def __init__(self, source: Any, params: _Params, *, close_source: bool = False, initial: bytes = b"") -> None:
        super().__init__()
        self._src = source
        self._params = params
        self._close_src = close_source
        self._cbuf = bytearray(initial)
        self._eof = False
        self._done = False
        self._failed: Optional[BaseException] = None
        self._plain = b""
        self._poff = 0
        sp = _ffi.new("aead_stream **")
        hlen = _ffi.new("size_t *")
        need = 1
        while True:
            self._fill(need)
            data = bytes(self._cbuf)
            rc = _lib.aead_stream_reader_new(sp, params.c, data, len(data), hlen)
            if rc == _TOO_SMALL and hlen[0] > len(data):
                if self._eof:
                    params.wipe()
                    raise InvalidTag()  # the stream ends inside its header
                need = int(hlen[0])
                continue
            break
        params.wipe()
        if rc != 0:
            _raise(rc, self._who)
        self._s = _ffi.gc(sp[0], _lib.aead_stream_free)
        self.header = bytes(self._cbuf[:hlen[0]])
        del self._cbuf[:hlen[0]]
        self._index = 0
        self._out = _ffi.new("uint8_t[]", int(_lib.aead_stream_segment_size(self._s, 0)) + 1)

    def _fill(self, need: int) -> None:
        """Reads until the ciphertext buffer holds ``need`` bytes or the source ends."""
        while len(self._cbuf) < need and not self._eof:
            chunk = self._src.read(max(need - len(self._cbuf), 8192))
            if chunk is None:
                raise BlockingIOError("the ciphertext source would block")
            if not chunk:
                self._eof = True
            else:
                self._cbuf += chunk

    def _next(self) -> None:
        """Opens the next batch of segments (about _BATCH_BYTES, at least one) in one call: all of them
        authenticate or none is delivered."""
        first = int(_lib.aead_stream_segment_size(self._s, self._index))
        later = int(_lib.aead_stream_segment_size(self._s, self._index + 1))
        count = max(1, _BATCH_BYTES // later)
        want = first + (count - 1) * later
        self._fill(want + 1)
        final = len(self._cbuf) <= want  # the input ends within the batch: its rest is the last segment
        take = len(self._cbuf) if final else want
        if len(self._out) < take + 1:
            self._out = _ffi.new("uint8_t[]", take + 1)
        with _ffi.from_buffer("uint8_t[]", self._cbuf) as src:  # released before the buffer is resized
            n = _lib.aead_stream_open_many(self._s, src, take, 1 if final else 0, self._out, len(self._out))
        if n < 0:
            if n == _lib.AEAD_ERR_AUTH:
                self._failed = InvalidTag()
                raise InvalidTag()
            _raise(n, self._who)
        del self._cbuf[:take]
        self._index += count
        self._plain = bytes(_ffi.buffer(self._out, n))
        self._poff = 0
        if final:
            self._done = True

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:  # type: ignore[override]
        if self.closed:
            raise ValueError("read from a closed stream")
        if self._failed is not None:
            raise InvalidTag()
        while self._poff >= len(self._plain):
            if self._done:
                return 0
            self._next()
        view = memoryview(b).cast("B")
        n = min(len(view), len(self._plain) - self._poff)
        view[:n] = self._plain[self._poff:self._poff + n]
        self._poff += n
        return n

    def readall(self) -> bytes:
        parts: List[bytes] = []
        if self._poff < len(self._plain):
            parts.append(self._plain[self._poff:])
            self._poff = len(self._plain)
        while not self._done:
            if self._failed is not None:
                raise InvalidTag()
            self._next()
            parts.append(self._plain)
            self._poff = len(self._plain)
        return b"".join(parts)

    def close(self) -> None:
        if self.closed:
            return
        s = getattr(self, "_s", None)
        if s is not None:
            _ffi.release(s)
            self._s = None
        self._plain = b""
        super().close()
        if self._close_src:
            self._src.close()


# ----------------------------------------------------------------------------------------------------
# Tink


class AesGcmHkdfStreaming:
    """Tink's AES-GCM-HKDF streaming AEAD (``AesGcmHkdfStreamingKey``) on a raw key: Tink's ``StreamingAead``
    interface. ``key``: the key value (HKDF's input, at least 16 bytes and at least ``key_size``);
    ``key_size``: the derived AES key, 16 or 32; ``hkdf_hash``: "SHA1", "SHA256" or "SHA512";
    ``segment_size``: ciphertext bytes of a segment; ``first_segment_offset``: bytes of the ciphertext
    before the header that the caller keeps (the streams neither write nor read them).

    As Tink's, the streams close the destination / source when they are closed (unless
    ``close_destination=False`` / ``close_source=False``)."""

    def __init__(self, key: Buffer, *, key_size: int = 32, hkdf_hash: str = "SHA256", segment_size: int = 4096,
                 first_segment_offset: int = 0, properties: Optional[str] = None) -> None:
        if hkdf_hash not in _HASHES:
            raise ValueError("hkdf_hash must be one of SHA1, SHA256, SHA512")
        self._key = _bytes_arg(key, "key")
        self._kw = dict(key_size=key_size, hkdf_hash=_HASHES[hkdf_hash], segment_size=segment_size,
                        first_segment_offset=first_segment_offset, properties=properties)
        self._segment_size = segment_size
        _check(self._params(b""), "AesGcmHkdfStreaming")  # the parameters are checked now, as Tink's are

    def _params(self, associated_data: Any) -> _Params:
        return _Params(_lib.AEAD_STREAM_TINK_AES_GCM_HKDF, self._key, associated_data=associated_data, **self._kw)

    def new_encrypting_stream(self, ciphertext_destination: Any, associated_data: Buffer, *,
                              close_destination: bool = True) -> StreamWriter:
        """A writer of the ciphertext of what is written to it; closing it writes the final segment and
        (as Tink's, unless close_destination=False) closes ciphertext_destination."""
        return StreamWriter(ciphertext_destination, self._params(associated_data), close_destination=close_destination)

    def new_decrypting_stream(self, ciphertext_source: Any, associated_data: Buffer, *,
                              close_source: bool = True) -> StreamReader:
        """A reader of the plaintext of ciphertext_source; closing it (as Tink's, unless close_source=False)
        closes ciphertext_source."""
        return StreamReader(ciphertext_source, self._params(associated_data), close_source=close_source)

    def decrypt_segment(self, ciphertext: Buffer, associated_data: Buffer, index: int) -> bytes:
        """Random access: the plaintext of segment ``index`` of the whole ciphertext ``ciphertext``
        (a bytes-like object or an ``mmap``, ``first_segment_offset`` bytes included), authenticated."""
        view = memoryview(ciphertext).cast("B")
        off = int(self._kw["first_segment_offset"])  # type: ignore[call-overload]
        reader = _SegmentReader(view[off:], self._params(associated_data))
        try:
            return reader.segment(index)
        finally:
            reader.close()

    def read_segment(self, ciphertext_source: Any, associated_data: Buffer, index: int) -> bytes:
        """Random access on a seekable file (positioned anywhere): reads the header and segment ``index``
        only."""
        off = int(self._kw["first_segment_offset"])  # type: ignore[call-overload]
        total = ciphertext_source.seek(0, io.SEEK_END) - off
        reader = _SegmentReader(ciphertext_source, self._params(associated_data), origin=off, total=total)
        try:
            return reader.segment(index)
        finally:
            reader.close()


class _SegmentReader:
    """A reader's state for aead_stream_open_segment: the header, then segments read by position.
    ``source``: a memoryview of the stream, or a seekable file whose stream starts at ``origin`` and is
    ``total`` bytes long."""

    def __init__(self, source: Any, params: _Params, origin: int = 0, total: Optional[int] = None) -> None:
        self._view: Optional[memoryview] = source if total is None else None
        self._src = source
        self._origin = origin
        self._total = len(source) if total is None else total
        self._s = None
        sp = _ffi.new("aead_stream **")
        hlen = _ffi.new("size_t *")
        need = 1
        while True:
            head = self._read(0, min(need, self._total))
            rc = _lib.aead_stream_reader_new(sp, params.c, head, len(head), hlen)
            if rc == _TOO_SMALL and hlen[0] > len(head):
                if hlen[0] > self._total:
                    params.wipe()
                    raise InvalidTag()
                need = int(hlen[0])
                continue
            break
        params.wipe()
        if rc != 0:
            _raise(rc, "read_segment")
        self._s = _ffi.gc(sp[0], _lib.aead_stream_free)
        self._hlen = int(hlen[0])

    def _read(self, pos: int, n: int) -> bytes:
        if self._view is not None:
            return self._view[pos:pos + n].tobytes()
        self._src.seek(self._origin + pos)
        return bytes(self._src.read(n))

    def segment(self, index: int) -> bytes:
        if index < 0:
            raise ValueError("segment index must be >= 0")
        first = int(_lib.aead_stream_segment_size(self._s, 0))
        full = int(_lib.aead_stream_segment_size(self._s, 1))
        start = self._hlen + (0 if index == 0 else first + (index - 1) * full)
        size = first if index == 0 else full
        if start > self._total or (start == self._total and index > 0):
            raise IndexError("segment index out of range")
        final = start + size >= self._total
        seg = self._read(start, min(size, self._total - start))
        out = _ffi.new("uint8_t[]", len(seg) + 1)
        n = _lib.aead_stream_open_segment(self._s, index, seg, len(seg), 1 if final else 0, out, len(out))
        if n < 0:
            _raise(n, "read_segment")
        return bytes(_ffi.buffer(out, n))

    def close(self) -> None:
        if self._s is not None:
            _ffi.release(self._s)
            self._s = None


# ----------------------------------------------------------------------------------------------------
# age


class AgePayloadWriter(StreamWriter):
    """The payload of an age file under its 16-byte ``file_key``: writes the 16-byte payload nonce, then
    64 KiB ChaCha20-Poly1305 chunks. The header (recipients, MAC) before it is ``libaead.agefile``'s."""

    _who = "AgePayloadWriter"

    def __init__(self, destination: Any, file_key: Buffer, *, close_destination: bool = False) -> None:
        key = _bytes_arg(file_key, "file_key")
        if len(key) != 16:
            raise ValueError("an age file key is 16 bytes")
        super().__init__(destination, _Params(_lib.AEAD_STREAM_AGE, key), close_destination=close_destination)


class AgePayloadReader(StreamReader):
    """Reads an age payload (nonce and chunks) under its 16-byte ``file_key``."""

    _who = "AgePayloadReader"

    def __init__(self, source: Any, file_key: Buffer, *, close_source: bool = False, initial: bytes = b"") -> None:
        key = _bytes_arg(file_key, "file_key")
        if len(key) != 16:
            raise ValueError("an age file key is 16 bytes")
        super().__init__(source, _Params(_lib.AEAD_STREAM_AGE, key), close_source=close_source, initial=initial)


# ----------------------------------------------------------------------------------------------------
# RFC 8188


class RFC8188Writer(StreamWriter):
    """An "aes128gcm" body (RFC 8188): header (salt, ``rs``, ``keyid``), then records of ``rs`` bytes, the
    last one shorter; ``final_padding`` zero bytes pad the last record (it must still fit ``rs``).
    ``key``: the input keying material (16 bytes for Web Push)."""

    _who = "RFC8188Writer"

    def __init__(self, destination: Any, key: Buffer, *, rs: int = 4096, keyid: Buffer = b"",
                 final_padding: int = 0, close_destination: bool = False, properties: Optional[str] = None) -> None:
        if not isinstance(rs, int) or not 18 <= rs <= MAX_SEGMENT:
            raise ValueError("rs must be an int from 18 to %d" % MAX_SEGMENT)
        if final_padding < 0:
            raise ValueError("final_padding must be >= 0")
        super().__init__(destination, _Params(_lib.AEAD_STREAM_RFC8188, key, segment_size=rs, keyid=keyid,
                                              properties=properties),
                         close_destination=close_destination, final_padding=final_padding)

    def close(self) -> None:
        if not self.closed and not self._failed and getattr(self, "_s", None) is not None:
            rs = int(_lib.aead_stream_segment_size(self._s, 0))
            if len(self._buf) + 17 + self._pad > rs:  # the padding does not fit: fewer data in the last
                size = rs - 17 - self._pad
                if size < 0:
                    self._failed = True
                    super().close()
                    raise ValueError("final_padding does not fit a record of rs bytes")
                cut = len(self._buf) - size
                data = bytes(self._buf)
                self._seal(data[:cut], False)
                self._buf = bytearray(data[cut:])
        super().close()


class RFC8188Reader(StreamReader):
    """Reads an "aes128gcm" body; a header with an ``rs`` above ``max_rs`` is refused (ValueError) before
    anything is allocated."""

    _who = "RFC8188Reader"

    def __init__(self, source: Any, key: Buffer, *, max_rs: int = MAX_SEGMENT, close_source: bool = False,
                 properties: Optional[str] = None) -> None:
        if not isinstance(max_rs, int) or not 18 <= max_rs <= MAX_SEGMENT:
            raise ValueError("max_rs must be an int from 18 to %d" % MAX_SEGMENT)
        super().__init__(source, _Params(_lib.AEAD_STREAM_RFC8188, key, segment_size=max_rs, properties=properties),
                         close_source=close_source)

    @property
    def keyid(self) -> bytes:
        """The header's keyid."""
        return self.header[21:]

    @property
    def rs(self) -> int:
        """The header's record size."""
        return int.from_bytes(self.header[16:20], "big")


def encrypt(data: Buffer, key: Buffer, rs: int = 4096, keyid: Buffer = b"", *, final_padding: int = 0) -> bytes:
    """The "aes128gcm" body of ``data`` (http_ece's ``encrypt(content, key=key, rs=rs, keyid=keyid)``)."""
    out = io.BytesIO()
    with RFC8188Writer(out, key, rs=rs, keyid=keyid, final_padding=final_padding) as w:
        w.write(data)
    return out.getvalue()


def decrypt(body: Buffer, key: Buffer, *, max_rs: int = MAX_SEGMENT) -> bytes:
    """The plaintext of an "aes128gcm" body; :class:`libaead.InvalidTag` if it does not authenticate."""
    with RFC8188Reader(io.BytesIO(bytes(body)), key, max_rs=max_rs) as r:
        return r.readall()


if __name__ == "__main__":  # python -m libaead.stream (see libaead._stream_cli)
    import sys

    from libaead._stream_cli import main

    sys.exit(main())
