package org.libaead;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * One JCA cipher of {@link LibAeadProvider}. {@code update} and {@code updateAAD} buffer; {@code doFinal}
 * seals or opens the whole message in one call into libaead. SunJCE's rules apply: encryption may not be
 * re-initialised with the key and IV of the previous encryption, an encryption needs a new init after its
 * {@code doFinal}, AAD comes before data, and decryption releases plaintext only once the tag verified.
 * The native context is kept while the key (and tag length) stay the same.
 */
final class AeadCipherSpi extends CipherSpi {
    enum Family {
        GCM("GCM", 12, true), CHACHA("None", 12, false), CCM("CCM", 12, true), GCM_SIV("GCM-SIV", 12, true),
        OCB("OCB", 12, true), XCHACHA("None", 24, false),
        AEGIS_128L("None", 16, false), AEGIS_256("None", 32, false), AEGIS_128X2("None", 16, false),
        AEGIS_128X4("None", 16, false), AEGIS_256X2("None", 32, false), AEGIS_256X4("None", 32, false);

        final String mode;
        final int defaultIv;
        final boolean aes;

        Family(String mode, int defaultIv, boolean aes) {
            this.mode = mode;
            this.defaultIv = defaultIv;
            this.aes = aes;
        }

        boolean aegis() {
            return switch (this) {
                case AEGIS_128L, AEGIS_256, AEGIS_128X2, AEGIS_128X4, AEGIS_256X2, AEGIS_256X4 -> true;
                default -> false;
            };
        }

        /** What the error messages call it: the mode, or an AEGIS variant's name (its mode is "None"). */
        String label() {
            return aegis() ? name().replace('_', '-') : mode;
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private final Family family;
    private final int fixedKeySize;
    private final String properties;

    private boolean encrypt;
    private boolean initialized;
    private boolean done; // encryption finished: a new init is needed
    private byte[] iv;
    private int tagLen = 16;
    private byte[] aad = EMPTY;
    private int aadLen;
    private byte[] data = EMPTY;
    private int dataLen;
    private boolean dataStarted;
    private byte[] lastEncKey, lastEncIv;
    private Aead aead;
    private byte[] aeadKey;
    private int aeadTag;

    AeadCipherSpi(Family family, int fixedKeySize, String properties) {
        this.family = family;
        this.fixedKeySize = fixedKeySize;
        this.properties = properties;
    }

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
        if (!family.mode.equalsIgnoreCase(mode)) {
            throw new NoSuchAlgorithmException("mode " + mode + " not supported (only " + family.mode + ")");
        }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
        if (!"NoPadding".equalsIgnoreCase(padding)) {
            throw new NoSuchPaddingException("padding " + padding + " not supported (only NoPadding)");
        }
    }

