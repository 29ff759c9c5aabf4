package org.libaead;

/** ChaCha20-Poly1305 for TLS 1.2 records (RFC 7905): nonce = IV XOR sequence as in TLS 1.3, aad exactly 13 bytes. */
public final class ChaCha20Poly1305ForTls12 extends Aead {
    public ChaCha20Poly1305ForTls12(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public ChaCha20Poly1305ForTls12(byte[] key, byte[] iv, String properties) {
        super(Algs.chacha(Algs.CHACHA20_POLY1305, key, "ChaCha20-Poly1305"), Native.POLICY_TLS12, key, 16, 16, properties, iv);
    }
}
