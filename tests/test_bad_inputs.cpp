// The bad-input matrix: every argument of every exported function through NULL, zero, one off the
// limit, huge (SIZE_MAX / INT extremes) and overlapping values, one argument at a time from a valid call.
// Each returns its documented code; a refusal writes nothing (the whole arena, guards included, is
// compared with a snapshot); a success writes only its output.
#include <climits>
#include <cstring>
#include <functional>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

// One arena holds every buffer of a call, so overlaps can be made and stray writes seen anywhere in it.
struct Arena {
    static constexpr size_t kNonce = 0, kAad = 200, kIn = 400, kOut = 2400, kSize = 4800;
    Bytes mem = Bytes(kSize, 0xCC);
    uint8_t *at(size_t off) { return mem.data() + off; }
};

// One aead_seal_open call: an aead_record's arguments (its result unused), with the context and the op.
struct Call : aead_record {
    aead_ctx *ctx;
    int op;
    int64_t run() const { return aead_seal_open(ctx, op, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap); }
};

struct Row {
    const char *what;
    std::function<void(Call &, Arena &)> change;
    int64_t expected;  // a negative code, or 1 for "succeeds"
};

int rows_run = 0;

void run_matrix(const char *name, aead_ctx *ctx, int op, size_t aad_len, const std::vector<Row> &rows,
                size_t nonce_len = 12) {
    for (const Row &row : rows) {
        INFO(name << ": " << row.what);
        Arena a;
        for (size_t i = 0; i < 200; ++i) a.mem[Arena::kNonce + i] = static_cast<uint8_t>(i);  // nonce
        Call c{{a.at(Arena::kNonce), nonce_len, a.at(Arena::kAad), aad_len, a.at(Arena::kIn), 64, a.at(Arena::kOut), 80, 0},
               ctx, op};
        if (op == AEAD_OPEN) {  // a valid record to open, sealed with a separate context of the same key
            c.in_len = 80;
            c.out_cap = 64;
        }
        row.change(c, a);
        const Bytes before = a.mem;
        const int64_t r = c.run();
        if (row.expected < 0) {
            CHECK(r == row.expected);
            if (r == AEAD_ERR_AUTH) {
                const size_t out_len = c.in_len >= 16 ? c.in_len - 16 : 0;
                CHECK(std::all_of(c.out, c.out + std::min<size_t>(c.out_cap, out_len), [](uint8_t b) { return b == 0; }));
            } else {
                CHECK(a.mem == before);  // a refusal writes nothing anywhere
            }
        } else {
            CHECK(r >= 0);
            // Only [out, out + r) may change.
            const size_t out_off = static_cast<size_t>(c.out - a.mem.data());
            for (size_t i = 0; i < a.mem.size(); ++i)
                if (i < out_off || i >= out_off + static_cast<size_t>(std::max<int64_t>(r, 0))) {
                    if (a.mem[i] != before[i]) {
                        FAIL_CHECK("byte " << i << " outside the output changed");
                        break;
                    }
                }
        }
        ++rows_run;
    }
}

