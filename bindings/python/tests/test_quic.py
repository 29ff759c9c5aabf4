"""libaead.quic (ABI 1.2, docs/quic.md): aioquic's AEAD / HeaderProtection interface and the one-call
PacketProtector, against RFC 9001 Appendix A byte for byte, against aioquic's own ``aioquic._crypto``
classes and pyca/cryptography on random packets, the refusals, and a whole aioquic connection in memory
running on libaead's classes. Runs on every path (fast, api, abi): libaead.quic uses the cffi lib."""

import datetime
import os

import pytest

import libaead
from libaead import quic

from conftest import FIPS

# RFC 9001 A.1: Initial keys for DCID 0x8394c8f03e515708 (client, server) and A.5's 1-RTT ChaCha20 keys.
CLIENT = (b"aes-128-gcm", "1f369613dd76d5467730efcbe3b1a22d", "fa044b2f42a3fd3b46fb255c", "9f50449e04a0e810283a1e9933adedd2")
SERVER = (b"aes-128-gcm", "cf3a5331653c364c88f0f379b6067e37", "0ac1493ca1905853b0bba03e", "c206b8d9b9f0f37644430b490eeaa314")
CHACHA = (b"chacha20-poly1305", "c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8",
          "e0459b3474bdd0e44a41c144", "25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")
HP_NAME = {b"aes-128-gcm": b"aes-128-ecb", b"aes-256-gcm": b"aes-256-ecb", b"chacha20-poly1305": b"chacha20"}

CLIENT_HELLO_FRAME = (
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e86804fe3a47f06a2b69484c00000413011302010000c000"
    "000010000e00000b6578616d706c652e636f6dff01000100000a00080006001d0017001800100007000504616c706e0005000501000000"
    "00003300260024001d00209370b2c9caa47fbabaf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b0003020304000d0010000e"
    "0403050306030203080408050806002d00020101001c00024001003900320408ffffffffffffffff05048000ffff07048000ffff080110"
    "0104800075300901100f088394c8f03e51570806048000ffff")
CLIENT_INITIAL_PROTECTED = (
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27"
    "cd449f63300099f3991c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c8eb7539ec4d4905fed1bee1fc8aa"
    "fba17c750e2c7ace01e6005f80fcb7df621230c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5457afd84d0"
    "5dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c2084dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948"
    "838a3aec4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc"
    "3dd60bc8e30c5c4287e53805db059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c7b4378e846d29f37ed7b"
    "4ea9ec5d82e7961b7f25a9323851f681d582363aa5f89937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556be"
    "52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c7468449a13d8e3b95811a198f3491de3e7fe942b330407abf8"
    "2a4ed7c1b311663ac69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00f064c99e3dd97911d39fe9c5d0b23a"
    "229a234cb36186c4819e8b9c5927726632291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe5896425c5bac4aee8"
    "2e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f5"
    "8891ffef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198e3fc433f9f2541010ae17c1bf202580f6047472f"
    "b36857fe843b19f5984009ddc324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73203a4a13e96f5432ec0fd4"
    "a1ee65accdd5e3904df54c1da510b0ff20dcc0c77fcb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450efc60"
    "ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03adea2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f"
    "296bfb5e72404790a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2162f40a29f0c3c8745c0f50fba3852e5"
    "66d44575c29d39a03f0cda721984b6f440591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca06948109f23f350"
    "db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f"
    "76f0be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f0940054da48781893a7e49ad5aff4af300cd804a6b6279a"
    "b3ff3afb64491c85194aab760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9f96f3ca9ec1dde434da7d2d3"
    "92b905ddf3d1f9af93d1af5950bd493f5aa731b4056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd46840647e78bf"
    "e706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241e221af44860018ab0856972e194cd934")

