package org.libaead;

/** AES-GCM-SIV (RFC 8452, nonce-misuse resistant): 12-byte nonce, 16-byte tag. */
public final class AesGcmSiv extends Aead {
    public AesGcmSiv(byte[] key) {
        this(key, null);
    }

    public AesGcmSiv(byte[] key, String properties) {
        super(Algs.aes(Algs.AES_128_GCM_SIV, key, "AES-GCM-SIV"), Native.POLICY_NONE, key, 16, 16, properties, null);
    }
}
