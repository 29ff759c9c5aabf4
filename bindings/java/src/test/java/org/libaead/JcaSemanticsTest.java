package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** JCA rules, each checked on the LibAead provider and, where SunJCE has the algorithm, on SunJCE in the same test. */
class JcaSemanticsTest {
    private static final Provider LIBAEAD = new LibAeadProvider();
    private static byte[] bytes(int n) {
        return TestSupport.randomBytes(n);
    }

    private record Alg(String name, String keyAlg, int keyLen, boolean gcmSpec, boolean sunjce) {
        AlgorithmParameterSpec spec(byte[] iv) {
            return gcmSpec ? new GCMParameterSpec(128, iv) : new IvParameterSpec(iv);
        }
    }

    private static Alg alg(String name) {
        return switch (name) {
            case "AES/GCM/NoPadding" -> new Alg(name, "AES", 16, true, true);
            case "ChaCha20-Poly1305" -> new Alg(name, "ChaCha20", 32, false, true);
            case "AES/CCM/NoPadding" -> new Alg(name, "AES", 16, true, false);
            case "AES/GCM-SIV/NoPadding" -> new Alg(name, "AES", 32, false, false);
            case "AES/OCB/NoPadding" -> new Alg(name, "AES", 16, false, false);
            case "XChaCha20-Poly1305" -> new Alg(name, "XChaCha20", 32, false, false);
            case "AEGIS-128L", "AEGIS-128X2" -> new Alg(name, "AEGIS", 16, false, false);
            case "AEGIS-256", "AEGIS-256X4" -> new Alg(name, "AEGIS", 32, false, false);
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static List<Provider> providers(Alg a) {
        List<Provider> l = new ArrayList<>(List.of(LIBAEAD));
        if (a.sunjce) {
            l.add(java.security.Security.getProvider("SunJCE"));
        }
        return l;
    }

    private static int ivLen(String name) {
        return name.startsWith("XChaCha") ? 24 : name.startsWith("AEGIS") ? alg(name).keyLen : 12;
    }

    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305"})
    void reinitForEncryptionWithSameKeyAndIvIsRefused(String name) throws Exception {
        Alg a = alg(name);
        Class<? extends Exception> expected = a.gcmSpec ? InvalidAlgorithmParameterException.class : InvalidKeyException.class;
        for (Provider p : providers(a)) {
            SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
            byte[] iv = bytes(12);
            Cipher c = Cipher.getInstance(name, p);
            c.init(Cipher.ENCRYPT_MODE, key, a.spec(iv));
            c.doFinal(bytes(10));
            assertThrows(expected, () -> c.init(Cipher.ENCRYPT_MODE, key, a.spec(iv)), p.getName());
            c.init(Cipher.ENCRYPT_MODE, key, a.spec(bytes(12))); // a new IV is fine
            c.init(Cipher.DECRYPT_MODE, key, a.spec(iv)); // and decryption with the old one
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305", "AES/CCM/NoPadding", "AES/OCB/NoPadding",
            "XChaCha20-Poly1305", "AES/GCM-SIV/NoPadding", "AEGIS-128L", "AEGIS-256", "AEGIS-128X2", "AEGIS-256X4"})
    void secondEncryptDoFinalAndAadAfterUpdateAreIllegalState(String name) throws Exception {
        Alg a = alg(name);
        for (Provider p : providers(a)) {
            SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
            Cipher c = Cipher.getInstance(name, p);
            c.init(Cipher.ENCRYPT_MODE, key, a.spec(bytes(ivLen(name))));
            c.updateAAD(bytes(3));
            c.update(bytes(20));
            assertThrows(IllegalStateException.class, () -> c.updateAAD(bytes(3)), p.getName());
            assertThrows(IllegalStateException.class, () -> c.updateAAD(ByteBuffer.wrap(bytes(3))), p.getName());
            c.doFinal();
            assertThrows(IllegalStateException.class, () -> c.doFinal(bytes(5)), p.getName());
            assertThrows(IllegalStateException.class, () -> c.update(bytes(5)), p.getName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305", "AES/CCM/NoPadding", "AES/OCB/NoPadding",
            "XChaCha20-Poly1305", "AES/GCM-SIV/NoPadding", "AEGIS-128L", "AEGIS-256", "AEGIS-128X2", "AEGIS-256X4"})
    void decryptionReleasesNothingBeforeTheTagVerifies(String name) throws Exception {
        Alg a = alg(name);
        SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
        byte[] iv = bytes(ivLen(name)), pt = bytes(100);
        Cipher c = Cipher.getInstance(name, LIBAEAD);
        c.init(Cipher.ENCRYPT_MODE, key, a.spec(iv));
        byte[] ct = c.doFinal(pt);
        c.init(Cipher.DECRYPT_MODE, key, a.spec(iv));
        byte[] part = c.update(ct, 0, 60);
        assertTrue(part == null || part.length == 0, "update released bytes");
        assertEquals(0, c.update(ct, 60, 20, new byte[200], 0));
        ct[ct.length - 1] ^= 1;
        byte[] out = new byte[200];
        Arrays.fill(out, (byte) 0x55);
        assertThrows(AEADBadTagException.class, () -> c.doFinal(ct, 80, ct.length - 80, out, 0));
        for (int i = 0; i < 100; i++) {
            assertTrue(out[i] == 0 || out[i] == 0x55, "plaintext leaked at " + i);
        }
        // the cipher is back at its initialised state: a correct message opens
        ct[ct.length - 1] ^= 1;
        assertArrayEquals(pt, c.doFinal(ct));
        assertArrayEquals(pt, c.doFinal(ct), "decryption may repeat without re-init");
    }

    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305"})
    void randomIvWithoutParameters(String name) throws Exception {
        Alg a = alg(name);
        SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
        Cipher c = Cipher.getInstance(name, LIBAEAD);
        c.init(Cipher.ENCRYPT_MODE, key);
        byte[] iv1 = c.getIV();
        assertEquals(12, iv1.length);
        byte[] ct = c.doFinal(bytes(33));
        c.init(Cipher.ENCRYPT_MODE, key);
        assertFalse(Arrays.equals(iv1, c.getIV()), "a fresh IV per init");
        var params = c.getParameters();
        assertNotNull(params);
        Cipher d = Cipher.getInstance(name, LIBAEAD);
        d.init(Cipher.DECRYPT_MODE, key, params);
        assertArrayEquals(c.getIV(), d.getIV());
        d.init(Cipher.DECRYPT_MODE, key, a.spec(iv1));
        assertEquals(33, d.doFinal(ct).length);
        // decryption needs parameters, as on SunJCE
        for (Provider p : providers(a)) {
            Cipher e = Cipher.getInstance(name, p);
            assertThrows(InvalidKeyException.class, () -> e.init(Cipher.DECRYPT_MODE, key), p.getName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305"})
    void outputSizeNeverAboveSunJce(String name) throws Exception {
        Alg a = alg(name);
        SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
        byte[] iv = bytes(12);
        Cipher ours = Cipher.getInstance(name, LIBAEAD), sun = Cipher.getInstance(name, "SunJCE");
        for (int mode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
            ours.init(mode, key, a.spec(iv));
            sun.init(mode, key, a.spec(iv));
            for (int n : new int[] {0, 1, 15, 16, 17, 100, 4096}) {
                assertTrue(ours.getOutputSize(n) <= sun.getOutputSize(n), "mode " + mode + " n " + n);
            }
            // after update: our update returned nothing (it buffers), so doFinal's output is compared with
            // what SunJCE's update already returned plus what its doFinal may still return
            byte[] sunEarly = sun.update(bytes(40));
            int early = sunEarly == null ? 0 : sunEarly.length;
            byte[] oursEarly = ours.update(bytes(40));
            assertEquals(0, oursEarly == null ? 0 : oursEarly.length);
            for (int n : new int[] {0, 5, 100}) {
                assertTrue(ours.getOutputSize(n) <= early + sun.getOutputSize(n), "buffered, mode " + mode + " n " + n);
            }
            ours.init(mode, key, a.spec(bytes(12)));
            sun.init(mode, key, a.spec(bytes(12)));
        }
    }

    /** heap, direct, read-only input, and output sharing the input's array (exactly, and shifted) agree with SunJCE. */
    @ParameterizedTest
    @ValueSource(strings = {"AES/GCM/NoPadding", "ChaCha20-Poly1305"})
    void byteBufferForms(String name) throws Exception {
        Alg a = alg(name);
        SecretKeySpec key = new SecretKeySpec(bytes(a.keyLen), a.keyAlg);
        byte[] pt = bytes(300), aad = bytes(20);
        for (int shift : new int[] {0, 5, -5, 400}) {
            for (boolean direct : new boolean[] {false, true}) {
                byte[] iv = bytes(12);
                byte[] expected = null;
                for (Provider p : providers(a)) {
                    Cipher c = Cipher.getInstance(name, p);
                    c.init(Cipher.ENCRYPT_MODE, key, a.spec(iv));
                    c.updateAAD(direct ? ByteBuffer.allocateDirect(aad.length).put(aad).flip()
                            : ByteBuffer.wrap(aad).asReadOnlyBuffer());
                    ByteBuffer whole = direct ? ByteBuffer.allocateDirect(1000) : ByteBuffer.allocate(1000);
                    int inAt = 100, outAt = 100 + shift;
                    whole.put(inAt, pt);
                    ByteBuffer in = whole.duplicate().position(inAt).limit(inAt + pt.length).slice();
                    ByteBuffer out = whole.duplicate().position(outAt).limit(outAt + pt.length + 16).slice();
                    if (shift == 400) {
                        in = in.asReadOnlyBuffer();
                    }
                    assertEquals(pt.length + 16, c.doFinal(in, out));
                    byte[] got = new byte[pt.length + 16];
                    whole.get(outAt, got);
                    if (expected == null) {
                        expected = got;
                    } else {
                        assertArrayEquals(expected, got, "shift " + shift + " direct " + direct + " vs " + p.getName());
                    }
                    c.init(Cipher.DECRYPT_MODE, key, a.spec(iv));
                    c.updateAAD(aad);
                    ByteBuffer ro = ByteBuffer.allocate(pt.length).asReadOnlyBuffer();
                    Cipher cc = c;
                    assertThrows(ReadOnlyBufferException.class, () -> cc.doFinal(ByteBuffer.wrap(got), ro));
                }
            }
        }
    }

    @Test
    void namesAliasesAndKeySizes() throws Exception {
        for (String n : new String[] {"AES/GCM/NoPadding", "AES_128/GCM/NoPadding", "AES_256/GCM/NoPadding",
                "ChaCha20-Poly1305", "ChaCha20/Poly1305/NoPadding", "CHACHA20-POLY1305", "AES/CCM/NoPadding",
                "AES/GCM-SIV/NoPadding", "AES/OCB/NoPadding", "XChaCha20-Poly1305", "AEGIS-128L", "AEGIS-256",
                "AEGIS-128X2", "AEGIS-128X4", "AEGIS-256X2", "AEGIS-256X4", "aegis-128l", "AEGIS-256X4/None/NoPadding"}) {
            assertEquals("LibAead", Cipher.getInstance(n, LIBAEAD).getProvider().getName(), n);
        }
        Cipher c = Cipher.getInstance("AES_128/GCM/NoPadding", LIBAEAD);
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(bytes(32), "AES")));
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(bytes(16), "AES"));
        Cipher g = Cipher.getInstance("AES/GCM/NoPadding", LIBAEAD);
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> g.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(bytes(16), "AES"), new GCMParameterSpec(64, bytes(12))));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> g.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(bytes(16), "AES"), new IvParameterSpec(bytes(12))));
    }

    @Test
    void serviceLoaderAndFipsConfiguration() {
        boolean found = false;
        for (Provider p : ServiceLoader.load(Provider.class)) {
            found |= p.getName().equals("LibAead");
        }
        assertTrue(found, "LibAead not registered through META-INF/services");
        Provider fips = new LibAeadProvider().configure("fips=yes");
        assertNotNull(fips.getService("Cipher", "AES/GCM/NoPadding"));
        assertNull(fips.getService("Cipher", "ChaCha20-Poly1305"));
        assertNull(fips.getService("Cipher", "AES/OCB/NoPadding"));
        assertNull(fips.getService("Cipher", "AEGIS-128L"));
    }

    @Test
    void ccmTagLengthsAndGcmParameterSpec() throws Exception {
        SecretKeySpec key = new SecretKeySpec(bytes(16), "AES");
        for (int bits : new int[] {32, 64, 96, 128}) {
            byte[] iv = bytes(13);
            Cipher c = Cipher.getInstance("AES/CCM/NoPadding", LIBAEAD);
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(bits, iv));
            byte[] ct = c.doFinal(bytes(50));
            assertEquals(50 + bits / 8, ct.length);
            try (AesCcm direct = new AesCcm(key.getEncoded(), bits / 8, null)) {
                assertEquals(50, direct.open(iv, null, ct).length);
            }
        }
    }
}
