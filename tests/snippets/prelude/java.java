// The variables the documents' Java blocks use undeclared, as static fields (a block may declare a local
// of the same name, such as its own `gcm`). A block runs as the body of main.
// IMPORTS
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.libaead.AesGcm;
import org.libaead.AesGcmForSsh;
import org.libaead.AesGcmForTls13;
import org.libaead.LibAeadProvider;

class Snippet {
    static final byte[] key = new byte[32];                      // AES-256, ChaCha20-Poly1305
    static final byte[] nonce = new byte[12];
    static final byte[] iv = {0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 0, 0, 0, 1};  // a TLS, SSH or JCA IV
    static final byte[] aad = "header".getBytes(StandardCharsets.UTF_8);
    static final byte[] plaintext = "attack at dawn".getBytes(StandardCharsets.UTF_8);
    static final byte[] payload = plaintext, lengthField = {0, 0, 0, (byte) plaintext.length};
    // The forms that write into the caller's memory.
    static final byte[] in = plaintext, out = new byte[64];
    static final int inOff = 0, inLen = in.length, outOff = 0;
    static final ByteBuffer inBuffer = ByteBuffer.wrap(in), outBuffer = ByteBuffer.allocateDirect(64);
    static final MemorySegment nonceSeg = Arena.global().allocateFrom(ValueLayout.JAVA_BYTE, nonce),
            aadSeg = Arena.global().allocateFrom(ValueLayout.JAVA_BYTE, aad),
            inSeg = Arena.global().allocateFrom(ValueLayout.JAVA_BYTE, in), outSeg = Arena.global().allocate(64);
    // Batches: n TLS 1.3 records (nonce: iv XOR sequence, aad: the 5-byte record header), and the same
    // records sealed by a plain AesGcm for openMany.
    static final int n = 3;
    static final byte[][] nonces = new byte[n][], aads = new byte[n][], plaintexts = new byte[n][],
            ciphertexts = new byte[n][];
    static final AesGcm gcm = new AesGcm(key);
    static final AesGcmForTls13 tls = new AesGcmForTls13(key, iv);

    static {
        for (int i = 0; i < n; i++) {
            nonces[i] = iv.clone();
            nonces[i][11] ^= (byte) i;
            plaintexts[i] = ("record " + i).getBytes(StandardCharsets.UTF_8);
            aads[i] = new byte[] {23, 3, 3, 0, (byte) (plaintexts[i].length + 16)};
            ciphertexts[i] = gcm.seal(nonces[i], aads[i], plaintexts[i]);
        }
    }

    public static void main(String[] args) throws Exception {
        // BODY
    }
}
