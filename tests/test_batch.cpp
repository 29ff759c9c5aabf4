// aead_seal_open_many: each record's result is exactly what aead_seal_open gives for it, refusals and
// failures per record, TLS sequences checked in array order and atomically across concurrent batches.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

// The storage behind one record, so that the same inputs can go through both entry points.
struct Rec {
    Bytes nonce, aad, in, out;
    size_t cap;
    aead_record view() {
        return {nonce.empty() ? nullptr : nonce.data(), nonce.size(), aad.empty() ? nullptr : aad.data(), aad.size(),
                in.empty() ? nullptr : in.data(), in.size(), out.data(), cap, 12345};
    }
};

std::vector<aead_record> views(std::vector<Rec> &rs) {
    std::vector<aead_record> v;
    for (Rec &r : rs) v.push_back(r.view());
    return v;
}

}  // namespace

TEST_CASE("batch: every record as aead_seal_open would do it, every algorithm and policy", "[batch]") {
    for (const auto &a : test::kAllAlgs) {
        if (test::fips_stage() && a.alg == AEAD_CHACHA20_POLY1305) continue;
        INFO(a.name);
        const Bytes key = test::random_bytes(a.key);
        test::Ctx batch(a.alg, AEAD_POLICY_NONE, key), single(a.alg, AEAD_POLICY_NONE, key);
        std::vector<Rec> rs;
        for (size_t i = 0; i < 64; ++i) {
            const size_t len = test::random_below(3000);
            rs.push_back({test::random_bytes(12), test::random_bytes(i % 20), test::random_bytes(len), Bytes(len + 16, 0xCC), len + 16});
        }
        auto v = views(rs);
        REQUIRE(aead_seal_open_many(batch, AEAD_SEAL, v.data(), v.size()) == 64);
        std::vector<Rec> sealed;
        for (size_t i = 0; i < rs.size(); ++i) {
            Bytes expect(rs[i].in.size() + 16);
            CHECK(v[i].result == test::seal(single, rs[i].nonce, rs[i].aad, rs[i].in, expect));
            CHECK(rs[i].out == expect);
            sealed.push_back({rs[i].nonce, rs[i].aad, rs[i].out, Bytes(rs[i].in.size(), 0xDD), rs[i].in.size()});
        }
        // Open them back, with every third record forged: AUTH there (zeroed), the others intact.
        for (size_t i = 0; i < sealed.size(); i += 3) sealed[i].in[0] ^= 1;
        auto w = views(sealed);
        CHECK(aead_seal_open_many(batch, AEAD_OPEN, w.data(), w.size()) == 64 - 22);
        for (size_t i = 0; i < sealed.size(); ++i) {
            if (i % 3 == 0) {
                CHECK(w[i].result == AEAD_ERR_AUTH);
                CHECK(sealed[i].out == Bytes(sealed[i].out.size(), 0));
            } else {
                CHECK(w[i].result == static_cast<int64_t>(rs[i].in.size()));
                CHECK(sealed[i].out == rs[i].in);
            }
        }
    }
}

TEST_CASE("batch: refusals per record write nothing and do not stop the others", "[batch]") {
    const Bytes key = test::random_bytes(16);
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_NONE, key);
    const Bytes pt = test::random_bytes(50);
    std::vector<Rec> rs = {
        {Bytes(12, 1), {}, pt, Bytes(66, 0xAB), 66},              // fine
        {Bytes{}, {}, pt, Bytes(66, 0xAB), 66},                   // nonce size
        {Bytes(12, 2), {}, pt, Bytes(66, 0xAB), 65},              // buffer too small
        {Bytes(12, 3), {}, pt, Bytes(66, 0xAB), 66},              // fine
        {Bytes(200, 4), {}, pt, Bytes(66, 0xAB), 66},             // nonce too long
    };
    auto v = views(rs);
    v[4].out = nullptr;  // and a NULL out with a capacity
    CHECK(aead_seal_open_many(c, AEAD_SEAL, v.data(), v.size()) == 2);
    CHECK(v[0].result == 66);
    CHECK(v[1].result == AEAD_ERR_NONCE_SIZE);
    CHECK(v[2].result == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(v[3].result == 66);
    CHECK(v[4].result == AEAD_ERR_ARG);
    for (size_t i : {1u, 2u, 4u}) CHECK(rs[i].out == Bytes(66, 0xAB));
    // An overlap inside one record is that record's refusal.
    Bytes buf(200, 0);
    const Bytes n12(12, 9);
    aead_record ov{n12.data(), 12, nullptr, 0, buf.data(), 50, buf.data() + 1, 150, 0};
    CHECK(aead_seal_open_many(c, AEAD_SEAL, &ov, 1) == 0);
    CHECK(ov.result == AEAD_ERR_OVERLAP);
    // The call's own arguments.
    CHECK(aead_seal_open_many(nullptr, AEAD_SEAL, v.data(), 1) == AEAD_ERR_ARG);
    CHECK(aead_seal_open_many(c, 0, v.data(), 1) == AEAD_ERR_ARG);
    CHECK(aead_seal_open_many(c, AEAD_SEAL, nullptr, 3) == AEAD_ERR_ARG);
    CHECK(aead_seal_open_many(c, AEAD_SEAL, nullptr, 0) == 0);
}

