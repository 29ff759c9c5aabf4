package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The AEGIS family (RFC 10032): the specification's test vectors (the vectors directory's aegis/ files) for
 * every variant with both tag lengths, through the direct classes and through the provider's Cipher (sealed,
 * opened, refused with a flipped bit, the output zeroed; the must-fail vectors refused); the sizes each variant
 * takes and the exceptions for wrong ones; the random-nonce classes; the FIPS refusal.
 */
class AegisTest {
    private static final Provider LIBAEAD = new LibAeadProvider();

    /** A constructor (key, tagLength, properties). */
    private interface Make<T> {
        T make(byte[] key, int tagLength, String properties);
    }

    private record Variant(int alg, String name, int keySize, Make<Aead> direct, Make<RandomNonceAead> random) {}

    private static final List<Variant> VARIANTS = List.of(
            new Variant(Algs.AEGIS_128L, "AEGIS-128L", 16, Aegis128L::new,
                    Aegis128LRandomNonce::new),
            new Variant(Algs.AEGIS_256, "AEGIS-256", 32, Aegis256::new,
                    Aegis256RandomNonce::new),
            new Variant(Algs.AEGIS_128X2, "AEGIS-128X2", 16, Aegis128X2::new,
                    Aegis128X2RandomNonce::new),
            new Variant(Algs.AEGIS_128X4, "AEGIS-128X4", 16, Aegis128X4::new,
                    Aegis128X4RandomNonce::new),
            new Variant(Algs.AEGIS_256X2, "AEGIS-256X2", 32, Aegis256X2::new,
                    Aegis256X2RandomNonce::new),
            new Variant(Algs.AEGIS_256X4, "AEGIS-256X4", 32, Aegis256X4::new,
                    Aegis256X4RandomNonce::new));

    /** valid false: a must-fail vector (no msg; the tags are the RFC's, not ones this ciphertext has). */
    private record Vector(Variant variant, String name, boolean valid, String key, String nonce, String ad, String msg,
                          String ct, String tag128, String tag256) {}

    /** RFC 10032's test vectors, every variant: the pinned aegis crate's aegis/aegis-*-test-vectors.json in the
     * vectors directory (tests/vectors.py; a missing file fails), its intermediate-state entries (no "ct") skipped. */
    private static List<Vector> rfcVectors() throws IOException {
        List<Vector> r = new ArrayList<>();
        for (Variant var : VARIANTS) {
            Path file = TestSupport.vectorsDir().resolve("aegis/" + var.name.toLowerCase(Locale.ROOT) + "-test-vectors.json");
            for (JsonElement e : JsonParser.parseString(Files.readString(file)).getAsJsonArray()) {
                JsonObject o = e.getAsJsonObject();
                if (!o.has("ct")) {
                    continue;
                }
                boolean valid = !o.has("error");
                Function<String, String> s = k -> o.get(k).getAsString();
                r.add(new Vector(var, var.name + " " + s.apply("name"), valid, s.apply("key"), s.apply("nonce"),
                        s.apply("ad"), valid ? s.apply("msg") : null, s.apply("ct"), s.apply("tag128"), s.apply("tag256")));
            }
        }
        return r;
    }

    private static byte[] hex(String s) {
        return TestSupport.hex(s);
    }

