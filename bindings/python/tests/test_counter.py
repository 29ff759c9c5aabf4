"""The counter-nonce classes and SSH (library 1.5): the sequences of Go's TestGCMNoncesFIPSV1
(crypto/cipher/gcm_test.go: NewGCMWithCounterNonce, NewGCMForSSH with x/crypto/ssh's IV increment), the
XOR counter with its mask learned or given, the IV given up front, what each class takes, refusals that
write and use up nothing, random runs against pyca/cryptography, SSH's usage counts, and threads racing
for the same counters. Fork: test_hostile_fork.py."""

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead
from conftest import race_for_sequences

MAX = 2**64 - 1
SSH_AAD = b"\x00\x00\x00\x20"  # a packet length
ORDER, EXHAUSTED, PREFIX = "strictly greater", "2\\*\\*64-1 steps", "bytes 0..3"
# name, pyca twin, key sizes, "counter" (fixed || BE64(start + n)) or "xor" (fixed || BE64(mask ^ n))
CLASSES = [
    ("AESGCMCounterNonce", "AESGCM", (16, 24, 32), "counter"),
    ("ChaCha20Poly1305CounterNonce", "ChaCha20Poly1305", (32,), "counter"),
    ("AESGCMXORCounterNonce", "AESGCM", (16, 24, 32), "xor"),
    ("ChaCha20Poly1305XORCounterNonce", "ChaCha20Poly1305", (32,), "xor"),
    ("AESGCMForSSH", "AESGCM", (16, 32), "counter"),
]


def nonce(fixed, counter):
    return fixed.to_bytes(4, "big") + (counter % 2**64).to_bytes(8, "big")


def nonce_for(kind, iv, n):
    """The nonce of the n-th counter after iv's (counter: start + n; xor: mask ^ n)."""
    rest = int.from_bytes(iv[4:], "big")
    return iv[:4] + (((rest + n) % 2**64) if kind == "counter" else (rest ^ n)).to_bytes(8, "big")


def aad_of(name, rng):
    return SSH_AAD if name == "AESGCMForSSH" else rng.randbytes(rng.randrange(40))


class Checked:
    """An object and its pyca twin: every accepted seal must equal pyca's, every refusal write nothing."""

    def __init__(self, cls, key, iv=None, twin=pyca.AESGCM):
        self.obj, self.ref = cls(key, iv), twin(key)

    def ok(self, n, aad=b""):
        ct = self.obj.encrypt(n, b"x", aad)
        assert ct == self.ref.encrypt(n, b"x", aad)
        assert self.obj.decrypt(n, ct, aad) == b"x"

    def refused(self, n, match, aad=b""):
        buf = bytearray(b"\x5a" * 17)
        with pytest.raises(libaead.NonceReuseError, match=match) as info:
            self.obj.encrypt_into(n, b"x", aad, buf)
        assert buf == b"\x5a" * 17  # a refused seal writes nothing
        assert type(self.obj).__name__ in str(info.value)
        assert isinstance(info.value, ValueError) and not isinstance(info.value, libaead.ForkedContextError)


