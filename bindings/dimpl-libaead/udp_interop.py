#!/usr/bin/env python3
"""dimpl + libaead over real UDP on loopback: the examples dtls-echo-server / dtls-echo-client
(bindings/dimpl-libaead/examples) against dimpl on its own aws-lc-rs provider (DTLS 1.2 and 1.3)
and against Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2` (DTLS 1.2), both roles; then
through tests/lib/fault_proxy.py, which duplicates datagrams and re-sends old ones late (the data
must arrive exactly once), or flips a byte in 30 protected records toward one side (the libaead side
must count 30 forgeries when they go to it; the echo completes, the client resending what was lost).
Every process runs under `timeout`. Prints a table: peer x version x suite x libaead's role x case.

Matrix (kept within the stage budget): every suite both peers have, both roles, 1 MiB echoed; the
proxy cases (dup, flip toward server, flip toward client), both roles, for one suite per version
and peer: AES_128_GCM (DTLS 1.3) and ECDHE_ECDSA_AES128_GCM_SHA256 (DTLS 1.2).

Usage: udp_interop.py DIR   (DIR holds the built examples; test.py builds them and runs this;
       UDP_INTEROP_JOBS: cases at a time, default 3; AEAD_INTEROP_KEEP=1 keeps the work folder)
"""
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "tests" / "lib"))
from harness import LIB_DIR, Interop, die, dtls_counts, end  # noqa: E402

sys.stdout.reconfigure(line_buffering=True)
stage = Interop("udp-interop", ["openssl", "python3", "timeout"], int(os.environ.get("UDP_INTEROP_JOBS") or 3), "udp")
if len(sys.argv) < 2 or not sys.argv[1]:
    die(stage.stage, "usage: udp_interop.py DIR-WITH-THE-BUILT-EXAMPLES")
SERVER, CLIENT = Path(sys.argv[1]) / "dtls-echo-server", Path(sys.argv[1]) / "dtls-echo-client"
for t in (SERVER, CLIENT):
    if not os.access(t, os.X_OK):
        die(stage.stage, f"no {t} (cargo build --examples)")
stage.make_certs("ecdsa")
CERT = ["--cert", stage.work / "cert-ecdsa.pem", "--key", stage.work / "key-ecdsa.pem"]
T, BYTES = 120, 1 << 20
CHUNKS = (BYTES + 999) // 1000
SUITES12 = ("ECDHE_ECDSA_AES128_GCM_SHA256", "ECDHE_ECDSA_AES256_GCM_SHA384", "ECDHE_ECDSA_CHACHA20_POLY1305_SHA256")
SUITES13 = ("AES_128_GCM_SHA256", "AES_256_GCM_SHA384", "CHACHA20_POLY1305_SHA256")
VERSIONS = (("1.2", SUITES12), ("1.3", SUITES13))
ROLES = ("server", "client")
PEERS = {"dimpl": "dimpl + aws-lc-rs", "s_server": "openssl s_server", "s_client": "openssl s_client"}


