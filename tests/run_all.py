#!/usr/bin/env python3
"""Runs every test of libaead: installs what is missing, builds, then runs each stage (STAGES) in turn; every
stage runs even if an earlier one failed, and the exit status is 1 if any failed.
Usage: tests/run-all.sh [stage ...]   (default: all stages; `tests/run-all.sh --list` names them; the same
       with python3 tests/run_all.py)
"""
import contextlib
import ctypes
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from harness import REPO  # noqa: E402

PIPE, STDOUT, DEVNULL, q = subprocess.PIPE, subprocess.STDOUT, subprocess.DEVNULL, shlex.quote


def say(*text, err=False, sep=" "):
    if text:
        print(*text, sep=sep, file=sys.stderr if err else sys.stdout, flush=True)
    return True


def run(cmd, **kw):
    """cmd, a shell-quoted string (`env VAR=value ...` for variables): True if it passed."""
    return subprocess.run(shlex.split(cmd), **kw).returncode == 0


def output(cmd, **kw):
    return subprocess.run(shlex.split(cmd), stdout=PIPE, text=True, errors="replace", **kw)


def steps(*todo):
    """Commands (strings, joined by " && " or not) and callables in turn, while they pass."""
    return all(t() if callable(t) else all(map(run, t.split(" && "))) for t in todo)


def logged(cmd, log, tail=0):
    """cmd, its output into log; if it fails, the log's last `tail` lines, or errors and warnings (60 lines)."""
    with open(log, "w") as f:
        if run(cmd, stdout=f, stderr=STDOUT):
            return True
    return not say(*(Path(log).read_text(errors="replace").splitlines()[-tail:] if tail else
                     output(f"grep -E -A3 'error|warning' {log}").stdout.splitlines()[:60]), sep="\n")


def forked(fn, log=None):
    """fn() in a child process, which exits 0 if fn returned true (os._exit: the parent's cleanup is not its);
    with log (an open file), its output goes there and stdin is /dev/null. Its pid."""
    sys.stdout.flush()
    if pid := os.fork():
        return pid
    rc = 1
    try:
        if log:
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0), os.dup2(log.fileno(), 1), os.dup2(log.fileno(), 2)
        rc = 0 if fn() else 1
        sys.stdout.flush()
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(rc)


def together(todo, report=True):
    """[(name, callable)] side by side, two at a time (each keeps one of CI's two cores busy), their output printed
    whole in order. report: a line for each that failed, and True if none did; else their exit statuses."""
    runs, done, codes = [], {}, []
    for i, (name, fn) in enumerate(todo):
        if i >= 2:
            done[i - 2] = os.waitpid(runs[i - 2][0], 0)[1]
        runs.append((forked(fn, log := tempfile.TemporaryFile()), log))
    for i, ((pid, log), (name, _)) in enumerate(zip(runs, todo)):
        code = os.waitstatus_to_exitcode(done[i] if i in done else os.waitpid(pid, 0)[1])
        codes.append(code if code >= 0 else 128 - code)
        log.seek(0)
        sys.stdout.buffer.write(log.read())
        sys.stdout.flush()
        if code and report:
            say(f"FAILED (exit {codes[-1]}): {name}", err=True)
    return not any(codes) if report else codes


# build/ is switched back to the test build (examples/run-demo.sh may have made it a release build). No -Werror,
# so that a compiler newer than CI's still gives every other stage a library; a warning fails this stage.
def stage_build():
    if not steps("bash tests/setup.sh", lambda: Path("build/build.ninja").is_file() or run("meson setup build"),
                 "meson configure build -Dbuildtype=debugoptimized"):
        return False
    with subprocess.Popen(shlex.split("meson compile -C build -j 2"), stdout=PIPE, stderr=STDOUT) as p, \
            open("build/compile.log", "wb") as log:
        for line in p.stdout:  # tee
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            log.write(line)
    if p.returncode or b"warning:" not in Path("build/compile.log").read_bytes():
        return p.returncode == 0
    say("build: the compiler warned (gcc debugoptimized; warnings are errors in CI):", err=True)
    return not say(*output("grep -A3 warning: build/compile.log").stdout.splitlines()[:60], sep="\n", err=True)


