#!/usr/bin/env python3
"""Interop of rustls + libaead (bindings/rustls-libaead) with peers nobody here wrote, on loopback:
  - Debian's `openssl s_server` and `openssl s_client`, both directions, every suite in suites.txt:
    1 MiB each way byte for byte, then a run of tiny records (checked on the wire);
  - rustls with its own *ring* record protection, both roles, 1 MiB echoed (suites *ring* has:
    suites.txt's last column; not the opt-in TLS13_AES_128_CCM_SHA256);
  - a proxy that flips one byte of a record: our side must end with bad_record_mac and the peer must
    report receiving it.
Also runs the crate's own tests, clippy and its README's Rust blocks (tests/snippets/rust.py).
Every process runs under `timeout` (the README's blocks under rust.py's own).
Usage: python3 tests/tls-interop/run.py   (AEAD_BUILD_DIR: the C library's build dir, default <repo>/build;
       AEAD_INTEROP_SUITES: a regex to run only some suites; AEAD_INTEROP_KEEP=1 keeps the work directory
       with every log; AEAD_TLS_JOBS: cases at a time, default 2)
"""
import filecmp
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import REPO, RUSTLS_TARGET, Interop, wait_size  # noqa: E402

T, BIG, TINY = 30, 1 << 20, 1 << 16  # seconds any one process may run; bytes each way in the main and tiny-record runs
CRATE, BIN = REPO / "bindings/rustls-libaead", RUSTLS_TARGET / "debug/examples"
SUITES = {}  # name: (version, OpenSSL name, certificate, ring peer), from suites.txt


def talk(case, server, client, proxy=None, first="client", waits=(), size=0):
    """server, client: (argv, stdout file, stderr file, stdin: None, a file, or a feeder's argv writing into a pipe,
    as `cat FILE >&fd &`). The server on ports[0]; once it listens, the proxy (given its arguments) on ports[1], the
    client, the feeders. Once the files in waits hold size bytes (or the client ended, or T s), the client's input
    ends; `first` is reaped, both inputs end, the other is reaped. Returns their exit statuses and the proxy."""
    def start(argv, out, err, stdin):
        return case.spawn(argv, out=out, err=err, stdin=subprocess.PIPE if isinstance(stdin, list) else stdin)
    s, p = start(*server), None
    if not case.wait_listen(case.ports[0]) or proxy is not None and not (
            p := case.start_proxy(case.ports[1], case.ports[0], T, *proxy)).listening:
        raise RuntimeError(f"{'the proxy' if p else 'the server'} does not listen")  # as errexit did: no row
    c = start(*client)
    for proc, (*_, feeder) in ((c, client), (s, server)):
        if isinstance(feeder, list):
            case.spawn(feeder, out=proc.stdin.fileno(), err="harness.log")
    if waits:
        all(wait_size(case.dir / f, size, c, T) for f in waits)  # each while the one before succeeded
        c.stdin.close()
    a, b = (c, s) if first == "client" else (s, c)
    rc = {a: case.reap(a)}
    for proc in (c, s):
        if proc.stdin:
            proc.stdin.close()
    rc[b] = case.reap(b)
    return rc[s], rc[c], p


def cmds(case, suite, target):
    """Our server and client and OpenSSL's s_server and s_client for suite; the clients connect to target."""
    version, ossl, cert, _ = SUITES[suite]
    c, k, ca = (st.work / f"{n}-{cert}.pem" for n in ("cert", "key", "ca"))
    o = ["-tls1_3", "-ciphersuites", ossl] if version == "13" else ["-tls1_2", "-cipher", ossl]
    at, to = f"127.0.0.1:{case.ports[0]}", f"127.0.0.1:{target}"
    return (["timeout", T, BIN / "tls-server", "--listen", case.ports[0], "--cert", c, "--key", k, "--suite", suite,
             "--once"], ["timeout", T, BIN / "tls-client", "--connect", to, "--ca", ca, "--suite", suite],
            ["timeout", T, "openssl", "s_server", "-accept", at, "-cert", c, "-key", k, "-naccept", "1", "-quiet", *o],
            ["timeout", T, "openssl", "s_client", "-connect", to, "-servername", "localhost", "-CAfile", ca,
             "-verify_return_error", "-quiet", "-no_ign_eof", "-nocommands", *o])


