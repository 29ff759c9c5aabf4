// Streaming AEAD (aead.h "Streaming AEAD"): RFC 8188's own examples, every format against an oracle built
// here from HMAC and EVP alone (HKDF written out, each segment sealed by evp_seal), both directions, on
// random lengths around the segment boundaries; the stream rules (truncation, reordering, extension,
// final flags, sizes), random access, and hostile callers (threads, fork, bad headers, overlaps).
#include "catch_compat.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

using test::Bytes;
using test::random_bytes;

namespace {

// ---- The oracle: HKDF (RFC 5869) from HMAC, and each segment from evp_seal. ----
Bytes hmac(const char *md, const Bytes &key, const Bytes &msg) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (HMAC(EVP_get_digestbyname(md), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), out, &n) == nullptr)
        throw std::runtime_error("oracle hmac");
    return Bytes(out, out + n);
}
Bytes hkdf(const char *md, const Bytes &salt, const Bytes &ikm, const Bytes &info, size_t len) {
    const Bytes prk = hmac(md, salt, ikm);
    Bytes okm, t;
    for (uint8_t i = 1; okm.size() < len; ++i) {
        Bytes m = t;
        m.insert(m.end(), info.begin(), info.end());
        m.push_back(i);
        t = hmac(md, prk, m);
        okm.insert(okm.end(), t.begin(), t.end());
    }
    okm.resize(len);
    return okm;
}
Bytes text(const char *s) { return Bytes(s, s + strlen(s)); }
Bytes b64url(const std::string &s) {
    std::string b = s;
    for (char &c : b) c = c == '-' ? '+' : c == '_' ? '/' : c;
    const size_t pad = (4 - b.size() % 4) % 4;
    b.append(pad, '=');
    Bytes out(b.size());
    const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char *>(b.data()), static_cast<int>(b.size()));
    out.resize(static_cast<size_t>(n) - pad);
    return out;
}
uint64_t random_u64() {
    const Bytes b = random_bytes(8);
    uint64_t v = 0;
    for (uint8_t x : b) v = v << 8 | x;
    return v;
}

struct Format {
    int id;
    const char *name;
    size_t key_size;  // Tink
    int hash;         // Tink
    uint32_t segment;
    uint32_t offset;
};

aead_stream_params params_of(const Format &f, const Bytes &key, const Bytes &ad = {}) {
    aead_stream_params p{};
    p.size = sizeof p;
    p.format = f.id;
    p.key = key.data();
    p.key_len = key.size();
    p.key_size = f.key_size;
    p.hkdf_hash = f.hash;
    p.segment_size = f.segment;
    p.first_segment_offset = f.offset;
    p.associated_data = ad.empty() ? nullptr : ad.data();
    p.associated_data_len = ad.size();
    return p;
}

// The oracle's view of a stream: key, nonce base, full segment sizes and the nonce of segment n.
struct Oracle {
    const Format &f;
    Bytes key, base;
    int alg = 0;
    size_t first = 0, segment = 0, overhead = 16;

    Oracle(const Format &fmt, const Bytes &ikm, const Bytes &header, const Bytes &ad) : f(fmt) {
        if (f.id == AEAD_STREAM_TINK_AES_GCM_HKDF) {
            const char *md = f.hash == AEAD_STREAM_SHA1 ? "SHA1" : f.hash == AEAD_STREAM_SHA256 ? "SHA256" : "SHA512";
            const Bytes salt(header.begin() + 1, header.begin() + 1 + static_cast<long>(f.key_size));
            key = hkdf(md, salt, ikm, ad, f.key_size);
            base.assign(header.begin() + 1 + static_cast<long>(f.key_size), header.end());
            alg = f.key_size == 16 ? AEAD_AES_128_GCM : AEAD_AES_256_GCM;
            segment = f.segment;
            first = f.segment - header.size() - f.offset;
        } else if (f.id == AEAD_STREAM_AGE) {
            key = hkdf("SHA256", header, ikm, text("payload"), 32);
            alg = AEAD_CHACHA20_POLY1305;
            first = segment = 65536 + 16;
        } else {
            const Bytes salt(header.begin(), header.begin() + 16);
            Bytes ki = text("Content-Encoding: aes128gcm"), ni = text("Content-Encoding: nonce");
            ki.push_back(0);
            ni.push_back(0);
            key = hkdf("SHA256", salt, ikm, ki, 16);
            base = hkdf("SHA256", salt, ikm, ni, 12);
            alg = AEAD_AES_128_GCM;
            first = segment = uint32_t{header[16]} << 24 | uint32_t{header[17]} << 16 | uint32_t{header[18]} << 8 | header[19];
            overhead = 17;
        }
    }
    Bytes nonce(uint64_t n, bool last) const {
        Bytes out(12, 0);
        if (f.id == AEAD_STREAM_RFC8188) {
            out = base;
            for (int i = 0; i < 8; ++i) out[4 + static_cast<size_t>(i)] ^= static_cast<uint8_t>(n >> (56 - 8 * i));
            return out;
        }
        std::copy(base.begin(), base.end(), out.begin());
        const int width = f.id == AEAD_STREAM_TINK_AES_GCM_HKDF ? 4 : 8;  // age: 11 bytes, the top 3 zero here
        for (int i = 0; i < width; ++i) out[10 - static_cast<size_t>(i)] = static_cast<uint8_t>(n >> (8 * i));
        out[11] = last ? 1 : 0;
        return out;
    }
    size_t room(uint64_t n) const { return (n == 0 ? first : segment) - overhead; }
    // The whole stream's segments for a plaintext, cut as the format's writers cut it.
    std::vector<Bytes> seal_all(const Bytes &pt) const {
        std::vector<Bytes> out;
        size_t off = 0;
        for (uint64_t n = 0;; ++n) {
            const size_t r = room(n);
            const bool last = pt.size() - off <= r;
            const size_t take = std::min(r, pt.size() - off);
            Bytes seg(pt.begin() + static_cast<long>(off), pt.begin() + static_cast<long>(off + take));
            off += take;
            if (f.id == AEAD_STREAM_RFC8188) {
                seg.push_back(last ? 2 : 1);
                if (!last) seg.resize(segment - 16, 0);
            }
            out.push_back(test::evp_seal(alg, key, nonce(n, last), {}, seg));
            if (last) return out;
        }
    }
};

