// The one-shot seal and open on a keyed working context: set the IV, feed AAD and data, finish, tag.
// Two ways, the same steps: a provider context driven directly through its implementation's functions
// (the usual case; docs/libcrypto.md), or an EVP_CIPHER_CTX.
#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <openssl/rand.h>

#include "contexts.h"
#include "family_ops.h"
#include "fault_injection.h"

namespace aead::shim {

namespace {

// EVP_CipherUpdate takes an int length: larger inputs go in chunks (GCM and ChaCha20-Poly1305 stream,
// so every chunk's output is exactly its input length). Zero-length input is skipped, never passed.
constexpr size_t kChunk = size_t{1} << 30;
#ifdef AEAD_FAULT_INJECTION
// Fault-injection builds only: AEAD_TEST_CHUNK=n (read once per call) makes the chunk n bytes, so the
// tests run the chunked loops below, and fail each of their calls, on small inputs.
size_t chunk() noexcept {
    const char *v = std::getenv("AEAD_TEST_CHUNK");
    const unsigned long long n = v != nullptr ? std::strtoull(v, nullptr, 10) : 0;
    return n != 0 && n < kChunk ? static_cast<size_t>(n) : kChunk;
}
#else
constexpr size_t chunk() noexcept { return kChunk; }
#endif

// Inlined, like start(): this is the hot path, and out-of-line helpers cost a tenth of a small seal.
[[gnu::always_inline]] inline bool feed(EVP_CIPHER_CTX *c, uint8_t *out, Bytes in) noexcept {
    int written = 0;
    const size_t step = chunk();
    if (in.size <= step) [[likely]] {  // one update: the common case, without the loop's bookkeeping
        if (in.size == 0) return true;
        if (fault_point() || EVP_CipherUpdate(c, out, &written, in.data, static_cast<int>(in.size)) != 1) return false;
        return out == nullptr || static_cast<size_t>(written) == in.size;
    }
    while (in.size != 0) {
        const size_t n = std::min(in.size, step);
        if (fault_point() || EVP_CipherUpdate(c, out, &written, in.data, static_cast<int>(n)) != 1) return false;
        if (out != nullptr) {
            if (static_cast<size_t>(written) != n) return false;
            out += n;
        }
        in.data += n;
        in.size -= n;
    }
    return true;
}

// Sets the nonce (changing the IV length first if this nonce's differs) and the direction.
[[gnu::always_inline]] inline bool start(Worker &w, Bytes nonce, int enc) noexcept {
    if (nonce.size != w.iv_len) {
        size_t len = nonce.size;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_END};
        if (fault_point() || EVP_CIPHER_CTX_set_params(w.ctx.get(), p) != 1) return false;
        w.iv_len = nonce.size;
    }
    return !fault_point() && EVP_CipherInit_ex2(w.ctx.get(), nullptr, nullptr, nonce.data, enc, nullptr) == 1;
}

// ---- Direct: the calls EVP_Cipher* would make on its provider context, without the EVP layer ----

// The implementation's update takes size_t lengths; the same chunks as EVP's are kept anyway (no
// provider is asked for more at once than through EVP). outsize is the input's length, as EVP passes
// for a stream cipher: also for AAD (out NULL), where a smaller outsize makes the provider refuse it.
[[gnu::always_inline]] inline bool feed(const Dispatch &d, void *c, uint8_t *out, Bytes in) noexcept {
    size_t written = 0;
    const size_t step = chunk();
    if (in.size <= step) [[likely]] {
        if (in.size == 0) return true;
        if (fault_point() || d.update(c, out, &written, in.size, in.data, in.size) != 1) return false;
        return out == nullptr || written == in.size;
    }
    while (in.size != 0) {
        const size_t n = std::min(in.size, step);
        if (fault_point() || d.update(c, out, &written, n, in.data, n) != 1) return false;
        if (out != nullptr) {
            if (written != n) return false;
            out += n;
        }
        in.data += n;
        in.size -= n;
    }
    return true;
}

// Sets the nonce alone (the context stays keyed) and the direction, the IV length first if it changes.
[[gnu::always_inline]] inline bool start(Worker &w, const Dispatch &d, Bytes nonce, bool enc) noexcept {
    void *c = w.pctx.get();
    if (nonce.size != w.iv_len) {
        size_t len = nonce.size;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_END};
        if (fault_point() || d.set_ctx_params(c, p) != 1) return false;
        w.iv_len = nonce.size;
    }
    if (fault_point()) return false;
    return (enc ? d.encrypt_init(c, nullptr, 0, nonce.data, nonce.size, nullptr)
                : d.decrypt_init(c, nullptr, 0, nonce.data, nonce.size, nullptr)) == 1;
}