def checks(case, *tests):
    """(passed, text) pairs: each failed one fails the case, its text noted."""
    for passed, text in tests:
        if not passed:
            case.bad(text)


def same(case, file, name):
    return filecmp.cmp(file, case.dir / name, shallow=False)


def verdict(case, suite, label):
    case.row(case.ok, f"{suite:<46} {label:<34} {'PASS' if case.ok else 'FAIL'}: {case.what}")


def case_openssl(case, suite, peer, mode=""):
    """Our client against `openssl s_server` (which writes what it receives to stdout and sends its stdin): up
    goes up, down comes down (the end of our input: close_notify, answered by s_server's); or `openssl s_client`
    against our echo server, up echoed. Compared byte for byte. mode tiny: 64 KiB through the counting proxy,
    tiny records from both sides (rustls: fragments of at most 32 - 5 header bytes; OpenSSL: -max_send_frag 512)."""
    up, down = (st.work / f"{d}{'-tiny' if mode else ''}.bin" for d in ("up", "down"))
    os_, oc, ss, sc = cmds(case, suite, case.ports[1 if mode else 0])
    ours, theirs = (["--max-fragment", "32"], ["-max_send_frag", "512"]) if mode else ([], [])
    kw = {"proxy": [] if mode else None, "size": TINY if mode else BIG}
    what = "each way" if peer == "s_server" else "echoed"
    case.what = f"64 KiB {what}, tiny records" if mode else f"1 MiB {what}"
    if peer == "s_server":
        rc_s, rc_c, p = talk(case, (ss + theirs, "ss.out", "ss.err", ["cat", down]),
                             (oc + ours, "cl.out", "cl.err", ["cat", up]), waits=("ss.out", "cl.out"), **kw)
        checks(case, (same(case, up, "ss.out"), "upload differs"), (same(case, down, "cl.out"), "download differs"),
               (rc_c == 0, f"tls-client exit {rc_c}"), (rc_s == 0, f"s_server exit {rc_s}"))
        label, toward = "client -> openssl s_server", ("server", "client")
    else:
        rc_s, rc_c, p = talk(case, (os_ + ours, None, "srv.err", None), (sc + theirs, "sc.out", "sc.err", ["cat", up]),
                             waits=("sc.out",), **kw)
        checks(case, (same(case, up, "sc.out"), "echo differs"), (rc_s == 0, f"tls-server exit {rc_s}"),
               (rc_c == 0, f"s_client exit {rc_c}"))
        label, toward = "openssl s_client -> server", ("client", "server")
    if mode and case.ok:  # the proxy's record counts toward the side we send to and the other
        p.wait()
        n, mx, n2, mx2 = (case.proxy_stat(t, f) for t in toward for f in ("data", "max_data"))
        case.what += f" (ours: {n} records <= {mx} B, theirs: {n2} <= {mx2} B)"
        checks(case, (n >= TINY // 27 and mx <= 64 and n2 >= TINY // 512 and mx2 <= 560, "records not tiny"))
    verdict(case, suite, f"{label} ({mode})" if mode else label)


def case_rustls_pair(case, suite, client, server):
    """rustls with libaead against rustls with *ring*: the client's provider and the server's."""
    case.what = "1 MiB echoed"
    os_, oc, _, _ = cmds(case, suite, case.ports[0])
    rc_s, rc_c, _ = talk(case, (os_ + ["--provider", server], None, "srv.err", None),
                         (oc + ["--provider", client], "cl.out", "cl.err", st.work / "up.bin"))
    checks(case, (same(case, st.work / "up.bin", "cl.out"), "echo differs"),
           (rc_c == 0, f"tls-client exit {rc_c}"), (rc_s == 0, f"tls-server exit {rc_s}"))
    verdict(case, suite, f"rustls({client}) client -> rustls({server}) server")


def case_tamper(case, suite, peer):
    """One byte flipped in the 10th application_data record travelling towards our side; the peer:
    s_client or rustls-ring (we serve), s_server (we are the client)."""
    os_, oc, ss, sc = cmds(case, suite, case.ports[1])
    toward = "client" if peer == "s_server" else "server"
    flip = ["--toward", toward, "--flip", "10"]
    if peer == "s_server":
        # s_server is single-threaded and blocking: if its stdin is readable before the handshake ends,
        # it next blocks reading from the client, so the client says something.
        _, rc_ours, p = talk(case, (ss, None, "peer.err", ["cat", st.work / "down.bin"]),
                             (oc, None, "ours.err", ["echo", "hello"]), flip)
    else:
        peer_c = sc if peer == "s_client" else oc + ["--provider", "ring"]
        rc_ours, _, p = talk(case, (os_, None, "ours.err", None),
                             (peer_c, None, "peer.err", ["cat", st.work / "up.bin"]), flip, "server")
    p.wait()
    log = (case.dir / "ours.err").read_text(errors="replace")
    alert = re.search(r"sent alert [a-z_]*", log)
    case.what = f"ours: exit {rc_ours}, {alert[0] if alert else 'no alert'}"
    case.ok = case.ok and rc_ours != 0 and "sent alert bad_record_mac" in log
    # The peer must have received the alert: OpenSSL says "alert bad record mac", rustls "BadRecordMac".
    got = re.search(r"alert bad record mac|BadRecordMac", (case.dir / "peer.err").read_text(errors="replace"), re.I)
    checks(case, (case.proxy_stat(toward, "flipped") == 1, "nothing flipped"),
           (got, f"{peer} did not report bad_record_mac"))
    case.what += f"; {peer} got bad_record_mac" if got else ""
    verdict(case, suite, f"tamper ({peer} -> ours)")


CASES = [(case_openssl, "s_server"), (case_openssl, "s_server", "tiny"), (case_openssl, "s_client"),
         (case_openssl, "s_client", "tiny"), (case_rustls_pair, "libaead", "ring"),
         (case_rustls_pair, "ring", "libaead"), (case_tamper, "s_client"), (case_tamper, "s_server"),
         (case_tamper, "rustls-ring")]
sys.stdout.reconfigure(line_buffering=True)
st = Interop("tls-interop", ["cargo", "openssl", "pkg-config", "timeout"], int(os.environ.get("AEAD_TLS_JOBS", "2")))
version = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()
print(f"== {version}; library: {st.build}")
st.prune_rustls_target()
cargo = {"cwd": CRATE, "env": dict(os.environ, CARGO_TARGET_DIR=str(RUSTLS_TARGET))}
st.step("cargo", "build", "--locked", "--examples", **cargo)
st.step("cargo", "test", "--locked", **cargo)
if subprocess.run(["cargo", "clippy", "--version"], cwd=CRATE, capture_output=True).returncode == 0:
    st.step("cargo", "clippy", "--locked", "--all-targets", "--", "-D", "warnings", **cargo)
st.step(sys.executable, REPO / "tests/snippets/rust.py", "--crate", CRATE, CRATE / "README.md", env=cargo["env"])
st.make_certs("ecdsa", "rsa")
for d in ("up", "down"):
    (st.work / f"{d}.bin").write_bytes(data := os.urandom(BIG))
    (st.work / f"{d}-tiny.bin").write_bytes(data[:TINY])
for line in (Path(__file__).parent / "suites.txt").read_text().splitlines():
    suite, version, ossl, cert, ring = (line.split(maxsplit=4) + [""] * 5)[:5]
    if not suite or suite.startswith("#") or not re.search(os.environ.get("AEAD_INTEROP_SUITES") or ".", suite):
        continue
    SUITES[suite] = version, ossl, cert, ring
    print(f"== {suite}")
    if ring != "yes":
        print(f"   (no rustls+ring cases: rustls's *ring* provider has no {suite})")
    for fn, *args in CASES:
        if ring == "yes" or "rustls" not in " ".join([fn.__name__, *args]):
            st.lane(fn, suite, *args)
st.results("", "== results")
sys.exit(st.finish())
