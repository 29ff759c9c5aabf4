package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** One keyed object shared by 8 threads; TLS sequencing under racing and hostile callers. */
class ConcurrencyTest {
    private static byte[] bytes(int n) {
        return TestSupport.randomBytes(n);
    }

    @Test
    void eightThreadsOneObjectAgreeWithSunJce() throws Exception {
        byte[] key = bytes(32);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (AesGcm shared = new AesGcm(key)) {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                fs.add(pool.submit(() -> {
                    Cipher sun = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
                    int n = 0;
                    for (int i = 0; i < 400; i++) {
                        byte[] nonce = bytes(12), aad = bytes(i % 9), pt = bytes(i % 3 == 0 ? 70_000 : i % 200);
                        byte[] ct = shared.seal(nonce, aad, pt);
                        assertArrayEquals(pt, shared.open(nonce, aad, ct));
                        if (i % 10 == 0) {
                            sun.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
                            sun.updateAAD(aad);
                            assertArrayEquals(sun.doFinal(pt), ct);
                        }
                        n++;
                    }
                    return n;
                }));
            }
            int total = 0;
            for (Future<Integer> f : fs) {
                total += f.get();
            }
            assertEquals(3200, total);
        } finally {
            pool.shutdownNow();
        }
    }

    /** 8 threads race for sequence numbers on one TLS 1.3 context: each number is accepted at most once. */
    @Test
    void racingTlsSealsNeverAcceptASequenceTwice() throws Exception {
        byte[] iv = bytes(12);
        AtomicLong next = new AtomicLong();
        ConcurrentLinkedQueue<Long> accepted = new ConcurrentLinkedQueue<>();
        AtomicLong refused = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (AesGcmForTls13 ctx = new AesGcmForTls13(bytes(16), iv)) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        // every number is tried by two threads
                        long seq = next.getAndIncrement() / 2;
                        try {
                            ctx.seal(ApiTest.nonce(iv, seq), new byte[5], new byte[16]);
                            accepted.add(seq);
                        } catch (NoncePolicyException e) {
                            assertEquals(NoncePolicyException.NONCE_ORDER, e.code());
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Set<Long> unique = new HashSet<>(accepted);
        assertEquals(unique.size(), accepted.size(), "a sequence number was accepted twice");
        assertTrue(refused.get() >= 8000, "each number was offered twice: half at least refused, got " + refused);
    }

    /** A hostile caller rewrites the nonce array while other threads seal with it: no two records may share a
     * nonce. Detected without knowing the nonces: under one GCM key and nonce, ct1 ^ ct2 == pt1 ^ pt2. */
    @Test
    void mutatedNonceArrayNeverYieldsTwoRecordsUnderOneNonce() throws Exception {
        byte[] iv = new byte[12];
        byte[] shared = new byte[12];
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<byte[][]> records = new ConcurrentLinkedQueue<>();
        try (AesGcmForTls13 ctx = new AesGcmForTls13(bytes(16), iv)) {
            Thread mutator = new Thread(() -> {
                long c = 1;
                java.util.SplittableRandom r = new java.util.SplittableRandom();
                while (!stop.get()) {
                    long v = r.nextBoolean() ? c++ : Math.max(0, c - r.nextInt(40));
                    for (int i = 0; i < 8; i++) { // byte by byte: torn values on purpose
                        shared[11 - i] = (byte) (v >>> (8 * i));
                    }
                }
            });
            mutator.start();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 200_000 && records.size() < 600; i++) {
                        byte[] pt = bytes(16);
                        try {
                            byte[] ct = ctx.seal(shared, new byte[5], pt);
                            records.add(new byte[][] {pt, ct});
                        } catch (NoncePolicyException expected) {
                            // refused: order or exhaustion
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            stop.set(true);
            mutator.join();
            pool.shutdownNow();
        }
        List<byte[][]> list = new ArrayList<>(records);
        assertTrue(list.size() > 50, "too few accepted seals: " + list.size());
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                byte[] pi = list.get(i)[0], ci = list.get(i)[1], pj = list.get(j)[0], cj = list.get(j)[1];
                boolean same = true;
                for (int k = 0; k < 16 && same; k++) {
                    same = (ci[k] ^ cj[k]) == (pi[k] ^ pj[k]);
                }
                assertTrue(!same, "records " + i + " and " + j + " were sealed under one nonce");
            }
        }
        System.out.println("hostile nonce array: " + list.size() + " accepted seals, pairwise distinct nonces");
    }
}
