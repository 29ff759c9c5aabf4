#!/usr/bin/env python3
"""A one-client UDP proxy on loopback for QUIC that corrupts some 1-RTT packets in one direction.

It forwards every datagram unchanged, except: in the direction --flip-to (towards the "server" or the
"client"), every --every'th datagram that is a lone short-header (1-RTT) packet of at least --min-size
bytes (so one carrying stream data, not a bare ACK) gets its last byte (in the AEAD tag) flipped, at most
--max times. The receiver must drop those packets (authentication fails) and recover by retransmission.
Datagrams with a long header first (handshake, possibly with a coalesced 1-RTT packet) are never touched.

On SIGTERM / SIGINT, or after --idle seconds without traffic once traffic began, it writes per-direction
counts to --stats as JSON ({"c2s": {"datagrams", "short", "flipped"}, "s2c": {...}}) and exits 0.
"""
import argparse
import json
import os
import selectors
import signal
import socket
import sys
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1 for the client")
    p.add_argument("--upstream", type=int, required=True, help="the server's port on 127.0.0.1")
    p.add_argument("--flip-to", choices=("server", "client"), required=True)
    p.add_argument("--every", type=int, default=20)
    p.add_argument("--max", type=int, default=30)
    p.add_argument("--min-size", type=int, default=200)
    p.add_argument("--idle", type=float, default=15.0)
    p.add_argument("--stats", required=True)
    a = p.parse_args()

    stats = {d: {"datagrams": 0, "short": 0, "flipped": 0} for d in ("c2s", "s2c")}
    flip_dir = "c2s" if a.flip_to == "server" else "s2c"
    eligible = 0

    def write_stats(*_):
        with open(a.stats + ".tmp", "w") as f:
            json.dump(stats, f)
        os.replace(a.stats + ".tmp", a.stats)
        sys.exit(0)

    signal.signal(signal.SIGTERM, write_stats)
    signal.signal(signal.SIGINT, write_stats)

    front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    front.bind(("127.0.0.1", a.listen))
    back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    back.connect(("127.0.0.1", a.upstream))
    for s in (front, back):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        s.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(front, selectors.EVENT_READ, "c2s")
    sel.register(back, selectors.EVENT_READ, "s2c")
    client = None
    last = None
    while True:
        ready = sel.select(timeout=0.5)
        if not ready:
            if last is not None and time.monotonic() - last > a.idle:
                write_stats()
            continue
        last = time.monotonic()
        for key, _ in ready:
            direction = key.data
            while True:
                try:
                    if direction == "c2s":
                        data, addr = front.recvfrom(65536)
                        client = client or addr
                        if addr != client:
                            continue  # one client only
                    else:
                        data = back.recv(65536)
                except BlockingIOError:
                    break
                except ConnectionRefusedError:  # ICMP from a server that is gone
                    break
                st = stats[direction]
                st["datagrams"] += 1
                if data and not data[0] & 0x80:
                    st["short"] += 1
                    if direction == flip_dir and len(data) >= a.min_size and st["flipped"] < a.max:
                        eligible += 1
                        if eligible % a.every == 0:
                            bad = bytearray(data)
                            bad[-1] ^= 0x01
                            data = bytes(bad)
                            st["flipped"] += 1
                try:
                    if direction == "c2s":
                        back.send(data)
                    elif client is not None:
                        front.sendto(data, client)
                except OSError:
                    pass  # as a lossy network would


if __name__ == "__main__":
    main()
