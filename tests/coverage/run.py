#!/usr/bin/env python3
"""The coverage stage: line and branch coverage of lib/ and shim/ (not shim/openssl/) by the C suites on the
system libcrypto and on the vendored OpenSSL 3.5, merged by gcovr (PyPI, pinned with hashes, in a venv in the
cache; what runs: docs/testing.md). The builds live at one fixed path in the cache, the checkout copied beside
them: a coverage object records its absolute paths, so only a fixed path lets ninja reuse them in a new clone.
Fails under LIBAEAD_COVERAGE_MIN_LINES (default 99) or LIBAEAD_COVERAGE_MIN_BRANCHES (default 86) percent, or when
summary.json (docs/testing.md's table) names other files than those measured: then run it with --record, and
python3 bench/tables.py. Writes the HTML report to build-coverage/coverage/index.html.

Usage: python3 tests/coverage/run.py [--record]
"""
import fcntl, hashlib, json, os, re, shutil, subprocess, sys, time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
MIN_LINES = os.environ.get("LIBAEAD_COVERAGE_MIN_LINES") or "99"
MIN_BRANCHES = os.environ.get("LIBAEAD_COVERAGE_MIN_BRANCHES") or "86"
WORK = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "libaead/coverage"
BUILDS = [WORK / "build-coverage", WORK / "build-coverage-vendored"]
REPORT = REPO / "build-coverage/coverage"
MESON_TEST = ["meson", "test", "--print-errorlogs", "--timeout-multiplier", "4", "-C"]
FIPS_TEST = ["bash", "-c", 'source tests/fips/env.sh && AEAD_TEST_FIPS=1 AEAD_TEST_PROPERTIES=fips=yes exec "$@"',
             "fips", *MESON_TEST]
sys.stdout.reconfigure(line_buffering=True)  # in order with the tools' output


def ok(*argv, quiet=False, **env):
    return subprocess.run(argv, stdout=subprocess.DEVNULL if quiet else None, env={**os.environ, **env}).returncode == 0


def build(d, *options):
    # Atomic counters: the threaded suites would otherwise lose counts, or make them negative.
    done = ((d / "build.ninja").exists() or ok(
        "meson", "setup", d, "-Dbuildtype=debug", "-Db_coverage=true", "-Dfault_injection=true",
        "-Dcpp_args=-fprofile-update=atomic", "-Dc_args=-fprofile-update=atomic", *options, quiet=True)) and \
        ok("meson", "compile", "-C", d, "-j", "2", quiet=True) and ok("ninja", "-C", d, "-t", "cleandead", quiet=True)
    # The counts of this run only; no notes of an object whose source is gone (cleandead removed the object only).
    for f in d.rglob("*.gc*") if done else ():
        if f.suffix == ".gcda" or f.suffix == ".gcno" and not f.with_suffix(".o").exists():
            f.unlink()
    return done


# The EVP pass leaves out the conformance vectors (a third of the stage's time, and no line of lib/ or shim/ that
# the other suites on that path miss). Contract and memory run again with AEAD_TEST_NO_COPY=1: working contexts
# keyed afresh instead of copied, on both paths (as some FIPS providers force, docs/fips.md).
def suites(d):
    return (ok(*MESON_TEST, d, "--suite", "unit", "--suite", "memory")
            and ok(*MESON_TEST, d, "--suite", "unit", "--suite", "memory", "--no-suite", "conformance",
                   AEAD_DISPATCH="evp")
            and ok(*MESON_TEST, d, "contract", "memory", AEAD_TEST_NO_COPY="1")
            and ok(*MESON_TEST, d, "contract", "memory", AEAD_TEST_NO_COPY="1", AEAD_DISPATCH="evp"))


(WORK / "src").mkdir(parents=True, exist_ok=True)
# One run at a time on a machine, from here on: the venv below and the builds are shared (held until exit).
fcntl.flock(lock := open(f"{WORK}.lock", "w"), fcntl.LOCK_EX)
reqs = REPO / "tests/coverage/requirements.txt"
tools = WORK.parent / f"tools/gcovr-{hashlib.sha256(reqs.read_bytes()).hexdigest()[:12]}"
gcovr = [tools / "bin/python3", "-m", "gcovr"]  # not bin/gcovr: its first line names the folder it was made in
if not os.access(gcovr[0], os.X_OK) or subprocess.run([*gcovr, "--version"], capture_output=True).returncode:
    print(f"coverage: installing gcovr into {tools}")
    shutil.rmtree(f"{tools}.tmp", ignore_errors=True)
    if not (ok("python3", "-m", "venv", f"{tools}.tmp") and ok(f"{tools}.tmp/bin/pip", "install", "--quiet",
            "--disable-pip-version-check", "--require-hashes", "--only-binary=:all:", "-r", reqs)):
        sys.exit("coverage: gcovr could not be installed")
    shutil.rmtree(tools, ignore_errors=True)
    os.rename(f"{tools}.tmp", tools)

