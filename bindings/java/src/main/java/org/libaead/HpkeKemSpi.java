package org.libaead;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.XECKey;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.DecapsulateException;
import javax.crypto.KEM;
import javax.crypto.KEMSpi;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code KEM} "HPKE" of the LibAead provider: the encapsulation is an HPKE sender's enc (base mode),
 * the shared secret the context's export ({@link HpkeKemParameterSpec}). Keys are the JDK's X25519 / X448
 * ({@link XECKey}) and P-256 / P-384 / P-521 ({@link ECKey}) keys. The SecureRandom is not used: the
 * ephemeral key comes from libcrypto's DRBG.
 */
final class HpkeKemSpi implements KEMSpi {
    private final String properties;

    HpkeKemSpi(String properties) {
        this.properties = properties;
    }

    @Override
    public EncapsulatorSpi engineNewEncapsulator(PublicKey publicKey, AlgorithmParameterSpec spec,
                                                 SecureRandom secureRandom)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        int kem = kemOf(publicKey);
        Setup s = setup(kem, spec);
        return new Encapsulator(s, publicBytes(publicKey, s.suite.encapsulationSize()));
    }

    @Override
    public DecapsulatorSpi engineNewDecapsulator(PrivateKey privateKey, AlgorithmParameterSpec spec)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        int kem = kemOf(privateKey);
        Setup s = setup(kem, spec);
        return new Decapsulator(s, privateBytes(privateKey, s.suite.privateKeySize()));
    }

    /** The suite and the export the secret is. */
    private record Setup(Hpke suite, byte[] info, byte[] exporterContext, int secretLength) {}

    private Setup setup(int kem, AlgorithmParameterSpec spec) throws InvalidAlgorithmParameterException {
        int hash = switch (kem) {
            case Hpke.KEM_DHKEM_P_256_HKDF_SHA256, Hpke.KEM_DHKEM_X25519_HKDF_SHA256 -> Hpke.KDF_HKDF_SHA256;
            case Hpke.KEM_DHKEM_P_384_HKDF_SHA384 -> Hpke.KDF_HKDF_SHA384;
            default -> Hpke.KDF_HKDF_SHA512;
        };
        if (spec == null) {
            return new Setup(Hpke.of(kem, hash, Hpke.EXPORT_ONLY, properties), null, null, hashSize(hash));
        }
        if (!(spec instanceof HpkeKemParameterSpec p)) {
            throw new InvalidAlgorithmParameterException("HPKE: parameters must be an HpkeKemParameterSpec, not "
                    + spec.getClass().getName());
        }
        if (p.exporterContext().length > Hpke.MAX_EXPORT_CONTEXT || p.secretLength() > maxSecret(p.kdf())) {
            throw new InvalidAlgorithmParameterException("HPKE: exporter context over 960 bytes or secret longer than"
                    + " the KDF allows (255 hash lengths; 65535 bytes for SHAKE)");
        }
        try {
            return new Setup(Hpke.of(kem, p.kdf(), p.aead(), properties), p.info(), p.exporterContext(),
                    p.secretLength());
        } catch (IllegalArgumentException e) {
            throw new InvalidAlgorithmParameterException(e.getMessage(), e);
        }
    }

    /** The longest export: 255 hash lengths for HKDF, 65535 bytes for a one-stage KDF (SHAKE). */
    private static int maxSecret(int kdf) {
        return kdf >= Hpke.KDF_SHAKE128 && kdf <= Hpke.KDF_TURBOSHAKE256 ? 65535 : 255 * hashSize(kdf);
    }

    private static int hashSize(int kdf) {
        return kdf == Hpke.KDF_HKDF_SHA256 ? 32 : kdf == Hpke.KDF_HKDF_SHA384 ? 48 : 64;
    }

    /** What the encapsulator and the decapsulator share: their setup and key, checks, sizes, and the secret as a key. */
    private abstract static class Side {
        final Setup s;
        /** The recipient's public key (encapsulator) or private key (decapsulator), serialised as RFC 9180 says. */
        final byte[] recipientKey;

        Side(Setup s, byte[] recipientKey) {
            this.s = s;
            this.recipientKey = recipientKey;
        }

        /** The checks both make before anything else: from..to within the secret, and an algorithm name. */
        final void checkKeyArgs(int from, int to, String algorithm) {
            Objects.checkFromToIndex(from, to, s.secretLength);
            Objects.requireNonNull(algorithm, "algorithm");
        }

        /** Bytes from..to of ctx's export as a key for algorithm; the export is wiped once copied. */
        final SecretKeySpec key(Hpke.Context ctx, int from, int to, String algorithm) {
            byte[] secret = ctx.export(s.exporterContext, s.secretLength);
            try {
                return new SecretKeySpec(secret, from, to - from, algorithm);
            } finally {
                Arrays.fill(secret, (byte) 0);
            }
        }

        public int engineSecretSize() {
            return s.secretLength;
        }

        public int engineEncapsulationSize() {
            return s.suite.encapsulationSize();
        }
    }

    private static final class Encapsulator extends Side implements EncapsulatorSpi {
        Encapsulator(Setup s, byte[] pkR) {
            super(s, pkR);
        }

        @Override
        public KEM.Encapsulated engineEncapsulate(int from, int to, String algorithm) {
            checkKeyArgs(from, to, algorithm);
            try (Hpke.Sender tx = s.suite.newSender(recipientKey, s.info)) {
                return new KEM.Encapsulated(key(tx, from, to, algorithm), tx.encapsulation(), null);
            }
        }
    }

    private static final class Decapsulator extends Side implements DecapsulatorSpi {
        Decapsulator(Setup s, byte[] skR) {
            super(s, skR);
        }

        @Override
        public javax.crypto.SecretKey engineDecapsulate(byte[] encapsulation, int from, int to, String algorithm)
                throws DecapsulateException {
            checkKeyArgs(from, to, algorithm);
            Objects.requireNonNull(encapsulation, "encapsulation");
            if (encapsulation.length != s.suite.encapsulationSize()) {
                throw new DecapsulateException("HPKE: encapsulation of " + encapsulation.length + " bytes, need "
                        + s.suite.encapsulationSize());
            }
            Hpke.Recipient rx;
            try {
                rx = s.suite.newRecipient(encapsulation, recipientKey, s.info);
            } catch (IllegalArgumentException e) { // a point off the curve, an all-zero shared secret
                throw new DecapsulateException("HPKE: not an encapsulation of this KEM", e);
            }
            try (rx) {
                return key(rx, from, to, algorithm);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The JDK's key classes and RFC 9180's serialisation

    /** The KEM of an X25519 / X448 or NIST-curve key. */
    static int kemOf(Key key) throws InvalidKeyException {
        if (key instanceof XECKey x && x.getParams() instanceof NamedParameterSpec n) {
            if (n.getName().equalsIgnoreCase("X25519")) {
                return Hpke.KEM_DHKEM_X25519_HKDF_SHA256;
            }
            if (n.getName().equalsIgnoreCase("X448")) {
                return Hpke.KEM_DHKEM_X448_HKDF_SHA512;
            }
        } else if (key instanceof ECKey e) {
            ECParameterSpec p = e.getParams();
            String[] curves = {"secp256r1", "secp384r1", "secp521r1"};
            int[] kems = {Hpke.KEM_DHKEM_P_256_HKDF_SHA256, Hpke.KEM_DHKEM_P_384_HKDF_SHA384,
                Hpke.KEM_DHKEM_P_521_HKDF_SHA512};
            for (int i = 0; i < curves.length; i++) {
                ECParameterSpec std = standard(curves[i]);
                if (std.getCurve().equals(p.getCurve()) && std.getGenerator().equals(p.getGenerator())
                        && std.getOrder().equals(p.getOrder())) {
                    return kems[i];
                }
            }
        }
        throw new InvalidKeyException("HPKE: an X25519, X448, P-256, P-384 or P-521 key is needed, not "
                + (key == null ? "null" : key.getAlgorithm() + " (" + key.getClass().getName() + ")"));
    }

    private static ECParameterSpec standard(String curve) {
        try {
            AlgorithmParameters a = AlgorithmParameters.getInstance("EC");
            a.init(new ECGenParameterSpec(curve));
            return a.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HPKE: the JDK does not know " + curve, e);
        }
    }

    /** SerializePublicKey: X25519 / X448 little-endian u, NIST curves the uncompressed point. */
    static byte[] publicBytes(PublicKey key, int size) throws InvalidKeyException {
        if (key instanceof XECPublicKey x) {
            byte[] be = unsigned(x.getU().mod(BigInteger.ONE.shiftLeft(8 * size)), size);
            for (int i = 0, j = size - 1; i < j; i++, j--) {
                byte t = be[i];
                be[i] = be[j];
                be[j] = t;
            }
            return be;
        }
        if (key instanceof ECPublicKey e) {
            int n = (size - 1) / 2;
            byte[] out = new byte[size];
            out[0] = 4;
            System.arraycopy(unsigned(e.getW().getAffineX(), n), 0, out, 1, n);
            System.arraycopy(unsigned(e.getW().getAffineY(), n), 0, out, 1 + n, n);
            return out;
        }
        throw new InvalidKeyException("HPKE: not an XEC or EC public key");
    }

    /** SerializePrivateKey: X25519 / X448 raw, NIST curves the big-endian scalar. */
    static byte[] privateBytes(PrivateKey key, int size) throws InvalidKeyException {
        if (key instanceof XECPrivateKey x) {
            byte[] raw = x.getScalar().orElseThrow(() -> new InvalidKeyException("HPKE: the key's scalar is not available"));
            if (raw.length != size) {
                throw new InvalidKeyException("HPKE: a private key of " + raw.length + " bytes, need " + size);
            }
            return raw;
        }
        if (key instanceof ECPrivateKey e) {
            return unsigned(e.getS(), size);
        }
        throw new InvalidKeyException("HPKE: not an XEC or EC private key");
    }

    /** v big-endian in exactly n bytes. */
    private static byte[] unsigned(BigInteger v, int n) throws InvalidKeyException {
        byte[] b = v.toByteArray();
        int skip = b.length > n ? b.length - n : 0;
        for (int i = 0; i < skip; i++) {
            if (b[i] != 0) {
                throw new InvalidKeyException("HPKE: a key value longer than " + n + " bytes");
            }
        }
        byte[] out = new byte[n];
        System.arraycopy(b, skip, out, n - (b.length - skip), b.length - skip);
        return out;
    }
}
