package org.libaead;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.crypto.AEADBadTagException;

/**
 * HPKE, hybrid public-key encryption (RFC 9180), through libaead 1.6: one cipher suite (a KEM, a KDF and
 * an AEAD, by their RFC 9180 identifiers), its key pairs, its sender and recipient contexts, and its
 * single-shot seal and open.
 *
 * <pre>{@code
 * Hpke suite = Hpke.of(Hpke.KEM_DHKEM_X25519_HKDF_SHA256, Hpke.KDF_HKDF_SHA256, Hpke.AEAD_AES_128_GCM);
 * Hpke.KeyPair r = suite.generateKeyPair();
 * try (Hpke.Sender s = suite.newSender(r.publicKey(), info);
 *      Hpke.Recipient q = suite.newRecipient(s.encapsulation(), r.privateKey(), info)) {
 *     byte[] ct = s.seal(aad, message);
 *     byte[] pt = q.open(aad, ct);
 * }
 * }</pre>
 *
 * <p>Keys are byte arrays as RFC 9180 serialises them: a NIST curve's public key is the uncompressed
 * point (65, 97 or 133 bytes) and its private key the big-endian scalar (32, 48 or 66 bytes); X25519 and
 * X448 keys are their raw 32 and 56 bytes. The post-quantum KEMs of draft-ietf-hpke-pq (ML-KEM and the hybrids
 * MLKEM768-P256, MLKEM1024-P384 and X-Wing) take FIPS 203's encapsulation key (a hybrid's followed by the
 * curve's) as public key and a seed (64 bytes for ML-KEM, 32 for a hybrid) as private key; their
 * encapsulation is not their public key's size ({@link #encapsulationSize()}, {@link #publicKeySize()}). They
 * need ML-KEM in libcrypto (OpenSSL 3.5 or later, as the bundled library has it): elsewhere every call with
 * them is {@link AeadException} ({@link AeadException#UNSUPPORTED}); they have the base and PSK modes only
 * (an auth mode is {@link IllegalArgumentException}). The mode follows from the arguments: a {@code psk} and
 * {@code pskId} (both non-empty) make it a PSK mode, the sender's key (its private key on the sending side,
 * its public key on the receiving side) an auth mode. {@code null} and an empty array are the same for
 * info, aad, psk and pskId.
 *
 * <p>What the library adds to RFC 9180's contexts: the sequence number lives in the native context, and
 * each seal takes the next one and commits it in one atomic step, so any number of threads may seal on
 * one {@link Sender} and no two messages share a nonce. After 2^64 - 1 seals (sequence numbers 0 to
 * 2^64 - 2) the sender refuses with {@link NoncePolicyException} ({@link NoncePolicyException#NONCE_EXHAUSTED});
 * a sender set up before {@code fork()} refuses in the child ({@link NoncePolicyException#FORKED}).
 *
 * <p>Errors follow the AEAD classes: a message that does not open is {@link AEADBadTagException}, a bad
 * argument (a key of the wrong length, a point off the curve, an X25519 / X448 key giving an all-zero shared
 * secret, psk without pskId, a seal on an export-only suite) {@link IllegalArgumentException}, a suite
 * the providers do not offer (X25519 under a FIPS provider) {@link AeadException}
 * ({@link AeadException#UNSUPPORTED}).
 *
 * <p>Instances are immutable and thread-safe; a context may be used by any number of threads at once.
 */
