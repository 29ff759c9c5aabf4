// libFuzzer harness for aead_ctx_new / aead_seal_open: every property of the contract in aead.h is
// checked on every call, not only "no crash". A property failure prints what was expected and calls
// abort(), so libFuzzer stops and saves the input.
//
// Checked properties
//  - aead_ctx_new returns the documented code (computed here from the contract) and stores NULL on
//    refusal; aead_ctx_new(NULL, ...) is AEAD_ERR_ARG.
//  - Refused calls (ARG, NONCE_SIZE, AAD_SIZE, BUFFER_TOO_SMALL, OVERLAP, NONCE_ORDER, _EXHAUSTED,
//    _PREFIX, and the short-open AUTH) return a documented code computed independently from the
//    contract and write nothing anywhere (every buffer of the call, guard bytes included, is compared
//    with its snapshot). aead.h gives no precedence between refusals, so when one call breaks several
//    rules any of their codes is accepted; when it breaks one rule the code must be exactly that one.
//  - Accepted seals are byte-identical to a direct OpenSSL EVP computation made here (own fresh
//    EVP_CIPHER_CTX, own fetched cipher, ctrl API); accepted opens agree with the same oracle (plaintext,
//    or AEAD_ERR_AUTH with the first min(out_cap, out_len) bytes of out zeroed).
//  - Nothing is written past out_len (guard bytes after out_cap, and the rest of any shared buffer).
//  - Every successful seal opens back to its plaintext; the same sealed message with one byte flipped
//    (in the ciphertext, tag, AAD or nonce) is AEAD_ERR_AUTH with the output zeroed.
//  - TLS policies: a model written from aead.h (first seal learns prefix/mask, strictly increasing
//    sequence, never 2^64-1, refused calls consume nothing, opens are never checked) predicts every
//    accept/refuse decision over a sequence of up to 8 calls on one context.
//  - Zero-length buffers may be NULL or point at ASan-poisoned memory: they must never be read.
//  - A stale error left on the thread's OpenSSL error queue by the caller must not change any result.
//  - ABI 1.1: contexts made by aead_ctx_new_ex with a TLS IV given up front (the model starts learned),
//    the random-nonce policy (nonce || ct || tag: the drawn nonce is read back from out and the rest
//    checked against the oracle; in place means out + 12 == in for seals, out == in + 12 for opens;
//    XChaCha20-Poly1305: 24),
//  - ABI 1.2 families (AES-CCM, AES-GCM-SIV, AES-OCB3, XChaCha20-Poly1305): their own nonce, tag and policy
//    rules, the same oracle checks (GCM-SIV where the libcrypto has it, else AEAD_ERR_UNSUPPORTED at creation),
//    and calls made through aead_seal_open_many (one record), whose result must be what the single
//    call's would be.
//  - Since 1.7 the AEGIS family (18..23): nonce = key size, tags 16 or 32, NONE and the random-nonce
//    policy (the drawn 16- or 32-byte nonce leads the output); its oracle is tests/aegis_ref.h, AEGIS
//    written again from RFC 10032 (libaegis is libaead's implementation, so not an oracle of itself).
//  - ABI 1.3: AES-SIV (SIV || ciphertext, S2V over [aad, nonce if any]; in place means out + 16 == in for
//    seals, out == in + 16 for opens; an empty message AEAD_ERR_UNSUPPORTED below OpenSSL 3.5), and calls
//    made through aead_seal_open_v with the AAD as its one component, which must be the flat call's.
//
// Focus (AEAD_FUZZ_FOCUS, read once at start; tests/fuzz/run.py runs one target per value): the header's
// algorithm byte then picks only among one family's algorithms (gcm, chacha20-poly1305, ccm, gcm-siv,
// ocb, xchacha20-poly1305, siv, aegis), or the policy byte is fixed to one sequencing policy and the algorithm
// byte picks among the algorithms that policy takes (tls12, tls13, random-nonce, counter, xor-counter,
// ssh). Every check above
// applies unchanged; the fuzzer's effort goes to one family or one policy. Unset or "all": no focus.
// Where libsodium was found at build time, every XChaCha20-Poly1305 seal the oracle computes is also
// computed by libsodium, and the two must agree.
//
// Input format (all integers little-endian; reads past the end give zero bytes):
//  header: alg u8, policy u8, keysel u8, tagsel u8, nops u8, key bytes[, iv bytes]
//  (tagsel bit 6 without bit 7: aead_ctx_new_ex with an IV of length {0, 4, 12, 7}[nops >> 3 & 3])
//  per op: opb u8, flags u8, nonce-len u16 + nonce, aad-len u16 + aad, in-len u16 + in,
//          outcap u8, place u8, delta u16, tamper-pos u16, tamper-mask u8, rt u8
//  (see decode_* below and tests/fuzz/make_corpus.py, which writes this format).
//
// SPDX-License-Identifier: Apache-2.0
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "../aegis_ref.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "aead.h"

#ifdef AEAD_FUZZ_HAVE_SODIUM
#include <sodium.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define FUZZ_HAVE_ASAN 1
#endif
#endif

namespace {

using Bytes = std::vector<uint8_t>;

[[noreturn]] [[gnu::format(printf, 2, 3)]] void fail(int line, const char *fmt, ...) {
    std::fprintf(stderr, "\n*** fuzz_seal_open: property failed (harness line %d): ", line);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    std::abort();
}

#define CHECK(cond, ...)                                    \
    do {                                                    \
        if (!(cond)) fail(__LINE__, __VA_ARGS__);           \
    } while (0)

// ---------------------------------------------------------------------------------------------
// Input reader.
struct Reader {
    const uint8_t *p;
    size_t n;
    uint8_t u8() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
    uint16_t u16() {
        const uint16_t lo = u8();
        return static_cast<uint16_t>(lo | (uint16_t{u8()} << 8));
    }
    uint64_t u64be() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | u8();
        return v;
    }
    Bytes take(size_t len) {
        Bytes b(len, 0);
        const size_t k = std::min(len, n);
        if (k != 0) std::memcpy(b.data(), p, k);
        p += k;
        n -= k;
        return b;
    }
};

// ---------------------------------------------------------------------------------------------
// The contract, restated independently of lib/.
constexpr size_t kMaxNonce = AEAD_MAX_NONCE;
constexpr uint64_t kMax64 = UINT64_MAX;

