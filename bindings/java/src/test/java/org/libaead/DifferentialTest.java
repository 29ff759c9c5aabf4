package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.AEADCipher;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.modes.GCMSIVBlockCipher;
import org.bouncycastle.crypto.modes.OCBBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

/**
 * libaead against independent implementations on random inputs, through the direct API (every input and
 * output form, both sides of the critical-call threshold) and through the LibAead provider:
 * SunJCE for AES-GCM and ChaCha20-Poly1305, Bouncy Castle's lightweight API for AES-CCM, AES-GCM-SIV and
 * AES-OCB3 (Bouncy Castle has no XChaCha20-Poly1305; Wycheproof covers it).
 */
class DifferentialTest {
    private static final LibAeadProvider PROVIDER = new LibAeadProvider();
    private static final int ROUNDS = 150;
    private final long seed = Long.getLong("libaead.seed", System.nanoTime());
    private final SplittableRandom rnd = new SplittableRandom(seed);

    interface Ref {
        byte[] seal(byte[] key, byte[] nonce, byte[] aad, byte[] pt) throws Exception;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** Mostly small, sometimes just below or above Native.CRITICAL_MAX, sometimes large. */
    private int size() {
        return switch (rnd.nextInt(10)) {
            case 0 -> (int) Native.CRITICAL_MAX - 40 + rnd.nextInt(80);
            case 1 -> 100_000 + rnd.nextInt(200_000);
            case 2 -> rnd.nextInt(16_384);
            default -> rnd.nextInt(300);
        };
    }

