package org.libaead;

/** AES-GCM whose 12-byte nonces libaead draws (FIPS 140-3 IG C.H scenario 2): seal returns nonce || ciphertext || tag,
 * byte-compatible with Go's cipher.NewGCMWithRandomNonce; after 2^32 seals the object refuses
 * ({@link NoncePolicyException#NONCE_LIMIT}). */
public final class AesGcmRandomNonce extends RandomNonceAead {
    public AesGcmRandomNonce(byte[] key) {
        this(key, null);
    }

    public AesGcmRandomNonce(byte[] key, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), key, 12, properties);
    }
}