// ABI 1.2 adds AES-CCM (5..7), AES-GCM-SIV (8..10, OpenSSL >= 3.2), AES-OCB3 (11..13), XChaCha20-Poly1305 (14);
// ABI 1.3 AES-SIV (15..17).
bool alg_valid(int alg) { return alg >= AEAD_AES_128_GCM && alg <= AEAD_AEGIS_256X4; }
bool is_gcm(int alg) { return alg == AEAD_AES_128_GCM || alg == AEAD_AES_192_GCM || alg == AEAD_AES_256_GCM; }
bool is_ccm(int alg) { return alg >= AEAD_AES_128_CCM && alg <= AEAD_AES_256_CCM; }
bool is_gcm_siv(int alg) { return alg >= AEAD_AES_128_GCM_SIV && alg <= AEAD_AES_256_GCM_SIV; }
bool is_ocb(int alg) { return alg >= AEAD_AES_128_OCB && alg <= AEAD_AES_256_OCB; }
bool is_xchacha(int alg) { return alg == AEAD_XCHACHA20_POLY1305; }
bool is_siv(int alg) { return alg >= AEAD_AES_128_SIV && alg <= AEAD_AES_256_SIV; }
bool is_aegis(int alg) { return alg >= AEAD_AEGIS_128L && alg <= AEAD_AEGIS_256X4; }
// OpenSSL before 3.5 skips an empty SIV payload: libaead refuses empty SIV messages there.
bool siv_takes_empty() { return OPENSSL_version_major() > 3 || OPENSSL_version_minor() >= 5; }
bool policy_valid(int alg, int p) {
    if (p == AEAD_POLICY_NONE) return true;
    if (is_ccm(alg)) return p == AEAD_POLICY_TLS12 || p == AEAD_POLICY_TLS13;
    if (is_xchacha(alg) || is_aegis(alg)) return p == AEAD_POLICY_RANDOM_NONCE;
    if (is_gcm_siv(alg) || is_ocb(alg) || is_siv(alg)) return false;
    if (p == AEAD_POLICY_COUNTER || p == AEAD_POLICY_XOR_COUNTER) return true;  // AES-GCM, ChaCha20-Poly1305
    if (p == AEAD_POLICY_SSH) return alg == AEAD_AES_128_GCM || alg == AEAD_AES_256_GCM;
    return p == AEAD_POLICY_TLS12 || p == AEAD_POLICY_TLS13 || (p == AEAD_POLICY_RANDOM_NONCE && is_gcm(alg));
}
// The policies that check a caller's 12-byte nonce against a counter (the TLS model below).
bool tls_policy(int p) {
    return p == AEAD_POLICY_TLS12 || p == AEAD_POLICY_TLS13 || p == AEAD_POLICY_COUNTER || p == AEAD_POLICY_XOR_COUNTER ||
           p == AEAD_POLICY_SSH;
}
// Counter policies whose counter counts from the first seal's (or the IV's) value: fixed || start + n.
bool offset_policy(int p) { return p == AEAD_POLICY_COUNTER || p == AEAD_POLICY_SSH; }
// Bytes before the ciphertext: the drawn nonce (random-nonce policy: 12, or 24 for XChaCha20-Poly1305,
// AEGIS's 16 or 32),
// or AES-SIV's synthetic IV (16; its contexts have no tag after the ciphertext: Fuzz::tag is 0).
int g_alg = 0;  // the algorithm of the input being run (prefix_of's second input)
size_t key_size_of(int alg);
size_t prefix_of(int policy) {
    if (is_siv(g_alg)) return 16;
    if (policy != AEAD_POLICY_RANDOM_NONCE) return 0;
    return is_xchacha(g_alg) ? 24 : (is_aegis(g_alg) ? key_size_of(g_alg) : 12);
}
// aead_ctx_new_ex: the IV lengths each policy takes.
bool iv_valid(int alg, int policy, size_t n) {
    if (n == 0) return true;
    if (policy == AEAD_POLICY_TLS13 || policy == AEAD_POLICY_COUNTER || policy == AEAD_POLICY_XOR_COUNTER ||
        policy == AEAD_POLICY_SSH)
        return n == 12;
    if (policy == AEAD_POLICY_TLS12) return n == 12 || ((is_gcm(alg) || is_ccm(alg)) && n == 4);
    return false;
}
size_t key_size_of(int alg) {
    if (!alg_valid(alg)) return 0;
    if (alg == AEAD_CHACHA20_POLY1305 || is_xchacha(alg)) return 32;
    if (is_aegis(alg)) return alg == AEAD_AEGIS_128L || alg == AEAD_AEGIS_128X2 || alg == AEAD_AEGIS_128X4 ? 16 : 32;
    if (is_siv(alg)) return size_t{32} + 16 * static_cast<size_t>(alg - AEAD_AES_128_SIV);
    const int by_key = is_gcm(alg) ? alg - AEAD_AES_128_GCM : (alg - AEAD_AES_128_CCM) % 3;
    return size_t{16} + 8 * static_cast<size_t>(by_key);
}
bool tag_valid(int alg, int policy, size_t tag) {
    if (tag == 16) return true;
    if (is_aegis(alg)) return tag == 32;  // under both its policies
    if (policy != AEAD_POLICY_NONE) return false;
    if (is_ccm(alg)) return tag >= 4 && tag <= 16 && tag % 2 == 0;
    if (!is_gcm(alg)) return false;
    return tag == 4 || tag == 8 || (tag >= 12 && tag <= 15);
}
bool nonce_valid(int alg, int policy, size_t n) {
    if (policy == AEAD_POLICY_RANDOM_NONCE) return n == 0;
    if (policy != AEAD_POLICY_NONE) return n == 12;
    if (is_gcm(alg)) return n >= 1 && n <= kMaxNonce;
    if (is_ccm(alg)) return n >= 7 && n <= 13;
    if (is_ocb(alg)) return n >= 1 && n <= 15;
    if (is_xchacha(alg)) return n == 24;
    if (is_siv(alg)) return n <= AEAD_ONE_UPDATE_MAX;
    if (is_aegis(alg)) return n == key_size_of(alg);
    return n == 12;
}
// The AAD length a sequenced seal must have; 0: any.
size_t tls_aad_size(int policy) {
    switch (policy) {
        case AEAD_POLICY_TLS12: return 13;
        case AEAD_POLICY_TLS13: return 5;
        case AEAD_POLICY_SSH: return 4;
        default: return 0;
    }
}

// AEAD_FUZZ_FOCUS: the algorithms a target draws from, and the policy it fixes (-1: the input's own).
struct Focus {
    const char *name;
    int policy;
    std::array<int, 10> algs;
    size_t n;
};
constexpr Focus kFocus[] = {
    {"gcm", -1, {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}, 3},
    {"chacha20-poly1305", -1, {AEAD_CHACHA20_POLY1305}, 1},
    {"ccm", -1, {AEAD_AES_128_CCM, AEAD_AES_192_CCM, AEAD_AES_256_CCM}, 3},
    {"gcm-siv", -1, {AEAD_AES_128_GCM_SIV, AEAD_AES_192_GCM_SIV, AEAD_AES_256_GCM_SIV}, 3},
    {"ocb", -1, {AEAD_AES_128_OCB, AEAD_AES_192_OCB, AEAD_AES_256_OCB}, 3},
    {"xchacha20-poly1305", -1, {AEAD_XCHACHA20_POLY1305}, 1},
    {"siv", -1, {AEAD_AES_128_SIV, AEAD_AES_192_SIV, AEAD_AES_256_SIV}, 3},
    {"aegis", -1, {AEAD_AEGIS_128L, AEAD_AEGIS_256, AEAD_AEGIS_128X2, AEAD_AEGIS_128X4, AEAD_AEGIS_256X2, AEAD_AEGIS_256X4}, 6},
    {"tls12", AEAD_POLICY_TLS12,
     {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM, AEAD_CHACHA20_POLY1305, AEAD_AES_128_CCM,
      AEAD_AES_192_CCM, AEAD_AES_256_CCM}, 7},
    {"tls13", AEAD_POLICY_TLS13,
     {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM, AEAD_CHACHA20_POLY1305, AEAD_AES_128_CCM,
      AEAD_AES_192_CCM, AEAD_AES_256_CCM}, 7},
    {"random-nonce", AEAD_POLICY_RANDOM_NONCE,
     {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM, AEAD_XCHACHA20_POLY1305, AEAD_AEGIS_128L, AEAD_AEGIS_256,
      AEAD_AEGIS_128X2, AEAD_AEGIS_128X4, AEAD_AEGIS_256X2, AEAD_AEGIS_256X4}, 10},
    {"counter", AEAD_POLICY_COUNTER, {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM, AEAD_CHACHA20_POLY1305}, 4},
    {"xor-counter", AEAD_POLICY_XOR_COUNTER,
     {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM, AEAD_CHACHA20_POLY1305}, 4},
    {"ssh", AEAD_POLICY_SSH, {AEAD_AES_128_GCM, AEAD_AES_256_GCM}, 2},
};
const Focus *g_focus = nullptr;  // set once by LLVMFuzzerInitialize
// The DTLS modes (AEAD_FUZZ_FOCUS dtls12, dtls13, quic-window): their own input format, fuzz_dtls.inc.
enum DtlsMode { kNoDtls = 0, kDtls12, kDtls13, kQuicWindow };
DtlsMode g_dtls_mode = kNoDtls;  // set once by LLVMFuzzerInitialize
int g_stream_format = 0;          // the streaming modes (fuzz_stream.inc): AEAD_STREAM_*, set once likewise
unsigned long long g_sodium_checked = 0;  // oracle seals libsodium agreed with

// A set of acceptable error codes (bit i = code -i).
struct CodeSet {
    uint32_t bits = 0;
    void add(int64_t code) { bits |= uint32_t{1} << static_cast<unsigned>(-code); }
    bool has(int64_t code) const { return code < 0 && code > -32 && (bits >> static_cast<unsigned>(-code) & 1u) != 0; }
    bool empty() const { return bits == 0; }
    void merge(CodeSet o) { bits |= o.bits; }
};

// TLS nonce model (seal only), from the comments on AEAD_POLICY_TLS12 / _TLS13.
struct TlsModel {
    bool enforced = false;
    bool explicit_counter = false;  // TLS 1.2 + AES-GCM (RFC 5288); otherwise the XOR mask
    bool offset = false;            // COUNTER, SSH: the counter counts from its first value (base)
    bool learned = false;
    uint32_t prefix = 0;
    uint64_t mask = 0;
    uint64_t base = 0;
    uint64_t next = 0;  // smallest acceptable sequence number
    uint64_t accepted = 0;