public final class Hpke {
    /** RFC 9180's modes (section 5); chosen from the arguments of the setup calls. */
    public static final int MODE_BASE = HpkeNative.HPKE_MODE_BASE, MODE_PSK = HpkeNative.HPKE_MODE_PSK,
            MODE_AUTH = HpkeNative.HPKE_MODE_AUTH, MODE_AUTH_PSK = HpkeNative.HPKE_MODE_AUTH_PSK;
    /** DHKEM(P-256, HKDF-SHA256), 0x0010. */
    public static final int KEM_DHKEM_P_256_HKDF_SHA256 = HpkeNative.HPKE_KEM_P256_SHA256;
    /** DHKEM(P-384, HKDF-SHA384), 0x0011. */
    public static final int KEM_DHKEM_P_384_HKDF_SHA384 = HpkeNative.HPKE_KEM_P384_SHA384;
    /** DHKEM(P-521, HKDF-SHA512), 0x0012. */
    public static final int KEM_DHKEM_P_521_HKDF_SHA512 = HpkeNative.HPKE_KEM_P521_SHA512;
    /** DHKEM(X25519, HKDF-SHA256), 0x0020. */
    public static final int KEM_DHKEM_X25519_HKDF_SHA256 = HpkeNative.HPKE_KEM_X25519_SHA256;
    /** DHKEM(X448, HKDF-SHA512), 0x0021. */
    public static final int KEM_DHKEM_X448_HKDF_SHA512 = HpkeNative.HPKE_KEM_X448_SHA512;
    /** ML-KEM-512 (FIPS 203), 0x0040: draft-ietf-hpke-pq, needs ML-KEM in libcrypto (OpenSSL 3.5+). */
    public static final int KEM_ML_KEM_512 = HpkeNative.HPKE_KEM_MLKEM512;
    /** ML-KEM-768, 0x0041. */
    public static final int KEM_ML_KEM_768 = HpkeNative.HPKE_KEM_MLKEM768;
    /** ML-KEM-1024, 0x0042. */
    public static final int KEM_ML_KEM_1024 = HpkeNative.HPKE_KEM_MLKEM1024;
    /** The hybrid MLKEM768-P256, 0x0050. */
    public static final int KEM_MLKEM768_P256 = HpkeNative.HPKE_KEM_MLKEM768_P256;
    /** The hybrid MLKEM1024-P384, 0x0051. */
    public static final int KEM_MLKEM1024_P384 = HpkeNative.HPKE_KEM_MLKEM1024_P384;
    /** The hybrid MLKEM768-X25519 (X-Wing), 0x647A. */
    public static final int KEM_MLKEM768_X25519 = HpkeNative.HPKE_KEM_MLKEM768_X25519;
    /** HKDF-SHA256 (1), HKDF-SHA384 (2), HKDF-SHA512 (3). */
    public static final int KDF_HKDF_SHA256 = HpkeNative.HPKE_KDF_HKDF_SHA256,
            KDF_HKDF_SHA384 = HpkeNative.HPKE_KDF_HKDF_SHA384, KDF_HKDF_SHA512 = HpkeNative.HPKE_KDF_HKDF_SHA512;
    /** draft-ietf-hpke-pq's one-stage KDFs: SHAKE128 (0x0010), SHAKE256 (0x0011), and TurboSHAKE128 (0x0012)
     * and TurboSHAKE256 (0x0013), which no OpenSSL release has: their suites are {@link AeadException}
     * ({@link AeadException#UNSUPPORTED}) at setup. */
    public static final int KDF_SHAKE128 = HpkeNative.HPKE_KDF_SHAKE128, KDF_SHAKE256 = HpkeNative.HPKE_KDF_SHAKE256,
            KDF_TURBOSHAKE128 = HpkeNative.HPKE_KDF_TURBOSHAKE128, KDF_TURBOSHAKE256 = HpkeNative.HPKE_KDF_TURBOSHAKE256;
    /** AES-128-GCM (1), AES-256-GCM (2), ChaCha20-Poly1305 (3). */
    public static final int AEAD_AES_128_GCM = HpkeNative.HPKE_AEAD_AES_128_GCM,
            AEAD_AES_256_GCM = HpkeNative.HPKE_AEAD_AES_256_GCM,
            AEAD_CHACHA20_POLY1305 = HpkeNative.HPKE_AEAD_CHACHA20_POLY1305;
    /** The export-only AEAD (0xFFFF): contexts that export secrets and neither seal nor open. */
    public static final int EXPORT_ONLY = HpkeNative.HPKE_AEAD_EXPORT_ONLY;
    /** The tag every HPKE AEAD appends: a ciphertext is 16 bytes longer than its plaintext. */
    public static final int TAG_LENGTH = HpkeNative.HPKE_TAG;
    /** The longest exporter context {@link Context#export} takes. */
    public static final int MAX_EXPORT_CONTEXT = HpkeNative.HPKE_MAX_EXPORT_CONTEXT;
    /** The last sequence number a context seals or opens, 2^64 - 2, read unsigned (as a long: -2). */
    public static final long MAX_SEQUENCE = -2L;

    private final int kem, kdf, aead;
    private final int encSize, publicKeySize, privateKeySize;
    private final String properties;