    private static byte[] bytes(int n) {
        return TestSupport.randomBytes(n);
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 0xEE);
        return b;
    }

    private static SecretKeySpec key(byte[] k) {
        return new SecretKeySpec(k, "AEGIS");
    }

    private static AlgorithmParameterSpec spec(byte[] nonce, int tag, boolean ivSpec) {
        return ivSpec ? new IvParameterSpec(nonce) : new GCMParameterSpec(tag * 8, nonce);
    }

    @Test
    void rfcVectorsThroughTheClasses() throws Exception {
        int sealed = 0, refused = 0, forgeries = 0;
        List<Vector> vectors = rfcVectors();
        for (Vector v : vectors) {
            for (int tagLen : new int[] {16, 32}) {
                String what = v.name + ", tag " + tagLen;
                byte[] key = hex(v.key), nonce = hex(v.nonce), ad = hex(v.ad), ct = hex(v.ct);
                byte[] tag = hex(tagLen == 16 ? v.tag128 : v.tag256);
                assertEquals(tagLen, tag.length, what);
                byte[] sealedMsg = TestSupport.concat(ct, tag);
                try (Aead a = v.variant.direct.make(key, tagLen, null)) {
                    assertEquals(tagLen, a.tagLength(), what);
                    assertEquals(tagLen, a.overhead(), what);
                    if (!v.valid) {
                        byte[] back = filled(ct.length);
                        assertThrows(AEADBadTagException.class, () -> a.openInto(nonce, ad, sealedMsg, 0, sealedMsg.length, back, 0), what);
                        assertArrayEquals(new byte[ct.length], back, what + ": plaintext left behind");
                        refused++;
                        continue;
                    }
                    byte[] msg = hex(v.msg);
                    assertArrayEquals(sealedMsg, a.seal(nonce, ad, msg), what);
                    assertArrayEquals(msg, a.open(nonce, ad, sealedMsg), what);
                    // In place, both ways.
                    byte[] buf = Arrays.copyOf(msg, msg.length + tagLen);
                    assertEquals(buf.length, a.sealInto(nonce, ad, buf, 0, msg.length, buf, 0), what);
                    assertArrayEquals(sealedMsg, buf, what);
                    assertEquals(msg.length, a.openInto(nonce, ad, buf, 0, buf.length, buf, 0), what);
                    assertArrayEquals(msg, Arrays.copyOf(buf, msg.length), what);
                    sealed++;
                    // A flipped bit in the ciphertext (first byte), the tag (first and last byte) and the aad:
                    // refused, the output zeroed.
                    for (int at : ct.length > 0 ? new int[] {0, ct.length, sealedMsg.length - 1} : new int[] {0, sealedMsg.length - 1}) {
                        byte[] forged = sealedMsg.clone();
                        forged[at] ^= 1;
                        byte[] back = filled(msg.length);
                        assertThrows(AEADBadTagException.class, () -> a.openInto(nonce, ad, forged, 0, forged.length, back, 0), what + " at " + at);
                        assertArrayEquals(new byte[msg.length], back, what + ": plaintext left behind");
                        forgeries++;
                    }
                    byte[] otherAd = Arrays.copyOf(ad, ad.length + 1);
                    assertThrows(AEADBadTagException.class, () -> a.open(nonce, otherAd, sealedMsg), what);
                    forgeries++;
                    assertEquals(3 + (ct.length > 0 ? 1 : 0), a.usage().forgeries(), what);
                }
            }
        }
        assertEquals(2 * 18, sealed);
        assertEquals(2 * 8, refused);
        System.out.printf("vectors aegis (RFC 10032), direct classes: %d cases: %d sealed and opened (%d forgeries refused), %d must-fail refused%n",
                2 * vectors.size(), sealed, forgeries, refused);
    }

    @Test
    void rfcVectorsThroughTheCipher() throws Exception {
        int sealed = 0, refused = 0;
        for (Vector v : rfcVectors()) {
            for (int tagLen : new int[] {16, 32}) {
                // A 16-byte tag is the IvParameterSpec's too: both forms, each on its own Cipher.
                for (boolean ivSpec : tagLen == 16 ? new boolean[] {false, true} : new boolean[] {false}) {
                    String what = v.name + ", tag " + tagLen + (ivSpec ? ", IvParameterSpec" : ", GCMParameterSpec");
                    String name = v.variant.name;
                    SecretKeySpec key = key(hex(v.key));
                    byte[] nonce = hex(v.nonce), ad = hex(v.ad), ct = hex(v.ct);
                    byte[] sealedMsg = TestSupport.concat(ct, hex(tagLen == 16 ? v.tag128 : v.tag256));
                    Cipher d = Cipher.getInstance(name, LIBAEAD);
                    d.init(Cipher.DECRYPT_MODE, key, spec(nonce, tagLen, ivSpec));
                    if (!v.valid) {
                        d.updateAAD(ad);
                        assertThrows(AEADBadTagException.class, () -> d.doFinal(sealedMsg), what);
                        refused++;
                        continue;
                    }
                    byte[] msg = hex(v.msg);
                    Cipher e = Cipher.getInstance(name, LIBAEAD);
                    e.init(Cipher.ENCRYPT_MODE, key, spec(nonce, tagLen, ivSpec));
                    assertEquals(msg.length + tagLen, e.getOutputSize(msg.length), what);
                    e.updateAAD(ad);
                    byte[] early = e.update(msg, 0, msg.length / 2);
                    assertTrue(early == null || early.length == 0, what);
                    assertArrayEquals(sealedMsg, e.doFinal(msg, msg.length / 2, msg.length - msg.length / 2), what);
                    d.updateAAD(ad);
                    assertArrayEquals(msg, d.doFinal(sealedMsg), what);
                    sealed++;
                    byte[] forged = sealedMsg.clone();
                    forged[forged.length - 1] ^= 1;
                    d.updateAAD(ad);
                    assertThrows(AEADBadTagException.class, () -> d.doFinal(forged), what);
                    if (ct.length > 0) {
                        byte[] forgedCt = sealedMsg.clone();
                        forgedCt[0] ^= (byte) 0x80;
                        d.updateAAD(ad);
                        assertThrows(AEADBadTagException.class, () -> d.doFinal(forgedCt), what);
                    }
                    d.updateAAD(ad);
                    assertArrayEquals(msg, d.doFinal(sealedMsg), what + ": the Cipher opens again after a refusal");
                }
            }
        }
        assertEquals(3 * 18, sealed);
        assertEquals(3 * 8, refused);
        System.out.printf("vectors aegis (RFC 10032), JCA Cipher: %d cases: %d sealed and opened, %d must-fail refused%n",
                sealed + refused, sealed, refused);
    }

    @Test
    void wrongSizesThroughTheClasses() throws Exception {
        for (Variant v : VARIANTS) {
            int k = v.keySize;
            for (int n : new int[] {0, k - 1, k + 1, 24, 48}) {
                assertThrows(IllegalArgumentException.class, () -> v.direct.make(bytes(n), 16, null), v.name + " key " + n);
                assertThrows(IllegalArgumentException.class, () -> v.random.make(bytes(n), 16, null), v.name + " key " + n);
            }
            assertThrows(NullPointerException.class, () -> v.direct.make(null, 16, null));
            for (int t : new int[] {0, 1, 8, 12, 15, 17, 24, 31, 33, 64, -16}) {
                assertThrows(IllegalArgumentException.class, () -> v.direct.make(bytes(k), t, null), v.name + " tag " + t);
                assertThrows(IllegalArgumentException.class, () -> v.random.make(bytes(k), t, null), v.name + " tag " + t);
            }
            for (int tagLen : new int[] {16, 32}) {
                try (Aead a = v.direct.make(bytes(k), tagLen, null)) {
                    byte[] pt = bytes(40), aad = bytes(5);
                    for (int n = 0; n <= 40; n++) {
                        if (n == k) {
                            continue;
                        }
                        byte[] nonce = bytes(n), out = filled(pt.length + tagLen);
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                () -> a.sealInto(nonce, aad, pt, 0, pt.length, out, 0), v.name + " nonce " + n);
                        assertTrue(e.getMessage().contains("code " + AeadException.NONCE_SIZE), e.getMessage());
                        assertArrayEquals(filled(pt.length + tagLen), out, "a refused seal wrote");
                    }
                    byte[] nonce = bytes(k);
                    assertThrows(IllegalArgumentException.class,
                            () -> a.sealInto(nonce, aad, pt, 0, pt.length, new byte[pt.length + tagLen - 1], 0));
                    byte[] sealed = a.seal(nonce, aad, pt);
                    assertEquals(pt.length + tagLen, sealed.length);
                    assertThrows(IllegalArgumentException.class,
                            () -> a.openInto(nonce, aad, sealed, 0, sealed.length, new byte[pt.length - 1], 0));
                    assertThrows(AEADBadTagException.class, () -> a.open(nonce, aad, bytes(tagLen - 1)));
                    // Empty message and aad: the tag alone, which opens to nothing.
                    byte[] tagOnly = a.seal(nonce, null, new byte[0]);
                    assertEquals(tagLen, tagOnly.length);
                    assertEquals(0, a.open(nonce, null, tagOnly).length);
                }
            }
        }
    }

    @Test
    void wrongSizesThroughTheCipher() throws Exception {
        for (Variant v : VARIANTS) {
            int k = v.keySize;
            Cipher c = Cipher.getInstance(v.name, LIBAEAD);
            for (int n : new int[] {1, k - 1, k + 1, 48}) { // (SecretKeySpec itself refuses an empty key)
                assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, key(bytes(n)), new IvParameterSpec(bytes(k))),
                        v.name + " key " + n);
            }
            for (int n : new int[] {0, 12, k - 1, k + 1, 24, 48}) {
                assertThrows(InvalidAlgorithmParameterException.class,
                        () -> c.init(Cipher.ENCRYPT_MODE, key(bytes(k)), new IvParameterSpec(bytes(n))), v.name + " nonce " + n);
                assertThrows(InvalidAlgorithmParameterException.class,
                        () -> c.init(Cipher.ENCRYPT_MODE, key(bytes(k)), new GCMParameterSpec(128, bytes(n))), v.name + " nonce " + n);
            }
            for (int bits : new int[] {96, 120, 136, 192, 248, 264, 512}) {
                assertThrows(InvalidAlgorithmParameterException.class,
                        () -> c.init(Cipher.ENCRYPT_MODE, key(bytes(k)), new GCMParameterSpec(bits, bytes(k))), v.name + " tag " + bits);
            }
            assertThrows(NoSuchAlgorithmException.class, () -> Cipher.getInstance(v.name + "/GCM/NoPadding", LIBAEAD));
            Cipher t = Cipher.getInstance(v.name + "/None/NoPadding", LIBAEAD);
            SecretKeySpec key = key(bytes(k));
            byte[] iv = bytes(k);
            t.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(256, iv));
            assertThrows(AEADBadTagException.class, () -> t.doFinal(bytes(31)), "shorter than the 32-byte tag");
            // Encryption again with the previous encryption's key and nonce is refused, as for AES-GCM.
            t.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(256, iv));
            assertEquals(10 + 32, t.doFinal(bytes(10)).length);
            assertThrows(InvalidAlgorithmParameterException.class, () -> t.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv)));
        }
    }

    @Test
    void cipherDrawsANonceWithoutParameters() throws Exception {
        for (Variant v : VARIANTS) {
            SecretKeySpec key = key(bytes(v.keySize));
            Cipher e = Cipher.getInstance(v.name, LIBAEAD), d = Cipher.getInstance(v.name, LIBAEAD);
            e.init(Cipher.ENCRYPT_MODE, key);
            byte[] iv = e.getIV(), pt = bytes(33);
            assertEquals(v.keySize, iv.length, v.name);
            byte[] ct = e.doFinal(pt);
            assertEquals(33 + 16, ct.length);
            d.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(iv));
            assertArrayEquals(pt, d.doFinal(ct), v.name);
            // With a 128-bit tag the parameters are JCA's GCM parameters; JCA's GCM parameters cannot hold 256 bits.
            AlgorithmParameters params = e.getParameters();
            assertNotNull(params, v.name);
            d.init(Cipher.DECRYPT_MODE, key, params);
            assertArrayEquals(pt, d.doFinal(ct), v.name);
            e.init(Cipher.ENCRYPT_MODE, key);
            assertFalse(Arrays.equals(iv, e.getIV()), v.name + ": a fresh nonce per init");
            e.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(256, bytes(v.keySize)));
            assertNull(e.getParameters(), v.name);
            assertThrows(InvalidKeyException.class, () -> d.init(Cipher.DECRYPT_MODE, key), "decryption needs parameters");
        }
    }

    @Test
    void randomNonceClasses() throws Exception {
        int seals = 0;
        for (Variant v : VARIANTS) {
            for (int tagLen : new int[] {16, 32}) {
                String what = v.name + ", tag " + tagLen;
                byte[] key = bytes(v.keySize), aad = bytes(4), pt = bytes(50);
                int total = v.keySize + pt.length + tagLen;
                try (RandomNonceAead r = v.random.make(key, tagLen, null); Aead plain = v.direct.make(key, tagLen, null)) {
                    assertEquals(v.keySize + tagLen, r.overhead(), what);
                    Set<String> nonces = new HashSet<>();
                    for (int i = 0; i < 20; i++) {
                        byte[] s = r.seal(aad, pt);
                        assertEquals(total, s.length, what);
                        byte[] nonce = Arrays.copyOf(s, v.keySize);
                        nonces.add(TestSupport.hex(nonce));
                        // the caller-nonce class under the drawn nonce gives the same bytes
                        assertArrayEquals(plain.seal(nonce, aad, pt), Arrays.copyOfRange(s, v.keySize, total), what);
                        assertArrayEquals(pt, r.open(aad, s), what);
                        s[total - 1] ^= 1;
                        assertThrows(AEADBadTagException.class, () -> r.open(aad, s), what);
                        seals++;
                    }
                    assertEquals(20, nonces.size(), what + ": drawn nonces repeat");
                    assertEquals(20, r.usage().seals(), what);
                    assertEquals(20, r.usage().forgeries(), what);
                    // In place: the ciphertext lands where the plaintext was (input at output + nonce).
                    byte[] buf = new byte[total];
                    System.arraycopy(pt, 0, buf, v.keySize, pt.length);
                    assertEquals(total, r.sealInto(aad, buf, v.keySize, pt.length, buf, 0), what);
                    assertEquals(pt.length, r.openInto(aad, buf, 0, total, buf, v.keySize), what);
                    assertArrayEquals(pt, Arrays.copyOfRange(buf, v.keySize, v.keySize + pt.length), what);
                    assertThrows(AEADBadTagException.class, () -> r.open(aad, new byte[v.keySize + tagLen - 1]), what);
                }
            }
        }
        assertEquals(6 * 2 * 20, seals);
    }

    @Test
    void indicatorAndFipsRefusal() throws Exception {
        for (Variant v : VARIANTS) {
            try (Aead a = v.direct.make(bytes(v.keySize), 16, null); RandomNonceAead r = v.random.make(bytes(v.keySize), 32, null)) {
                for (AeadContext c : new AeadContext[] {a, r}) {
                    AeadContext.Indicator ind = c.indicator();
                    assertEquals("libaegis", ind.provider(), v.name);
                    assertFalse(ind.sealApproved() || ind.openApproved() || ind.fipsProvider(), v.name);
                }
            }
            // No FIPS provider has AEGIS: a FIPS query is refused (with or without one installed), and the
            // provider configured for FIPS registers no AEGIS name.
            for (String props : new String[] {"fips=yes", "fips=yes,provider=fips"}) {
                assertEquals(AeadException.UNSUPPORTED, assertThrows(AeadException.class,
                        () -> v.direct.make(bytes(v.keySize), 16, props), v.name).code());
                assertEquals(AeadException.UNSUPPORTED, assertThrows(AeadException.class,
                        () -> v.random.make(bytes(v.keySize), 32, props), v.name).code());
            }
            assertNull(new LibAeadProvider("fips=yes").getService("Cipher", v.name));
            assertNotNull(LIBAEAD.getService("Cipher", v.name));
            // A query that picks the default provider offers it.
            try (Aead a = v.direct.make(bytes(v.keySize), 16, "provider=default")) {
                assertEquals("libaegis", a.indicator().provider());
            }
    }
    }
}
