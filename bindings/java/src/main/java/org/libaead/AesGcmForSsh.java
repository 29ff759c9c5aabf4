package org.libaead;

/**
 * AES-GCM in SSH (RFC 5647, {@code aes128-gcm@openssh.com} and {@code aes256-gcm@openssh.com}; Go's FIPS
 * module's {@code NewGCMForSSH}): the nonce is the 4-byte fixed field || the 8-byte invocation counter,
 * incremented per packet modulo 2^64. Seal enforces {@link AesGcmCounterNonce}'s rules (the counter
 * strictly increasing from the initial IV's, never back to it) and an aad of exactly 4 bytes (the packet
 * length). Seals are counted: {@link #usage()} gives {@code rekeyAfter} 2^32, RFC 4344's rekey point
 * (nothing is refused there; replace the object by a key exchange). A refusal is a
 * {@link NoncePolicyException} (an aad of another length an {@link IllegalArgumentException}); it writes
 * nothing and consumes nothing. Open is not order-checked.
 */
public final class AesGcmForSsh extends Aead {
    /** key: 16 or 32 bytes. iv: the key exchange's 12-byte initial IV, or null (the first seal fixes it:
     * make it before sharing the object). */
    public AesGcmForSsh(byte[] key, byte[] iv) {
        this(key, iv, null);
    }

    public AesGcmForSsh(byte[] key, byte[] iv, String properties) {
        super(Algs.aes128or256(Algs.AES_128_GCM, key, "AES-GCM for SSH"), Native.POLICY_SSH, key, 16, 16, properties, iv);
    }
}
