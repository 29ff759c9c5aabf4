"""The cffi implementation of the per-call methods: the "api" (compiled cffi module) and "abi"
(ffi.dlopen) paths, and the fallback when the compiled hot path (_fast.c) is absent. Same checks, same
order, same exceptions as _fast.c; the test suite runs on every path."""

import os
import sys
from typing import Any, List, Optional, Sequence

from libaead._binding import ffi as _ffi
from libaead._binding import lib as _lib
from libaead._errors import (
    LENGTHS,
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
        out = _writable(buf) if buf is not None else None
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
        outs: List[bytearray] = []
        if out is not None:
            if len(out) != total:
                raise _buffer_size(total)
            offset = 0
            for i in range(count):
                records[i].out = out + offset
                offset += records[i].out_cap
        else:
            for i in range(count):
                scratch = bytearray(records[i].out_cap)
                outs.append(scratch)
                records[i].out = _from_buffer(_U8_ARRAY, scratch, True)
                keep.append(records[i].out)
        ok = _lib.aead_seal_open_many(obj._ctx, op, records, count)
        if ok < 0:
            _raise_for(obj, ok)
        if ok != count:
            for i in range(count):
                if records[i].result < 0:
                    _raise_for(obj, records[i].result, i)
        if out is not None:
            return total
        return [bytes(b) for b in outs]
    except BaseException:
        _release(*keep)
        raise


class CffiCore:
    """The per-call methods of the classes with a nonce argument (pyca's shape)."""

    __slots__ = ("_ctx",)

    _ctx: Any
    _nonce_sizes: range
    _nonce_msg: str
    _max_plaintext: int
    _tag: int
    _ccm: bool

    # The four methods below are written out in full (no shared helper) because every Python-level call
    # costs tens of nanoseconds on a 64-byte operation. The argument conversions come first, then the
    # checks, in pyca/cryptography's order, so that the same bad input raises the same exception type.

    def encrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns ciphertext || tag."""
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
            nonce_len = len(n_)
            if nonce_len not in self._nonce_sizes:
                raise ValueError(self._nonce_msg)
            n = len(d_)
            if n > _LIMIT and n > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, n):
                raise ValueError(_CCM_LENGTH)
            out_len = n + self._tag
            if _FRESH_BYTES:
                out = bytes(out_len)
                r = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
                if r < 0:
                    _raise_for(self, r)
                return out  # type: ignore[no-any-return]
            scratch = bytearray(out_len)
            r = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True), out_len)
            if r < 0:
                _raise_for(self, r)
            return bytes(scratch)
        except BaseException:
            _release(n_, d_, a_, out)
            raise

    def decrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Verifies and returns the plaintext of ciphertext || tag; raises InvalidTag on any failure."""
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
            nonce_len = len(n_)
            if nonce_len not in self._nonce_sizes:
                raise ValueError(self._nonce_msg)
            n = len(d_)
            out_len = n - self._tag
            if out_len < 0:
                _raise_for(self, _AUTH)
            if out_len > _LIMIT and out_len > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, out_len):
                raise ValueError(_CCM_LENGTH)
            if _FRESH_BYTES and out_len != 1:
                out = bytes(out_len)
                r = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
                if r < 0:
                    _raise_for(self, r)
                return out  # type: ignore[no-any-return]
            scratch = bytearray(out_len)
            r = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, _from_buffer(_U8_ARRAY, scratch, True), out_len)
            if r < 0:
                _raise_for(self, r)
            return bytes(scratch)
        except BaseException:
            _release(n_, d_, a_, out)
            raise

    def encrypt_into(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Writes ciphertext || tag into ``buf``, which must be exactly len(data) + the tag length; returns that
        count. ``buf`` may be ``data``'s own storage (same start address) for in-place encryption."""
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
            if n > _LIMIT and n > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, n):
                raise ValueError(_CCM_LENGTH)
            out_len = n + self._tag
            if len(out) != out_len:
                raise _buffer_size(out_len)
            r: int = _seal_open(self._ctx, 1, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise_for(self, r)
            return r
        except BaseException:
            _release(n_, d_, a_, out)
            raise

    def decrypt_into(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer) -> int:
        """Verifies ciphertext || tag and writes the plaintext into ``buf``, which must be exactly
        len(data) - the tag length; returns that count. On failure ``buf`` is left zeroed."""
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
            out_len = n - self._tag
            if out_len < 0:
                _raise_for(self, _AUTH)
            if out_len > _LIMIT and out_len > self._max_plaintext:
                _raise_for(self, _TOO_LONG)
            if self._ccm and ccm_too_long(nonce_len, out_len):
                raise ValueError(_CCM_LENGTH)
            if len(out) != out_len:
                raise _buffer_size(out_len)
            r: int = _seal_open(self._ctx, 2, n_, nonce_len, a_, len(a_), d_, n, out, out_len)
            if r < 0:
                _raise_for(self, r)
            return r
        except BaseException:
            _release(n_, d_, a_, out)
            raise

    def encrypt_many(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """encrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 1, nonces, datas, associated_datas, None, self._tag)
        return result

    def decrypt_many(self, nonces: Sequence[Buffer], datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """decrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 2, nonces, datas, associated_datas, None, self._tag)
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
        out = _writable(buf) if buf is not None else None
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
        """Returns nonce (NONCE_SIZE bytes) || ciphertext || tag(16)."""
        result: bytes = _random_nonce_call(self, 1, data, associated_data, None)
        return result

    def decrypt(self, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Verifies nonce || ciphertext || tag and returns the plaintext; raises InvalidTag on any failure."""
        result: bytes = _random_nonce_call(self, 2, data, associated_data, None)
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
        result: List[bytes] = _many(self, 1, None, datas, associated_datas, None, self.OVERHEAD)
        return result

    def decrypt_many(self, datas: Sequence[Buffer],
                     associated_datas: Optional[Sequence[Optional[Buffer]]]) -> List[bytes]:
        """decrypt of every record in one C call; returns a list of bytes."""
        result: List[bytes] = _many(self, 2, None, datas, associated_datas, None, self.OVERHEAD)
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
