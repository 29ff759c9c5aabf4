"""Benchmark (not a test): libaead vs pyca/cryptography, ns/op, measured side by side in one run.

Prints a Markdown table: encrypt / decrypt / encrypt_into at 64, 1024 and 16384 bytes (13-byte AAD,
12-byte nonce, one object reused, the same nonce every iteration as in the anchors' benchmarks), the
ratio libaead/pyca, the libcrypto each one runs on, and the 2-thread/1-thread throughput on 1 MiB.
Every cell is the minimum over interleaved rounds (the two libraries alternate round by round), so a
burst of load on a shared machine hits both alike.

Usage: python3 bench/bench.py [--rounds N] [--alg aes128|aes256|chacha] [--quick]
       LIBAEAD_FORCE_ABI=1 python3 bench/bench.py   # the ffi.dlopen fallback
"""

import argparse
import datetime
import os
import platform
import sys
import threading
import time
import timeit

import cffi
import cryptography
from cryptography.hazmat.backends.openssl import backend as pyca_backend
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

SIZES = (64, 1024, 16384)
OPS = ("encrypt", "decrypt", "encrypt_into")


def make(impl, alg):
    mod = libaead if impl == "libaead" else pyca
    if alg == "chacha":
        return mod.ChaCha20Poly1305(bytes(32))
    return mod.AESGCM(bytes(16 if alg == "aes128" else 32))


def op_fn(obj, op, size):
    nonce, aad, data = bytes(12), bytes(13), bytes(size)
    ct = obj.encrypt(nonce, data, aad)
    if op == "encrypt":
        return lambda: obj.encrypt(nonce, data, aad)
    if op == "decrypt":
        return lambda: obj.decrypt(nonce, ct, aad)
    buf = bytearray(size + 16)
    return lambda: obj.encrypt_into(nonce, data, aad, buf)


def per_op_ns(fn, target_s=0.02):
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t >= target_s / 4:
            break
        n *= 4
    n = max(1, int(n * target_s / max(t, 1e-9)))
    return timeit.timeit(fn, number=n) / n * 1e9


