package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libaead.TestSupport.hex;
import static org.libaead.TestSupport.randomBytes;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;

/**
 * org.libaead.Hpke (RFC 9180, library 1.6):
 * <ul>
 * <li>every case of RFC 9180's published vectors (hpke/rfc9180.json from tests/vectors.py; a missing file
 *     fails): the key pairs from ikmR / ikmS, the sender's enc from ikmE, every encryption in order (the
 *     sender's own sequence numbers), opened in order and by explicit sequence number (byte[] and direct
 *     ByteBuffer forms), every export on both sides, and the single-shot open;</li>
 * <li>round trips over every suite in all four modes (byte[], heap and direct ByteBuffers, in place, above
 *     and below the critical threshold), tampering, wrong aad / info / psk / keys refused, the replay window;</li>
 * <li>two threads sealing 200,000 messages each on one sender never share a sequence number and skip none;</li>
 * <li>bad keys refused (X25519 low-order points, wrong lengths, points off the curve, zero scalars).</li>
 * </ul>
 */
class HpkeTest {
    static final int[] KEMS = {Hpke.KEM_DHKEM_P_256_HKDF_SHA256, Hpke.KEM_DHKEM_P_384_HKDF_SHA384,
        Hpke.KEM_DHKEM_P_521_HKDF_SHA512, Hpke.KEM_DHKEM_X25519_HKDF_SHA256, Hpke.KEM_DHKEM_X448_HKDF_SHA512};
    static final int[] KDFS = {Hpke.KDF_HKDF_SHA256, Hpke.KDF_HKDF_SHA384, Hpke.KDF_HKDF_SHA512};
    static final int[] AEADS = {Hpke.AEAD_AES_128_GCM, Hpke.AEAD_AES_256_GCM, Hpke.AEAD_CHACHA20_POLY1305,
        Hpke.EXPORT_ONLY};
    static final int[] MODES = {Hpke.MODE_BASE, Hpke.MODE_PSK, Hpke.MODE_AUTH, Hpke.MODE_AUTH_PSK};

    private static byte[] h(JsonObject o, String name) {
        return o.has(name) ? hex(o.get(name).getAsString()) : null;
    }

    /** Every export of a vector case ("exports": exporter_context, L, exported_value), on both sides; returns
     * how many. */
    static int checkExports(JsonObject c, Hpke.Context tx, Hpke.Context rx, String where) {
        int n = 0;
        for (JsonElement xe : c.getAsJsonArray("exports")) {
            JsonObject x = xe.getAsJsonObject();
            byte[] want = h(x, "exported_value");
            int len = x.get("L").getAsInt();
            assertArrayEquals(want, tx.export(h(x, "exporter_context"), len), where + " export");
            assertArrayEquals(want, rx.export(h(x, "exporter_context"), len), where + " export");
            n++;
        }
        return n;
    }

