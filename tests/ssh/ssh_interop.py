"""SSH with libaead's SSH context as the AES-GCM packet protection of asyncssh, against OpenSSH, both ways.

  1. asyncssh client (libaead) -> OpenSSH's sshd (started by run.sh), once per cipher: a command and its
     output; BYTES up (`sha256sum` on the far side) and BYTES down (the far side's random file, its
     sha256 sent first on stderr), sha256 compared; rekey_bytes makes asyncssh rekey during the transfer.
  2. OpenSSH's ssh client -> an asyncssh server (libaead) on a loopback port of its own, once per cipher:
     the same command, upload and download through the server's commands below; ssh's RekeyLimit makes
     OpenSSH rekey during the transfer.
For each: packets sealed and opened through libaead, their bytes, time, MiB/s and the sha256 equality;
then the checks over the whole run: every packet went through libaead (its own usage counters agree with
the count here), the stock path was never entered, no packet failed authentication, every transfer's
sha256 matched, and each connection made at least one key exchange after the first (asyncssh's own
count of new keys, and OpenSSH's log: "SSH2_MSG_NEWKEYS received"). Exit 1 on any failure.

The asyncssh server's commands: "echo WORD" (answers "libaead-ssh WORD"), "sha256" (reads stdin to its
end, answers "<hex> <bytes>"), "send N" (writes N random bytes; the driver compares their sha256).

Usage: ssh_interop.py --sshd-port P --sshd-log FILE --user NAME --client-key FILE --known-hosts FILE
       --host-key FILE --authorized-keys FILE --work DIR [--bytes N] [--rekey-bytes N] [--timeout S]
"""

import argparse
import asyncio
import hashlib
import os
import re
import secrets
import sys
import time

import asyncssh

import libaead
import libaead_gcm
from libaead_gcm import STATS

MIB = 1 << 20
CIPHERS = ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com"]
FAILURES = []
SENT_DIGESTS = {}  # token -> sha256 of what the asyncssh server's "send" wrote


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("ssh: FAIL: %s" % what, flush=True)
    return ok


def rate(nbytes, seconds):
    return nbytes / MIB / seconds if seconds > 0 else float("inf")


def delta(before, after):
    return {k: after[k] - before[k] for k in before}