[[gnu::always_inline]] inline int seal_direct(Worker &w, const Dispatch &d, Bytes nonce, Bytes aad, Bytes in,
                                              uint8_t *out, size_t tag_len) noexcept {
    void *c = w.pctx.get();
    size_t final_len = 0;
    if (!start(w, d, nonce, true) || !feed(d, c, nullptr, aad) || !feed(d, c, out, in) || fault_point() ||
        d.final(c, out + in.size, &final_len, 0) != 1 || final_len != 0)
        return failure_code();
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + in.size, tag_len),
                      OSSL_PARAM_END};
    if (fault_point() || d.get_ctx_params(c, p) != 1) return failure_code();
    return 0;
}

[[gnu::always_inline]] inline int open_direct(Worker &w, const Dispatch &d, Bytes nonce, Bytes aad, Bytes ciphertext,
                                              Bytes tag, uint8_t *out) noexcept {
    void *c = w.pctx.get();
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                        const_cast<uint8_t *>(tag.data), tag.size),
                      OSSL_PARAM_END};
    if (!start(w, d, nonce, false) || fault_point() || d.set_ctx_params(c, p) != 1 || !feed(d, c, nullptr, aad) ||
        !feed(d, c, out, ciphertext))
        return failure_code();
    uint8_t none = 0;
    size_t final_len = 0;
    if (fault_point()) return failure_code();
    // As below: with every step before it done, a failing final is the tag comparison.
    if (d.final(c, out != nullptr ? out + ciphertext.size : &none, &final_len, 0) != 1) return AEAD_ERR_AUTH;
    return 0;
}

// ---- Families: AES-CCM, AES-GCM-SIV, AES-OCB3, XChaCha20-Poly1305 ----
// The same steps through EVP or directly (Evp / Direct below), with each family's own rules:
//  - CCM: the payload length before any AAD (Update(NULL, NULL, len)); AAD and payload in one update
//    each; an open's tag is checked in the payload update, so that update is made even for an empty
//    message (with no payload call a CCM final checks nothing);
//  - GCM-SIV: one operation per init; the AAD accumulates across operations until an empty AAD update
//    resets it, so every call starts with one; the payload update is made even when empty (the tag is
//    computed there);
//  - OCB3: updates hold back a partial block, which final writes;
//  - XChaCha20-Poly1305: ChaCha20-Poly1305 keyed per call with HChaCha20(key, nonce[0..16]).

// OCB3 takes nonces of 1..15 bytes: the length is set when it changes.
template <typename Ops>
bool family_iv_len(const Ops &o, Mode m, size_t &cur, size_t want) noexcept {
    if (m != Mode::ocb || cur == want) return true;
    size_t len = want;
    const OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_END};
    if (fault_point() || !o.set(p)) return false;
    cur = want;
    return true;
}

template <typename Ops>
bool family_aad(const Ops &o, Mode m, Bytes aad, size_t payload) noexcept {
    size_t w = 0;
    if (m == Mode::ccm && (fault_point() || !o.update(nullptr, w, nullptr, payload))) return false;
    if (m == Mode::gcm_siv && (fault_point() || !o.update(nullptr, w, g_empty, 0))) return false;
    if (aad.size == 0) return true;
    if (m == Mode::ccm) return !fault_point() && o.update(nullptr, w, aad.data, aad.size);
    const size_t step = chunk();
    while (aad.size != 0) {
        const size_t n = std::min(aad.size, step);
        if (fault_point() || !o.update(nullptr, w, aad.data, n)) return false;
        aad.data += n;
        aad.size -= n;
    }
    return true;
}

// The payload into out; done: the bytes written (OCB3 may hold some back for final).
template <typename Ops>
int family_payload(const Ops &o, Mode m, uint8_t *out, Bytes in, size_t &done, bool open) noexcept {
    size_t w = 0;
    done = 0;
    if (m == Mode::ccm || m == Mode::gcm_siv) {
        if (fault_point()) return failure_code();
        const bool empty = in.size == 0;
        if (!o.update(empty ? g_empty : out, w, empty ? g_empty : in.data, in.size))
            return open && m == Mode::ccm ? auth_failure() : failure_code();
        done = w;
        return 0;
    }
    const size_t step = chunk();
    while (in.size != 0) {
        const size_t n = std::min(in.size, step);
        if (fault_point() || !o.update(out + done, w, in.data, n)) return failure_code();
        done += w;
        in.data += n;
        in.size -= n;
    }
    return 0;
}

