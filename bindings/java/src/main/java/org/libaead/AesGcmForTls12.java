package org.libaead;

/** AES-GCM for TLS 1.2 records (RFC 5288). Seal enforces: 12-byte nonce = 4-byte fixed salt (never changing) || 8-byte explicit nonce whose sequence is strictly greater than the last one and never 2^64-1; aad exactly 13 bytes. A refusal is a {@link NoncePolicyException}. Open is not order-checked. */
public final class AesGcmForTls12 extends Aead {
    /** iv: null (the first seal fixes the salt: make it before sharing the object), the 4-byte salt, or salt || 8-byte mask. */
    public AesGcmForTls12(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmForTls12(byte[] key, byte[] iv, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_TLS12, key, 16, 16, properties, iv);
    }
}