    @Test
    void rfc9180Vectors() throws Exception {
        Path file = TestSupport.vectorsDir().resolve("hpke/rfc9180.json");
        assertTrue(Files.isRegularFile(file), file + " is missing (tests/vectors.py fetches it)");
        List<JsonElement> cases = JsonParser.parseString(Files.readString(file)).getAsJsonArray().asList();
        assertEquals(128, cases.size(), "RFC 9180 vector cases");
        Set<String> suites = new HashSet<>();
        int[] modes = new int[4];
        int seals = 0, exports = 0;
        for (JsonElement ce : cases) {
            JsonObject c = ce.getAsJsonObject();
            int mode = c.get("mode").getAsInt();
            Hpke suite = Hpke.of(c.get("kem_id").getAsInt(), c.get("kdf_id").getAsInt(), c.get("aead_id").getAsInt());
            String where = suite + " mode " + mode;
            suites.add(suite.toString());
            modes[mode]++;
            boolean auth = mode == Hpke.MODE_AUTH || mode == Hpke.MODE_AUTH_PSK;
            Hpke.KeyPair r = suite.deriveKeyPair(h(c, "ikmR"));
            assertArrayEquals(h(c, "skRm"), r.privateKey(), where);
            assertArrayEquals(h(c, "pkRm"), r.publicKey(), where);
            assertArrayEquals(r.publicKey(), suite.publicKey(r.privateKey()), where);
            Hpke.KeyPair s = auth ? suite.deriveKeyPair(h(c, "ikmS")) : null;
            if (auth) {
                assertArrayEquals(h(c, "skSm"), s.privateKey(), where);
                assertArrayEquals(h(c, "pkSm"), s.publicKey(), where);
            }
            byte[] info = h(c, "info"), psk = h(c, "psk"), pskId = h(c, "psk_id");
            byte[] enc = h(c, "enc");
            try (Hpke.Sender tx = suite.newSenderForTesting(h(c, "ikmE"), r.publicKey(), info, psk, pskId,
                         auth ? s.privateKey() : null);
                 Hpke.Recipient rx = suite.newRecipient(enc, r.privateKey(), info, psk, pskId, auth ? s.publicKey() : null);
                 Hpke.Recipient bySeq = suite.newRecipient(enc, r.privateKey(), info, psk, pskId,
                         auth ? s.publicKey() : null, 4096)) {
                assertArrayEquals(enc, tx.encapsulation(), where);
                assertEquals(mode, tx.mode(), where);
                assertEquals(mode, rx.mode(), where);
                JsonElement[] encs = c.getAsJsonArray("encryptions").asList().toArray(new JsonElement[0]);
                if (suite.aeadId() == Hpke.EXPORT_ONLY) {
                    assertThrows(IllegalArgumentException.class, () -> tx.seal(null, new byte[1]), where);
                    assertThrows(IllegalArgumentException.class, () -> rx.open(null, new byte[17]), where);
                }
                for (int seq = 0; seq < encs.length && suite.aeadId() != Hpke.EXPORT_ONLY; seq++) {
                    JsonObject e = encs[seq].getAsJsonObject();
                    byte[] aad = h(e, "aad"), pt = h(e, "pt"), ct = h(e, "ct");
                    Hpke.Sender.Message m = tx.sealWithSequence(aad, pt);
                    assertEquals(seq, m.sequence(), where);
                    assertArrayEquals(ct, m.ciphertext(), where + " seq " + seq);
                    assertArrayEquals(pt, rx.open(aad, ct), where + " seq " + seq);
                    if (seq % 2 == 0) {
                        assertArrayEquals(pt, bySeq.openAt(seq, aad, ct), where + " seq " + seq);
                    } else {
                        ByteBuffer in = ByteBuffer.allocateDirect(ct.length).put(ct).flip();
                        ByteBuffer out = ByteBuffer.allocateDirect(pt.length);
                        assertEquals(pt.length, bySeq.openAtInto(seq, aad, in, out), where);
                        assertEquals(ByteBuffer.wrap(pt), out.flip(), where + " seq " + seq);
                    }
                    seals++;
                }
                exports += checkExports(c, tx, rx, where);
                if (suite.aeadId() != Hpke.EXPORT_ONLY) {
                    JsonObject first = encs[0].getAsJsonObject();
                    assertArrayEquals(h(first, "pt"), suite.open(enc, r.privateKey(), info, h(first, "aad"),
                            h(first, "ct"), psk, pskId, auth ? s.publicKey() : null), where + " single-shot");
                    assertThrows(AEADBadTagException.class, () -> suite.open(enc, r.privateKey(), info,
                            h(encs[1].getAsJsonObject(), "aad"), h(encs[1].getAsJsonObject(), "ct"), psk, pskId,
                            auth ? s.publicKey() : null), where + " single-shot opens sequence 0 only");
                }
            }
        }
        assertEquals(32, suites.size(), "RFC 9180 vector suites");
        assertArrayEquals(new int[] {32, 32, 32, 32}, modes, "cases per mode");
        assertEquals(24672, seals, "sequenced encryptions");
        assertEquals(384, exports, "exports");
        System.out.println("vectors hpke/rfc9180.json: " + cases.size() + " cases, " + suites.size() + " suites, "
                + seals + " sequenced encryptions, " + exports + " exports, each as sender and recipient");
    }

