"""libaead.hpke against independent HPKE implementations, both directions, on random inputs.

* pyhpke (PyPI, pinned in test.sh), 1,000 cases: a random suite (5 KEMs x 3 KDFs x 4 AEADs), mode, info,
  PSK, AAD and lengths per case; the key pairs come from DeriveKeyPair on both sides (they must agree);
  libaead seals and pyhpke opens, pyhpke seals and libaead opens, several messages per context; both
  sides' exports agree; a tampered ciphertext is refused by each side (libaead's in-order context then
  still opens the genuine message); libaead's single-shot seal opened by pyhpke.
* pyca/cryptography's single-shot ``hpke.Suite`` (base mode, no AAD), 1,000 cases over its KEMs (X25519,
  P-256, P-384, P-521), KDFs and AEADs: ``Suite.encrypt`` opened by ``CipherSuite.decrypt`` and the
  reverse, pyca's key objects passed to libaead as they are; tampered messages refused by both.

The counts are printed in pytest's closing summary. Not under LIBAEAD_TEST_FIPS=1 (conftest.py: pyca's
OpenSSL cannot share the FIPS provider).
"""

import pyhpke
import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hpke as pyca_hpke
from cryptography.hazmat.primitives.asymmetric import ec, x25519

import libaead
from conftest import report_vectors
from libaead.hpke import AEADId, CipherSuite, KDFId, KEMId, Mode

CASES = 1000


def _tamper(rng, data):
    bad = bytearray(data)
    bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
    return bytes(bad)


# pyhpke has RFC 9180's KEMs and KDFs, not draft-ietf-hpke-pq's.
_RFC_KEMS = [k for k in KEMId if k < 0x0040]
_RFC_KDFS = [f for f in KDFId if f <= 0x0003]


def test_pyhpke_both_directions(rng):
    counts = {"libaead->pyhpke": 0, "pyhpke->libaead": 0, "exports": 0, "tampered refused": 0}
    for _ in range(CASES):
        kem, kdf, aead = rng.choice(_RFC_KEMS), rng.choice(_RFC_KDFS), rng.choice(list(AEADId))
        mode = rng.choice(list(Mode))
        ours = CipherSuite(kem, kdf, aead)
        theirs = pyhpke.CipherSuite.new(pyhpke.KEMId(int(kem)), pyhpke.KDFId(int(kdf)), pyhpke.AEADId(int(aead)))
        auth, with_psk = mode in (Mode.AUTH, Mode.AUTH_PSK), mode in (Mode.PSK, Mode.AUTH_PSK)
        nsk = ours.private_key_size
        ikm_r, ikm_s = rng.randbytes(nsk + rng.randrange(0, 16)), rng.randbytes(nsk)
        kr, kr_theirs = ours.derive_key_pair(ikm_r), theirs.kem.derive_key_pair(ikm_r)
        assert kr.public_key == kr_theirs.public_key.to_public_bytes()
        ks = ours.derive_key_pair(ikm_s) if auth else None
        ks_theirs = theirs.kem.derive_key_pair(ikm_s) if auth else None
        info = rng.randbytes(rng.choice((0, 1, 16, rng.randrange(0, 200))))
        psk = rng.randbytes(rng.randrange(32, 65)) if with_psk else b""
        psk_id = rng.randbytes(rng.randrange(1, 33)) if with_psk else b""

        # libaead seals, pyhpke opens.
        enc, sender = ours.create_sender_context(kr.public_key, info, ks and ks.private_key, psk, psk_id)
        recipient = theirs.create_recipient_context(enc, kr_theirs.private_key, info,
                                                    ks_theirs and ks_theirs.public_key, psk, psk_id)
        # pyhpke seals, libaead opens (their keys, as pyhpke KEMKey objects, taken by libaead).
        enc2, sender2 = theirs.create_sender_context(theirs.kem.deserialize_public_key(kr.public_key), info,
                                                     ks_theirs and ks_theirs.private_key, psk, psk_id)
        recipient2 = ours.create_recipient_context(enc2, kr_theirs.private_key, info,
                                                   ks_theirs and ks_theirs.public_key, psk, psk_id)
        for ctx_a, ctx_b in ((sender, recipient), (sender2, recipient2)):
            ectx = rng.randbytes(rng.randrange(0, 64))
            length = rng.randrange(1, 100)
            assert ctx_a.export(ectx, length) == ctx_b.export(ectx, length)
            counts["exports"] += 1
        if aead == AEADId.EXPORT_ONLY:
            continue
        for _ in range(rng.randrange(1, 4)):
            pt, aad = rng.randbytes(rng.randrange(0, 300)), rng.randbytes(rng.randrange(0, 50))
            ct = sender.seal(pt, aad)
            assert recipient.open(ct, aad) == pt
            counts["libaead->pyhpke"] += 1
            ct2 = sender2.seal(pt, aad)
            if rng.random() < 0.25:  # a tampered copy first: refused, and the in-order context stays put
                with pytest.raises(libaead.InvalidTag):
                    recipient2.open(_tamper(rng, ct2), aad)
                counts["tampered refused"] += 1
            assert recipient2.open(ct2, aad) == pt
            counts["pyhpke->libaead"] += 1
        # Single-shot both ways.
        pt, aad = rng.randbytes(rng.randrange(0, 100)), rng.randbytes(rng.randrange(0, 20))
        enc3, ct3 = ours.seal(kr.public_key, pt, info, aad, psk, psk_id, ks and ks.private_key)
        def theirs_recipient():
            return theirs.create_recipient_context(enc3, kr_theirs.private_key, info,
                                                   ks_theirs and ks_theirs.public_key, psk, psk_id)
        # pyhpke's in-order context moves to the next sequence number on a failed open too (RFC 9180
        # section 5.2 increments only on success): its tamper check gets a context of its own.
        with pytest.raises(pyhpke.OpenError):
            theirs_recipient().open(_tamper(rng, ct3), aad)
        counts["tampered refused"] += 1
        assert theirs_recipient().open(ct3, aad) == pt
    assert counts["libaead->pyhpke"] >= CASES and counts["pyhpke->libaead"] >= CASES
    assert counts["tampered refused"] > 0
    report_vectors("interop pyhpke %s: %d cases (%s)" % (pyhpke.__version__ if hasattr(pyhpke, "__version__")
                                                         else "", CASES,
                                                         ", ".join("%s %d" % kv for kv in counts.items())),
                   CASES, 0)