def pair(c, peer, ver, suite, role, case, mode="", toward=""):
    """dimpl + libaead as role against peer: dimpl + aws-lc-rs (the same examples); openssl s_server, echoing
    (its output piped to its input); or openssl s_client, fed 1 MiB by tests/lib/feed.py, each chunk written
    again when nothing has come back within the wait (flip only). s_client sends no close_notify here: the
    server ends when it falls silent; it and the proxy wait 3 s for that: under load s_client has been seen
    to send nothing for over a second after its handshake (why, not pinned down). With a mode (dup, flip),
    the fault proxy is between them (tests/lib)."""
    name = suite.replace("_", "-")  # OpenSSL's: ECDHE-ECDSA-AES128-GCM-SHA256, ..., ECDHE-ECDSA-CHACHA20-POLY1305
    ossl = ["timeout", 90, "openssl", peer, "-dtls1_2", "-cipher", name.removesuffix("-SHA256") if "CHACHA" in name
            else name, "-quiet"]
    sprov = ["--provider", "libaead" if role == "server" else "aws-lc-rs"] if peer == "dimpl" else []
    cprov = ["--provider", "aws-lc-rs" if role == "server" else "libaead"] if peer == "dimpl" else []
    server = None
    if peer == "s_client":
        (c.dir / "in.bin").write_bytes(os.urandom(BYTES))
        (c.dir / "out.bin").write_bytes(b"")
    if peer == "s_server":
        rd, wr = os.pipe()
        c.spawn([*ossl, "-accept", f"127.0.0.1:{c.ports[0]}", *CERT, "-naccept", 1], out=wr, err="ossl", stdin=rd)
        os.close(rd)
        os.close(wr)
    else:
        server = c.spawn(["timeout", 60 if peer == "dimpl" else 90, SERVER, "--listen", c.ports[0], *CERT, "--version",
                          ver, "--suite", suite, *sprov, "--idle", "2s" if peer == "dimpl" else "3s"], out="server")
    ok = c.wait_listen(c.ports[0])
    port, proxy = c.through(mode, toward, 3 if peer == "s_client" else 1, T)
    ok = ok and (proxy is None or proxy.listening)
    if peer == "s_client":
        # -nbio: a blocking s_client that reads a record OpenSSL discards (a replay, a forgery) blocks in
        # recvfrom and stops reading its input; non-blocking it goes on, but then does not exit at the end
        # of its input, so it is stopped once the feeder is done.
        rd, wr = os.pipe()
        client = c.spawn([*ossl, "-connect", f"127.0.0.1:{port}", "-nbio", "-nocommands"], out="out.bin", err="ossl",
                         stdin=rd)
        os.close(rd)  # the feeder's writes fail once s_client has gone
        feed = c.spawn([sys.executable, LIB_DIR / "feed.py", c.dir / "in.bin", c.dir / "out.bin",
                        *((0.1, 60) if mode == "flip" else (2, 0))], out=wr, err="client")
        os.close(wr)
        ok = c.reap(feed) == 0 and ok
        end(client)
    else:  # the example client with 1 MiB (flip: up to 60 chunks resent after 30 ms each)
        flags = ["--wait", "30ms", "--max-resend", "60"] if mode == "flip" else []
        ok = c.reap(c.spawn(["timeout", 90, CLIENT, "--connect", f"127.0.0.1:{port}", "--bytes", BYTES, *flags,
                             "--version", ver, "--suite", suite, *cprov], out="client")) == 0 and ok
    rcs = [c.reap(p) for p in (server, proxy) if p]
    ok = ok and not any(rcs)
    # What the libaead side (its log: dir/<role>) must have seen.
    log = {n: (c.dir / n).read_text(errors="replace") if (c.dir / n).exists() else "" for n in ROLES}
    counts, dropped = dtls_counts(c.dir / role), re.search(r"dimpl dropped (\d+) of (\d+) protected", log[role])
    o, r, f = map(int, (counts or "0/0/0").split("/"))
    e = "byte for byte, each once: yes" in log["client"]
    ok = ok and e and o >= CHUNKS  # the libaead side opened every chunk (the server) or every echo (the client)
    if case == "clean":
        ok = ok and r == 0 and f == 0
    elif case.startswith("dup"):
        # Duplicates and late copies went toward the libaead side: refused by dimpl's window or libaead's,
        # none opened twice (the echo check), none a forgery.
        late = c.proxy_stat(role, "late")
        ok = ok and f == 0 and late >= 0 and (int(dropped[1]) if dropped else 0) + r >= late
    elif case.startswith("flip"):
        ok = ok and f == (30 if toward == role else 0)
    resent = re.search(r"^.* (\d*) resent ", log["client"], re.M)
    result = f"{'ok' if ok else 'FAIL'} (echo {'yes' if e else 'no'}, resent {resent[1] if resent else ''})"
    c.row(ok, "| " + " | ".join([PEERS[peer], ver, suite, role, case, result, counts or "-", " of ".join(
        dropped.groups()) if dropped else "-", c.proxy_line() or "-", c.elapsed()]) + " |")


print(f"== {stage.jobs} at a time; the table follows")
print("== dimpl + libaead <-> dimpl + aws-lc-rs over UDP, DTLS 1.2 and 1.3, both roles, 1 MiB echoed")
for role in ROLES:
    for ver, suites in VERSIONS:
        for s in suites:
            stage.lane(pair, "dimpl", ver, s, role, "clean")
print("== dimpl + libaead <-> openssl s_server / s_client -dtls1_2, 1 MiB echoed")
for s in SUITES12:
    stage.lane(pair, "s_server", "1.2", s, "client", "clean")
    stage.lane(pair, "s_client", "1.2", s, "server", "clean")
print("== through fault_proxy.py: duplicated and late datagrams; 30 flipped records toward each side")
for args in [("dimpl", ver, suites[0], role) for role in ROLES for ver, suites in VERSIONS] + [
        ("s_server", "1.2", SUITES12[0], "client"), ("s_client", "1.2", SUITES12[0], "server")]:
    for case in (("dup+late", "dup", "server"), ("flip toward server", "flip", "server"),
                 ("flip toward client", "flip", "client")):
        stage.lane(pair, *args, *case)
print()
stage.results("| peer | DTLS | suite | libaead's role | case | result | libaead side: opened/replays/forgeries "
              "| dropped by dimpl before libaead (its window) | proxy | s |", "|---" * 10 + "|")
print()
sys.exit(stage.finish(cases=True))
