#!/usr/bin/env python3
"""The musl stage: libaead on the vendored OpenSSL 3.5 built for x86_64 musl by zig's clang and libc++ (zig.sh in
tests/cross/zig), warnings as errors; the unit and memory suites on both dispatch paths and tests/dlopen/'s consumer
(loading libaead.so.1 at run time: what the initial-exec TLS model, forced once, made impossible) on musl's loader.
Usage, from anywhere: python3 tests/cross/musl.py   (after tests/setup.sh musl; build-musl; vectors: AEAD_VECTORS_DIR)
"""
import hashlib, json, os, re, subprocess, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD, LOADER, TESTLOG = "build-musl", "/lib/ld-musl-x86_64.so.1", "build-musl/meson-logs/testlog.json"
sys.stdout.reconfigure(line_buffering=True)  # in order with the commands' output
failures = []


def run(*argv, log=None, must=True, **kw):
    """argv, its stdout captured (log: its output into that file instead); must: it must pass, else the stage ends."""
    with open(log or os.devnull, "w") as f:
        p = subprocess.run(argv, stdout=f if log else subprocess.PIPE, stderr=f if log else None, text=True, **kw)
    if must and p.returncode:
        sys.exit(f"musl: failed: {' '.join(map(str, argv))}")
    return p


def bad(*lines):  # the stage fails, at the end
    failures.append(lines)
    sys.stderr.writelines(f"{x}\n" for x in lines)


def is_musl_program(path):
    return (f"Requesting program interpreter: {LOADER}]" in run("readelf", "-l", path, must=False).stdout and
            not re.search(r"NEEDED.*\[(libc\.so\.6|libstdc\+\+)", run("readelf", "-d", path, must=False).stdout))


os.chdir(REPO)
# The cross file names its compilers without a path; zig.sh installs zig on first use.
os.environ.update(PATH=f"{REPO}/tests/cross/zig:{os.environ['PATH']}", CCACHE_BASEDIR=str(REPO), CCACHE_NOHASHDIR="1")
zig = run("zig.sh", "version").stdout.strip()
print(f"musl: zig {zig} ({run('zig.sh', '--path').stdout.strip()}),",
      run("x86_64-linux-musl-clang", "--version").stdout.splitlines()[0])
# ccache knows a compiler by its file's mtime, which a fresh clone renews: by zig's version and the wrappers' text.
wrappers = b"".join(p.read_bytes() for p in sorted(Path("tests/cross/zig").glob("x86_64-linux-musl-*")))
os.environ["CCACHE_COMPILERCHECK"] = f"string:zig-{zig}-{hashlib.sha256(wrappers).hexdigest()[:16]}"
os.access(LOADER, os.X_OK) or sys.exit(f"musl: {LOADER} not found (tests/setup.sh musl installs Debian's musl)")
# Only the vendored OpenSSL's static libcrypto (no FIPS test here); exported for ninja's re-runs of meson too.
os.environ["LIBAEAD_OPENSSL_LEAN"] = "1"
if not Path(BUILD, "build.ninja").exists():
    run("meson", "setup", BUILD, "--cross-file", "tests/cross/x86_64-linux-musl.ini", "-Dlibcrypto=vendored",
        "-Dwerror=true")
if run("meson", "compile", "-C", BUILD, "-j", "2", log=f"{BUILD}/compile.log", must=False).returncode:
    subprocess.run(f"grep -E -A3 'error|warning' {BUILD}/compile.log | head -60", shell=True)
    sys.exit(f"musl: meson compile failed ({BUILD}/compile.log)")
# No static TLS in libaead.so.1 (DF_STATIC_TLS: initial-exec, which dlopen on musl refuses).
exes = [e for e in sorted(Path(BUILD, "tests").glob("test_*")) if e.is_file() and os.access(e, os.X_OK)]
programs = sum(is_musl_program(e) or bad(f"musl: {e} is not a musl program") or 0 for e in exes)
lib = run("readelf", "-d", f"{BUILD}/libaead.so.1", must=False).stdout
if (re.search(r"NEEDED.*\[libc\.so\]", lib) and not re.search(r"NEEDED.*\[(libc\.so\.6|libstdc\+\+|libcrypto)", lib)
        and "STATIC_TLS" not in lib):
    print(f"musl: libaead.so.1 needs only musl's libc.so (no glibc, no libcrypto.so, no static TLS); {programs} test"
          f" programs use {LOADER}")
