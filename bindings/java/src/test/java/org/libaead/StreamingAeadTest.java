package org.libaead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.crypto.tink.subtle.AesGcmHkdfStreaming;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;

/**
 * StreamingAead: RFC 8188's own examples; Tink Java's AesGcmHkdfStreaming (the raw primitive) as the peer of
 * the AES-GCM-HKDF format in both directions and for seekable decryption; truncated, reordered, extended and
 * altered ciphertexts refused by both; age and RFC 8188 round trips and refusals; threads and use after close.
 */
class StreamingAeadTest {
    private static final long SEED = new Random().nextLong();
    private static final String[] TINK_HASH = {"HmacSha1", "HmacSha256", "HmacSha512"};
    private static final StreamingAead.HkdfHash[] HASH = StreamingAead.HkdfHash.values();

    // ---------------------------------------------------------------------------------------------
    // Helpers

    /** Writes pt into s in random pieces, then closes it. */
    private static void writeChunked(OutputStream s, byte[] pt, SplittableRandom r) throws IOException {
        int at = 0;
        while (at < pt.length) {
            int k = Math.min(pt.length - at, r.nextInt(3) == 0 ? 1 + r.nextInt(16) : 1 + r.nextInt(70000));
            if (k == 1 && r.nextBoolean()) {
                s.write(pt[at]);
            } else {
                s.write(pt, at, k);
            }
            at += k;
        }
        s.close();
    }

    /** Reads s to its end in random pieces. */
    private static byte[] readChunked(InputStream s, SplittableRandom r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[70000];
        for (;;) {
            int want = r.nextInt(3) == 0 ? 1 + r.nextInt(16) : 1 + r.nextInt(buf.length);
            int n = s.read(buf, 0, want);
            if (n < 0) {
                return out.toByteArray();
            }
            out.write(buf, 0, n);
        }
    }

    private static byte[] libEncrypt(StreamingAead sa, byte[] pt, byte[] ad, SplittableRandom r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeChunked(sa.newEncryptingStream(out, ad), pt, r);
        return out.toByteArray();
    }

    private static byte[] libDecrypt(StreamingAead sa, byte[] ct, byte[] ad, SplittableRandom r) throws IOException {
        try (InputStream in = sa.newDecryptingStream(new ByteArrayInputStream(ct), ad)) {
            return readChunked(in, r);
        }
    }

