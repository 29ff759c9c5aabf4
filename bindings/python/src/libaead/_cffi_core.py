"""The cffi implementation of the per-call methods: the "api" (compiled cffi module) and "abi"
(ffi.dlopen) paths, and the fallback when the compiled hot path (_fast.c) is absent. Same checks, same
order, same exceptions as _fast.c; the test suite runs on every path."""

import os
import sys
from typing import Any, List, NoReturn, Optional, Sequence

from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib
from libaead._errors import (
    LENGTHS,
    SIV_EMPTY,
    SIV_MAX_COMPONENTS,
    not_a_list,
    siv_components,
    batch_too_large as _batch_too_large,
    buffer_size as _buffer_size,
    raise_converted,
    raise_for as _raise_for,
    raise_named,
)
from libaead._types import Buffer

_seal_open = _lib.aead_seal_open
_from_buffer = _ffi.from_buffer
_U8_ARRAY = _ffi.typeof("uint8_t[]")
_CCM_LENGTH = "Data too long for nonce"  # pyca's message (AES-CCM, RFC 3610 section 2.1)
_EMPTY = b""
_EMPTY_U8 = _ffi.new("uint8_t[1]")
_AUTH = int(_lib.AEAD_ERR_AUTH)
_TOO_LONG = int(_lib.AEAD_ERR_TOO_LONG)
# The smallest plaintext limit of any algorithm: a length at most this passes without looking up the
# object's own limit (``_max_plaintext``), so the common case costs one comparison with a constant.
_LIMIT = min(int(_lib.AEAD_GCM_MAX_PLAINTEXT), int(_lib.AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT),
             int(_lib.AEAD_ONE_UPDATE_MAX))
_MAXSIZE = sys.maxsize
# The ``buf`` argument of the calls that return new objects (an _into call's buf=None is a TypeError).
_NO_BUF: Any = object()
_CDATA = _ffi.CData

# Return values are written straight into a freshly created ``bytes`` object that nothing else
# references yet (what C extensions do with PyBytes_FromStringAndSize(NULL, n)): it saves an
# allocation and a copy per call. This relies on CPython passing a bytes object's own storage to a
# ``uint8_t *`` parameter, and on ``bytes(n)`` being a new, unshared object (``bytes(0)`` is the shared
# empty object, but a 0-byte result writes nothing; 1-byte results take the copy path in case an
# interpreter caches them). Other interpreters take the bytearray-and-copy path.
_FRESH_BYTES = sys.implementation.name == "cpython" and os.environ.get("LIBAEAD_NO_FRESH_BYTES", "") in ("", "0")


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


def _release(*views: Any) -> None:
    """Releases the buffers that ffi.from_buffer holds before an exception leaves the method: the
    exception's traceback keeps the frame (and its cdata) alive, and a garbage collection that then
    clears an exporting memoryview before the cdata crashes CPython (seen in memory_dealloc)."""
    for v in views:
        if isinstance(v, _CDATA):
            try:
                _ffi.release(v)
            except (TypeError, ValueError):  # not a from_buffer object, or already released
                pass


def ccm_too_long(nonce_len: int, plain_len: int) -> bool:
    """AES-CCM (nonce_len 7..13, already checked): a message of 2**(8 * (15 - nonce_len)) bytes or more
    does not fit its length field."""
    return plain_len >> (8 * (15 - nonce_len)) != 0


def _writable(buf: Any) -> Any:
    try:
        return _from_buffer(_U8_ARRAY, buf, True)
    except BufferError as e:
        raise _buffer_error(buf, e) from None


def _batch_outputs(records: Any, count: int, out: Any, total: int, keep: List[Any]) -> List[bytearray]:
    """Points each record at its output: consecutive parts of ``out`` (exactly ``total`` bytes), or one new
    bytearray per record (returned; their views kept in ``keep``)."""
    outs: List[bytearray] = []
    if out is not None:
        if len(out) != total:
            raise _buffer_size(total)
        offset = 0
        for i in range(count):
            records[i].out = out + offset
            offset += records[i].out_cap
        return outs
    for i in range(count):
        scratch = bytearray(records[i].out_cap)
        outs.append(scratch)
        records[i].out = _from_buffer(_U8_ARRAY, scratch, True)
        keep.append(records[i].out)
    return outs


