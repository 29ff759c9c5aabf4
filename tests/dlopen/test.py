#!/usr/bin/env python3
"""dlopen consumers of libaead: a C program with no project header ($CC, default cc) and Node.js through koffi,
both loading libaead.so.1 by SONAME from AEAD_BUILD_DIR (default <repo>/build). Exits non-zero if either fails.

Usage, from anywhere: python3 tests/dlopen/test.py
"""
import os, shutil, subprocess, sys, tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from harness import REPO, die, use_build_dir  # noqa: E402


def ok(*argv, cwd=None, fails=None):
    sys.stdout.flush()
    passed = subprocess.run([str(a) for a in argv], cwd=cwd).returncode == 0
    if fails and not passed:
        print(f"tests/dlopen: {fails} FAILED", file=sys.stderr)
    return passed


use_build_dir("tests/dlopen")
print("== dlopen consumer (C) ==")
with tempfile.TemporaryDirectory() as tmp:
    ok(os.environ.get("CC") or "cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", f"{tmp}/dlopen_consumer",
       HERE / "dlopen_consumer.c", "-ldl") or die("tests/dlopen", "the C dlopen consumer does not compile")
    c_ok = ok(f"{tmp}/dlopen_consumer", fails="C dlopen consumer")
print("== dlopen consumer (Node.js + koffi) ==")
shutil.which("node") and shutil.which("npm") or die("tests/dlopen", "node and npm are required")
ok("npm", "ci" if (HERE / "package-lock.json").exists() else "install", "--no-audit", "--no-fund", "--loglevel=error",
   cwd=HERE) or die("tests/dlopen", "npm could not install koffi")
node_ok = ok("node", "--test", "tests/dlopen/", cwd=REPO, fails="Node.js koffi consumer")
sys.exit(0 if c_ok and node_ok else 1)
