package org.libaead;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The downcall handles of the streaming calls (library 1.7), bound on first use so that the other classes
 * keep working on an older library named by {@code -Dlibaead.library}: there, the first streaming call
 * throws {@link UnsatisfiedLinkError}.
 */
final class StreamNative {
    private StreamNative() {}

    // The header's identifiers and sizes (tests/decls/check.py compares them with include/aead.h).
    static final int STREAM_TINK_AES_GCM_HKDF = 1, STREAM_AGE = 2, STREAM_RFC8188 = 3;
    static final int STREAM_SHA1 = 1, STREAM_SHA256 = 2, STREAM_SHA512 = 3;
    static final int STREAM_MAX_SEGMENT = 16777216, STREAM_MAX_HEADER = 276, STREAM_AGE_CHUNK = 65536;

    /** struct aead_stream_params (x86-64 / AArch64 LP64: 96 bytes). */
    static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("size"),
            JAVA_INT.withName("format"), MemoryLayout.paddingLayout(4),
            ADDRESS.withName("key"), JAVA_LONG.withName("key_len"),
            JAVA_LONG.withName("key_size"),
            JAVA_INT.withName("hkdf_hash"), JAVA_INT.withName("segment_size"),
            JAVA_INT.withName("first_segment_offset"), MemoryLayout.paddingLayout(4),
            ADDRESS.withName("associated_data"), JAVA_LONG.withName("associated_data_len"),
            ADDRESS.withName("keyid"), JAVA_LONG.withName("keyid_len"),
            ADDRESS.withName("properties"));

    static final MethodHandle WRITER_NEW, READER_NEW, FREE, SEAL, OPEN, OPEN_SEGMENT, SEGMENT_SIZE, OVERHEAD,
            POSITION;
    /** aead_stream_seal, _open and _open_segment with {@code Linker.Option.critical(true)}: for heap arrays the
     * stream owns, when a segment's input and output together fit {@link Native#CRITICAL_MAX}. */
    static final MethodHandle SEAL_CRITICAL, OPEN_CRITICAL, OPEN_SEGMENT_CRITICAL;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup lib = Native.LIB;
        WRITER_NEW = Native.handle(linker, lib, "aead_stream_writer_new", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        READER_NEW = Native.handle(linker, lib, "aead_stream_reader_new", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        FREE = Native.handle(linker, lib, "aead_stream_free", FunctionDescriptor.ofVoid(ADDRESS));
        Linker.Option critical = Linker.Option.critical(true);
        FunctionDescriptor seal = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT,
                ADDRESS, JAVA_LONG);
        FunctionDescriptor open = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                JAVA_LONG);
        FunctionDescriptor openSegment = FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_INT, ADDRESS, JAVA_LONG);
        SEAL = Native.handle(linker, lib, "aead_stream_seal", seal);
        SEAL_CRITICAL = Native.handle(linker, lib, "aead_stream_seal", seal, critical);
        OPEN = Native.handle(linker, lib, "aead_stream_open", open);
        OPEN_CRITICAL = Native.handle(linker, lib, "aead_stream_open", open, critical);
        OPEN_SEGMENT = Native.handle(linker, lib, "aead_stream_open_segment", openSegment);
        OPEN_SEGMENT_CRITICAL = Native.handle(linker, lib, "aead_stream_open_segment", openSegment, critical);
        SEGMENT_SIZE = Native.handle(linker, lib, "aead_stream_segment_size",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));
        OVERHEAD = Native.handle(linker, lib, "aead_stream_overhead", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        POSITION = Native.handle(linker, lib, "aead_stream_position", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    }

    static void free(MemorySegment s) {
        Native.invokeFree(FREE, s);
    }
}
