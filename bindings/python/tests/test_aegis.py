"""The AEGIS family (RFC 10032; libaegis inside libaead): Aegis128L, Aegis256, Aegis128X2, Aegis128X4,
Aegis256X2, Aegis256X4 and their random-nonce classes. RFC 10032's test vectors for every variant with
both tag lengths, through every call form; AEGIS-128L and AEGIS-256 against libsodium (PyNaCl, an
independent implementation; 32-byte tags, libsodium's only length) on 10,000 random cases each, both
directions, a flipped bit refused by both; the sizes and their documented errors; the random-nonce
layout; pyca's object protocol. Not under FIPS: no FIPS provider has AEGIS (test_families_fips.py checks
the refusal)."""

import copy
import inspect
import json
import pickle

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from _pypi import importable
from conftest import report_vectors, vectors_dir
from test_families import check_batches

NAMES = ["Aegis128L", "Aegis256", "Aegis128X2", "Aegis128X4", "Aegis256X2", "Aegis256X4"]
KEY = {"Aegis128L": 16, "Aegis128X2": 16, "Aegis128X4": 16, "Aegis256": 32, "Aegis256X2": 32, "Aegis256X4": 32}

# RFC 10032's test vectors (its test-vector appendix, "Test Vector 1".. per variant), read from the aegis
# crate's JSON files that tests/vectors.py unpacks into aegis/, as the C tests' tests/test_aegis.cpp does.
# Entries without "ct" are intermediate states (skipped); those with "error" (and no "msg") must fail.
RFC_FILES = {"Aegis128L": "128l", "Aegis256": "256", "Aegis128X2": "128x2", "Aegis128X4": "128x4",
             "Aegis256X2": "256x2", "Aegis256X4": "256x4"}


def rfc_10032_vectors():
    """(class name, vector) for every vector of the six files; a missing file fails the calling test."""
    out = []
    for name, variant in RFC_FILES.items():
        with open(vectors_dir() / "aegis" / ("aegis-%s-test-vectors.json" % variant)) as f:
            out += [(name, v) for v in json.load(f) if "ct" in v]
    return out


def _h(s):
    return bytes.fromhex(s)


def test_rfc_10032_vectors_every_variant_both_tags():
    sealed = refused = 0
    for name, v in rfc_10032_vectors():
        valid = "error" not in v
        for tag_len, tag in ((16, v["tag128"]), (32, v["tag256"])):
            where = "%s %s, tag %d" % (name, v["name"], tag_len)
            obj = getattr(libaead, name)(_h(v["key"]), tag_len)
            assert obj.tag_length == tag_len
            nonce_b, ad_b, ct_b = _h(v["nonce"]), _h(v["ad"]), _h(v["ct"])
            sealed_msg = ct_b + _h(tag)
            assert len(_h(tag)) == tag_len, where
            out = bytearray(b"\xee" * len(ct_b))
            if not valid:  # refused, and no plaintext left behind
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt(nonce_b, sealed_msg, ad_b)
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt_into(nonce_b, sealed_msg, ad_b, out)
                assert out == bytes(len(ct_b)), where
                refused += 1
                continue
            msg_b = _h(v["msg"])
            assert obj.encrypt(nonce_b, msg_b, ad_b) == sealed_msg, where
            buf = bytearray(len(sealed_msg))
            assert obj.encrypt_into(nonce_b, msg_b, ad_b, buf) == len(buf) and buf == sealed_msg, where
            assert obj.encrypt_many([nonce_b], [msg_b], [ad_b]) == [sealed_msg], where
            assert obj.decrypt(nonce_b, sealed_msg, ad_b) == msg_b, where
            assert obj.decrypt_into(nonce_b, sealed_msg, ad_b, out) == len(msg_b) and out == msg_b, where
            # in place, both ways (buf starting at data's own address)
            arena = bytearray(msg_b + bytes(tag_len))
            view = memoryview(arena)
            assert obj.encrypt_into(nonce_b, view[:len(msg_b)], ad_b, view) == len(arena) and arena == sealed_msg
            assert obj.decrypt_into(nonce_b, view, ad_b, view[:len(msg_b)]) == len(msg_b)
            assert arena[:len(msg_b)] == msg_b, where
            # a flipped bit in the ciphertext (first and last byte), the tag, the AD: refused, buf zeroed
            flips = [len(sealed_msg) - 1, len(ct_b)] + ([0] if ct_b else [])
            for at in flips:
                forged = bytearray(sealed_msg)
                forged[at] ^= 0x01
                out = bytearray(b"\xee" * len(msg_b))
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt_into(nonce_b, bytes(forged), ad_b, out)
                assert out == bytes(len(msg_b)), (where, at)
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt(nonce_b, sealed_msg, ad_b + b"\x00")
            sealed += 1
    assert (sealed, refused) == (2 * 18, 2 * 8)
    report_vectors("RFC 10032 (AEGIS, 6 variants x 2 tag lengths)", sealed, refused)


