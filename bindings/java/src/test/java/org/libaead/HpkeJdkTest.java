package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.libaead.TestSupport.randomBytes;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.DecapsulateException;
import javax.crypto.KEM;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * HPKE against the JDK:
 * <ul>
 * <li>a differential test with an HPKE assembled from the JDK's own parts (the JDK has no HPKE before 26:
 *     Temurin 25 has no "HPKE" cipher, but SunJCE's KEM "DHKEM" is RFC 9180's DHKEM): SunJCE's DHKEM, the key
 *     schedule of RFC 9180 section 5.1 written here on the JDK's HMAC, and SunJCE's AES-GCM and
 *     ChaCha20-Poly1305; 1,000 random cases each way (every KEM, KDF and AEAD; base and psk modes, the
 *     modes DHKEM has), messages and exports compared;</li>
 * <li>the LibAead provider's {@code javax.crypto.KEM} "HPKE" on the JDK's key classes.</li>
 * </ul>
 */
class HpkeJdkTest {
    private static final Provider SUN_JCE = Security.getProvider("SunJCE");

    /** A JDK key pair of the KEM (X25519, X448 or a NIST curve). */
    static KeyPair jdkKeyPair(int kem) throws Exception {
        return switch (kem) {
            case Hpke.KEM_DHKEM_X25519_HKDF_SHA256 -> KeyPairGenerator.getInstance("X25519").generateKeyPair();
            case Hpke.KEM_DHKEM_X448_HKDF_SHA512 -> KeyPairGenerator.getInstance("X448").generateKeyPair();
            default -> {
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec(kem == Hpke.KEM_DHKEM_P_256_HKDF_SHA256 ? "secp256r1"
                        : kem == Hpke.KEM_DHKEM_P_384_HKDF_SHA384 ? "secp384r1" : "secp521r1"));
                yield g.generateKeyPair();
            }
        };
    }

    // ---------------------------------------------------------------------------------------------
    // RFC 9180 section 5.1 on the JDK's HMAC: an independent key schedule.

    static final class JdkSchedule {
        final int kdf, aead;
        final byte[] suiteId;
        final byte[] key, baseNonce, exporterSecret;

        JdkSchedule(int kem, int kdf, int aead, int mode, byte[] shared, byte[] info, byte[] psk, byte[] pskId)
                throws Exception {
            this.kdf = kdf;
            this.aead = aead;
            suiteId = cat("HPKE".getBytes(StandardCharsets.US_ASCII), i2osp(kem, 2), i2osp(kdf, 2), i2osp(aead, 2));
            byte[] pskIdHash = labeledExtract(new byte[0], "psk_id_hash", pskId);
            byte[] infoHash = labeledExtract(new byte[0], "info_hash", info);
            byte[] context = cat(new byte[] {(byte) mode}, pskIdHash, infoHash);
            byte[] secret = labeledExtract(shared, "secret", psk);
            int nk = aead == Hpke.AEAD_AES_128_GCM ? 16 : aead == Hpke.EXPORT_ONLY ? 0 : 32;
            key = nk == 0 ? null : labeledExpand(secret, "key", context, nk);
            baseNonce = nk == 0 ? null : labeledExpand(secret, "base_nonce", context, 12);
            exporterSecret = labeledExpand(secret, "exp", context, hashLength());
        }

        int hashLength() {
            return kdf == Hpke.KDF_HKDF_SHA256 ? 32 : kdf == Hpke.KDF_HKDF_SHA384 ? 48 : 64;
        }

        private Mac mac(byte[] key) throws Exception {
            String name = "HmacSHA" + (hashLength() * 8);
            Mac m = Mac.getInstance(name, SUN_JCE);
            m.init(new SecretKeySpec(key.length == 0 ? new byte[hashLength()] : key, name));
            return m;
        }

        private byte[] labeledExtract(byte[] salt, String label, byte[] ikm) throws Exception {
            return mac(salt).doFinal(cat("HPKE-v1".getBytes(StandardCharsets.US_ASCII), suiteId,
                    label.getBytes(StandardCharsets.US_ASCII), ikm));
        }

        byte[] labeledExpand(byte[] prk, String label, byte[] info, int length) throws Exception {
            byte[] labeled = cat(i2osp(length, 2), "HPKE-v1".getBytes(StandardCharsets.US_ASCII), suiteId,
                    label.getBytes(StandardCharsets.US_ASCII), info);
            ByteArrayOutputStream okm = new ByteArrayOutputStream();
            byte[] t = new byte[0];
            for (int i = 1; okm.size() < length; i++) {
                Mac m = mac(prk);
                m.update(t);
                m.update(labeled);
                m.update((byte) i);
                t = m.doFinal();
                okm.write(t);
            }
            return Arrays.copyOf(okm.toByteArray(), length);
        }

        byte[] export(byte[] exporterContext, int length) throws Exception {
            return labeledExpand(exporterSecret, "sec", exporterContext, length);
        }

        byte[] crypt(int opmode, long seq, byte[] aad, byte[] in) throws Exception {
            byte[] nonce = baseNonce.clone();
            for (int i = 0; i < 8; i++) {
                nonce[11 - i] ^= (byte) (seq >>> (8 * i));
            }
            Cipher c;
            if (aead == Hpke.AEAD_CHACHA20_POLY1305) {
                c = Cipher.getInstance("ChaCha20-Poly1305", SUN_JCE);
                c.init(opmode, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
            } else {
                c = Cipher.getInstance("AES/GCM/NoPadding", SUN_JCE);
                c.init(opmode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
            }
            c.updateAAD(aad);
            return c.doFinal(in);
        }

        private static byte[] i2osp(int v, int n) {
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                b[n - 1 - i] = (byte) (v >>> (8 * i));
            }
            return b;
        }

        private static byte[] cat(byte[]... parts) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            for (byte[] p : parts) {
                o.writeBytes(p);
            }
            return o.toByteArray();
        }
    }

    @Test
    void differentialWithTheJdksDhkemHmacAndCiphers() throws Exception {
        Random rnd = new Random();
        int[] done = new int[2];
        for (int i = 0; i < 2000; i++) {
            boolean libaeadSends = i % 2 == 0;
            int kem = HpkeTest.KEMS[rnd.nextInt(HpkeTest.KEMS.length)];
            int kdf = HpkeTest.KDFS[rnd.nextInt(HpkeTest.KDFS.length)];
            int aead = HpkeTest.AEADS[rnd.nextInt(HpkeTest.AEADS.length)];
            boolean withPsk = rnd.nextBoolean();
            int mode = withPsk ? Hpke.MODE_PSK : Hpke.MODE_BASE;
            Hpke suite = Hpke.of(kem, kdf, aead);
            String where = suite + " mode " + mode + (libaeadSends ? ", libaead sends" : ", the JDK sends");
            KeyPair kp = jdkKeyPair(kem);
            byte[] pkR = HpkeKemSpi.publicBytes(kp.getPublic(), suite.encapsulationSize());
            byte[] skR = HpkeKemSpi.privateBytes(kp.getPrivate(), suite.privateKeySize());
            assertArrayEquals(pkR, suite.publicKey(skR), where + ": the JDK's public key");
            byte[] info = randomBytes(rnd.nextInt(70));
            byte[] psk = withPsk ? randomBytes(32) : null, pskId = withPsk ? randomBytes(1 + rnd.nextInt(16)) : null;
            byte[] empty = new byte[0];
            KEM dhkem = KEM.getInstance("DHKEM", SUN_JCE);
            byte[][] aads = new byte[3][], pts = new byte[3][];
            for (int m = 0; m < 3; m++) {
                aads[m] = randomBytes(rnd.nextInt(40));
                pts[m] = randomBytes(rnd.nextInt(300));
            }
            byte[] exporterContext = randomBytes(rnd.nextInt(50));
            int exportLength = 1 + rnd.nextInt(100);
            if (libaeadSends) {
                try (Hpke.Sender tx = suite.newSender(pkR, info, psk, pskId, null)) {
                    byte[] shared = dhkem.newDecapsulator(kp.getPrivate()).decapsulate(tx.encapsulation()).getEncoded();
                    JdkSchedule jdk = new JdkSchedule(kem, kdf, aead, mode, shared, info,
                            withPsk ? psk : empty, withPsk ? pskId : empty);
                    for (int m = 0; m < 3 && aead != Hpke.EXPORT_ONLY; m++) {
                        byte[] ct = tx.seal(aads[m], pts[m]);
                        assertArrayEquals(pts[m], jdk.crypt(Cipher.DECRYPT_MODE, m, aads[m], ct), where);
                    }
                    assertArrayEquals(jdk.export(exporterContext, exportLength), tx.export(exporterContext, exportLength),
                            where + " export");
                }
            } else {
                KEM.Encapsulated e = dhkem.newEncapsulator(kp.getPublic()).encapsulate();
                JdkSchedule jdk = new JdkSchedule(kem, kdf, aead, mode, e.key().getEncoded(), info,
                        withPsk ? psk : empty, withPsk ? pskId : empty);
                try (Hpke.Recipient rx = suite.newRecipient(e.encapsulation(), skR, info, psk, pskId, null)) {
                    for (int m = 0; m < 3 && aead != Hpke.EXPORT_ONLY; m++) {
                        byte[] ct = jdk.crypt(Cipher.ENCRYPT_MODE, m, aads[m], pts[m]);
                        assertArrayEquals(pts[m], rx.open(aads[m], ct), where);
                    }
                    assertArrayEquals(jdk.export(exporterContext, exportLength), rx.export(exporterContext, exportLength),
                            where + " export");
                }
            }
            done[libaeadSends ? 0 : 1]++;
        }
        assertEquals(1000, done[0]);
        assertEquals(1000, done[1]);
        System.out.println("differential hpke: 1000 cases libaead -> JDK (SunJCE DHKEM, HMAC key schedule, SunJCE"
                + " AEADs), 1000 cases JDK -> libaead; messages and exports equal");
    }

    // ---------------------------------------------------------------------------------------------
    // javax.crypto.KEM "HPKE"

    @Test
    void kemOnTheJdksKeys() throws Exception {
        KEM kem = KEM.getInstance("HPKE", new LibAeadProvider());
        for (int id : HpkeTest.KEMS) {
            KeyPair kp = jdkKeyPair(id);
            Hpke suite = Hpke.of(id, id == Hpke.KEM_DHKEM_P_384_HKDF_SHA384 ? Hpke.KDF_HKDF_SHA384
                    : id == Hpke.KEM_DHKEM_X25519_HKDF_SHA256 || id == Hpke.KEM_DHKEM_P_256_HKDF_SHA256
                    ? Hpke.KDF_HKDF_SHA256 : Hpke.KDF_HKDF_SHA512, Hpke.EXPORT_ONLY);
            int nh = suite.kdfId() == Hpke.KDF_HKDF_SHA256 ? 32 : suite.kdfId() == Hpke.KDF_HKDF_SHA384 ? 48 : 64;
            // Defaults: the KEM's own hash, export-only, empty info and context, Nh bytes.
            KEM.Encapsulator enc = kem.newEncapsulator(kp.getPublic());
            assertEquals(nh, enc.secretSize());
            assertEquals(suite.encapsulationSize(), enc.encapsulationSize());
            KEM.Encapsulated e = enc.encapsulate();
            assertEquals(suite.encapsulationSize(), e.encapsulation().length);
            KEM.Decapsulator dec = kem.newDecapsulator(kp.getPrivate());
            SecretKey k = dec.decapsulate(e.encapsulation());
            assertArrayEquals(e.key().getEncoded(), k.getEncoded(), suite + ": decapsulated secret");
            byte[] skR = HpkeKemSpi.privateBytes(kp.getPrivate(), suite.privateKeySize());
            try (Hpke.Recipient rx = suite.newRecipient(e.encapsulation(), skR, null)) {
                assertArrayEquals(rx.export(null, nh), k.getEncoded(), suite + ": the secret is the context's export");
            }
            // With parameters: another AEAD and KDF, info, an exporter context, a 20-byte secret, a slice of it.
            HpkeKemParameterSpec spec = new HpkeKemParameterSpec(Hpke.KDF_HKDF_SHA384, Hpke.AEAD_CHACHA20_POLY1305,
                    "app".getBytes(), "session key".getBytes(), 20);
            KEM.Encapsulated e2 = kem.newEncapsulator(kp.getPublic(), spec, null).encapsulate(4, 20, "AES");
            assertEquals("AES", e2.key().getAlgorithm());
            assertEquals(16, e2.key().getEncoded().length);
            KEM.Decapsulator dec2 = kem.newDecapsulator(kp.getPrivate(), spec);
            byte[] whole = dec2.decapsulate(e2.encapsulation()).getEncoded();
            assertEquals(20, whole.length);
            assertArrayEquals(Arrays.copyOfRange(whole, 4, 20), e2.key().getEncoded());
            assertArrayEquals(e2.key().getEncoded(), dec2.decapsulate(e2.encapsulation(), 4, 20, "AES").getEncoded());
            Hpke s2 = Hpke.of(id, Hpke.KDF_HKDF_SHA384, Hpke.AEAD_CHACHA20_POLY1305);
            try (Hpke.Recipient rx = s2.newRecipient(e2.encapsulation(), skR, "app".getBytes())) {
                assertArrayEquals(rx.export("session key".getBytes(), 20), whole);
            }
            // Another encapsulation, another secret; an encapsulation of the wrong length.
            assertFalse(Arrays.equals(e.key().getEncoded(), enc.encapsulate().key().getEncoded()));
            assertThrows(DecapsulateException.class, () -> dec.decapsulate(new byte[suite.encapsulationSize() - 1]));
            assertThrows(IndexOutOfBoundsException.class, () -> enc.encapsulate(0, nh + 1, "AES"));
        }
        // X25519: an encapsulation that is a low-order point is not one of the KEM's.
        KeyPair x = jdkKeyPair(Hpke.KEM_DHKEM_X25519_HKDF_SHA256);
        KEM.Decapsulator dec = kem.newDecapsulator(x.getPrivate());
        assertThrows(DecapsulateException.class, () -> dec.decapsulate(new byte[32]));
        // Keys of no HPKE KEM; parameters of another kind.
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair r = rsa.generateKeyPair();
        assertThrows(java.security.InvalidKeyException.class, () -> kem.newEncapsulator(r.getPublic()));
        PrivateKey rsaPrivate = r.getPrivate();
        assertThrows(java.security.InvalidKeyException.class, () -> kem.newDecapsulator(rsaPrivate));
        assertThrows(java.security.InvalidAlgorithmParameterException.class,
                () -> kem.newEncapsulator(x.getPublic(), new ECGenParameterSpec("secp256r1"), null));
        assertEquals("HPKE", kem.getAlgorithm());
    }
}