VECTORS = [
    ("A.2-client-initial", CLIENT, "c300000001088394c8f03e5157080000449e00000002",
     bytes.fromhex(CLIENT_HELLO_FRAME).ljust(1162, b"\0"), 2, CLIENT_INITIAL_PROTECTED),
    ("A.3-server-initial", SERVER, "c1000000010008f067a5502a4262b50040750001",
     bytes.fromhex("02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf73988cfc79825df566dc5430b9a045a12"
                   "00130100002e00330024001d00209d3c940d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a"
                   "002b00020304"), 1,
     "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a5816b6394100f37a1c69797554780bb38cc5a99f5ede4c"
     "f73c3ec2493a1839b3dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84022f8ef4cdd93795d77d06edbb7a"
     "af2f58891850abbdca3d20398c276456cbc42158407dd074ee"),
    ("A.5-chacha20-short-header", CHACHA, "4200bff4", b"\x01", 654360564, "4cfe4189655e5cd55c41f69080575d7999c25a5bfb"),
]

needs_pyca = pytest.mark.skipif(FIPS, reason="pyca/cryptography and aioquic cannot share the FIPS provider (conftest.py)")


def keys(suite):
    name, key, iv, hp = suite
    return name, bytes.fromhex(key), bytes.fromhex(iv), bytes.fromhex(hp)


def pn_len(header):
    return (header[0] & 3) + 1


@pytest.mark.parametrize("vector", VECTORS, ids=[v[0] for v in VECTORS])
def test_rfc9001_two_calls(vector):
    """aioquic's CryptoContext steps (encrypt, apply; remove, decrypt) on libaead's classes."""
    _, suite, header, payload, pn, expected = vector
    name, key, iv, hp_key = keys(suite)
    header, expected = bytes.fromhex(header), bytes.fromhex(expected)
    aead, hp = quic.AEAD(name, key, iv), quic.HeaderProtection(HP_NAME[name], hp_key)
    assert hp.apply(header, aead.encrypt(payload, header, pn)) == expected
    pn_offset = len(header) - pn_len(header)
    plain_header, truncated = quic.HeaderProtection(HP_NAME[name], hp_key).remove(expected, pn_offset)
    assert plain_header == header
    assert truncated == pn & ((1 << (8 * pn_len(header))) - 1)
    assert quic.AEAD(name, key, iv).decrypt(expected[len(header):], plain_header, pn) == payload


@pytest.mark.parametrize("vector", VECTORS, ids=[v[0] for v in VECTORS])
def test_rfc9001_one_call(vector):
    _, suite, header, payload, pn, expected = vector
    name, key, iv, hp_key = keys(suite)
    header, expected = bytes.fromhex(header), bytes.fromhex(expected)
    blank = header[:len(header) - pn_len(header)] + bytes(pn_len(header))  # the library writes the pn
    sender = quic.PacketProtector(name, key, iv, hp_key)
    assert sender.protect(blank, payload, pn) == expected
    assert sender.usage == quic.Usage(1, 0)
    # In place, from a bytearray with room for the tag.
    buf = bytearray(header + payload + bytes(16))
    assert quic.PacketProtector(name, key, iv, hp_key).protect_into(buf, len(header), len(payload), pn) == len(expected)
    assert bytes(buf) == expected
    receiver = quic.PacketProtector(name, key, iv, hp_key)
    pn_offset = len(header) - pn_len(header)
    assert receiver.unprotect(expected, pn_offset, pn - 1) == (header, payload, pn)
    buf = bytearray(expected)
    assert receiver.unprotect_into(buf, pn_offset, pn - 1) == (len(header), len(payload), pn)
    assert bytes(buf[:len(header) + len(payload)]) == header + payload
    assert receiver.usage == quic.Usage(0, 0)


def test_rfc9001_a2_mask():
    """A.2's sample d1b1c98d... gives mask 437b9aec36: the first byte c3 -> c0, the pn 00000002 -> 7b9aec34."""
    _, _, _, hp_key = keys(CLIENT)
    hp = quic.HeaderProtection(b"aes-128-ecb", hp_key)
    protected = bytes.fromhex(CLIENT_INITIAL_PROTECTED)
    assert protected[22:38].hex() == "d1b1c98dd7689fb8ec11d242b123dc9b"
    header, truncated = hp.remove(protected, 18)
    assert header.hex() == "c300000001088394c8f03e5157080000449e00000002" and truncated == 2


# --- random packets: libaead (both paths) == aioquic's own classes == pyca/cryptography ------------------

