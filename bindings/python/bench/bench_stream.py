"""Benchmark (not a test): libaead.stream against Tink Python's streaming AEAD (AES128_GCM_HKDF_4KB and _1MB
templates, from a cleartext keyset holding the same raw key) and http_ece (RFC 8188 aes128gcm, rs 4096),
side by side in one process on the same plaintext; and the command `python -m libaead.stream ... age`
against the `age` command (X25519 recipient, file to file through standard input and output, process
start-up included), with each command's peak RSS. Each side's output is opened by the other first.
Every cell is the best of interleaved rounds (libaead, peer, libaead, peer, ...); the ratio is libaead's
throughput over the peer's (above 1 = libaead faster).

Usage: python3 bench/bench_stream.py [--mib N] [--rounds N] [--ece-mib N] [--json PATH]   (with tink, http_ece, age)
"""

import argparse
import importlib.metadata
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import http_ece

import libaead
from libaead import stream as st

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from test_stream_interop import tink_primitive  # noqa: E402  (the tests' keyset builder, one copy)

CHUNK = 1 << 16


class Kept(io.BytesIO):
    """A BytesIO whose bytes outlive close() (Tink's writers close their destination)."""

    def close(self):
        self.kept = self.getvalue()
        super().close()


class Sink(io.RawIOBase):
    def writable(self):
        return True

    def write(self, b):
        return len(b)


def through(make_writer, data):
    """Writes data through a writer in CHUNK pieces into a sink."""
    w = make_writer(Sink())
    view = memoryview(data)
    for off in range(0, len(view), CHUNK):
        w.write(view[off:off + CHUNK])
    w.close()


def drain(reader):
    while reader.read(CHUNK):
        pass
    reader.close()


def mbps(fn, nbytes):
    t0 = time.perf_counter()
    fn()
    return nbytes / (time.perf_counter() - t0) / 1e6


def command(argv, src, dst=os.devnull):
    """Runs argv with the file src as standard input and dst as standard output; fails on a non-zero exit."""
    with open(src, "rb") as i, open(dst, "wb") as o:
        subprocess.run(argv, stdin=i, stdout=o, check=True)


