package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;

/** Batches (sealMany / openMany, one aead_seal_open_many call) against single seals and opens. */
class BatchTest {
    private final long seed = Long.getLong("libaead.seed", System.nanoTime());
    private final SplittableRandom rnd = new SplittableRandom(seed);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private void sameAsSingles(Aead a, int nonceLen) throws Exception {
        String where = a.getClass().getSimpleName() + ", seed " + seed;
        int n = 1 + rnd.nextInt(40);
        byte[][] nonces = new byte[n][], aads = new byte[n][], pts = new byte[n][];
        for (int i = 0; i < n; i++) {
            nonces[i] = bytes(nonceLen);
            aads[i] = rnd.nextInt(4) == 0 ? null : bytes(rnd.nextInt(40));
            pts[i] = bytes(rnd.nextInt(8) == 0 ? rnd.nextInt(70_000) : rnd.nextInt(200));
        }
        long[] codes = new long[n];
        byte[][] sealed = a.sealMany(nonces, aads, pts, codes);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(a.seal(nonces[i], aads[i], pts[i]), sealed[i], where + " record " + i);
            assertEquals(sealed[i].length, codes[i], where);
        }
        int bad = rnd.nextInt(n);
        byte[][] cts = sealed.clone();
        cts[bad] = sealed[bad].clone();
        cts[bad][rnd.nextInt(cts[bad].length)] ^= 1;
        byte[][] opened = a.openMany(nonces, aads, cts, codes);
        for (int i = 0; i < n; i++) {
            if (i == bad) {
                assertNull(opened[i], where);
                assertEquals(-1, codes[i], where);
                int r = i;
                assertThrows(AEADBadTagException.class, () -> a.open(nonces[r], aads[r], cts[r]), where);
            } else {
                assertArrayEquals(pts[i], opened[i], where + " record " + i);
                assertArrayEquals(a.open(nonces[i], aads[i], cts[i]), opened[i], where);
                assertEquals(pts[i].length, codes[i], where);
            }
        }
    }

    @Test
    void everyFamilyMatchesSingleCalls() throws Exception {
        try (AesGcm gcm = new AesGcm(bytes(16));
             ChaCha20Poly1305 cc = new ChaCha20Poly1305(bytes(32));
             AesCcm ccm = new AesCcm(bytes(32));
             AesGcmSiv siv = new AesGcmSiv(bytes(32));
             AesOcb3 ocb = new AesOcb3(bytes(16));
             XChaCha20Poly1305 x = new XChaCha20Poly1305(bytes(32));
             AesSiv aesSiv = new AesSiv(bytes(64))) {
            for (int round = 0; round < 5; round++) {
                sameAsSingles(gcm, 12);
                sameAsSingles(cc, 12);
                sameAsSingles(ccm, 11);
                sameAsSingles(siv, 12);
                sameAsSingles(ocb, 12);
                sameAsSingles(x, 24);
                sameAsSingles(aesSiv, rnd.nextInt(20));
            }
        }
    }

    private static byte[] tls13Nonce(byte[] iv, long seq) {
        byte[] n = iv.clone();
        for (int i = 0; i < 8; i++) n[11 - i] ^= (byte) (seq >>> (8 * i));
        return n;
    }

    @Test
    void tls13RecordsAreSequencedInArrayOrderAndARefusalConsumesNothing() {
        byte[] key = bytes(16), iv = bytes(12), aad = bytes(5);
        try (AesGcmForTls13 batch = new AesGcmForTls13(key, iv); AesGcmForTls13 single = new AesGcmForTls13(key, iv)) {
            // sequences 0, 1, 1 (repeat: refused), 3, 2 (behind: refused), 4
            long[] seqs = {0, 1, 1, 3, 2, 4};
            int n = seqs.length;
            byte[][] nonces = new byte[n][], aads = new byte[n][], pts = new byte[n][];
            for (int i = 0; i < n; i++) {
                nonces[i] = tls13Nonce(iv, seqs[i]);
                aads[i] = aad;
                pts[i] = bytes(rnd.nextInt(100));
            }
            long[] codes = new long[n];
            byte[][] out = batch.sealMany(nonces, aads, pts, codes);
            for (int i = 0; i < n; i++) {
                if (i == 2 || i == 4) {
                    assertNull(out[i]);
                    assertEquals(NoncePolicyException.NONCE_ORDER, codes[i]);
                } else {
                    assertArrayEquals(single.seal(nonces[i], aad, pts[i]), out[i], "record " + i);
                }
            }
            // the batch context's next sequence is 5, as the single one's: 4 again is refused, 5 is taken
            NoncePolicyException e = assertThrows(NoncePolicyException.class,
                    () -> batch.seal(tls13Nonce(iv, 4), aad, pts[0]));
            assertEquals(NoncePolicyException.NONCE_ORDER, e.code());
            assertArrayEquals(single.seal(tls13Nonce(iv, 5), aad, pts[0]), batch.seal(tls13Nonce(iv, 5), aad, pts[0]));
        }
    }

    @Test
    void argumentsAreChecked() {
        AesGcm gcm = new AesGcm(bytes(16));
        {
            assertEquals(0, gcm.sealMany(new byte[0][], null, new byte[0][], null).length);
            assertThrows(IllegalArgumentException.class,
                    () -> gcm.sealMany(new byte[2][], null, new byte[][] {bytes(1)}, null));
            assertThrows(IllegalArgumentException.class,
                    () -> gcm.sealMany(new byte[][] {bytes(12)}, null, new byte[][] {bytes(1)}, new long[0]));
            long[] codes = new long[1];
            assertNull(gcm.sealMany(new byte[][] {new byte[0]}, null, new byte[][] {bytes(3)}, codes)[0]);
            assertEquals(-4, codes[0]); // AEAD_ERR_NONCE_SIZE: an empty GCM nonce
            gcm.close();
            assertThrows(IllegalStateException.class,
                    () -> gcm.sealMany(new byte[][] {bytes(12)}, null, new byte[][] {bytes(1)}, null));
        }
    }
}
