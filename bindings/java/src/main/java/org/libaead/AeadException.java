package org.libaead;

/**
 * A libaead failure other than an authentication failure (that one is
 * {@link javax.crypto.AEADBadTagException}) and other than a bad argument (those are
 * {@link IllegalArgumentException}): the stable negative {@code AEAD_ERR_*} code of the C library is
 * {@link #code()}.
 */
public class AeadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

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
