"""`go test -bench` output -> JSON: each benchmark's median ns/op over its samples, its name's key=value
parts as fields, and the go and libcrypto the run names.

Usage: python3 bench/gotest2json.py RAW.txt OUT.json [key=value ...]   (extra fields for "meta")
"""

import json
import re
import statistics
import sys


def main(raw, out, extra):
    samples = {}
    for line in open(raw):
        m = re.match(r"^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op", line)
        if m:
            samples.setdefault(m[1], []).append(float(m[2]))
    rows = []
    for name, ns in samples.items():
        fields = dict(kv.split("=", 1) for kv in name.split("/")[1:] if "=" in kv)
        rows.append({"name": name, **fields, "samples": len(ns), "ns": statistics.median(ns)})
    meta = dict(kv.split("=", 1) for kv in extra)
    with open(out, "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