    static uint32_t be32(const uint8_t *p) {
        return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
    }
    static uint64_t be64(const uint8_t *p) { return uint64_t{be32(p)} << 32 | be32(p + 4); }

    // The refusal codes this 12-byte nonce earns now (empty: accepted).
    CodeSet judge(const uint8_t *nonce) const {
        CodeSet s;
        const uint32_t pre = be32(nonce);
        const uint64_t last8 = be64(nonce + 4);
        if (!learned) {
            // First seal: the explicit counter may be anything but 2^64-1; in XOR and offset modes it is
            // sequence 0.
            if (explicit_counter && last8 == kMax64) s.add(AEAD_ERR_NONCE_EXHAUSTED);
            return s;
        }
        if (pre != prefix) s.add(AEAD_ERR_NONCE_PREFIX);
        const uint64_t seq = (last8 ^ mask) - base;
        if (seq == kMax64) s.add(AEAD_ERR_NONCE_EXHAUSTED);
        if (seq < next) s.add(AEAD_ERR_NONCE_ORDER);
        return s;
    }
    void commit(const uint8_t *nonce) {
        const uint64_t last8 = be64(nonce + 4);
        uint64_t seq = 0;
        if (!learned) {
            learned = true;
            prefix = be32(nonce);
            mask = explicit_counter || offset ? 0 : last8;
            base = offset ? last8 : 0;
        }
        seq = (last8 ^ mask) - base;
        next = seq + 1;
        ++accepted;
    }
};

// ---------------------------------------------------------------------------------------------
// The oracle: a fresh EVP_CIPHER_CTX per call, ciphers fetched by the harness, ctrl API for IV length
// and tag. Shares nothing with libaead except libcrypto itself.
constexpr int kOracles = 17;
const char *const kOracleNames[kOracles] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "ChaCha20-Poly1305",
                                            "AES-128-CCM", "AES-192-CCM", "AES-256-CCM", "AES-128-GCM-SIV",
                                            "AES-192-GCM-SIV", "AES-256-GCM-SIV", "AES-128-OCB", "AES-192-OCB",
                                            "AES-256-OCB", "ChaCha20-Poly1305", "AES-128-SIV", "AES-192-SIV",
                                            "AES-256-SIV"};
// NULL when the libcrypto lacks the mode (GCM-SIV before 3.2): then aead_ctx_new must say UNSUPPORTED.
// Only for the OpenSSL families (AEGIS's oracle is aegis_ref).
const EVP_CIPHER *oracle_cipher_or_null(int alg) {
    static EVP_CIPHER *ciphers[kOracles] = {};
    static bool fetched = [] {
        for (int i = 0; i < kOracles; ++i) ciphers[i] = EVP_CIPHER_fetch(nullptr, kOracleNames[i], nullptr);
        ERR_clear_error();
        return true;
    }();
    (void)fetched;
    return ciphers[alg - 1];
}
const EVP_CIPHER *oracle_cipher(int alg) {
    const EVP_CIPHER *c = oracle_cipher_or_null(alg);
    CHECK(c != nullptr, "oracle: EVP_CIPHER_fetch failed for alg %d", alg);
    return c;
}

struct CtxFree {
    void operator()(EVP_CIPHER_CTX *c) const { EVP_CIPHER_CTX_free(c); }
};

// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): HChaCha20 from OpenSSL's ChaCha20 keystream (field
// notes section 10), written here afresh; the oracle then runs ChaCha20-Poly1305 under the subkey.
void oracle_xchacha(const Bytes &key, const Bytes &nonce, Bytes &subkey, Bytes &nonce12) {
    static EVP_CIPHER *chacha = EVP_CIPHER_fetch(nullptr, "ChaCha20", nullptr);
    CHECK(chacha != nullptr, "oracle: ChaCha20");
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> c(EVP_CIPHER_CTX_new());
    uint8_t zero[64] = {}, ks[64];
    int n = 0;
    CHECK(EVP_EncryptInit_ex(c.get(), chacha, nullptr, key.data(), nonce.data()) == 1 &&
              EVP_EncryptUpdate(c.get(), ks, &n, zero, 64) == 1 && n == 64,
          "oracle: hchacha");
    auto le = [](const uint8_t *p) { return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24; };
    const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    subkey.assign(32, 0);
    for (int w = 0; w < 8; ++w) {
        const int at = w < 4 ? w : w + 8;  // state words 0..3 and 12..15
        const uint32_t v = le(ks + 4 * at) - (w < 4 ? sigma[w] : le(nonce.data() + 4 * (w - 4)));
        for (int b = 0; b < 4; ++b) subkey[static_cast<size_t>(4 * w + b)] = static_cast<uint8_t>(v >> (8 * b));
    }
    nonce12.assign(12, 0);
    std::memcpy(nonce12.data() + 4, nonce.data() + 16, 8);
}

// Sets up an oracle context for alg: cipher, IV length (and CCM's tag length) before key and IV.
void oracle_init(EVP_CIPHER_CTX *c, int alg, const Bytes &key_in, const Bytes &nonce_in, size_t tag_len, bool enc) {
    Bytes key = key_in, nonce = nonce_in;
    if (is_xchacha(alg)) oracle_xchacha(key_in, nonce_in, key, nonce);
    CHECK(EVP_CipherInit_ex(c, oracle_cipher(alg), nullptr, nullptr, nullptr, enc ? 1 : 0) == 1, "oracle: init");
    if (!is_gcm_siv(alg))
        CHECK(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) == 1,
              "oracle: set ivlen %zu", nonce.size());
    if (is_ccm(alg))
        CHECK(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag_len), nullptr) == 1, "oracle: ccm tag len");
    CHECK(EVP_CipherInit_ex(c, nullptr, nullptr, key.data(), nonce.data(), enc ? 1 : 0) == 1, "oracle: key/iv");
}

// Seal: returns ct || tag[:tag_len]. CCM gets its length first; CCM and GCM-SIV always get the payload
// update (their tag is made there); OCB3 may hold back output until final.
Bytes oracle_seal(int alg, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt, size_t tag_len) {
    if (is_aegis(alg))
        return aegis_ref::seal(alg, key.data(), nonce.data(), aad.data(), aad.size(), pt.data(), pt.size(), tag_len);
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> c(EVP_CIPHER_CTX_new());
    CHECK(c != nullptr, "oracle: EVP_CIPHER_CTX_new");
    Bytes out(pt.size() + 16 + 16);
    int n = 0;
    oracle_init(c.get(), alg, key, nonce, tag_len, true);
    if (is_ccm(alg)) CHECK(EVP_EncryptUpdate(c.get(), nullptr, &n, nullptr, static_cast<int>(pt.size())) == 1, "oracle: ccm len");
    if (!aad.empty())
        CHECK(EVP_EncryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) == 1, "oracle: aad");
    int done = 0;
    uint8_t dummy = 0;
    if (!pt.empty() || is_ccm(alg) || is_gcm_siv(alg)) {
        CHECK(EVP_EncryptUpdate(c.get(), out.data(), &done, pt.empty() ? &dummy : pt.data(), static_cast<int>(pt.size())) == 1,
              "oracle: update");
    }
    CHECK(EVP_EncryptFinal_ex(c.get(), out.data() + done, &n) == 1 && static_cast<size_t>(done + n) == pt.size(),
          "oracle: final");
    uint8_t tag[16];
    const int full = is_ccm(alg) ? static_cast<int>(tag_len) : 16;
    CHECK(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, full, tag) == 1, "oracle: get tag");
    std::memcpy(out.data() + pt.size(), tag, tag_len);  // a truncated GCM tag is the leftmost tag_len bytes
    out.resize(pt.size() + tag_len);
    ERR_clear_error();
#ifdef AEAD_FUZZ_HAVE_SODIUM
    if (is_xchacha(alg) && tag_len == crypto_aead_xchacha20poly1305_ietf_ABYTES && key.size() == 32 && nonce.size() == 24) {
        Bytes theirs(pt.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES);
        unsigned long long theirs_len = 0;
        CHECK(crypto_aead_xchacha20poly1305_ietf_encrypt(theirs.data(), &theirs_len, pt.data(), pt.size(), aad.data(),
                                                         aad.size(), nullptr, nonce.data(), key.data()) == 0 &&
                  theirs_len == theirs.size() && theirs == out,
              "oracle: libsodium's XChaCha20-Poly1305 differs from the EVP construction (%zu-byte message)", pt.size());
        ++g_sodium_checked;
    }
