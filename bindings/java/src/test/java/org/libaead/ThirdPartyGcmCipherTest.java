package org.libaead;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.security.Provider;
import java.security.Security;
import java.util.Properties;

import org.apache.commons.crypto.cipher.CryptoCipherFactory;
import org.apache.commons.crypto.cipher.GcmCipherTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A JCA test suite we did not write: Apache Commons Crypto's {@code GcmCipherTest} (from its
 * {@code commons-crypto-1.2.0-tests.jar} on Maven Central, pinned in the pom and sha256-checked by test.sh),
 * run through Commons Crypto's {@code JceCipher} on the provider {@code LibAead}, with every other provider
 * removed from {@link Security} but SUN (digests and SecureRandom, no Cipher: checked), so no cipher can
 * come from SunJCE or any other provider. Its {@code @Test} methods (NIST GCM
 * cases, byte-array and ByteBuffer forms, arbitrary-length updates, no plaintext before the tag verified,
 * tampered data, GMAC) are inherited unchanged; only the cipher selection of its {@code setup} is replaced
 * (its own selects Commons Crypto's OpenSSL JNI cipher).
 */
class ThirdPartyGcmCipherTest extends GcmCipherTest {
    private Provider[] saved;

    @Override
    @BeforeEach
    public void setup() {
        saved = Security.getProviders();
        // Every provider out but SUN, which has no Cipher (Cipher.init's SecureRandom needs its SHA-1)
        for (Provider p : saved) if (!p.getName().equals("SUN")) Security.removeProvider(p.getName());
        Security.insertProviderAt(new LibAeadProvider(), 1);
        if (!Security.getProviders()[0].getName().equals("LibAead") || Security.getProviders().length != 2)
            throw new AssertionError("providers: " + java.util.Arrays.toString(Security.getProviders()));
        for (Provider p : Security.getProviders())
            for (Provider.Service s : p.getServices())
                if (s.getType().equals("Cipher") && !p.getName().equals("LibAead"))
                    throw new AssertionError(p.getName() + " offers a Cipher: " + s.getAlgorithm());
        String cipherClass = "org.apache.commons.crypto.cipher.JceCipher";
        Properties props = new Properties();
        props.setProperty(CryptoCipherFactory.CLASSES_KEY, cipherClass);
        props.setProperty(CryptoCipherFactory.JCE_PROVIDER_KEY, "LibAead");
        try {   // its fields are package-private: set them as its own setup does
            set("cipherClass", cipherClass);
            set("props", props);
            Method init = GcmCipherTest.class.getDeclaredMethod("initTestData");
            init.setAccessible(true);
            init.invoke(this);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private void set(String name, Object value) throws ReflectiveOperationException {
        Field f = GcmCipherTest.class.getDeclaredField(name);
        f.setAccessible(true);
        f.set(this, value);
    }

    /**
     * Its NIST cases stop at its streaming-update check (this provider buffers until doFinal): run its other
     * checks (decryption, ByteBuffer forms, no data before the tag verified) on every one of its NIST cases.
     */
    @Test
    void nistCasesPastTheStreamingCheck() throws Exception {
        String[] k = (String[]) get("kHex"), p = (String[]) get("pHex"), iv = (String[]) get("ivHex"),
                aad = (String[]) get("aadHex"), c = (String[]) get("cHex"), t = (String[]) get("tHex");
        if (k.length < 4) throw new AssertionError("its NIST data is missing");
        for (String check : new String[] {"testGcmEncryption", "testGcmDecryption", "testGcmByteBuffer",
                "testGcmReturnDataAfterTagVerified"}) {
            Method m = GcmCipherTest.class.getDeclaredMethod(check, String.class, String.class, String.class,
                    String.class, String.class, String.class);
            m.setAccessible(true);
            for (int i = 0; i < k.length; i++) {
                try {
                    m.invoke(this, k[i], p[i], iv[i], aad[i], c[i], t[i]);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw new AssertionError(check + " on NIST case index " + i, e.getCause());
                }
            }
        }
    }

    private Object get(String name) throws ReflectiveOperationException {
        Field f = GcmCipherTest.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(this);
    }

    @AfterEach
    public void restoreProviders() {
        for (Provider p : Security.getProviders()) Security.removeProvider(p.getName());
        for (Provider p : saved) Security.addProvider(p);
    }
}
