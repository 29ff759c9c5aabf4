package org.libaead;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;
import javax.crypto.AEADBadTagException;

/**
 * A keyed AEAD whose caller gives each nonce: {@code seal(nonce, aad, plaintext)} returns
 * ciphertext || tag (AES-SIV: SIV || ciphertext) and {@code open} reverses it. One call into libaead per
 * seal or open. A {@code null} aad is the same as an empty one.
 *
 * <p>{@code sealInto} / {@code openInto} write into the caller's array at an offset, a {@link ByteBuffer}
 * (heap or direct, from its position; a read-only one is refused) or a {@link MemorySegment} (a read-only
 * or closed one is refused). The output may be exactly the input (in place); any other overlap of output
 * with an input is refused with {@link IllegalArgumentException}. A failed open leaves the output's first
 * {@code ciphertext length - tag length} bytes zeroed and throws {@link AEADBadTagException}.
 */
public abstract sealed class Aead extends AeadContext
        permits AesGcm, ChaCha20Poly1305, AesCcm, AesGcmSiv, AesOcb3, XChaCha20Poly1305, AesSiv,
                AesGcmForTls12, AesGcmForTls13, ChaCha20Poly1305ForTls12, ChaCha20Poly1305ForTls13, AesGcmForQuic,
                ChaCha20Poly1305ForQuic, AesGcmCounterNonce, AesGcmXorCounterNonce, AesGcmForSsh,
                Aegis128L, Aegis256, Aegis128X2, Aegis128X4, Aegis256X2, Aegis256X4 {

    Aead(int alg, int policy, byte[] key, int tagLength, int overhead, String properties, byte[] iv) {
        super(alg, policy, key, tagLength, overhead, properties, iv);
    }

    /** Seals: returns ciphertext || tag. */
    public final byte[] seal(byte[] nonce, byte[] aad, byte[] plaintext) {
        Objects.requireNonNull(plaintext, "plaintext");
        byte[] out = new byte[plaintext.length + sealOverhead];
        try {
            crossArrays(Native.SEAL, nonce, aad, plaintext, 0, plaintext.length, out, 0, out.length);
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
        return out;
    }

    /** Opens ciphertext || tag: returns the plaintext, or throws AEADBadTagException. */
    public final byte[] open(byte[] nonce, byte[] aad, byte[] ciphertext) throws AEADBadTagException {
        Objects.requireNonNull(ciphertext, "ciphertext");
        byte[] out = new byte[Math.max(0, ciphertext.length - sealOverhead)];
        crossArrays(Native.OPEN, nonce, aad, ciphertext, 0, ciphertext.length, out, 0, out.length);
        return out;
    }

    /** Seals plaintext[inOff, inOff + inLen) into out at outOff; returns the bytes written (inLen + overhead()). */
    public final int sealInto(byte[] nonce, byte[] aad, byte[] plaintext, int inOff, int inLen, byte[] out, int outOff) {
        try {
            return (int) crossArrays(Native.SEAL, nonce, aad, plaintext, inOff, inLen, out, outOff, out.length - outOff);
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** Opens ciphertext[inOff, inOff + inLen) into out at outOff; returns the plaintext length. */
    public final int openInto(byte[] nonce, byte[] aad, byte[] ciphertext, int inOff, int inLen, byte[] out, int outOff)
            throws AEADBadTagException {
        return (int) crossArrays(Native.OPEN, nonce, aad, ciphertext, inOff, inLen, out, outOff, out.length - outOff);
    }

    /** Seals in's remaining bytes into out from its position; advances both positions; returns bytes written. */
    public final int sealInto(byte[] nonce, byte[] aad, ByteBuffer in, ByteBuffer out) {
        writable(out);
        int n;
        try {
            n = in.hasArray() && out.hasArray()   // heap buffers: the allocation-free array path
                    ? (int) crossArrays(Native.SEAL, nonce, aad, in.array(), in.arrayOffset() + in.position(),
                            in.remaining(), out.array(), out.arrayOffset() + out.position(), out.remaining())
                    : (int) cross(Native.SEAL, seg(nonce), seg(aad), seg(in), seg(out));
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
        in.position(in.limit());
        out.position(out.position() + n);
        return n;
    }

    /** Opens in's remaining bytes into out from its position; advances both positions; returns the plaintext length. */
    public final int openInto(byte[] nonce, byte[] aad, ByteBuffer in, ByteBuffer out) throws AEADBadTagException {
        writable(out);
        int n = in.hasArray() && out.hasArray()
                ? (int) crossArrays(Native.OPEN, nonce, aad, in.array(), in.arrayOffset() + in.position(),
                        in.remaining(), out.array(), out.arrayOffset() + out.position(), out.remaining())
                : (int) cross(Native.OPEN, seg(nonce), seg(aad), seg(in), seg(out));
        in.position(in.limit());
        out.position(out.position() + n);
        return n;
    }

    /**
     * Seals many independent records in one call into libaead ({@code aead_seal_open_many}): record i is
     * {@code seal(nonces[i], aads[i], plaintexts[i])}, in array order (a TLS context checks and commits each
     * record's sequence in that order). {@code aads} may be null (no aad for any record), as may any of its
     * elements. Returns one array per record: its sealed output, or {@code null} where libaead refused the
     * record; {@code codes}, if not null (length at least the record count), receives each record's result:
     * its output length, or libaead's negative code (a {@link NoncePolicyException} constant, for example).
     * A refused record writes nothing and consumes no sequence number; the others are sealed all the same.
     * The records are copied to off-heap memory for the call (one allocation per batch, none per record
     * in libaead).
     */
    public final byte[][] sealMany(byte[][] nonces, byte[][] aads, byte[][] plaintexts, long[] codes) {
        return many(Native.SEAL, nonces, aads, plaintexts, codes);
    }

    /**
     * Opens many independent records in one call, as {@link #sealMany}: returns each record's plaintext, or
     * {@code null} where it did not authenticate ({@code codes[i]} is then -1, AEAD_ERR_AUTH) or was
     * refused. No plaintext of a record that failed is returned. Never throws {@link AEADBadTagException}.
     */
    public final byte[][] openMany(byte[][] nonces, byte[][] aads, byte[][] ciphertexts, long[] codes) {
        return many(Native.OPEN, nonces, aads, ciphertexts, codes);
    }

    /** Seals from segments (native ones pass straight through); returns the bytes written at out's start. */
    public final long sealInto(MemorySegment nonce, MemorySegment aad, MemorySegment in, MemorySegment out) {
        try {
            return cross(Native.SEAL, checked(nonce), checked(aad), checked(in), checked(out));
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** Opens from segments; returns the plaintext length written at out's start. */
    public final long openInto(MemorySegment nonce, MemorySegment aad, MemorySegment in, MemorySegment out)
            throws AEADBadTagException {
        return cross(Native.OPEN, checked(nonce), checked(aad), checked(in), checked(out));
    }
}