    /** A sender and recipient pair of one suite and mode, with fresh random keys, info and psk. */
    record Pair(Hpke suite, int mode, Hpke.KeyPair r, Hpke.KeyPair s, byte[] info, byte[] psk, byte[] pskId,
                Hpke.Sender tx, Hpke.Recipient rx) implements AutoCloseable {
        static Pair of(Hpke suite, int mode, Random rnd) {
            Hpke.KeyPair r = suite.generateKeyPair();
            boolean auth = mode == Hpke.MODE_AUTH || mode == Hpke.MODE_AUTH_PSK;
            boolean withPsk = mode == Hpke.MODE_PSK || mode == Hpke.MODE_AUTH_PSK;
            Hpke.KeyPair s = auth ? suite.generateKeyPair() : null;
            byte[] info = randomBytes(new int[] {0, 1, 17, 64, 300}[rnd.nextInt(5)]);
            byte[] psk = withPsk ? randomBytes(32) : null, pskId = withPsk ? randomBytes(1 + rnd.nextInt(20)) : null;
            Hpke.Sender tx = suite.newSender(r.publicKey(), info, psk, pskId, auth ? s.privateKey() : null);
            Hpke.Recipient rx = suite.newRecipient(tx.encapsulation(), r.privateKey(), info, psk, pskId,
                    auth ? s.publicKey() : null);
            return new Pair(suite, mode, r, s, info, psk, pskId, tx, rx);
        }

        @Override
        public void close() {
            tx.close();
            rx.close();
        }
    }

    @Test
    void roundTripsEverySuiteAndMode() throws Exception {
        Random rnd = new Random();
        int setups = 0;
        for (int kem : KEMS) {
            for (int kdf : KDFS) {
                for (int aead : AEADS) {
                    Hpke suite = Hpke.of(kem, kdf, aead);
                    Hpke.KeyPair kp = suite.generateKeyPair();
                    assertEquals(suite.encapsulationSize(), kp.publicKey().length);
                    assertEquals(suite.privateKeySize(), kp.privateKey().length);
                    assertArrayEquals(kp.publicKey(), suite.publicKey(kp.privateKey()));
                    for (int mode : MODES) {
                        try (Pair p = Pair.of(suite, mode, rnd)) {
                            roundTrip(p, rnd);
                        }
                        setups++;
                    }
                }
            }
        }
        assertEquals(5 * 3 * 4 * 4, setups);
    }

