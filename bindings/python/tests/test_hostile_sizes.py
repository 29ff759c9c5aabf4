"""Sizes never wrap: batches whose summed lengths exceed sys.maxsize (PY_SSIZE_T_MAX), or wrap
modulo 2**64, built from a large read-only anonymous mapping (address space only: its pages are never
touched, since every such call is refused before libaead reads an input), are refused before the call
with OverflowError (or ValueError), and nothing is written: neither the output buffer nor the guard
bytes around it change. Before library 1.2 the compiled path summed the output lengths in a Py_ssize_t and
a batch whose sum wrapped to len(buf) passed the size check: an accepted record then wrote outside buf.
Single calls on inputs over the algorithm's limit are refused as OverflowError before any output is
allocated. Runs on whichever backend test.sh selected (fast, api, abi)."""

import gc
import mmap
import sys

import pytest

import libaead
from conftest import Arena

GCM_MAX = (1 << 36) - 32  # AEAD_GCM_MAX_PLAINTEXT
CHACHA_MAX = (1 << 38) - 64  # AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT


def _map(size):
    try:
        return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
    except OSError:  # a smaller address-space limit (ulimit -v): the caller tries a smaller exponent
        return None


@pytest.fixture(scope="module")
def huge():
    """(memoryview, e): a read-only view of 2**e + 2 pages of address space, e as large as available
    (45 on x86-64 unless limited). Never read."""
    for e in (45, 44, 43, 42, 41, 40):
        m = _map((1 << e) + 2 * 4096)
        if m is not None:
            break
    else:
        pytest.fail("no read-only mapping of 2**40 bytes or more could be made (ulimit -v?)")
    view = memoryview(m)
    assert view.readonly
    yield view, e
    del view
    gc.collect()
    try:
        m.close()
    except BufferError:  # a slice still alive (a traceback): the mapping goes with it
        pass


def _refused(fn, *args):
    with pytest.raises((OverflowError, ValueError)) as info:
        fn(*args)
    return info.value


def wrapping_batch(view, e, overhead, small_out, target):
    """Inputs (slices of view) whose seal outputs (input + overhead) sum to 2**64 - small_out + target:
    2**(64-e) - 1 outputs of 2**e bytes and one shorter. A record of small_out output bytes after them
    brings the total to 2**64 + target, which a 64-bit sum wraps to `target`."""
    count = 1 << (64 - e)
    full = view[:(1 << e) - overhead]
    last = view[:(1 << e) - overhead - (small_out - target)]
    return [full] * (count - 1) + [last]


@pytest.mark.parametrize("name", ["AESGCM", "ChaCha20Poly1305"])
def test_encrypt_many_into_wrapping_total(huge, name):
    view, e = huge
    obj = getattr(libaead, name)(bytes(32))
    small = bytes(64)  # a record the library would accept: 80 bytes of output
    # the huge records' outputs sum to 2**64 - 40, then the small one: a wrapped total of 40, and the
    # small record's output would start 40 bytes before buf (in the guard) and run 40 bytes into it
    datas = wrapping_batch(view, e, 16, 80, 40) + [small]
    arena = Arena(40)
    nonces = [bytes(12)] * len(datas)
    exc = _refused(obj.encrypt_many_into, nonces, datas, None, arena.buf)
    assert arena.untouched(), "bytes outside (or inside) buf were written"
    # the small record first (offset 0): also refused, nothing written
    arena = Arena(40)
    _refused(obj.encrypt_many_into, nonces, [small] + datas[:-1], None, arena.buf)
    assert arena.untouched()
    print(type(exc).__name__, exc)


def test_decrypt_many_into_wrapping_total(huge):
    view, e = huge
    obj = libaead.AESGCM(bytes(16))
    nonce = bytes(12)
    good = obj.encrypt(nonce, bytes(64), None)  # authentic: the library would decrypt it (64 bytes out)
    count = 1 << (64 - e)
    full = view[:(1 << e) + 16]  # plaintext 2**e
    last = view[:(1 << e) + 16 - (64 - 24)]  # so that the total is 2**64 + 24
    datas = [full] * (count - 1) + [last, good]
    arena = Arena(24)
    _refused(obj.decrypt_many_into, [nonce] * len(datas), datas, None, arena.buf)
    assert arena.untouched()


