// A user of the released jar (test-release.sh): the binding, the JCA provider found by ServiceLoader
// against SunJCE, and AEAD from libaegis; run on the module path and on the class path.
package scratch;

import java.security.Provider;
import java.util.Arrays;
import java.util.ServiceLoader;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.libaead.AeadContext;
import org.libaead.Aegis128L;
import org.libaead.AesGcm;

public class Main {
    public static void main(String[] args) throws Exception {
        byte[] key = new byte[16], nonce = new byte[12], msg = "hello".getBytes();
        byte[] sealed;
        try (AesGcm a = new AesGcm(key)) {
            sealed = a.seal(nonce, null, msg);
            if (!Arrays.equals(a.open(nonce, null, sealed), msg)) throw new AssertionError("round trip");
        }
        Provider p = null;
        for (Provider q : ServiceLoader.load(Provider.class)) if (q.getName().equals("LibAead")) p = q;
        if (p == null) throw new AssertionError("LibAead provider not found by ServiceLoader");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        if (!Arrays.equals(c.doFinal(msg), sealed)) throw new AssertionError("provider differs");
        Cipher sun = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
        sun.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        if (!Arrays.equals(sun.doFinal(msg), sealed)) throw new AssertionError("SunJCE differs");
        try (Aegis128L a = new Aegis128L(key)) {  // the jar's library carries libaegis
            if (!a.indicator().provider().equals("libaegis")) throw new AssertionError("AEGIS from " + a.indicator().provider());
            if (!Arrays.equals(a.open(key, null, a.seal(key, null, msg)), msg)) throw new AssertionError("AEGIS round trip");
            c = Cipher.getInstance("AEGIS-128L", p);
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AEGIS"), new IvParameterSpec(key));
            if (!Arrays.equals(c.doFinal(a.seal(key, null, msg)), msg)) throw new AssertionError("AEGIS provider differs");
        }
        System.out.println("ok " + AeadContext.libraryVersion() + " (module " + Main.class.getModule().getName() + ")");
    }
}
