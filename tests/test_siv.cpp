// AES-SIV (ids 15-17) and the AAD-component entry points (aead_seal_open_v, aead_seal_open_many_v): the
// contract of aead.h (AES-SIV under "Contexts and algorithms", "The batch and vector calls"), a
// differential against a fresh EVP "AES-*-SIV" context on random inputs, concurrency on one context,
// and a caller that changes its component array during calls.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "catch_compat.h"
#include "checks.h"
#include "support.h"

namespace {

using test::Bytes;

constexpr int kSivAlgs[] = {AEAD_AES_128_SIV, AEAD_AES_192_SIV, AEAD_AES_256_SIV};
const char *siv_name(int alg) {
    return alg == AEAD_AES_128_SIV ? "AES-128-SIV" : alg == AEAD_AES_192_SIV ? "AES-192-SIV" : "AES-256-SIV";
}

bool siv_offered() { return test::offered(AEAD_AES_128_SIV); }

bool takes_empty(aead_ctx *c) {
    Bytes out(16);
    const int64_t r = aead_seal_open_v(c, AEAD_SEAL, nullptr, 0, nullptr, 0, nullptr, 0, out.data(), out.size());
    if (r != 16) CHECK(r == AEAD_ERR_UNSUPPORTED);
    return r == 16;
}

std::vector<aead_buf> bufs_of(const std::vector<Bytes> &parts) {
    std::vector<aead_buf> b;
    for (const Bytes &p : parts) b.push_back({p.empty() ? nullptr : p.data(), p.size()});
    return b;
}

// The oracle: OpenSSL's AES-SIV on a fresh context (each AAD update one S2V component), nothing shared
// with libaead. Returns SIV || ciphertext.
Bytes evp_siv_seal(int alg, const Bytes &key, const std::vector<Bytes> &parts, const Bytes &pt) {
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, siv_name(alg), nullptr),
                                                                   EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    static const uint8_t nothing[1] = {0};
    Bytes out(16 + pt.size());
    int n = 0;
    if (!cipher || !c || EVP_EncryptInit_ex2(c.get(), cipher.get(), key.data(), nullptr, nullptr) != 1)
        throw std::runtime_error("oracle init");
    for (const Bytes &p : parts)
        if (EVP_EncryptUpdate(c.get(), nullptr, &n, p.empty() ? nothing : p.data(), static_cast<int>(p.size())) != 1)
            throw std::runtime_error("oracle aad");
    // (NULL input is the provider's "final": an empty message is fed from a real address)
    uint8_t spare[1];
    if (EVP_EncryptUpdate(c.get(), pt.empty() ? spare : out.data() + 16, &n, pt.empty() ? nothing : pt.data(),
                          static_cast<int>(pt.size())) != 1 ||
        EVP_EncryptFinal_ex(c.get(), out.data() + 16, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, 16, out.data()) != 1)
        throw std::runtime_error("oracle seal");
    return out;
}

int64_t seal_v(aead_ctx *c, const Bytes &nonce, const std::vector<aead_buf> &aad, const uint8_t *in, size_t in_len,
               uint8_t *out, size_t cap) {
    return aead_seal_open_v(c, AEAD_SEAL, nonce.data(), nonce.size(), aad.data(), aad.size(), in, in_len, out, cap);
}
int64_t open_v(aead_ctx *c, const Bytes &nonce, const std::vector<aead_buf> &aad, const uint8_t *in, size_t in_len,
               uint8_t *out, size_t cap) {
    return aead_seal_open_v(c, AEAD_OPEN, nonce.data(), nonce.size(), aad.data(), aad.size(), in, in_len, out, cap);
}

}  // namespace

