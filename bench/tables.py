"""Writes the benchmark tables of the documents from the benchmarks' JSON results.

Usage: python3 bench/tables.py [--check] [--list] [--data DIR --print]

A generated table sits between two markers in a Markdown document:

    <!-- bench:NAME:begin -->
    ...caption line, table...
    <!-- bench:NAME:end -->

and an inline figure (a ratio quoted in prose) between the same markers on one line. NAME picks one of the
generators below; each reads JSON results only (the C library's in bench/results/, each binding's in its
results folder) and computes nothing the JSON does not hold but ratios of its own numbers. Every table's
caption names the CPU, the libcrypto and the date of its data and the command that made it: the libcrypto
from the JSON, the rest from the run manifest bench/results/run.json (written by bench/all.sh), else from
bench/results/provenance.json (data recorded before the manifest existed).

--check rewrites nothing and exits 1 when a document's block differs from what its JSON gives (the hygiene
stage runs it); --list prints each marker's document and name; --data DIR --print reads the JSON under DIR
(bench/all.sh --out DIR) and prints the blocks it gives instead of writing them.
"""

import json
import os
import re
import sys

from markers import MARK, ROOT, documents  # noqa: E402 (bench/markers.py, shared with bench/figures.py)
DATA = ROOT  # where the JSON is read: the repository, or a run's --out folder (--data DIR)


def located(path):
    """A result file in DATA, or (previewing a partial run's --out folder) the repository's copy."""
    full = os.path.join(DATA, path)
    return full if os.path.exists(full) else os.path.join(ROOT, path)


def load(path):
    with open(located(path)) as f:
        return json.load(f)


def provenance(path):
    """CPU, date and command of one result file: the run manifest first, then the older records."""
    fresh = os.path.exists(os.path.join(DATA, path))
    for manifest in ("bench/results/run.json", "bench/results/provenance.json"):
        full = os.path.join(DATA if fresh else ROOT, manifest)
        if not os.path.exists(full):
            continue
        with open(full) as f:
            doc = json.load(f)
        if "benchmarks" in doc:  # run.json: one run, several benchmarks
            for b in doc["benchmarks"]:
                if path in b.get("outputs", []):
                    return {"cpu": b.get("cpu", doc["cpu"]), "date": b.get("date", doc["date"])[:10],
                            "command": b["command"],
                            "libcrypto": b.get("libcrypto", "?")}
        elif path in doc:
            return doc[path]
    raise SystemExit(f"tables: {path}: no CPU, date or command for it in run.json or provenance.json")


def openssl(text):
    """'libaead 1.1.0 (OpenSSL 3.5.5 27 Jan 2026)' -> 'OpenSSL 3.5.5'."""
    m = re.search(r"OpenSSL (\d+\.\d+\.\d+)", text or "")
    return "OpenSSL " + m.group(1) if m else (text or "?")


def caption(paths, libcrypto, extra=""):
    """One line under the marker: CPU, libcrypto, date and command of the data."""
    metas = [provenance(p) for p in paths]
    cpus = sorted({m["cpu"] for m in metas})
    dates = sorted({m["date"] for m in metas})
    commands = []
    for m in metas:
        if m["command"] not in commands:
            commands.append(m["command"])
    date = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    line = (f"*Data: {'; '.join(cpus)}; {libcrypto}; {date}; "
            f"made by {', '.join('`' + c + '`' for c in commands)}.{(' ' + extra) if extra else ''}*")
    return line


