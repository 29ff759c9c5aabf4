"""Known-answer tests from the conformance vectors (tests/vectors.py): Wycheproof (v1 and legacy; AES-GCM,
ChaCha20-Poly1305, AEGIS-128L and AEGIS-256) and NIST CAVP GCMVS.

The Python API's AES-GCM and ChaCha20-Poly1305 only have 16-byte tags and pyca's nonce range (AES-GCM 8..128
bytes, ChaCha20-Poly1305 12): vectors outside it must be refused with ValueError, exactly as pyca/cryptography
refuses them."""

import json

import pytest

import libaead
from conftest import FIPS, report_vectors, vectors_dir

ALL_AES = [libaead.AESGCM]
TLS_NAMES = ["AESGCMForTLS12", "AESGCMForTLS13", "ChaCha20Poly1305ForTLS12", "ChaCha20Poly1305ForTLS13"]


def _load(rel):
    with open(vectors_dir() / rel) as f:
        return json.load(f)


def _run_wycheproof(cls, doc, nonce_ok):
    counts = {"valid": 0, "invalid": 0, "refused": 0}
    for group in doc["testGroups"]:
        assert group["tagSize"] == 128
        for t in group["tests"]:
            key, iv, aad = bytes.fromhex(t["key"]), bytes.fromhex(t["iv"]), bytes.fromhex(t["aad"])
            msg, ct, tag = bytes.fromhex(t["msg"]), bytes.fromhex(t["ct"]), bytes.fromhex(t["tag"])
            obj = cls(key)
            where = "tcId %d (%s)" % (t["tcId"], t["comment"])
            if not nonce_ok(len(iv)):
                with pytest.raises(ValueError):
                    obj.encrypt(iv, msg, aad)
                with pytest.raises(ValueError):
                    obj.decrypt(iv, ct + tag, aad)
                counts["refused"] += 1
                continue
            if t["result"] in ("valid", "acceptable"):
                assert obj.encrypt(iv, msg, aad) == ct + tag, where
                assert obj.decrypt(iv, ct + tag, aad) == msg, where
                buf = bytearray(len(msg))
                assert obj.decrypt_into(iv, memoryview(ct + tag), aad or None, buf) == len(msg), where
                assert buf == msg, where
                counts["valid"] += 1
            else:
                assert t["result"] == "invalid"
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt(iv, ct + tag, aad)
                buf = bytearray(b"\xaa" * max(0, len(ct + tag) - 16))
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt_into(iv, ct + tag, aad, buf)
                assert buf == bytes(len(buf)), where  # zeroed, never partial plaintext
                counts["invalid"] += 1
    return counts


def test_wycheproof_aes_gcm_v1():
    counts = _run_wycheproof(libaead.AESGCM, _load("wycheproof/aes_gcm_test.json"), lambda n: 8 <= n <= 128)
    # 316 cases: IVs of 0..7 bytes and 257 bytes fall outside pyca's 8..128 range and are refused.
    assert sum(counts.values()) == 316
    assert counts["valid"] > 150 and counts["invalid"] >= 75 and counts["refused"] > 0
    report_vectors("wycheproof/aes_gcm_test.json (AESGCM)", counts["valid"], counts["invalid"], counts["refused"],
                   "IV outside pyca's 8..128 bytes: ValueError")


def test_wycheproof_aes_gcm_legacy_acceptable():
    doc = _load("wycheproof/legacy/aes_gcm_test.json")
    results = {t["result"] for g in doc["testGroups"] for t in g["tests"]}
    assert "acceptable" in results
    counts = _run_wycheproof(libaead.AESGCM, doc, lambda n: 8 <= n <= 128)
    assert sum(counts.values()) == 256
    report_vectors("wycheproof/legacy/aes_gcm_test.json (AESGCM)", counts["valid"], counts["invalid"],
                   counts["refused"], "IV outside pyca's 8..128 bytes: ValueError")


def test_wycheproof_chacha20_poly1305():
    counts = _run_wycheproof(
        libaead.ChaCha20Poly1305, _load("wycheproof/chacha20_poly1305_test.json"), lambda n: n == 12
    )
    assert counts == {"valid": 256, "invalid": 60, "refused": 9}
    report_vectors("wycheproof/chacha20_poly1305_test.json (ChaCha20Poly1305)", counts["valid"], counts["invalid"],
                   counts["refused"], "nonce not 12 bytes: ValueError")


@pytest.mark.parametrize("name,rel,valid", [("Aegis128L", "wycheproof/aegis128L_test.json", 367),
                                            ("Aegis256", "wycheproof/aegis256_test.json", 360)])
