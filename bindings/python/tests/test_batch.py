"""encrypt_many / decrypt_many and their _into forms: pyca's results record by record, one C call
(aead_seal_open_many), errors raised as the single call would for the first failing record, with its
index; argument errors are found before anything is done."""

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

from test_differential import KINDS, _as

NAMES = ["AESGCM", "ChaCha20Poly1305"]


def records(rng, name, count):
    nonces = [rng.randbytes(rng.randint(8, 128) if name == "AESGCM" else 12) for _ in range(count)]
    datas = [rng.randbytes(rng.choice([0, 1, 15, 16, 17, 64, 1000, 5000])) for _ in range(count)]
    aads = [rng.choice([None, b"", rng.randbytes(rng.randint(1, 40))]) for _ in range(count)]
    return nonces, datas, aads


@pytest.mark.parametrize("name", NAMES)
def test_many_matches_pyca_record_by_record(rng, name):
    key = rng.randbytes(32)
    ours, theirs = getattr(libaead, name)(key), getattr(pyca, name)(key)
    for count in (0, 1, 2, 31, 32, 33, 200):
        nonces, datas, aads = records(rng, name, count)
        expected = [theirs.encrypt(n, d, a) for n, d, a in zip(nonces, datas, aads)]
        cts = ours.encrypt_many(nonces, datas, aads)
        assert type(cts) is list and all(type(c) is bytes for c in cts)
        assert cts == expected
        assert ours.decrypt_many(nonces, cts, aads) == datas
        # one output buffer: the records back to back
        buf = bytearray(sum(len(c) for c in expected))
        assert ours.encrypt_many_into(tuple(nonces), tuple(datas), tuple(aads), buf) == len(buf)
        assert bytes(buf) == b"".join(expected)
        plain = bytearray(sum(len(d) for d in datas))
        assert ours.decrypt_many_into(nonces, expected, aads, plain) == len(plain)
        assert bytes(plain) == b"".join(datas)


@pytest.mark.parametrize("name", NAMES)
def test_many_takes_any_buffers_and_none_for_all_aads(rng, name):
    key = rng.randbytes(32)
    ours, theirs = getattr(libaead, name)(key), getattr(pyca, name)(key)
    nonces, datas, _ = records(rng, name, 40)
    kinds = [rng.choice(KINDS) for _ in nonces]
    cts = ours.encrypt_many((_as(k, n) for k, n in zip(kinds, nonces)), [_as(k, d) for k, d in zip(kinds, datas)],
                            None)
    assert cts == [theirs.encrypt(n, d, None) for n, d in zip(nonces, datas)]
    assert ours.decrypt_many(nonces, [_as(k, c) for k, c in zip(kinds, cts)], [None] * 40) == datas
    assert ours.encrypt_many(nonces=nonces[:1], datas=datas[:1], associated_datas=None) == cts[:1]


def test_first_failing_record_raises_with_its_index(rng):
    key = rng.randbytes(16)
    ours, theirs = libaead.AESGCM(key), pyca.AESGCM(key)
    nonces, datas, aads = records(rng, "AESGCM", 10)
    cts = [theirs.encrypt(n, d, a) for n, d, a in zip(nonces, datas, aads)]
    for bad in (0, 3, 9):
        tampered = list(cts)
        tampered[bad] = bytes([tampered[bad][0] ^ 1]) + tampered[bad][1:]
        tampered[min(bad + 1, 9)] = bytes(16) if bad < 9 else tampered[9]  # a later failure is not the one named
        with pytest.raises(libaead.InvalidTag, match="record %d" % bad) as info:
            ours.decrypt_many(nonces, tampered, aads)
        assert info.value.index == bad
        plain = bytearray(b"\xaa" * sum(len(c) - 16 for c in tampered))
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt_many_into(nonces, tampered, aads, plain)
        start = sum(len(c) - 16 for c in tampered[:bad])
        assert plain[start:start + len(tampered[bad]) - 16] == bytes(len(tampered[bad]) - 16)  # zeroed