TEST_CASE("batch: TLS sequences in array order, a refused record consumes nothing", "[batch]") {
    const Bytes key = test::random_bytes(32), iv = test::random_bytes(12);
    test::Ctx c(AEAD_AES_256_GCM, AEAD_POLICY_TLS13, key, 0, iv);
    const uint64_t seqs[] = {0, 1, 1, 5, 3, 6, UINT64_MAX, 7};
    const int64_t expect[] = {32, 32, AEAD_ERR_NONCE_ORDER, 32, AEAD_ERR_NONCE_ORDER, 32, AEAD_ERR_NONCE_EXHAUSTED, 32};
    std::vector<Rec> rs;
    for (uint64_t s : seqs) rs.push_back({test::tls13_nonce(iv, s), Bytes(5, 0x17), Bytes(16, 1), Bytes(32, 0xAB), 32});
    rs.push_back({test::tls13_nonce(iv, 8), Bytes(13, 0x17), Bytes(16, 1), Bytes(32, 0xAB), 32});  // AAD size
    Bytes wrong_salt = test::tls13_nonce(iv, 8);
    wrong_salt[0] ^= 0x80;
    rs.push_back({wrong_salt, Bytes(5, 0x17), Bytes(16, 1), Bytes(32, 0xAB), 32});  // prefix
    auto v = views(rs);
    CHECK(aead_seal_open_many(c, AEAD_SEAL, v.data(), v.size()) == 5);
    for (size_t i = 0; i < 8; ++i) {
        INFO("record " << i << " seq " << seqs[i]);
        CHECK(v[i].result == expect[i]);
        if (expect[i] < 0) CHECK(rs[i].out == Bytes(32, 0xAB));
        else CHECK(rs[i].out == test::evp_seal(AEAD_AES_256_GCM, key, rs[i].nonce, rs[i].aad, rs[i].in));
    }
    CHECK(v[8].result == AEAD_ERR_AAD_SIZE);
    CHECK(v[9].result == AEAD_ERR_NONCE_PREFIX);
    CHECK(rs[9].out == Bytes(32, 0xAB));
    // Sequence 8 was not consumed by the refused record.
    Bytes out(32);
    CHECK(test::seal(c, test::tls13_nonce(iv, 8), Bytes(5, 0x17), Bytes(16, 1), out) == 32);
}

TEST_CASE("batch: concurrent TLS batches never accept a sequence twice", "[batch]") {
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(12);
    for (int round = 0; round < 10; ++round) {
        test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_TLS12, key, 0, iv);
        std::vector<std::vector<uint64_t>> accepted(6);
        std::atomic<int> unexpected{0};
        std::vector<std::thread> ts;
        for (size_t t = 0; t < accepted.size(); ++t)
            ts.emplace_back([&, t] {
                // Every thread offers the same sequences 0..599 in batches of 50.
                for (uint64_t base = 0; base < 600; base += 50) {
                    std::vector<Rec> rs;
                    for (uint64_t s = base; s < base + 50; ++s)
                        rs.push_back({test::tls13_nonce(iv, s), Bytes(13, 0), Bytes(8, 2), Bytes(24), 24});
                    auto v = views(rs);
                    aead_seal_open_many(c, AEAD_SEAL, v.data(), v.size());
                    for (size_t i = 0; i < v.size(); ++i)
                        if (v[i].result == 24) accepted[t].push_back(base + i);
                        else if (v[i].result != AEAD_ERR_NONCE_ORDER) ++unexpected;  // Catch2 is not thread-safe
                }
            });
        for (auto &t : ts) t.join();
        CHECK(unexpected == 0);  // every record was accepted or refused for its order, nothing else
        const test::Acceptances m = test::merge_acceptances(accepted);
        CHECK(m.each_increasing);
        CHECK(m.none_twice);
        REQUIRE(!m.all.empty());
        CHECK(m.all.back() == 599);  // the highest sequence always wins somewhere
    }
}

TEST_CASE("batch: random-nonce records, and in place", "[batch]") {
    const Bytes key = test::random_bytes(16);
    test::Ctx c(AEAD_AES_128_GCM, AEAD_POLICY_RANDOM_NONCE, key);
    std::vector<Bytes> bufs;
    std::vector<aead_record> v;
    for (size_t i = 0; i < 20; ++i) bufs.push_back(test::random_bytes(12 + i + 16));
    const std::vector<Bytes> plain = [&] {
        std::vector<Bytes> p;
        for (size_t i = 0; i < 20; ++i) p.emplace_back(bufs[i].begin() + 12, bufs[i].begin() + 12 + static_cast<long>(i));
        return p;
    }();
    for (size_t i = 0; i < 20; ++i) v.push_back({nullptr, 0, nullptr, 0, bufs[i].data() + 12, i, bufs[i].data(), bufs[i].size(), 0});
    CHECK(aead_seal_open_many(c, AEAD_SEAL, v.data(), v.size()) == 20);
    for (size_t i = 0; i < 20; ++i) {
        const Bytes nonce(bufs[i].begin(), bufs[i].begin() + 12);
        CHECK(Bytes(bufs[i].begin() + 12, bufs[i].end()) == test::evp_seal(AEAD_AES_128_GCM, key, nonce, {}, plain[i]));
        v[i] = {nullptr, 0, nullptr, 0, bufs[i].data(), bufs[i].size(), bufs[i].data() + 12, i, 0};
    }
    CHECK(aead_seal_open_many(c, AEAD_OPEN, v.data(), v.size()) == 20);
    for (size_t i = 0; i < 20; ++i) CHECK(Bytes(bufs[i].begin() + 12, bufs[i].begin() + 12 + static_cast<long>(i)) == plain[i]);
}
