#!/usr/bin/env python3
"""JMH: AES-128-GCM seal of 64 B, 1 KiB and 16 KiB through the JCA providers (SunJCE, ACCP 2.5.0, Conscrypt
2.9.0, Bouncy Castle 1.87, LibAead; Cipher re-initialised per message) and through the direct API, and the
direct API's seal of AES-128-GCM, ChaCha20-Poly1305, AEGIS-128L, -128X2, -128X4 and AEGIS-256 side by side
(AlgBench; their ratios to AES-128-GCM printed), in one JMH run, with allocation per operation (-prof gc).
Short by default (1 fork, 2 x 1 s warm-up, 3 x 1 s measurement); JMH_ARGS overrides. Installs the binding
into ~/.m2 first (mvn install -DskipTests). Prints JMH's summary and a table; JMH's JSON stays in
bench/target/result.json (and is copied to $JAVA_BENCH_JSON when set).
Usage: bash bindings/java/bench.sh

bash bindings/java/bench.sh stream [MiB] [--rounds N] [--json FILE] runs StreamBench instead (no JMH):
streaming AEAD, libaead's StreamingAead.aesGcmHkdf against Tink's AesGcmHkdfStreaming at Tink's templates
AES128_GCM_HKDF_4KB and AES128_GCM_HKDF_1MB, encrypt and decrypt of a 256 MiB stream (or MiB), interleaved
rounds, medians in MB/s and libaead/Tink, and the heap an open stream holds at 1 MiB and at MiB.
"""
import os, shutil, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "bench"))
from run_lib import load, sourced_env  # noqa: E402

BENCH = HERE / "bench"
ENV = sourced_env(HERE / "jdk.sh", "find_jdk")  # exits 2 (skipped) without a JDK 25, 1 if CI is set
JAVA = [Path(ENV["JAVA_HOME"], "bin/java"), "--enable-native-access=ALL-UNNAMED"]
for cwd, goals in ((HERE, ["install", "-DskipTests"]),
                   (BENCH, ["package", "dependency:build-classpath", "-Dmdep.outputFile=target/cp.txt"])):
    subprocess.run(["mvn", "-B", "-q", "-ntp", *goals], cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, check=True)
cp = (BENCH / "target/cp.txt").read_text().rstrip("\n")
with open("/proc/cpuinfo") as f:
    cpu = next((" ".join(l.split(":", 1)[1].split()) for l in f if l.startswith("model name")), "")
print(f"== {cpu}, {len(os.sched_getaffinity(0))} CPUs, load average before: {load()}", flush=True)
if sys.argv[1:2] == ["stream"]:
    # two ciphertexts of MiB on the heap at a time (each side opens the other's): room for them. Run where the
    # script was called: stream's --json FILE is relative to it.
    opts = (os.environ.get("STREAM_JAVA_OPTS") or "-Xmx3g").split()
    subprocess.run(["nice", JAVA[0], *opts, *JAVA[1:], "-cp", f"{BENCH}/target/classes:{cp}",
                    "org.libaead.bench.StreamBench", *sys.argv[2:]], env=ENV, check=True)
    print(f"== load average after: {load()}")
    sys.exit(0)
subprocess.run(["nice", *JAVA, "-cp", f"target/classes:{cp}", "org.openjdk.jmh.Main",
                *(os.environ.get("JMH_ARGS") or "-f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc").split(),
                "-rf", "json", "-rff", "target/result.json", "org.libaead.bench.*"], cwd=BENCH, env=ENV, check=True)
print(f"== load average after: {load()}", flush=True)
# JMH's JSON: every benchmark's mean and its allocation per operation; a copy where JAVA_BENCH_JSON says
# (bench/all.sh: bench/results/jmh.json, which the README's table and docs/bench.png read).
subprocess.run([sys.executable, HERE / "jmh_table.py", "target/result.json"], cwd=BENCH, check=True)
if os.environ.get("JAVA_BENCH_JSON"):
    dest = BENCH / os.environ["JAVA_BENCH_JSON"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(BENCH / "target/result.json", dest)
