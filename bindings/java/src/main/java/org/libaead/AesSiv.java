package org.libaead;

/** AES-SIV (RFC 5297, AEAD_AES_SIV_CMAC_256/384/512): keys of 32, 48 or 64 bytes; seal returns SIV(16) || ciphertext; the aad is one component, then the nonce if it is not empty (an empty nonce: deterministic SIV). In place means seal with the input at output + 16, open with the output at input + 16. */
public final class AesSiv extends Aead {
    public AesSiv(byte[] key) {
        this(key, null);
    }

    public AesSiv(byte[] key, String properties) {
        super(sivAlg(key), Native.POLICY_NONE, key, 16, 16, properties, null);
    }

    private static int sivAlg(byte[] key) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        return switch (key.length) {
            case 32 -> Algs.AES_128_SIV;
            case 48 -> Algs.AES_128_SIV + 1;
            case 64 -> Algs.AES_128_SIV + 2;
            default -> throw new IllegalArgumentException("AES-SIV key must be 32, 48 or 64 bytes, not " + key.length);
        };
    }
}
