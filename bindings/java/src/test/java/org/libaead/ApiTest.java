package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The direct API's contract: lifetime, refused outputs, overlap, errors, policies. */
class ApiTest {
    private static byte[] bytes(int n) {
        return TestSupport.randomBytes(n);
    }

    @Test
    void versionAndIndicator() {
        assertTrue(AeadContext.libraryVersion().startsWith("libaead 1."), AeadContext.libraryVersion());
        assertTrue(AeadContext.libraryVersionNumber() >= 10300);
        try (AesGcm a = new AesGcm(bytes(16))) {
            AeadContext.Indicator ind = a.indicator();
            assertFalse(ind.provider().isEmpty());
            assertFalse(ind.sealApproved(), "a caller-nonce context is never seal-approved");
        }
    }

    @Test
    void closeIsIdempotentAndLaterCallsFail() {
        AesGcm a = new AesGcm(bytes(32));
        byte[] ct = a.seal(bytes(12), null, bytes(5));
        assertEquals(21, ct.length);
        a.close();
        a.close();
        assertThrows(IllegalStateException.class, () -> a.seal(bytes(12), null, bytes(5)));
        assertThrows(IllegalStateException.class, a::indicator);
    }

    @Test
    void closeFreesOnceAndAForgottenObjectIsFreedByTheCleaner() throws Exception {
        long before = Native.FREED.get();
        AesGcm a = new AesGcm(bytes(16));
        a.close();
        a.close();
        assertTrue(Native.FREED.get() >= before + 1, "close freed the context"); // (others' Cleaners may add more)
        long mark = Native.FREED.get();
        for (int i = 0; i < 50; i++) {
            new ChaCha20Poly1305(bytes(32)).seal(bytes(12), null, bytes(8)); // never closed
        }
        for (int i = 0; i < 200 && Native.FREED.get() < mark + 50; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertTrue(Native.FREED.get() >= mark + 50, "the Cleaner freed " + (Native.FREED.get() - mark) + " of 50");
    }

    @Test
    void badKeysAndSizes() {
        assertThrows(IllegalArgumentException.class, () -> new AesGcm(bytes(17)));
        assertThrows(IllegalArgumentException.class, () -> new ChaCha20Poly1305(bytes(16)));
        assertThrows(IllegalArgumentException.class, () -> new AesGcm(bytes(16), 7, null));
        assertThrows(IllegalArgumentException.class, () -> new AesSiv(bytes(16)));
        try (ChaCha20Poly1305 c = new ChaCha20Poly1305(bytes(32))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.seal(bytes(8), null, bytes(3)));
            assertTrue(e.getMessage().contains("-4"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.sealInto(bytes(12), null, bytes(10), 0, 10, new byte[25], 0));
        }
    }

    /** Read-only outputs and closed segments are refused before the call, small and large. */
    @ParameterizedTest
    @ValueSource(ints = {100, 200_000})
    void readOnlyAndClosedOutputsRefused(int n) throws Exception {
        try (AesGcm a = new AesGcm(bytes(16))) {
            byte[] nonce = bytes(12), pt = bytes(n);
            ByteBuffer ro = ByteBuffer.allocate(n + 16).asReadOnlyBuffer();
            assertThrows(ReadOnlyBufferException.class, () -> a.sealInto(nonce, null, ByteBuffer.wrap(pt), ro));
            ByteBuffer roDirect = ByteBuffer.allocateDirect(n + 16).asReadOnlyBuffer();
            assertThrows(ReadOnlyBufferException.class, () -> a.sealInto(nonce, null, ByteBuffer.wrap(pt), roDirect));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(n + 16);
                assertThrows(IllegalArgumentException.class,
                        () -> a.sealInto(MemorySegment.ofArray(nonce), null, MemorySegment.ofArray(pt), out.asReadOnly()));
                assertEquals(n + 16, a.sealInto(MemorySegment.ofArray(nonce), null, MemorySegment.ofArray(pt), out));
            }
            Arena closed = Arena.ofConfined();
            MemorySegment dead = closed.allocate(n + 16);
            closed.close();
            assertThrows(IllegalStateException.class,
                    () -> a.sealInto(MemorySegment.ofArray(nonce), null, MemorySegment.ofArray(pt), dead));
            assertThrows(IllegalStateException.class,
                    () -> a.sealInto(MemorySegment.ofArray(nonce), null, dead, MemorySegment.ofArray(new byte[n + 32])));
        }
    }

