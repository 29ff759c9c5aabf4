#!/usr/bin/env python3
"""Benchmarks of the Go binding against crypto/cipher and golang-fips/openssl v2, plus the C library's own
per-operation cost, in one run; prints benchstat tables and the target ratios.

  bash bindings/go/bench.sh                 # COUNT=5 rounds of every benchmark, 100ms each (~4 min)
  COUNT=20 BENCHTIME=1s bash bindings/go/bench.sh
  AEAD_BUILD_DIR=$PWD/build-vendored COUNT=5 BENCHTIME=200ms BENCH="$(cat bindings/go/bench/targets.txt)" bash bindings/go/bench.sh
    (the ratio targets of bench/targets.txt only, ~3 min: BENCH holds space-separated -test.bench patterns)

Output: the tables on stdout; raw results and results.json (every benchmark's statistics, the targets, and
which libcrypto each side ran on) in $AEAD_BENCH_OUT (default bindings/go/bench/out).
"""
import os, subprocess, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "bench"))
from run_lib import load, sourced_env  # noqa: E402

ENV = sourced_env(HERE / "env.sh")
os.chdir(HERE / "bench")
COUNT = int(os.environ.get("COUNT") or 5)
BENCHTIME = os.environ.get("BENCHTIME") or "100ms"
BENCH = os.environ.get("BENCH") or "."
OUT = Path(os.environ.get("AEAD_BENCH_OUT") or HERE / "bench/out")
OUT.mkdir(parents=True, exist_ok=True)
raw = OUT / "raw.txt"


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], env=ENV, check=True, **kw)


run("go", "mod", "download")
version = run("go", "version", stdout=subprocess.PIPE, text=True).stdout.split(" ", 2)[2].strip()
print(f"== {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}, {version}, {len(os.sched_getaffinity(0))} CPUs, "
      f"load: {load()}")
print(f"== running benchmarks matching '{BENCH}' (count={COUNT}, benchtime={BENCHTIME}); raw output in {raw}",
      flush=True)
# One test binary, run COUNT times: each round runs every benchmark once, so the samples of all implementations
# are interleaved in time and a burst of load from other processes falls on all of them alike (go test -count
# would run each benchmark COUNT times in a row).
run("go", "test", "-c", "-o", OUT / "bench.test", ".")
with open(raw, "w") as f:
    for i in range(1, COUNT + 1):
        for pattern in BENCH.split():  # several -test.bench patterns: each run in every round
            run(OUT / "bench.test", "-test.run", "^$", "-test.bench", pattern, "-test.benchmem", "-test.benchtime",
                BENCHTIME, "-test.timeout", "0", stdout=f)
        print(f"   round {i}/{COUNT} done, load {load(1)}", flush=True)

# title, benchstat column (-col), benchmark name, units: one table each from the raw samples
BOTH = "(sec/op OR allocs/op)"
for title, col, name, unit in (
        ("AES-128-GCM, 13-byte AAD: libaead vs crypto/cipher (stdlib) vs golang-fips/openssl v2", "/impl", "AESGCM", BOTH),
        ("C library floor: seal/open in a C loop (no cgo per op), and one empty cgo call", "", "Floor", "sec/op"),
        ("ChaCha20-Poly1305: libaead vs golang.org/x/crypto", "/impl", "ChaCha20Poly1305", "sec/op"),
        ("NewGCMWithRandomNonce: libaead vs crypto/cipher", "/impl", "GCMRandomNonce", BOTH),
        ("Batch per record (256 records a batch) against a Seal/Open loop and the C call", "/what", "BatchPerRecord",
         "sec/op"),
        ("QUIC packets: one call vs two calls (ForQUIC AEAD + HeaderProtection) vs pure Go, ns per packet", "/impl",
         "QUICPacket", BOTH)):
    print(f"\n== {title}", flush=True)
    run("go", "tool", "benchstat", *(["-col", col] if col else []), "-filter", f".name:{name} .unit:{unit}", raw)
print(flush=True)
run("go", "run", "./cmd/ratios", "-json", OUT / "results.json", raw)
print(f"\n== load average at the end: {load()} (the machine may be shared: compare within this run only)")
