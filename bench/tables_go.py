"""Go binding tables (bindings/go/README.md) from bindings/go/bench.sh's results.json (cmd/ratios).

Run in bench/tables.py's namespace (load, block, caption, openssl, size_name, GO, GO_EVP, GENERATORS).
Each table reads the benchmarks' medians from the two direct-dispatch runs that bench/all.sh writes (GO:
vendored OpenSSL 3.5 and the system libcrypto). A benchmark that a run did not include (bench.sh with a
BENCH= subset) leaves its rows out; when no row is left, the block is the caption and a line saying so.
"""

GO_KINDS = ("vendored", "system")


def go_stats(path):
    """name (without the -GOMAXPROCS suffix) -> cmd/ratios's statistics; and the libcrypto, 'OpenSSL X.Y.Z'."""
    doc = load(path)
    return {b["name"]: b for b in doc["benchmarks"]}, openssl(doc["config"].get("libaead"))


def go_runs():
    return {k: go_stats(GO[k]) for k in GO_KINDS}


def go_libs(runs):
    return {k: runs[k][1] for k in GO_KINDS}


def go_label(kind, lib):
    return f"{kind} {lib.split()[1]}" if len(lib.split()) > 1 else f"{kind} {lib}"


def go_block(runs, header, align, rows, extra, bench):
    libs = go_libs(runs)
    libcrypto = f"libaead on {libs['vendored']} and {libs['system']}"
    if not rows:
        return "\n" + caption(list(GO.values()), libcrypto,
                              f"These results hold no `{bench}` samples: the command above ran a subset "
                              f"(`BENCH=`); `bash bench/all.sh --only go` runs them all.") + "\n"
    return block(list(GO.values()), libcrypto, header, align, rows, extra)


def go_ns(stats, name):
    b = stats.get(name)
    return b["ns_per_op_median"] if b else None


def go_fmt_ns(v):
    return f"{v:,.0f}" if v is not None else "–"


def go_fmt_ratio(a, b, digits=2):
    return f"{a / b:.{digits}f}" if a is not None and b else "–"


def gen_go_batch():
    """Batch per record against a Seal/Open loop and the C call (BenchmarkBatchPerRecord), ns per record."""
    runs = go_runs()
    rows, crossing = [], []
    for kind in GO_KINDS:
        stats, lib = runs[kind]
        ns = lambda op, size, what: go_ns(stats, f"BenchmarkBatchPerRecord/op={op}/size={size}/what={what}")
        for size in (64, 1024, 16384):
            c, loop, batch = ns("Seal", size, "c"), ns("Seal", size, "loop"), ns("Seal", size, "batch")
            oloop, obatch = ns("Open", size, "loop"), ns("Open", size, "batch")
            rloop, rbatch = ns("SealRandom", size, "loop"), ns("SealRandom", size, "batch")
            if batch is None and obatch is None:
                continue
            rows.append([f"{go_label(kind, lib)}, {size_name(size)}", go_fmt_ns(c), go_fmt_ns(loop),
                         go_fmt_ns(batch), go_fmt_ratio(batch, loop), go_fmt_ratio(batch, c),
                         go_fmt_ns(oloop), go_fmt_ns(obatch), go_fmt_ratio(obatch, oloop),
                         go_fmt_ratio(rbatch, rloop)])
        args10 = go_ns(stats, "BenchmarkBatchPerRecord/what=args10cgo")
        if args10 is not None:
            crossing.append(f"{args10:.0f} ns on {go_label(kind, lib)}")
    extra = "Medians of the samples, ns per record, 256 records a batch."
    if crossing:
        extra += (" One cgo crossing (an empty C function with `aead_seal_open`'s 10 arguments): "
                  + ", ".join(crossing) + ".")
    return go_block(runs, ["libcrypto, size", "C call (`aead_seal_open` in a C loop)", "`Seal` loop",
                           "`Batch.Seal`", "`Batch.Seal` / loop", "`Batch.Seal` / C call", "`Open` loop",
                           "`Batch.Open`", "`Batch.Open` / loop", "`NewGCMWithRandomNonce`: `Batch.Seal` / loop"],
                    ["---"] + ["---:"] * 9, rows, extra, "BenchmarkBatchPerRecord")