#endif
    return out;
}

// Open: true and the plaintext if ct || tag authenticates, false otherwise.
bool oracle_open(int alg, const Bytes &key, const Bytes &nonce, const Bytes &aad, const uint8_t *in, size_t in_len,
                 size_t tag_len, Bytes &pt) {
    CHECK(in_len >= tag_len, "oracle_open: input shorter than the tag");
    const size_t ct_len = in_len - tag_len;
    if (is_aegis(alg)) {
        const bool ok = aegis_ref::open(alg, key.data(), nonce.data(), aad.data(), aad.size(), in, ct_len, in + ct_len,
                                        tag_len, &pt);
        if (!ok) pt.assign(ct_len, 0);
        return ok;
    }
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> c(EVP_CIPHER_CTX_new());
    CHECK(c != nullptr, "oracle: EVP_CIPHER_CTX_new");
    pt.assign(ct_len + 16, 0);
    int n = 0;
    oracle_init(c.get(), alg, key, nonce, tag_len, false);
    uint8_t tag[16];
    std::memcpy(tag, in + ct_len, tag_len);
    CHECK(EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag_len), tag) == 1,
          "oracle: set tag %zu", tag_len);
    if (is_ccm(alg)) CHECK(EVP_DecryptUpdate(c.get(), nullptr, &n, nullptr, static_cast<int>(ct_len)) == 1, "oracle: ccm len");
    if (!aad.empty())
        CHECK(EVP_DecryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) == 1, "oracle: aad");
    int done = 0;
    uint8_t dummy = 0;
    if (ct_len != 0 || is_ccm(alg) || is_gcm_siv(alg)) {
        const bool ok = EVP_DecryptUpdate(c.get(), pt.data(), &done, ct_len != 0 ? in : &dummy, static_cast<int>(ct_len)) == 1;
        if (!ok && is_ccm(alg)) {  // CCM checks its tag in the payload update
            ERR_clear_error();
            pt.assign(ct_len, 0);
            return false;
        }
        CHECK(ok, "oracle: update");
    }
    const bool ok = EVP_DecryptFinal_ex(c.get(), pt.data() + done, &n) == 1;
    if (ok) CHECK(static_cast<size_t>(done + n) == ct_len, "oracle: open length");
    pt.resize(ct_len);
    ERR_clear_error();
    return ok;
}

// AES-SIV (RFC 5297 section 6's AEAD form): S2V over [aad, nonce if non-empty], each an AAD update; NULL
// input is the provider's "final", so empty strings come from a real address. Seal: SIV || ciphertext.
Bytes oracle_siv_seal(int alg, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt) {
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> c(EVP_CIPHER_CTX_new());
    static const uint8_t nothing[1] = {0};
    uint8_t spare[1];
    Bytes out(16 + pt.size());
    int n = 0;
    CHECK(c != nullptr && EVP_EncryptInit_ex(c.get(), oracle_cipher(alg), nullptr, key.data(), nullptr) == 1,
          "oracle: siv init");
    CHECK(EVP_EncryptUpdate(c.get(), nullptr, &n, aad.empty() ? nothing : aad.data(), static_cast<int>(aad.size())) == 1,
          "oracle: siv aad");
    if (!nonce.empty())
        CHECK(EVP_EncryptUpdate(c.get(), nullptr, &n, nonce.data(), static_cast<int>(nonce.size())) == 1, "oracle: siv nonce");
    CHECK(EVP_EncryptUpdate(c.get(), pt.empty() ? spare : out.data() + 16, &n, pt.empty() ? nothing : pt.data(),
                            static_cast<int>(pt.size())) == 1 &&
              EVP_EncryptFinal_ex(c.get(), spare, &n) == 1 &&
              EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, 16, out.data()) == 1,
          "oracle: siv seal");
    ERR_clear_error();
    return out;
}

bool oracle_siv_open(int alg, const Bytes &key, const Bytes &nonce, const Bytes &aad, const uint8_t *in, size_t in_len,
                     Bytes &pt) {
    CHECK(in_len >= 16, "oracle_siv_open: input shorter than the SIV");
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> c(EVP_CIPHER_CTX_new());
    static const uint8_t nothing[1] = {0};
    uint8_t spare[1], siv[16];
    std::memcpy(siv, in, 16);
    pt.assign(in_len - 16, 0);
    int n = 0;
    CHECK(c != nullptr && EVP_DecryptInit_ex(c.get(), oracle_cipher(alg), nullptr, key.data(), nullptr) == 1 &&
              EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_TAG, 16, siv) == 1,
          "oracle: siv open init");
    CHECK(EVP_DecryptUpdate(c.get(), nullptr, &n, aad.empty() ? nothing : aad.data(), static_cast<int>(aad.size())) == 1,
          "oracle: siv aad");
    if (!nonce.empty())
        CHECK(EVP_DecryptUpdate(c.get(), nullptr, &n, nonce.data(), static_cast<int>(nonce.size())) == 1, "oracle: siv nonce");
    const bool ok = EVP_DecryptUpdate(c.get(), pt.empty() ? spare : pt.data(), &n, pt.empty() ? nothing : in + 16,
                                      static_cast<int>(pt.size())) == 1 &&
                    EVP_DecryptFinal_ex(c.get(), spare, &n) == 1;
    if (!ok) pt.assign(pt.size(), 0);
    ERR_clear_error();
    return ok;
}

// ---------------------------------------------------------------------------------------------
// Memory: every buffer a call can see lives in a Region that is snapshotted before the call and
// compared with its expected contents after it.
constexpr size_t kGuard = 32;

struct Region {
    uint8_t *base = nullptr;
    size_t size = 0;
    Bytes before;
};

uint8_t fill_byte(size_t i) { return static_cast<uint8_t>(0xA0 | (i * 7 % 16)); }  // never zero

struct Arena {
    std::vector<Region> regions;
    ~Arena() {
        for (Region &r : regions) std::free(r.base);
    }
    Arena() = default;
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;
    // Exact-size heap block (so ASan sees reads past its end), pre-filled with a non-zero pattern.
    uint8_t *alloc(size_t size) {
        Region r;
        r.size = size;
        r.base = static_cast<uint8_t *>(std::malloc(size == 0 ? 1 : size));
        CHECK(r.base != nullptr, "malloc");
        for (size_t i = 0; i < size; ++i) r.base[i] = fill_byte(i);
        regions.push_back(std::move(r));
        return regions.back().base;
    }
    void snapshot() {
        for (Region &r : regions) r.before.assign(r.base, r.base + r.size);
    }
    // After a call: out[0, n) must equal `written` (if given) or zeros; everything else unchanged.
    void verify(const uint8_t *out, size_t n, const uint8_t *written, const char *what) const {
        const auto o = reinterpret_cast<uintptr_t>(out);
        for (const Region &r : regions) {
            const auto b = reinterpret_cast<uintptr_t>(r.base);
            for (size_t i = 0; i < r.size; ++i) {
                uint8_t want = r.before[i];
                const uintptr_t a = b + i;
                if (n != 0 && a >= o && a < o + n) want = written != nullptr ? written[a - o] : 0;
                if (r.base[i] != want) {
                    const bool inside = out != nullptr && o >= b && o <= b + r.size;
                    fail(__LINE__,
                         "%s: byte %zu of a %zu-byte buffer is 0x%02x, expected 0x%02x (out %s %zu, %zu bytes "
                         "expected written)",
                         what, i, r.size, r.base[i], want, inside ? "at offset" : "elsewhere, offset n/a",
                         inside ? static_cast<size_t>(o - b) : size_t{0}, n);
                }
            }
        }
    }
};

// Non-NULL pointers handed out with length 0: ASan-poisoned, so any read or write is reported.
uint8_t *poisoned_pointer() {
    alignas(64) static uint8_t zone[128];
#ifdef FUZZ_HAVE_ASAN
    static const bool once = [] {
        ASAN_POISON_MEMORY_REGION(zone, sizeof zone);
        return true;
    }();
    (void)once;
#endif
    return zone + 64;
}

bool ranges_overlap(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    if (a == nullptr || b == nullptr || al == 0 || bl == 0) return false;
    const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + bl && y < x + al;
}

