package org.libaead;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.crypto.AEADBadTagException;

/**
 * What every keyed libaead object shares: one native context (immutable after construction; any number
 * of threads may seal and open on it concurrently), freed by {@link #close()} or, if never closed, by a
 * {@link Cleaner} once the object is unreachable. A second close is harmless; a close while another thread
 * is inside a call on this object throws {@link IllegalStateException} and frees nothing.
 * After close every call throws {@link IllegalStateException}.
 */
public abstract sealed class AeadContext implements AutoCloseable permits Aead, RandomNonceAead {
    private static final Cleaner CLEANER = Cleaner.create();

    final int alg;
    final int policy;
    final int tagLength;
    /** Seal output = input + sealOverhead (tag, plus the drawn nonce or the SIV where the layout has one). */
    final int sealOverhead;
    private final Arena arena;
    /** The native context, its lifetime tied to arena: a call in flight keeps arena open. */
    private final MemorySegment ctx;
    private final Cleaner.Cleanable cleanable;

    AeadContext(int alg, int policy, byte[] key, int tagLength, int sealOverhead, String properties, byte[] iv) {
        Objects.requireNonNull(key, "key");
        this.alg = alg;
        this.policy = policy;
        this.tagLength = tagLength;
        this.sealOverhead = sealOverhead;
        Arena a = Arena.ofShared();
        MemorySegment raw;
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = tmp.allocate(ValueLayout.ADDRESS);
            MemorySegment k = tmp.allocate(Math.max(1, key.length));
            MemorySegment.copy(key, 0, k, ValueLayout.JAVA_BYTE, 0, key.length);
            MemorySegment props = MemorySegment.NULL;
            if (properties != null) {
                byte[] p = properties.getBytes(StandardCharsets.UTF_8);
                props = tmp.allocate(p.length + 1L);
                MemorySegment.copy(p, 0, props, ValueLayout.JAVA_BYTE, 0, p.length);
            }
            MemorySegment ivSeg = MemorySegment.NULL;
            int ivLen = 0;
            if (iv != null) {
                if (iv.length == 0) {
                    throw new IllegalArgumentException("iv: pass null for none (the first seal fixes it)");
                }
                ivSeg = tmp.allocateFrom(ValueLayout.JAVA_BYTE, iv);
                ivLen = iv.length;
            }
            int rc;
            try {
                rc = (int) Native.CTX_NEW_EX.invokeExact(out, alg, policy, k, (long) key.length, (long) tagLength,
                        props, ivSeg, (long) ivLen);
            } catch (Throwable t) {
                throw new AssertionError(t);
            } finally {
                k.fill((byte) 0);
            }
            if (rc != 0) {
                a.close();
                throw constructionError(rc);
            }
            raw = out.get(ValueLayout.ADDRESS, 0);
        }
        this.arena = a;
        this.ctx = raw.reinterpret(a, Native::free);
        this.cleanable = CLEANER.register(this, new Closer(a));
    }

    private RuntimeException constructionError(int rc) {
        String name = getClass().getSimpleName();
        return switch (rc) {
            case -3 -> new IllegalArgumentException(name + ": invalid key size");
            case -4 -> new IllegalArgumentException(name + ": invalid iv size");
            case -5 -> new IllegalArgumentException(name + ": invalid tag length " + tagLength);
            case -2 -> new IllegalArgumentException(name + ": invalid argument (properties longer than 255 bytes?)");
            default -> error(rc);
        };
    }

    /** Closes the arena (freeing the context) at most once; never throws. */
    private record Closer(Arena arena) implements Runnable {
        @Override
        public void run() {
            try {
                arena.close();
            } catch (IllegalStateException alreadyClosedOrInUse) {
                // already closed through close(); a Cleaner never runs while a call holds the object
            }
        }
    }

    /** Frees the native context. Idempotent; throws IllegalStateException if another thread is inside a call. */
    @Override
    public final synchronized void close() {
        if (!arena.scope().isAlive()) {
            return;
        }
        arena.close(); // throws (and frees nothing) while a call is in flight
        cleanable.clean();
    }

    /** The tag length in bytes. */
    public final int tagLength() {
        return tagLength;
    }

    /** How many bytes a seal adds to the plaintext (the tag; with the drawn nonce or SIV where the output carries it). */
    public final int overhead() {
        return sealOverhead;
    }

    /** The FIPS indicator of this context (fixed for its life). */
    public final Indicator indicator() {
        try {
            int bits = (int) Native.CTX_INDICATOR.invokeExact(ctx);
            String provider = Native.string((MemorySegment) Native.CTX_PROVIDER.invokeExact(ctx));
            return new Indicator(provider, (bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Seals made (QUIC and random-nonce contexts count them; others report 0) and opens that failed. */
    public final Usage usage() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment v = tmp.allocate(ValueLayout.JAVA_LONG, 2);
            int rc = (int) Native.CTX_USAGE.invokeExact(ctx, v, v.asSlice(8));
            if (rc != 0) {
                throw error(rc);
            }
            return new Usage(v.get(ValueLayout.JAVA_LONG, 0), v.get(ValueLayout.JAVA_LONG, 8));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The FIPS indicator: the serving provider's name and the approval bits (the C library's aead_ctx_indicator). */
    public record Indicator(String provider, boolean fipsProvider, boolean sealApproved, boolean openApproved) {}

    /** A snapshot of aead_ctx_usage. */
    public record Usage(long seals, long forgeries) {}

    /** The libaead version string of the loaded library (names its libcrypto). */
    public static String libraryVersion() {
        return Native.version();
    }

    /** MAJOR * 10000 + MINOR * 100 + PATCH of the loaded library. */
    public static int libraryVersionNumber() {
        return Native.versionNumber();
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    // ---------------------------------------------------------------------------------------------
    // The one crossing

    final long outLength(int op, long inLen) {
        return op == Native.SEAL ? inLen + sealOverhead : inLen - sealOverhead;
    }

    /** Seals or opens from segments; returns the output length. Heap segments up to CRITICAL_MAX bytes in
     * total, and native segments of any size up to it, go through the critical handle; larger heap
     * segments through off-heap copies. */
    final long cross(int op, MemorySegment nonce, MemorySegment aad, MemorySegment in, MemorySegment out)
            throws AEADBadTagException {
        long inLen = in.byteSize();
        long need = Math.max(0, outLength(op, inLen)); // a too-short open is libaead's AEAD_ERR_AUTH
        if (out.isReadOnly() || out.byteSize() < need) {
            throw badOutput(out, need);
        }
        long rc;
        if (inLen + need + aad.byteSize() <= Native.CRITICAL_MAX) { // the hot path: kept small so it inlines
            try {
                rc = (long) Native.SEAL_OPEN_CRITICAL.invokeExact(ctx, op, nonce, nonce.byteSize(), aad, aad.byteSize(),
                        in, inLen, out, need);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        } else {
            rc = crossLarge(op, nonce, aad, in, out, need);
        }
        if (rc < 0) {
            throw failure(rc);
        }
        return rc;
    }

    private static IllegalArgumentException badOutput(MemorySegment out, long need) {
        return new IllegalArgumentException(out.isReadOnly() ? "output segment is read-only"
                : "output too small: " + out.byteSize() + " bytes, need " + need);
    }

    private Exception failureOf(long rc) {
        return rc == -1 ? new AEADBadTagException("libaead: authentication failed") : error(rc);
    }

    private AEADBadTagException failure(long rc) {
        Exception e = failureOf(rc);
        if (e instanceof AEADBadTagException bad) {
            return bad;
        }
        throw (RuntimeException) e;
    }

    /** Above the critical threshold: native memory straight through the plain handle, heap memory copied. */
    private long crossLarge(int op, MemorySegment nonce, MemorySegment aad, MemorySegment in, MemorySegment out,
                            long need) {
        try {
            if (nonce.isNative() && aad.isNative() && in.isNative() && out.isNative()) {
                return (long) Native.SEAL_OPEN.invokeExact(ctx, op, nonce, nonce.byteSize(), aad, aad.byteSize(),
                        in, in.byteSize(), out, need);
            }
            return offHeap(op, nonce, aad, in, out.asSlice(0, need));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** One seal through the chosen handle, no checks (CriticalThreshold, a measurement in the test tree). */
    final long crossForMeasurement(boolean critical, MemorySegment nonce, MemorySegment in, MemorySegment out)
            throws Throwable {
        MethodHandle h = critical ? Native.SEAL_OPEN_CRITICAL : Native.SEAL_OPEN;
        return (long) h.invokeExact(ctx, Native.SEAL, nonce, nonce.byteSize(), MemorySegment.NULL, 0L, in, in.byteSize(),
                out, out.byteSize());
    }

    /** The plain downcall on off-heap copies. Inputs that are views of the output's array share one copy
     * with it, laid out as in the array, so libaead sees (and refuses or allows) exactly the aliasing
     * the caller made; the whole output range is copied back, so a failure's zeroing is seen as well. */
    private long offHeap(int op, MemorySegment nonce, MemorySegment aad, MemorySegment in, MemorySegment out)
            throws Throwable {
        try (Arena tmp = Arena.ofConfined()) {
            Object base = out.heapBase().orElse(null);
            long lo = out.address(), hi = out.address() + out.byteSize();
            MemorySegment[] args = {nonce, aad, in};
            if (base != null) {
                for (MemorySegment s : args) {
                    if (s.byteSize() > 0 && s.heapBase().orElse(null) == base) {
                        lo = Math.min(lo, s.address());
                        hi = Math.max(hi, s.address() + s.byteSize());
                    }
                }
            }
            MemorySegment shared = null;
            MemorySegment window = null;
            if (base != null) {
                window = wholeHeap(out, lo, hi);
                shared = tmp.allocate(hi - lo);
                shared.copyFrom(window);
            }
            for (int i = 0; i < args.length; i++) {
                MemorySegment s = args[i];
                if (s.byteSize() == 0 || s.isNative()) {
                    continue;
                }
                if (shared != null && s.heapBase().orElse(null) == base) {
                    args[i] = shared.asSlice(s.address() - lo, s.byteSize());
                } else {
                    args[i] = tmp.allocate(s.byteSize()).copyFrom(s);
                }
            }
            MemorySegment o = shared != null ? shared.asSlice(out.address() - lo, out.byteSize()) : out;
            long rc = (long) Native.SEAL_OPEN.invokeExact(ctx, op, args[0], args[0].byteSize(), args[1],
                    args[1].byteSize(), args[2], args[2].byteSize(), o, out.byteSize());
            if (shared != null) {
                out.copyFrom(o);
            }
            return rc;
        }
    }

    /** The heap segment [lo, hi) of the array under out (same heap base). */
    private static MemorySegment wholeHeap(MemorySegment out, long lo, long hi) {
        Object base = out.heapBase().orElseThrow();
        MemorySegment all = switch (base) {
            case byte[] b -> MemorySegment.ofArray(b);
            default -> throw new IllegalArgumentException("only byte[]-backed heap segments are supported");
        };
        return all.asSlice(lo, hi - lo);
    }

    static MemorySegment seg(byte[] a) {
        return a == null || a.length == 0 ? MemorySegment.NULL : MemorySegment.ofArray(a);
    }

    static MemorySegment seg(byte[] a, int off, int len) {
        Objects.checkFromIndexSize(off, len, a == null ? 0 : a.length);
        return len == 0 ? MemorySegment.NULL : MemorySegment.ofArray(a).asSlice(off, len);
    }

    /** A buffer's remaining bytes as a segment (heap or direct). */
    static MemorySegment seg(ByteBuffer b) {
        return b == null || !b.hasRemaining() ? MemorySegment.NULL : MemorySegment.ofBuffer(b);
    }

    static MemorySegment checked(MemorySegment s) {
        if (s == null) {
            return MemorySegment.NULL;
        }
        if (!s.scope().isAlive()) {
            throw new IllegalStateException("segment's arena is closed");
        }
        return s.byteSize() == 0 ? MemorySegment.NULL : s;
    }

    static void writable(ByteBuffer out) {
        if (out.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
    }

    /** The exception for a negative code other than AEAD_ERR_AUTH. */
    final RuntimeException error(long code) {
        String name = getClass().getSimpleName();
        String text = Native.strerror(code);
        if (NoncePolicyException.isPolicy(code)) {
            return new NoncePolicyException((int) code, name + ": " + text);
        }
        if (code == -13 || code == -14 || code == -15) {
            return new AeadException((int) code, name + ": " + text);
        }
        return new IllegalArgumentException(name + ": " + text + " (libaead code " + code + ")");
    }
}