def thread_ratios(fns, rounds, ops=12):
    """2-thread / 1-thread throughput of each fn (one 1 MiB operation per call), interleaved; each
    side keeps its fastest round."""

    def work(fn, barrier):
        barrier.wait()
        for _ in range(ops):
            fn()

    single = [float("inf")] * len(fns)
    double = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(2 * ops):
                fn()
            single[i] = min(single[i], time.perf_counter() - t0)
            barrier = threading.Barrier(3)
            ts = [threading.Thread(target=work, args=(fn, barrier)) for _ in range(2)]
            for t in ts:
                t.start()
            barrier.wait()
            t0 = time.perf_counter()
            for t in ts:
                t.join()
            double[i] = min(double[i], time.perf_counter() - t0)
    return [s / d for s, d in zip(single, double)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--alg", default="aes128", choices=["aes128", "aes256", "chacha"])
    ap.add_argument("--quick", action="store_true", help="3 rounds, for a smoke run")
    args = ap.parse_args()
    rounds = 3 if args.quick else args.rounds

    alg_name = {"aes128": "AES-128-GCM", "aes256": "AES-256-GCM", "chacha": "ChaCha20-Poly1305"}[args.alg]
    objs = {impl: make(impl, args.alg) for impl in ("libaead", "pyca")}
    best = {}
    for _ in range(rounds):
        for op in OPS:
            for size in SIZES:
                for impl in ("libaead", "pyca"):
                    ns = per_op_ns(op_fn(objs[impl], op, size))
                    key = (impl, op, size)
                    best[key] = min(best.get(key, float("inf")), ns)

    print("### %s, ns/op (min of %d interleaved rounds; 13-byte AAD, 12-byte nonce)" % (alg_name, rounds))
    print()
    print("- date: %s; machine: %s, %d CPUs, load average %s" % (
        datetime.date.today().isoformat(), platform.machine(), os.cpu_count() or 0,
        " ".join("%.2f" % x for x in os.getloadavg())))
    print("- Python %s, cffi %s; libaead binding backend: %s (%s)" % (
        platform.python_version(), cffi.__version__, libaead.backend,
        "compiled cffi module" if libaead.backend == "api" else "ffi.dlopen fallback"))
    print("- libaead: `%s` (the system libcrypto)" % libaead.library_version())
    print("- pyca/cryptography %s: `%s` (bundled in its wheel)" % (
        cryptography.__version__, pyca_backend.openssl_version_text()))
    print()
    print("| operation | bytes | libaead ns/op | pyca ns/op | libaead / pyca |")
    print("|---|---:|---:|---:|---:|")
    for op in OPS:
        for size in SIZES:
            a, b = best[("libaead", op, size)], best[("pyca", op, size)]
            print("| %s | %d | %.0f | %.0f | %.2fx |" % (op, size, a, b, a / b))
    print()
    # Where the time of a 64-byte encrypt_into goes: the pieces measured alone, in the same run.
    ffi, lib = libaead._ffi, libaead._lib
    nonce, aad, data, buf = bytes(12), bytes(13), bytes(64), bytearray(80)
    u8 = ffi.typeof("uint8_t[]")
    out = ffi.from_buffer(u8, buf, True)
    ctx = objs["libaead"]._ctx
    null = ffi.NULL
    pieces = {
        "direct": lambda: lib.aead_seal_open(ctx, 1, nonce, 12, aad, 13, data, 64, out, 80),
        "null": lambda: lib.aead_seal_open(null, 1, nonce, 12, aad, 13, data, 64, out, 80),
        "from_buffer": lambda: ffi.from_buffer(u8, buf, True),
        "bytes": lambda: bytes(80),
        "method": op_fn(objs["libaead"], "encrypt_into", 64),
    }
    cost = {}
    for _ in range(max(3, rounds // 2)):
        for name, fn in pieces.items():
            cost[name] = min(cost.get(name, float("inf")), per_op_ns(fn))
    rest = cost["method"] - cost["direct"] - cost["from_buffer"]
    print("Where a 64-byte `encrypt_into` goes (ns, measured alone in this run): C library (aead_seal_open "
          "itself) ~%.0f; cffi call with its 10 arguments and the GIL release ~%.0f (a call with a NULL ctx, "
          "which returns at once); `ffi.from_buffer` of the output ~%.0f; the Python method call and its argument checks ~%.0f. "
          "`encrypt` has `bytes(80)` ~%.0f instead of `ffi.from_buffer`." % (
              cost["direct"] - cost["null"], cost["null"], cost["from_buffer"], max(0.0, rest), cost["bytes"]))
    print()
    if (os.cpu_count() or 1) >= 2:
        import hashlib

        nonce, mib = bytes(12), bytes(1 << 20)
        bufs = threading.local()

        def ours_into():
            b = getattr(bufs, "b", None)
            if b is None:
                b = bufs.b = bytearray((1 << 20) + 16)
            objs["libaead"].encrypt_into(nonce, mib, None, b)

        r_ours, r_into, r_pyca, r_sha = thread_ratios(
            [lambda: objs["libaead"].encrypt(nonce, mib, None), ours_into,
             lambda: objs["pyca"].encrypt(nonce, mib, None), lambda: hashlib.sha256(mib).digest()],
            max(4, rounds // 2))
        print("2 threads vs 1 on 1 MiB messages, throughput ratio: libaead encrypt %.2fx, libaead encrypt_into"
              " %.2fx, pyca encrypt %.2fx; reference hashlib.sha256 (releases the GIL) %.2fx"
              % (r_ours, r_into, r_pyca, r_sha))
    else:
        r_ours = None
        print("2 threads vs 1: skipped (1 CPU)")
    print()
    enc64 = best[("libaead", "encrypt", 64)] / best[("pyca", "encrypt", 64)]
    into64 = best[("libaead", "encrypt_into", 64)] / best[("pyca", "encrypt_into", 64)]
    print("Targets (issue 4): encrypt 64 B <= 1.00x pyca: %.2fx %s; encrypt_into 64 B <= 0.60x pyca: %.2fx %s;"
          " 2-thread scaling >= 1.8x: %s" % (
              enc64, "met" if enc64 <= 1.0 else "NOT met", into64, "met" if into64 <= 0.6 else "NOT met",
              "n/a" if r_ours is None else "%.2fx %s" % (r_ours, "met" if r_ours >= 1.8 else "NOT met")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
