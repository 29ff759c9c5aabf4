package org.libaead;

/**
 * AES-GCM with XOR-counter nonces (Go's FIPS module's {@code NewGCMWithXORCounterNonce}; the construction
 * of TLS 1.3, with any aad). Seal enforces: 12-byte nonce = 4-byte fixed part (never changing) ||
 * BE64(mask XOR n), n counted from 0, strictly increasing (gaps allowed) and never 2^64-1. A refusal is
 * a {@link NoncePolicyException}; it writes nothing and consumes nothing. Open is not order-checked.
 */
public final class AesGcmXorCounterNonce extends Aead {
    /** iv: null (the first seal is n = 0 and fixes the fixed part and the mask: make it before sharing the
     * object), or 12 bytes: fixed part || 8-byte mask. */
    public AesGcmXorCounterNonce(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmXorCounterNonce(byte[] key, byte[] iv, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_XOR_COUNTER, key, 16, 16, properties, iv);
    }
}
