"""libaead.stream on its own: RFC 8188's examples, round trips through the three formats with any write and
read sizes, the segment layout (the writer holds the last full segment back), every way of cutting,
reordering, extending and changing a stream, random access, and hostile inputs."""

import base64
import io
import shutil
import struct
import threading
import time

import pytest

import libaead
from libaead import stream as st

from conftest import FIPS


def b64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


# RFC 8188 section 3.1 and 3.2 (also in tests/test_stream.cpp)
RFC8188_EXAMPLES = [
    ("yqdlZ-tYemfogSmv7Ws5PQ", "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg", 4096, b""),
    ("BO3ZVPxUlnLORbVGMpbT1Q",
     "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA", 25, b"a1"),
]


@pytest.mark.parametrize("ikm,body,rs,keyid", RFC8188_EXAMPLES)
def test_rfc8188_examples(ikm, body, rs, keyid):
    key, data = b64url(ikm), b64url(body)
    assert st.decrypt(data, key) == b"I am the walrus"
    with st.RFC8188Reader(io.BytesIO(data), key) as r:
        assert r.rs == rs and r.keyid == keyid
        assert r.read() == b"I am the walrus"
    bad = bytearray(data)
    bad[-1] ^= 1
    with pytest.raises(libaead.InvalidTag):
        st.decrypt(bytes(bad), key)
    with pytest.raises(libaead.InvalidTag):
        st.decrypt(data, bytes(16))


def _formats():
    out = [
        ("tink-16-sha256-64", lambda: st.AesGcmHkdfStreaming(b"k" * 16, key_size=16, segment_size=64)),
        ("tink-32-sha512-100", lambda: st.AesGcmHkdfStreaming(bytes(range(32)), key_size=32, hkdf_hash="SHA512",
                                                              segment_size=100)),
        ("tink-16-sha1-off", lambda: st.AesGcmHkdfStreaming(b"x" * 32, key_size=16, hkdf_hash="SHA1", segment_size=80,
                                                            first_segment_offset=5)),
        ("rfc8188-40", lambda: ("rfc8188", 40)),
        ("rfc8188-4096", lambda: ("rfc8188", 4096)),
    ]
    if not FIPS:  # age is ChaCha20-Poly1305
        out.append(("age", lambda: "age"))
    return out


FORMATS = _formats()
KEY = bytes(range(16))


def writer(fmt, dest, **kw):
    if isinstance(fmt, st.AesGcmHkdfStreaming):
        return fmt.new_encrypting_stream(dest, b"ad", close_destination=False)
    if fmt == "age":
        return st.AgePayloadWriter(dest, KEY)
    return st.RFC8188Writer(dest, KEY, rs=fmt[1], **kw)


def reader(fmt, src):
    if isinstance(fmt, st.AesGcmHkdfStreaming):
        return fmt.new_decrypting_stream(src, b"ad")
    if fmt == "age":
        return st.AgePayloadReader(src, KEY)
    return st.RFC8188Reader(src, KEY)


def seal(fmt, data, chunks=None, **kw):
    out = io.BytesIO()
    with writer(fmt, out, **kw) as w:
        if chunks is None:
            w.write(data)
        else:
            pos = 0
            for c in chunks:
                w.write(data[pos:pos + c])
                pos += c
            w.write(data[pos:])
    return out.getvalue()


def open_all(fmt, data, read_size=-1):
    with reader(fmt, io.BytesIO(data)) as r:
        if read_size < 0:
            return r.read()
        parts = []
        while True:
            b = r.read(read_size)
            if not b:
                return b"".join(parts)
            parts.append(b)


def layout(fmt, data):
    """(header length, list of segment lengths) of a sealed stream, from the format's rules."""
    if isinstance(fmt, st.AesGcmHkdfStreaming):
        hl = data[0]
        first, full = fmt._segment_size - hl - fmt._kw["first_segment_offset"], fmt._segment_size
    elif fmt == "age":
        hl, first, full = 16, 65536 + 16, 65536 + 16
    else:
        hl = 21 + data[20]
        first = full = struct.unpack(">I", data[16:20])[0]
    segs, pos, size = [], hl, first
    while True:
        n = min(size, len(data) - pos)
        segs.append(n)
        pos += n
        if pos >= len(data):
            return hl, segs
        size = full


