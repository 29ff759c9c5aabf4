//! Raw declarations of the libaead C ABI (`include/aead.h`), one to one.
//!
//! Everything here is `unsafe` to call; the safe types of this crate are built on top of it.
//! It is public for callers that need the flat C API (benchmarks, other bindings).
#![allow(non_camel_case_types, missing_docs)]

use core::ffi::{c_char, c_int};
use core::marker::{PhantomData, PhantomPinned};

/// `AEAD_ABI_VERSION` of the header this module was written against.
pub const AEAD_ABI_VERSION: u32 = 1;
/// `AEAD_VERSION_NUMBER` (MAJOR * 10000 + MINOR * 100 + PATCH) of that header: library 1.7.0
/// (ABI 1.1 plus `AEAD_ERR_FORKED`, ABI 1.2's QUIC packet protection and families, symbol version
/// `LIBAEAD_1.2`, ABI 1.3's AES-SIV with AAD as components, `LIBAEAD_1.3`, ABI 1.4's DTLS
/// record protection with a replay window, `LIBAEAD_1.4`, 1.5's counter-nonce and SSH policies,
/// 1.6's HPKE, `LIBAEAD_1.6`, and 1.7's streaming AEAD, `LIBAEAD_1.7`).
pub const AEAD_VERSION_NUMBER: u32 = 10700;

