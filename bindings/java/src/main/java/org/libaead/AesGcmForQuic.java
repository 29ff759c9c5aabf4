package org.libaead;

/** AES-GCM packet protection for QUIC (RFC 9001), AES-128 or AES-256: seal nonce = IV XOR packet number, packet numbers below 2^62 and increasing (gaps allowed); after 2^23 seals the key is refused ({@link NoncePolicyException#KEY_LIMIT}). Any aad (the header). */
public final class AesGcmForQuic extends Aead {
    /** iv: the 12-byte "quic iv". */
    public AesGcmForQuic(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmForQuic(byte[] key, byte[] iv, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_QUIC, key, 16, 16, properties,
                java.util.Objects.requireNonNull(iv, "iv"));
    }
}