def _random_case(rng):
    """Lengths 0..64 KiB, most of them small: AEGIS's block (32 or 64 bytes) and lane boundaries are
    crossed often, long messages now and then."""
    roll = rng.random()
    if roll < 0.80:
        size = rng.randint(0, 600)
    elif roll < 0.97:
        size = rng.randint(600, 8192)
    else:
        size = rng.randint(8192, 65536)
    aad_len = rng.choice([0, 0, rng.randint(1, 64), rng.randint(1, 600), rng.randint(0, 4096)])
    return rng.randbytes(size), rng.randbytes(aad_len)


@pytest.fixture(scope="module")
def sodium():
    importable("pynacl", "nacl")
    import nacl.bindings

    if not hasattr(nacl.bindings, "crypto_aead_aegis128l_encrypt"):  # PyNaCl 1.6 and later bind AEGIS
        pytest.fail("PyNaCl %s has no AEGIS bindings (1.6 or later needed)" % getattr(nacl, "__version__", "?"))
    return nacl.bindings


@pytest.mark.parametrize("name,prefix", [("Aegis128L", "aegis128l"), ("Aegis256", "aegis256")])
def test_differential_against_libsodium(rng, sodium, name, prefix):
    enc = getattr(sodium, "crypto_aead_%s_encrypt" % prefix)
    dec = getattr(sodium, "crypto_aead_%s_decrypt" % prefix)
    assert getattr(sodium, "crypto_aead_%s_ABYTES" % prefix) == 32
    size = KEY[name]
    cases = total = 0
    for _ in range(10_000):
        key, nonce = rng.randbytes(size), rng.randbytes(size)
        data, aad = _random_case(rng)
        ad = aad if aad or rng.random() < 0.5 else None  # None and b"" are the same empty AD
        ours = getattr(libaead, name)(key)  # tag_length 32 by default, libsodium's
        ct = ours.encrypt(nonce, data, ad)
        assert ct == enc(data, aad, nonce, key)  # ours -> libsodium, byte for byte
        assert dec(ct, aad, nonce, key) == data
        theirs = enc(data, aad, nonce, key)  # libsodium -> ours
        assert ours.decrypt(nonce, theirs, ad) == data
        bad = bytearray(ct)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt(nonce, bytes(bad), ad)
        with pytest.raises(Exception) as e:  # nacl.exceptions.CryptoError
            dec(bytes(bad), aad, nonce, key)
        assert type(e.value).__name__ == "CryptoError"
        cases += 1
        total += len(data)
    print("%s: %d random cases equal to libsodium (%d bytes of plaintext), both directions, flipped bit refused"
          % (name, cases, total))
    assert cases == 10_000


