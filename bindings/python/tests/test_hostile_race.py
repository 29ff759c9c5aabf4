"""A caller that changes the nonce while a seal runs (another thread writing a bytearray, the GIL
released for the call) never gets a record sealed under a nonce the library did not check (
library 1.2: the nonce is copied, then checked, and the copy is what libcrypto uses).

TLS 1.2 / TLS 1.3 objects: a writer thread advances the sequence number in a bytearray nonce, one byte
store at a time (byte 11, so a read can never be torn), during single calls and batches whose records
all name that one bytearray. Every record that comes back (or, for encrypt_many_into, that a refused
batch left in buf) is looked up among the 256 candidate nonces the writer can produce: its first block
must be the keystream of exactly one of them, it must decrypt under that nonce with a policy-free
reference AES-GCM (pyca's when it is available), that sequence number must lie in the range the writer
went through during the call, and the sequence numbers must strictly increase in call order (so no
two records share a nonce). Finally the object's state must match what was observed: the highest
sequence number seen is refused again and the next one accepted (a check made on one value and a seal
under another would leave them apart).

AESGCMRandomNonce: the writer keeps overwriting the nonce field of the output buffer during
encrypt_into / encrypt_many_into. A record must decrypt under the nonce written in it, or (when the
writer overwrote that field after the call wrote it) under none; never under the writer's bytes; and
no two records share a nonce.

The compiled path releases the GIL only from 32 KiB (a threshold): it is set to 0 here so that these
16-byte calls run without the GIL, as cffi's calls always do."""

import os
import threading
import time

import pytest

import libaead

FIPS = os.environ.get("LIBAEAD_TEST_FIPS", "") not in ("", "0")
# With one CPU the writer runs only when the caller is preempted inside the C call: the checks still
# hold, but evidence that the race ran is demanded only with two.
NEED_EVIDENCE = len(os.sched_getaffinity(0)) >= 2
if FIPS:  # pyca/cryptography cannot load the FIPS provider beside libaead (conftest.py)
    Ref = libaead.AESGCM
else:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM as Ref

ZEROS = bytes(16)
# Inputs long enough that the writer, woken when a call releases the GIL, runs during the call: the
# single calls take 32 KiB, the batches 32 records of 16 KiB (the first block identifies the nonce).
SINGLE = bytes(32768)
RECORD = bytes(16384)
BATCH = 32
MANY_SIZES = [1, 2, 8]  # encrypt_many's outputs are seen only when every record is accepted
MIN_ROUNDS = 4
MAX_SECONDS = float(os.environ.get("LIBAEAD_RACE_SECONDS", "40"))
SPINS = [0, 5, 40, 300]  # the writer's pauses (loop iterations) between steps, cycled over rounds
TLS = ["AESGCMForTLS12", "AESGCMForTLS13"]
MODES = ["encrypt", "encrypt_into", "encrypt_many", "encrypt_many_into"]


@pytest.fixture(autouse=True)
def without_gil(gil_released):
    yield


class ByteWriter(threading.Thread):
    """Stores values[1], values[2], ... into buf[index], one byte at a time, only while `go` is set (the
    caller sets it around each call, so the steps happen while the call runs without the GIL rather
    than while the caller prepares it); `pos` is the index of the last value stored (buf holds
    values[pos] or values[pos + 1])."""

    def __init__(self, buf, index, values, spin):
        super().__init__(daemon=True)
        self.buf, self.index, self.values, self.spin = buf, index, values, spin
        self.go = threading.Event()
        self.pos = 0
        self.done = False
        self.stop = False

    def run(self):
        buf, index, spin, go = self.buf, self.index, self.spin, self.go
        for k in range(1, len(self.values)):
            while not go.wait(0.05):
                if self.stop:
                    return
            buf[index] = self.values[k]
            self.pos = k
            for _ in range(spin):
                pass
            time.sleep(0)  # gives the GIL back at once: a caller whose call returned is not held up
        self.done = True

    def call(self, fn, *args):
        """fn(*args) with the writer running."""
        self.go.set()
        try:
            return fn(*args)
        finally:
            self.go.clear()


