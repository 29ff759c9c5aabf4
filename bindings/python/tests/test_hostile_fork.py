"""fork() never makes two processes seal the same nonce (library 1.2).

* AESGCMRandomNonce: one object used by the parent, several children and a grandchild (os.fork) and by
  multiprocessing workers (fork start method), forked after 0, 1, 5, 31, 32, 33 and 100 seals (the C
  library pre-draws nonces in pools of 32 per worker): every record from every process decrypts, and no
  nonce appears twice among all of them.
* The TLS, counter-nonce and SSH classes: in a child forked after the object was made, encryption raises ForkedContextError
  (a NonceReuseError) and writes nothing; decryption works; an object made in the child seals; the
  parent keeps sealing the next sequence numbers.
These run on whichever backend test.sh selected (fast, api, abi)."""

import multiprocessing
import os
import pickle
import struct
import threading
import traceback
import warnings

import pytest

import libaead

PER_PROCESS = 120  # seals per process after the fork


def _fork():
    with warnings.catch_warnings():  # 3.12+ warns about fork() in a process with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        return os.fork()


class Child:
    """A forked process running fn(*args); its return value comes back pickled through a pipe."""

    def __init__(self, fn, *args):
        r, w = os.pipe()
        pid = _fork()
        if pid == 0:  # the child: never returns into pytest
            code = 1
            try:
                os.close(r)
                try:
                    payload = pickle.dumps(("ok", fn(*args)))
                    code = 0
                except BaseException:  # noqa: BLE001 - reported to the parent
                    payload = pickle.dumps(("error", traceback.format_exc()))
                view = memoryview(payload)
                while view:
                    view = view[os.write(w, view):]
                os.close(w)
            finally:
                os._exit(code)
        os.close(w)
        self.pid, self.fd = pid, r

    def result(self):
        chunks = []
        while True:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        data = b"".join(chunks)
        assert data, "child %d died without a result (status %#x)" % (self.pid, status)
        kind, value = pickle.loads(data)
        if kind != "ok":
            pytest.fail("child %d failed:\n%s" % (self.pid, value))
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
        return value


def _data(who, i):
    return b"%s:%d" % (who.encode(), i)


def seal_random(obj, who, count):
    """count records from obj in this process, through every sealing method; returns [(data, record)]."""
    out = []
    i = 0
    while i < count:
        kind = i % 4
        if kind == 0:
            d = _data(who, i)
            out.append((d, obj.encrypt(d, None)))
            i += 1
        elif kind == 1:
            d = _data(who, i)
            buf = bytearray(len(d) + obj.OVERHEAD)
            assert obj.encrypt_into(d, None, buf) == len(buf)
            out.append((d, bytes(buf)))
            i += 1
        elif kind == 2:
            ds = [_data(who, i + k) for k in range(min(7, count - i))]
            out.extend(zip(ds, obj.encrypt_many(ds, None)))
            i += len(ds)
        else:
            ds = [_data(who, i + k) for k in range(min(5, count - i))]
            buf = bytearray(sum(len(d) + obj.OVERHEAD for d in ds))
            assert obj.encrypt_many_into(ds, None, buf) == len(buf)
            p = 0
            for d in ds:
                n = len(d) + obj.OVERHEAD
                out.append((d, bytes(buf[p:p + n])))
                p += n
            i += len(ds)
    return out


def check_all(obj, records, expected_count):
    """Every record decrypts to its data, and no 12-byte nonce appears twice. Returns the nonce count."""
    assert len(records) == expected_count
    for d, rec in records:
        assert obj.decrypt(rec, None) == d
    nonces = [rec[:12] for _, rec in records]
    repeats = len(nonces) - len(set(nonces))
    assert repeats == 0, "%d repeated nonces among %d records" % (repeats, len(nonces))
    return len(nonces)


