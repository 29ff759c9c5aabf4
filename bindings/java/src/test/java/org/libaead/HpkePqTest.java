package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libaead.TestSupport.hex;
import static org.libaead.TestSupport.randomBytes;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;

/**
 * draft-ietf-hpke-pq through org.libaead.Hpke: ML-KEM-512/768/1024, the hybrids MLKEM768-P256, MLKEM1024-P384
 * and X-Wing, and the one-stage KDFs SHAKE128 / SHAKE256 (TurboSHAKE is in no OpenSSL: always refused).
 * <ul>
 * <li>every case of Go 1.26's hpke-pq.json (tests/vectors.py; a missing file fails): with ML-KEM in libcrypto
 *     (OpenSSL 3.5+, the jar's bundled library) 10 pass and the 3 TurboSHAKE cases are refused; without it
 *     (OpenSSL 3.0) the 2 DHKEM + SHAKE cases pass and 11 are refused, each {@link AeadException#UNSUPPORTED};</li>
 * <li>round trips with generated keys for every PQ KEM in base and psk mode (the auth modes refused), and for
 *     the DHKEMs with the SHAKE KDFs in every mode;</li>
 * <li>bad PQ keys and encapsulations refused, or (ML-KEM's implicit rejection) failing the first open.</li>
 * </ul>
 */
class HpkePqTest {
    static final int[] PQ_KEMS = {Hpke.KEM_ML_KEM_512, Hpke.KEM_ML_KEM_768, Hpke.KEM_ML_KEM_1024,
        Hpke.KEM_MLKEM768_P256, Hpke.KEM_MLKEM1024_P384, Hpke.KEM_MLKEM768_X25519};
    /** Nenc, Npk, Nsk of each PQ KEM (draft-ietf-hpke-pq). */
    static final int[][] PQ_SIZES = {{768, 800, 64}, {1088, 1184, 64}, {1568, 1568, 64}, {1153, 1249, 32},
        {1665, 1665, 32}, {1120, 1216, 32}};

    /**
     * Whether the library under test runs on a libcrypto with ML-KEM: OpenSSL 3.5 or later, read from
     * aead_version()'s text (not by asking the KEM). The jar's bundled library must have it.
     */
    static boolean mlkemExpected() {
        String v = Native.version();
        Matcher m = Pattern.compile("OpenSSL (\\d+)\\.(\\d+)\\.").matcher(v);
        assertTrue(m.find(), "no OpenSSL version in " + v);
        boolean pq = Integer.parseInt(m.group(1)) > 3
                || (Integer.parseInt(m.group(1)) == 3 && Integer.parseInt(m.group(2)) >= 5);
        if (System.getProperty("libaead.library") == null) {
            assertTrue(pq, "the bundled library is built on OpenSSL 3.5: " + v);
        }
        return pq;
    }

    static boolean isPq(int kem) {
        for (int k : PQ_KEMS) {
            if (k == kem) {
                return true;
            }
        }
        return false;
    }

    private static byte[] h(JsonObject o, String name) {
        return hex(o.get(name).getAsString());
    }

    private static void assertUnsupported(Runnable r, String where) {
        AeadException e = assertThrows(AeadException.class, r::run, where);
        assertEquals(AeadException.UNSUPPORTED, e.code(), where);
    }

