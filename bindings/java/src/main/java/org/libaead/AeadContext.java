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
    static final Cleaner CLEANER = Cleaner.create();

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
            case AeadException.KEY_SIZE -> new IllegalArgumentException(name + ": invalid key size");
            case AeadException.NONCE_SIZE -> new IllegalArgumentException(name + ": invalid iv size");
            case AeadException.TAG_SIZE -> new IllegalArgumentException(name + ": invalid tag length " + tagLength);
            case AeadException.ARG -> new IllegalArgumentException(name + ": invalid argument (properties longer than 255 bytes?)");
            default -> error(rc);
        };
    }

    /** Closes the arena (freeing the context) at most once; never throws. */
    record Closer(Arena arena) implements Runnable {
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
            return indicator((int) Native.CTX_INDICATOR.invokeExact(ctx), ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The indicator of the AEAD_IND_* bits and the provider of ctx (an aead_ctx; NULL: no provider). */
    static Indicator indicator(int bits, MemorySegment ctx) throws Throwable {
        String provider = ctx.equals(MemorySegment.NULL) ? ""
                : Native.string((MemorySegment) Native.CTX_PROVIDER.invokeExact(ctx));
        return new Indicator(provider, (bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0);
    }

    /** Seals made (counted by the QUIC, random-nonce, TLS 1.3 AES-GCM and SSH contexts; others report 0),
     * opens that failed, and the protocol's rekey point where it has one (SSH). */
    public final Usage usage() {
        return usage(ctx);
    }

    /** The counters of ctx (an aead_ctx). */
    static Usage usage(MemorySegment ctx) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment v = tmp.allocate(ValueLayout.JAVA_LONG, USAGE_FIELDS);
            v.fill((byte) 0xff); // what an older library does not fill in reads as none (-1)
            int rc = Native.CTX_USAGE_EX != null
                    ? (int) Native.CTX_USAGE_EX.invokeExact(ctx, v, v.byteSize())
                    : (int) Native.CTX_USAGE.invokeExact(ctx, v, v.asSlice(8));
            if (rc != 0) {
                throw new IllegalStateException("libaead: aead_ctx_usage: " + Native.strerror(rc));
            }
            return new Usage(v.getAtIndex(ValueLayout.JAVA_LONG, 0), v.getAtIndex(ValueLayout.JAVA_LONG, 1),
                    v.getAtIndex(ValueLayout.JAVA_LONG, REKEY_AFTER));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** struct aead_usage: nine uint64_t fields (seals, forgeries, ..., rekey_after), rekey_after the ninth. */
    private static final int USAGE_FIELDS = 9, REKEY_AFTER = 8;

    /** The FIPS indicator: the serving provider's name and the approval bits (the C library's aead_ctx_indicator). */
    public record Indicator(String provider, boolean fipsProvider, boolean sealApproved, boolean openApproved) {}

    /**
     * A snapshot of the context's counters (the C library's aead_ctx_usage_ex).
     *
     * @param seals      seals made (counted by the contexts whose policy counts them)
     * @param forgeries  opens that failed authentication
     * @param rekeyAfter seals after which the protocol says to change keys (SSH: 2^32, RFC 4344 section 3.1;
     *                   nothing is refused there), or -1 (2^64-1 read unsigned) when it names none. Compare
     *                   with {@code Long.compareUnsigned(seals, rekeyAfter) >= 0}.
     */
    public record Usage(long seals, long forgeries, long rekeyAfter) {
        /** A snapshot with no rekey point (the form of versions before 1.5). */
        public Usage(long seals, long forgeries) {
            this(seals, forgeries, -1);
        }
    }

    /** The libaead version string of the loaded library (names its libcrypto). */
    public static String libraryVersion() {
        return Native.version();
    }

    /** MAJOR * 10000 + MINOR * 100 + PATCH of the loaded library. */
    public static int libraryVersionNumber() {
        return Native.versionNumber();
    }

    static RuntimeException rethrow(Throwable t) {
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

    /** sizeof(aead_record): four (pointer, size_t) pairs and the int64_t result. */
    private static final long RECORD = 72;

    /** Batches: every record's nonce, aad and input copied into one off-heap block, outputs after them,
     * the aead_record array filled, one plain downcall, the outputs of the records that succeeded copied out. */
    final byte[][] many(int op, byte[][] nonces, byte[][] aads, byte[][] ins, long[] codes) {
        Objects.requireNonNull(ins, "inputs");
        int n = ins.length;
        Objects.requireNonNull(nonces, "nonces");
        if (nonces.length != n || (aads != null && aads.length != n)) {
            throw new IllegalArgumentException("nonces, aads and inputs must have one element per record");
        }
        if (codes != null && codes.length < n) {
            throw new IllegalArgumentException("codes: " + codes.length + " elements for " + n + " records");
        }
        long[] outLen = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            Objects.requireNonNull(ins[i], "inputs[" + i + "]");
            outLen[i] = Math.max(0, outLength(op, ins[i].length));
            total += len(nonces[i]) + len(aads == null ? null : aads[i]) + ins[i].length + outLen[i];
        }
        byte[][] result = new byte[n][];
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment data = tmp.allocate(Math.max(1, total), 16);
            MemorySegment recs = tmp.allocate(Math.max(1, RECORD * n), 8);
            long at = 0;
            long[] outAt = new long[n];
            for (int i = 0; i < n; i++) {
                long r = RECORD * i;
                at = put(data, at, nonces[i], recs, r);
                at = put(data, at, aads == null ? null : aads[i], recs, r + 16);
                at = put(data, at, ins[i], recs, r + 32);
                outAt[i] = at;
                recs.set(ValueLayout.ADDRESS, r + 48, outLen[i] == 0 ? MemorySegment.NULL : data.asSlice(at, outLen[i]));
                recs.set(ValueLayout.JAVA_LONG, r + 56, outLen[i]);
                at += outLen[i];
            }
            MemorySegment records = n == 0 ? MemorySegment.NULL : recs;
            long rc;
            try {
                rc = (long) Native.SEAL_OPEN_MANY.invokeExact(ctx, op, records, (long) n);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            if (rc < 0) {
                throw error(rc);
            }
            for (int i = 0; i < n; i++) {
                long res = recs.get(ValueLayout.JAVA_LONG, RECORD * i + 64);
                if (codes != null) {
                    codes[i] = res;
                }
                if (res >= 0) {
                    result[i] = data.asSlice(outAt[i], res).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            if (op == Native.OPEN) {
                data.fill((byte) 0); // plaintexts do not outlive the call in freed native memory
            }
        }
        return result;
    }

    private static long len(byte[] a) {
        return a == null ? 0 : a.length;
    }

    /** Copies a into data at at and points the record's (pointer, length) pair at field off to it. */
    private static long put(MemorySegment data, long at, byte[] a, MemorySegment recs, long off) {
        long l = len(a);
        recs.set(ValueLayout.ADDRESS, off, l == 0 ? MemorySegment.NULL : data.asSlice(at, l));
        recs.set(ValueLayout.JAVA_LONG, off + 8, l);
        if (l > 0) {
            MemorySegment.copy(a, 0, data, ValueLayout.JAVA_BYTE, at, (int) l);
        }
        return at + l;
    }

    /** The byte[] forms: as cross, but the MemorySegment views of the arrays are made only as arguments of
     * the downcall (one per path), never passed to anything else, so that C2's escape analysis, which is
     * not path-sensitive, can remove them: the hot path then allocates nothing. */
    final long crossArrays(int op, byte[] nonce, byte[] aad, byte[] in, int inOff, int inLen, byte[] out, int outOff,
                           int outLen) throws AEADBadTagException {
        Objects.checkFromIndexSize(inOff, inLen, in == null ? 0 : in.length);
        Objects.checkFromIndexSize(outOff, outLen, out.length);
        long need = Math.max(0, outLength(op, inLen));
        if (outLen < need) {
            throw new IllegalArgumentException("output too small: " + outLen + " bytes, need " + need);
        }
        long nl = nonce == null ? 0 : nonce.length, al = aad == null ? 0 : aad.length;
        long rc;
        if (inLen + need + al <= Native.CRITICAL_MAX) {
            try {
                rc = (long) Native.SEAL_OPEN_CRITICAL.invokeExact(ctx, op, seg(nonce), nl, seg(aad), al,
                        seg(in, inOff, inLen), (long) inLen, seg(out, outOff, (int) need), need);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        } else {
            rc = crossLarge(op, seg(nonce), seg(aad), seg(in, inOff, inLen), seg(out, outOff, outLen), need);
        }
        if (rc < 0) {
            throw failure(rc);
        }
        return rc;
    }

    static IllegalArgumentException badOutput(MemorySegment out, long need) {
        return new IllegalArgumentException(out.isReadOnly() ? "output segment is read-only"
                : "output too small: " + out.byteSize() + " bytes, need " + need);
    }

    private Exception failureOf(long rc) {
        return rc == AeadException.AUTH ? new AEADBadTagException("libaead: authentication failed") : error(rc);
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
        if (code == AeadException.UNSUPPORTED || code == AeadException.NOMEM || code == AeadException.CRYPTO) {
            return new AeadException((int) code, name + ": " + text);
        }
        return new IllegalArgumentException(name + ": " + text + " (libaead code " + code + ")");
    }
}
