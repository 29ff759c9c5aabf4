package org.libaead;

/** AEGIS-128X4 whose 16-byte nonces libaead draws: seal returns nonce || ciphertext || tag (tag 16 or 32 bytes);
 * after 2^48 seals the object refuses ({@link NoncePolicyException#NONCE_LIMIT}; RFC 10032's bound for random 128-bit nonces). */
public final class Aegis128X4RandomNonce extends RandomNonceAead {
    /** With a 16-byte tag. */
    public Aegis128X4RandomNonce(byte[] key) {
        this(key, 16, null);
    }

    /** tagLength: 16 or 32; properties: an OpenSSL property query, or null. */
    public Aegis128X4RandomNonce(byte[] key, int tagLength, String properties) {
        super(Algs.aegis(Algs.AEGIS_128X4, key, tagLength), key, 16, tagLength, properties);
    }
}
