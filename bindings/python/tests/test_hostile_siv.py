"""AESSIV against hostile callers (the rules for library 1.3's component calls).

Races: another thread changes a component, the plaintext or the list of components while the call runs
(the GIL released: cffi always, the compiled path with its threshold set to 0). Nothing crashes, nothing
is written outside the output (guard bytes around it stay), and every output is one the library could
have computed from a state the writer produced:
  * a component byte toggled between two values: the output is exactly the sealing under one of them
    (S2V reads each byte once);
  * a plaintext byte toggled: the SIV is one of the two plaintexts' and the ciphertext equals that
    sealing's, except that the toggled position may hold the other value's byte (SIV reads the plaintext
    twice: for S2V, then for CTR; a mixed result fails to open, which is what SIV promises);
  * the list itself changed (items appended and removed): the components are taken from one snapshot of
    it, so the output is the sealing under one of the lists the writer made;
  * a bytearray component cannot be resized while a call holds it (BufferError in the writer).
Sizes: components, data and batches over the limits (2**31 - 1 bytes each, 126 components) are refused
before the call from a large read-only mapping whose pages are never touched, with nothing written."""

import gc
import mmap
import os
import re
import threading
import time

import pytest

import libaead
from conftest import Arena

FIPS = os.environ.get("LIBAEAD_TEST_FIPS", "") not in ("", "0")
pytestmark = pytest.mark.skipif(FIPS, reason="AES-SIV is in no FIPS provider (test_families_fips.py)")
NEED_EVIDENCE = len(os.sched_getaffinity(0)) >= 2
ONE_MAX = (1 << 31) - 1
_m = re.search(r"OpenSSL (\d+)\.(\d+)", libaead.library_version())
TAKES_EMPTY = (int(_m.group(1)), int(_m.group(2))) >= (3, 5)


@pytest.fixture(autouse=True)
def without_gil(gil_released):
    yield


class Toggler(threading.Thread):
    """Flips buf[index] between two values (one byte store: never torn) until stopped."""

    def __init__(self, buf, index, values):
        super().__init__(daemon=True)
        self.buf, self.index, self.values = buf, index, values
        self.stop = threading.Event()
        self.flips = 0

    def run(self):
        a, b = self.values
        while not self.stop.is_set():
            self.buf[self.index] = b
            self.buf[self.index] = a
            self.flips += 2


ROUNDS = 150
SIZE = 32768  # long enough that the writer runs during the call
RACE_SECONDS = 60  # a bound for the races that must be seen to run, on a loaded machine


def test_component_changed_during_the_call():
    obj = libaead.AESSIV(os.urandom(64))
    comp = bytearray(os.urandom(SIZE))
    pos = SIZE // 2
    comp[pos] = 0
    data = os.urandom(SIZE)
    wants = []
    for v in (0, 1):
        comp[pos] = v
        wants.append(obj.encrypt(data, [b"head", bytes(comp)]))
    comp[pos] = 0
    writer = Toggler(comp, pos, (0, 1))
    seen = [0, 0]
    arena = Arena(SIZE + 16)
    writer.start()
    try:
        for i in range(ROUNDS):
            mode = i % 3
            if mode == 0:
                out = obj.encrypt(data, [b"head", comp])
            elif mode == 1:
                assert obj.encrypt_into(data, [b"head", comp], arena.buf) == SIZE + 16
                out = bytes(arena.buf)
            else:
                out = obj.encrypt_many([data], [[b"head", comp]])[0]
            assert out in wants, "an output sealed under no value the component held"
            seen[wants.index(out)] += 1
            assert arena.guards_intact()
            # opening while the component changes: the plaintext, or InvalidTag with the buffer zeroed
            plain = bytearray(b"\x77" * SIZE)
            try:
                assert obj.decrypt_into(wants[0], [b"head", comp], plain) == SIZE
                assert plain == data
            except libaead.InvalidTag:
                assert plain == bytes(SIZE)
    finally:
        writer.stop.set()
        writer.join()
    print("component toggled %d times: outputs under value 0: %d, under 1: %d" % (writer.flips, *seen))
    if NEED_EVIDENCE:
        assert writer.flips > 0