def _grandchild_tree(obj, who, count):
    """A child that seals, forks a grandchild that seals, then seals again; returns both sets."""
    mine = seal_random(obj, who, 10)
    grandchild = Child(seal_random, obj, who + "/g", count)
    mine += seal_random(obj, who, count - 10)
    return mine + grandchild.result()


@pytest.mark.parametrize("before", [0, 1, 5, 31, 32, 33, 100])
def test_random_nonce_parent_children_grandchild(before):
    obj = libaead.AESGCMRandomNonce(libaead.AESGCMRandomNonce.generate_key(128))
    records = seal_random(obj, "parent-before", before)
    children = [Child(_grandchild_tree, obj, "child0", PER_PROCESS)]
    children += [Child(seal_random, obj, "child%d" % k, PER_PROCESS) for k in (1, 2)]
    records += seal_random(obj, "parent-after", PER_PROCESS)  # while the children seal
    for c in children:
        records += c.result()
    # parent + 3 children + 1 grandchild after the fork
    assert check_all(obj, records, before + 5 * PER_PROCESS) >= 600


def test_random_nonce_fork_from_a_thread():
    """fork() called from a thread that has sealed (the child's only thread is that one, on that
    thread's worker and its partly used pool), while other threads have workers of their own. They are
    between calls at the moment of the fork: in the child of a multi-threaded process a lock that
    another thread held inside libcrypto at that moment stays locked (the DRBG's, on OpenSSL 3.0), which
    is why POSIX allows only async-signal-safe calls there and Python 3.12 warns about such forks. A
    program that forks while other threads seal must keep them out of calls at that moment."""
    obj = libaead.AESGCMRandomNonce(bytes(range(32)))
    records = []
    lock = threading.Lock()
    children = []
    before_fork, after_fork = threading.Barrier(4), threading.Barrier(4)

    def work(k):
        mine = seal_random(obj, "thread%d" % k, 3 + 9 * k)
        before_fork.wait()
        if k == 1:
            children.extend(Child(seal_random, obj, "child%d" % c, PER_PROCESS) for c in range(2))
        after_fork.wait()
        mine += seal_random(obj, "thread%d-after" % k, PER_PROCESS)  # while the children seal
        with lock:
            records.extend(mine)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    before_fork.wait()
    after_fork.wait()
    records += seal_random(obj, "main", PER_PROCESS)
    for t in threads:
        t.join()
    assert len(children) == 2
    for c in children:
        records += c.result()
    check_all(obj, records, 3 + 12 + 21 + 3 * PER_PROCESS + PER_PROCESS + 2 * PER_PROCESS)


# multiprocessing, fork start method (the default on Linux before Python 3.14). The object is inherited
# by the workers: the fork start method pickles neither the Process target's arguments nor this global.
_MP_OBJ = None


def _mp_process(queue, who, count):
    queue.put(seal_random(_MP_OBJ, who, count))


def _mp_task(k):
    return seal_random(_MP_OBJ, "task%d-%d" % (k, os.getpid()), 40)


@pytest.mark.parametrize("before", [0, 5, 33])
def test_random_nonce_multiprocessing_fork(before):
    global _MP_OBJ
    ctx = multiprocessing.get_context("fork")
    _MP_OBJ = obj = libaead.AESGCMRandomNonce(os.urandom(16))
    try:
        records = seal_random(obj, "parent", before)
        queue = ctx.Queue()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            procs = [ctx.Process(target=_mp_process, args=(queue, "proc%d" % k, PER_PROCESS)) for k in range(3)]
            for p in procs:
                p.start()
            with ctx.Pool(3) as pool:  # workers forked once, each running several tasks
                for batch in pool.map(_mp_task, range(9), chunksize=1):
                    records += batch
        records += seal_random(obj, "parent-after", PER_PROCESS)
        for _ in procs:
            records += queue.get(timeout=120)
        for p in procs:
            p.join(60)
            assert p.exitcode == 0
        check_all(obj, records, before + 3 * PER_PROCESS + 9 * 40 + PER_PROCESS)
    finally:
        _MP_OBJ = None


