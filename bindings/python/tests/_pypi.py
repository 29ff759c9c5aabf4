"""Test-time fetches from PyPI (never committed to the repository): pyca/cryptography's sdist, for its own
tests/hazmat/primitives/test_aead.py, and wheels the comparisons need (cryptography_vectors, PyNaCl).

Everything lands in a cache directory ($LIBAEAD_TEST_CACHE, else ~/.cache/libaead-tests) so that the
several runs of test.sh fetch once. The sdist is found through the index's simple API (PIP_INDEX_URL
or pypi.org), the same page pip reads, and its sha256 from that page is checked; wheels are installed
with pip itself (``pip install --no-deps --target``). A fetch that fails FAILS the calling test."""

import hashlib
import os
import re
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

import pytest


def cache_dir() -> Path:
    d = Path(os.environ.get("LIBAEAD_TEST_CACHE") or Path.home() / ".cache" / "libaead-tests")
    d.mkdir(parents=True, exist_ok=True)
    return d


def _index_url() -> str:
    return (os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple").rstrip("/")


def pyca_sdist(version: str) -> Path:
    """The unpacked cryptography-<version> sdist (its tests/ tree is what the callers use)."""
    root = cache_dir() / ("cryptography-%s" % version)
    if (root / "tests" / "hazmat" / "primitives" / "test_aead.py").is_file():
        return root
    name = "cryptography-%s.tar.gz" % version
    try:
        page = urllib.request.urlopen("%s/cryptography/" % _index_url(), timeout=120).read().decode()
        links = [u for u in re.findall(r'href="([^"]+)"', page) if u.split("#")[0].endswith("/" + name)]
        if not links:
            pytest.fail("%s is not on the index %s" % (name, _index_url()))
        url = links[0].replace("&amp;", "&")
        data = urllib.request.urlopen(urllib.request.urljoin(_index_url() + "/cryptography/", url),
                                      timeout=300).read()
    except OSError as e:
        pytest.fail("cannot fetch %s from %s: %s" % (name, _index_url(), e))
    want = re.search(r"sha256=([0-9a-f]{64})", url)
    if want is None or hashlib.sha256(data).hexdigest() != want.group(1):
        pytest.fail("%s: sha256 does not match the index's" % name)
    tmp = cache_dir() / (name + ".part")
    tmp.write_bytes(data)
    with tarfile.open(tmp) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith("cryptography-%s/tests/" % version)
                   and m.isfile()]
        try:
            tar.extractall(cache_dir(), members=members, filter="data")
        except TypeError:  # a Python without extraction filters (before 3.11.4)
            tar.extractall(cache_dir(), members=members)
    tmp.unlink()
    return root


def pip_target(requirement: str, module: str) -> Path:
    """A directory where ``import module`` finds ``requirement`` (installed there with pip once)."""
    target = cache_dir() / ("site-" + re.sub(r"[^A-Za-z0-9.]+", "_", requirement))
    if (target / module).exists():
        return target
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--only-binary", ":all:", "--target", str(target), requirement],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not (target / module).exists():
        pytest.fail("pip could not install %s: %s" % (requirement, r.stderr[-2000:]))
    return target


def importable(requirement: str, module: str) -> None:
    """Makes ``module`` importable in this process: the installed one if any, else the cached copy."""
    try:
        __import__(module)
        return
    except ImportError:
        pass
    sys.path.insert(0, str(pip_target(requirement, module)))
    __import__(module)
