package org.libaead;

/**
 * A seal (or, at a key's integrity limit, an open) refused by the context's nonce policy: the nonce would
 * repeat or break the TLS / QUIC / counter / SSH rules, or a limit was reached. Nothing was written and no
 * state changed. {@link #code()} tells which rule, one of the constants below.
 */
public final class NoncePolicyException extends AeadException {
    private static final long serialVersionUID = 1L;

    /** AEAD_ERR_NONCE_ORDER: the sequence (packet number) is not greater than the last accepted one. */
    public static final int NONCE_ORDER = -10;
    /** AEAD_ERR_NONCE_EXHAUSTED: the sequence is 2^64-1 (QUIC: at or above 2^62; counters: back at the start). */
    public static final int NONCE_EXHAUSTED = -11;
    /** AEAD_ERR_NONCE_PREFIX: the fixed part of the nonce differs from the context's. */
    public static final int NONCE_PREFIX = -12;
    /** AEAD_ERR_NONCE_LIMIT: a random-nonce AES-GCM context has made 2^32 seals (an AEGIS-128L or -128X one 2^48). */
    public static final int NONCE_LIMIT = -16;
    /** AEAD_ERR_FORKED: a TLS, QUIC, counter-nonce or SSH context inherited across fork() refuses to seal. */
    public static final int FORKED = -17;
    /** AEAD_ERR_KEY_LIMIT: a QUIC key reached its confidentiality or integrity limit. */
    public static final int KEY_LIMIT = -18;

    NoncePolicyException(int code, String message) {
        super(code, message);
    }

    static boolean isPolicy(long code) {
        return code == NONCE_ORDER || code == NONCE_EXHAUSTED || code == NONCE_PREFIX || code == NONCE_LIMIT
                || code == FORKED || code == KEY_LIMIT;
    }
}
