"""Differential tests against pyca/cryptography on random inputs, in both directions."""

import mmap

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

SIZES = [0, 1, 2, 15, 16, 17, 31, 63, 64, 65, 255, 1024, 4095, 16384, 65537]


def _as(kind, b):
    """The same bytes as different buffer-protocol objects."""
    if kind == "bytes":
        return bytes(b)
    if kind == "bytearray":
        return bytearray(b)
    if kind == "memoryview":
        return memoryview(bytearray(b"\x00" + b + b"\x00"))[1:-1]  # a contiguous slice not at offset 0
    if kind == "mmap":
        m = mmap.mmap(-1, max(1, len(b)))
        m.write(b)
        return memoryview(m)[: len(b)]
    raise AssertionError(kind)


KINDS = ["bytes", "bytearray", "memoryview", "mmap"]


@pytest.mark.parametrize("key_len", [16, 24, 32])
def test_aesgcm_every_nonce_length(rng, key_len):
    key = rng.randbytes(key_len)
    ours, theirs = libaead.AESGCM(key), pyca.AESGCM(key)
    for nonce_len in range(8, 129):
        nonce = rng.randbytes(nonce_len)
        data = rng.randbytes(rng.choice(SIZES))
        aad = rng.choice([None, b"", rng.randbytes(rng.randint(1, 64))])
        ct = ours.encrypt(nonce, data, aad)
        assert ct == theirs.encrypt(nonce, data, aad)
        assert theirs.decrypt(nonce, ct, aad) == data
        assert ours.decrypt(nonce, ct, aad) == data


@pytest.mark.parametrize("name", ["AESGCM", "ChaCha20Poly1305"])
def test_random_both_directions_all_buffer_kinds(rng, name):
    for _ in range(150):
        key = rng.randbytes(rng.choice([16, 24, 32]) if name == "AESGCM" else 32)
        ours, theirs = getattr(libaead, name)(key), getattr(pyca, name)(key)
        nonce = rng.randbytes(rng.randint(8, 128) if name == "AESGCM" else 12)
        size = rng.choice(SIZES + [rng.randint(0, 5000)])
        data = rng.randbytes(size)
        aad = rng.randbytes(rng.choice([0, 1, 13, 5, 100, 3000]))
        kn, kd, ka = rng.choice(KINDS), rng.choice(KINDS), rng.choice(KINDS)

        # ours -> pyca
        ct = ours.encrypt(_as(kn, nonce), _as(kd, data), _as(ka, aad))
        assert type(ct) is bytes
        assert ct == theirs.encrypt(nonce, data, aad)
        assert theirs.decrypt(nonce, ct, aad) == data
        # pyca -> ours
        ct2 = theirs.encrypt(nonce, data, aad)
        pt = ours.decrypt(_as(kn, nonce), _as(kd, ct2), _as(ka, aad))
        assert type(pt) is bytes and pt == data
        # *_into, both libraries, same buffers
        out_ours, out_theirs = bytearray(size + 16), bytearray(size + 16)
        assert ours.encrypt_into(nonce, _as(kd, data), aad, out_ours) == size + 16
        assert theirs.encrypt_into(nonce, data, aad, out_theirs) == size + 16
        assert out_ours == out_theirs == ct
        pt_buf = _as(rng.choice(["bytearray", "memoryview", "mmap"]), b"\xee" * size)
        assert ours.decrypt_into(nonce, _as(kd, ct), _as(ka, aad), pt_buf) == size
        assert bytes(pt_buf) == data
        # tampering: both refuse
        if ct:
            bad = bytearray(ct)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            with pytest.raises(pyca_invalid_tag()):
                theirs.decrypt(nonce, bytes(bad), aad)
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt(nonce, bytes(bad), aad)
            if aad:
                with pytest.raises(libaead.InvalidTag):
                    ours.decrypt(nonce, ct, aad[:-1])


def pyca_invalid_tag():
    from cryptography.exceptions import InvalidTag

    return InvalidTag


def test_keys_of_every_accepted_type_give_same_result(rng):
    key = rng.randbytes(32)
    nonce, data = rng.randbytes(12), rng.randbytes(100)
    expected = pyca.ChaCha20Poly1305(key).encrypt(nonce, data, None)
    for kind in KINDS:
        assert libaead.ChaCha20Poly1305(_as(kind, key)).encrypt(nonce, data, None) == expected


def test_in_place_encrypt_and_decrypt(rng):
    """buf may be data's own storage (same start address): exact in-place works."""
    key, nonce, data = rng.randbytes(16), rng.randbytes(12), rng.randbytes(1000)
    arena = bytearray(data + bytes(16))
    view = memoryview(arena)
    obj = libaead.AESGCM(key)
    assert obj.encrypt_into(nonce, view[:1000], b"x", view) == 1016
    assert bytes(arena) == pyca.AESGCM(key).encrypt(nonce, data, b"x")
    assert obj.decrypt_into(nonce, view, b"x", view[:1000]) == 1000
    assert bytes(arena[:1000]) == data


def test_partial_overlap_is_refused(rng):
    obj = libaead.AESGCM(rng.randbytes(16))
    arena = bytearray(2000)
    view = memoryview(arena)
    with pytest.raises(ValueError, match="overlaps"):
        obj.encrypt_into(bytes(12), view[1:1001], None, view[0:1016])
    assert arena == bytearray(2000)  # refused calls write nothing


@pytest.mark.parametrize("fresh", [True, False])
def test_both_output_paths(rng, monkeypatch, fresh):
    """encrypt/decrypt write into a new bytes object on CPython, or use bytearray + copy elsewhere
    (LIBAEAD_NO_FRESH_BYTES=1): both paths give pyca's results."""
    monkeypatch.setattr(libaead._cffi_core, "_FRESH_BYTES", fresh)  # the cffi paths; _fast always writes fresh bytes
    for _ in range(60):
        key, nonce = rng.randbytes(32), rng.randbytes(12)
        data, aad = rng.randbytes(rng.choice([0, 1, 2, 17, 300])), rng.randbytes(rng.randint(0, 20))
        for name in ("AESGCM", "ChaCha20Poly1305"):
            ours, theirs = getattr(libaead, name)(key), getattr(pyca, name)(key)
            ct = ours.encrypt(nonce, data, aad)
            assert ct == theirs.encrypt(nonce, data, aad)
            assert ours.decrypt(nonce, ct, aad) == data
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt(nonce, ct, aad + b"x")


def test_small_outputs_do_not_touch_shared_objects():
    """0- and 1-byte results must not be written into interned/shared bytes objects."""
    obj = libaead.AESGCM(bytes(16))
    nonce = bytes(12)
    empty_ct = obj.encrypt(nonce, b"", None)
    for value in range(256):
        one = bytes([value])
        ct = obj.encrypt(nonce, one, None)
        assert obj.decrypt(nonce, ct, None) == one
        assert obj.decrypt(nonce, empty_ct, None) == b""
    assert bytes() == b"" and len(b"") == 0
    assert [bytes([v]) for v in range(256)] == [bytes((v,)) for v in range(256)]
    assert b"\x00"[0] == 0 and b"A" == bytes([65])