std::vector<Row> common_rows(int op, size_t need, size_t in_len, uint64_t max_plain) {
    const uint8_t *const poison = reinterpret_cast<const uint8_t *>(uintptr_t{16});
    std::vector<Row> rows = {
        {"the valid call", [](Call &, Arena &) {}, 1},
        {"ctx NULL", [](Call &c, Arena &) { c.ctx = nullptr; }, AEAD_ERR_ARG},
        {"op 0", [](Call &c, Arena &) { c.op = 0; }, AEAD_ERR_ARG},
        {"op 3", [](Call &c, Arena &) { c.op = 3; }, AEAD_ERR_ARG},
        {"op INT_MIN", [](Call &c, Arena &) { c.op = INT_MIN; }, AEAD_ERR_ARG},
        {"op INT_MAX", [](Call &c, Arena &) { c.op = INT_MAX; }, AEAD_ERR_ARG},
        {"nonce NULL", [](Call &c, Arena &) { c.nonce = nullptr; }, AEAD_ERR_ARG},
        {"nonce_len SIZE_MAX (past the end of memory)", [](Call &c, Arena &) { c.nonce_len = SIZE_MAX; }, AEAD_ERR_ARG},
        {"nonce_len 0", [](Call &c, Arena &) { c.nonce_len = 0; }, AEAD_ERR_NONCE_SIZE},
        {"nonce (NULL, 0)", [](Call &c, Arena &) { c.nonce = nullptr; c.nonce_len = 0; }, AEAD_ERR_NONCE_SIZE},
        {"aad NULL with length", [](Call &c, Arena &) { c.aad = nullptr; }, AEAD_ERR_ARG},
        {"aad_len SIZE_MAX (past the end of memory)", [](Call &c, Arena &) { c.aad_len = SIZE_MAX; }, AEAD_ERR_ARG},
        {"in NULL with length", [](Call &c, Arena &) { c.in = nullptr; }, AEAD_ERR_ARG},
        {"in_len SIZE_MAX (past the end of memory)", [](Call &c, Arena &) { c.in_len = SIZE_MAX; }, AEAD_ERR_ARG},
        {"nonce at the top of memory", [](Call &c, Arena &) { c.nonce = reinterpret_cast<const uint8_t *>(UINTPTR_MAX - 4); }, AEAD_ERR_ARG},
        {"out NULL with capacity", [](Call &c, Arena &) { c.out = nullptr; }, AEAD_ERR_ARG},
        {"out_cap 0", [](Call &c, Arena &) { c.out_cap = 0; }, AEAD_ERR_BUFFER_TOO_SMALL},
        {"out_cap one short", [=](Call &c, Arena &) { c.out_cap = need - 1; }, AEAD_ERR_BUFFER_TOO_SMALL},
        {"out_cap exact", [=](Call &c, Arena &) { c.out_cap = need; }, 1},
        {"out_cap SIZE_MAX", [](Call &c, Arena &) { c.out_cap = SIZE_MAX; }, 1},
        {"out = in + 1", [](Call &c, Arena &a) { c.out = a.at(Arena::kIn + 1); }, AEAD_ERR_OVERLAP},
        {"out = in - 1", [](Call &c, Arena &a) { c.out = a.at(Arena::kIn - 1); }, AEAD_ERR_OVERLAP},
        {"out ends one byte into in", [=](Call &c, Arena &a) { c.out = a.at(Arena::kIn + 1 - need); }, AEAD_ERR_OVERLAP},
        {"out ends just before in", [=](Call &c, Arena &a) { c.out = a.at(Arena::kIn - need); }, 1},
        {"out starts just after in", [=](Call &c, Arena &a) { c.out = a.at(Arena::kIn + in_len); }, 1},
        {"out over the aad", [](Call &c, Arena &a) { c.out = a.at(Arena::kAad + 2); }, AEAD_ERR_OVERLAP},
        {"out over the nonce", [](Call &c, Arena &a) { c.out = a.at(Arena::kNonce + 11); }, AEAD_ERR_OVERLAP},
        {"out == nonce", [](Call &c, Arena &a) { c.out = a.at(Arena::kNonce); }, AEAD_ERR_OVERLAP},
    };
    // A length over the limit, where size_t can state one (in 32 bits it cannot for GCM or ChaCha20).
    if (max_plain + 17 <= SIZE_MAX)
        rows.push_back({"in_len over the limit", [=](Call &c, Arena &) {
                            c.in = poison;
                            c.in_len = static_cast<size_t>(max_plain + (op == AEAD_OPEN ? 17 : 1));
                        }, AEAD_ERR_TOO_LONG});
#if SIZE_MAX > UINT32_MAX  // (a 32-bit size_t cannot state so long an AAD)
    // GCM and AEGIS (RFC 10032's A_MAX) limit AAD to 2^61-1 bytes; ChaCha20-Poly1305 does not.
    if (max_plain == AEAD_GCM_MAX_PLAINTEXT || max_plain == (uint64_t{1} << 61) - 1)
        rows.push_back({"aad_len over the GCM limit", [=](Call &c, Arena &) { c.aad = poison; c.aad_len = uint64_t{1} << 61; },
                        AEAD_ERR_TOO_LONG});
#endif
    return rows;
}

}  // namespace