@pytest.mark.parametrize("name", NAMES)
def test_sizes_and_their_errors(rng, name):
    cls = getattr(libaead, name)
    size = KEY[name]
    assert cls.KEY_SIZE == cls.NONCE_SIZE == size
    for key_len in range(0, 70):
        if key_len == size:
            continue
        with pytest.raises(ValueError, match="^%s key must be %d bytes.$" % (name, size)):
            cls(bytes(key_len))
        with pytest.raises(ValueError, match="^%s key must be %d bytes.$" % (name, size)):
            getattr(libaead, name + "RandomNonce")(bytes(key_len), 16)
    assert cls(bytes(size)).tag_length == 32 and cls(bytes(size), None).tag_length == 32  # pyaegis's default
    assert cls(bytearray(size), tag_length=16).tag_length == 16
    for tag in (0, 1, 8, 12, 15, 17, 24, 31, 33, 64, True):
        with pytest.raises(ValueError, match="^tag_length must be 16 or 32$"):
            cls(bytes(size), tag)
    for tag, kind in ((-1, OverflowError), (1 << 64, OverflowError), (16.0, TypeError), ("16", TypeError)):
        with pytest.raises(kind):
            cls(bytes(size), tag)
    with pytest.raises(ValueError, match="key must be"):  # the key is checked before the tag
        cls(bytes(size + 1), 5)
    key = rng.randbytes(size)
    for tag_len in (16, 32):
        obj = cls(key, tag_len)
        msg = "(^|^record 1: )Nonce must be %d bytes$" % size
        for n in range(0, 41):
            if n == size:
                continue
            buf = bytearray(b"\xee" * (5 + tag_len))
            for call in (lambda: obj.encrypt(bytes(n), b"hello", None),
                         lambda: obj.decrypt(bytes(n), bytes(40), None),
                         lambda: obj.encrypt_into(bytes(n), b"hello", None, buf),
                         lambda: obj.decrypt_into(bytes(n), bytes(5 + tag_len), None, buf[:5]),
                         lambda: obj.encrypt_many([bytes(size), bytes(n)], [b"", b""], None)):
                with pytest.raises(ValueError, match=msg):
                    call()
            assert buf == b"\xee" * (5 + tag_len)  # refused calls write nothing
        nonce = rng.randbytes(size)
        for short in range(tag_len):  # too short to hold the tag
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt(nonce, bytes(short), None)
        with pytest.raises(ValueError, match="^buffer must be %d bytes$" % (5 + tag_len)):
            obj.encrypt_into(nonce, b"hello", None, bytearray(4 + tag_len))
        with pytest.raises(ValueError, match="^buffer must be 5 bytes$"):
            obj.decrypt_into(nonce, obj.encrypt(nonce, b"hello", None), None, bytearray(6))
        # the empty message: a tag alone, which opens to nothing
        tag_only = obj.encrypt(nonce, b"", None)
        assert len(tag_only) == tag_len and obj.decrypt(nonce, tag_only, b"") == b""
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(nonce, bytes([tag_only[0] ^ 1]) + tag_only[1:], None)
    assert len(cls.generate_key()) == size and cls.generate_key() != cls.generate_key()


@pytest.mark.parametrize("name", NAMES)
def test_round_trips_flipped_bits_and_batches(rng, name):
    """Every length 0..300 (each variant's block and lane boundaries), a flipped bit anywhere refused; the
    two tag lengths give different tags; batches equal single calls, the first failing record named."""
    cls = getattr(libaead, name)
    key, nonce = rng.randbytes(KEY[name]), rng.randbytes(KEY[name])
    long_tag, short_tag = cls(key), cls(key, 16)
    for n in range(0, 301):
        data, aad = rng.randbytes(n), rng.randbytes(n % 37)
        ct = long_tag.encrypt(nonce, data, aad)
        ct16 = short_tag.encrypt(nonce, data, aad)
        assert len(ct) == n + 32 and len(ct16) == n + 16 and ct[:n] == ct16[:n] and ct[n:n + 16] != ct16[n:]
        assert long_tag.decrypt(nonce, ct, aad) == data and short_tag.decrypt(nonce, ct16, aad) == data
        for obj, sealed in ((long_tag, ct), (short_tag, ct16)):
            bad = bytearray(sealed)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            out = bytearray(b"\xee" * n)
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt_into(nonce, bytes(bad), aad, out)
            assert out == bytes(n)
        with pytest.raises(libaead.InvalidTag):  # a tag of the other length does not open
            long_tag.decrypt(nonce, ct16 + bytes(16), aad)
    nonces = [rng.randbytes(KEY[name]) for _ in range(40)]
    datas = [rng.randbytes(rng.choice([0, 1, 63, 64, 65, 1000, 5000])) for _ in range(40)]
    aads = [rng.choice([None, rng.randbytes(20)]) for _ in range(40)]
    check_batches(short_tag, short_tag.encrypt, nonces, datas, aads)


