"""Benchmark (not a test): libaead.hpke against pyhpke and pyca/cryptography's hpke.Suite, side by side in
one process. For each suite: a sender's setup plus its first 64-byte seal, and a 64-byte seal on an
established sender context (pyca's Suite is single-shot: setup and seal in one call, so it has only the
first row). pyhpke and pyca do their X25519 and P-256 arithmetic in OpenSSL, as libaead does, so the setup
rows compare the same curve code. Every cell is the minimum over interleaved rounds; only the ratios
(libaead time / peer time, below 1 = libaead faster) mean anything.

Usage: python3 bench/bench_hpke.py [--rounds N] [--json PATH]   (on an installed libaead with pyhpke)
"""

import argparse
import json
import sys

import cryptography
import pyhpke
from bench import interleaved_min
from cryptography.hazmat.primitives import hpke as pyca_hpke

import libaead
from libaead.hpke import AEADId, CipherSuite, KDFId, KEMId

MSG = bytes(64)
SUITES = [
    ("X25519, HKDF-SHA256, AES-128-GCM", KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM),
    ("P-256, HKDF-SHA256, AES-128-GCM", KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM),
    ("X25519, HKDF-SHA256, ChaCha20-Poly1305", KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256,
     AEADId.CHACHA20_POLY1305),
]


def cells(kem, kdf, aead):
    """{(op, peer): (libaead fn, peer fn)}; each pair is checked to interoperate first."""
    ours = CipherSuite(kem, kdf, aead)
    theirs = pyhpke.CipherSuite.new(pyhpke.KEMId(int(kem)), pyhpke.KDFId(int(kdf)), pyhpke.AEADId(int(aead)))
    kp = ours.generate_key_pair()
    pk_theirs = theirs.kem.deserialize_public_key(kp.public_key)
    enc, snd = ours.create_sender_context(kp.public_key)
    enc2, snd2 = theirs.create_sender_context(pk_theirs)
    rcv = theirs.create_recipient_context(enc, theirs.kem.deserialize_private_key(kp.private_key))
    assert rcv.open(snd.seal(MSG)) == MSG
    out = {
        ("setup + 64 B seal", "pyhpke " + pyhpke.__version__ if hasattr(pyhpke, "__version__") else "pyhpke"): (
            lambda: ours.create_sender_context(kp.public_key)[1].seal(MSG),
            lambda: theirs.create_sender_context(pk_theirs)[1].seal(MSG)),
        ("64 B seal on a context", "pyhpke"): (lambda: snd.seal(MSG), lambda: snd2.seal(MSG)),
    }
    pyca_suite = _pyca_suite(kem, kdf, aead)
    pk_pyca = _pyca_public_key(kem, kp.public_key)
    assert ours.decrypt(pyca_suite.encrypt(MSG, pk_pyca), kp.private_key) == MSG
    out[("setup + 64 B seal", "pyca/cryptography %s hpke.Suite" % cryptography.__version__)] = (
        lambda: ours.encrypt(MSG, kp.public_key), lambda: pyca_suite.encrypt(MSG, pk_pyca))
    return out


def _pyca_suite(kem, kdf, aead):
    kems = {KEMId.DHKEM_X25519_HKDF_SHA256: "X25519", KEMId.DHKEM_P256_HKDF_SHA256: "P256"}
    aeads = {AEADId.AES128_GCM: "AES_128_GCM", AEADId.CHACHA20_POLY1305: "CHACHA20_POLY1305"}
    return pyca_hpke.Suite(getattr(pyca_hpke.KEM, kems[kem]), getattr(pyca_hpke.KDF, kdf.name),
                           getattr(pyca_hpke.AEAD, aeads[aead]))


def _pyca_public_key(kem, raw):
    from cryptography.hazmat.primitives.asymmetric import ec, x25519
    if kem == KEMId.DHKEM_X25519_HKDF_SHA256:
        return x25519.X25519PublicKey.from_public_bytes(raw)
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    args = ap.parse_args()
    table = {}
    for name, kem, kdf, aead in SUITES:
        fns = cells(kem, kdf, aead)
        best = interleaved_min(fns, args.rounds)
        table[name] = best
    print("%s vs pyhpke and pyca/cryptography %s; Python %s; min of %d interleaved rounds"
          % (libaead.library_version(), cryptography.__version__, sys.version.split()[0],
             args.rounds))
    print()
    print("| suite | operation | peer | libaead ns | peer ns | libaead / peer |")
    print("|---|---|---|---:|---:|---:|")
    rows = []
    for name, best in table.items():
        for (op, peer), (ours, theirs) in best.items():
            print("| %s | %s | %s | %.0f | %.0f | %.2fx |" % (name, op, peer, ours, theirs, ours / theirs))
            rows.append({"suite": name, "op": op, "peer": peer, "libaead_ns": ours, "peer_ns": theirs,
                         "ratio": ours / theirs})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"bench": "hpke", "lang": "Python", "libcrypto": libaead.library_version(),
                       "rounds": args.rounds, "rows": rows}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
