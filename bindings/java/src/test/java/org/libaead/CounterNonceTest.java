package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Counter nonces (AesGcmCounterNonce, AesGcmXorCounterNonce) and SSH (AesGcmForSsh): the sequences
 * of Go's TestGCMNoncesFIPSV1 (crypto/cipher/gcm_test.go), the IV given up front, refusals that write and
 * consume nothing, random runs with gaps against SunJCE's AES/GCM/NoPadding, and colliding counters from
 * 8 threads.
 */
class CounterNonceTest {
    private final long seed = Long.getLong("libaead.seed", System.nanoTime());
    private final SplittableRandom rnd = new SplittableRandom(seed);
    private static final byte[] SSH_AAD = {0, 0, 0, 0x20}; // a packet length

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** fixed(4) || BE64(counter). */
    static byte[] nonce(int fixed, long counter) {
        byte[] n = new byte[12];
        for (int i = 0; i < 4; i++) {
            n[i] = (byte) (fixed >>> (24 - 8 * i));
        }
        for (int i = 0; i < 8; i++) {
            n[4 + i] = (byte) (counter >>> (56 - 8 * i));
        }
        return n;
    }

    /** Seals "x" as Go's test does into a marked buffer: the output length, or the refusal's code (the
     * buffer then untouched). */
    private static long tryNonce(Aead a, byte[] nonce, byte[] aad) {
        byte[] out = new byte[17];
        Arrays.fill(out, (byte) 0x5a);
        try {
            return a.sealInto(nonce, aad, new byte[] {'x'}, 0, 1, out, 0);
        } catch (AeadException e) {
            assertArrayEquals(filled(17, 0x5a), out, "a refused seal wrote");
            return e.code();
        } catch (IllegalArgumentException e) {
            assertArrayEquals(filled(17, 0x5a), out, "a refused seal wrote");
            throw e;
        }
    }

    private static long tryNonce(Aead a, byte[] nonce) {
        return tryNonce(a, nonce, null);
    }

