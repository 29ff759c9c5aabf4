"""Benchmark (not a test): libaead vs pyca/cryptography, measured side by side in one process.

Prints Markdown and writes JSON (--json PATH):
* encrypt / decrypt / encrypt_into at 64, 1024 and 16384 bytes (13-byte AAD, 12-byte nonce, one object
  reused, the same nonce every iteration as in the anchors' benchmarks), ratio libaead / pyca;
* 1000 records of 64 bytes (distinct nonces): libaead's encrypt_many, encrypt_many_into and a loop of
  its encrypt, each against pyca's encrypt in a loop;
* 2 threads vs 1 on 1 MiB messages (throughput ratio), with hashlib.sha256 as the machine's reference;
* --gil: the GIL-release crossover of the compiled path: per size, single-thread cost of releasing and
  the 2-thread throughput released vs held (this is how _fast.c's threshold was chosen);
* the targets, each met or not.
Every cell is the minimum over interleaved rounds (the libraries alternate cell by cell), so a burst
of load on a shared machine hits both alike; only the ratios mean anything.

Usage: python3 bench/bench.py [--rounds N] [--alg aes128|aes256|chacha] [--quick] [--gil] [--json PATH]
"""

import argparse
import ctypes
import datetime
import hashlib
import json
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
BATCH = 1000
MIB = 1 << 20
# the targets: (op, size) -> the largest allowed libaead / pyca time ratio
TARGETS = {("encrypt", 64): 0.8, ("decrypt", 64): 0.8, ("encrypt", 1024): 0.9, ("decrypt", 1024): 0.9,
           ("encrypt", 16384): 1.0, ("decrypt", 16384): 1.0, ("encrypt_into", 64): 0.6}
BATCH_TARGET = 0.3
THREAD_TARGET = 1.8


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


def batch_fns(objs):
    """1000 records of 64 bytes, distinct nonces: libaead's batch calls and its single-call loop, each
    against pyca's encrypt loop (the peer has no batch call)."""
    nonces = [i.to_bytes(12, "big") for i in range(BATCH)]
    datas = [os.urandom(64) for _ in range(BATCH)]
    aads = [bytes(13)] * BATCH
    ours, theirs = objs["libaead"], objs["pyca"]
    assert ours.encrypt_many(nonces, datas, aads) == [theirs.encrypt(n, d, a) for n, d, a in zip(nonces, datas, aads)]
    enc, penc = ours.encrypt, theirs.encrypt
    buf = bytearray(BATCH * 80)
    pyca_loop = lambda: [penc(n, d, a) for n, d, a in zip(nonces, datas, aads)]  # noqa: E731
    return {
        "encrypt_many": (lambda: ours.encrypt_many(nonces, datas, aads), pyca_loop),
        "encrypt_many_into": (lambda: ours.encrypt_many_into(nonces, datas, aads, buf), pyca_loop),
        "encrypt loop": (lambda: [enc(n, d, a) for n, d, a in zip(nonces, datas, aads)], pyca_loop),
    }


def per_op_ns(fn, target_s=0.02):
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t >= target_s / 4:
            break
        n *= 4
    n = max(1, int(n * target_s / max(t, 1e-9)))
    return timeit.timeit(fn, number=n) / n * 1e9


def interleaved_min(cells, rounds):
    """{key: (ours, theirs)} -> {key: [ours ns, theirs ns]}: the minimum per call over rounds in which every
    cell's two sides run one after the other, so a burst of load falls on both."""
    best = {k: [float("inf"), float("inf")] for k in cells}
    for _ in range(rounds):
        for k, (ours, theirs) in cells.items():
            best[k][0] = min(best[k][0], per_op_ns(ours))
            best[k][1] = min(best[k][1], per_op_ns(theirs))
    return best


def two_thread_time(fn, ops):
    barrier = threading.Barrier(3)

    def work():
        barrier.wait()
        for _ in range(ops):
            fn()

    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in ts:
        t.join()
    return time.perf_counter() - t0


def thread_ratios(fns, rounds, ops=12):
    """2-thread / 1-thread throughput of each fn (one operation per call), interleaved; each side keeps
    its fastest round."""
    single = [float("inf")] * len(fns)
    double = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(2 * ops):
                fn()
            single[i] = min(single[i], time.perf_counter() - t0)
            double[i] = min(double[i], two_thread_time(fn, ops))
    return [s / d for s, d in zip(single, double)]


