package org.libaead;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.AEADBadTagException;

/**
 * Streaming AEAD, shaped like Tink's {@code StreamingAead}: a long plaintext is cut into segments, each
 * sealed under a nonce built from its number and a last-segment flag, so that a ciphertext cannot be
 * truncated, reordered, or extended without the reader noticing (library 1.7). Three formats, each
 * byte-compatible with its peers:
 * <ul>
 *   <li>{@link #aesGcmHkdf}: Tink's AES-GCM-HKDF streaming ({@code AesGcmHkdfStreaming} of Java, Go, Python and
 *       C++ Tink, raw key);</li>
 *   <li>{@link #age}: the payload of an age file (its STREAM construction, under the 16-byte file key; the
 *       recipient stanzas and header MAC around it are the caller's);</li>
 *   <li>{@link #rfc8188}: the {@code aes128gcm} content coding of RFC 8188 (HTTP bodies, Web Push).</li>
 * </ul>
 * An object holds the key and parameters only; each {@link #newEncryptingStream}, {@link #newDecryptingStream}
 * and {@link #newSeekableDecryptingChannel} makes an independent stream, so one object serves any number of
 * threads. A stream itself is for one thread at a time (its methods are synchronized).
 *
 * <p>The encrypting stream writes the header at once, then a segment whenever the next one is full and
 * more data follows; {@code close()} writes the last segment (it carries data unless the whole stream is
 * empty) and closes the underlying stream. {@code flush()} flushes the underlying stream only: data of a
 * segment not yet full stays in memory until the segment fills or the stream is closed. A ciphertext is
 * only valid once its stream is closed.
 *
 * <p>The decrypting stream and channel return only authenticated plaintext. A ciphertext that was
 * truncated (even at a segment boundary), reordered, extended after its last segment or changed makes the
 * read that reaches it throw an {@link IOException} whose cause is an {@link AEADBadTagException}; so does a
 * header that is not one of the format's. The end of the stream ({@code -1}) is reported only after the last
 * segment opened as the last one.
 */
public final class StreamingAead {
    /** HKDF's hash in Tink's AES-GCM-HKDF streaming (Tink's {@code "HmacSha1"}, {@code "HmacSha256"},
     * {@code "HmacSha512"}). */
    public enum HkdfHash {
        SHA1(StreamNative.STREAM_SHA1), SHA256(StreamNative.STREAM_SHA256), SHA512(StreamNative.STREAM_SHA512);

        final int id;

        HkdfHash(int id) {
            this.id = id;
        }
    }

    /** The largest segment (Tink) or record (RFC 8188) size, in ciphertext bytes: 16 MiB. */
    public static final int MAX_SEGMENT_SIZE = StreamNative.STREAM_MAX_SEGMENT;
    /** The RFC 8188 record size a writer uses when none is given (and RFC 8188's own default). */
    public static final int RFC8188_DEFAULT_RECORD_SIZE = 4096;

    private final int format;
    private final byte[] key;
    private final int keySize;
    private final int hkdfHash;
    private final int segmentSize;
    private final int firstSegmentOffset;
    private final byte[] keyId;
    private final int maxRecordSize;
    private final int finalPadding;