else:
    bad("musl: libaead.so.1 is not a musl library without static TLS:", *re.findall(".*(?:NEEDED|FLAGS).*", lib))
programs or bad(f"musl: no test programs in {BUILD}/tests")
os.environ.pop("AEAD_DISPATCH", None)
passed = failed = 0
for dispatch, env in (("direct", {}), ("evp", {"AEAD_DISPATCH": "evp"})):
    print(f"--- meson test --suite unit --suite memory (dispatch: {dispatch})")
    rc = run("meson", "test", "-C", BUILD, "--suite", "unit", "--suite", "memory", "--print-errorlogs",
             log=f"{BUILD}/test-{dispatch}.log", must=False, env=dict(os.environ, **env)).returncode
    lines = Path(f"{BUILD}/test-{dispatch}.log").read_text(errors="replace").splitlines()
    sys.stdout.writelines(f"{x}\n" for x in lines
                          if re.search(r"^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT)|^(Ok|Fail|Timeout): ", x))
    tests = [json.loads(line) for line in open(TESTLOG)]
    for t in tests:
        out = (t.get("stdout") or "") + (t.get("stderr") or "")
        m, m2 = re.search(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)", out), re.search(
            r"test cases: *(\d+) \| (\d+) passed \| (\d+) failed", out)
        what = f"{m[2]} test cases, {m[1]} assertions" if m else f"{m2[1]} test cases, {m2[3]} failed" if m2 else (
            "no Catch2 summary")
        print(f"musl {dispatch}: {t['name'].split(' / ')[-1]:13} {t['result']:5} {what}")
    ok = sum(t["result"] == "OK" for t in tests)
    passed, failed = passed + ok, failed + len(tests) - ok
    if rc or not tests:  # the log from the first test's error output on
        bad(*lines[next((i for i, x in enumerate(lines) if re.match(r"=* [0-9]*/[0-9]* =*$", x)), len(lines)):][-60:])
if re.search("libsodium.*did not run", Path(TESTLOG).read_text()):
    print("musl: not available here: libsodium for musl, so the differential suite's XChaCha20-Poly1305 comparison"
          " did not run")
# The dlopen consumer (no project header): loads libaead.so.1 by SONAME (LD_LIBRARY_PATH), uses every export.
print("--- dlopen consumer, a musl program")
consumer, dlopen_ok = f"{BUILD}/dlopen_consumer", False
run("x86_64-linux-musl-clang", "-dynamic", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", consumer,
    "tests/dlopen/dlopen_consumer.c", "-ldl")
if not is_musl_program(consumer) or re.search("NEEDED.*libaead", run("readelf", "-d", consumer, must=False).stdout):
    bad(f"musl: {consumer} is not a musl program that leaves libaead to dlopen")
else:
    p = run(consumer, must=False, env=dict(os.environ, LD_LIBRARY_PATH=f"{REPO}/{BUILD}"))
    print(p.stdout, end="")
    Path(f"{BUILD}/dlopen.log").write_text(p.stdout)
    p.returncode and bad("musl: the dlopen consumer FAILED")
    dlopen_ok = not p.returncode and bool(re.search(r"^[1-9][0-9]* passed, 0 failed$", p.stdout, re.M))
dlopen_ok or failures.append("dlopen")
print(f"musl: C suites {passed} passed, {failed} failed (both dispatch paths); dlopen consumer "
      f"{'passed' if dlopen_ok else 'FAILED'}\nmusl: {passed + dlopen_ok} passed, {failed + 1 - dlopen_ok} failed")
sys.exit(1 if failures else 0)