/// Opaque keyed context (`aead_ctx`).
#[repr(C)]
pub struct aead_ctx {
    _opaque: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

pub const AEAD_AES_128_GCM: c_int = 1;
pub const AEAD_AES_192_GCM: c_int = 2;
pub const AEAD_AES_256_GCM: c_int = 3;
pub const AEAD_CHACHA20_POLY1305: c_int = 4;

pub const AEAD_POLICY_NONE: c_int = 0;
pub const AEAD_POLICY_TLS12: c_int = 1;
pub const AEAD_POLICY_TLS13: c_int = 2;
/// ABI 1.1: AES-GCM, the library draws each seal's nonce; output `nonce(12) || ct || tag`.
pub const AEAD_POLICY_RANDOM_NONCE: c_int = 3;

pub const AEAD_SEAL: c_int = 1;
pub const AEAD_OPEN: c_int = 2;

pub const AEAD_ERR_AUTH: c_int = -1;
pub const AEAD_ERR_ARG: c_int = -2;
pub const AEAD_ERR_KEY_SIZE: c_int = -3;
pub const AEAD_ERR_NONCE_SIZE: c_int = -4;
pub const AEAD_ERR_TAG_SIZE: c_int = -5;
pub const AEAD_ERR_AAD_SIZE: c_int = -6;
pub const AEAD_ERR_TOO_LONG: c_int = -7;
pub const AEAD_ERR_BUFFER_TOO_SMALL: c_int = -8;
pub const AEAD_ERR_OVERLAP: c_int = -9;
pub const AEAD_ERR_NONCE_ORDER: c_int = -10;
pub const AEAD_ERR_NONCE_EXHAUSTED: c_int = -11;
pub const AEAD_ERR_NONCE_PREFIX: c_int = -12;
pub const AEAD_ERR_UNSUPPORTED: c_int = -13;
pub const AEAD_ERR_NOMEM: c_int = -14;
pub const AEAD_ERR_CRYPTO: c_int = -15;
/// ABI 1.1: a random-nonce context has made 2^32 seals.
pub const AEAD_ERR_NONCE_LIMIT: c_int = -16;
/// Library 1.2: a seal on a TLS-policy context created before a `fork()`, in the child (refused,
/// nothing written; opens work, the parent is unaffected).
pub const AEAD_ERR_FORKED: c_int = -17;

/// ABI 1.2: QUIC packet protection (RFC 9001). `aead_ctx_new_ex` with the 12-byte "quic iv";
/// seal nonce = IV XOR (0^4 || BE64(pn)), pn strictly increasing and below 2^62; open unchecked.
pub const AEAD_POLICY_QUIC: c_int = 4;
/// ABI 1.2: the key's RFC 9001 section 6.6 confidentiality (seals) or integrity (failed opens)
/// limit is reached (refused, nothing written).
pub const AEAD_ERR_KEY_LIMIT: c_int = -18;
pub const AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT: u64 = 1 << 23;
pub const AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT: u64 = 1 << 52;
pub const AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT: u64 = 1 << 36;
pub const AEAD_QUIC_MAX_PACKET_NUMBER: u64 = (1 << 62) - 1;

/// ABI 1.2: opaque keyed QUIC header-protection key (`aead_hp`).
#[repr(C)]
pub struct aead_hp {
    _opaque: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// ABI 1.1 bits of `aead_ctx_indicator`.
pub const AEAD_IND_FIPS_PROVIDER: u32 = 1;
pub const AEAD_IND_SEAL_APPROVED: u32 = 2;
pub const AEAD_IND_OPEN_APPROVED: u32 = 4;

/// ABI 1.1: one record of `aead_seal_open_many`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aead_record {
    pub nonce: *const u8,
    pub nonce_len: usize,
    pub aad: *const u8,
    pub aad_len: usize,
    pub input: *const u8,
    pub in_len: usize,
    pub out: *mut u8,
    pub out_cap: usize,
    /// Written by the call: what `aead_seal_open` would have returned for this record.
    pub result: i64,
}

pub const AEAD_GCM_MAX_PLAINTEXT: u64 = (1u64 << 36) - 32;
pub const AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT: u64 = (1u64 << 38) - 64;
pub const AEAD_MAX_NONCE: usize = 128;
pub const AEAD_MAX_TAG: usize = 16;

/// Since 1.2 (aead.h "Contexts and algorithms", docs/algorithms.md): more AEAD families through the
/// same `aead_seal_open`.
/// AES-CCM (SP 800-38C): nonce 7..=13, tag 4..=16 even; policies NONE, TLS12, TLS13.
pub const AEAD_AES_128_CCM: c_int = 5;
pub const AEAD_AES_192_CCM: c_int = 6;
pub const AEAD_AES_256_CCM: c_int = 7;
/// AES-GCM-SIV (RFC 8452): nonce 12, tag 16; needs OpenSSL >= 3.2 (`AEAD_ERR_UNSUPPORTED` before).
pub const AEAD_AES_128_GCM_SIV: c_int = 8;
pub const AEAD_AES_192_GCM_SIV: c_int = 9;
pub const AEAD_AES_256_GCM_SIV: c_int = 10;
/// AES-OCB3 (RFC 7253): nonce 1..=15, tag 16.
pub const AEAD_AES_128_OCB: c_int = 11;
pub const AEAD_AES_192_OCB: c_int = 12;
pub const AEAD_AES_256_OCB: c_int = 13;
/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): nonce 24, tag 16; policies NONE and RANDOM_NONCE
/// (24-byte drawn nonces, no seal limit).
pub const AEAD_XCHACHA20_POLY1305: c_int = 14;
/// The most plaintext (and CCM AAD) AES-CCM and AES-GCM-SIV take: `INT_MAX`.
pub const AEAD_ONE_UPDATE_MAX: u64 = 2147483647;
pub const AEAD_XCHACHA20_POLY1305_NONCE: usize = 24;

