/**
 * libaead for Java: authenticated encryption through libaead (OpenSSL 3) with the Foreign Function and
 * Memory API ({@link org.libaead.AesGcm} and the other keyed classes), and the JCA provider
 * {@link org.libaead.LibAeadProvider} ("LibAead").
 */
module org.libaead {
    exports org.libaead;
    provides java.security.Provider with org.libaead.LibAeadProvider;
}
