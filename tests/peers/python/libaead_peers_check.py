"""pytest plugin of tests/peers/run.py (-p libaead_peers_check), loaded in the control and in the libaead
runs alike. It records each test's outcome into $LIBAEAD_PEERS_OUTCOMES (JSON) for peers.py compare, and
checks after collection that pyca/cryptography is the version pinned ($LIBAEAD_PEERS_PYCA, that of the
suite) and that the suite holds the classes of the side under test:
  LIBAEAD_PEERS_SIDE=pyca          pyca's own classes, and libaead is not imported;
  LIBAEAD_PEERS_SIDE=<backend>     libaead's classes, libaead.backend is <backend> (fast, api, abi), and the
                                   suite's rust_openssl.CRYPTOGRAPHY_OPENSSL_350_OR_GREATER branches (AES-SIV
                                   and AES-GCM-SIV with empty input) ask about the same OpenSSL series as the
                                   libcrypto under libaead (pyca's wheel carries its own).
"""

import json
import os
import re
import sys

import pytest

SWAPPED = ("AESCCM", "AESGCM", "AESGCMSIV", "AESOCB3", "AESSIV", "ChaCha20Poly1305")
SIDE = os.environ["LIBAEAD_PEERS_SIDE"]
_outcomes = {}


def pytest_report_header(config):
    if SIDE == "pyca":
        import cryptography

        return "peers: control, pyca/cryptography %s" % cryptography.__version__
    import libaead

    return "peers: libaead %s, backend %s" % (libaead.library_version(), libaead.backend)


def _check_module(mod):
    if SIDE == "pyca":
        import cryptography.hazmat.primitives.ciphers.aead as pyca_aead

        wrong = [n for n in SWAPPED if getattr(mod, n) is not getattr(pyca_aead, n)]
        if wrong or "libaead" in sys.modules:
            raise pytest.UsageError("peers: the control is not on pyca's classes: %s" % (wrong or "libaead imported"))
        return
    import libaead

    wrong = [n for n in SWAPPED if getattr(mod, n) is not getattr(libaead, n)]
    if wrong:
        raise pytest.UsageError("peers: %s still holds pyca's %s" % (mod.__name__, wrong))
    if libaead.backend != SIDE:
        raise pytest.UsageError("peers: libaead.backend is %s, not %s" % (libaead.backend, SIDE))
    m = re.search(r"OpenSSL (\d+)\.(\d+)", libaead.library_version())
    ours = m is not None and (int(m.group(1)), int(m.group(2))) >= (3, 5)
    theirs = getattr(mod, "rust_openssl").CRYPTOGRAPHY_OPENSSL_350_OR_GREATER
    if ours != theirs:
        raise pytest.UsageError("peers: the suite's OpenSSL >= 3.5 branches would ask about pyca's OpenSSL "
                                "(%s), not libaead's (%s)" % (theirs, libaead.library_version()))


def pytest_collection_finish(session):
    import cryptography

    if cryptography.__version__ != os.environ["LIBAEAD_PEERS_PYCA"]:
        raise pytest.UsageError("peers: cryptography %s is installed, the suite is %s's"
                                % (cryptography.__version__, os.environ["LIBAEAD_PEERS_PYCA"]))
    mods = {item.module for item in session.items}
    if not mods:
        raise pytest.UsageError("peers: nothing collected")
    for mod in mods:
        _check_module(mod)


def pytest_runtest_logreport(report):
    if report.when == "call":
        outcome = report.outcome
    elif report.failed:
        outcome = "error"  # setup or teardown
    elif report.skipped:
        outcome = "skipped"
    else:
        return
    if _outcomes.get(report.nodeid) not in ("failed", "error"):
        _outcomes[report.nodeid] = outcome


def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["LIBAEAD_PEERS_OUTCOMES"], "w") as f:
        json.dump({"side": SIDE, "exitstatus": int(exitstatus), "outcomes": _outcomes}, f, indent=1, sort_keys=True)
