package org.libaead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared by the tests: the conformance vectors' directory, random bytes, hex, and a parser for NIST-style .txt/.rsp files. */
final class TestSupport {
    private TestSupport() {}

    private static Path vectors;

    /** $AEAD_VECTORS_DIR, else the last stdout line of the repository's tests/vectors.py; fails if neither. */
    static synchronized Path vectorsDir() {
        if (vectors != null) {
            return vectors;
        }
        String env = System.getenv("AEAD_VECTORS_DIR");
        if (env != null && !env.isEmpty()) {
            vectors = Path.of(env);
        } else {
            Path script = Path.of("").toAbsolutePath().resolve("../../tests/vectors.py").normalize();
            if (!Files.exists(script)) {
                throw new AssertionError("AEAD_VECTORS_DIR is not set and " + script + " does not exist");
            }
            try {
                Process p = new ProcessBuilder("python3", script.toString())
                        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (p.waitFor() != 0) {
                    throw new AssertionError("tests/vectors.py failed");
                }
                vectors = Path.of(out.substring(out.lastIndexOf('\n') + 1));
            } catch (IOException | InterruptedException e) {
                throw new AssertionError("running tests/vectors.py", e);
            }
        }
        if (!Files.isDirectory(vectors.resolve("wycheproof"))) {
            throw new AssertionError("no conformance vectors in " + vectors);
        }
        return vectors;
    }

    private static final SecureRandom RND = new SecureRandom();

    /** n bytes from a SecureRandom. */
    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RND.nextBytes(b);
        return b;
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.strip());
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** Blocks of "Name = value" lines separated by blank lines ("# ..." comments skipped); [Section = n] headers
     * are merged into each following block; a bare "FAIL" line becomes FAIL = "". */
    static List<Map<String, String>> nistBlocks(Path file) throws IOException {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> section = new LinkedHashMap<>();
        Map<String, String> cur = null;
        for (String raw : Files.readAllLines(file)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                String[] kv = line.substring(1, line.length() - 1).split("=", 2);
                if (kv.length == 2) {
                    section.put(kv[0].strip(), kv[1].strip());
                }
                continue;
            }
            if (line.equals("FAIL")) {
                cur.put("FAIL", "");
                continue;
            }
            String[] kv = line.split("=", 2);
            String k = kv[0].strip(), v = kv.length > 1 ? kv[1].strip() : "";
            if (k.equalsIgnoreCase("COUNT")) {
                cur = new LinkedHashMap<>(section);
                out.add(cur);
            }
            if (cur != null) {
                cur.put(k, v);
            }
        }
        return out;
    }
}
