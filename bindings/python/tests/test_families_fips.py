"""The library 1.2 families under the FIPS stage and outside it, without pyca (see test_fips.py for why):
AES-CCM is served by the FIPS provider (approved seals and opens, SP 800-38C); AES-OCB3, AES-GCM-SIV,
AES-SIV (library 1.3), XChaCha20-Poly1305 and the AEGIS family (library 1.7) are in no FIPS provider and are
refused cleanly with UnsupportedAlgorithm."""

import pytest

import libaead
from conftest import FIPS

NOT_IN_FIPS = [("AESOCB3", 16), ("AESGCMSIV", 16), ("XChaCha20Poly1305", 32), ("XChaCha20Poly1305RandomNonce", 32),
               ("AESSIV", 32)]
NOT_IN_FIPS += [(name + form, 16 if name.startswith("Aegis128") else 32)
                for name in ("Aegis128L", "Aegis256", "Aegis128X2", "Aegis128X4", "Aegis256X2", "Aegis256X4")
                for form in ("", "RandomNonce")]


def test_ccm_and_the_refused_families():
    props = None if FIPS else "fips=yes"
    for name, key_len in NOT_IN_FIPS:
        with pytest.raises(libaead.UnsupportedAlgorithm):
            getattr(libaead, name)(bytes(key_len), properties=props)
    if not FIPS:  # no FIPS provider here: CCM is refused too, and works with the default provider
        with pytest.raises(libaead.UnsupportedAlgorithm):
            libaead.AESCCM(bytes(16), properties="fips=yes")
        ind = libaead.AESCCM(bytes(16)).indicator
        assert ind.provider == "default" and not ind.fips and not ind.seal_approved
        return
    ccm = libaead.AESCCM(bytes(16), 8)
    ind = ccm.indicator
    assert ind.fips and ind.provider == "fips" and ind.open_approved, ind
    ct = ccm.encrypt(bytes(13), b"fips ccm", b"ad")
    assert len(ct) == 16 and ccm.decrypt(bytes(13), ct, b"ad") == b"fips ccm"
    assert ccm.decrypt_many([bytes(13)], [ct], [b"ad"]) == [b"fips ccm"]
    with pytest.raises(libaead.InvalidTag):
        ccm.decrypt(bytes(13), ct[:-1] + bytes([ct[-1] ^ 1]), b"ad")