template <typename Ops>
int family_seal(const Ops &o, Mode m, size_t &iv_len, Bytes key, Bytes nonce, Bytes aad, Bytes in, uint8_t *out,
                size_t tag_len) noexcept {
    if (!family_iv_len(o, m, iv_len, nonce.size) || fault_point() || !o.init(key, nonce, true) ||
        !family_aad(o, m, aad, in.size))
        return failure_code();
    size_t done = 0, rest = 0;
    if (const int rc = family_payload(o, m, out, in, done, false)) return rc;
    if (fault_point() || !o.final(out + done, rest) || done + rest != in.size) return failure_code();
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + in.size, tag_len),
                      OSSL_PARAM_END};
    if (fault_point() || !o.get(p)) return failure_code();
    return 0;
}

template <typename Ops>
int family_open(const Ops &o, Mode m, size_t &iv_len, Bytes key, Bytes nonce, Bytes aad, Bytes ciphertext,
                Bytes tag, uint8_t *out) noexcept {
    const OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                              const_cast<uint8_t *>(tag.data), tag.size),
                            OSSL_PARAM_END};
    if (!family_iv_len(o, m, iv_len, nonce.size) || fault_point() || !o.init(key, nonce, false) || fault_point() ||
        !o.set(p) || !family_aad(o, m, aad, ciphertext.size))
        return failure_code();
    size_t done = 0, rest = 0;
    if (const int rc = family_payload(o, m, out, ciphertext, done, true)) return rc;
    uint8_t scratch[16];
    if (fault_point()) return failure_code();
    // With every step before it done, a failing final is the tag comparison (CCM's was in the payload).
    if (!o.final(out != nullptr ? out + done : scratch, rest)) return auth_failure();
    if (done + rest != ciphertext.size) return failure_code();
    return 0;
}

