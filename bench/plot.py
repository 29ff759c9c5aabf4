"""Draws the README's benchmark figure from the benchmarks' JSON results.

Usage: python3 bench/plot.py [OUT.png [RESULT.json ...]]   (default: docs/bench.png from the results the
documents show). It runs in a venv in the cache folder (outside the clone) with matplotlib from PyPI, made once.

Each panel is one benchmark (C library, Go, Python, Rust, rustls, Java, Node.js, QUIC packets from Rust and
Python), time
per seal (or per protected packet) against message size; the AEAD families' panels (Python against pyca,
Rust against RustCrypto) show the time ratio per family instead, from one interleaved run each,
log-log, one line per implementation and libcrypto, so that where each option wins shows at a glance.
Every JSON format written by the project's benchmarks is recognised by its shape; points are the
benchmarks' own medians, nothing is recomputed here.
"""

import glob
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The results the figure shows when no file is given: the C library's and rustls's, each binding's, the families'.
DEFAULT = [f"{folder}/{name}.json" for folder, names in (
    ("bench/results", "c-system c-vendored rustls-system-3.0 aegis-system aegis-vendored"),
    ("bindings/go/bench/results", "system-3.0 vendored-3.5"), ("bindings/java/bench/results", "jmh"),
    ("bindings/node/bench/results", "bench"), ("bindings/python/bench/results", "system vendored quic-vendored"),
    ("bindings/rust/benches/results", "meson-system-3.0 bundled-vendored-3.5.5"),
    ("bindings/rustls-libaead/benches/results", "quic-*"), ("bindings/python/bench/results", "families-system families-vendored"),
    ("bindings/rust/benches/results", "families-meson-system-3.0 families-meson-vendored-3.5.5")) for name in names.split()]


def short_crypto(text):
    """'libaead 1.1.0 (OpenSSL 3.5.5 27 Jan 2026)' or 'OpenSSL 3.0.19 ...' -> 'OpenSSL 3.5.5'."""
    m = re.search(r"OpenSSL (\d+\.\d+\.\d+)", text or "")
    return "OpenSSL " + m.group(1) if m else (text or "?")


def c_rows(doc):
    for r in doc:
        # libaead and the EVP floor (the fresh-context row is in the tables, not worth a line here)
        if r.get("bench") == "c" and r["op"] == "seal" and r["alg"] == "AES-128-GCM" and r["impl"] != "evp-fresh-context":
            yield "C library (aead-bench)", f"{r['impl']}, {short_crypto(r['libcrypto'])}", r["bytes"], r["ns"]


def go_rows(doc):
    cfg = doc["config"]
    crypto = {"libaead": short_crypto(cfg.get("libaead")), "golangfips": short_crypto(cfg.get("golangfips-libcrypto")),
              "stdlib": "Go assembly", "cryptocipher": "Go assembly"}
    for b in doc["benchmarks"]:
        f = dict(kv.split("=", 1) for kv in b["name"].split("/")[1:] if "=" in kv)
        if not b["name"].startswith("BenchmarkAESGCM") or f.get("op") != "Seal" or f.get("mode") != "serial":
            continue
        impl = f.get("impl", "?")
        yield "Go (AES-128-GCM Seal)", f"{impl}, {crypto.get(impl, '?')}", int(f["size"]), b["ns_per_op_median"]


def python_rows(doc):
    meta = doc["meta"]
    ours = short_crypto(meta.get("libaead"))
    theirs = short_crypto(meta.get("pyca_openssl"))
    for r in doc["rows"]:
        if r["op"] == "encrypt" and r.get("records", 1) == 1:
            yield "Python (AES-128-GCM encrypt)", f"libaead {meta.get('backend', '')}, {ours}", r["bytes"], r["libaead_ns"]
            yield "Python (AES-128-GCM encrypt)", f"pyca/cryptography, {theirs}", r["bytes"], r["pyca_ns"]


def rust_rows(doc):
    ours = short_crypto(doc.get("libaead"))
    for r in doc["results"]:
        if r["op"] != "seal":
            continue
        ref = r["reference"]
        yield "Rust (AES-128-GCM seal)", f"libaead, {ours}", r["size"], r["libaead_ns"]
        if ref != "libaead":
            yield "Rust (AES-128-GCM seal)", ref, r["size"], r["reference_ns"]


