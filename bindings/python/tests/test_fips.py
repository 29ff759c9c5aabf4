"""ABI 1.1 in Python: TLS IVs given up front, properties, the FIPS indicator; FIPS-aware (the fips stage
sets LIBAEAD_TEST_FIPS=1 and an OPENSSL_CONF whose only cipher provider is the FIPS one).

No pyca/cryptography here: under the FIPS stage its own OpenSSL would load the same fips.so, which can
serve one libcrypto per process (conftest.py leaves out the modules that need pyca there). The plain
classes are the reference instead (pyca-checked by test_differential.py on every other run)."""

import os
import subprocess
import sys

import pytest
import libaead

from conftest import FIPS

AES = ["AESGCM", "AESGCMForTLS12", "AESGCMForTLS13", "AESGCMRandomNonce"]
CHACHA = ["ChaCha20Poly1305", "ChaCha20Poly1305ForTLS12", "ChaCha20Poly1305ForTLS13"]


def xor_nonce(iv, seq):
    return bytes(a ^ b for a, b in zip(iv, bytes(4) + seq.to_bytes(8, "big")))


@pytest.mark.parametrize("name,aad_len", [("AESGCMForTLS13", 5), ("ChaCha20Poly1305ForTLS13", 5),
                                          ("ChaCha20Poly1305ForTLS12", 13)])
def test_tls_xor_iv_up_front(rng, name, aad_len):
    key, iv = rng.randbytes(32), rng.randbytes(12)
    obj = getattr(libaead, name)(key, iv)
    ref = (libaead.AESGCM if name.startswith("AES") else libaead.ChaCha20Poly1305)(key)
    aad = rng.randbytes(aad_len)
    # nothing is learned: the first seal may be any sequence number, not only 0
    assert obj.encrypt(xor_nonce(iv, 5), b"rec", aad) == ref.encrypt(xor_nonce(iv, 5), b"rec", aad)
    for seq in (5, 4, 0):
        with pytest.raises(libaead.NonceReuseError):
            obj.encrypt(xor_nonce(iv, seq), b"rec", aad)
    wrong_prefix = bytearray(xor_nonce(iv, 6))
    wrong_prefix[0] ^= 1
    with pytest.raises(libaead.NonceReuseError, match="bytes 0..3"):
        obj.encrypt(bytes(wrong_prefix), b"rec", aad)
    with pytest.raises(libaead.NonceReuseError, match="2\\*\\*64-1"):
        obj.encrypt(xor_nonce(iv, 2**64 - 1), b"rec", aad)
    assert obj.decrypt(xor_nonce(iv, 6), obj.encrypt(xor_nonce(iv, 6), b"rec", aad), aad) == b"rec"
    with pytest.raises(ValueError, match="iv must be 12 bytes"):
        getattr(libaead, name)(key, bytes(4))


def test_tls12_aes_salt_or_salt_and_mask(rng):
    key, salt, mask = rng.randbytes(16), rng.randbytes(4), rng.randbytes(8)
    ref, aad = libaead.AESGCM(key), bytes(13)
    counter = libaead.AESGCMForTLS12(key, salt)  # explicit nonce = BE64(seq): libssl, Go
    assert counter.encrypt(salt + (7).to_bytes(8, "big"), b"r", aad) == ref.encrypt(salt + (7).to_bytes(8, "big"), b"r", aad)
    with pytest.raises(libaead.NonceReuseError, match="strictly greater"):
        counter.encrypt(salt + (7).to_bytes(8, "big"), b"r", aad)
    with pytest.raises(libaead.NonceReuseError, match="fixed part"):
        counter.encrypt(bytes(4) + (8).to_bytes(8, "big"), b"r", aad)
    masked = libaead.AESGCMForTLS12(key, salt + mask)  # explicit = mask XOR BE64(seq): rustls

    def rustls_nonce(seq):
        return salt + bytes(a ^ b for a, b in zip(mask, seq.to_bytes(8, "big")))

    for seq in (0, 1, 2, 100):
        assert masked.encrypt(rustls_nonce(seq), b"r", aad) == ref.encrypt(rustls_nonce(seq), b"r", aad)
    for seq in (100, 99, 0):
        with pytest.raises(libaead.NonceReuseError):
            masked.encrypt(rustls_nonce(seq), b"r", aad)
    for bad in (bytes(0), bytes(3), bytes(5), bytes(13)):
        with pytest.raises(ValueError, match="iv must be 4 bytes"):
            libaead.AESGCMForTLS12(key, bad)
    with pytest.raises(TypeError):
        libaead.AESGCM(key, salt)  # only the TLS classes take an iv