TEST_CASE("siv: sizes, keys, tags and policies", "[siv]") {
    CHECK(aead_key_size(AEAD_AES_128_SIV) == 32);
    CHECK(aead_key_size(AEAD_AES_192_SIV) == 48);
    CHECK(aead_key_size(AEAD_AES_256_SIV) == 64);
    for (int alg : kSivAlgs) {
        CHECK(aead_nonce_size(alg) == 16);
        CHECK(aead_tag_size(alg) == 16);
    }
    if (!siv_offered()) return;  // the FIPS stage: refused at creation, checked above
    aead_ctx *c = nullptr;
    const Bytes k32(32, 1), k16(16, 1), k64(64, 1);
    CHECK(aead_ctx_new(&c, AEAD_AES_128_SIV, AEAD_POLICY_NONE, k16.data(), k16.size(), 0) == AEAD_ERR_KEY_SIZE);
    CHECK(c == nullptr);
    CHECK(aead_ctx_new(&c, AEAD_AES_128_SIV, AEAD_POLICY_NONE, k64.data(), k64.size(), 0) == AEAD_ERR_KEY_SIZE);
    CHECK(aead_ctx_new(&c, AEAD_AES_128_SIV, AEAD_POLICY_NONE, k32.data(), k32.size(), 12) == AEAD_ERR_TAG_SIZE);
    for (int policy : {int{AEAD_POLICY_TLS12}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_RANDOM_NONCE}, int{AEAD_POLICY_QUIC}})
        CHECK(aead_ctx_new(&c, AEAD_AES_128_SIV, policy, k32.data(), k32.size(), 0) == AEAD_ERR_ARG);
    REQUIRE(aead_ctx_new(&c, AEAD_AES_128_SIV, AEAD_POLICY_NONE, k32.data(), k32.size(), 16) == 0);
    CHECK((aead_ctx_indicator(c) & (AEAD_IND_SEAL_APPROVED | AEAD_IND_OPEN_APPROVED)) == 0);
    aead_ctx_free(c);
}

