"""API parity with pyca/cryptography 48: the same calls, good and bad, give the same result or the same
exception type. Only the documented improvements differ (see the last tests)."""

import copy
import inspect
import pickle

import pytest
from cryptography.exceptions import InvalidTag as PycaInvalidTag
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

def _gcm_siv_supported():
    try:
        libaead.AESGCMSIV(bytes(16))
        return True
    except libaead.UnsupportedAlgorithm:  # OpenSSL < 3.2 (test_families.py checks the refusal)
        return False


NAMES = ["AESGCM", "ChaCha20Poly1305", "AESCCM", "AESOCB3"] + (["AESGCMSIV"] if _gcm_siv_supported() else [])
BAD_VALUES = ["str", None, 5, 1.5, [1, 2], object(), memoryview(bytearray(40))[::2]]


def outcome(fn):
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return ("raise", type(e))
    # success: the type's name (AESGCM vs AESGCM, bytes vs bytes) and, for counts, the value
    return ("ok", type(value).__name__, value if isinstance(value, int) else None)


def same(ours, theirs):
    """Same outcome: equal success types/values, or the same exception type (ours may subclass)."""
    if theirs[0] == "raise":
        assert ours[0] == "raise", (ours, theirs)
        if theirs[1] is PycaInvalidTag:
            assert ours[1] is libaead.InvalidTag
        else:
            assert ours[1] is theirs[1], (ours, theirs)
    else:
        assert ours == theirs


def pair(name, key):
    return getattr(libaead, name)(key), getattr(pyca, name)(key)


@pytest.mark.parametrize("name", NAMES)
def test_constructor_key_sizes_and_types(name):
    checked = 0
    for key in [bytes(n) for n in range(0, 70)] + BAD_VALUES + [bytearray(32), memoryview(bytes(32))]:
        same(outcome(lambda: getattr(libaead, name)(key)), outcome(lambda: getattr(pyca, name)(key)))
        checked += 1
    assert checked == 79


def test_generate_key_parity():
    for arg in [128, 192, 256, 0, 1, 64, 255, 257, 512, True, False, "128", None, 128.0, -1, 2**70]:
        same(outcome(lambda: libaead.AESGCM.generate_key(arg)), outcome(lambda: pyca.AESGCM.generate_key(arg)))
    for bits in (128, 192, 256):
        key = libaead.AESGCM.generate_key(bit_length=bits)
        assert type(key) is bytes and len(key) == bits // 8
    assert libaead.AESGCM.generate_key(256) != libaead.AESGCM.generate_key(256)
    key = libaead.ChaCha20Poly1305.generate_key()
    assert type(key) is bytes and len(key) == 32
    same(outcome(lambda: libaead.ChaCha20Poly1305.generate_key(256)),
         outcome(lambda: pyca.ChaCha20Poly1305.generate_key(256)))


@pytest.mark.parametrize("name", NAMES)
def test_nonce_lengths_and_types(name):
    key = bytes(range(32))
    ours, theirs = pair(name, key)
    for nonce in [bytes(n) for n in range(0, 140)] + BAD_VALUES:
        for method in ("encrypt", "decrypt"):
            data = bytes(40)
            same(outcome(lambda: getattr(ours, method)(nonce, data, None)),
                 outcome(lambda: getattr(theirs, method)(nonce, data, None)))


@pytest.mark.parametrize("name", NAMES)
def test_data_and_aad_types(name):
    ours, theirs = pair(name, bytes(32))
    nonce = bytes(12)
    ct = theirs.encrypt(nonce, b"x" * 20, b"ad")
    for bad in BAD_VALUES:
        for args in [(nonce, bad, None), (nonce, b"x", bad), (bad, bad, bad), (b"short", bad, None)]:
            same(outcome(lambda: ours.encrypt(*args)), outcome(lambda: theirs.encrypt(*args)))
        for args in [(nonce, bad, b"ad"), (nonce, ct, bad)]:
            same(outcome(lambda: ours.decrypt(*args)), outcome(lambda: theirs.decrypt(*args)))


@pytest.mark.parametrize("name", NAMES)
def test_short_and_tampered_ciphertexts(name):
    ours, theirs = pair(name, bytes(32))
    nonce = bytes(12)
    for n in range(0, 40):
        data = bytes(range(n))
        same(outcome(lambda: ours.decrypt(nonce, data, None)), outcome(lambda: theirs.decrypt(nonce, data, None)))
        same(outcome(lambda: ours.decrypt(b"bad", data, None)), outcome(lambda: theirs.decrypt(b"bad", data, None)))
        for buf_len in (0, max(0, n - 16), n):
            same(outcome(lambda: ours.decrypt_into(nonce, data, None, bytearray(buf_len))),
                 outcome(lambda: theirs.decrypt_into(nonce, data, None, bytearray(buf_len))))
            same(outcome(lambda: ours.decrypt_into(b"bad", data, None, bytearray(buf_len))),
                 outcome(lambda: theirs.decrypt_into(b"bad", data, None, bytearray(buf_len))))