def test_go_counter_nonce_sequences():
    key = bytes(16)
    g = Checked(libaead.AESGCMCounterNonce, key)
    for c in (0, 1, 100, 1 << 8, 1 << 16, 1 << 24, 1 << 32, 1 << 40, 1 << 48, 1 << 56):
        g.ok(nonce(0, c))
    g.refused(nonce(1, 0), PREFIX)  # changed name

    g = Checked(libaead.AESGCMCounterNonce, key)
    g.ok(nonce(0, 1))
    g.refused(nonce(0, 0), EXHAUSTED)  # went down: below the start is 2**64-1 steps past it

    g = Checked(libaead.AESGCMCounterNonce, key)
    g.ok(bytes.fromhex("0102030405060708090a0b0c"))
    g.ok(bytes.fromhex("0102030405060708090a0b0d"))
    g.refused(bytes.fromhex("0102030405060708090a0b0d"), ORDER)  # did not increment

    g = Checked(libaead.AESGCMCounterNonce, key)
    g.ok(nonce(0x01020304, 0xFFFFFFFFFFFFFF00))
    g.ok(nonce(0x01020304, 0xFFFFFFFFFFFFFFFF))
    g.ok(nonce(0x01020304, 0))  # a wrap is fine until the values run out
    g.ok(nonce(0x01020304, 0xFFFFFFFFFFFFFEFE))
    g.refused(nonce(0x01020304, 0xFFFFFFFFFFFFFEFF), EXHAUSTED)  # back to the start

    g = Checked(libaead.AESGCMCounterNonce, key)
    g.ok(nonce(0x01020304, 0xFFFFFFFFFFFFFFFF))
    g.refused(nonce(0x01020305, 0), PREFIX)  # a wrap carried into the name


def inc_iv(iv):
    """x/crypto/ssh's incIV: the invocation counter (bytes 4..11) plus one, mod 2**64."""
    return iv[:4] + ((int.from_bytes(iv[4:], "big") + 1) % 2**64).to_bytes(8, "big")


def test_go_ssh_sequences():
    key = bytes(16)
    g = Checked(libaead.AESGCMForSSH, key)
    iv = bytes.fromhex("11223344" "0000000000000000")
    g.ok(iv, SSH_AAD)
    iv = inc_iv(iv)
    g.ok(iv, SSH_AAD)
    iv = bytes.fromhex("11223344" "fffffffffffffffe")
    g.ok(iv, SSH_AAD)
    g.refused(inc_iv(iv), EXHAUSTED, SSH_AAD)

    g = Checked(libaead.AESGCMForSSH, key)
    iv = bytes.fromhex("11223344" "fffffffffffffffe")
    for _ in range(4):  # wraps past 2**64-1
        g.ok(iv, SSH_AAD)
        iv = inc_iv(iv)

    g = Checked(libaead.AESGCMForSSH, key)
    g.ok(bytes.fromhex("11223344" "aaaaaaaaaaaaaaaa"), SSH_AAD)
    iv = bytes.fromhex("11223344" "ffffffffffffffff")
    g.ok(iv, SSH_AAD)
    g.ok(inc_iv(iv), SSH_AAD)
    iv = bytes.fromhex("11223344" "aaaaaaaaaaaaaaa8")
    g.ok(iv, SSH_AAD)
    g.refused(inc_iv(iv), EXHAUSTED, SSH_AAD)
    g.refused(bytes.fromhex("11223344" "bbbbbbbbbbbbbbbb"), ORDER, SSH_AAD)


@pytest.mark.parametrize("name", ["AESGCMXORCounterNonce", "ChaCha20Poly1305XORCounterNonce"])
@pytest.mark.parametrize("given", [False, True])
def test_xor_counter_mask_learned_or_given(rng, name, given):
    twin = pyca.ChaCha20Poly1305 if "ChaCha" in name else pyca.AESGCM
    iv = bytes.fromhex("a0a1a2a3" "0123456789abcdef")
    g = Checked(getattr(libaead, name), rng.randbytes(32), iv if given else None, twin)
    aad = rng.randbytes(rng.randrange(40))
    for n in (0, 1, 7):
        g.ok(nonce_for("xor", iv, n), aad)
    g.refused(nonce_for("xor", iv, 7), ORDER)
    g.refused(nonce_for("xor", iv, 3), ORDER)  # its raw nonce is greater than n = 7's: the mask is applied
    g.refused(nonce_for("xor", iv, MAX), "2\\*\\*64-1")
    other = bytearray(nonce_for("xor", iv, 8))
    other[0] ^= 1
    g.refused(bytes(other), PREFIX)
    g.ok(nonce_for("xor", iv, MAX - 1))  # the last one
    g.refused(nonce_for("xor", iv, MAX - 1), ORDER)