def plain_per_segment(fmt):
    if isinstance(fmt, st.AesGcmHkdfStreaming):
        hl = 1 + fmt._kw["key_size"] + 7
        return fmt._segment_size - hl - fmt._kw["first_segment_offset"] - 16, fmt._segment_size - 16
    if fmt == "age":
        return 65536, 65536
    return fmt[1] - 17, fmt[1] - 17


@pytest.mark.parametrize("name,make", FORMATS, ids=[f[0] for f in FORMATS])
def test_round_trip_any_chunking(name, make, rng):
    fmt = make()
    first, full = plain_per_segment(fmt)
    sizes = [0, 1, first - 1, first, first + 1, first + full, first + full + 1, first + 3 * full - 1]
    sizes += [rng.randrange(0, first + 5 * full) for _ in range(15)]
    for n in sizes:
        data = rng.randbytes(n)
        chunks = [rng.randrange(0, 2 * full) for _ in range(rng.randrange(0, 6))]
        ct = seal(fmt, data, chunks)
        assert open_all(fmt, ct) == data
        assert open_all(fmt, ct, rng.randrange(1, 3 * full)) == data
        # the writer held back the last full segment: exactly the segments the data needs, the last one
        # carrying data (an empty final segment only for empty data)
        hl, segs = layout(fmt, ct)
        want = 1 if n <= first else 1 + -(-(n - first) // full)
        assert len(segs) == want, (n, segs)
        overhead = 17 if isinstance(fmt, tuple) else 16
        assert len(ct) == hl + n + len(segs) * overhead


@pytest.mark.parametrize("name,make", FORMATS, ids=[f[0] for f in FORMATS])
def test_copyfileobj_and_buffered(name, make, rng):
    fmt = make()
    first, full = plain_per_segment(fmt)
    data = rng.randbytes(first + 4 * full + 7)
    out = io.BytesIO()
    with writer(fmt, out) as w:
        shutil.copyfileobj(io.BytesIO(data), w, length=rng.randrange(1, 1000))
    back = io.BytesIO()
    with io.BufferedReader(reader(fmt, io.BytesIO(out.getvalue()))) as r:
        shutil.copyfileobj(r, back)
    assert back.getvalue() == data


def _expect_refused(fmt, ct, truth):
    """Reading ct returns a prefix of truth, segment by segment, then raises InvalidTag: never a clean end."""
    got = bytearray()
    with pytest.raises(libaead.InvalidTag):
        with reader(fmt, io.BytesIO(ct)) as r:
            while True:
                b = r.read(37)
                if not b:
                    break
                got += b
    assert truth.startswith(bytes(got))


@pytest.mark.parametrize("name,make", FORMATS, ids=[f[0] for f in FORMATS])
def test_cut_reordered_extended_changed(name, make, rng):
    fmt = make()
    first, full = plain_per_segment(fmt)
    data = rng.randbytes(first + 3 * full + rng.randrange(1, full))
    ct = seal(fmt, data)
    hl, segs = layout(fmt, ct)
    bounds = [hl]
    for s in segs:
        bounds.append(bounds[-1] + s)
    assert bounds[-1] == len(ct) and len(segs) == 5
    # cut at every segment boundary, and inside every segment and the header
    for cut in bounds[:-1] + [b + rng.randrange(1, s) for b, s in zip(bounds, segs)] + [rng.randrange(0, hl)]:
        _expect_refused(fmt, ct[:cut], data)
    # two segments swapped (the last one too)
    seg = [ct[bounds[i]:bounds[i + 1]] for i in range(len(segs))]
    for i, j in [(0, 1), (1, 2), (2, 3)]:
        if len(seg[i]) == len(seg[j]):
            swapped = list(seg)
            swapped[i], swapped[j] = seg[j], seg[i]
            _expect_refused(fmt, ct[:hl] + b"".join(swapped), data)
    # a middle segment dropped, repeated
    _expect_refused(fmt, ct[:hl] + b"".join(seg[:2] + seg[3:]), data)
    _expect_refused(fmt, ct[:hl] + b"".join(seg[:2] + seg[1:]), data)
    # extended after the final segment: a byte, a segment, the final one again
    for tail in (b"\x00", seg[1], seg[-1], ct[hl:]):
        _expect_refused(fmt, ct + tail, data)
    # one bit changed anywhere after the header's keyid (RFC 8188's keyid is not authenticated, by design)
    for _ in range(60):
        pos = rng.randrange(0, len(ct))
        bad = bytearray(ct)
        bad[pos] ^= 1 << rng.randrange(8)
        try:
            _expect_refused(fmt, bytes(bad), data)
        except ValueError as e:  # an RFC 8188 rs changed to one above the reader's bound
            assert not isinstance(fmt, st.AesGcmHkdfStreaming) and fmt != "age" and 16 <= pos < 20, (pos, e)


def test_empty_stream_and_final_only_at_close():
    for name, make in FORMATS:
        fmt = make()
        ct = seal(fmt, b"")
        assert open_all(fmt, ct) == b""
        hl, segs = layout(fmt, ct)
        assert len(segs) == 1
        _expect_refused(fmt, ct[:hl], b"")  # a header alone is not an empty stream
        # nothing of the data is out before close(): the writer holds the last segment
        out = io.BytesIO()
        first, full = plain_per_segment(fmt)
        w = writer(fmt, out)
        header = out.getvalue()
        w.write(b"a" * first)
        assert out.getvalue() == header
        w.write(b"b")
        assert len(out.getvalue()) > len(header)
        w.close()
        assert open_all(fmt, out.getvalue()) == b"a" * first + b"b"


def test_rfc8188_padding_and_keyid(rng):
    key = rng.randbytes(16)
    for _ in range(40):
        rs = rng.randrange(18, 300)
        n = rng.randrange(0, 5 * rs)
        pad = rng.randrange(0, rs - 17)
        data = rng.randbytes(n)
        keyid = rng.randbytes(rng.randrange(0, 256))
        body = st.encrypt(data, key, rs=rs, keyid=keyid, final_padding=pad)
        assert body[16:21] == struct.pack(">IB", rs, len(keyid)) and body[21:21 + len(keyid)] == keyid
        assert st.decrypt(body, key) == data
        # every record but the last is rs bytes; the last carries the padding (a record of data moves
        # ahead of it when data and padding do not fit one)
        records = len(body) - 21 - len(keyid)
        last = records % rs or rs
        assert 17 + pad <= last <= rs
        d = rs - 17
        full = -(-n // d) if n else 1  # records without padding
        assert (records - last) // rs in (full - 1, full)
    with pytest.raises(ValueError):
        st.encrypt(b"x", key, rs=17)
    with pytest.raises(ValueError):
        st.encrypt(b"x", key, rs=st.MAX_SEGMENT + 1)
    with pytest.raises(ValueError):
        st.encrypt(b"x", key, rs=100, final_padding=100)


def test_huge_rs_refused():
    key = bytes(16)
    body = st.encrypt(b"hello" * 100, key, rs=1000)
    for rs in (st.MAX_SEGMENT + 1, 0xFFFFFFFF):
        with pytest.raises(ValueError, match="record size"):
            st.decrypt(body[:16] + struct.pack(">I", rs) + body[20:], key)
    with pytest.raises(ValueError, match="record size"):
        st.decrypt(body, key, max_rs=999)
    assert st.decrypt(body, key, max_rs=1000) == b"hello" * 100
    for rs in (0, 17):
        with pytest.raises(libaead.InvalidTag):
            st.decrypt(body[:16] + struct.pack(">I", rs) + body[20:], key)
    for cut in range(0, 21):
        with pytest.raises(libaead.InvalidTag):
            st.decrypt(body[:cut], key)


def test_tink_random_access(rng):
    for key_size, h, seg, off in [(16, "SHA256", 64, 0), (32, "SHA1", 128, 3), (32, "SHA512", 4096, 0)]:
        t = st.AesGcmHkdfStreaming(rng.randbytes(32), key_size=key_size, hkdf_hash=h, segment_size=seg,
                                   first_segment_offset=off)
        first, full = seg - (1 + key_size + 7) - off - 16, seg - 16
        for n in (0, first, first + 1, first + full, first + 5 * full + 3):
            data = rng.randbytes(n)
            out = io.BytesIO()
            out.write(b"P" * off)  # the caller's bytes before the header
            with t.new_encrypting_stream(out, b"ad", close_destination=False) as w:
                w.write(data)
            ct = out.getvalue()
            cuts = [0, first] + [first + k * full for k in range(1, n // max(full, 1) + 2)]
            count = 1 if n <= first else 1 + -(-(n - first) // full)
            for i in range(count):
                want = data[cuts[i]:cuts[i + 1]] if i + 1 < len(cuts) else data[cuts[i]:]
                assert t.decrypt_segment(ct, b"ad", i) == want
                assert t.read_segment(io.BytesIO(ct), b"ad", i) == want
            with pytest.raises(IndexError):
                t.decrypt_segment(ct, b"ad", count)
            with pytest.raises(libaead.InvalidTag):
                t.decrypt_segment(ct, b"other", 0)
            if count > 1:
                bad = bytearray(ct)
                bad[-1] ^= 1
                with pytest.raises(libaead.InvalidTag):
                    t.decrypt_segment(bytes(bad), b"ad", count - 1)
                assert t.decrypt_segment(bytes(bad), b"ad", 0) == data[:first]
                # a segment that is not the last does not open as the last (the stream cut after it)
                with pytest.raises(libaead.InvalidTag):
                    t.decrypt_segment(ct[:off + ct[off] + (first + 16)], b"ad", 0)


def test_tink_arguments():
    with pytest.raises(ValueError):
        st.AesGcmHkdfStreaming(b"k" * 16, key_size=32)
    with pytest.raises(ValueError):
        st.AesGcmHkdfStreaming(b"k" * 16, key_size=24)
    with pytest.raises(ValueError):
        st.AesGcmHkdfStreaming(b"k" * 16, hkdf_hash="MD5")
    t = st.AesGcmHkdfStreaming(b"k" * 32)
    with pytest.raises(TypeError):
        t.new_encrypting_stream(io.BytesIO(), "text")
    out = io.BytesIO()
    w = t.new_encrypting_stream(out, b"ad")
    w.write(b"x")
    w.close()
    w.close()
    assert out.closed  # Tink's streams close the destination
    with pytest.raises(ValueError):
        w.write(b"y")


def test_buffer_changed_while_writing(rng):
    """Another thread rewrites the buffer being written: the stream still opens, to bytes the buffer held."""
    for name, make in FORMATS:
        fmt = make()
        buf = bytearray(b"\x01" * 50_000)
        stop = threading.Event()

        def scribble():
            v = 2
            while not stop.is_set():
                buf[:] = bytes([v]) * len(buf)
                v = v % 250 + 2
                time.sleep(0)

        t = threading.Thread(target=scribble)
        t.start()
        try:
            out = io.BytesIO()
            with writer(fmt, out) as w:
                for _ in range(8):
                    w.write(buf)
                    w.write(memoryview(buf)[:rng.randrange(0, 1000)])
        finally:
            stop.set()
            t.join()
        pt = open_all(fmt, out.getvalue())
        assert len(pt) >= 8 * 50_000 and 0 not in pt and set(pt) <= set(range(1, 252))


def test_reader_refuses_after_failure():
    fmt = st.AesGcmHkdfStreaming(b"k" * 16, key_size=16, segment_size=64)
    ct = seal(fmt, b"z" * 500)
    bad = bytearray(ct)
    bad[200] ^= 1
    r = reader(fmt, io.BytesIO(bytes(bad)))
    with pytest.raises(libaead.InvalidTag):
        r.read()
    with pytest.raises(libaead.InvalidTag):
        r.read(1)
    r.close()
