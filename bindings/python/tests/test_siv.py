"""AESSIV (library 1.3, aead_seal_open_v): Wycheproof's aead_aes_siv_cmac vectors (the AEAD form: the
components are [aad, nonce]), pyca's SIV openssl.txt vectors through the batch calls, a differential
against pyca/cryptography's AESSIV on random inputs (0-6 components of random lengths, random
plaintext; every call form), and pyca parity of constructors, argument types, exceptions and messages.
pyca's own TestAESSIV runs with this class swapped in (test_pyca_suite.py); the hostile cases are in
test_hostile_siv.py.

Empty plaintexts: OpenSSL < 3.5 cannot seal one (its SIV skips an empty payload), so there the library
refuses (AEAD_ERR_UNSUPPORTED) and the class raises pyca's ValueError("data must not be zero length")
on encryption and InvalidTag when a 16-byte input is decrypted; those cases are counted apart."""

import binascii
import inspect
import json
import os
import re

import cryptography
import pytest
from cryptography.exceptions import InvalidTag as PycaInvalidTag
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from _pypi import pip_target
from conftest import report_vectors, vectors_dir


def libcrypto_version():
    m = re.search(r"OpenSSL (\d+)\.(\d+)", libaead.library_version())
    assert m, libaead.library_version()
    return int(m.group(1)), int(m.group(2))


TAKES_EMPTY = libcrypto_version() >= (3, 5)
EMPTY_MSG = "data must not be zero length"
SIZES = [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 1024, 4095, 16384]


def test_library_has_the_siv_abi():
    lib = libaead._lib
    assert libaead.library_version_number() >= 10300
    assert lib.AEAD_SIV_MAX_COMPONENTS == 126
    assert [lib.aead_key_size(a) for a in (lib.AEAD_AES_128_SIV, lib.AEAD_AES_192_SIV, lib.AEAD_AES_256_SIV)] == [
        32, 48, 64]
    assert lib.aead_tag_size(lib.AEAD_AES_256_SIV) == 16
    if libaead.backend == "fast":  # the compiled core serves AESSIV too
        assert isinstance(libaead.AESSIV(bytes(32)), libaead._fast.SivCore)


def test_wycheproof_aead_aes_siv_cmac():
    """All 900 cases, through AESSIV with associated_data=[aad, iv] (RFC 5297 section 3's nonce-based use:
    the nonce is the last component)."""
    path = vectors_dir() / "wycheproof" / "aead_aes_siv_cmac_test.json"
    data = json.loads(path.read_text())
    counts = {"valid": 0, "invalid": 0, "valid_empty_refused": 0}
    total = 0
    for group in data["testGroups"]:
        for t in group["tests"]:
            total += 1
            key, iv, aad, msg, ct, tag = (bytes.fromhex(t[k]) for k in ("key", "iv", "aad", "msg", "ct", "tag"))
            obj = libaead.AESSIV(key)
            comps = [aad, iv]
            sealed = tag + ct
            if t["result"] == "valid":
                if not msg and not TAKES_EMPTY:
                    with pytest.raises(ValueError, match=EMPTY_MSG):
                        obj.encrypt(msg, comps)
                    with pytest.raises(libaead.InvalidTag):
                        obj.decrypt(sealed, comps)
                    counts["valid_empty_refused"] += 1
                    continue
                assert obj.encrypt(msg, comps) == sealed, t["tcId"]
                assert obj.decrypt(sealed, comps) == msg, t["tcId"]
                buf = bytearray(len(sealed))
                assert obj.encrypt_into(msg, comps, buf) == len(sealed) and buf == sealed
                out = bytearray(len(msg))
                assert obj.decrypt_into(sealed, comps, out) == len(msg) and out == msg
                counts["valid"] += 1
            else:
                assert t["result"] == "invalid", t
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt(sealed, comps)
                out = bytearray(b"\x5a" * len(msg))
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt_into(sealed, comps, out)
                assert out == bytes(len(msg))
                if msg or TAKES_EMPTY:
                    assert obj.encrypt(msg, comps) != sealed
                counts["invalid"] += 1
    report_vectors("wycheproof/aead_aes_siv_cmac_test.json (AESSIV, %s)" % libaead.library_version(), counts["valid"],
                   counts["invalid"], counts["valid_empty_refused"], "empty message below OpenSSL 3.5")
    assert total == data["numberOfTests"] == 900
    assert counts["valid"] + counts["valid_empty_refused"] == 252 and counts["invalid"] == 648
    if TAKES_EMPTY:
        assert counts["valid_empty_refused"] == 0
    else:
        assert counts["valid_empty_refused"] == 57