def test_plaintext_changed_during_the_call():
    obj = libaead.AESSIV(os.urandom(32))
    data = bytearray(os.urandom(SIZE))
    pos = SIZE - 100
    wants = []
    for v in (0, 1):
        data[pos] = v
        wants.append(obj.encrypt(bytes(data), [b"ad"]))
    data[pos] = 0
    writer = Toggler(data, pos, (0, 1))
    arena = Arena(SIZE + 16)
    exact = mixed = 0
    writer.start()
    try:
        for i in range(ROUNDS):
            if i % 2:
                assert obj.encrypt_into(data, [b"ad"], arena.buf) == SIZE + 16
                out = bytes(arena.buf)
            else:
                out = obj.encrypt(data, [b"ad"])
            assert arena.guards_intact()
            siv = out[:16]
            assert siv in (wants[0][:16], wants[1][:16]), "a SIV of no plaintext the writer produced"
            want = wants[0] if siv == wants[0][:16] else wants[1]
            at = 16 + pos
            assert out[:at] == want[:at] and out[at + 1:] == want[at + 1:]
            assert out[at] ^ want[at] in (0, 1)  # the toggled byte: this value's or the other's
            if out == want:
                exact += 1
            else:
                mixed += 1
                with pytest.raises(libaead.InvalidTag):  # a mixed output never opens
                    obj.decrypt(out, [b"ad"])
    finally:
        writer.stop.set()
        writer.join()
    print("plaintext toggled %d times: %d exact outputs, %d mixed (read between S2V and CTR)"
          % (writer.flips, exact, mixed))


def test_list_changed_during_the_call():
    """The writer appends and removes a component; the call seals under one snapshot of the list."""
    obj = libaead.AESSIV(os.urandom(48))
    big = os.urandom(SIZE)
    comps = [b"one", big]
    data = os.urandom(1000)
    wants = {obj.encrypt(data, [b"one", big]): 2, obj.encrypt(data, [b"one", big, b"extra"]): 3}
    stop = threading.Event()
    changes = [0]

    def writer():
        while not stop.is_set():
            comps.append(b"extra")
            comps.pop()
            changes[0] += 2

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    counts = {2: 0, 3: 0}
    try:
        for i in range(ROUNDS):
            out = obj.encrypt(data, comps) if i % 2 else obj.encrypt_many([data], [comps])[0]
            assert out in wants, "an output under a list the writer never made"
            counts[wants[out]] += 1
    finally:
        stop.set()
        t.join()
    print("list changed %d times: outputs under 2 components: %d, under 3: %d" % (changes[0], counts[2], counts[3]))


def test_component_cannot_be_resized_during_the_call():
    """A bytearray component is exported for the call: resizing it from another thread fails (BufferError)
    instead of freeing the memory the call reads; after the call it can be resized again."""
    obj = libaead.AESSIV(os.urandom(32))
    comp = bytearray(SIZE)
    data = bytes(SIZE)
    wants = (obj.encrypt(data, [bytes(SIZE)]), obj.encrypt(data, [bytes(SIZE) + b"x"]))
    stop = threading.Event()
    outcomes = {"resized": 0, "refused": 0}

    def writer():
        while not stop.is_set():
            try:
                comp.extend(b"x")
            except BufferError:
                outcomes["refused"] += 1
                continue
            while True:  # the call may have taken the SIZE + 1 byte value in between
                try:
                    del comp[-1]
                    break
                except BufferError:
                    outcomes["refused"] += 1
            outcomes["resized"] += 1

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    start = time.monotonic()
    rounds = 0
    try:
        # until the writer has been refused at least once: evidence that a resize was tried during a call
        # (how many rounds that takes depends on the scheduler, so the bound is time, not a count)
        while rounds < ROUNDS or (NEED_EVIDENCE and outcomes["refused"] == 0):
            assert obj.encrypt(data, [comp]) in wants  # the value of one moment, read in full
            rounds += 1
            if time.monotonic() - start > RACE_SECONDS:
                pytest.fail("no resize was tried during a call in %d rounds (%s): the race did not run"
                            % (rounds, outcomes))
    finally:
        stop.set()
        t.join()
    comp.extend(b"y")  # no export left behind
    print("resize attempts from the writer over %d calls: %s" % (rounds, outcomes))


# ---- sizes ----

def _map(size):
    try:
        return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
    except OSError:
        return None


