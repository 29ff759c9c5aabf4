#!/usr/bin/env python3
"""The Python binding as a cp39-abi3-manylinux_2_35_aarch64 wheel cross-built by pip with Debian's aarch64 compiler
(its libaead.so.1 on the vendored OpenSSL 3.5 cross-built, cached), checked, installed with its suite's hash-pinned
requirements, and that suite run on the fast path and cffi API mode side by side under qemu-aarch64 on Debian's arm64
CPython 3.11 (unpacked into ${XDG_CACHE_HOME:-$HOME/.cache}/libaead/cross). Left out by default (pytest is ~15x slower
under qemu-user): tests that fetch from PyPI at test time (test_pyca_suite, the SIV vectors), bigmem, the hostile fork
and race tests, test_threads; LIBAEAD_CROSS_PY_FULL=1 runs all but bigmem. Never here (the python stage runs them):
test_hostile_sizes, test_hostile_siv and the streaming peers' tests.
Usage: tests/cross/python-wheel.py <pkg-config dir of the target's libcrypto> (from tests/setup.sh aarch64)
"""
import os, re, shutil, subprocess, sys, time, zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import CACHE, REPO, side_by_side  # noqa: E402

PYDIR, OUT, WHEELS = REPO / "bindings/python", REPO / "build-aarch64-wheel", CACHE / "cross/pywheels-aarch64"
TESTS, BIN, PY_ARM, PIP = PYDIR / "tests", OUT / "tools/bin", OUT / "py/python3.11", OUT / "tools/bin/pip"
REQ_HOST, REQ_ARM = (REPO / f"tests/cross/python-{t}-requirements.txt" for t in ("host", "aarch64"))
# libssl3 for the interpreter's own _ssl (aioquic's tests import ssl): the arm64 libssl may not be installed.
PKGS = [f"{p}:arm64" for p in "python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev zlib1g "
        "libexpat1 libffi8 liblzma5 libbz2-1.0 libuuid1 libcrypt1 libssl3".split()]
PIP_ARM = ("--only-binary=:all: --platform manylinux_2_35_aarch64 --platform manylinux2014_aarch64 "
           "--python-version 3.11 --implementation cp").split()
FULL, T0, READELF = os.environ.get("LIBAEAD_CROSS_PY_FULL") == "1", time.monotonic(), "aarch64-linux-gnu-readelf"
results = {}  # per backend: its summary line, or the end of its log and why it failed
sys.stdout.reconfigure(line_buffering=True)  # in order with the commands' output


def fail(text):
    sys.exit(f"python-wheel-aarch64: FAIL: {text}")


def run(*argv, what=None, log=None, tail=0, **kw):
    """argv's stdout (log: with stderr, into OUT/log); if it fails, its last `tail` lines (0: all), FAIL: what."""
    with open(OUT / log if log else os.devnull, "w") as f:
        kw.setdefault("stderr", f if log else None)
        p = subprocess.run([str(a) for a in argv], stdout=f if log else subprocess.PIPE, text=True, **kw)
    text = (OUT / log).read_text(errors="replace") if log else p.stdout
    if p.returncode:
        sys.stdout.writelines(f"{x}\n" for x in text.splitlines()[-tail:])
        fail(what or " ".join(map(str, argv)))
    return text