    @Override
    protected int engineGetBlockSize() {
        return family.aes ? 16 : 0;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        long total = (long) dataLen + Math.max(0, inputLen);
        long n = encrypt ? total + tagLen : Math.max(0, total - tagLen);
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    @Override
    protected byte[] engineGetIV() {
        return iv == null ? null : iv.clone();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (iv == null) {
            return null;
        }
        try {
            AlgorithmParameters p;
            switch (family) {
                case CHACHA -> {
                    p = AlgorithmParameters.getInstance("ChaCha20-Poly1305");
                    p.init(new IvParameterSpec(iv));
                }
                case XCHACHA -> {
                    return null; // no JCA parameter type takes a 24-byte ChaCha20 nonce
                }
                default -> {
                    p = AlgorithmParameters.getInstance("GCM");
                    p.init(new GCMParameterSpec(tagLen * 8, iv));
                }
            }
            return p;
        } catch (NoSuchAlgorithmException | InvalidParameterSpecException e) {
            return null;
        }
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        return rawKey(key).length * 8;
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
        try {
            engineInit(opmode, key, (AlgorithmParameterSpec) null, random);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        AlgorithmParameterSpec spec = null;
        if (params != null) {
            try {
                spec = switch (family) {
                    case CHACHA, XCHACHA -> params.getParameterSpec(IvParameterSpec.class);
                    default -> params.getParameterSpec(GCMParameterSpec.class);
                };
            } catch (InvalidParameterSpecException e) {
                throw new InvalidAlgorithmParameterException("unsupported parameters: " + params, e);
            }
        }
        engineInit(opmode, key, spec, random);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc = switch (opmode) {
            case Cipher.ENCRYPT_MODE, Cipher.WRAP_MODE -> true;
            case Cipher.DECRYPT_MODE, Cipher.UNWRAP_MODE -> false;
            default -> throw new InvalidAlgorithmParameterException("unknown opmode " + opmode);
        };
        byte[] k = rawKey(key);
        byte[] newIv;
        int newTag = 16;
        if (params == null) {
            if (!enc) {
                throw new InvalidAlgorithmParameterException("Parameters required for decryption");
            }
            newIv = new byte[family.defaultIv];
            (random != null ? random : new SecureRandom()).nextBytes(newIv);
        } else if (params instanceof GCMParameterSpec g && family != Family.CHACHA && family != Family.XCHACHA) {
            newIv = g.getIV();
            newTag = g.getTLen() / 8;
            checkTag(g.getTLen());
        } else if (params instanceof IvParameterSpec s && family != Family.GCM && family != Family.CCM) {
            newIv = s.getIV();
        } else {
            throw new InvalidAlgorithmParameterException("unsupported parameter type for " + family + ": "
                    + params.getClass().getName());
        }
        checkIv(newIv);
        if (enc && family != Family.GCM_SIV && lastEncKey != null && MessageDigest.isEqual(k, lastEncKey)
                && Arrays.equals(newIv, lastEncIv)) {
            if (family == Family.CHACHA || family == Family.XCHACHA) {
                throw new InvalidKeyException("Matching key and nonce from previous initialization");
            }
            throw new InvalidAlgorithmParameterException("Cannot reuse iv for " + family.label() + " encryption");
        }
        if (aead == null || aeadTag != newTag || !MessageDigest.isEqual(k, aeadKey)) {
            Aead fresh;
            try {
                fresh = newAead(k, newTag);
            } catch (IllegalArgumentException | AeadException e) {
                throw new InvalidKeyException(e.getMessage(), e);
            }
            if (aead != null) {
                aead.close();
                Arrays.fill(aeadKey, (byte) 0);
            }
            aead = fresh;
            aeadKey = k.clone();
            aeadTag = newTag;
        }
        if (enc) {
            lastEncKey = k.clone();
            lastEncIv = newIv.clone();
        }
        Arrays.fill(k, (byte) 0);
        encrypt = enc;
        iv = newIv.clone();
        tagLen = newTag;
        initialized = true;
        done = false;
        reset();
    }

    private Aead newAead(byte[] k, int tag) {
        return switch (family) {
            case GCM -> new AesGcm(k, tag, properties);
            case CCM -> new AesCcm(k, tag, properties);
            case GCM_SIV -> new AesGcmSiv(k, properties);
            case OCB -> new AesOcb3(k, properties);
            case CHACHA -> new ChaCha20Poly1305(k, properties);
            case XCHACHA -> new XChaCha20Poly1305(k, properties);
            case AEGIS_128L -> new Aegis128L(k, tag, properties);
            case AEGIS_256 -> new Aegis256(k, tag, properties);
            case AEGIS_128X2 -> new Aegis128X2(k, tag, properties);
            case AEGIS_128X4 -> new Aegis128X4(k, tag, properties);
            case AEGIS_256X2 -> new Aegis256X2(k, tag, properties);
            case AEGIS_256X4 -> new Aegis256X4(k, tag, properties);
        };
    }

    private byte[] rawKey(Key key) throws InvalidKeyException {
        if (key == null) {
            throw new InvalidKeyException("key is null");
        }
        if (!"RAW".equalsIgnoreCase(key.getFormat())) {
            throw new InvalidKeyException("key format must be RAW, not " + key.getFormat());
        }
        byte[] k = key.getEncoded();
        if (k == null) {
            throw new InvalidKeyException("key has no encoding");
        }
        boolean ok = fixedKeySize != 0 ? k.length == fixedKeySize
                : family.aes ? (k.length == 16 || k.length == 24 || k.length == 32) : k.length == 32;
        if (!ok) {
            int n = k.length;
            Arrays.fill(k, (byte) 0);
            throw new InvalidKeyException("invalid key length " + n + " bytes");
        }
        return k;
    }

    private void checkTag(int bits) throws InvalidAlgorithmParameterException {
        boolean ok = switch (family) {
            case GCM -> bits >= 96 && bits <= 128 && bits % 8 == 0;
            case CCM -> bits >= 32 && bits <= 128 && bits % 16 == 0;
            case AEGIS_128L, AEGIS_256, AEGIS_128X2, AEGIS_128X4, AEGIS_256X2, AEGIS_256X4 -> bits == 128 || bits == 256;
            default -> bits == 128;
        };
        if (!ok) {
            throw new InvalidAlgorithmParameterException("unsupported tag length " + bits + " bits for " + family.label());
        }
    }

    private void checkIv(byte[] v) throws InvalidAlgorithmParameterException {
        int n = v == null ? 0 : v.length;
        boolean ok = switch (family) {
            case GCM -> n >= 1 && n <= 128;
            case CCM -> n >= 7 && n <= 13;
            case OCB -> n >= 1 && n <= 15;
            case GCM_SIV, CHACHA -> n == 12;
            case XCHACHA -> n == 24;
            case AEGIS_128L, AEGIS_256, AEGIS_128X2, AEGIS_128X4, AEGIS_256X2, AEGIS_256X4 -> n == family.defaultIv;
        };
        if (!ok) {
            throw new InvalidAlgorithmParameterException("invalid IV length " + n + " for " + family.label());
        }
    }

    private void checkState() {
        if (!initialized) {
            throw new IllegalStateException("Cipher not initialized");
        }
        if (done) {
            throw new IllegalStateException("Cipher must be re-initialized with a new key or IV after an encryption");
        }
    }

    private void reset() {
        Arrays.fill(data, 0, dataLen, (byte) 0);
        aadLen = 0;
        dataLen = 0;
        dataStarted = false;
    }

    private static byte[] grow(byte[] buf, int used, int more) {
        long need = (long) used + more;
        if (need > Integer.MAX_VALUE - 64) {
            throw new IllegalStateException("message too long for one Cipher operation");
        }
        if (need <= buf.length) {
            return buf;
        }
        byte[] n = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 64, Math.max(need, buf.length * 2L)));
        Arrays.fill(buf, (byte) 0);
        return n;
    }