uint32_t load_le32(const uint8_t *p) noexcept {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
void store_le32(uint8_t *p, uint32_t v) noexcept {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// HChaCha20(key, nonce[0..16]) from OpenSSL's ChaCha20: its 16-byte IV is state words 12..15 (counter ||
// nonce), so one keystream block of zeros is permute(state) + state word by word; subtracting the
// known words (the constants 0..3, the IV 12..15) leaves the permuted words HChaCha20 outputs.
// The key words 4..11 are not needed. docs/algorithms.md.
int hchacha20(Worker &w, const uint8_t *nonce16, uint8_t subkey[32]) noexcept {
    static constexpr uint8_t zeros[64] = {};
    static constexpr uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"
    uint8_t block[64];
    int n = 0;
    if (fault_point() || EVP_CipherInit_ex2(w.hchacha.get(), nullptr, nullptr, nonce16, 1, nullptr) != 1 ||
        fault_point() || EVP_CipherUpdate(w.hchacha.get(), block, &n, zeros, sizeof zeros) != 1 || n != 64) {
        OPENSSL_cleanse(block, sizeof block);
        return failure_code();
    }
    for (int i = 0; i < 4; ++i) {
        store_le32(subkey + 4 * i, load_le32(block + 4 * i) - sigma[i]);
        store_le32(subkey + 16 + 4 * i, load_le32(block + 48 + 4 * i) - load_le32(nonce16 + 4 * i));
    }
    OPENSSL_cleanse(block, sizeof block);
    return 0;
}

// A worker's keyed context for a direction (and CCM nonce length), keyed on first use.
int keyed_context(Worker &w, size_t nonce_len, bool seal, void *&prov, EVP_CIPHER_CTX *&evp) noexcept {
    if (w.mode == Mode::ccm && (nonce_len < kCcmMinNonce || nonce_len >= kCcmMinNonce + kKeyedVariants / 2))
        return AEAD_ERR_CRYPTO;  // lib/ never passes one  GCOVR_EXCL_LINE (lib/seal_open.cpp checks nonce sizes first)
    const size_t i = keyed_variant(w.mode, nonce_len, seal);
    if (!w.keyed_pctx[i] && !w.keyed_ctx[i]) [[unlikely]] {
        if (const int rc = family_context(*w.tmpl, w.mode == Mode::ccm ? nonce_len : 12, seal, w.keyed_ctx[i],
                                          w.keyed_pctx[i]))
            return rc;
    }
    prov = w.keyed_pctx[i].get();
    evp = w.keyed_ctx[i].get();
    return 0;
}

// One family operation on w: the context for the call (CCM: by nonce length), the key for it
// (XChaCha20-Poly1305: the subkey, and the 12-byte nonce 0^4 || nonce[16..24]), then seal or open.
template <bool Seal>
[[gnu::noinline]] int family_call(Worker &w, Bytes nonce, Bytes aad, Bytes in, Bytes tag, uint8_t *out,
                                  size_t tag_len) noexcept {
    if (w.mode == Mode::siv) return AEAD_ERR_CRYPTO;  // lib/ sends SIV to siv.cpp, never here
    void *prov = w.pctx.get();
    EVP_CIPHER_CTX *evp = w.ctx.get();
    if (w.mode != Mode::xchacha) {
        if (const int rc = keyed_context(w, nonce.size, Seal, prov, evp)) return rc;
    }
    uint8_t subkey[32];
    uint8_t short_nonce[12] = {};
    Bytes key{nullptr, 0};
    if (w.mode == Mode::xchacha) {
        if (nonce.size != 24) return AEAD_ERR_CRYPTO;  // lib/ never passes one
        if (const int rc = hchacha20(w, nonce.data, subkey)) return rc;
        std::memcpy(short_nonce + 4, nonce.data + 16, 8);
        nonce = Bytes{short_nonce, sizeof short_nonce};
        key = Bytes{subkey, sizeof subkey};
    }
    int rc;
    if (w.direct != nullptr) {
        const Direct o{w.direct, prov};
        rc = Seal ? family_seal(o, w.mode, w.ocb_iv_len[0], key, nonce, aad, in, out, tag_len)
                  : family_open(o, w.mode, w.ocb_iv_len[1], key, nonce, aad, in, tag, out);
    } else {
        const Evp o{evp};
        rc = Seal ? family_seal(o, w.mode, w.ocb_iv_len[0], key, nonce, aad, in, out, tag_len)
                  : family_open(o, w.mode, w.ocb_iv_len[1], key, nonce, aad, in, tag, out);
    }
    if (key.data != nullptr) OPENSSL_cleanse(subkey, sizeof subkey);
    return rc;
}

}  // namespace

// Seals and opens a fixed message the same way through EVP and through d, on contexts made here
// (CCM with a 13-byte nonce, 16-byte tag): the direct calls must give EVP's bytes and verdicts.
int family_known_answer(const EVP_CIPHER *cipher, const Dispatch &d, int cipher_index) noexcept {
    static constexpr unsigned char aad[13] = {1, 2, 3};
    static constexpr unsigned char msg[40] = {42, 43};
    const auto c = static_cast<Cipher>(cipher_index);
    if (c >= Cipher::aes_128_siv) return siv_known_answer(cipher, d);
    const Mode m = c >= Cipher::aes_128_ocb       ? Mode::ocb
                   : c >= Cipher::aes_128_gcm_siv ? Mode::gcm_siv
                                                  : Mode::ccm;
    const size_t nonce_len = m == Mode::ccm ? 13 : 12;
    std::array<unsigned char, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x5A ^ (i * 7));
    std::array<unsigned char, 16> nonce{};
    for (size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<unsigned char>(i * 3 + 1);
    const auto key_len = static_cast<size_t>(EVP_CIPHER_get_key_length(cipher));
    if (key_len > key.size()) return 1;
    Template t;  // a stand-in template for family_context: EVP, then direct
    t.cipher = cipher;
    t.mode = m;
    t.key_len = key_len;
    std::memcpy(t.key, key.data(), key_len);
    CipherCtxPtr evp, unused_evp;
    ProvCtxPtr prov, prov_open, unused_prov;
    if (family_context(t, nonce_len, true, evp, unused_prov) != 0) return 2;
    t.direct = &d;
    if (family_context(t, nonce_len, true, unused_evp, prov) != 0 ||
        family_context(t, nonce_len, false, unused_evp, prov_open) != 0)
        return 1;  // GCOVR_EXCL_LINE a provider failing its own direct calls: not OpenSSL's
    std::array<unsigned char, sizeof msg + 16> want{}, got{}, back{};
    size_t evp_iv = 12, direct_iv = 12;
    const Bytes n{nonce.data(), nonce_len}, a{aad, sizeof aad}, pt{msg, sizeof msg};
    const Evp e{evp.get()};
    const Direct r{&d, prov.get()}, r_open{&d, prov_open.get()};
    if (family_seal(e, m, evp_iv, {nullptr, 0}, n, a, pt, want.data(), 16) != 0) return 2;
    for (int round = 0; round < 2; ++round) {  // twice: the context must serve one operation after another
        if (family_seal(r, m, direct_iv, {nullptr, 0}, n, a, pt, got.data(), 16) != 0 || got != want) return 1;
    }
    for (const bool forged : {false, true}) {
        got[sizeof msg + 15] ^= forged ? 1 : 0;
        size_t open_iv = direct_iv;
        const int rc = family_open(r_open, m, open_iv, {nullptr, 0}, n, a, {got.data(), sizeof msg},
                                   {got.data() + sizeof msg, 16}, back.data());
        if (rc != (forged ? AEAD_ERR_AUTH : 0)) return 1;
        if (!forged && std::memcmp(back.data(), msg, sizeof msg) != 0) return 1;
    }
    OPENSSL_cleanse(t.key, sizeof t.key);
    return 0;
}

int seal(Worker &w, Bytes nonce, Bytes aad, Bytes in, uint8_t *out, size_t tag_len) noexcept {
    if (w.mode != Mode::stream) [[unlikely]] return family_call<true>(w, nonce, aad, in, {nullptr, 0}, out, tag_len);
    if (const Dispatch *d = w.direct) [[likely]]
        return seal_direct(w, *d, nonce, aad, in, out, tag_len);
    EVP_CIPHER_CTX *c = w.ctx.get();
    int final_len = 0;
    if (!start(w, nonce, 1) || !feed(c, nullptr, aad) || !feed(c, out, in) ||
        fault_point() || EVP_CipherFinal_ex(c, out + in.size, &final_len) != 1 || final_len != 0)
        return failure_code();
    // get_params with the tag param is measurably cheaper than the EVP_CTRL_AEAD_GET_TAG ctrl in 3.0.
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, out + in.size, tag_len),
                      OSSL_PARAM_END};
    if (fault_point() || EVP_CIPHER_CTX_get_params(c, p) != 1) return failure_code();
    return 0;
}