TEST_CASE("bad-input matrix: aead_seal_open", "[bad-inputs]") {
    struct Setup {
        const char *name;
        int alg, policy;
        size_t key, aad;
        uint64_t max;
        size_t nonce = 12;  // AEGIS: 16 or 32, and only that
    };
    constexpr uint64_t kAegisMax = (uint64_t{1} << 61) - 1;
    for (const Setup s : {Setup{"AES-128-GCM", AEAD_AES_128_GCM, AEAD_POLICY_NONE, 16, 13, AEAD_GCM_MAX_PLAINTEXT},
                          Setup{"ChaCha20-Poly1305", AEAD_CHACHA20_POLY1305, AEAD_POLICY_NONE, 32, 13,
                                AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT},
                          Setup{"TLS 1.2 AES-256-GCM", AEAD_AES_256_GCM, AEAD_POLICY_TLS12, 32, 13, AEAD_GCM_MAX_PLAINTEXT},
                          Setup{"TLS 1.3 ChaCha20-Poly1305", AEAD_CHACHA20_POLY1305, AEAD_POLICY_TLS13, 32, 5,
                                AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT},
                          Setup{"AEGIS-128L", AEAD_AEGIS_128L, AEAD_POLICY_NONE, 16, 13, kAegisMax, 16},
                          Setup{"AEGIS-256X4", AEAD_AEGIS_256X4, AEAD_POLICY_NONE, 32, 13, kAegisMax, 32}}) {
        const bool aegis = s.alg >= AEAD_AEGIS_128L && s.alg <= AEAD_AEGIS_256X4;
        if (aegis && test::fips_stage()) continue;  // refused under fips=yes (tests/test_aegis.cpp)
        const Bytes key = test::random_bytes(s.key);
        const bool gcm_free_nonce = s.alg != AEAD_CHACHA20_POLY1305 && !aegis && s.policy == AEAD_POLICY_NONE;
        const bool tls = s.policy != AEAD_POLICY_NONE;
        for (const int op : {AEAD_SEAL, AEAD_OPEN}) {
            const size_t need = op == AEAD_SEAL ? 80 : 64, in_len = op == AEAD_SEAL ? 64 : 80;
            std::vector<Row> rows = common_rows(op, need, in_len, s.max);
            rows.push_back({"nonce_len 11", [](Call &c, Arena &) { c.nonce_len = 11; },
                            gcm_free_nonce ? (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH) : AEAD_ERR_NONCE_SIZE});
            rows.push_back({"nonce_len 13", [](Call &c, Arena &) { c.nonce_len = 13; },
                            gcm_free_nonce ? (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH) : AEAD_ERR_NONCE_SIZE});
            rows.push_back({"nonce_len 128", [](Call &c, Arena &) { c.nonce_len = 128; },
                            gcm_free_nonce ? (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH) : AEAD_ERR_NONCE_SIZE});
            rows.push_back({"nonce_len 129", [](Call &c, Arena &) { c.nonce_len = 129; }, AEAD_ERR_NONCE_SIZE});
            if (aegis) {
                rows.push_back({"nonce_len one less", [](Call &c, Arena &) { --c.nonce_len; }, AEAD_ERR_NONCE_SIZE});
                rows.push_back({"nonce_len one more", [](Call &c, Arena &) { ++c.nonce_len; }, AEAD_ERR_NONCE_SIZE});
            }
            rows.push_back({"aad_len one more", [](Call &c, Arena &) { ++c.aad_len; },
                            tls && op == AEAD_SEAL ? AEAD_ERR_AAD_SIZE : (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH)});
            rows.push_back({"aad_len one less", [](Call &c, Arena &) { --c.aad_len; },
                            tls && op == AEAD_SEAL ? AEAD_ERR_AAD_SIZE : (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH)});
            rows.push_back({"aad (NULL, 0)", [](Call &c, Arena &) { c.aad = nullptr; c.aad_len = 0; },
                            tls && op == AEAD_SEAL ? AEAD_ERR_AAD_SIZE : (op == AEAD_SEAL ? 1 : AEAD_ERR_AUTH)});
            if (op == AEAD_SEAL) {
                rows.push_back({"in (NULL, 0)", [](Call &c, Arena &) { c.in = nullptr; c.in_len = 0; }, 1});
                rows.push_back({"out == in (exact in place)", [](Call &c, Arena &a) { c.out = a.at(Arena::kIn); c.in = c.out; }, 1});
            } else {
                rows.push_back({"in_len 15 (shorter than a tag)", [](Call &c, Arena &) { c.in_len = 15; }, AEAD_ERR_AUTH});
                rows.push_back({"in_len 0", [](Call &c, Arena &) { c.in_len = 0; }, AEAD_ERR_AUTH});
                rows.push_back({"in (NULL, 0)", [](Call &c, Arena &) { c.in = nullptr; c.in_len = 0; }, AEAD_ERR_AUTH});
                rows.push_back({"in_len one less (tag cut)", [](Call &c, Arena &) { --c.in_len; c.out_cap = 63; }, AEAD_ERR_AUTH});
                rows.push_back({"out == in (exact in place)", [](Call &c, Arena &a) { c.out = a.at(Arena::kIn); c.in = c.out; c.out_cap = 80; }, 1});
            }
            // Each row gets a fresh context (a TLS seal consumes its sequence number) and, for open, a
            // record sealed under the row's own nonce length and AAD by an unchecked context of the key.
            for (Row row : rows) {
                test::Ctx ctx(s.alg, s.policy, key);
                if (op == AEAD_OPEN) {
                    auto change = row.change;
                    row.change = [&, change](Call &c, Arena &a) {
                        test::Ctx sealer(s.alg, AEAD_POLICY_NONE, key);
                        Bytes record(80);
                        REQUIRE(aead_seal_open(sealer, AEAD_SEAL, a.at(Arena::kNonce), s.nonce, a.at(Arena::kAad), s.aad,
                                               a.at(Arena::kIn), 64, record.data(), 80) == 80);
                        std::memcpy(a.at(Arena::kIn), record.data(), 80);
                        change(c, a);
                    };
                }
                run_matrix(s.name, ctx, op, s.aad, {row}, s.nonce);
            }
        }
    }
    std::printf("bad-input matrix: %d calls of aead_seal_open, each with its documented result\n", rows_run);
    CHECK(rows_run > 200);
}