    @Override
    protected void engineUpdateAAD(byte[] src, int offset, int len) {
        checkState();
        if (dataStarted) {
            throw new IllegalStateException("AAD must be supplied before encryption/decryption starts");
        }
        aad = grow(aad, aadLen, len);
        System.arraycopy(src, offset, aad, aadLen, len);
        aadLen += len;
    }

    @Override
    protected void engineUpdateAAD(ByteBuffer src) {
        checkState();
        if (dataStarted) {
            throw new IllegalStateException("AAD must be supplied before encryption/decryption starts");
        }
        int len = src.remaining();
        aad = grow(aad, aadLen, len);
        src.get(aad, aadLen, len);
        aadLen += len;
    }

    private void buffer(byte[] in, int off, int len) {
        checkState();
        if (len > 0) {
            data = grow(data, dataLen, len);
            System.arraycopy(in, off, data, dataLen, len);
            dataLen += len;
            dataStarted = true;
        }
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int off, int len) {
        buffer(in, off, len);
        return EMPTY;
    }

    @Override
    protected int engineUpdate(byte[] in, int off, int len, byte[] out, int outOff) {
        buffer(in, off, len);
        return 0;
    }

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) throws AEADBadTagException {
        checkState();
        long total = (long) dataLen + len;
        if (!encrypt && total < tagLen) {
            reset();
            throw new AEADBadTagException("input shorter than the tag");
        }
        byte[] out = new byte[engineGetOutputSize(len)];
        finish(in, off, len, out, 0);
        return out;
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException, AEADBadTagException {
        checkState();
        long total = (long) dataLen + len;
        if (!encrypt && total < tagLen) {
            reset();
            throw new AEADBadTagException("input shorter than the tag");
        }
        int need = engineGetOutputSize(len);
        if (out == null || out.length - outOff < need) {
            throw new ShortBufferException("output needs " + need + " bytes");
        }
        return finish(in, off, len, out, outOff);
    }

    /** The one crossing: the buffered data and in[off, off + len) sealed or opened into out at outOff. */
    private int finish(byte[] in, int off, int len, byte[] out, int outOff) throws AEADBadTagException {
        byte[] src = in;
        int srcOff = off, srcLen = len;
        if (dataLen > 0) {
            buffer(in, off, len);
            src = data;
            srcOff = 0;
            srcLen = dataLen;
        } else if (in == null) {
            src = EMPTY;
            srcOff = 0;
            srcLen = 0;
        }
        int outLen = encrypt ? srcLen + tagLen : srcLen - tagLen;
        if (src == out && srcLen > 0 && srcOff != outOff && srcOff < outOff + outLen && outOff < srcOff + srcLen) {
            src = Arrays.copyOfRange(src, srcOff, srcOff + srcLen); // libaead refuses a partial overlap
            srcOff = 0;
        }
        try {
            MemorySegment a = aadLen == 0 ? MemorySegment.NULL : MemorySegment.ofArray(aad).asSlice(0, aadLen);
            return (int) aead.cross(encrypt ? Native.SEAL : Native.OPEN, AeadContext.seg(iv), a,
                    AeadContext.seg(src, srcOff, srcLen), AeadContext.seg(out, outOff, outLen));
        } finally {
            if (encrypt) {
                done = true;
            }
            reset();
        }
    }

    @Override
    protected byte[] engineWrap(Key key) throws InvalidKeyException {
        byte[] k = key.getEncoded();
        if (k == null) {
            throw new InvalidKeyException("key has no encoding");
        }
        try {
            return engineDoFinal(k, 0, k.length);
        } catch (GeneralSecurityException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    @Override
    protected Key engineUnwrap(byte[] wrapped, String algorithm, int type)
            throws InvalidKeyException, NoSuchAlgorithmException {
        if (type != Cipher.SECRET_KEY) {
            throw new NoSuchAlgorithmException("only secret keys can be unwrapped");
        }
        try {
            byte[] k = engineDoFinal(wrapped, 0, wrapped.length);
            return new javax.crypto.spec.SecretKeySpec(k, algorithm);
        } catch (GeneralSecurityException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }
}
