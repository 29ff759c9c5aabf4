package org.libaead;

/** AEGIS-128L (RFC 10032; for CPUs with AES instructions):
 * 16-byte key, 16-byte nonce chosen by the caller and never repeated under one key, tag 16 or
 * 32 bytes. Served by libaegis inside libaead; not FIPS-approved (a FIPS property query is refused). */
public final class Aegis128L extends Aead {
    /** AEGIS-128L with a 16-byte tag. */
    public Aegis128L(byte[] key) {
        this(key, 16, null);
    }

    /** tagLength: 16 or 32; properties: an OpenSSL property query, or null ("fips=yes": {@link AeadException} UNSUPPORTED). */
    public Aegis128L(byte[] key, int tagLength, String properties) {
        super(Algs.aegis(Algs.AEGIS_128L, key, tagLength), Native.POLICY_NONE, key, tagLength, tagLength, properties, null);
    }
}