/// ABI 1.3 (library 1.3.0): AES-SIV (RFC 5297), keys 32/48/64 (CMAC key, then CTR key). Output
/// `SIV(16) || ciphertext` (tag first); in place is seal with `in == out + 16`, open with
/// `out == in + 16`. `aead_seal_open` passes S2V the components `[aad]` then the nonce if
/// `nonce_len > 0` (RFC 5297 section 6's AEAD form); `aead_seal_open_v` passes `aad[0..count)`
/// then the nonce. An empty message is `AEAD_ERR_UNSUPPORTED` below OpenSSL 3.5. No FIPS provider.
pub const AEAD_AES_128_SIV: c_int = 15;
pub const AEAD_AES_192_SIV: c_int = 16;
pub const AEAD_AES_256_SIV: c_int = 17;
/// The most S2V components (the nonce included) one SIV call takes; more is `AEAD_ERR_TOO_LONG`.
pub const AEAD_SIV_MAX_COMPONENTS: usize = 126;
/// Length of AES-SIV's synthetic IV, the tag at the front of its output.
pub const AEAD_SIV_SIZE: usize = 16;

/// ABI 1.4 (library 1.4.0): DTLS 1.2 / 1.3 record protection with a replay window (docs/dtls.md),
/// created by `aead_ctx_new_dtls` only.
pub const AEAD_POLICY_DTLS12: c_int = 5;
pub const AEAD_POLICY_DTLS13: c_int = 6;
/// ABI 1.4: open: the record number is left of the replay window or was accepted before.
pub const AEAD_ERR_REPLAY: c_int = -19;
/// ABI 1.4: DTLS 1.2: the AAD's seq_num (epoch || seq) differs from the nonce's.
pub const AEAD_ERR_AAD_MISMATCH: c_int = -20;
pub const AEAD_ERR_STREAM_FINISHED: c_int = -21;
pub const AEAD_DTLS_MAX_SEQUENCE: u64 = (1 << 48) - 1;
pub const AEAD_DTLS_DEFAULT_WINDOW: u32 = 64;
pub const AEAD_DTLS_MAX_WINDOW: u32 = 4096;
pub const AEAD_TLS13_AES_GCM_RECORD_LIMIT: u64 = 23726566;
pub const AEAD_DTLS13_AES_CCM_LIMIT: u64 = 11863283;
pub const AEAD_DTLS13_INTEGRITY_LIMIT: u64 = 1 << 36;

/// Library 1.5: counter nonces for any protocol, fixed(4) || BE64(start + n), n strictly increasing
/// (FIPS 140-3 IG C.H scenario 3); the fixed part and start learned on the first seal or given as
/// the 12-byte iv of `aead_ctx_new_ex`.
pub const AEAD_POLICY_COUNTER: c_int = 7;
/// Library 1.5: fixed(4) || BE64(mask XOR n), n from 0 (iv: fixed || mask).
pub const AEAD_POLICY_XOR_COUNTER: c_int = 8;
/// Library 1.5: SSH's AES-GCM (RFC 5647): `AEAD_POLICY_COUNTER`'s rules, AAD exactly 4 bytes, seals
/// counted (`aead_usage.rekey_after` 2^32); AES-128-GCM and AES-256-GCM only.
pub const AEAD_POLICY_SSH: c_int = 9;