class TlsRound:
    """One object, one writer run through sequence numbers 0..255."""

    def __init__(self, name):
        self.key = os.urandom(16)
        if name == "AESGCMForTLS12":
            self.iv, self.aad = os.urandom(4), bytes(13)  # RFC 5288: salt || BE64(seq)
        else:
            self.iv, self.aad = os.urandom(12), bytes(5)  # RFC 8446: iv XOR BE96(seq)
        self.obj = getattr(libaead, name)(self.key, self.iv)
        self.ref = Ref(self.key)
        self.nonces = [self.nonce(s) for s in range(256)]
        assert all(n[:11] == self.nonces[0][:11] for n in self.nonces)  # only byte 11 moves
        self.keystream = {self.ref.encrypt(n, ZEROS, self.aad)[:16]: s for s, n in enumerate(self.nonces)}
        assert len(self.keystream) == 256

    def nonce(self, seq):
        if len(self.iv) == 4:
            return self.iv + seq.to_bytes(8, "big")
        return self.iv[:4] + (int.from_bytes(self.iv[4:], "big") ^ seq).to_bytes(8, "big")

    def seq_of(self, record):
        """The one candidate sequence number the record was sealed under (asserted): its first block
        is that nonce's keystream (plaintexts are zeros), and it decrypts under that nonce."""
        seq = self.keystream.get(record[:16])
        assert seq is not None, "a record sealed under a nonce the writer never wrote: %s" % record[:32].hex()
        assert self.ref.decrypt(self.nonces[seq], record, self.aad) == bytes(len(record) - 16)
        return seq


def _observed(mode, obj, nb, aad, calls, writer):
    """One call in `mode` with the shared bytearray nonce, the writer running; returns the records it
    left visible (all of them, except for encrypt_many when it raises: its outputs are dropped with the
    exception)."""
    refused = libaead.NonceReuseError
    if mode == "encrypt":
        try:
            return [writer.call(obj.encrypt, nb, SINGLE, aad)]
        except refused:
            return []
    if mode == "encrypt_into":
        buf = bytearray(b"\xee" * (len(SINGLE) + 16))
        try:
            assert writer.call(obj.encrypt_into, nb, SINGLE, aad, buf) == len(buf)
        except refused:
            assert buf.count(0xEE) == len(buf)  # refused: nothing written
            return []
        return [bytes(buf)]
    if mode == "encrypt_many":
        count = MANY_SIZES[calls % len(MANY_SIZES)]
        args = ([nb] * count, [RECORD] * count, [aad] * count)
        try:
            return writer.call(obj.encrypt_many, *args)
        except refused:
            return []
    size = len(RECORD) + 16
    buf = bytearray(b"\xee" * (size * BATCH))
    args = ([nb] * BATCH, [RECORD] * BATCH, [aad] * BATCH, buf)
    first_refused = BATCH
    try:
        assert writer.call(obj.encrypt_many_into, *args) == len(buf)
    except refused as e:
        first_refused = e.index
    untouched = b"\xee" * size
    regions = [bytes(buf[size * j:size * (j + 1)]) for j in range(BATCH)]
    assert all(r != untouched for r in regions[:first_refused])  # accepted before the first refusal
    if first_refused < BATCH:
        assert regions[first_refused] == untouched  # the refused record wrote nothing
    return [r for r in regions if r != untouched]  # refused records write nothing


def _race(t, mode, nb, writer, seqs, stats, deadline):
    """Calls until the writer has stored its last value (and once more), or until the deadline; the
    sequence numbers of the records seen, in call order, go to seqs."""
    while True:
        finished = writer.done or time.monotonic() > deadline
        lo = writer.pos
        records = _observed(mode, t.obj, nb, t.aad, stats["calls"], writer)
        hi = writer.pos + 1
        call = []
        for r in records:
            s = t.seq_of(r)
            assert lo <= s <= hi, (s, lo, hi)  # a value the buffer held during the call
            call.append(s)
        stats["calls"] += 1
        stats["records"] += len(call)
        stats["moved"] += bool(call) and hi - lo > 1
        stats["mixed"] += len(set(call)) > 1  # the nonce changed during this one call, and both were used
        seqs += call
        if finished:
            return
        if not call:
            # Refused (the buffer holds a value already used): a call that only repeats it is refused at
            # once, too short for the writer to wake in, so the writer takes one step outside any call
            # (the GIL released for a moment with `go` set) rather than the round spinning on refusals.
            writer.call(time.sleep, 0.001)