// AEAD_FUZZ_SKIP_STALE_ERROR=1 turns the stale-error property off (to look for other problems while
// a known failure of that property is being fixed). Off by default: run.py checks it.
bool skip_stale_error() {
    static const bool skip = [] {
        const char *e = std::getenv("AEAD_FUZZ_SKIP_STALE_ERROR");
        return e != nullptr && e[0] == '1';
    }();
    return skip;
}

// ---------------------------------------------------------------------------------------------
// One fuzz input.

enum Placement { kSeparate, kInPlace, kArenaIn, kArenaAad, kArenaNonce };

struct Call {
    int op = AEAD_SEAL;
    const uint8_t *nonce = nullptr;
    size_t nonce_len = 0;
    const uint8_t *aad = nullptr;
    size_t aad_len = 0;
    const uint8_t *in = nullptr;
    size_t in_len = 0;
    uint8_t *out = nullptr;
    size_t out_cap = 0;
};

// An accepted open c (kind: "open" or "SIV open") that returned rc, against the oracle's verdict: an
// authentic message opens to the oracle's pt (out_len bytes), a forged one is AEAD_ERR_AUTH with
// min(out_cap, out_len) bytes of out zeroed; nothing else in mem changes.
void check_open(const Arena &mem, const Call &c, int64_t rc, size_t out_len, bool authentic, const Bytes &pt,
                const char *kind, const char *what) {
    if (authentic) {
        CHECK(rc == static_cast<int64_t>(out_len), "%s: %s of an authentic message returned %lld (%s)", what, kind,
              static_cast<long long>(rc), aead_strerror(rc));
        mem.verify(c.out, out_len, pt.data(), what);
    } else {
        CHECK(rc == AEAD_ERR_AUTH, "%s: %s of a forged message returned %lld (%s), expected AUTH", what, kind,
              static_cast<long long>(rc), aead_strerror(rc));
        mem.verify(c.out, std::min(c.out_cap, out_len), nullptr, what);  // zeroed
    }
}

// An open of in under nonce_v and aad_v, each copied into a block of its own in mem. In place, in's
// block has room for the output (out_cap bytes at in + pre, the random-nonce prefix skipped); else out
// has a block of its own. Both leave kGuard bytes past the output.
Call open_call(Arena &mem, const Bytes &nonce_v, const Bytes &aad_v, const Bytes &in, size_t out_cap, size_t pre,
               bool in_place) {
    Call c;
    c.op = AEAD_OPEN;
    c.nonce = mem.alloc(nonce_v.size());
    if (!nonce_v.empty()) std::memcpy(const_cast<uint8_t *>(c.nonce), nonce_v.data(), nonce_v.size());
    c.nonce_len = nonce_v.size();
    c.aad = mem.alloc(aad_v.size());
    if (!aad_v.empty()) std::memcpy(const_cast<uint8_t *>(c.aad), aad_v.data(), aad_v.size());
    c.aad_len = aad_v.size();
    c.in_len = in.size();
    c.out_cap = out_cap;
    if (in_place) {
        uint8_t *b = mem.alloc(std::max(in.size(), out_cap + pre) + kGuard);
        c.in = b;
        c.out = b + pre;
    } else {
        c.in = mem.alloc(in.size());
        c.out = mem.alloc(out_cap + kGuard);
    }
    std::memcpy(const_cast<uint8_t *>(c.in), in.data(), in.size());
    return c;
}

// AEAD_FUZZ_STATS=1: at exit, print how often each outcome was seen (to show no check is vacuous).
struct Stats {
    unsigned long long code[2][19] = {};  // [seal/open][-rc], index 0 = success
    unsigned long long accepted_checked = 0, refusals_checked = 0, roundtrips = 0, tampers = 0, tls_commits = 0,
                       ctx_refused = 0, null_ctx = 0, bad_op = 0, batched = 0, random_seals = 0, iv_given = 0,
                       vform = 0, siv_calls = 0;
    bool enabled = false;
    Stats() {
        const char *e = std::getenv("AEAD_FUZZ_STATS");
        enabled = e != nullptr && e[0] == '1';
    }
    ~Stats() { print(); }
    void print() const {
        if (!enabled || g_dtls_mode != kNoDtls) return;
        std::fprintf(stderr, "fuzz_seal_open stats: accepted calls checked against the oracle %llu, refusals %llu, "
                             "round trips %llu, tampered opens %llu, TLS seals accepted %llu, refused contexts %llu, "
                             "NULL-ctx calls %llu, bad-op calls %llu, batched calls %llu, random-nonce seals %llu, "
                             "contexts with a TLS IV given %llu, aead_seal_open_v calls %llu, AES-SIV calls checked %llu\n",
                     accepted_checked, refusals_checked, roundtrips, tampers, tls_commits, ctx_refused, null_ctx,
                     bad_op, batched, random_seals, iv_given, vform, siv_calls);
        std::fprintf(stderr, "  focus %s; XChaCha20-Poly1305 oracle seals libsodium agreed with: %llu\n",
                     g_focus != nullptr ? g_focus->name : "all", g_sodium_checked);
        for (int o = 0; o < 2; ++o) {
            std::fprintf(stderr, "  %s:", o == 0 ? "seal" : "open");
            for (int i = 0; i < 19; ++i)
                if (code[o][i] != 0) std::fprintf(stderr, " %s%d=%llu", i == 0 ? "" : "-", i, code[o][i]);
            std::fprintf(stderr, "\n");
        }
    }
    void count(int op, int64_t rc) {
        if ((op == AEAD_SEAL || op == AEAD_OPEN) && rc <= 0 && rc >= AEAD_ERR_KEY_LIMIT) ++code[op == AEAD_OPEN][-rc];
        else if (op == AEAD_SEAL || op == AEAD_OPEN) ++code[op == AEAD_OPEN][0];
        else ++bad_op;
    }
};
Stats g_stats;

int64_t invoke(aead_ctx *ctx, const Call &c, bool stale_error, bool batch, bool vform) {
    ERR_clear_error();
    if (stale_error) ERR_raise(ERR_LIB_EVP, EVP_R_BAD_DECRYPT);  // the caller's own leftover error
    int64_t rc;
    if (batch) {
        aead_record r{c.nonce, c.nonce_len, c.aad, c.aad_len, c.in, c.in_len, c.out, c.out_cap, 0x5A5A};
        const int64_t n = aead_seal_open_many(ctx, c.op, &r, 1);
        if (ctx == nullptr || (c.op != AEAD_SEAL && c.op != AEAD_OPEN)) {
            CHECK(n == AEAD_ERR_ARG && r.result == 0x5A5A, "batch with NULL ctx or bad op returned %lld", static_cast<long long>(n));
            rc = AEAD_ERR_ARG;
        } else {
            CHECK(n == (r.result >= 0 ? 1 : 0), "batch returned %lld for a record whose result is %lld",
                  static_cast<long long>(n), static_cast<long long>(r.result));
            rc = r.result;
        }
        ++g_stats.batched;
    } else if (vform) {  // ABI 1.3: the AAD as the one component of aead_seal_open_v, the same call
        const aead_buf one{c.aad, c.aad_len};
        rc = aead_seal_open_v(ctx, c.op, c.nonce, c.nonce_len, &one, 1, c.in, c.in_len, c.out, c.out_cap);
        ++g_stats.vform;
    } else {
        rc = aead_seal_open(ctx, c.op, c.nonce, c.nonce_len, c.aad, c.aad_len, c.in, c.in_len, c.out, c.out_cap);
    }
    ERR_clear_error();
    if (ctx == nullptr) ++g_stats.null_ctx;
    else g_stats.count(c.op, rc);
    CHECK(aead_strerror(rc) != nullptr, "aead_strerror returned NULL for %lld", static_cast<long long>(rc));
    return rc;
}

struct Fuzz {
    int alg = 0, policy = 0;
    Bytes key;
    size_t tag = 16;  // effective tag length when ctx is valid
    aead_ctx *ctx = nullptr;
    TlsModel tls;
    Bytes last_sealed;

