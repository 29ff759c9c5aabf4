#!/usr/bin/env python3
"""A one-connection TCP proxy on loopback that reads the TLS record framing in both directions.

It forwards every byte unchanged, except (with --flip-dir) one byte in the middle of the
--flip-record'th application_data record sent in that direction, and writes per-direction
record statistics (count, largest application_data record) as JSON to --stats when both
directions have ended. Used by run.sh to tamper with a record on the wire and to check that
"tiny records" really are tiny.
"""
import argparse
import json
import socket
import threading

APPLICATION_DATA = 23


def pump(src, dst, name, flip_record, stats):
    """Copies src to dst record by record; flips one byte of the chosen record."""
    buf = b""
    app_records = 0
    st = stats[name]
    while True:
        try:
            data = src.recv(65536)
        except OSError:
            data = b""
        if not data:
            break
        buf += data
        out = bytearray()
        while len(buf) >= 5:
            length = int.from_bytes(buf[3:5], "big")
            if len(buf) < 5 + length:
                break
            record = bytearray(buf[: 5 + length])
            buf = buf[5 + length :]
            st["records"] += 1
            if record[0] == APPLICATION_DATA:
                app_records += 1
                st["app_records"] += 1
                st["max_app_record"] = max(st["max_app_record"], length)
                if app_records == flip_record:
                    record[5 + length // 2] ^= 0x01
                    st["flipped"] = True
            out += record
        try:
            dst.sendall(bytes(out))
        except OSError:
            break
    # Pass on the rest and the half-close, so each side sees what the other did.
    try:
        if buf:
            dst.sendall(buf)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1")
    ap.add_argument("--upstream", type=int, required=True, help="port on 127.0.0.1")
    ap.add_argument("--flip-dir", choices=["c2s", "s2c"], help="direction to tamper with")
    ap.add_argument("--flip-record", type=int, default=10, help="which application_data record (1-based)")
    ap.add_argument("--stats", required=True, help="JSON file written at the end")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()

    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", args.listen))
    ls.listen(1)
    ls.settimeout(args.timeout)
    client, _ = ls.accept()
    server = socket.create_connection(("127.0.0.1", args.upstream), timeout=args.timeout)
    for s in (client, server):
        s.settimeout(args.timeout)
    stats = {d: {"records": 0, "app_records": 0, "max_app_record": 0, "flipped": False} for d in ("c2s", "s2c")}
    threads = [
        threading.Thread(target=pump, args=(client, server, "c2s", args.flip_record if args.flip_dir == "c2s" else 0, stats)),
        threading.Thread(target=pump, args=(server, client, "s2c", args.flip_record if args.flip_dir == "s2c" else 0, stats)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client.close()
    server.close()
    with open(args.stats, "w") as f:
        json.dump(stats, f)


if __name__ == "__main__":
    main()