def gil_crossover(obj, rounds):
    """Per size: ns of one encrypt with the GIL held and released (one thread), and the 2-thread
    throughput with release over the same with the GIL held."""
    fast = libaead._fast
    previous = fast.gil_threshold()
    out = []
    try:
        for size in (1024, 4096, 8192, 16384, 32768, 65536, 131072):
            nonce, aad, data = bytes(12), bytes(13), bytes(size)
            fn = lambda: obj.encrypt(nonce, data, aad)  # noqa: E731
            ops = max(50, 200000 // (size // 64 + 10))
            held = released = float("inf")
            held2 = released2 = float("inf")
            for _ in range(rounds):
                fast.set_gil_threshold(1 << 62)
                held = min(held, per_op_ns(fn, 0.01))
                held2 = min(held2, two_thread_time(fn, ops))
                fast.set_gil_threshold(0)
                released = min(released, per_op_ns(fn, 0.01))
                released2 = min(released2, two_thread_time(fn, ops))
            out.append({"bytes": size, "held_ns": held, "released_ns": released,
                        "two_thread_released_over_held": held2 / released2})
    finally:
        fast.set_gil_threshold(previous)
    return out


def c_reference():
    """aead_seal_open on 1 MiB through ctypes (which always releases the GIL), its own context and a
    preallocated output per thread: what the C library and this machine give two threads right now,
    without any Python-side work."""
    from libaead import _loader

    for candidate in _loader._abi_candidates():
        try:
            so = ctypes.CDLL(candidate)
            break
        except OSError:
            continue
    else:
        return None
    size = ctypes.c_size_t
    so.aead_ctx_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_int, ctypes.c_char_p, size,
                                size]
    so.aead_seal_open.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, size, ctypes.c_char_p, size,
                                  ctypes.c_char_p, size, ctypes.c_void_p, size]
    so.aead_seal_open.restype = ctypes.c_int64
    ctx = ctypes.c_void_p()
    if so.aead_ctx_new(ctypes.byref(ctx), 1, 0, bytes(16), 16, 0) != 0:
        return None
    nonce, data = bytes(12), bytes(MIB)
    local = threading.local()
    out_type = ctypes.c_char * (MIB + 16)

    def call():
        out = getattr(local, "out", None)
        if out is None:
            out = local.out = out_type()
        so.aead_seal_open(ctx, 1, nonce, 12, None, 0, data, MIB, out, MIB + 16)

    return call


