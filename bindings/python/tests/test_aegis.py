"""The AEGIS family (RFC 10032; libaegis inside libaead): Aegis128L, Aegis256, Aegis128X2, Aegis128X4,
Aegis256X2, Aegis256X4 and their random-nonce classes. RFC 10032's test vectors for every variant with
both tag lengths, through every call form; AEGIS-128L and AEGIS-256 against libsodium (PyNaCl, an
independent implementation; 32-byte tags, libsodium's only length) on 10,000 random cases each, both
directions, a flipped bit refused by both; the sizes and their documented errors; the random-nonce
layout; pyca's object protocol. Not under FIPS: no FIPS provider has AEGIS (test_families_fips.py checks
the refusal)."""

import copy
import inspect
import pickle

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from _pypi import importable
from conftest import report_vectors
from test_families import check_batches

NAMES = ["Aegis128L", "Aegis256", "Aegis128X2", "Aegis128X4", "Aegis256X2", "Aegis256X4"]
KEY = {"Aegis128L": 16, "Aegis128X2": 16, "Aegis128X4": 16, "Aegis256": 32, "Aegis256X2": 32, "Aegis256X4": 32}

# RFC 10032's test vectors (its test-vector appendix, "Test Vector 1".. per variant), the same values as
# the C tests' tests/test_aegis.cpp: variant, number, valid (False: must fail verification, no msg), key,
# nonce, ad, msg, ct, 128-bit tag, 256-bit tag (hex).
RFC_10032 = [
    ("Aegis128L", 1, True,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "",
     "00000000000000000000000000000000",
     "c1c0e58bd913006feba00f4b3cc3594e",
     "abe0ece80c24868a226a35d16bdae37a",
     "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4",
     ),
    ("Aegis128L", 2, True,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "",
     "",
     "",
     "c2b879a67def9d74e6c14f708bbcc9b4",
     "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d",
     ),
    ("Aegis128L", 3, True,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
     "cc6f3372f6aa1bb82388d695c3962d9a",
     "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3",
     ),
    ("Aegis128L", 4, True,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
     ),
    ("Aegis128L", 5, True,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
     "b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10",
     "7542a745733014f9474417b337399507",
     "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98",
     ),
    ("Aegis128L", 6, False,
     "10000200000000000000000000000000",
     "10010000000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
     ),
    ("Aegis128L", 7, False,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc78",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
     ),
    ("Aegis128L", 8, False,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050608",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
     ),
    ("Aegis128L", 9, False,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "6c04b3dba849b2701effbe32c7f0fab8",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad",
     ),
    ("Aegis256", 1, True,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "",
     "00000000000000000000000000000000",
     "754fc3d8c973246dcc6d741412a4b236",
     "3fe91994768b332ed7f570a19ec5896e",
     "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13",
     ),
    ("Aegis256", 2, True,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "",
     "",
     "",
     "e3def978a0f054afd1e761d7553afba3",
     "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a",
     ),
    ("Aegis256", 3, True,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
     "8d86f91ee606e9ff26a01b64ccbdd91d",
     "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a",
     ),
    ("Aegis256", 4, True,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
     ),
    ("Aegis256", 5, True,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
     "57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67",
     "ab8a7d53fd0e98d727accca94925e128",
     "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734",
     ),
    ("Aegis256", 6, False,
     "1000020000000000000000000000000000000000000000000000000000000000",
     "1001000000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
     ),
    ("Aegis256", 7, False,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358459",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
     ),
    ("Aegis256", 8, False,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050608",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
     ),
    ("Aegis256", 9, False,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215653",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da",
     ),
    ("Aegis128X2", 1, True,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "",
     "",
     "",
     "63117dc57756e402819a82e13eca8379",
     "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759",
     ),
    ("Aegis128X2", 2, True,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "0102030401020304",
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607",
     "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff74"
     "7cb3a8f85b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c"
     "9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f",
     "1aebc200804f405cab637f2adebb6d77",
     "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca",
     ),
    ("Aegis128X4", 1, True,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "",
     "",
     "",
     "5bef762d0947c00455b97bb3af30dfa3",
     "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68",
     ),
    ("Aegis128X4", 2, True,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "0102030401020304",
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607",
     "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a"
     "1ad8a9c24ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac"
     "4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e",
     "0e56ab94e2e85db80f9d54010caabfb4",
     "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2",
     ),
    ("Aegis256X2", 1, True,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "",
     "",
     "",
     "62cdbab084c83dacdb945bb446f049c8",
     "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7",
     ),
    ("Aegis256X2", 2, True,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "0102030401020304",
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607",
     "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a"
     "8d36522132761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e"
     "1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42",
     "635d391828520bf1512763f0c8f5cdbd",
     "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7",
     ),
    ("Aegis256X4", 1, True,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "",
     "",
     "",
     "3b7fee6cee7bf17888ad11ed2397beb4",
     "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf",
     ),
    ("Aegis256X4", 2, True,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "0102030401020304",
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "040506070405060704050607040506070405060704050607",
     "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e14541"
     "53a34b11da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d"
     "0426e702391d2ff5813808b81748a490dd656465fed61f09",
     "b63b611b13975e2f3dc3cb6c2397bfcd",
     "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c",
     ),
]


def _h(s):
    return bytes.fromhex(s)


def test_rfc_10032_vectors_every_variant_both_tags():
    sealed = refused = 0
    for name, num, valid, key, nonce, ad, msg, ct, tag128, tag256 in RFC_10032:
        for tag_len, tag in ((16, tag128), (32, tag256)):
            where = "%s test vector %d, tag %d" % (name, num, tag_len)
            obj = getattr(libaead, name)(_h(key), tag_len)
            assert obj.tag_length == tag_len
            nonce_b, ad_b, ct_b = _h(nonce), _h(ad), _h(ct)
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
            msg_b = _h(msg)
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
