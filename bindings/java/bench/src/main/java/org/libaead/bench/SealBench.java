package org.libaead.bench;

import java.security.Provider;
import java.security.Security;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.libaead.LibAeadProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * AES-128-GCM seal of one message through each provider's Cipher, re-initialised per message with a new
 * IV, the output into a preallocated array.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SealBench {
    @Param({"64", "1024", "16384"})
    public int size;

    @Param({"SunJCE", "ACCP", "Conscrypt", "BC", "LibAead"})
    public String provider;

    private Cipher cipher;
    private SecretKeySpec key;
    private byte[] iv, in, out;
    private long counter;

    static Provider provider(String name) throws Exception {
        return switch (name) {
            case "SunJCE" -> Security.getProvider("SunJCE");
            case "ACCP" -> (Provider) Class.forName("com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider")
                    .getField("INSTANCE").get(null);
            case "Conscrypt" -> (Provider) Class.forName("org.conscrypt.Conscrypt").getMethod("newProvider").invoke(null);
            case "BC" -> (Provider) Class.forName("org.bouncycastle.jce.provider.BouncyCastleProvider")
                    .getConstructor().newInstance();
            case "LibAead" -> new LibAeadProvider();
            default -> throw new IllegalArgumentException(name);
        };
    }

    @Setup(Level.Trial)
    public void setup() throws Exception {
        byte[] k = new byte[16];
        key = new SecretKeySpec(k, "AES");
        iv = new byte[12];
        in = new byte[size];
        out = new byte[size + 16];
        Provider p = provider(provider);
        cipher = Cipher.getInstance("AES/GCM/NoPadding", p);
        if (cipher.getProvider() != p) {
            throw new IllegalStateException("got " + cipher.getProvider().getName() + " for " + provider);
        }
    }

    private void nextIv() {
        long c = ++counter;
        for (int i = 0; i < 8; i++) {
            iv[11 - i] = (byte) (c >>> (8 * i));
        }
    }

    @Benchmark
    public int jca() throws Exception {
        nextIv();
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
        return cipher.doFinal(in, 0, in.length, out, 0);
    }
}