def libcrypto_kind():
    text = libaead.library_version()
    return "system" if "3.0." in text.split("(")[-1] else "vendored"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--alg", default="aes128", choices=["aes128", "aes256", "chacha"])
    ap.add_argument("--quick", action="store_true", help="3 rounds, for a smoke run")
    ap.add_argument("--gil", action="store_true", help="also measure the GIL-release crossover (fast path)")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    rounds = 3 if args.quick else args.rounds

    alg_name = {"aes128": "AES-128-GCM", "aes256": "AES-256-GCM", "chacha": "ChaCha20-Poly1305"}[args.alg]
    objs = {impl: make(impl, args.alg) for impl in ("libaead", "pyca")}
    fns = {(impl, op, size): op_fn(objs[impl], op, size) for impl in objs for op in OPS for size in SIZES}
    batch = batch_fns(objs)
    for name, (ours_fn, pyca_fn) in batch.items():
        fns[("libaead", name, BATCH)] = ours_fn
        fns[("pyca", name, BATCH)] = pyca_fn
    best = {}
    for _ in range(rounds):
        for key, fn in fns.items():
            best[key] = min(best.get(key, float("inf")), per_op_ns(fn))

    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.machine(), "cpus": os.cpu_count(), "loadavg": os.getloadavg(),
        "python": platform.python_version(), "cffi": cffi.__version__, "backend": libaead.backend,
        "libaead": libaead.library_version(), "libcrypto": libcrypto_kind(),
        "pyca": cryptography.__version__, "pyca_openssl": pyca_backend.openssl_version_text(),
        "algorithm": alg_name, "rounds": rounds,
        "gil_threshold": libaead._fast.gil_threshold() if libaead._fast is not None else None,
    }
    print("### %s, libaead on the %s libcrypto, ns/op (min of %d interleaved rounds; 13-byte AAD, 12-byte nonce)"
          % (alg_name, meta["libcrypto"], rounds))
    print()
    print("- %s; %s, %s CPUs, load average %s" % (meta["date"], meta["machine"], meta["cpus"],
                                                  " ".join("%.2f" % x for x in meta["loadavg"])))
    print("- Python %s, cffi %s; libaead backend: %s; libaead: `%s`" % (
        meta["python"], meta["cffi"], meta["backend"], meta["libaead"]))
    print("- pyca/cryptography %s: `%s` (bundled in its wheel)" % (meta["pyca"], meta["pyca_openssl"]))
    print()
    print("| operation | bytes | libaead ns/op | pyca ns/op | libaead / pyca | target |")
    print("|---|---:|---:|---:|---:|---|")
    rows, verdicts = [], []
    for op, size in [(op, size) for op in OPS for size in SIZES] + [(name, BATCH) for name in batch]:
        a, b = best[("libaead", op, size)], best[("pyca", op, size)]
        target = BATCH_TARGET if op == "encrypt_many" else TARGETS.get((op, size))
        met = None if target is None else a / b <= target
        is_batch = op in batch
        label = "%d x 64" % BATCH if is_batch else str(size)
        peer = "pyca `encrypt` loop" if is_batch else ""
        cell = "" if target is None else "<= %.1fx %s" % (target, "met" if met else "**NOT met**")
        print("| %s | %s | %.0f | %.0f%s | %.2fx | %s |" % (op, label, a, b, " (%s)" % peer if peer else "",
                                                          a / b, cell))
        rows.append({"op": op, "bytes": 64 if is_batch else size, "records": BATCH if is_batch else 1,
                     "libaead_ns": a, "pyca_ns": b, "ratio": a / b, "target": target, "met": met})
        if target is not None:
            verdicts.append(met)
    print()
    threads = None
    if (os.cpu_count() or 1) >= 2:
        nonce, mib = bytes(12), bytes(MIB)
        bufs = threading.local()

        def ours_into():
            b = getattr(bufs, "b", None)
            if b is None:
                b = bufs.b = bytearray(MIB + 16)
            objs["libaead"].encrypt_into(nonce, mib, None, b)

        names = ["libaead_encrypt", "libaead_encrypt_into", "pyca_encrypt", "sha256_reference"]
        calls = [lambda: objs["libaead"].encrypt(nonce, mib, None), ours_into,
                 lambda: objs["pyca"].encrypt(nonce, mib, None), lambda: hashlib.sha256(mib).digest()]
        reference = c_reference() if args.alg == "aes128" else None
        if reference is not None:
            names.append("c_reference")
            calls.append(reference)
        r = thread_ratios(calls, max(4, rounds // 2))
        threads = dict(zip(names, r))
        met = r[0] >= THREAD_TARGET
        verdicts.append(met)
        print("2 threads vs 1 on 1 MiB messages, throughput ratio: libaead encrypt %.2fx (target >= %.1fx: %s), "
              "encrypt_into %.2fx; pyca encrypt %.2fx; references: hashlib.sha256 %.2fx%s"
              % (r[0], THREAD_TARGET, "met" if met else "NOT met", r[1], r[2], r[3],
                 "" if reference is None else ", the same C call through ctypes (no Python work) %.2fx" % r[4]))
        print()
    gil = None
    if args.gil and libaead._fast is not None:
        gil = gil_crossover(objs["libaead"], max(3, rounds // 3))
        print("GIL release on the compiled path (threshold now %d bytes):" % meta["gil_threshold"])
        print()
        print("| bytes | held ns | released ns | release cost | 2 threads: released / held throughput |")
        print("|---:|---:|---:|---:|---:|")
        for g in gil:
            print("| %d | %.0f | %.0f | %+.1f%% | %.2fx |" % (g["bytes"], g["held_ns"], g["released_ns"],
                                                         100 * (g["released_ns"] / g["held_ns"] - 1),
                                                         g["two_thread_released_over_held"]))
        print()
    print("Targets: %d of %d met" % (sum(1 for v in verdicts if v), len(verdicts)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": rows, "threads": threads, "gil": gil}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
