"""age files: the age command (Debian's age, tests/setup.sh) against libaead.agefile (header in Python, payload
through libaead's STREAM), both directions, and the same verdict on cut, reordered and extended files."""

import io
import os
import shutil
import subprocess

import pytest

import libaead
from libaead import agefile
from libaead import stream as st

from conftest import report_vectors

COUNT = 200
CHUNK = 65536
CT_CHUNK = CHUNK + 16


def _age():
    path = shutil.which("age")
    assert path, "the age command is needed (tests/setup.sh installs Debian's age)"
    return path


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """Two identities: one from age-keygen, one from libaead.agefile; files hold both."""
    d = tmp_path_factory.mktemp("age")
    out = subprocess.run([shutil.which("age-keygen") or "age-keygen"], capture_output=True, check=True).stdout.decode()
    keygen = [line for line in out.splitlines() if line.startswith("AGE-SECRET-KEY-1")][0]
    ours, ours_rec = agefile.generate_identity()
    paths = []
    for name, ident in (("keygen", keygen), ("ours", ours)):
        p = d / name
        p.write_text(ident + "\n")
        paths.append(str(p))
    assert agefile.recipient_of(keygen) in out  # age-keygen prints "# public key: age1..."
    return {"identities": [keygen, ours], "recipients": [agefile.recipient_of(keygen), ours_rec], "files": paths}


def _sizes(rng):
    fixed = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 1, 3 * 1024 * 1024 + 7]
    return fixed + [rng.choice([rng.randrange(0, 4 * CHUNK), rng.randrange(0, 2000)]) for _ in range(COUNT - len(fixed))]


def test_age_to_libaead(rng, keys):
    age = _age()
    n_files = 0
    for n in _sizes(rng):
        data = rng.randbytes(n)
        which = rng.randrange(3)  # recipient 0, 1 or both
        args = [age]
        for i in ((0,), (1,), (0, 1))[which]:
            args += ["-r", keys["recipients"][i]]
        ct = subprocess.run(args, input=data, capture_output=True, check=True).stdout
        ident = keys["identities"][1 if which == 1 else rng.randrange(2) if which == 2 else 0]
        with agefile.open_reader(io.BytesIO(ct), [ident]) as r:
            got = b"".join(iter(lambda: r.read(rng.randrange(1, 3 * CHUNK)), b""))
        assert got == data, n
        # the wrong identity does not open it
        if which != 2:
            with pytest.raises(agefile.NoIdentityMatch):
                agefile.decrypt(ct, [keys["identities"][1 - which]])
        n_files += 1
    assert n_files >= COUNT
    report_vectors("interop age -r (Debian's age) -> libaead.agefile", n_files, 0)


def test_libaead_to_age(rng, keys, tmp_path):
    age = _age()
    n_files = 0
    for n in _sizes(rng):
        data = rng.randbytes(n)
        which = rng.randrange(3)
        recs = [keys["recipients"][i] for i in ((0,), (1,), (0, 1))[which]]
        out = io.BytesIO()
        with agefile.open_writer(out, recs) as w:
            pos = 0
            while pos < n:
                step = rng.choice([1, 1000, CHUNK, CHUNK + 1, n])
                w.write(data[pos:pos + step])
                pos += step
        ct = out.getvalue()
        idfile = keys["files"][1 if which == 1 else 0]
        r = subprocess.run([age, "-d", "-i", idfile], input=ct, capture_output=True)
        assert r.returncode == 0, r.stderr
        assert r.stdout == data, n
        n_files += 1
    assert n_files >= COUNT
    report_vectors("interop libaead.agefile -> age -d (Debian's age)", n_files, 0)


def _age_opens(ct, idfile):
    r = subprocess.run([_age(), "-d", "-i", idfile], input=ct, capture_output=True)
    return r.returncode == 0, r.stdout


def _ours_opens(ct, ident):
    try:
        return True, agefile.decrypt(ct, [ident])
    except libaead.InvalidTag:
        return False, b""


def _header_len(ct):
    return ct.index(b"\n---") + ct[ct.index(b"\n---") + 1:].index(b"\n") + 2


