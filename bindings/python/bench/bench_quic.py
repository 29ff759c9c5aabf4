"""Benchmark (not a test): QUIC packet protection from Python, per packet, protect + unprotect.

Side by side in one process, each cell the minimum over interleaved rounds:
* libaead one call: ``libaead.quic.PacketProtector.protect`` / ``.unprotect`` (aead_quic_protect /
  aead_quic_unprotect, packet-number decoding included);
* libaead.quic two calls: ``AEAD.encrypt`` + ``HeaderProtection.apply``, ``HeaderProtection.remove`` +
  aioquic's ``decode_packet_number`` + ``AEAD.decrypt`` (what aioquic's CryptoContext does);
* aioquic's own ``aioquic._crypto`` classes, the same steps (pyca/cryptography underneath).
Short header of 9 bytes (4-byte connection ID, 4-byte packet number), payloads of 64 and 1200 bytes,
increasing packet numbers. Only the ratios mean anything on a shared machine.

Usage: python3 bench/bench_quic.py [--rounds N] [--iterations N] [--json PATH]
"""

import argparse
import datetime
import itertools
import json
import os
import platform
import sys
import time

import aioquic
import cryptography
from aioquic import _crypto as aq
from aioquic.quic.packet import decode_packet_number

import libaead
from libaead import quic

SUITES = {"aes-128-gcm": (b"aes-128-gcm", b"aes-128-ecb", 16), "chacha20-poly1305": (b"chacha20-poly1305", b"chacha20", 32)}
SIZES = (64, 1200)
HEADER = bytes([0x43]) + bytes.fromhex("c0ffee01") + bytes(4)  # short header, 4-byte pn
PN_OFFSET = 5


def loops(suite, size):
    aead_name, hp_name, klen = SUITES[suite]
    key, iv, hp_key = os.urandom(klen), os.urandom(12), os.urandom(klen)
    payload = os.urandom(size)
    counter = itertools.count(1)

    def one_call(n):
        tx = quic.PacketProtector(aead_name, key, iv, hp_key)
        rx = quic.PacketProtector(aead_name, key, iv, hp_key)
        protect, unprotect = tx.protect, rx.unprotect
        start = next(counter) * n
        t = time.perf_counter()
        for pn in range(start, start + n):
            unprotect(protect(HEADER, payload, pn), PN_OFFSET, pn - 1)
        return time.perf_counter() - t

    def two_calls(mod):
        def run(n):
            tx_a, tx_h = mod.AEAD(aead_name, key, iv), mod.HeaderProtection(hp_name, hp_key)
            rx_a, rx_h = mod.AEAD(aead_name, key, iv), mod.HeaderProtection(hp_name, hp_key)
            start = next(counter) * n
            t = time.perf_counter()
            for pn in range(start, start + n):
                header = HEADER[:PN_OFFSET] + (pn & 0xFFFFFFFF).to_bytes(4, "big")
                packet = tx_h.apply(header, tx_a.encrypt(payload, header, pn))
                plain_header, truncated = rx_h.remove(packet, PN_OFFSET)
                full = decode_packet_number(truncated, 32, pn)
                rx_a.decrypt(packet[len(plain_header):], plain_header, full)
            return time.perf_counter() - t
        return run

    return {"one_call": one_call, "two_calls": two_calls(quic), "aioquic": two_calls(aq)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--iterations", type=int, default=20000)
    ap.add_argument("--json")
    args = ap.parse_args()
    results = {}
    for suite in SUITES:
        for size in SIZES:
            fns = loops(suite, size)
            best = {k: float("inf") for k in fns}
            for _ in range(args.rounds):
                for k, fn in fns.items():
                    best[k] = min(best[k], fn(args.iterations) / args.iterations * 1e9)
            results["%s/%d" % (suite, size)] = best
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except Exception:
        pass
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "loadavg": os.getloadavg(), "python": platform.python_version(), "backend": libaead.backend,
        "libaead": libaead.library_version(), "aioquic": aioquic.__version__,
        "cryptography": cryptography.__version__, "cpu": cpu, "nproc": os.cpu_count(),
        "rounds": args.rounds, "iterations": args.iterations,
    }
    print("%s, load %.2f %.2f %.2f; Python %s, backend `%s`, `%s`; aioquic %s on pyca/cryptography %s; %s"
          % (meta["date"], *meta["loadavg"], meta["python"], meta["backend"], meta["libaead"], meta["aioquic"],
             meta["cryptography"], cpu))
    print()
    print("| suite, payload | one call ns | libaead.quic two calls ns | aioquic `_crypto` ns | one / aioquic | two / aioquic | one / two |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for key, r in results.items():
        print("| %s B | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx |"
              % (key.replace("/", ", "), r["one_call"], r["two_calls"], r["aioquic"], r["one_call"] / r["aioquic"],
                 r["two_calls"] / r["aioquic"], r["one_call"] / r["two_calls"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
