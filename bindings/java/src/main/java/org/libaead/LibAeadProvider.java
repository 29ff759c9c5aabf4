package org.libaead;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.List;
import java.util.Map;

/**
 * The JCA provider "LibAead": AEAD ciphers through libaead, one call into the library per message at
 * {@code doFinal} ({@code update} buffers, as Conscrypt does).
 *
 * <p>Ciphers: {@code AES/GCM/NoPadding} (and {@code AES_128/GCM/NoPadding}, {@code AES_256/GCM/NoPadding}),
 * {@code ChaCha20-Poly1305} (aliases {@code ChaCha20/Poly1305/NoPadding}, {@code CHACHA20-POLY1305}),
 * {@code AES/CCM/NoPadding}, {@code AES/GCM-SIV/NoPadding}, {@code AES/OCB/NoPadding},
 * {@code XChaCha20-Poly1305} and the AEGIS family (RFC 10032): {@code AEGIS-128L}, {@code AEGIS-256},
 * {@code AEGIS-128X2}, {@code AEGIS-128X4}, {@code AEGIS-256X2}, {@code AEGIS-256X4} (an
 * {@code IvParameterSpec}, or a {@code GCMParameterSpec} of 128 or 256 bits for the tag length).
 * {@code new LibAeadProvider("fips=yes")} (or {@code Security} configuration
 * {@code LibAead fips=yes}) passes that OpenSSL property query to every context and registers only the
 * FIPS-approved family, AES-GCM.
 *
 * <p>KEM: {@code HPKE} ({@link javax.crypto.KEM}): RFC 9180's base-mode setup as a KEM, the secret an export
 * of the context ({@link HpkeKemParameterSpec}), on the JDK's X25519, X448 and P-256 / P-384 / P-521 keys.
 */
public final class LibAeadProvider extends Provider {
    private static final long serialVersionUID = 1L;

    private final String properties;

    /** The provider with libcrypto's default properties. */
    public LibAeadProvider() {
        this(null);
    }

    /** properties: an OpenSSL property query given to every context (e.g. "fips=yes"), or null. */
    public LibAeadProvider(String properties) {
        super("LibAead", "1.7.0", "libaead AEAD ciphers (OpenSSL 3) through the FFM API"
                + (properties == null ? "" : " [" + properties + "]"));
        this.properties = properties == null || properties.isEmpty() ? null : properties;
        boolean fips = this.properties != null && this.properties.replace(" ", "").contains("fips=yes");
        add(AeadCipherSpi.Family.GCM, "AES/GCM/NoPadding", 0, List.of("AES/GCM"));
        add(AeadCipherSpi.Family.GCM, "AES_128/GCM/NoPadding", 16, List.of());
        add(AeadCipherSpi.Family.GCM, "AES_192/GCM/NoPadding", 24, List.of());
        add(AeadCipherSpi.Family.GCM, "AES_256/GCM/NoPadding", 32, List.of());
        if (!fips) {
            add(AeadCipherSpi.Family.CHACHA, "ChaCha20-Poly1305", 32,
                    List.of("ChaCha20/Poly1305/NoPadding", "CHACHA20-POLY1305"));
            add(AeadCipherSpi.Family.CCM, "AES/CCM/NoPadding", 0, List.of());
            add(AeadCipherSpi.Family.GCM_SIV, "AES/GCM-SIV/NoPadding", 0, List.of());
            add(AeadCipherSpi.Family.OCB, "AES/OCB/NoPadding", 0, List.of());
            add(AeadCipherSpi.Family.XCHACHA, "XChaCha20-Poly1305", 32, List.of("XCHACHA20-POLY1305"));
            add(AeadCipherSpi.Family.AEGIS_128L, "AEGIS-128L", 16, List.of());
            add(AeadCipherSpi.Family.AEGIS_256, "AEGIS-256", 32, List.of());
            add(AeadCipherSpi.Family.AEGIS_128X2, "AEGIS-128X2", 16, List.of());
            add(AeadCipherSpi.Family.AEGIS_128X4, "AEGIS-128X4", 16, List.of());
            add(AeadCipherSpi.Family.AEGIS_256X2, "AEGIS-256X2", 32, List.of());
            add(AeadCipherSpi.Family.AEGIS_256X4, "AEGIS-256X4", 32, List.of());
        }
        putService(new KemService(this));
    }

    /** Configures a copy with the given property query (what {@code java.security} passes after the class name). */
    @Override
    public Provider configure(String configArg) {
        return new LibAeadProvider(configArg);
    }

    @Override
    public boolean isConfigured() {
        return true;
    }

    private void add(AeadCipherSpi.Family family, String name, int keySize, List<String> aliases) {
        putService(new CipherService(this, family, name, keySize, aliases));
    }

    private static final class KemService extends Service {
        KemService(LibAeadProvider p) {
            super(p, "KEM", "HPKE", HpkeKemSpi.class.getName(), List.of(),
                    Map.of("SupportedKeyClasses", "java.security.interfaces.XECKey|java.security.interfaces.ECKey"));
        }

        @Override
        public Object newInstance(Object constructorParameter) {
            return new HpkeKemSpi(((LibAeadProvider) getProvider()).properties);
        }
    }

    private static final class CipherService extends Service {
        private final AeadCipherSpi.Family family;
        private final int keySize;

        CipherService(LibAeadProvider p, AeadCipherSpi.Family family, String name, int keySize, List<String> aliases) {
            super(p, "Cipher", name, AeadCipherSpi.class.getName(), aliases,
                    Map.of("SupportedKeyFormats", "RAW"));
            this.family = family;
            this.keySize = keySize;
        }

        @Override
        public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
            return new AeadCipherSpi(family, keySize, ((LibAeadProvider) getProvider()).properties);
        }
    }
}
