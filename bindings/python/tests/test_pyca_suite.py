"""pyca/cryptography's own tests/hazmat/primitives/test_aead.py, run with every AEAD class it imports
swapped for libaead's.

The file comes from the sdist of the installed cryptography version, fetched at test time into the test
cache (tests/_pypi.py; never copied into this repository), with cryptography_vectors of the same version
for its vector tests. It runs in a child pytest (same interpreter, same backend environment: fast, api or
abi) with a plugin that replaces AESGCM, ChaCha20Poly1305, AESCCM, AESGCMSIV, AESOCB3 and AESSIV in
``cryptography.hazmat.primitives.ciphers.aead`` before the file is imported, and checks that the module
under test really holds libaead's classes. The file's ``rust_openssl.CRYPTOGRAPHY_OPENSSL_350_OR_GREATER``
branches (AESSIV and AESGCMSIV with empty data) are answered for libaead's libcrypto: on the system
OpenSSL 3.0 build TestAESSIV.test_empty then checks the "data must not be zero length" refusal.

Deselected, with the reason (DESELECT): the data_too_large tests whose 4 GiB input libaead accepts on
purpose (inputs above 2**31 - 1 bytes work where the mode allows them: AES-GCM, ChaCha20-Poly1305,
AES-OCB3, AES-GCM-SIV's associated data; AES-SIV refuses them as pyca does, so TestAESSIV runs whole).
Everything else must pass; a skip is accepted only for the
"unsupported on older OpenSSL" tests (skipped because the algorithm IS supported) and, on a libcrypto
without AES-GCM-SIV (OpenSSL < 3.2), TestAESGCMSIV (pyca's own skip there).
"""

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import cryptography
import pytest
from _pypi import pip_target, pyca_sdist

import libaead

SWAPPED = ["AESGCM", "ChaCha20Poly1305", "AESCCM", "AESGCMSIV", "AESOCB3", "AESSIV"]
AVAILABLE = [n for n in SWAPPED if hasattr(libaead, n)]

DESELECT = {
    "TestAESGCM::test_data_too_large": "libaead accepts data and AAD over 2**31 - 1 bytes (AES-GCM)",
    "TestChaCha20Poly1305::test_data_too_large": "libaead accepts data and AAD over 2**31 - 1 bytes",
    "TestAESOCB3::test_data_too_large": "libaead accepts OCB3 data and AAD up to 2**36 bytes",
    "TestAESGCMSIV::test_data_too_large": "libaead accepts AES-GCM-SIV associated data up to 2**36 bytes",
}
# TestAESSIV runs whole: libaead's AES-SIV refuses data and components over 2**31 - 1 bytes as pyca does
# (OverflowError), so its test_data_too_large passes unchanged.

PLUGIN = textwrap.dedent('''
    import re
    import sys

    import cryptography.hazmat.primitives.ciphers.aead as pyca_aead
    import libaead

    SWAPPED = %r
    # What the file's "OpenSSL >= 3.5" branches (AESSIV.test_empty, AESGCMSIV's empty data) must ask about
    # is the libcrypto under the swapped classes, libaead's, not the one inside pyca's wheel.
    _m = re.search(r"OpenSSL (\\d+)\\.(\\d+)", libaead.library_version())
    LIBAEAD_350 = _m is not None and (int(_m.group(1)), int(_m.group(2))) >= (3, 5)

    for _name in SWAPPED:
        setattr(pyca_aead, _name, getattr(libaead, _name))


    class _RustOpenSSL:
        """pyca's rust_openssl module as test_aead.py sees it, with CRYPTOGRAPHY_OPENSSL_350_OR_GREATER
        answered for libaead's libcrypto (only that module's name is rebound: pyca itself is unchanged)."""

        def __init__(self, real):
            self._real = real

        def __getattr__(self, name):
            if name == "CRYPTOGRAPHY_OPENSSL_350_OR_GREATER":
                return LIBAEAD_350
            return getattr(self._real, name)


    def pytest_report_header(config):
        return "libaead %%s backend %%s swapped: %%s; OpenSSL >= 3.5 branches: %%s" %% (
            libaead.library_version(), libaead.backend, ", ".join(SWAPPED), LIBAEAD_350)


    def pytest_collection_finish(session):
        mods = {item.module for item in session.items}
        assert mods, "nothing collected"
        for mod in mods:
            for name in SWAPPED:
                assert getattr(mod, name) is getattr(libaead, name), (mod.__name__, name)
            real = getattr(mod, "rust_openssl", None)
            if real is not None and not isinstance(real, _RustOpenSSL):
                mod.rust_openssl = _RustOpenSSL(real)
''')


def gcm_siv_supported() -> bool:
    try:
        libaead.AESGCMSIV(bytes(16))
        return True
    except libaead.UnsupportedAlgorithm:
        return False


def test_pyca_test_aead_with_libaead_classes(tmp_path):
    version = cryptography.__version__
    root = pyca_sdist(version)
    vectors = pip_target("cryptography_vectors==%s" % version, "cryptography_vectors")
    (tmp_path / "libaead_pyca_swap.py").write_text(PLUGIN % (AVAILABLE,))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # none of pyca's options (pytest-benchmark etc.)
    report = tmp_path / "report.xml"
    target = root / "tests" / "hazmat" / "primitives" / "test_aead.py"
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "libaead_pyca_swap",
            "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(root), "--junitxml", str(report),
            "-W", "ignore::DeprecationWarning", str(target)]
    for node in DESELECT:
        # node ids are relative to the rootdir (the sdist)
        if "::" in node:
            args += ["--deselect", "tests/hazmat/primitives/test_aead.py::" + node]
        else:
            args += ["-k", "not " + node]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(vectors), str(root)] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    r = subprocess.run(args, cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=1800)
    assert report.exists(), r.stdout[-4000:] + r.stderr[-4000:]
    counts = {"passed": 0, "skipped": 0, "failed": 0}
    by_class = {}
    bad_skips = []
    for case in ET.parse(report).getroot().iter("testcase"):
        cls = case.get("classname", "").rsplit(".", 1)[-1]
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
            elif child.tag == "skipped" and outcome == "passed":
                outcome = "skipped"
                allowed = ("older_openssl" in case.get("name", "")
                           or (cls == "TestAESGCMSIV" and not gcm_siv_supported()))
                if not allowed:
                    bad_skips.append("%s::%s: %s" % (cls, case.get("name"), child.get("message")))
        counts[outcome] += 1
        by_class.setdefault(cls, {"passed": 0, "skipped": 0, "failed": 0})[outcome] += 1
    print("pyca %s test_aead.py on libaead (%s, backend %s): %s; deselected %d: %s"
          % (version, libaead.library_version(), libaead.backend, counts, len(DESELECT), DESELECT))
    for cls in sorted(by_class):
        print("  %s: %s" % (cls, by_class[cls]))
    assert r.returncode == 0 and counts["failed"] == 0, r.stdout[-8000:]
    assert not bad_skips, bad_skips
    # every class libaead has was really exercised (not skipped wholesale)
    expect = {"TestAESGCM", "TestChaCha20Poly1305", "TestAESCCM", "TestAESOCB3"}
    if gcm_siv_supported():
        expect.add("TestAESGCMSIV")
    if "AESSIV" in AVAILABLE:
        expect.add("TestAESSIV")
    for cls in expect:
        assert by_class.get(cls, {}).get("passed", 0) >= 10, (cls, by_class.get(cls))