SUITES = [(b"aes-128-gcm", 16), (b"aes-256-gcm", 32), (b"chacha20-poly1305", 32)]


def random_header(rng, pn, long_header, min_pn_len=1):
    n = rng.randrange(min_pn_len, 5)  # packet-number length (RFC 9000 A.2: enough for the receiver to decode)
    if long_header:
        first = 0xC0 | (rng.randrange(4) << 4) | (rng.randrange(4) << 2) | (n - 1)
        body = os.urandom(rng.randrange(6, 40))
    else:
        first = 0x40 | (rng.randrange(8) << 2) | (n - 1)
        body = os.urandom(rng.randrange(0, 21))
    return bytes([first]) + body + (pn & ((1 << (8 * n)) - 1)).to_bytes(n, "big")


def pyca_protect(name, key, iv, hp_key, header, payload, pn):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

    nonce = (int.from_bytes(iv, "big") ^ pn).to_bytes(12, "big")
    cls = ChaCha20Poly1305 if name == b"chacha20-poly1305" else AESGCM
    ct = cls(key).encrypt(nonce, payload, header)
    n = pn_len(header)
    sample = ct[4 - n:20 - n]
    if name == b"chacha20-poly1305":
        mask = Cipher(algorithms.ChaCha20(hp_key, sample), None).encryptor().update(bytes(5))
    else:
        mask = Cipher(algorithms.AES(hp_key), modes.ECB()).encryptor().update(sample)[:5]
    out = bytearray(header + ct)
    out[0] ^= mask[0] & (0x0F if out[0] & 0x80 else 0x1F)
    for i in range(n):
        out[len(header) - n + i] ^= mask[1 + i]
    return bytes(out)


@needs_pyca
@pytest.mark.parametrize("suite", SUITES, ids=[s[0].decode() for s in SUITES])
def test_random_packets_differential(suite, rng):
    from aioquic import _crypto as aq

    name, key_len = suite
    key, iv, hp_key = os.urandom(key_len), os.urandom(12), os.urandom(key_len)
    ours = quic.AEAD(name, key, iv), quic.HeaderProtection(HP_NAME[name], hp_key)
    theirs = aq.AEAD(name, key, iv), aq.HeaderProtection(HP_NAME[name], hp_key)
    sender = quic.PacketProtector(name, key, iv, hp_key)
    receiver = quic.PacketProtector(name, key, iv, hp_key)
    rx_aead = quic.AEAD(name, key, iv)
    pn = rng.randrange(0, 1 << 20)
    largest = None
    for i in range(150):
        pn += rng.choice((1, 1, 1, 2, 7, 300))
        step = pn - (pn if largest is None else largest)
        header = random_header(rng, pn, rng.random() < 0.5, 1 if step < 100 else 2)
        payload = os.urandom(rng.choice((rng.randrange(4, 64), rng.randrange(0, 1400))) if i else 4)
        payload = payload if len(payload) + pn_len(header) >= 4 else payload.ljust(4, b"\0")
        expected = theirs[1].apply(header, theirs[0].encrypt(payload, header, pn))
        assert ours[1].apply(header, ours[0].encrypt(payload, header, pn)) == expected
        assert pyca_protect(name, key, iv, hp_key, header, payload, pn) == expected
        assert sender.protect(bytearray(header), memoryview(payload), pn) == expected
        pn_offset = len(header) - pn_len(header)
        # Receive: aioquic's remove on libaead's packet, libaead's remove/decrypt, the one call.
        assert ours[1].remove(expected, pn_offset) == theirs[1].remove(expected, pn_offset)
        plain_header, _ = ours[1].remove(expected, pn_offset)
        assert rx_aead.decrypt(expected[len(header):], plain_header, pn) == payload
        assert receiver.unprotect(expected, pn_offset, pn - 1 if largest is None else largest) == (header, payload, pn)
        largest = pn
    assert sender.usage == quic.Usage(150, 0) and ours[0].usage.seals == 150


