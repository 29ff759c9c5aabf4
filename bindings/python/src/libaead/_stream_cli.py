"""``python -m libaead.stream``: encrypt or decrypt a stream in one of the three formats.

    python -m libaead.stream encrypt age -r age1... < file > file.age
    python -m libaead.stream decrypt age -i key.txt -o file < file.age
    python -m libaead.stream encrypt tink --key-file k --segment-size 1048576 --ad name < in > out
    python -m libaead.stream decrypt rfc8188 --key-file k < body > out

Input is standard input, output standard output or ``-o FILE``. Decrypted output goes to a temporary file
beside ``-o FILE`` that is renamed to it only once the whole stream authenticated (to standard output,
each segment is written once it authenticated; a failure later still exits non-zero). Binary output is
never written to a terminal. On a terminal, inputs over 4 MiB show a progress bar with the throughput.
Exit status: 0 on success, 1 when the input does not authenticate, 2 on a usage error.
"""

import argparse
import os
import stat
import sys
import tempfile
import time
from typing import Any, List, Optional

PROGRESS_MIN = 4 << 20


class _Usage(Exception):
    """A usage error: exit status 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m libaead.stream",
                                description="Streaming AEAD: Tink AES-GCM-HKDF, age files, RFC 8188 aes128gcm.")
    p.add_argument("op", choices=["encrypt", "decrypt"])
    p.add_argument("format", choices=["tink", "age", "rfc8188"])
    p.add_argument("-o", "--output", help="output file (default: standard output)")
    p.add_argument("--key-file", help="tink: the raw key; rfc8188: the input keying material")
    p.add_argument("--key-hex", help="the key as hex, instead of --key-file")
    p.add_argument("--key-size", type=int, default=32, help="tink: derived AES key size, 16 or 32 (default 32)")
    p.add_argument("--hash", default="SHA256", choices=["SHA1", "SHA256", "SHA512"], help="tink: HKDF hash")
    p.add_argument("--segment-size", type=int, default=4096, help="tink: ciphertext segment size (default 4096)")
    p.add_argument("--ad", default="", help="tink: associated data (UTF-8)")
    p.add_argument("--rs", type=int, default=4096, help="rfc8188 encrypt: record size (default 4096)")
    p.add_argument("--keyid", default="", help="rfc8188 encrypt: keyid (UTF-8)")
    p.add_argument("--pad", type=int, default=0, help="rfc8188 encrypt: zero padding in the last record")
    p.add_argument("--max-rs", type=int, default=None, help="rfc8188 decrypt: largest record size taken")
    p.add_argument("-r", "--recipient", action="append", default=[], help="age encrypt: an age1... recipient")
    p.add_argument("-i", "--identity", action="append", default=[],
                   help="age decrypt: a file of AGE-SECRET-KEY-1... identities")
    return p


def _key(args: Any) -> bytes:
    if args.key_hex is not None:
        return bytes.fromhex(args.key_hex)
    if args.key_file is not None:
        with open(args.key_file, "rb") as f:
            return f.read()
    raise _Usage("%s needs --key-file or --key-hex" % args.format)


def _identities(paths: List[str]) -> List[str]:
    out = []
    for path in paths:
        with open(path) as f:
            out += [line.strip() for line in f if line.strip().startswith("AGE-SECRET-KEY-1")]
    if not out:
        raise _Usage("age decrypt needs -i with an AGE-SECRET-KEY-1... identity")
    return out


class _Progress:
    """Counts bytes read from the input; draws a bar on standard error when that is a terminal and the input
    is a file of more than PROGRESS_MIN bytes."""

    def __init__(self, src: Any, total: Optional[int]) -> None:
        self.src = src
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.on = total is not None and total > PROGRESS_MIN and sys.stderr.isatty()

    def read(self, n: int = -1) -> bytes:
        b: bytes = self.src.read(n)
        self.done += len(b)
        if self.on:
            now = time.monotonic()
            if now - self.last > 0.1 or not b:
                self.last = now
                self.draw(now)
        return b

    def draw(self, now: float) -> None:
        total = self.total or 1
        frac = min(self.done / total, 1.0)
        rate = self.done / max(now - self.start, 1e-6) / (1 << 20)
        bar = "#" * int(frac * 30)
        sys.stderr.write("\r[%-30s] %5.1f%% %8.1f MiB %7.1f MiB/s" % (bar, 100 * frac, self.done / (1 << 20), rate))
        sys.stderr.flush()

    def finish(self) -> None:
        if self.on:
            self.draw(time.monotonic())
            sys.stderr.write("\n")


def main(argv: Optional[List[str]] = None) -> int:
    import libaead
    from libaead import agefile
    from libaead import stream as st

    args = _parser().parse_args(argv)
    if args.output is None and sys.stdout.isatty():
        what = "plaintext" if args.op == "decrypt" else "binary ciphertext"
        sys.stderr.write("libaead.stream: refusing to write %s to a terminal; use -o FILE or a pipe\n" % what)
        return 2
    stdin = sys.stdin.buffer
    total: Optional[int] = None
    try:
        info = os.fstat(stdin.fileno())
        if stat.S_ISREG(info.st_mode):
            total = info.st_size
    except (OSError, ValueError):
        pass
    src = _Progress(stdin, total)
    tmp = None
    try:
        if args.output is None:
            dst: Any = sys.stdout.buffer
        elif args.op == "decrypt":
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.output)),
                                       prefix=".%s." % os.path.basename(args.output), suffix=".part")
            dst = os.fdopen(fd, "wb")
        else:
            dst = open(args.output, "wb")
        try:
            if args.op == "encrypt":
                if args.format == "tink":
                    t = st.AesGcmHkdfStreaming(_key(args), key_size=args.key_size, hkdf_hash=args.hash,
                                               segment_size=args.segment_size)
                    w: Any = st.StreamWriter(dst, t._params(args.ad.encode()))
                elif args.format == "age":
                    if not args.recipient:
                        raise _Usage("age encrypt needs -r age1...")
                    w = agefile.open_writer(dst, args.recipient)
                else:
                    w = st.RFC8188Writer(dst, _key(args), rs=args.rs, keyid=args.keyid.encode(),
                                         final_padding=args.pad)
                with w:
                    _copy(src, w)
            else:
                if args.format == "tink":
                    t = st.AesGcmHkdfStreaming(_key(args), key_size=args.key_size, hkdf_hash=args.hash,
                                               segment_size=args.segment_size)
                    r: Any = st.StreamReader(src, t._params(args.ad.encode()))
                elif args.format == "age":
                    r = agefile.open_reader(src, _identities(args.identity))
                else:
                    r = st.RFC8188Reader(src, _key(args), max_rs=args.max_rs or st.MAX_SEGMENT)
                with r:
                    _copy(r, dst)
            dst.flush()
        finally:
            if dst is not sys.stdout.buffer:
                dst.close()
        src.finish()
        if tmp is not None:
            os.replace(tmp, args.output)
            tmp = None
        return 0
    except libaead.InvalidTag as e:
        sys.stderr.write("\nlibaead.stream: the input does not authenticate%s\n" % (": %s" % e if str(e) else ""))
        return 1
    except (_Usage, ValueError, OSError) as e:
        sys.stderr.write("\nlibaead.stream: %s\n" % e)
        return 2
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _copy(src: Any, dst: Any) -> None:
    while True:
        b = src.read(1 << 16)
        if not b:
            return
        dst.write(b)