TEST_CASE("siv: refusals write nothing and change nothing", "[siv]") {
    if (!siv_offered()) return;
    const Bytes key = test::random_bytes(32), nonce = test::random_bytes(16), pt = test::random_bytes(40);
    test::Ctx ctx(AEAD_AES_128_SIV, AEAD_POLICY_NONE, key);
    const Bytes a1 = test::random_bytes(9);
    const std::vector<aead_buf> one = {{a1.data(), a1.size()}};
    Bytes out(pt.size() + 16, 0xAA);
    const Bytes untouched = out;
    auto refused = [&](int64_t r, int64_t code) {
        CHECK(r == code);
        CHECK(out == untouched);
    };
    refused(aead_seal_open_v(nullptr, AEAD_SEAL, nullptr, 0, nullptr, 0, pt.data(), pt.size(), out.data(), out.size()),
            AEAD_ERR_ARG);
    refused(aead_seal_open_v(ctx, 3, nullptr, 0, nullptr, 0, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_ARG);
    refused(aead_seal_open_v(ctx, AEAD_SEAL, nullptr, 0, nullptr, 1, pt.data(), pt.size(), out.data(), out.size()),
            AEAD_ERR_ARG);
    const std::vector<aead_buf> null_with_len = {{nullptr, 3}};
    refused(seal_v(ctx, nonce, null_with_len, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_ARG);
    // A component whose end would wrap the address space.
    const std::vector<aead_buf> wraps = {{a1.data(), SIZE_MAX - 4}};
    refused(seal_v(ctx, nonce, wraps, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_ARG);
    const std::vector<aead_buf> too_long = {{a1.data(), size_t{AEAD_ONE_UPDATE_MAX} + 1}};
    refused(seal_v(ctx, {}, too_long, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_TOO_LONG);  // never read
    // RFC 5297 section 7: 126 components at most, the nonce one of them.
    std::vector<aead_buf> many(AEAD_SIV_MAX_COMPONENTS, aead_buf{a1.data(), a1.size()});
    Bytes ok_out(pt.size() + 16);
    CHECK(seal_v(ctx, {}, many, pt.data(), pt.size(), ok_out.data(), ok_out.size()) == static_cast<int64_t>(ok_out.size()));
    refused(seal_v(ctx, nonce, many, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_TOO_LONG);
    many.push_back(many[0]);
    refused(seal_v(ctx, {}, many, pt.data(), pt.size(), out.data(), out.size()), AEAD_ERR_TOO_LONG);
    refused(seal_v(ctx, nonce, one, pt.data(), pt.size(), out.data(), out.size() - 1), AEAD_ERR_BUFFER_TOO_SMALL);
    // out == in is not SIV's in-place form (the SIV leads): an overlap.
    Bytes buf = pt;
    buf.resize(pt.size() + 16);
    const Bytes before = buf;
    CHECK(seal_v(ctx, nonce, one, buf.data(), pt.size(), buf.data(), buf.size()) == AEAD_ERR_OVERLAP);
    CHECK(buf == before);
    // The written range may not meet a component or the nonce.
    Bytes big(200, 3);
    const std::vector<aead_buf> inside = {{big.data() + 30, 10}};
    const Bytes big_before = big;
    CHECK(seal_v(ctx, {}, inside, pt.data(), pt.size(), big.data(), big.size()) == AEAD_ERR_OVERLAP);
    CHECK(aead_seal_open_v(ctx, AEAD_SEAL, big.data() + 20, 16, nullptr, 0, pt.data(), pt.size(), big.data(),
                           big.size()) == AEAD_ERR_OVERLAP);
    CHECK(big == big_before);
    // An open too short to hold the SIV is not authentic; nothing is counted as a forgery then either way.
    Bytes small(4, 0xAA);
    CHECK(open_v(ctx, nonce, one, pt.data(), 15, small.data(), small.size()) == AEAD_ERR_AUTH);
    CHECK(small == Bytes(4, 0xAA));
}

TEST_CASE("siv: the in-place layout, forgeries, and the flat call's components", "[siv]") {
    if (!siv_offered()) return;
    for (int alg : kSivAlgs) {
        INFO(siv_name(alg));
        const Bytes key = test::random_bytes(aead_key_size(alg)), nonce = test::random_bytes(12),
                    aad = test::random_bytes(21), pt = test::random_bytes(77);
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
        // The flat call: [aad, nonce]; without a nonce: [aad] (even an empty AAD is a component).
        const Bytes want = evp_siv_seal(alg, key, {aad, nonce}, pt);
        Bytes out(want.size());
        REQUIRE(test::seal(ctx, nonce, aad, pt, out) == static_cast<int64_t>(out.size()));
        CHECK(out == want);
        REQUIRE(test::seal(ctx, {}, {}, pt, out) == static_cast<int64_t>(out.size()));
        CHECK(out == evp_siv_seal(alg, key, {Bytes{}}, pt));
        CHECK(out != evp_siv_seal(alg, key, {}, pt));
        // In place: seal with in == out + 16, open with out == in + 16.
        Bytes buf(16 + pt.size());
        std::memcpy(buf.data() + 16, pt.data(), pt.size());
        REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), aad.data(), aad.size(), buf.data() + 16,
                               pt.size(), buf.data(), buf.size()) == static_cast<int64_t>(buf.size()));
        CHECK(buf == want);
        REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), aad.data(), aad.size(), buf.data(),
                               buf.size(), buf.data() + 16, pt.size()) == static_cast<int64_t>(pt.size()));
        CHECK(Bytes(buf.begin() + 16, buf.end()) == pt);
        // Any changed bit, a changed nonce or AAD: AEAD_ERR_AUTH, output zeroed, counted.
        uint64_t forgeries = 0;
        for (size_t i = 0; i < want.size(); i += 13) {
            Bytes bad = want;
            bad[i] ^= 0x20;
            Bytes back(pt.size(), 0xAA);
            CHECK(test::open(ctx, nonce, aad, bad, back) == AEAD_ERR_AUTH);
            CHECK(back == Bytes(pt.size(), 0));
            ++forgeries;
        }
        Bytes back(pt.size());
        CHECK(test::open(ctx, test::random_bytes(12), aad, want, back) == AEAD_ERR_AUTH);
        CHECK(test::open(ctx, nonce, Bytes{}, want, back) == AEAD_ERR_AUTH);
        CHECK(test::open(ctx, {}, aad, want, back) == AEAD_ERR_AUTH);
        forgeries += 3;
        uint64_t seen = 0;
        REQUIRE(aead_ctx_usage(ctx, nullptr, &seen) == 0);
        CHECK(seen == forgeries);
        REQUIRE(test::open(ctx, nonce, aad, want, back) == static_cast<int64_t>(pt.size()));
        CHECK(back == pt);
    }
}