def suite(expect):
    """pytest under qemu on one backend (sel, vectors: below); True if it passed."""
    ts, log = time.monotonic(), OUT / f"pytest-{expect}.log"
    env = dict(os.environ, LIBAEAD_NO_FAST="1" if expect == "api" else "0", AEAD_VECTORS_DIR=vectors,
               PYTHONPATH=f"{OUT}/site", LIBAEAD_EXPECT_BACKEND=expect, LIBAEAD_TEST_CACHE=f"{OUT}/test-cache",
               LIBAEAD_EXPECT_MLKEM="0")
    with open(log, "w") as f:
        rc = subprocess.run([PY_ARM, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", PYDIR / "pyproject.toml",
                             "--rootdir", PYDIR, *sel, "--basetemp", OUT / f"pytest-tmp-{expect}", TESTS],
                            cwd=OUT, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
    lines = log.read_text(errors="replace").splitlines() or [""]
    why = ("the suite ({}) under qemu" if rc else "no test passed ({})" if not re.search(r"[0-9]+ passed", lines[-1])
           else "failures ({})" if re.search(r"[0-9]+ (failed|error)", lines[-1]) else "").format(expect)
    results[expect] = (lines[-40:] if rc else []) + [f"python-wheel-aarch64: FAIL: {why}"] if why else [
        f"   backend {expect} under qemu-aarch64: {lines[-1].replace('=', '')} ({time.monotonic() - ts:.1f} s)"]
    return not why


pcdir = (sys.argv[1:] or [""])[0] or sys.exit(f"usage: {sys.argv[0]} <pkg-config dir of the aarch64 libcrypto>")
os.environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
for var in "OPENSSL_CONF OPENSSL_MODULES LD_LIBRARY_PATH PKG_CONFIG_PATH LIBAEAD_SYSTEM LIBAEAD_LIBCRYPTO".split():
    os.environ.pop(var, None)
os.environ.pop("PYTHONPATH", None)
for d in ("raw", "wheel", "site", "bin", "py"):
    shutil.rmtree(OUT / d, ignore_errors=True)
(OUT / "py").mkdir(parents=True)
# 1. Debian's arm64 CPython and the libraries its modules load, unpacked once per Debian version.
pyver = "\n".join(re.findall(r"^ *Candidate: (.*)", run("apt-cache", "policy", "python3.11-minimal:arm64"), re.M))
if pyver in ("", "(none)"):
    fail("no python3.11-minimal:arm64 in the archive (tests/setup.sh aarch64 adds the architecture)")
ROOT = CACHE / f"cross/arm64-python3.11-{pyver}-ssl"
if not (ROOT / "done").is_file():
    print(f"== apt-get download {' '.join(PKGS)} (CPython {pyver}), unpacked into {ROOT}")
    shutil.rmtree(ROOT, ignore_errors=True)
    (ROOT / "debs").mkdir(parents=True)
    run("apt-get", "download", "-qq", *PKGS, what="apt-get download", cwd=ROOT / "debs", stderr=subprocess.DEVNULL)
    for deb in sorted((ROOT / "debs").glob("*.deb")):
        run("dpkg-deb", "-x", deb, ROOT)
    shutil.rmtree(ROOT / "debs")
    (ROOT / "done").touch()
# The interpreter as a program this machine can run (no binfmt here): a script handing it to qemu with its own path
# as argv[0], so that the tests' subprocesses of sys.executable run under qemu too (PYTHONHOME: its standard library).
PY_ARM.write_text(f'#!/bin/sh\nPYTHONHOME="{ROOT}/usr" exec qemu-aarch64 -0 "$0" -E "LD_LIBRARY_PATH={ROOT}/lib/'
                  f'aarch64-linux-gnu:{ROOT}/usr/lib/aarch64-linux-gnu" "{ROOT}/usr/bin/python3.11" "$@"\n')
PY_ARM.chmod(0o755)
print("  ", run(PY_ARM, "-c", 'import sys, platform; print("Python", sys.version.split()[0], platform.machine(), '
                              "sys.executable)").strip(), "(qemu-aarch64)")
if not (os.access(BIN / "auditwheel", os.X_OK) and (BIN.parent / "requirements.txt").is_file()
        and (BIN.parent / "requirements.txt").read_bytes() == REQ_HOST.read_bytes()):
    shutil.rmtree(BIN.parent, ignore_errors=True)
    run(os.environ.get("PYTHON") or "python3", "-m", "venv", BIN.parent, what="the host tools")
    run(PIP, "install", "-q", "--require-hashes", "--only-binary", ":all:", "-r", REQ_HOST, what="the host tools")
    shutil.copy(REQ_HOST, BIN.parent / "requirements.txt")
(OUT / "libcrypto.ini").write_text(f"[properties]\npkg_config_libdir = ['{pcdir}', '/usr/share/pkgconfig']\n")
print("== pip wheel ./bindings/python, cross-built for aarch64 (vendored OpenSSL 3.5 cross-built, cached)")
tb, log = time.monotonic(), run(
    "nice", "-n", "10", PIP, "wheel", "-v", "--no-build-isolation", "--no-deps", "-w", OUT / "raw", PYDIR,
    what=f"pip wheel (log: {OUT}/build.log)", log="build.log", tail=40, cwd=REPO, env=dict(
        os.environ, PATH=f"{BIN}:{os.environ['PATH']}", CC="aarch64-linux-gnu-gcc", LIBAEAD_WERROR="1",
        LDSHARED="aarch64-linux-gnu-gcc -shared", _PYTHON_HOST_PLATFORM="linux-aarch64", LIBAEAD_REQUIRE_COMPILED="1",
        CFLAGS=f"-I{ROOT}/usr/include/python3.11 -I{ROOT}/usr/include", LIBAEAD_MESON_BUILD_DIR=f"{OUT}/meson",
        LIBAEAD_MESON_ARGS=f"--cross-file {REPO}/tests/cross/aarch64-linux-gnu.ini --cross-file {OUT}/libcrypto.ini"))
if not (re.search(r"-I.*arm64-python3.11", log) and "aarch64-linux-gnu-gcc -shared" in log):
    fail(f"the modules were not compiled with the arm64 headers and the cross compiler ({OUT}/build.log)")
RAW = next(OUT.glob("raw/libaead-*-cp39-abi3-linux_aarch64.whl"), None) or fail("no cp39-abi3-linux_aarch64 wheel")
print(f"   {RAW.name} in {time.monotonic() - tb:.1f} s")
# 3. auditwheel repair without --plat (its choices are the host's): the wheel's best tag, checked; the cross strip.
(OUT / "bin").mkdir()
(OUT / "bin/strip").symlink_to(shutil.which("aarch64-linux-gnu-strip") or fail("no aarch64-linux-gnu-strip"))
run(BIN / "auditwheel", "repair", "--strip", "-w", OUT / "wheel", RAW, what="auditwheel repair", log="repair.log",
    env=dict(os.environ, PATH=f"{OUT}/bin:{BIN}:{os.environ['PATH']}"))
WHEEL = next(OUT.glob("wheel/libaead-*.whl"), None) or fail("no wheel from auditwheel repair")
if not WHEEL.name.endswith("-cp39-abi3-manylinux_2_35_aarch64.whl"):
    fail(f"{WHEEL.name} is not cp39-abi3-manylinux_2_35_aarch64")
show = run(BIN / "auditwheel", "show", WHEEL, what="auditwheel show", log="show.log").replace("\n", " ")
if not re.search(r'consistent with the +following platform tag: +"manylinux_2_35_aarch64"', show):
    fail(f"auditwheel show does not report manylinux_2_35_aarch64:\n{(OUT / 'show.log').read_text()}")
shutil.rmtree(OUT / "unzipped", ignore_errors=True)
zipfile.ZipFile(WHEEL).extractall(OUT / "unzipped")
sos = sorted((PKG := OUT / "unzipped/libaead").glob("*.so*"))
glibc = max(set(re.findall(r"GLIBC_2\.[0-9]+", "".join(run("aarch64-linux-gnu-objdump", "-T", f) for f in sos))),
            key=lambda v: int(v[8:]), default=None) or fail("no GLIBC_2 symbol in the wheel's libraries")
needed = sorted(set(re.findall(r"\(NEEDED\).*\[(.*)\]", "".join(run(READELF, "-d", f) for f in sos))))
for m in ("_aead_cffi.abi3.so", "_fast.abi3.so"):
    re.search(r"Machine: *AArch64", run(READELF, "-h", PKG / m)) or fail(f"{m} is not AArch64")
    rpath = "\n".join(re.findall(r"\(RUNPATH\).*\[(.*)\]", run(READELF, "-d", PKG / m)))
    rpath == "$ORIGIN" or fail(f"{m} has RUNPATH '{rpath}', not $ORIGIN")
sys.stdout.writelines(f"   {x}\n" for x in run("bash", REPO / "tests/coexist/hidden_symbols.sh", PKG, env=dict(
    os.environ, PATH=f"{OUT}/bin:{os.environ['PATH']}")).splitlines())
print(f"   {WHEEL.name}: auditwheel show: manylinux_2_35_aarch64; newest glibc symbol {glibc}; needs",
      "".join(f"{n} " for n in needed))
# 4. The wheel and its aarch64 requirements installed, then pytest under qemu (LIBAEAD_EXPECT_MLKEM=0: the
#    cross-trimmed OpenSSL is built with no-ml-kem, so HPKE's post-quantum KEMs are refused).
run(PIP, "download", "-q", "--require-hashes", "--no-deps", *PIP_ARM, "-d", WHEELS, "-r", REQ_ARM,
    what="pip download of the aarch64 requirements")
run(PIP, "install", "-q", "--no-index", "--no-deps", *PIP_ARM, "--target", OUT / "site", WHEEL,
    *re.findall(r"^([A-Za-z0-9_.-]*==[^ \n]*) ", REQ_ARM.read_text(), re.M), "--find-links", WHEELS,
    what="pip install --target of the wheel and the requirements")
# Never under qemu-user: test_hostile_sizes and _siv reserve 2^45 and 2^33 bytes, and qemu keeps a flag per guest page.
ignore = "hostile_sizes hostile_siv stream_interop stream_age stream_cli" + (
    "" if FULL else " pyca_suite hostile_fork hostile_race threads")
sel = [a for t in ignore.split() for a in ("--ignore", TESTS / f"test_{t}.py")] + ["-m", "not bigmem"] + (
    [] if FULL else ["--deselect", "tests/test_siv.py::test_openssl_txt_vectors_through_batches"])  # from --rootdir
if FULL:  # what tests/_pypi.py would install at test time (the arm64 CPython has no pip), where it looks for it
    cv = "cryptography_vectors==" + "\n".join(re.findall(r"^cryptography==([^ \n]*) ", REQ_ARM.read_text(), re.M))
    if not (site := OUT / f"test-cache/site-{cv.replace('==', '_')}").joinpath("cryptography_vectors").is_dir():
        run(PIP, "install", "-q", "--no-deps", "--only-binary=:all:", "--target", site, cv, what=f"pip install {cv}")
vectors = os.environ.get("AEAD_VECTORS_DIR") or (
    run(sys.executable, REPO / "tests/vectors.py").splitlines() or [""])[-1]
Path(vectors).is_dir() or fail("no conformance vectors (tests/vectors.py)")
print("== pytest under qemu-aarch64 on Debian's arm64 CPython",
      "(all but bigmem)" if FULL else "(the default selection: see the header)")
ok = side_by_side([(f"pytest under qemu-aarch64, backend {b}", lambda b=b: suite(b)) for b in ("fast", "api")],
                  int(os.environ.get("TOGETHER_MAX") or 2))
sys.stdout.writelines(f"{x}\n" for b in ("fast", "api") for x in results.get(b, []))
ok or fail("the suite under qemu (above)")
print(f"python-wheel-aarch64: {WHEEL.name} ({run('du', '-h', WHEEL).split()[0]}) passed in",
      f"{time.monotonic() - T0:.1f} s")
