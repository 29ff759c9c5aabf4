// Streaming AEAD (aead.h "Streaming AEAD"): writers and readers of segmented streams whose segment number
// and final flag the library keeps. The formats are rows of stream_format.h; each segment is one seal or
// open on an AEAD context of AEAD_POLICY_NONE whose nonce only this file builds.
#include <atomic>
#include <cstring>
#include <new>

#include "aead.h"
#include "context.h"
#include "fork_guard.h"
#include "ranges.h"
#include "seal_open.h"
#include "secret.h"
#include "stream_format.h"

namespace {

using aead::StreamFormat;
using aead::shim::Bytes;
using aead::shim::Digest;
constexpr size_t kMaxProperties = 255, kTinkPrefix = 7, kSaltRfc8188 = 16, kAgeNonce = 16, kAgeKey = 16;
constexpr size_t kMaxKey = 255, kRfc8188MinRs = 18, kRfc8188DefaultRs = 4096, kAgeSegment = AEAD_STREAM_AGE_CHUNK + 16;
constexpr size_t kTinkMinKey = 16;

}  // namespace

struct aead_stream {
    const StreamFormat &f;
    const bool writer;
    aead_ctx *ctx = nullptr;
    uint8_t base[aead::kStreamNonce] = {};  // the nonce's prefix (Tink) or XOR mask (RFC 8188)
    size_t segment = 0;                     // ciphertext bytes of a full segment
    size_t first = 0;                       // ... of segment 0 (Tink: less the header and the offset)
    uint64_t born = 0;                      // the writer's fork generation
    // (next segment << 1) | finished: one word, so a seal takes a number and the final flag atomically.
    std::atomic<uint64_t> state{0};

    aead_stream(const StreamFormat &format, bool w) noexcept : f(format), writer(w) {}
    aead_stream(const aead_stream &) = delete;
    aead_stream &operator=(const aead_stream &) = delete;
    ~aead_stream() {
        aead_ctx_free(ctx);
        aead::shim::cleanse(base, sizeof base);
    }
    size_t full(uint64_t n) const noexcept { return n == 0 ? first : segment; }
};