_PYCA_KEMS = {
    KEMId.DHKEM_X25519_HKDF_SHA256: (pyca_hpke.KEM.X25519, lambda: x25519.X25519PrivateKey.generate()),
    KEMId.DHKEM_P256_HKDF_SHA256: (pyca_hpke.KEM.P256, lambda: ec.generate_private_key(ec.SECP256R1())),
    KEMId.DHKEM_P384_HKDF_SHA384: (pyca_hpke.KEM.P384, lambda: ec.generate_private_key(ec.SECP384R1())),
    KEMId.DHKEM_P521_HKDF_SHA512: (pyca_hpke.KEM.P521, lambda: ec.generate_private_key(ec.SECP521R1())),
}
_PYCA_KDFS = {KDFId.HKDF_SHA256: pyca_hpke.KDF.HKDF_SHA256, KDFId.HKDF_SHA384: pyca_hpke.KDF.HKDF_SHA384,
              KDFId.HKDF_SHA512: pyca_hpke.KDF.HKDF_SHA512}
_PYCA_AEADS = {AEADId.AES128_GCM: pyca_hpke.AEAD.AES_128_GCM, AEADId.AES256_GCM: pyca_hpke.AEAD.AES_256_GCM,
               AEADId.CHACHA20_POLY1305: pyca_hpke.AEAD.CHACHA20_POLY1305}


def test_pyca_suite_both_directions(rng):
    counts = {"libaead->pyca": 0, "pyca->libaead": 0, "tampered refused": 0}
    for _ in range(CASES):
        kem, kdf, aead = rng.choice(list(_PYCA_KEMS)), rng.choice(list(_PYCA_KDFS)), rng.choice(list(_PYCA_AEADS))
        pyca_kem, generate = _PYCA_KEMS[kem]
        theirs = pyca_hpke.Suite(pyca_kem, _PYCA_KDFS[kdf], _PYCA_AEADS[aead])
        ours = CipherSuite(kem, kdf, aead)
        key = generate()
        info = rng.randbytes(rng.choice((0, 1, rng.randrange(0, 200))))
        pt = rng.randbytes(rng.randrange(0, 300))
        # pyca's key objects go to libaead as they are; its public key bytes too.
        sealed = ours.encrypt(pt, key.public_key(), info=info)
        assert len(sealed) == pyca_kem.enc_length() + len(pt) + 16
        assert theirs.decrypt(sealed, key, info=info) == pt
        counts["libaead->pyca"] += 1
        sealed2 = theirs.encrypt(pt, key.public_key(), info=info)
        assert ours.decrypt(sealed2, key, info=info) == pt
        enc, ct = sealed2[:ours.enc_size], sealed2[ours.enc_size:]
        assert ours.open(enc, key, ct, info) == pt
        counts["pyca->libaead"] += 1
        if rng.random() < 0.25:
            with pytest.raises(libaead.InvalidTag):
                ours.decrypt(_tamper(rng, sealed2), key, info=info)
            with pytest.raises(InvalidTag):
                theirs.decrypt(_tamper(rng, sealed), key, info=info)
            counts["tampered refused"] += 2
    assert counts["tampered refused"] > 0
    report_vectors("interop pyca/cryptography hpke.Suite: %d cases (%s)"
                   % (CASES, ", ".join("%s %d" % kv for kv in counts.items())), CASES, 0)