/// Library 1.6: an HPKE context (RFC 9180 section 5), a sender's or a recipient's (`aead_hpke`).
#[repr(C)]
pub struct aead_hpke {
    _opaque: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// Library 1.6: HPKE modes, KEMs, KDFs and AEADs (RFC 9180 section 7's identifiers).
pub const AEAD_HPKE_MODE_BASE: c_int = 0;
pub const AEAD_HPKE_MODE_PSK: c_int = 1;
pub const AEAD_HPKE_MODE_AUTH: c_int = 2;
pub const AEAD_HPKE_MODE_AUTH_PSK: c_int = 3;
pub const AEAD_HPKE_KEM_P256_SHA256: c_int = 0x0010;
pub const AEAD_HPKE_KEM_P384_SHA384: c_int = 0x0011;
pub const AEAD_HPKE_KEM_P521_SHA512: c_int = 0x0012;
pub const AEAD_HPKE_KEM_X25519_SHA256: c_int = 0x0020;
pub const AEAD_HPKE_KEM_X448_SHA512: c_int = 0x0021;
/// Library 1.6: draft-ietf-hpke-pq's KEMs (ML-KEM and the hybrids; OpenSSL 3.5+ at run time).
pub const AEAD_HPKE_KEM_MLKEM512: c_int = 0x0040;
pub const AEAD_HPKE_KEM_MLKEM768: c_int = 0x0041;
pub const AEAD_HPKE_KEM_MLKEM1024: c_int = 0x0042;
pub const AEAD_HPKE_KEM_MLKEM768_P256: c_int = 0x0050;
pub const AEAD_HPKE_KEM_MLKEM1024_P384: c_int = 0x0051;
pub const AEAD_HPKE_KEM_MLKEM768_X25519: c_int = 0x647A;
pub const AEAD_HPKE_KDF_HKDF_SHA256: c_int = 1;
pub const AEAD_HPKE_KDF_HKDF_SHA384: c_int = 2;
pub const AEAD_HPKE_KDF_HKDF_SHA512: c_int = 3;
/// Library 1.6: draft-ietf-hpke-pq's one-stage KDFs (TurboSHAKE: always `AEAD_ERR_UNSUPPORTED`).
pub const AEAD_HPKE_KDF_SHAKE128: c_int = 0x0010;
pub const AEAD_HPKE_KDF_SHAKE256: c_int = 0x0011;
pub const AEAD_HPKE_KDF_TURBOSHAKE128: c_int = 0x0012;
pub const AEAD_HPKE_KDF_TURBOSHAKE256: c_int = 0x0013;
pub const AEAD_HPKE_AEAD_AES_128_GCM: c_int = 1;
pub const AEAD_HPKE_AEAD_AES_256_GCM: c_int = 2;
pub const AEAD_HPKE_AEAD_CHACHA20_POLY1305: c_int = 3;
pub const AEAD_HPKE_AEAD_EXPORT_ONLY: c_int = 0xFFFF;
/// Library 1.6: the largest enc / public key and private key of the HPKE KEMs, the tag, the longest
/// exporter context.
pub const AEAD_HPKE_MAX_ENC: usize = 133;
pub const AEAD_HPKE_MAX_PQ_ENC: usize = 1665;
pub const AEAD_HPKE_MAX_PRIVATE_KEY: usize = 66;
pub const AEAD_HPKE_TAG: usize = 16;
pub const AEAD_HPKE_MAX_EXPORT_CONTEXT: usize = 960;
/// Library 1.6: the last sequence number an HPKE context seals or opens, 2^64 - 2.
pub const AEAD_HPKE_MAX_SEQUENCE: u64 = 18_446_744_073_709_551_614;

/// Library 1.6: the suite, mode and inputs of an HPKE key schedule (set `size` to its size).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aead_hpke_params {
    pub size: usize,
    pub mode: c_int,
    pub kem: c_int,
    pub kdf: c_int,
    pub aead: c_int,
    pub info: *const u8,
    pub info_len: usize,
    pub psk: *const u8,
    pub psk_len: usize,
    pub psk_id: *const u8,
    pub psk_id_len: usize,
    pub properties: *const c_char,
    pub window: u32,
    pub ikm_e: *const u8,
    pub ikm_e_len: usize,
}