def test_properties_argument():
    with pytest.raises(TypeError):
        libaead.AESGCM(bytes(16), properties=b"fips=yes")
    with pytest.raises(ValueError, match="255"):
        libaead.AESGCM(bytes(16), properties="x" * 300)
    if FIPS:
        obj = libaead.AESGCM(bytes(16), properties="fips=yes")
        assert obj.indicator.provider == "fips"
    else:
        obj = libaead.AESGCM(bytes(16), properties="provider=default")
        assert obj.indicator.provider == "default"
        for name in AES + CHACHA:
            with pytest.raises(libaead.UnsupportedAlgorithm):  # no FIPS provider here: refused cleanly
                getattr(libaead, name)(bytes(32), properties="fips=yes")
    assert libaead.AESGCM(bytes(16)).encrypt(bytes(12), b"x", None) == obj.encrypt(bytes(12), b"x", None)


@pytest.mark.skipif(FIPS, reason="the default provider's answers")
def test_indicator_default_provider():
    for name in AES + CHACHA:
        ind = getattr(libaead, name)(bytes(32)).indicator
        assert ind == libaead.Indicator("default", False, False, False), (name, ind)


@pytest.mark.skipif(not FIPS, reason="needs LIBAEAD_TEST_FIPS=1 (the fips stage)")
def test_indicator_under_fips():
    expected_seal = {"AESGCM": False, "AESGCMForTLS12": True, "AESGCMForTLS13": True, "AESGCMRandomNonce": True}
    for name in AES:
        ind = getattr(libaead, name)(bytes(32)).indicator
        assert ind == libaead.Indicator("fips", True, expected_seal[name], True), (name, ind)


@pytest.mark.skipif(not FIPS, reason="needs LIBAEAD_TEST_FIPS=1 (the fips stage)")
def test_chacha_is_refused_cleanly_under_fips():
    for name in CHACHA:
        with pytest.raises(libaead.UnsupportedAlgorithm, match="ChaCha20Poly1305"):
            getattr(libaead, name)(bytes(32))
    # the AES classes still work, through the FIPS provider, on every call shape
    obj = libaead.AESGCMRandomNonce(bytes(16))
    assert obj.decrypt(obj.encrypt(b"fips", b"ad"), b"ad") == b"fips"
    assert obj.decrypt_many(obj.encrypt_many([b"a", b"bc"], None), None) == [b"a", b"bc"]
    gcm = libaead.AESGCM(bytes(32))
    nonces = [bytes([i]) * 12 for i in range(3)]
    cts = gcm.encrypt_many(nonces, [b"x", b"y", b"z"], None)
    assert cts == [gcm.encrypt(n, d, None) for n, d in zip(nonces, [b"x", b"y", b"z"])]
    with pytest.raises(libaead.InvalidTag):
        gcm.decrypt(nonces[0], cts[1], None)


_CHILD = r"""
import libaead
objs = [libaead.AESGCM(bytes(16)), libaead.AESGCMForTLS13(bytes(16), bytes(12)), libaead.AESGCMRandomNonce(bytes(32))]
assert objs[0].decrypt(bytes(12), objs[0].encrypt(bytes(12), b"x", None), None) == b"x"
assert objs[2].decrypt(objs[2].encrypt(b"y", None), None) == b"y"
objs[1].encrypt_many([bytes(12)], [b"z"], [bytes(5)])
print("child ok", libaead.backend, objs[0].indicator.provider)
"""


@pytest.mark.parametrize("mode", ["default", "abi"])
def test_process_exit_is_clean(mode):
    """A process that used the library (under FIPS: with the provider loaded) exits with status 0 and
    nothing on stderr; a crash at exit (dlclose order) would show here."""
    env = dict(os.environ)
    if mode == "abi":
        env["LIBAEAD_FORCE_ABI"] = "1"
    proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stderr == ""
    assert proc.stdout.startswith("child ok")
    assert proc.stdout.split()[-1] == ("fips" if FIPS else "default")