    private static Ref jdk(String transformation, boolean gcm) {
        return (key, nonce, aad, pt) -> {
            Cipher c = Cipher.getInstance(transformation, "SunJCE");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, gcm ? "AES" : "ChaCha20"),
                    gcm ? new GCMParameterSpec(128, nonce) : new IvParameterSpec(nonce));
            c.updateAAD(aad);
            return c.doFinal(pt);
        };
    }

    private static Ref bc(java.util.function.Supplier<AEADCipher> make) {
        return (key, nonce, aad, pt) -> {
            AEADCipher c = make.get();
            c.init(true, new AEADParameters(new KeyParameter(key), 128, nonce, aad));
            byte[] out = new byte[c.getOutputSize(pt.length)];
            int n = c.processBytes(pt, 0, pt.length, out, 0);
            n += c.doFinal(out, n);
            return Arrays.copyOf(out, n);
        };
    }

    private void run(String name, int[] keySizes, int nonceLen, Function<byte[], Aead> make, Ref ref, String jca,
                     boolean ivSpec) throws Exception {
        int forms = 0;
        for (int round = 0; round < ROUNDS; round++) {
            byte[] key = bytes(keySizes[rnd.nextInt(keySizes.length)]);
            byte[] nonce = bytes(nonceLen);
            byte[] aad = bytes(rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(100));
            byte[] pt = bytes(size());
            byte[] expected = ref.seal(key, nonce, aad, pt);
            String where = name + " round " + round + " pt " + pt.length + " aad " + aad.length;
            try (Aead a = make.apply(key)) {
                assertArrayEquals(expected, a.seal(nonce, aad, pt), where);
                assertArrayEquals(pt, a.open(nonce, aad, expected), where);
                switch (round % 4) {
                    case 0 -> { // arrays at offsets
                        int off = rnd.nextInt(9);
                        byte[] in = new byte[off + pt.length + 3];
                        System.arraycopy(pt, 0, in, off, pt.length);
                        byte[] out = new byte[expected.length + off + 5];
                        assertEquals(expected.length, a.sealInto(nonce, aad, in, off, pt.length, out, off + 1), where);
                        assertArrayEquals(expected, Arrays.copyOfRange(out, off + 1, off + 1 + expected.length), where);
                        byte[] back = new byte[pt.length + 2];
                        assertEquals(pt.length, a.openInto(nonce, aad, out, off + 1, expected.length, back, 2), where);
                        assertArrayEquals(pt, Arrays.copyOfRange(back, 2, back.length), where);
                    }
                    case 1 -> { // in place in one array
                        byte[] buf = Arrays.copyOf(pt, expected.length);
                        assertEquals(expected.length, a.sealInto(nonce, aad, buf, 0, pt.length, buf, 0), where);
                        assertArrayEquals(expected, buf, where);
                        assertEquals(pt.length, a.openInto(nonce, aad, buf, 0, buf.length, buf, 0), where);
                        assertArrayEquals(pt, Arrays.copyOf(buf, pt.length), where);
                    }
                    case 2 -> { // direct and heap ByteBuffers
                        ByteBuffer in = ByteBuffer.allocateDirect(pt.length).put(pt).flip();
                        ByteBuffer out = ByteBuffer.allocate(expected.length + 7).position(7);
                        assertEquals(expected.length, a.sealInto(nonce, aad, in, out), where);
                        assertEquals(0, in.remaining());
                        assertArrayEquals(expected, Arrays.copyOfRange(out.array(), 7, out.position()), where);
                        ByteBuffer plain = ByteBuffer.allocateDirect(pt.length);
                        assertEquals(pt.length, a.openInto(nonce, aad, ByteBuffer.wrap(expected), plain), where);
                        assertEquals(ByteBuffer.wrap(pt), plain.flip(), where);
                    }
                    default -> { // native segments
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, pt);
                            MemorySegment out = arena.allocate(expected.length);
                            assertEquals(expected.length, a.sealInto(MemorySegment.ofArray(nonce), MemorySegment.ofArray(aad), in, out));
                            assertArrayEquals(expected, out.toArray(ValueLayout.JAVA_BYTE), where);
                        }
                    }
                }
                byte[] bad = expected.clone();
                bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
                assertThrows(AEADBadTagException.class, () -> a.open(nonce, aad, bad), where);
                forms++;
            }
            if (jca != null) {
                SecretKeySpec k = new SecretKeySpec(key, ivSpec && !jca.startsWith("AES") ? "ChaCha20" : "AES");
                AlgorithmParameterSpec spec = ivSpec ? new IvParameterSpec(nonce) : new GCMParameterSpec(128, nonce);
                Cipher c = Cipher.getInstance(jca, PROVIDER);
                c.init(Cipher.ENCRYPT_MODE, k, spec);
                int cut = aad.length == 0 ? 0 : rnd.nextInt(aad.length);
                c.updateAAD(aad, 0, cut);
                c.updateAAD(ByteBuffer.wrap(aad, cut, aad.length - cut));
                int split = pt.length == 0 ? 0 : rnd.nextInt(pt.length);
                byte[] first = c.update(pt, 0, split);
                assertEquals(0, first == null ? 0 : first.length, "update buffers");
                assertArrayEquals(expected, c.doFinal(pt, split, pt.length - split), where + " (JCA)");
                c.init(Cipher.DECRYPT_MODE, k, spec);
                c.updateAAD(aad);
                if (round % 2 == 0) {
                    assertArrayEquals(pt, c.doFinal(expected), where + " (JCA)");
                } else {
                    ByteBuffer in = ByteBuffer.allocateDirect(expected.length).put(expected).flip();
                    ByteBuffer out = ByteBuffer.allocateDirect(pt.length);
                    assertEquals(pt.length, c.doFinal(in, out), where + " (JCA)");
                    assertEquals(ByteBuffer.wrap(pt), out.flip(), where + " (JCA)");
                }
            }
        }
        System.out.println("differential " + name + ": " + forms + " random messages (-Dlibaead.seed=" + seed + ")");
    }

    @Test
    void aesGcmAgainstSunJce() throws Exception {
        run("AES-GCM vs SunJCE", new int[] {16, 24, 32}, 12, AesGcm::new, jdk("AES/GCM/NoPadding", true),
                "AES/GCM/NoPadding", false);
    }

    @Test
    void aesGcmLongNoncesAgainstSunJce() throws Exception {
        run("AES-GCM (nonce 60) vs SunJCE", new int[] {16, 32}, 60, AesGcm::new, jdk("AES/GCM/NoPadding", true),
                "AES/GCM/NoPadding", false);
    }

    @Test
    void chachaAgainstSunJce() throws Exception {
        run("ChaCha20-Poly1305 vs SunJCE", new int[] {32}, 12, ChaCha20Poly1305::new,
                jdk("ChaCha20-Poly1305", false), "ChaCha20-Poly1305", true);
    }

    @Test
    void ccmAgainstBouncyCastle() throws Exception {
        // a 12-byte nonce allows messages below 2^24 bytes
        run("AES-CCM vs BC", new int[] {16, 24, 32}, 12, AesCcm::new,
                bc(() -> CCMBlockCipher.newInstance(AESEngine.newInstance())), "AES/CCM/NoPadding", false);
    }

    @Test
    void gcmSivAgainstBouncyCastle() throws Exception {
        run("AES-GCM-SIV vs BC", new int[] {16, 32}, 12, AesGcmSiv::new,
                bc(() -> new GCMSIVBlockCipher(AESEngine.newInstance())), "AES/GCM-SIV/NoPadding", true);
    }

    @Test
    void ocbAgainstBouncyCastle() throws Exception {
        run("AES-OCB3 vs BC", new int[] {16, 24, 32}, 12, AesOcb3::new,
                bc(() -> new OCBBlockCipher(AESEngine.newInstance(), AESEngine.newInstance())), "AES/OCB/NoPadding", true);
    }
}