def _openssl_txt_vectors():
    root = pip_target("cryptography_vectors==%s" % cryptography.__version__, "cryptography_vectors")
    text = (root / "cryptography_vectors" / "ciphers" / "AES" / "SIV" / "openssl.txt").read_text()
    vectors = []
    for block in text.split("\n\n"):
        v = {}
        for line in block.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, value = line.partition("=")
            if name.strip().lower() != "count":
                v[name.strip().lower()] = binascii.unhexlify(value.strip())
        if "key" in v:
            vectors.append(v)
    return vectors


def test_openssl_txt_vectors_through_batches():
    """pyca's ciphers/AES/SIV/openssl.txt (from cryptography_vectors), every vector in one encrypt_many and
    one decrypt_many per key (pyca's TestAESSIV runs them one call at a time in test_pyca_suite.py)."""
    vectors = _openssl_txt_vectors()
    assert len(vectors) >= 4
    checked = 0
    for v in vectors:
        comps = [v[k] for k in ("aad", "aad2", "aad3") if k in v]
        pt = v.get("plaintext", b"")
        obj = libaead.AESSIV(v["key"])
        if not pt and not TAKES_EMPTY:
            continue
        want = v["tag"] + v["ciphertext"]
        assert obj.encrypt_many([pt, pt], [comps, list(comps)]) == [want, want]
        assert obj.decrypt_many([want], [comps]) == [pt]
        buf = bytearray(2 * len(want))
        assert obj.encrypt_many_into([pt, pt], [comps, comps], buf) == len(buf) and bytes(buf) == want * 2
        with pytest.raises(libaead.InvalidTag) as e:
            obj.decrypt_many([want, want], [comps, comps + [b""]])
        assert e.value.index == 1
        checked += 1
    print("openssl.txt SIV vectors: %d of %d through the batch calls" % (checked, len(vectors)))
    assert checked >= len(vectors) - 1


def _buffer(rng, b):
    kind = rng.randrange(3)
    return b if kind == 0 else bytearray(b) if kind == 1 else memoryview(b)


def random_case(rng):
    key = rng.randbytes(rng.choice([32, 48, 64]))
    n = rng.randint(0, 6)
    comps = [rng.randbytes(rng.choice([0, 1, 15, 16, 17, 100, rng.randint(0, 3000)])) for _ in range(n)]
    ad = None if n == 0 and rng.random() < 0.5 else comps
    data = rng.randbytes(rng.choice(SIZES + [rng.randint(0, 5000)]))
    return key, ad, data


