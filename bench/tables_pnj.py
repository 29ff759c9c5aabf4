"""Generators for the Python, Node.js and Java bindings' READMEs (exec'd in bench/tables.py's namespace).

Every figure here is read from JSON that bench/all.sh writes: the Python binding's bench.py runs
(bindings/python/bench/results/{vendored,system,quic-*,families-*}.json), the Node.js benchmark
(bindings/node/bench/results/bench.json) and Node's HPKE rows (bench/results/hpke-node.json).
"""

PY_RUNS = {"vendored": "bindings/python/bench/results/vendored.json",
           "system": "bindings/python/bench/results/system.json"}


def python_lib(kind):
    """'vendored' -> 'vendored 3.5.5' (the libcrypto version of that run)."""
    return f"{kind} {openssl(load(PY_RUNS[kind])['meta']['libaead']).split()[-1]}"


def first(rows, what):
    """The first row, or KeyError (which tables.py --print reports as missing data) when there is none."""
    for r in rows:
        return r
    raise KeyError(what)


def python_row(kind, op, size):
    return first((r for r in load(PY_RUNS[kind])["rows"] if r["op"] == op and r["bytes"] == size and r["records"] == 1),
                 f"{kind} {op} {size}")


def gen_python_x_build():
    """Install section, inline: the system build's `encrypt` time over the vendored build's, 64 B and 16 KiB."""
    r = {n: python_row("system", "encrypt", n)["libaead_ns"] / python_row("vendored", "encrypt", n)["libaead_ns"]
         for n in (64, 16384)}
    return f"{r[64]:.2f}x (64 B) and {r[16384]:.2f}x (16 KiB)"


PY_THREADS = [("libaead_encrypt", "libaead `encrypt`"),
              ("libaead_encrypt_into", "libaead `encrypt_into`"),
              ("pyca_encrypt", "pyca `encrypt`"),
              ("c_reference", "the C library's seal through ctypes (no Python work)"),
              ("sha256_reference", "`hashlib.sha256` (the machine's reference)")]


def gen_python_x_threads():
    """Benchmark: two threads over one thread on 1 MiB messages, both libcryptos."""
    kinds = list(PY_RUNS)
    threads = {k: load(PY_RUNS[k]).get("threads") or {} for k in kinds}
    rows = [[label] + [f"{threads[k][key]:.2f}x" if key in threads[k] else "-" for k in kinds]
            for key, label in PY_THREADS if any(key in threads[k] for k in kinds)]
    if not rows:
        raise KeyError("threads (bench.py without the two-thread run)")
    libs = " and ".join(openssl(load(PY_RUNS[k])["meta"]["libaead"]) for k in kinds)
    return block(list(PY_RUNS.values()), f"libaead on {libs}",
                 ["1 MiB messages: two threads' throughput / one thread's"] + [f"libaead on {python_lib(k)}" for k in kinds],
                 ["---"] + ["---:"] * len(kinds), rows,
                 "One object shared by the two threads; above 1.00x the second thread adds throughput.")


def gen_python_x_siv_64():
    """Families, inline: a 64-byte AES-SIV encrypt (libaead's and pyca's) over libaead's 64-byte AES-GCM `encrypt`."""
    vals = []
    for kind in PY_RUNS:
        _, _, rows = python_families(kind, True)
        siv = rows.get(("AESSIV", "encrypt"))
        if siv:
            gcm = python_row(kind, "encrypt", 64)["libaead_ns"]
            vals += [ns / gcm for ns in siv["ns"]["64"]]
    if not vals:
        raise KeyError("AESSIV")
    return span_text(vals, 1)


def python_quic(col):
    vals = []
    for kind in ("vendored", "system"):
        for r in load(f"bindings/python/bench/results/quic-{kind}.json")["results"].values():
            vals.append(r[col] / r["aioquic"])
    return span_text(vals, 2)


