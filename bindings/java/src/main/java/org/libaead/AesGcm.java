package org.libaead;

/** AES-GCM (SP 800-38D) with 16-, 24- or 32-byte keys; nonces of 1..128 bytes (12 recommended), chosen by the caller and never repeated under one key. */
public final class AesGcm extends Aead {
    /** AES-GCM with a 16-byte tag. */
    public AesGcm(byte[] key) {
        this(key, 16, null);
    }

    /** tagLength: 16, or 12..15, 8, 4 (SP 800-38D); properties: an OpenSSL property query such as "fips=yes", or null. */
    public AesGcm(byte[] key, int tagLength, String properties) {
        super(Algs.aes(Algs.AES_128_GCM, key, "AES-GCM"), Native.POLICY_NONE, key, tagLength, tagLength, properties, null);
    }
}
