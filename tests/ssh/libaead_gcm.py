"""asyncssh's aes128-gcm@openssh.com and aes256-gcm@openssh.com on libaead's SSH context.

install() puts LibaeadGCM in asyncssh's table of encryption algorithms for both names, in place of its
GCMEncryption (pyca/cryptography's AESGCM with asyncssh's own IV increment), and replaces the two names
that stock path goes through (asyncssh.encryption.GCMCipher, asyncssh.crypto.cipher.AESGCM) with a
tripwire that counts and raises: a packet can only be protected through libaead.AESGCMForSSH.

Each key exchange gives one LibaeadGCM per direction: a libaead.AESGCMForSSH made with the key and the
12-byte initial IV of RFC 5647 section 7.1 (fixed(4) || invocation counter(8)), so the library checks
every nonce sealed (the counter strictly increasing from the IV's, the fixed field constant) and the AAD
(the 4-byte packet length). The counter is advanced here per packet, as RFC 5647 says, and the library
refuses any nonce that breaks its rule, so a wrong increment here fails the connection.
"""

import os
import time

import asyncssh.crypto.cipher as _asyncssh_cipher
import asyncssh.encryption as _asyncssh_encryption

import libaead

ALGS = {b"aes128-gcm@openssh.com": ("aes128-gcm", 16), b"aes256-gcm@openssh.com": ("aes256-gcm", 32)}
_TAG = 16
_MASK64 = (1 << 64) - 1


class Stats:
    """What went through libaead in this process (every LibaeadGCM adds to it)."""

    def __init__(self):
        self.keys = 0          # LibaeadGCM objects made (two per key exchange)
        self.sealed = 0        # packets sealed
        self.sealed_bytes = 0  # their plaintext bytes (padding length, payload, padding)
        self.opened = 0        # packets opened and authenticated
        self.opened_bytes = 0
        self.failed = 0        # opens that failed authentication
        self.sealers = []      # the libaead objects that sealed (their own usage counts are checked)

    def snapshot(self):
        return dict(keys=self.keys, sealed=self.sealed, sealed_bytes=self.sealed_bytes, opened=self.opened,
                    opened_bytes=self.opened_bytes, failed=self.failed, time=time.monotonic())

    def libaead_seals(self):
        """The packets sealed, as libaead's own usage counters of the sealing contexts say."""
        return sum(obj.usage.seals for obj in self.sealers)


STATS = Stats()


class LibaeadGCM(_asyncssh_encryption.Encryption):
    """asyncssh's Encryption interface (as its GCMEncryption) over libaead.AESGCMForSSH."""

    def __init__(self, key: bytes, iv: bytes):
        if len(iv) != 12:
            raise ValueError("SSH AES-GCM takes a 12-byte initial IV, got %d bytes" % len(iv))
        self._aead = libaead.AESGCMForSSH(key, iv)  # the library starts the counter at the IV's
        self._fixed = iv[:4]
        self._counter = int.from_bytes(iv[4:], "big")
        self._sealer = False
        STATS.keys += 1

    @classmethod
    def new(cls, cipher_name, key, iv, mac_alg=b"", mac_key=b"", etm=False):
        return cls(key, iv)

    @classmethod
    def needs_mac(cls):
        return False

    @classmethod
    def get_mac_params(cls, mac_alg):
        return 0, _TAG, True  # no MAC key, a 16-byte tag after the packet, the length left in clear

    def _nonce(self) -> bytes:
        nonce = self._fixed + self._counter.to_bytes(8, "big")
        self._counter = (self._counter + 1) & _MASK64
        return nonce

    def encrypt_packet(self, seq, header, packet):
        sealed = self._aead.encrypt(self._nonce(), packet, header)  # header: the 4-byte packet length (AAD)
        if not self._sealer:
            self._sealer = True
            STATS.sealers.append(self._aead)
        STATS.sealed += 1
        STATS.sealed_bytes += len(packet)
        return header + sealed[:-_TAG], sealed[-_TAG:]

    def decrypt_header(self, seq, first_block, header_len):
        return first_block, first_block[:header_len]

    def decrypt_packet(self, seq, first, rest, header_len, mac):
        try:
            plain = self._aead.decrypt(self._nonce(), first[header_len:] + rest + mac, first[:header_len])
        except libaead.InvalidTag:
            STATS.failed += 1
            return None
        STATS.opened += 1
        STATS.opened_bytes += len(plain)
        return plain


