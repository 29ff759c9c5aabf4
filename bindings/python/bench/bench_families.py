"""Benchmark (not a test): the library 1.2 families, libaead vs its peer, side by side in one
process: AESCCM, AESGCMSIV, AESOCB3 (and AESSIV when present) against pyca/cryptography's classes,
XChaCha20Poly1305 against libsodium (PyNaCl, crypto_aead_xchacha20poly1305_ietf_*). encrypt and decrypt
at 64, 1024 and 16384 bytes (13-byte AAD, one object reused, the same nonce every iteration); every cell
is the minimum over interleaved rounds (the two sides alternate cell by cell), so only the ratios
(libaead time / peer time, below 1 = libaead faster) mean anything.

Usage: python3 bench/bench_families.py [--rounds N] [--json PATH] [--families AESSIV,...]   (on an installed
libaead; GCM-SIV needs the vendored build or OpenSSL >= 3.2, else its rows are left out; AESSIV needs
library 1.3: one component, the 13-byte AAD)
"""

import argparse
import json
import sys

import cryptography
from bench import interleaved_min
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

SIZES = (64, 1024, 16384)
AAD = bytes(13)


def pyca_pair(name, key, nonce):
    ours, theirs = getattr(libaead, name)(key), getattr(pyca, name)(key)
    return ours, theirs, nonce


def fns(name):
    """{(op, size): (libaead fn, peer fn)} for one family; the outputs are checked equal first."""
    out = {}
    if name == "XChaCha20Poly1305":
        import nacl.bindings as sodium

        key, nonce = bytes(32), bytes(24)
        ours = libaead.XChaCha20Poly1305(key)
        enc = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt
        dec = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt
        for size in SIZES:
            data = bytes(size)
            ct = ours.encrypt(nonce, data, AAD)
            assert ct == enc(data, AAD, nonce, key)
            out[("encrypt", size)] = (lambda d=data: ours.encrypt(nonce, d, AAD),
                                      lambda d=data: enc(d, AAD, nonce, key))
            out[("decrypt", size)] = (lambda c=ct: ours.decrypt(nonce, c, AAD),
                                      lambda c=ct: dec(c, AAD, nonce, key))
        return out
    if name == "AESSIV":
        ours, theirs = libaead.AESSIV(bytes(32)), pyca.AESSIV(bytes(32))
        for size in SIZES:
            data = bytes(size)
            ct = ours.encrypt(data, [AAD])
            assert ct == theirs.encrypt(data, [AAD])
            out[("encrypt", size)] = (lambda d=data: ours.encrypt(d, [AAD]), lambda d=data: theirs.encrypt(d, [AAD]))
            out[("decrypt", size)] = (lambda c=ct: ours.decrypt(c, [AAD]), lambda c=ct: theirs.decrypt(c, [AAD]))
        return out
    ours, theirs, nonce = pyca_pair(name, bytes(16), bytes(12))
    for size in SIZES:
        data = bytes(size)
        ct = ours.encrypt(nonce, data, AAD)
        assert ct == theirs.encrypt(nonce, data, AAD)
        out[("encrypt", size)] = (lambda d=data: ours.encrypt(nonce, d, AAD),
                                  lambda d=data: theirs.encrypt(nonce, d, AAD))
        out[("decrypt", size)] = (lambda c=ct: ours.decrypt(nonce, c, AAD),
                                  lambda c=ct: theirs.decrypt(nonce, c, AAD))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    ap.add_argument("--families", help="comma-separated subset of the families (default: all)")
    args = ap.parse_args()
    names = ["AESCCM", "AESGCMSIV", "AESOCB3", "AESSIV", "XChaCha20Poly1305"]
    if args.families:
        names = [n for n in names if n in args.families.split(",")]
    table = {}
    for name in names:
        if not hasattr(libaead, name):
            continue
        try:
            cells = fns(name)
        except libaead.UnsupportedAlgorithm as e:
            print("%s: left out (%s)" % (name, e), file=sys.stderr)
            continue
        best = interleaved_min(cells, args.rounds)
        table[name] = best
    peer = {"XChaCha20Poly1305": "libsodium (PyNaCl)"}
    print("libaead %s (%s) vs pyca/cryptography %s; Python %s; min of %d interleaved rounds"
          % (libaead.__version__, libaead.library_version(), cryptography.__version__, sys.version.split()[0],
             args.rounds))
    print()
    print("| family | peer | op | 64 B | 1 KiB | 16 KiB |")
    print("|---|---|---|---|---|---|")
    rows = []
    for name, best in table.items():
        for op in ("encrypt", "decrypt"):
            ratios = [best[(op, s)][0] / best[(op, s)][1] for s in SIZES]
            print("| %s | %s | %s | %s |" % (name, peer.get(name, "pyca"), op,
                                             " | ".join("%.2f (%.0f / %.0f ns)"
                                                        % (r, best[(op, s)][0], best[(op, s)][1])
                                                        for r, s in zip(ratios, SIZES))))
            rows.append({"family": name, "op": op, "peer": peer.get(name, "pyca"),
                         "ns": {str(s): best[(op, s)] for s in SIZES}, "ratio": dict(zip(map(str, SIZES), ratios))})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"library": libaead.library_version(), "pyca": cryptography.__version__,
                       "rounds": args.rounds, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