@pytest.fixture(scope="module")
def huge():
    """A read-only view of 2**33 bytes of address space (never read)."""
    m = _map(1 << 33)
    if m is None:
        pytest.fail("no read-only mapping of 2**33 bytes could be made (ulimit -v?)")
    view = memoryview(m)
    yield view
    del view
    gc.collect()
    try:
        m.close()
    except BufferError:
        pass


def test_oversized_inputs_refused_before_the_call(huge):
    obj = libaead.AESSIV(bytes(32))
    over = huge[:ONE_MAX + 1]
    msg = "Data or associated data too long. Max 2**31 - 1 bytes"
    for fn in (lambda: obj.encrypt(over, None), lambda: obj.encrypt(b"x", [over]),
               lambda: obj.encrypt(b"x", [b"a"] * 50 + [over]), lambda: obj.decrypt(bytes(20), [over]),
               lambda: obj.decrypt(huge[:ONE_MAX + 17], None), lambda: obj.encrypt_many([b"a", over], None),
               lambda: obj.decrypt_many([bytes(17), bytes(17)], [None, [b"", over]])):
        with pytest.raises(OverflowError, match=re.escape(msg)):
            fn()
    with pytest.raises(OverflowError) as e:
        obj.encrypt_many([b"a", b"b", b"c"], [None, None, [over]])
    assert e.value.index == 2
    arena = Arena(64)
    with pytest.raises(OverflowError):
        obj.encrypt_into(over, None, arena.buf)  # before the buffer's size is compared
    with pytest.raises(OverflowError):
        obj.encrypt_into(b"x" * 48, [over], arena.buf)
    with pytest.raises(OverflowError):
        obj.decrypt_into(huge[:ONE_MAX + 17], None, arena.buf)
    with pytest.raises(OverflowError):
        obj.encrypt_many_into([b"x" * 24, b"y" * 8], [[over], None], arena.buf)
    assert arena.untouched()
    # 127 huge components: the count is refused first, nothing read
    with pytest.raises(ValueError, match="at most 126"):
        obj.encrypt(b"x", [over] * 127)
    # the largest sizes are not refused for their size: only buf's size is wrong here
    with pytest.raises(ValueError, match="buffer must be"):
        obj.encrypt_into(huge[:ONE_MAX], None, arena.buf)
    with pytest.raises(ValueError, match="buffer must be"):
        obj.decrypt_into(huge[:ONE_MAX + 16], None, arena.buf)
    assert arena.untouched()


def test_batch_output_total_must_match_buf(huge):
    """Records at the largest size: their outputs sum far beyond buf, which is refused before the call;
    the sum of SIV outputs (each at most 2**31 + 15 bytes) cannot wrap: that takes 2**33 records."""
    obj = libaead.AESSIV(bytes(32))
    big = huge[:ONE_MAX]
    arena = Arena(64)
    for datas in ([big] * 4, [b"a", big, b"b"], [b"x" * 47]):
        with pytest.raises(ValueError, match="buffer must be %d bytes" % sum(len(d) + 16 for d in datas)):
            obj.encrypt_many_into(datas, None, arena.buf)
    with pytest.raises(ValueError, match="buffer must be"):
        obj.decrypt_many_into([huge[:ONE_MAX + 16]] * 3, [[b"a"]] * 3, arena.buf)
    assert arena.untouched()


def test_wrapping_lengths_in_a_short_input():
    """Inputs shorter than the SIV: refused (InvalidTag) before any length is derived from them, for
    every length from 0 to 15, single and batch, nothing written."""
    obj = libaead.AESSIV(bytes(32))
    for n in range(16):
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(bytes(n), None)
        buf = bytearray(b"\x42" * 4)
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt_into(bytes(n), [b"a"], buf)
        assert buf == b"\x42" * 4
        with pytest.raises(libaead.InvalidTag) as e:
            obj.decrypt_many_into([bytes(16 + 4), bytes(n)], None, buf)
        assert e.value.index == 1 and buf == b"\x42" * 4
    if not TAKES_EMPTY:  # a 16-byte input (empty plaintext) cannot be opened below OpenSSL 3.5
        with pytest.raises(libaead.InvalidTag):
            obj.decrypt(bytes(16), None)
