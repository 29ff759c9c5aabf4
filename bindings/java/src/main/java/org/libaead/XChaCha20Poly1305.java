package org.libaead;

/** XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha, as libsodium): 32-byte key, 24-byte nonce, 16-byte tag. */
public final class XChaCha20Poly1305 extends Aead {
    public XChaCha20Poly1305(byte[] key) {
        this(key, null);
    }

    public XChaCha20Poly1305(byte[] key, String properties) {
        super(Algs.chacha(Algs.XCHACHA20_POLY1305, key, "XChaCha20-Poly1305"), Native.POLICY_NONE, key, 16, 16, properties, null);
    }
}
