// Conformance: every case of the shared Wycheproof and NIST CAVP files is run, refused by the contract
// (and printed), or the test fails. Nothing is skipped silently.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;
using test::from_hex;

namespace {

// A source tarball (meson dist) has no ../shared beside it: then the whole suite is skipped, with the
// reason, before any test runs (exit code 77 is meson's SKIP; Catch2 v2 cannot skip a test case).
// Set AEAD_VECTORS_DIR to run it on vectors kept elsewhere.
const bool vectors_present = [] {
    std::error_code ec;
    if (std::filesystem::is_directory(test::vectors_dir() + "/wycheproof", ec)) return true;
    std::printf("SKIP: the Wycheproof and NIST CAVP vectors are not at %s (a source tarball does not carry "
                "them; set AEAD_VECTORS_DIR to their directory to run this suite)\n",
                test::vectors_dir().c_str());
    std::fflush(stdout);
    std::exit(77);
}();

struct Tally {
    int valid_ok = 0, invalid_rejected = 0, refused_by_contract = 0;
    int total() const { return valid_ok + invalid_rejected + refused_by_contract; }
};

int alg_for(const std::string &algorithm, size_t key_bytes) {
    if (algorithm == "CHACHA20-POLY1305") return AEAD_CHACHA20_POLY1305;
    return key_bytes == 16 ? AEAD_AES_128_GCM : key_bytes == 24 ? AEAD_AES_192_GCM : AEAD_AES_256_GCM;
}

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) FAIL("cannot read " << path << " (the shared vectors must be at <repo>/../shared/vectors or AEAD_VECTORS_DIR)");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Whether the contract refuses these parameters before any cryptography (nonce or tag sizes).
int contract_refusal(int alg, size_t nonce, size_t tag) {
    const bool gcm = alg != AEAD_CHACHA20_POLY1305;
    if (gcm ? (nonce < 1 || nonce > AEAD_MAX_NONCE) : nonce != 12) return AEAD_ERR_NONCE_SIZE;
    if (tag != 16 && !(gcm && (tag == 4 || tag == 8 || (tag >= 12 && tag <= 16)))) return AEAD_ERR_TAG_SIZE;
    return 0;
}

Tally run_wycheproof(const std::string &file) {
    const auto doc = nlohmann::json::parse(read_file(test::vectors_dir() + "/" + file));
    const std::string algorithm = doc.at("algorithm");
    Tally t;
    for (const auto &group : doc.at("testGroups")) {
        const size_t tag_len = group.at("tagSize").get<size_t>() / 8;
        for (const auto &tc : group.at("tests")) {
            const Bytes key = from_hex(tc.at("key")), iv = from_hex(tc.at("iv")), aad = from_hex(tc.at("aad")),
                        msg = from_hex(tc.at("msg")), ct = from_hex(tc.at("ct")), tag = from_hex(tc.at("tag"));
            const std::string result = tc.at("result");
            const int tc_id = tc.at("tcId");
            INFO(file << " tcId " << tc_id << " " << tc.at("comment").get<std::string>());
            const int alg = alg_for(algorithm, key.size());
            test::Ctx ctx(alg, AEAD_POLICY_NONE, key, tag_len);
            Bytes sealed = ct;
            sealed.insert(sealed.end(), tag.begin(), tag.end());

            if (const int refusal = contract_refusal(alg, iv.size(), tag_len)) {
                Bytes out(sealed.size() + 16);
                CHECK(test::open(ctx, iv, aad, sealed, out) == refusal);
                CHECK(test::seal(ctx, iv, aad, msg, out) == refusal);
                if (result == "invalid") {
                    ++t.invalid_rejected;  // refused, as an invalid case must be
                } else {
                    ++t.refused_by_contract;
                    std::printf("refused-by-contract: %s tcId %d (%s, nonce %zu bytes): %s\n", file.c_str(), tc_id,
                                result.c_str(), iv.size(), aead_strerror(refusal));
                }
                continue;
            }
            Bytes opened(msg.size() + 1, 0xAA);
            const int64_t r = test::open(ctx, iv, aad, sealed, opened);
            if (result == "invalid") {
                CHECK(r == AEAD_ERR_AUTH);
                CHECK(std::all_of(opened.begin(), opened.begin() + static_cast<long>(msg.size()),
                                  [](uint8_t b) { return b == 0; }));
                ++t.invalid_rejected;
                continue;
            }
            REQUIRE(r == static_cast<int64_t>(msg.size()));
            CHECK(Bytes(opened.begin(), opened.begin() + r) == msg);
            Bytes out(sealed.size());
            REQUIRE(test::seal(ctx, iv, aad, msg, out) == static_cast<int64_t>(sealed.size()));
            CHECK(out == sealed);
            ++t.valid_ok;
        }
    }
    std::printf("%s: %d cases: %d valid/acceptable passed, %d invalid rejected, %d refused by contract\n",
                file.c_str(), t.total(), t.valid_ok, t.invalid_rejected, t.refused_by_contract);
    CHECK(t.total() == doc.at("numberOfTests").get<int>());
    return t;
}

// NIST CAVP .rsp: bracketed headers set lengths (bits); each case is Count/Key/IV/(PT)/AAD/(CT)/Tag and,
// in decrypt files, a PT line or a bare FAIL.
struct RspCase {
    std::map<std::string, std::string> f;
    bool fail = false;
    size_t tag_bits = 0;
};