# The shim runs each cipher on its provider's functions directly, or through EVP (AEAD_DISPATCH=evp, and
# the fallback: docs/libcrypto.md): suites that test the shim run once each way.
def unit(build):
    cmd = f"meson test -C {build} --suite unit --suite memory --print-errorlogs"
    return cmd, lambda: say("--- again with AEAD_DISPATCH=evp"), "env AEAD_DISPATCH=evp " + cmd


# libaegis picks its AEGIS code per CPU at run time: the unit suites ran the host's; here CPU models force
# the portable and AES-NI code (not VAES: qemu 7.2's 256-bit VAESENC computes the upper lane wrongly).
def aegis_cpu_paths(log="build/meson-logs/aegis-cpu-paths.log"):
    if os.uname().machine != "x86_64":
        return True
    found = re.findall("implementation on this CPU: .*", output("build/tests/test_aegis [cpu]").stdout)
    say("aegis: the host's code, tested above:", "\n".join(found))
    for model, path in ("qemu64", "portable"), ("SandyBridge", "aes-ni"):
        with open(log, "w") as f:
            ok = run(f"env AEAD_TEST_AEGIS_PATH={path} qemu-x86_64 -cpu {model} build/tests/test_aegis",
                     stdout=f, stderr=STDOUT)
        text = Path(log).read_text(errors="replace").splitlines()
        if not ok:
            say(*[t for t in text if "TCG doesn't support" not in t][-40:], sep="\n")
            return not say(f"aegis: FAILED on the {path} path", err=True)
        say(f"aegis on libaegis's {path} code (qemu-x86_64 -cpu {model}):",
            "\n".join(t for t in text if t.startswith("All tests passed")))
    return True


# Every target with warnings as errors, compiled only (ccache makes repeats cheap); gcc debugoptimized is build/.
# clang debug links with lld, which (>= 16) rejects a version script naming a symbol the library lacks (the build
# passes --no-undefined-version for older lld and GNU ld). GCC's ASan + UBSan build: lib/ and shim/ only, as its
# instrumentation rejects constructs the others accept, and the suites were 3/4 of its CPU time from an empty cache.
def stage_werror():
    # GCC by the name meson finds it under in the other build folders (cc, c++: Debian's alternatives), so
    # that ccache, which hashes the compiler's name, shares their libaegis objects (compiled alike in all).
    real = [os.path.realpath(shutil.which(n) or "") for n in ("cc", "gcc", "c++", "g++")]
    gcc = ("cc", "c++") if real[0] == real[1] and real[2] == real[3] else ("gcc", "g++")
    ccache = "ccache " if shutil.which("ccache") else ""  # meson puts it before the compiler it finds, not CC

    def build(d, cc, opts, only=None):  # only: just the objects whose names match it
        say(f"--- werror: {d}")
        cc, cxx = gcc if cc == "gcc" else ("clang", "clang++")
        if not (Path(d, "build.ninja").is_file() or run(f"env CC={q(ccache + cc)} CXX={q(ccache + cxx)} meson setup {d}"
                                                        f" -Dwerror=true {opts}", stdout=DEVNULL)):
            return False
        targets = output(f"ninja -C {d} -t targets all").stdout.splitlines() if only else []
        objs = [t.partition(": ")[0] for t in targets if ": " in t and re.search(only, t.partition(": ")[0])]
        if only and len(objs) <= 20:
            return not say(f"werror: {d}: only {len(objs)} objects match {only}")
        if objs:
            say(f"    ({len(objs)} objects: lib/ and shim/)")
        return logged(f"ninja -C {d} -j 2 {shlex.join(objs)}" if objs else f"meson compile -C {d} -j 2", f"{d}.log")
    ok = []
    for cc in "gcc", "clang":
        for bt in "release", "debug", "debugoptimized":
            lld = " -Dc_link_args=-fuse-ld=lld -Dcpp_link_args=-fuse-ld=lld" if cc + bt == "clangdebug" else ""
            if cc + bt != "gccdebugoptimized":
                ok.append(build(f"build-matrix/{cc}-{bt}" + "-lld" * bool(lld), cc, f"--buildtype={bt}{lld}"))
    return build("build-matrix/gcc-asan", "gcc", "-Db_sanitize=address,undefined -Db_lundef=false",
                 only=r"^libaead(_shim[.]a|[.]so[.0-9]*)[.]p/") and all(ok)


