"""The library 1.2 families: AESCCM, AESGCMSIV, AESOCB3 against pyca/cryptography, and
XChaCha20Poly1305 (+ its random-nonce class) against libsodium (PyNaCl), on random inputs in both
directions, every call form (single, _into, batch); plus pyca parity of constructors, sizes, exception
types and messages, and AES-GCM-SIV's refusal on a libcrypto without it (OpenSSL < 3.2)."""

import inspect
import re

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from _pypi import importable

PYCA_NAMES = ["AESCCM", "AESGCMSIV", "AESOCB3"]
SIZES = [0, 1, 2, 15, 16, 17, 31, 63, 64, 65, 255, 1024, 4095, 16384, 65535]


def libcrypto_version():
    m = re.search(r"OpenSSL (\d+)\.(\d+)", libaead.library_version())
    assert m, libaead.library_version()
    return int(m.group(1)), int(m.group(2))


HAS_GCM_SIV = libcrypto_version() >= (3, 2)


def needs(name):
    if name == "AESGCMSIV" and not HAS_GCM_SIV:
        pytest.skip("AES-GCM-SIV needs OpenSSL >= 3.2 (test_gcm_siv_refused_before_3_2 checks the refusal)")


def nonce_range(name):
    return {"AESCCM": (7, 13), "AESGCMSIV": (12, 12), "AESOCB3": (12, 15)}[name]


def make(name, key, tag=16):
    if name == "AESCCM":
        return libaead.AESCCM(key, tag), pyca.AESCCM(key, tag)
    return getattr(libaead, name)(key), getattr(pyca, name)(key)


def random_case(rng, name):
    key = rng.randbytes(rng.choice([16, 24, 32]))
    tag = rng.choice([4, 6, 8, 10, 12, 14, 16]) if name == "AESCCM" else 16
    lo, hi = nonce_range(name)
    nonce = rng.randbytes(rng.randint(lo, hi))
    size = rng.choice(SIZES + [rng.randint(0, 5000)])
    if name == "AESCCM":
        size = min(size, (1 << (8 * (15 - len(nonce)))) - 1)
    data = rng.randbytes(size)
    aad = rng.choice([None, b"", rng.randbytes(rng.choice([1, 13, 100, 3000]))])
    return key, tag, nonce, data, aad


@pytest.mark.parametrize("name", PYCA_NAMES)
def test_differential_against_pyca(rng, name):
    needs(name)
    checked = 0
    for _ in range(300):
        key, tag, nonce, data, aad = random_case(rng, name)
        ours, theirs = make(name, key, tag)
        ct = ours.encrypt(nonce, data, aad)
        assert type(ct) is bytes and len(ct) == len(data) + tag
        assert ct == theirs.encrypt(nonce, data, aad)
        assert theirs.decrypt(nonce, ct, aad) == data
        assert ours.decrypt(nonce, ct, aad) == data
        buf = bytearray(len(ct))
        assert ours.encrypt_into(nonce, data, aad, buf) == len(ct) and buf == ct
        out = bytearray(len(data))
        assert ours.decrypt_into(nonce, ct, aad, out) == len(data) and out == data
        # one flipped bit anywhere: both refuse, ours leaves buf zeroed
        bad = bytearray(ct)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt(nonce, bytes(bad), aad)
        with pytest.raises(pyca.InvalidTag if hasattr(pyca, "InvalidTag") else Exception):
            theirs.decrypt(nonce, bytes(bad), aad)
        out = bytearray(b"\xaa" * len(data))
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt_into(nonce, bytes(bad), aad, out)
        assert out == bytes(len(data))
        checked += 1
    print("%s: %d random cases equal to pyca (both directions, _into, tampering)" % (name, checked))
    assert checked == 300


@pytest.mark.parametrize("name", PYCA_NAMES)
def test_batches_equal_single_calls(rng, name):
    needs(name)
    key = rng.randbytes(32)
    tag = 12 if name == "AESCCM" else 16
    ours, theirs = make(name, key, tag)
    lo, hi = nonce_range(name)
    nonces = [rng.randbytes(rng.randint(lo, hi)) for _ in range(40)]
    datas = [rng.randbytes(rng.choice([0, 1, 64, 1000, 3000])) for _ in range(40)]
    aads = [rng.choice([None, rng.randbytes(20)]) for _ in range(40)]
    check_batches(ours, theirs.encrypt, nonces, datas, aads)


def check_batches(ours, reference, nonces, datas, aads):
    """The batch calls of ``ours`` equal ``reference(nonce, data, aad)`` record by record, both ways and into
    one buffer; a changed byte in record 7 is refused, naming it."""
    cts = ours.encrypt_many(nonces, datas, aads)
    assert cts == [reference(n, d, a) for n, d, a in zip(nonces, datas, aads)]
    assert ours.decrypt_many(nonces, cts, aads) == datas
    buf = bytearray(sum(map(len, cts)))
    assert ours.encrypt_many_into(nonces, datas, aads, buf) == len(buf) and bytes(buf) == b"".join(cts)
    out = bytearray(sum(map(len, datas)))
    assert ours.decrypt_many_into(nonces, cts, aads, out) == len(out) and bytes(out) == b"".join(datas)
    bad = list(cts)
    bad[7] = bytes([bad[7][0] ^ 1]) + bad[7][1:]
    with pytest.raises(libaead.InvalidTag) as e:
        ours.decrypt_many(nonces, bad, aads)
    assert e.value.index == 7


