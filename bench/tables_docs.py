"""Generators of docs/libcrypto.md and docs/benchmarks.md (names docs-x-*), run in bench/tables.py's namespace.

docs-x-dispatch: AES-128-GCM at 64 B on the direct dispatch and on the EVP path, against both floors
    (bench/results/c-system.json and c-vendored.json from `bench/all.sh --only c`, c-system-3.0.json and
    c-vendored-3.5.json from `--only c-evp`, which runs the same benchmark with AEAD_DISPATCH=evp).
docs-x-chacha: ChaCha20-Poly1305 seals on every path beside AES-128-GCM's (the `c` benchmark's files).
"""


def _lib_label(kind, lib):
    return f"{kind.split()[0]} {lib.split()[1]}"


def gen_docs_x_dispatch():
    """AES-128-GCM, 64 B: EVP floor, direct floor, libaead on the EVP path and on the direct dispatch."""
    rows, libs, paths = [], [], []
    for kind, evp_kind in (("system 3.0", "system"), ("vendored 3.5", "vendored")):
        idx, _, lib = c_index(C_DIRECT[kind])
        evp_idx, _, evp_lib = c_index(C_EVP[evp_kind])
        paths += [C_DIRECT[kind], C_EVP[evp_kind]]
        for name in (lib, evp_lib):
            if name not in libs:
                libs.append(name)
        when = provenance(C_EVP[evp_kind])["date"]
        notes = [evp_lib.split()[1]] if evp_lib != lib else []
        notes += [when] if when != provenance(C_DIRECT[kind])["date"] else []
        other = f" on {', '.join(notes)}" if notes else ""
        for op in ("seal", "open"):
            g = lambda impl, n=64: idx[(impl, "AES-128-GCM", op, n)]
            floor, direct, ours = g("evp-floor"), g("direct-floor"), g("libaead")
            before = evp_idx[("libaead", "AES-128-GCM", op, 64)]
            big = g("libaead", 16384)
            rows.append([f"{_lib_label(kind, lib)}, {op}", f"{floor['ns']:.0f}",
                         f"{direct['ns']:.0f} ({direct['ratio_to_floor']:.2f})",
                         f"{before['ns']:.0f} ({before['ratio_to_floor']:.2f}){other}",
                         f"{ours['ns']:.0f} ({ours['ratio_to_floor']:.2f}, {ours['ratio_to_direct']:.2f})",
                         f"{big['ratio_to_floor']:.2f}, {big['ratio_to_direct']:.2f}"])
    return block(paths, ", ".join(libs),
                 ["AES-128-GCM, 64 B", "EVP floor ns", "direct floor ns (/ EVP floor)",
                  "libaead on the EVP path ns (/ its EVP floor)", "libaead ns (/ EVP floor, / direct floor)",
                  "16 KiB: libaead / EVP floor, / direct floor"],
                 ["---", "---:", "---:", "---:", "---:", "---:"], rows,
                 "Medians of interleaved rounds; ratios are medians of per-round ratios. The EVP path is the same "
                 "benchmark with `AEAD_DISPATCH=evp`.")


def gen_docs_x_chacha():
    """ChaCha20-Poly1305 seal on each path (libaead, EVP floor, direct floor) beside AES-128-GCM's libaead seal."""
    rows, libs = [], []
    for kind, path in C_DIRECT.items():
        idx, _, lib = c_index(path)
        libs.append(lib)
        for n in (64, 1024, 16384):
            g = lambda impl, alg="ChaCha20-Poly1305": idx[(impl, alg, "seal", n)]
            ours, floor, direct, gcm = g("libaead"), g("evp-floor"), g("direct-floor"), g("libaead", "AES-128-GCM")
            rows.append([_lib_label(kind, lib), size_name(n),
                         ", ".join(f"{x['ns']:.0f}" for x in (ours, floor, direct)),
                         f"{gcm['ns']:.0f}", f"{ours['ns'] / gcm['ns']:.2f}"])
    return block(list(C_DIRECT.values()), ", ".join(libs),
                 ["libcrypto", "size", "ChaCha20-Poly1305 seal ns: libaead, EVP floor, direct floor",
                  "AES-128-GCM seal ns, libaead", "ChaCha20-Poly1305 / AES-128-GCM, libaead"],
                 ["---", "---:", "---", "---:", "---:"], rows)


GENERATORS["docs-x-dispatch"] = gen_docs_x_dispatch
GENERATORS["docs-x-chacha"] = gen_docs_x_chacha


# ---- docs/quic.md: bench/quic.c's output (`bench/all.sh --only c-quic` saves it as bench/results/quic-*.md) ----

QUIC_LINE = re.compile(r"^(\S.*?)\s+(\d+) B \| +([\d.]+) / +([\d.]+) / +([\d.]+) \(one/two ([\d.]+), one/floor ([\d.]+)\)"
                       r" \| +([\d.]+) / +([\d.]+) \(([\d.]+)\)")


def gen_c_quic():
    """docs/quic.md: one call against two calls and the EVP floor, per libcrypto (medians of interleaved rounds)."""
    rows, libs, paths = [], [], []
    for kind in ("system", "vendored"):
        path = f"bench/results/quic-{kind}.md"
        with open(located(path)) as f:
            text = f.read()
        lib = openssl(text.split("\n", 1)[0])
        libs.append(lib)
        paths.append(path)
        for line in text.splitlines():
            m = QUIC_LINE.match(line)
            if m:
                suite, size = m.group(1), int(m.group(2))
                rows.append([f"{lib}, {suite}, {size_name(size)}",
                             f"{float(m.group(3)):.0f} / {float(m.group(4)):.0f} / {float(m.group(5)):.0f}",
                             f"{float(m.group(6)):.2f}", f"{float(m.group(7)):.2f}",
                             f"{float(m.group(8)):.0f} / {float(m.group(9)):.0f} ({float(m.group(10)):.2f})"])
    if not rows:
        raise SystemExit("tables: bench/results/quic-*.md has no result line")
    return block(paths, ", ".join(libs),
                 ["libcrypto, suite, payload", "protect ns: one call / two calls / EVP floor", "one / two",
                  "one / floor", "unprotect ns: one / two (ratio)"],
                 ["---", "---:", "---:", "---:", "---:"], rows)


GENERATORS["c-quic"] = gen_c_quic