def rustls_rows(doc):
    ours = short_crypto(doc.get("libaead"))
    for r in doc["results"]:
        if r["direction"] != "seal" or r["suite"] != "TLS13_AES_128_GCM_SHA256":
            continue
        for impl, ns in r["ns_per_record"].items():
            label = f"rustls + libaead, {ours}" if impl == "libaead" else f"rustls + {impl}"
            yield "rustls (TLS 1.3 AES-128-GCM record seal)", label, r["size"], ns


def quic_rust_rows(doc):
    ours = short_crypto(doc.get("libaead"))
    names = {"one_call": f"libaead one call, {ours}", "two_call": f"rustls-libaead keys (two calls), {ours}",
             "ring": "rustls + ring keys (two calls)"}
    for r in doc["results"]:
        if r["op"] == "protect" and r["suite"] == "TLS13_AES_128_GCM_SHA256":
            for impl, ns in r["median_ns_per_packet"].items():
                yield "QUIC packet protect, Rust (AES-128-GCM)", names.get(impl, impl), r["size"], ns


def quic_python_rows(doc):
    ours = short_crypto(doc["meta"].get("libaead"))
    names = {"one_call": f"libaead.quic one call, {ours}", "two_calls": f"libaead.quic AEAD + HeaderProtection, {ours}",
             "aioquic": f"aioquic {doc['meta'].get('aioquic', '')} _crypto (two calls)"}
    for key, impls in doc["results"].items():
        alg, size = key.rsplit("/", 1)
        if alg == "aes-128-gcm":
            for impl, ns in impls.items():
                yield "QUIC packet protect, Python (AES-128-GCM)", names.get(impl, impl), int(size), ns


def families_python_rows(doc):
    """bench_families.py: libaead / pyca time per family (encrypt), one line per family and libcrypto."""
    ours = short_crypto(doc.get("library"))
    for r in doc["rows"]:
        if r["op"] == "encrypt":
            for size, ratio in r["ratio"].items():
                yield "Families, Python: libaead / pyca (XChaCha: PyNaCl) time, encrypt", f"{r['family']}, {ours}", int(size), ratio


SIZES = {"64 B": 64, "1 KiB": 1024, "16 KiB": 16384}


def families_rust_rows(text):
    """benches/families.rs's Markdown table: libaead / RustCrypto time per family (seal)."""
    ours = short_crypto(text)  # the first "OpenSSL x.y.z" in the file: its libaead line
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1] == "seal" and cells[2] in SIZES:
            ratio = float(re.search(r"([0-9.]+)x", cells[5]).group(1))
            family = re.sub(r" \(.*\)$", "", cells[0])
            yield "Families, Rust: libaead / RustCrypto time (seal)", f"{family}, {ours}", SIZES[cells[2]], ratio


def java_rows(doc):
    """JMH's JSON (bindings/java/bench.sh): the JCA providers' and the direct API's seal, mean ns per message."""
    names = {"sealInto": "libaead direct API, sealInto (byte[])", "sealIntoSegments": "libaead direct API, sealInto (MemorySegments)"}
    for r in doc:
        method = r["benchmark"].rsplit(".", 1)[-1]
        provider = r["params"].get("provider")
        if method == "jca":
            label = "LibAead JCA provider" if provider == "LibAead" else f"{provider} JCA provider"
        elif method in names:
            label = names[method]
        else:
            continue
        yield "Java (AES-128-GCM seal)", label, int(r["params"]["size"]), r["primaryMetric"]["score"]


def node_rows(doc):
    """bindings/node/bench/bench.js --json: AES-128-GCM seal per implementation."""
    ours = short_crypto(doc["meta"].get("libaead"))
    theirs = short_crypto(doc["meta"].get("node_openssl"))
    for r in doc["rows"]:
        if r["alg"] == "AES-128-GCM" and r["op"] == "seal":
            label = {"libaead": f"libaead, {ours}", "node:crypto": f"node:crypto, {theirs}"}.get(r["impl"], r["impl"])
            yield "Node.js (AES-128-GCM seal)", label, r["bytes"], r["ns"]


def families_rust_json_rows(doc):
    """benches/families.rs's JSON (LIBAEAD_BENCH_JSON): libaead / RustCrypto time per family (seal)."""
    ours = short_crypto(doc.get("libaead"))
    for r in doc["results"]:
        if r.get("op") == "seal":
            family = re.sub(r" \(.*\)$", "", r["family"])
            yield "Families, Rust: libaead / RustCrypto time (seal)", f"{family}, {ours}", r["size"], r["ratio"]