TEST_CASE("bad-input matrix: the other functions", "[bad-inputs]") {
    const Bytes key(32, 1);
    int calls = 0;
    auto expect_new = [&](int alg, int policy, const uint8_t *k, size_t len, size_t tag, int expected) {
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{8});
        const int rc = aead_ctx_new(&c, alg, policy, k, len, tag);
        CHECK(rc == expected);
        if (rc == 0) aead_ctx_free(c);
        else CHECK(c == nullptr);
        ++calls;
    };
    CHECK(aead_ctx_new(nullptr, AEAD_AES_256_GCM, 0, key.data(), 32, 0) == AEAD_ERR_ARG);
    for (int alg : {INT_MIN, -1, 0, 100, INT_MAX}) expect_new(alg, 0, key.data(), 32, 0, AEAD_ERR_ARG);
    for (int policy : {INT_MIN, -1, 5, INT_MAX}) expect_new(AEAD_AES_256_GCM, policy, key.data(), 32, 0, AEAD_ERR_ARG);
    expect_new(AEAD_AES_256_GCM, 0, nullptr, 32, 0, AEAD_ERR_ARG);
    for (size_t len : {size_t{0}, size_t{31}, size_t{33}, SIZE_MAX}) expect_new(AEAD_AES_256_GCM, 0, key.data(), len, 0, AEAD_ERR_KEY_SIZE);
    for (size_t tag : {size_t{1}, size_t{3}, size_t{5}, size_t{7}, size_t{9}, size_t{11}, size_t{17}, SIZE_MAX})
        expect_new(AEAD_AES_256_GCM, 0, key.data(), 32, tag, AEAD_ERR_TAG_SIZE);
    for (size_t tag : {size_t{4}, size_t{8}, size_t{12}, size_t{15}}) {
        expect_new(AEAD_AES_256_GCM, 0, key.data(), 32, tag, 0);
        expect_new(AEAD_AES_256_GCM, AEAD_POLICY_TLS13, key.data(), 32, tag, AEAD_ERR_TAG_SIZE);
        expect_new(AEAD_CHACHA20_POLY1305, 0, key.data(), 32, tag, AEAD_ERR_TAG_SIZE);
    }
    aead_ctx_free(nullptr);
    for (int64_t code : {INT64_MIN, int64_t{-16}, int64_t{-17}, int64_t{-1000}, INT64_MAX, int64_t{1}}) {
        const char *t = aead_strerror(code);
        REQUIRE(t != nullptr);
        CHECK(std::strlen(t) > 0);
        ++calls;
    }
    for (int alg : {INT_MIN, -1, 0, 100, INT_MAX}) {
        CHECK(aead_key_size(alg) == 0);
        CHECK(aead_nonce_size(alg) == 0);
        CHECK(aead_tag_size(alg) == 0);
        calls += 3;
    }
    std::printf("bad-input matrix: %d calls of the other functions, each with its documented result\n", calls);
}