def vendored_build(d, series):
    """The vendored libcrypto (docs/libcrypto.md), built into the cache the first time (minutes), and d on it."""
    setup = f"meson setup {d} -Dlibcrypto=vendored -Dvendored_openssl={series} -Dwerror=true"
    return lambda: (say(f"--- vendored OpenSSL {series} (built once into the cache, then reused)") and
                    run(f"bash shim/openssl/build.sh {series}", stdout=DEVNULL) and
                    (Path(d, "build.ninja").is_file() or run(setup, stdout=DEVNULL)) and
                    run(f"meson compile -C {d} -j 2", stdout=DEVNULL))


def go_both(opts, cmd):
    """The Go binding on a build tree (cmd), beside it on a `meson install`ed prefix found only by pkg-config."""
    return lambda: together([("Go binding on the build tree", lambda: run(cmd)),
                             (f"Go binding on a meson install{f' ({opts})' if opts else ''}",
                              lambda: run(f"env MESON_ARGS={q(opts)} python3 bindings/go/test.py --installed"))])


# Other CPUs under qemu-user: the library on the target's Debian libcrypto; then the Go binding's tests (one
# process under qemu: one core) beside the library on the vendored OpenSSL and (aarch64: CI time) the wheel on it.
# Suites with mode both: then the EVP dispatch path too, on LIBCRYPTO_SUITES only (the four OWN_LOGIC suites are
# 80% of the time). On the vendored OpenSSL (mode libcrypto: aarch64, no-memory: s390x) not OWN_LOGIC, which tests
# libaead's own logic, just run on the target's libcrypto; on s390x not test_memory either: OpenSSL 3.5.5's
# s390x libcrypto.a allocates before main, so CRYPTO_set_mem_functions refuses.
LIBCRYPTO_SUITES = "contract tls vectors bad_inputs ex batch quic siv dtls dispatch memory".split()
OWN_LOGIC = "hostile differential stress concurrency".split()