def gen_go_siv():
    """AES-SIV against tink-go and the component path against Seal (BenchmarkAESSIVPaired), paired ratios."""
    runs = go_runs()
    cases = [(f"ratio=libaead_over_tink/op={op}/size={size}", f"{op} {size_name(size)}: libaead / tink-go")
             for op in ("Seal", "Open") for size in (64, 1024, 16384)]
    cases += [(f"ratio=components_over_seal/components={n}/op=Seal/size={size}",
               f"`SealComponents` ({n} components) / `Seal`, {size_name(size)}")
              for n in (2, 4) for size in (64, 1024)]
    rows = []
    for key, label in cases:
        cells = []
        for kind in GO_KINDS:
            b = runs[kind][0].get(f"BenchmarkAESSIVPaired/{key}")
            cells.append(f"{b['ratio_median']:.2f} ({b.get('ratio_min', b['ratio_median']):.2f}-"
                         f"{b.get('ratio_max', b['ratio_median']):.2f})" if b and b.get("ratio_median") else "–")
        if any(c != "–" for c in cells):
            rows.append([label] + cells)
    libs = go_libs(runs)
    return go_block(runs, ["AES-SIV, paired", f"vendored {libs['vendored'].split()[-1]}",
                           f"system {libs['system'].split()[-1]}"], ["---", "---:", "---:"], rows,
                    "Time ratio, median of the samples, range in brackets; below 1.00 the first side is faster.",
                    "BenchmarkAESSIVPaired")


def gen_go_quic():
    """QUIC packet protection: one call, two calls, pure Go (BenchmarkQUICPacket), ns per packet."""
    runs = go_runs()
    rows = []
    for kind in GO_KINDS:
        stats, lib = runs[kind]
        for suite in ("AES-128-GCM", "ChaCha20-Poly1305"):
            for size in (64, 1200):
                row = [go_label(kind, lib), f"{suite}, {size} B"]
                found = False
                for op in ("protect", "unprotect"):
                    ns = {im: go_ns(stats, f"BenchmarkQUICPacket/op={op}/suite={suite}/size={size}/impl={im}")
                          for im in ("onecall", "twocall", "purego")}
                    found = found or any(v is not None for v in ns.values())
                    row += [" / ".join(go_fmt_ns(ns[im]) for im in ("onecall", "twocall", "purego")),
                            go_fmt_ratio(ns["onecall"], ns["twocall"])]
                if found:
                    rows.append(row)
    return go_block(runs, ["libcrypto", "suite, payload", "protect: one call / two calls / pure Go", "one / two",
                           "unprotect: one / two / pure Go", "one / two"],
                    ["---", "---", "---:", "---:", "---:", "---:"], rows,
                    "Medians of the samples, ns per packet.", "BenchmarkQUICPacket")


def gen_go_ns():
    """Medians of the separate benchmarks (AESGCM, ChaCha20Poly1305, Floor), ns per operation."""
    runs = go_runs()
    rows = []
    families = [("AES-128-GCM", "BenchmarkAESGCM", "stdlib", True),
                ("ChaCha20-Poly1305", "BenchmarkChaCha20Poly1305", "xcrypto", False)]
    for alg, bench, peer, has_fips in families:
        for op in ("Seal", "Open"):
            for mode in ("serial", "parallel"):
                for size in (64, 1350, 16384):
                    base = f"{bench}/op={op}/mode={mode}/size={size}/impl="
                    row, found = [f"{alg} {op}", mode, size_name(size)], False
                    for kind in GO_KINDS:
                        stats = runs[kind][0]
                        cells = [go_ns(stats, base + im) for im in ("libaead", peer, "golangfips")]
                        found = found or cells[0] is not None
                        row += [go_fmt_ns(c) for c in cells[:2]] + [go_fmt_ns(cells[2]) if has_fips else ""]
                    if found:
                        rows.append(row)
    for op in ("Seal", "Open"):
        for size in (64, 1350, 16384):
            row, found = [f"C library alone, {op.lower()} in a C loop", "serial", size_name(size)], False
            for kind in GO_KINDS:
                v = go_ns(runs[kind][0], f"BenchmarkFloor/what=c{op}/size={size}")
                found = found or v is not None
                row += [go_fmt_ns(v), "", ""]
            if found:
                rows.append(row)
    row = ["one empty cgo call", "serial", ""]
    for kind in GO_KINDS:
        row += [go_fmt_ns(go_ns(runs[kind][0], "BenchmarkFloor/what=emptycgo")), "", ""]
    if any(c not in ("", "–") for c in row[3:]):
        rows.append(row)
    libs = go_libs(runs)
    v, s = (libs[k].split()[-1] for k in GO_KINDS)
    return go_block(runs, ["operation", "mode", "size", f"vendored {v}: libaead", "Go", "golang-fips/openssl",
                           f"system {s}: libaead", "Go", "golang-fips/openssl"],
                    ["---", "---", "---:"] + ["---:"] * 6, rows,
                    "Medians of the samples, ns per operation; Go is crypto/cipher for AES-GCM and "
                    "golang.org/x/crypto for ChaCha20-Poly1305; golang-fips/openssl runs on the system "
                    "libcrypto in both runs; `parallel` is `b.RunParallel` on every CPU. Separate benchmarks "
                    "run seconds apart: compare sides with the paired ratios.", "BenchmarkAESGCM")


GENERATORS["go-x-batch"] = gen_go_batch
GENERATORS["go-x-siv"] = gen_go_siv
GENERATORS["go-x-quic"] = gen_go_quic
GENERATORS["go-x-ns"] = gen_go_ns
