package org.libaead;

/** Algorithm identifiers of include/aead.h and key-size dispatch. */
final class Algs {
    private Algs() {}

    static final int AES_128_GCM = 1, CHACHA20_POLY1305 = 4, AES_128_CCM = 5, AES_128_GCM_SIV = 8, AES_128_OCB = 11,
            XCHACHA20_POLY1305 = 14, AES_128_SIV = 15, AEGIS_128L = 18, AEGIS_256 = 19, AEGIS_128X2 = 20,
            AEGIS_128X4 = 21, AEGIS_256X2 = 22, AEGIS_256X4 = 23;

    /** first = the 128-bit member of a family whose 192 and 256 follow it. */
    static int aes(int first, byte[] key, String name) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        return switch (key.length) {
            case 16 -> first;
            case 24 -> first + 1;
            case 32 -> first + 2;
            default -> throw new IllegalArgumentException(name + " key must be 16, 24 or 32 bytes, not " + key.length);
        };
    }

    /** As aes, for the policies that take AES-128 and AES-256 only (SSH). */
    static int aes128or256(int first, byte[] key, String name) {
        if (key != null && key.length == 24) {
            throw new IllegalArgumentException(name + " key must be 16 or 32 bytes, not 24");
        }
        return aes(first, key, name);
    }

    static int chacha(int alg, byte[] key, String name) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        if (key.length != 32) {
            throw new IllegalArgumentException(name + " key must be 32 bytes, not " + key.length);
        }
        return alg;
    }

    /** An AEGIS variant's id, once its key (16 bytes for AEGIS-128*, 32 for AEGIS-256*) and tag length (16 or
     * 32) fit: the library would take a tag length of 0 as 16, which the Java classes' overhead does not. */
    static int aegis(int alg, byte[] key, int tagLength) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        String name = switch (alg) {
            case AEGIS_128L -> "AEGIS-128L";
            case AEGIS_256 -> "AEGIS-256";
            case AEGIS_128X2 -> "AEGIS-128X2";
            case AEGIS_128X4 -> "AEGIS-128X4";
            case AEGIS_256X2 -> "AEGIS-256X2";
            case AEGIS_256X4 -> "AEGIS-256X4";
            default -> throw new AssertionError(alg);
        };
        int keySize = aegisKeySize(alg);
        if (key.length != keySize) {
            throw new IllegalArgumentException(name + " key must be " + keySize + " bytes, not " + key.length);
        }
        if (tagLength != 16 && tagLength != 32) {
            throw new IllegalArgumentException(name + " tag length must be 16 or 32 bytes, not " + tagLength);
        }
        return alg;
    }

    /** Key size = nonce size of an AEGIS variant. */
    static int aegisKeySize(int alg) {
        return alg == AEGIS_256 || alg == AEGIS_256X2 || alg == AEGIS_256X4 ? 32 : 16;
    }
}