def cross_stage(cpu, goarch):
    p = output(f"bash tests/setup.sh {cpu}")
    pc = (p.stdout.splitlines() or [""])[-1]
    if p.returncode or not os.path.isfile(f"{pc}/libcrypto.pc"):
        return not say(f"cross-{cpu}: no libcrypto.pc for {cpu} (tests/setup.sh {cpu})")
    version = output(f"env PKG_CONFIG_LIBDIR={q(pc)} pkg-config --modversion libcrypto").stdout.rstrip("\n")
    say(f"--- {cpu}: the target's libcrypto {version} ({pc})")

    def build_and_test(d, mode, opts="", targets=""):
        os.makedirs(d, exist_ok=True)
        # The target's libcrypto: the multiarch one, or the one setup.sh unpacked into the cache.
        Path(d, "libcrypto.ini").write_text(f"[properties]\npkg_config_libdir = ['{pc}', '/usr/share/pkgconfig']\n")
        setup = f"meson setup {d} --cross-file tests/cross/{cpu}-linux-gnu.ini --cross-file {d}/libcrypto.ini"
        if not ((Path(d, "build.ninja").is_file() or logged(f"{setup} -Dwerror=true {opts}", f"{d}/setup.log", 20))
                and logged(f"meson compile -C {d} -j 2 {targets}", f"{d}/compile.log") and
                re.search("Machine: *" + ("AArch64" if cpu == "aarch64" else "IBM S/390"),
                          output(f"readelf -h {d}/libaead.so.1").stdout)):
            return False
        test, own = f"meson test -C {d} --print-errorlogs --timeout-multiplier 4 -q", ", ".join(OWN_LOGIC)
        if mode == "both":
            return steps(f"{test} --suite unit --suite memory", lambda: counts(d, True),
                         lambda: say(f"--- {d} again with AEAD_DISPATCH=evp: all but {own} (time)"),
                         f"env AEAD_DISPATCH=evp {test} {' '.join(LIBCRYPTO_SUITES)}", lambda: counts(d, False))
        say(f"not run on {d}: {own} (libaead's own logic, run above on the target's libcrypto; CI time)")
        names = LIBCRYPTO_SUITES
        if mode == "no-memory":
            say(f"not run on {d}: the memory suite (OpenSSL 3.5.5's s390x libcrypto allocates before main, so",
                "CRYPTO_set_mem_functions refuses test_memory's allocator)")
            listed = [re.match("[^ ]* / (.*)", t) for t in output(f"{test} --list --suite unit").stdout.splitlines()]
            if len(names := [m[1] for m in listed if m and m[1] not in OWN_LOGIC]) <= 10:
                return not say(f"cross: only {len(names)} unit suites listed in {d}")
        return steps(f"{test} --no-rebuild {shlex.join(names)}", lambda: counts(d, True))

    def counts(d, files):
        """Catch2's count per suite, the vectors suite's per file (if files), what hostile skipped under qemu."""
        name, n, said = "", 0, False
        for line in Path(d, "meson-logs/testlog.txt").read_text(errors="replace").split("\n"):
            name = line.split()[-1] if line.startswith("test: ") else name
            if line.startswith("All tests passed"):
                n += say(f"  {name:<13} {line}")
            if files and name == "vectors" and " cases: " in line:
                say("    " + line)
            if name == "hostile" and "skipped: MADV_WIPEONFORK" in line and not said:
                said = say("    hostile: raw-clone cases skipped (qemu-user ignores MADV_WIPEONFORK)")
        return say(f"  {n} suites passed")

    def vendored(d=f"build-{cpu}-vendored", mode="no-memory" if cpu == "s390x" else "libcrypto"):
        targets = " ".join(["aead", *(f"tests/test_{s}" for s in LIBCRYPTO_SUITES)]) if mode == "libcrypto" else ""
        if (os.environ.get("LIBAEAD_CROSS_VENDORED") or "1") == "0":
            say(f"--- {cpu}: not run: the library on the vendored OpenSSL 3.5 cross-built for {cpu}"
                " (LIBAEAD_CROSS_VENDORED=0)")
        elif not (say(f"--- {cpu}: the vendored OpenSSL 3.5, cross-built (once per target, into the cache)") and
                  build_and_test(d, mode, "-Dlibcrypto=vendored", targets)):
            return False
        if cpu != "aarch64":
            return say(f"--- {cpu}: the Python wheel is not built here (aarch64 only: CI time)")
        say(f"--- {cpu}: the Python binding, a manylinux_2_35_aarch64 wheel cross-built, its suite under qemu-{cpu}")
        return run(f"python3 tests/cross/python-wheel.py {q(pc)}")

    def go(d=f"build-{cpu}"):
        b = q(str(REPO / d))
        say(f"--- {cpu}: the Go binding (GOARCH={goarch}, cgo with {cpu}-linux-gnu-gcc, -tags libaead_system on {d}),"
            f" under qemu-{cpu}")
        if not run(f"env GOARCH={goarch} CGO_ENABLED=1 CC={cpu}-linux-gnu-gcc CXX={cpu}-linux-gnu-g++ PKG_CONFIG_PATH="
                   f"{b}/meson-uninstalled PKG_CONFIG_LIBDIR={q(pc)} go test -c -tags libaead_system -o"
                   f" {b}/go-binding.test .", cwd="bindings/go"):
            return False
        # qemu-user keeps a flag per guest page: TestBatchHugeLengths' 2^46-byte mapping (never touched, so free
        # natively) takes it minutes and then fails; that test runs in the native go stages.
        say("not run under qemu: TestBatchHugeLengths (a 2^46-byte read-only mapping; qemu-user tracks every page)")
        p = output(f"env LD_LIBRARY_PATH={b} AEAD_EXPECT_LIB_DIR={b} AEAD_LIB={b}/libaead.so.1 qemu-{cpu}"
                   f" {b}/go-binding.test -test.count=1 -test.v -test.timeout 10m -test.skip '^TestBatchHugeLengths$'",
                   cwd="bindings/go", stderr=STDOUT)
        out = p.stdout.rstrip("\n").split("\n")
        Path(REPO / d, "go-binding.log").write_text("\n".join(out) + "\n")
        tally = ", ".join(f"{sum(t.startswith(f'--- {w}') for t in out)} {n}" for w, n in
                           (("PASS", "passed"), ("SKIP", "skipped"), ("FAIL", "failed")))
        near = sorted({j for i, t in enumerate(out) if re.match("--- (FAIL|SKIP)", t) for j in (i - 1, i) if j >= 0})
        say(*[out[j] for j in near if out[j] != "--"][:40], sep="\n")  # each failed or skipped test, the line before
        if p.returncode or "PASS" not in out or not any(t.startswith("--- PASS: TestLoadedLibrary") for t in out):
            return not say(*out[-40:], f"cross-{cpu}: Go binding FAILED ({tally})", sep="\n")
        return say(f"Go binding under qemu-{cpu}: {tally} (top-level tests)")

    return build_and_test(f"build-{cpu}", "both") and together(
        [(f"{cpu}: vendored OpenSSL 3.5, wheel", vendored), (f"{cpu}: Go binding", go)]) and say(
        f"--- {cpu}: the Rust binding is not run here: rustup's std for {cpu} comes from static.rust-lang.org,",
        "not a registry, and Debian's rustc (1.63, with its multiarch std) is older than the crate's 1.85")


