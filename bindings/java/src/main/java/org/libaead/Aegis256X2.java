package org.libaead;

/** AEGIS-256X2 (RFC 10032; the parallel AEGIS-256X of degree 2: its own output, fastest on CPUs with VAES):
 * 32-byte key, 32-byte nonce chosen by the caller and never repeated under one key, tag 16 or
 * 32 bytes. Served by libaegis inside libaead; not FIPS-approved (a FIPS property query is refused). */
public final class Aegis256X2 extends Aead {
    /** AEGIS-256X2 with a 16-byte tag. */
    public Aegis256X2(byte[] key) {
        this(key, 16, null);
    }

    /** tagLength: 16 or 32; properties: an OpenSSL property query, or null ("fips=yes": {@link AeadException} UNSUPPORTED). */
    public Aegis256X2(byte[] key, int tagLength, String properties) {
        super(Algs.aegis(Algs.AEGIS_256X2, key, tagLength), Native.POLICY_NONE, key, tagLength, tagLength, properties, null);
    }
}
