#!/usr/bin/env python3
"""The stage runner's own guards (tests/run_all.py), on four stand-in stages of a few seconds, not the
project's: one whose command outlives its time limit, and one hung in its own process (nothing below it),
must each be stopped once and fail, the first with its processes named; one that leaves a process behind
(which then belongs to the runner, a child subreaper) passes, and that process must be stopped and named
when the stage ends; a quick one passes with its time line.

Usage: python3 tests/run_all_check.py   (the hygiene stage runs it; about 5 s)
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = f"run-all-check-{os.getpid()}"  # in the stray's argv, to find it afterwards
DRIVER = f"""
import sys, time
sys.path.insert(0, {str(HERE)!r})
import run_all
run_all.STAGES.clear()
run_all.STAGES.update(hang="sleep 60", stray="setsid -f bash -c 'exec -a {MARK} sleep 60'", quick="true",
                      inside=lambda: time.sleep(60))
sys.exit(run_all.cli(sys.argv[1:]))
"""


def main():
    start = time.monotonic()
    env = {**os.environ, "AEAD_STAGE_LIMIT": "2", "AEAD_VECTORS_DIR": str(HERE)}
    p = subprocess.run([sys.executable, "-c", DRIVER, "hang", "stray", "quick", "inside"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    took, out = time.monotonic() - start, p.stdout
    left = subprocess.run(["pgrep", "-f", MARK], stdout=subprocess.PIPE, text=True).stdout.split()
    checks = [
        ("the run fails (exit 1)", p.returncode == 1),
        ("the hung stage is stopped at its limit", "=== stage hang: still running after its limit of 2 s; stopped."
         in out and "sleep 60" in out),
        ("the hung stage fails", "=== stage hang: FAILED after" in out and "(its time limit)" in out),
        ("the stage hung in its own process is stopped once and fails at its limit",
         out.count("=== stage inside: still running after its limit of 2 s; stopped.") == 1 and
         re.search(r"=== stage inside: FAILED after \d+ s \(CPU \d+ s\) \(its time limit\) ===", out)),
        ("the stage that left a process passes", "=== stage stray: passed in" in out),
        ("the process it left is named", "run-all: stray left these running; they are stopped now:" in out
         and MARK in out),
        ("the process it left is gone", not left),
        ("the quick stage passes", "=== stage quick: passed in" in out),
        ("the result line", "failed stages: hang inside\nstages: 2 passed, 2 failed" in out),
        ("within 60 s", took < 60),
    ]
    for what, ok in checks:
        print(f"{'ok' if ok else 'FAILED'}: {what}")
    if not all(ok for _, ok in checks):
        subprocess.run(["kill", *left])
        print("its output:", out, sep="\n", file=sys.stderr)
        return 1
    print(f"run-all's guards: {len(checks)} checks passed in {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
