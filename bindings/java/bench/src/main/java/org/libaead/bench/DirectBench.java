package org.libaead.bench;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.libaead.AesGcm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** AES-128-GCM seal of one message through libaead's direct API: sealInto a preallocated array, a new nonce each time. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DirectBench {
    @Param({"64", "1024", "16384"})
    public int size;

    private AesGcm gcm;
    private byte[] nonce, in, out;
    private MemorySegment nonceSeg, inSeg, outSeg;
    private long counter;

    @Setup(Level.Trial)
    public void setup() {
        gcm = new AesGcm(new byte[16]);
        nonce = new byte[12];
        in = new byte[size];
        out = new byte[size + 16];
        nonceSeg = MemorySegment.ofArray(nonce);
        inSeg = MemorySegment.ofArray(in);
        outSeg = MemorySegment.ofArray(out);
    }

    @TearDown(Level.Trial)
    public void close() {
        gcm.close();
    }

    private void nextNonce() {
        long c = ++counter;
        for (int i = 0; i < 8; i++) {
            nonce[11 - i] = (byte) (c >>> (8 * i));
        }
    }

    /** byte[] arguments: the binding wraps them in MemorySegment views per call. */
    @Benchmark
    public int sealInto() {
        nextNonce();
        return gcm.sealInto(nonce, null, in, 0, in.length, out, 0);
    }

    /** The same arrays as MemorySegments made once by the caller (heap segments, critical call). */
    @Benchmark
    public long sealIntoSegments() {
        nextNonce();
        return gcm.sealInto(nonceSeg, null, inSeg, outSeg);
    }
}
