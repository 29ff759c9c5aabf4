#!/usr/bin/env python3
"""DTLS 1.2 interop of pion/dtls v3 with libaead's record protection (bindings/pion-libaead) on loopback UDP: against
Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2`, against itself, and against unmodified pion; then through
tests/lib/fault_proxy.py, which duplicates and replays datagrams, and flips a byte in 30 records. Then DTLS 1.3 records
under the Go binding's DTLS13RecordProtector, keyed from a pion handshake (examples/dtls13-record-layer), plainly and
through the proxy. Every process runs under `timeout`. Prints a table: peer x suite x case with the counts.
pion v3.1.15 looks up the suites it implements itself before the custom ones, so libaead protects the records only of
the suites pion lacks: TLS_ECDHE_ECDSA_WITH_AES_256_CCM and _AES_256_CCM_8 (bindings/pion-libaead/README.md). The
rows against unmodified pion use the IDs both have and check that the handshake and the data work, and that
libaead's counters stay at 0 there.
Usage: python3 tests/dtls-interop/run.py   (needs Go and openssl; AEAD_BUILD_DIR: the C library's build dir, default
       <repo>/build; AEAD_DTLS_JOBS: cases at a time, default 3; AEAD_INTEROP_KEEP=1 keeps the work directory)
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import LIB_DIR, REPO, Interop, dtls_counts, source_env  # noqa: E402

T, BYTES, PION, CLEAN = 120, 1 << 20, REPO / "bindings/pion-libaead", f"{1 << 20} B, lost 0"
CCM = {"TLS_ECDHE_ECDSA_WITH_AES_256_CCM": "ECDHE-ECDSA-AES256-CCM",  # pion's suite: OpenSSL's name
       "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8": "ECDHE-ECDSA-AES256-CCM8"}
CCM0 = "TLS_ECDHE_ECDSA_WITH_AES_256_CCM"
PION_FLAGS = {"unmodified pion (server)": (["--pion"], []), "unmodified pion (client)": ([], ["--pion"])}


def log(case, name):
    return (case.dir / name).read_text(errors="replace")


def counts(case):
    """The client's and server's libaead counts (opened/replays/forgeries), each with its fields; the client's echo."""
    c, s = (dtls_counts(case.dir / f) for f in ("client", "server"))
    echo = re.search(r".*: (\d*) echoed byte for byte, (\d*) chunks lost", log(case, "client"))
    return *((x, x.split("/") if x else ["", "", ""]) for x in (c, s)), f"{echo[1]} B, lost {echo[2]}" if echo else ""


def server(case, suite, *flags):
    return case.spawn(["timeout", T, st.work / "bin/dtls-echo-server", "--listen", case.ports[0], *CERT, "--suite",
                       suite, *flags], out="server")


def talk(case, server, ports, what, client, mode, toward):
    """The server must listen on ports (else the case fails and, given what, "FAIL: what did not start"); then,
    given a mode, the proxy on ports[1]; client(the port to connect to) run to its end (its output in dir/client),
    the server (None: not waited for) and the proxy: each must exit 0 (the proxy must have listened)."""
    if not all(case.wait_listen(p) for p in ports):
        case.ok = False
        if what:
            print(f"FAIL: {what} did not start", file=sys.stderr)
    port, proxy = case.through(mode, toward, "2", T)
    rcs = [case.reap(case.spawn(client(port), out="client"))] + [case.reap(p) for p in (server, proxy) if p]
    case.ok &= not any(rcs) and (proxy is None or proxy.listening)


def verdict(case, peer, suite, mode, toward, echo, client, server, note=""):
    p, name = case.proxy_line() + (f"; {note}" if note else ""), {"": "clean", "dup": "dup+late"}.get(mode)
    case.row(case.ok, f"| {peer} | {suite} | {name or f'flip toward {toward}'} | {'ok' if case.ok else 'FAIL'}: {echo} "
                      f"| {client or '-'} | {server or '-'} | {p or '-'} |")


