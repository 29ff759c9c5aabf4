package org.libaead;

/** AEGIS-256X2 whose 32-byte nonces libaead draws: seal returns nonce || ciphertext || tag (tag 16 or 32 bytes);
 * no seal limit (256-bit nonces). */
public final class Aegis256X2RandomNonce extends RandomNonceAead {
    /** With a 16-byte tag. */
    public Aegis256X2RandomNonce(byte[] key) {
        this(key, 16, null);
    }

    /** tagLength: 16 or 32; properties: an OpenSSL property query, or null. */
    public Aegis256X2RandomNonce(byte[] key, int tagLength, String properties) {
        super(Algs.aegis(Algs.AEGIS_256X2, key, tagLength), key, 32, tagLength, properties);
    }
}
