#!/usr/bin/env python3
"""The interop stages' fault proxy: one client, one server on 127.0.0.1, everything forwarded unchanged
except the faults asked for toward one side (--toward server: client to server; client: the reverse).

TCP (the default): reads the TLS record framing both ways. --flip N flips a byte in the middle of the
  Nth application_data record toward that side. Ends when both directions have.
  Counts per direction: records, data (application_data records), max_data (the largest), flipped.
UDP (--udp): the data datagrams are those carrying protected records (--packets dtls: a DTLS 1.2
  application_data record or a DTLS 1.3 unified header; quic: a short-header, 1-RTT, packet) of at least
  --min-size bytes. Of the data datagrams toward that side, after the first --after, every --every'th, at
  most --max, has its last byte (in the AEAD tag) flipped (--fault flip) or is not forwarded (drop);
  --fault dup: both ways, every 10th datagram is sent twice, and 50 old data datagrams are sent again
  later (out of order). Long-header QUIC datagrams are never touched. Ends after --idle seconds without
  a datagram (once one came), or on SIGTERM; prints a summary line ("proxy MODE: forwarded N, ...").
  Counts per direction: datagrams, data, flipped, dropped, dup, late.
The counts go to --stats as JSON, {"server": {...}, "client": {...}} by the side they went toward.
"""
import argparse
import json
import os
import random
import select
import signal
import socket
import sys
import threading

APPLICATION_DATA = 23


def is_data(data, packets, min_size):
    if len(data) < min_size:
        return False
    if packets == "quic":
        return not data[0] & 0x80
    return data[0] == APPLICATION_DATA or data[0] & 0xE0 == 0x20


def write_stats(path, stats):
    with open(path + ".tmp", "w") as f:
        json.dump(stats, f)
    os.replace(path + ".tmp", path)


def tcp(a, stats):
    def pump(src, dst, toward):
        buf, st = b"", stats[toward]
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                break
            buf += data
            out = bytearray()
            while len(buf) >= 5 and len(buf) >= 5 + int.from_bytes(buf[3:5], "big"):
                length = int.from_bytes(buf[3:5], "big")
                record, buf = bytearray(buf[: 5 + length]), buf[5 + length :]
                st["records"] += 1
                if record[0] == APPLICATION_DATA:
                    st["data"] += 1
                    st["max_data"] = max(st["max_data"], length)
                    if toward == a.toward and st["data"] == a.flip:
                        record[5 + length // 2] ^= 0x01
                        st["flipped"] += 1
                out += record
            try:
                dst.sendall(bytes(out))
            except OSError:
                break
        try:  # the rest and the half-close, so each side sees what the other did
            if buf:
                dst.sendall(buf)
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    for st in stats.values():
        st.update(records=0, max_data=0)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", a.listen))
    ls.listen(1)
    ls.settimeout(a.timeout)
    client, _ = ls.accept()
    server = socket.create_connection(("127.0.0.1", a.upstream), timeout=a.timeout)
    for s in (client, server):
        s.settimeout(a.timeout)
    threads = [threading.Thread(target=pump, args=(client, server, "server")),
               threading.Thread(target=pump, args=(server, client, "client"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    write_stats(a.stats, stats)


def udp(a, stats):
    rng = random.Random(1)
    history = {"server": [], "client": []}
    for st in stats.values():
        st.update(datagrams=0, dropped=0, dup=0, late=0)

    def finish(*_):
        fwd = sum(st["datagrams"] for st in stats.values())
        print("proxy %s: forwarded %d, dup server %d, dup client %d, late server %d, late client %d, flipped %d" % (
            a.fault, fwd, stats["server"]["dup"], stats["client"]["dup"], stats["server"]["late"],
            stats["client"]["late"], stats["server"]["flipped"] + stats["client"]["flipped"]), flush=True)
        if a.stats:
            write_stats(a.stats, stats)
        sys.exit(0)

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    front.bind(("127.0.0.1", a.listen))
    back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    back.connect(("127.0.0.1", a.upstream))
    for s in (front, back):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    client, started = None, False
    while True:
        ready, _, _ = select.select([front, back], [], [], a.idle if started else 60.0)
        if not ready:
            finish()
        started = True
        for s in ready:
            try:
                data, addr = s.recvfrom(65536)
            except OSError:  # ICMP from a server that is gone
                continue
            if s is front:
                client = client or addr
                if addr != client:
                    continue  # one client only
                toward = "server"
            elif client is None:
                continue
            else:
                toward = "client"

            def send(d):
                try:
                    back.send(d) if toward == "server" else front.sendto(d, client)
                except OSError:
                    pass  # as a lossy network would

            st = stats[toward]
            st["datagrams"] += 1
            data_datagram = is_data(data, a.packets, a.min_size)
            if data_datagram:
                st["data"] += 1
            if a.fault in ("flip", "drop"):
                n = st["data"] - a.after
                if data_datagram and toward == a.toward and n > 0 and n % a.every == 0 and st["flipped"] + st["dropped"] < a.max:
                    if a.fault == "drop":
                        st["dropped"] += 1
                        continue
                    data = data[:-1] + bytes([data[-1] ^ 0x01])
                    st["flipped"] += 1
                send(data)
                continue
            send(data)
            if st["datagrams"] % 10 == 0:
                send(data)
                st["dup"] += 1
            if data_datagram:
                history[toward].append(data)
                late = stats["server"]["late"] + stats["client"]["late"]
                forwarded = stats["server"]["datagrams"] + stats["client"]["datagrams"]
                if late < 50 and forwarded % 7 == 0 and len(history[toward]) > 150:
                    send(history[toward][-rng.randint(5, 150)])
                    st["late"] += 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1 for the client")
    p.add_argument("--upstream", type=int, required=True, help="the server's port on 127.0.0.1")
    p.add_argument("--toward", choices=("server", "client"), default="server")
    p.add_argument("--stats", help="JSON file written at the end")
    p.add_argument("--timeout", type=float, default=30.0, help="TCP: seconds a socket may wait")
    p.add_argument("--flip", type=int, default=0, help="TCP: the application_data record to flip (1-based)")
    p.add_argument("--udp", action="store_true")
    p.add_argument("--packets", choices=("dtls", "quic"), default="dtls")
    p.add_argument("--fault", choices=("flip", "drop", "dup"), default="flip")
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--max", type=int, default=30)
    p.add_argument("--min-size", type=int, default=14)
    p.add_argument("--idle", type=float, default=3.0)
    a = p.parse_args()
    stats = {d: {"data": 0, "flipped": 0} for d in ("server", "client")}
    (udp if a.udp else tcp)(a, stats)


if __name__ == "__main__":
    main()
