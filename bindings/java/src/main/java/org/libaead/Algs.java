package org.libaead;

/** Algorithm identifiers of include/aead.h and key-size dispatch. */
final class Algs {
    private Algs() {}

    static final int AES_128_GCM = 1, CHACHA20_POLY1305 = 4, AES_128_CCM = 5, AES_128_GCM_SIV = 8, AES_128_OCB = 11,
            XCHACHA20_POLY1305 = 14, AES_128_SIV = 15;

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
}