std::vector<RspCase> parse_rsp(const std::string &text) {
    std::vector<RspCase> cases;
    std::istringstream in(text);
    std::string line;
    size_t tag_bits = 0;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '[') {
            if (line.rfind("[Taglen = ", 0) == 0) tag_bits = std::stoul(line.substr(10));
            continue;
        }
        if (line == "FAIL") {
            cases.back().fail = true;
            continue;
        }
        const auto eq = line.find(" = ");
        std::string name = line.substr(0, line.find(' ')), value = eq == std::string::npos ? "" : line.substr(eq + 3);
        if (line.back() == '=') value.clear();  // "PT =" with an empty value
        if (name == "Count") {
            cases.emplace_back();
            cases.back().tag_bits = tag_bits;
        }
        REQUIRE(!cases.empty());
        cases.back().f[name] = value;
    }
    return cases;
}

Tally run_nist(const std::string &file, bool decrypt) {
    const auto cases = parse_rsp(read_file(test::vectors_dir() + "/nist-cavp/" + file));
    Tally t;
    for (size_t i = 0; i < cases.size(); ++i) {
        const RspCase &c = cases[i];
        INFO(file << " case #" << i << " Count " << c.f.at("Count"));
        const Bytes key = from_hex(c.f.at("Key")), iv = from_hex(c.f.at("IV")), aad = from_hex(c.f.at("AAD")),
                    ct = from_hex(c.f.at("CT")), tag = from_hex(c.f.at("Tag"));
        REQUIRE(tag.size() * 8 == c.tag_bits);
        const int alg = alg_for("AES-GCM", key.size());
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key, tag.size());
        Bytes sealed = ct;
        sealed.insert(sealed.end(), tag.begin(), tag.end());
        REQUIRE(contract_refusal(alg, iv.size(), tag.size()) == 0);  // every NIST case is inside the contract
        if (decrypt && c.fail) {
            Bytes out(ct.size(), 0xAA);
            CHECK(test::open(ctx, iv, aad, sealed, out) == AEAD_ERR_AUTH);
            CHECK(out == Bytes(ct.size(), 0));
            ++t.invalid_rejected;
            continue;
        }
        const Bytes pt = from_hex(c.f.at("PT"));
        Bytes out(pt.size());
        REQUIRE(test::open(ctx, iv, aad, sealed, out) == static_cast<int64_t>(pt.size()));
        CHECK(out == pt);
        if (!decrypt) {
            Bytes s(sealed.size());
            REQUIRE(test::seal(ctx, iv, aad, pt, s) == static_cast<int64_t>(sealed.size()));
            CHECK(s == sealed);
        }
        ++t.valid_ok;
    }
    std::printf("%s: %d cases: %d authentic passed, %d FAIL rejected\n", file.c_str(), t.total(), t.valid_ok,
                t.invalid_rejected);
    CHECK(t.total() == 7875);  // 525 sections of 15 cases in every GCMVS file
    return t;
}

}  // namespace

TEST_CASE("Wycheproof AES-GCM v1: every case", "[vectors]") {
    const Tally t = run_wycheproof("wycheproof/aes_gcm_test.json");
    CHECK(t.valid_ok + t.refused_by_contract == 229);
    CHECK(t.invalid_rejected == 87);
}

TEST_CASE("Wycheproof ChaCha20-Poly1305: every case", "[vectors]") {
    if (test::fips_stage()) {
        // Not a FIPS algorithm: refused cleanly at context creation, with *ctx_out NULL.
        const Bytes key(32, 1);
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
        CHECK(aead_ctx_new_ex(&c, AEAD_CHACHA20_POLY1305, AEAD_POLICY_NONE, key.data(), 32, 0, test::test_properties(),
                              nullptr, 0) == AEAD_ERR_UNSUPPORTED);
        CHECK(c == nullptr);
        return;
    }
    const Tally t = run_wycheproof("wycheproof/chacha20_poly1305_test.json");
    CHECK(t.valid_ok == 256);
    CHECK(t.invalid_rejected == 69);  // 60 modified tags, 9 nonce sizes refused
    CHECK(t.refused_by_contract == 0);
}

TEST_CASE("Wycheproof AES-GCM legacy (v0, with 'acceptable'): every case", "[vectors]") {
    const Tally t = run_wycheproof("wycheproof/legacy/aes_gcm_test.json");
    CHECK(t.total() == 256);
    CHECK(t.invalid_rejected == 87);
}

TEST_CASE("NIST CAVP GCM encrypt, AES-128/192/256", "[vectors]") {
    for (const char *f : {"gcmEncryptExtIV128.rsp", "gcmEncryptExtIV192.rsp", "gcmEncryptExtIV256.rsp"}) {
        const Tally t = run_nist(f, false);
        CHECK(t.valid_ok == 7875);
    }
}

TEST_CASE("NIST CAVP GCM decrypt, AES-128/192/256", "[vectors]") {
    const std::pair<const char *, int> files[] = {
        {"gcmDecrypt128.rsp", 3864}, {"gcmDecrypt192.rsp", 3897}, {"gcmDecrypt256.rsp", 3956}};
    for (const auto &[f, authentic] : files) {
        const Tally t = run_nist(f, true);
        CHECK(t.valid_ok == authentic);
        CHECK(t.invalid_rejected == 7875 - authentic);
    }
}
