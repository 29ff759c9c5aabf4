"""libaead.stream against the formats' own implementations, both directions, on random inputs:
http_ece (RFC 8188 "aes128gcm", PyPI http_ece 1.2.1) and Tink Python's AES-GCM-HKDF streaming AEAD
(PyPI tink 1.11.0, built from a cleartext keyset holding the same raw key). Pinned in
tests/requirements-stream.txt."""

import io

import http_ece
import pytest

import libaead
from libaead import stream as st

from conftest import report_vectors

COUNT = 200


def _sizes(rng, rs):
    """Body sizes around record boundaries (the data of a record is rs - 17 bytes) and random ones, up to
    several records."""
    d = rs - 17
    fixed = [1, d - 1, d, d + 1, 2 * d, 2 * d + 1, 5 * d - 1]
    return fixed + [rng.randrange(1, 6 * d + 2) for _ in range(COUNT - len(fixed))]


def _keyid(rng):
    """http_ece decodes the keyid as UTF-8: printable ASCII."""
    return bytes(rng.randrange(0x21, 0x7F) for _ in range(rng.randrange(0, 40)))


def test_http_ece_to_libaead(rng):
    checked = 0
    for n in _sizes(rng, 4096)[:COUNT // 2] + [None] * (COUNT - COUNT // 2):
        rs = 4096 if n is not None else rng.choice([18, 19, 25, 64, 100, 1000, rng.randrange(18, 3000)])
        if n is None:
            n = rng.randrange(1, 6 * (rs - 17) + 2)
        key, salt, data = rng.randbytes(16), rng.randbytes(16), rng.randbytes(n)
        keyid = _keyid(rng)
        body = http_ece.encrypt(data, salt=salt, key=key, rs=rs, keyid=keyid.decode("ascii"), version="aes128gcm")
        assert body[:16] == salt
        assert st.decrypt(body, key) == data
        with st.RFC8188Reader(io.BytesIO(body), key) as r:
            assert r.rs == rs and r.keyid == keyid
            got = b"".join(iter(lambda: r.read(rng.randrange(1, 5000)), b""))
        assert got == data
        checked += 1
    assert checked >= COUNT
    report_vectors("interop http_ece 1.2.1 -> libaead (random rs, keyids, multi-record bodies)", checked, 0)


def test_http_ece_empty_body_differs():
    """http_ece writes no record for empty content; RFC 8188 needs a last record (delimiter 2): libaead
    writes one, http_ece reads it, and libaead refuses http_ece's record-less body (a cut stream)."""
    key = bytes(range(16))
    body = http_ece.encrypt(b"", key=key, version="aes128gcm")
    assert len(body) == 21
    with pytest.raises(libaead.InvalidTag):
        st.decrypt(body, key)
    assert http_ece.decrypt(st.encrypt(b"", key), key=key, version="aes128gcm") == b""


def test_libaead_to_http_ece(rng):
    checked = 0
    for i in range(COUNT):
        rs = rng.choice([18, 25, 64, 100, 1000, 4096, rng.randrange(18, 5000)])
        d = rs - 17
        n = rng.choice([0, 1, d, d + 1, 2 * d, rng.randrange(0, 6 * d + 2), rng.randrange(0, 6 * d + 2)])
        pad = rng.randrange(0, d) if rng.random() < 0.5 else 0
        key, data = rng.randbytes(16), rng.randbytes(n)
        keyid = _keyid(rng)
        body = st.encrypt(data, key, rs=rs, keyid=keyid, final_padding=pad)
        assert http_ece.decrypt(body, key=key, version="aes128gcm") == data
        checked += 1
    assert checked >= COUNT
    report_vectors("interop libaead -> http_ece 1.2.1 (random rs, keyids, final padding)", checked, 0)


def test_http_ece_refuses_what_libaead_refuses(rng):
    """Bodies cut at a record boundary, with a record dropped, or extended: both sides refuse each one
    (http_ece raises on the delimiter or the tag; libaead raises InvalidTag)."""
    for _ in range(30):
        rs = rng.randrange(30, 200)
        key, data = rng.randbytes(16), rng.randbytes(rng.randrange(3 * (rs - 17) + 1, 6 * (rs - 17)))
        body = st.encrypt(data, key, rs=rs)
        records = [body[21 + i:21 + i + rs] for i in range(0, len(body) - 21, rs)]
        for bad in (body[:21] + b"".join(records[:2]),                      # cut at a boundary
                    body[:21] + b"".join(records[:1] + records[2:]),        # a record dropped
                    body[:21] + b"".join(records[1:]),                      # the first dropped
                    body + records[-1]):                                   # extended
            with pytest.raises(libaead.InvalidTag):
                st.decrypt(bad, key)
            with pytest.raises(Exception):
                http_ece.decrypt(bad, key=key, version="aes128gcm")


# ---------------------------------------------------------------------------------------------------- Tink


def tink_primitive(raw, key_size, hkdf_hash, segment_size):
    import tink
    from tink import proto_keyset_format, secret_key_access, streaming_aead
    from tink.proto import aes_gcm_hkdf_streaming_pb2, common_pb2, tink_pb2

    streaming_aead.register()
    params = aes_gcm_hkdf_streaming_pb2.AesGcmHkdfStreamingParams(
        ciphertext_segment_size=segment_size, derived_key_size=key_size,
        hkdf_hash_type=getattr(common_pb2, hkdf_hash))
    key = aes_gcm_hkdf_streaming_pb2.AesGcmHkdfStreamingKey(version=0, key_value=raw, params=params)
    keyset = tink_pb2.Keyset(primary_key_id=42, key=[tink_pb2.Keyset.Key(
        key_data=tink_pb2.KeyData(type_url="type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey",
                                  value=key.SerializeToString(), key_material_type=tink_pb2.KeyData.SYMMETRIC),
        status=tink_pb2.ENABLED, key_id=42, output_prefix_type=tink_pb2.RAW)])
    handle = proto_keyset_format.parse(keyset.SerializeToString(), secret_key_access.TOKEN)
    assert isinstance(handle, tink.KeysetHandle)
    return handle.primitive(streaming_aead.StreamingAead)


class _Sink(io.BytesIO):
    """Keeps its value after close() (both Tinks close the destination)."""

    def close(self):
        self.value = self.getvalue()
        super().close()


HASHES = ["SHA1", "SHA256", "SHA512"]
MIB = 1 << 20


def _tink_cases(rng):
    """COUNT cases (key_size, hash, segment size, plaintext size): every hash with both key sizes, sizes 0,
    each segment boundary +-1, random ones, and a few of several MiB."""
    cases = []
    for i in range(COUNT):
        ks, h = (16, 32)[i % 2], HASHES[(i // 2) % 3]
        seg = rng.choice([ks + 25 + rng.randrange(0, 50), 256, 4096, rng.randrange(ks + 25, 9000)])
        first, full = seg - (1 + ks + 7) - 16, seg - 16
        k = rng.randrange(0, 6)
        boundary = first + k * full
        n = rng.choice([0, boundary - 1, boundary, boundary + 1, rng.randrange(0, 8 * seg)])
        cases.append((ks, h, seg, max(n, 0)))
    for j, n in enumerate((3 * MIB + 5, 4 * MIB, 5 * MIB - 1)):
        cases[j] = ((16, 32)[j % 2], HASHES[j], 1 * MIB if j else 4096, n)
    return cases


def _write_in_pieces(w, data, rng):
    pos = 0
    while pos < len(data):
        step = rng.choice([1, 17, 4096, 65536, len(data)])
        w.write(data[pos:pos + step])
        pos += step


def test_tink_to_libaead(rng):
    cases = _tink_cases(rng)
    for ks, h, seg, n in cases:
        raw, ad, data = rng.randbytes(rng.choice([ks, 32, 48])), rng.randbytes(rng.randrange(0, 40)), rng.randbytes(n)
        sink = _Sink()
        with tink_primitive(raw, ks, h, seg).new_encrypting_stream(sink, ad) as w:
            _write_in_pieces(w, data, rng)
        ours = st.AesGcmHkdfStreaming(raw, key_size=ks, hkdf_hash=h, segment_size=seg)
        with ours.new_decrypting_stream(io.BytesIO(sink.value), ad) as r:
            assert r.read() == data, (ks, h, seg, n)
        if n and n < 200_000:
            with pytest.raises(libaead.InvalidTag):
                with ours.new_decrypting_stream(io.BytesIO(sink.value[:-1]), ad) as r:
                    r.read()
    assert len(cases) >= COUNT
    report_vectors("interop Tink Python 1.11.0 -> libaead (AES-GCM-HKDF streaming, %d bytes)"
                   % sum(c[3] for c in cases), len(cases), 0)


def test_libaead_to_tink(rng):
    cases = _tink_cases(rng)
    for ks, h, seg, n in cases:
        raw, ad, data = rng.randbytes(rng.choice([ks, 32, 48])), rng.randbytes(rng.randrange(0, 40)), rng.randbytes(n)
        sink = _Sink()
        with st.AesGcmHkdfStreaming(raw, key_size=ks, hkdf_hash=h, segment_size=seg).new_encrypting_stream(sink, ad) as w:
            _write_in_pieces(w, data, rng)
        with tink_primitive(raw, ks, h, seg).new_decrypting_stream(io.BytesIO(sink.value), ad) as r:
            assert r.read() == data, (ks, h, seg, n)
    assert len(cases) >= COUNT
    report_vectors("interop libaead -> Tink Python 1.11.0 (AES-GCM-HKDF streaming, %d bytes)"
                   % sum(c[3] for c in cases), len(cases), 0)
