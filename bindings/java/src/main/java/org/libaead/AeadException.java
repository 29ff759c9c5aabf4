package org.libaead;

/**
 * A libaead failure other than an authentication failure (that one is
 * {@link javax.crypto.AEADBadTagException}) and other than a bad argument (those are
 * {@link IllegalArgumentException}): the stable negative {@code AEAD_ERR_*} code of the C library is
 * {@link #code()}.
 */
public class AeadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    // The codes of the other failures, as a batch's codes array reports them (AEAD_ERR_AUTH is an
    // AEADBadTagException, the size and overlap codes an IllegalArgumentException).

    /** AEAD_ERR_AUTH: the tag did not verify. */
    public static final int AUTH = -1;
    /** AEAD_ERR_ARG: an argument the library refuses (an algorithm and policy that do not pair, for one). */
    public static final int ARG = -2;
    /** AEAD_ERR_KEY_SIZE: the key's length does not fit the algorithm. */
    public static final int KEY_SIZE = -3;
    /** AEAD_ERR_NONCE_SIZE: the nonce's (or the iv's) length does not fit the algorithm or policy. */
    public static final int NONCE_SIZE = -4;
    /** AEAD_ERR_TAG_SIZE: the tag length does not fit the algorithm or policy. */
    public static final int TAG_SIZE = -5;
    /** AEAD_ERR_AAD_SIZE: a sequenced seal's aad is not the policy's length (TLS 1.2: 13, TLS 1.3: 5, SSH: 4). */
    public static final int AAD_SIZE = -6;
    /** AEAD_ERR_TOO_LONG: the plaintext or aad is over the algorithm's limit. */
    public static final int TOO_LONG = -7;
    /** AEAD_ERR_BUFFER_TOO_SMALL: the output is shorter than the result. */
    public static final int BUFFER_TOO_SMALL = -8;
    /** AEAD_ERR_OVERLAP: the output partially overlaps an input. */
    public static final int OVERLAP = -9;
    /** AEAD_ERR_REPLAY: an HPKE recipient's sequence number already opened or left of its replay window
     * (thrown as {@link Hpke.ReplayException}). */
    public static final int REPLAY = -19;
    /** AEAD_ERR_STREAM_FINISHED: a stream's final segment was sealed or opened; nothing may follow it. */
    public static final int STREAM_FINISHED = -21;
    /** AEAD_ERR_UNSUPPORTED: the algorithm is not available from the selected providers. */
    public static final int UNSUPPORTED = -13;
    /** AEAD_ERR_NOMEM: an allocation inside the library failed. */
    public static final int NOMEM = -14;
    /** AEAD_ERR_CRYPTO: libcrypto reported an unexpected failure. */
    public static final int CRYPTO = -15;

    private final int code;

    AeadException(int code, String message) {
        super(message + " (libaead code " + code + ")");
        this.code = code;
    }

    /** The negative {@code AEAD_ERR_*} code. */
    public int code() {
        return code;
    }
}
