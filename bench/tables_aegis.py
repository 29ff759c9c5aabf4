"""docs/algorithms.md: AEGIS against libaead's AES-128-GCM and ChaCha20-Poly1305 (bench/aegis.c --json).
Run in bench/tables.py's namespace (its helpers; adds to GENERATORS)."""

AEGIS = {"system": "bench/results/aegis-system.json", "vendored": "bench/results/aegis-vendored.json"}


def gen_c_aegis():
    """Per algorithm: GB/s and the ratio to AES-128-GCM at 64 B, 1 KiB and 16 KiB, on each libcrypto."""
    data = {kind: load(path) for kind, path in AEGIS.items()}
    sizes = (64, 1024, 16384)
    libs = {kind: openssl(d["libcrypto"]) for kind, d in data.items()}
    header, align = ["algorithm"], ["---"]
    for kind in data:
        for n in sizes:
            header.append(f"{libs[kind].split()[1]}: {size_name(n)}")
            align.append("---:")
    names = []
    for r in data["system"]["rows"]:
        if r["algorithm"] not in names:
            names.append(r["algorithm"])
    rows = []
    for name in names:
        row = [name]
        for kind, d in data.items():
            idx = {(r["algorithm"], r["size"]): r for r in d["rows"]}
            for n in sizes:
                r = idx[(name, n)]
                row.append(f"{r['gbps']:.2f} GB/s ({r['ratio_to_aes_128_gcm']:.2f}x)")
        rows.append(row)
    return block(list(AEGIS.values()), ", ".join(libs.values()), header, align, rows,
                 "Seal through `aead_seal_open`, 16-byte tags; (x): the ratio to AES-128-GCM in the same rounds.")


GENERATORS["c-aegis"] = gen_c_aegis