# The vendored 3.5 build, and a command's prefix for it there (AEAD_BUILD_DIR and the search paths).
VENDORED, V = vendored_build("build-vendored", "3.5"), q(str(REPO / "build-vendored"))
ON_VENDORED = f"env AEAD_BUILD_DIR={V} PKG_CONFIG_PATH={V}/meson-uninstalled LD_LIBRARY_PATH={V}"
COEXIST = "bash tests/coexist/hidden_symbols.sh {0} && bash tests/coexist/test.sh {0}"
ABI = "python3 tests/abi/check.py"
# Each stage: a command (a string, && between commands), a callable, or a tuple of them, run in turn while they pass.
STAGES = {
    "build": stage_build, "werror": stage_werror,
    "hygiene": "python3 tests/hygiene.py && python3 tests/run_all_check.py",
    "unit": (*unit("build"), aegis_cpu_paths), "large": "meson test -C build --suite large --print-errorlogs",
    # Then the C blocks of the documents: built with -Wall -Wextra -Werror, ASan and UBSan on build/, and run.
    "abi": (ABI, f"python3 tests/snippets/run.py --lang c --build {q(str(REPO / 'build'))}"
            " README.md docs/algorithms.md docs/fips.md docs/hpke.md docs/streaming.md"),
    "dlopen": "python3 tests/dlopen/test.py", "fips": "bash tests/fips/run.sh",
    "coverage": "python3 tests/coverage/run.py", "go": go_both("", "python3 bindings/go/test.py"),
    "python": "bash bindings/python/test.sh",
    "node": "bash bindings/node/test.sh", "rust": "python3 bindings/rust/test.py", "java": "bash bindings/java/test.sh",
    "rust-bundled": "python3 bindings/rust/test.py --package && python3 bindings/rust/test.py --package --vendored",
    "tls-interop": "python3 tests/tls-interop/run.py", "quic-interop": "python3 tests/quic-interop/run.py",
    "dtls-interop": "python3 tests/dtls-interop/run.py", "dimpl": "bash bindings/dimpl-libaead/test.sh",
    "peers": "python3 tests/peers/run.py", "ssh": "bash tests/setup.sh && python3 tests/ssh/run.py",
    "sanitizers": "python3 tests/sanitizers.py && env AEAD_DISPATCH=evp python3 tests/sanitizers.py fault",
    "fuzz": f"python3 tests/fuzz/run.py {q(os.environ.get('AEAD_FUZZ_SECONDS') or '120')}",
    "vendored": (VENDORED, *unit("build-vendored"), f"{ON_VENDORED} {ABI}",
                 COEXIST.format("build-vendored")),
    "vendored40": (vendored_build("build-vendored40", "4.0"), *unit("build-vendored40"),
                   COEXIST.format("build-vendored40")),
    "go-vendored": (VENDORED, go_both("-Dlibcrypto=vendored", f"{ON_VENDORED} python3 bindings/go/test.py")),
    # The python stage tests the wheel on the vendored OpenSSL already: left here is LIBAEAD_SYSTEM=1 on it.
    "python-vendored": (VENDORED, f"{ON_VENDORED} bash bindings/python/test.sh --system-only"),
    "rust-vendored": (VENDORED, f"{ON_VENDORED} python3 bindings/rust/test.py"),
    "i386": ("bash tests/setup.sh i386", lambda: Path("build-i386/build.ninja").is_file() or run(
                 "meson setup build-i386 --cross-file tests/cross/i686-linux-gnu.ini -Dwerror=true", stdout=DEVNULL),
             lambda: logged("meson compile -C build-i386 -j 2", "build-i386/compile.log"),
             lambda: re.search("Class: *ELF32", output("readelf -h build-i386/libaead.so.1").stdout),
             *unit("build-i386")),
    "cross-aarch64": lambda: cross_stage("aarch64", "arm64"), "cross-s390x": lambda: cross_stage("s390x", "s390x"),
    "musl": "bash tests/setup.sh musl && python3 tests/cross/musl.py", "release": "python3 tests/release/run.py",
    "valgrind": "meson test -C build --suite unit --wrap 'valgrind --error-exitcode=99 --leak-check=full"
                " --errors-for-leak-kinds=definite' --timeout-multiplier 20 --print-errorlogs",
}
# Stages joined by + run side by side in a run of every stage: each keeps about one of CI's two cores busy,
# and they share no build folder, cache lock or port. Named on the command line, stages run one after another.
ALL_STAGES = """build hygiene unit abi dlopen werror vendored vendored40 fips large+rust-bundled go python+rust-vendored
    rust java+dtls-interop peers+dimpl ssh+quic-interop node+tls-interop go-vendored python-vendored+musl sanitizers
    fuzz coverage valgrind release i386 cross-aarch64 cross-s390x""".split()


