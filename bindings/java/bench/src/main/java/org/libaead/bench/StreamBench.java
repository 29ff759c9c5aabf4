package org.libaead.bench;

import com.google.crypto.tink.subtle.AesGcmHkdfStreaming;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.libaead.AeadContext;
import org.libaead.StreamingAead;

/**
 * Streaming AEAD throughput: libaead's {@link StreamingAead#aesGcmHkdf} against Tink Java's raw
 * {@code AesGcmHkdfStreaming}, same parameters (Tink's templates AES128_GCM_HKDF_4KB and AES128_GCM_HKDF_1MB:
 * a 16-byte key, HKDF-SHA256, AES-128-GCM, 4096-byte or 1 MiB ciphertext segments), in one JVM. Encryption
 * writes the stream through the encrypting OutputStream in 64 KiB writes (the same 64 KiB array over and
 * over) into a sink that drops the bytes; decryption reads the plaintext through the decrypting InputStream
 * into a 64 KiB array, from a ByteArrayInputStream over one ciphertext (Tink's; both sides read the same
 * bytes). Rounds alternate libaead and Tink; the first round is a warm-up and is not counted; the table shows
 * the medians in MB/s (10^6 bytes of plaintext per second) and libaead/Tink. Before the timing each side
 * decrypts the other's ciphertext and every plaintext byte is compared.
 *
 * <p>Memory: the heap in use (after a full GC) while a stream is open, just before its last write or read,
 * less the heap in use before the stream was made, for a 1 MiB stream and a stream of the bench's length;
 * a stream holds a segment or two whatever its length, so the two should be close. G1 gives an array of
 * half a region or more whole regions, so a 1 MiB array shows as 2 MiB. libaead's stream holds its segment
 * buffer in native memory for segments above 32 KiB (allocated once per stream), which the heap does not show.
 *
 * <p>Run: {@code bash bindings/java/bench.sh stream [MiB] [--rounds N] [--json FILE]} (256 MiB and 7 rounds
 * by default).
 */
public final class StreamBench {
    private static final int BUF = 64 * 1024;

    private record Template(String name, int segment) {}

    private static final Template[] TEMPLATES = {
        new Template("AES128_GCM_HKDF_4KB", 4096), new Template("AES128_GCM_HKDF_1MB", 1 << 20),
    };

    /** One side: the same stream API for both libraries. */
    private interface Side {
        OutputStream encrypting(OutputStream out) throws IOException, GeneralSecurityException;

        InputStream decrypting(InputStream in) throws IOException, GeneralSecurityException;
    }

    private record Sides(Side lib, Side tink) {}

    private static Sides sides(byte[] key, int segment) throws GeneralSecurityException {
        byte[] ad = "libaead stream bench".getBytes(StandardCharsets.US_ASCII);
        StreamingAead lib = StreamingAead.aesGcmHkdf(key, StreamingAead.HkdfHash.SHA256, 16, segment, 0);
        AesGcmHkdfStreaming tink = new AesGcmHkdfStreaming(key, "HmacSha256", 16, segment, 0);
        return new Sides(new Side() {
            public OutputStream encrypting(OutputStream out) throws IOException {
                return lib.newEncryptingStream(out, ad);
            }

            public InputStream decrypting(InputStream in) {
                return lib.newDecryptingStream(in, ad);
            }
        }, new Side() {
            public OutputStream encrypting(OutputStream out) throws IOException, GeneralSecurityException {
                return tink.newEncryptingStream(out, ad);
            }

            public InputStream decrypting(InputStream in) throws IOException, GeneralSecurityException {
                return tink.newDecryptingStream(in, ad);
            }
        });
    }