def gen_python_x_gil():
    """The GIL threshold: per size, a thread's cost of releasing the GIL and two threads' released / held throughput."""
    rows, paths = [], []
    for kind, path in PY_RUNS.items():
        gil = load(path).get("gil")
        if not gil:
            continue
        paths.append(path)
        for g in gil:
            rows.append([python_lib(kind), size_name(g["bytes"]), f"{g['held_ns']:.0f}", f"{g['released_ns']:.0f}",
                         f"{(g['released_ns'] / g['held_ns'] - 1) * 100:+.1f}%",
                         f"{g['two_thread_released_over_held']:.2f}x"])
    if not rows:
        raise KeyError("gil (bench.py without --gil)")
    libs = " and ".join(openssl(load(p)["meta"]["libaead"]) for p in paths)
    return block(paths, f"libaead on {libs}",
                 ["libcrypto", "size", "GIL held, ns", "released, ns", "cost of releasing",
                  "2 threads: released / held throughput"], ["---", "---:", "---:", "---:", "---:", "---:"], rows,
                 "AES-128-GCM `encrypt` on the compiled path, the threshold forced each way.")


# ---- Node.js ----

NODE_HPKE = "bench/results/hpke-node.json"


def gen_node_x_hpke():
    """HPKE: libaead's sender against @hpke/core (with its X25519 and ChaCha20-Poly1305 add-ons where it needs them)."""
    doc = load(NODE_HPKE)
    rows = [[r["suite"], r["op"], r["peer"], f"{r['libaead_ns']:,.0f}", f"{r['peer_ns']:,.0f}",
             f"{r['peer_ns'] / r['libaead_ns']:.1f}x"] for r in doc["rows"]]
    aad = f"{doc['aad']} bytes of AAD; " if doc.get("aad") else ""
    return block([NODE_HPKE], f"libaead on {openssl(doc['libcrypto'])}",
                 ["suite", "operation", "compared with", "libaead ns", "its ns", "its time / libaead's"],
                 ["---", "---", "---", "---:", "---:", "---:"], rows,
                 f"{aad}median CPU time of {doc['rounds']} interleaved rounds; @hpke/core's calls awaited one at a time.")


def node_ns(alg, size, op, impl):
    return first((r["ns"] for r in load(NODE)["rows"] if (r["alg"], r["bytes"], r["op"], r["impl"]) == (alg, size, op, impl)),
                 f"{alg} {size} {op} {impl}")


def gen_node_x_sodium_64():
    """sodium-native's ChaCha20-Poly1305 time over libaead's at 64 B."""
    g = lambda op: node_ns("ChaCha20-Poly1305", 64, op, "sodium-native") / node_ns("ChaCha20-Poly1305", 64, op, "libaead")
    return f"{g('seal'):.2f}x (seal) and {g('open'):.2f}x (open)"


def gen_node_x_aes_chacha_64():
    """libaead's AES-128-GCM time over its ChaCha20-Poly1305 time at 64 B (the same binding path)."""
    g = lambda op: node_ns("AES-128-GCM", 64, op, "libaead") / node_ns("ChaCha20-Poly1305", 64, op, "libaead")
    return f"{g('seal'):.2f}x (seal) and {g('open'):.2f}x (open)"


def gen_node_x_sodium_16k():
    """libaead's time over sodium-native's at 16 KiB, ChaCha20-Poly1305 and XChaCha20-Poly1305, seal and open."""
    return span_text([node_ns(alg, 16384, op, "libaead") / node_ns(alg, 16384, op, "sodium-native")
                      for alg in ("ChaCha20-Poly1305", "XChaCha20-Poly1305") for op in ("seal", "open")], 2)


GENERATORS["python-x-build"] = gen_python_x_build
GENERATORS["python-x-threads"] = gen_python_x_threads
GENERATORS["python-x-siv-64"] = gen_python_x_siv_64
GENERATORS["python-x-quic-one"] = lambda: python_quic("one_call")
GENERATORS["python-x-quic-two"] = lambda: python_quic("two_calls")
GENERATORS["python-x-gil"] = gen_python_x_gil
GENERATORS["node-x-hpke"] = gen_node_x_hpke
GENERATORS["node-x-sodium-64"] = gen_node_x_sodium_64
GENERATORS["node-x-aes-chacha-64"] = gen_node_x_aes_chacha_64
GENERATORS["node-x-sodium-16k"] = gen_node_x_sodium_16k
