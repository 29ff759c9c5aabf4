#!/usr/bin/env python3
"""What each nonce policy's check-and-commit costs: valgrind's instruction count per 64-byte AES-128-GCM seal
through aead_seal_open, under AEAD_POLICY_NONE (a fixed nonce) and each sequenced policy (one record number
after another). Instructions, not seconds: the same on a busy machine. The per-seal figure is the difference
between runs of COUNT and 6 x COUNT seals, divided by 5 x COUNT, so set-up drops out.

    bash bench/policy-cost.sh [build dir (default build)] [COUNT (default 2000)]

POLICY_COST_JSON=FILE also writes the counts there (bench/results/policy-cost.json is what the docs show).
"""
import ctypes, json, os, re, shutil, subprocess, sys
from pathlib import Path

os.chdir(Path(__file__).resolve().parent.parent)
build = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else "build"
count = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else 2000
bench = f"{build}/bench/aead-bench"
if not os.access(bench, os.X_OK):
    sys.exit(f"policy-cost: no {bench} (meson compile -C {build} first)")
if not shutil.which("valgrind"):
    sys.exit("policy-cost: valgrind is missing")


def instructions(way, seals):
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", bench, "--only", way,
                        "64", str(seals)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : ([0-9]+)", p.stderr)
    if p.returncode or not m:
        sys.exit(f"policy-cost: valgrind on {bench} --only {way} failed:\n{p.stderr}")
    return int(m.group(1))


print("| policy | instructions per 64 B seal | vs AEAD_POLICY_TLS13 |")
print("|---|---|---|")
rows = []
for way in ("tls13", "ours", "counter", "xor-counter", "ssh"):
    a = instructions(way, count)
    per = (instructions(way, 6 * count) - a) // (5 * count)
    name = {"ours": "NONE", "xor-counter": "XOR_COUNTER"}.get(way, way.upper())
    print(f"| `AEAD_POLICY_{name}` | {per} | {per - (rows[0]['instructions'] if rows else per):+d} |", flush=True)
    rows.append({"policy": f"AEAD_POLICY_{name}", "instructions": per})
if os.environ.get("POLICY_COST_JSON"):
    lib = ctypes.CDLL(build + "/libaead.so.1")
    lib.aead_version.restype = ctypes.c_char_p
    with open(build + "/meson-info/intro-buildoptions.json") as f:
        buildtype = next(o["value"] for o in json.load(f) if o["name"] == "buildtype")
    doc = {"bench": "policy-cost", "libcrypto": lib.aead_version().decode(), "buildtype": buildtype,
           "alg": "AES-128-GCM", "bytes": 64, "rows": rows}
    with open(os.environ["POLICY_COST_JSON"], "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