    // Refusal codes for a call on a valid ctx, from the contract. out_len_known/out_len: the output
    // length if the op is valid and the input long enough.
    CodeSet refusals(const Call &c, size_t &out_len, bool &have_out_len) const {
        CodeSet s;
        have_out_len = false;
        const bool op_ok = c.op == AEAD_SEAL || c.op == AEAD_OPEN;
        if (!op_ok) s.add(AEAD_ERR_ARG);
        if ((c.nonce == nullptr && c.nonce_len != 0) || (c.aad == nullptr && c.aad_len != 0) ||
            (c.in == nullptr && c.in_len != 0) || (c.out == nullptr && c.out_cap != 0))
            s.add(AEAD_ERR_ARG);
        if (!nonce_valid(alg, policy, c.nonce_len)) s.add(AEAD_ERR_NONCE_SIZE);
        if (op_ok) {
            const size_t pre = prefix_of(policy);
            if (c.op == AEAD_SEAL) {
                out_len = c.in_len + pre + tag;
                have_out_len = true;
            } else if (c.in_len < pre + tag) {
                s.add(AEAD_ERR_AUTH);  // too short to hold a tag: not authentic, and nothing written
            } else {
                out_len = c.in_len - pre - tag;
                have_out_len = true;
            }
            if (have_out_len) {
                if (c.out_cap < out_len) s.add(AEAD_ERR_BUFFER_TOO_SMALL);
                // The one alias allowed: the ciphertext exactly where the plaintext is.
                const auto o = reinterpret_cast<uintptr_t>(c.out), i = reinterpret_cast<uintptr_t>(c.in);
                const bool in_place = c.out != nullptr && c.in != nullptr && (c.op == AEAD_SEAL ? o + pre == i : o == i + pre);
                if ((!in_place && ranges_overlap(c.out, out_len, c.in, c.in_len)) ||
                    ranges_overlap(c.out, out_len, c.aad, c.aad_len) ||
                    ranges_overlap(c.out, out_len, c.nonce, c.nonce_len))
                    s.add(AEAD_ERR_OVERLAP);
            }
            if (c.op == AEAD_SEAL && tls_aad_size(policy) != 0 && c.aad_len != tls_aad_size(policy))
                s.add(AEAD_ERR_AAD_SIZE);
            if (is_siv(alg) && have_out_len && (c.op == AEAD_SEAL ? c.in_len : out_len) == 0 && !siv_takes_empty())
                s.add(AEAD_ERR_UNSUPPORTED);
        }
        return s;
    }

    // Runs one call and checks everything about it. Returns the code.
    int64_t run_call(Arena &mem, const Call &c, bool null_ctx, bool stale_error, bool batch, const Bytes &nonce_v,
                     const Bytes &aad_v, const Bytes &in_v, const char *what, bool vform = false) {
        mem.snapshot();
        aead_ctx *use = null_ctx ? nullptr : ctx;
        const int64_t rc = invoke(use, c, stale_error, batch, vform);
        if (use == nullptr) {
            CHECK(rc == AEAD_ERR_ARG, "%s: NULL ctx returned %lld, expected AEAD_ERR_ARG", what,
                  static_cast<long long>(rc));
            mem.verify(nullptr, 0, nullptr, what);
            return rc;
        }
        size_t out_len = 0;
        bool have_out_len = false;
        CodeSet refused = refusals(c, out_len, have_out_len);
        const bool tls_seal = c.op == AEAD_SEAL && tls.enforced && c.nonce != nullptr && c.nonce_len == 12;
        CodeSet order;
        if (tls_seal) order = tls.judge(c.nonce);
        if (!refused.empty() || !order.empty()) {
            CodeSet all = refused;
            all.merge(order);
            CHECK(all.has(rc), "%s: returned %lld (%s); the contract requires one of the refusal set 0x%x", what,
                  static_cast<long long>(rc), aead_strerror(rc), all.bits);
            mem.verify(nullptr, 0, nullptr, what);  // a refusal writes nothing
            ++g_stats.refusals_checked;
            return rc;                               // and consumes nothing (model unchanged)
        }
        // Accepted by every check: the result is the oracle's.
        ++g_stats.accepted_checked;
        if (is_siv(alg)) {
            ++g_stats.siv_calls;
            if (c.op == AEAD_SEAL) {
                const Bytes want = oracle_siv_seal(alg, key, nonce_v, aad_v, in_v);
                CHECK(rc == static_cast<int64_t>(out_len), "%s: SIV seal returned %lld (%s), expected %zu", what,
                      static_cast<long long>(rc), aead_strerror(rc), out_len);
                mem.verify(c.out, out_len, want.data(), what);
                last_sealed = want;
            } else {
                Bytes pt;
                const bool ok = oracle_siv_open(alg, key, nonce_v, aad_v, in_v.data(), in_v.size(), pt);
                check_open(mem, c, rc, out_len, ok, pt, "SIV open", what);
            }
        } else if (c.op == AEAD_SEAL && policy == AEAD_POLICY_RANDOM_NONCE) {
            // The library drew the nonce: read it back, and the rest must be the oracle's for it.
            CHECK(rc == static_cast<int64_t>(out_len), "%s: random-nonce seal returned %lld (%s), expected %zu", what,
                  static_cast<long long>(rc), aead_strerror(rc), out_len);
            Bytes want(c.out, c.out + prefix_of(policy));
            const Bytes body = oracle_seal(alg, key, want, aad_v, in_v, tag);
            want.insert(want.end(), body.begin(), body.end());
            mem.verify(c.out, out_len, want.data(), what);
            last_sealed = want;
            ++g_stats.random_seals;
        } else if (c.op == AEAD_SEAL) {
            const Bytes want = oracle_seal(alg, key, nonce_v, aad_v, in_v, tag);
            CHECK(rc == static_cast<int64_t>(out_len), "%s: seal returned %lld (%s), expected %zu", what,
                  static_cast<long long>(rc), aead_strerror(rc), out_len);
            mem.verify(c.out, out_len, want.data(), what);
            if (tls_seal) {
                tls.commit(c.nonce);
                ++g_stats.tls_commits;
            }
            last_sealed = want;
        } else {
            Bytes pt;
            const size_t pre = prefix_of(policy);
            const Bytes nonce_used = pre != 0 ? Bytes(in_v.begin(), in_v.begin() + static_cast<long>(pre)) : nonce_v;
            const bool ok = oracle_open(alg, key, nonce_used, aad_v, in_v.data() + pre, in_v.size() - pre, tag, pt);
            check_open(mem, c, rc, out_len, ok, pt, "open", what);
        }
        return rc;
    }

    // Seal succeeded: open it back, then open a copy with one byte flipped.
    void roundtrip(const Bytes &nonce_v, const Bytes &aad_v, const Bytes &pt, uint16_t pos, uint8_t mask,
                   uint8_t rt, bool stale_error) {
        const Bytes sealed = last_sealed;
        {
            Arena mem;
            // rt bit 0, exact in-place: the plaintext lands where the ciphertext is (sealed is the prefix,
            // the plaintext and the tag, so its block has the room).
            const Call c = open_call(mem, nonce_v, aad_v, sealed, pt.size(), prefix_of(policy), (rt & 1) != 0);
            const int64_t rc = run_call(mem, c, false, stale_error, (rt & 0x20) != 0, nonce_v, aad_v, sealed,
                                        "roundtrip open", (rt & 0x80) != 0);
            CHECK(rc == static_cast<int64_t>(pt.size()), "roundtrip open returned %lld (%s), expected %zu",
                  static_cast<long long>(rc), aead_strerror(rc), pt.size());
            CHECK(pt.empty() || std::memcmp(c.out, pt.data(), pt.size()) == 0, "roundtrip plaintext differs");
            ++g_stats.roundtrips;
        }
        // Tamper: one byte of ct || tag, aad or nonce.
        Bytes t_in = sealed, t_aad = aad_v, t_nonce = nonce_v;
        const size_t span = t_in.size() + t_aad.size() + t_nonce.size();
        size_t at = pos % span;
        const uint8_t x = mask != 0 ? mask : 1;
        if (at < t_in.size()) {
            t_in[at] ^= x;
        } else if ((at -= t_in.size()) < t_aad.size()) {
            t_aad[at] ^= x;
        } else {
            t_nonce[at - t_aad.size()] ^= x;
        }
        Bytes unused;
        const size_t pre = prefix_of(policy);  // random-nonce: the nonce travels in front of the ciphertext
        const Bytes used_nonce = pre != 0 ? Bytes(t_in.begin(), t_in.begin() + static_cast<long>(pre)) : t_nonce;
        const bool forged_ok = is_siv(alg) ? oracle_siv_open(alg, key, t_nonce, t_aad, t_in.data(), t_in.size(), unused)
                                           : oracle_open(alg, key, used_nonce, t_aad, t_in.data() + pre,
                                                         t_in.size() - pre, tag, unused);
        // With a 16-byte tag a one-byte change that authenticates is a 2^-128 event: the oracle is wrong.
        CHECK(!forged_ok || (!is_siv(alg) && tag < 16), "oracle accepted a modified message with a 16-byte tag");
        Arena mem;
        const Call c = open_call(mem, t_nonce, t_aad, t_in, pt.size() + ((rt >> 2) & 7), pre, (rt & 2) != 0);
        const int64_t rc = run_call(mem, c, false, stale_error, (rt & 0x40) != 0, t_nonce, t_aad, t_in, "tampered open",
                                    (rt & 0x80) != 0 && (rt & 0x40) == 0);
        ++g_stats.tampers;
        if (!forged_ok)
            CHECK(rc == AEAD_ERR_AUTH, "tampered open returned %lld (%s), expected AEAD_ERR_AUTH",
                  static_cast<long long>(rc), aead_strerror(rc));
    }