@pytest.mark.parametrize("name", NAMES)
def test_random_nonce_layout(rng, name):
    """nonce || ciphertext || tag, each output equal to the nonce-taking class's under the drawn nonce;
    fresh nonces; every call form; OVERHEAD per object; a flipped bit refused."""
    size = KEY[name]
    cls = getattr(libaead, name + "RandomNonce")
    assert cls.NONCE_SIZE == cls.KEY_SIZE == size
    for tag_len in (16, 32):
        key = rng.randbytes(size)
        obj, plain = cls(key, tag_len), getattr(libaead, name)(key, tag_len)
        assert obj.OVERHEAD == size + tag_len and obj.tag_length == tag_len
        assert cls(key).OVERHEAD == size + 32
        nonces = set()
        for _ in range(200):
            data, aad = rng.randbytes(rng.randint(0, 300)), rng.randbytes(rng.randint(0, 40))
            out = obj.encrypt(data, aad)
            assert len(out) == len(data) + obj.OVERHEAD
            nonces.add(out[:size])
            assert out[size:] == plain.encrypt(out[:size], data, aad)
            assert obj.decrypt(out, aad) == data
            nonce = rng.randbytes(size)
            assert obj.decrypt(nonce + plain.encrypt(nonce, data, aad), aad) == data
            bad = bytearray(out)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt(bytes(bad), aad)
        assert len(nonces) == 200
        buf = bytearray(3 + obj.OVERHEAD)
        assert obj.encrypt_into(b"abc", b"ad", buf) == len(buf) and obj.decrypt(bytes(buf), b"ad") == b"abc"
        back = bytearray(3)
        assert obj.decrypt_into(bytes(buf), b"ad", back) == 3 and back == b"abc"
        outs = obj.encrypt_many([b"a", b"bc", b""], None)
        assert [len(o) for o in outs] == [1 + obj.OVERHEAD, 2 + obj.OVERHEAD, obj.OVERHEAD]
        assert obj.decrypt_many(outs, None) == [b"a", b"bc", b""]
        for short in range(obj.OVERHEAD):
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt(bytes(short), None)
        with pytest.raises(ValueError, match="^buffer must be %d bytes$" % (1 + obj.OVERHEAD)):
            obj.encrypt_into(b"a", None, bytearray(obj.OVERHEAD))


def test_random_nonce_limits_map_to_their_messages():
    """2**48 seals cannot be made in a test: the code's mapping is checked directly (the C tests check the
    budget itself on their fault build)."""
    from libaead import _errors

    code = int(libaead._lib.AEAD_ERR_NONCE_LIMIT)
    for name in ("Aegis128LRandomNonce", "Aegis128X2RandomNonce", "Aegis128X4RandomNonce"):
        with pytest.raises(libaead.NonceLimitError, match=r"^%s: 2\*\*48 encryptions .*128-bit nonces" % name):
            _errors.raise_for(getattr(libaead, name)(bytes(16)), code)
    with pytest.raises(libaead.NonceLimitError, match=r"2\*\*32 encryptions"):  # AES-GCM's stays its own
        _errors.raise_for(libaead.AESGCMRandomNonce(bytes(16)), code)


@pytest.mark.parametrize("name", NAMES)
def test_pyca_shape_protocol_and_indicator(name):
    size = KEY[name]
    cls, rn = getattr(libaead, name), getattr(libaead, name + "RandomNonce")
    for method in ("encrypt", "decrypt", "encrypt_into", "decrypt_into", "generate_key"):
        theirs = [p for p in inspect.signature(getattr(pyca.ChaCha20Poly1305, method)).parameters if p != "self"]
        ours = [p for p in inspect.signature(getattr(cls, method)).parameters if p != "self"]
        assert ours == theirs, (name, method)
    assert [p for p in inspect.signature(rn.encrypt).parameters if p != "self"] == ["data", "associated_data"]
    assert list(inspect.signature(cls).parameters) == ["key", "tag_length", "properties"]
    for obj in (cls(bytes(size)), rn(bytes(size))):
        for fn, kind in ((lambda o: setattr(o, "x", 1), AttributeError),
                         (lambda o: setattr(o, "_tag", 16), AttributeError),
                         (lambda o: delattr(o, "_ctx"), AttributeError), (pickle.dumps, TypeError),
                         (copy.copy, TypeError), (copy.deepcopy, TypeError)):
            with pytest.raises(kind):
                fn(obj)
        with pytest.raises(AttributeError):
            obj.tag_length = 16
        assert obj.indicator == libaead.Indicator("libaegis", False, False, False)
        with pytest.raises(TypeError):
            type("Sub", (type(obj),), {})
    for c in (cls, rn):
        with pytest.raises(libaead.UnsupportedAlgorithm, match="properties='fips=yes'"):
            c(bytes(size), properties="fips=yes")
    ct = cls(bytes(size)).encrypt(bytes(size), b"still works", None)
    assert cls(bytes(size)).decrypt(bytes(size), ct, None) == b"still works"
