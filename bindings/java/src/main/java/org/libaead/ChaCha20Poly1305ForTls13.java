package org.libaead;

/** ChaCha20-Poly1305 for TLS 1.3 records; see {@link AesGcmForTls13}. */
public final class ChaCha20Poly1305ForTls13 extends Aead {
    public ChaCha20Poly1305ForTls13(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public ChaCha20Poly1305ForTls13(byte[] key, byte[] iv, String properties) {
        super(Algs.chacha(Algs.CHACHA20_POLY1305, key, "ChaCha20-Poly1305"), Native.POLICY_TLS13, key, 16, 16, properties, iv);
    }
}