# ---- TLS classes across fork ----

TLS = [
    ("AESGCMForTLS12", 13, "concat"),
    ("AESGCMForTLS13", 5, "xor"),
    ("ChaCha20Poly1305ForTLS12", 13, "xor"),
    ("ChaCha20Poly1305ForTLS13", 5, "xor"),
    # library 1.5: the counter-nonce classes and SSH (iv = fixed || start, or fixed || mask)
    ("AESGCMCounterNonce", 7, "counter"),
    ("ChaCha20Poly1305CounterNonce", 0, "counter"),
    ("AESGCMXORCounterNonce", 3, "xor"),
    ("ChaCha20Poly1305XORCounterNonce", 13, "xor"),
    ("AESGCMForSSH", 4, "counter"),
]


class Tls:
    def __init__(self, name, aad_len, kind):
        self.name, self.kind = name, kind
        self.cls = getattr(libaead, name)
        self.key = os.urandom(32)
        self.iv = os.urandom(4 if kind == "concat" else 12)
        self.aad = bytes(range(aad_len))
        self.obj = self.cls(self.key, self.iv)

    def nonce(self, seq):
        if self.kind == "concat":
            return self.iv + struct.pack(">Q", seq)
        if self.kind == "counter":
            return self.iv[:4] + struct.pack(">Q", (int.from_bytes(self.iv[4:], "big") + seq) % 2**64)
        return self.iv[:4] + struct.pack(">Q", int.from_bytes(self.iv[4:], "big") ^ seq)


def _refused(fn):
    """Calls fn, which must raise ForkedContextError; returns what the test checks about it."""
    try:
        fn()
    except libaead.ForkedContextError as e:
        return {"nonce_reuse": isinstance(e, libaead.NonceReuseError), "value": isinstance(e, ValueError),
                "message": str(e), "index": getattr(e, "index", None)}
    raise AssertionError("sealing in the forked child was not refused")


def _tls_child(t, sealed, next_seq, depth):
    """What the child (and, at depth 0, its own child) observes."""
    obj, aad = t.obj, t.aad
    report = {"pid": os.getpid()}
    report["encrypt"] = _refused(lambda: obj.encrypt(t.nonce(next_seq), b"child", aad))
    buf = bytearray(b"\xee" * 21)
    report["encrypt_into"] = _refused(lambda: obj.encrypt_into(t.nonce(next_seq), b"child", aad, buf))
    report["encrypt_many"] = _refused(lambda: obj.encrypt_many(
        [t.nonce(next_seq), t.nonce(next_seq + 1)], [b"a", b"b"], [aad, aad]))
    many_buf = bytearray(b"\xee" * 34)
    report["encrypt_many_into"] = _refused(lambda: obj.encrypt_many_into(
        [t.nonce(next_seq), t.nonce(next_seq + 1)], [b"a", b"b"], [aad, aad], many_buf))
    report["bufs_untouched"] = buf == b"\xee" * 21 and many_buf == b"\xee" * 34
    # even the sequence numbers the parent already used, or far ahead, are refused as forked
    report["far_ahead"] = _refused(lambda: obj.encrypt(t.nonce(next_seq + 1000), b"x", aad))
    # decryption keeps working
    report["decrypt"] = [obj.decrypt(t.nonce(s), ct, aad) for s, (ct, _) in sealed.items()]
    report["decrypt_many"] = obj.decrypt_many([t.nonce(s) for s in sealed], [ct for ct, _ in sealed.values()],
                                              [aad] * len(sealed))
    # an object made here is this process's own: it seals
    own = t.cls(t.key, t.iv)
    report["own"] = [own.encrypt(t.nonce(s), b"own", aad) for s in (0, 1, 2)]
    if depth == 0:
        report["grandchild"] = Child(_tls_grandchild, t, own).result()
    return report