@pytest.mark.parametrize("name", ["AESGCMCounterNonce", "AESGCMForSSH"])
def test_iv_given_counter_starts_at_its_value(rng, name):
    aad = SSH_AAD if name == "AESGCMForSSH" else b""
    g = Checked(getattr(libaead, name), rng.randbytes(16), nonce(0xCAFEF00D, 5))
    g.refused(nonce(0xCAFEF00D, 4), EXHAUSTED, aad)  # one before the start: 2**64-1 steps past it
    g.refused(nonce(0xCAFEF00E, 5), PREFIX, aad)
    g.ok(nonce(0xCAFEF00D, 5), aad)
    g.refused(nonce(0xCAFEF00D, 5), ORDER, aad)
    g.ok(nonce(0xCAFEF00D, 9), aad)


@pytest.mark.parametrize("name,twin,key_sizes,kind", CLASSES)
def test_sizes_refused(rng, name, twin, key_sizes, kind):
    cls = getattr(libaead, name)
    for klen in (0, 15, 16, 24, 31, 32, 33):
        if klen in key_sizes:
            cls(bytes(klen))
        else:
            with pytest.raises(ValueError, match="key must be"):
                cls(bytes(klen))
    key = bytes(key_sizes[-1])
    for ivlen in (0, 4, 8, 11, 13, 16):
        with pytest.raises(ValueError, match="iv must be 12 bytes"):
            cls(key, bytes(ivlen))
    obj = cls(key)
    aad = SSH_AAD if name == "AESGCMForSSH" else b""
    for nlen in (0, 8, 11, 13, 16):
        with pytest.raises(ValueError, match="Nonce must be 12 bytes"):
            obj.encrypt(bytes(nlen), b"x", aad)
    # no refusal above learned anything: any first nonce is taken
    iv = rng.randbytes(12)
    obj.encrypt(iv, b"x", aad)
    with pytest.raises(AttributeError):
        obj.x = 1  # immutable, as every class here
    with pytest.raises(TypeError):
        type("Sub", (cls,), {})


def test_ssh_aad_keys_and_usage(rng):
    with pytest.raises(ValueError, match="128 or 256"):
        libaead.AESGCMForSSH(bytes(24))
    with pytest.raises(ValueError):
        libaead.AESGCMForSSH.generate_key(192)
    assert len(libaead.AESGCMForSSH.generate_key(256)) == 32
    key, iv = rng.randbytes(32), rng.randbytes(12)
    obj, ref = libaead.AESGCMForSSH(key, iv), pyca.AESGCM(key)
    assert obj.usage == libaead.SSHUsage(0, 0, 2**32)
    for bad in (None, b"", b"abc", b"abcde", bytes(13)):
        with pytest.raises(ValueError, match="exactly 4 bytes") as info:
            obj.encrypt(iv, b"x", bad)
        assert not isinstance(info.value, libaead.NonceReuseError)
    assert obj.usage.seals == 0  # refusals count nothing
    cts = [obj.encrypt(nonce_for("counter", iv, n), b"packet %d" % n, SSH_AAD) for n in range(5)]
    with pytest.raises(libaead.NonceReuseError):
        obj.encrypt(nonce_for("counter", iv, 4), b"again", SSH_AAD)
    assert obj.usage.seals == 5
    for n, ct in enumerate(cts):
        assert ref.decrypt(nonce_for("counter", iv, n), ct, SSH_AAD) == b"packet %d" % n
    bad = bytearray(cts[0])
    bad[-1] ^= 1
    for _ in range(3):
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(iv, bytes(bad), SSH_AAD)
    with pytest.raises(libaead.InvalidTag):  # decryption takes any AAD, and authenticates it
        obj.decrypt(iv, cts[0], b"\x00\x00\x00\x21")
    assert obj.usage == libaead.SSHUsage(5, 4, 2**32)
    obj.encrypt_many([nonce_for("counter", iv, n) for n in (5, 6, 9)], [b"a", b"b", b"c"], [SSH_AAD] * 3)
    assert obj.usage.seals == 8