/// Library 1.7: a streaming AEAD writer or reader (`aead_stream`).
#[repr(C)]
pub struct aead_stream {
    _opaque: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// Library 1.7: stream formats (`aead_stream_params.format`) and Tink's HKDF hashes (`.hkdf_hash`).
pub const AEAD_STREAM_TINK_AES_GCM_HKDF: c_int = 1;
pub const AEAD_STREAM_AGE: c_int = 2;
pub const AEAD_STREAM_RFC8188: c_int = 3;
pub const AEAD_STREAM_SHA1: c_int = 1;
pub const AEAD_STREAM_SHA256: c_int = 2;
pub const AEAD_STREAM_SHA512: c_int = 3;
/// Library 1.7: the largest segment (Tink) or record (RFC 8188), the longest header, age's chunk.
pub const AEAD_STREAM_MAX_SEGMENT: u32 = 1 << 24;
pub const AEAD_STREAM_MAX_HEADER: u32 = 276;
pub const AEAD_STREAM_AGE_CHUNK: u32 = 65536;

/// Library 1.7: a stream's parameters (set `size` to its size; unused fields 0 / NULL).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aead_stream_params {
    pub size: usize,
    pub format: c_int,
    pub key: *const u8,
    pub key_len: usize,
    pub key_size: usize,
    pub hkdf_hash: c_int,
    pub segment_size: u32,
    pub first_segment_offset: u32,
    pub associated_data: *const u8,
    pub associated_data_len: usize,
    pub keyid: *const u8,
    pub keyid_len: usize,
    pub properties: *const c_char,
}

/// ABI 1.4: what `aead_ctx_usage_ex` reports (fields may be added at the end: pass the size).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct aead_usage {
    pub seals: u64,
    pub forgeries: u64,
    pub replays: u64,
    pub accepted: u64,
    pub seal_limit: u64,
    pub forgery_limit: u64,
    pub window: u64,
    pub largest: u64,
    /// Since 1.5: seals after which the protocol says to change keys (SSH: 2^32); `u64::MAX`: none.
    pub rekey_after: u64,
}

/// ABI 1.3: one associated-data component (`data` may be NULL when `len` is 0).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aead_buf {
    pub data: *const u8,
    pub len: usize,
}

/// ABI 1.3: one record of `aead_seal_open_many_v`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aead_record_v {
    pub nonce: *const u8,
    pub nonce_len: usize,
    pub aad: *const aead_buf,
    pub aad_count: usize,
    pub input: *const u8,
    pub in_len: usize,
    pub out: *mut u8,
    pub out_cap: usize,
    /// Written by the call: what `aead_seal_open_v` would have returned for this record.
    pub result: i64,
}