def test_same_verdict_on_cut_reordered_extended(rng, keys):
    """Files made by age, then cut (at chunk boundaries and inside chunks), with chunks swapped, dropped or
    repeated, and with data after the final chunk: age -d and libaead accept and refuse the same ones."""
    total = agree = refused = 0
    for n in (0, 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 500, 4 * CHUNK - 1):
        data = rng.randbytes(n)
        ct = subprocess.run([_age(), "-r", keys["recipients"][0]], input=data, capture_output=True, check=True).stdout
        hl = _header_len(ct) + 16  # header, then the payload's nonce
        body = ct[hl:]
        chunks = [body[i:i + CT_CHUNK] for i in range(0, len(body), CT_CHUNK)]
        variants = [("intact", ct)]
        for k in range(len(chunks)):
            variants.append(("cut after chunk %d" % k, ct[:hl] + b"".join(chunks[:k])))
            variants.append(("cut inside chunk %d" % k, ct[:hl + k * CT_CHUNK + rng.randrange(1, len(chunks[k]))]))
        variants.append(("cut in the nonce", ct[:hl - rng.randrange(1, 17)]))
        if len(chunks) > 1:
            variants.append(("first two swapped", ct[:hl] + b"".join([chunks[1], chunks[0]] + chunks[2:])))
            variants.append(("first dropped", ct[:hl] + b"".join(chunks[1:])))
            variants.append(("first repeated", ct[:hl] + b"".join(chunks[:1] + chunks)))
        if len(chunks) > 2 and len(chunks[-1]) == CT_CHUNK:
            variants.append(("last two swapped", ct[:hl] + b"".join(chunks[:-2] + [chunks[-1], chunks[-2]])))
        variants += [("extended by a byte", ct + b"\x00"), ("final repeated", ct + chunks[-1]),
                     ("extended by a chunk", ct + chunks[0]), ("a bit flipped", _flip(ct, hl, rng))]
        for name, v in variants:
            ok_age, pt_age = _age_opens(v, keys["files"][0])
            ok_ours, pt_ours = _ours_opens(v, keys["identities"][0])
            total += 1
            assert ok_age == ok_ours, (n, name, ok_age, ok_ours)
            assert ok_ours == (name == "intact"), (n, name)
            if ok_ours:
                assert pt_ours == pt_age == data
            else:
                refused += 1
            agree += 1
    assert agree == total and refused == total - 7
    report_vectors("age -d and libaead on cut, reordered, extended and changed files (same verdict)",
                   total - refused, refused)


def _flip(ct, start, rng):
    b = bytearray(ct)
    pos = rng.randrange(start, len(b))
    b[pos] ^= 1 << rng.randrange(8)
    return bytes(b)


def test_header_checked(rng, keys):
    data = rng.randbytes(1000)
    ct = agefile.encrypt(data, keys["recipients"][:1])
    hl = _header_len(ct)
    for _ in range(50):
        bad = _flip(ct, 0, rng)
        pos = next(i for i in range(len(ct)) if bad[i] != ct[i])
        if pos >= hl:
            continue
        with pytest.raises(libaead.InvalidTag):
            agefile.decrypt(bad, keys["identities"][:1])
        assert not _age_opens(bad, keys["files"][0])[0]
    with pytest.raises(libaead.InvalidTag):
        agefile.decrypt(b"age-encryption.org/v1\n-> X25519 ", keys["identities"][:1])
    with pytest.raises(ValueError):
        agefile.recipient_of("AGE-SECRET-KEY-1" + "Q" * 58)


def test_payload_key_and_nonce():
    """The payload alone: a reader under another file key refuses it at the first chunk."""
    out = io.BytesIO()
    key = os.urandom(16)
    with st.AgePayloadWriter(out, key) as w:
        w.write(b"x" * (CHUNK + 1))
    ct = out.getvalue()
    assert len(ct) == 16 + CT_CHUNK + 1 + 16
    with pytest.raises(libaead.InvalidTag):
        st.AgePayloadReader(io.BytesIO(ct), bytes(16)).read()
    with pytest.raises(ValueError):
        st.AgePayloadWriter(io.BytesIO(), bytes(15))
