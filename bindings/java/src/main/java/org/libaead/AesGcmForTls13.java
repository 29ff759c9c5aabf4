package org.libaead;

/** AES-GCM for TLS 1.3 records (RFC 8446 section 5.3): seal nonces must be the static IV XOR a strictly increasing sequence (never 2^64-1); aad exactly 5 bytes. A refusal is a {@link NoncePolicyException}. Open is not order-checked. */
public final class AesGcmForTls13 extends Aead {
    /** iv: the 12-byte static IV, or null (the first seal is then sequence 0 and reveals it). */
    public AesGcmForTls13(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmForTls13(byte[] key, byte[] iv, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_TLS13, key, 16, 16, properties, iv);
    }
}