def test_wycheproof_aegis(name, rel, valid):
    """16-byte tags (the classes default to 32), nonce = key size: every case in the API's range."""
    if FIPS:
        pytest.skip("no FIPS provider has AEGIS (test_families_fips.py checks the refusal)")
    cls = getattr(libaead, name)
    counts = _run_wycheproof(lambda key: cls(key, 16), _load(rel), lambda n: n == cls.NONCE_SIZE)
    assert counts == {"valid": valid, "invalid": 112, "refused": 0}
    report_vectors("%s (%s, 16-byte tags)" % (rel, name), counts["valid"], counts["invalid"])


@pytest.mark.parametrize("name", TLS_NAMES)
def test_wycheproof_decrypt_through_tls_classes(name):
    """TLS classes do not order-check decryption: every 12-byte-nonce vector opens (or fails) as usual."""
    cls = getattr(libaead, name)
    rel = "wycheproof/chacha20_poly1305_test.json" if "ChaCha" in name else "wycheproof/aes_gcm_test.json"
    opened = 0
    for group in _load(rel)["testGroups"]:
        if group["ivSize"] != 96:
            continue
        for t in group["tests"]:
            obj = cls(bytes.fromhex(t["key"]))
            iv, aad = bytes.fromhex(t["iv"]), bytes.fromhex(t["aad"])
            sealed = bytes.fromhex(t["ct"]) + bytes.fromhex(t["tag"])
            if t["result"] == "valid":
                assert obj.decrypt(iv, sealed, aad) == bytes.fromhex(t["msg"])
                opened += 1
            else:
                with pytest.raises(libaead.InvalidTag):
                    obj.decrypt(iv, sealed, aad)
    assert opened > 50


def _rsp_cases(path):
    """Parses a CAVP .rsp file into dicts with the section headers merged in."""
    section, case, cases = {}, None, []
    with open(path, newline="") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                k, v = line[1:-1].split("=")
                section[k.strip()] = int(v)
                continue
            if line == "FAIL":
                case["FAIL"] = True
                continue
            k, v = (s.strip() for s in line.split("=", 1))
            if k == "Count":
                case = dict(section, Count=int(v))
                cases.append(case)
                continue
            case[k] = bytes.fromhex(v)
    return cases


def _gcmvs(name):
    """The cases of one of CAVP's GCMVS files: 7875 in each (every key, IV, text, AAD and tag length)."""
    cases = _rsp_cases(vectors_dir() / "nist-cavp" / name)
    assert len(cases) == 7875
    return cases


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_nist_cavp_encrypt(bits):
    cases = _gcmvs("gcmEncryptExtIV%d.rsp" % bits)
    checked = refused = 0
    for c in cases:
        if c["Taglen"] != 128:
            continue  # truncated tags are not part of the pyca-compatible API
        obj = libaead.AESGCM(c["Key"])
        if not 8 <= len(c["IV"]) <= 128:
            with pytest.raises(ValueError):
                obj.encrypt(c["IV"], c["PT"], c["AAD"])
            refused += 1
            continue
        assert obj.encrypt(c["IV"], c["PT"], c["AAD"]) == c["CT"] + c["Tag"]
        checked += 1
    assert checked == 750 and refused == 375  # IVlen 96 and 1024 bits checked; 8 bits refused
    report_vectors("nist-cavp/gcmEncryptExtIV%d.rsp (AESGCM, 16-byte tags: 1125 of 7875)" % bits, checked, 0, refused,
                   "8-bit IV outside pyca's range: ValueError")


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_nist_cavp_decrypt(bits):
    cases = _gcmvs("gcmDecrypt%d.rsp" % bits)
    ok = fail = 0
    for c in cases:
        if c["Taglen"] != 128 or not 8 <= len(c["IV"]) <= 128:
            continue
        obj = libaead.AESGCM(c["Key"])
        sealed = c["CT"] + c["Tag"]
        if c.get("FAIL"):
            buf = bytearray(b"\x55" * len(c["CT"]))
            with pytest.raises(libaead.InvalidTag):
                obj.decrypt_into(c["IV"], sealed, c["AAD"], buf)
            assert buf == bytes(len(buf))
            fail += 1
        else:
            assert obj.decrypt(c["IV"], sealed, c["AAD"]) == c["PT"]
            ok += 1
    assert ok > 100 and fail > 100 and ok + fail == 750
    report_vectors("nist-cavp/gcmDecrypt%d.rsp (AESGCM, 16-byte tags and IVs in pyca's 8..128 bytes: 750 of 7875)" % bits, ok, fail)