def case_echo(case, peer, suite, mode="", toward=""):
    """The example client (a libaead side) against the example server, or against openssl s_server echoing
    through a FIFO; through the proxy (on ports[1]) given a mode: dup, or flip (which costs 30 chunks, each
    given 500 ms; an echo later than that still counts). Checks: the client's echo (exact unless flipping),
    the counts."""
    sflags, cflags = PION_FLAGS.get(peer, ([], []))
    if peer == "openssl s_server":
        os.mkfifo(case.dir / "fifo")
        fifo, s = os.open(case.dir / "fifo", os.O_RDWR), None
        case.spawn(["timeout", T, "openssl", "s_server", "-dtls1_2", "-accept", f"127.0.0.1:{case.ports[0]}", *CERT,
                    "-cipher", CCM[suite], "-quiet", "-naccept", "1"], out=fifo, err="server", stdin=fifo)
        os.close(fifo)
    else:
        s = server(case, suite, *sflags)
    lost = ["--max-lost", 30, "--wait", "500ms"] if mode == "flip" else ["--max-lost", 0, "--wait", "1s"]
    talk(case, s, [case.ports[0]], s and "server", lambda port: [
        "timeout", T, st.work / "bin/dtls-echo-client", "--connect", f"127.0.0.1:{port}", "--suite", suite, "--bytes",
        BYTES, *lost, *cflags], mode, toward)
    (c, cf), (sv, sf), e = counts(case)
    if mode == "flip":  # 30 records dropped as forgeries on the side the proxy flips toward: 30 chunks lost
        case.ok &= e == f"{BYTES - 30 * 1000} B, lost 30" and (cf if toward == "client" else sf)[2] == "30"
    else:
        case.ok &= e == CLEAN
    if case.ok and peer.startswith("unmodified pion"):  # a suite pion implements: libaead's counts stay 0
        case.ok &= c == sv == "0/0/0"
    verdict(case, peer, suite, mode, toward, e, c, sv)


def case_ossl_client(case, suite):
    """The pion+libaead server against openssl s_client, fed 1 MiB in 1000-byte writes (tests/lib/feed.py);
    what comes back must be the same bytes."""
    (case.dir / "in.bin").write_bytes(data := os.urandom(BYTES))
    (case.dir / "out.bin").touch()
    s = server(case, suite)
    case.ok &= case.wait_listen(case.ports[0])
    feed = case.spawn([sys.executable, LIB_DIR / "feed.py", case.dir / "in.bin", case.dir / "out.bin", 2, 0],
                      out=subprocess.PIPE, err="feed")
    c = case.spawn(["timeout", T, "openssl", "s_client", "-dtls1_2", "-connect", f"127.0.0.1:{case.ports[0]}",
                    "-cipher", CCM[suite], "-quiet", "-no_ign_eof", "-nocommands"], out="out.bin", err="client",
                   stdin=feed.stdout.fileno())
    feed.stdout.close()
    case.ok &= (case.reap(feed), case.reap(c), case.reap(s)) == (0, 0, 0)
    same = (case.dir / "out.bin").read_bytes() == data
    _, (sv, (opened, _, _)), _ = counts(case)
    case.ok &= same and int(opened or -1) >= 1049
    verdict(case, "openssl s_client", suite, "", "", CLEAN if same else "differs", "-", sv)


def case_rl_pair(case, suite, mode="", toward="server"):
    """The dtls13-record-layer example, both roles: pion's DTLS 1.2 handshake (TLS_ECDHE_ECDSA_WITH_AES_128_GCM_
    SHA256, which unmodified pion has) on a direct path, then 1 MiB as DTLS 1.3 records of suite under bindings/go's
    DTLS13RecordProtector on a second flow, through the proxy given a mode. Nothing there deduplicates but
    libaead's window, so: each side's replays refused must equal the copies the proxy injected toward it (dup +
    late), and a flipped record must be a forgery on the flipped side (30) with the echo still complete."""
    rl, hp = st.work / "bin/dtls13-record-layer", case.ports[2]
    s = case.spawn(["timeout", 60, rl, "--listen", hp, "--records", case.ports[0], *CERT, "--suite", suite],
                   out="server")
    talk(case, s, [hp, case.ports[0]], "record-layer server", lambda port: [
        "timeout", 60, rl, "--connect", f"127.0.0.1:{hp}", "--records", f"127.0.0.1:{port}", "--bytes", BYTES,
        "--suite", suite], mode, toward)
    (c, (co, cr, cf)), (sv, (so, sr, sf)), e = counts(case)
    # The data: echoed byte for byte to the client, delivered once and in order to the server (the same bytes:
    # the sha256 of what the client sent and of what the server delivered).
    sd = re.findall(r"^server: (\d*) bytes delivered in \d* chunks \(sha256 ([0-9a-f]*)\)", log(case, "server"), re.M)
    cd = re.findall(r"^client: (\d*) bytes in \d* chunks \(sha256 ([0-9a-f]*)\)", log(case, "client"), re.M)
    case.ok &= e == CLEAN and sd != [] and sd == cd and sd[0][0] == str(BYTES)
    case.ok &= int(co or -1) >= 1050 and int(so or -1) >= 1050  # every side opened the 1049 chunks and the close
    note = ""
    if mode == "dup":
        ts, tc = (case.proxy_stat(t, "dup") + case.proxy_stat(t, "late") for t in ("server", "client"))
        case.ok &= ts > 0 and tc > 0 and sr == str(ts) and cr == str(tc) and cf == sf == "0"
        note = f"injected toward server {ts}, toward client {tc}"
    elif mode == "flip":  # 30 forgeries on the flipped side, none on the other
        case.ok &= (cf, sf) == (("30", "0") if toward == "client" else ("0", "30"))
    else:
        case.ok &= cr == cf == sr == sf == "0"
    verdict(case, "Go DTLS13RecordProtector (pion DTLS 1.2 handshake, exporter keys)", f"{suite} (DTLS 1.3 records)",
            mode, toward, e, c, sv, note)