@pytest.mark.parametrize("name,twin,key_sizes,kind", CLASSES)
def test_random_runs_against_pyca(rng, name, twin, key_sizes, kind):
    """Random keys, IVs (given or learned), counters with random gaps, data and AAD, through every
    sealing and opening method: each accepted output equals pyca's, both directions; a random earlier or
    equal counter is refused."""
    cls, tcls = getattr(libaead, name), getattr(pyca, twin)
    for _ in range(6):
        key = rng.randbytes(rng.choice(key_sizes))
        iv = rng.randbytes(12)
        obj, ref = cls(key, rng.choice([iv, None])), tcls(key)
        n, done = 0, []
        for step in range(40):
            if step:
                n += rng.choice([1, 1, 2, rng.randrange(1, 1 << 20)])
            nn = nonce_for(kind, iv, n)
            data = rng.randbytes(rng.choice([0, 1, 15, 16, 17, 100, 1500, 70000]))
            aad = aad_of(name, rng)
            how = rng.randrange(3)
            if how == 0:
                ct = obj.encrypt(nn, data, aad)
            elif how == 1:
                buf = bytearray(len(data) + 16)
                assert obj.encrypt_into(nn, data, aad, buf) == len(buf)
                ct = bytes(buf)
            else:
                n2 = n + rng.randrange(1, 5)
                nn2 = nonce_for(kind, iv, n2)
                ct, ct2 = obj.encrypt_many([nn, nn2], [data, b"second"], [aad, aad])
                assert ref.decrypt(nn2, ct2, aad) == b"second"
                n = n2
            assert ct == ref.encrypt(nn, data, aad)
            assert ref.decrypt(nn, ct, aad) == data  # ours -> pyca
            theirs = ref.encrypt(nn, data[::-1], aad)
            assert obj.decrypt(nn, theirs, aad) == data[::-1]  # pyca -> ours, never order-checked
            done.append((nn, ct, data, aad))
            if rng.randrange(4) == 0:
                back = rng.randrange(0, n + 1)
                with pytest.raises(libaead.NonceReuseError):
                    obj.encrypt(nonce_for(kind, iv, back), data, aad)
        for nn, ct, data, aad in rng.sample(done, 10):  # decrypting old packets stays possible
            assert obj.decrypt(nn, ct, aad) == data


@pytest.mark.parametrize("name,twin,key_sizes,kind", CLASSES)
def test_threads_race_for_the_same_counters(rng, name, twin, key_sizes, kind):
    """Four threads try the same counters 1..599 on one object: each counter is accepted at most once,
    by one thread, each thread's accepted counters increase, and the last one is always accepted."""
    key, iv = rng.randbytes(key_sizes[-1]), rng.randbytes(12)
    obj, ref = getattr(libaead, name)(key, iv), getattr(pyca, twin)(key)
    aad = aad_of(name, rng)
    obj.encrypt(nonce_for(kind, iv, 0), b"", aad)
    accepted = race_for_sequences(lambda n: obj.encrypt(nonce_for(kind, iv, n), b"payload %d" % n, aad), 599)
    flat = [n for a in accepted for n, _ in a]
    assert len(flat) == len(set(flat))  # no counter accepted twice
    assert 599 in flat
    for a in accepted:
        assert [n for n, _ in a] == sorted(n for n, _ in a)
        for n, ct in a:
            assert ref.decrypt(nonce_for(kind, iv, n), ct, aad) == b"payload %d" % n
    if name == "AESGCMForSSH":
        assert obj.usage.seals == 1 + len(flat)


def test_indicator_and_version():
    assert libaead.library_version_number() >= 10500
    for name, _, key_sizes, _ in CLASSES:
        ind = getattr(libaead, name)(bytes(key_sizes[-1])).indicator
        assert ind.provider
        if ind.fips and "AESGCM" in name:
            assert ind.seal_approved and ind.open_approved