def test_argument_errors_are_found_before_anything_is_done():
    obj = libaead.AESGCMForTLS13(bytes(16), bytes(12))
    aad = bytes(5)
    nonce = lambda seq: bytes(4) + seq.to_bytes(8, "big")  # noqa: E731 - iv is zero: nonce = seq
    cases = [
        ([nonce(0), nonce(1), "str"], [b"a", b"b", b"c"], [aad] * 3, TypeError, 2),
        ([nonce(0), nonce(1), b"short"], [b"a", b"b", b"c"], [aad] * 3, ValueError, 2),
        ([nonce(0), nonce(1)], [b"a", None], [aad] * 2, TypeError, 1),
        ([nonce(0), nonce(1)], [b"a", b"b"], [aad, memoryview(bytearray(10))[::2]], BufferError, 1),
    ]
    for nonces, datas, aads, exc, index in cases:
        with pytest.raises(exc, match="record %d" % index) as info:
            obj.encrypt_many(nonces, datas, aads)
        assert info.value.index == index
    with pytest.raises(ValueError, match="same length"):
        obj.encrypt_many([nonce(0)], [b"a", b"b"], None)
    with pytest.raises(ValueError, match="same length"):
        obj.encrypt_many([nonce(0)], [b"a"], [aad, aad])
    with pytest.raises(TypeError):
        obj.encrypt_many(5, [b"a"], None)
    with pytest.raises(ValueError, match="buffer must be 17 bytes"):
        obj.encrypt_many_into([nonce(0)], [b"a"], [aad], bytearray(16))
    with pytest.raises(TypeError):
        obj.encrypt_many_into([nonce(0)], [b"a"], [aad], bytes(17))
    # nothing above used a sequence number: 0 is still accepted
    assert len(obj.encrypt_many([nonce(0)], [b"x"], [aad])[0]) == 17


def test_tls_policy_per_record_in_order():
    key, iv = bytes(range(16)), bytes(range(12))
    obj, ref = libaead.AESGCMForTLS13(key, iv), pyca.AESGCM(key)
    nonce = lambda seq: bytes(a ^ b for a, b in zip(iv, bytes(4) + seq.to_bytes(8, "big")))  # noqa: E731
    aad = bytes(5)
    with pytest.raises(libaead.NonceReuseError, match="record 2") as info:
        obj.encrypt_many([nonce(0), nonce(1), nonce(1), nonce(2)], [b"a", b"b", b"c", b"d"], [aad] * 4)
    assert info.value.index == 2
    # records 0 and 1 were sealed and used their sequence numbers; the refused one used nothing, and
    # record 3 was still sealed (records are independent), so 2 is gone too: the batch acts record by record.
    with pytest.raises(libaead.NonceReuseError):
        obj.encrypt(nonce(1), b"b", aad)
    out = obj.encrypt_many([nonce(5), nonce(6)], [b"e", b"f"], [aad, aad])
    assert out == [ref.encrypt(nonce(5), b"e", aad), ref.encrypt(nonce(6), b"f", aad)]
    with pytest.raises(ValueError, match="record 1.*5 bytes"):
        obj.encrypt_many([nonce(7), nonce(8)], [b"g", b"h"], [aad, bytes(13)])
    # decryption is never order-checked
    assert obj.decrypt_many([nonce(6), nonce(5)], out[::-1], [aad, aad]) == [b"f", b"e"]


def test_random_nonce_many_is_go_layout(rng):
    key = rng.randbytes(32)
    obj, ref = libaead.AESGCMRandomNonce(key), pyca.AESGCM(key)
    datas = [rng.randbytes(rng.randint(0, 300)) for _ in range(50)]
    aads = [rng.randbytes(rng.randint(0, 20)) for _ in range(50)]
    outs = obj.encrypt_many(datas, aads)
    assert [ref.decrypt(o[:12], o[12:], a) for o, a in zip(outs, aads)] == datas
    assert len({o[:12] for o in outs}) == 50
    assert obj.decrypt_many(outs, aads) == datas
    buf = bytearray(sum(len(d) + 28 for d in datas))
    assert obj.encrypt_many_into(datas, aads, buf) == len(buf)
    plain = bytearray(sum(len(d) for d in datas))
    parts, pos = [], 0
    for d in datas:
        parts.append(bytes(buf[pos:pos + len(d) + 28]))
        pos += len(d) + 28
    assert obj.decrypt_many_into(parts, aads, plain) == len(plain) and bytes(plain) == b"".join(datas)
    with pytest.raises(libaead.InvalidTag, match="record 1"):
        obj.decrypt_many([outs[0], b"x" * 27], None)
