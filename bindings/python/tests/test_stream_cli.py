"""python -m libaead.stream: the three formats both ways (age against the age command), failures exit
non-zero and leave no output file, no binary output to a terminal, the progress bar on a terminal, and
memory flat in the stream's length."""

import os
import pty
import shutil
import subprocess
import sys

import pytest

from libaead import agefile

CLI = [sys.executable, "-m", "libaead.stream"]
KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def run(args, stdin_path, **kw):
    with open(stdin_path, "rb") as f:
        return subprocess.run(CLI + args, stdin=f, capture_output=True, **kw)


@pytest.mark.parametrize("fmt,enc,dec", [
    ("tink", ["--key-hex", KEY, "--hash", "SHA512", "--segment-size", "1000", "--ad", "name"],
     ["--key-hex", KEY, "--hash", "SHA512", "--segment-size", "1000", "--ad", "name"]),
    ("rfc8188", ["--key-hex", KEY[:32], "--rs", "300", "--keyid", "k1", "--pad", "5"], ["--key-hex", KEY[:32]]),
    ("age", None, None),
])
def test_round_trip_and_failure(fmt, enc, dec, tmp_path, rng):
    data = rng.randbytes(rng.randrange(100_000, 300_000))
    (tmp_path / "in").write_bytes(data)
    if fmt == "age":
        ident, rec = agefile.generate_identity()
        (tmp_path / "id").write_text(ident + "\n")
        enc, dec = ["-r", rec], ["-i", str(tmp_path / "id")]
    r = run(["encrypt", fmt] + enc + ["-o", str(tmp_path / "ct")], tmp_path / "in")
    assert r.returncode == 0, r.stderr
    r = run(["decrypt", fmt] + dec + ["-o", str(tmp_path / "out")], tmp_path / "ct")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out").read_bytes() == data
    r = run(["decrypt", fmt] + dec, tmp_path / "ct")  # to a pipe
    assert r.returncode == 0 and r.stdout == data
    if fmt == "age":
        a = subprocess.run([shutil.which("age"), "-d", "-i", str(tmp_path / "id"), str(tmp_path / "ct")],
                           capture_output=True)
        assert a.returncode == 0 and a.stdout == data
    # cut by one byte: exit 1, and neither the output file nor a temporary file is left
    ct = (tmp_path / "ct").read_bytes()
    (tmp_path / "cut").write_bytes(ct[:-1])
    r = run(["decrypt", fmt] + dec + ["-o", str(tmp_path / "out2")], tmp_path / "cut")
    assert r.returncode == 1 and b"does not authenticate" in r.stderr
    assert sorted(os.listdir(tmp_path)) == sorted(["in", "ct", "out", "cut"] + (["id"] if fmt == "age" else []))


def test_refuses_terminal_output_and_shows_progress(tmp_path, rng):
    data = rng.randbytes(6 << 20)
    (tmp_path / "in").write_bytes(data)
    for op in ("encrypt", "decrypt"):
        master, slave = pty.openpty()
        try:
            with open(tmp_path / "in", "rb") as f:
                r = subprocess.run(CLI + [op, "rfc8188", "--key-hex", KEY[:32]], stdin=f, stdout=slave,
                                   stderr=subprocess.PIPE)
        finally:
            os.close(slave)
            os.close(master)
        assert r.returncode == 2 and b"refusing to write" in r.stderr
    # stderr a terminal, input over 4 MiB: a progress bar with the throughput
    master, slave = pty.openpty()
    try:
        with open(tmp_path / "in", "rb") as f:
            r = subprocess.run(CLI + ["encrypt", "rfc8188", "--key-hex", KEY[:32], "-o", str(tmp_path / "ct")],
                               stdin=f, stderr=slave)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    assert r.returncode == 0
    assert b"100.0%" in seen and b"MiB/s" in seen
    r = run(["decrypt", "rfc8188", "--key-hex", KEY[:32]], tmp_path / "ct")
    assert r.returncode == 0 and r.stdout == data and r.stderr == b""  # not a terminal: no bar


def test_usage_errors(tmp_path):
    (tmp_path / "in").write_bytes(b"data")
    for args in (["encrypt", "tink"], ["decrypt", "rfc8188"], ["encrypt", "age"], ["decrypt", "age"],
                 ["encrypt", "rfc8188", "--key-hex", "zz"]):
        r = run(args + ["-o", str(tmp_path / "out")], tmp_path / "in")
        assert r.returncode == 2, (args, r.stderr)
    assert sorted(os.listdir(tmp_path)) in (["in"], ["in", "out"])  # encrypt opens its output first


PEAK = ("import resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as i, open(sys.argv[2], 'wb') as o:\n"
        "    subprocess.run(sys.argv[3:], stdin=i, stdout=o, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def peak_kib(args, src, dst):
    """The command's peak RSS in KiB, measured by a small parent (a child's peak counts its parent's
    pages at fork, so the test process itself cannot be the parent)."""
    r = subprocess.run([sys.executable, "-c", PEAK, str(src), str(dst)] + CLI + args, capture_output=True, check=True)
    return int(r.stdout)


def test_memory_stays_flat_with_the_stream_length(tmp_path):
    """A 128 MiB stream through the command peaks at the RSS of a 4 MiB one (within 8 MiB), both ways."""
    ident, rec = agefile.generate_identity()
    (tmp_path / "id").write_text(ident + "\n")
    peaks = {}
    for mib in (4, 128):
        plain = tmp_path / ("p%d" % mib)
        with open(plain, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
        ct, back = tmp_path / ("c%d" % mib), tmp_path / ("b%d" % mib)
        peaks[mib] = (peak_kib(["encrypt", "age", "-r", rec], plain, ct),
                      peak_kib(["decrypt", "age", "-i", str(tmp_path / "id")], ct, back))
        assert back.stat().st_size == plain.stat().st_size
        for p in (plain, ct, back):
            p.unlink()
    for small, large in zip(peaks[4], peaks[128]):
        assert large - small < 8 << 10, peaks
