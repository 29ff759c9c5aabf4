package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * XChaCha20-Poly1305 against an independent reference on random inputs: HChaCha20 written here from
 * draft-irtf-cfrg-xchacha (section 2.2), checked against the draft's test vector, then SunJCE's
 * ChaCha20-Poly1305 under the derived subkey with the nonce 0^4 || nonce[16..24] (section 2.3).
 */
class XChaChaDifferentialTest {
    private static final int ROUNDS = 200;
    private final long seed = Long.getLong("libaead.seed", System.nanoTime());
    private final SplittableRandom rnd = new SplittableRandom(seed);

    static byte[] hChaCha20(byte[] key, byte[] nonce16) {
        int[] s = new int[16];
        s[0] = 0x61707865; s[1] = 0x3320646e; s[2] = 0x79622d32; s[3] = 0x6b206574;
        for (int i = 0; i < 8; i++) s[4 + i] = le(key, 4 * i);
        for (int i = 0; i < 4; i++) s[12 + i] = le(nonce16, 4 * i);
        for (int r = 0; r < 10; r++) {
            qr(s, 0, 4, 8, 12); qr(s, 1, 5, 9, 13); qr(s, 2, 6, 10, 14); qr(s, 3, 7, 11, 15);
            qr(s, 0, 5, 10, 15); qr(s, 1, 6, 11, 12); qr(s, 2, 7, 8, 13); qr(s, 3, 4, 9, 14);
        }
        byte[] out = new byte[32];
        for (int i = 0; i < 4; i++) { put(out, 4 * i, s[i]); put(out, 16 + 4 * i, s[12 + i]); }
        return out;
    }

    private static void qr(int[] s, int a, int b, int c, int d) {
        s[a] += s[b]; s[d] = Integer.rotateLeft(s[d] ^ s[a], 16);
        s[c] += s[d]; s[b] = Integer.rotateLeft(s[b] ^ s[c], 12);
        s[a] += s[b]; s[d] = Integer.rotateLeft(s[d] ^ s[a], 8);
        s[c] += s[d]; s[b] = Integer.rotateLeft(s[b] ^ s[c], 7);
    }

    private static int le(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8 | (b[o + 2] & 0xff) << 16 | (b[o + 3] & 0xff) << 24;
    }

    private static void put(byte[] b, int o, int v) {
        for (int i = 0; i < 4; i++) b[o + i] = (byte) (v >>> (8 * i));
    }

    /** The reference seal: SunJCE's ChaCha20-Poly1305 under HChaCha20's subkey. */
    static byte[] referenceSeal(byte[] key, byte[] nonce24, byte[] aad, byte[] pt) throws Exception {
        byte[] sub = hChaCha20(key, Arrays.copyOf(nonce24, 16));
        byte[] n12 = new byte[12];
        System.arraycopy(nonce24, 16, n12, 4, 8);
        Cipher c = Cipher.getInstance("ChaCha20-Poly1305", "SunJCE");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(sub, "ChaCha20"), new IvParameterSpec(n12));
        c.updateAAD(aad);
        return c.doFinal(pt);
    }

    @Test
    void hChaCha20MatchesTheDraftsVector() {
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) key[i] = (byte) i;
        byte[] nonce = TestSupport.hex("000000090000004a0000000031415927");
        assertArrayEquals(TestSupport.hex("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"),
                hChaCha20(key, nonce));
    }

    @Test
    void directApiAndProviderAgreeWithTheReference() throws Exception {
        LibAeadProvider provider = new LibAeadProvider();
        for (int round = 0; round < ROUNDS; round++) {
            byte[] key = bytes(32), nonce = bytes(24), aad = bytes(rnd.nextInt(64));
            byte[] pt = bytes(rnd.nextInt(10) == 0 ? rnd.nextInt(100_000) : rnd.nextInt(300));
            byte[] expected = referenceSeal(key, nonce, aad, pt);
            String where = "seed " + seed + " round " + round;
            try (XChaCha20Poly1305 x = new XChaCha20Poly1305(key)) {
                assertArrayEquals(expected, x.seal(nonce, aad, pt), where);
                assertArrayEquals(pt, x.open(nonce, aad, expected), where);
                byte[] bad = expected.clone();
                bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
                assertThrows(AEADBadTagException.class, () -> x.open(nonce, aad, bad), where);
            }
            Cipher c = Cipher.getInstance("XChaCha20-Poly1305", provider);
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
            c.updateAAD(aad);
            assertArrayEquals(expected, c.doFinal(pt), where);
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
            c.updateAAD(aad);
            assertArrayEquals(pt, c.doFinal(expected), where);
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