@pytest.mark.parametrize("suite", SUITES, ids=[s[0].decode() for s in SUITES])
def test_random_one_call_equals_two_calls(suite, rng):
    """Without pyca (and so under FIPS too): the one call and the two calls agree, and round-trip."""
    name, key_len = suite
    key, iv, hp_key = os.urandom(key_len), os.urandom(12), os.urandom(key_len)
    aead, hp = quic.AEAD(name, key, iv), quic.HeaderProtection(HP_NAME[name], hp_key)
    one = quic.PacketProtector(name, key, iv, hp_key)
    rx = quic.PacketProtector(name, key, iv, hp_key)
    for pn in range(0, 3000, 17):
        header = random_header(rng, pn, rng.random() < 0.5)
        payload = os.urandom(rng.randrange(4, 300))
        packet = hp.apply(header, aead.encrypt(payload, header, pn))
        assert one.protect(header, payload, pn) == packet
        assert rx.unprotect(packet, len(header) - pn_len(header), max(pn - 1, 0) if pn else None) == (header, payload, pn)


# --- refusals ---------------------------------------------------------------------------------------------

def test_constructor_refusals():
    with pytest.raises(quic.CryptoError, match="Invalid cipher name: aes-128-ecb"):
        quic.AEAD(b"aes-128-ecb", bytes(16), bytes(12))
    with pytest.raises(quic.CryptoError, match="Invalid cipher name: aes-128-gcm"):
        quic.HeaderProtection(b"aes-128-gcm", bytes(16))
    with pytest.raises(quic.CryptoError, match="Invalid iv length"):
        quic.AEAD(b"aes-128-gcm", bytes(16), bytes(11))
    with pytest.raises(ValueError):
        quic.AEAD(b"aes-128-gcm", bytes(24), bytes(12))  # no AES-192 QUIC suite
    with pytest.raises(ValueError):
        quic.AEAD(b"aes-128-gcm", bytes(15), bytes(12))
    with pytest.raises(ValueError):
        quic.HeaderProtection(b"aes-256-ecb", bytes(24))
    with pytest.raises(quic.CryptoError):
        quic.PacketProtector(b"chacha20", bytes(32), bytes(12), bytes(32))
    with pytest.raises(quic.CryptoError, match="Invalid iv length"):
        quic.PacketProtector(b"aes-128-gcm", bytes(16), bytes(13), bytes(16))
    with pytest.raises(ValueError):
        quic.PacketProtector(b"aes-128-gcm", bytes(16), bytes(12), bytes(32 + 1))


@pytest.mark.skipif(FIPS, reason="ChaCha20 under the FIPS provider")
def test_constructor_refusals_chacha():
    with pytest.raises(ValueError):
        quic.AEAD(b"chacha20-poly1305", bytes(16), bytes(12))
    with pytest.raises(ValueError):
        quic.HeaderProtection(b"chacha20", bytes(16))


def test_exception_hierarchy():
    assert issubclass(quic.CryptoError, ValueError)
    assert issubclass(quic.PacketNumberError, quic.CryptoError)
    assert issubclass(quic.PacketNumberError, libaead.NonceReuseError)
    assert issubclass(quic.KeyLimitError, quic.CryptoError)
    if not FIPS:
        from aioquic._crypto import CryptoError

        assert issubclass(quic.CryptoError, CryptoError)  # aioquic's ``except CryptoError`` catches ours


def test_packet_number_order_refused():
    name, key, iv, hp_key = keys(CLIENT)
    aead = quic.AEAD(name, key, iv)
    aead.encrypt(b"a", b"h", 5)
    for bad in (5, 4, 0):
        with pytest.raises(quic.PacketNumberError, match="greater than every packet number"):
            aead.encrypt(b"a", b"h", bad)
    with pytest.raises(quic.PacketNumberError):
        aead.encrypt(b"a", b"h", 1 << 62)
    with pytest.raises(quic.PacketNumberError):
        aead.encrypt(b"a", b"h", 1 << 64)  # reaches the IV's fixed 4 bytes
    with pytest.raises(OverflowError):
        aead.encrypt(b"a", b"h", -1)  # as aioquic: (iv ^ pn).to_bytes refuses it
    assert aead.usage.seals == 1  # refusals use nothing up
    aead.encrypt(b"a", b"h", 6)  # gaps allowed, the next one still works
    aead.encrypt(b"a", b"h", (1 << 62) - 1)
    # Decryption checks no order.
    rx = quic.AEAD(name, key, iv)
    ct = quic.AEAD(name, key, iv).encrypt(b"x" * 20, b"h", 9)
    assert rx.decrypt(ct, b"h", 9) == rx.decrypt(ct, b"h", 9) == b"x" * 20


