"""Generators of the Rust documents (bindings/rust, bindings/rustls-libaead, bindings/dimpl-libaead).

Run by bench/tables.py in its own namespace (load, block, caption, span_text, RUST_BATCH, ...); each entry
below reads the JSON that bench/all.sh writes and has a marker in one of those documents.
"""

HPKE_RUST = "bench/results/hpke-rust.json"


def gen_rust_x_hpke():
    """bindings/rust/README.md: libaead::hpke against the hpke crate (cargo bench --bench hpke --json)."""
    doc = load(HPKE_RUST)
    peers = sorted({r["peer"] for r in doc["rows"] if r.get("peer")})
    rows = [[r["suite"], r["op"], f"{r['libaead_ns']:,.0f}", f"{r['peer_ns']:,.0f}", f"{r['ratio']:.2f}x"]
            for r in doc["rows"] if r.get("peer")]
    return block([HPKE_RUST], f"libaead on {openssl(doc['libcrypto'])}",
                 ["suite", "operation", "libaead ns", f"{', '.join(peers)} ns", "libaead / crate"],
                 ["---", "---", "---:", "---:", "---:"], rows,
                 f"{doc['aad']} bytes of AAD; median of the per-round ratios over {doc['rounds']} rounds; "
                 "below 1.00x libaead is faster.")


def gen_rust_x_batch_others():
    """bindings/rust/README.md, inline: the raw C batch call and the *_into loop against the C call per record."""
    c, loop = [], []
    for path in RUST_BATCH.values():
        for r in load(path)["results"]:
            if r["candidate"] == "C aead_seal_open_many":
                c.append(r["ratio"])
            elif r["candidate"].endswith("_into loop"):
                loop.append(r["ratio"])
    return (f"the raw C batch call takes {span_text(c, 3)} the time of the C call per record, and "
            f"`seal_into` / `open_into` in a loop {span_text(loop, 3)}")


RUSTLS_QUIC = "bindings/rustls-libaead/benches/results/quic-system-3.0.json"


def gen_rustls_x_quic():
    """bindings/rustls-libaead/README.md: QUIC packet protection, two libaead calls and one against ring."""
    doc = load(RUSTLS_QUIC)
    try:
        provenance(RUSTLS_QUIC)
    except SystemExit:  # data recorded before bench/all.sh listed it: the next run's manifest names it
        return "\n*No data yet: `bash bench/all.sh --only rustls` writes this table.*\n"
    rows = []
    for r in doc["results"]:
        med, low = r["median_ns_per_packet"], r["min_ns_per_packet"]
        rows.append([r["suite"], size_name(r["size"]), r["op"],
                     f"{med['two_call']:,.0f} / {med['one_call']:,.0f} / {med['ring']:,.0f}",
                     f"{r['two_over_ring']:.2f} ({low['two_call'] / low['ring']:.2f})",
                     f"{r['one_over_ring']:.2f} ({low['one_call'] / low['ring']:.2f})",
                     f"{r['one_over_two']:.2f} ({low['one_call'] / low['two_call']:.2f})"])
    first = doc["results"][0]
    ring = lock_version("ring", "bindings/rustls-libaead/Cargo.lock")
    return block([RUSTLS_QUIC], f"libaead on {openssl(doc['libaead'])}",
                 ["suite", "payload", "op", "median ns per packet: two-call / one-call / *ring*", "two-call / *ring*",
                  "one-call / *ring*", "one / two"],
                 ["---", "---:", "---", "---:", "---:", "---:", "---:"], rows,
                 f"rustls {doc['rustls']}, *ring* {ring}; median of {first['rounds']} rounds of "
                 f"{first['packets']:,} packets; ratios of the medians, of the minima in brackets.")


GENERATORS["rust-x-hpke"] = gen_rust_x_hpke
GENERATORS["rust-x-batch-others"] = gen_rust_x_batch_others
GENERATORS["rustls-x-quic"] = gen_rustls_x_quic
