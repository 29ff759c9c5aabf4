package org.libaead;

/** ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, 16-byte tag. */
public final class ChaCha20Poly1305 extends Aead {
    public ChaCha20Poly1305(byte[] key) {
        this(key, null);
    }

    public ChaCha20Poly1305(byte[] key, String properties) {
        super(Algs.chacha(Algs.CHACHA20_POLY1305, key, "ChaCha20-Poly1305"), Native.POLICY_NONE, key, 16, 16, properties, null);
    }
}
