package org.libaead;

/** XChaCha20-Poly1305 whose 24-byte nonces libaead draws: seal returns nonce || ciphertext || tag. */
public final class XChaCha20Poly1305RandomNonce extends RandomNonceAead {
    public XChaCha20Poly1305RandomNonce(byte[] key) {
        this(key, null);
    }

    public XChaCha20Poly1305RandomNonce(byte[] key, String properties) {
        super(Algs.chacha(Algs.XCHACHA20_POLY1305, key, "XChaCha20-Poly1305"), key, 24, properties);
    }
}