    // Builds a structured TLS nonce from the model: mostly acceptable, sometimes just off.
    Bytes tls_nonce(Reader &r) const {
        const uint8_t sel = r.u8();
        const Bytes pre_raw = r.take(4);
        const uint64_t base = r.u64be();
        uint8_t n[12];
        uint32_t prefix = TlsModel::be32(pre_raw.data());
        if (tls.learned && !(sel & 0x80)) prefix = tls.prefix;
        const uint64_t next = tls.learned ? tls.next : 0;
        const unsigned s = sel & 0x1f;
        uint64_t seq;
        if (s < 12) seq = next + s - 4;  // wraps below next on purpose
        else if (s == 12) seq = kMax64;
        else if (s == 13) seq = kMax64 - 1;
        else if (s == 14) seq = kMax64 - 2;
        else if (s == 15) seq = base;
        else seq = next + uint64_t{s - 16} * 1000;
        uint64_t last8;
        if (tls.learned) last8 = seq ^ tls.mask;
        else last8 = tls.explicit_counter ? seq : (s == 12 ? kMax64 : base);
        for (int i = 0; i < 4; ++i) n[i] = static_cast<uint8_t>(prefix >> (24 - 8 * i));
        for (int i = 0; i < 8; ++i) n[4 + i] = static_cast<uint8_t>(last8 >> (56 - 8 * i));
        return Bytes(n, n + 12);
    }

    void op(Reader &r) {
        const uint8_t opb = r.u8();
        const uint8_t flags = r.u8();
        static constexpr int kBadOps[4] = {0, 3, -1, 0x10001};
        const unsigned kind = opb & 3;
        const int op_code = kind == 3 ? kBadOps[(opb >> 2) & 3] : kind == 1 ? AEAD_OPEN : AEAD_SEAL;

        // nonce
        Bytes nonce_v;
        const uint16_t nl = r.u16();
        if (nl == 0xFFFF) nonce_v = tls_nonce(r);
        else nonce_v = r.take(nl <= 1024 ? nl : nl % 1025u);
        // aad
        const uint16_t al = r.u16();
        const size_t aad_len = al == 0xFFFF ? tls_aad_size(policy) : (al <= 2048 ? al : al % 2049u);
        const Bytes aad_v = r.take(aad_len);
        // in
        const uint16_t il = r.u16();
        Bytes in_v = il == 0xFFFF ? last_sealed : r.take(il <= 4096 ? il : il % 4097u);
        // out_cap, around the output length
        const uint8_t oc = r.u8();
        size_t need = in_v.size();
        const size_t pre = prefix_of(policy);
        if (op_code == AEAD_SEAL) need = in_v.size() + pre + tag;
        else if (op_code == AEAD_OPEN) need = in_v.size() >= pre + tag ? in_v.size() - pre - tag : 0;
        size_t out_cap;
        if (oc < 0x60) out_cap = need;
        else if (oc < 0x80) out_cap = need + (oc - 0x5Fu);
        else if (oc < 0xC0) out_cap = need >= oc - 0x7Fu ? need - (oc - 0x7Fu) : 0;
        else if (oc < 0xFF) out_cap = need + (oc - 0xC0u) * 64;
        else out_cap = 0;
        // placement
        const uint8_t pl = r.u8();
        const uint16_t delta = r.u16();
        const uint16_t tpos = r.u16();
        const uint8_t tmask = r.u8();
        const uint8_t rt = r.u8();
        static constexpr Placement kPlace[8] = {kSeparate, kInPlace,  kArenaIn,  kArenaAad,
                                                kArenaNonce, kSeparate, kSeparate, kInPlace};
        const Placement place = kPlace[pl & 7];

        Arena mem;
        Call c;
        c.op = op_code;
        c.nonce_len = nonce_v.size();
        c.aad_len = aad_v.size();
        c.in_len = in_v.size();
        c.out_cap = out_cap;
        uint8_t *nonce_p = nullptr, *aad_p = nullptr, *in_p = nullptr, *out_p = nullptr;
        auto arena_with = [&](size_t x_len, uint8_t *&x_p) {
            // x at x_off; out at x_off + d for d in [-(out_cap + G), x_len + G].
            const size_t x_off = out_cap + 2 * kGuard;
            uint8_t *a = mem.alloc(2 * out_cap + x_len + 4 * kGuard);
            x_p = a + x_off;
            const size_t range = out_cap + x_len + 2 * kGuard + 1;
            const size_t d = delta % range;  // 0 .. range-1
            out_p = a + x_off - (out_cap + kGuard) + d;
        };
        switch (place) {
            case kInPlace: {  // the documented alias: the ciphertext (or plaintext) where the input's is
                uint8_t *b = mem.alloc(std::max(in_v.size(), out_cap) + pre + kGuard);
                in_p = op_code == AEAD_OPEN ? b : b + pre;
                out_p = op_code == AEAD_OPEN ? b + pre : b;
                break;
            }
            case kArenaIn: arena_with(in_v.size(), in_p); break;
            case kArenaAad: arena_with(aad_v.size(), aad_p); break;
            case kArenaNonce: arena_with(nonce_v.size(), nonce_p); break;
            case kSeparate: break;
        }
        if (nonce_p == nullptr) nonce_p = mem.alloc(nonce_v.size());
        if (aad_p == nullptr) aad_p = mem.alloc(aad_v.size());
        if (in_p == nullptr) in_p = mem.alloc(in_v.size());
        if (out_p == nullptr) out_p = mem.alloc(out_cap + kGuard);
        if (!nonce_v.empty()) std::memcpy(nonce_p, nonce_v.data(), nonce_v.size());
        if (!aad_v.empty()) std::memcpy(aad_p, aad_v.data(), aad_v.size());
        if (!in_v.empty()) std::memcpy(in_p, in_v.data(), in_v.size());
        // flags: bit0..3 NULL nonce/aad/in/out, bit4 zero-length pointers poisoned, bit5 NULL ctx,
        // bit6 a stale error on the OpenSSL error queue, bit7 through aead_seal_open_many.
        const bool poison = (flags & 0x10) != 0;
        auto pick = [&](uint8_t *p, size_t len, unsigned bit) -> uint8_t * {
            if (flags & (1u << bit)) return nullptr;
            if (len == 0 && poison) return poisoned_pointer();
            return p;
        };
        c.nonce = pick(nonce_p, nonce_v.size(), 0);
        c.aad = pick(aad_p, aad_v.size(), 1);
        c.in = pick(in_p, in_v.size(), 2);
        c.out = pick(out_p, out_cap, 3);
        const bool null_ctx = (flags & 0x20) != 0;
        const bool stale = (flags & 0x40) != 0 && !skip_stale_error();

        // rt bit 7 (unused by the call itself): through aead_seal_open_v, when not batched.
        const int64_t rc = run_call(mem, c, null_ctx, stale, (flags & 0x80) != 0, nonce_v, aad_v, in_v, "fuzzed call",
                                    (rt & 0x80) != 0 && (flags & 0x80) == 0);
        if (op_code == AEAD_SEAL && rc >= 0 && ctx != nullptr && !null_ctx)
            roundtrip(nonce_v, aad_v, in_v, tpos, tmask, rt, stale);
    }