def _batch_results(obj: Any, op: int, ok: int, records: Any, count: int, failed: Any) -> None:
    """Raises for a refused batch, or for its first failing record (through ``failed(obj, op, code, index)``
    when given)."""
    if ok < 0:
        _raise_for(obj, ok)
    if ok != count:
        for i in range(count):
            r = records[i].result
            if r < 0:
                if failed is not None:
                    failed(obj, op, r, i)
                _raise_for(obj, r, i)


def _many(obj: Any, op: int, nonces: Optional[Sequence[Buffer]], datas: Sequence[Buffer],
          associated_datas: Optional[Sequence[Optional[Buffer]]], buf: Any, overhead: int) -> Any:
    """aead_seal_open_many over cffi: every argument converted and checked first (nothing is done when
    one is bad), then one C call; the first failing record raises, naming its index."""
    keep: List[Any] = []
    try:
        datas = tuple(datas)
        count = len(datas)
        nonce_list = tuple(nonces) if nonces is not None else None
        aads = tuple(associated_datas) if associated_datas is not None else None
        if (nonce_list is not None and len(nonce_list) != count) or (aads is not None and len(aads) != count):
            raise ValueError(LENGTHS)
        out = _writable(buf) if buf is not _NO_BUF else None
        keep.append(out)
        records = _ffi.new("aead_record[]", count)
        total = 0
        for i in range(count):
            rec = records[i]
            try:
                if nonce_list is not None:
                    n_ = _from_buffer(_U8_ARRAY, nonce_list[i])
                    keep.append(n_)
                    rec.nonce, rec.nonce_len = n_, len(n_)
                d_ = _from_buffer(_U8_ARRAY, datas[i])
                keep.append(d_)
                a = aads[i] if aads is not None else None
                if a is None:
                    a_ = _EMPTY_U8  # never released: it is not a from_buffer view
                else:
                    a_ = _from_buffer(_U8_ARRAY, a)
                    keep.append(a_)
            except (TypeError, BufferError) as e:
                raise_converted(e, i)
            setattr(rec, "in", d_)  # a Python keyword as a field name
            rec.in_len = len(d_)
            if nonce_list is not None and rec.nonce_len not in obj._nonce_sizes:
                _raise_for(obj, int(_lib.AEAD_ERR_NONCE_SIZE), i)
            rec.aad, rec.aad_len = a_, 0 if a is None else len(a_)
            in_len = len(d_)  # the view's length, taken once (rec.in_len holds the same)
            out_len = in_len + overhead if op == 1 else in_len - overhead
            if out_len < 0:
                _raise_for(obj, _AUTH, i)
            if (in_len if op == 1 else out_len) > obj._max_plaintext:
                _raise_for(obj, _TOO_LONG, i)
            if obj._ccm and ccm_too_long(rec.nonce_len, in_len if op == 1 else out_len):
                raise_named(ValueError(_CCM_LENGTH), i)
            total += out_len
            if total > _MAXSIZE:  # as _fast.c: a total no Py_ssize_t (nor any buffer) can hold
                raise _batch_too_large(obj)
            rec.out_cap = out_len
        outs = _batch_outputs(records, count, out, total, keep)
        ok = _lib.aead_seal_open_many(obj._ctx, op, records, count)
        _batch_results(obj, op, ok, records, count, None)
        if out is not None:
            return total
        return [bytes(b) for b in outs]
    except BaseException:
        _release(*keep)
        raise


def _named(method: Any, name: str, doc: str) -> Any:
    """A method that _one_shot or _into made, named and documented as CffiCore's own (the name shows in
    the TypeError of a call with wrong arguments)."""
    method.__name__, method.__qualname__, method.__doc__ = name, "CffiCore." + name, doc
    return method