namespace {

struct Params {  // the caller's aead_stream_params, read once
    aead_stream_params p{};
    char properties[kMaxProperties + 1] = {};
    const char *query() const noexcept { return properties[0] != 0 ? properties : nullptr; }
};

int read_params(const aead_stream_params *in, Params &out) noexcept {
    if (in == nullptr) return AEAD_ERR_ARG;
    const size_t size = in->size;
    if (size < sizeof(size_t) + sizeof(int)) return AEAD_ERR_ARG;
    std::memcpy(&out.p, in, size < sizeof out.p ? size : sizeof out.p);
    out.p.size = size;
    const aead_stream_params &p = out.p;
    if (aead::bad_range(p.key, p.key_len) || aead::bad_range(p.associated_data, p.associated_data_len) ||
        aead::bad_range(p.keyid, p.keyid_len))
        return AEAD_ERR_ARG;
    if (p.properties != nullptr) {
        const size_t len = strnlen(p.properties, kMaxProperties + 1);
        if (len > kMaxProperties) return AEAD_ERR_ARG;
        std::memcpy(out.properties, p.properties, len);
    }
    return 0;
}

// The format's checks on the fields; the algorithm and the full-segment sizes come out.
int check_params(const StreamFormat &f, const aead_stream_params &p, bool writer, int &alg) noexcept {
    const bool tink = f.id == AEAD_STREAM_TINK_AES_GCM_HKDF;
    if (!tink && (p.key_size != 0 || p.hkdf_hash != 0 || p.first_segment_offset != 0 || p.associated_data_len != 0))
        return AEAD_ERR_ARG;
    if (f.id != AEAD_STREAM_RFC8188 && p.keyid_len != 0) return AEAD_ERR_ARG;
    if (p.segment_size > AEAD_STREAM_MAX_SEGMENT) return AEAD_ERR_ARG;
    switch (f.id) {
        case AEAD_STREAM_TINK_AES_GCM_HKDF:
            if ((p.key_size != 16 && p.key_size != 32) || p.hkdf_hash < AEAD_STREAM_SHA1 || p.hkdf_hash > AEAD_STREAM_SHA512 ||
                p.associated_data_len > aead::shim::kHkdfMaxInfo)
                return AEAD_ERR_ARG;
            if (p.key_len < kTinkMinKey || p.key_len < p.key_size || p.key_len > kMaxKey) return AEAD_ERR_KEY_SIZE;
            // Tink: the first segment holds at least one byte besides the header, the offset and the tag.
            if (uint64_t{p.segment_size} <= uint64_t{p.first_segment_offset} + 1 + p.key_size + kTinkPrefix + aead::kStreamTag)
                return AEAD_ERR_ARG;
            alg = p.key_size == 16 ? AEAD_AES_128_GCM : AEAD_AES_256_GCM;
            return 0;
        case AEAD_STREAM_AGE:
            if (p.segment_size != 0) return AEAD_ERR_ARG;
            if (p.key_len != kAgeKey) return AEAD_ERR_KEY_SIZE;
            alg = AEAD_CHACHA20_POLY1305;
            return 0;
        default:  // RFC 8188
            if (p.keyid_len > 255 || (!writer && p.keyid_len != 0)) return AEAD_ERR_ARG;
            if (writer && p.segment_size != 0 && p.segment_size < kRfc8188MinRs) return AEAD_ERR_ARG;
            if (p.key_len == 0 || p.key_len > kMaxKey) return AEAD_ERR_KEY_SIZE;
            alg = AEAD_AES_128_GCM;
            return 0;
    }
}

size_t header_size(const StreamFormat &f, const aead_stream_params &p) noexcept {
    switch (f.id) {
        case AEAD_STREAM_TINK_AES_GCM_HKDF: return 1 + p.key_size + kTinkPrefix;
        case AEAD_STREAM_AGE: return kAgeNonce;
        default: return kSaltRfc8188 + 5 + p.keyid_len;
    }
}

Digest tink_digest(int h) noexcept {
    return h == AEAD_STREAM_SHA1 ? Digest::sha1 : h == AEAD_STREAM_SHA256 ? Digest::sha256 : Digest::sha512;
}
size_t digest_size(Digest d) noexcept { return d == Digest::sha1 ? 20 : d == Digest::sha256 ? 32 : 64; }

// Derives the segment key and nonce base from the key and the header, and makes the AEAD context.
int key_stream(aead_stream &s, const Params &in, int alg, const uint8_t *header) noexcept {
    const aead_stream_params &p = in.p;
    const char *q = in.query();
    aead::Secret<64> prk;
    aead::Secret<32> key;
    size_t key_len = 32;
    int rc = 0;
    switch (s.f.id) {
        case AEAD_STREAM_TINK_AES_GCM_HKDF: {
            const Digest d = tink_digest(p.hkdf_hash);
            key_len = p.key_size;
            rc = aead::shim::hkdf_extract(d, q, Bytes{header + 1, p.key_size}, Bytes{p.key, p.key_len}, prk.b, digest_size(d));
            if (rc == 0)
                rc = aead::shim::hkdf_expand(d, q, Bytes{prk.b, digest_size(d)}, Bytes{p.associated_data, p.associated_data_len},
                                             key.b, key_len);
            std::memcpy(s.base, header + 1 + p.key_size, kTinkPrefix);
            break;
        }
        case AEAD_STREAM_AGE: {
            static constexpr uint8_t kInfo[] = {'p', 'a', 'y', 'l', 'o', 'a', 'd'};
            rc = aead::shim::hkdf_extract(Digest::sha256, q, Bytes{header, kAgeNonce}, Bytes{p.key, p.key_len}, prk.b, 32);
            if (rc == 0) rc = aead::shim::hkdf_expand(Digest::sha256, q, Bytes{prk.b, 32}, Bytes{kInfo, sizeof kInfo}, key.b, 32);
            break;
        }
        default: {
            static constexpr char kKeyInfo[] = "Content-Encoding: aes128gcm", kNonceInfo[] = "Content-Encoding: nonce";
            key_len = 16;
            rc = aead::shim::hkdf_extract(Digest::sha256, q, Bytes{header, kSaltRfc8188}, Bytes{p.key, p.key_len}, prk.b, 32);
            // sizeof includes the terminating zero, which RFC 8188 section 2.2 puts in the info.
            if (rc == 0)
                rc = aead::shim::hkdf_expand(Digest::sha256, q, Bytes{prk.b, 32},
                                             Bytes{reinterpret_cast<const uint8_t *>(kKeyInfo), sizeof kKeyInfo}, key.b, 16);
            if (rc == 0)
                rc = aead::shim::hkdf_expand(Digest::sha256, q, Bytes{prk.b, 32},
                                             Bytes{reinterpret_cast<const uint8_t *>(kNonceInfo), sizeof kNonceInfo}, s.base,
                                             aead::kStreamNonce);
            break;
        }
    }
    if (rc != 0) return rc;
    return aead::ctx_create(&s.ctx, alg, AEAD_POLICY_NONE, key.b, key_len, 0, q, nullptr, 0);
}

// The full-segment sizes of a stream: Tink's first segment is shorter by the header and the offset.
void set_sizes(aead_stream &s, const aead_stream_params &p, size_t header_len, uint32_t rs) noexcept {
    switch (s.f.id) {
        case AEAD_STREAM_TINK_AES_GCM_HKDF:
            s.segment = p.segment_size;
            s.first = p.segment_size - header_len - p.first_segment_offset;
            break;
        case AEAD_STREAM_AGE: s.segment = s.first = kAgeSegment; break;
        default: s.segment = s.first = rs; break;
    }
}


// What a constructor has once prepare accepts: the parameters, read once, their format, its AEAD.
struct Prepared {
    Params in;
    const StreamFormat *f = nullptr;
    int alg = 0;
};

// What both constructors check first, in this order: their out-pointers (*s_out cleared), the parameters,
// read once, their format and its rules, then the caller's header buffer (buf, buf_len).
int prepare(aead_stream **s_out, const size_t *header_len, const aead_stream_params *params, bool writer,
            const uint8_t *buf, size_t buf_len, Prepared &pr) noexcept {
    if (s_out == nullptr || header_len == nullptr) return AEAD_ERR_ARG;
    *s_out = nullptr;
    if (const int rc = read_params(params, pr.in)) return rc;
    pr.f = aead::find_stream_format(pr.in.p.format);
    if (pr.f == nullptr) return AEAD_ERR_ARG;
    if (const int rc = check_params(*pr.f, pr.in.p, writer, pr.alg)) return rc;
    return aead::bad_range(buf, buf_len) ? AEAD_ERR_ARG : 0;
}

// A stream from its header (h, hl bytes): the keys derived, the sizes set, the fork generation noted.
int make_stream(aead_stream **s_out, const Prepared &pr, bool writer, const uint8_t *h, size_t hl,
                uint32_t rs) noexcept {
    auto *s = new (std::nothrow) aead_stream(*pr.f, writer);
    if (s == nullptr) return AEAD_ERR_NOMEM;
    if (const int rc = key_stream(*s, pr.in, pr.alg, h)) {
        delete s;
        return rc;
    }
    set_sizes(*s, pr.in.p, hl, rs);
    s->born = aead::fork_generation();
    *s_out = s;
    return 0;
}

// Whether in_len bytes of plaintext (and pad) may be segment n of a writer: the format's size rules.
bool seal_size_ok(const aead_stream &s, uint64_t n, size_t in_len, size_t pad, bool final) noexcept {
    const size_t room = s.full(n) - s.f.overhead;
    if (!s.f.padded && pad != 0) return false;
    if (!final) return s.f.padded ? pad == 0 && in_len <= room : in_len == room;
    if (s.f.empty_last_alone && n != 0 && in_len == 0) return false;
    return in_len <= room && pad <= room - in_len;
}

// Whether in_len bytes of ciphertext may be segment n of a reader.
bool open_size_ok(const aead_stream &s, uint64_t n, size_t in_len, bool final) noexcept {
    if (!final) return in_len == s.full(n);
    if (in_len < s.f.overhead || in_len > s.full(n)) return false;
    return !(s.f.empty_last_alone && n != 0 && in_len == s.f.overhead);
}

// Opens segment n (no state): the format's size rules, the nonce with the final flag, RFC 8188's delimiter.
int64_t open_at(const aead_stream &s, uint64_t n, const uint8_t *in, size_t in_len, bool final, uint8_t *out,
                size_t out_cap) noexcept {
    if (s.writer || aead::bad_range(in, in_len) || aead::bad_range(out, out_cap)) return AEAD_ERR_ARG;
    if (n >= s.f.max_segments) return AEAD_ERR_NONCE_EXHAUSTED;
    if (!open_size_ok(s, n, in_len, final)) return AEAD_ERR_AUTH;
    if (out_cap < in_len - aead::kStreamTag) return AEAD_ERR_BUFFER_TOO_SMALL;
    uint8_t nonce[aead::kStreamNonce];
    aead::segment_nonce(s.f, s.base, n, final && !s.f.padded, nonce);
    const int64_t r =
        aead::seal_open_call<AEAD_OPEN>(*s.ctx, nullptr, nonce, sizeof nonce, nullptr, 0, in, in_len, out, out_cap);
    if (r < 0 || !s.f.padded) return r;
    // RFC 8188 section 2: data || delimiter || zeros; the delimiter is 2 on the last record, 1 on the others.
    size_t end = static_cast<size_t>(r);
    while (end > 0 && out[end - 1] == 0) --end;
    if (end == 0 || out[end - 1] != (final ? 2 : 1)) {
        if (r > 0) std::memset(out, 0, static_cast<size_t>(r));
        return AEAD_ERR_AUTH;
    }
    out[end - 1] = 0;
    return static_cast<int64_t>(end - 1);
}

// Seals segment n: in_len bytes into out_len bytes of ciphertext (sizes checked by the caller).
int64_t seal_at(const aead_stream &s, uint64_t n, bool final, const uint8_t *in, size_t in_len, uint8_t *out,
                size_t out_len) noexcept {
    uint8_t nonce[aead::kStreamNonce];
    aead::segment_nonce(s.f, s.base, n, final && !s.f.padded, nonce);
    if (!s.f.padded)
        return aead::seal_open_call<AEAD_SEAL>(*s.ctx, nullptr, nonce, sizeof nonce, nullptr, 0, in, in_len, out, out_len);
    // RFC 8188: the record's plaintext is built in out (data, delimiter, zeros) and sealed in place.
    const size_t data_end = out_len - s.f.overhead;
    if (out != in && in_len != 0) std::memcpy(out, in, in_len);
    out[in_len] = final ? 2 : 1;
    std::memset(out + in_len + 1, 0, data_end - in_len);
    const int64_t r =
        aead::seal_open_call<AEAD_SEAL>(*s.ctx, nullptr, nonce, sizeof nonce, nullptr, 0, out, data_end + 1, out, out_len);
    if (r < 0) std::memset(out, 0, out_len);
    return r;
}

// How a batch splits into segments from number n: whole segments and, when final, the rest as the last
// one (at most whole). A plaintext batch (seal): whole segments hold full(n + i) - overhead bytes, and
// `other` is the ciphertext's length. A ciphertext batch (open): whole segments are full(n + i) bytes,
// and `other` the output the opens need (each segment less its tag, as aead_stream_open asks).
struct Split {
    uint64_t count = 0;  // segments
    size_t last = 0;     // bytes of the final one
    uint64_t other = 0;
};

// Arithmetic, not a walk: a hostile length (a huge read-only mapping) costs no time before it is refused.
bool split(const aead_stream &s, uint64_t n, size_t len, bool final, bool plaintext, Split &out) noexcept {
    out = Split{};
    const size_t overhead = s.f.overhead, tag = aead::kStreamTag;
    const auto whole = [&](uint64_t i) { return plaintext ? s.full(i) - overhead : s.full(i); };
    const auto other_of_whole = [&](uint64_t i) { return uint64_t{plaintext ? s.full(i) : s.full(i) - tag}; };
    const auto other_of_last = [&](size_t l) { return uint64_t{plaintext ? l + overhead : l > tag ? l - tag : 0}; };
    if (!final && len == 0) return true;
    // Segment n (Tink's segment 0 is the short one), then segments of one size.
    if (final && len <= whole(n)) {
        out = Split{1, len, other_of_last(len)};
        return true;
    }
    if (len < whole(n)) return false;
    const size_t rest = len - whole(n), w = whole(n + 1);
    const uint64_t q = final ? (rest - 1) / w : rest / w;  // final: rest > 0, the last one holds 1 to w bytes
    if (!final && rest % w != 0) return false;  // not a whole number of segments
    out.count = 1 + q + (final ? 1 : 0);
    // RFC 8188 rs 18 holds 1 byte a record: 18 bytes out per byte in, so a hostile length can wrap the
    // product. A wrapped size saturates, and no buffer is that large (AEAD_ERR_BUFFER_TOO_SMALL).
    uint64_t body = 0;
    if (__builtin_mul_overflow(q, other_of_whole(n + 1), &body) ||
        __builtin_add_overflow(body, other_of_whole(n), &out.other))
        out.other = UINT64_MAX;
    if (final) {
        out.last = rest - static_cast<size_t>(q) * w;
        if (__builtin_add_overflow(out.other, other_of_last(out.last), &out.other)) out.other = UINT64_MAX;
    }
    return true;
}

// The checks every writer call makes before anything else.
int writer_call_ok(const aead_stream *s, const uint8_t *in, size_t in_len, const uint8_t *out, size_t out_cap) noexcept {
    if (s == nullptr || !s->writer || aead::bad_range(in, in_len) || aead::bad_range(out, out_cap)) return AEAD_ERR_ARG;
    return aead::fork_generation() != s->born ? AEAD_ERR_FORKED : 0;
}

// Takes the writer's next `count` segment numbers, and the final flag, in one step once check(next, count)
// accepts them: returns the first number, or the refusal (a refused seal takes no number). count 0 takes
// nothing.
template <class Check>
int64_t take_numbers(aead_stream &s, bool final, Check check) noexcept {
    uint64_t st = s.state.load(std::memory_order_acquire);
    for (;;) {
        if (st & 1) return AEAD_ERR_STREAM_FINISHED;
        const uint64_t n = st >> 1;
        uint64_t count = 0;
        if (n >= s.f.max_segments) return AEAD_ERR_NONCE_EXHAUSTED;
        if (const int rc = check(n, count)) return rc;
        if (count == 0) return static_cast<int64_t>(n);
        if (count > s.f.max_segments - n) return AEAD_ERR_NONCE_EXHAUSTED;
        if (s.state.compare_exchange_weak(st, (n + count) << 1 | (final ? 1 : 0), std::memory_order_acq_rel))
            return static_cast<int64_t>(n);
    }
}

}  // namespace