    static void roundTrip(Pair p, Random rnd) throws Exception {
        String where = p.suite() + " mode " + p.mode();
        assertEquals(p.suite().encapsulationSize(), p.tx().encapsulation().length, where);
        assertEquals(p.mode(), p.tx().mode(), where);
        byte[] label = randomBytes(rnd.nextInt(40));
        assertArrayEquals(p.tx().export(label, 42), p.rx().export(label, 42), where + " export");
        assertFalse(Arrays.equals(p.tx().export(label, 42), p.tx().export(Arrays.copyOf(label, label.length + 1), 42)),
                where + " another exporter context");
        assertEquals(0, p.tx().export(null, 0).length);
        if (p.suite().aeadId() == Hpke.EXPORT_ONLY) {
            assertThrows(IllegalArgumentException.class, () -> p.tx().seal(null, new byte[3]), where);
            assertEquals("", p.tx().indicator().provider(), where);
            return;
        }
        assertFalse(p.tx().indicator().provider().isEmpty(), where);
        int[] sizes = {0, 1, 15, 16, 17, 1000, 70_000};
        for (int i = 0; i < sizes.length; i++) {
            byte[] aad = randomBytes(rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(100)), pt = randomBytes(sizes[i]);
            Hpke.Sender.Message m = p.tx().sealWithSequence(aad, pt);
            assertEquals(i, m.sequence(), where);
            assertEquals(pt.length + Hpke.TAG_LENGTH, m.ciphertext().length, where);
            byte[] bad = m.ciphertext().clone();
            bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
            assertThrows(AEADBadTagException.class, () -> p.rx().openAt(m.sequence(), aad, bad), where + " tampered");
            byte[] otherAad = Arrays.copyOf(aad, aad.length + 1);
            assertThrows(AEADBadTagException.class, () -> p.rx().openAt(m.sequence(), otherAad, m.ciphertext()), where);
            assertArrayEquals(pt, p.rx().open(aad, m.ciphertext()), where + " size " + sizes[i]);
        }
        assertEquals(sizes.length, p.tx().usage().seals(), where + " seals counted");
        assertEquals(sizes.length * 2, p.rx().usage().forgeries(), where + " failed opens counted");
        // Out of order: the in-order open takes the next number only.
        byte[] c8 = p.tx().seal(null, "eight".getBytes()), c9 = p.tx().seal(null, "nine".getBytes());
        assertThrows(AEADBadTagException.class, () -> p.rx().open(null, c9), where + " out of order");
        ByteBuffer eight = ByteBuffer.allocateDirect(5);
        assertEquals(5, p.rx().openInto(null, ByteBuffer.wrap(c8), eight), where);
        assertEquals(ByteBuffer.wrap("eight".getBytes()), eight.flip(), where);
        // The replay window.
        assertArrayEquals("nine".getBytes(), p.rx().openAt(8, null, c9));
        assertThrows(Hpke.ReplayException.class, () -> p.rx().openAt(8, null, c9), where + " replay");
        // ByteBuffer forms: heap and direct, below and above the critical threshold, in place.
        long next = 9;
        for (int n : new int[] {5, 100_000}) {
            byte[] aad = randomBytes(7), pt = randomBytes(n);
            ByteBuffer in = ByteBuffer.allocateDirect(n).put(pt).flip();
            ByteBuffer out = ByteBuffer.allocate(n + Hpke.TAG_LENGTH + 3).position(3);
            assertEquals(n + Hpke.TAG_LENGTH, p.tx().sealInto(aad, in, out), where);
            assertEquals(0, in.remaining());
            assertEquals(n + Hpke.TAG_LENGTH + 3, out.position());
            byte[] ct = Arrays.copyOfRange(out.array(), 3, out.position());
            ByteBuffer plain = ByteBuffer.allocate(n);
            assertEquals(n, p.rx().openAtInto(next, aad, ByteBuffer.wrap(ct), plain), where);
            assertArrayEquals(pt, plain.array(), where);
            // direct to direct (native memory straight through at any size); the number is opened already
            ByteBuffer direct = ByteBuffer.allocateDirect(n);
            long seq = next++;
            assertThrows(Hpke.ReplayException.class, () -> p.rx().openAtInto(seq, aad,
                    ByteBuffer.allocateDirect(ct.length).put(ct).flip(), direct), where);
            try (Hpke.Recipient again = p.suite().newRecipient(p.tx().encapsulation(), p.r().privateKey(), p.info(),
                    p.psk(), p.pskId(), p.s() == null ? null : p.s().publicKey())) {
                assertEquals(n, again.openAtInto(seq, aad, ByteBuffer.allocateDirect(ct.length).put(ct).flip(), direct));
                assertEquals(ByteBuffer.wrap(pt), direct.flip(), where + " direct " + n);
            }
            // in place on one heap array (the sealed form is 16 bytes longer)
            byte[] buf = Arrays.copyOf(pt, n + Hpke.TAG_LENGTH);
            ByteBuffer whole = ByteBuffer.wrap(buf);
            assertEquals(n + Hpke.TAG_LENGTH, p.tx().sealInto(aad, whole.duplicate().limit(n), whole.duplicate()), where);
            ByteBuffer back = ByteBuffer.wrap(buf);
            assertEquals(n, p.rx().openAtInto(next++, aad, back.duplicate(), back.duplicate()), where + " in place " + n);
            assertArrayEquals(pt, Arrays.copyOf(buf, n), where + " in place " + n);
            // a partial overlap is refused, as libaead does
            byte[] shifted = Arrays.copyOf(pt, n + Hpke.TAG_LENGTH + 1);
            assertThrows(IllegalArgumentException.class, () -> p.tx().sealInto(aad,
                    ByteBuffer.wrap(shifted, 0, n), ByteBuffer.wrap(shifted, 1, n + Hpke.TAG_LENGTH)), where);
            assertThrows(IllegalArgumentException.class, () -> p.tx().sealInto(aad, ByteBuffer.wrap(pt),
                    ByteBuffer.allocate(n + Hpke.TAG_LENGTH - 1)), where + " output too small");
        }
        // Wrong info, psk or keys: the recipient's context differs, nothing opens.
        Hpke.Sender.Message last = p.tx().sealWithSequence(null, "x".getBytes());
        assertEquals(13, last.sequence(), where);
        byte[] ct = last.ciphertext();
        byte[] otherInfo = Arrays.copyOf(p.info(), p.info().length + 1);
        boolean auth = p.s() != null;
        try (Hpke.Recipient wrong = p.suite().newRecipient(p.tx().encapsulation(), p.r().privateKey(), otherInfo,
                p.psk(), p.pskId(), auth ? p.s().publicKey() : null)) {
            assertThrows(AEADBadTagException.class, () -> wrong.openAt(13, null, ct), where + " wrong info");
        }
        if (p.psk() != null) {
            byte[] otherPsk = p.psk().clone();
            otherPsk[0] ^= 1;
            try (Hpke.Recipient wrong = p.suite().newRecipient(p.tx().encapsulation(), p.r().privateKey(), p.info(),
                    otherPsk, p.pskId(), auth ? p.s().publicKey() : null)) {
                assertThrows(AEADBadTagException.class, () -> wrong.openAt(13, null, ct), where + " wrong psk");
            }
        }
        if (auth) {
            try (Hpke.Recipient wrong = p.suite().newRecipient(p.tx().encapsulation(), p.r().privateKey(), p.info(),
                    p.psk(), p.pskId(), p.suite().generateKeyPair().publicKey())) {
                assertThrows(AEADBadTagException.class, () -> wrong.openAt(13, null, ct), where + " wrong sender key");
            }
        }
        // Single-shot, both ways with the contexts.
        byte[] pt = randomBytes(rnd.nextInt(200)), aad = randomBytes(9);
        Hpke.Sealed one = p.suite().seal(p.r().publicKey(), p.info(), aad, pt, p.psk(), p.pskId(),
                auth ? p.s().privateKey() : null);
        assertArrayEquals(pt, p.suite().open(one.encapsulation(), p.r().privateKey(), p.info(), aad, one.ciphertext(),
                p.psk(), p.pskId(), auth ? p.s().publicKey() : null), where + " single-shot");
        try (Hpke.Recipient rx = p.suite().newRecipient(one.encapsulation(), p.r().privateKey(), p.info(), p.psk(),
                p.pskId(), auth ? p.s().publicKey() : null)) {
            assertArrayEquals(pt, rx.open(aad, one.ciphertext()), where + " single-shot seal, context open");
        }
        byte[] bad = one.ciphertext().clone();
        bad[0] ^= 1;
        assertThrows(AEADBadTagException.class, () -> p.suite().open(one.encapsulation(), p.r().privateKey(), p.info(),
                aad, bad, p.psk(), p.pskId(), auth ? p.s().publicKey() : null), where + " single-shot tampered");
    }