def _one_shot(op: int, name: str, doc: str) -> Any:
    """CffiCore.encrypt (op 1) and .decrypt (op 2), which return a new bytes object. One body for both:
    op is fixed per method by the closure, not passed to a shared helper, because every Python-level
    call costs tens of nanoseconds on a 64-byte operation. The argument conversions come first, then the
    checks, in pyca/cryptography's order, so that the same bad input raises the same exception type."""
    seal = op == 1

    def method(self: Any, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        n_: Any = None
        d_: Any = None
        a_: Any = None
        try:
            n_ = nonce if type(nonce) is bytes else _from_buffer(nonce)
            d_ = data if type(data) is bytes else _from_buffer(data)
            a_ = (
                _EMPTY if associated_data is None
                else associated_data if type(associated_data) is bytes
                else _from_buffer(associated_data)
            )
            nonce_len = len(n_)
            if nonce_len not in self._nonce_sizes:
                raise ValueError(self._nonce_msg)
            n = len(d_)
            if seal:
                plain = n
                out_len = n + self._tag
            else:
                plain = out_len = n - self._tag
                if out_len < 0:
                    _raise_for(self, _AUTH)
            if plain > _LIMIT and plain > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, plain):
                raise ValueError(_CCM_LENGTH)
            if _FRESH_BYTES and out_len != 1:
                out = bytes(out_len)
                r = _seal_open(self._ctx, op, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
                if r < 0:
                    _raise_for(self, r)
                return out
            scratch = bytearray(out_len)
            r = _seal_open(self._ctx, op, n_, nonce_len, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True),
                           out_len)
            if r < 0:
                _raise_for(self, r)
            return bytes(scratch)
        except BaseException:
            _release(n_, d_, a_)
            raise

    return _named(method, name, doc)


