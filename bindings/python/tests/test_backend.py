"""Which path the package runs on, and parity of the ABI-mode (ffi.dlopen) fallback with API mode."""

import json
import os
import subprocess
import sys

import pytest

import libaead


def test_backend_is_the_expected_one():
    expected = os.environ.get("LIBAEAD_EXPECT_BACKEND")
    if expected is None:
        expected = "abi" if os.environ.get("LIBAEAD_FORCE_ABI", "") not in ("", "0") else "api"
    assert libaead.backend == expected


def test_library_version_and_abi():
    assert libaead._lib.aead_abi_version() == 1
    text = libaead.library_version()
    assert text.startswith("libaead ") and "OpenSSL" in text


def test_cdef_constants_match_library_sizes():
    lib = libaead._lib
    assert lib.aead_key_size(lib.AEAD_AES_128_GCM) == 16
    assert lib.aead_key_size(lib.AEAD_AES_192_GCM) == 24
    assert lib.aead_key_size(lib.AEAD_AES_256_GCM) == 32
    assert lib.aead_key_size(lib.AEAD_CHACHA20_POLY1305) == 32
    assert lib.aead_nonce_size(lib.AEAD_CHACHA20_POLY1305) == 12
    assert lib.aead_tag_size(lib.AEAD_AES_256_GCM) == 16
    assert lib.aead_key_size(99) == 0


_CHILD = r"""
import json, sys, libaead
out = {"backend": libaead.backend, "results": []}
for name, key, nonce, aad, data in json.loads(sys.stdin.read()):
    cls = getattr(libaead, name)
    obj = cls(bytes.fromhex(key))
    ct = obj.encrypt(bytes.fromhex(nonce), bytes.fromhex(data), bytes.fromhex(aad))
    buf = bytearray(len(ct) - 16)
    obj.decrypt_into(bytes.fromhex(nonce), ct, bytes.fromhex(aad), buf)
    try:
        obj.decrypt(bytes.fromhex(nonce), ct[:-1] + bytes([ct[-1] ^ 1]), bytes.fromhex(aad))
        failed = False
    except libaead.InvalidTag:
        failed = True
    out["results"].append([ct.hex(), bytes(buf).hex(), failed])
print(json.dumps(out))
"""


@pytest.mark.parametrize("force", ["0", "1"])
def test_abi_and_api_modes_agree(rng, force):
    """Runs the same operations in a child process forced onto each path and compares with this one."""
    cases = []
    for name, klen in [("AESGCM", 16), ("AESGCM", 24), ("AESGCM", 32), ("ChaCha20Poly1305", 32)]:
        for _ in range(8):
            nlen = 12 if name.startswith("ChaCha") else rng.randint(8, 128)
            cases.append([name, rng.randbytes(klen).hex(), rng.randbytes(nlen).hex(),
                          rng.randbytes(rng.randint(0, 40)).hex(), rng.randbytes(rng.randint(0, 300)).hex()])
    env = dict(os.environ, LIBAEAD_FORCE_ABI=force)
    proc = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(cases), env=env,
                          capture_output=True, text=True, check=True)
    child = json.loads(proc.stdout)
    if force == "1":
        assert child["backend"] == "abi"
    for (name, key, nonce, aad, data), (ct, pt, failed) in zip(cases, child["results"]):
        obj = getattr(libaead, name)(bytes.fromhex(key))
        assert ct == obj.encrypt(bytes.fromhex(nonce), bytes.fromhex(data), bytes.fromhex(aad)).hex()
        assert pt == data
        assert failed is True
    assert len(child["results"]) == len(cases)


def test_abi_loader_search_order_and_error(monkeypatch):
    from libaead import _loader

    monkeypatch.setenv("LIBAEAD_LIBRARY", "/nonexistent/dir/libaead.so.1")
    candidates = _loader._abi_candidates()
    assert candidates[0] == "/nonexistent/dir/libaead.so.1"
    assert candidates[-1] == "libaead.so.1"
    monkeypatch.setattr(_loader, "_abi_candidates", lambda: ["/nonexistent/dir/libaead.so.1"])
    with pytest.raises(ImportError, match="/nonexistent/dir/libaead.so.1"):
        _loader._load_abi()