    @Test
    void pqVectors() throws Exception {
        Path file = TestSupport.vectorsDir().resolve("hpke/hpke-pq.json");
        assertTrue(Files.isRegularFile(file), file + " is missing (tests/vectors.py fetches it)");
        List<JsonElement> cases = JsonParser.parseString(Files.readString(file)).getAsJsonArray().asList();
        boolean pq = mlkemExpected();
        int passed = 0, refusedTurboshake = 0, refusedMlkem = 0, seals = 0, exports = 0;
        Map<String, Integer> perKem = new TreeMap<>();
        for (JsonElement ce : cases) {
            JsonObject c = ce.getAsJsonObject();
            assertEquals(Hpke.MODE_BASE, c.get("mode").getAsInt());
            int kem = c.get("kem_id").getAsInt(), kdf = c.get("kdf_id").getAsInt();
            Hpke suite = Hpke.of(kem, kdf, c.get("aead_id").getAsInt());
            String where = suite.toString();
            byte[] info = h(c, "info"), enc = h(c, "enc"), skR = h(c, "skRm"), pkR = h(c, "pkRm");
            assertEquals(suite.privateKeySize(), skR.length, where);
            assertEquals(suite.publicKeySize(), pkR.length, where);
            assertEquals(suite.encapsulationSize(), enc.length, where);
            boolean turboshake = kdf == Hpke.KDF_TURBOSHAKE128 || kdf == Hpke.KDF_TURBOSHAKE256;
            if (turboshake || (isPq(kem) && !pq)) {
                assertUnsupported(() -> suite.newSenderForTesting(h(c, "ikmE"), pkR, info, null, null, null), where);
                assertUnsupported(() -> suite.newRecipient(enc, skR, info), where);
                if (turboshake) {
                    refusedTurboshake++;
                } else {
                    refusedMlkem++;
                }
                continue;
            }
            Hpke.KeyPair r = suite.deriveKeyPair(h(c, "ikmR"));
            assertArrayEquals(skR, r.privateKey(), where);
            assertArrayEquals(pkR, r.publicKey(), where);
            assertArrayEquals(pkR, suite.publicKey(skR), where);
            try (Hpke.Sender tx = suite.newSenderForTesting(h(c, "ikmE"), pkR, info, null, null, null);
                 Hpke.Recipient rx = suite.newRecipient(enc, skR, info)) {
                assertArrayEquals(enc, tx.encapsulation(), where);
                int seq = 0;
                for (JsonElement ee : c.getAsJsonArray("encryptions")) {
                    JsonObject e = ee.getAsJsonObject();
                    byte[] aad = h(e, "aad"), pt = h(e, "pt"), ct = h(e, "ct");
                    Hpke.Sender.Message m = tx.sealWithSequence(aad, pt);
                    assertEquals(seq, m.sequence(), where);
                    assertArrayEquals(ct, m.ciphertext(), where + " seq " + seq);
                    assertArrayEquals(pt, rx.open(aad, ct), where + " seq " + seq);
                    seq++;
                    seals++;
                }
                assertEquals(10, seq, where + " encryptions");
                int n = HpkeTest.checkExports(c, tx, rx, where);
                assertEquals(5, n, where + " exports");
                exports += n;
            }
            perKem.merge(String.format("0x%04x", kem), 1, Integer::sum);
            passed++;
        }
        System.out.println("vectors hpke/hpke-pq.json: " + cases.size() + " cases: " + passed + " passed ("
                + seals + " encryptions, " + exports + " exports), " + refusedTurboshake + " refused (TurboSHAKE), "
                + refusedMlkem + " refused (no ML-KEM in " + Native.version() + ")");
        assertEquals(13, cases.size(), "hpke-pq.json cases");
        assertEquals(3, refusedTurboshake, "TurboSHAKE cases refused");
        assertEquals(pq ? 10 : 2, passed, "cases passed");
        assertEquals(pq ? 0 : 8, refusedMlkem, "cases refused for want of ML-KEM");
        if (pq) {
            for (int kem : PQ_KEMS) {
                boolean two = kem == Hpke.KEM_MLKEM768_P256 || kem == Hpke.KEM_MLKEM768_X25519;
                assertEquals(two ? 2 : 1, perKem.getOrDefault(String.format("0x%04x", kem), 0), "cases of KEM " + kem);
            }
        }
    }