int open(Worker &w, Bytes nonce, Bytes aad, Bytes ciphertext, Bytes tag, uint8_t *out) noexcept {
    if (w.mode != Mode::stream) [[unlikely]] return family_call<false>(w, nonce, aad, ciphertext, tag, out, tag.size);
    if (const Dispatch *d = w.direct) [[likely]]
        return open_direct(w, *d, nonce, aad, ciphertext, tag, out);
    EVP_CIPHER_CTX *c = w.ctx.get();
    // The tag must be set after the decrypting init and before the final call.
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
                                                        const_cast<uint8_t *>(tag.data), tag.size),
                      OSSL_PARAM_END};
    if (!start(w, nonce, 0) || fault_point() || EVP_CIPHER_CTX_set_params(c, p) != 1 || !feed(c, nullptr, aad) ||
        !feed(c, out, ciphertext))
        return failure_code();
    uint8_t none = 0;  // the final call writes nothing, but out may be NULL for an empty message
    int final_len = 0;
    if (fault_point()) return failure_code();
    // Every step before succeeded, so a failing final call is the tag comparison (GCM and
    // ChaCha20-Poly1305 push no error for it). The queue is not consulted: it may hold the caller's
    // own earlier errors, which must not turn a forgery into AEAD_ERR_CRYPTO.
    if (EVP_CipherFinal_ex(c, out != nullptr ? out + ciphertext.size : &none, &final_len) != 1) return AEAD_ERR_AUTH;
    return 0;
}

// From the library context's public DRBG: under a FIPS configuration the FIPS provider's (SP 800-90A),
// which IG C.H scenario 2 asks of a random 96-bit GCM IV. Drawn here rather than by the provider's own IV
// generation, which OpenSSL 3 performs only on a context that never had an IV (a fresh context, and so
// an allocation, per seal). Buffered per worker (contexts.h).
int random_nonce(Worker &w, uint8_t *out, size_t n, uint64_t generation) noexcept {
    if (n > Worker::kNoncePool) return AEAD_ERR_CRYPTO;
    if (w.pool_generation != generation) [[unlikely]] {  // a forked copy of the pool: the parent has it too
        OPENSSL_cleanse(w.nonce_pool, Worker::kNoncePool);
        w.pool_used = Worker::kNoncePool;
        w.pool_generation = generation;
    }
    // OpenSSL 3's DRBGs reseed when they see a new process id, so the refill below differs from the parent's.
    if (Worker::kNoncePool - w.pool_used < n) {
        if (fault_point() || RAND_bytes_ex(nullptr, w.nonce_pool, Worker::kNoncePool, 0) != 1) return failure_code();
        w.pool_used = 0;
    }
    std::memcpy(out, w.nonce_pool + w.pool_used, n);
    OPENSSL_cleanse(w.nonce_pool + w.pool_used, n);  // a used nonce leaves no copy behind
    w.pool_used += n;
    return 0;
}

}  // namespace aead::shim
