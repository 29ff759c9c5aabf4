package org.libaead;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;
import javax.crypto.AEADBadTagException;

/**
 * A keyed AEAD whose nonces libaead draws: {@code seal(aad, plaintext)} returns
 * nonce || ciphertext || tag, {@code open(aad, sealed)} reads that layout. See {@link Aead} for the
 * {@code Into} forms, which behave the same (in place here means the ciphertext lands where the
 * plaintext was: seal with in at out + nonce size, open with out at in + nonce size).
 */
public abstract sealed class RandomNonceAead extends AeadContext permits AesGcmRandomNonce, XChaCha20Poly1305RandomNonce,
        Aegis128LRandomNonce, Aegis256RandomNonce, Aegis128X2RandomNonce, Aegis128X4RandomNonce, Aegis256X2RandomNonce,
        Aegis256X4RandomNonce {
    RandomNonceAead(int alg, byte[] key, int nonceSize, String properties) {
        this(alg, key, nonceSize, 16, properties);
    }

    RandomNonceAead(int alg, byte[] key, int nonceSize, int tagLength, String properties) {
        super(alg, Native.POLICY_RANDOM_NONCE, key, tagLength, nonceSize + tagLength, properties, null);
    }

    /** Seals: returns nonce || ciphertext || tag. */
    public final byte[] seal(byte[] aad, byte[] plaintext) {
        Objects.requireNonNull(plaintext, "plaintext");
        byte[] out = new byte[plaintext.length + sealOverhead];
        try {
            cross(Native.SEAL, MemorySegment.NULL, seg(aad), seg(plaintext), seg(out));
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
        return out;
    }

    /** Opens nonce || ciphertext || tag. */
    public final byte[] open(byte[] aad, byte[] sealed) throws AEADBadTagException {
        Objects.requireNonNull(sealed, "sealed");
        byte[] out = new byte[Math.max(0, sealed.length - sealOverhead)];
        cross(Native.OPEN, MemorySegment.NULL, seg(aad), seg(sealed), seg(out));
        return out;
    }

    public final int sealInto(byte[] aad, byte[] plaintext, int inOff, int inLen, byte[] out, int outOff) {
        try {
            return (int) cross(Native.SEAL, MemorySegment.NULL, seg(aad), seg(plaintext, inOff, inLen),
                    seg(out, outOff, out.length - outOff));
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
    }

    public final int openInto(byte[] aad, byte[] sealed, int inOff, int inLen, byte[] out, int outOff)
            throws AEADBadTagException {
        return (int) cross(Native.OPEN, MemorySegment.NULL, seg(aad), seg(sealed, inOff, inLen),
                seg(out, outOff, out.length - outOff));
    }

    public final int sealInto(byte[] aad, ByteBuffer in, ByteBuffer out) {
        writable(out);
        int n;
        try {
            n = (int) cross(Native.SEAL, MemorySegment.NULL, seg(aad), seg(in), seg(out));
        } catch (AEADBadTagException impossible) {
            throw new AssertionError(impossible);
        }
        in.position(in.limit());
        out.position(out.position() + n);
        return n;
    }

    public final int openInto(byte[] aad, ByteBuffer in, ByteBuffer out) throws AEADBadTagException {
        writable(out);
        int n = (int) cross(Native.OPEN, MemorySegment.NULL, seg(aad), seg(in), seg(out));
        in.position(in.limit());
        out.position(out.position() + n);
        return n;
    }
}
