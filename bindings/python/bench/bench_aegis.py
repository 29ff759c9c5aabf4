"""Benchmark (not a test): the AEGIS family (AEGIS-128L, -128X2, -128X4, -256) beside libaead's own AES-128-GCM
and ChaCha20-Poly1305 in one process, and beside other AEGIS builds when they are importable: libsodium's
AEGIS-128L and AEGIS-256 (PyNaCl >= 1.6) and PyPI's pyaegis (libaegis). encrypt and decrypt at 64 B, 1 KiB,
16 KiB and 64 KiB (13-byte AAD, one object reused, the same nonce every iteration; AEGIS with 16-byte tags,
as the AES-GCM and ChaCha20-Poly1305 rows, and with 32-byte tags against libsodium, whose only length that
is). Every cell is the minimum over interleaved rounds (all of a cell's contenders run one after the other),
so read the ratios (AEGIS time / other time, below 1 = AEGIS faster), not the absolute times.

Usage: python3 bench/bench_aegis.py [--rounds N] [--json PATH]   (on an installed libaead)
"""

import argparse
import json
import sys

from bench import per_op_ns

import libaead

SIZES = (64, 1024, 16384, 65536)
AAD = bytes(13)
VARIANTS = ("Aegis128L", "Aegis128X2", "Aegis128X4", "Aegis256")
SODIUM = {"Aegis128L": "aegis128l", "Aegis256": "aegis256"}


def contenders(size):
    """{(op, label): fn} for one message size; every output is checked against its reference first."""
    data = bytes(size)
    out = {}

    def add(label, enc, dec):
        assert dec() == data, label
        out[("encrypt", label)] = enc
        out[("decrypt", label)] = dec

    for label, obj, nonce in (("AES-128-GCM", libaead.AESGCM(bytes(16)), bytes(12)),
                              ("ChaCha20-Poly1305", libaead.ChaCha20Poly1305(bytes(32)), bytes(12))):
        ct = obj.encrypt(nonce, data, AAD)
        add(label, lambda o=obj, n=nonce: o.encrypt(n, data, AAD), lambda c=ct, o=obj, n=nonce: o.decrypt(n, c, AAD))
    try:
        import nacl.bindings as sodium
    except ImportError:
        sodium = None
    try:
        import pyaegis
    except ImportError:
        pyaegis = None
    def variant(name):  # its own scope: the lambdas keep this variant's key, nonce and ct
        cls = getattr(libaead, name)
        key = nonce = bytes(cls.KEY_SIZE)
        for tag in (16, 32):
            obj = cls(key, tag)
            ct = obj.encrypt(nonce, data, AAD)
            add("%s/%d" % (name, tag), lambda o=obj: o.encrypt(nonce, data, AAD),
                lambda c=ct, o=obj: o.decrypt(nonce, c, AAD))
        ct = cls(key, 32).encrypt(nonce, data, AAD)
        if sodium is not None and hasattr(sodium, "crypto_aead_aegis128l_encrypt") and name in SODIUM:
            enc = getattr(sodium, "crypto_aead_%s_encrypt" % SODIUM[name])
            dec = getattr(sodium, "crypto_aead_%s_decrypt" % SODIUM[name])
            assert enc(data, AAD, nonce, key) == ct
            add("%s libsodium" % name, lambda: enc(data, AAD, nonce, key), lambda: dec(ct, AAD, nonce, key))
        if pyaegis is not None:
            peer = getattr(pyaegis, name)(tag_size=32)
            assert peer.encrypt(key, nonce, data, AAD) == ct
            add("%s pyaegis" % name, lambda: peer.encrypt(key, nonce, data, AAD),
                lambda: peer.decrypt(key, nonce, ct, AAD))

    for name in VARIANTS:
        variant(name)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    args = ap.parse_args()
    cells = {size: contenders(size) for size in SIZES}
    best = {size: {k: float("inf") for k in cells[size]} for size in SIZES}
    for _ in range(args.rounds):
        for size in SIZES:
            for k, fn in cells[size].items():
                best[size][k] = min(best[size][k], per_op_ns(fn))
    print("%s; Python %s; min of %d interleaved rounds; ns per call, and the ratios"
          % (libaead.library_version(), sys.version.split()[0], args.rounds))
    print()
    print("| AEGIS | op | size | ns | / AES-128-GCM | / ChaCha20-Poly1305 | 32-byte tag / libsodium | / pyaegis |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for name in VARIANTS:
        for op in ("encrypt", "decrypt"):
            for size in SIZES:
                b = best[size]
                ns = b[(op, "%s/16" % name)]
                long_ns = b[(op, "%s/32" % name)]
                ratios = {"AES-128-GCM": ns / b[(op, "AES-128-GCM")],
                          "ChaCha20-Poly1305": ns / b[(op, "ChaCha20-Poly1305")]}
                for peer in ("libsodium", "pyaegis"):
                    if (op, "%s %s" % (name, peer)) in b:
                        ratios[peer] = long_ns / b[(op, "%s %s" % (name, peer))]
                print("| %s | %s | %d | %.0f | %.2f | %.2f | %s | %s |"
                      % (name, op, size, ns, ratios["AES-128-GCM"], ratios["ChaCha20-Poly1305"],
                         "%.2f" % ratios["libsodium"] if "libsodium" in ratios else "–",
                         "%.2f" % ratios["pyaegis"] if "pyaegis" in ratios else "–"))
                rows.append({"variant": name, "op": op, "size": size, "ns_tag16": ns, "ns_tag32": long_ns,
                             "ratio": ratios})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"library": libaead.library_version(), "rounds": args.rounds, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
