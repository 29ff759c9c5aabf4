#!/usr/bin/env python3
"""Prints JMH's JSON (bench.sh: target/result.json) as Markdown: each benchmark's mean and its allocation per
operation, then AlgBench's seal time of each family over AES-128-GCM's at the same size.
Usage: jmh_table.py result.json
"""
import json, sys
print("| benchmark | params | ns/op | +- | B/op |")
print("|---|---|---:|---:|---:|")
for r in json.load(open(sys.argv[1])):
    m = r["primaryMetric"]
    alloc = next((v["score"] for k, v in r.get("secondaryMetrics", {}).items() if k.lstrip("·:") == "gc.alloc.rate.norm"), None)
    params = ", ".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
    err = m.get("scoreError")
    err = f"{err:.0f}" if isinstance(err, (int, float)) else ""  # "NaN" (a string) after one iteration
    print(f"| {r['benchmark'].rsplit('.', 2)[-2]}.{r['benchmark'].rsplit('.', 1)[-1]} | {params} | {m['score']:.0f} | "
          f"{err} | {'' if alloc is None else f'{alloc:.0f}'} |")
# AlgBench: each family's seal time over AES-128-GCM's at the same size (below 1: faster).
alg = {(r["params"]["alg"], int(r["params"]["size"])): r["primaryMetric"]["score"]
       for r in json.load(open(sys.argv[1])) if r["benchmark"].endswith("AlgBench.sealInto")}
sizes = sorted({n for _, n in alg})
if alg:
    print("\n| direct API sealInto | " + " | ".join(f"{n} B" for n in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for a in dict.fromkeys(a for a, _ in alg):
        print(f"| {a} | " + " | ".join(f"{alg[a, n]:,.0f} ns ({alg[a, n] / alg['AES-128-GCM', n]:.2f})"
                                        if (a, n) in alg and ("AES-128-GCM", n) in alg else "-" for n in sizes) + " |")
