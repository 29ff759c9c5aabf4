#!/usr/bin/env python3
"""Benchmark of the Rust binding (benches/seal_open.rs): libaead vs RustCrypto aes-gcm, ring, aws-lc-rs and a
direct C call, AES-128-GCM seal/open at 64 B and 16 KiB, interleaved A/B. Prints a Markdown table; writes JSON
to $LIBAEAD_BENCH_JSON (default target/bench-rust.json).
  bash bindings/rust/bench.sh [options of the bench, e.g. --test]
By default libaead is the crate's bundled build on OpenSSL 3.5.5 from openssl-src (the `vendored` feature; the
first build compiles OpenSSL, a few minutes). To measure a meson build instead (e.g. -Dlibcrypto=vendored or
system): LIBAEAD_SYS_USE_PKG_CONFIG=1 AEAD_BUILD_DIR=<dir>.
Run it on a quiet machine; only the ratios, measured side by side, are meaningful.
"""
import os, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "bench"))
from run_lib import use_build_dir  # noqa: E402

if os.environ.get("LIBAEAD_SYS_USE_PKG_CONFIG"):
    use_build_dir("bindings/rust/bench.sh")
if subprocess.run(["cargo", "clippy", "--version"], cwd=HERE, capture_output=True).returncode == 0:
    subprocess.run(["cargo", "clippy", "--locked", "-p", "libaead-bench", "--all-targets", "--", "-D", "warnings"],
                   cwd=HERE, check=True)
subprocess.run(["cargo", "bench", "--locked", "-p", "libaead-bench", "--bench", "seal_open", "--", *sys.argv[1:]],
               cwd=HERE, check=True)