def _into(op: int, name: str, doc: str) -> Any:
    """CffiCore.encrypt_into (op 1) and .decrypt_into (op 2): as _one_shot, into the caller's buffer."""
    seal = op == 1

    def method(self: Any, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        n_: Any = None
        d_: Any = None
        a_: Any = None
        out: Any = None
        try:
            n_ = nonce if type(nonce) is bytes else _from_buffer(nonce)
            d_ = data if type(data) is bytes else _from_buffer(data)
            a_ = (
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
            if seal:
                plain = n
                out_len = n + self._tag
            else:
                plain = out_len = n - self._tag
                if out_len < 0:
                    _raise_for(self, _AUTH)
            if plain > _LIMIT and plain > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, plain):
                raise ValueError(_CCM_LENGTH)
            if len(out) != out_len:
                raise _buffer_size(out_len)
            r: int = _seal_open(self._ctx, op, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise_for(self, r)
            return r
        except BaseException:
            _release(n_, d_, a_, out)
            raise

    return _named(method, name, doc)


class CffiCore:
    """The per-call methods of the classes with a nonce argument (pyca's shape)."""

    __slots__ = ("_ctx",)

    _ctx: Any
    _nonce_sizes: range
    _nonce_msg: str
    _max_plaintext: int
    _tag: int
    _ccm: bool

    encrypt = _one_shot(1, "encrypt", "Returns ciphertext || tag.")
    decrypt = _one_shot(2, "decrypt", "Verifies and returns the plaintext of ciphertext || tag; raises InvalidTag on "
                        "any failure.")
    encrypt_into = _into(1, "encrypt_into", "Writes ciphertext || tag into ``buf``, which must be exactly len(data) + "
                         "the tag length; returns that count. ``buf`` may be ``data``'s own storage (same start "
                         "address) for in-place encryption.")
    decrypt_into = _into(2, "decrypt_into", "Verifies ciphertext || tag and writes the plaintext into ``buf``, which "
                         "must be exactly len(data) - the tag length; returns that count. On failure ``buf`` is left "
                         "zeroed.")

    def encrypt_many(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """encrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 1, nonces, datas, associated_datas, _NO_BUF, self._tag)
        return result

    def decrypt_many(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """decrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 2, nonces, datas, associated_datas, _NO_BUF, self._tag)
        return result

    def encrypt_many_into(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                          associated_datas: Optional[Sequence[Optional[Buffer]]], buf: Buffer) -> int:
        """The records' ciphertexts back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _many(self, 1, nonces, datas, associated_datas, buf, self._tag)
        return total

    def decrypt_many_into(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                          associated_datas: Optional[Sequence[Optional[Buffer]]], buf: Buffer) -> int:
        """The records' plaintexts back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _many(self, 2, nonces, datas, associated_datas, buf, self._tag)
        return total


def _random_nonce_call(obj: Any, op: int, data: Buffer, associated_data: Optional[Buffer], buf: Any) -> Any:
    d_: Any = None
    a_: Any = None
    out: Any = None
    try:
        d_ = data if type(data) is bytes else _from_buffer(data)
        a_ = (
            _EMPTY if associated_data is None
            else associated_data if type(associated_data) is bytes
            else _from_buffer(associated_data)
        )
        out = _writable(buf) if buf is not _NO_BUF else None
        n = len(d_)
        overhead: int = obj.OVERHEAD
        out_len = n + overhead if op == 1 else n - overhead
        if out_len < 0:
            _raise_for(obj, _AUTH)
        plain = n if op == 1 else out_len
        if plain > _LIMIT and plain > obj._max_plaintext:
            _raise_for(obj, _TOO_LONG)
        if out is not None:
            if len(out) != out_len:
                raise _buffer_size(out_len)
            r: int = _seal_open(obj._ctx, op, _ffi.NULL, 0, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise_for(obj, r)
            return r
        scratch = bytearray(out_len)
        r = _seal_open(obj._ctx, op, _ffi.NULL, 0, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True), out_len)
        if r < 0:
            _raise_for(obj, r)
        return bytes(scratch)
    except BaseException:
        _release(d_, a_, out)
        raise


class CffiRandomNonceCore:
    """The per-call methods of AEAD_POLICY_RANDOM_NONCE: no nonce argument, output nonce || ct || tag."""

    __slots__ = ("_ctx",)

    _ctx: Any
    _max_plaintext: int
    OVERHEAD: int

    def encrypt(self, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns nonce (NONCE_SIZE bytes) || ciphertext || tag (16 bytes; Aegis*: tag_length)."""
        result: bytes = _random_nonce_call(self, 1, data, associated_data, _NO_BUF)
        return result

    def decrypt(self, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Verifies nonce || ciphertext || tag and returns the plaintext; raises InvalidTag on any failure."""
        result: bytes = _random_nonce_call(self, 2, data, associated_data, _NO_BUF)
        return result

    def encrypt_into(self, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Writes nonce || ciphertext || tag into buf (exactly len(data) + OVERHEAD bytes); returns that count."""
        result: int = _random_nonce_call(self, 1, data, associated_data, buf)
        return result

    def decrypt_into(self, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Writes the plaintext into buf (exactly len(data) - OVERHEAD bytes); returns that count. On failure buf
        is left zeroed."""
        result: int = _random_nonce_call(self, 2, data, associated_data, buf)
        return result

    def encrypt_many(self, datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """encrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 1, None, datas, associated_datas, _NO_BUF, self.OVERHEAD)
        return result

    def decrypt_many(self, datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """decrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 2, None, datas, associated_datas, _NO_BUF, self.OVERHEAD)
        return result

    def encrypt_many_into(self, datas: Sequence[Buffer], associated_datas: Optional[Sequence[Optional[Buffer]]],
                          buf: Buffer) -> int:
        """The records' outputs back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _many(self, 1, None, datas, associated_datas, buf, self.OVERHEAD)
        return total

    def decrypt_many_into(self, datas: Sequence[Buffer], associated_datas: Optional[Sequence[Optional[Buffer]]],
                          buf: Buffer) -> int:
        """The records' plaintexts back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _many(self, 2, None, datas, associated_datas, buf, self.OVERHEAD)
        return total


# ---- AES-SIV (library 1.3): associated data as a list of components, aead_seal_open_v ----

try:  # ABI mode on a library older than 1.3.0 has neither (AESSIV then refuses in its constructor)
    _seal_open_v: Any = _lib.aead_seal_open_v
    _seal_open_many_v: Any = _lib.aead_seal_open_many_v
except AttributeError:  # pragma: no cover - an older library
    _seal_open_v = _seal_open_many_v = None
_SIV = 16
_ONE_MAX = int(_lib.AEAD_ONE_UPDATE_MAX)
_UNSUPPORTED = int(_lib.AEAD_ERR_UNSUPPORTED)


def _siv_list(ad: Any, index: int = -1) -> Any:
    """associated_data (None or a list) as a tuple of its components (None: none)."""
    if ad is None:
        return None
    exc: Optional[Exception] = None
    items = None
    if not isinstance(ad, list):
        exc = not_a_list(ad)
    else:
        items = tuple(ad)  # one snapshot: another thread changing the list changes nothing below
        if len(items) > SIV_MAX_COMPONENTS:
            exc = siv_components(len(items))
    if exc is not None:
        if index >= 0:
            raise_named(exc, index)
        raise exc
    return items


def _siv_fill(obj: Any, items: Any, bufs: Any, keep: List[Any], index: int = -1) -> int:
    """The components into the aead_buf array `bufs` (their views kept alive in `keep`); returns their
    summed length."""
    total = 0
    for j, c in enumerate(items):
        try:
            v = _from_buffer(_U8_ARRAY, c)
        except (TypeError, BufferError) as e:
            if index >= 0:
                raise_converted(e, index)
            raise
        keep.append(v)
        n = len(v)  # read once
        if n > _ONE_MAX:
            _raise_for(obj, _TOO_LONG, index)
        bufs[j].data = v
        bufs[j].len = n
        total += n
    return total


def _siv_check(obj: Any, op: int, n: int, index: int = -1) -> int:
    """pyca's length checks, in its order; returns the output length."""
    if op == 1:
        if n > _ONE_MAX:
            _raise_for(obj, _TOO_LONG, index)
        if n == 0 and obj._siv_no_empty:
            _siv_empty(index)
        return n + _SIV
    if n < _SIV:
        _raise_for(obj, _AUTH, index)
    if n - _SIV > _ONE_MAX:
        _raise_for(obj, _TOO_LONG, index)
    return n - _SIV


def _siv_empty(index: int = -1) -> NoReturn:
    if index >= 0:
        raise_named(ValueError(SIV_EMPTY), index)
    raise ValueError(SIV_EMPTY)


def _siv_failed(obj: Any, op: int, r: int, index: int = -1) -> NoReturn:
    """A refusal of the library: AEAD_ERR_UNSUPPORTED is an empty message on a libcrypto < 3.5 (a seal:
    pyca's ValueError; an open: InvalidTag, as pyca's OpenSSL fails it there)."""
    if r == _UNSUPPORTED:
        if op == 1:
            _siv_empty(index)
        r = _AUTH
    _raise_for(obj, r, index)


def _siv_call(obj: Any, op: int, data: Buffer, associated_data: Any, buf: Any) -> Any:
    d_: Any = None
    out: Any = None
    keep: List[Any] = []
    try:
        d_ = data if type(data) is bytes else _from_buffer(data)
        if associated_data is not None and not isinstance(associated_data, list):
            raise not_a_list(associated_data)
        out = _writable(buf) if buf is not _NO_BUF else None
        n = len(d_)
        out_len = _siv_check(obj, op, n)
        if out is not None and len(out) != out_len:
            raise _buffer_size(out_len)
        items = _siv_list(associated_data)
        if items:
            bufs = _ffi.new("aead_buf[]", len(items))
            _siv_fill(obj, items, bufs, keep)
            count = len(items)
        else:
            bufs, count = _ffi.NULL, 0
        if out is not None:
            r: int = _seal_open_v(obj._ctx, op, _ffi.NULL, 0, bufs, count, d_, n, out, out_len)
            if r < 0:
                _siv_failed(obj, op, r)
            return r
        if _FRESH_BYTES and out_len != 1:
            fresh = bytes(out_len)
            r = _seal_open_v(obj._ctx, op, _ffi.NULL, 0, bufs, count, d_, n, fresh, out_len)
            if r < 0:
                _siv_failed(obj, op, r)
            return fresh
        scratch = bytearray(out_len)
        r = _seal_open_v(obj._ctx, op, _ffi.NULL, 0, bufs, count, d_, n, _from_buffer(_U8_ARRAY, scratch, True),
                         out_len)
        if r < 0:
            _siv_failed(obj, op, r)
        return bytes(scratch)
    except BaseException:
        _release(d_, out, *keep)
        raise


def _siv_many(obj: Any, op: int, datas: Sequence[Buffer], associated_datas: Any, buf: Any) -> Any:
    """aead_seal_open_many_v over cffi: every record converted and checked first (nothing is done when
    one is bad), then one C call; the first failing record raises, naming its index."""
    keep: List[Any] = []
    try:
        datas = tuple(datas)
        count = len(datas)
        aads = tuple(associated_datas) if associated_datas is not None else None
        if aads is not None and len(aads) != count:
            raise ValueError(LENGTHS)
        out = _writable(buf) if buf is not _NO_BUF else None
        keep.append(out)
        records = _ffi.new("aead_record_v[]", count)
        lists = []
        total = 0
        for i in range(count):
            rec = records[i]
            try:
                d_ = _from_buffer(_U8_ARRAY, datas[i])
            except (TypeError, BufferError) as e:
                raise_converted(e, i)
            keep.append(d_)
            items = _siv_list(aads[i] if aads is not None else None, i)
            lists.append(items)
            setattr(rec, "in", d_)  # a Python keyword as a field name
            in_len = len(d_)
            rec.in_len = in_len
            out_len = _siv_check(obj, op, in_len, i)
            total += out_len
            if total > _MAXSIZE:
                raise _batch_too_large(obj)
            rec.out_cap = out_len
        for i in range(count):
            items = lists[i]
            if items:
                bufs = _ffi.new("aead_buf[]", len(items))
                keep.append(bufs)
                _siv_fill(obj, items, bufs, keep, i)
                records[i].aad, records[i].aad_count = bufs, len(items)
        outs = _batch_outputs(records, count, out, total, keep)
        ok = _seal_open_many_v(obj._ctx, op, records, count)
        _batch_results(obj, op, ok, records, count, _siv_failed)
        if out is not None:
            return total
        return [bytes(b) for b in outs]
    except BaseException:
        _release(*keep)
        raise


class CffiSivCore:
    """The per-call methods of AESSIV (pyca's shape: no nonce, associated data a list of components)."""

    __slots__ = ("_ctx",)

    _ctx: Any
    _siv_no_empty: bool

    def encrypt(self, data: Buffer, associated_data: Optional[List[Buffer]]) -> bytes:
        """Returns SIV(16) || ciphertext; associated_data is a list of components (or None)."""
        result: bytes = _siv_call(self, 1, data, associated_data, _NO_BUF)
        return result

    def decrypt(self, data: Buffer, associated_data: Optional[List[Buffer]]) -> bytes:
        """Verifies SIV || ciphertext and returns the plaintext; raises InvalidTag on any failure."""
        result: bytes = _siv_call(self, 2, data, associated_data, _NO_BUF)
        return result

    def encrypt_into(self, data: Buffer, associated_data: Optional[List[Buffer]], buf: Buffer) -> int:
        """Writes SIV || ciphertext into buf (exactly len(data) + 16); returns that count."""
        result: int = _siv_call(self, 1, data, associated_data, buf)
        return result

    def decrypt_into(self, data: Buffer, associated_data: Optional[List[Buffer]], buf: Buffer) -> int:
        """Writes the plaintext into buf (exactly len(data) - 16); returns that count. On failure buf is left
        zeroed."""
        result: int = _siv_call(self, 2, data, associated_data, buf)
        return result

    def encrypt_many(self, datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[List[Buffer]]]]) -> List[bytes]:
        """encrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _siv_many(self, 1, datas, associated_datas, _NO_BUF)
        return result

    def decrypt_many(self, datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[List[Buffer]]]]) -> List[bytes]:
        """decrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _siv_many(self, 2, datas, associated_datas, _NO_BUF)
        return result

    def encrypt_many_into(self, datas: Sequence[Buffer],
                          associated_datas: Optional[Sequence[Optional[List[Buffer]]]], buf: Buffer) -> int:
        """The records' outputs back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _siv_many(self, 1, datas, associated_datas, buf)
        return total

    def decrypt_many_into(self, datas: Sequence[Buffer],
                          associated_datas: Optional[Sequence[Optional[List[Buffer]]]], buf: Buffer) -> int:
        """The records' plaintexts back to back in buf (exactly the sum of their lengths); returns the total."""
        total: int = _siv_many(self, 2, datas, associated_datas, buf)
        return total