def _tls_grandchild(t, own):
    return {
        "inherited": _refused(lambda: t.obj.encrypt(t.nonce(10**6), b"g", t.aad)),
        "childs_own": _refused(lambda: own.encrypt(t.nonce(3), b"g", t.aad)),
        # an object made in the grandchild seals, and the inherited ones decrypt what it sealed
        "decrypt": own.decrypt(t.nonce(2), t.cls(t.key, t.iv).encrypt(t.nonce(2), b"fresh", t.aad), t.aad),
    }


@pytest.mark.parametrize("name,aad_len,kind", TLS)
@pytest.mark.parametrize("before", [0, 5])
def test_tls_object_across_fork(name, aad_len, kind, before):
    t = Tls(name, aad_len, kind)
    sealed = {s: (t.obj.encrypt(t.nonce(s), b"record %d" % s, t.aad), b"record %d" % s) for s in range(before)}
    child = Child(_tls_child, t, sealed, before, 0)
    # the parent is never affected: it seals the next sequence numbers while the child runs
    for s in range(before, before + 50):
        sealed[s] = (t.obj.encrypt(t.nonce(s), b"record %d" % s, t.aad), b"record %d" % s)
    report = child.result()
    for s in range(before + 50, before + 60):  # and after it exited
        sealed[s] = (t.obj.encrypt(t.nonce(s), b"record %d" % s, t.aad), b"record %d" % s)
    with pytest.raises(libaead.NonceReuseError) as info:  # the parent's own sequence rule still holds
        t.obj.encrypt(t.nonce(before + 59), b"again", t.aad)
    assert not isinstance(info.value, libaead.ForkedContextError)

    for what in ("encrypt", "encrypt_into", "encrypt_many", "encrypt_many_into", "far_ahead"):
        r = report[what]
        assert r["nonce_reuse"] and r["value"], r
        assert name in r["message"] and "fork" in r["message"], r
    assert report["encrypt_many"]["index"] == 0 and report["encrypt_many_into"]["index"] == 0
    assert report["bufs_untouched"]
    assert report["decrypt"] == [p for _, p in list(sealed.values())[:before]]
    assert report["decrypt_many"] == report["decrypt"]
    ref = t.cls(t.key, t.iv)  # the child's own object sealed what a fresh object seals
    assert report["own"] == [ref.encrypt(t.nonce(s), b"own", t.aad) for s in (0, 1, 2)]
    g = report["grandchild"]
    assert g["inherited"]["nonce_reuse"] and g["childs_own"]["nonce_reuse"]
    assert g["decrypt"] == b"fresh"
    assert len(sealed) == before + 60
    for s, (ct, p) in sealed.items():
        assert t.obj.decrypt(t.nonce(s), ct, t.aad) == p


def test_tls_multiprocessing_fork_child_refused():
    global _MP_OBJ
    ctx = multiprocessing.get_context("fork")
    t = Tls("AESGCMForTLS13", 5, "xor")
    first = t.obj.encrypt(t.nonce(0), b"parent", t.aad)
    _MP_OBJ = (t, first)
    try:
        queue = ctx.Queue()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            p = ctx.Process(target=_mp_tls, args=(queue,))
            p.start()
        assert t.obj.encrypt(t.nonce(1), b"parent", t.aad)  # the parent goes on
        result = queue.get(timeout=120)
        p.join(60)
        assert p.exitcode == 0
        assert result == ("ForkedContextError", b"parent"), result
        assert t.obj.decrypt(t.nonce(0), first, t.aad) == b"parent"
    finally:
        _MP_OBJ = None


def _mp_tls(queue):
    t, first = _MP_OBJ
    try:
        t.obj.encrypt(t.nonce(1), b"child", t.aad)
        kind = "sealed"
    except Exception as e:  # noqa: BLE001 - the type is the result
        kind = type(e).__name__
    queue.put((kind, t.obj.decrypt(t.nonce(0), first, t.aad)))