def aegis_rows(doc):
    # bench/aegis.c: GB/s per algorithm and size; the AEGIS lines (libaegis, the same on either libcrypto)
    # from the vendored run only, AES-128-GCM from both.
    crypto = short_crypto(doc["libcrypto"])
    vendored = not crypto.startswith("OpenSSL 3.0")
    for r in doc["rows"]:
        name = r["algorithm"]
        if name == "AES-128-GCM" or (vendored and name in ("ChaCha20-Poly1305", "AEGIS-128L", "AEGIS-128X2",
                                                           "AEGIS-128X4", "AEGIS-256")):
            line = f"libaead {name}, {'libaegis' if name.startswith('AEGIS') else crypto}"
            yield "C library: AEGIS (aead-aegis-bench, seal)", line, r["size"], r["size"] / r["gbps"]


def rows_of(doc):
    if isinstance(doc, dict) and doc.get("rows") and "ratio_to_aes_128_gcm" in doc["rows"][0]:
        return aegis_rows(doc)
    if isinstance(doc, str):
        return families_rust_rows(doc)
    if isinstance(doc, dict) and doc.get("benchmark", "").endswith("families.rs"):
        return families_rust_json_rows(doc)
    if isinstance(doc, list) and doc and "jmhVersion" in doc[0]:
        return java_rows(doc)
    if isinstance(doc, list):
        return c_rows(doc)
    if "rows" in doc and "meta" in doc and doc["rows"] and "impl" in doc["rows"][0]:
        return node_rows(doc)
    if "results" in doc and isinstance(doc["results"], dict) and "aioquic" in doc.get("meta", {}):
        return quic_python_rows(doc)
    if "results" in doc and doc["results"] and "median_ns_per_packet" in doc["results"][0]:
        return quic_rust_rows(doc)
    if "benchmarks" in doc and "config" in doc:
        return go_rows(doc)
    if "rows" in doc and "pyca" in doc and "library" in doc:
        return families_python_rows(doc)
    if "rows" in doc and "meta" in doc:
        return python_rows(doc)
    if "results" in doc and doc["results"] and "ns_per_record" in doc["results"][0]:
        return rustls_rows(doc)
    if "results" in doc:
        return rust_rows(doc)
    raise ValueError("unrecognised benchmark JSON")


def in_venv(argv):
    """Runs this script again in the plot venv, made (or mended) first if it has no matplotlib."""
    venv = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "libaead/plot-venv"
    py = venv / "bin/python"
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    if not py.exists() or subprocess.run([py, "-c", "import matplotlib"], stderr=subprocess.DEVNULL).returncode:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([venv / "bin/pip", "install", "--quiet", "matplotlib>=3.8"], check=True,
                       env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    os.execv(py, [py, __file__, *argv[1:]])


def main(argv):
    in_venv(argv)
    files = argv[2:] or [p for d in DEFAULT for p in (sorted(glob.glob(str(REPO / d))) if "*" in d else [str(REPO / d)])]
    argv = [argv[0], argv[1] if len(argv) > 1 and argv[1] else str(REPO / "docs/bench.png"), *files]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = defaultdict(lambda: defaultdict(dict))  # panel -> line -> bytes -> ns
    for path in argv[2:]:
        with open(path) as f:
            doc = f.read() if path.endswith(".md") else json.load(f)
            for panel, line, size, ns in rows_of(doc):
                if size > 0 and ns > 0:
                    panels[panel][line][size] = ns
    order = ["C", "Go", "Python", "Rust", "rustls", "Java", "Node.js", "QUIC", "Families,"]
    names = sorted(panels, key=lambda p: (order.index(p.split()[0]), p))
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        for line in sorted(panels[name]):
            pts = sorted(panels[name][line].items())
            style = "-o" if "libaead" in line or name.startswith("Families,") else "--s"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, ms=4, label=line)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message bytes")
        if name.startswith("Families,"):  # ratio panels: below 1, libaead is faster
            ax.axhline(1.0, color="black", lw=0.8)
            ax.set_ylabel("time ratio (libaead / peer), same run")
        else:
            ax.set_ylabel("ns per operation")
        ax.set_title(name, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle("libaead and its peers, per libcrypto (lower is faster); medians from one run per panel", fontsize=11)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)
    print(f"plot: wrote {argv[1]} ({len(names)} panels)")


if __name__ == "__main__":
    main(sys.argv)
