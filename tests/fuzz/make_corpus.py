#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_seal_open (tests/fuzz/corpus/) from the conformance vectors, and the
seeds of its DTLS modes (tests/fuzz/corpus-dtls12/, corpus-dtls13/, corpus-quic-window/; synthetic).

Usage (from anywhere): python3 tests/fuzz/make_corpus.py [--dtls-only]
Reads $AEAD_VECTORS_DIR, or the directory tests/vectors.py prints (it fetches the vectors, pinned and
checksummed, from crates.io and PyPI), and fails if they are missing (--dtls-only writes only the DTLS
seeds, which need no vectors). Deterministic: the same vectors give the same files. Replaces every file
in the folders it writes.

The byte format is the one decoded by fuzz_seal_open.cpp (all integers little-endian):
  header: alg u8 (alg id - 1), policy u8, keysel u8 (0: key of the algorithm's size), tagsel u8
          (tag length, 0 = default), nops u8 (nops - 1), key bytes
  per op: opb u8 (0 seal, 1 open, 3 bad op), flags u8, nonce-len u16 + nonce (0xFFFF: structured TLS
          nonce = sel u8, prefix 4 bytes, base u64 big-endian), aad-len u16 + aad (0xFFFF: the policy's
          AAD size), in-len u16 + in (0xFFFF: the last sealed message), outcap u8 (0: exact), place u8
          (0 separate, 1 in-place, 2/3/4 out placed around in/aad/nonce), delta u16, tamper-pos u16,
          tamper-mask u8, rt u8
"""
import hashlib
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VECTORS = None  # found by need_vectors()
OUT = os.path.join(HERE, "corpus")

AES128, AES192, AES256, CHACHA = 1, 2, 3, 4
NONE, TLS12, TLS13 = 0, 1, 2
SEAL, OPEN = 0, 1


def header(alg, policy, key, tag=0, nops=1, keysel=0, alg_byte=None):
    a = alg - 1 if alg_byte is None else alg_byte
    return bytes([a, policy, keysel, tag, nops - 1]) + key


def u16(v):
    return struct.pack("<H", v)


def op(kind, nonce=b"", aad=b"", data=b"", flags=0, outcap=0, place=0, delta=0, tpos=0, tmask=1, rt=0,
       structured=None, aad_auto=False, reuse=False):
    """One operation. structured=(sel, prefix4, base) builds a TLS nonce from the harness's model."""
    b = bytes([kind, flags])
    if structured is not None:
        sel, prefix, base = structured
        b += u16(0xFFFF) + bytes([sel]) + prefix + struct.pack(">Q", base)
    else:
        assert len(nonce) <= 1024
        b += u16(len(nonce)) + nonce
    if aad_auto:
        b += u16(0xFFFF) + aad
    else:
        assert len(aad) <= 2048
        b += u16(len(aad)) + aad
    if reuse:
        b += u16(0xFFFF)
    else:
        assert len(data) <= 4096
        b += u16(len(data)) + data
    b += bytes([outcap, place]) + u16(delta) + u16(tpos) + bytes([tmask & 0xFF, rt])
    return b


def need_vectors():
    global VECTORS
    VECTORS = os.environ.get("AEAD_VECTORS_DIR") or subprocess.run(
        ["python3", os.path.join(REPO, "tests", "vectors.py")], stdout=subprocess.PIPE, check=True
    ).stdout.decode().strip().splitlines()[-1]
    if not os.path.isdir(VECTORS):
        sys.exit(f"make_corpus: vectors folder missing: {VECTORS}")


def wycheproof(path, alg_of_key, stride, keep_invalid_nonce):
    with open(path) as f:
        doc = json.load(f)
    seeds = []
    i = 0
    for g in doc["testGroups"]:
        tag_len = g["tagSize"] // 8
        for t in g["tests"]:
            i += 1
            special = keep_invalid_nonce and "InvalidNonceSize" in t.get("flags", [])
            if i % stride != 0 and not special:
                continue
            key, iv = bytes.fromhex(t["key"]), bytes.fromhex(t["iv"])
            aad, msg = bytes.fromhex(t["aad"]), bytes.fromhex(t["msg"])
            ct, tag = bytes.fromhex(t["ct"]), bytes.fromhex(t["tag"])
            alg = alg_of_key(len(key))
            tc = t["tcId"]
            data = header(alg, NONE, key, tag=tag_len, nops=2)
            data += op(SEAL, iv, aad, msg, tpos=tc * 7, tmask=tc | 1, rt=tc & 3)
            data += op(OPEN, iv, aad, ct + tag, place=tc % 2)
            seeds.append((f"wp-{'chacha' if alg == CHACHA else 'gcm'}-{tc:03d}", data))
    return seeds


def wycheproof_siv(path, stride):
    """AES-SIV (alg byte 0x40 | key choice): the AEAD form, SIV || ct, half of them through aead_seal_open_v."""
    with open(path) as f:
        doc = json.load(f)
    seeds = []
    i = 0
    for g in doc["testGroups"]:
        for t in g["tests"]:
            i += 1
            if i % stride != 0:
                continue
            key, iv = bytes.fromhex(t["key"]), bytes.fromhex(t["iv"])
            aad, msg = bytes.fromhex(t["aad"]), bytes.fromhex(t["msg"])
            sealed = bytes.fromhex(t["tag"]) + bytes.fromhex(t["ct"])
            tc = t["tcId"]
            data = header(1, NONE, key, nops=2, alg_byte=0x40 | {32: 0, 48: 1, 64: 2}[len(key)])
            vform = 0x80 if tc % 2 else 0
            data += op(SEAL, iv, aad, msg, tpos=tc * 7, tmask=tc | 1, rt=(tc & 3) | vform, place=tc % 2)
            data += op(OPEN, iv, aad, sealed, place=(tc >> 1) % 2, rt=vform)
            seeds.append((f"wp-siv-{tc:03d}", data))
    return seeds


def rsp_cases(path):
    """Yields (params, case) for every case of a CAVP .rsp file."""
    params, case = {}, None
    with open(path, newline="") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                if case is not None and ("PT" in case or "FAIL" in case):
                    yield dict(params), case
                    case = None
                continue
            if line.startswith("["):
                k, v = line[1:-1].split("=")
                params[k.strip()] = int(v)
                continue
            if line == "FAIL":
                case["FAIL"] = True
                continue
            k, v = [x.strip() for x in line.split("=", 1)]
            if k == "Count":
                case = {"Count": int(v)}
            else:
                case[k] = bytes.fromhex(v)
    if case is not None and ("PT" in case or "FAIL" in case):
        yield dict(params), case


def nist(path, section_stride):
    alg = {128: AES128, 192: AES192, 256: AES256}
    seeds = []
    section, last_key = -1, None
    name = os.path.basename(path).replace(".rsp", "")
    for params, c in rsp_cases(path):
        sec_id = (params["IVlen"], params["PTlen"], params["AADlen"], params["Taglen"])
        if sec_id != last_key:
            section += 1
            last_key = sec_id
        if section % section_stride != 0 or c["Count"] not in (0, 1):
            continue
        tag_len = params["Taglen"] // 8
        a = alg[params["Keylen"]]
        if "Decrypt" in name:
            data = header(a, NONE, c["Key"], tag=tag_len, nops=1)
            data += op(OPEN, c["IV"], c["AAD"], c["CT"] + c["Tag"], place=c["Count"])
        else:
            data = header(a, NONE, c["Key"], tag=tag_len, nops=2)
            data += op(SEAL, c["IV"], c["AAD"], c["PT"], tpos=section, tmask=0x80, rt=section & 3)
            data += op(OPEN, c["IV"], c["AAD"], c["CT"] + c["Tag"])
        seeds.append((f"nist-{name}-s{section:03d}-c{c['Count']}", data))
    return seeds


def synthetic():
    """TLS sequences, overlaps, NULL/zero-length buffers, out_cap edges and refused contexts."""
    seeds = []
    key = {AES128: bytes(range(16)), AES192: bytes(range(24)), AES256: bytes(range(32)), CHACHA: bytes(range(32))}
    rec = bytes(range(40))
    prefix = bytes([0xA1, 0xB2, 0xC3, 0xD4])
    for alg in (AES128, AES256, CHACHA):
        for pol in (TLS12, TLS13):
            ops = [
                op(SEAL, structured=(15, prefix, 0x0102030405060708), aad=bytes(13 if pol == TLS12 else 5),
                   aad_auto=True, data=rec),
                op(SEAL, structured=(4, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(OPEN, structured=(4, prefix, 0), aad=b"x" * 3, data=rec + bytes(16)),
                op(SEAL, structured=(3, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(SEAL, structured=(0x80 | 4, prefix[::-1], 0), aad=bytes(13 if pol == TLS12 else 5),
                   aad_auto=True, data=rec),
                op(SEAL, structured=(12, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(SEAL, structured=(13, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(SEAL, structured=(4, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
            ]
            seeds.append((f"syn-tls{pol + 11}-alg{alg}-sequence", header(alg, pol, key[alg], nops=8) + b"".join(ops)))
            # Wrong AAD size, then a first seal at counter 2^64-1 (explicit counter: refused, learns nothing).
            ops = [
                op(SEAL, structured=(15, prefix, 1), aad=bytes(7), data=rec),
                op(SEAL, structured=(12, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(SEAL, structured=(15, prefix, 5), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
                op(SEAL, structured=(5, prefix, 0), aad=bytes(13 if pol == TLS12 else 5), aad_auto=True, data=rec),
            ]
            seeds.append((f"syn-tls{pol + 11}-alg{alg}-first", header(alg, pol, key[alg], nops=4) + b"".join(ops)))
    # Placements: out around in / aad / nonce, in-place seal and open, with deltas on both sides.
    n12, aad = bytes(range(12)), bytes(range(20))
    for place in (1, 2, 3, 4):
        for delta in (0, 1, 31, 32, 33, 60, 200, 1000):
            ops = [op(SEAL, n12, aad, rec, place=place, delta=delta, rt=place),
                   op(OPEN, n12, aad, reuse=True, place=place, delta=delta)]
            seeds.append((f"syn-place{place}-d{delta}", header(AES256, NONE, key[AES256], nops=2) + b"".join(ops)))
    # out_cap: less, equal, more, zero.
    for oc in (0x00, 0x60, 0x7F, 0x80, 0x81, 0x8F, 0xBF, 0xC1, 0xFF):
        ops = [op(SEAL, n12, aad, rec, outcap=oc), op(OPEN, n12, aad, reuse=True, outcap=oc)]
        seeds.append((f"syn-outcap-{oc:02x}", header(CHACHA, NONE, key[CHACHA], nops=2) + b"".join(ops)))
    # NULL pointers (bits 0-3), poisoned zero-length pointers (bit 4), NULL ctx (bit 5); empty buffers.
    for flags in (0x01, 0x02, 0x04, 0x08, 0x0E, 0x10, 0x16, 0x20):
        ops = [op(SEAL, n12, b"", b"", flags=flags), op(OPEN, n12, b"", bytes(16), flags=flags),
               op(SEAL, n12, aad, rec, flags=flags)]
        seeds.append((f"syn-flags-{flags:02x}", header(AES128, NONE, key[AES128], nops=3) + b"".join(ops)))
    # Bad op codes, nonce sizes and truncated tags.
    for opb in (3, 7, 11, 15):
        seeds.append((f"syn-badop-{opb}", header(AES128, NONE, key[AES128]) + op(opb, n12, aad, rec)))
    for nlen in (0, 1, 11, 13, 128, 129, 300):
        for alg in (AES192, CHACHA):
            seeds.append((f"syn-nonce{nlen}-alg{alg}",
                          header(alg, NONE, key[alg]) + op(SEAL, bytes(nlen), aad, rec)))
    for tag in (1, 4, 8, 12, 13, 14, 15, 17, 0x80, 0x9F):
        for alg, pol in ((AES128, NONE), (AES128, TLS13), (CHACHA, NONE)):
            seeds.append((f"syn-tag{tag:02x}-alg{alg}-pol{pol}",
                          header(alg, pol, key[alg], tag=tag, nops=2) + op(SEAL, n12, bytes(5), rec)
                          + op(OPEN, n12, bytes(5), reuse=True)))
    # AEGIS (alg byte 0x60 | 0..5: AEGIS-128L, -256, -128X2, -128X4, -256X2, -256X4): each variant with
    # both tags, seal and open across its block sizes; the random-nonce policy; a wrong nonce size.
    for v, klen in enumerate((16, 32, 16, 16, 32, 32)):
        k, n = bytes(range(7, 7 + klen)), bytes(range(100, 100 + klen))
        for tag in (16, 32):
            hdr = header(0, NONE, k, tag=tag, nops=4, alg_byte=0x60 | v)
            ops = [op(SEAL, n, aad, rec), op(OPEN, n, aad, reuse=True), op(SEAL, n, b"", bytes(range(200)), rt=1),
                   op(SEAL, n[:-1], aad, rec)]
            seeds.append((f"syn-aegis{v}-tag{tag}", hdr + b"".join(ops)))
            hdr = header(0, 6, k, tag=tag, nops=2, alg_byte=0x60 | v)
            seeds.append((f"syn-aegis{v}-tag{tag}-random", hdr + op(SEAL, b"", aad, rec, rt=1) + op(SEAL, n, aad, rec)))
    # Refused contexts: unknown algorithm / policy, wrong key sizes, NULL key.
    for name, hdr in (("badalg", header(AES128, NONE, b"", alg_byte=12)),
                      ("badalg-max", header(AES128, NONE, b"", alg_byte=15)),
                      ("badpolicy", header(AES128, 6, key[AES128])),
                      ("badpolicy-neg", header(AES128, 7, key[AES128])),
                      ("key15", header(AES128, NONE, key[AES128][:15], keysel=0x80 | 15)),
                      ("key0", header(CHACHA, NONE, b"", keysel=0x80)),
                      ("key-null", header(AES256, NONE, b"", keysel=0xC0 | 32)),
                      ("key-null0", header(AES256, NONE, b"", keysel=0xC0))):
        seeds.append((f"syn-ctx-{name}", hdr + op(SEAL, n12, aad, rec)))
    return seeds


# The DTLS modes' format (fuzz_dtls.inc): header alg u8, window u8, epoch u16, nops u8, key, iv[, sn_key];
# per op kind u8, sel u8, d u16, f u8, hdr u8, plen u8, payload.
D_SEAL, D_DELIVER, D_TAMPER, D_TRUNCATE, D_FORGE, D_SEAL_DELIVER = range(6)
D_MODES = {  # mode: (algorithm bytes, key size of each, iv size of each, sn_key size of each or None)
    "dtls12": ([0, 1, 2, 3, 4, 0x82, 0x83], [16, 32, 16, 32, 32, 16, 32], [4, 4, 4, 4, 12, 4, 4], None),
    "dtls13": ([0, 1, 2, 3], [16, 32, 16, 32], [12] * 4, [16, 32, 16, 32]),
    "quic-window": ([0, 1, 2], [16, 32, 32], [12] * 3, [16, 32, 32]),
}


def dop(kind, sel=0, d=0, f=0, hdr=0, payload=b""):
    return bytes([kind, sel]) + u16(d) + bytes([f, hdr, len(payload)]) + payload


def dtls_seeds(mode):
    algs, keys, ivs, sns = D_MODES[mode]
    pay = bytes(range(0x41, 0x41 + 24))
    scen = {
        "inorder": [dop(D_SEAL_DELIVER, payload=pay[:i]) for i in (0, 1, 5, 16, 17, 24)],
        "dup-reorder": [dop(D_SEAL, payload=pay[:9])] * 3 + [dop(D_DELIVER, sel=s) for s in (2, 0, 1, 1, 0, 2)],
        "tamper-trunc": [dop(D_SEAL, payload=pay), dop(D_TAMPER, d=3, f=0x10), dop(D_TRUNCATE, d=0),
                         dop(D_TAMPER, d=40, f=1), dop(D_DELIVER), dop(D_DELIVER)],
        "far-forged": [dop(D_SEAL_DELIVER, payload=pay[:4]), dop(D_FORGE, sel=0xff, d=0xffff, payload=pay[:8]),
                       dop(D_SEAL_DELIVER, payload=pay[:4]), dop(D_FORGE, d=1), dop(D_SEAL_DELIVER)],
        "window-edge": [dop(D_SEAL, payload=pay[:3]), dop(D_SEAL, sel=4, d=1), dop(D_SEAL, sel=0, d=7),
                        dop(D_DELIVER, sel=1), dop(D_DELIVER, sel=0), dop(D_DELIVER, sel=2), dop(D_DELIVER, sel=1)],
        "seal-order": [dop(D_SEAL, sel=0, d=5), dop(D_SEAL, sel=1), dop(D_SEAL, sel=2, d=2), dop(D_SEAL, sel=3, d=9),
                       dop(D_SEAL, sel=5, d=1), dop(D_SEAL, sel=5, d=0), dop(D_DELIVER, sel=2)],
        "refusals": [dop(D_SEAL, f=0x80 | b, payload=pay[:6]) for b in (1, 2, 4, 8, 16, 32, 64)]
                    + [dop(D_SEAL, payload=pay[:6])]
                    + [dop(D_DELIVER, f=0x80 | b) for b in (1, 2, 4, 8, 16, 32)] + [dop(D_DELIVER)],
    }
    # The window's left edge: a record exactly `width` behind the right edge is refused, one less is not.
    for k, name in ((1, "left-edge-out"), (0, "left-edge-in")):
        scen[name] = [dop(D_SEAL, payload=pay[:2]), dop(D_SEAL, sel=6, d=k), dop(D_DELIVER, sel=1), dop(D_DELIVER, sel=0)]
    if mode == "quic-window":
        # The window moved next to 2^62 - 1 by a flat open, the last packet number accepted from a packet,
        # then one whose low bits rebuild to a number over the maximum (RFC 9000 A.3 does not bound it).
        scen["beyond-max"] = [dop(D_SEAL, sel=5, d=2, payload=pay[:6]), dop(D_DELIVER),
                              dop(D_SEAL, hdr=0x80, payload=pay[:6]), dop(D_DELIVER, sel=1), dop(D_TAMPER, sel=1, d=1, f=0x81)]
    if mode == "quic-window":  # aead_quic_protect / _unprotect: each packet-number length, short and long headers
        scen["packets"] = [dop(D_SEAL_DELIVER, hdr=0x80 | h, payload=pay[:5]) for h in (0, 1, 2, 3, 0x47, 0x5e, 0x1c)]
        scen["packets-replay"] = ([dop(D_SEAL, hdr=0x80 | h, payload=pay[:12]) for h in (0, 1, 3)]
                                  + [dop(D_DELIVER, sel=s) for s in (1, 0, 1, 2)] + [dop(D_TAMPER, sel=2, d=9, f=4),
                                  dop(D_TRUNCATE, sel=2, d=20), dop(D_SEAL, sel=7, d=2, hdr=0x80),
                                  dop(D_DELIVER, sel=3), dop(D_DELIVER, f=0x81, sel=2)])
        scen["packet-refusals"] = [dop(D_SEAL, hdr=0x80, f=0x81, payload=pay[:5]), dop(D_SEAL, hdr=0x80, f=0x90, payload=pay[:5]),
                                   dop(D_SEAL, hdr=0x80, payload=pay[:2]), dop(D_SEAL, hdr=0x80, sel=5, d=0, payload=pay[:5])]
    if mode == "dtls13":
        scen["headers"] = [dop(D_SEAL_DELIVER, hdr=h, payload=pay[:7]) for h in (0, 2, 4, 6, 1, 7, 0x0f, 0x1f)]
        # 8- and 16-bit record numbers across their wraps: reconstruction nearest to the right edge + 1.
        scen["wrap"] = ([dop(D_SEAL, sel=0, d=7, payload=pay[:2]), dop(D_SEAL, sel=4, d=2), dop(D_SEAL, sel=4, d=3)]
                        + [dop(D_DELIVER, sel=s) for s in (0, 1, 2, 0)]
                        + [dop(D_SEAL, sel=4, d=1030, hdr=2), dop(D_DELIVER, sel=3)])
        # Exact ties of the reconstruction (8 and 16 bits): a record half the span ahead of the right edge
        # + 1 is that one (accepted); half the span behind resolves ahead, to a number never sealed (forgery).
        for sel, hdr, bits in ((7, 0, 8), (8, 2, 16)):
            scen[f"tie{bits}-ahead"] = [dop(D_SEAL, hdr=hdr, payload=pay[:3]), dop(D_SEAL, sel=sel, d=2, hdr=hdr),
                                        dop(D_DELIVER, sel=0), dop(D_DELIVER, sel=1)]
            scen[f"tie{bits}-behind"] = [dop(D_SEAL, hdr=hdr, payload=pay[:3]), dop(D_SEAL, sel=sel, d=0, hdr=hdr),
                                         dop(D_DELIVER, sel=1), dop(D_DELIVER, sel=0)]
    seeds = []
    for i, a in enumerate(algs):
        key = bytes((7 * j + i) & 0xFF for j in range(keys[i]))
        iv = bytes((0xA0 + 3 * j) & 0xFF for j in range(ivs[i]))
        sn = bytes((0x50 + j) & 0xFF for j in range(sns[i])) if sns else b""
        for name, ops in scen.items():
            window = 0 if name == "window-edge" else 255 if name == "inorder" else 3 * i
            epoch = {"dtls12": 1 + i, "dtls13": 3 + i, "quic-window": 0}[mode]
            hdr = bytes([a, window]) + u16(epoch) + bytes([len(ops) - 1]) + key + iv + sn
            seeds.append((f"{mode}-alg{a:02x}-{name}", hdr + b"".join(ops)))
    return seeds


STREAM_MODES = ("stream-tink", "stream-age", "stream-rfc8188")


def stream_seeds(mode):
    """Seeds of the streaming modes (fuzz_stream.inc): each change on short, one-segment-ish and
    multi-segment plaintexts (age: repeated up to a few chunks), the multi-segment ones also in batches."""
    seeds = []
    for change in range(7):
        for i, (fmt, reps, n) in enumerate(((0, 0, 0), (9, 1, 40), (0x2B, 3, 300), (5, 200, 700))):
            pt = bytes((7 * j + change) & 0xFF for j in range(n))
            head = bytes([fmt, 3 * i, reps, change]) + (17 * i + change).to_bytes(2, "little")
            seeds.append((f"{mode}-c{change}-{i}", head + bytes([i]) + pt))
            if i >= 2:  # the same in batches (the top bit; 1 + (bit >> 5 & 3) segments a call)
                seeds.append((f"{mode}-c{change}-{i}-batch", head + bytes([0x80 | (i << 5) | i]) + pt))
    return seeds


def write_dir(out, seeds):
    names = [s[0] for s in seeds]
    assert len(names) == len(set(names)), "duplicate seed names"
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    total = 0
    for name, data in seeds:
        assert len(data) <= 4096, f"{name}: {len(data)} bytes is over -max_len=4096"
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        total += len(data)
    digest = hashlib.sha256(b"".join(d for _, d in seeds)).hexdigest()[:16]
    print(f"make_corpus: wrote {len(seeds)} files, {total} bytes, to {os.path.relpath(out, REPO)} (sha256 {digest})")


def main():
    for mode in D_MODES:
        write_dir(os.path.join(HERE, "corpus-" + mode), dtls_seeds(mode))
    for mode in STREAM_MODES:
        write_dir(os.path.join(HERE, "corpus-" + mode), stream_seeds(mode))
    if sys.argv[1:] == ["--dtls-only"]:
        return
    need_vectors()
    w = os.path.join(VECTORS, "wycheproof")
    n = os.path.join(VECTORS, "nist-cavp")
    seeds = []
    seeds += wycheproof(os.path.join(w, "aes_gcm_test.json"), {16: AES128, 24: AES192, 32: AES256}.get, 3, False)
    seeds += wycheproof(os.path.join(w, "chacha20_poly1305_test.json"), lambda k: CHACHA, 4, True)
    seeds += wycheproof_siv(os.path.join(w, "aead_aes_siv_cmac_test.json"), 15)
    for f in ("gcmEncryptExtIV128", "gcmEncryptExtIV192", "gcmEncryptExtIV256",
              "gcmDecrypt128", "gcmDecrypt192", "gcmDecrypt256"):
        seeds += nist(os.path.join(n, f + ".rsp"), 50)
    seeds += synthetic()
    write_dir(OUT, seeds)


if __name__ == "__main__":
    main()