    /** A partial overlap of output and input in one array is refused with nothing written; exact in place works
     * (on both sides of the critical threshold: the off-heap path keeps the caller's aliasing). */
    @ParameterizedTest
    @ValueSource(ints = {64, 100_000})
    void overlap(int n) throws Exception {
        try (AesGcm a = new AesGcm(bytes(16))) {
            byte[] nonce = bytes(12);
            byte[] buf = bytes(n + 64);
            byte[] before = buf.clone();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> a.sealInto(nonce, null, buf, 0, n, buf, 8));
            assertTrue(e.getMessage().contains("-9"), e.getMessage());
            assertArrayEquals(before, buf, "a refused call wrote");
            byte[] pt = Arrays.copyOf(buf, n);
            byte[] expected = a.seal(nonce, null, pt);
            assertEquals(n + 16, a.sealInto(nonce, null, buf, 0, n, buf, 0));
            assertArrayEquals(expected, Arrays.copyOf(buf, n + 16));
            // the aad inside the output range is an overlap too
            byte[] aadBuf = bytes(n + 16);
            assertThrows(IllegalArgumentException.class, () -> a.sealInto(nonce, aadBuf, pt, 0, n, aadBuf, 0));
            // failed open zeroes the output (in place as well)
            byte[] ct = a.seal(nonce, null, pt);
            ct[3] ^= 1;
            assertThrows(AEADBadTagException.class, () -> a.openInto(nonce, null, ct, 0, ct.length, ct, 0));
            assertArrayEquals(new byte[n], Arrays.copyOf(ct, n));
        }
    }

    @Test
    void tls13NonceOrderAndAad() throws Exception {
        byte[] iv = bytes(12);
        try (AesGcmForTls13 t = new AesGcmForTls13(bytes(16), iv)) {
            byte[] aad = bytes(5);
            byte[] r0 = t.seal(nonce(iv, 0), aad, bytes(10));
            t.seal(nonce(iv, 5), aad, bytes(10));
            NoncePolicyException e = assertThrows(NoncePolicyException.class, () -> t.seal(nonce(iv, 5), aad, bytes(10)));
            assertEquals(NoncePolicyException.NONCE_ORDER, e.code());
            assertThrows(NoncePolicyException.class, () -> t.seal(nonce(iv, 3), aad, bytes(10)));
            assertEquals(NoncePolicyException.NONCE_EXHAUSTED,
                    assertThrows(NoncePolicyException.class, () -> t.seal(nonce(iv, -1), aad, bytes(10))).code());
            assertThrows(IllegalArgumentException.class, () -> t.seal(nonce(iv, 9), bytes(13), bytes(10)));
            t.seal(nonce(iv, 6), aad, bytes(1)); // a refusal consumed nothing
            assertEquals(10, t.open(nonce(iv, 0), aad, r0).length, "open is not order-checked");
        }
    }

    @Test
    void tls12SaltPrefix() {
        try (AesGcmForTls12 t = new AesGcmForTls12(bytes(16), null)) {
            byte[] n = bytes(12);
            n[11] = 1;
            t.seal(n, bytes(13), bytes(3));
            byte[] other = n.clone();
            other[0] ^= 1;
            other[11] = 2;
            assertEquals(NoncePolicyException.NONCE_PREFIX,
                    assertThrows(NoncePolicyException.class, () -> t.seal(other, bytes(13), bytes(3))).code());
        }
    }

    @Test
    void quicAndChaChaTls() throws Exception {
        byte[] iv = bytes(12);
        try (ChaCha20Poly1305ForQuic q = new ChaCha20Poly1305ForQuic(bytes(32), iv);
             ChaCha20Poly1305ForTls12 t12 = new ChaCha20Poly1305ForTls12(bytes(32), iv);
             ChaCha20Poly1305ForTls13 t13 = new ChaCha20Poly1305ForTls13(bytes(32), iv);
             AesGcmForQuic qa = new AesGcmForQuic(bytes(16), iv)) {
            byte[] hdr = bytes(20);
            byte[] c = q.seal(nonce(iv, 7), hdr, bytes(30));
            assertEquals(30, q.open(nonce(iv, 7), hdr, c).length);
            assertThrows(NoncePolicyException.class, () -> q.seal(nonce(iv, 7), hdr, bytes(30)));
            assertEquals(1, q.usage().seals());
            assertEquals(NoncePolicyException.NONCE_EXHAUSTED,
                    assertThrows(NoncePolicyException.class, () -> qa.seal(nonce(iv, 1L << 62), hdr, bytes(1))).code());
            qa.seal(nonce(iv, (1L << 62) - 1), hdr, bytes(1));
            byte[] r12 = t12.seal(nonce(iv, 3), bytes(13), bytes(4));
            assertThrows(NoncePolicyException.class, () -> t12.seal(nonce(iv, 2), bytes(13), bytes(4)));
            assertThrows(IllegalArgumentException.class, () -> t13.seal(nonce(iv, 0), bytes(13), bytes(4)));
            assertEquals(20, r12.length);
        }
    }

    @Test
    void randomNonceContexts() throws Exception {
        try (AesGcmRandomNonce r = new AesGcmRandomNonce(bytes(32));
             XChaCha20Poly1305RandomNonce x = new XChaCha20Poly1305RandomNonce(bytes(32))) {
            byte[] pt = bytes(40), aad = bytes(7);
            byte[] s1 = r.seal(aad, pt), s2 = r.seal(aad, pt);
            assertEquals(40 + 28, s1.length);
            assertFalse(Arrays.equals(Arrays.copyOf(s1, 12), Arrays.copyOf(s2, 12)));
            assertArrayEquals(pt, r.open(aad, s1));
            // byte-compatible with a caller-nonce AES-GCM under the drawn nonce
            assertEquals(2, r.usage().seals());
            byte[] sx = x.seal(aad, pt);
            assertEquals(40 + 40, sx.length);
            assertArrayEquals(pt, x.open(aad, sx));
            sx[30] ^= 1;
            assertThrows(AEADBadTagException.class, () -> x.open(aad, sx));
            assertEquals(1, x.usage().forgeries());
        }
    }

    static byte[] nonce(byte[] iv, long seq) {
        byte[] n = iv.clone();
        for (int i = 0; i < 8; i++) {
            n[11 - i] ^= (byte) (seq >>> (8 * i));
        }
        return n;
    }
}