    private StreamingAead(int format, byte[] key, int keySize, int hkdfHash, int segmentSize, int firstSegmentOffset,
                          byte[] keyId, int maxRecordSize, int finalPadding) {
        this.format = format;
        this.key = key.clone();
        this.keySize = keySize;
        this.hkdfHash = hkdfHash;
        this.segmentSize = segmentSize;
        this.firstSegmentOffset = firstSegmentOffset;
        this.keyId = keyId == null ? new byte[0] : keyId.clone();
        this.maxRecordSize = maxRecordSize;
        this.finalPadding = finalPadding;
        // The library checks the parameters: a writer made and dropped (a reader's bound too, for RFC 8188).
        try (Hpke.Scratch s = new Hpke.Scratch()) {
            MemorySegment header = s.arena.allocate(StreamNative.STREAM_MAX_HEADER);
            MemorySegment out = s.arena.allocate(ValueLayout.ADDRESS);
            MemorySegment hl = s.arena.allocate(ValueLayout.JAVA_LONG);
            int rc = (int) StreamNative.WRITER_NEW.invokeExact(out, params(s, null, true), header,
                    (long) StreamNative.STREAM_MAX_HEADER, hl);
            check(rc, "StreamingAead");
            StreamNative.free(out.get(ValueLayout.ADDRESS, 0));
            if (format == StreamNative.STREAM_RFC8188) {
                // a reader's parameters: checked now on an RFC 8188 header of rs 18 (nothing is opened)
                MemorySegment h = s.arena.allocate(21);
                h.set(ValueLayout.JAVA_BYTE, 19, (byte) 18);
                rc = (int) StreamNative.READER_NEW.invokeExact(out, params(s, null, false), h, 21L, hl);
                check(rc, "StreamingAead");
                StreamNative.free(out.get(ValueLayout.ADDRESS, 0));
            }
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    /**
     * Tink's AES-GCM-HKDF streaming, as {@code new AesGcmHkdfStreaming(ikm, hkdfAlg, keySizeInBytes,
     * ciphertextSegmentSize, firstSegmentOffset)}: each stream's AES key is HKDF(ikm, a random salt, the
     * associated data).
     *
     * @param ikm                   the main key, at least 16 bytes and at least keySizeInBytes
     * @param hkdfHash              HKDF's hash
     * @param keySizeInBytes        16 or 32 (AES-128-GCM or AES-256-GCM)
     * @param ciphertextSegmentSize ciphertext bytes of a full segment (e.g. 4096 or 1 MiB; at most
     *                              {@link #MAX_SEGMENT_SIZE}); the first segment is shorter by the header
     *                              ({@code 8 + keySizeInBytes} bytes) and firstSegmentOffset
     * @param firstSegmentOffset    bytes before the header in the ciphertext (usually 0): the encrypting and
     *                              decrypting streams start at the header (the caller writes and reads these
     *                              bytes), the seekable channel's ciphertext includes them
     * @throws IllegalArgumentException for parameters the format does not take
     */
    public static StreamingAead aesGcmHkdf(byte[] ikm, HkdfHash hkdfHash, int keySizeInBytes, int ciphertextSegmentSize,
                                           int firstSegmentOffset) {
        Objects.requireNonNull(ikm, "ikm");
        Objects.requireNonNull(hkdfHash, "hkdfHash");
        if (ciphertextSegmentSize <= 0 || firstSegmentOffset < 0) {
            throw new IllegalArgumentException("StreamingAead: the segment size must be positive, the offset not negative");
        }
        return new StreamingAead(StreamNative.STREAM_TINK_AES_GCM_HKDF, ikm, keySizeInBytes, hkdfHash.id,
                ciphertextSegmentSize, firstSegmentOffset, null, 0, 0);
    }

    /**
     * The payload of an age file (age-encryption.org/v1): ChaCha20-Poly1305 under HKDF-SHA256(fileKey,
     * 16-byte nonce, "payload") in 64 KiB chunks. The ciphertext is the 16-byte nonce and the chunks, what
     * follows an age header's MAC line. No associated data (pass null or an empty array).
     *
     * @param fileKey the 16-byte file key the recipient stanzas carry
     */
    public static StreamingAead age(byte[] fileKey) {
        Objects.requireNonNull(fileKey, "fileKey");
        return new StreamingAead(StreamNative.STREAM_AGE, fileKey, 0, 0, 0, 0, null, 0, 0);
    }

    /**
     * RFC 8188's {@code aes128gcm} content coding: the header (salt, record size, key id), then records of
     * recordSize ciphertext bytes, the last shorter. No associated data (pass null or an empty array).
     *
     * @param key           the input keying material, 1 to 255 bytes (16 for Web Push)
     * @param recordSize    the writer's record size ("rs"), 18 to {@link #MAX_SEGMENT_SIZE}
     * @param keyId         the writer's key id (at most 255 bytes; null for none)
     * @param maxRecordSize the largest record size the decrypting stream takes from a header (a larger one is
     *                      refused before anything is allocated), at most {@link #MAX_SEGMENT_SIZE}
     */
    public static StreamingAead rfc8188(byte[] key, int recordSize, byte[] keyId, int maxRecordSize) {
        return rfc8188(key, recordSize, keyId, maxRecordSize, 0);
    }

    /**
     * RFC 8188 as {@link #rfc8188(byte[], int, byte[], int)}, the writer padding its last record with
     * finalPadding zero bytes after the delimiter (RFC 8188 section 2), which hides the body's exact length.
     * When the padding does not fit beside the last data (data + 1 + finalPadding + 16 bytes above
     * recordSize), the data goes into a record of its own and the last record holds only the padding.
     * Readers strip the padding whatever this setting.
     *
     * @param finalPadding zero bytes in the last record, 0 to recordSize - 17
     * @throws IllegalArgumentException for a padding that no record of recordSize bytes holds
     */
    public static StreamingAead rfc8188(byte[] key, int recordSize, byte[] keyId, int maxRecordSize,
                                        int finalPadding) {
        Objects.requireNonNull(key, "key");
        if (recordSize <= 0 || maxRecordSize <= 0) {
            throw new IllegalArgumentException("StreamingAead: record sizes must be positive");
        }
        if (finalPadding < 0 || finalPadding > Math.max(0, recordSize - 17L)) { // a bad rs: the library's refusal
            throw new IllegalArgumentException("StreamingAead: the final padding must be 0 to recordSize - 17 ("
                    + (recordSize - 17L) + ")");
        }
        return new StreamingAead(StreamNative.STREAM_RFC8188, key, 0, 0, recordSize, 0, keyId, maxRecordSize,
                finalPadding);
    }

    /** RFC 8188 with records of {@link #RFC8188_DEFAULT_RECORD_SIZE} bytes, no key id, and readers that take
     * any record size up to {@link #MAX_SEGMENT_SIZE}. */
    public static StreamingAead rfc8188(byte[] key) {
        return rfc8188(key, RFC8188_DEFAULT_RECORD_SIZE, null, MAX_SEGMENT_SIZE);
    }

    /**
     * A stream that encrypts what is written to it into ciphertext, writing the header at once. Close it to
     * finish the ciphertext (the last segment); closing it closes ciphertext.
     *
     * @param associatedData Tink: bound to every segment (at most 1024 bytes; null is empty); age and
     *                       RFC 8188 take none
     */
    public OutputStream newEncryptingStream(OutputStream ciphertext, byte[] associatedData) throws IOException {
        Objects.requireNonNull(ciphertext, "ciphertext");
        return new Encrypting(this, ciphertext, associatedData);
    }

    /**
     * A stream of the plaintext of ciphertext (read from its header on; Tink: the bytes before the header
     * are the caller's). A read that meets a truncated, reordered, extended or altered ciphertext throws an
     * {@link IOException} caused by an {@link AEADBadTagException}; closing it closes ciphertext.
     */
    public InputStream newDecryptingStream(InputStream ciphertext, byte[] associatedData) {
        Objects.requireNonNull(ciphertext, "ciphertext");
        checkAssociatedData(associatedData);
        return new Decrypting(this, ciphertext, associatedData);
    }

    /**
     * Random access to the plaintext of the ciphertext in ciphertextSource (Tink: whose first
     * firstSegmentOffset bytes come before the header), as Tink's seekable channel: {@code size()} is the
     * plaintext's length (from the ciphertext's), {@code position(long)} moves, {@code read} opens the
     * segments it needs, each checked as the segment of its number and, for the one that ends the channel,
     * as the last. The channel is read-only; closing it closes ciphertextSource. Tink and age only: an
     * RFC 8188 record's plaintext length (padding) is known only once it is opened
     * ({@link UnsupportedOperationException}).
     *
     * @throws IOException caused by an {@link AEADBadTagException} when the header is not the format's
     */
    public SeekableByteChannel newSeekableDecryptingChannel(SeekableByteChannel ciphertextSource, byte[] associatedData)
            throws IOException {
        Objects.requireNonNull(ciphertextSource, "ciphertextSource");
        checkAssociatedData(associatedData);
        if (format == StreamNative.STREAM_RFC8188) {
            throw new UnsupportedOperationException("StreamingAead: RFC 8188 has no random access "
                    + "(a record's plaintext length is known only once opened)");
        }
        return new Seekable(this, ciphertextSource, associatedData);
    }

    private void checkAssociatedData(byte[] ad) {
        if (ad != null && ad.length > 0 && format != StreamNative.STREAM_TINK_AES_GCM_HKDF) {
            throw new IllegalArgumentException("StreamingAead: age and RFC 8188 take no associated data");
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The native side

    /** aead_stream_params for a writer or a reader, its key and associated data copied into s. */
    private MemorySegment params(Hpke.Scratch s, byte[] associatedData, boolean writer) {
        MemorySegment p = s.arena.allocate(StreamNative.PARAMS);
        p.set(ValueLayout.JAVA_LONG, 0, StreamNative.PARAMS.byteSize());
        p.set(ValueLayout.JAVA_INT, 8, format);
        p.set(ValueLayout.ADDRESS, 16, s.copy(key));
        p.set(ValueLayout.JAVA_LONG, 24, key.length);
        p.set(ValueLayout.JAVA_LONG, 32, keySize);
        p.set(ValueLayout.JAVA_INT, 40, hkdfHash);
        int seg = format == StreamNative.STREAM_RFC8188 ? (writer ? segmentSize : maxRecordSize) : segmentSize;
        p.set(ValueLayout.JAVA_INT, 44, seg);
        p.set(ValueLayout.JAVA_INT, 48, firstSegmentOffset);
        p.set(ValueLayout.ADDRESS, 56, s.copy(associatedData));
        p.set(ValueLayout.JAVA_LONG, 64, associatedData == null ? 0 : associatedData.length);
        byte[] id = writer ? keyId : null;
        p.set(ValueLayout.ADDRESS, 72, s.copy(id));
        p.set(ValueLayout.JAVA_LONG, 80, id == null ? 0 : id.length);
        return p;
    }

    private static void check(long rc, String who) {
        if (rc < 0) {
            throw Hpke.error(rc, who);
        }
    }

    /** The IOException of a failed open (or of a ciphertext that ends inside its header). */
    static IOException failure(long rc, String who) {
        if (rc == AeadException.AUTH) {
            return new IOException(who + ": the ciphertext does not authenticate (truncated, reordered, extended "
                    + "or altered)", new AEADBadTagException("libaead: authentication failed"));
        }
        return new IOException(who + ": " + Native.strerror(rc), Hpke.error(rc, who));
    }

    /**
     * One native stream and its buffers, in a shared arena freed by close() or, once unreachable, by the
     * Cleaner; the buffers are zeroed first.
     */
    private static final class Handle implements Runnable {
        final Arena arena = Arena.ofShared();
        MemorySegment stream = MemorySegment.NULL;
        private final java.util.List<MemorySegment> buffers = new java.util.ArrayList<>();

        void adopt(MemorySegment raw) {
            stream = raw.reinterpret(arena, StreamNative::free);
        }

        MemorySegment buffer(long n) {
            MemorySegment m = arena.allocate(Math.max(1, n));
            buffers.add(m);
            return m;
        }

        /** A working buffer of n bytes that only the stream sees: a heap array's view when a segment's input
         * and output together fit the critical handle (critical), else native memory. Zeroed with the rest. */
        MemorySegment work(long n, boolean critical) {
            if (!critical) {
                return buffer(n);
            }
            MemorySegment m = MemorySegment.ofArray(new byte[(int) Math.max(1, n)]);
            buffers.add(m);
            return m;
        }

        long segmentSize(long index) throws Throwable {
            return (long) StreamNative.SEGMENT_SIZE.invokeExact(stream, index);
        }

        long overhead() throws Throwable {
            return (long) StreamNative.OVERHEAD.invokeExact(stream);
        }

        @Override
        public void run() {
            try {
                for (MemorySegment m : buffers) {
                    m.fill((byte) 0);
                }
                arena.close();
            } catch (IllegalStateException alreadyClosed) {
                // closed through close()
            }
        }
    }

    private static Cleaner.Cleanable register(Object owner, Handle n) {
        return AeadContext.CLEANER.register(owner, n);
    }

    private static String who(StreamingAead sa) {
        return switch (sa.format) {
            case StreamNative.STREAM_TINK_AES_GCM_HKDF -> "StreamingAead(AES-GCM-HKDF)";
            case StreamNative.STREAM_AGE -> "StreamingAead(age)";
            default -> "StreamingAead(RFC 8188)";
        };
    }

    /** Makes a reader from the header read by read (it returns the bytes it got, fewer only at the end). */
    private static void readHeader(StreamingAead sa, byte[] associatedData, Handle n, HeaderSource read, String who)
            throws IOException {
        try (Hpke.Scratch s = new Hpke.Scratch()) {
            MemorySegment params = sa.params(s, associatedData, false);
            MemorySegment out = s.arena.allocate(ValueLayout.ADDRESS);
            MemorySegment hl = s.arena.allocate(ValueLayout.JAVA_LONG);
            byte[] header = new byte[StreamNative.STREAM_MAX_HEADER];
            MemorySegment h = s.arena.allocate(StreamNative.STREAM_MAX_HEADER);
            int have = 0;
            for (;;) {
                MemorySegment.copy(header, 0, h, ValueLayout.JAVA_BYTE, 0, have);
                int rc = (int) StreamNative.READER_NEW.invokeExact(out, params, h, (long) have, hl);
                if (rc == 0) {
                    n.adopt(out.get(ValueLayout.ADDRESS, 0));
                    return;
                }
                if (rc != AeadException.BUFFER_TOO_SMALL) {
                    throw failure(rc, who);
                }
                int want = (int) hl.get(ValueLayout.JAVA_LONG, 0);
                int got = read.read(header, have, want - have);
                if (got < want - have) {
                    throw failure(AeadException.AUTH, who); // the ciphertext ends inside its header
                }
                have = want;
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    @FunctionalInterface
    private interface HeaderSource {
        int read(byte[] b, int off, int len) throws IOException;
    }

    // ---------------------------------------------------------------------------------------------
    // The encrypting stream

    private static final class Encrypting extends OutputStream {
        private final OutputStream out;
        private final String who;
        private final Handle n;
        private final Cleaner.Cleanable cleanable;
        /** Plaintext bytes of a segment that is not the last: segment 0's, the others'. */
        private final int cap0, capN;
        /** RFC 8188: zero bytes after the last record's delimiter. */
        private final int pad;
        /** Whether a segment (input and output) fits the critical handle: work is then a heap array's view. */
        private final boolean critical;
        /** The segment being filled, sealed in place, and the ciphertext of the last seal. No one else sees
         * it: what out.write gets is ctHeap, a copy, so no other thread can change a segment while it is sealed. */
        private final MemorySegment work;
        private final byte[] ctHeap;
        private long index;
        private int fill, cap;
        private boolean closed;

        Encrypting(StreamingAead sa, OutputStream out, byte[] associatedData) throws IOException {
            sa.checkAssociatedData(associatedData);
            this.out = out;
            this.who = who(sa);
            this.n = new Handle();
            this.cleanable = register(this, n);
            this.pad = sa.finalPadding;
            byte[] header;
            long full, overhead, first;
            try (Hpke.Scratch s = new Hpke.Scratch()) {
                MemorySegment h = s.arena.allocate(StreamNative.STREAM_MAX_HEADER);
                MemorySegment sOut = s.arena.allocate(ValueLayout.ADDRESS);
                MemorySegment hl = s.arena.allocate(ValueLayout.JAVA_LONG);
                int rc = (int) StreamNative.WRITER_NEW.invokeExact(sOut, sa.params(s, associatedData, true), h,
                        (long) StreamNative.STREAM_MAX_HEADER, hl);
                check(rc, who);
                n.adopt(sOut.get(ValueLayout.ADDRESS, 0));
                header = h.asSlice(0, hl.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
                overhead = n.overhead();
                first = n.segmentSize(0);
                full = Math.max(first, n.segmentSize(1)); // every segment after the first has segment 1's size
            } catch (Throwable t) {
                cleanable.clean();
                throw AeadContext.rethrow(t);
            }
            cap0 = (int) (first - overhead);
            capN = (int) (full - overhead);
            critical = 2 * full <= Native.CRITICAL_MAX;
            work = n.work(full, critical);
            ctHeap = new byte[(int) full];
            cap = cap0;
            try {
                out.write(header);
            } catch (IOException | RuntimeException e) {
                cleanable.clean();
                throw e;
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (closed) {
                throw new IOException(who + ": write after close");
            }
            while (len > 0) {
                if (fill == cap) {
                    seal(work, fill, 0, false); // a full segment with more data after it: not the last one
                }
                if (fill == 0 && len > cap && critical) {
                    // A whole segment with more data after it, read by the seal straight from b (once: what it
                    // seals is what it authenticates, whatever another thread does to b) into work.
                    int k = cap;
                    seal(MemorySegment.ofArray(b).asSlice(off, k), k, 0, false);
                    off += k;
                    len -= k;
                    continue;
                }
                int k = Math.min(len, cap - fill);
                MemorySegment.copy(b, off, work, ValueLayout.JAVA_BYTE, fill, k);
                fill += k;
                off += k;
                len -= k;
            }
        }

        /** Seals len bytes at in (work itself: in place) into work, and writes the segment. */
        private void seal(MemorySegment in, int len, int padding, boolean last) throws IOException {
            long rc;
            try {
                rc = critical
                        ? (long) StreamNative.SEAL_CRITICAL.invokeExact(n.stream, in, (long) len, (long) padding,
                                last ? 1 : 0, work, work.byteSize())
                        : (long) StreamNative.SEAL.invokeExact(n.stream, in, (long) len, (long) padding, last ? 1 : 0,
                                work, work.byteSize());
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
            if (rc < 0) {
                throw new IOException(who + ": " + Native.strerror(rc), Hpke.error(rc, who));
            }
            MemorySegment.copy(work, ValueLayout.JAVA_BYTE, 0, ctHeap, 0, (int) rc);
            fill = 0;
            index++;
            cap = capN;
            out.write(ctHeap, 0, (int) rc);
        }

        /** Flushes the underlying stream; the segment being filled stays here until it is full or closed. */
        @Override
        public synchronized void flush() throws IOException {
            if (closed) {
                throw new IOException(who + ": flush after close");
            }
            out.flush();
        }

        /** Writes the last segment and closes the underlying stream. A second close does nothing. */
        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (pad > 0 && fill + pad > cap) {
                    seal(work, fill, 0, false); // RFC 8188: the data in a record of its own, the padding after it
                }
                seal(work, fill, pad, true);
            } finally {
                Arrays.fill(ctHeap, (byte) 0);
                cleanable.clean();
                out.close();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The decrypting stream

    private static final class Decrypting extends InputStream {
        private final StreamingAead sa;
        private final InputStream in;
        private final byte[] associatedData;
        private final String who;
        private final Handle n;
        private final Cleaner.Cleanable cleanable;
        /** The segment being opened, in place: a copy of what the underlying stream put in ctHeap (which it
         * could still change), so that what is authenticated is what is decrypted. The plaintext is read out
         * of it. */
        private MemorySegment work;
        private boolean critical;
        private byte[] ctHeap;
        private int ctFill, ptPos, ptLen;
        private long index, first;
        private int later;
        private boolean started, done, closed;
        private IOException failed;

        Decrypting(StreamingAead sa, InputStream in, byte[] associatedData) {
            this.sa = sa;
            this.in = in;
            this.associatedData = associatedData == null ? null : associatedData.clone();
            this.who = who(sa);
            this.n = new Handle();
            this.cleanable = register(this, n);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int r = read(one, 0, 1);
            return r < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (closed) {
                throw new IOException(who + ": read after close");
            }
            if (failed != null) {
                throw new IOException(failed.getMessage(), failed.getCause());
            }
            if (len == 0) {
                return 0;
            }
            try {
                while (ptPos == ptLen) {
                    if (done) {
                        return -1;
                    }
                    next();
                }
            } catch (IOException e) {
                failed = e;
                throw e;
            }
            int k = Math.min(len, ptLen - ptPos);
            MemorySegment.copy(work, ValueLayout.JAVA_BYTE, ptPos, b, off, k);
            ptPos += k;
            return k;
        }

        @Override
        public synchronized int available() throws IOException {
            if (closed) {
                throw new IOException(who + ": available after close");
            }
            return ptLen - ptPos;
        }

        /** Reads into b until len bytes or the end; returns the count. */
        private int readFully(byte[] b, int off, int len) throws IOException {
            int got = 0;
            while (got < len) {
                int r = in.read(b, off + got, len - got);
                if (r < 0) {
                    break;
                }
                got += r;
            }
            return got;
        }

        /** Opens the next segment: it is the last one when fewer than its full size plus one byte remain. */
        private void next() throws IOException {
            try {
                if (!started) {
                    readHeader(sa, associatedData, n, this::readFully, who);
                    first = n.segmentSize(0);
                    long full = Math.max(first, n.segmentSize(1));
                    later = (int) full;
                    critical = 2 * full <= Native.CRITICAL_MAX;
                    work = n.work(full, critical);
                    ctHeap = new byte[(int) full + 1];
                    started = true;
                }
                int need = (index == 0 ? (int) first : later) + 1;
                ctFill += readFully(ctHeap, ctFill, need - ctFill);
                boolean last = ctFill < need;
                int len = last ? ctFill : need - 1;
                MemorySegment.copy(ctHeap, 0, work, ValueLayout.JAVA_BYTE, 0, len);
                long rc = critical
                        ? (long) StreamNative.OPEN_CRITICAL.invokeExact(n.stream, work, (long) len, last ? 1 : 0, work,
                                work.byteSize())
                        : (long) StreamNative.OPEN.invokeExact(n.stream, work, (long) len, last ? 1 : 0, work,
                                work.byteSize());
                if (rc < 0) {
                    throw failure(rc, who);
                }
                ptPos = 0;
                ptLen = (int) rc;
                index++;
                if (last) {
                    done = true;
                    ctFill = 0;
                } else {
                    ctHeap[0] = ctHeap[need - 1];
                    ctFill = 1;
                }
            } catch (IOException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
        }

        /** Closes the underlying stream (a stream not read to its end was not checked to its end). */
        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            ptPos = ptLen = 0;
            if (ctHeap != null) {
                Arrays.fill(ctHeap, (byte) 0);
            }
            cleanable.clean();
            in.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The seekable channel

    private static final class Seekable implements SeekableByteChannel {
        private final SeekableByteChannel ch;
        private final String who;
        private final Handle n;
        private final Cleaner.Cleanable cleanable;
        private final long start, first, full, overhead, segments, lastLength, size;
        /** The segment being opened, in place (a copy of ctBuf, which the channel could still change). */
        private final MemorySegment work;
        private final boolean critical;
        private final ByteBuffer ctBuf;
        private long position, cached = -1;
        private int cachedLength;
        private boolean closed;

        Seekable(StreamingAead sa, SeekableByteChannel ch, byte[] associatedData) throws IOException {
            this.ch = ch;
            this.who = who(sa);
            this.n = new Handle();
            this.cleanable = register(this, n);
            long channelSize = ch.size();
            long offset = sa.firstSegmentOffset;
            try {
                ch.position(offset);
                readHeader(sa, associatedData, n, (b, off, len) -> readAt(ByteBuffer.wrap(b, off, len)), who);
                long headerLength = ch.position() - offset;
                start = offset + headerLength;
                first = n.segmentSize(0);
                full = n.segmentSize(1);
                overhead = n.overhead();
            } catch (IOException | RuntimeException | Error e) {
                cleanable.clean();
                throw e;
            } catch (Throwable t) {
                cleanable.clean();
                throw AeadContext.rethrow(t);
            }
            long rest = Math.max(0, channelSize - start);
            if (rest <= first) {
                segments = 1;
                lastLength = rest;
            } else {
                long k = (rest - first + full - 1) / full;
                segments = 1 + k;
                lastLength = rest - first - (k - 1) * full;
            }
            size = plaintextStart(segments - 1) + Math.max(0, lastLength - overhead);
            long most = Math.max(first, full);
            critical = 2 * most <= Native.CRITICAL_MAX;
            work = n.work(most, critical);
            ctBuf = ByteBuffer.allocate((int) most);
        }

        /** Reads from the channel's position until dst is full or the channel ends; returns the count. */
        private int readAt(ByteBuffer dst) throws IOException {
            int got = 0;
            while (dst.hasRemaining()) {
                int r = ch.read(dst);
                if (r < 0) {
                    break;
                }
                got += r;
            }
            return got;
        }

        private long plaintextStart(long i) {
            return i == 0 ? 0 : (first - overhead) + (i - 1) * (full - overhead);
        }

        private long segmentOf(long p) {
            long i = p < first - overhead ? 0 : 1 + (p - (first - overhead)) / (full - overhead);
            return Math.min(i, segments - 1);
        }

        /** Opens segment i (the last one as the last) into pt. */
        private void load(long i) throws IOException {
            if (cached == i) {
                return;
            }
            cached = -1;
            boolean last = i == segments - 1;
            long at = start + (i == 0 ? 0 : first + (i - 1) * full);
            int len = (int) (last ? lastLength : i == 0 ? first : full);
            ch.position(at);
            ctBuf.clear().limit(len);
            if (readAt(ctBuf) < len) {
                throw failure(AeadException.AUTH, who); // the channel shrank under us
            }
            MemorySegment.copy(ctBuf.array(), 0, work, ValueLayout.JAVA_BYTE, 0, len);
            long rc;
            try {
                rc = critical
                        ? (long) StreamNative.OPEN_SEGMENT_CRITICAL.invokeExact(n.stream, i, work, (long) len,
                                last ? 1 : 0, work, work.byteSize())
                        : (long) StreamNative.OPEN_SEGMENT.invokeExact(n.stream, i, work, (long) len, last ? 1 : 0,
                                work, work.byteSize());
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
            if (rc < 0) {
                throw failure(rc, who);
            }
            cached = i;
            cachedLength = (int) rc;
        }

        @Override
        public synchronized int read(ByteBuffer dst) throws IOException {
            ensureOpen();
            if (position >= size) {
                load(segments - 1); // the end is reported only once the last segment opens as the last
                return -1;
            }
            int total = 0;
            while (dst.hasRemaining() && position < size) {
                long i = segmentOf(position);
                load(i);
                int at = (int) (position - plaintextStart(i));
                int k = Math.min(dst.remaining(), cachedLength - at);
                if (k <= 0) {
                    throw failure(AeadException.AUTH, who);
                }
                dst.put(work.asSlice(at, k).asByteBuffer());
                position += k;
                total += k;
            }
            return total;
        }

        private void ensureOpen() throws ClosedChannelException {
            if (closed) {
                throw new ClosedChannelException();
            }
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public synchronized long position() throws IOException {
            ensureOpen();
            return position;
        }

        @Override
        public synchronized SeekableByteChannel position(long newPosition) throws IOException {
            ensureOpen();
            if (newPosition < 0) {
                throw new IllegalArgumentException("negative position");
            }
            position = newPosition;
            return this;
        }

        /** The plaintext's length, from the ciphertext's. */
        @Override
        public synchronized long size() throws IOException {
            ensureOpen();
            return size;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public synchronized boolean isOpen() {
            return !closed;
        }

        /** Closes the ciphertext channel too. */
        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            cached = -1;
            Arrays.fill(ctBuf.array(), (byte) 0);
            cleanable.clean();
            ch.close();
        }
    }
}