def age_cells(cells, data, tmp):
    """The age rows: both commands encrypt the same file to one recipient and decrypt the other's output."""
    age, keygen = shutil.which("age"), shutil.which("age-keygen")
    if not age or not keygen:
        raise SystemExit("bench_stream: the age and age-keygen commands are needed (tests/setup.sh installs them)")
    identity = os.path.join(tmp, "key.txt")
    subprocess.run([keygen, "-o", identity], check=True, capture_output=True)
    recipient = subprocess.run([keygen, "-y", identity], check=True, capture_output=True, text=True).stdout.strip()
    plain, ours_ct, age_ct, back = (os.path.join(tmp, n) for n in ("plain", "ours.age", "age.age", "back"))
    with open(plain, "wb") as f:
        f.write(data)
    cli = [sys.executable, "-m", "libaead.stream"]
    enc_ours, enc_age = cli + ["encrypt", "age", "-r", recipient], [age, "-e", "-r", recipient]
    dec_ours, dec_age = cli + ["decrypt", "age", "-i", identity], [age, "-d", "-i", identity]
    command(enc_ours, plain, ours_ct)
    command(enc_age, plain, age_ct)
    for argv, src in ((dec_age, ours_ct), (dec_ours, age_ct)):
        command(argv, src, back)
        with open(back, "rb") as f:
            assert f.read() == data, "%s did not decrypt the other side's file" % argv[0]
    version = subprocess.run([age, "--version"], capture_output=True, text=True).stdout.strip()
    what, peer = "age, X25519 recipient (python -m libaead.stream)", "the age %s command" % version
    cells[(what, peer, "encrypt")] = (
        lambda: command(enc_ours, plain), lambda: command(enc_age, plain))
    cells[(what, peer, "decrypt")] = (
        lambda: command(dec_ours, ours_ct), lambda: command(dec_age, ours_ct))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ece-mib", type=int, default=4, help="the http_ece rows' body (its cost grows with the square)")
    ap.add_argument("--json")
    args = ap.parse_args()
    data = os.urandom(args.mib << 20)
    key, ad = os.urandom(16), b"bench"
    cells = {}
    tink_peer = "Tink Python " + importlib.metadata.version("tink")
    ece_peer = "http_ece " + importlib.metadata.version("http_ece")
    for name, seg in (("AES128_GCM_HKDF_4KB", 4096), ("AES128_GCM_HKDF_1MB", 1 << 20)):
        ours = st.AesGcmHkdfStreaming(key, key_size=16, hkdf_hash="SHA256", segment_size=seg)
        tink = tink_primitive(key, 16, "SHA256", seg)
        buf_ours, buf_tink = Kept(), Kept()
        through(lambda s: ours.new_encrypting_stream(buf_ours, ad), data)
        through(lambda s: tink.new_encrypting_stream(buf_tink, ad), data)
        ct_ours, ct_tink = buf_ours.kept, buf_tink.kept
        assert tink.new_decrypting_stream(io.BytesIO(ct_ours), ad).read() == data
        assert ours.new_decrypting_stream(io.BytesIO(ct_tink), ad).read() == data
        cells[("Tink " + name, tink_peer, "encrypt")] = (
            lambda o=ours: through(lambda s: o.new_encrypting_stream(s, ad), data),
            lambda t=tink: through(lambda s: t.new_encrypting_stream(s, ad), data))
        cells[("Tink " + name, tink_peer, "decrypt")] = (
            lambda o=ours, c=ct_ours: drain(o.new_decrypting_stream(io.BytesIO(c), ad)),
            lambda t=tink, c=ct_ours: drain(t.new_decrypting_stream(io.BytesIO(c), ad)))
    small = data[:args.ece_mib << 20]
    body = st.encrypt(small, key, rs=4096)
    assert http_ece.decrypt(body, key=key, version="aes128gcm") == small
    ece = "RFC 8188 rs 4096, %d MiB bodies" % args.ece_mib
    cells[(ece, ece_peer, "encrypt")] = (
        lambda: st.encrypt(small, key, rs=4096), lambda: http_ece.encrypt(small, key=key, rs=4096, version="aes128gcm"),
        len(small))
    cells[(ece, ece_peer, "decrypt")] = (
        lambda: st.decrypt(body, key), lambda: http_ece.decrypt(body, key=key, version="aes128gcm"), len(small))
    tmp = tempfile.mkdtemp()
    try:
        age_cells(cells, data, tmp)
        best = measure(cells, len(data), args.rounds)
    finally:
        shutil.rmtree(tmp)
    print("%s; Python %s; %d MiB, best of %d interleaved rounds" % (libaead.library_version(), sys.version.split()[0],
                                                                     args.mib, args.rounds))
    print("| stream | direction | libaead MB/s | peer | peer MB/s | libaead / peer |")
    print("|---|---|---:|---|---:|---:|")
    rows = []
    for (what, peer, direction), (a, b) in best.items():
        print("| %s | %s | %.0f | %s | %.0f | %.2f |" % (what, direction, a, peer, b, a / b))
        rows.append({"stream": what, "peer": peer, "direction": direction, "libaead_mbps": round(a),
                     "peer_mbps": round(b), "ratio": round(a / b, 2)})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"library": libaead.library_version(), "python": sys.version.split()[0], "mib": args.mib,
                       "rounds": args.rounds, "rows": rows}, f, indent=1)


def measure(cells, n, rounds):
    """Best MB/s of each side; a cell's third item, where present, is its own byte count."""
    best = {k: [0.0, 0.0] for k in cells}
    for _ in range(rounds):
        for k, (a, b, *size) in cells.items():
            best[k][0] = max(best[k][0], mbps(a, size[0] if size else n))
            best[k][1] = max(best[k][1], mbps(b, size[0] if size else n))
    return best


if __name__ == "__main__":
    main()