    private Hpke(int kem, int kdf, int aead, String properties) {
        this.encSize = (int) sizeOf(HpkeNative.ENC_SIZE, kem);
        if (encSize == 0) {
            throw new IllegalArgumentException("Hpke: unknown KEM 0x" + Integer.toHexString(kem));
        }
        if ((kdf < KDF_HKDF_SHA256 || kdf > KDF_HKDF_SHA512) && (kdf < KDF_SHAKE128 || kdf > KDF_TURBOSHAKE256)) {
            throw new IllegalArgumentException("Hpke: unknown KDF 0x" + Integer.toHexString(kdf));
        }
        if (aead != AEAD_AES_128_GCM && aead != AEAD_AES_256_GCM && aead != AEAD_CHACHA20_POLY1305
                && aead != EXPORT_ONLY) {
            throw new IllegalArgumentException("Hpke: unknown AEAD 0x" + Integer.toHexString(aead));
        }
        this.kem = kem;
        this.kdf = kdf;
        this.aead = aead;
        this.publicKeySize = (int) sizeOf(HpkeNative.PUBLIC_KEY_SIZE, kem);
        this.privateKeySize = (int) sizeOf(HpkeNative.PRIVATE_KEY_SIZE, kem);
        this.properties = properties == null || properties.isEmpty() ? null : properties;
    }

    /** The suite of these RFC 9180 identifiers (the {@code KEM_*}, {@code KDF_*} and {@code AEAD_*} constants);
     * an unknown one is {@link IllegalArgumentException}. */
    public static Hpke of(int kem, int kdf, int aead) {
        return new Hpke(kem, kdf, aead, null);
    }

    /** As {@link #of(int, int, int)}, every fetch with an OpenSSL property query (e.g. "fips=yes"), or null. */
    public static Hpke of(int kem, int kdf, int aead, String properties) {
        return new Hpke(kem, kdf, aead, properties);
    }

