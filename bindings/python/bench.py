#!/usr/bin/env python3
"""The Python benchmark: libaead vs pyca/cryptography (newest on PyPI) side by side in one process, on each
libcrypto. For each of LIBCRYPTOS (default "vendored system"): builds the wheel as a user gets it
(LIBAEAD_LIBCRYPTO=<kind>), installs it with cryptography into a fresh venv, runs bench/bench.py there and
writes bench/results/<kind>.json. The machine is shared: run it when nothing else is measuring.
BENCH=quic runs only bench/bench_quic.py (QUIC packet protection vs aioquic 1.7.2, results in
bench/results/quic-<kind>.json); BENCH=aead only bench.py; the default runs both (options go to bench.py);
BENCH=all,families adds bench/bench_families.py (the AEAD families against pyca and PyNaCl, results in
bench/results/families-<kind>.json; --quick gives it 3 rounds). BENCH=hpke runs only bench/bench_hpke.py (HPKE
against pyhpke and pyca's hpke.Suite: results in bench/results/hpke-python.json; use it with one of LIBCRYPTOS).
BENCH=stream runs only bench/bench_stream.py (streaming AEAD against Tink Python and http_ece, with the test
suite's hash-pinned requirements-stream.txt: results in bench/results/stream-python.json).
BENCH=aegis runs only bench/bench_aegis.py (the AEGIS family beside libaead's AES-128-GCM and
ChaCha20-Poly1305, and libsodium's AEGIS through PyNaCl: results in bench/results/aegis-<kind>.json).
BENCH_RESULTS names another results folder.
Usage: bash bindings/python/bench.sh [bench.py options, e.g. --rounds 9 --gil]
       LIBCRYPTOS=vendored bash bindings/python/bench.sh --quick
       BENCH=quic LIBCRYPTOS=vendored bash bindings/python/bench.sh
"""
import glob, os, subprocess, sys, tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "bench"))
import run_lib  # noqa: E402,F401  (for its one line instead of a traceback when a command fails)

PYNACL = "pynacl==1.6.2"  # the families' XChaCha20-Poly1305 peer and AEGIS's (libsodium)
PYHPKE = "pyhpke==0.6.5"  # HPKE's peer (BENCH=hpke), as in test.sh
for var in ("LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "OPENSSL_CONF"):
    os.environ.pop(var, None)
os.environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
args, what = sys.argv[1:], os.environ.get("BENCH") or "all"
quick = "--quick" in args
RESULTS = Path(os.path.abspath(os.environ.get("BENCH_RESULTS") or HERE / "bench/results"))
RESULTS.mkdir(parents=True, exist_ok=True)
# what BENCH runs: (script, its arguments, the packages it needs beyond the wheel's)
ONLY = {"hpke": ("bench_hpke.py", ["--rounds", "1" if quick else "7", "--json", RESULTS / "hpke-python.json"],
                 [PYHPKE]),
        "aegis": ("bench_aegis.py", ["--rounds", "1" if quick else "7", "--json", RESULTS / "aegis-{kind}.json"],
                  [PYNACL]),
        "stream": ("bench_stream.py", ["--mib", "16" if quick else "256", "--rounds", "1" if quick else "5",
                                       "--json", RESULTS / "stream-python.json"],
                   # the tests module that builds Tink's keyset imports pytest
                   [["--require-hashes", "--no-deps", "-r", HERE / "tests/requirements-stream.txt"], "pytest"])}
base = what.removesuffix(",families")
steps = [*([] if base == "quic" else [("bench.py", ["--json", RESULTS / "{kind}.json", *args], [])]),
         *([] if base == "aead" else [("bench_quic.py", [*(["--rounds", "3", "--iterations", "2000"] if quick else []),
                                                          "--json", RESULTS / "quic-{kind}.json"], [])]),
         *([("bench_families.py", ["--rounds", "3" if quick else "7", "--json", RESULTS / "families-{kind}.json"],
             [PYNACL])] if what.endswith(",families") else [])]
with tempfile.TemporaryDirectory() as tmp:
    def run(*cmd, cwd=None, **env):  # the benchmarks run in tmp, away from the source tree's libaead package
        subprocess.run([str(c) for c in cmd], cwd=cwd, env={**os.environ, **env}, check=True)

    for kind in (os.environ.get("LIBCRYPTOS") or "vendored system").split():
        venv, wheels = Path(tmp, kind), Path(tmp, f"{kind}-wheel")
        run(os.environ.get("PYTHON") or "python3", "-m", "venv", venv)
        run("nice", "-n", "10", venv / "bin/pip", "wheel", "--quiet", "--no-deps", "-w", wheels, HERE,
            LIBAEAD_LIBCRYPTO=kind, LIBAEAD_REQUIRE_COMPILED="1")
        wheel = glob.glob(f"{wheels}/libaead-*.whl") or [f"{wheels}/libaead-*.whl"]
        run(venv / "bin/pip", "install", "--quiet", *wheel, "cryptography>=50", "aioquic==1.7.2")
        for script, script_args, needs in [ONLY[what]] if what in ONLY else steps:
            for need in needs:
                run(venv / "bin/pip", "install", "--quiet", *([need] if isinstance(need, str) else need))
            run(venv / "bin/python", HERE / "bench" / script, *(str(a).replace("{kind}", kind) for a in script_args),
                cwd=tmp)
        if what not in ONLY:
            print(flush=True)