# A stage that runs past its limit is stopped and fails, so that a hung peer or test costs a run one stage's
# limit, not CI's whole time, and the run says what was running (AEAD_STAGE_LIMIT=<s> sets every stage's; 0:
# none). Each is at least 4x the stage's time in a cold run on a 2-core machine (docs/testing.md).
STAGE_LIMIT, LONG_LIMIT = 1200, 2400
LONG_STAGES = {"werror", "fips", "coverage", "release", "cross-aarch64", "cross-s390x"}


def limit_of(s):
    given = os.environ.get("AEAD_STAGE_LIMIT", "")
    return int(given) if given.isdigit() else LONG_LIMIT if s in LONG_STAGES else STAGE_LIMIT


def stat(pid):
    """/proc/<pid>/stat's fields after the command's name: [state, ppid, ...]; [] if pid is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return []


def tree(root):
    """root's living descendants (from /proc), parents first; root itself not."""
    kids = {}
    for d in filter(str.isdigit, os.listdir("/proc")):
        if f := stat(d):
            kids.setdefault(int(f[1]), []).append(int(d))
    found, todo = [], list(kids.get(root, []))
    while todo:
        found.append(todo.pop(0))
        todo += kids.get(found[-1], [])
    return found


def show(pids, why):
    """What pids are (ps), and where each JVM among them is (its threads in libaead's code, and main)."""
    say(why, *output(f"ps -o pid,ppid,etimes,time,args -ww -p {','.join(map(str, pids))}").stdout.splitlines(),
        sep="\n", err=True)
    for pid in pids:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
            jvm = [m.split()[-1] for m in maps if m.endswith("/libjvm.so")]
            if jvm and os.path.exists(jcmd := Path(jvm[0]).parents[2] / "bin/jcmd"):  # <jdk>/lib/server/libjvm.so
                threads = output(f"{jcmd} {pid} Thread.print", stderr=STDOUT, timeout=30).stdout.split("\n\n")
                hits = [t for t in threads if "org.libaead" in t or t.startswith('"main"')]
                say(f"--- threads of java {pid} that run org.libaead code, and main:",
                    *[line for t in hits for line in t.splitlines()[:25]][:150], sep="\n", err=True)


def running(pid):
    """pid is there and not a zombie."""
    return stat(pid)[:1] not in ([], ["Z"])


def stop(pids):
    """SIGTERM to each of pids, then SIGKILL to those still running 5 s later."""
    for sig in signal.SIGTERM, signal.SIGKILL:
        for pid in filter(running, pids):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        for _ in range(50 if sig == signal.SIGTERM else 0):
            if not any(map(running, pids)):
                break
            time.sleep(0.1)