    @Test
    void twoThreadsSealingOneSenderGetDistinctSequenceNumbers() throws Exception {
        final int perThread = 200_000;
        Hpke suite = Hpke.of(Hpke.KEM_DHKEM_X25519_HKDF_SHA256, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
        Hpke.KeyPair r = suite.generateKeyPair();
        try (Hpke.Sender tx = suite.newSender(r.publicKey(), "threads".getBytes());
             Hpke.Recipient rx = suite.newRecipient(tx.encapsulation(), r.privateKey(), "threads".getBytes(), null,
                     null, null, 4096)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<Object[]>> f = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    final byte tag = (byte) t;
                    f.add(pool.submit(() -> {
                        long[] seqs = new long[perThread];
                        byte[][] kept = new byte[perThread][];
                        for (int i = 0; i < perThread; i++) {
                            byte[] msg = {tag, (byte) i, (byte) (i >> 8), (byte) (i >> 16)};
                            Hpke.Sender.Message m = tx.sealWithSequence(null, msg);
                            seqs[i] = m.sequence();
                            if (i >= perThread - 1000) {
                                kept[i] = m.ciphertext();
                            }
                        }
                        return new Object[] {seqs, kept};
                    }));
                }
                boolean[] seen = new boolean[2 * perThread];
                long[][] seqs = new long[2][];
                byte[][][] kept = new byte[2][][];
                for (int t = 0; t < 2; t++) {
                    Object[] res = f.get(t).get();
                    seqs[t] = (long[]) res[0];
                    kept[t] = (byte[][]) res[1];
                    long last = -1;
                    for (long s : seqs[t]) {
                        assertTrue(s >= 0 && s < 2L * perThread, "sequence " + s + " out of range");
                        assertFalse(seen[(int) s], "sequence " + s + " used twice");
                        assertTrue(s > last, "one thread's sequence numbers increase");
                        seen[(int) s] = true;
                        last = s;
                    }
                }
                for (int s = 0; s < seen.length; s++) {
                    assertTrue(seen[s], "sequence " + s + " skipped");
                }
                assertEquals(2L * perThread, tx.usage().seals());
                // The last messages of each thread open at the numbers reported, in increasing order.
                record Kept(long seq, int thread, int i) {}
                java.util.List<Kept> all = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    for (int i = perThread - 1000; i < perThread; i++) {
                        all.add(new Kept(seqs[t][i], t, i));
                    }
                }
                all.sort(java.util.Comparator.comparingLong(Kept::seq));
                for (Kept k : all) {
                    byte[] pt = rx.openAt(k.seq(), null, kept[k.thread()][k.i()]);
                    assertArrayEquals(new byte[] {(byte) k.thread(), (byte) k.i(), (byte) (k.i() >> 8),
                        (byte) (k.i() >> 16)}, pt);
                }
                System.out.println("threads hpke: 2 threads x " + perThread + " seals on one sender: "
                        + 2 * perThread + " distinct sequence numbers, none skipped; 2000 opened at their numbers");
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void badKeysRefused() {
        Hpke x = Hpke.of(Hpke.KEM_DHKEM_X25519_HKDF_SHA256, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
        Hpke.KeyPair kp = x.generateKeyPair();
        // X25519 low-order points (RFC 7748 section 6.1): the shared secret would be all zeros.
        byte[][] lowOrder = {new byte[32], hex("0100000000000000000000000000000000000000000000000000000000000000"),
            hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
            hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
            hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")};
        for (byte[] pk : lowOrder) {
            assertThrows(IllegalArgumentException.class, () -> x.newSender(pk, null), "low-order pkR " + hex(pk));
            assertThrows(IllegalArgumentException.class, () -> x.seal(pk, null, null, new byte[1]));
            assertThrows(IllegalArgumentException.class, () -> x.newRecipient(pk, kp.privateKey(), null),
                    "low-order enc " + hex(pk));
        }
        // Wrong lengths: public key, enc, private key, sender's keys.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> x.newSender(new byte[31], null));
        assertTrue(e.getMessage().contains("code " + AeadException.KEY_SIZE), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> x.newSender(new byte[33], null));
        assertThrows(IllegalArgumentException.class, () -> x.newRecipient(new byte[31], kp.privateKey(), null));
        assertThrows(IllegalArgumentException.class, () -> x.newRecipient(kp.publicKey(), new byte[31], null));
        assertThrows(IllegalArgumentException.class, () -> x.newSender(kp.publicKey(), null, null, null, new byte[5]));
        assertThrows(IllegalArgumentException.class, () -> x.publicKey(new byte[31]));
        // psk without psk_id (and the other way round).
        assertThrows(IllegalArgumentException.class, () -> x.newSender(kp.publicKey(), null, new byte[32], null, null));
        assertThrows(IllegalArgumentException.class, () -> x.newSender(kp.publicKey(), null, null, new byte[3], null));
        // P-256: a point off the curve, a compressed point, the scalar 0 and one not below the order.
        Hpke p = Hpke.of(Hpke.KEM_DHKEM_P_256_HKDF_SHA256, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
        Hpke.KeyPair pp = p.generateKeyPair();
        byte[] off = pp.publicKey();
        off[64] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> p.newSender(off, null), "point off the curve");
        assertThrows(IllegalArgumentException.class, () -> p.newRecipient(off, pp.privateKey(), null));
        byte[] compressed = Arrays.copyOf(pp.publicKey(), 65);
        compressed[0] = 2;
        assertThrows(IllegalArgumentException.class, () -> p.newSender(compressed, null), "not uncompressed");
        assertThrows(IllegalArgumentException.class, () -> p.publicKey(new byte[32]), "scalar 0");
        byte[] order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
        assertThrows(IllegalArgumentException.class, () -> p.publicKey(order), "scalar n");
        assertThrows(IllegalArgumentException.class, () -> p.newRecipient(pp.publicKey(), order, null));
        // Unknown identifiers.
        assertThrows(IllegalArgumentException.class, () -> Hpke.of(0x99, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM));
        assertThrows(IllegalArgumentException.class, () -> Hpke.of(0x20, 4, Hpke.AEAD_AES_128_GCM));
        assertThrows(IllegalArgumentException.class, () -> Hpke.of(0x20, 1, 4));
        // An export context over the limit, a window that is not a multiple of 64.
        try (Hpke.Sender tx = x.newSender(kp.publicKey(), null)) {
            assertThrows(IllegalArgumentException.class, () -> tx.export(new byte[Hpke.MAX_EXPORT_CONTEXT + 1], 32));
            assertEquals(32, tx.export(new byte[Hpke.MAX_EXPORT_CONTEXT], 32).length);
            assertThrows(IllegalArgumentException.class, () -> tx.export(null, 255 * 32 + 1));
            assertThrows(IllegalArgumentException.class,
                    () -> x.newRecipient(tx.encapsulation(), kp.privateKey(), null, null, null, null, 65));
        }
    }

    @Test
    void closedContextsRefuseAndClosingTwiceIsHarmless() throws Exception {
        Hpke suite = Hpke.of(Hpke.KEM_DHKEM_X25519_HKDF_SHA256, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_CHACHA20_POLY1305);
        Hpke.KeyPair r = suite.generateKeyPair();
        Hpke.Sender tx = suite.newSender(r.publicKey(), null);
        Hpke.Recipient rx = suite.newRecipient(tx.encapsulation(), r.privateKey(), null);
        byte[] ct = tx.seal(null, new byte[10]);
        tx.close();
        tx.close();
        rx.close();
        assertThrows(IllegalStateException.class, () -> tx.seal(null, new byte[1]));
        assertThrows(IllegalStateException.class, () -> tx.export(null, 16));
        assertThrows(IllegalStateException.class, () -> rx.open(null, ct));
        assertThrows(IllegalStateException.class, () -> tx.indicator());
        assertNotEquals(0, tx.encapsulation().length);
    }
}