const Format kFormats[] = {
    {AEAD_STREAM_TINK_AES_GCM_HKDF, "Tink AES128_GCM_HKDF_4KB", 16, AEAD_STREAM_SHA256, 4096, 0},
    {AEAD_STREAM_TINK_AES_GCM_HKDF, "Tink AES256_GCM_HKDF_1MB SHA512", 32, AEAD_STREAM_SHA512, 1 << 20, 0},
    {AEAD_STREAM_TINK_AES_GCM_HKDF, "Tink AES128 SHA1, small segments, offset", 16, AEAD_STREAM_SHA1, 64, 7},
    {AEAD_STREAM_AGE, "age", 0, 0, 0, 0},
    {AEAD_STREAM_RFC8188, "RFC 8188 rs 4096", 0, 0, 4096, 0},
    {AEAD_STREAM_RFC8188, "RFC 8188 rs 18", 0, 0, 18, 0},
};

Bytes key_for(const Format &f) { return random_bytes(f.id == AEAD_STREAM_TINK_AES_GCM_HKDF ? 32 : 16); }

struct Stream {
    aead_stream *s = nullptr;
    Bytes header;
    ~Stream() { aead_stream_free(s); }
};

Stream writer(const aead_stream_params &p) {
    Stream w;
    w.header.resize(AEAD_STREAM_MAX_HEADER);
    size_t hl = 0;
    REQUIRE(aead_stream_writer_new(&w.s, &p, w.header.data(), w.header.size(), &hl) == 0);
    w.header.resize(hl);
    return w;
}

// Writes pt as a writer does: full segments, then the rest as the final one (a full last segment stays
// the final one, as Tink's and age's writers do).
std::vector<Bytes> write_all(aead_stream *s, const Bytes &pt) {
    std::vector<Bytes> out;
    const size_t over = aead_stream_overhead(s);
    size_t off = 0;
    for (uint64_t n = 0;; ++n) {
        const size_t room = aead_stream_segment_size(s, n) - over;
        const bool last = pt.size() - off <= room;
        const size_t take = std::min(room, pt.size() - off);
        Bytes seg(take + over + 1);
        const int64_t r = aead_stream_seal(s, pt.data() + off, take, 0, last, seg.data(), seg.size());
        REQUIRE(r >= 0);
        seg.resize(static_cast<size_t>(r));
        out.push_back(seg);
        off += take;
        if (last) return out;
    }
}

Bytes read_all(aead_stream *s, const std::vector<Bytes> &segs, int64_t *rc = nullptr) {
    Bytes pt;
    for (size_t i = 0; i < segs.size(); ++i) {
        Bytes out(segs[i].size());
        const int64_t r = aead_stream_open(s, segs[i].data(), segs[i].size(), i + 1 == segs.size(), out.data(), out.size());
        if (r < 0) {
            if (rc) *rc = r;
            return pt;
        }
        pt.insert(pt.end(), out.begin(), out.begin() + r);
    }
    if (rc) *rc = 0;
    return pt;
}

Stream reader(const aead_stream_params &p, const Bytes &header) {
    Stream r;
    size_t hl = 0;
    REQUIRE(aead_stream_reader_new(&r.s, &p, header.data(), header.size(), &hl) == 0);
    REQUIRE(hl == header.size());
    return r;
}

// A random key, associated data (Tink) and plaintext of len bytes, and the parameters for them.
struct Case {
    Bytes key, ad, pt;
    aead_stream_params p;
    Case(const Format &f, size_t len)
        : key(key_for(f)), ad(f.id == AEAD_STREAM_TINK_AES_GCM_HKDF ? random_bytes(len % 40) : Bytes{}),
          pt(random_bytes(len)), p(params_of(f, key, ad)) {}
    Case(const Case &) = delete;
    Case &operator=(const Case &) = delete;
};

std::vector<size_t> sizes_for(const Format &f) {
    const size_t first = f.id == AEAD_STREAM_TINK_AES_GCM_HKDF ? f.segment - (1 + f.key_size + 7) - f.offset - 16
                         : f.id == AEAD_STREAM_AGE                ? 65536
                                                                  : f.segment - 17;
    const size_t later = f.id == AEAD_STREAM_TINK_AES_GCM_HKDF ? f.segment - 16 : first;
    std::vector<size_t> s = {0, 1, first - 1, first, first + 1, first + later - 1, first + later, first + later + 1,
                             first + 3 * later + 5};
    for (int i = 0; i < 4; ++i) s.push_back(random_u64() % (first + 4 * later));
    if (f.segment >= 4096 || f.id == AEAD_STREAM_AGE) s.push_back((size_t{3} << 20) + 17);  // several MiB
    return s;
}

}  // namespace