def one_stage(s):
    """The stage between its two lines, in a child process: its CPU seconds (user + system, of every process it
    ran and waited for) beside the wall time show how much of the two cores it kept busy."""
    say(f"=== stage {s} ===")
    # The conformance vectors, once per run, after the build stage's set-up (which installs cargo where missing).
    if s != "build" and not os.environ.get("AEAD_VECTORS_DIR"):
        p = output("python3 tests/vectors.py")
        if p.returncode == 0 and (d := (p.stdout.splitlines() or [""])[-1]):
            os.environ["AEAD_VECTORS_DIR"] = d
            say(f"vectors: {d}")
        else:
            say("run-all: tests/vectors.py failed; the suites that need the vectors will fail", err=True)
    start, todo, limit, late = time.time(), STAGES[s], limit_of(s), None  # late: what ran at the limit
    pid = forked(lambda: steps(*todo if isinstance(todo, tuple) else [todo]))
    while not (done := os.wait4(pid, os.WNOHANG))[0]:
        if limit and late is None and time.time() - start > limit:
            late = tree(pid)
            show(late, f"=== stage {s}: still running after its limit of {limit} s; stopped. It was running:")
            stop([pid, *late])
        time.sleep(0.25)
    _, status, use = done
    took = f"{int(time.time() - start)} s (CPU {int(use.ru_utime + use.ru_stime)} s)"
    took += " (its time limit)" * (late is not None)
    say(f"=== stage {s}: {'FAILED after' if status else 'passed in'} {took} ===")
    return status == 0


def strays(entry):
    """Ends what a stage left running: orphans come to this process (a child subreaper), not to init."""
    def reap():
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass  # an orphan that has ended
    reap()
    if left := tree(os.getpid()):
        show(left, f"run-all: {entry} left these running; they are stopped now:")
        stop(left)
        reap()


def main(entries):
    passed, failures, lost = 0, [], False
    for entry in entries:
        if len(names := entry.replace("+", " ").split()) == 1:
            oks = [one_stage(entry)]
        else:
            start = int(time.time())
            oks = [c == 0 for c in together([(s, lambda s=s: one_stage(s)) for s in names], report=False)]
            say(f"=== stages {', '.join(names)} side by side: {int(time.time()) - start} s ===")
        strays(entry)
        for s, ok in zip(names, oks):
            passed, failures = passed + ok, failures + [s] * (not ok)
            if lost := s == "build" and not ok and not os.path.exists("build/libaead.so.1"):
                break  # nothing else can run without the library
        if lost:
            break
    if failures:
        say("failed stages:", *failures)
    say(f"stages: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


def cli(args):
    """The command: stages named in args (default ALL_STAGES), or --list. The exit status."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that goes (| head) ends this run, as it did the shell's
    if args[:1] == ["--list"]:  # as a run of every stage takes them: a pair is one argument (a+b)
        return 0 if say(*ALL_STAGES) else 1
    if unknown := [s for e in args for s in e.replace("+", " ").split() if s not in STAGES]:
        say(f"run-all: unknown stage '{unknown[0]}' (stages: {' '.join(ALL_STAGES).replace('+', ' ')})", err=True)
        return 2
    os.chdir(REPO)
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: see strays()
    sys.stdout.reconfigure(line_buffering=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the temporary folder goes then too
    # ccache keyed on paths relative to the checkout, not on the build folder: a fresh clone elsewhere reuses the
    # objects of the last run (CI clones anew). No LD_LIBRARY_PATH: it would outrank the RUNPATH of the tests in
    # the other build folders and load build/'s libaead there; each script sets its own paths.
    os.environ.update(AEAD_BUILD_DIR=str(REPO / "build"), CCACHE_BASEDIR=str(REPO), CCACHE_NOHASHDIR="1")
    # cargo's test builds keep line tables only (as the C++ suites: tests/meson.build): backtraces keep files and
    # lines, and a cold run compiles the crates and their dependencies faster.
    os.environ.setdefault("CARGO_PROFILE_DEV_DEBUG", "line-tables-only")
    # The Python binding's wheels and venvs, made once in this run (by the fips stage, used by the python stage).
    with tempfile.TemporaryDirectory() as prepared:
        os.environ["LIBAEAD_PY_PREPARED"] = prepared
        return main(args or ALL_STAGES)


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
