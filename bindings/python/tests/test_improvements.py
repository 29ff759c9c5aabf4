"""The documented improvements over pyca/cryptography 48: a failed decrypt_into leaves zeros, and
inputs over 2**31 - 1 bytes work."""

import mmap
import os

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import libaead

def _gcm_siv_supported():
    try:
        libaead.AESGCMSIV(bytes(16))
        return True
    except libaead.UnsupportedAlgorithm:  # OpenSSL < 3.2
        return False


ALL = ["AESGCM", "ChaCha20Poly1305", "AESGCMForTLS12", "AESGCMForTLS13", "ChaCha20Poly1305ForTLS12",
       "ChaCha20Poly1305ForTLS13", "AESCCM", "AESOCB3", "XChaCha20Poly1305"] + (
           ["AESGCMSIV"] if _gcm_siv_supported() else [])


def _buffers(n):
    m = mmap.mmap(-1, max(n, 1))
    return [bytearray(n), memoryview(bytearray(n + 8))[4:-4], memoryview(m)[:n]]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("size", [1, 16, 100, 5000])
def test_failed_decrypt_into_leaves_zeros(rng, name, size):
    obj = getattr(libaead, name)(rng.randbytes(32))
    nonce = rng.randbytes(24 if name.startswith("XChaCha") else 12)
    aad = bytes(13) if name.endswith("TLS12") else bytes(5) if name.endswith("TLS13") else b"aad"
    plaintext = b"\x5a" * size  # non-zero, so any leaked plaintext shows
    ct = obj.encrypt(nonce, plaintext, aad)
    for tamper in ("tag", "ciphertext", "aad", "nonce"):
        for buf in _buffers(size):
            buf[:] = b"\xff" * size
            n, c, a = nonce, bytearray(ct), aad
            if tamper == "tag":
                c[-1] ^= 1
            elif tamper == "ciphertext":
                c[0] ^= 1
            elif tamper == "aad":
                a = b"\x01" + aad[1:]
            else:
                n = bytes([nonce[0] ^ 1]) + nonce[1:]
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt_into(n, c, a, buf)
            assert bytes(buf) == bytes(size), (tamper, type(buf))
        # and the correct inputs still decrypt into the same buffers
        for buf in _buffers(size):
            assert obj.decrypt_into(nonce, ct, aad, buf) == size
            assert bytes(buf) == plaintext


def _mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@pytest.mark.bigmem
@pytest.mark.skipif(_mem_available() < (6 << 30), reason="needs 6 GiB of free memory")
def test_input_over_2_31_bytes_in_place_against_pyca_streaming():
    """pyca's one-shot AESGCM refuses more than 2**31-1 bytes (OverflowError); libaead takes it. The
    result is checked against pyca's streaming GCM API fed in chunks. In-place, so one 2 GiB buffer."""
    n = (1 << 31) + 5
    key, nonce, aad = os.urandom(16), os.urandom(12), b"large"
    arena = mmap.mmap(-1, n + 16)  # zero-filled: the plaintext is n zero bytes
    view = memoryview(arena)
    obj = libaead.AESGCM(key)
    try:
        assert obj.encrypt_into(nonce, view[:n], aad, view) == n + 16

        chunk = 64 << 20
        zeros = bytes(chunk)
        enc = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
        enc.authenticate_additional_data(aad)
        for off in range(0, n, chunk):
            end = min(n, off + chunk)
            assert enc.update(zeros[: end - off]) == view[off:end], "ciphertext differs at offset %d" % off
        enc.finalize()
        assert enc.tag == view[n:]

        assert obj.decrypt_into(nonce, view, aad, view[:n]) == n
        for off in range(0, n, chunk):
            end = min(n, off + chunk)
            assert view[off:end] == zeros[: end - off]
    finally:
        view.release()
        arena.close()