def test_differential_against_pyca(rng):
    """Random keys, 0-6 components of random lengths, random plaintexts: ours equals pyca's in both
    directions, in every call form; a flipped bit, a component dropped, appended or swapped is refused by
    both, and ours leaves decrypt_into's buffer zeroed."""
    compared = empty_refused = 0
    for _ in range(400):
        key, ad, data = random_case(rng)
        ours, theirs = libaead.AESSIV(key), pyca.AESSIV(key)
        ad_ours = None if ad is None else [_buffer(rng, c) for c in ad]
        want = theirs.encrypt(data, ad)
        if not data and not TAKES_EMPTY:
            with pytest.raises(ValueError, match=EMPTY_MSG):
                ours.encrypt(data, ad_ours)
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt(want, ad_ours)
            empty_refused += 1
            continue
        ct = ours.encrypt(_buffer(rng, data), ad_ours)
        assert type(ct) is bytes and ct == want
        assert ours.decrypt(_buffer(rng, ct), ad_ours) == data
        assert theirs.decrypt(ct, ad) == data
        buf = bytearray(len(ct))
        assert ours.encrypt_into(data, ad_ours, buf) == len(ct) and buf == ct
        out = bytearray(len(data))
        assert ours.decrypt_into(ct, ad_ours, out) == len(data) and out == data
        bad = bytearray(ct)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        comps = list(ad or [])
        forged = [(bytes(bad), ad)]
        forged.append((ct, comps + [b""]))
        if comps:
            forged.append((ct, comps[:-1]))
            if comps != comps[::-1]:  # (a palindrome such as [b"", x, b""] would be the same list)
                forged.append((ct, comps[::-1]))
        for c, a in forged:
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt(c, a)
            with pytest.raises(PycaInvalidTag):
                theirs.decrypt(c, a)
            out = bytearray(b"\xaa" * len(data))
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt_into(c, a, out)
            assert out == bytes(len(data))
        compared += 1
    print("AESSIV vs pyca %s: %d random cases equal (both directions, _into, forgeries); %d empty plaintexts "
          "refused by contract (OpenSSL < 3.5)" % (cryptography.__version__, compared, empty_refused))
    assert compared + empty_refused == 400 and compared >= 300


def test_batches_equal_pyca_single_calls(rng):
    for _ in range(5):
        key = rng.randbytes(rng.choice([32, 48, 64]))
        ours, theirs = libaead.AESSIV(key), pyca.AESSIV(key)
        count = rng.choice([1, 31, 32, 33, 80])
        datas = [rng.randbytes(rng.choice([1, 16, 64, 1000, 3000])) for _ in range(count)]
        ads = [rng.choice([None, [], [rng.randbytes(rng.randint(0, 50)) for _ in range(rng.randint(1, 6))]])
               for _ in range(count)]
        cts = ours.encrypt_many(datas, ads)
        assert cts == [theirs.encrypt(d, a) for d, a in zip(datas, ads)]
        assert ours.decrypt_many(cts, ads) == datas
        buf = bytearray(sum(map(len, cts)))
        assert ours.encrypt_many_into(datas, ads, buf) == len(buf) and bytes(buf) == b"".join(cts)
        out = bytearray(sum(map(len, datas)))
        assert ours.decrypt_many_into(cts, ads, out) == len(out) and bytes(out) == b"".join(datas)
        assert ours.encrypt_many(datas, None) == [theirs.encrypt(d, None) for d in datas]
        i = rng.randrange(count)
        bad = list(cts)
        bad[i] = bytes([bad[i][0] ^ 1]) + bad[i][1:]
        with pytest.raises(libaead.InvalidTag) as e:
            ours.decrypt_many(bad, ads)
        assert e.value.index == i
        out = bytearray(b"\x11" * sum(map(len, datas)))
        with pytest.raises(libaead.InvalidTag):
            ours.decrypt_many_into(bad, ads, out)
        start = sum(map(len, datas[:i]))
        assert out[start:start + len(datas[i])] == bytes(len(datas[i]))  # the failed record's part is zeroed


def test_batch_refusals_name_the_record():
    obj = libaead.AESSIV(bytes(32))
    with pytest.raises(TypeError) as e:
        obj.encrypt_many([b"a", b"b"], [None, (b"x",)])
    assert e.value.index == 1
    with pytest.raises(ValueError, match="at most 126") as e:
        obj.encrypt_many([b"a", b"b", b"c"], [None, [], [b""] * 127])
    assert e.value.index == 2
    with pytest.raises(TypeError) as e:
        obj.encrypt_many([b"a", b"b"], [[b"x"], [b"y", object()]])
    assert e.value.index == 1
    with pytest.raises(libaead.InvalidTag) as e:
        obj.decrypt_many([bytes(16 + 3), b"short"], None)
    assert e.value.index == 1
    with pytest.raises(ValueError, match="same length"):
        obj.encrypt_many([b"a", b"b"], [None])
    with pytest.raises(ValueError, match="buffer must be 34 bytes"):
        obj.encrypt_many_into([b"a", b"b"], None, bytearray(33))
    if not TAKES_EMPTY:
        with pytest.raises(ValueError, match=EMPTY_MSG) as e:
            obj.encrypt_many([b"a", b""], None)
        assert e.value.index == 1
    assert obj.encrypt_many([], None) == [] and obj.encrypt_many_into([], [], bytearray()) == 0