    void run(Reader &r) {
        const uint8_t a = r.u8(), p = r.u8(), ks = r.u8(), ts = r.u8(), nops_b = r.u8();
        static constexpr int kBadAlgs[4] = {0, AEAD_AEGIS_256X4 + 1, -1, INT_MAX};
        const unsigned ac = a & 15;
        // 0..13: the first 14 algorithms; 14, 15 and bit 5: an unknown one; bit 6 (bit 5 clear): AES-SIV;
        // bits 5 and 6 with 0..11: AEGIS.
        alg = ac < 14 && (a & 32) == 0 ? static_cast<int>(ac) + 1 : kBadAlgs[ac & 3];
        if ((a & 0x60) == 0x40) alg = AEAD_AES_128_SIV + static_cast<int>(ac % 3);
        if ((a & 0x60) == 0x60 && ac < 12) alg = AEAD_AEGIS_128L + static_cast<int>(ac % 6);
        const unsigned pc = p & 7;
        policy = pc < 6 ? static_cast<int>(pc % 3) : (pc == 6 ? AEAD_POLICY_RANDOM_NONCE : (a & 16 ? 5 : -1));
        if (pc < 6 && (p >> 3 & 3) == 3) policy = AEAD_POLICY_COUNTER + static_cast<int>(pc % 3);  // 7, 8, 9
        if (g_focus != nullptr) {
            alg = g_focus->algs[ac % g_focus->n];
            if (g_focus->policy >= 0) policy = g_focus->policy;
        }
        g_alg = alg;
        size_t key_len = key_size_of(alg) != 0 ? key_size_of(alg) : 32;
        bool key_null = false;
        if ((ks >> 6) == 2) key_len = ks & 0x3f;
        if ((ks >> 6) == 3) {
            key_len = ks & 0x3f;
            key_null = true;
        }
        size_t tag_arg = (ts & 0x80) ? SIZE_MAX - (ts & 0x1f) : (ts & 0x3f);
        const unsigned nops = 1 + nops_b % 8;
        key = r.take(key_len);
        // aead_ctx_new_ex with a TLS IV given up front.
        const bool with_iv = (ts & 0xC0) == 0x40;
        static constexpr size_t kIvLens[4] = {0, 4, 12, 7};
        const Bytes iv = with_iv ? r.take(kIvLens[(nops_b >> 3) & 3]) : Bytes{};

        // aead_ctx_new: expected code from the contract.
        CodeSet s;
        if (!alg_valid(alg) || !policy_valid(alg, policy) || (key_null && key_len != 0)) s.add(AEAD_ERR_ARG);
        if (alg_valid(alg)) {
            if (key_len != key_size_of(alg)) s.add(AEAD_ERR_KEY_SIZE);
            // With an unknown policy the tag rule is undefined: ARG is then in the set anyway.
            if (!tag_valid(alg, policy_valid(alg, policy) ? policy : AEAD_POLICY_NONE, tag_arg == 0 ? 16 : tag_arg))
                s.add(AEAD_ERR_TAG_SIZE);
            if (!iv_valid(alg, policy, iv.size())) s.add(AEAD_ERR_NONCE_SIZE);
            // GCM-SIV before OpenSSL 3.2: the one refusal when everything else is right.
            if (s.empty() && !is_aegis(alg) && oracle_cipher_or_null(alg) == nullptr) s.add(AEAD_ERR_UNSUPPORTED);
        }
        static int sentinel;
        ctx = reinterpret_cast<aead_ctx *>(&sentinel);
        const int rc = with_iv ? aead_ctx_new_ex(&ctx, alg, policy, key_null ? nullptr : key.data(), key_len, tag_arg,
                                                 (a & 32) ? "provider=default" : nullptr,
                                                 iv.empty() ? nullptr : iv.data(), iv.size())
                               : aead_ctx_new(&ctx, alg, policy, key_null ? nullptr : key.data(), key_len, tag_arg);
        if (s.empty()) {
            CHECK(rc == 0 && ctx != nullptr, "aead_ctx_new(alg %d, policy %d, key %zu, tag %zu) returned %d (%s)",
                  alg, policy, key_len, tag_arg, rc, aead_strerror(rc));
        } else {
            CHECK(s.has(rc), "aead_ctx_new(alg %d, policy %d, key %zu, tag %zu) returned %d (%s), refusal set 0x%x",
                  alg, policy, key_len, tag_arg, rc, aead_strerror(rc), s.bits);
            CHECK(ctx == nullptr, "aead_ctx_new refused but did not store NULL");
            ++g_stats.ctx_refused;
        }
        CHECK(aead_ctx_new(nullptr, alg, policy, key.data(), key_len, tag_arg) == AEAD_ERR_ARG,
              "aead_ctx_new(NULL, ...) is not AEAD_ERR_ARG");
        // Without a context every call is AEAD_ERR_ARG; sizes are then decoded as for a 16-byte tag.
        tag = ctx != nullptr ? (tag_arg == 0 ? 16 : tag_arg) : 16;
        if (is_siv(alg)) tag = 0;  // SIV's 16 bytes lead the ciphertext: prefix_of
        tls.enforced = tls_policy(policy);
        tls.explicit_counter = policy == AEAD_POLICY_TLS12 && (is_gcm(alg) || is_ccm(alg));
        tls.offset = offset_policy(policy);
        if (ctx != nullptr && iv.size() >= 4) {  // given up front: nothing to learn
            tls.learned = true;
            tls.prefix = TlsModel::be32(iv.data());
            const uint64_t last8 = iv.size() == 12 ? TlsModel::be64(iv.data() + 4) : 0;
            (tls.offset ? tls.base : tls.mask) = last8;
            ++g_stats.iv_given;
        }

        for (unsigned i = 0; i < nops; ++i) op(r);
        aead_ctx_free(ctx);
        ctx = nullptr;
    }
};

// The DTLS 1.2 / DTLS 1.3 / QUIC-window modes (their own input format and reference model).
#include "fuzz_dtls.inc"
#include "fuzz_stream.inc"

}  // namespace

// campaign.py ends a run after its CPU budget with SIGUSR2 (libFuzzer started with -handle_usr2=0): the
// next input prints the counts, then asks libFuzzer for its graceful exit (SIGUSR1), which leaves without
// running exit handlers, so the counts would otherwise be lost.
namespace {
volatile std::sig_atomic_t g_stop_requested = 0;
void request_stop(int) { g_stop_requested = 1; }
}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    std::signal(SIGUSR2, request_stop);
    const char *f = std::getenv("AEAD_FUZZ_FOCUS");
    static constexpr struct {
        const char *name;
        DtlsMode mode;
    } kDtlsModes[] = {{"dtls12", kDtls12}, {"dtls13", kDtls13}, {"quic-window", kQuicWindow}};
    for (const auto &m : kDtlsModes)
        if (f != nullptr && std::strcmp(f, m.name) == 0) g_dtls_mode = m.mode;
    static constexpr struct {
        const char *name;
        int format;
    } kStreamModes[] = {{"stream-tink", AEAD_STREAM_TINK_AES_GCM_HKDF}, {"stream-age", AEAD_STREAM_AGE},
                        {"stream-rfc8188", AEAD_STREAM_RFC8188}};
    for (const auto &m : kStreamModes)
        if (f != nullptr && std::strcmp(f, m.name) == 0) g_stream_format = m.format;
    if (f != nullptr && *f != '\0' && std::strcmp(f, "all") != 0 && g_dtls_mode == kNoDtls && g_stream_format == 0) {
        for (const Focus &x : kFocus)
            if (std::strcmp(f, x.name) == 0) g_focus = &x;
        if (g_focus == nullptr) {
            std::fprintf(stderr, "fuzz_seal_open: unknown AEAD_FUZZ_FOCUS '%s'\n", f);
            std::exit(2);
        }
    }
#ifdef AEAD_FUZZ_HAVE_SODIUM
    if (sodium_init() < 0) {
        std::fprintf(stderr, "fuzz_seal_open: sodium_init failed\n");
        std::exit(2);
    }
#endif
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (g_stop_requested != 0) {
        g_stop_requested = 0;
        g_stats.print();
        g_dtls_stats.print();
        std::raise(SIGUSR1);
        return 0;
    }
    if (g_dtls_mode != kNoDtls) {
        run_dtls(data, size);
        return 0;
    }
    if (g_stream_format != 0) {
        run_stream(g_stream_format, data, size);
        return 0;
    }
    Reader r{data, size};
    Fuzz f;
    f.run(r);
    return 0;
}