def test_random_nonce_encrypt_many_into_wrapping_total(huge):
    view, e = huge
    obj = libaead.AESGCMRandomNonce(bytes(16))
    datas = wrapping_batch(view, e, obj.OVERHEAD, 64 + obj.OVERHEAD, 50) + [bytes(64)]
    arena = Arena(50)
    _refused(obj.encrypt_many_into, datas, None, arena.buf)
    assert arena.untouched()


def test_total_over_maxsize_without_wrapping(huge):
    """Summed outputs between 2**63 and 2**64 (a negative Py_ssize_t if unchecked): refused."""
    view, e = huge
    obj = libaead.AESGCM(bytes(16))
    count = (1 << (63 - e)) + 1
    datas = [view[:(1 << e) - 16]] * count
    assert sum(len(d) + 16 for d in datas) > sys.maxsize
    arena = Arena(64)
    _refused(obj.encrypt_many_into, [bytes(12)] * count, datas, None, arena.buf)
    assert arena.untouched()


def test_records_over_the_limit_refused_before_the_call(huge):
    """A batch with one record over the algorithm's limit is refused as a whole, before the call: the
    records before it are not sealed (on a TLS object they would have used up sequence numbers) and no
    output is allocated for it (encrypt_many)."""
    view, _ = huge
    obj = libaead.AESGCMForTLS13(bytes(16), bytes(12))
    aad = bytes(5)
    too_long = view[:GCM_MAX + 1]
    nonces = [bytes(11) + bytes([s]) for s in range(3)]
    with pytest.raises(OverflowError) as info:
        obj.encrypt_many(nonces, [b"a", b"b", too_long], [aad] * 3)
    assert info.value.index == 2
    arena = Arena(17 + 17 + 16)  # the size check can never pass: the refusal comes first
    with pytest.raises(OverflowError):
        obj.encrypt_many_into(nonces, [b"a", b"b", too_long], [aad] * 3, arena.buf)
    assert arena.untouched()
    # nothing was consumed: sequence 0 is still the next one
    assert obj.encrypt(nonces[0], b"a", aad) == libaead.AESGCM(bytes(16)).encrypt(nonces[0], b"a", aad)


@pytest.mark.parametrize("name,limit", [("AESGCM", GCM_MAX), ("ChaCha20Poly1305", CHACHA_MAX)])
def test_single_calls_over_the_limit(huge, name, limit):
    view, e = huge
    if (1 << e) < limit + 17:
        pytest.fail("the mapping (2**%d) is smaller than %s's limit" % (e, name))
    obj = getattr(libaead, name)(bytes(32))
    nonce = bytes(12)
    over = view[:limit + 1]
    with pytest.raises(OverflowError):
        obj.encrypt(nonce, over, None)  # before allocating limit + 17 bytes
    with pytest.raises(OverflowError):
        obj.decrypt(nonce, view[:limit + 17], None)
    arena = Arena(64)
    with pytest.raises((OverflowError, ValueError)):
        obj.encrypt_into(nonce, over, None, arena.buf)
    with pytest.raises((OverflowError, ValueError)):
        obj.decrypt_into(nonce, view[:limit + 17], None, arena.buf)
    assert arena.untouched()
    # the largest input is not refused for its size: only buf's size is wrong here
    with pytest.raises(ValueError, match="buffer must be"):
        obj.encrypt_into(nonce, view[:limit], None, arena.buf)
    assert arena.untouched()


def test_random_nonce_single_over_the_limit(huge):
    view, _ = huge
    obj = libaead.AESGCMRandomNonce(bytes(16))
    with pytest.raises(OverflowError):
        obj.encrypt(view[:GCM_MAX + 1], None)
    with pytest.raises(OverflowError):
        obj.decrypt(view[:GCM_MAX + 1 + obj.OVERHEAD], None)