    private static byte[] tinkEncrypt(AesGcmHkdfStreaming t, byte[] pt, byte[] ad, SplittableRandom r)
            throws IOException, GeneralSecurityException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeChunked(t.newEncryptingStream(out, ad), pt, r);
        return out.toByteArray();
    }

    private static byte[] tinkDecrypt(AesGcmHkdfStreaming t, byte[] ct, byte[] ad, SplittableRandom r)
            throws IOException, GeneralSecurityException {
        try (InputStream in = t.newDecryptingStream(new ByteArrayInputStream(ct), ad)) {
            return readChunked(in, r);
        }
    }

    /** The IOException of a refused ciphertext must be the authentication failure. */
    private static void assertAuthFailure(IOException e) {
        assertInstanceOf(AEADBadTagException.class, e.getCause(), () -> "not an authentication failure: " + e);
    }

    /** A read-only in-memory SeekableByteChannel. */
    static final class Bytes implements SeekableByteChannel {
        private final byte[] b;
        private long pos;
        private boolean open = true;

        Bytes(byte[] b) {
            this.b = b;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            if (pos >= b.length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), b.length - pos);
            dst.put(b, (int) pos, n);
            pos += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() {
            return pos;
        }

        @Override
        public SeekableByteChannel position(long p) {
            pos = p;
            return this;
        }

        @Override
        public long size() {
            return b.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    private static final List<String> zeroReads = java.util.Collections.synchronizedList(new ArrayList<>());

    /** len bytes (fewer at the end) of ch from position p, or null when the first read says -1. */
    private static byte[] readRange(SeekableByteChannel ch, long p, int len) throws IOException {
        ch.position(p);
        ByteBuffer buf = ByteBuffer.allocate(len);
        while (buf.hasRemaining()) {
            int n = ch.read(buf);
            if (n < 0) {
                if (buf.position() == 0) {
                    return null;
                }
                break;
            }
            if (n == 0) {
                zeroReads.add(ch.getClass().getSimpleName() + " at " + ch.position());
                break; // a channel may read nothing; the caller compares what both gave
            }
        }
        return Arrays.copyOf(buf.array(), buf.position());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A random Tink configuration: both sides' objects, its plaintext segment sizes. */
    private record Config(StreamingAead lib, AesGcmHkdfStreaming tink, String text, int offset, int firstPt,
                          int pt) {
        static Config random(SplittableRandom r) throws GeneralSecurityException {
            int h = r.nextInt(3);
            int keySize = r.nextBoolean() ? 16 : 32;
            byte[] ikm = TestSupport.randomBytes(Math.max(keySize, 16) + r.nextInt(17));
            int offset = r.nextInt(4) == 0 ? r.nextInt(40) : 0;
            int header = 8 + keySize;
            int[] sizes = {offset + header + 17 + r.nextInt(64), 256 + r.nextInt(4096), 4096, 65536, 1 << 20};
            int seg = sizes[r.nextInt(sizes.length)];
            StreamingAead lib = StreamingAead.aesGcmHkdf(ikm, HASH[h], keySize, seg, offset);
            AesGcmHkdfStreaming tink = new AesGcmHkdfStreaming(ikm, TINK_HASH[h], keySize, seg, offset);
            return new Config(lib, tink, TINK_HASH[h] + " AES-" + keySize * 8 + " segment " + seg + " offset " + offset,
                    offset, seg - header - offset - 16, seg - 16);
        }

        /** A random plaintext length: 0, a segment boundary +-1, a few segments, or several MiB. */
        int length(SplittableRandom r) {
            int k = r.nextInt(4);
            int boundary = firstPt + k * pt;
            return switch (r.nextInt(8)) {
                case 0 -> 0;
                case 1, 2, 3 -> Math.max(0, boundary - 1 + r.nextInt(3));
                case 4 -> (3 << 20) + r.nextInt(1 << 20);
                default -> r.nextInt(firstPt + 5 * pt + 1);
            };
        }
    }

    // ---------------------------------------------------------------------------------------------
    // RFC 8188

    @Test
    void rfc8188SectionThreeExamples() throws IOException {
        String[][] ex = {
            {"yqdlZ-tYemfogSmv7Ws5PQ", "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg", "4096"},
            {"BO3ZVPxUlnLORbVGMpbT1Q",
             "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA", "25"},
        };
        Base64.Decoder d = Base64.getUrlDecoder();
        SplittableRandom r = new SplittableRandom(SEED);
        for (String[] e : ex) {
            byte[] ikm = d.decode(e[0]), body = d.decode(e[1]);
            byte[] pt = libDecrypt(StreamingAead.rfc8188(ikm), body, null, r);
            assertEquals("I am the walrus", new String(pt, StandardCharsets.UTF_8));
            // a reader whose bound is below the record size refuses the header; another key refuses the body
            int rs = Integer.parseInt(e[2]);
            IOException tooLong = assertThrows(IOException.class,
                    () -> libDecrypt(StreamingAead.rfc8188(ikm, 4096, null, rs - 1), body, null, r));
            assertInstanceOf(IllegalArgumentException.class, tooLong.getCause());
            byte[] other = ikm.clone();
            other[0] ^= 1;
            assertAuthFailure(assertThrows(IOException.class,
                    () -> libDecrypt(StreamingAead.rfc8188(other), body, null, r)));
            // the last byte gone, or one byte more: refused
            assertAuthFailure(assertThrows(IOException.class,
                    () -> libDecrypt(StreamingAead.rfc8188(ikm), Arrays.copyOf(body, body.length - 1), null, r)));
            assertAuthFailure(assertThrows(IOException.class,
                    () -> libDecrypt(StreamingAead.rfc8188(ikm), Arrays.copyOf(body, body.length + 1), null, r)));
        }
    }

    /**
     * RFC 8188's final padding: the body's layout (records of rs bytes; the last one holds the last data, its
     * delimiter, the padding and the tag, or, when they do not fit in rs, the padding alone after a record of
     * the data), its plaintext through our reader, and the last record opened by the JDK's AES-GCM under
     * RFC 8188's key schedule written here (HMAC-SHA256): the last data, the delimiter 2, then only zeros.
     * A padding that no record holds is refused.
     */
    @Test
    void rfc8188FinalPadding() throws Exception {
        SplittableRandom r = new SplittableRandom(SEED ^ 3);
        byte[] ikm = TestSupport.randomBytes(16), keyId = "k-2".getBytes(StandardCharsets.US_ASCII);
        int header = 21 + keyId.length, ownRecord = 0, besideData = 0;
        for (int round = 0; round < 60; round++) {
            int rs = 18 + r.nextInt(300), room = rs - 17;
            int pad = switch (round % 4) {
                case 0 -> room;
                case 1 -> 1 + r.nextInt(room);
                default -> r.nextInt(room + 1);
            };
            int n = switch (r.nextInt(4)) {
                case 0 -> r.nextInt(2); // empty, or one byte
                case 1 -> room * (1 + r.nextInt(3)) - r.nextInt(2) * Math.min(pad, room - 1); // fits or not
                default -> r.nextInt(5 * room + 1);
            };
            byte[] pt = TestSupport.randomBytes(n);
            StreamingAead sa = StreamingAead.rfc8188(ikm, rs, keyId, StreamingAead.MAX_SEGMENT_SIZE, pad);
            byte[] body = libEncrypt(sa, pt, null, r);
            int before = n == 0 ? 0 : (n - 1) / room; // records of data that are not the last data
            int tail = n - before * room;
            boolean apart = tail + pad > room;
            int lastRecord = (apart ? 0 : tail) + 17 + pad;
            String what = "rs " + rs + ", " + n + " bytes, padding " + pad + " (seed " + SEED + ")";
            assertEquals(header + (before + (apart ? 1 : 0)) * (long) rs + lastRecord, body.length, "length: " + what);
            assertArrayEquals(pt, libDecrypt(sa, body, null, r), "plaintext: " + what);
            assertArrayEquals(pt, libDecrypt(StreamingAead.rfc8188(ikm), body, null, r), "any reader: " + what);
            byte[] last = openRecord(ikm, body, before + (apart ? 1 : 0), body.length - lastRecord, lastRecord);
            byte[] expected = new byte[lastRecord - 16];
            if (!apart) {
                System.arraycopy(pt, n - tail, expected, 0, tail);
            }
            expected[apart ? 0 : tail] = 2;
            assertArrayEquals(expected, last, "the last record: " + what);
            ownRecord += apart ? 1 : 0;
            besideData += !apart && tail > 0 && pad > 0 ? 1 : 0;
        }
        assertTrue(ownRecord > 0 && besideData > 0, "padding in a record of its own, and beside data");
        // the padding must fit a record: rs - 17 is the most (no data then), more is refused, as is less than 0
        StreamingAead most = StreamingAead.rfc8188(ikm, 100, null, 4096, 83);
        assertEquals(21 + 100, libEncrypt(most, new byte[0], null, r).length);
        assertThrows(IllegalArgumentException.class, () -> StreamingAead.rfc8188(ikm, 100, null, 4096, 84));
        assertThrows(IllegalArgumentException.class, () -> StreamingAead.rfc8188(ikm, 100, null, 4096, -1));
        System.out.println("RFC 8188 final padding: 60 bodies (" + ownRecord + " with the padding in a record of "
                + "its own), each the expected length, read back, the last record checked with the JDK's AES-GCM");
    }

    /** Record seq of an RFC 8188 body (at offset at, len bytes), opened by the JDK under RFC 8188's keys. */
    private static byte[] openRecord(byte[] ikm, byte[] body, int seq, int at, int len) throws GeneralSecurityException {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(Arrays.copyOf(body, 16), "HmacSHA256"));
        byte[] prk = mac.doFinal(ikm);
        mac.init(new javax.crypto.spec.SecretKeySpec(prk, "HmacSHA256"));
        byte[] cek = Arrays.copyOf(mac.doFinal("Content-Encoding: aes128gcm\0\1".getBytes(StandardCharsets.US_ASCII)), 16);
        byte[] nonce = Arrays.copyOf(mac.doFinal("Content-Encoding: nonce\0\1".getBytes(StandardCharsets.US_ASCII)), 12);
        for (int i = 0; i < 8; i++) {
            nonce[11 - i] ^= (byte) ((long) seq >>> (8 * i));
        }
        javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        c.init(javax.crypto.Cipher.DECRYPT_MODE, new javax.crypto.spec.SecretKeySpec(cek, "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, nonce));
        return c.doFinal(body, at, len);
    }

    // ---------------------------------------------------------------------------------------------
    // Tink, both directions and seekable

    @Test
    void tinkDifferential() throws Exception {
        SplittableRandom r = new SplittableRandom(SEED);
        final int files = 200;
        int toTink = 0, fromTink = 0, ranges = 0, empty = 0, big = 0, boundary = 0;
        boolean[][] covered = new boolean[3][2];
        for (int i = 0; i < 2 * files; i++) {
            Config c = Config.random(r);
            covered[Arrays.asList(TINK_HASH).indexOf(c.text.split(" ")[0])][c.text.contains("AES-128") ? 0 : 1] = true;
            int n = c.length(r);
            empty += n == 0 ? 1 : 0;
            big += n >= 3 << 20 ? 1 : 0;
            boundary += n - c.firstPt >= -1 && Math.floorMod(n - c.firstPt + 1, c.pt) <= 2 ? 1 : 0;
            byte[] pt = TestSupport.randomBytes(n);
            byte[] ad = r.nextInt(5) == 0 ? new byte[0] : TestSupport.randomBytes(r.nextInt(100));
            byte[] ct;
            String where = "seed " + SEED + " file " + i + " (" + c.text + ", " + n + " bytes, ad " + ad.length + ")";
            if (i % 2 == 0) {
                ct = libEncrypt(c.lib, pt, ad, r);
                assertArrayEquals(pt, tinkDecrypt(c.tink, ct, ad, r), "libaead -> Tink: " + where);
                assertArrayEquals(pt, libDecrypt(c.lib, ct, ad, r), "libaead -> libaead: " + where);
                toTink++;
            } else {
                ct = tinkEncrypt(c.tink, pt, ad, r);
                assertArrayEquals(pt, libDecrypt(c.lib, ct, ad, r), "Tink -> libaead: " + where);
                fromTink++;
            }
            int segs = n <= c.firstPt ? 1 : 1 + (n - c.firstPt + c.pt - 1) / c.pt;
            assertEquals(c.pt - c.firstPt - c.offset + n + 16L * segs, ct.length, "ciphertext length: " + where);
            // Seekable: the channel holds the offset's bytes, then the ciphertext; random ranges against Tink's.
            byte[] chan = concat(TestSupport.randomBytes(c.offset), ct);
            try (SeekableByteChannel mine = c.lib.newSeekableDecryptingChannel(new Bytes(chan), ad);
                 SeekableByteChannel theirs = c.tink.newSeekableDecryptingChannel(new Bytes(chan), ad)) {
                assertEquals(theirs.size(), mine.size(), "size: " + where);
                assertEquals(n, mine.size(), "size: " + where);
                for (int k = 0; k < 6; k++) {
                    long p = r.nextInt(n + 3);
                    int len = k == 0 ? n + 1 : 1 + r.nextInt(Math.min(n + 2, 3 * c.pt));
                    byte[] a = readRange(mine, p, len), b = readRange(theirs, p, len);
                    // Tink's channel may read 0 bytes (not -1) at or past the end: both mean no data there
                    assertArrayEquals(b == null ? new byte[0] : b, a == null ? new byte[0] : a,
                            "range " + p + "+" + len + ": " + where);
                    if (b != null && b.length == 0) {
                        assertTrue(p >= n, "Tink's channel read 0 bytes inside the plaintext: " + where);
                    }
                    if (p >= n) {
                        assertEquals(null, a, "-1 at and past the end: " + where);
                    } else {
                        assertArrayEquals(Arrays.copyOfRange(pt, (int) p, (int) Math.min(n, p + len)), a, where);
                    }
                    ranges++;
                }
            }
        }
        for (boolean[] h : covered) {
            assertTrue(h[0] && h[1], "every hash with both key sizes");
        }
        assertTrue(empty > 0 && big > 0 && boundary > 0, "empty, several-MiB and boundary files");
        assertTrue(toTink >= files && fromTink >= files);
        assertTrue(zeroReads.stream().noneMatch(z -> z.startsWith("Seekable")), "our channel read 0 bytes: " + zeroReads);
        System.out.println("differential StreamingAead vs Tink AesGcmHkdfStreaming 1.15.0: libaead -> Tink " + toTink
                + " files, Tink -> libaead " + fromTink + " files (" + empty + " empty, " + boundary
                + " at a segment boundary +-1, " + big + " of 3-4 MiB), seekable " + ranges
                + " ranges against Tink's channel (" + zeroReads.size() + " reads of 0 bytes by Tink's past the end), "
                + "0 disagreements (seed " + SEED + ")");
    }

    // ---------------------------------------------------------------------------------------------
    // Hostile ciphertexts, refused by both

    /** Segment boundaries of a Tink ciphertext (stream, without the offset): [start, end) of each. */
    private static List<int[]> segments(Config c, int ctLength, int header) {
        List<int[]> s = new ArrayList<>();
        int at = header, size = c.firstPt + 16;
        while (at < ctLength) {
            int end = Math.min(ctLength, at + size);
            s.add(new int[] {at, end});
            at = end;
            size = c.pt + 16;
        }
        return s;
    }

    @Test
    void tinkHostileRefusedByBoth() throws Exception {
        SplittableRandom r = new SplittableRandom(SEED ^ 1);
        int cases = 0;
        for (int round = 0; round < 12; round++) {
            int h = round % 3, keySize = round % 2 == 0 ? 16 : 32, seg = 256 + r.nextInt(512);
            byte[] ikm = TestSupport.randomBytes(32);
            Config c = new Config(StreamingAead.aesGcmHkdf(ikm, HASH[h], keySize, seg, 0),
                    new AesGcmHkdfStreaming(ikm, TINK_HASH[h], keySize, seg, 0), TINK_HASH[h], 0,
                    seg - 8 - keySize - 16, seg - 16);
            byte[] ad = TestSupport.randomBytes(r.nextInt(20));
            byte[] pt = TestSupport.randomBytes(c.firstPt + 3 * c.pt + 1 + r.nextInt(c.pt - 1)); // 5 segments
            byte[] ct = round % 2 == 0 ? libEncrypt(c.lib, pt, ad, r) : tinkEncrypt(c.tink, pt, ad, r);
            int header = 8 + keySize;
            List<int[]> segs = segments(c, ct.length, header);
            assertEquals(5, segs.size());
            List<UnaryOperator<byte[]>> hostile = new ArrayList<>();
            List<String> names = new ArrayList<>();
            // truncated: at each segment boundary, inside the last segment, inside the header, empty
            for (int k = 1; k < segs.size(); k++) {
                int cut = segs.get(k)[0];
                hostile.add(b -> Arrays.copyOf(b, cut));
                names.add("truncated after segment " + (k - 1));
            }
            hostile.add(b -> Arrays.copyOf(b, b.length - 1));
            names.add("last byte gone");
            hostile.add(b -> Arrays.copyOf(b, header - 1));
            names.add("truncated in the header");
            hostile.add(b -> new byte[0]);
            names.add("empty");
            // reordered: two full segments swapped; a segment repeated in place of the next
            hostile.add(b -> swap(b, segs.get(1), segs.get(2)));
            names.add("segments 1 and 2 swapped");
            hostile.add(b -> {
                byte[] x = b.clone();
                System.arraycopy(b, segs.get(1)[0], x, segs.get(2)[0], segs.get(1)[1] - segs.get(1)[0]);
                return x;
            });
            names.add("segment 1 repeated as 2");
            // extended after the final segment: one byte, a copy of the last segment, a full segment
            hostile.add(b -> concat(b, new byte[] {0}));
            names.add("one byte after the end");
            hostile.add(b -> concat(b, Arrays.copyOfRange(b, segs.get(4)[0], segs.get(4)[1])));
            names.add("last segment repeated after the end");
            hostile.add(b -> concat(b, Arrays.copyOfRange(b, segs.get(2)[0], segs.get(2)[1])));
            names.add("a full segment after the end");
            // altered: one bit in the header, in each segment's ciphertext, in each tag
            for (int k = -1; k < segs.size(); k++) {
                int at = k < 0 ? 1 + r.nextInt(header - 1) : segs.get(k)[0] + r.nextInt(segs.get(k)[1] - segs.get(k)[0]);
                int bit = r.nextInt(8);
                hostile.add(b -> {
                    byte[] x = b.clone();
                    x[at] ^= (byte) (1 << bit);
                    return x;
                });
                names.add("bit " + bit + " of byte " + at + (k < 0 ? " (header)" : " (segment " + k + ")"));
            }
            hostile.add(b -> {
                byte[] x = b.clone();
                x[0] ^= 1;
                return x;
            });
            names.add("header length byte");
            for (int k = 0; k < hostile.size(); k++) {
                byte[] bad = hostile.get(k).apply(ct);
                String what = names.get(k) + " (round " + round + ", seed " + SEED + ")";
                IOException mine = assertThrows(IOException.class, () -> libDecrypt(c.lib, bad, ad, r), "libaead: " + what);
                assertAuthFailure(mine);
                assertThrows(IOException.class, () -> tinkDecrypt(c.tink, bad, ad, r), "Tink: " + what);
                // seekable, read to the end: refused by both too (a header not the format's already at creation)
                assertThrows(IOException.class, () -> readSeekable(c.lib.newSeekableDecryptingChannel(new Bytes(bad), ad)),
                        "libaead seekable: " + what);
                assertThrows(IOException.class, () -> readSeekable(c.tink.newSeekableDecryptingChannel(new Bytes(bad), ad)),
                        "Tink seekable: " + what);
                cases++;
            }
            // and the untouched ciphertext under other associated data
            byte[] otherAd = concat(ad, new byte[] {1});
            assertAuthFailure(assertThrows(IOException.class, () -> libDecrypt(c.lib, ct, otherAd, r)));
            assertThrows(IOException.class, () -> tinkDecrypt(c.tink, ct, otherAd, r));
            cases++;
        }
        System.out.println("hostile StreamingAead (Tink format): " + cases
                + " truncated / reordered / extended / altered ciphertexts, each refused by libaead "
                + "(AEADBadTagException) and by Tink, streams and seekable channels");
    }

    private static byte[] readSeekable(SeekableByteChannel ch) throws IOException {
        try (ch) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(1000);
            while (ch.read(buf.clear()) >= 0) {
                out.write(buf.array(), 0, buf.position());
            }
            return out.toByteArray();
        }
    }

    private static byte[] swap(byte[] b, int[] s1, int[] s2) {
        assertEquals(s1[1] - s1[0], s2[1] - s2[0]);
        byte[] x = b.clone();
        System.arraycopy(b, s1[0], x, s2[0], s1[1] - s1[0]);
        System.arraycopy(b, s2[0], x, s1[0], s2[1] - s2[0]);
        return x;
    }

    // ---------------------------------------------------------------------------------------------
    // age and RFC 8188: round trips at the boundaries, and the same refusals

    @Test
    void ageAndRfc8188RoundTripsAndRefusals() throws Exception {
        SplittableRandom r = new SplittableRandom(SEED ^ 2);
        int chunk = 65536, rs = 18 + r.nextInt(300), recordPt = rs - 17;
        StreamingAead age = StreamingAead.age(TestSupport.randomBytes(16));
        StreamingAead web = StreamingAead.rfc8188(TestSupport.randomBytes(16), rs,
                "key-1".getBytes(StandardCharsets.US_ASCII), StreamingAead.MAX_SEGMENT_SIZE);
        int[] ageSizes = {0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk, 2 * chunk + 1, (3 << 20) + 5};
        int[] webSizes = {0, 1, recordPt - 1, recordPt, recordPt + 1, 3 * recordPt, 3 * recordPt + 1, 100_000};
        for (int k = 0; k < ageSizes.length; k++) {
            byte[] pt = TestSupport.randomBytes(ageSizes[k]);
            byte[] ct = libEncrypt(age, pt, null, r);
            // age: 16-byte nonce, full chunks, a last chunk that is not empty unless the payload is
            int chunks = Math.max(1, (pt.length + chunk - 1) / chunk);
            assertEquals(16 + pt.length + 16L * chunks, ct.length, "age size for " + pt.length);
            assertArrayEquals(pt, libDecrypt(age, ct, null, r));
            assertArrayEquals(pt, readSeekable(age.newSeekableDecryptingChannel(new Bytes(ct), null)));
            refusals(age, ct, 16, chunk + 16, r);

            byte[] wpt = TestSupport.randomBytes(webSizes[k]);
            byte[] wct = libEncrypt(web, wpt, null, r);
            int records = Math.max(1, (wpt.length + recordPt - 1) / recordPt);
            assertEquals(21 + 5 + wpt.length + 17L * records, wct.length, "RFC 8188 size for " + wpt.length);
            assertArrayEquals(wpt, libDecrypt(web, wct, null, r));
            refusals(web, wct, 26, rs, r);
        }
        assertThrows(UnsupportedOperationException.class,
                () -> web.newSeekableDecryptingChannel(new Bytes(new byte[0]), null));
        assertThrows(IllegalArgumentException.class, () -> age.newDecryptingStream(InputStream.nullInputStream(), new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> StreamingAead.age(new byte[32]));
        assertThrows(IllegalArgumentException.class, () -> StreamingAead.rfc8188(new byte[16], 17, null, 4096));
        assertThrows(IllegalArgumentException.class,
                () -> StreamingAead.aesGcmHkdf(new byte[16], StreamingAead.HkdfHash.SHA256, 32, 4096, 0));
        assertThrows(IllegalArgumentException.class,
                () -> StreamingAead.aesGcmHkdf(new byte[32], StreamingAead.HkdfHash.SHA256, 24, 4096, 0));
    }

    /**
     * Truncations (at segment boundaries and by one byte), an extension, a bit flip: each refused. Every
     * boundary when there are at most 32; else the first and last eight and sixteen drawn between them, so
     * that RFC 8188's smallest record size (one byte a record: 100,000 boundaries) stays bounded in time and
     * memory. Each truncation is made when it is checked, not kept.
     */
    private static void refusals(StreamingAead sa, byte[] ct, int header, int seg, SplittableRandom r) {
        int boundaries = (ct.length - header - 1) / seg;  // header + i * seg < ct.length, i >= 1
        List<Integer> cuts = new ArrayList<>();
        for (int i = 1; i <= boundaries; i++) {
            if (boundaries <= 32 || i <= 8 || i > boundaries - 8) {
                cuts.add(header + i * seg);
            }
        }
        for (int k = 0; boundaries > 32 && k < 16; k++) {
            cuts.add(header + (9 + r.nextInt(boundaries - 16)) * seg);
        }
        cuts.add(ct.length - 1);
        cuts.add(header);
        byte[] flip = ct.clone();
        flip[header + r.nextInt(ct.length - header)] ^= 1;
        List<UnaryOperator<byte[]>> bad = new ArrayList<>();
        for (int at : cuts) {
            bad.add(c -> Arrays.copyOf(c, at));
        }
        bad.add(c -> concat(c, new byte[] {1}));
        bad.add(c -> flip);
        for (UnaryOperator<byte[]> make : bad) {
            byte[] b = make.apply(ct);
            assertAuthFailure(assertThrows(IOException.class, () -> libDecrypt(sa, b, null, r),
                    "refused: " + b.length + " of " + ct.length + " bytes"));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Threads, and use after close

    @Test
    void twoThreadsOnSeparateStreams() throws Exception {
        AesGcmHkdfStreaming tink = new AesGcmHkdfStreaming(KEY_FOR_THREADS, "HmacSha256", 32, 4096, 0);
        StreamingAead same = StreamingAead.aesGcmHkdf(KEY_FOR_THREADS, StreamingAead.HkdfHash.SHA256, 32, 4096, 0);
        CyclicBarrier start = new CyclicBarrier(2);
        AtomicReference<Throwable> error = new AtomicReference<>();
        byte[][] pts = new byte[2][], cts = new byte[2][];
        Thread[] ts = new Thread[2];
        for (int t = 0; t < 2; t++) {
            final int id = t;
            pts[t] = TestSupport.randomBytes(2_000_000 + t * 12345);
            ts[t] = new Thread(() -> {
                try {
                    SplittableRandom r = new SplittableRandom(SEED + id);
                    start.await();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    OutputStream s = same.newEncryptingStream(out, new byte[] {(byte) id});
                    for (int at = 0; at < pts[id].length; ) {
                        int k = Math.min(pts[id].length - at, 1 + r.nextInt(5000));
                        s.write(pts[id], at, k);
                        at += k;
                        Thread.yield();
                    }
                    s.close();
                    cts[id] = out.toByteArray();
                } catch (Throwable e) {
                    error.compareAndSet(null, e);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (error.get() != null) {
            fail("a writer thread failed", error.get());
        }
        SplittableRandom r = new SplittableRandom(SEED);
        for (int t = 0; t < 2; t++) {
            assertArrayEquals(pts[t], tinkDecrypt(tink, cts[t], new byte[] {(byte) t}, r));
            assertArrayEquals(pts[t], libDecrypt(same, cts[t], new byte[] {(byte) t}, r));
        }
        System.out.println("threads StreamingAead: 2 threads wrote 2 streams at once on one object; both open (Tink and libaead)");
    }

    private static final byte[] KEY_FOR_THREADS = TestSupport.randomBytes(32);

    @Test
    void useAfterClose() throws Exception {
        StreamingAead sa = StreamingAead.aesGcmHkdf(TestSupport.randomBytes(16), StreamingAead.HkdfHash.SHA1, 16, 256, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OutputStream w = sa.newEncryptingStream(out, null);
        w.write(new byte[1000]);
        w.close();
        w.close(); // a second close does nothing
        int length = out.size();
        assertThrows(IOException.class, () -> w.write(1));
        assertThrows(IOException.class, () -> w.write(new byte[10]));
        assertThrows(IOException.class, w::flush);
        assertEquals(length, out.size(), "nothing written after close");

        InputStream in = sa.newDecryptingStream(new ByteArrayInputStream(out.toByteArray()), null);
        assertEquals(0, in.read());
        in.close();
        assertThrows(IOException.class, in::read);
        assertThrows(IOException.class, () -> in.read(new byte[5]));

        SeekableByteChannel ch = sa.newSeekableDecryptingChannel(new Bytes(out.toByteArray()), null);
        assertEquals(1000, ch.size());
        ch.close();
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(5)));
        assertThrows(ClosedChannelException.class, ch::size);
        assertThrows(NonWritableChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));

        // a failure is sticky: every later read throws it again, never -1
        byte[] cut = Arrays.copyOf(out.toByteArray(), out.size() - 1);
        InputStream bad = sa.newDecryptingStream(new ByteArrayInputStream(cut), null);
        byte[] all = new byte[2000];
        int got = 0;
        IOException first = null;
        try {
            for (int n; (n = bad.read(all, got, all.length - got)) >= 0; ) {
                got += n;
            }
        } catch (IOException e) {
            first = e;
        }
        assertAuthFailure(first);
        assertAuthFailure(assertThrows(IOException.class, bad::read));
    }
}