class _Tripwire:
    """Stands for the stock GCM path's classes: any use is counted and fails."""

    calls = 0

    def __init__(self, *args, **kwargs):
        type(self).calls += 1
        raise AssertionError("asyncssh's stock AES-GCM path (pyca/cryptography's AESGCM) was used")


def self_test():
    """Before install(): LibaeadGCM gives what asyncssh's stock GCMCipher gives for the same key and IV,
    opens it, and libaead refuses a repeated invocation counter and an AAD that is not 4 bytes. STATS is
    cleared afterwards."""
    for alg, (cipher_name, key_len) in ALGS.items():
        key, iv = os.urandom(key_len), os.urandom(12)
        ours, stock, peer = LibaeadGCM(key, iv), _asyncssh_cipher.GCMCipher(cipher_name, key, iv), LibaeadGCM(key, iv)
        for size in (16, 32, 1024, 32768):
            packet = os.urandom(size)
            header = size.to_bytes(4, "big")
            sealed = ours.encrypt_packet(0, header, packet)
            if sealed != stock.encrypt_and_sign(header, packet):
                raise AssertionError("%s: libaead's packet differs from asyncssh's stock GCM" % alg.decode())
            first, rest = sealed[0][:16], sealed[0][16:]
            if peer.decrypt_packet(0, first, rest, 4, sealed[1]) != packet:
                raise AssertionError("%s: libaead did not open its own packet" % alg.decode())
        ours._counter -= 1  # the counter of the packet just sent: libaead must refuse it
        try:
            ours.encrypt_packet(0, b"\x00\x00\x00\x10", bytes(16))
            raise AssertionError("%s: libaead sealed an invocation counter twice" % alg.decode())
        except libaead.NonceReuseError:
            pass
        ours._counter += 1
        try:
            ours.encrypt_packet(0, b"\x00\x00\x10", bytes(16))
            raise AssertionError("%s: libaead sealed with a 3-byte AAD" % alg.decode())
        except ValueError as exc:
            if isinstance(exc, libaead.NonceReuseError):
                raise
        if ours._aead.usage.seals != 4:
            raise AssertionError("%s: libaead counted %d seals, 4 were made" % (alg.decode(), ours._aead.usage.seals))
    STATS.__init__()


def install():
    for alg, (cipher_name, key_len) in ALGS.items():
        if alg not in _asyncssh_encryption.get_encryption_algs():
            raise SystemExit("asyncssh does not list %s" % alg.decode())
        params = _asyncssh_encryption.get_encryption_params(alg)
        if params[0] != key_len or params[1] != 12:
            raise SystemExit("asyncssh's %s: key %d, IV %d bytes; SSH AES-GCM has %d and 12"
                             % (alg.decode(), params[0], params[1], key_len))
        _asyncssh_encryption._enc_params[alg] = (LibaeadGCM, cipher_name)
    _asyncssh_encryption.GCMCipher = _Tripwire
    _asyncssh_cipher.AESGCM = _Tripwire


def check_installed():
    """Raises unless both names still map to LibaeadGCM and the stock path was never entered."""
    for alg in ALGS:
        if _asyncssh_encryption._enc_params[alg][0] is not LibaeadGCM:
            raise AssertionError("%s is not on libaead any more" % alg.decode())
    if _Tripwire.calls:
        raise AssertionError("the stock AES-GCM path was entered %d times" % _Tripwire.calls)
