package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The AEGIS family (RFC 10032): the specification's test vectors for every variant with both tag lengths,
 * through the direct classes and through the provider's Cipher (sealed, opened, refused with a flipped
 * bit, the output zeroed; the must-fail vectors refused); the sizes each variant takes and the exceptions
 * for wrong ones; the random-nonce classes; the FIPS refusal.
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

    private static Variant variant(int alg) {
        return VARIANTS.stream().filter(v -> v.alg == alg).findFirst().orElseThrow();
    }

    /** valid false: a must-fail vector (no msg; the tags are the RFC's, not ones this ciphertext has). */
    private record Vector(int alg, String name, boolean valid, String key, String nonce, String ad, String msg,
                          String ct, String tag128, String tag256) {}

    // RFC 10032's test vectors (its test-vector appendix), as tests/test_aegis.cpp carries them.
    private static final Vector[] VECTORS = {
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 1", true,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "",
                    "00000000000000000000000000000000",
                    "c1c0e58bd913006feba00f4b3cc3594e",
                    "abe0ece80c24868a226a35d16bdae37a",
                    "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 2", true,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "",
                    "",
                    "",
                    "c2b879a67def9d74e6c14f708bbcc9b4",
                    "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 3", true,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "0001020304050607",
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
                    "cc6f3372f6aa1bb82388d695c3962d9a",
                    "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 4", true,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "0001020304050607",
                    "000102030405060708090a0b0c0d",
                    "79d94593d8c2119d7e8fd9b8fc77",
                    "5c04b3dba849b2701effbe32c7f0fab7",
                    "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 5", true,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
                    "b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10",
                    "7542a745733014f9474417b337399507",
                    "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 6", false,
                    "10000200000000000000000000000000",
                    "10010000000000000000000000000000",
                    "0001020304050607",
                    "",
                    "79d94593d8c2119d7e8fd9b8fc77",
                    "5c04b3dba849b2701effbe32c7f0fab7",
                    "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 7", false,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "0001020304050607",
                    "",
                    "79d94593d8c2119d7e8fd9b8fc78",
                    "5c04b3dba849b2701effbe32c7f0fab7",
                    "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 8", false,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "0001020304050608",
                    "",
                    "79d94593d8c2119d7e8fd9b8fc77",
                    "5c04b3dba849b2701effbe32c7f0fab7",
                    "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"),
            new Vector(Algs.AEGIS_128L, "AEGIS-128L test vector 9", false,
                    "10010000000000000000000000000000",
                    "10000200000000000000000000000000",
                    "0001020304050607",
                    "",
                    "79d94593d8c2119d7e8fd9b8fc77",
                    "6c04b3dba849b2701effbe32c7f0fab8",
                    "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 1", true,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "",
                    "00000000000000000000000000000000",
                    "754fc3d8c973246dcc6d741412a4b236",
                    "3fe91994768b332ed7f570a19ec5896e",
                    "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 2", true,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "",
                    "",
                    "",
                    "e3def978a0f054afd1e761d7553afba3",
                    "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 3", true,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "0001020304050607",
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
                    "8d86f91ee606e9ff26a01b64ccbdd91d",
                    "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 4", true,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "0001020304050607",
                    "000102030405060708090a0b0c0d",
                    "f373079ed84b2709faee37358458",
                    "c60b9c2d33ceb058f96e6dd03c215652",
                    "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 5", true,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
                    "57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67",
                    "ab8a7d53fd0e98d727accca94925e128",
                    "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 6", false,
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "0001020304050607",
                    "",
                    "f373079ed84b2709faee37358458",
                    "c60b9c2d33ceb058f96e6dd03c215652",
                    "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 7", false,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "0001020304050607",
                    "",
                    "f373079ed84b2709faee37358459",
                    "c60b9c2d33ceb058f96e6dd03c215652",
                    "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 8", false,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "0001020304050608",
                    "",
                    "f373079ed84b2709faee37358458",
                    "c60b9c2d33ceb058f96e6dd03c215652",
                    "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"),
            new Vector(Algs.AEGIS_256, "AEGIS-256 test vector 9", false,
                    "1001000000000000000000000000000000000000000000000000000000000000",
                    "1000020000000000000000000000000000000000000000000000000000000000",
                    "0001020304050607",
                    "",
                    "f373079ed84b2709faee37358458",
                    "c60b9c2d33ceb058f96e6dd03c215653",
                    "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da"),
            new Vector(Algs.AEGIS_128X2, "AEGIS-128X2 test vector 1", true,
                    "000102030405060708090a0b0c0d0e0f",
                    "101112131415161718191a1b1c1d1e1f",
                    "",
                    "",
                    "",
                    "63117dc57756e402819a82e13eca8379",
                    "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759"),
            new Vector(Algs.AEGIS_128X2, "AEGIS-128X2 test vector 2", true,
                    "000102030405060708090a0b0c0d0e0f",
                    "101112131415161718191a1b1c1d1e1f",
                    "0102030401020304",
                    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607",
                    "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f8"
                    + "5b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be"
                    + "62b29c22cd4b5761b38f43d5a5ee062f",
                    "1aebc200804f405cab637f2adebb6d77",
                    "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca"),
            new Vector(Algs.AEGIS_128X4, "AEGIS-128X4 test vector 1", true,
                    "000102030405060708090a0b0c0d0e0f",
                    "101112131415161718191a1b1c1d1e1f",
                    "",
                    "",
                    "",
                    "5bef762d0947c00455b97bb3af30dfa3",
                    "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68"),
            new Vector(Algs.AEGIS_128X4, "AEGIS-128X4 test vector 2", true,
                    "000102030405060708090a0b0c0d0e0f",
                    "101112131415161718191a1b1c1d1e1f",
                    "0102030401020304",
                    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607",
                    "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c2"
                    + "4ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df"
                    + "7b086af6ce6bc1ed594b8dd64aed2a7e",
                    "0e56ab94e2e85db80f9d54010caabfb4",
                    "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2"),
            new Vector(Algs.AEGIS_256X2, "AEGIS-256X2 test vector 1", true,
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
                    "",
                    "",
                    "",
                    "62cdbab084c83dacdb945bb446f049c8",
                    "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7"),
            new Vector(Algs.AEGIS_256X2, "AEGIS-256X2 test vector 2", true,
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
                    "0102030401020304",
                    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607",
                    "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d365221"
                    + "32761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398c"
                    + "e6385cd654a19f481cba3b8f25910b42",
                    "635d391828520bf1512763f0c8f5cdbd",
                    "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7"),
            new Vector(Algs.AEGIS_256X4, "AEGIS-256X4 test vector 1", true,
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
                    "",
                    "",
                    "",
                    "3b7fee6cee7bf17888ad11ed2397beb4",
                    "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf"),
            new Vector(Algs.AEGIS_256X4, "AEGIS-256X4 test vector 2", true,
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
                    "0102030401020304",
                    "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
                    + "04050607040506070405060704050607",
                    "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11"
                    + "da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5"
                    + "813808b81748a490dd656465fed61f09",
                    "b63b611b13975e2f3dc3cb6c2397bfcd",
                    "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c")
    };

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
        for (Vector v : VECTORS) {
            for (int tagLen : new int[] {16, 32}) {
                String what = v.name + ", tag " + tagLen;
                byte[] key = hex(v.key), nonce = hex(v.nonce), ad = hex(v.ad), ct = hex(v.ct);
                byte[] tag = hex(tagLen == 16 ? v.tag128 : v.tag256);
                assertEquals(tagLen, tag.length, what);
                byte[] sealedMsg = TestSupport.concat(ct, tag);
                try (Aead a = variant(v.alg).direct.make(key, tagLen, null)) {
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
                2 * VECTORS.length, sealed, forgeries, refused);
    }

    @Test
    void rfcVectorsThroughTheCipher() throws Exception {
        int sealed = 0, refused = 0;
        for (Vector v : VECTORS) {
            for (int tagLen : new int[] {16, 32}) {
                // A 16-byte tag is the IvParameterSpec's too: both forms, each on its own Cipher.
                for (boolean ivSpec : tagLen == 16 ? new boolean[] {false, true} : new boolean[] {false}) {
                    String what = v.name + ", tag " + tagLen + (ivSpec ? ", IvParameterSpec" : ", GCMParameterSpec");
                    String name = variant(v.alg).name;
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