def test_ccm_rules_match_pyca():
    key = bytes(range(16))
    for tag in [None, 16, 4, 6, 14, 0, 2, 3, 5, 7, 15, 17, 18, 32, -1, True, 2**64, 1.5, "8"]:
        try:
            pyca.AESCCM(key, tag)
            theirs = None
        except Exception as e:  # noqa: BLE001 - the type and message are what we compare
            theirs = (type(e), str(e))
        try:
            libaead.AESCCM(key, tag)
            ours = None
        except Exception as e:  # noqa: BLE001
            ours = (type(e), str(e))
        if theirs is None:
            assert ours is None, (tag, ours)
        else:
            assert ours is not None and ours[0] is theirs[0], (tag, ours, theirs)
            if theirs[0] is ValueError:
                assert ours[1] == theirs[1]
    for key_len in range(0, 40):
        for cls in (libaead.AESCCM, pyca.AESCCM):
            if key_len in (16, 24, 32):
                cls(bytes(key_len))
            else:
                with pytest.raises(ValueError, match="AESCCM key must be 128, 192, or 256 bits."):
                    cls(bytes(key_len))
    # the length field: 2**(8 * (15 - n)) - 1 bytes fit, one more does not (13-byte nonce: 65535)
    ours, theirs = make("AESCCM", key)
    for nonce_len in (13, 12):
        limit = (1 << (8 * (15 - nonce_len))) - 1
        nonce = bytes(nonce_len)
        if limit < 1 << 20:
            assert ours.encrypt(nonce, bytes(limit), None) == theirs.encrypt(nonce, bytes(limit), None)
        for obj in (ours, theirs):
            with pytest.raises(ValueError, match="Data too long for nonce"):
                obj.encrypt(nonce, bytes(limit + 2), None)
            with pytest.raises(ValueError, match="Data too long for nonce"):
                obj.decrypt_into(nonce, bytes(limit + 2 + 16), None, bytearray(limit + 2))
        with pytest.raises(ValueError, match="Data too long for nonce") as e:
            ours.encrypt_many([nonce, nonce], [b"", bytes(limit + 2)], None)
        assert e.value.index == 1


@pytest.mark.parametrize("name", PYCA_NAMES)
def test_nonce_lengths_messages_and_short_inputs_match_pyca(name):
    needs(name)
    ours, theirs = make(name, bytes(16))
    for n in range(0, 20):
        for call in (lambda o: o.encrypt(bytes(n), b"data", None),
                     lambda o: o.decrypt(bytes(n), bytes(40), None),
                     lambda o: o.decrypt(bytes(n), bytes(3), None),
                     lambda o: o.encrypt_into(bytes(n), b"data", None, bytearray(20)),
                     lambda o: o.decrypt_into(bytes(n), bytes(40), None, bytearray(24))):
            results = []
            for obj in (ours, theirs):
                try:
                    results.append(("ok", type(call(obj)).__name__))
                except Exception as e:  # noqa: BLE001
                    results.append((type(e).__name__, str(e) if isinstance(e, ValueError) else ""))
            assert results[0] == results[1], (name, n, results)


@pytest.mark.parametrize("name", PYCA_NAMES)
def test_keys_generate_key_and_signatures_match_pyca(name):
    needs(name)
    for key_len in range(0, 70):
        res = []
        for cls in (getattr(libaead, name), getattr(pyca, name)):
            try:
                cls(bytes(key_len))
                res.append("ok")
            except ValueError as e:
                res.append(str(e))
        assert res[0] == res[1], (name, key_len, res)
    for bits in (128, 192, 256):
        assert len(getattr(libaead, name).generate_key(bits)) == bits // 8
    for bad in (0, 127, 512, -1):
        res = []
        for cls in (getattr(libaead, name), getattr(pyca, name)):
            with pytest.raises((ValueError, OverflowError)) as e:
                cls.generate_key(bad)
            res.append(type(e.value))
        assert res[0] is res[1], (bad, res)
    for method in ("encrypt", "decrypt", "encrypt_into", "decrypt_into"):
        theirs = [p for p in inspect.signature(getattr(getattr(pyca, name), method)).parameters if p != "self"]
        ours = [p for p in inspect.signature(getattr(getattr(libaead, name), method)).parameters if p != "self"]
        assert ours == theirs, (name, method)
    with pytest.raises(TypeError):
        type("Sub", (getattr(libaead, name),), {})


