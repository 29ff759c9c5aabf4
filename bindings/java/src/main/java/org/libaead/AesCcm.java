package org.libaead;

/** AES-CCM (SP 800-38C, RFC 3610): nonces of 7..13 bytes; tag 4, 6, 8, 10, 12, 14 or 16 bytes; a message must be shorter than 2^(8 * (15 - nonce length)) bytes. */
public final class AesCcm extends Aead {
    public AesCcm(byte[] key) {
        this(key, 16, null);
    }

    public AesCcm(byte[] key, int tagLength, String properties) {
        super(Algs.aes(Algs.AES_128_CCM, key, "AES-CCM"), Native.POLICY_NONE, key, tagLength, tagLength, properties, null);
    }
}