TEST_CASE("stream: RFC 8188 section 3's examples open exactly (one record; two records, padded, keyid a1)") {
    struct Ex {
        const char *ikm, *body;
        uint32_t rs;
        const char *keyid;
    } const ex[] = {
        {"yqdlZ-tYemfogSmv7Ws5PQ", "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg", 4096, ""},
        {"BO3ZVPxUlnLORbVGMpbT1Q",
         "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA", 25, "a1"},
    };
    for (const Ex &e : ex) {
        const Bytes ikm = b64url(e.ikm), body = b64url(e.body);
        aead_stream_params p{};
        p.size = sizeof p;
        p.format = AEAD_STREAM_RFC8188;
        p.key = ikm.data();
        p.key_len = ikm.size();
        aead_stream *s = nullptr;
        size_t hl = 0;
        REQUIRE(aead_stream_reader_new(&s, &p, body.data(), 3, &hl) == AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(hl == 21);
        if (e.keyid[0] != 0) {
            REQUIRE(aead_stream_reader_new(&s, &p, body.data(), 21, &hl) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(hl == 21 + strlen(e.keyid));
        }
        REQUIRE(aead_stream_reader_new(&s, &p, body.data(), body.size(), &hl) == 0);
        CHECK(Bytes(body.begin() + 21, body.begin() + static_cast<long>(hl)) == text(e.keyid));
        CHECK(aead_stream_segment_size(s, 0) == e.rs);
        Bytes pt;
        for (size_t off = hl; off < body.size(); off += e.rs) {
            const size_t n = std::min<size_t>(e.rs, body.size() - off);
            Bytes out(n);
            const int64_t r = aead_stream_open(s, body.data() + off, n, off + n == body.size(), out.data(), out.size());
            REQUIRE(r >= 0);
            pt.insert(pt.end(), out.begin(), out.begin() + r);
        }
        CHECK(pt == text("I am the walrus"));
        CHECK(aead_stream_position(s) == AEAD_ERR_STREAM_FINISHED);
        aead_stream_free(s);
        // The same body under another key is refused, with nothing written.
        Bytes other = ikm;
        other[0] ^= 1;
        p.key = other.data();
        REQUIRE(aead_stream_reader_new(&s, &p, body.data(), body.size(), &hl) == 0);
        Bytes out(body.size() - hl, 0xAA);
        const size_t n = std::min<size_t>(e.rs, body.size() - hl);
        CHECK(aead_stream_open(s, body.data() + hl, n, n == body.size() - hl, out.data(), out.size()) == AEAD_ERR_AUTH);
        CHECK(std::all_of(out.begin(), out.begin() + static_cast<long>(n - 16), [](uint8_t b) { return b == 0; }));
        aead_stream_free(s);
    }
}

namespace {
Bytes concat(const std::vector<Bytes> &segs, size_t from, size_t to) {
    Bytes out;
    for (size_t i = from; i < to; ++i) out.insert(out.end(), segs[i].begin(), segs[i].end());
    return out;
}
bool all_zero(const Bytes &b, size_t n) { return std::all_of(b.begin(), b.begin() + static_cast<long>(n), [](uint8_t x) { return x == 0; }); }
// Batches (seal_many, open_many) cut at random segment boundaries: the writer's equal the oracle's stream, and
// the reader opens the oracle's.
void batches_agree(const Format &f, const Case &c) {
    const Bytes &pt = c.pt;
    const aead_stream_params &p = c.p;
    Stream w = writer(p);
    const Oracle o(f, c.key, w.header, c.ad);

    const std::vector<Bytes> segs = o.seal_all(pt);
    const Bytes want = concat(segs, 0, segs.size());
    // The writer: batches of 0 to 4 whole segments, the last batch final with the rest.
    Bytes got;
    size_t seg = 0, off = 0;
    while (true) {
        const size_t take = std::min<size_t>(random_u64() % 5, segs.size() - 1 - seg);
        const bool final = seg + take == segs.size() - 1 && random_u64() % 2 == 0;
        size_t bytes = 0;
        for (size_t i = 0; i < take; ++i) bytes += o.room(seg + i);
        if (final) bytes = pt.size() - off;
        Bytes out(bytes + (take + 1) * 17 + 1);
        const int64_t r = aead_stream_seal_many(w.s, pt.data() + off, bytes, final, out.data(), out.size());
        REQUIRE(r >= 0);
        got.insert(got.end(), out.begin(), out.begin() + r);
        off += bytes;
        seg += final ? take + 1 : take;
        if (final) break;
    }
    CHECK(got == want);
    CHECK(aead_stream_position(w.s) == AEAD_ERR_STREAM_FINISHED);
    // The reader: the oracle's stream in batches of 1 to 4 segments.
    Stream rd = reader(p, w.header);
    Bytes back;
    for (size_t i = 0; i < segs.size();) {
        const size_t take = std::min<size_t>(1 + random_u64() % 4, segs.size() - i);
        const bool final = i + take == segs.size();
        const Bytes in = concat(segs, i, i + take);
        Bytes out(in.size());
        const int64_t r = aead_stream_open_many(rd.s, in.data(), in.size(), final, out.data(), out.size());
        REQUIRE(r >= 0);
        back.insert(back.end(), out.begin(), out.begin() + r);
        i += take;
    }
    CHECK(back == pt);
    CHECK(aead_stream_position(rd.s) == AEAD_ERR_STREAM_FINISHED);
}
}  // namespace

TEST_CASE("stream: every format's writer agrees with the oracle byte for byte, and its reader opens the oracle's streams; in batches too") {
    for (const Format &f : kFormats) {
        for (size_t len : sizes_for(f)) {
            CAPTURE(f.name, len);
            const Case c(f, len);
            const Bytes &key = c.key, &ad = c.ad, &pt = c.pt;
            const aead_stream_params &p = c.p;
            Stream w = writer(p);
            const std::vector<Bytes> segs = write_all(w.s, pt);
            CHECK(aead_stream_position(w.s) == AEAD_ERR_STREAM_FINISHED);
            const Oracle o(f, key, w.header, ad);
            CHECK((o.seal_all(pt) == segs));
            // The reader opens the oracle's stream (the same one) back to pt.
            Stream r = reader(p, w.header);
            int64_t rc = -100;
            CHECK((read_all(r.s, o.seal_all(pt), &rc) == pt));
            CHECK(rc == 0);
            batches_agree(f, c);
        }
    }
}


TEST_CASE("stream: a refused batch changes nothing: sizes, buffers, overlaps, a forged or cut segment, huge lengths") {
    for (const Format &f : kFormats) {
        if (f.segment == 1 << 20) continue;
        CAPTURE(f.name);
        const Bytes key = key_for(f);
        const aead_stream_params p = params_of(f, key);
        Stream w = writer(p);
        const size_t over = aead_stream_overhead(w.s);
        const size_t room0 = aead_stream_segment_size(w.s, 0) - over, room = aead_stream_segment_size(w.s, 1) - over;
        const Bytes pt = random_bytes(room0 + 2 * room + 5);
        Bytes out((pt.size() + 1) * (over + 1) + 64);
        // Not whole segments without final; a short buffer; out overlapping in (even exactly: no in-place batch).
        if (room > 1) {  // (RFC 8188 rs 18 holds one byte a record: every length is whole records)
            CHECK(aead_stream_seal_many(w.s, pt.data(), room0 + 1, 0, out.data(), out.size()) == AEAD_ERR_ARG);
            CHECK(aead_stream_seal_many(w.s, pt.data(), room0 - 1, 0, out.data(), out.size()) == AEAD_ERR_ARG);
        }
        CHECK(aead_stream_seal_many(w.s, pt.data(), room0 + room, 0, out.data(), room0 + room + 2 * over - 1) ==
              AEAD_ERR_BUFFER_TOO_SMALL);
        Bytes shared(pt.size() + 4 * over + 64);
        std::copy(pt.begin(), pt.end(), shared.begin());
        CHECK(aead_stream_seal_many(w.s, shared.data(), room0 + room, 0, shared.data(), shared.size()) == AEAD_ERR_OVERLAP);
        CHECK(aead_stream_seal_many(w.s, shared.data() + 1, room0 + room, 0, shared.data(), shared.size() - 1) ==
              AEAD_ERR_OVERLAP);
        // A length no mapping has: refused by arithmetic (the buffer, or Tink's 2^32 segments), never walked or read.
        const auto *far = reinterpret_cast<const uint8_t *>(uintptr_t{4096});
        const size_t huge = sizeof(size_t) == 8 ? size_t{1} << 46 : size_t{1} << 30;
        const int64_t h = aead_stream_seal_many(w.s, far, huge, 1, out.data(), out.size());
        CHECK((h == AEAD_ERR_BUFFER_TOO_SMALL || (h == AEAD_ERR_NONCE_EXHAUSTED && f.id == AEAD_STREAM_TINK_AES_GCM_HKDF)));
        // RFC 8188 rs 18: 18 bytes of ciphertext per byte, so this length's ciphertext size wraps to 2 bytes.
        if (sizeof(size_t) == 8 && room == 1)
            CHECK(aead_stream_seal_many(w.s, far, static_cast<size_t>(UINT64_MAX / 18 + 1), 1, out.data(), out.size()) ==
                  AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(aead_stream_position(w.s) == 0);
        CHECK(aead_stream_seal_many(w.s, pt.data(), 0, 0, out.data(), out.size()) == 0);  // an empty batch: nothing
        CHECK(aead_stream_position(w.s) == 0);
        // Two whole segments, then the rest as the final one.
        const int64_t a = aead_stream_seal_many(w.s, pt.data(), room0 + room, 0, out.data(), out.size());
        REQUIRE(a == static_cast<int64_t>(room0 + room + 2 * over));
        CHECK(aead_stream_position(w.s) == 2);
        if (f.id == AEAD_STREAM_AGE)  // age: no empty last chunk after the first
            CHECK(aead_stream_seal_many(w.s, pt.data(), 0, 1, out.data() + a, out.size() - static_cast<size_t>(a)) == AEAD_ERR_ARG);
        const size_t rest = pt.size() - room0 - room;
        const int64_t b = aead_stream_seal_many(w.s, pt.data() + room0 + room, rest, 1, out.data() + a,
                                                out.size() - static_cast<size_t>(a));
        REQUIRE(b == static_cast<int64_t>(rest + (rest + room - 1) / room * over));  // whole segments, then the rest
        CHECK(aead_stream_seal_many(w.s, pt.data(), 1, 1, out.data(), out.size()) == AEAD_ERR_STREAM_FINISHED);
        CHECK(aead_stream_open_many(w.s, out.data(), 17, 1, out.data() + 64, 64) == AEAD_ERR_ARG);
        Bytes ct(out.begin(), out.begin() + a + b);
        const size_t seg0 = room0 + over, seg1 = room + over;

        Stream rd = reader(p, w.header);
        CHECK(aead_stream_seal_many(rd.s, pt.data(), 1, 1, out.data(), out.size()) == AEAD_ERR_ARG);  // a reader does not seal
        Bytes back(ct.size());
        CHECK(aead_stream_open_many(rd.s, ct.data(), seg0 + 1, 0, back.data(), back.size()) == AEAD_ERR_ARG);
        CHECK(aead_stream_open_many(rd.s, ct.data(), seg0 + seg1, 0, back.data(), room0 + room - 1) == AEAD_ERR_BUFFER_TOO_SMALL);
        CHECK(aead_stream_open_many(rd.s, ct.data(), seg0 + seg1, 0, ct.data(), ct.size()) == AEAD_ERR_OVERLAP);
        CHECK(aead_stream_open_many(rd.s, far, huge, 1, back.data(), back.size()) == AEAD_ERR_BUFFER_TOO_SMALL);
        // A flipped bit in the second segment: the first one's plaintext is not left behind.
        Bytes forged = ct;
        forged[seg0 + 3] ^= 0x20;
        std::fill(back.begin(), back.end(), 0xAA);
        CHECK(aead_stream_open_many(rd.s, forged.data(), seg0 + seg1, 0, back.data(), back.size()) == AEAD_ERR_AUTH);
        CHECK(all_zero(back, room0 + room));
        // Cut after two segments and presented as the end; the first two as one batch that is final.
        CHECK(aead_stream_open_many(rd.s, ct.data(), seg0 + seg1, 1, back.data(), back.size()) == AEAD_ERR_AUTH);
        CHECK(all_zero(back, room0));
        // Reordered: segments 1 and 2 swapped.
        Bytes swapped = ct;
        std::swap_ranges(swapped.begin() + static_cast<long>(seg0), swapped.begin() + static_cast<long>(seg0 + seg1),
                         swapped.begin() + static_cast<long>(seg0 + seg1));
        CHECK(aead_stream_open_many(rd.s, swapped.data(), seg0 + 2 * seg1, 0, back.data(), back.size()) == AEAD_ERR_AUTH);
        CHECK(aead_stream_position(rd.s) == 0);
        // The stream in two batches, then data after the end.
        const int64_t x = aead_stream_open_many(rd.s, ct.data(), seg0, 0, back.data(), back.size());
        REQUIRE(x == static_cast<int64_t>(room0));
        const int64_t y = aead_stream_open_many(rd.s, ct.data() + seg0, ct.size() - seg0, 1, back.data() + x,
                                                back.size() - static_cast<size_t>(x));
        REQUIRE(y == static_cast<int64_t>(pt.size() - room0));
        CHECK(std::equal(pt.begin(), pt.end(), back.begin()));
        CHECK(aead_stream_open_many(rd.s, ct.data(), seg0, 0, back.data(), back.size()) == AEAD_ERR_STREAM_FINISHED);
    }
}

TEST_CASE("stream: truncated, reordered, extended and re-flagged streams are refused") {
    for (const Format &f : kFormats) {
        if (f.segment == 1 << 20) continue;  // the small-segment rows show the same rules faster
        CAPTURE(f.name);
        const Bytes key = key_for(f);
        const aead_stream_params p = params_of(f, key);
        Stream w = writer(p);
        const size_t room = aead_stream_segment_size(w.s, 1) - aead_stream_overhead(w.s);
        const Bytes pt = random_bytes(3 * room + 5);
        const std::vector<Bytes> segs = write_all(w.s, pt);
        REQUIRE(segs.size() >= 4);
        int64_t rc = 0;
        {  // cut after a segment boundary: the last segment left was not sealed final
            Stream r = reader(p, w.header);
            std::vector<Bytes> cut(segs.begin(), segs.end() - 1);
            read_all(r.s, cut, &rc);
            CHECK(rc == AEAD_ERR_AUTH);
        }
        {  // two segments swapped
            Stream r = reader(p, w.header);
            std::vector<Bytes> swapped = segs;
            std::swap(swapped[1], swapped[2]);
            read_all(r.s, swapped, &rc);
            CHECK(rc == AEAD_ERR_AUTH);
        }
        {  // a segment dropped
            Stream r = reader(p, w.header);
            std::vector<Bytes> dropped = segs;
            dropped.erase(dropped.begin() + 1);
            read_all(r.s, dropped, &rc);
            CHECK(rc == AEAD_ERR_AUTH);
        }
        {  // data after the final segment
            Stream r = reader(p, w.header);
            CHECK((read_all(r.s, segs, &rc) == pt));
            Bytes out(segs[0].size());
            CHECK(aead_stream_open(r.s, segs[0].data(), segs[0].size(), 1, out.data(), out.size()) == AEAD_ERR_STREAM_FINISHED);
        }
        {  // the final segment presented as not final, a middle one as final; a stream ending at a boundary
            Stream r = reader(p, w.header);
            Bytes out(aead_stream_segment_size(r.s, 1));
            CHECK(aead_stream_open(r.s, segs[0].data(), segs[0].size(), 1, out.data(), out.size()) == AEAD_ERR_AUTH);
            CHECK(aead_stream_position(r.s) == 0);
            for (size_t i = 0; i + 1 < segs.size(); ++i)
                REQUIRE(aead_stream_open(r.s, segs[i].data(), segs[i].size(), 0, out.data(), out.size()) >= 0);
            const Bytes &last = segs.back();
            CHECK(aead_stream_open(r.s, last.data(), last.size(), 0, out.data(), out.size()) == AEAD_ERR_AUTH);
            CHECK(aead_stream_open(r.s, nullptr, 0, 1, out.data(), out.size()) == AEAD_ERR_AUTH);
            CHECK(aead_stream_open(r.s, last.data(), last.size(), 1, out.data(), out.size()) >= 0);
        }
        {  // a flipped bit anywhere is refused, the output zeroed
            Stream r = reader(p, w.header);
            Bytes bad = segs[0];
            bad[random_u64() % bad.size()] ^= static_cast<uint8_t>(1u << (random_u64() % 8));
            Bytes out(bad.size(), 0xAA);
            CHECK(aead_stream_open(r.s, bad.data(), bad.size(), 0, out.data(), out.size()) == AEAD_ERR_AUTH);
            CHECK(std::all_of(out.begin(), out.end() - 16, [](uint8_t b) { return b == 0; }));
        }
        {  // random access: any segment alone, the last one only as last
            Stream r = reader(p, w.header);
            for (size_t i = segs.size(); i-- > 0;) {
                Bytes out(segs[i].size());
                const bool last = i + 1 == segs.size();
                CHECK(aead_stream_open_segment(r.s, i, segs[i].data(), segs[i].size(), last, out.data(), out.size()) >= 0);
                CHECK(aead_stream_open_segment(r.s, i, segs[i].data(), segs[i].size(), !last, out.data(), out.size()) == AEAD_ERR_AUTH);
                if (i > 0)
                    CHECK(aead_stream_open_segment(r.s, i - 1, segs[i].data(), segs[i].size(), last, out.data(), out.size()) == AEAD_ERR_AUTH);
            }
            CHECK(aead_stream_position(r.s) == 0);
        }
    }
}

TEST_CASE("stream: the writer refuses a wrong size, a write after the final segment and a full buffer, taking no number") {
    for (const Format &f : kFormats) {
        if (f.segment == 1 << 20) continue;
        CAPTURE(f.name);
        const Bytes key = key_for(f);
        Stream w = writer(params_of(f, key));
        const size_t room = aead_stream_segment_size(w.s, 0) - aead_stream_overhead(w.s);
        const Bytes pt = random_bytes(room + 1);
        Bytes out(pt.size() + 64);
        if (f.id != AEAD_STREAM_RFC8188)  // a short segment that is not final (RFC 8188 pads it)
            CHECK(aead_stream_seal(w.s, pt.data(), room - 1, 0, 0, out.data(), out.size()) == AEAD_ERR_ARG);
        CHECK(aead_stream_seal(w.s, pt.data(), room + 1, 0, 0, out.data(), out.size()) == AEAD_ERR_ARG);
        CHECK(aead_stream_seal(w.s, pt.data(), room + 1, 0, 1, out.data(), out.size()) == AEAD_ERR_ARG);
        CHECK(aead_stream_seal(w.s, pt.data(), room, 1, 0, out.data(), out.size()) == AEAD_ERR_ARG);  // pad, not final
        CHECK(aead_stream_seal(w.s, pt.data(), room, 0, 0, out.data(), room) == AEAD_ERR_BUFFER_TOO_SMALL);
        Bytes shared(2 * room + 64);  // out one byte before in: a partial overlap
        CHECK(aead_stream_seal(w.s, shared.data() + 1, room, 0, 0, shared.data(), shared.size() - 1) == AEAD_ERR_OVERLAP);
        CHECK(aead_stream_position(w.s) == 0);
        CHECK(aead_stream_seal(w.s, pt.data(), room, 0, 0, out.data(), out.size()) >= 0);
        CHECK(aead_stream_position(w.s) == 1);
        if (f.id == AEAD_STREAM_AGE)  // age: an empty last chunk only when it is the first
            CHECK(aead_stream_seal(w.s, pt.data(), 0, 0, 1, out.data(), out.size()) == AEAD_ERR_ARG);
        CHECK(aead_stream_seal(w.s, pt.data(), 1, 0, 1, out.data(), out.size()) >= 0);
        CHECK(aead_stream_seal(w.s, pt.data(), 1, 0, 1, out.data(), out.size()) == AEAD_ERR_STREAM_FINISHED);
        CHECK(aead_stream_open(w.s, out.data(), 17, 1, out.data(), out.size()) == AEAD_ERR_ARG);  // a writer does not open
    }
}

TEST_CASE("stream: RFC 8188 padding on the last record, in place, and the delimiter rules") {
    const Format &f = kFormats[4];
    const Bytes key = key_for(f);
    const aead_stream_params p = params_of(f, key);
    Stream w = writer(p);
    Bytes buf(4096, 0);
    const Bytes data = random_bytes(100);
    std::copy(data.begin(), data.end(), buf.begin());
    const int64_t n = aead_stream_seal(w.s, buf.data(), data.size(), 300, 1, buf.data(), buf.size());  // in place
    REQUIRE(n == 100 + 1 + 300 + 16);
    CHECK(aead_stream_seal(w.s, buf.data(), 0, 4096, 1, buf.data(), buf.size()) == AEAD_ERR_STREAM_FINISHED);
    Stream r = reader(p, w.header);
    Bytes out(static_cast<size_t>(n));
    REQUIRE(aead_stream_open(r.s, buf.data(), static_cast<size_t>(n), 1, out.data(), out.size()) == 100);
    CHECK(Bytes(out.begin(), out.begin() + 100) == data);
    // A record of padding alone (no delimiter) and one whose delimiter says "more follow" but is last.
    const Oracle o(f, key, w.header, {});
    Bytes zeros(40, 0);
    Bytes more = data;
    more.push_back(1);
    for (const Bytes &bad_pt : {zeros, more}) {
        Stream r2 = reader(p, w.header);
        const Bytes ct = test::evp_seal(AEAD_AES_128_GCM, o.key, o.nonce(0, false), {}, bad_pt);
        Bytes o2(ct.size(), 0xAA);
        CHECK(aead_stream_open(r2.s, ct.data(), ct.size(), 1, o2.data(), o2.size()) == AEAD_ERR_AUTH);
        CHECK(std::all_of(o2.begin(), o2.end() - 16, [](uint8_t b) { return b == 0; }));
    }
}

TEST_CASE("stream: headers: lengths, bad Tink length bytes, RFC 8188 record sizes out of range, unused fields") {
    const Bytes key = random_bytes(32);
    aead_stream_params p = params_of(kFormats[0], key);
    aead_stream *s = nullptr;
    size_t hl = 0;
    Bytes h(AEAD_STREAM_MAX_HEADER, 0);
    CHECK(aead_stream_reader_new(&s, &p, h.data(), 0, &hl) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(hl == 1);
    h[0] = 24;
    CHECK(aead_stream_reader_new(&s, &p, h.data(), 1, &hl) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(hl == 24);
    h[0] = 40;  // an AES-256 key's header under AES-128 parameters
    CHECK(aead_stream_reader_new(&s, &p, h.data(), 40, &hl) == AEAD_ERR_AUTH);
    CHECK(s == nullptr);
    // RFC 8188: rs below 18, and a huge rs refused before anything is made.
    aead_stream_params r = params_of(kFormats[4], key);
    r.segment_size = 0;
    Bytes rh(21, 0);
    rh[19] = 17;
    CHECK(aead_stream_reader_new(&s, &r, rh.data(), rh.size(), &hl) == AEAD_ERR_AUTH);
    rh[16] = 0xFF, rh[19] = 0xFF;
    CHECK(aead_stream_reader_new(&s, &r, rh.data(), rh.size(), &hl) == AEAD_ERR_TOO_LONG);
    rh[16] = 0, rh[17] = 0, rh[18] = 0x10, rh[19] = 0;  // 4096, under a reader bound of 1024
    r.segment_size = 1024;
    CHECK(aead_stream_reader_new(&s, &r, rh.data(), rh.size(), &hl) == AEAD_ERR_TOO_LONG);
    CHECK(s == nullptr);
    // Fields a format does not use, keys of the wrong size, unknown formats and hashes, NULLs.
    aead_stream_params a = params_of(kFormats[3], random_bytes(16));
    a.segment_size = 4096;
    CHECK(aead_stream_writer_new(&s, &a, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    a = params_of(kFormats[3], key);
    CHECK(aead_stream_writer_new(&s, &a, h.data(), h.size(), &hl) == AEAD_ERR_KEY_SIZE);
    aead_stream_params t = params_of(kFormats[0], random_bytes(15));
    CHECK(aead_stream_writer_new(&s, &t, h.data(), h.size(), &hl) == AEAD_ERR_KEY_SIZE);
    t = params_of(kFormats[0], key);
    t.hkdf_hash = 9;
    CHECK(aead_stream_writer_new(&s, &t, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    t = params_of(kFormats[0], key);
    t.segment_size = 1 + 16 + 7 + 16;  // no room for a byte in the first segment
    CHECK(aead_stream_writer_new(&s, &t, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    t.segment_size = AEAD_STREAM_MAX_SEGMENT + 1;
    CHECK(aead_stream_writer_new(&s, &t, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    t = params_of(kFormats[0], key);
    CHECK(aead_stream_writer_new(&s, &t, h.data(), 23, &hl) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(hl == 24);
    t.format = 99;
    CHECK(aead_stream_writer_new(&s, &t, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    CHECK(aead_stream_writer_new(&s, nullptr, h.data(), h.size(), &hl) == AEAD_ERR_ARG);
    CHECK(aead_stream_seal(nullptr, h.data(), 1, 0, 1, h.data(), h.size()) == AEAD_ERR_ARG);
    CHECK(aead_stream_position(nullptr) == AEAD_ERR_ARG);
    CHECK(aead_stream_segment_size(nullptr, 0) == 0);
    CHECK(s == nullptr);
    aead_stream_free(nullptr);
    CHECK(std::string(aead_strerror(AEAD_ERR_STREAM_FINISHED)).find("final segment") != std::string::npos);
}

TEST_CASE("stream: Tink's segment limit (2^32 segments) through random access") {
    const Bytes key = random_bytes(32);
    const aead_stream_params p = params_of(kFormats[2], key);
    Stream w = writer(p);
    Stream r = reader(p, w.header);
    Bytes seg(64);
    CHECK(aead_stream_open_segment(r.s, (uint64_t{1} << 32) - 1, seg.data(), seg.size(), 0, seg.data(), seg.size()) == AEAD_ERR_AUTH);
    CHECK(aead_stream_open_segment(r.s, uint64_t{1} << 32, seg.data(), seg.size(), 0, seg.data(), seg.size()) ==
          AEAD_ERR_NONCE_EXHAUSTED);
}

TEST_CASE("stream: eight threads sealing on one writer (half of them in batches of three) take every segment number once") {
    const Format &f = kFormats[2];  // 64-byte segments
    const Bytes key = key_for(f);
    const aead_stream_params p = params_of(f, key);
    Stream w = writer(p);
    // Segment 0 is shorter (header, offset): seal it first, then race on equal segments.
    const size_t room0 = aead_stream_segment_size(w.s, 0) - 16, room = aead_stream_segment_size(w.s, 1) - 16;
    const Bytes pt0 = random_bytes(room0);
    Bytes seg0(64);
    REQUIRE(aead_stream_seal(w.s, pt0.data(), room0, 0, 0, seg0.data(), seg0.size()) >= 0);
    constexpr int kThreads = 8, kEach = 500, kBatch = 3;
    constexpr uint64_t kSegments = kThreads / 2 * kEach * (1 + kBatch);
    std::vector<std::vector<std::pair<Bytes, Bytes>>> made(kThreads);  // a batch's segments are adjacent
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            const size_t k = t % 2 == 0 ? 1 : kBatch;
            for (int i = 0; i < kEach; ++i) {
                const Bytes pt = random_bytes(k * room);
                Bytes out(k * 64);
                const int64_t r = k == 1 ? aead_stream_seal(w.s, pt.data(), pt.size(), 0, 0, out.data(), out.size())
                                         : aead_stream_seal_many(w.s, pt.data(), pt.size(), 0, out.data(), out.size());
                if (r != static_cast<int64_t>(out.size())) continue;
                for (size_t j = 0; j < k; ++j)
                    made[static_cast<size_t>(t)].emplace_back(
                        Bytes(pt.begin() + static_cast<long>(j * room), pt.begin() + static_cast<long>((j + 1) * room)),
                        Bytes(out.begin() + static_cast<long>(j * 64), out.begin() + static_cast<long>((j + 1) * 64)));
            }
        });
    for (auto &t : ts) t.join();
    CHECK(aead_stream_position(w.s) == 1 + kSegments);
    Stream r = reader(p, w.header);
    // Each segment's number from its keystream: the oracle seals zeros under every number once.
    const Oracle o(f, key, w.header, {});
    std::map<std::string, uint64_t> number_of;  // keyed by text: GCC 12 -O3 misjudges vector<uint8_t>'s <=>
    for (uint64_t n = 1; n <= kSegments; ++n) {
        Bytes ks = test::evp_seal(AEAD_AES_128_GCM, o.key, o.nonce(n, false), {}, Bytes(room, 0));
        ks.resize(room);  // the keystream; the tag is the zeros'
        number_of[std::string(ks.begin(), ks.end())] = n;
    }
    std::set<uint64_t> seen;
    size_t total = 0;
    for (size_t t = 0; t < made.size(); ++t) {
        uint64_t prev = 0;
        for (size_t j = 0; j < made[t].size(); ++j) {
            const auto &[pt, ct] = made[t][j];
            ++total;
            Bytes stream_bytes(ct.begin(), ct.begin() + static_cast<long>(room));
            for (size_t i = 0; i < room; ++i) stream_bytes[i] ^= pt[i];
            const auto it = number_of.find(std::string(stream_bytes.begin(), stream_bytes.end()));
            REQUIRE(it != number_of.end());
            CHECK(seen.insert(it->second).second);
            if (t % 2 == 1 && j % kBatch != 0) CHECK(it->second == prev + 1);  // a batch's numbers are consecutive
            prev = it->second;
            Bytes out(64);
            CHECK(aead_stream_open_segment(r.s, it->second, ct.data(), ct.size(), 0, out.data(), out.size()) ==
                  static_cast<int64_t>(room));
        }
    }
    CHECK(total == kSegments);
    CHECK(seen.size() == total);
}

TEST_CASE("stream: a writer inherited across fork() refuses to seal in the child; the parent goes on") {
    const Bytes key = random_bytes(16);
    Stream w = writer(params_of(kFormats[3], key));
    const Bytes pt = random_bytes(65536);
    Bytes out(65536 + 16);
    REQUIRE(aead_stream_seal(w.s, pt.data(), pt.size(), 0, 0, out.data(), out.size()) >= 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int64_t r = aead_stream_seal(w.s, pt.data(), pt.size(), 0, 0, out.data(), out.size());
        _exit(r == AEAD_ERR_FORKED ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(aead_stream_seal(w.s, pt.data(), 10, 0, 1, out.data(), out.size()) == 26);
}

TEST_CASE("stream: plaintext rewritten by another thread during the writes still gives segments that open") {
    for (const Format &f : {kFormats[0], kFormats[3], kFormats[4]}) {
        CAPTURE(f.name);
        const Bytes key = key_for(f);
        const aead_stream_params p = params_of(f, key);
        Stream w = writer(p);
        const size_t room = aead_stream_segment_size(w.s, 1) - aead_stream_overhead(w.s);
        Bytes shared = random_bytes(room);
        std::atomic<bool> stop{false};
        std::thread scribbler([&] {
            for (uint8_t v = 0; !stop.load(std::memory_order_relaxed); ++v)
                for (size_t i = 0; i < shared.size(); i += 61) reinterpret_cast<volatile uint8_t &>(shared[i]) = v;
        });
        std::vector<Bytes> segs;
        for (uint64_t n = 0; n < 40; ++n) {
            const size_t take = n == 39 ? room / 2 : aead_stream_segment_size(w.s, n) - aead_stream_overhead(w.s);
            Bytes out(room + 64);
            const int64_t r = aead_stream_seal(w.s, shared.data(), take, 0, n == 39, out.data(), out.size());
            REQUIRE(r >= 0);
            out.resize(static_cast<size_t>(r));
            segs.push_back(out);
        }
        stop = true;
        scribbler.join();
        Stream r = reader(p, w.header);
        int64_t rc = -100;
        read_all(r.s, segs, &rc);
        CHECK(rc == 0);
    }
}
