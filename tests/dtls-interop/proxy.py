#!/usr/bin/env python3
"""A loopback UDP proxy between one DTLS client and one server that misbehaves on purpose.

  proxy.py --listen PORT --to PORT --mode dup          every 10th datagram sent twice, and 50 old
                                                       application-data datagrams re-sent late
  proxy.py --listen PORT --to PORT --mode flip --toward server|client
                                                       the last byte (in the tag) of 30 application-data
                                                       records toward that side flipped

A datagram counts as application data when it starts with a DTLS 1.2 application_data record (type 23)
or with a DTLS 1.3 unified header (first byte 001xxxxx: every record protected under epoch 2 or later).
It exits once no datagram has passed for --idle seconds (after the first) and prints what it did.
"""
import argparse
import random
import select
import socket
import sys
import time

APPLICATION_DATA = 23


def protected(data):
    """A DTLS 1.2 application_data record, or a DTLS 1.3 record with a unified header."""
    return len(data) > 13 and (data[0] == APPLICATION_DATA or data[0] & 0xE0 == 0x20)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", type=int, required=True)
    ap.add_argument("--to", type=int, required=True)
    ap.add_argument("--mode", choices=["dup", "flip"], required=True)
    ap.add_argument("--toward", choices=["server", "client"], default="server")
    ap.add_argument("--idle", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    front.bind(("127.0.0.1", a.listen))
    back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    back.connect(("127.0.0.1", a.to))
    server = ("127.0.0.1", a.to)
    client = None
    count = {"forwarded": 0, "dup server": 0, "dup client": 0, "late server": 0, "late client": 0,
             "flipped": 0}
    history = {"server": [], "client": []}
    seen_app = {"server": 0, "client": 0}
    seen = {"server": 0, "client": 0}
    last = None
    while True:
        timeout = a.idle if last is not None else 60.0
        ready, _, _ = select.select([front, back], [], [], timeout)
        if not ready:
            break
        for s in ready:
            data, addr = s.recvfrom(65536)
            last = time.monotonic()
            if s is front:
                client, toward = addr, "server"
                send = lambda d: back.send(d)
            else:
                if client is None:
                    continue
                toward = "client"
                send = lambda d: front.sendto(d, client)
            count["forwarded"] += 1
            seen[toward] += 1
            app = protected(data)
            if app:
                seen_app[toward] += 1
            if a.mode == "flip":
                if app and toward == a.toward and seen_app[toward] > 10 and count["flipped"] < 30:
                    data = data[:-1] + bytes([data[-1] ^ 0x01])
                    count["flipped"] += 1
                send(data)
                continue
            send(data)
            if seen[toward] % 10 == 0:
                send(data)
                count["dup " + toward] += 1
            if app:
                history[toward].append(data)
                late = count["late server"] + count["late client"]
                if late < 50 and count["forwarded"] % 7 == 0 and len(history[toward]) > 150:
                    send(history[toward][-rng.randint(5, 150)])
                    count["late " + toward] += 1
    print("proxy %s: %s" % (a.mode, ", ".join("%s %d" % kv for kv in count.items())), flush=True)


if __name__ == "__main__":
    sys.exit(main())