def table(header, align, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def block(paths, libcrypto, header, align, rows, extra=""):
    return "\n".join(["", caption(paths, libcrypto, extra), ""] + table(header, align, rows) + [""])


# ---- the C library (bench/bench.c --json) ----

def c_index(path):
    rows = load(path)
    idx = {(r["impl"], r["alg"], r["op"], r["bytes"]): r for r in rows if r.get("bench") == "c"}
    threads = {r["alg"]: r for r in rows if r.get("bench") == "c-threads"}
    return idx, threads, openssl(rows[0]["libcrypto"])


C_DIRECT = {"system 3.0": "bench/results/c-system.json",
            "vendored 3.5": "bench/results/c-vendored.json"}


def size_name(n):
    return f"{n // 1024} KiB" if n >= 1024 and n % 1024 == 0 else f"{n} B"


def gen_c_gcm():
    """README: AES-128-GCM seal against the EVP floor, the direct floor and a fresh context per call."""
    rows, libs = [], []
    for kind, path in C_DIRECT.items():
        idx, _, lib = c_index(path)
        libs.append(lib)
        label = f"{kind.split()[0]} {lib.split()[1]}"
        for n in (64, 1024, 16384):
            g = lambda impl: idx[(impl, "AES-128-GCM", "seal", n)]
            ours, evp, direct, naive = g("libaead"), g("evp-floor"), g("direct-floor"), g("evp-fresh-context")
            rows.append([label, size_name(n), ", ".join(f"{x['ns']:.0f}" for x in (ours, evp, direct, naive)),
                         f"{ours['ratio_to_floor']:.3f}", f"{ours['ratio_to_direct']:.3f}",
                         f"{naive['ratio_to_floor']:.2f}"])
    return block(list(C_DIRECT.values()), ", ".join(libs),
                 ["libcrypto", "size", "seal ns: libaead, EVP floor, direct floor, naive", "libaead / EVP floor",
                  "libaead / direct floor", "naive / EVP floor"],
                 ["---", "---:", "---", "---:", "---:", "---:"], rows)


def gen_c_vendored_speed():
    """README, inline: the vendored build's libaead seal time over the system build's, 64 B and 16 KiB."""
    sys_idx, _, sys_lib = c_index(C_DIRECT["system 3.0"])
    ven_idx, _, ven_lib = c_index(C_DIRECT["vendored 3.5"])
    r = {n: ven_idx[("libaead", "AES-128-GCM", "seal", n)]["ns"] / sys_idx[("libaead", "AES-128-GCM", "seal", n)]["ns"]
         for n in (64, 16384)}
    return f"{r[64]:.2f}x (64 B) and {r[16384]:.2f}x (16 KiB) the time of {sys_lib.split()[1]}'s"


C_EVP = {"system": "bench/results/c-system-3.0.json", "vendored": "bench/results/c-vendored-3.5.json",
         "vendored 4.0": "bench/results/c-vendored-4.0.json"}


def gen_c_evp():
    """docs/benchmarks.md: the EVP-path release against its EVP floor, per libcrypto."""
    rows, libs = [], []
    for kind, path in C_EVP.items():
        idx, threads, lib = c_index(path)
        libs.append(lib)
        g = lambda impl, op, n: idx[(impl, "AES-128-GCM", op, n)]
        s64 = g("libaead", "seal", 64)
        rows.append([f"{kind.split()[0]} {lib.split()[1]}",
                     f"{s64['ns']:.0f} / {g('evp-floor', 'seal', 64)['ns']:.0f} = {s64['ratio_to_floor']:.3f}",
                     f"{g('libaead', 'open', 64)['ratio_to_floor']:.3f}",
                     f"{g('libaead', 'seal', 1024)['ratio_to_floor']:.3f}",
                     f"{g('libaead', 'seal', 16384)['ratio_to_floor']:.3f}",
                     f"{g('libaead', 'open', 16384)['ratio_to_floor']:.3f}",
                     f"{16384 / g('libaead', 'seal', 16384)['ns']:.1f}",
                     f"{g('evp-fresh-context', 'seal', 64)['ratio_to_floor']:.2f}",
                     f"{threads['AES-128-GCM']['speedup']:.2f}x"])
    return block(list(C_EVP.values()), ", ".join(libs),
                 ["libcrypto", "64 B seal ns (libaead / floor)", "64 B open", "1 KiB seal", "16 KiB seal",
                  "16 KiB open", "16 KiB GB/s", "fresh context / floor, 64 B", "2 threads, one context"],
                 ["---"] + ["---:"] * 8, rows)


POLICY_COST = "bench/results/policy-cost.json"


def gen_policy_cost():
    """docs/benchmarks.md: valgrind's instructions per 64-byte seal under each nonce policy."""
    doc = load(POLICY_COST)
    base = next(r["instructions"] for r in doc["rows"] if r["policy"] == "AEAD_POLICY_TLS13")
    rows = [[f"`{r['policy']}`", r["instructions"], f"{r['instructions'] - base:+d}"] for r in doc["rows"]]
    return block([POLICY_COST], openssl(doc["libcrypto"]),
                 ["policy", "instructions per 64 B seal", "vs `AEAD_POLICY_TLS13`"], ["---", "---", "---"], rows,
                 f"Build: `{doc['buildtype']}`.")


def gen_policy_cost_overhead():
    """docs/benchmarks.md, inline: instructions of the check-and-commit over a caller's unchecked nonce."""
    doc = load(POLICY_COST)
    n = {r["policy"]: r["instructions"] for r in doc["rows"]}
    return f"{n['AEAD_POLICY_TLS13'] - n['AEAD_POLICY_NONE']} instructions"


# ---- HPKE (bench/all.sh --only hpke: one JSON per language, the same rows) ----

HPKE = ["bench/results/hpke-c-system.json", "bench/results/hpke-c-vendored.json", "bench/results/hpke-go.json",
        "bench/results/hpke-python.json", "bench/results/hpke-rust.json", "bench/results/hpke-node.json"]


def gen_hpke():
    """docs/hpke.md: each language's HPKE against its peers, setup + first seal and a seal on a context."""
    paths = [p for p in HPKE if os.path.exists(located(p))]
    rows, libs = [], []
    for path in paths:
        doc = load(path)
        lib = openssl(doc["libcrypto"])
        if lib not in libs:
            libs.append(lib)
        for r in doc["rows"]:
            peer = r.get("peer")
            rows.append([doc["lang"], lib, r["suite"], r["op"], f"{r['libaead_ns']:,.0f}",
                         peer or "(none on this libcrypto)", f"{r['peer_ns']:,.0f}" if peer else "",
                         f"{r['ratio']:.2f}x" if peer else ""])
    with_aad = [f"{load(p)['lang']} with {load(p)['aad']} bytes of AAD" for p in paths if load(p).get("aad")]
    aad = f"; {', '.join(with_aad)}" if with_aad else ""
    return block(paths, "libaead on " + " and ".join(libs),
                 ["language", "libcrypto", "suite", "operation", "libaead ns", "peer", "peer ns", "libaead / peer"],
                 ["---", "---", "---", "---", "---:", "---", "---:", "---:"], rows,
                 f"64-byte messages{aad}; below 1.00x libaead is faster.")


# ---- Streaming AEAD (bench/stream.c, bench_stream.py, Java's StreamBench) ----

STREAM_C = "bench/results/stream-c-system.json"
STREAM_PYTHON = "bindings/python/bench/results/stream-python.json"
STREAM_JAVA = "bindings/java/bench/results/stream.json"


def gen_stream():
    """docs/streaming.md: each language's streams against its peers; C against aead_seal_open on the same segments."""
    paths = [p for p in (STREAM_C, STREAM_PYTHON, STREAM_JAVA) if os.path.exists(located(p))]
    rows, libs, notes = [], [], []
    for path in paths:
        doc = load(path)
        lib = openssl(doc["library"])
        if lib not in libs:
            libs.append(lib)
        if path == STREAM_C:
            for r in doc["rows"]:
                rows.append(["C", r["name"], "encrypt", f"{r['stream_gbps'] * 1000:,.0f}",
                             "`aead_seal_open` on the same segments", f"{r['oneshot_gbps'] * 1000:,.0f}",
                             f"{r['ratio']:.2f}x"])
            notes.append(f"C: {doc['mib']} MiB streams, medians of 5 interleaved rounds; peak RSS "
                         f"{doc['max_rss_kib'] / 1024:.1f} MiB after them and {doc['max_rss_kib_after_4x'] / 1024:.1f} "
                         f"MiB after one stream of {4 * doc['mib']} MiB")
        elif path == STREAM_PYTHON:
            for r in doc["rows"]:
                rows.append(["Python", r["stream"], r["direction"], f"{r['libaead_mbps']:,}", r["peer"],
                             f"{r['peer_mbps']:,}", f"{r['ratio']:.2f}x"])
            notes.append(f"Python {doc['python']}: {doc['mib']} MiB, best of {doc['rounds']} interleaved rounds; the age "
                         "rows time the two commands file to file, start-up included")
        else:
            for r in doc["rows"]:
                rows.append(["Java", f"Tink {r['template']}", r["direction"], f"{r['libaead_mbps']:,.0f}",
                             f"Tink Java {doc['tink']}", f"{r['tink_mbps']:,.0f}", f"{r['ratio']:.2f}x"])
            notes.append(f"Java {doc['java']}: {doc['mib']} MiB, medians of {doc['rounds']} interleaved rounds")
    return block(paths, "libaead on " + " and ".join(libs),
                 ["language", "stream", "direction", "libaead MB/s", "against", "MB/s", "libaead / other"],
                 ["---", "---", "---", "---:", "---", "---:", "---:"], rows,
                 "; ".join(notes) + ". Above 1.00x libaead is faster.")


# ---- Python (bindings/python/bench/bench.py --json) ----

def gen_python(kind):
    path = f"bindings/python/bench/results/{kind}.json"

    def gen():
        doc = load(path)
        meta = doc["meta"]
        rows = []
        for r in doc["rows"]:
            if r["records"] == 1:
                rows.append([r["op"], r["bytes"], f"{r['libaead_ns']:.0f}", f"{r['pyca_ns']:.0f}", f"{r['ratio']:.2f}x"])
            else:
                rows.append([r["op"], f"{r['records']} x {r['bytes']}", f"{r['libaead_ns']:.0f}",
                             f"{r['pyca_ns']:.0f} (pyca `encrypt` loop)", f"{r['ratio']:.2f}x"])
        extra = (f"Python {meta['python']}, cffi {meta['cffi']}, backend `{meta['backend']}`; pyca/cryptography "
                 f"{meta['pyca']} on {openssl(meta['pyca_openssl'])}; minimum of {meta['rounds']} rounds.")
        return block([path], f"libaead on {openssl(meta['libaead'])}", 
                     ["operation", "bytes", "libaead ns/op", "pyca ns/op", "libaead / pyca"],
                     ["---", "---:", "---:", "---:", "---:"], rows, extra)
    return gen


# ---- Go (bindings/go/bench.sh: results.json of cmd/ratios) ----

GO = {"vendored": "bindings/go/bench/results/vendored-3.5.json", "system": "bindings/go/bench/results/system-3.0.json"}
GO_EVP = {"vendored": "bindings/go/bench/results/evp-vendored-3.5.json",
          "system": "bindings/go/bench/results/evp-system-3.0.json"}


def go_paired(path):
    doc = load(path)
    out = {p["name"]: p for p in doc["paired"]}
    allocs = max(b["allocs_per_op_max"] for b in doc["benchmarks"]
                 if "impl=libaead" in b["name"] and re.search(r"op=(Seal|Open)", b["name"]))
    return out, allocs, openssl(doc["config"]["libaead"])


GO_ROWS = [("binding_over_stdlib/op=Seal/size=64", "Seal 64 B: libaead time / crypto/cipher's"),
           ("binding_over_stdlib/op=Open/size=64", "Open 64 B: libaead / crypto/cipher"),
           ("stdlib_over_binding/op=Seal/size=16384", "Seal 16 KiB: crypto/cipher time / libaead's (throughput ratio)"),
           ("stdlib_over_binding/op=Open/size=16384", "Open 16 KiB: crypto/cipher / libaead (throughput ratio)"),
           ("golangfips_over_binding/op=Seal/size=64", "Seal 64 B: golang-fips/openssl (system 3.0) / libaead"),
           ("golangfips_over_binding/op=Open/size=64", "Open 64 B: golang-fips/openssl / libaead"),
           ("golangfips_over_binding/op=Seal/size=16384", "Seal 16 KiB: golang-fips/openssl / libaead"),
           ("binding_over_stdlib_random/op=Seal/size=64", "`NewGCMWithRandomNonce` Seal 64 B: libaead / crypto/cipher's"),
           ("binding_over_stdlib_random/op=Seal/size=16384", "`NewGCMWithRandomNonce` Seal 16 KiB: libaead / crypto/cipher's"),
           ("binding_over_c/op=Seal/size=16384", "binding / C library's own loop, Seal 16 KiB"),
           ("binding_over_c_plus_cgo/op=Seal/size=64", "binding / (C loop + one empty cgo call), Seal 64 B")]


def gen_go(paths, brackets):
    """bindings/go/README.md: the paired ratios (BenchmarkPaired) per libcrypto; with brackets, the EVP-path run's."""
    def gen():
        now = {k: go_paired(p) for k, p in paths.items()}
        before = {k: go_paired(p) for k, p in GO_EVP.items()} if brackets else None
        rows = []
        for name, label in GO_ROWS:
            row = [label]
            for kind in ("vendored", "system"):
                cell = f"{now[kind][0][name]['ratio_median']:.3f}"
                if before:
                    cell += f" ({before[kind][0][name]['ratio_median']:.3f})"
                else:
                    m = re.search(r"min ([0-9.]+), max ([0-9.]+)", now[kind][0][name].get("measured", ""))
                    cell += f" ({m[1]}-{m[2]})" if m else ""
                row.append(cell)
            rows.append(row)
        rows.append(["allocs/op, every libaead Seal/Open benchmark", now["vendored"][1], now["system"][1]])
        libs = {k: now[k][2] for k in now}
        return block(list(paths.values()) + (list(GO_EVP.values()) if brackets else []),
                     f"libaead on {libs['vendored']} and {libs['system']}; golang-fips/openssl on the system libcrypto",
                     ["AES-128-GCM, 13-byte AAD, paired", f"libaead on vendored {libs['vendored'].split()[1]}",
                      f"libaead on system {libs['system'].split()[1]}"], ["---", "---:", "---:"], rows,
                     "Median of the samples; " + ("in brackets, the EVP path's." if brackets else "range in brackets."))
    return gen


# ---- Rust (bindings/rust/bench.sh: benches/seal_open.rs's JSON) ----

RUST = {"bundled": "bindings/rust/benches/results/bundled-vendored-3.5.5.json",
        "system": "bindings/rust/benches/results/meson-system-3.0.json"}
RUST_EVP = {"bundled": "bindings/rust/benches/results/evp-bundled-vendored-3.5.5.json",
            "meson-vendored": "bindings/rust/benches/results/evp-meson-vendored-3.5.5.json",
            "system": "bindings/rust/benches/results/evp-meson-system-3.0.json"}


def lock_version(crate, lock="bindings/rust/Cargo.lock"):
    """The newest version of crate in the lock file: a dependency's own older copy (the `hpke` crate's
    aes-gcm 0.10 beside the benchmark's 0.11) is not the one benchmarked."""
    with open(os.path.join(ROOT, lock)) as f:
        found = re.findall(r'^name = "' + re.escape(crate) + r'"\nversion = "([^"]+)"', f.read(), re.M)
    return max(found, key=lambda v: tuple(int(x) for x in re.findall(r"\d+", v))) if found else "?"


def rust_reference(name):
    return {"libaead": "libaead (A/A)", "c_direct": "C call, no binding",
            "aes_gcm": f"aes-gcm {lock_version('aes-gcm')}", "ring": f"ring {lock_version('ring')}",
            "aws_lc_rs": f"aws-lc-rs {lock_version('aws-lc-rs')}"}.get(name, name)


def rust_index(path):
    doc = load(path)
    return {(r["op"], r["size"], r["reference"]): r for r in doc["results"]}, openssl(doc["libaead"])


def gen_rust_direct():
    """bindings/rust/README.md: 64 B ratios per reference on the current path, the EVP path's in brackets."""
    now = {k: rust_index(p) for k, p in RUST.items()}
    before = {k: rust_index(RUST_EVP[k]) for k in RUST}
    rows = []
    for ref in ("c_direct", "aws_lc_rs", "ring", "aes_gcm"):
        row = [rust_reference(ref)]
        for kind in ("bundled", "system"):
            for op in ("seal", "open"):
                row.append(f"{now[kind][0][(op, 64, ref)]['ratio']:.3f}x ({before[kind][0][(op, 64, ref)]['ratio']:.3f}x)")
        rows.append(row)
    v, s_ = now["bundled"][1].split()[1], now["system"][1].split()[1]
    return block(list(RUST.values()) + [RUST_EVP[k] for k in RUST], f"{now['bundled'][1]}, {now['system'][1]}",
                 ["64 B AES-128-GCM", f"bundled + vendored {v}: seal", "open", f"meson, system {s_}: seal", "open"],
                 ["---", "---:", "---:", "---:", "---:"], rows,
                 "libaead time / the reference's, median per-round ratio; in brackets, the EVP path's.")


def gen_rust_evp():
    """bindings/rust/README.md: the EVP-path runs, three builds of libaead against each reference."""
    runs = [rust_index(RUST_EVP[k]) for k in ("bundled", "meson-vendored", "system")]
    first, order = runs[0][0], []
    for key in first:
        order.append(key)
    rows = []
    for op, size, ref in order:
        r = first[(op, size, ref)]
        rows.append([op, size_name(size), rust_reference(ref), f"{r['libaead_ns']:.1f}", f"{r['reference_ns']:.1f}",
                     f"{r['ratio']:.3f}x [{r['ratio_q1']:.3f}-{r['ratio_q3']:.3f}]",
                     f"{runs[1][0][(op, size, ref)]['ratio']:.3f}x", f"{runs[2][0][(op, size, ref)]['ratio']:.3f}x"])
    libs = [r[1].split()[1] for r in runs]
    return block([RUST_EVP[k] for k in ("bundled", "meson-vendored", "system")], ", ".join(f"OpenSSL {v}" for v in dict.fromkeys(libs)),
                 ["op", "size", "reference", "libaead ns", "reference ns", f"ratio [IQR], bundled + vendored {libs[0]}",
                  f"ratio, meson vendored {libs[1]}", f"ratio, meson system {libs[2]}"],
                 ["---", "---:", "---", "---:", "---:", "---", "---:", "---:"], rows)


RUST_BATCH = {"vendored": "bindings/rust/benches/results/batch-meson-vendored-3.5.5.json",
              "system": "bindings/rust/benches/results/batch-meson-system-3.0.json"}


def gen_rust_batch():
    """bindings/rust/README.md: seal_many / open_many per record against the C call once per record."""
    runs = {}
    for kind, path in RUST_BATCH.items():
        doc = load(path)
        runs[kind] = ({(r["op"], r["size"], r["candidate"]): r for r in doc["results"]}, openssl(doc["libaead"]))
    rows = []
    for op in ("seal", "open"):
        for size in (64, 1024, 16384):
            row = [op, size_name(size)]
            for kind in ("vendored", "system"):
                idx = runs[kind][0]
                many, built = idx[(op, size, f"{op}_many")], idx[(op, size, f"{op}_many + build")]
                row += [f"{many['c_call_ns_per_record']:.1f}", f"{many['ns_per_record']:.1f} ({many['ratio']:.3f}x)",
                        f"{built['ns_per_record']:.1f} ({built['ratio']:.3f}x)"]
            rows.append(row)
    v, sy = (runs[k][1].split()[1] for k in ("vendored", "system"))
    return block(list(RUST_BATCH.values()), f"{runs['vendored'][1]}, {runs['system'][1]}",
                 ["op", "size", f"C call ns/rec, {v}", "`seal_many` ns/rec (ratio)", "`+ build` (ratio)",
                  f"C call ns/rec, {sy}", "`seal_many` ns/rec (ratio)", "`+ build` (ratio)"],
                 ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"], rows,
                 "Median ratio to the C call, 64 records a batch.")


def rust_families(kind, siv):
    """benches/families.rs's rows for one meson build: AES-SIV's (siv) or the other families'."""
    v = {"vendored": "vendored-3.5.5", "system": "system-3.0"}[kind]
    path = f"bindings/rust/benches/results/families-meson-{v}.json"
    doc = load(path)
    rows = [r for r in doc["results"] if r["family"].startswith("AES-SIV") == siv]
    if siv and not rows:
        raise SystemExit(f"tables: {path} has no AES-SIV rows")
    return path, openssl(doc["libaead"]), rows


def family_name(text):
    """'AES-128-OCB3 n12 (ocb3 0.2.0)' -> ('AES-128-OCB3 n12', 'ocb3')."""
    m = re.match(r"(.*?) \((\S+)[^)]*\)$", text)
    return (m[1], m[2]) if m else (text, "")


def gen_rust_families():
    """bindings/rust/README.md: libaead / RustCrypto per family, op and size, on both meson builds."""
    paths, rows = [], []
    libs = {}
    for siv in (False, True):
        runs = {k: rust_families(k, siv) for k in ("vendored", "system")}
        paths += [runs[k][0] for k in runs]
        libs.update({k: runs[k][1] for k in runs})
        system = {(r["family"], r.get("op"), r.get("size")): r for r in runs["system"][2]}
        unsupported = {r["family"].split(" (")[0] for r in runs["system"][2] if r.get("unsupported")}
        for r in runs["vendored"][2]:
            name = family_name(r["family"])[0]
            other = system.get((r["family"], r["op"], r["size"]))
            cell = f"{other['ratio']:.3f}x" if other else \
                f"unsupported ({'.'.join(libs['system'].split()[1].split('.')[:2])})" if name in unsupported else "–"
            rows.append([name, r["op"], size_name(r["size"]), f"{r['ratio']:.3f}x", cell])
    v, sy = libs["vendored"].split()[1], libs["system"].split()[1]
    return block(list(dict.fromkeys(paths)), f"{libs['vendored']}, {libs['system']}",
                 ["family", "op", "size", f"meson vendored {v}", f"meson system {sy}"],
                 ["---", "---", "---:", "---:", "---:"], rows,
                 "libaead time / RustCrypto time, median per-round ratio (IQRs in the JSON).")


PY_FAMILY = {"AESCCM": "AES-128-CCM", "AESGCMSIV": "AES-GCM-SIV", "AESOCB3": "AES-OCB3",
             "XChaCha20Poly1305": "XChaCha20-Poly1305", "AESSIV": "AES-SIV (256-bit key)"}
RUST_FAMILY = {"AES-128-CCM": "AES-128-CCM", "AES-128-GCM-SIV": "AES-GCM-SIV", "AES-128-OCB3": "AES-OCB3",
               "XChaCha20-Poly1305": "XChaCha20-Poly1305", "AES-SIV-CMAC-256": "AES-SIV (256-bit key)"}


def gen_families():
    """docs/benchmarks.md: each family's 64 B and 16 KiB seal ratio against its peer, Python and Rust."""
    cells, paths, libs = {}, [], {}
    for kind in ("vendored", "system"):
        for siv in (False, True):
            path, doc, rows = python_families(kind, siv)
            paths.append(path)
            libs[kind] = openssl(doc["library"]).split()[1]
            for (fam, op), r in rows.items():
                if op == "encrypt":
                    note = " (against PyNaCl)" if r["peer"] != "pyca" and kind == "vendored" else \
                        f" (pyca {doc['pyca']})" if fam == "AESSIV" and kind == "vendored" else ""
                    cells[(PY_FAMILY[fam], "py", kind)] = f"{r['ratio']['64']:.2f}x, {r['ratio']['16384']:.2f}x{note}"
            path, lib, rows = rust_families(kind, siv)
            paths.append(path)
            for r in rows:
                name, crate = family_name(r["family"])
                fam = next((v for k, v in RUST_FAMILY.items() if name.startswith(k)), None)
                if fam is None or r.get("unsupported") or r["op"] != "seal" or r["size"] not in (64, 16384):
                    continue
                key = (fam, "rs", kind)
                cells.setdefault(key, {})[r["size"]] = r["ratio"]
                if len(cells[key]) == 2:
                    note = f" (`{crate}`)" if kind == "vendored" else ""
                    cells[key] = f"{cells[key][64]:.2f}x, {cells[key][16384]:.2f}x{note}"
    rows = []
    for fam in PY_FAMILY.values():
        row = [fam]
        for lang in ("py", "rs"):
            for kind in ("vendored", "system"):
                c = cells.get((fam, lang, kind))
                row.append(c if isinstance(c, str) else "(needs 3.2)")
        rows.append(row)
    v, sy = libs["vendored"], libs["system"]
    return block(list(dict.fromkeys(paths)), f"libaead on OpenSSL {v} and {sy}",
                 ["family", f"Python / pyca, vendored {v}: 64 B, 16 KiB", f"system {sy}",
                  f"Rust / RustCrypto, vendored {v}: 64 B, 16 KiB", f"system {sy}"], ["---"] * 5, rows,
                 "Time ratio, libaead / peer, seal or encrypt.")


# ---- rustls (bindings/rustls-libaead/benches/records.rs's JSON) ----

RUSTLS = "bench/results/rustls-system-3.0.json"


def gen_rustls_records():
    """bindings/rustls-libaead/README.md: per-record ratios against ring and rustls-openssl."""
    doc = load(RUSTLS)
    cells, order = {}, []
    for r in doc["results"]:
        key = (r["suite"], r["size"])
        if key not in cells:
            order.append(key)
        cells.setdefault(key, {})[r["direction"]] = r
    rows = []
    for suite, size in order:
        c = cells[(suite, size)]
        rows.append([suite, size_name(size), "seal / open",
                     f"{c['seal']['ratio_libaead_vs_ring']:.2f} / {c['open']['ratio_libaead_vs_ring']:.2f}",
                     f"{c['seal']['ratio_libaead_vs_rustls_openssl']:.2f} / {c['open']['ratio_libaead_vs_rustls_openssl']:.2f}"])
    return block([RUSTLS], f"libaead and rustls-openssl on {openssl(doc['libaead'])}",
                 ["suite", "record", "direction", "libaead / ring", "libaead / rustls-openssl"],
                 ["---", "---:", "---", "---:", "---:"], rows,
                 f"rustls {doc['rustls']}; median of {doc['results'][0]['rounds']} rounds.")


# ---- docs/benchmarks.md: each binding against its peers, from the bindings' own results ----

def gen_bindings():
    go = {k: go_paired(p)[0] for k, p in GO.items()}
    go_evp = {k: go_paired(p)[0] for k, p in GO_EVP.items()}
    g = lambda d, kind, name: d[kind][name]["ratio_median"]
    py = load("bindings/python/bench/results/vendored.json")
    py_row = {(r["op"], r["bytes"], r["records"]): r for r in py["rows"]}
    rust = {k: rust_index(p)[0] for k, p in RUST.items()}
    rust_evp = {k: rust_index(RUST_EVP[k])[0] for k in RUST}
    rt = lambda d, kind, op, size, ref: d[kind][(op, size, ref)]["ratio"]
    tls = load(RUSTLS)
    aes = [r for r in tls["results"] if "AES" in r["suite"] and r["direction"] == "seal"]

    def span(key, size):
        vals = [r[key] for r in aes if r["size"] == size]
        return f"{min(vals):.2f}-{max(vals):.2f}x"
    s64, s16 = "binding_over_stdlib/op=Seal/size=64", "stdlib_over_binding/op=Seal/size=16384"
    f64, f16 = "golangfips_over_binding/op=Seal/size=64", "golangfips_over_binding/op=Seal/size=16384"
    rows = [
        ["Go Seal, libaead / crypto/cipher (direct)",
         f"{g(go, 'vendored', s64):.2f}x ({g(go_evp, 'vendored', s64):.2f}x); system 3.0: {g(go, 'system', s64):.2f}x "
         f"({g(go_evp, 'system', s64):.2f}x)",
         f"{1 / g(go, 'vendored', s16):.2f}x (crypto/cipher {g(go, 'vendored', s16):.2f}x libaead's time)",
         "[bindings/go](../bindings/go/README.md#benchmarks)"],
        ["Go Seal, golang-fips/openssl (system 3.0) / libaead (direct)",
         f"{g(go, 'vendored', f64):.1f}x ({g(go_evp, 'vendored', f64):.1f}x)", f"{g(go, 'vendored', f16):.1f}x",
         "0 allocs/op"],
        [f"Python `encrypt`, libaead / pyca {py['meta']['pyca']} (its own {openssl(py['meta']['pyca_openssl'])})",
         f"{py_row[('encrypt', 64, 1)]['ratio']:.2f}x", f"{py_row[('encrypt', 16384, 1)]['ratio']:.2f}x",
         "[bindings/python](../bindings/python/README.md#benchmark)"],
        ["Python 1000 x 64 B `encrypt_many` / pyca loop", f"{py_row[('encrypt_many', 64, 1000)]['ratio']:.2f}x", "", ""],
        ["Rust seal, libaead / RustCrypto aes-gcm (direct)",
         f"{rt(rust, 'bundled', 'seal', 64, 'aes_gcm'):.2f}x ({rt(rust_evp, 'bundled', 'seal', 64, 'aes_gcm'):.2f}x)",
         f"{rt(rust, 'bundled', 'seal', 16384, 'aes_gcm'):.2f}x", "[bindings/rust](../bindings/rust/README.md#benchmarks)"],
        ["Rust seal, libaead / aws-lc-rs (direct)",
         f"{rt(rust, 'bundled', 'seal', 64, 'aws_lc_rs'):.2f}x ({rt(rust_evp, 'bundled', 'seal', 64, 'aws_lc_rs'):.2f}x)",
         f"{rt(rust, 'bundled', 'seal', 16384, 'aws_lc_rs'):.2f}x", ""],
        ["Rust seal, libaead / ring (direct)",
         f"{rt(rust, 'bundled', 'seal', 64, 'ring'):.2f}x ({rt(rust_evp, 'bundled', 'seal', 64, 'ring'):.2f}x); system 3.0: "
         f"{rt(rust, 'system', 'seal', 64, 'ring'):.2f}x ({rt(rust_evp, 'system', 'seal', 64, 'ring'):.2f}x)",
         f"{rt(rust, 'bundled', 'seal', 16384, 'ring'):.2f}x", ""],
        ["rustls record seal (AES-GCM suites), libaead (system 3.0) / rustls-openssl",
         span("ratio_libaead_vs_rustls_openssl", 64), span("ratio_libaead_vs_rustls_openssl", 16384),
         "[bindings/rustls-libaead](../bindings/rustls-libaead/README.md#benchmark)"],
        ["rustls record seal (AES-GCM suites), libaead (system 3.0) / ring",
         span("ratio_libaead_vs_ring", 64), span("ratio_libaead_vs_ring", 16384), ""],
    ]
    paths = list(GO.values()) + list(GO_EVP.values()) + ["bindings/python/bench/results/vendored.json"] + \
        list(RUST.values()) + [RUST_EVP[k] for k in RUST] + [RUSTLS]
    return block(paths, "libaead on vendored OpenSSL 3.5.5 unless a cell says system 3.0",
                 ["binding", "64 B", "16 KiB", "details"], ["---", "---", "---", "---"], rows,
                 "The peers on their own code; in brackets, the EVP path's figure.")


# ---- Java (bindings/java/bench.sh: JMH's JSON) ----

JAVA = "bindings/java/bench/results/jmh.json"


def pom_version(artifact):
    with open(os.path.join(ROOT, "bindings/java/bench/pom.xml")) as f:
        m = re.search(r"<artifactId>" + re.escape(artifact) + r"</artifactId><version>([^<]+)</version>", f.read())
    return m.group(1) if m else "?"


def gen_java():
    """bindings/java/README.md: AES-128-GCM seal through the JCA providers and the direct API."""
    doc = load(JAVA)
    cells = {}
    for r in doc:
        name = r["benchmark"].split(".", 3)[-1]
        key = (name, r["params"].get("provider"))
        alloc = next((v["score"] for k, v in r.get("secondaryMetrics", {}).items()
                      if k.lstrip("\u00b7:") == "gc.alloc.rate.norm"), None)
        cells.setdefault(key, {})[int(r["params"]["size"])] = (r["primaryMetric"]["score"], alloc)
    labels = [(("SealBench.jca", "SunJCE"), "SunJCE"),
              (("SealBench.jca", "ACCP"), f"ACCP {pom_version('AmazonCorrettoCryptoProvider')}"),
              (("SealBench.jca", "Conscrypt"), f"Conscrypt {pom_version('conscrypt-openjdk-uber')}"),
              (("SealBench.jca", "BC"), f"Bouncy Castle {pom_version('bcprov-jdk18on')}"),
              (("SealBench.jca", "LibAead"), "LibAead provider"),
              (("DirectBench.sealInto", None), "direct API, `sealInto` on `byte[]`"),
              (("DirectBench.sealIntoSegments", None), "direct API, `sealInto` on `MemorySegment`s the caller made once"),
              (("DirectBench.sealIntoFreshSegments", None), "direct API, `sealInto` on `MemorySegment.ofArray(...)` made per call")]
    base = cells[("SealBench.jca", "SunJCE")]
    sizes = (64, 1024, 16384)
    rows = []
    for key, label in labels:
        if key not in cells:
            continue
        c = cells[key]
        row = [label]
        for n in sizes:
            ratio = c[n][0] / base[n][0]
            row.append(f"{c[n][0]:,.0f} ns ({ratio:.2f})" if ratio < 10 else f"{c[n][0]:,.0f} ns ({ratio:.0f})")
        allocs = [c[n][1] for n in sizes]
        row.append(f"{allocs[0]:,.0f} B" if len(set(allocs)) == 1 else " / ".join(f"{a:,.0f}" for a in allocs) + " B")
        rows.append(row)
    return block([JAVA], provenance(JAVA).get("libcrypto", "?"),
                 ["path", "64 B", "1 KiB", "16 KiB", "allocated"], ["---", "---:", "---:", "---:", "---:"], rows,
                 f"JDK {doc[0].get('jdkVersion', '?')}, JMH {doc[0].get('jmhVersion', '?')}.")


# ---- Node.js (bindings/node/bench/bench.js --json) ----

NODE = "bindings/node/bench/results/bench.json"


def gen_node():
    """bindings/node/README.md: seal and open against node:crypto, sodium-native and @noble/ciphers."""
    doc = load(NODE)
    meta, impls = doc["meta"], ["libaead", "node:crypto", "sodium-native", "@noble/ciphers"]
    cells, order = {}, []
    for r in doc["rows"]:
        key = (r["alg"], r["bytes"], r["op"])
        if key not in cells:
            order.append(key)
        cells.setdefault(key, {})[r["impl"]] = f"{r['ns']:,.0f} ns ({r['ratio']:.2f}x)"
    rows = [[*key, *(cells[key].get(i, "-") for i in impls)] for key in order]
    extra = (f"Node.js {meta['node']}, node:crypto on {openssl(meta['node_openssl'])}, sodium-native "
             f"{meta['sodium_native']}, @noble/ciphers {meta['noble_ciphers']}; {meta['rounds']} rounds, median CPU time.")
    return block([NODE], f"libaead on {openssl(meta['libaead'])}", ["algorithm", "bytes", "op", *impls],
                 ["---", "---:", "---", "---:", "---:", "---:", "---:"], rows, extra)


def python_families(kind, siv):
    """Rows of bench_families.py's JSON: AES-SIV's (siv) or the other families'."""
    main = f"bindings/python/bench/results/families-{kind}.json"
    doc = load(main)
    rows = [r for r in doc["rows"] if (r["family"] == "AESSIV") == siv]
    if siv and not rows:
        raise SystemExit(f"tables: {main} has no AESSIV rows")
    return main, doc, {(r["family"], r["op"]): r for r in rows}


def gen_python_families(siv):
    def gen():
        runs = {k: python_families(k, siv) for k in ("vendored", "system")}
        order = list(runs["vendored"][2])
        rows = []
        for fam, op in order:
            r = runs["vendored"][2][(fam, op)]
            label = fam if r["peer"] == "pyca" else f"{fam} (vs {r['peer'].split()[0]})"
            row = [label, op] + [f"{r['ratio'][n]:.2f}" for n in ("64", "1024", "16384")]
            other = runs["system"][2].get((fam, op))
            if other:
                row += [f"{other['ratio'][n]:.2f}" for n in ("64", "1024", "16384")]
            else:
                row += ["–", "–", "–"]
            rows.append(row)
        v, sy = (openssl(runs[k][1]["library"]).split()[1] for k in ("vendored", "system"))
        pyca = sorted({runs[k][1]["pyca"] for k in runs})
        return block([runs[k][0] for k in ("vendored", "system")], f"libaead on OpenSSL {v} and {sy}",
                     ["family", "op", f"vendored {v}: 64 B", "1 KiB", "16 KiB", f"system {sy}: 64 B", "1 KiB", "16 KiB"],
                     ["---"] * 8, rows,
                     f"pyca/cryptography {', '.join(pyca)}; libaead time / peer time, minimum of "
                     f"{runs['vendored'][1]['rounds']} rounds; – where the libcrypto lacks the algorithm.")
    return gen


def gen_python_quic():
    rows, paths = [], []
    for kind in ("vendored", "system"):
        path = f"bindings/python/bench/results/quic-{kind}.json"
        paths.append(path)
        doc = load(path)
        lib = f"{kind} {openssl(doc['meta']['libaead'])}"
        for key, r in doc["results"].items():
            alg, size = key.rsplit("/", 1)
            name = {"aes-128-gcm": "AES-128-GCM", "chacha20-poly1305": "ChaCha20-Poly1305"}.get(alg, alg)
            one, two, aq = r["one_call"], r["two_calls"], r["aioquic"]
            rows.append([lib, f"{name}, {size} B", f"{one:.0f}", f"{two:.0f}", f"{aq:.0f}", f"{one / aq:.2f}x",
                         f"{two / aq:.2f}x", f"{one / two:.2f}x"])
    meta = load(paths[0])["meta"]
    libs = " and ".join(openssl(load(p)["meta"]["libaead"]) for p in paths)
    return block(paths, f"libaead on {libs}",
                 ["libcrypto", "suite, payload", "one call", "two calls", "aioquic `_crypto`", "one / aioquic",
                  "two / aioquic", "one / two"], ["---", "---", "---:", "---:", "---:", "---:", "---:", "---:"], rows,
                 f"Python {meta['python']}, aioquic {meta['aioquic']} on pyca/cryptography {meta['cryptography']}; "
                 f"minimum of {meta['rounds']} rounds of {meta['iterations']} packets, ns per packet.")


# ---- pion/dtls (bindings/pion-libaead/bench_test.go, through bench/gotest2json.py) ----

PION = "bindings/pion-libaead/results/record-system.json"


def gen_pion():
    doc = load(PION)
    ns = {(r["op"], int(r["size"]), r["impl"]): r["ns"] for r in doc["rows"]}
    rows = []
    for op in ("seal", "open"):
        for size in sorted({k[1] for k in ns if k[0] == op}):
            ours, theirs = ns[(op, size, "libaead")], ns[(op, size, "pion")]
            rows.append([{"seal": "Encrypt", "open": "Decrypt"}[op], size_name(size), f"{ours:.0f}", f"{theirs:.0f}",
                         f"{ours / theirs:.2f}"])
    return block([PION], f"libaead on {openssl(doc['meta'].get('libaead'))}",
                 ["op", "size", "libaead", "pion", "libaead / pion"], ["---", "---:", "---:", "---:", "---:"], rows,
                 "Median ns per record.")


# ---- ratios quoted in prose beside a table (inline markers) ----

def span_text(vals, digits):
    lo, hi = f"{min(vals):.{digits}f}", f"{max(vals):.{digits}f}"
    return f"{lo}x" if lo == hi else f"{lo}-{hi}x"


def gen_node_64():
    rows = {(r["alg"], r["bytes"], r["op"], r["impl"]): r for r in load(NODE)["rows"]}
    g = lambda op: rows[("AES-128-GCM", 64, op, "libaead")]["ratio"]
    return f"{g('seal'):.2f}x (seal) and {g('open'):.2f}x (open)"


def gen_node_16k():
    rows = load(NODE)["rows"]
    algs = {r["alg"] for r in rows if r["impl"] == "node:crypto"}
    return f"{max(r['ratio'] for r in rows if r['impl'] == 'libaead' and r['bytes'] == 16384 and r['alg'] in algs):.2f}x"


def python_ratio(kind, pred, digits=2):
    rows = load(f"bindings/python/bench/results/{kind}.json")["rows"]
    return span_text([r["ratio"] for r in rows if pred(r)], digits)


def gen_rust_16k():
    idx = rust_index(RUST["bundled"])
    return (f"{idx[1].replace('OpenSSL', 'vendored')}: {idx[0][('seal', 16384, 'aws_lc_rs')]['ratio']:.3f}x aws-lc-rs, "
            f"{idx[0][('seal', 16384, 'ring')]['ratio']:.3f}x ring")


def gen_rust_64():
    idx, lib = rust_index(RUST["bundled"])
    aws = span_text([idx[(op, 64, "aws_lc_rs")]["ratio"] for op in ("seal", "open")], 2)
    ring = span_text([idx[(op, 64, "ring")]["ratio"] for op in ("seal", "open")], 2)
    return f"{aws} aws-lc-rs's time on {lib.split()[1]} and {ring} ring's"


GENERATORS = {
    "rust-families": gen_rust_families,
    "families": gen_families,
    "rust-batch": gen_rust_batch,
    "pion": gen_pion,
    "node-64": gen_node_64,
    "node-16k": gen_node_16k,
    "python-system-16k": lambda: python_ratio("system", lambda r: r["bytes"] == 16384, 1),
    "python-vendored-16k": lambda: python_ratio("vendored", lambda r: r["bytes"] == 16384),
    "python-system-into-64": lambda: python_ratio("system", lambda r: r["op"] == "encrypt_into" and r["bytes"] == 64),
    "python-system-batch": lambda: python_ratio("system", lambda r: r["op"] == "encrypt_many"),
    "rust-16k": gen_rust_16k,
    "rust-64": gen_rust_64,
    "python-families": gen_python_families(False),
    "python-families-siv": gen_python_families(True),
    "python-quic": gen_python_quic,
    "bindings": gen_bindings,
    "rustls-records": gen_rustls_records,
    "rust-direct": gen_rust_direct,
    "rust-evp": gen_rust_evp,
    "go-paired": gen_go(GO, True),
    "go-paired-evp": gen_go(GO_EVP, False),
    "java": gen_java,
    "node": gen_node,
    "c-gcm": gen_c_gcm,
    "c-vendored-speed": gen_c_vendored_speed,
    "c-evp": gen_c_evp,
    "policy-cost": gen_policy_cost,
    "hpke": gen_hpke,
    "stream": gen_stream,
    "policy-cost-overhead": gen_policy_cost_overhead,
    "python-vendored": gen_python("vendored"),
    "python-system": gen_python("system"),
}

# More generators, one file per area (bench/tables_<area>.py): each is run in this module's namespace, so it
# uses the helpers above and adds its generators to GENERATORS.
for _path in sorted(__import__("glob").glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tables_*.py"))):
    with open(_path) as _f:
        exec(compile(_f.read(), _path, "exec"), globals())


def main(argv):
    global DATA
    if "--data" in argv:
        DATA = os.path.abspath(argv[argv.index("--data") + 1])
    if "--print" in argv:
        for doc in documents():
            with open(os.path.join(ROOT, doc)) as f:
                for m in MARK.finditer(f.read()):
                    try:
                        text = GENERATORS[m.group(1)]()
                    except (OSError, KeyError, SystemExit) as e:
                        text = f"(no data: {e})"
                    print(f"### {doc}: bench:{m.group(1)}\n{text}\n")
        return 0
    check = "--check" in argv
    seen, stale, unknown = set(), [], []
    for doc in documents():
        full = os.path.join(ROOT, doc)
        with open(full) as f:
            text = f.read()

        def fill(m):
            name, old = m.group(1), m.group(2)
            seen.add(name)
            if name not in GENERATORS:
                unknown.append(f"{doc}: bench:{name}")
                return m.group(0)
            if "--list" in argv:
                print(f"{doc}: {name}")
            new = GENERATORS[name]()
            if new != old:
                stale.append(f"{doc}: bench:{name}")
            return f"<!-- bench:{name}:begin -->{new}<!-- bench:{name}:end -->"

        new_text = MARK.sub(fill, text)
        if not check and new_text != text:
            with open(full, "w") as f:
                f.write(new_text)
    for u in unknown:
        print(f"tables: {u}: no generator of that name in bench/tables.py or bench/tables_*.py", file=sys.stderr)
    unused = sorted(set(GENERATORS) - seen)
    for name in unused:
        print(f"tables: generator {name} has no marker in any document", file=sys.stderr)
    if check:
        for s in stale:
            print(f"tables: {s} differs from its JSON (python3 bench/tables.py rewrites it)", file=sys.stderr)
        if stale or unknown or unused:
            return 1
        print(f"tables: {len(seen)} generated tables and figures match their JSON")
        return 0
    for s in stale:
        print(f"tables: rewrote {s}")
    return 1 if unknown or unused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
