#!/usr/bin/env python3
"""The Go HPKE benchmark's raw output (BenchmarkHPKE of bindings/go/hpke, run several times) -> the
JSON of bench/all.sh's hpke entry (the rows bench/tables.py puts in docs/hpke.md): the median ns/op of
each side, and libaead / crypto/hpke.

Usage: hpke_go.py RAW LIBCRYPTO GO_VERSION > FILE.json
"""
import json
import re
import statistics
import sys

OPS = {"setup+seal": "setup + 64 B seal", "seal": "64 B seal on a context"}
SUITES = {"X25519-SHA256-AES128GCM": "X25519, HKDF-SHA256, AES-128-GCM",
          "P256-SHA256-AES128GCM": "P-256, HKDF-SHA256, AES-128-GCM",
          "X25519-SHA256-ChaCha20Poly1305": "X25519, HKDF-SHA256, ChaCha20-Poly1305"}


def main():
    raw, libcrypto, go = sys.argv[1:4]
    ns = {}
    for line in open(raw):
        m = re.match(r"BenchmarkHPKE/([^/]+)/([^/]+)/impl=(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            ns.setdefault(m.group(1, 2, 3), []).append(float(m.group(4)))
    if not ns:
        sys.exit("hpke_go.py: no BenchmarkHPKE lines in %s" % raw)
    rows = []
    for (op, suite, impl), values in sorted(ns.items()):
        if impl == "crypto-hpke":
            continue
        peer = statistics.median(ns[(op, suite, "crypto-hpke")])
        ours = statistics.median(values)
        label = OPS[op] + (" (AppendSeal, reused buffer)" if impl == "libaead-append" else "")
        rows.append({"suite": SUITES[suite], "op": label, "peer": "crypto/hpke (%s)" % go, "libaead_ns": ours,
                     "peer_ns": peer, "ratio": ours / peer})
    json.dump({"bench": "hpke", "lang": "Go", "libcrypto": libcrypto, "rounds": len(values), "rows": rows},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
