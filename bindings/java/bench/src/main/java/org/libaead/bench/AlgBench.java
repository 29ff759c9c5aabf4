package org.libaead.bench;

import java.util.concurrent.TimeUnit;
import org.libaead.Aead;
import org.libaead.Aegis128L;
import org.libaead.Aegis128X2;
import org.libaead.Aegis128X4;
import org.libaead.Aegis256;
import org.libaead.AesGcm;
import org.libaead.ChaCha20Poly1305;
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

/** The families side by side through the direct API: sealInto a preallocated array, a new nonce each time
 * (bench.sh prints each one's ratio to AES-128-GCM at the same size). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AlgBench {
    @Param({"64", "1024", "16384"})
    public int size;

    @Param({"AES-128-GCM", "ChaCha20-Poly1305", "AEGIS-128L", "AEGIS-128X2", "AEGIS-128X4", "AEGIS-256"})
    public String alg;

    private Aead aead;
    private byte[] nonce, in, out;
    private long counter;

    @Setup(Level.Trial)
    public void setup() {
        aead = switch (alg) {
            case "AES-128-GCM" -> new AesGcm(new byte[16]);
            case "ChaCha20-Poly1305" -> new ChaCha20Poly1305(new byte[32]);
            case "AEGIS-128L" -> new Aegis128L(new byte[16]);
            case "AEGIS-128X2" -> new Aegis128X2(new byte[16]);
            case "AEGIS-128X4" -> new Aegis128X4(new byte[16]);
            case "AEGIS-256" -> new Aegis256(new byte[32]);
            default -> throw new IllegalArgumentException(alg);
        };
        nonce = new byte[alg.startsWith("AEGIS-256") ? 32 : alg.startsWith("AEGIS") ? 16 : 12];
        in = new byte[size];
        out = new byte[size + aead.overhead()];
    }

    @TearDown(Level.Trial)
    public void close() {
        aead.close();
    }

    @Benchmark
    public int sealInto() {
        long c = ++counter;
        for (int i = 0; i < 8; i++) {
            nonce[nonce.length - 1 - i] = (byte) (c >>> (8 * i));
        }
        return aead.sealInto(nonce, null, in, 0, in.length, out, 0);
    }
}