def test_protect_refusals_change_nothing():
    name, key, iv, hp_key = keys(CLIENT)
    p = quic.PacketProtector(name, key, iv, hp_key)
    header = bytes.fromhex("4100bff4")  # short header, 2-byte pn
    p.protect(header, bytes(30), 10)
    with pytest.raises(quic.PacketNumberError):
        p.protect(header, bytes(30), 10)
    buf = bytearray(header + bytes(30) + bytes(16))
    before = bytes(buf)
    with pytest.raises(quic.PacketNumberError):
        p.protect_into(buf, len(header), 30, 3)
    assert bytes(buf) == before  # the header bytes the library would write were put back
    with pytest.raises(ValueError, match="header_len"):
        p.protect_into(bytearray(10), 4, 30, 11)
    with pytest.raises(quic.CryptoError, match="too short to sample"):
        p.protect(header, b"\x01", 11)  # pn 2 bytes + payload 1 < 4
    with pytest.raises(ValueError):
        p.protect(b"\x43", bytes(30), 11)  # header shorter than its 4-byte pn field + 1
    with pytest.raises(TypeError):
        p.protect_into(bytes(50), 4, 30, 11)  # read-only buffer
    assert p.usage == quic.Usage(1, 0)
    p.protect(header, bytes(30), 11)
    assert p.usage.seals == 2


def test_decrypt_and_unprotect_failures():
    name, key, iv, hp_key = keys(CLIENT)
    expected = bytes.fromhex(CLIENT_INITIAL_PROTECTED)
    aead = quic.AEAD(name, key, iv)
    payload = expected[22:]
    with pytest.raises(quic.CryptoError):
        aead.decrypt(payload, bytes.fromhex("c300000001088394c8f03e5157080000449e00000003"), 2)
    with pytest.raises(quic.CryptoError):
        aead.decrypt(payload[:15], b"", 2)  # shorter than a tag
    assert aead.usage.forgeries == 1
    hp = quic.HeaderProtection(b"aes-128-ecb", hp_key)
    with pytest.raises(quic.CryptoError, match="too short to sample"):
        hp.remove(expected[:37], 18)
    with pytest.raises(quic.CryptoError, match="too short to sample"):
        hp.apply(b"\x40\x00", b"\x00" * 15)
    rx = quic.PacketProtector(name, key, iv, hp_key)
    tampered = bytearray(expected)
    tampered[500] ^= 1
    with pytest.raises(quic.CryptoError):
        rx.unprotect(bytes(tampered), 18, 1)
    buf = bytearray(tampered)
    with pytest.raises(quic.CryptoError):
        rx.unprotect_into(buf, 18, 1)
    assert bytes(buf[:22]) == expected[:22]  # header restored as it arrived
    assert not any(buf[22:-16]) and bytes(buf[-16:]) == expected[-16:]  # payload zeroed, the tag left
    with pytest.raises(quic.CryptoError):
        rx.unprotect(expected[:36], 18, 1)  # too short for a sample and a tag
    assert rx.usage.forgeries >= 2
    assert rx.unprotect(expected, 18, 1)[2] == 2  # still works


def test_objects_are_frozen():
    name, key, iv, hp_key = keys(CLIENT)
    for obj in (quic.AEAD(name, key, iv), quic.HeaderProtection(b"aes-128-ecb", hp_key),
                quic.PacketProtector(name, key, iv, hp_key)):
        with pytest.raises(AttributeError):
            obj._ctx = None
        import pickle

        with pytest.raises(TypeError):
            pickle.dumps(obj)


# --- aioquic end to end, in memory, on libaead's classes ------------------------------------------------

