"""The Oblivious HTTP example of docs/hpke.md (RFC 9458 section 4), against an independent implementation.

The example's code is taken from the document itself (the Python block that starts with "# Oblivious
HTTP"), so what a reader copies is what runs here. Its client and gateway are run against a second
client and gateway built on pyhpke (PyPI, pinned in test.sh) for HPKE and pyca/cryptography for HKDF and
AES-128-GCM, on random requests and responses, both ways; a flipped bit in either message is refused.
"""

import struct
import sys

import pyhpke
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaAESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import libaead
from conftest import REPO, report_vectors

sys.path.insert(0, str(REPO / "tests" / "snippets"))
import extract  # noqa: E402

CASES = 300
INFO = b"message/bhttp request\x00"


@pytest.fixture(scope="module")
def example():
    doc = REPO / "docs" / "hpke.md"
    found = [body for _, info, body in extract.blocks(str(doc))
             if info and info[0] == "python" and body and body[0].startswith("# Oblivious HTTP")]
    assert len(found) == 1, "docs/hpke.md has %d Oblivious HTTP examples, want 1" % len(found)
    namespace = {"__name__": "ohttp_example"}
    exec(compile("\n".join(found[0]), "%s (Oblivious HTTP example)" % doc, "exec"), namespace)
    return namespace


class Theirs:
    """RFC 9458 section 4 on pyhpke and pyca: X25519, HKDF-SHA256, AES-128-GCM, key id 1."""
    suite = pyhpke.CipherSuite.new(pyhpke.KEMId.DHKEM_X25519_HKDF_SHA256, pyhpke.KDFId.HKDF_SHA256,
                                   pyhpke.AEADId.AES128_GCM)
    hdr = struct.pack(">BHHH", 1, 0x0020, 0x0001, 0x0001)

    @staticmethod
    def response_aead(ctx, enc, response_nonce):
        secret = ctx.export(b"message/bhttp response", 16)

        def hkdf(label, n):
            return HKDF(hashes.SHA256(), n, salt=enc + response_nonce, info=label).derive(secret)

        return PycaAESGCM(hkdf(b"key", 16)), hkdf(b"nonce", 12)

    def encapsulate_request(self, pk, request):
        enc, ctx = self.suite.create_sender_context(self.suite.kem.deserialize_public_key(pk), INFO + self.hdr)
        return self.hdr + enc + ctx.seal(request), (ctx, enc)

    def decapsulate_request(self, sk, enc_request):
        assert enc_request[:7] == self.hdr
        enc, ct = enc_request[7:39], enc_request[39:]
        ctx = self.suite.create_recipient_context(enc, self.suite.kem.deserialize_private_key(sk), INFO + self.hdr)
        return ctx.open(ct), (ctx, enc)

    def encapsulate_response(self, state, response, response_nonce):
        aead, nonce = self.response_aead(state[0], state[1], response_nonce)
        return response_nonce + aead.encrypt(nonce, response, b"")

    def decapsulate_response(self, state, enc_response):
        aead, nonce = self.response_aead(state[0], state[1], enc_response[:16])
        return aead.decrypt(nonce, enc_response[16:], b"")


def _flip(rng, data):
    bad = bytearray(data)
    bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
    return bytes(bad)


def test_example_against_pyhpke(example, rng):
    ours, theirs = example, Theirs()
    sk, pk = ours["SUITE"].generate_key_pair()
    counts = {"our client -> their gateway": 0, "their client -> our gateway": 0, "flipped bits refused": 0}
    for _ in range(CASES):
        request, response = rng.randbytes(rng.randrange(0, 2000)), rng.randbytes(rng.randrange(0, 2000))
        response_nonce = rng.randbytes(16)

        # Our client, their gateway.
        enc_request, our_client = ours["encapsulate_request"](pk, request)
        got, gateway = theirs.decapsulate_request(sk, enc_request)
        assert got == request
        their_response = theirs.encapsulate_response(gateway, response, response_nonce)
        assert ours["decapsulate_response"](our_client, their_response) == response
        counts["our client -> their gateway"] += 1

        # Their client, our gateway; both sides derive the same response bytes from the same nonce.
        enc_request, client = theirs.encapsulate_request(pk, request)
        got, gateway = ours["decapsulate_request"](sk, enc_request)
        assert got == request
        enc_response = ours["encapsulate_response"](gateway, response, response_nonce)
        assert enc_response == theirs.encapsulate_response(client, response, response_nonce)
        assert theirs.decapsulate_response(client, enc_response) == response
        counts["their client -> our gateway"] += 1

        if rng.random() < 0.2:
            with pytest.raises(libaead.InvalidTag):
                ours["decapsulate_request"](sk, _flip_after_header(rng, enc_request))
            with pytest.raises(libaead.InvalidTag):
                ours["decapsulate_response"](our_client, _flip(rng, their_response))
            counts["flipped bits refused"] += 2
    assert counts["flipped bits refused"] > 0
    report_vectors("Oblivious HTTP example vs pyhpke/pyca: %d cases (%s)"
                   % (CASES, ", ".join("%s %d" % kv for kv in counts.items())), CASES, 0)


def _flip_after_header(rng, data):
    """A flipped bit in enc or the ciphertext (a flipped header is a different key configuration)."""
    bad = bytearray(data)
    i = rng.randrange(7, len(bad))
    bad[i] ^= 1 << rng.randrange(8)
    return bytes(bad)
