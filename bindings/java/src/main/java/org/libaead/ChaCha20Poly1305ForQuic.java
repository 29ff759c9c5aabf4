package org.libaead;

/** ChaCha20-Poly1305 packet protection for QUIC (RFC 9001); see {@link AesGcmForQuic}. */
public final class ChaCha20Poly1305ForQuic extends Aead {
    public ChaCha20Poly1305ForQuic(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public ChaCha20Poly1305ForQuic(byte[] key, byte[] iv, String properties) {
        super(Algs.chacha(Algs.CHACHA20_POLY1305, key, "ChaCha20-Poly1305"), Native.POLICY_QUIC, key, 16, 16, properties,
                java.util.Objects.requireNonNull(iv, "iv"));
    }
}