# -c: a file is rewritten only when its bytes differ, so ninja rebuilds only what this checkout changed;
# no -t: a rewritten file gets a new time. Ignored files (build folders, caches) stay out.
if not ok("rsync", "-rlc", "--delete", "--exclude=/.git", "--filter=:- .gitignore", f"{REPO}/", f"{WORK}/src/"):
    sys.exit(f"coverage: could not copy the checkout to {WORK}/src")
os.chdir(WORK / "src")

status = 0
for label, step, *args in [
        ("build (system libcrypto)", build, BUILDS[0]),
        ("unit + memory, both dispatch paths (system libcrypto)", suites, BUILDS[0]),
        ("fips test provider (system libcrypto)", ok, *FIPS_TEST, BUILDS[0], "fips", "memory", "dispatch"),
        ("build (vendored OpenSSL 3.5)", build, BUILDS[1], "-Dlibcrypto=vendored"),
        ("unit + memory, both dispatch paths (vendored 3.5)", suites, BUILDS[1]),
        ("fips test provider (vendored 3.5)", ok, *FIPS_TEST, BUILDS[1], "fips", "memory", "dispatch")]:
    print(f"--- coverage: {label}")
    start, passed = time.monotonic(), step(*args)
    print(f"--- coverage: {label} {'passed in' if passed else 'FAILED after'} {int(time.monotonic() - start)} s")
    status |= not passed

REPORT.mkdir(parents=True, exist_ok=True)
# A build directory kept across a version change holds the old library's objects too (libaead.so.1.6.0.p
# beside libaead.so.1.7.0.p): their notes would be merged with the new ones, so they go.
for d in BUILDS:
    info = subprocess.run(["meson", "introspect", "--projectinfo", d], stdout=subprocess.PIPE, text=True).stdout
    for old in d.glob("libaead.so.*.p"):
        if old.is_dir() and old.name != f"libaead.so.{json.loads(info or '{}').get('version', '')}.p":
            shutil.rmtree(old)
print("--- coverage: lib/ and shim/ (without shim/openssl/), both builds merged")
# Exception edges and branches proven unreachable are not counted: no decisions of ours (the boundary is noexcept).
status |= not ok(
    *gcovr, "--root", WORK / "src", "--filter", "lib/", "--filter", "shim/", "--exclude", "shim/openssl/",
    "--exclude-throw-branches", "--exclude-unreachable-branches", "--gcov-ignore-parse-errors=negative_hits.warn",
    "--txt", "-", "--html-details", REPORT / "index.html", "--json-summary", REPORT / "summary.json",
    "--print-summary", "--fail-under-line", MIN_LINES, "--fail-under-branch", MIN_BRANCHES, *BUILDS)
if sys.argv[1:2] == ["--record"]:
    status and sys.exit("coverage: not recorded: the run failed")
    openssl = subprocess.run(["bash", "shim/openssl/build.sh", "3.5"], stdout=subprocess.PIPE, text=True).stdout
    header = Path((openssl.splitlines() or [""])[-1], "include/openssl/opensslv.h")
    m = re.search(r'^# *define OPENSSL_FULL_VERSION_STR "(.*)"$', header.is_file() and header.read_text() or "", re.M)
    system = subprocess.run(["pkg-config", "--modversion", "libcrypto"], stdout=subprocess.PIPE, text=True).stdout
    status |= not ok("python3", REPO / "tests/coverage/summary.py", "--record", REPORT / "summary.json",
                     f"OpenSSL {system.rstrip()}", f"OpenSSL {m and m[1] or ''}")
else:
    status |= not ok("python3", REPO / "tests/coverage/summary.py", "--check", REPORT / "summary.json")
print("coverage: HTML report: build-coverage/coverage/index.html",
      f"(thresholds: lines {MIN_LINES}%, branches {MIN_BRANCHES}%)")
sys.exit(status)
