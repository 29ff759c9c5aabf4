"""AESGCMRandomNonce: nonce || ciphertext || tag (Go's cipher.NewGCMWithRandomNonce layout), checked
against pyca/cryptography's AESGCM in both directions."""

import inspect

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from libaead import _errors

from test_differential import KINDS, SIZES, _as


@pytest.mark.parametrize("key_len", [16, 24, 32])
def test_pyca_differential_both_directions(rng, key_len):
    key = rng.randbytes(key_len)
    ours, ref = libaead.AESGCMRandomNonce(key), pyca.AESGCM(key)
    for _ in range(60):
        data = rng.randbytes(rng.choice(SIZES))
        aad = rng.choice([None, b"", rng.randbytes(rng.randint(1, 50))])
        kind = rng.choice(KINDS)
        out = ours.encrypt(_as(kind, data), aad)
        assert type(out) is bytes and len(out) == len(data) + libaead.AESGCMRandomNonce.OVERHEAD
        assert ref.decrypt(out[:12], out[12:], aad) == data  # ours -> pyca
        nonce = rng.randbytes(12)
        theirs = nonce + ref.encrypt(nonce, data, aad)
        assert ours.decrypt(_as(kind, theirs), aad) == data  # pyca -> ours
        buf = bytearray(len(data) + 28)
        assert ours.encrypt_into(data, aad, buf) == len(buf)
        assert ref.decrypt(bytes(buf[:12]), bytes(buf[12:]), aad) == data
        plain = bytearray(len(data))
        assert ours.decrypt_into(theirs, aad, plain) == len(data) and plain == data


def test_nonces_are_fresh():
    obj = libaead.AESGCMRandomNonce(bytes(16))
    nonces = {obj.encrypt(b"", None)[:12] for _ in range(2000)}
    assert len(nonces) == 2000


def test_failures_and_sizes(rng):
    key = rng.randbytes(16)
    obj = libaead.AESGCMRandomNonce(key)
    for n in range(28):
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(bytes(n), None)
    out = obj.encrypt(b"payload", b"ad")
    for i in range(len(out)):
        bad = bytearray(out)
        bad[i] ^= 0x80
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(bytes(bad), b"ad")
    plain = bytearray(b"\xee" * 7)
    with pytest.raises(libaead.InvalidTag):
        obj.decrypt_into(out, b"other", plain)
    assert plain == bytes(7)  # zeroed, as for every class
    with pytest.raises(ValueError, match="buffer must be 35 bytes"):
        obj.encrypt_into(b"payload", None, bytearray(23))
    with pytest.raises(TypeError):
        obj.encrypt_into(b"payload", None, bytes(35))
    with pytest.raises(TypeError):
        obj.encrypt("str", None)
    with pytest.raises(ValueError):
        libaead.AESGCMRandomNonce(bytes(20))
    assert obj.encrypt(data=b"x", associated_data=None)[12:] != b""


def test_signatures_have_no_nonce():
    for method, params in [("encrypt", ["data", "associated_data"]), ("decrypt", ["data", "associated_data"]),
                           ("encrypt_into", ["data", "associated_data", "buf"]),
                           ("encrypt_many", ["datas", "associated_datas"])]:
        sig = inspect.signature(getattr(libaead.AESGCMRandomNonce, method))
        assert [p for p in sig.parameters if p != "self"] == params
    with pytest.raises(TypeError):
        type("Sub", (libaead.AESGCMRandomNonce,), {})


def test_nonce_limit_maps_to_its_own_error():
    """2**32 seals cannot be made in a test; the code's mapping is checked directly."""
    obj = libaead.AESGCMRandomNonce(bytes(16))
    with pytest.raises(libaead.NonceLimitError, match="2\\*\\*32") as info:
        _errors.raise_for(obj, int(libaead._lib.AEAD_ERR_NONCE_LIMIT))
    assert isinstance(info.value, libaead.NonceReuseError)
