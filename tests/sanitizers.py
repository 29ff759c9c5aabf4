#!/usr/bin/env python3
"""The Catch2 suites under sanitizers, each in its own build directory, warnings as errors; any sanitizer report
fails the run (halt_on_error / exitcode). build-asan: clang ASan + UBSan (+ LeakSanitizer), every unit suite;
build-tsan: clang TSan, the suites with threads; build-fault: -Dfault_injection=true, every unit suite (every
fallible libcrypto call fails in turn). GCC's ASan build is compiled with -Werror by the werror stage.

Usage: python3 tests/sanitizers.py [asan|tsan|fault ...]     (default: all three)
       python3 tests/sanitizers.py --setup asan|tsan|fault   (configure + compile only; prints the directory)
"""
import os, shutil, subprocess, sys
from pathlib import Path

UNIT = "--suite unit --suite memory --print-errorlogs"
RUNS = {  # name: heading, meson options, the tests (environment, then meson test's arguments)
    "asan": ("ASan + UBSan: unit suites", "-Db_sanitize=address,undefined -Db_lundef=false "
             "-Dcpp_args=-fno-sanitize-recover=all -Dc_args=-fno-sanitize-recover=all",
             "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 "
             f"UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 meson test -C build-asan {UNIT} --timeout-multiplier 4"),
    "tsan": ("TSan: concurrency suites", "-Db_sanitize=thread -Db_lundef=false",
             "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 AEAD_STRESS_SCALE=0.25 meson test -C build-tsan "
             "tls concurrency stress ex batch hostile quic siv dtls hpke --print-errorlogs --timeout-multiplier 10"),
    "fault": ("fault-injection build: unit suites", "-Dfault_injection=true", f"meson test -C build-fault {UNIT}"),
}


def run(*argv, quiet=False):
    sys.stdout.flush()
    if subprocess.run(argv, stdout=subprocess.DEVNULL if quiet else None).returncode:
        sys.exit(f"sanitizers: FAILED: {' '.join(argv)}")


os.chdir(Path(__file__).resolve().parent.parent)
setup_only = sys.argv[1:2] == ["--setup"]
names = sys.argv[2:3] if setup_only else sys.argv[1:] or list(RUNS)
if not names or not set(names) <= set(RUNS):
    sys.exit("usage: tests/sanitizers.py [asan|tsan|fault ...] | --setup asan|tsan|fault")
cc = "ccache " if shutil.which("ccache") else ""  # meson adds ccache only to a compiler it finds, not CC/CXX's
for name in names:
    (heading, options, tests), d = RUNS[name], f"build-{name}"
    setup_only or print(f"--- {heading}")
    env = ["env"] + ([f"CC={cc}clang", f"CXX={cc}clang++"] if name != "fault" else [])
    if not Path(d, "build.ninja").exists():
        run(*env, "meson", "setup", d, "-Dwerror=true", *options.split(), quiet=True)
    run(*env, "meson", "configure", d, "-Dwerror=true")  # also for a directory made before warnings were errors here
    run(*env, "meson", "compile", "-C", d, "-j", "2", quiet=True)
    print(d) if setup_only else run("env", *tests.split())