extern "C" {

int aead_stream_writer_new(aead_stream **s_out, const aead_stream_params *params, uint8_t *header, size_t header_cap,
                           size_t *header_len) noexcept {
    Prepared pr;
    if (const int rc = prepare(s_out, header_len, params, true, header, header_cap, pr)) return rc;
    const aead::StreamFormat *f = pr.f;
    const aead_stream_params &p = pr.in.p;
    const size_t hl = header_size(*f, p);
    *header_len = hl;
    if (header_cap < hl) return AEAD_ERR_BUFFER_TOO_SMALL;
    uint8_t h[AEAD_STREAM_MAX_HEADER] = {};
    const uint32_t rs = p.segment_size != 0 ? p.segment_size : static_cast<uint32_t>(kRfc8188DefaultRs);
    int rc = 0;
    switch (f->id) {
        case AEAD_STREAM_TINK_AES_GCM_HKDF:
            h[0] = static_cast<uint8_t>(hl);
            rc = aead::shim::random_bytes(h + 1, hl - 1);
            break;
        case AEAD_STREAM_AGE: rc = aead::shim::random_bytes(h, kAgeNonce); break;
        default:
            rc = aead::shim::random_bytes(h, kSaltRfc8188);
            for (size_t i = 0; i < 4; ++i) h[kSaltRfc8188 + i] = static_cast<uint8_t>(rs >> (24 - 8 * i));
            h[kSaltRfc8188 + 4] = static_cast<uint8_t>(p.keyid_len);
            if (p.keyid_len != 0) std::memcpy(h + kSaltRfc8188 + 5, p.keyid, p.keyid_len);
            break;
    }
    if (rc == 0) rc = make_stream(s_out, pr, true, h, hl, rs);
    if (rc == 0) std::memcpy(header, h, hl);
    return rc;
}

int aead_stream_reader_new(aead_stream **s_out, const aead_stream_params *params, const uint8_t *in_bytes, size_t in_len,
                           size_t *header_len) noexcept {
    Prepared pr;
    if (const int rc = prepare(s_out, header_len, params, false, in_bytes, in_len, pr)) return rc;
    const aead::StreamFormat *f = pr.f;
    const aead_stream_params &p = pr.in.p;
    // The header, copied once: its length from its lead, then the whole of it.
    uint8_t h[AEAD_STREAM_MAX_HEADER] = {};
    if (in_len < f->header_lead) {
        *header_len = f->header_lead;
        return AEAD_ERR_BUFFER_TOO_SMALL;
    }
    std::memcpy(h, in_bytes, f->header_lead);
    size_t hl = f->header_lead;
    uint32_t rs = 0;
    if (f->id == AEAD_STREAM_TINK_AES_GCM_HKDF) {
        hl = header_size(*f, p);
        if (h[0] != hl) return AEAD_ERR_AUTH;
    } else if (f->id == AEAD_STREAM_RFC8188) {
        for (size_t i = 0; i < 4; ++i) rs = rs << 8 | h[kSaltRfc8188 + i];
        hl = f->header_lead + h[kSaltRfc8188 + 4];
        if (rs < kRfc8188MinRs) return AEAD_ERR_AUTH;
        if (rs > (p.segment_size != 0 ? p.segment_size : AEAD_STREAM_MAX_SEGMENT)) return AEAD_ERR_TOO_LONG;
    }
    *header_len = hl;
    if (in_len < hl) return AEAD_ERR_BUFFER_TOO_SMALL;
    std::memcpy(h + f->header_lead, in_bytes + f->header_lead, hl - f->header_lead);
    return make_stream(s_out, pr, false, h, hl, rs);
}

void aead_stream_free(aead_stream *s) noexcept { delete s; }

int64_t aead_stream_seal(aead_stream *s, const uint8_t *in, size_t in_len, size_t pad, int final_flag, uint8_t *out,
                         size_t out_cap) noexcept {
    if (const int rc = writer_call_ok(s, in, in_len, out, out_cap)) return rc;
    const bool final = final_flag != 0;
    size_t out_len = 0;
    const int64_t n = take_numbers(*s, final, [&](uint64_t next, uint64_t &count) noexcept -> int {
        if (!seal_size_ok(*s, next, in_len, pad, final)) return AEAD_ERR_ARG;
        out_len = s->f.padded && !final ? s->full(next) : in_len + pad + s->f.overhead;
        if (out_cap < out_len) return AEAD_ERR_BUFFER_TOO_SMALL;
        const auto o = reinterpret_cast<uintptr_t>(out);
        if (out != in && out_len != 0 && aead::meets(o, o + out_len, in, in_len)) return AEAD_ERR_OVERLAP;
        count = 1;
        return 0;
    });
    if (n < 0) return n;
    return seal_at(*s, static_cast<uint64_t>(n), final, in, in_len, out, out_len);
}

int64_t aead_stream_seal_many(aead_stream *s, const uint8_t *in, size_t in_len, int final_flag, uint8_t *out,
                              size_t out_cap) noexcept {
    if (const int rc = writer_call_ok(s, in, in_len, out, out_cap)) return rc;
    const bool final = final_flag != 0;
    const aead::StreamFormat &f = s->f;
    Split sp;
    const int64_t first = take_numbers(*s, final, [&](uint64_t next, uint64_t &count) noexcept -> int {
        if (!split(*s, next, in_len, final, true, sp)) return AEAD_ERR_ARG;
        if (final && !seal_size_ok(*s, next + sp.count - 1, sp.last, 0, true)) return AEAD_ERR_ARG;
        if (out_cap < sp.other) return AEAD_ERR_BUFFER_TOO_SMALL;
        const auto o = reinterpret_cast<uintptr_t>(out);
        if (sp.other != 0 && aead::meets(o, o + static_cast<uintptr_t>(sp.other), in, in_len)) return AEAD_ERR_OVERLAP;
        count = sp.count;
        return 0;
    });
    if (first < 0 || sp.count == 0) return first < 0 ? first : 0;
    const auto n = static_cast<uint64_t>(first);
    size_t in_off = 0, out_off = 0;
    for (uint64_t i = 0; i < sp.count; ++i) {
        const bool last = final && i + 1 == sp.count;
        const size_t len = last ? sp.last : s->full(n + i) - f.overhead;
        const size_t ct = last ? len + f.overhead : s->full(n + i);
        const int64_t r = seal_at(*s, n + i, last, in + in_off, len, out + out_off, ct);
        if (r < 0) {
            std::memset(out, 0, out_off);
            return r;
        }
        in_off += len;
        out_off += ct;
    }
    return static_cast<int64_t>(out_off);
}

int64_t aead_stream_open(aead_stream *s, const uint8_t *in, size_t in_len, int final_flag, uint8_t *out,
                         size_t out_cap) noexcept {
    if (s == nullptr || s->writer) return AEAD_ERR_ARG;
    const bool final = final_flag != 0;
    uint64_t st = s->state.load(std::memory_order_acquire);
    if (st & 1) return AEAD_ERR_STREAM_FINISHED;
    const int64_t r = open_at(*s, st >> 1, in, in_len, final, out, out_cap);
    if (r < 0) return r;
    if (!s->state.compare_exchange_strong(st, (st + 2) | (final ? 1 : 0), std::memory_order_acq_rel)) {
        if (in_len > aead::kStreamTag) std::memset(out, 0, in_len - aead::kStreamTag);
        return AEAD_ERR_NONCE_ORDER;
    }
    return r;
}

int64_t aead_stream_open_many(aead_stream *s, const uint8_t *in, size_t in_len, int final_flag, uint8_t *out,
                              size_t out_cap) noexcept {
    if (s == nullptr || s->writer || aead::bad_range(in, in_len) || aead::bad_range(out, out_cap)) return AEAD_ERR_ARG;
    const bool final = final_flag != 0;
    uint64_t st = s->state.load(std::memory_order_acquire);
    if (st & 1) return AEAD_ERR_STREAM_FINISHED;
    const uint64_t n = st >> 1;
    Split sp;
    if (!split(*s, n, in_len, final, false, sp)) return AEAD_ERR_ARG;
    if (sp.count == 0) return 0;
    if (out_cap < sp.other) return AEAD_ERR_BUFFER_TOO_SMALL;
    const auto o = reinterpret_cast<uintptr_t>(out);
    if (sp.other != 0 && in_len != 0 && aead::meets(o, o + static_cast<uintptr_t>(sp.other), in, in_len)) return AEAD_ERR_OVERLAP;
    size_t in_off = 0, out_off = 0;
    for (uint64_t i = 0; i < sp.count; ++i) {
        const bool last = final && i + 1 == sp.count;
        const size_t len = last ? sp.last : s->full(n + i);
        const int64_t r = open_at(*s, n + i, in + in_off, len, last, out + out_off, out_cap - out_off);
        if (r < 0) {
            std::memset(out, 0, out_off);
            return r;
        }
        in_off += len;
        out_off += static_cast<size_t>(r);
    }
    if (!s->state.compare_exchange_strong(st, (n + sp.count) << 1 | (final ? 1 : 0), std::memory_order_acq_rel)) {
        std::memset(out, 0, out_off);
        return AEAD_ERR_NONCE_ORDER;
    }
    return static_cast<int64_t>(out_off);
}

int64_t aead_stream_open_segment(const aead_stream *s, uint64_t index, const uint8_t *in, size_t in_len, int final,
                                 uint8_t *out, size_t out_cap) noexcept {
    if (s == nullptr) return AEAD_ERR_ARG;
    return open_at(*s, index, in, in_len, final != 0, out, out_cap);
}

size_t aead_stream_segment_size(const aead_stream *s, uint64_t index) noexcept {
    return s == nullptr ? 0 : s->full(index);
}

size_t aead_stream_overhead(const aead_stream *s) noexcept { return s == nullptr ? 0 : s->f.overhead; }

int64_t aead_stream_position(const aead_stream *s) noexcept {
    if (s == nullptr) return AEAD_ERR_ARG;
    const uint64_t st = s->state.load(std::memory_order_acquire);
    return st & 1 ? int64_t{AEAD_ERR_STREAM_FINISHED} : static_cast<int64_t>(st >> 1);
}

}  // extern "C"