def outcome(fn):
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the type (and message) is what we compare
        return ("raise", type(e), str(e))
    return ("ok", type(value).__name__, value)


def same(ours, theirs, message=True):
    if theirs[0] == "ok":
        assert ours == theirs
        return
    assert ours[0] == "raise", (ours, theirs)
    if theirs[1] is PycaInvalidTag:
        assert ours[1] is libaead.InvalidTag
    else:
        assert issubclass(ours[1], theirs[1]), (ours, theirs)
    if message:
        # pyca 48 prefixes its argument-conversion messages with "argument '<name>': " (ours, as the
        # drop-in target), pyca 50 does not: the rest must be the same
        assert ours[2] == theirs[2] or re.fullmatch(r"argument '\w+': " + re.escape(theirs[2]), ours[2]), (ours, theirs)


BAD_VALUES = ["str", None, 5, 1.5, (b"a",), b"ab", bytearray(3), [1], [b"a", None], [object()], object(),
              memoryview(bytearray(40))[::2], [memoryview(bytearray(40))[::2]]]


def test_parity_with_pyca():
    key = bytes(range(64))
    ours, theirs = libaead.AESSIV(key), pyca.AESSIV(key)
    for k in [bytes(31), bytes(32), bytes(33), bytes(48), bytes(64), bytes(16), bytearray(32), "x" * 32, None]:
        same(outcome(lambda: type(libaead.AESSIV(k)).__name__), outcome(lambda: type(pyca.AESSIV(k)).__name__),
             message=isinstance(k, (bytes, bytearray)))
    for bits in [256, 384, 512, 128, 192, 0, 257, True, 1.5, "256", None]:
        same(outcome(lambda: len(libaead.AESSIV.generate_key(bits))),
             outcome(lambda: len(pyca.AESSIV.generate_key(bits))), message=False)
    with pytest.raises(ValueError, match=r"^bit_length must be 256, 384, or 512$"):
        libaead.AESSIV.generate_key(128)
    with pytest.raises(ValueError, match=r"^AESSIV key must be 256, 384, or 512 bits\.$"):
        libaead.AESSIV(bytes(16))
    # every bad value in each argument position, good values elsewhere: same type; the messages of the
    # checks pyca makes itself (list type, buffer sizes) are the same too
    for bad in BAD_VALUES:
        for call in ("encrypt", "decrypt"):
            good_data = b"x" * 20
            same(outcome(lambda: getattr(ours, call)(good_data, bad)),
                 outcome(lambda: getattr(theirs, call)(good_data, bad)),
                 message=isinstance(bad, (tuple, bytes, bytearray, str, int, float)) and call == "encrypt")
            same(outcome(lambda: getattr(ours, call)(bad, [b"a"])), outcome(lambda: getattr(theirs, call)(bad, [b"a"])),
                 message=False)
        for call, n in (("encrypt_into", 3 + 16), ("decrypt_into", 20 - 16)):
            same(outcome(lambda: getattr(ours, call)(b"x" * (3 if call == "encrypt_into" else 20), None, bad)),
                 outcome(lambda: getattr(theirs, call)(b"x" * (3 if call == "encrypt_into" else 20), None, bad)),
                 message=False)
    for ptlen, buflen in [(10, 25), (10, 27), (15, 30), (20, 37), (0, 15)]:
        if ptlen == 0 and not TAKES_EMPTY:
            continue
        same(outcome(lambda: ours.encrypt_into(b"x" * ptlen, None, bytearray(buflen))),
             outcome(lambda: theirs.encrypt_into(b"x" * ptlen, None, bytearray(buflen))))
    for ctlen, buflen in [(26, 9), (26, 11), (31, 14), (36, 21), (15, 0), (16, 1)]:
        same(outcome(lambda: ours.decrypt_into(b"x" * ctlen, None, bytearray(buflen))),
             outcome(lambda: theirs.decrypt_into(b"x" * ctlen, None, bytearray(buflen))),
             message=ctlen >= 16)
    same(outcome(lambda: ours.encrypt_into(b"abc", None, bytes(19))),
         outcome(lambda: theirs.encrypt_into(b"abc", None, bytes(19))))
    # None is [] ; a list subclass is a list; short inputs are InvalidTag
    assert ours.encrypt(b"d", None) == ours.encrypt(b"d", []) == theirs.encrypt(b"d", [])

    class L(list):
        pass

    assert ours.encrypt(b"d", L([b"a", b"b"])) == theirs.encrypt(b"d", [b"a", b"b"])
    for short in (b"", b"x", b"x" * 15):
        same(outcome(lambda: ours.decrypt(short, None)), outcome(lambda: theirs.decrypt(short, None)))
    if TAKES_EMPTY:
        assert ours.encrypt(b"", [b""]) == theirs.encrypt(b"", [b""])
        assert ours.decrypt(ours.encrypt(b"", None), None) == b""
    else:
        for fn in (lambda: ours.encrypt(b"", None), lambda: ours.encrypt_into(b"", None, bytearray(16)),
                   lambda: ours.encrypt_into(b"", None, bytearray(3))):  # pyca's order: before the size
            with pytest.raises(ValueError, match=r"^data must not be zero length$"):
                fn()
    for name in ("encrypt", "decrypt", "encrypt_into", "decrypt_into"):
        ours_params = list(inspect.signature(getattr(libaead.AESSIV, name)).parameters)
        assert ours_params == list(inspect.signature(getattr(pyca.AESSIV, name)).parameters), name
    with pytest.raises(TypeError):
        class Sub(libaead.AESSIV):  # final, as pyca's
            pass
    with pytest.raises(AttributeError):
        ours.x = 1


