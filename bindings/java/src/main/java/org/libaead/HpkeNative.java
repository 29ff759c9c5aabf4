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
 * The downcall handles of the HPKE calls (library 1.6), bound on first use so that the AEAD classes keep
 * working on an older library named by {@code -Dlibaead.library}: there, the first HPKE call throws
 * {@link UnsatisfiedLinkError}.
 */
final class HpkeNative {
    private HpkeNative() {}

    // The header's identifiers and sizes (tests/decls/check.py compares them with include/aead.h).
    static final int HPKE_MODE_BASE = 0, HPKE_MODE_PSK = 1, HPKE_MODE_AUTH = 2, HPKE_MODE_AUTH_PSK = 3;
    static final int HPKE_KEM_P256_SHA256 = 16, HPKE_KEM_P384_SHA384 = 17, HPKE_KEM_P521_SHA512 = 18,
            HPKE_KEM_X25519_SHA256 = 32, HPKE_KEM_X448_SHA512 = 33;
    static final int HPKE_KEM_MLKEM512 = 64, HPKE_KEM_MLKEM768 = 65, HPKE_KEM_MLKEM1024 = 66,
            HPKE_KEM_MLKEM768_P256 = 80, HPKE_KEM_MLKEM1024_P384 = 81, HPKE_KEM_MLKEM768_X25519 = 25722;
    static final int HPKE_KDF_HKDF_SHA256 = 1, HPKE_KDF_HKDF_SHA384 = 2, HPKE_KDF_HKDF_SHA512 = 3;
    static final int HPKE_KDF_SHAKE128 = 16, HPKE_KDF_SHAKE256 = 17, HPKE_KDF_TURBOSHAKE128 = 18,
            HPKE_KDF_TURBOSHAKE256 = 19;
    static final int HPKE_AEAD_AES_128_GCM = 1, HPKE_AEAD_AES_256_GCM = 2, HPKE_AEAD_CHACHA20_POLY1305 = 3,
            HPKE_AEAD_EXPORT_ONLY = 65535;
    static final int HPKE_MAX_ENC = 133, HPKE_MAX_PQ_ENC = 1665, HPKE_MAX_PRIVATE_KEY = 66, HPKE_TAG = 16, HPKE_MAX_EXPORT_CONTEXT = 960;

    /** struct aead_hpke_params (x86-64 / AArch64 LP64: 104 bytes). */
    static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("size"),
            JAVA_INT.withName("mode"), JAVA_INT.withName("kem"), JAVA_INT.withName("kdf"), JAVA_INT.withName("aead"),
            ADDRESS.withName("info"), JAVA_LONG.withName("info_len"),
            ADDRESS.withName("psk"), JAVA_LONG.withName("psk_len"),
            ADDRESS.withName("psk_id"), JAVA_LONG.withName("psk_id_len"),
            ADDRESS.withName("properties"),
            JAVA_INT.withName("window"), MemoryLayout.paddingLayout(4),
            ADDRESS.withName("ikm_e"), JAVA_LONG.withName("ikm_e_len"));

    static final MethodHandle SETUP_SENDER, SETUP_RECIPIENT, FREE, SEAL, SEAL_CRITICAL, OPEN, OPEN_CRITICAL, OPEN_AT,
            OPEN_AT_CRITICAL, EXPORT, SEAL_SINGLE, OPEN_SINGLE, DERIVE_KEYPAIR, GENERATE_KEYPAIR, PUBLIC_KEY, ENC_SIZE,
            PUBLIC_KEY_SIZE, PRIVATE_KEY_SIZE, AEAD_CTX, INDICATOR;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup lib = Native.LIB;
        Linker.Option critical = Linker.Option.critical(true);
        SETUP_SENDER = Native.handle(linker, lib, "aead_hpke_setup_sender", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        SETUP_RECIPIENT = Native.handle(linker, lib, "aead_hpke_setup_recipient", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        FREE = Native.handle(linker, lib, "aead_hpke_free", FunctionDescriptor.ofVoid(ADDRESS));
        FunctionDescriptor seal = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                ADDRESS, JAVA_LONG, ADDRESS);
        SEAL = Native.handle(linker, lib, "aead_hpke_seal", seal);
        SEAL_CRITICAL = Native.handle(linker, lib, "aead_hpke_seal", seal, critical);
        FunctionDescriptor open = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                ADDRESS, JAVA_LONG);
        OPEN = Native.handle(linker, lib, "aead_hpke_open", open);
        OPEN_CRITICAL = Native.handle(linker, lib, "aead_hpke_open", open, critical);
        FunctionDescriptor openAt = FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, JAVA_LONG);
        OPEN_AT = Native.handle(linker, lib, "aead_hpke_open_at", openAt);
        OPEN_AT_CRITICAL = Native.handle(linker, lib, "aead_hpke_open_at", openAt, critical);
        EXPORT = Native.handle(linker, lib, "aead_hpke_export", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        SEAL_SINGLE = Native.handle(linker, lib, "aead_hpke_seal_single", FunctionDescriptor.of(JAVA_LONG,
                ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, JAVA_LONG));
        OPEN_SINGLE = Native.handle(linker, lib, "aead_hpke_open_single", FunctionDescriptor.of(JAVA_LONG,
                ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                JAVA_LONG, ADDRESS, JAVA_LONG));
        DERIVE_KEYPAIR = Native.handle(linker, lib, "aead_hpke_derive_keypair", FunctionDescriptor.of(JAVA_INT,
                JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        GENERATE_KEYPAIR = Native.handle(linker, lib, "aead_hpke_generate_keypair", FunctionDescriptor.of(JAVA_INT,
                JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        PUBLIC_KEY = Native.handle(linker, lib, "aead_hpke_public_key", FunctionDescriptor.of(JAVA_INT,
                JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        ENC_SIZE = Native.handle(linker, lib, "aead_hpke_enc_size", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        PUBLIC_KEY_SIZE = Native.handle(linker, lib, "aead_hpke_public_key_size",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        PRIVATE_KEY_SIZE = Native.handle(linker, lib, "aead_hpke_private_key_size",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        AEAD_CTX = Native.handle(linker, lib, "aead_hpke_aead_ctx", FunctionDescriptor.of(ADDRESS, ADDRESS));
        INDICATOR = Native.handle(linker, lib, "aead_hpke_indicator", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    static void free(MemorySegment ctx) {
        Native.invokeFree(FREE, ctx);
    }
}