    @Test
    void pqSizesAndRefusalsWithoutMlkem() {
        for (int i = 0; i < PQ_KEMS.length; i++) {
            Hpke suite = Hpke.of(PQ_KEMS[i], Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
            assertEquals(PQ_SIZES[i][0], suite.encapsulationSize(), suite.toString());
            assertEquals(PQ_SIZES[i][1], suite.publicKeySize(), suite.toString());
            assertEquals(PQ_SIZES[i][2], suite.privateKeySize(), suite.toString());
            assertTrue(suite.encapsulationSize() <= HpkeNative.HPKE_MAX_PQ_ENC);
            assertTrue(suite.publicKeySize() <= HpkeNative.HPKE_MAX_PQ_ENC);
        }
        if (mlkemExpected()) {
            return; // the other tests run every PQ KEM
        }
        for (int i = 0; i < PQ_KEMS.length; i++) {
            Hpke suite = Hpke.of(PQ_KEMS[i], Hpke.KDF_SHAKE256, Hpke.AEAD_AES_128_GCM);
            String where = suite.toString();
            assertUnsupported(suite::generateKeyPair, where);
            assertUnsupported(() -> suite.deriveKeyPair(new byte[32]), where);
            assertUnsupported(() -> suite.publicKey(new byte[suite.privateKeySize()]), where);
            assertUnsupported(() -> suite.newSender(new byte[suite.publicKeySize()], null), where);
            assertUnsupported(() -> suite.newRecipient(new byte[suite.encapsulationSize()],
                    new byte[suite.privateKeySize()], null), where);
            assertUnsupported(() -> suite.seal(new byte[suite.publicKeySize()], null, null, new byte[1]), where);
        }
    }

    @Test
    void roundTrips() throws Exception {
        Random rnd = new Random();
        int setups = 0, refused = 0;
        boolean pq = mlkemExpected();
        for (int kem : HpkeTest.KEMS) { // the DHKEMs with the one-stage KDFs: every mode
            for (int kdf : new int[] {Hpke.KDF_SHAKE128, Hpke.KDF_SHAKE256}) {
                for (int aead : HpkeTest.AEADS) {
                    for (int mode : HpkeTest.MODES) {
                        try (HpkeTest.Pair p = HpkeTest.Pair.of(Hpke.of(kem, kdf, aead), mode, rnd)) {
                            HpkeTest.roundTrip(p, rnd);
                        }
                        setups++;
                    }
                }
            }
        }
        for (int kem : pq ? PQ_KEMS : new int[0]) {
            for (int kdf : new int[] {Hpke.KDF_HKDF_SHA256, Hpke.KDF_HKDF_SHA512, Hpke.KDF_SHAKE128,
                Hpke.KDF_SHAKE256}) {
                for (int aead : HpkeTest.AEADS) {
                    Hpke suite = Hpke.of(kem, kdf, aead);
                    Hpke.KeyPair kp = suite.generateKeyPair();
                    assertEquals(suite.publicKeySize(), kp.publicKey().length);
                    assertEquals(suite.privateKeySize(), kp.privateKey().length);
                    assertArrayEquals(kp.publicKey(), suite.publicKey(kp.privateKey()));
                    for (int mode : HpkeTest.MODES) {
                        if (mode == Hpke.MODE_AUTH || mode == Hpke.MODE_AUTH_PSK) {
                            assertThrows(IllegalArgumentException.class, () -> HpkeTest.Pair.of(suite, mode, rnd),
                                    suite + " mode " + mode);
                            refused++;
                            continue;
                        }
                        try (HpkeTest.Pair p = HpkeTest.Pair.of(suite, mode, rnd)) {
                            HpkeTest.roundTrip(p, rnd);
                        }
                        setups++;
                    }
                    if (aead != Hpke.EXPORT_ONLY) {
                        byte[] pt = randomBytes(rnd.nextInt(200));
                        Hpke.Sealed s = suite.seal(kp.publicKey(), null, null, pt);
                        assertEquals(suite.encapsulationSize(), s.encapsulation().length);
                        assertArrayEquals(pt, suite.open(s.encapsulation(), kp.privateKey(), null, null,
                                s.ciphertext()), suite + " single-shot");
                    }
                }
            }
        }
        // 5 DHKEMs x 2 SHAKE KDFs x 4 AEADs x 4 modes; with ML-KEM also 6 PQ KEMs x 4 KDFs x 4 AEADs x 2 modes.
        assertEquals(160 + (pq ? 192 : 0), setups);
        assertEquals(pq ? 192 : 0, refused);
        System.out.println("round trips: " + setups + " setups (" + (pq ? "with" : "without")
                + " the PQ KEMs), " + refused + " auth-mode setups of PQ KEMs refused");
    }

    @Test
    void badPqKeysRefused() throws Exception {
        if (!mlkemExpected()) {
            return; // without ML-KEM every call is refused: pqSizesAndRefusalsWithoutMlkem
        }
        for (int kem : PQ_KEMS) {
            Hpke suite = Hpke.of(kem, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
            String where = suite.toString();
            Hpke.KeyPair r = suite.generateKeyPair();
            byte[] pk = r.publicKey(), sk = r.privateKey();
            // Lengths: a public key, enc or private key one byte short or long.
            for (int d : new int[] {-1, 1}) {
                assertThrows(IllegalArgumentException.class, () -> suite.newSender(
                        Arrays.copyOf(pk, pk.length + d), null), where);
                assertThrows(IllegalArgumentException.class, () -> suite.publicKey(
                        Arrays.copyOf(sk, sk.length + d)), where);
                try (Hpke.Sender tx = suite.newSender(pk, null)) {
                    byte[] enc = tx.encapsulation();
                    assertThrows(IllegalArgumentException.class, () -> suite.newRecipient(
                            Arrays.copyOf(enc, enc.length + d), sk, null), where);
                    assertThrows(IllegalArgumentException.class, () -> suite.newRecipient(enc,
                            Arrays.copyOf(sk, sk.length + d), null), where);
                }
            }
            // FIPS 203's modulus check: ML-KEM's encapsulation key with coefficients of 4095 (>= q).
            byte[] badPk = pk.clone();
            Arrays.fill(badPk, 0, 384, (byte) 0xFF);
            assertThrows(IllegalArgumentException.class, () -> suite.newSender(badPk, null), where + " modulus");
            // Implicit rejection: an enc of the right length, tampered, sets up and fails the first open.
            try (Hpke.Sender tx = suite.newSender(pk, null)) {
                byte[] ct = tx.seal(null, "pq".getBytes());
                byte[] enc = tx.encapsulation();
                enc[0] ^= 1;
                try (Hpke.Recipient rx = suite.newRecipient(enc, sk, null)) {
                    assertThrows(AEADBadTagException.class, () -> rx.open(null, ct), where + " tampered enc");
                }
                try (Hpke.Recipient rx = suite.newRecipient(tx.encapsulation(), sk, null)) {
                    assertArrayEquals("pq".getBytes(), rx.open(null, ct), where);
                }
            }
        }
    }
}