TEST_CASE("siv: empty messages follow the libcrypto", "[siv]") {
    if (!siv_offered()) return;
    const Bytes key = test::random_bytes(32), a = test::random_bytes(5);
    test::Ctx ctx(AEAD_AES_128_SIV, AEAD_POLICY_NONE, key);
    const std::vector<aead_buf> one = {{a.data(), a.size()}};
    Bytes out(16, 0xAA), none;
    if (takes_empty(ctx)) {
        REQUIRE(seal_v(ctx, {}, one, nullptr, 0, out.data(), out.size()) == 16);
        CHECK(out == evp_siv_seal(AEAD_AES_128_SIV, key, {a}, {}));
        CHECK(open_v(ctx, {}, one, out.data(), out.size(), nullptr, 0) == 0);
        out[3] ^= 1;
        CHECK(open_v(ctx, {}, one, out.data(), out.size(), nullptr, 0) == AEAD_ERR_AUTH);
        std::printf("siv: this libcrypto (%s) takes empty messages\n", aead_version());
    } else {
        CHECK(seal_v(ctx, {}, one, nullptr, 0, out.data(), out.size()) == AEAD_ERR_UNSUPPORTED);
        CHECK(out == Bytes(16, 0xAA));
        CHECK(open_v(ctx, {}, one, out.data(), out.size(), nullptr, 0) == AEAD_ERR_UNSUPPORTED);
        std::printf("siv: this libcrypto (%s) refuses empty messages (AEAD_ERR_UNSUPPORTED)\n", aead_version());
    }
}

// Found by the fuzz stage (target siv): an open of an empty message writes nothing, so an `out` pointing
// inside an AAD component overlaps nothing; it used to be AEAD_ERR_OVERLAP (an empty written range was
// compared with each component as if it had a byte).
TEST_CASE("siv: an empty open's out inside an AAD component is not an overlap", "[siv]") {
    if (!siv_offered()) return;
    const Bytes key = test::random_bytes(32);
    test::Ctx ctx(AEAD_AES_128_SIV, AEAD_POLICY_NONE, key);
    Bytes region = test::random_bytes(32);  // the AAD; out points at its byte 8
    const Bytes aad_copy = region;
    const std::vector<aead_buf> one = {{region.data(), region.size()}};
    const bool empty_ok = takes_empty(ctx);
    Bytes sealed(16, 0);
    if (empty_ok) REQUIRE(seal_v(ctx, {}, one, nullptr, 0, sealed.data(), sealed.size()) == 16);
    const int64_t want = empty_ok ? 0 : AEAD_ERR_UNSUPPORTED;
    for (size_t cap : {size_t{0}, size_t{8}}) {
        CHECK(open_v(ctx, {}, one, sealed.data(), sealed.size(), region.data() + 8, cap) == want);
        CHECK(aead_seal_open(ctx, AEAD_OPEN, nullptr, 0, region.data(), region.size(), sealed.data(), sealed.size(),
                             region.data() + 8, cap) == want);
        CHECK(region == aad_copy);
    }
    // A seal writes its 16-byte SIV there: that is an overlap, on every libcrypto.
    CHECK(seal_v(ctx, {}, one, nullptr, 0, region.data() + 8, 16) == AEAD_ERR_OVERLAP);
    CHECK(region == aad_copy);
}