    /** Drops what it is given. */
    private static final class NullSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }

    /** Keeps what it is given, in an array of a known capacity (no copying as it grows). */
    private static final class ArraySink extends OutputStream {
        final byte[] data;
        int len;

        ArraySink(long capacity) {
            data = new byte[Math.toIntExact(capacity)];
        }

        @Override
        public void write(int b) {
            data[len++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int n) {
            System.arraycopy(b, off, data, len, n);
            len += n;
        }

        byte[] bytes() {
            return len == data.length ? data : Arrays.copyOf(data, len);
        }
    }

    /** Writes n bytes of the plaintext (buf repeated) through s's encrypting stream into out; closes it. */
    private static void encrypt(Side s, OutputStream out, byte[] buf, long n) throws Exception {
        try (OutputStream enc = s.encrypting(out)) {
            for (long left = n; left > 0; left -= BUF) {
                enc.write(buf, 0, (int) Math.min(BUF, left));
            }
        }
    }

    /** Reads the whole plaintext of ct through s's decrypting stream; returns its length. */
    private static long decrypt(Side s, byte[] ct, byte[] into) throws Exception {
        long total = 0;
        try (InputStream dec = s.decrypting(new ByteArrayInputStream(ct))) {
            for (int r; (r = dec.read(into, 0, BUF)) != -1; ) {
                total += r;
            }
        }
        return total;
    }

    /** Every byte of ct's plaintext against buf repeated n bytes long. */
    private static void check(Side s, byte[] ct, byte[] buf, long n, String what) throws Exception {
        byte[] into = new byte[BUF];
        long pos = 0;
        try (InputStream dec = s.decrypting(new ByteArrayInputStream(ct))) {
            for (int r; (r = dec.read(into, 0, BUF)) != -1; ) {
                for (int i = 0; i < r; i++, pos++) {
                    if (into[i] != buf[(int) (pos % BUF)]) {
                        throw new AssertionError(what + ": plaintext differs at byte " + pos);
                    }
                }
            }
        }
        if (pos != n) {
            throw new AssertionError(what + ": " + pos + " bytes of plaintext, expected " + n);
        }
    }

    private static byte[] ciphertext(Side s, byte[] buf, long n, long capacity) throws Exception {
        ArraySink sink = new ArraySink(capacity);
        encrypt(s, sink, buf, n);
        return sink.bytes();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double mbps(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private static long heapUsed() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** Heap held by an open encrypting stream just before its last write, in bytes (see the class comment). */
    private static long encryptHeap(Side s, byte[] buf, long n) throws Exception {
        long before = heapUsed();
        long held;
        NullSink sink = new NullSink();
        try (OutputStream enc = s.encrypting(sink)) {
            long left = n;
            for (; left > BUF; left -= BUF) {
                enc.write(buf, 0, BUF);
            }
            held = heapUsed() - before;
            enc.write(buf, 0, (int) left);
        }
        return held;
    }

    /** Heap held by an open decrypting stream just before its last read (ct itself was allocated before). */
    private static long decryptHeap(Side s, byte[] ct, long n) throws Exception {
        byte[] into = new byte[BUF];
        long before = heapUsed();
        long held = 0, total = 0;
        boolean measured = false;
        try (InputStream dec = s.decrypting(new ByteArrayInputStream(ct))) {
            for (int r; (r = dec.read(into, 0, BUF)) != -1; ) {
                total += r;
                if (!measured && n - total <= BUF) {
                    held = heapUsed() - before;
                    measured = true;
                }
            }
        }
        return held;
    }

    private record Row(String template, int segment, String direction, double lib, double tink) {}

    private record Mem(String template, String side, String direction, long smallBytes, long largeBytes) {}

    public static void main(String[] args) throws Exception {
        long mib = 256;
        int rounds = 7;
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--json" -> json = Path.of(args[++i]);
                default -> mib = Long.parseLong(args[i]);
            }
        }
        if (mib < 2 || rounds < 1) {
            throw new IllegalArgumentException("StreamBench [MiB >= 2] [--rounds N >= 1] [--json FILE]");
        }
        long n = mib << 20;
        SplittableRandom random = new SplittableRandom();
        byte[] key = new byte[16];
        byte[] buf = new byte[BUF];
        random.nextBytes(key);
        random.nextBytes(buf);
        byte[] into = new byte[BUF];
        String tinkVersion = tinkVersion();
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "%s; Tink %s; %s %s%n", AeadContext.libraryVersion(), tinkVersion,
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        out.printf(Locale.ROOT, "%d MiB per stream, %d KiB writes and reads, medians of %d interleaved rounds "
                + "(after one warm-up round)%n%n", mib, BUF / 1024, rounds);

        List<Row> rows = new ArrayList<>();
        List<Mem> mems = new ArrayList<>();
        for (Template t : TEMPLATES) {
            Sides sides = sides(key, t.segment);
            AesGcmHkdfStreaming sizer = new AesGcmHkdfStreaming(key, "HmacSha256", 16, t.segment, 0);
            long capacity = sizer.expectedCiphertextSize(n);
            // Both ciphertexts, each opened by the other side: the same format, and every byte checked.
            byte[] ctLib = ciphertext(sides.lib, buf, n, capacity);
            byte[] ctTink = ciphertext(sides.tink, buf, n, capacity);
            if (ctLib.length != capacity || ctTink.length != capacity) {
                throw new AssertionError(t.name + ": ciphertext lengths " + ctLib.length + ", " + ctTink.length
                        + ", expected " + capacity);
            }
            check(sides.lib, ctTink, buf, n, t.name + ": libaead opening Tink's ciphertext");
            check(sides.tink, ctLib, buf, n, t.name + ": Tink opening libaead's ciphertext");
            ctLib = null;

            double[][] enc = new double[2][rounds], dec = new double[2][rounds];
            for (int round = -1; round < rounds; round++) {
                for (int side = 0; side < 2; side++) {
                    Side s = side == 0 ? sides.lib : sides.tink;
                    long t0 = System.nanoTime();
                    encrypt(s, new NullSink(), buf, n);
                    long t1 = System.nanoTime();
                    if (round >= 0) {
                        enc[side][round] = mbps(n, t1 - t0);
                    }
                }
                for (int side = 0; side < 2; side++) {
                    Side s = side == 0 ? sides.lib : sides.tink;
                    long t0 = System.nanoTime();
                    long got = decrypt(s, ctTink, into);
                    long t1 = System.nanoTime();
                    if (got != n) {
                        throw new AssertionError(t.name + ": decrypted " + got + " bytes, expected " + n);
                    }
                    if (round >= 0) {
                        dec[side][round] = mbps(n, t1 - t0);
                    }
                }
            }
            rows.add(new Row(t.name, t.segment, "encrypt", median(enc[0]), median(enc[1])));
            rows.add(new Row(t.name, t.segment, "decrypt", median(dec[0]), median(dec[1])));

            // Memory: an open stream of 1 MiB and one of n bytes.
            long small = 1 << 20;
            byte[] ctSmall = ciphertext(sides.tink, buf, small, sizer.expectedCiphertextSize(small));
            for (int side = 0; side < 2; side++) {
                Side s = side == 0 ? sides.lib : sides.tink;
                String name = side == 0 ? "libaead" : "Tink";
                mems.add(new Mem(t.name, name, "encrypt", encryptHeap(s, buf, small), encryptHeap(s, buf, n)));
                mems.add(new Mem(t.name, name, "decrypt", decryptHeap(s, ctSmall, small), decryptHeap(s, ctTink, n)));
            }
        }

        out.println("| template | direction | libaead MB/s | Tink MB/s | libaead/Tink |");
        out.println("|---|---|---:|---:|---:|");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.2f |%n", r.template, r.direction, r.lib, r.tink,
                    r.lib / r.tink);
        }
        out.println();
        out.printf(Locale.ROOT, "Heap held by an open stream (after a full GC, just before its last write or read; "
                + "KiB; libaead's native segment buffer (segments above 32 KiB) not included):%n%n");
        out.printf(Locale.ROOT, "| template | side | direction | 1 MiB stream | %d MiB stream |%n", mib);
        out.println("|---|---|---|---:|---:|");
        for (Mem m : mems) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %d | %d |%n", m.template, m.side, m.direction,
                    m.smallBytes / 1024, m.largeBytes / 1024);
        }
        if (json != null) {
            Files.writeString(json, json(rows, mems, mib, rounds, tinkVersion));
        }
    }

    private static String tinkVersion() {
        // The Tink jar on the class path: tink-X.Y.Z.jar (Maven's name).
        for (String p : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            String f = Path.of(p).getFileName().toString();
            if (f.matches("tink-[0-9.]+\\.jar")) {
                return f.substring(5, f.length() - 4);
            }
        }
        return "unknown";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String json(List<Row> rows, List<Mem> mems, long mib, int rounds, String tinkVersion) {
        StringBuilder b = new StringBuilder();
        b.append("{\"library\": ").append(quote(AeadContext.libraryVersion()))
                .append(", \"tink\": ").append(quote(tinkVersion))
                .append(", \"java\": ").append(quote(System.getProperty("java.version")))
                .append(", \"mib\": ").append(mib).append(", \"rounds\": ").append(rounds)
                .append(", \"buffer\": ").append(BUF).append(", \"rows\": [");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                    "{\"template\": %s, \"segment\": %d, \"direction\": %s, \"libaead_mbps\": %.1f, "
                            + "\"tink_mbps\": %.1f, \"ratio\": %.3f}",
                    quote(r.template), r.segment, quote(r.direction), r.lib, r.tink, r.lib / r.tink));
        }
        b.append("], \"heap\": [");
        for (int i = 0; i < mems.size(); i++) {
            Mem m = mems.get(i);
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                    "{\"template\": %s, \"side\": %s, \"direction\": %s, \"bytes_1mib\": %d, \"bytes_full\": %d}",
                    quote(m.template), quote(m.side), quote(m.direction), m.smallBytes, m.largeBytes));
        }
        return b.append("]}\n").toString();
    }
}
