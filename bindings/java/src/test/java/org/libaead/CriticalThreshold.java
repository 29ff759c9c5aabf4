package org.libaead;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * The measurement behind Native.CRITICAL_MAX (not a test: prints, asserts nothing). For each family and
 * size: the time of one seal through the critical handle on heap arrays (the longest a safepoint can wait
 * for it) and through the plain handle on off-heap copies (the other path), as medians of many runs.
 * Run: java --enable-native-access=ALL-UNNAMED -cp target/classes:target/test-classes org.libaead.CriticalThreshold
 */
public final class CriticalThreshold {
    private CriticalThreshold() {}

    public static void main(String[] args) throws Throwable {
        int[] sizes = {4096, 16384, 65536, 262144, 1 << 20};
        record Fam(String name, Function<byte[], Aead> make, int key) {}
        Fam[] fams = {new Fam("AES-256-GCM", AesGcm::new, 32), new Fam("ChaCha20-Poly1305", ChaCha20Poly1305::new, 32),
                new Fam("AES-256-CCM", AesCcm::new, 32), new Fam("AES-256-GCM-SIV", AesGcmSiv::new, 32),
                new Fam("AES-256-OCB3", AesOcb3::new, 32), new Fam("AES-256-SIV", AesSiv::new, 64)};
        System.out.printf("%-18s %8s %14s %14s %8s%n", "family", "bytes", "critical us", "off-heap us", "ratio");
        for (Fam f : fams) {
            try (Aead a = f.make.apply(new byte[f.key])) {
                byte[] nonce = new byte[12];
                for (int n : sizes) {
                    byte[] in = new byte[n], out = new byte[n + 16];
                    MemorySegment nonceSeg = MemorySegment.ofArray(nonce), inSeg = MemorySegment.ofArray(in),
                            outSeg = MemorySegment.ofArray(out);
                    int reps = Math.max(20, (1 << 24) / n / 4);
                    double crit = median(reps, () -> call(a, true, nonceSeg, inSeg, outSeg));
                    double plain = median(reps, () -> {
                        try (Arena tmp = Arena.ofConfined()) { // what AeadContext.offHeap does
                            MemorySegment i = tmp.allocate(n).copyFrom(inSeg), o = tmp.allocate(n + 16);
                            call(a, false, tmp.allocate(12).copyFrom(nonceSeg), i, o);
                            outSeg.copyFrom(o);
                        }
                    });
                    System.out.printf("%-18s %8d %14.1f %14.1f %8.2f%n", f.name, n, crit / 1e3, plain / 1e3, plain / crit);
                }
            }
        }
    }

    interface Body {
        void run() throws Throwable;
    }

    private static void call(Aead a, boolean critical, MemorySegment nonce, MemorySegment in, MemorySegment out)
            throws Throwable {
        long rc = a.crossForMeasurement(critical, nonce, in, out);
        if (rc < 0) {
            throw new IllegalStateException("rc " + rc);
        }
    }

    private static double median(int reps, Body b) throws Throwable {
        for (int i = 0; i < reps / 4 + 3; i++) {
            b.run();
        }
        long[] t = new long[reps];
        for (int i = 0; i < reps; i++) {
            long s = System.nanoTime();
            b.run();
            t[i] = System.nanoTime() - s;
        }
        java.util.Arrays.sort(t);
        return t[reps / 2];
    }
}