TEST_CASE("siv: random inputs against a fresh EVP context, single calls and batches", "[siv][differential]") {
    if (!siv_offered()) return;
    size_t cases = 0, batched = 0;
    for (int alg : kSivAlgs) {
        const Bytes key = test::random_bytes(aead_key_size(alg));
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
        const bool empty_ok = takes_empty(ctx);
        std::vector<std::vector<Bytes>> all_parts;
        std::vector<Bytes> pts, wants;
        for (int i = 0; i < 200; ++i) {
            std::vector<Bytes> parts(test::random_below(7));
            for (Bytes &p : parts) p = test::random_bytes(test::random_below(4) == 0 ? 0 : test::random_below(80));
            Bytes pt = test::random_bytes(test::random_below(300) + (empty_ok ? 0 : 1));
            const Bytes want = evp_siv_seal(alg, key, parts, pt);
            const auto bufs = bufs_of(parts);
            Bytes out(want.size()), back(pt.size());
            REQUIRE(seal_v(ctx, {}, bufs, pt.data(), pt.size(), out.data(), out.size()) ==
                    static_cast<int64_t>(out.size()));
            CHECK(out == want);
            REQUIRE(open_v(ctx, {}, bufs, out.data(), out.size(), back.data(), back.size()) ==
                    static_cast<int64_t>(pt.size()));
            CHECK(back == pt);
            // The nonce argument is one more component, the last.
            if (parts.size() < 6) {
                const Bytes nonce = test::random_bytes(1 + test::random_below(32));
                std::vector<Bytes> with_nonce = parts;
                with_nonce.push_back(nonce);
                Bytes out2(want.size());
                REQUIRE(seal_v(ctx, nonce, bufs, pt.data(), pt.size(), out2.data(), out2.size()) ==
                        static_cast<int64_t>(out2.size()));
                CHECK(out2 == evp_siv_seal(alg, key, with_nonce, pt));
            }
            all_parts.push_back(parts);
            pts.push_back(pt);
            wants.push_back(want);
            ++cases;
        }
        // The same records as one aead_seal_open_many_v batch, with one bad record that must not disturb others.
        std::vector<std::vector<aead_buf>> bufs(all_parts.size());
        std::vector<Bytes> outs(pts.size());
        std::vector<aead_record_v> recs(pts.size());
        for (size_t i = 0; i < pts.size(); ++i) {
            bufs[i] = bufs_of(all_parts[i]);
            outs[i].assign(wants[i].size(), 0xAA);
            recs[i] = {nullptr, 0, bufs[i].data(), bufs[i].size(), pts[i].data(), pts[i].size(), outs[i].data(),
                       outs[i].size() - (i == 7 ? 1 : 0), 0};
        }
        CHECK(aead_seal_open_many_v(ctx, AEAD_SEAL, recs.data(), recs.size()) == static_cast<int64_t>(recs.size() - 1));
        for (size_t i = 0; i < recs.size(); ++i) {
            if (i == 7) {
                CHECK(recs[i].result == AEAD_ERR_BUFFER_TOO_SMALL);
                CHECK(outs[i] == Bytes(wants[i].size(), 0xAA));
            } else {
                CHECK(recs[i].result == static_cast<int64_t>(wants[i].size()));
                CHECK(outs[i] == wants[i]);
                ++batched;
            }
        }
    }
    CHECK(aead_seal_open_many_v(nullptr, AEAD_SEAL, nullptr, 0) == AEAD_ERR_ARG);
    std::printf("siv: %zu random cases against EVP (each with and without a nonce component), %zu batched\n", cases,
                batched);
}

TEST_CASE("aead_seal_open_v on the one-AAD families", "[siv]") {
    const Bytes key = test::random_bytes(16), nonce = test::random_bytes(12), aad = test::random_bytes(13),
                pt = test::random_bytes(50);
    test::Ctx ctx(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    Bytes flat(pt.size() + 16), v(pt.size() + 16);
    const std::vector<aead_buf> one = {{aad.data(), aad.size()}}, none, two = {one[0], one[0]};
    REQUIRE(test::seal(ctx, nonce, aad, pt, flat) == static_cast<int64_t>(flat.size()));
    REQUIRE(seal_v(ctx, nonce, one, pt.data(), pt.size(), v.data(), v.size()) == static_cast<int64_t>(v.size()));
    CHECK(v == flat);
    REQUIRE(test::seal(ctx, nonce, {}, pt, flat) == static_cast<int64_t>(flat.size()));
    REQUIRE(seal_v(ctx, nonce, none, pt.data(), pt.size(), v.data(), v.size()) == static_cast<int64_t>(v.size()));
    CHECK(v == flat);
    const Bytes before = v;
    CHECK(seal_v(ctx, nonce, two, pt.data(), pt.size(), v.data(), v.size()) == AEAD_ERR_ARG);
    CHECK(v == before);
    Bytes back(pt.size());
    CHECK(open_v(ctx, nonce, none, v.data(), v.size(), back.data(), back.size()) == static_cast<int64_t>(pt.size()));
    CHECK(back == pt);
}

TEST_CASE("siv: many threads on one context", "[siv][concurrency]") {
    if (!siv_offered()) return;
    const Bytes key = test::random_bytes(64);
    test::Ctx ctx(AEAD_AES_256_SIV, AEAD_POLICY_NONE, key);
    constexpr int kThreads = 4, kEach = 150;
    std::vector<Bytes> pts(kEach), wants(kEach);
    const Bytes a = test::random_bytes(17);
    for (int i = 0; i < kEach; ++i) {
        pts[i] = test::random_bytes(1 + static_cast<size_t>(i));
        wants[i] = evp_siv_seal(AEAD_AES_256_SIV, key, {a}, pts[i]);
    }
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            const std::vector<aead_buf> one = {{a.data(), a.size()}};
            for (int i = 0; i < kEach; ++i) {
                Bytes out(wants[i].size()), back(pts[i].size());
                if (seal_v(ctx, {}, one, pts[i].data(), pts[i].size(), out.data(), out.size()) !=
                        static_cast<int64_t>(out.size()) ||
                    out != wants[i] ||
                    open_v(ctx, {}, one, out.data(), out.size(), back.data(), back.size()) !=
                        static_cast<int64_t>(back.size()) ||
                    back != pts[i])
                    ++wrong;
            }
        });
    for (auto &t : threads) t.join();
    CHECK(wrong.load() == 0);
}

