"""Which path the package runs on, and parity of the ABI-mode (ffi.dlopen) fallback with API mode."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

import libaead

from conftest import FIPS


def test_backend_is_the_expected_one():
    expected = os.environ.get("LIBAEAD_EXPECT_BACKEND")
    if expected is None:
        if os.environ.get("LIBAEAD_FORCE_ABI", "") not in ("", "0"):
            expected = "abi"
        elif os.environ.get("LIBAEAD_NO_FAST", "") not in ("", "0"):
            expected = "api"
        else:
            expected = "fast"
    assert libaead.backend == expected
    assert (libaead._fast is not None) == (expected == "fast")


def test_library_version_and_abi():
    assert libaead._lib.aead_abi_version() == 1
    assert libaead.library_version_number() >= libaead._loader.MIN_VERSION_NUMBER >= 10300
    text = libaead.library_version()
    assert text.startswith("libaead ") and "OpenSSL" in text


def test_bundled_library_is_the_one_loaded():
    """The default wheel carries libaead.so.1 and every path loads that copy (no LD_LIBRARY_PATH)."""
    from libaead import _config

    if not getattr(_config, "BUNDLED", False):
        pytest.skip("built with LIBAEAD_SYSTEM=1")
    bundled = os.path.join(os.path.dirname(libaead.__file__), "libaead.so.1")
    assert os.path.isfile(bundled)
    with open("/proc/self/maps") as f:
        mapped = {line.split()[-1] for line in f if "libaead.so" in line}
    assert mapped == {os.path.realpath(bundled)}, mapped


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
    algorithms = [("AESGCM", 16), ("AESGCM", 24), ("AESGCM", 32)] + ([] if FIPS else [("ChaCha20Poly1305", 32)])
    for name, klen in algorithms:
        for _ in range(8):
            nlen = 12 if name.startswith("ChaCha") else rng.randint(8, 128)
            cases.append([name, rng.randbytes(klen).hex(), rng.randbytes(nlen).hex(),
                          rng.randbytes(rng.randint(0, 40)).hex(), rng.randbytes(rng.randint(0, 300)).hex()])
    env = dict(os.environ, LIBAEAD_FORCE_ABI=force)
    env.pop("LIBAEAD_NO_FAST", None)
    proc = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(cases), env=env,
                          capture_output=True, text=True, check=True)
    child = json.loads(proc.stdout)
    fast_built = importlib.util.find_spec("libaead._fast") is not None
    api_built = importlib.util.find_spec("libaead._aead_cffi") is not None
    expected = "abi" if force == "1" or not api_built else "fast" if fast_built else "api"
    assert child["backend"] == expected
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
    bundled = os.path.join(os.path.dirname(libaead.__file__), "libaead.so.1")
    if os.path.exists(bundled):
        assert candidates[1] == bundled
    assert candidates[-1] == "libaead.so.1"
    monkeypatch.setattr(_loader, "_abi_candidates", lambda: ["/nonexistent/dir/libaead.so.1"])
    with pytest.raises(ImportError, match="/nonexistent/dir/libaead.so.1"):
        _loader._load_abi()
