package org.libaead;

/**
 * AES-GCM with counter nonces, for any protocol that counts its records (FIPS 140-3 IG C.H scenario 3;
 * Go's FIPS module's {@code NewGCMWithCounterNonce}). Seal enforces: 12-byte nonce = 4-byte fixed part
 * (never changing) || BE64(start + n), where n, counted from the first value modulo 2^64, is strictly
 * greater than every n sealed before (gaps allowed) and below 2^64-1 (the counter may wrap past 2^64-1
 * but never come back to its start). Any aad. A refusal is a {@link NoncePolicyException}; it writes
 * nothing and consumes nothing. Open is not order-checked.
 */
public final class AesGcmCounterNonce extends Aead {
    /** iv: null (the first seal fixes the fixed part and the start: make it before sharing the object), or
     * 12 bytes: fixed part || BE64(start). */
    public AesGcmCounterNonce(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmCounterNonce(byte[] key, byte[] iv, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_COUNTER, key, 16, 16, properties, iv);
    }
}
