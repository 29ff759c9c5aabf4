"""GIL release: two threads sharing one object get more throughput than one thread (ratio measured in
one run, tolerant of a loaded 2-core machine), and concurrent use stays correct."""

import ctypes
import os
import threading
import time

import pytest
from cryptography.hazmat.primitives.ciphers import aead as pyca

import libaead

MIB = 1 << 20
MIN_RATIO = float(os.environ.get("LIBAEAD_MIN_THREAD_RATIO", "1.3"))


def usable_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def ratios(encrypt_fns, per_thread_ops, rounds):
    """For each fn (called with no argument, one 1 MiB operation): min over rounds of time(2*ops in one
    thread) / min over rounds of time(ops in each of two threads).

    All measurements are interleaved and each keeps its fastest round, because other processes on a
    shared 2-core machine steal a core at random moments; the minimum of each is its least disturbed
    run (taking the best ratio of single rounds would reward noise in the 1-thread run)."""

    def work(fn, barrier):
        barrier.wait()
        for _ in range(per_thread_ops):
            fn()

    single = [float("inf")] * len(encrypt_fns)
    double = [float("inf")] * len(encrypt_fns)
    for _ in range(rounds):
        for i, fn in enumerate(encrypt_fns):
            fn()
            t0 = time.perf_counter()
            for _ in range(2 * per_thread_ops):
                fn()
            single[i] = min(single[i], time.perf_counter() - t0)

            barrier = threading.Barrier(3)
            threads = [threading.Thread(target=work, args=(fn, barrier)) for _ in range(2)]
            for t in threads:
                t.start()
            barrier.wait()
            t0 = time.perf_counter()
            for t in threads:
                t.join()
            double[i] = min(double[i], time.perf_counter() - t0)
    return [s / d for s, d in zip(single, double)]


def _ctypes_reference():
    """The same C function, reached through ctypes (which always releases the GIL), with its own
    context: what the machine and the C library give two threads right now, independent of cffi."""
    from libaead import _loader

    for candidate in _loader._abi_candidates():
        try:
            so = ctypes.CDLL(candidate)
            break
        except OSError:
            continue
    else:
        pytest.fail("cannot load libaead.so.1 through ctypes for the reference measurement")
    ctx = ctypes.c_void_p()
    u8p, size = ctypes.c_char_p, ctypes.c_size_t
    so.aead_ctx_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_int, u8p, size, size]
    so.aead_ctx_free.argtypes = [ctypes.c_void_p]
    so.aead_seal_open.argtypes = [ctypes.c_void_p, ctypes.c_int, u8p, size, u8p, size, u8p, size,
                                  ctypes.c_void_p, size]
    so.aead_seal_open.restype = ctypes.c_int64
    assert so.aead_ctx_new(ctypes.byref(ctx), 1, 0, bytes(16), 16, 0) == 0
    return so, ctx


@pytest.mark.multicore
@pytest.mark.skipif(usable_cpus() < 2, reason="needs at least 2 CPUs")
def test_two_threads_scale_on_1mib_messages(capsys):
    """The issue's ratio test, on AESGCM.encrypt of 1 MiB messages.

    On a shared VM, AES-GCM's own 2-thread scaling varies from run to run (1.1x to 1.9x in plain C
    on this project's 2-core machine), so the same work is measured in the same rounds through ctypes,
    which always releases the GIL, as the reference of what is possible right now. An attempt passes
    at 1.3x, or at 0.8 x the reference when the reference is at least 1.4x (a binding holding the GIL
    stays at or under 1.0x: pyca measures 0.8-1.0x). Up to 6 attempts; it fails only when at least two
    attempts had a reference of 1.4x or more and none passed, and is skipped otherwise. test_gil_is_released_during_a_call proves the GIL release
    regardless of load."""
    nonce, data = bytes(12), os.urandom(MIB)
    ours_obj, pyca_obj = libaead.AESGCM(bytes(16)), pyca.AESGCM(bytes(16))
    so, ctx = _ctypes_reference()
    out_type = ctypes.c_char * (MIB + 16)

    def reference():
        buf = bytearray(MIB + 16)  # a new output per call, as encrypt() makes
        assert so.aead_seal_open(ctx, 1, nonce, 12, None, 0, data, MIB, out_type.from_buffer(buf), MIB + 16) == MIB + 16

    try:
        (theirs,) = ratios([lambda: pyca_obj.encrypt(nonce, data, None)], per_thread_ops=8, rounds=3)
        attempts = []
        for _ in range(6):  # a burst of load during one attempt is not a verdict
            ours, machine = ratios([lambda: ours_obj.encrypt(nonce, data, None), reference],
                                   per_thread_ops=8, rounds=12)
            bound = min(MIN_RATIO, 0.8 * machine)
            attempts.append((ours, theirs, machine, bound))
            with capsys.disabled():
                print("\n  2-thread/1-thread throughput, 1 MiB AES-128-GCM encrypt: libaead %.2fx, pyca/cryptography"
                      " %.2fx; same C call through ctypes (reference) %.2fx; bound %.2fx"
                      % (ours, theirs, machine, bound), end="")
            if ours >= MIN_RATIO or (machine >= 1.4 and ours >= bound):
                return
    finally:
        so.aead_ctx_free(ctx)
    usable = [a for a in attempts if a[2] >= 1.4]
    if len(usable) < 2:  # one usable attempt may be an outlier of the noisy reference
        pytest.skip("the machine gives AES-GCM no parallelism right now (reference %s)"
                    % ", ".join("%.2fx" % a[2] for a in attempts))
    pytest.fail("libaead's 2-thread ratio stayed under its bound while the reference scaled: %r" % attempts)


