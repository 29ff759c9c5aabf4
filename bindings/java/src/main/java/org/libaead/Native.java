package org.libaead;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The loaded library and its downcall handles, made once. The library is the one named by the system
 * property {@code libaead.library} (a path to libaead.so.1), else the copy the jar carries, extracted to a
 * private temporary file that is deleted once loaded.
 */
final class Native {
    private Native() {}

    /** The system property naming a libaead.so.1 to load instead of the jar's copy. */
    static final String LIBRARY_PROPERTY = "libaead.library";
    static final String RESOURCE = "/org/libaead/native/linux-x86_64/libaead.so";

    /** Heap memory up to this many bytes (input plus output) goes to libaead with {@code Linker.Option.critical(true)}
     * (no copy, no safepoint during the call); more goes through off-heap copies and a plain downcall.
     * The README gives the measurement behind the value. */
    static final long CRITICAL_MAX = 64 * 1024;

    static final int SEAL = 1, OPEN = 2;
    static final int POLICY_NONE = 0, POLICY_TLS12 = 1, POLICY_TLS13 = 2, POLICY_RANDOM_NONCE = 3, POLICY_QUIC = 4,
            POLICY_COUNTER = 7, POLICY_XOR_COUNTER = 8, POLICY_SSH = 9;

    static final Path LOADED_FROM;
    /** The loaded library's symbols (HpkeNative binds its handles from it on first use). */
    static final SymbolLookup LIB;
    static final MethodHandle CTX_NEW_EX, CTX_FREE, SEAL_OPEN_CRITICAL, SEAL_OPEN, STRERROR, VERSION,
            VERSION_NUMBER, CTX_INDICATOR, CTX_PROVIDER, CTX_USAGE, SEAL_OPEN_MANY;
    /** aead_ctx_usage_ex (library 1.4 and later), or null on an older library (usage() then reads aead_ctx_usage). */
    static final MethodHandle CTX_USAGE_EX;

    static {
        Path path = locate();
        LOADED_FROM = path;
        SymbolLookup lib = SymbolLookup.libraryLookup(path, Arena.global());
        LIB = lib;
        if (!path.toString().equals(System.getProperty(LIBRARY_PROPERTY, ""))) {
            try {
                Files.deleteIfExists(path); // mapped already; nothing else may load it
            } catch (IOException ignored) {
                path.toFile().deleteOnExit();
            }
        }
        Linker linker = Linker.nativeLinker();
        CTX_NEW_EX = handle(linker, lib, "aead_ctx_new_ex", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
                JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
        CTX_FREE = handle(linker, lib, "aead_ctx_free", FunctionDescriptor.ofVoid(ADDRESS));
        FunctionDescriptor sealOpen = FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG,
                ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG);
        SEAL_OPEN_CRITICAL = handle(linker, lib, "aead_seal_open", sealOpen, Linker.Option.critical(true));
        SEAL_OPEN = handle(linker, lib, "aead_seal_open", sealOpen);
        SEAL_OPEN_MANY = handle(linker, lib, "aead_seal_open_many",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG));
        STRERROR = handle(linker, lib, "aead_strerror", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
        VERSION = handle(linker, lib, "aead_version", FunctionDescriptor.of(ADDRESS));
        VERSION_NUMBER = handle(linker, lib, "aead_version_number", FunctionDescriptor.of(JAVA_INT));
        CTX_INDICATOR = handle(linker, lib, "aead_ctx_indicator", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        CTX_PROVIDER = handle(linker, lib, "aead_ctx_provider", FunctionDescriptor.of(ADDRESS, ADDRESS));
        CTX_USAGE = handle(linker, lib, "aead_ctx_usage", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        CTX_USAGE_EX = optionalHandle(linker, lib, "aead_ctx_usage_ex",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    }

    /** The handle of a symbol a newer library has, or null when the loaded one lacks it. */
    private static MethodHandle optionalHandle(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd) {
        return lib.find(name).map(symbol -> linker.downcallHandle(symbol, fd)).orElse(null);
    }

    static MethodHandle handle(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd,
                               Linker.Option... options) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libaead: symbol " + name
                + " not found (library older than " + (name.startsWith("aead_stream_") ? "1.7"
                : name.startsWith("aead_hpke_") ? "1.6" : "1.3") + "?)"));
        return linker.downcallHandle(symbol, fd, options);
    }

    private static Path locate() {
        String configured = System.getProperty(LIBRARY_PROPERTY, "");
        if (!configured.isEmpty()) {
            return Path.of(configured);
        }
        try (InputStream in = Native.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("libaead: this jar carries no " + RESOURCE
                        + " (built without it?); set -D" + LIBRARY_PROPERTY + "=/path/to/libaead.so.1");
            }
            Path tmp = Files.createTempFile("libaead-", ".so",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException("libaead: extracting the native library failed", e);
        }
    }

    static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? "" : p.reinterpret(4096).getString(0);
    }

    static String strerror(long code) {
        try {
            return string((MemorySegment) STRERROR.invokeExact(code));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static String version() {
        try {
            return string((MemorySegment) VERSION.invokeExact());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int versionNumber() {
        try {
            return (int) VERSION_NUMBER.invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Contexts freed so far (by close() or the Cleaner); read by the tests. */
    static final java.util.concurrent.atomic.AtomicLong FREED = new java.util.concurrent.atomic.AtomicLong();

    static void free(MemorySegment ctx) {
        FREED.incrementAndGet();
        invokeFree(CTX_FREE, ctx);
    }

    /** Calls one of the library's void f(void *) frees (aead_ctx_free, aead_hpke_free, aead_stream_free). */
    static void invokeFree(MethodHandle f, MemorySegment p) {
        try {
            f.invokeExact(p);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
