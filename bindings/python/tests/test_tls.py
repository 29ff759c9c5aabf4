"""TLS nonce sequencing: the sequences the anchors use (0 ok, 0 refused, 1, 10, 9 refused, 2**64-1
refused), TLS 1.3 with a mask that makes an implementation that forgets to unmask go backwards, prefix
changes, AAD sizes, decryption never order-checked, and concurrent sealing."""

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from conftest import race_for_sequences

MAX = 2**64 - 1
# name, pyca twin, AAD length, nonce construction ("concat" = RFC 5288, "xor" = RFC 8446 / RFC 7905)
CLASSES = [
    ("AESGCMForTLS12", "AESGCM", 13, "concat"),
    ("AESGCMForTLS13", "AESGCM", 5, "xor"),
    ("ChaCha20Poly1305ForTLS12", "ChaCha20Poly1305", 13, "xor"),
    ("ChaCha20Poly1305ForTLS13", "ChaCha20Poly1305", 5, "xor"),
]


def nonce_for(kind, iv, seq):
    if kind == "concat":
        return iv[:4] + seq.to_bytes(8, "big")
    return iv[:4] + (int.from_bytes(iv[4:], "big") ^ seq).to_bytes(8, "big")


def masked_iv(rng):
    """A static IV whose low bytes make raw nonces decrease when the sequence increases (1 and 10 vs 0)."""
    iv = bytearray(rng.randbytes(12))
    iv[9] ^= 0x42
    iv[11] = 0x0B  # seq 1 -> ...0A, seq 10 -> ...01: both below seq 0's ...0B if read unmasked
    return bytes(iv)


def make(rng, name, twin):
    key = rng.randbytes(32)
    return getattr(libaead, name)(key), getattr(pyca, twin)(key)


@pytest.mark.parametrize("name,twin,aad_len,kind", CLASSES)
def test_anchor_sequence(rng, name, twin, aad_len, kind):
    obj, ref = make(rng, name, twin)
    iv = masked_iv(rng)
    aad = rng.randbytes(aad_len)
    sealed = {}

    def seal(seq, data=b"record"):
        n = nonce_for(kind, iv, seq)
        ct = obj.encrypt(n, data, aad)
        assert ct == ref.encrypt(n, data, aad)  # the TLS classes are plain AEADs otherwise
        sealed[seq] = ct

    def refused(seq, match):
        with pytest.raises(libaead.NonceReuseError, match=match) as info:
            obj.encrypt(nonce_for(kind, iv, seq), b"record", aad)
        assert isinstance(info.value, ValueError)
        assert name in str(info.value)

    seal(0)
    refused(0, "strictly greater")
    seal(1)
    seal(10)
    refused(9, "strictly greater")
    refused(10, "strictly greater")
    refused(MAX, "2\\*\\*64-1")
    seal(11)  # refusals consumed nothing
    buf = bytearray(b"\xaa" * (len(b"record") + 16))
    with pytest.raises(libaead.NonceReuseError):
        obj.encrypt_into(nonce_for(kind, iv, 11), b"record", aad, buf)
    assert buf == b"\xaa" * len(buf)  # a refused seal writes nothing
    assert obj.encrypt_into(nonce_for(kind, iv, MAX - 1), b"record", aad, buf) == len(buf)
    refused(MAX, "2\\*\\*64-1")
    # decryption is never order-checked
    for seq in (11, 0, 10, 1):
        assert obj.decrypt(nonce_for(kind, iv, seq), sealed[seq], aad) == b"record"
        assert obj.decrypt(nonce_for(kind, iv, seq), sealed[seq], aad) == b"record"


@pytest.mark.parametrize("name,twin,aad_len,kind", CLASSES)
def test_prefix_change_refused(rng, name, twin, aad_len, kind):
    obj, _ = make(rng, name, twin)
    iv = rng.randbytes(12)
    aad = bytes(aad_len)
    obj.encrypt(nonce_for(kind, iv, 0), b"", aad)
    other = bytes([iv[0] ^ 0x80]) + iv[1:]
    with pytest.raises(libaead.NonceReuseError, match="bytes 0..3"):
        obj.encrypt(nonce_for(kind, other, 5), b"", aad)
    obj.encrypt(nonce_for(kind, iv, 5), b"", aad)


@pytest.mark.parametrize("name,twin,aad_len,kind", CLASSES)
def test_aad_size_and_nonce_size(rng, name, twin, aad_len, kind):
    obj, _ = make(rng, name, twin)
    iv = rng.randbytes(12)
    for bad in (0, 1, 4, 5, 6, 12, 13, 14, 100):
        if bad == aad_len:
            continue
        with pytest.raises(ValueError, match="exactly %d bytes" % aad_len) as info:
            obj.encrypt(nonce_for(kind, iv, 0), b"x", bytes(bad))
        assert not isinstance(info.value, libaead.NonceReuseError)
    with pytest.raises(ValueError, match="exactly"):
        obj.encrypt(nonce_for(kind, iv, 0), b"x", None)
    for nlen in (8, 11, 13, 16):
        with pytest.raises(ValueError, match="Nonce must be 12 bytes"):
            obj.encrypt(rng.randbytes(nlen), b"x", bytes(aad_len))
    # none of the refusals above learned the IV: sequence 0 of a different IV is still the first seal
    obj.encrypt(nonce_for(kind, iv, 0), b"x", bytes(aad_len))
    # decryption takes any AAD length
    ct = obj.encrypt(nonce_for(kind, iv, 1), b"x", bytes(aad_len))
    with pytest.raises(libaead.InvalidTag):
        obj.decrypt(nonce_for(kind, iv, 1), ct, bytes(aad_len + 1))


def test_tls_key_sizes_and_generate_key():
    assert len(libaead.AESGCMForTLS12.generate_key(128)) == 16
    assert len(libaead.ChaCha20Poly1305ForTLS13.generate_key()) == 32
    for klen in (16, 24, 32):
        libaead.AESGCMForTLS13(bytes(klen))
    with pytest.raises(ValueError):
        libaead.AESGCMForTLS12(bytes(20))
    with pytest.raises(ValueError):
        libaead.ChaCha20Poly1305ForTLS12(bytes(16))


@pytest.mark.parametrize("name,twin,aad_len,kind", CLASSES)
def test_concurrent_seals_never_accept_a_sequence_twice(rng, name, twin, aad_len, kind):
    obj, _ = make(rng, name, twin)
    iv = rng.randbytes(12)
    aad = bytes(aad_len)
    obj.encrypt(nonce_for(kind, iv, 0), b"", aad)  # learn the IV before sharing
    raced = race_for_sequences(lambda seq: obj.encrypt(nonce_for(kind, iv, seq), b"payload", aad), 399)
    accepted = [[seq for seq, _ in a] for a in raced]
    flat = [s for a in accepted for s in a]
    assert len(flat) == len(set(flat))  # no sequence accepted twice
    assert 399 in flat  # the first attempt at the highest sequence always succeeds
    for a in accepted:
        assert a == sorted(a)