    private static byte[] filled(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    private static final int ORDER = NoncePolicyException.NONCE_ORDER, EXHAUSTED = NoncePolicyException.NONCE_EXHAUSTED,
            PREFIX = NoncePolicyException.NONCE_PREFIX;

    @Test
    void goCounterNonceSequences() {
        byte[] key = new byte[16];
        try (AesGcmCounterNonce g = new AesGcmCounterNonce(key, null)) {
            for (long c : new long[] {0, 1, 100, 1L << 8, 1L << 16, 1L << 24, 1L << 32, 1L << 40, 1L << 48, 1L << 56}) {
                assertEquals(17, tryNonce(g, nonce(0, c)), "counter " + c);
            }
            assertEquals(PREFIX, tryNonce(g, nonce(1, 0)), "changed name");
        }
        try (AesGcmCounterNonce g = new AesGcmCounterNonce(key, null)) {
            assertEquals(17, tryNonce(g, nonce(0, 1)));
            // went down: one below the start is 2^64-1 counted from it, the value never sealed
            assertEquals(EXHAUSTED, tryNonce(g, nonce(0, 0)));
        }
        try (AesGcmCounterNonce g = new AesGcmCounterNonce(key, null)) {
            assertEquals(17, tryNonce(g, TestSupport.hex("0102030405060708090a0b0c")));
            assertEquals(17, tryNonce(g, TestSupport.hex("0102030405060708090a0b0d")));
            assertEquals(ORDER, tryNonce(g, TestSupport.hex("0102030405060708090a0b0d")), "did not increment");
        }
        try (AesGcmCounterNonce g = new AesGcmCounterNonce(key, null)) {
            assertEquals(17, tryNonce(g, nonce(0x01020304, 0xffffffffffffff00L)));
            assertEquals(17, tryNonce(g, nonce(0x01020304, 0xffffffffffffffffL)));
            assertEquals(17, tryNonce(g, nonce(0x01020304, 0)), "a wrap is fine until the values run out");
            assertEquals(17, tryNonce(g, nonce(0x01020304, 0xfffffffffffffefeL)));
            assertEquals(EXHAUSTED, tryNonce(g, nonce(0x01020304, 0xfffffffffffffeffL)), "back to the start");
        }
        try (AesGcmCounterNonce g = new AesGcmCounterNonce(key, null)) {
            assertEquals(17, tryNonce(g, nonce(0x01020304, 0xffffffffffffffffL)));
            assertEquals(PREFIX, tryNonce(g, nonce(0x01020305, 0)), "a wrap carried into the name");
        }
    }

    /** x/crypto/ssh's incIV: the last 8 bytes as a big-endian counter, plus one. */
    private static void incIv(byte[] iv) {
        for (int i = 4 + 7; i >= 4; i--) {
            if (++iv[i] != 0) {
                break;
            }
        }
    }

    /** Go's steps on one SSH object: each "<nonce in hex> <result>" or "inc <result>" (incIv on the last
     * nonce), the result "ok" (sealed) or the refusal's name. */
    private static void sshSteps(String... steps) {
        try (AesGcmForSsh g = new AesGcmForSsh(new byte[16], null)) {
            byte[] iv = null;
            for (String step : steps) {
                String[] p = step.split(" ");
                if (p[0].equals("inc")) {
                    incIv(iv);
                } else {
                    iv = TestSupport.hex(p[0]);
                }
                long want = switch (p[1]) {
                    case "ok" -> 17;
                    case "ORDER" -> ORDER;
                    case "EXHAUSTED" -> EXHAUSTED;
                    default -> throw new AssertionError(step);
                };
                assertEquals(want, tryNonce(g, iv, SSH_AAD), step);
            }
        }
    }

    @Test
    void goSshSequences() {
        sshSteps("11223344" + "0000000000000000 ok", "inc ok", "11223344" + "fffffffffffffffe ok", "inc EXHAUSTED");
        // wrapping is fine as long as the values do not run out
        sshSteps("11223344" + "fffffffffffffffe ok", "inc ok", "inc ok", "inc ok");
        sshSteps("11223344" + "aaaaaaaaaaaaaaaa ok", "11223344" + "ffffffffffffffff ok", "inc ok",
                "11223344" + "aaaaaaaaaaaaaaa8 ok", "inc EXHAUSTED", "11223344" + "bbbbbbbbbbbbbbbb ORDER");
    }

    /** fixed || (mask XOR n), the XOR-counter nonce of iv = fixed || mask. */
    private static byte[] xorNonce(byte[] iv, long n) {
        return ApiTest.nonce(iv, n);
    }

    @Test
    void xorCounterLearnedOrGiven() throws Exception {
        byte[] key = bytes(32), iv = TestSupport.hex("a0a1a2a3" + "0123456789abcdef");
        for (boolean given : new boolean[] {false, true}) {
            try (AesGcmXorCounterNonce c = new AesGcmXorCounterNonce(key, given ? iv : null)) {
                byte[] aad = bytes(rnd.nextInt(40)), pt = bytes(50);
                for (long n : new long[] {0, 1, 7}) {
                    assertArrayEquals(sunSeal(key, xorNonce(iv, n), aad, pt), c.seal(xorNonce(iv, n), aad, pt));
                }
                assertEquals(ORDER, tryNonce(c, xorNonce(iv, 7)));
                assertEquals(ORDER, tryNonce(c, xorNonce(iv, 3)));
                assertEquals(EXHAUSTED, tryNonce(c, xorNonce(iv, -1)));
                byte[] other = xorNonce(iv, 8);
                other[0] ^= 1;
                assertEquals(PREFIX, tryNonce(c, other));
                assertEquals(17, tryNonce(c, xorNonce(iv, -2)), "2^64-2, the last one");
                assertEquals(ORDER, tryNonce(c, xorNonce(iv, -2)));
            }
        }
    }

    @Test
    void counterAndSshStartAtTheGivenIv() {
        byte[] key = bytes(16);
        int fixed = 0xcafef00d;
        for (boolean ssh : new boolean[] {false, true}) {
            byte[] aad = ssh ? SSH_AAD : null;
            try (Aead c = ssh ? new AesGcmForSsh(key, nonce(fixed, 5)) : new AesGcmCounterNonce(key, nonce(fixed, 5))) {
                assertEquals(EXHAUSTED, tryNonce(c, nonce(fixed, 4), aad), "one before the start");
                assertEquals(PREFIX, tryNonce(c, nonce(fixed + 1, 5), aad));
                assertEquals(17, tryNonce(c, nonce(fixed, 5), aad));
                assertEquals(ORDER, tryNonce(c, nonce(fixed, 5), aad));
                assertEquals(17, tryNonce(c, nonce(fixed, 9), aad));
            }
        }
    }

    @Test
    void keysIvsAndNoncesTheClassesTake() {
        assertThrows(IllegalArgumentException.class, () -> new AesGcmForSsh(bytes(24), null), "RFC 5647: AES-128 and AES-256");
        assertThrows(IllegalArgumentException.class, () -> new AesGcmCounterNonce(bytes(20), null));
        new AesGcmCounterNonce(bytes(24), null).close();
        new AesGcmXorCounterNonce(bytes(24), null).close();
        new AesGcmForSsh(bytes(32), null).close();
        List<BiFunction<byte[], byte[], Aead>> makers = List.of(AesGcmCounterNonce::new,
                AesGcmXorCounterNonce::new, AesGcmForSsh::new);
        for (BiFunction<byte[], byte[], Aead> make : makers) {
            for (int ivLen : new int[] {4, 8, 16}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> make.apply(bytes(16), bytes(ivLen)));
                assertTrue(e.getMessage().contains("iv size"), e.getMessage());
            }
            try (Aead a = make.apply(bytes(16), null)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> a.seal(bytes(8), a instanceof AesGcmForSsh ? SSH_AAD : null, bytes(4)));
                assertTrue(e.getMessage().contains("code " + AeadException.NONCE_SIZE), e.getMessage());
                assertEquals(16, a.tagLength());
                assertEquals(16, a.overhead());
                AeadContext.Indicator ind = a.indicator();
                assertEquals(ind.fipsProvider(), ind.sealApproved(), "approved exactly under a FIPS provider (IG C.H)");
            }
        }
    }

    @Test
    void sshAadIsThePacketLengthAndSealsCountTowardTheRekeyPoint() throws Exception {
        byte[] key = bytes(32);
        try (AesGcmForSsh c = new AesGcmForSsh(key, null);
             AesGcmCounterNonce counter = new AesGcmCounterNonce(key, null);
             AesGcm peer = new AesGcm(key)) {
            for (int aadLen : new int[] {0, 3, 5, 13}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> tryNonce(c, nonce(7, 100), new byte[aadLen]));
                assertTrue(e.getMessage().contains("code " + AeadException.AAD_SIZE), e.getMessage());
            }
            assertEquals(new AeadContext.Usage(0, 0, 1L << 32), c.usage(), "refusals count nothing");
            for (long k = 0; k < 5; k++) {
                assertEquals(17, tryNonce(c, nonce(7, 100 + k), SSH_AAD));
            }
            assertEquals(ORDER, tryNonce(c, nonce(7, 100), SSH_AAD));
            assertEquals(5, c.usage().seals());
            assertEquals(1L << 32, c.usage().rekeyAfter());
            assertEquals(-1, counter.usage().rekeyAfter(), "no rekey point");
            assertEquals(-1, new AeadContext.Usage(1, 2).rekeyAfter());
            // Open checks nothing: any record opens, in any order, and the aad is not policed.
            for (long n : new long[] {3, 1, 3}) {
                byte[] aad = bytes(9), pt = bytes(5);
                byte[] sealed = peer.seal(nonce(7, n), aad, pt);
                assertArrayEquals(pt, c.open(nonce(7, n), aad, sealed));
                assertArrayEquals(pt, counter.open(nonce(7, n), aad, sealed));
            }
            byte[] bad = peer.seal(nonce(7, 1), SSH_AAD, bytes(5));
            bad[2] ^= 4;
            assertThrows(AEADBadTagException.class, () -> c.open(nonce(7, 1), SSH_AAD, bad));
            assertEquals(1, c.usage().forgeries());
        }
    }

    /** A batch checks and commits each record in array order; a refused record is null with its code. */
    @Test
    void batchesRefuseRecordByRecord() {
        byte[] key = bytes(16);
        try (AesGcmForSsh c = new AesGcmForSsh(key, nonce(1, 10))) {
            byte[][] nonces = {nonce(1, 10), nonce(1, 10), nonce(1, 12), nonce(1, 13), nonce(2, 14)};
            byte[][] aads = {SSH_AAD, SSH_AAD, SSH_AAD, new byte[5], SSH_AAD};
            byte[][] pts = {bytes(3), bytes(4), bytes(5), bytes(6), bytes(7)};
            long[] codes = new long[5];
            byte[][] out = c.sealMany(nonces, aads, pts, codes);
            assertArrayEquals(new long[] {19, ORDER, 21, AeadException.AAD_SIZE, PREFIX}, codes);
            assertNull(out[1]);
            assertNull(out[3]);
            assertEquals(2, c.usage().seals());
            assertEquals(17, tryNonce(c, nonce(1, 13), SSH_AAD), "the refused 13 was not consumed");
        }
    }

    private static byte[] sunSeal(byte[] key, byte[] nonce, byte[] aad, byte[] pt) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        if (aad != null) {
            c.updateAAD(aad);
        }
        return c.doFinal(pt);
    }

    private static byte[] sunOpen(byte[] key, byte[] nonce, byte[] aad, byte[] sealed) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        c.updateAAD(aad);
        return c.doFinal(sealed);
    }

    private enum Kind { COUNTER, XOR_COUNTER, SSH }

    private static Aead make(Kind kind, byte[] key, byte[] iv) {
        return switch (kind) {
            case COUNTER -> new AesGcmCounterNonce(key, iv);
            case XOR_COUNTER -> new AesGcmXorCounterNonce(key, iv);
            case SSH -> new AesGcmForSsh(key, iv);
        };
    }

    /** The nonce of counter n for an object whose iv (given or learned) is iv. */
    private static byte[] nonceOf(Kind kind, byte[] iv, long n) {
        if (kind == Kind.XOR_COUNTER) {
            return xorNonce(iv, n);
        }
        long start = 0;
        for (int i = 4; i < 12; i++) {
            start = start << 8 | (iv[i] & 0xff);
        }
        return nonce((iv[0] & 0xff) << 24 | (iv[1] & 0xff) << 16 | (iv[2] & 0xff) << 8 | (iv[3] & 0xff), start + n);
    }

    /** Random runs with gaps: every seal equals SunJCE's under the same nonce and opens there, SunJCE's
     * output opens here, and a reused counter is refused; the counter starts anywhere (given or learned,
     * near 2^64-1 sometimes, so that it wraps). Sizes on both sides of the critical-call threshold. */
    @Test
    void randomRunsEqualSunJce() throws Exception {
        int runs = 0, seals = 0;
        for (Kind kind : Kind.values()) {
            for (int keyLen : kind == Kind.SSH ? new int[] {16, 32} : new int[] {16, 24, 32}) {
                for (boolean given : new boolean[] {false, true}) {
                    byte[] key = bytes(keyLen), iv = bytes(12);
                    if (rnd.nextInt(3) == 0 && kind != Kind.XOR_COUNTER) {
                        Arrays.fill(iv, 4, 11, (byte) 0xff); // the counter wraps past 2^64-1 within the run
                    }
                    try (Aead c = make(kind, key, given ? iv : null)) {
                        long n = 0;
                        for (int k = 0; k < 60; k++) {
                            byte[] nn = nonceOf(kind, iv, n);
                            byte[] aad = kind == Kind.SSH ? bytes(4) : bytes(rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(64));
                            int len = switch (rnd.nextInt(12)) {
                                case 0 -> (int) Native.CRITICAL_MAX - 40 + rnd.nextInt(80);
                                case 1 -> 100_000 + rnd.nextInt(50_000);
                                default -> rnd.nextInt(300);
                            };
                            byte[] pt = bytes(len);
                            byte[] ours = c.seal(nn, aad, pt);
                            assertArrayEquals(sunSeal(key, nn, aad, pt), ours,
                                    kind + " key " + keyLen + " n " + n + " pt " + len + " seed " + seed);
                            assertArrayEquals(pt, sunOpen(key, nn, aad, ours));
                            assertArrayEquals(pt, c.open(nn, aad, ours));
                            if (k % 7 == 3) {
                                assertEquals(ORDER, tryNonce(c, nn, kind == Kind.SSH ? SSH_AAD : null));
                            }
                            seals++;
                            n += 1 + rnd.nextInt(k % 5 == 0 ? 1000 : 2);
                        }
                    }
                    runs++;
                }
            }
        }
        System.out.println("differential: counter nonces vs SunJCE AES/GCM/NoPadding: " + runs + " runs, " + seals
                + " seals (seed " + seed + ")");
    }

    /** 8 threads offer every counter value 3 times on one object: each is accepted exactly once, every
     * other attempt is refused with NONCE_ORDER, and an SSH object counts the accepted seals only. */
    @Test
    void collidingCountersFromEightThreadsEachAcceptedOnce() throws Exception {
        final int threads = 8, values = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (Kind kind : Kind.values()) {
                byte[] key = bytes(16), iv = bytes(12);
                byte[] aad = kind == Kind.SSH ? SSH_AAD : null;
                List<List<Long>> plans = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    plans.add(new ArrayList<>());
                }
                for (long v = 0; v < values; v++) {
                    for (int copy = 0; copy < 3; copy++) {
                        plans.get((int) ((v * 3 + copy * 5L) % threads)).add(v);
                    }
                }
                Map<Long, AtomicInteger> accepted = new ConcurrentHashMap<>();
                AtomicInteger refused = new AtomicInteger();
                try (Aead ctx = make(kind, key, iv)) {
                    List<Future<?>> fs = new ArrayList<>();
                    for (List<Long> plan : plans) {
                        fs.add(pool.submit(() -> {
                            byte[] out = new byte[32];
                            for (long v : plan) {
                                try {
                                    assertEquals(32, ctx.sealInto(nonceOf(kind, iv, v), aad, new byte[16], 0, 16, out, 0));
                                    accepted.computeIfAbsent(v, x -> new AtomicInteger()).incrementAndGet();
                                } catch (NoncePolicyException e) {
                                    assertEquals(ORDER, e.code());
                                    refused.incrementAndGet();
                                }
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : fs) {
                        f.get();
                    }
                    assertTrue(!accepted.isEmpty(), kind + ": nothing accepted");
                    accepted.forEach((v, count) -> assertEquals(1, count.get(), kind + ": counter " + v + " accepted twice"));
                    assertEquals(3 * values, accepted.size() + refused.get(), kind + ": every attempt accounted for");
                    if (kind == Kind.SSH) {
                        assertEquals(accepted.size(), ctx.usage().seals(), "a refused seal gave its count back");
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