@pytest.mark.parametrize("name", NAMES)
def test_into_buffers(name):
    ours, theirs = pair(name, bytes(32))
    nonce, data = bytes(12), b"y" * 33
    ct = theirs.encrypt(nonce, data, None)
    bufs = [bytearray(n) for n in (0, 32, 33, 34, 48, 49, 50)] + [bytes(49), bytes(33), memoryview(bytes(49)),
                                                                    memoryview(bytearray(98))[::2]] + BAD_VALUES
    for buf in bufs:
        for b_nonce in (nonce, b"x"):
            same(outcome(lambda: ours.encrypt_into(b_nonce, data, None, buf)),
                 outcome(lambda: theirs.encrypt_into(b_nonce, data, None, buf)))
            same(outcome(lambda: ours.decrypt_into(b_nonce, ct, None, buf)),
                 outcome(lambda: theirs.decrypt_into(b_nonce, ct, None, buf)))


@pytest.mark.parametrize("name", NAMES)
def test_call_shapes(name):
    ours, theirs = pair(name, bytes(32))
    n = bytes(12)
    calls = [
        lambda o: o.encrypt(n, b"x"),
        lambda o: o.encrypt(n, b"x", None, None),
        lambda o: o.encrypt(nonce=n, data=b"x", associated_data=None),
        lambda o: o.encrypt(n, data=b"x", associated_data=b"a"),
        lambda o: o.encrypt(n, b"x", aad=None),
        lambda o: o.encrypt_into(n, b"x", None, buf=bytearray(17)),
        lambda o: o.decrypt_into(nonce=n, data=o.encrypt(n, b"", None), associated_data=None, buf=bytearray(0)),
        lambda o: o.decrypt(n, o.encrypt(n, b"", None), None),
        lambda o: o.decrypt(n, o.encrypt(n, b"", b"a"), None),
        lambda o: o.encrypt(),
        lambda o: o.encrypt_into(n, b"x", None),
    ]
    for call in calls:
        same(outcome(lambda: call(ours)), outcome(lambda: call(theirs)))
    # successful calls return the same types
    assert type(ours.encrypt(n, b"", None)) is type(theirs.encrypt(n, b"", None)) is bytes
    assert type(ours.decrypt(n, ours.encrypt(n, b"", None), None)) is bytes


@pytest.mark.parametrize("name", NAMES)
def test_signatures_match(name):
    for method in ("encrypt", "decrypt", "encrypt_into", "decrypt_into", "generate_key"):
        theirs = [p for p in inspect.signature(getattr(getattr(pyca, name), method)).parameters if p != "self"]
        ours = [p for p in inspect.signature(getattr(getattr(libaead, name), method)).parameters if p != "self"]
        assert ours == theirs, (name, method)


@pytest.mark.parametrize("name", NAMES)
def test_objects_are_immutable_final_and_unpicklable(name):
    ours, theirs = pair(name, bytes(32))
    for fn in [lambda o: setattr(o, "x", 1), lambda o: setattr(o, "_ctx", None), lambda o: delattr(o, "_ctx"),
               lambda o: pickle.dumps(o), lambda o: copy.copy(o), lambda o: copy.deepcopy(o)]:
        same(outcome(lambda: fn(ours)), outcome(lambda: fn(theirs)))

    def subclass(base):
        return type("Sub", (base,), {})

    same(outcome(lambda: subclass(getattr(libaead, name))), outcome(lambda: subclass(getattr(pyca, name))))
    ct = ours.encrypt(bytes(12), b"still works", None)
    assert theirs.decrypt(bytes(12), ct, None) == b"still works"


def test_invalid_tag_is_caught_as_pycas():
    obj = libaead.AESGCM(bytes(16))
    with pytest.raises(PycaInvalidTag):
        obj.decrypt(bytes(12), bytes(20), None)
    assert issubclass(libaead.InvalidTag, PycaInvalidTag)
    assert issubclass(libaead.NonceReuseError, ValueError)


# Documented differences (improvements or wider acceptance), asserted so that they stay true.

def test_difference_array_array_is_accepted():
    import array

    obj, ref = pair("AESGCM", bytes(16))
    data = array.array("I", [1, 2, 3])
    with pytest.raises(TypeError):
        ref.encrypt(bytes(12), data, None)
    assert obj.encrypt(bytes(12), data, None) == ref.encrypt(bytes(12), data.tobytes(), None)