extern "C" {
    pub fn aead_ctx_new(
        ctx_out: *mut *mut aead_ctx,
        alg: c_int,
        policy: c_int,
        key: *const u8,
        key_len: usize,
        tag_len: usize,
    ) -> c_int;

    pub fn aead_ctx_free(ctx: *mut aead_ctx);

    pub fn aead_seal_open(
        ctx: *mut aead_ctx,
        op: c_int,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        in_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;

    pub fn aead_strerror(code: i64) -> *const c_char;
    pub fn aead_abi_version() -> u32;
    pub fn aead_version() -> *const c_char;
    pub fn aead_key_size(alg: c_int) -> usize;
    pub fn aead_nonce_size(alg: c_int) -> usize;
    pub fn aead_tag_size(alg: c_int) -> usize;

    // ABI 1.1 (symbol version LIBAEAD_1.1).
    #[allow(clippy::too_many_arguments)]
    pub fn aead_ctx_new_ex(
        ctx_out: *mut *mut aead_ctx,
        alg: c_int,
        policy: c_int,
        key: *const u8,
        key_len: usize,
        tag_len: usize,
        properties: *const c_char,
        iv: *const u8,
        iv_len: usize,
    ) -> c_int;
    pub fn aead_ctx_indicator(ctx: *const aead_ctx) -> u32;
    pub fn aead_ctx_provider(ctx: *const aead_ctx) -> *const c_char;
    pub fn aead_seal_open_many(
        ctx: *mut aead_ctx,
        op: c_int,
        records: *mut aead_record,
        count: usize,
    ) -> i64;
    pub fn aead_version_number() -> u32;

    // ABI 1.2 (symbol version LIBAEAD_1.2): QUIC.
    pub fn aead_ctx_usage(ctx: *const aead_ctx, seals: *mut u64, forgeries: *mut u64) -> c_int;
    pub fn aead_hp_new(
        hp_out: *mut *mut aead_hp,
        alg: c_int,
        key: *const u8,
        key_len: usize,
        properties: *const c_char,
    ) -> c_int;
    pub fn aead_hp_mask(
        hp: *mut aead_hp,
        sample: *const u8,
        sample_len: usize,
        mask: *mut u8,
        mask_cap: usize,
    ) -> i64;
    pub fn aead_hp_free(hp: *mut aead_hp);
    pub fn aead_quic_protect(
        ctx: *mut aead_ctx,
        hp: *mut aead_hp,
        pn: u64,
        packet: *mut u8,
        header_len: usize,
        payload_len: usize,
        packet_cap: usize,
    ) -> i64;
    pub fn aead_quic_unprotect(
        ctx: *mut aead_ctx,
        hp: *mut aead_hp,
        largest_pn: u64,
        packet: *mut u8,
        pn_offset: usize,
        packet_len: usize,
        pn_out: *mut u64,
    ) -> i64;

    // ABI 1.3 (symbol version LIBAEAD_1.3): AAD as components (AES-SIV's S2V vector).
    #[allow(clippy::too_many_arguments)]
    pub fn aead_seal_open_v(
        ctx: *mut aead_ctx,
        op: c_int,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const aead_buf,
        aad_count: usize,
        input: *const u8,
        in_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_seal_open_many_v(
        ctx: *mut aead_ctx,
        op: c_int,
        records: *mut aead_record_v,
        count: usize,
    ) -> i64;

    // ABI 1.4 (symbol version LIBAEAD_1.4): DTLS.
    #[allow(clippy::too_many_arguments)]
    pub fn aead_ctx_new_dtls(
        ctx_out: *mut *mut aead_ctx,
        alg: c_int,
        policy: c_int,
        key: *const u8,
        key_len: usize,
        tag_len: usize,
        properties: *const c_char,
        iv: *const u8,
        iv_len: usize,
        epoch: u64,
        window: u32,
    ) -> c_int;
    pub fn aead_dtls13_protect(
        ctx: *mut aead_ctx,
        hp: *mut aead_hp,
        seq: u64,
        record: *mut u8,
        header_len: usize,
        payload_len: usize,
        record_cap: usize,
    ) -> i64;
    pub fn aead_dtls13_unprotect(
        ctx: *mut aead_ctx,
        hp: *mut aead_hp,
        record: *mut u8,
        record_len: usize,
        cid_len: usize,
        seq_out: *mut u64,
    ) -> i64;
    pub fn aead_ctx_usage_ex(ctx: *const aead_ctx, usage: *mut aead_usage, usage_size: usize) -> c_int;

    // Library 1.6 (symbol version LIBAEAD_1.6): HPKE (RFC 9180).
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_setup_sender(
        ctx_out: *mut *mut aead_hpke,
        params: *const aead_hpke_params,
        pk_r: *const u8,
        pk_r_len: usize,
        sk_s: *const u8,
        sk_s_len: usize,
        enc: *mut u8,
        enc_cap: usize,
    ) -> c_int;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_setup_recipient(
        ctx_out: *mut *mut aead_hpke,
        params: *const aead_hpke_params,
        enc: *const u8,
        enc_len: usize,
        sk_r: *const u8,
        sk_r_len: usize,
        pk_s: *const u8,
        pk_s_len: usize,
    ) -> c_int;
    pub fn aead_hpke_free(ctx: *mut aead_hpke);
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_seal(
        ctx: *mut aead_hpke,
        aad: *const u8,
        aad_len: usize,
        pt: *const u8,
        pt_len: usize,
        out: *mut u8,
        out_cap: usize,
        seq_out: *mut u64,
    ) -> i64;
    pub fn aead_hpke_open(
        ctx: *mut aead_hpke,
        aad: *const u8,
        aad_len: usize,
        ct: *const u8,
        ct_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_open_at(
        ctx: *mut aead_hpke,
        seq: u64,
        aad: *const u8,
        aad_len: usize,
        ct: *const u8,
        ct_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_hpke_export(
        ctx: *const aead_hpke,
        exporter_context: *const u8,
        exporter_context_len: usize,
        out: *mut u8,
        out_len: usize,
    ) -> c_int;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_seal_single(
        params: *const aead_hpke_params,
        pk_r: *const u8,
        pk_r_len: usize,
        sk_s: *const u8,
        sk_s_len: usize,
        enc: *mut u8,
        enc_cap: usize,
        aad: *const u8,
        aad_len: usize,
        pt: *const u8,
        pt_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_open_single(
        params: *const aead_hpke_params,
        enc: *const u8,
        enc_len: usize,
        sk_r: *const u8,
        sk_r_len: usize,
        pk_s: *const u8,
        pk_s_len: usize,
        aad: *const u8,
        aad_len: usize,
        ct: *const u8,
        ct_len: usize,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_hpke_derive_keypair(
        kem: c_int,
        ikm: *const u8,
        ikm_len: usize,
        sk: *mut u8,
        sk_cap: usize,
        pk: *mut u8,
        pk_cap: usize,
        properties: *const c_char,
    ) -> c_int;
    pub fn aead_hpke_generate_keypair(
        kem: c_int,
        sk: *mut u8,
        sk_cap: usize,
        pk: *mut u8,
        pk_cap: usize,
        properties: *const c_char,
    ) -> c_int;
    pub fn aead_hpke_public_key(
        kem: c_int,
        sk: *const u8,
        sk_len: usize,
        pk: *mut u8,
        pk_cap: usize,
        properties: *const c_char,
    ) -> c_int;
    pub fn aead_hpke_enc_size(kem: c_int) -> usize;
    pub fn aead_hpke_public_key_size(kem: c_int) -> usize;
    pub fn aead_hpke_private_key_size(kem: c_int) -> usize;
    pub fn aead_hpke_aead_ctx(ctx: *const aead_hpke) -> *const aead_ctx;
    pub fn aead_hpke_indicator(ctx: *const aead_hpke) -> u32;

    // Library 1.7 (symbol version LIBAEAD_1.7): streaming AEAD.
    pub fn aead_stream_writer_new(
        s_out: *mut *mut aead_stream,
        params: *const aead_stream_params,
        header: *mut u8,
        header_cap: usize,
        header_len: *mut usize,
    ) -> c_int;
    pub fn aead_stream_reader_new(
        s_out: *mut *mut aead_stream,
        params: *const aead_stream_params,
        input: *const u8,
        in_len: usize,
        header_len: *mut usize,
    ) -> c_int;
    pub fn aead_stream_free(s: *mut aead_stream);
    pub fn aead_stream_seal(
        s: *mut aead_stream,
        input: *const u8,
        in_len: usize,
        pad: usize,
        r#final: c_int,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_stream_open(
        s: *mut aead_stream,
        input: *const u8,
        in_len: usize,
        r#final: c_int,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_stream_seal_many(
        s: *mut aead_stream,
        input: *const u8,
        in_len: usize,
        r#final: c_int,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_stream_open_many(
        s: *mut aead_stream,
        input: *const u8,
        in_len: usize,
        r#final: c_int,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    #[allow(clippy::too_many_arguments)]
    pub fn aead_stream_open_segment(
        s: *const aead_stream,
        index: u64,
        input: *const u8,
        in_len: usize,
        r#final: c_int,
        out: *mut u8,
        out_cap: usize,
    ) -> i64;
    pub fn aead_stream_segment_size(s: *const aead_stream, index: u64) -> usize;
    pub fn aead_stream_overhead(s: *const aead_stream) -> usize;
    pub fn aead_stream_position(s: *const aead_stream) -> i64;
}