def test_gcm_siv_refused_before_3_2():
    if HAS_GCM_SIV:
        obj = libaead.AESGCMSIV(bytes(32))
        # RFC 8452 appendix C.1, the first AEAD_AES_128_GCM_SIV case (empty plaintext and AAD)
        key = bytes.fromhex("01000000000000000000000000000000")
        nonce = bytes.fromhex("030000000000000000000000")
        assert libaead.AESGCMSIV(key).encrypt(nonce, b"", b"") == bytes.fromhex("dc20e2d83f25705bb49e439eca56de25")
        assert obj.decrypt(bytes(12), obj.encrypt(bytes(12), b"x", None), None) == b"x"
        return
    from cryptography.exceptions import UnsupportedAlgorithm as PycaUnsupported
    from cryptography.exceptions import _Reasons

    for key_len in (16, 24, 32):
        with pytest.raises(libaead.UnsupportedAlgorithm) as e:
            libaead.AESGCMSIV(bytes(key_len))
        assert isinstance(e.value, PycaUnsupported)
        assert e.value._reason is _Reasons.UNSUPPORTED_CIPHER
        assert "AES-GCM-SIV is not supported by this version of OpenSSL" in str(e.value)
        assert "vendored" in str(e.value)
    with pytest.raises(ValueError, match="AES-GCM-SIV key must be 128, 192 or 256 bits."):
        libaead.AESGCMSIV(bytes(20))  # the size check still comes first


# ---- XChaCha20-Poly1305 against libsodium (PyNaCl) ----

@pytest.fixture(scope="module")
def sodium():
    importable("pynacl", "nacl")
    import nacl.bindings

    return nacl.bindings


def test_xchacha_differential_against_libsodium(rng, sodium):
    enc = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt
    dec = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt
    checked = 0
    for _ in range(400):
        key = rng.randbytes(32)
        nonce = rng.randbytes(24)
        data = rng.randbytes(rng.choice(SIZES + [rng.randint(0, 5000)]))
        aad = rng.choice([None, b"", rng.randbytes(rng.choice([1, 13, 100, 3000]))])
        ours = libaead.XChaCha20Poly1305(key)
        ct = ours.encrypt(nonce, data, aad)
        assert ct == enc(data, aad, nonce, key)
        assert dec(ct, aad, nonce, key) == data
        assert ours.decrypt(nonce, ct, aad) == data
        bad = bytearray(ct)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt(nonce, bytes(bad), aad)
        checked += 1
    print("XChaCha20Poly1305: %d random cases equal to libsodium" % checked)
    assert checked == 400


def test_xchacha_random_nonce_layout_is_libsodiums(rng, sodium):
    key = rng.randbytes(32)
    obj = libaead.XChaCha20Poly1305RandomNonce(key)
    assert obj.NONCE_SIZE == 24 and obj.OVERHEAD == 40
    nonces = set()
    for _ in range(200):
        data = rng.randbytes(rng.choice(SIZES))
        aad = rng.randbytes(rng.randint(0, 40))
        out = obj.encrypt(data, aad)
        assert len(out) == len(data) + 40
        nonces.add(out[:24])
        assert sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(out[24:], aad, out[:24], key) == data
        assert obj.decrypt(out, aad) == data
        mine = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(data, aad, bytes(24), key)
        assert obj.decrypt(bytes(24) + mine, aad) == data
    assert len(nonces) == 200
    outs = obj.encrypt_many([b"a", b"bc", b""], None)
    assert [len(o) for o in outs] == [41, 42, 40]
    assert obj.decrypt_many(outs, None) == [b"a", b"bc", b""]
    buf = bytearray(41)
    assert obj.encrypt_into(b"a", None, buf) == 41 and obj.decrypt(bytes(buf), None) == b"a"
    with pytest.raises(libaead.InvalidTag):
        obj.decrypt(bytes(39), None)
    with pytest.raises(ValueError, match="buffer must be 41 bytes"):
        obj.encrypt_into(b"a", None, bytearray(29))


def test_xchacha_sizes_and_messages():
    with pytest.raises(ValueError, match="XChaCha20Poly1305 key must be 32 bytes."):
        libaead.XChaCha20Poly1305(bytes(16))
    obj = libaead.XChaCha20Poly1305(bytes(32))
    for n in (0, 12, 23, 25):
        with pytest.raises(ValueError, match="Nonce must be 24 bytes"):
            obj.encrypt(bytes(n), b"", None)
        with pytest.raises(ValueError, match="Nonce must be 24 bytes"):
            obj.decrypt_many([bytes(n)], [bytes(16)], None)
    with pytest.raises(libaead.InvalidTag):
        obj.decrypt(bytes(24), bytes(15), None)
    assert len(libaead.XChaCha20Poly1305.generate_key()) == 32
    # draft-irtf-cfrg-xchacha-03 appendix A.3.1
    key = bytes(range(0x80, 0xA0))
    nonce = bytes(range(0x40, 0x58))
    aad = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
    pt = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
          b"sunscreen would be it.")
    ct = libaead.XChaCha20Poly1305(key).encrypt(nonce, pt, aad)
    assert ct[-16:].hex() == "c0875924c1c7987947deafd8780acf49"
    assert ct[:16].hex() == "bd6d179d3e83d43b9576579493c0e939"
