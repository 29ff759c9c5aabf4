"""libaead.hpke (RFC 9180, library 1.6) on whichever backend test.sh selected (fast, api, abi).

* Every case of RFC 9180's published vectors (hpke/rfc9180.json from tests/vectors.py; a missing file
  fails): the key pairs from ikmR / ikmS, the sender's enc from ikmE, every encryption in order (the
  context's own sequence numbers), opened in order and by explicit sequence number, and every export, on
  both sides; then the single-shot calls on the first encryption. Under LIBAEAD_TEST_FIPS=1 the X25519,
  X448 and ChaCha20-Poly1305 cases must be refused with UnsupportedAlgorithm and all the others pass.
* Random round trips over every suite and mode, with the indicator (FIPS provider: seals and opens
  approved); in-order and explicit-sequence opens (the replay window); tampered messages, wrong AAD,
  info or keys refused; bad keys refused with ValueError (X25519's all-zero shared secret too).
* Hostile callers: a sender set up before fork() refuses to seal in the child; two threads making
  1,000,000 seals on one sender never share a sequence number and skip none, and the messages kept open
  at the numbers reported.
"""

import array
import json
import os
import threading

import pytest

import libaead
from conftest import FIPS, libcrypto_version, mlkem_expected, report_vectors, vectors_dir
from libaead.hpke import AEADId, CipherSuite, KDFId, KEMId, Mode, ReplayError
from test_hostile_fork import Child

_NOT_FIPS_KEMS = (KEMId.DHKEM_X25519_HKDF_SHA256, KEMId.DHKEM_X448_HKDF_SHA512)
# The DHKEMs with every KDF (HKDF and the one-stage SHAKEs), here; the post-quantum KEMs in test_pq_*.
DH_KEMS = [k for k in KEMId if k < 0x0040]
PQ_KEMS = [k for k in KEMId if k >= 0x0040]
SUITES = [(k, f, a) for k in DH_KEMS for f in KDFId for a in AEADId
          if not (FIPS and (k in _NOT_FIPS_KEMS or a == AEADId.CHACHA20_POLY1305))]