#ifndef AEAD_TEST_TSAN  // (support.h: the race below is the report TSan exists to make)
// The component array is read once: a caller's thread rewriting it during calls (its own data race, but
// through relaxed atomics here so that the test itself is well defined) gets a result computed from one
// consistent copy, or a refusal, and nothing is written past out_cap.
TEST_CASE("siv: a component array changed during calls", "[siv][hostile]") {
    if (!siv_offered()) return;
    if (test::under_valgrind()) {
        WARN("skipped: racing threads under valgrind");
        return;
    }
    const Bytes key = test::random_bytes(32), pt = test::random_bytes(64), x = test::random_bytes(8);
    test::Ctx ctx(AEAD_AES_128_SIV, AEAD_POLICY_NONE, key);
    const Bytes with_x = evp_siv_seal(AEAD_AES_128_SIV, key, {x}, pt), with_empty = evp_siv_seal(AEAD_AES_128_SIV, key, {Bytes{}}, pt);
    static_assert(sizeof(std::atomic<size_t>) == sizeof(size_t));
    aead_buf comp{x.data(), x.size()};
    auto *len = reinterpret_cast<std::atomic<size_t> *>(&comp.len);
    std::atomic<bool> stop{false};
    std::thread flipper([&] {
        while (!stop.load(std::memory_order_relaxed)) {
            len->store(0, std::memory_order_relaxed);
            len->store(x.size(), std::memory_order_relaxed);
        }
    });
    int matched = 0, other = 0;
    Bytes out(16 + pt.size() + 16);
    for (int i = 0; i < 3000; ++i) {
        std::fill(out.begin(), out.end(), 0xEE);
        const int64_t r = aead_seal_open_v(ctx, AEAD_SEAL, nullptr, 0, &comp, 1, pt.data(), pt.size(), out.data(),
                                           16 + pt.size());
        const Bytes got(out.begin(), out.begin() + 16 + static_cast<long>(pt.size()));
        if (r == static_cast<int64_t>(got.size()) && (got == with_x || got == with_empty)) ++matched;
        else ++other;
        CHECK(Bytes(out.end() - 16, out.end()) == Bytes(16, 0xEE));
    }
    stop = true;
    flipper.join();
    CHECK(other == 0);
    std::printf("siv: 3000 seals while another thread rewrote the component: %d matched one consistent input\n", matched);
}
#endif  // AEAD_TEST_TSAN

#ifdef AEAD_TEST_FAULT_BUILD
// A failure drops the working context, so the call after it makes a new one: each fallible call of that
// too fails in turn. SIV is deterministic: the seal that finally succeeds is the unfaulted one's bytes.
TEST_CASE("fault build: each failed libcrypto call of an AES-SIV seal or open is a code", "[siv]") {
    const Bytes key = test::random_bytes(32), nonce = test::random_bytes(16), aad = test::random_bytes(20),
                pt = test::random_bytes(50);
    test::Ctx ctx(AEAD_AES_128_SIV, AEAD_POLICY_NONE, key);
    Bytes want(pt.size() + 16);
    REQUIRE(test::seal(ctx, nonce, aad, pt, want) == static_cast<int64_t>(want.size()));
    for (const bool sealing : {true, false}) {
        const long failures = test::check_each_call_fails(
            [&](Bytes &out) { return sealing ? test::seal(ctx, nonce, aad, pt, out) : test::open(ctx, nonce, aad, want, out); },
            sealing ? want : pt);
        CHECK(failures >= 3);
    }
}
#endif