def run_tls_round(name, mode, spin, stats, deadline):
    t = TlsRound(name)
    nb = bytearray(t.nonces[0])
    writer = ByteWriter(nb, 11, [n[11] for n in t.nonces], spin)
    seqs = []
    writer.start()
    try:
        _race(t, mode, nb, writer, seqs, stats, deadline)
    finally:
        writer.stop = True
        writer.go.set()
        writer.join()
    # A round's first call seals under a fresh object, so it is accepted; only encrypt_many can hide it (a
    # batch whose later records read the nonce before the writer moved it is refused as a whole, its
    # first record still consumed), and on a loaded machine every single call of a round can then read a
    # consumed value. Its evidence that records were accepted is demanded over the rounds (the test's
    # 'moved'), not per round.
    assert seqs or mode == "encrypt_many", "no record was accepted"
    assert all(a < b for a, b in zip(seqs, seqs[1:])), seqs  # strictly increasing: no nonce twice
    if mode != "encrypt_many":  # every accepted record was observed: the committed state is the last one
        last = seqs[-1]
        with pytest.raises(libaead.NonceReuseError):
            t.obj.encrypt(t.nonces[last], ZEROS, t.aad)
        if last < 255:
            assert t.seq_of(t.obj.encrypt(t.nonces[last + 1], ZEROS, t.aad)) == last + 1


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", TLS)
def test_tls_nonce_mutated_during_seal(name, mode):
    stats = dict(calls=0, records=0, moved=0, mixed=0)
    start = time.monotonic()
    rounds = 0
    batch = mode == "encrypt_many_into"  # encrypt_many shows its records only when all are accepted
    # evidence that the race really ran: a call during which the writer moved and a record was sealed;
    # for batches, one call whose records were sealed under two different values of the one buffer.
    # MIN_ROUNDS rounds (one per writer pace) when they fit in MAX_SECONDS; past it, the evidence suffices.
    while True:
        run_tls_round(name, mode, SPINS[rounds % len(SPINS)], stats, start + MAX_SECONDS)
        rounds += 1
        evidence = stats["mixed"] if batch else stats["moved"]
        late = time.monotonic() - start > MAX_SECONDS
        if (rounds >= MIN_ROUNDS or late) and (evidence > 0 or not NEED_EVIDENCE):
            break
        if late:
            pytest.fail("the writer never changed the nonce during an accepted call in %d rounds (%s): "
                        "the race did not run" % (rounds, stats))
    print("%s %s %s: %d rounds, %s" % (libaead.backend, name, mode, rounds, stats))


# ---- AESGCMRandomNonce: the nonce field of the output ----

W = b"\x5a" * 12  # what the writer stores


class FieldWriter(threading.Thread):
    """While `go` is set (around each call), keeps storing W into the nonce field (first 12 bytes) of
    each record slot of buf."""

    def __init__(self, buf, slots, size):
        super().__init__(daemon=True)
        self.buf, self.slots, self.size = buf, slots, size
        self.go = threading.Event()
        self.stop = False

    def run(self):
        buf, size, go = self.buf, self.size, self.go
        while not self.stop:
            if not go.wait(0.05):
                continue
            for j in range(self.slots):
                buf[j * size:j * size + 12] = W
            time.sleep(0)

    call = ByteWriter.call


def _opens(ref, nonce, body):
    """The plaintext of body under nonce with the reference AEAD, or None (pyca's or libaead's InvalidTag)."""
    try:
        return ref.decrypt(nonce, body, None)
    except Exception:  # noqa: BLE001 - InvalidTag of either library
        return None


def check_random_record(ref, record, seen, stats):
    field, body = record[:12], record[12:]
    assert _opens(ref, W, body) is None, "a record sealed under the bytes another thread wrote into buf"
    plain = _opens(ref, field, body)
    if plain is None:
        # the field was overwritten after the call wrote it: allowed only where the writer's bytes are
        # there (wholly or in part: its stores and the library's can interleave)
        assert any(a == b for a, b in zip(field, W)), "a record that decrypts under no nonce: %s" % record[:44].hex()
        stats["overwritten"] += 1
        return
    assert plain == bytes(len(body) - 16)
    assert field not in seen, "nonce %s sealed twice" % field.hex()
    seen.add(field)
    stats["clean"] += 1


@pytest.mark.parametrize("mode", ["encrypt_into", "encrypt_many_into"])
def test_random_nonce_output_field_mutated_during_seal(mode):
    key = os.urandom(16)
    obj, ref = libaead.AESGCMRandomNonce(key), Ref(key)
    data = SINGLE if mode == "encrypt_into" else RECORD
    size = len(data) + obj.OVERHEAD
    slots = 1 if mode == "encrypt_into" else BATCH
    seen = set()
    stats = dict(calls=0, clean=0, overwritten=0)
    start = time.monotonic()
    while True:
        buf = bytearray(size * slots)
        writer = FieldWriter(buf, slots, size)
        writer.start()
        try:
            for _ in range(100):
                if mode == "encrypt_into":
                    assert writer.call(obj.encrypt_into, data, None, buf) == size
                else:
                    assert writer.call(obj.encrypt_many_into, [data] * slots, None, buf) == len(buf)
                stats["calls"] += 1
                # a snapshot (under the GIL, so the writer's slice stores are whole here)
                snap = bytes(buf)
                for j in range(slots):
                    check_random_record(ref, snap[j * size:(j + 1) * size], seen, stats)
        finally:
            writer.stop = True
            writer.go.set()
            writer.join()
        if stats["calls"] >= (2000 if slots == 1 else 500) and stats["clean"] > 0 and (stats["overwritten"] > 0 or not NEED_EVIDENCE):
            break
        if time.monotonic() - start > MAX_SECONDS:
            pytest.fail("the writer and the calls never overlapped (%s)" % stats)
    print("%s AESGCMRandomNonce %s: %s" % (libaead.backend, mode, stats))