# The suite of the hostile tests: approved under a FIPS provider too.
P256 = (KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


def _h(case, name):
    return bytes.fromhex(case.get(name, ""))


def _vector_case(case):
    suite = CipherSuite(case["kem_id"], case["kdf_id"], case["aead_id"])
    mode = Mode(case["mode"])
    auth = mode in (Mode.AUTH, Mode.AUTH_PSK)
    kr = suite.derive_key_pair(_h(case, "ikmR"))
    assert (kr.private_key, kr.public_key) == (_h(case, "skRm"), _h(case, "pkRm"))
    assert suite.public_key(kr.private_key) == kr.public_key
    ks = suite.derive_key_pair(_h(case, "ikmS")) if auth else None
    if auth:
        assert (ks.private_key, ks.public_key) == (_h(case, "skSm"), _h(case, "pkSm"))
    info, psk, psk_id = _h(case, "info"), _h(case, "psk"), _h(case, "psk_id")
    enc, sender = suite.create_sender_context(kr.public_key, info, ks.private_key if auth else None, psk, psk_id,
                                              ikm_e=_h(case, "ikmE"))
    assert enc == _h(case, "enc")
    recipient = suite.create_recipient_context(enc, kr.private_key, info, ks.public_key if auth else None, psk, psk_id)
    by_seq = suite.create_recipient_context(enc, kr.private_key, info, ks.public_key if auth else None, psk, psk_id,
                                            window=4096)
    for seq, e in enumerate(case["encryptions"]):
        if suite.aead_id == AEADId.EXPORT_ONLY:
            break
        aad, pt, ct = _h(e, "aad"), _h(e, "pt"), _h(e, "ct")
        # The vectors list the encryptions at sequence numbers 0, 1, 2, ... (all of them, in order).
        assert sender.seal_with_sequence(pt, aad) == (seq, ct)
        assert recipient.open(ct, aad) == pt
        assert by_seq.open_at(seq, ct, aad) == pt
    if suite.aead_id == AEADId.EXPORT_ONLY:
        with pytest.raises(ValueError):
            sender.seal(b"x")
    for x in case["exports"]:
        want = _h(x, "exported_value")
        assert sender.export(_h(x, "exporter_context"), x["L"]) == want
        assert recipient.export(_h(x, "exporter_context"), x["L"]) == want
    if suite.aead_id != AEADId.EXPORT_ONLY:
        first = case["encryptions"][0]
        aad, pt, ct = _h(first, "aad"), _h(first, "pt"), _h(first, "ct")
        assert suite.seal(kr.public_key, pt, info, aad, psk, psk_id, ks.private_key if auth else None,
                          ikm_e=_h(case, "ikmE")) == (enc, ct)
        assert suite.open(enc, kr.private_key, ct, info, aad, psk, psk_id, ks.public_key if auth else None) == pt
    return len(case["encryptions"]) if suite.aead_id != AEADId.EXPORT_ONLY else 0, len(case["exports"])


def test_rfc9180_vectors():
    path = vectors_dir() / "hpke" / "rfc9180.json"
    assert path.is_file(), "%s is missing (tests/vectors.py fetches it)" % path
    with open(path) as f:
        cases = json.load(f)
    assert len(cases) == 128
    passed = refused = seals = exports = 0
    for case in cases:
        fips_refused = FIPS and (case["kem_id"] in _NOT_FIPS_KEMS or case["aead_id"] == AEADId.CHACHA20_POLY1305)
        if fips_refused:
            with pytest.raises(libaead.UnsupportedAlgorithm):
                _vector_case(case)
            refused += 1
            continue
        s, x = _vector_case(case)
        passed, seals, exports = passed + 1, seals + s, exports + x
    assert passed + refused == 128 and (passed == 128 or FIPS)
    report_vectors("hpke/rfc9180.json (libaead.hpke: %d sequenced encryptions, %d exports)" % (seals, exports),
                   passed, 0, refused, "X25519, X448 and ChaCha20-Poly1305 under the FIPS provider")


def _random_setup(rng, suite, mode):
    kr = suite.generate_key_pair()
    ks = suite.generate_key_pair() if mode in (Mode.AUTH, Mode.AUTH_PSK) else None
    info = rng.randbytes(rng.choice((0, 1, 17, 64, 300)))
    psk, psk_id = (rng.randbytes(32), rng.randbytes(rng.randrange(1, 20))) if mode in (Mode.PSK, Mode.AUTH_PSK) \
        else (b"", b"")
    enc, sender = suite.create_sender_context(kr.public_key, info, ks and ks.private_key, psk, psk_id)
    recipient = suite.create_recipient_context(enc, kr.private_key, info, ks and ks.public_key, psk, psk_id)
    return kr, ks, info, psk, psk_id, enc, sender, recipient


@pytest.mark.parametrize("ids", SUITES, ids=lambda s: "-".join(x.name for x in s))
def test_round_trips(rng, ids):
    suite = CipherSuite(*ids)
    assert len(suite.generate_key_pair().public_key) == suite.enc_size
    for mode in Mode:
        kr, ks, info, psk, psk_id, enc, sender, recipient = _random_setup(rng, suite, mode)
        assert len(enc) == suite.enc_size
        for ctx in (sender, recipient):  # FIPS provider: HKDF and AES-GCM from it, seals and opens approved
            ind = ctx.indicator       # (not with the one-stage SHAKE KDFs)
            assert ind.fips == FIPS
            approved = FIPS and suite.aead_id != AEADId.EXPORT_ONLY and suite.kdf_id <= KDFId.HKDF_SHA512
            assert (ind.seal_approved, ind.open_approved) == (approved, approved)
            assert ind.provider == ("" if suite.aead_id == AEADId.EXPORT_ONLY else "fips" if FIPS else "default")
        assert sender.export(b"ctx", 48) == recipient.export(b"ctx", 48) != recipient.export(b"ctx2", 48)
        if suite.aead_id == AEADId.EXPORT_ONLY:
            with pytest.raises(ValueError):
                recipient.open(bytes(16))
            continue
        for seq in range(5):
            pt, aad = rng.randbytes(rng.randrange(0, 200)), rng.randbytes(rng.randrange(0, 40))
            got_seq, ct = sender.seal_with_sequence(pt, aad)
            assert got_seq == seq and len(ct) == len(pt) + 16
            bad = bytearray(ct)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            with pytest.raises(libaead.InvalidTag):
                recipient.open(bytes(bad), aad)
            with pytest.raises(libaead.InvalidTag):
                recipient.open(ct, aad + b"x")
            assert recipient.open(ct, aad) == pt
        # Wrong info / psk / sender key: the schedule differs, nothing opens.
        enc2, ct2 = suite.seal(kr.public_key, b"m", info, b"", psk, psk_id, ks and ks.private_key)
        assert suite.open(enc2, kr.private_key, ct2, info, b"", psk, psk_id, ks and ks.public_key) == b"m"
        with pytest.raises(libaead.InvalidTag):
            suite.open(enc2, kr.private_key, ct2, info + b"?", b"", psk, psk_id, ks and ks.public_key)
        other = suite.generate_key_pair()
        with pytest.raises(libaead.InvalidTag):
            suite.open(enc2, other.private_key, ct2, info, b"", psk, psk_id, ks and ks.public_key)


@pytest.mark.skipif(FIPS, reason="X25519 is refused under the FIPS provider (test_rfc9180_vectors checks that)")
def test_x25519_all_zero_shared_secret():
    suite = CipherSuite(KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
    kr = suite.generate_key_pair()
    for low_order in (bytes(32), (1).to_bytes(32, "little")):  # DH with these gives the all-zero secret
        with pytest.raises(ValueError):
            suite.create_sender_context(low_order)
        with pytest.raises(ValueError):
            suite.create_recipient_context(low_order, kr.private_key)
        with pytest.raises(libaead.InvalidTag):  # pyca's Suite.decrypt refuses such an enc as InvalidTag
            suite.decrypt(low_order + bytes(17), kr.private_key)


def test_in_order_and_explicit_sequence():
    suite = CipherSuite(*P256)
    kr = suite.generate_key_pair()
    enc, sender = suite.create_sender_context(kr.public_key, b"i")
    msgs = [sender.seal(b"msg %d" % i, b"a") for i in range(200)]
    in_order = suite.create_recipient_context(enc, kr.private_key, b"i")
    with pytest.raises(libaead.InvalidTag):  # message 1 first: in order, that is sequence 0's place
        in_order.open(msgs[1], b"a")
    assert in_order.open(msgs[0], b"a") == b"msg 0"
    with pytest.raises(libaead.InvalidTag):  # a replay of 0 is opened as sequence 1
        in_order.open(msgs[0], b"a")
    assert in_order.open(msgs[1], b"a") == b"msg 1"

    by_seq = suite.create_recipient_context(enc, kr.private_key, b"i", window=128)
    assert by_seq.open_at(5, msgs[5], b"a") == b"msg 5"
    assert by_seq.open_at(2, msgs[2], b"a") == b"msg 2"   # out of order, inside the window
    with pytest.raises(ReplayError):
        by_seq.open_at(5, msgs[5], b"a")
    with pytest.raises(libaead.InvalidTag) as e:  # sealed under 3, asked as 4: fails, the window keeps 4
        by_seq.open_at(4, msgs[3], b"a")
    assert not isinstance(e.value, ReplayError)
    assert by_seq.open_at(4, msgs[4], b"a") == b"msg 4"
    assert by_seq.open_at(199, msgs[199], b"a") == b"msg 199"
    with pytest.raises(ReplayError):  # now left of the 128-message window
        by_seq.open_at(3, msgs[3], b"a")
    assert by_seq.open_at(100, msgs[100], b"a") == b"msg 100"
    with pytest.raises(ValueError):
        suite.create_recipient_context(enc, kr.private_key, b"i", window=100)  # not a multiple of 64


def test_refusals():
    suite = CipherSuite(*P256)
    kr = suite.generate_key_pair()
    enc, sender = suite.create_sender_context(kr.public_key)
    recipient = suite.create_recipient_context(enc, kr.private_key)
    with pytest.raises(ValueError):
        suite.create_sender_context(kr.public_key[:-1])   # wrong length
    off_curve = kr.public_key[:-1] + bytes([kr.public_key[-1] ^ 1])
    with pytest.raises(ValueError):
        suite.create_sender_context(off_curve)
    with pytest.raises(ValueError):
        suite.create_recipient_context(enc, bytes(32))     # scalar 0
    with pytest.raises(ValueError):
        suite.create_sender_context(kr.public_key, psk=b"k" * 32)  # psk without psk_id
    with pytest.raises(ValueError):
        suite.public_key(bytes(31))  # a private key of the wrong length
    with pytest.raises(libaead.UnsupportedAlgorithm):
        CipherSuite(0x99, 1, 1)
    with pytest.raises(OverflowError):
        recipient.export(bytes(961), 16)  # exporter_context past 960 bytes
    with pytest.raises(TypeError):
        sender.seal("text")
    assert not hasattr(sender, "open") and not hasattr(recipient, "seal")
    with pytest.raises(libaead.InvalidTag):
        recipient.open(b"short")
    ct = sender.seal(b"x")
    sender.close()
    with pytest.raises(ValueError):
        sender.seal(b"x")
    with recipient:
        assert recipient.open(ct) == b"x"
    with pytest.raises(ValueError):
        recipient.open(ct)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() on this platform")
def test_fork_child_refused():
    suite = CipherSuite(*P256)
    kr = suite.generate_key_pair()
    enc, sender = suite.create_sender_context(kr.public_key)
    first = sender.seal(b"parent 0")

    def child():
        with pytest.raises(libaead.ForkedContextError):
            sender.seal(b"child")
        # Exports and a new context still work in the child.
        enc2, fresh = suite.create_sender_context(kr.public_key)
        return sender.export(b"e", 16), enc2, fresh.seal(b"child's own")

    exported, enc2, own = Child(child).result()
    assert exported == sender.export(b"e", 16)
    assert suite.create_recipient_context(enc2, kr.private_key).open(own) == b"child's own"
    seq, second = sender.seal_with_sequence(b"parent 1")
    assert seq == 1
    recipient = suite.create_recipient_context(enc, kr.private_key)
    assert recipient.open(first) == b"parent 0" and recipient.open(second) == b"parent 1"


def test_threads_share_a_sender():
    """Two threads, 1,000,000 seals on one sender: every sequence number from 0 to 999,999 exactly once,
    increasing within each thread; every 500th message of each thread kept and opened at its number."""
    suite = CipherSuite(*P256)
    kr = suite.generate_key_pair()
    enc, sender = suite.create_sender_context(kr.public_key)
    per_thread, threads = 500_000, 2
    seqs = [array.array("Q") for _ in range(threads)]
    kept = [[] for _ in range(threads)]

    def run(i):
        seal, out, keep = sender.seal_with_sequence, seqs[i], kept[i]
        for j in range(per_thread):
            pt = b"%d:%d" % (i, j)
            seq, ct = seal(pt)
            out.append(seq)
            if j % 500 == 0:
                keep.append((pt, seq, ct))

    ts = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    total = threads * per_thread
    seen = bytearray(total)
    for out in seqs:
        assert len(out) == per_thread
        assert all(a < b for a, b in zip(out, out[1:]))  # in each thread, later seals get larger numbers
        for seq in out:
            assert seq < total and not seen[seq], "sequence number %d twice or out of range" % seq
            seen[seq] = 1
    assert all(seen)  # none skipped: 0 .. total - 1, each once
    assert sender.seal_with_sequence(b"next")[0] == total
    recipient = suite.create_recipient_context(enc, kr.private_key, window=4096)
    for pt, seq, ct in sorted((r for rs in kept for r in rs), key=lambda r: r[1]):
        assert recipient.open_at(seq, ct) == pt


# ---- draft-ietf-hpke-pq: the post-quantum KEMs and the one-stage KDFs ----

_TURBOSHAKE = (0x0012, 0x0013)
# enc, public key, private key
_PQ_SIZES = {KEMId.MLKEM512: (768, 800, 64), KEMId.MLKEM768: (1088, 1184, 64),
             KEMId.MLKEM1024: (1568, 1568, 64), KEMId.MLKEM768_P256: (1153, 1249, 32),
             KEMId.MLKEM1024_P384: (1665, 1665, 32), KEMId.MLKEM768_X25519: (1120, 1216, 32)}


def test_hpke_pq_vectors():
    """Go 1.26's hpke-pq.json (13 base-mode cases): with ML-KEM (the vendored wheel, OpenSSL 3.5) the ten
    cases whose KDF libcrypto has pass; the three TurboSHAKE ones are refused (UnsupportedAlgorithm); on
    the system wheel (OpenSSL 3.0) the two DHKEM ones pass and the eight post-quantum ones are refused,
    key derivation and setup alike. Under LIBAEAD_TEST_FIPS=1 a case the FIPS provider does not offer
    (X25519, ChaCha20-Poly1305, ...) may be refused with UnsupportedAlgorithm instead of passing."""
    path = vectors_dir() / "hpke" / "hpke-pq.json"
    assert path.is_file(), "%s is missing (tests/vectors.py fetches it)" % path
    with open(path) as f:
        cases = json.load(f)
    pq = mlkem_expected()
    passed = turbo = no_mlkem = fips_refused = seals = exports = 0
    suites = set()
    for case in cases:
        assert case["mode"] == Mode.BASE
        if case["kdf_id"] in _TURBOSHAKE:
            with pytest.raises(libaead.UnsupportedAlgorithm):
                CipherSuite(case["kem_id"], case["kdf_id"], case["aead_id"])
            turbo += 1
            continue
        suite = CipherSuite(case["kem_id"], case["kdf_id"], case["aead_id"])
        sk, pk, enc = _h(case, "skRm"), _h(case, "pkRm"), _h(case, "enc")
        assert (len(enc), len(pk), len(sk)) == (suite.enc_size, suite.public_key_size, suite.private_key_size)
        if suite.kem_id in PQ_KEMS and not pq:
            with pytest.raises(libaead.UnsupportedAlgorithm):
                suite.derive_key_pair(_h(case, "ikmR"))
            with pytest.raises(libaead.UnsupportedAlgorithm):
                suite.create_sender_context(pk, _h(case, "info"), ikm_e=_h(case, "ikmE"))
            with pytest.raises(libaead.UnsupportedAlgorithm):
                suite.create_recipient_context(enc, sk, _h(case, "info"))
            no_mlkem += 1
            continue
        if FIPS:
            try:
                s, x = _vector_case(case)
            except libaead.UnsupportedAlgorithm:
                fips_refused += 1
                continue
        else:
            s, x = _vector_case(case)
        passed, seals, exports = passed + 1, seals + s, exports + x
        suites.add((suite.kem_id, suite.kdf_id, suite.aead_id))
    assert len(cases) == 13 and turbo == 3
    assert (passed + fips_refused, no_mlkem) == ((10, 0) if pq else (2, 8))
    assert fips_refused == 0 or FIPS
    assert len(suites) == passed
    report_vectors("hpke/hpke-pq.json (libaead.hpke: %d sequenced encryptions, %d exports)" % (seals, exports),
                   passed, 0, turbo + no_mlkem + fips_refused,
                   "TurboSHAKE (3)" + ("" if pq else ", no ML-KEM in libcrypto %d.%d (8)" % libcrypto_version())
                   + (", not in the FIPS provider (%d)" % fips_refused if fips_refused else ""))


def test_pq_kem_sizes_and_refusals():
    """Sizes from the library; without ML-KEM every key and setup call of a post-quantum KEM raises
    UnsupportedAlgorithm."""
    pq = mlkem_expected()
    assert sorted(_PQ_SIZES) == sorted(PQ_KEMS)
    for kem, sizes in _PQ_SIZES.items():
        suite = CipherSuite(kem, KDFId.SHAKE256, AEADId.AES128_GCM)
        assert (suite.enc_size, suite.public_key_size, suite.private_key_size) == sizes
        if pq:
            continue
        for call in (suite.generate_key_pair, lambda: suite.derive_key_pair(bytes(32)),
                     lambda: suite.public_key(bytes(sizes[2])), lambda: suite.create_sender_context(bytes(sizes[1])),
                     lambda: suite.create_recipient_context(bytes(sizes[0]), bytes(sizes[2]))):
            with pytest.raises(libaead.UnsupportedAlgorithm):
                call()
    for kem in DH_KEMS:
        suite = CipherSuite(kem, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
        assert suite.public_key_size == suite.enc_size


@pytest.mark.skipif(FIPS, reason="the hybrids and SHAKE are outside the FIPS configuration's suites")
@pytest.mark.parametrize("kem", PQ_KEMS, ids=lambda k: k.name)
def test_pq_round_trips(rng, kem):
    """With ML-KEM: each post-quantum KEM with HKDF-SHA256, SHAKE128 and SHAKE256 and every AEAD, in the
    base and PSK modes (generated keys; the private key a seed that public_key and derive_key_pair
    reproduce); the auth modes refused with ValueError. Without it: test_pq_kem_sizes_and_refusals."""
    if not mlkem_expected():
        with pytest.raises(libaead.UnsupportedAlgorithm):
            CipherSuite(kem, KDFId.HKDF_SHA256, AEADId.AES128_GCM).generate_key_pair()
        return
    trips = 0
    for kdf in (KDFId.HKDF_SHA256, KDFId.SHAKE128, KDFId.SHAKE256):
        for aead in AEADId:
            suite = CipherSuite(kem, kdf, aead)
            ikm = rng.randbytes(32)
            kp = suite.derive_key_pair(ikm)
            assert suite.derive_key_pair(ikm) == kp and suite.public_key(kp.private_key) == kp.public_key
            assert (len(kp.public_key), len(kp.private_key)) == (suite.public_key_size, suite.private_key_size)
            for mode in (Mode.BASE, Mode.PSK):
                kr, ks, info, psk, psk_id, enc, sender, recipient = _random_setup(rng, suite, mode)
                assert len(enc) == suite.enc_size
                assert sender.export(b"ctx", 48) == recipient.export(b"ctx", 48)
                if aead != AEADId.EXPORT_ONLY:
                    for _ in range(3):
                        pt, aad = rng.randbytes(rng.randrange(0, 300)), rng.randbytes(rng.randrange(0, 40))
                        ct = sender.seal(pt, aad)
                        with pytest.raises(libaead.InvalidTag):
                            recipient.open(ct, aad + b"x")
                        assert recipient.open(ct, aad) == pt
                    enc2, ct2 = suite.seal(kr.public_key, b"m", info, b"", psk, psk_id)
                    assert suite.open(enc2, kr.private_key, ct2, info, b"", psk, psk_id) == b"m"
                    assert suite.decrypt(suite.encrypt(b"pyca", kr.public_key), kr.private_key) == b"pyca"
                trips += 1
            with pytest.raises(ValueError):
                suite.create_sender_context(kp.public_key, b"", kp.private_key)
    assert trips == 3 * len(AEADId) * 2
