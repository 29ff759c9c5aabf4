package org.libaead;

import java.security.spec.AlgorithmParameterSpec;

/**
 * The parameters of the {@code LibAead} provider's {@code KEM} "HPKE" ({@link javax.crypto.KEM}): the
 * suite's KDF and AEAD (the KEM comes from the key), the setup's info, and which secret the KEM gives:
 * {@code secretLength} bytes of the context's export for {@code exporterContext} (RFC 9180 section 5.3).
 * Without parameters the KEM uses its own hash's HKDF, the export-only AEAD, empty info and exporter
 * context, and the KDF's hash size as the secret length.
 *
 * @param kdf             {@link Hpke#KDF_HKDF_SHA256}, {@link Hpke#KDF_HKDF_SHA384}, {@link Hpke#KDF_HKDF_SHA512},
 *                        {@link Hpke#KDF_SHAKE128} or {@link Hpke#KDF_SHAKE256}
 * @param aead            an {@code Hpke.AEAD_*} id or {@link Hpke#EXPORT_ONLY}
 * @param info            the application's info (null: empty)
 * @param exporterContext the export's context (null: empty; at most {@link Hpke#MAX_EXPORT_CONTEXT} bytes)
 * @param secretLength    the secret's length in bytes, 1 to 255 times the KDF's hash size (SHAKE: to 65535)
 */
public record HpkeKemParameterSpec(int kdf, int aead, byte[] info, byte[] exporterContext, int secretLength)
        implements AlgorithmParameterSpec {
    public HpkeKemParameterSpec {
        info = info == null ? new byte[0] : info.clone();
        exporterContext = exporterContext == null ? new byte[0] : exporterContext.clone();
        if (secretLength <= 0) {
            throw new IllegalArgumentException("secretLength must be positive");
        }
    }

    @Override
    public byte[] info() {
        return info.clone();
    }

    @Override
    public byte[] exporterContext() {
        return exporterContext.clone();
    }
}