def phase(title, *cases):
    print(title)
    for fn, *args in cases:
        st.lane(fn, *args)


sys.stdout.reconfigure(line_buffering=True)
st = Interop("dtls-interop", ["openssl", "timeout"], jobs=int(os.environ.get("AEAD_DTLS_JOBS", "3")), port_kind="udp")
source_env(REPO / "bindings/go/env.sh")  # Go on the build tree's libaead: -tags libaead_system
print("== pion-libaead module: vet, tests (records against pion's own ciphers, pion handshakes)")
for argv in (["go", "mod", "download"], ["go", "vet", "./..."], ["timeout", "300", "go", "test", "-count=1", "./..."]):
    st.step(*argv, cwd=PION)
if unformatted := subprocess.run(["gofmt", "-l", "."], cwd=PION, stdout=subprocess.PIPE, text=True).stdout.strip():
    sys.exit(f"FAIL: gofmt would change: {unformatted}")
st.step("go", "build", "-o", f"{st.work}/bin/", "./examples/...", cwd=PION)
print("== the Go block of bindings/pion-libaead/README.md, built and run (tests/snippets/go.py)")
st.step(sys.executable, "tests/snippets/go.py", "bindings/pion-libaead", "bindings/pion-libaead/README.md", cwd=REPO)
st.make_certs("ecdsa")
CERT = ["--cert", st.work / "cert-ecdsa.pem", "--key", st.work / "key-ecdsa.pem"]
phase("== pion+libaead <-> openssl (-dtls1_2), both roles, 1 MiB echoed",
      *[c for s in CCM for c in ((case_echo, "openssl s_server", s), (case_ossl_client, s))])
phase("== pion+libaead <-> pion+libaead, 1 MiB echoed", *[(case_echo, "pion+libaead", s) for s in CCM])
phase("== pion+libaead <-> unmodified pion, both roles (suites pion implements: pion's cipher is used, libaead's counts"
      " stay 0)", *[(case_echo, f"unmodified pion ({role})", f"TLS_ECDHE_ECDSA_WITH_{s}") for s in (
          "AES_128_GCM_SHA256", "AES_256_GCM_SHA384", "CHACHA20_POLY1305_SHA256", "AES_128_CCM", "AES_128_CCM_8")
          for role in ("server", "client")])
phase("== through the proxy: every 10th datagram twice, 50 old ones late (the data must arrive exactly once)",
      (case_echo, "pion+libaead", CCM0, "dup", "server"), (case_echo, "openssl s_server", CCM0, "dup", "client"))
phase("== through the proxy: 30 records with a flipped byte (libaead's side must count 30 forgeries)",
      *[(case_echo, peer, CCM0, "flip", toward) for peer, toward in (
          ("pion+libaead", "server"), ("pion+libaead", "client"), ("openssl s_server", "client"))])
st.wait()
rl_start = time.monotonic()
phase("== DTLS 1.3 records under bindings/go's DTLS13RecordProtector, keyed by a pion DTLS 1.2 handshake's exporter"
      " (libaead's window is the only one)", *[(case_rl_pair, f"TLS_{s}") for s in (
          "AES_128_GCM_SHA256", "AES_256_GCM_SHA384", "CHACHA20_POLY1305_SHA256", "AES_128_CCM_SHA256")],
      (case_rl_pair, "TLS_AES_128_GCM_SHA256", "dup"), (case_rl_pair, "TLS_CHACHA20_POLY1305_SHA256", "flip", "server"),
      (case_rl_pair, "TLS_AES_128_GCM_SHA256", "flip", "client"))
st.wait()
print(f"== the DTLS 1.3 record-layer rows took {int(time.monotonic() - rl_start)} s")
st.results("", "| peer | suite | case | result (echoed) | client: libaead opened/replays/forgeries | server: libaead "
               "opened/replays/forgeries | proxy |", "|---|---|---|---|---|---|---|")
print()
sys.exit(st.finish(cases=True))