def _certificate():
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .sign(key, hashes.SHA256()))
    return cert, key


@needs_pyca
@pytest.mark.parametrize("suite", ["AES_128_GCM_SHA256", "AES_256_GCM_SHA384", "CHACHA20_POLY1305_SHA256"],
                         ids=["aes-128-gcm", "aes-256-gcm", "chacha20-poly1305"])
def test_aioquic_connection_in_memory(monkeypatch, suite):
    import aioquic.quic.crypto as aq_crypto
    from aioquic.quic.configuration import QuicConfiguration
    from aioquic.quic.connection import QuicConnection
    from aioquic.quic.events import HandshakeCompleted, StreamDataReceived
    from aioquic.tls import CipherSuite

    made = []

    def spy(cls):
        def make(*args):
            obj = cls(*args)
            made.append(obj)
            return obj
        return make

    # The two-line swap of the README (through spies that keep the objects, to read their usage).
    monkeypatch.setattr(aq_crypto, "AEAD", spy(quic.AEAD))
    monkeypatch.setattr(aq_crypto, "HeaderProtection", spy(quic.HeaderProtection))

    cert, key = _certificate()
    suites = [getattr(CipherSuite, suite)]
    client = QuicConnection(configuration=QuicConfiguration(is_client=True, server_name="localhost",
                                                            verify_mode=0, cipher_suites=suites))
    server = QuicConnection(configuration=QuicConfiguration(is_client=False, certificate=cert, private_key=key,
                                                            cipher_suites=suites),
                            original_destination_connection_id=client.original_destination_connection_id)
    caddr, saddr = ("1.2.3.4", 1234), ("2.3.4.5", 4433)
    now = 1000.0
    client.connect(saddr, now=now)
    received = {client: bytearray(), server: bytearray()}
    done = {client: False, server: False}
    flipped = []

    def pump(rounds=1):
        nonlocal now
        for _ in range(rounds):
            moved = False
            for a, b, addr in ((client, server, caddr), (server, client, saddr)):
                for data, _ in a.datagrams_to_send(now=now):
                    moved = True
                    if len(flipped) < 3 and done[client] and done[server] and len(data) > 200:
                        bad = bytearray(data)
                        bad[-20] ^= 0x01  # a forged copy: dropped by the receiver (CryptoError), then the real one
                        flipped.append(len(data))
                        b.receive_datagram(bytes(bad), addr, now=now)
                    b.receive_datagram(data, addr, now=now)
                while True:
                    ev = b.next_event()
                    if ev is None:
                        break
                    if isinstance(ev, HandshakeCompleted):
                        done[b] = True
                    elif isinstance(ev, StreamDataReceived):
                        received[b] += ev.data
            now += 0.01
            if not moved:
                for c in (client, server):
                    t = c.get_timer()
                    if t is not None and t <= now + 0.5:
                        now = max(now, t)
                        c.handle_timer(now=now)

    pump(20)
    assert done[client] and done[server]
    data_c, data_s = os.urandom(300_000), os.urandom(200_000)
    sid = client.get_next_available_stream_id()
    client.send_stream_data(sid, data_c, end_stream=True)
    answered = False
    for i in range(400):
        pump()
        if received[server] and not answered:  # the stream exists on the server now: answer on it
            server.send_stream_data(sid, data_s, end_stream=True)
            answered = True
        if i == 3:
            before_update = len(made)
            client.request_key_update()  # forced key update mid-transfer: new AEAD objects both ways
        if len(received[server]) == len(data_c) and len(received[client]) == len(data_s):
            break
    assert bytes(received[server]) == data_c
    assert bytes(received[client]) == data_s
    assert flipped, "no packet was forged"
    aeads = [o for o in made if isinstance(o, quic.AEAD)]
    assert len(aeads) >= 8 and any(isinstance(o, quic.HeaderProtection) for o in made)
    assert sum(a.usage.seals for a in aeads) > 300  # every packet went through libaead
    assert sum(a.usage.forgeries for a in aeads) >= len(flipped)
    assert len(made) >= before_update + 4  # the key update's next-phase keys on both sides