def report(label, d, transfers):
    secs = d["time"]
    print("ssh:   %s: libaead sealed %d packets (%.1f MiB), opened %d (%.1f MiB), %d keys made (%d key exchanges), "
          "%.2f s" % (label, d["sealed"], d["sealed_bytes"] / MIB, d["opened"], d["opened_bytes"] / MIB, d["keys"],
                      d["keys"] // 2, secs), flush=True)
    for what, nbytes, seconds, equal, digest in transfers:
        print("ssh:   %s: %s %d MiB in %.2f s = %.1f MiB/s, sha256 %s (%s)"
              % (label, what, nbytes // MIB, seconds, rate(nbytes, seconds), "equal" if equal else "DIFFERENT",
                 digest[:16]), flush=True)


async def hash_stream(read):
    """Reads with read(n) to the end: (sha256 hex, bytes read, the first 256 bytes)."""
    h, got, head = hashlib.sha256(), 0, b""
    while True:
        piece = await read(MIB)
        if not piece:
            return h.hexdigest(), got, head
        h.update(piece)
        if got < 256:
            head += piece[:256 - got]
        got += len(piece)


async def chunks(nbytes):
    """Random data in 1 MiB pieces."""
    left = nbytes
    while left:
        n = min(MIB, left)
        left -= n
        yield os.urandom(n)


# ---------------------------------------------------------------- 1. asyncssh client -> OpenSSH sshd


async def client_to_sshd(args, cipher):
    label = "asyncssh client (libaead) -> OpenSSH sshd, %s" % cipher
    before = STATS.snapshot()
    conn = await asyncssh.connect("127.0.0.1", args.sshd_port, username=args.user, client_keys=[args.client_key],
                                  known_hosts=args.known_hosts, encryption_algs=[cipher], rekey_bytes=args.rekey_bytes,
                                  config=[], agent_path=None, preferred_auth="publickey")
    transfers = []
    async with conn:
        check(conn.get_extra_info("send_cipher") == cipher and conn.get_extra_info("recv_cipher") == cipher,
              "%s: negotiated %s / %s" % (label, conn.get_extra_info("send_cipher"), conn.get_extra_info("recv_cipher")))
        token = secrets.token_hex(8)
        res = await conn.run("echo libaead-ssh-%s; uname -s" % token, check=False)
        check(res.exit_status == 0 and res.stdout == "libaead-ssh-%s\nLinux\n" % token,
              "%s: the command gave %r (exit %s)" % (label, res.stdout, res.exit_status))
        keys_before_transfer = STATS.keys

        # up: the far side's sha256sum of what this side sent
        t0 = time.monotonic()
        proc = await conn.create_process("sha256sum", encoding=None)
        h = hashlib.sha256()
        async for piece in chunks(args.bytes):
            h.update(piece)
            proc.stdin.write(piece)
            await proc.stdin.drain()
        proc.stdin.write_eof()
        out = await proc.stdout.read()
        await proc.wait()
        secs = time.monotonic() - t0
        far = out.split()[0].decode() if out.split() else "(nothing)"
        transfers.append(("up", args.bytes, secs, check(far == h.hexdigest(), "%s: up: sha256 here %s, sshd side %s"
                                                        % (label, h.hexdigest(), far)), far))

        # down: the far side's random file, its sha256 first on stderr
        t0 = time.monotonic()
        proc = await conn.create_process(
            'f=$(mktemp -p "%s") && head -c %d /dev/urandom >"$f" && sha256sum <"$f" >&2 && cat "$f"; rc=$?; '
            'rm -f "$f"; exit $rc' % (args.work, args.bytes), encoding=None)
        digest, got, _ = await hash_stream(proc.stdout.read)
        err = await proc.stderr.read()
        await proc.wait()
        secs = time.monotonic() - t0
        # sshd at LogLevel DEBUG1 with -e also writes its session's debug lines to the channel's stderr
        found = re.findall(rb"^([0-9a-f]{64})  -$", err, re.M)
        far = found[-1].decode() if found else "(no sha256sum line)"
        transfers.append(("down", got, secs, check(far == digest and got == args.bytes,
                                                   "%s: down: %d bytes, sha256 here %s, sshd side %s"
                                                   % (label, got, digest, far)), far))
        check(STATS.keys - keys_before_transfer >= 2,
              "%s: no rekey during the transfer (asyncssh made %d new keys; rekey_bytes %d)"
              % (label, STATS.keys - keys_before_transfer, args.rekey_bytes))
    d = delta(before, STATS.snapshot())
    report(label, d, transfers)
    return d


def newkeys_received(log_path):
    """How many times OpenSSH (sshd or ssh) took new keys, from its DEBUG1 log: the first key exchange of
    each connection and every rekey."""
    with open(log_path, errors="replace") as f:
        return len(re.findall(r"SSH2_MSG_NEWKEYS received", f.read()))


# ---------------------------------------------------------------- 2. OpenSSH ssh -> asyncssh server


async def serve(process):
    cmd = process.command or ""
    try:
        if cmd.startswith("echo "):
            process.stdout.write(b"libaead-ssh " + cmd[5:].encode() + b"\n")
        elif cmd == "sha256":
            digest, n, _ = await hash_stream(process.stdin.read)
            process.stdout.write(("%s %d\n" % (digest, n)).encode())
        elif cmd.startswith("send "):
            _, token, count = cmd.split()
            h = hashlib.sha256()
            async for piece in chunks(int(count)):
                h.update(piece)
                process.stdout.write(piece)
                await process.stdout.drain()
            SENT_DIGESTS[token] = h.hexdigest()
        else:
            process.stderr.write(b"unknown command\n")
            process.exit(127)
            return
        process.exit(0)
    except Exception as exc:  # noqa: BLE001 - reported through the exit status and the driver's checks
        process.stderr.write(("server error: %r\n" % exc).encode())
        process.exit(1)


def ssh_cmd(args, port, cipher, log, command):
    return ["ssh", "-F", "none", "-v", "-E", log, "-p", str(port), "-i", args.client_key,
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
            "-o", "UserKnownHostsFile=%s" % args.server_known_hosts, "-o", "GlobalKnownHostsFile=/dev/null",
            "-o", "StrictHostKeyChecking=yes", "-o", "UpdateHostKeys=no", "-o", "Ciphers=%s" % cipher,
            "-o", "RekeyLimit=%d" % args.rekey_bytes, "%s@127.0.0.1" % args.user, command]


async def run_ssh(args, port, cipher, log, command, feed=None):
    """Runs OpenSSH's ssh; feed: bytes to send on its stdin (None: nothing). Returns (rc, stdout sha256,
    stdout bytes, stdout head)."""
    proc = await asyncio.create_subprocess_exec(*ssh_cmd(args, port, cipher, log, command),
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)

    async def writer():
        if feed is not None:
            async for piece in feed:
                proc.stdin.write(piece)
                await proc.stdin.drain()
        proc.stdin.close()

    _, (digest, got, head) = await asyncio.gather(writer(), hash_stream(proc.stdout.read))
    rc = await proc.wait()
    return rc, digest, got, head


async def ssh_to_server(args, port, cipher):
    label = "OpenSSH ssh -> asyncssh server (libaead), %s" % cipher
    before = STATS.snapshot()
    transfers = []
    tag = cipher.split("-")[0]
    token = secrets.token_hex(8)
    log = os.path.join(args.work, "ssh-%s-echo.log" % tag)
    rc, _, _, head = await run_ssh(args, port, cipher, log, "echo %s" % token)
    check(rc == 0 and head == ("libaead-ssh %s\n" % token).encode(), "%s: the command gave %r (exit %d)" % (label, head, rc))
    with open(log, errors="replace") as f:
        text = f.read()
    check("kex: server->client cipher: %s" % cipher in text and "kex: client->server cipher: %s" % cipher in text,
          "%s: ssh's log does not show %s negotiated both ways" % (label, cipher))

    log = os.path.join(args.work, "ssh-%s-up.log" % tag)
    h = hashlib.sha256()

    async def hashed():
        async for piece in chunks(args.bytes):
            h.update(piece)
            yield piece

    t0 = time.monotonic()
    rc, _, _, head = await run_ssh(args, port, cipher, log, "sha256", hashed())
    secs = time.monotonic() - t0
    want = ("%s %d\n" % (h.hexdigest(), args.bytes)).encode()
    transfers.append(("up", args.bytes, secs, check(rc == 0 and head == want, "%s: up: server answered %r, here %r (exit %d)"
                                                    % (label, head, want, rc)), h.hexdigest()))
    kex_up = newkeys_received(log)

    log = os.path.join(args.work, "ssh-%s-down.log" % tag)
    token = secrets.token_hex(8)
    t0 = time.monotonic()
    rc, digest, got, _ = await run_ssh(args, port, cipher, log, "send %s %d" % (token, args.bytes))
    secs = time.monotonic() - t0
    far = SENT_DIGESTS.get(token, "(none)")
    transfers.append(("down", got, secs, check(rc == 0 and got == args.bytes and digest == far,
                                               "%s: down: %d bytes, sha256 here %s, server %s (exit %d)"
                                               % (label, got, digest, far, rc)), digest))
    kex_down = newkeys_received(log)
    d = delta(before, STATS.snapshot())
    report(label, d, transfers)
    print("ssh:   %s: OpenSSH ssh took new keys %d times on the upload's connection, %d on the download's (each: the "
          "first key exchange and the rekeys; RekeyLimit %d)" % (label, kex_up, kex_down, args.rekey_bytes), flush=True)
    check(kex_up >= 2 and kex_down >= 2, "%s: OpenSSH did not rekey (%d, %d key exchanges)" % (label, kex_up, kex_down))
    # three connections: one key pair each, plus the rekeys
    check(d["keys"] >= 2 * (3 + 2), "%s: asyncssh made %d keys over three connections with two rekeys" % (label, d["keys"]))
    return d


async def main_async(args):
    libaead_gcm.self_test()
    print("ssh: self-test: libaead's SSH packets equal asyncssh's stock GCM ones; a repeated invocation counter and "
          "a 3-byte AAD are refused", flush=True)
    libaead_gcm.install()
    totals = {}
    t_all = time.monotonic()
    for cipher in CIPHERS:
        sshd_before = newkeys_received(args.sshd_log)
        d = await asyncio.wait_for(client_to_sshd(args, cipher), args.timeout)
        await asyncio.sleep(0.2)  # sshd's log line of the last NEWKEYS
        sshd_kex = newkeys_received(args.sshd_log) - sshd_before
        print("ssh:   asyncssh client -> OpenSSH sshd, %s: sshd took new keys %d times (the first key exchange and %d "
              "rekey%s)" % (cipher, sshd_kex, sshd_kex - 1, "" if sshd_kex == 2 else "s"), flush=True)
        check(sshd_kex >= 2, "OpenSSH's sshd did not take new keys twice (%d) with %s" % (sshd_kex, cipher))
        totals["client " + cipher] = d

    server = await asyncssh.listen("127.0.0.1", 0, server_host_keys=[args.host_key],
                                   authorized_client_keys=args.authorized_keys, encryption_algs=CIPHERS,
                                   process_factory=serve, encoding=None, allow_pty=False, config=[])
    port = server.sockets[0].getsockname()[1]
    try:
        with open(args.server_known_hosts, "w") as f:
            f.write("[127.0.0.1]:%d %s" % (port, open(args.host_key + ".pub").read()))
        for cipher in CIPHERS:
            totals["server " + cipher] = await asyncio.wait_for(ssh_to_server(args, port, cipher), args.timeout)
    finally:
        server.close()
        await server.wait_closed()

    libaead_gcm.check_installed()
    lib_seals = STATS.libaead_seals()
    check(lib_seals == STATS.sealed, "libaead's usage counters say %d seals, the shim counted %d" % (lib_seals, STATS.sealed))
    check(STATS.failed == 0, "%d packets failed authentication" % STATS.failed)
    check(STATS.sealed > 0 and STATS.opened > 0, "no packet went through libaead")
    print("ssh: libaead %s (%s backend): %d packets sealed (%.1f MiB; libaead's own count %d), %d opened (%.1f MiB), "
          "0 failed; %d keys; stock AES-GCM path entered 0 times; %.1f s"
          % (libaead.library_version(), libaead.backend, STATS.sealed, STATS.sealed_bytes / MIB, lib_seals, STATS.opened,
             STATS.opened_bytes / MIB, STATS.keys, time.monotonic() - t_all), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sshd-port", type=int, required=True)
    p.add_argument("--sshd-log", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--client-key", required=True)
    p.add_argument("--known-hosts", required=True, help="sshd's host key, for the asyncssh client")
    p.add_argument("--host-key", required=True, help="the asyncssh server's host key (and .pub)")
    p.add_argument("--authorized-keys", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--bytes", type=int, default=64 * MIB)
    p.add_argument("--rekey-bytes", type=int, help="asyncssh's rekey_bytes and ssh's RekeyLimit (default: 5/8 of --bytes)")
    p.add_argument("--timeout", type=float, default=60.0)
    args = p.parse_args()
    if args.rekey_bytes is None:
        args.rekey_bytes = max(args.bytes * 5 // 8, 1 << 16)  # one rekey inside each transfer
    args.server_known_hosts = os.path.join(args.work, "known_hosts_asyncssh")
    try:
        asyncio.run(main_async(args))
    except Exception as exc:  # noqa: BLE001 - any error fails the stage, with its reason
        check(False, "%s: %s" % (type(exc).__name__, exc))
    if FAILURES:
        print("ssh: %d check(s) failed" % len(FAILURES), flush=True)
        sys.exit(1)
    print("ssh: all checks passed", flush=True)


if __name__ == "__main__":
    main()