    private static long sizeOf(MethodHandle h, int kem) {
        try {
            return (long) h.invokeExact(kem);
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    public int kemId() {
        return kem;
    }

    public int kdfId() {
        return kdf;
    }

    public int aeadId() {
        return aead;
    }

    /** Nenc: the length of an encapsulated key (a DHKEM's is its public key's; a post-quantum KEM's differs). */
    public int encapsulationSize() {
        return encSize;
    }

    /** Npk: the length of a public key. */
    public int publicKeySize() {
        return publicKeySize;
    }

    /** Nsk: the length of a private key. */
    public int privateKeySize() {
        return privateKeySize;
    }

    @Override
    public String toString() {
        return String.format("Hpke(kem 0x%04x, kdf 0x%04x, aead 0x%04x)", kem, kdf, aead);
    }

    // ---------------------------------------------------------------------------------------------
    // Keys

    /** A KEM key pair, serialised as the setup calls take it. */
    public record KeyPair(byte[] privateKey, byte[] publicKey) {
        public KeyPair {
            privateKey = privateKey.clone();
            publicKey = publicKey.clone();
        }

        @Override
        public byte[] privateKey() {
            return privateKey.clone();
        }

        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }
    }

    /** A fresh random key pair (the library's DRBG). */
    public KeyPair generateKeyPair() {
        return keyPair(null);
    }

    /** DeriveKeyPair(ikm) (RFC 9180 section 7.1.3); ikm should be at least {@link #privateKeySize()} bytes. */
    public KeyPair deriveKeyPair(byte[] ikm) {
        return keyPair(Objects.requireNonNull(ikm, "ikm"));
    }

    private KeyPair keyPair(byte[] ikm) {
        try (Scratch s = new Scratch()) {
            MemorySegment sk = s.secret(privateKeySize), pk = s.arena.allocate(publicKeySize);
            int rc = ikm == null
                    ? (int) HpkeNative.GENERATE_KEYPAIR.invokeExact(kem, sk, (long) privateKeySize, pk,
                            (long) publicKeySize, s.string(properties))
                    : (int) HpkeNative.DERIVE_KEYPAIR.invokeExact(kem, s.copy(ikm), (long) ikm.length, sk,
                            (long) privateKeySize, pk, (long) publicKeySize, s.string(properties));
            check(rc, "Hpke." + (ikm == null ? "generateKeyPair" : "deriveKeyPair"));
            return new KeyPair(sk.toArray(ValueLayout.JAVA_BYTE), pk.toArray(ValueLayout.JAVA_BYTE));
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    /** The public key of a private key (an invalid private key is {@link IllegalArgumentException}). */
    public byte[] publicKey(byte[] privateKey) {
        Objects.requireNonNull(privateKey, "privateKey");
        try (Scratch s = new Scratch()) {
            MemorySegment pk = s.arena.allocate(publicKeySize);
            check((int) HpkeNative.PUBLIC_KEY.invokeExact(kem, s.copy(privateKey), (long) privateKey.length, pk,
                    (long) publicKeySize, s.string(properties)), "Hpke.publicKey");
            return pk.toArray(ValueLayout.JAVA_BYTE);
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Contexts

    /** SetupBaseS: a sender to the recipient's public key pkR. */
    public Sender newSender(byte[] pkR, byte[] info) {
        return newSender(pkR, info, null, null, null);
    }

    /** SetupBaseS, SetupPSKS, SetupAuthS or SetupAuthPSKS (the mode from psk, pskId and skS, each may be null). */
    public Sender newSender(byte[] pkR, byte[] info, byte[] psk, byte[] pskId, byte[] skS) {
        return sender(pkR, info, psk, pskId, skS, null);
    }

    /**
     * A sender whose ephemeral key pair is DeriveKeyPair(ikmE) instead of a fresh random one: for known-answer
     * tests (RFC 9180's test vectors) only. An ephemeral key used twice breaks HPKE's security.
     */
    public Sender newSenderForTesting(byte[] ikmE, byte[] pkR, byte[] info, byte[] psk, byte[] pskId, byte[] skS) {
        return sender(pkR, info, psk, pskId, skS, Objects.requireNonNull(ikmE, "ikmE"));
    }

    private Sender sender(byte[] pkR, byte[] info, byte[] psk, byte[] pskId, byte[] skS, byte[] ikmE) {
        Objects.requireNonNull(pkR, "pkR");
        int mode = mode(psk, pskId, skS != null);
        try (Scratch s = new Scratch()) {
            MemorySegment out = s.arena.allocate(ValueLayout.ADDRESS);
            MemorySegment enc = s.arena.allocate(encSize);
            int rc = (int) HpkeNative.SETUP_SENDER.invokeExact(out, params(s, mode, info, psk, pskId, 0, ikmE),
                    s.copy(pkR), len(pkR), s.copy(skS), len(skS), enc, (long) encSize);
            check(rc, "Hpke.newSender");
            return new Sender(this, mode, out.get(ValueLayout.ADDRESS, 0), enc.toArray(ValueLayout.JAVA_BYTE));
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    /** SetupBaseR: a recipient of enc with its private key skR. */
    public Recipient newRecipient(byte[] enc, byte[] skR, byte[] info) {
        return newRecipient(enc, skR, info, null, null, null, 0);
    }

    /** SetupBaseR, SetupPSKR, SetupAuthR or SetupAuthPSKR (the mode from psk, pskId and pkS, each may be null). */
    public Recipient newRecipient(byte[] enc, byte[] skR, byte[] info, byte[] psk, byte[] pskId, byte[] pkS) {
        return newRecipient(enc, skR, info, psk, pskId, pkS, 0);
    }

    /** As {@link #newRecipient(byte[], byte[], byte[], byte[], byte[], byte[])}, with the replay window of
     * {@link Recipient#openAt} in messages: 0 (64) or a multiple of 64 up to 4096. */
    public Recipient newRecipient(byte[] enc, byte[] skR, byte[] info, byte[] psk, byte[] pskId, byte[] pkS,
                                  int window) {
        Objects.requireNonNull(enc, "enc");
        Objects.requireNonNull(skR, "skR");
        int mode = mode(psk, pskId, pkS != null);
        try (Scratch s = new Scratch()) {
            MemorySegment out = s.arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) HpkeNative.SETUP_RECIPIENT.invokeExact(out, params(s, mode, info, psk, pskId, window, null),
                    s.copy(enc), len(enc), s.copy(skR), len(skR), s.copy(pkS), len(pkS));
            check(rc, "Hpke.newRecipient");
            return new Recipient(this, mode, out.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Single-shot (RFC 9180 section 6)

    /** A single-shot seal's result: the encapsulated key and ciphertext || tag. */
    public record Sealed(byte[] encapsulation, byte[] ciphertext) {}

    /** Single-shot base-mode seal: setup and one seal (sequence 0) in one call. */
    public Sealed seal(byte[] pkR, byte[] info, byte[] aad, byte[] plaintext) {
        return seal(pkR, info, aad, plaintext, null, null, null);
    }

    /** Single-shot seal in any mode (the mode from psk, pskId and skS, each may be null). */
    public Sealed seal(byte[] pkR, byte[] info, byte[] aad, byte[] plaintext, byte[] psk, byte[] pskId, byte[] skS) {
        Objects.requireNonNull(pkR, "pkR");
        Objects.requireNonNull(plaintext, "plaintext");
        int mode = mode(psk, pskId, skS != null);
        try (Scratch s = new Scratch()) {
            MemorySegment enc = s.arena.allocate(encSize);
            long outLen = plaintext.length + (long) TAG_LENGTH;
            MemorySegment out = s.arena.allocate(outLen);
            long rc = (long) HpkeNative.SEAL_SINGLE.invokeExact(params(s, mode, info, psk, pskId, 0, null),
                    s.copy(pkR), len(pkR), s.copy(skS), len(skS), enc, (long) encSize, s.copy(aad), len(aad),
                    s.copy(plaintext), len(plaintext), out, outLen);
            check(rc, "Hpke.seal");
            return new Sealed(enc.toArray(ValueLayout.JAVA_BYTE), out.asSlice(0, rc).toArray(ValueLayout.JAVA_BYTE));
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    /** Single-shot base-mode open: setup and one open (sequence 0) in one call. */
    public byte[] open(byte[] enc, byte[] skR, byte[] info, byte[] aad, byte[] ciphertext) throws AEADBadTagException {
        return open(enc, skR, info, aad, ciphertext, null, null, null);
    }

    /** Single-shot open in any mode (the mode from psk, pskId and pkS, each may be null). */
    public byte[] open(byte[] enc, byte[] skR, byte[] info, byte[] aad, byte[] ciphertext, byte[] psk, byte[] pskId,
                       byte[] pkS) throws AEADBadTagException {
        Objects.requireNonNull(enc, "enc");
        Objects.requireNonNull(skR, "skR");
        Objects.requireNonNull(ciphertext, "ciphertext");
        int mode = mode(psk, pskId, pkS != null);
        try (Scratch s = new Scratch()) {
            long outLen = Math.max(0, ciphertext.length - TAG_LENGTH);
            MemorySegment out = s.secret(outLen);
            long rc = (long) HpkeNative.OPEN_SINGLE.invokeExact(params(s, mode, info, psk, pskId, 0, null),
                    s.copy(enc), len(enc), s.copy(skR), len(skR), s.copy(pkS), len(pkS), s.copy(aad), len(aad),
                    s.copy(ciphertext), len(ciphertext), out, outLen);
            opened(rc, "Hpke.open");
            return out.asSlice(0, rc).toArray(ValueLayout.JAVA_BYTE);
        } catch (AEADBadTagException e) {
            throw e;
        } catch (Throwable t) {
            throw AeadContext.rethrow(t);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers

    private static int mode(byte[] psk, byte[] pskId, boolean auth) {
        boolean withPsk = len(psk) > 0 || len(pskId) > 0;
        return withPsk ? (auth ? MODE_AUTH_PSK : MODE_PSK) : (auth ? MODE_AUTH : MODE_BASE);
    }

    private static long len(byte[] a) {
        return a == null ? 0 : a.length;
    }

    /** An aead_hpke_params in s's arena. */
    private MemorySegment params(Scratch s, int mode, byte[] info, byte[] psk, byte[] pskId, int window, byte[] ikmE) {
        MemorySegment p = s.arena.allocate(HpkeNative.PARAMS);
        p.set(ValueLayout.JAVA_LONG, 0, HpkeNative.PARAMS.byteSize());
        p.set(ValueLayout.JAVA_INT, 8, mode);
        p.set(ValueLayout.JAVA_INT, 12, kem);
        p.set(ValueLayout.JAVA_INT, 16, kdf);
        p.set(ValueLayout.JAVA_INT, 20, aead);
        long at = 24;
        for (byte[] b : new byte[][] {info, psk, pskId}) {
            p.set(ValueLayout.ADDRESS, at, s.copy(b));
            p.set(ValueLayout.JAVA_LONG, at + 8, len(b));
            at += 16;
        }
        p.set(ValueLayout.ADDRESS, 72, s.string(properties));
        p.set(ValueLayout.JAVA_INT, 80, window);
        p.set(ValueLayout.ADDRESS, 88, s.copy(ikmE));
        p.set(ValueLayout.JAVA_LONG, 96, len(ikmE));
        return p;
    }

    /** A confined arena whose every copy is zeroed before it is freed (keys, psk, plaintexts pass through it). */
    static final class Scratch implements AutoCloseable {
        final Arena arena = Arena.ofConfined();
        private final List<MemorySegment> used = new ArrayList<>();

        MemorySegment copy(byte[] b) {
            if (b == null || b.length == 0) {
                return MemorySegment.NULL;
            }
            MemorySegment m = arena.allocateFrom(ValueLayout.JAVA_BYTE, b);
            used.add(m);
            return m;
        }

        MemorySegment secret(long n) {
            MemorySegment m = arena.allocate(Math.max(1, n));
            used.add(m);
            return m;
        }

        MemorySegment string(String s) {
            return s == null ? MemorySegment.NULL : arena.allocateFrom(s);
        }

        @Override
        public void close() {
            for (MemorySegment m : used) {
                m.fill((byte) 0);
            }
            arena.close();
        }
    }

    /** Throws for a negative AEAD_ERR_* code of an HPKE call other than an open (there AUTH is checked). */
    private static void check(long rc, String who) {
        if (rc < 0) {
            throw error(rc, who);
        }
    }

    private static void opened(long rc, String who) throws AEADBadTagException {
        if (rc == AeadException.AUTH) {
            throw new AEADBadTagException("libaead: authentication failed");
        }
        if (rc == AeadException.REPLAY) {
            throw new ReplayException(who + ": sequence number already opened, or left of the replay window");
        }
        check(rc, who);
    }

    static RuntimeException error(long code, String who) {
        String text = Native.strerror(code);
        if (NoncePolicyException.isPolicy(code)) {
            return new NoncePolicyException((int) code, who + ": " + text);
        }
        if (code == AeadException.UNSUPPORTED || code == AeadException.NOMEM || code == AeadException.CRYPTO
                || code == AeadException.AUTH) {
            return new AeadException((int) code, who + ": " + text);
        }
        return new IllegalArgumentException(who + ": " + text + " (libaead code " + code + ")");
    }

    /**
     * {@link Recipient#openAt}: the sequence number was already opened on this context, or is left of its
     * replay window (AEAD_ERR_REPLAY). Nothing was decrypted. An {@link AEADBadTagException}, so that code
     * dropping messages that do not open drops these too.
     */
    public static final class ReplayException extends AEADBadTagException {
        private static final long serialVersionUID = 1L;

        ReplayException(String message) {
            super(message);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The contexts

    /**
     * What a sender's and a recipient's context share: the secret export interface, the indicator and the
     * counters, and freeing. {@link #close()} frees the native context and cleanses its secrets (a context
     * never closed is freed once unreachable); a second close is harmless, a close while another thread is
     * inside a call throws {@link IllegalStateException} and frees nothing, and after close every call throws
     * {@link IllegalStateException}.
     */
    public abstract static sealed class Context implements AutoCloseable permits Sender, Recipient {
        private final Hpke suite;
        private final int mode;
        private final Arena arena;
        /** The native aead_hpke, its lifetime tied to arena: a call in flight keeps arena open. */
        final MemorySegment ctx;
        private final Cleaner.Cleanable cleanable;

        Context(Hpke suite, int mode, MemorySegment raw) {
            this.suite = suite;
            this.mode = mode;
            this.arena = Arena.ofShared();
            this.ctx = raw.reinterpret(arena, HpkeNative::free);
            this.cleanable = AeadContext.CLEANER.register(this, new AeadContext.Closer(arena));
        }

        /** The suite this context was set up with. */
        public final Hpke suite() {
            return suite;
        }

        /** The mode ({@code MODE_*}) the setup ran in. */
        public final int mode() {
            return mode;
        }

        /**
         * Context.Export (RFC 9180 section 5.3): {@code length} bytes bound to this context and
         * exporterContext (at most {@link #MAX_EXPORT_CONTEXT} bytes; null is empty); the same on both sides.
         */
        public final byte[] export(byte[] exporterContext, int length) {
            if (length < 0) {
                throw new IllegalArgumentException("length must not be negative");
            }
            try (Scratch s = new Scratch()) {
                MemorySegment out = s.secret(length);
                int rc = (int) HpkeNative.EXPORT.invokeExact(ctx, s.copy(exporterContext), len(exporterContext), out,
                        (long) length);
                check(rc, getClass().getSimpleName() + ".export");
                return out.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
        }

        /** The AEAD context inside, tied to this context's lifetime; NULL for an export-only suite. */
        private MemorySegment aeadCtx() throws Throwable {
            MemorySegment inner = (MemorySegment) HpkeNative.AEAD_CTX.invokeExact(ctx);
            return inner.equals(MemorySegment.NULL) ? inner : inner.reinterpret(arena, null);
        }

        /** The FIPS indicator (docs/hpke.md has the table per suite); the provider is the AEAD's ("" for an
         * export-only suite). */
        public final AeadContext.Indicator indicator() {
            try {
                return AeadContext.indicator((int) HpkeNative.INDICATOR.invokeExact(ctx), aeadCtx());
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
        }

        /** The counters of the context's AEAD: seals made and opens that failed (an export-only suite: zeros). */
        public final AeadContext.Usage usage() {
            try {
                MemorySegment inner = aeadCtx();
                return inner.equals(MemorySegment.NULL) ? new AeadContext.Usage(0, 0) : AeadContext.usage(inner);
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
        }

        /** Frees the native context. Idempotent; throws IllegalStateException if another thread is inside a call. */
        @Override
        public final synchronized void close() {
            if (!arena.scope().isAlive()) {
                return;
            }
            arena.close();
            cleanable.clean();
        }

        static final int SEAL = 0, OPEN = 1, OPEN_AT = 2;

        /**
         * One seal or open: heap memory up to Native.CRITICAL_MAX bytes in all goes to libaead through the
         * critical handle (no copy), native memory of any size through the plain one, larger heap memory
         * through off-heap copies (in place stays in place; any other overlap is refused, as libaead does).
         */
        final long cross(int op, long seq, MemorySegment aad, MemorySegment in, MemorySegment out, long[] seqOut)
                throws AEADBadTagException {
            long need = op == SEAL ? in.byteSize() + TAG_LENGTH : Math.max(0, in.byteSize() - TAG_LENGTH);
            if (out.isReadOnly() || out.byteSize() < need) {
                throw AeadContext.badOutput(out, need);
            }
            out = need == 0 ? MemorySegment.NULL : out.asSlice(0, need);
            long rc;
            try {
                if (aad.byteSize() + in.byteSize() + need <= Native.CRITICAL_MAX) {
                    rc = call(op, true, seq, aad, in, out, seqOut == null ? MemorySegment.NULL
                            : MemorySegment.ofArray(seqOut));
                } else if (aad.isNative() && in.isNative() && out.isNative()) {
                    try (Arena tmp = Arena.ofConfined()) {
                        MemorySegment s = tmp.allocate(ValueLayout.JAVA_LONG);
                        rc = call(op, false, seq, aad, in, out, s);
                        if (seqOut != null) {
                            seqOut[0] = s.get(ValueLayout.JAVA_LONG, 0);
                        }
                    }
                } else {
                    rc = offHeap(op, seq, aad, in, out, seqOut);
                }
            } catch (Throwable t) {
                throw AeadContext.rethrow(t);
            }
            String who = getClass().getSimpleName() + (op == SEAL ? ".seal" : op == OPEN ? ".open" : ".openAt");
            opened(rc, who);
            return rc;
        }

        private long offHeap(int op, long seq, MemorySegment aad, MemorySegment in, MemorySegment out, long[] seqOut)
                throws Throwable {
            boolean inPlace = in.byteSize() > 0 && in.heapBase().equals(out.heapBase()) && in.address() == out.address()
                    && !in.isNative();
            if (!inPlace && (overlaps(out, in) || overlaps(out, aad))) {
                throw new IllegalArgumentException(getClass().getSimpleName()
                        + ": the output overlaps an input (only out == in, in place, is allowed)");
            }
            try (Scratch s = new Scratch()) {
                MemorySegment a = aad.isNative() ? aad : s.secret(aad.byteSize()).copyFrom(aad);
                MemorySegment i, o;
                if (inPlace) { // one buffer for both, so that libaead sees out == in
                    MemorySegment both = s.secret(Math.max(in.byteSize(), out.byteSize()));
                    i = both.asSlice(0, in.byteSize()).copyFrom(in);
                    o = both.asSlice(0, out.byteSize());
                } else {
                    i = in.isNative() ? in : s.secret(in.byteSize()).copyFrom(in);
                    o = out.isNative() ? out : s.secret(out.byteSize()).asSlice(0, out.byteSize());
                }
                MemorySegment q = s.arena.allocate(ValueLayout.JAVA_LONG);
                long rc = call(op, false, seq, a, i, o, q);
                if (!out.isNative()) {
                    MemorySegment.copy(o, 0, out, 0, out.byteSize());
                }
                if (seqOut != null) {
                    seqOut[0] = q.get(ValueLayout.JAVA_LONG, 0);
                }
                return rc;
            }
        }

        private static boolean overlaps(MemorySegment out, MemorySegment other) {
            return out.byteSize() > 0 && other.byteSize() > 0 && out.asOverlappingSlice(other).isPresent();
        }

        private long call(int op, boolean critical, long seq, MemorySegment aad, MemorySegment in, MemorySegment out,
                          MemorySegment seqOut) throws Throwable {
            return switch (op) {
                case SEAL -> (long) (critical ? HpkeNative.SEAL_CRITICAL : HpkeNative.SEAL).invokeExact(ctx, aad,
                        aad.byteSize(), in, in.byteSize(), out, out.byteSize(), seqOut);
                case OPEN -> (long) (critical ? HpkeNative.OPEN_CRITICAL : HpkeNative.OPEN).invokeExact(ctx, aad,
                        aad.byteSize(), in, in.byteSize(), out, out.byteSize());
                default -> (long) (critical ? HpkeNative.OPEN_AT_CRITICAL : HpkeNative.OPEN_AT).invokeExact(ctx, seq,
                        aad, aad.byteSize(), in, in.byteSize(), out, out.byteSize());
            };
        }

        static MemorySegment seg(byte[] a) {
            return AeadContext.seg(a);
        }
    }

    /**
     * A sender's context (RFC 9180 ContextS), from {@link #newSender}: its {@link #encapsulation()} goes to
     * the recipient. Any number of threads may seal and export on it at once; each seal gets its own
     * sequence number.
     */
    public static final class Sender extends Context {
        private final byte[] enc;

        Sender(Hpke suite, int mode, MemorySegment raw, byte[] enc) {
            super(suite, mode, raw);
            this.enc = enc;
        }

        /** enc, the encapsulated key the recipient sets up with. */
        public byte[] encapsulation() {
            return enc.clone();
        }

        /** A seal's sequence number and its ciphertext || tag. */
        public record Message(long sequence, byte[] ciphertext) {}

        /** ContextS.Seal: encrypts plaintext under the next sequence number; returns ciphertext || tag. */
        public byte[] seal(byte[] aad, byte[] plaintext) {
            return sealWithSequence(aad, plaintext).ciphertext();
        }

        /** As {@link #seal}, and tells the sequence number used (unsigned: 0 to 2^64 - 2). */
        public Message sealWithSequence(byte[] aad, byte[] plaintext) {
            Objects.requireNonNull(plaintext, "plaintext");
            byte[] out = new byte[plaintext.length + TAG_LENGTH];
            long[] seq = new long[1];
            try {
                cross(SEAL, 0, seg(aad), seg(plaintext), MemorySegment.ofArray(out), seq);
            } catch (AEADBadTagException impossible) {
                throw new AssertionError(impossible);
            }
            return new Message(seq[0], out);
        }

        /** Seals in's remaining bytes into out from its position (heap or direct; in == out, in place, is
         * allowed); advances both positions; returns the bytes written (in's remaining + 16). */
        public int sealInto(byte[] aad, ByteBuffer in, ByteBuffer out) {
            AeadContext.writable(out);
            int n;
            try {
                n = (int) cross(SEAL, 0, seg(aad), AeadContext.seg(in), AeadContext.seg(out), null);
            } catch (AEADBadTagException impossible) {
                throw new AssertionError(impossible);
            }
            in.position(in.limit());
            out.position(out.position() + n);
            return n;
        }
    }

    /**
     * A recipient's context (RFC 9180 ContextR), from {@link #newRecipient}. {@link #open} opens messages in
     * order; {@link #openAt} by an explicit sequence number through a replay window.
     */
    public static final class Recipient extends Context {
        Recipient(Hpke suite, int mode, MemorySegment raw) {
            super(suite, mode, raw);
        }

        /** ContextR.Open: opens the next message in order (0, 1, ...); a message out of order, tampered with
         * or under other aad is {@link AEADBadTagException}. */
        public byte[] open(byte[] aad, byte[] ciphertext) throws AEADBadTagException {
            Objects.requireNonNull(ciphertext, "ciphertext");
            byte[] out = new byte[Math.max(0, ciphertext.length - TAG_LENGTH)];
            cross(OPEN, 0, seg(aad), seg(ciphertext), MemorySegment.ofArray(out), null);
            return out;
        }

        /** Opens the message sealed under sequence number seq (unsigned): a number already opened or left of the
         * window is {@link ReplayException}; a failed open leaves the window as it was. */
        public byte[] openAt(long seq, byte[] aad, byte[] ciphertext) throws AEADBadTagException {
            Objects.requireNonNull(ciphertext, "ciphertext");
            byte[] out = new byte[Math.max(0, ciphertext.length - TAG_LENGTH)];
            cross(OPEN_AT, seq, seg(aad), seg(ciphertext), MemorySegment.ofArray(out), null);
            return out;
        }

        /** As {@link #open}, from in's remaining bytes into out from its position; advances both positions;
         * returns the plaintext length. A failed open leaves out's range zeroed. */
        public int openInto(byte[] aad, ByteBuffer in, ByteBuffer out) throws AEADBadTagException {
            return into(OPEN, 0, aad, in, out);
        }

        /** As {@link #openAt}, from in's remaining bytes into out from its position. */
        public int openAtInto(long seq, byte[] aad, ByteBuffer in, ByteBuffer out) throws AEADBadTagException {
            return into(OPEN_AT, seq, aad, in, out);
        }

        private int into(int op, long seq, byte[] aad, ByteBuffer in, ByteBuffer out) throws AEADBadTagException {
            AeadContext.writable(out);
            int n = (int) cross(op, seq, seg(aad), AeadContext.seg(in), AeadContext.seg(out), null);
            in.position(in.limit());
            out.position(out.position() + n);
            return n;
        }
    }
}
