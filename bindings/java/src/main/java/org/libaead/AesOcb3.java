package org.libaead;

/** AES-OCB3 (RFC 7253): nonces of 1..15 bytes, 16-byte tag. */
public final class AesOcb3 extends Aead {
    public AesOcb3(byte[] key) {
        this(key, null);
    }

    public AesOcb3(byte[] key, String properties) {
        super(Algs.aes(Algs.AES_128_OCB, key, "AES-OCB3"), Native.POLICY_NONE, key, 16, 16, properties, null);
    }
}