def test_component_limit_is_a_deliberate_difference():
    """126 components work and equal pyca's; 127 are refused (RFC 5297 section 7), where pyca passes them
    all to OpenSSL."""
    obj, ref = libaead.AESSIV(bytes(32)), pyca.AESSIV(bytes(32))
    comps = [bytes([i]) for i in range(126)]
    ct = obj.encrypt(b"msg", comps)
    assert ct == ref.encrypt(b"msg", comps) and obj.decrypt(ct, comps) == b"msg"
    for n in (127, 128, 1000):
        many = [b"a"] * n
        ref.encrypt(b"msg", many)  # pyca accepts
        with pytest.raises(ValueError, match=r"^AESSIV: at most 126 associated data components .* got %d$" % n):
            obj.encrypt(b"msg", many)
        with pytest.raises(ValueError, match="at most 126"):
            obj.decrypt(ct, many)
        buf = bytearray(b"\x33" * 19)
        with pytest.raises(ValueError, match="at most 126"):
            obj.encrypt_into(b"msg", many, buf)
        assert buf == b"\x33" * 19  # refused before the call: nothing written


def test_unsupported_under_fips_properties():
    with pytest.raises(libaead.UnsupportedAlgorithm):
        libaead.AESSIV(bytes(32), properties="fips=yes")
    ind = libaead.AESSIV(bytes(64)).indicator
    assert not ind.fips and not ind.seal_approved and not ind.open_approved


def test_pickling_and_copy_refused():
    import pickle

    obj = libaead.AESSIV(os.urandom(32))
    with pytest.raises(TypeError):
        pickle.dumps(obj)


def test_refused_on_a_library_before_1_3(monkeypatch):
    """The class needs aead_seal_open_v (library 1.3.0): with an older library loaded (simulated: the
    binding's version check) the constructor raises UnsupportedAlgorithm naming the version needed, and
    nothing else changes."""
    monkeypatch.setattr(libaead, "_HAS_SIV_ABI", False)
    with pytest.raises(libaead.UnsupportedAlgorithm, match=r"libaead >= 1\.3\.0"):
        libaead.AESSIV(bytes(32))
    assert libaead.AESGCM(bytes(16)).encrypt(bytes(12), b"x", None)
    monkeypatch.undo()
    assert libaead.AESSIV(bytes(32)).encrypt(b"x", None)
