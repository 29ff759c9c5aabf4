# The values the Python blocks of the documents use without making them: keys, a 12-byte IV and the
# nonces of a TLS 1.3 sequence on it (nonce: record 0, nonce2: record 1), a TLS 1.2 salt and its 13-byte
# AAD, a 5-byte record header, a record sealed under key, nonce and header, and SSH packets. Made in a
# function, so that a block that forgets an import (os, libaead) fails.
def _values():
    import os
    from libaead import AESGCM
    key, iv = os.urandom(32), os.urandom(12)
    data, header = b"record payload", b"\x17\x03\x03\x00\x1f"
    return {
        "key": key, "iv": iv, "salt": os.urandom(4), "aad13": bytes(13),
        "nonce": iv, "nonce2": iv[:11] + bytes([iv[11] ^ 1]),
        "data": data, "header": header, "record": AESGCM(key).encrypt(iv, data, header),
        "packets": [bytes([4]) + b"payload" + bytes(4), bytes([5]) + b"more payload" + bytes(5)],
    }


globals().update(_values())
del _values


def _reap_children():
    """A block that forks ends in the parent with the first failure of a child (a child that raised has
    printed its traceback)."""
    import os
    status = 0
    while True:
        try:
            _, st = os.wait()
        except ChildProcessError:
            return status
        status = status or os.waitstatus_to_exitcode(st)


# BODY
raise SystemExit(_reap_children())