def longest_stall(call):
    """Runs call() in a thread while this thread loops; returns (longest interval in which this thread
    made no progress overlapping the call, duration of the call)."""
    span = []
    done = threading.Event()

    def worker():
        t0 = time.perf_counter()
        call()
        span.append((t0, time.perf_counter()))
        done.set()

    stalls = []  # (end, length) of every interval > 0.5 ms between two iterations of the loop below
    t = threading.Thread(target=worker)
    prev = time.perf_counter()
    t.start()
    while not done.is_set():
        now = time.perf_counter()
        if now - prev > 0.0005:
            stalls.append((now, now - prev))
        prev = now
    t.join()
    (t0, t1), = span
    overlapping = [length for end, length in stalls if end > t0 and end - length < t1]
    return max(overlapping, default=0.0), t1 - t0


def test_gil_is_released_during_a_call():
    """Load-independent proof: while one thread is inside a long encrypt (256 MiB), another thread keeps
    running Python code. A call holding the GIL stalls the other thread for the whole call, which the
    same measurement shows for ``bytes.count`` (a C function that holds the GIL; pyca/cryptography 50
    releases it too above 2 KiB, so it is no longer the held reference)."""
    data = bytes(256 << 20)
    ours = libaead.AESGCM(bytes(16))
    stall, duration = longest_stall(lambda: ours.encrypt(bytes(12), data, None))
    ref_stall, ref_duration = longest_stall(lambda: data.count(b"\x01"))
    assert ref_stall > 0.5 * ref_duration  # the method detects a held GIL
    assert stall < 0.5 * duration, (stall, duration)


@pytest.mark.skipif(libaead._fast is None, reason="the GIL threshold is the compiled path's")
def test_fast_path_gil_threshold():
    """_fast holds the GIL below its threshold (cheaper for small calls) and releases it from there on:
    a 64 MiB call with the threshold above its size stalls the other thread, with it below does not."""
    fast = libaead._fast
    assert fast.gil_threshold() > 0
    data = bytes(64 << 20)
    ours = libaead.AESGCM(bytes(16))
    previous = fast.set_gil_threshold(len(data) + 1)
    try:
        held, held_duration = longest_stall(lambda: ours.encrypt(bytes(12), data, None))
        fast.set_gil_threshold(len(data))
        # A released GIL shows as a short stall; on a loaded machine the other thread can still be
        # descheduled for part of one call, so each released case gets three tries (a held GIL stalls
        # the other thread in every try, so retrying cannot hide one).
        free = held_many = (1.0, 1.0)
        for _ in range(3):
            if free[0] >= 0.5 * free[1]:
                free = longest_stall(lambda: ours.encrypt(bytes(12), data, None))
            if held_many[0] >= 0.5 * held_many[1]:
                held_many = longest_stall(lambda: ours.encrypt_many([bytes(12)], [data], None))
    finally:
        fast.set_gil_threshold(previous)
    assert held > 0.5 * held_duration, (held, held_duration)
    assert free[0] < 0.5 * free[1], free
    assert held_many[0] < 0.5 * held_many[1], held_many
    with pytest.raises(ValueError):
        fast.set_gil_threshold(-1)


def test_shared_object_concurrent_correctness(rng):
    key = rng.randbytes(32)
    objs = [libaead.AESGCM(key), libaead.ChaCha20Poly1305(key)]
    refs = [pyca.AESGCM(key), pyca.ChaCha20Poly1305(key)]
    jobs = [(rng.randbytes(12), rng.randbytes(rng.randint(0, 70000)), rng.randbytes(rng.randint(0, 20)))
            for _ in range(24)]
    expected = [[r.encrypt(*j) for j in jobs] for r in refs]
    errors = []

    def worker(tid):
        try:
            for rep in range(5):
                for k, obj in enumerate(objs):
                    for i, (n, d, a) in enumerate(jobs):
                        ct = obj.encrypt(n, d, a)
                        assert ct == expected[k][i]
                        assert obj.decrypt(n, ct, a) == d
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
