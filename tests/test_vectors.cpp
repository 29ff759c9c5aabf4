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
#include "checks.h"
#include "support.h"

using test::Bytes;
using test::from_hex;

namespace {

// The vectors come from tests/vectors.py (support.h). A directory without them fails the whole suite
// before any test runs: conformance is never skipped.
const bool vectors_present = [] {
    std::error_code ec;
    for (const char *sub : {"/wycheproof", "/nist-cavp", "/pyca/ciphers/AES"})
        if (!std::filesystem::is_directory(test::vectors_dir() + sub, ec)) {
            std::fprintf(stderr, "FAIL: %s%s is missing (AEAD_VECTORS_DIR names the directory tests/vectors.py prints)\n",
                         test::vectors_dir().c_str(), sub);
            std::exit(1);
        }
    return true;
}();

struct Tally {
    int valid_ok = 0, invalid_rejected = 0, refused_by_contract = 0;
    int total() const { return valid_ok + invalid_rejected + refused_by_contract; }
};

int alg_for(const std::string &algorithm, size_t key_bytes) {
    if (algorithm == "CHACHA20-POLY1305") return AEAD_CHACHA20_POLY1305;
    if (algorithm == "XCHACHA20-POLY1305") return AEAD_XCHACHA20_POLY1305;
    if (algorithm == "AEGIS128L") return AEAD_AEGIS_128L;
    if (algorithm == "AEGIS256") return AEAD_AEGIS_256;
    const int by_key = key_bytes == 16 ? 0 : key_bytes == 24 ? 1 : 2;
    if (algorithm == "AES-CCM") return AEAD_AES_128_CCM + by_key;
    if (algorithm == "AES-GCM-SIV") return AEAD_AES_128_GCM_SIV + by_key;
    return AEAD_AES_128_GCM + by_key;
}

using test::read_file;

// Whether the contract refuses these parameters before any cryptography (nonce or tag sizes), written
// from aead.h's rules for each family.
int contract_refusal(int alg, size_t nonce, size_t tag) {
    const bool gcm = alg >= AEAD_AES_128_GCM && alg <= AEAD_AES_256_GCM;
    const bool ccm = alg >= AEAD_AES_128_CCM && alg <= AEAD_AES_256_CCM;
    const bool aegis = alg == AEAD_AEGIS_128L || alg == AEAD_AEGIS_256;  // nonce = key size; tag 16 or 32
    const size_t fixed = alg == AEAD_XCHACHA20_POLY1305 ? 24 : alg == AEAD_AEGIS_128L ? 16 : alg == AEAD_AEGIS_256 ? 32 : 12;
    const size_t lo = gcm ? 1 : ccm ? 7 : fixed;
    const size_t hi = gcm ? AEAD_MAX_NONCE : ccm ? 13 : fixed;
    const bool tag_ok = tag == 16 || (gcm && (tag == 4 || tag == 8 || (tag >= 12 && tag <= 16))) ||
                        (ccm && tag >= 4 && tag <= 16 && tag % 2 == 0) || (aegis && tag == 32);
    if (!tag_ok) return AEAD_ERR_TAG_SIZE;  // refused by aead_ctx_new already
    if (nonce < lo || nonce > hi) return AEAD_ERR_NONCE_SIZE;
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
            Bytes sealed = ct;
            sealed.insert(sealed.end(), tag.begin(), tag.end());
            if (contract_refusal(alg, iv.size(), tag_len) == AEAD_ERR_TAG_SIZE) {
                aead_ctx *c = nullptr;
                CHECK(aead_ctx_new_ex(&c, alg, AEAD_POLICY_NONE, key.data(), key.size(), tag_len,
                                      test::test_properties(), nullptr, 0) == AEAD_ERR_TAG_SIZE);
                CHECK(c == nullptr);
                if (result == "invalid") {
                    ++t.invalid_rejected;
                } else {
                    ++t.refused_by_contract;
                    std::printf("refused-by-contract: %s tcId %d (%s, tag %zu bytes): %s\n", file.c_str(), tc_id,
                                result.c_str(), tag_len, aead_strerror(AEAD_ERR_TAG_SIZE));
                }
                continue;
            }
            test::Ctx ctx(alg, AEAD_POLICY_NONE, key, tag_len);

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

// run_wycheproof(file), its counts checked: the total, valid cases passed, invalid ones rejected, refusals
// by the contract.
void check_wycheproof(const std::string &file, int total, int valid_ok, int invalid_rejected, int refused) {
    const Tally t = run_wycheproof(file);
    INFO(file);
    CHECK(t.total() == total);
    CHECK(t.valid_ok == valid_ok);
    CHECK(t.invalid_rejected == invalid_rejected);
    CHECK(t.refused_by_contract == refused);
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
    // 256 valid; 69 invalid: 60 modified tags, 9 nonce sizes refused.
    check_wycheproof("wycheproof/chacha20_poly1305_test.json", 325, 256, 69, 0);
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

// ---- the 1.2 families (aead.h, "Contexts and algorithms") ----

TEST_CASE("Wycheproof AES-CCM: every case", "[vectors][ccm]") {
    // 405 valid, all inside the contract (nonce 7..13, even tags 4..16); 147 invalid: 51 size refusals
    // (nonces outside 7..13, odd tag lengths) and modified tags.
    check_wycheproof("wycheproof/aes_ccm_test.json", 552, 405, 147, 0);
}

TEST_CASE("Wycheproof AES-GCM-SIV: every case (OpenSSL >= 3.2)", "[vectors][gcm_siv]") {
    if (!test::offered(AEAD_AES_128_GCM_SIV)) {
        // The contract on an older libcrypto: refused at creation, with the way to get it in the text.
        CHECK(std::string(aead_strerror(AEAD_ERR_UNSUPPORTED)).find("-Dlibcrypto=vendored") != std::string::npos);
        std::printf("wycheproof/aes_gcm_siv_test.json: 202 cases: AES-GCM-SIV unavailable on %s "
                    "(AEAD_ERR_UNSUPPORTED at creation, checked)\n", aead_version());
        return;
    }
    check_wycheproof("wycheproof/aes_gcm_siv_test.json", 202, 136, 66, 0);
}

TEST_CASE("Wycheproof XChaCha20-Poly1305: every case", "[vectors][xchacha]") {
    if (test::fips_stage()) {
        CHECK(!test::offered(AEAD_XCHACHA20_POLY1305));
        return;
    }
    // 246 valid; 69 invalid: 60 modified tags, 9 nonce sizes refused.
    check_wycheproof("wycheproof/xchacha20_poly1305_test.json", 315, 246, 69, 0);
}

namespace {

// pyca/cryptography's vectors package (PyPI cryptography_vectors): its ciphers/AES folders, unpacked by
// tests/vectors.py beside the Wycheproof files.
std::string pyca_vectors_dir() { return test::vectors_dir() + "/pyca"; }

// pyca's "NIST loader" text files: blank-line separated cases of `Name = value` lines.
std::vector<std::map<std::string, std::string>> parse_pyca(const std::string &text) {
    std::vector<std::map<std::string, std::string>> cases;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#' || line[0] == '[') continue;
        const auto eq = line.find(" =");
        if (eq == std::string::npos) continue;
        const std::string name = line.substr(0, eq);
        std::string value = line.substr(eq + 2);
        value.erase(0, value.find_first_not_of(" \t"));  // some files have two spaces after '='
        value.erase(value.find_last_not_of(" \t") + 1);
        if (name == "COUNT") cases.emplace_back();
        REQUIRE(!cases.empty());
        cases.back()[name] = value;
    }
    return cases;
}

// Every case of a pyca file is authentic: it must open to its plaintext, seal to its ciphertext, and
// fail with one tag bit flipped. first_alg is the family's 128-bit identifier (+1, +2 by key size).
int run_pyca(const std::string &dir, const std::string &file, int first_alg) {
    const auto cases = parse_pyca(read_file(dir + "/" + file));
    int passed = 0;
    for (const auto &c : cases) {
        INFO(file << " COUNT " << c.at("COUNT"));
        const Bytes key = from_hex(c.at("Key")), nonce = from_hex(c.count("Nonce") ? c.at("Nonce") : c.at("IV")),
                    aad = from_hex(c.count("AAD") ? c.at("AAD") : ""), pt = from_hex(c.at("Plaintext"));
        Bytes sealed = from_hex(c.at("Ciphertext"));
        if (c.count("Tag")) {
            const Bytes tag = from_hex(c.at("Tag"));
            sealed.insert(sealed.end(), tag.begin(), tag.end());
        }
        const int alg = first_alg + (key.size() == 16 ? 0 : key.size() == 24 ? 1 : 2);
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key);
        test::check_round_trip(ctx, nonce, aad, pt, sealed, sealed.size() - 1);
        ++passed;
    }
    std::printf("%s: %zu cases: %d passed (sealed, opened, and refused with a flipped tag bit)\n", file.c_str(),
                cases.size(), passed);
    CHECK(static_cast<size_t>(passed) == cases.size());
    return passed;
}

}  // namespace

TEST_CASE("pyca cryptography_vectors: AES-OCB3 (RFC 7253 and more)", "[vectors][ocb]") {
    if (test::fips_stage()) {
        CHECK(!test::offered(AEAD_AES_128_OCB));
        return;
    }
    const std::string dir = pyca_vectors_dir();
    int n = 0;
    for (const char *f : {"ciphers/AES/OCB3/rfc7253.txt", "ciphers/AES/OCB3/openssl.txt",
                          "ciphers/AES/OCB3/test-vector-1-nonce104.txt", "ciphers/AES/OCB3/test-vector-1-nonce112.txt",
                          "ciphers/AES/OCB3/test-vector-1-nonce120.txt"})
        n += run_pyca(dir, f, AEAD_AES_128_OCB);
    CHECK(n == 16 + 7 + 16 + 16 + 16);
}

TEST_CASE("pyca cryptography_vectors: AES-GCM-SIV (RFC 8452 and AES-192)", "[vectors][gcm_siv]") {
    const std::string dir = pyca_vectors_dir();
    if (!test::offered(AEAD_AES_128_GCM_SIV)) {  // refused with AEAD_ERR_UNSUPPORTED, checked by test::offered()
        std::printf("pyca GCM-SIV files: 92 cases: AES-GCM-SIV unavailable with this libcrypto (refusal checked)\n");
        return;
    }
    int n = 0;
    for (const char *f : {"ciphers/AES/GCM-SIV/openssl.txt", "ciphers/AES/GCM-SIV/aes-192-gcm-siv.txt"})
        n += run_pyca(dir, f, AEAD_AES_128_GCM_SIV);
    CHECK(n == 46 + 46);
}

namespace {

// NIST CAVP CCM (SP 800-38C; CCMVS files in pyca's package under ciphers/AES/CCM). Lengths are in bytes,
// set by unbracketed lines at the top of a file and by bracketed section headers ("[Alen = 0, Plen = 0,
// Nlen = 7, Tlen = 4]"); Key and Nonce set before a section's first Count hold for the whole section,
// after a Count for that case only. Adata "00" with Alen 0 and Payload "00" with Plen 0 stand for empty.
// CT is ciphertext || tag. DVPT (decrypt-verify) cases carry "Result = Pass" (then a Payload) or "Fail".
struct CcmCase {
    std::map<std::string, std::string> f;  // Count, Key, Nonce, Adata, Payload, CT, Result
    size_t alen = 0, plen = 0, nlen = 0, tlen = 0;
};

std::vector<CcmCase> parse_ccm(const std::string &text) {
    std::vector<CcmCase> cases;
    std::map<std::string, size_t> lens;
    std::map<std::string, std::string> section;  // Key / Nonce for the cases to come
    bool in_case = false;
    std::istringstream in(text);
    std::string line;
    const auto set_len = [&](const std::string &assignment) {
        const auto eq = assignment.find(" = ");
        REQUIRE(eq != std::string::npos);
        std::string name = assignment.substr(0, eq);
        name.erase(0, name.find_first_not_of(' '));
        lens[name] = std::stoul(assignment.substr(eq + 3));
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '[') {
            REQUIRE(line.back() == ']');
            std::istringstream parts(line.substr(1, line.size() - 2));
            for (std::string part; std::getline(parts, part, ',');) set_len(part);
            in_case = false;
            continue;
        }
        const auto eq = line.find(" = ");
        REQUIRE(eq != std::string::npos);
        const std::string name = line.substr(0, eq), value = line.substr(eq + 3);
        if (name == "Alen" || name == "Plen" || name == "Nlen" || name == "Tlen") {
            set_len(line);
            in_case = false;
        } else if (name == "Count") {
            cases.emplace_back();
            CcmCase &c = cases.back();
            c.f = section;
            c.alen = lens.at("Alen"), c.plen = lens.at("Plen"), c.nlen = lens.at("Nlen"), c.tlen = lens.at("Tlen");
            c.f[name] = value;
            in_case = true;
        } else if (in_case) {
            cases.back().f[name] = value;
        } else {
            REQUIRE((name == "Key" || name == "Nonce"));
            section[name] = value;
        }
    }
    return cases;
}

// A field of `len` bytes: the NIST files write "00" for an empty one.
Bytes ccm_field(const CcmCase &c, const char *name, size_t len) {
    Bytes b = from_hex(c.f.at(name));
    if (len == 0 && b == Bytes{0}) b.clear();
    REQUIRE(b.size() == len);
    return b;
}

struct CcmTally {
    int passed = 0, fail_rejected = 0, refused = 0;
    int total() const { return passed + fail_rejected + refused; }
};

// Every case: run (encrypt files: seal to CT and open back; DVPT: open, a Pass to its Payload and then
// sealed back to CT, a Fail refused with AEAD_ERR_AUTH and the output zeroed), or refused by the contract
// with the code aead.h gives for its nonce or tag length (checked, counted and printed).
CcmTally run_nist_ccm(const std::string &dir, const std::string &file, bool decrypt) {
    const auto cases = parse_ccm(read_file(dir + "/ciphers/AES/CCM/" + file));
    CcmTally t;
    for (const CcmCase &c : cases) {
        INFO(file << " Count " << c.f.at("Count") << " (Alen " << c.alen << ", Plen " << c.plen << ", Nlen "
                  << c.nlen << ", Tlen " << c.tlen << ")");
        const Bytes key = from_hex(c.f.at("Key")), nonce = from_hex(c.f.at("Nonce")),
                    aad = ccm_field(c, "Adata", c.alen), sealed = from_hex(c.f.at("CT"));
        REQUIRE(nonce.size() == c.nlen);
        REQUIRE(sealed.size() == c.plen + c.tlen);
        const int alg = alg_for("AES-CCM", key.size());
        const bool fail = decrypt && c.f.at("Result") == "Fail";
        if (decrypt) REQUIRE((fail || c.f.at("Result") == "Pass"));
        if (const int refusal = contract_refusal(alg, c.nlen, c.tlen)) {
            if (refusal == AEAD_ERR_TAG_SIZE) {
                aead_ctx *p = nullptr;
                CHECK(aead_ctx_new_ex(&p, alg, AEAD_POLICY_NONE, key.data(), key.size(), c.tlen,
                                      test::test_properties(), nullptr, 0) == AEAD_ERR_TAG_SIZE);
                CHECK(p == nullptr);
            } else {
                test::Ctx ctx(alg, AEAD_POLICY_NONE, key, c.tlen);
                Bytes out(sealed.size() + 16, 0xEE);
                CHECK(test::open(ctx, nonce, aad, sealed, out) == refusal);
                CHECK(out == Bytes(sealed.size() + 16, 0xEE));
            }
            ++t.refused;
            std::printf("refused-by-contract: %s Count %s (nonce %zu, tag %zu bytes): %s\n", file.c_str(),
                        c.f.at("Count").c_str(), c.nlen, c.tlen, aead_strerror(refusal));
            continue;
        }
        test::Ctx ctx(alg, AEAD_POLICY_NONE, key, c.tlen);
        Bytes opened(c.plen + 1, 0xAA);
        const int64_t r = test::open(ctx, nonce, aad, sealed, opened);
        if (fail) {
            CHECK(r == AEAD_ERR_AUTH);
            CHECK(Bytes(opened.begin(), opened.begin() + static_cast<long>(c.plen)) == Bytes(c.plen, 0));
            ++t.fail_rejected;
            continue;
        }
        const Bytes pt = ccm_field(c, "Payload", c.plen);
        REQUIRE(r == static_cast<int64_t>(c.plen));
        CHECK(Bytes(opened.begin(), opened.begin() + r) == pt);
        Bytes out(sealed.size());
        REQUIRE(test::seal(ctx, nonce, aad, pt, out) == static_cast<int64_t>(sealed.size()));
        CHECK(out == sealed);
        ++t.passed;
    }
    std::printf("%s: %zu cases: %d passed, %d Fail rejected, %d refused by contract\n", file.c_str(), cases.size(),
                t.passed, t.fail_rejected, t.refused);
    CHECK(static_cast<size_t>(t.total()) == cases.size());
    return t;
}

}  // namespace

TEST_CASE("NIST CAVP AES-CCM (pyca cryptography_vectors): every case of VADT, VNT, VPT, VTT and DVPT",
          "[vectors][ccm]") {
    const std::string dir = pyca_vectors_dir();
    // Cases per file (the same for AES-128, -192 and -256): VADT varies Alen 0..32, VNT Nlen 7..13, VPT
    // Plen 0..32, VTT Tlen 4..16 (even); DVPT is 16 sections (Alen, Plen 0/max x Nlen 7/13 x Tlen 4/16)
    // of 15 cases, 5 Pass and 10 Fail each. All of them are inside aead.h's CCM rules.
    struct Kind {
        const char *name;
        bool decrypt;
        int cases;
    };
    int all = 0;
    for (const Kind k : {Kind{"VADT", false, 330}, Kind{"VNT", false, 70}, Kind{"VPT", false, 250},
                         Kind{"VTT", false, 70}, Kind{"DVPT", true, 240}}) {
        CcmTally sum;
        for (const char *bits : {"128", "192", "256"}) {
            const CcmTally t = run_nist_ccm(dir, std::string(k.name) + bits + ".rsp", k.decrypt);
            CHECK(t.total() == k.cases);
            sum.passed += t.passed, sum.fail_rejected += t.fail_rejected, sum.refused += t.refused;
        }
        std::printf("NIST CCM %s (128/192/256): %d cases: %d passed, %d Fail rejected, %d refused by contract\n",
                    k.name, sum.total(), sum.passed, sum.fail_rejected, sum.refused);
        CHECK(sum.total() == 3 * k.cases);
        CHECK(sum.refused == 0);
        CHECK(sum.fail_rejected == (k.decrypt ? 3 * 160 : 0));
        all += sum.total();
    }
    CHECK(all == 3 * (330 + 70 + 250 + 70 + 240));
}

namespace {

// AES-SIV by key length: 32, 48, 64 bytes.
int siv_alg(size_t key_len) {
    return key_len == 32 ? AEAD_AES_128_SIV : key_len == 48 ? AEAD_AES_192_SIV : AEAD_AES_256_SIV;
}

// Whether the loaded libcrypto's SIV takes an empty message (OpenSSL >= 3.5; aead.h, AES-SIV under "Contexts and algorithms").
bool siv_takes_empty() {
    test::Ctx c(AEAD_AES_128_SIV, AEAD_POLICY_NONE, Bytes(32, 1));
    Bytes out(16);
    const int64_t r = test::seal(c, {}, {}, {}, out);
    if (r != 16) CHECK(r == AEAD_ERR_UNSUPPORTED);
    return r == 16;
}

}  // namespace

// AEGIS (libaegis): Wycheproof's AEGIS-128L and AEGIS-256 files; the other variants have RFC 10032's
// vectors only (test_aegis). Not offered under a FIPS query.
TEST_CASE("Wycheproof AEGIS-128L and AEGIS-256: every case", "[vectors][aegis]") {
    if (test::fips_stage()) {
        CHECK(!test::offered(AEAD_AEGIS_128L));
        CHECK(!test::offered(AEAD_AEGIS_256));
        return;
    }
    check_wycheproof("wycheproof/aegis128L_test.json", 479, 367, 112, 0);
    check_wycheproof("wycheproof/aegis256_test.json", 472, 360, 112, 0);
}
// RFC 5297 section 6's AEAD form: aead_seal_open's AAD is one S2V component, the nonce the last.
TEST_CASE("Wycheproof AEAD-AES-SIV-CMAC: every case", "[vectors][siv]") {
    const auto doc = nlohmann::json::parse(read_file(test::vectors_dir() + "/wycheproof/aead_aes_siv_cmac_test.json"));
    size_t total = 0, valid_ok = 0, invalid_rejected = 0, refused = 0, valid_refused = 0;
    const bool offered = test::offered(AEAD_AES_128_SIV);
    const bool empty_ok = offered && siv_takes_empty();
    for (const auto &g : doc.at("testGroups")) {
        for (const auto &t : g.at("tests")) {
            ++total;
            INFO("tcId " << t.at("tcId").get<int>());
            const Bytes key = from_hex(t.at("key")), nonce = from_hex(t.at("iv")), aad = from_hex(t.at("aad")),
                        msg = from_hex(t.at("msg")), ct = from_hex(t.at("ct")), tag = from_hex(t.at("tag"));
            const bool valid = t.at("result") == "valid";
            if (!offered) {  // the FIPS stage: no FIPS provider has SIV
                aead_ctx *c = nullptr;
                CHECK(aead_ctx_new_ex(&c, siv_alg(key.size()), AEAD_POLICY_NONE, key.data(), key.size(), 0,
                                      test::test_properties(), nullptr, 0) == AEAD_ERR_UNSUPPORTED);
                CHECK(c == nullptr);
                ++refused;
                continue;
            }
            test::Ctx ctx(siv_alg(key.size()), AEAD_POLICY_NONE, key);
            Bytes sealed = tag;
            sealed.insert(sealed.end(), ct.begin(), ct.end());
            Bytes back(msg.size(), 0xAA);
            if (msg.empty() && !empty_ok) {
                CHECK(test::open(ctx, nonce, aad, sealed, back) == AEAD_ERR_UNSUPPORTED);
                ++refused;
                valid_refused += valid;
                continue;
            }
            const int64_t r = test::open(ctx, nonce, aad, sealed, back);
            if (valid) {
                REQUIRE(r == static_cast<int64_t>(msg.size()));
                CHECK(back == msg);
                Bytes out(sealed.size());
                REQUIRE(test::seal(ctx, nonce, aad, msg, out) == static_cast<int64_t>(sealed.size()));
                CHECK(out == sealed);
                ++valid_ok;
            } else {
                CHECK(r == AEAD_ERR_AUTH);
                CHECK(back == Bytes(msg.size(), 0));
                ++invalid_rejected;
            }
        }
    }
    std::printf("wycheproof/aead_aes_siv_cmac_test.json: %zu cases: %zu valid passed, %zu invalid rejected, "
                "%zu refused by contract (%s)\n",
                total, valid_ok, invalid_rejected, refused, offered ? "empty messages below OpenSSL 3.5" : "no SIV here");
    CHECK(total == 900);
    CHECK(valid_ok + invalid_rejected + refused == total);
    if (offered) {
        CHECK(valid_ok + valid_refused == 252);
        CHECK(invalid_rejected + (refused - valid_refused) == 648);
        CHECK((refused == 0) == empty_ok);  // 219 cases have an empty message
    }
}

// pyca's SIV file has up to three AAD components per case: one aead_seal_open_v call each way.
TEST_CASE("pyca cryptography_vectors: AES-SIV with several AAD components", "[vectors][siv]") {
    const std::string dir = pyca_vectors_dir();
    if (!test::offered(AEAD_AES_128_SIV)) {  // FIPS: refused with AEAD_ERR_UNSUPPORTED, checked by test::offered()
        std::printf("pyca SIV file: AES-SIV unavailable under these properties (refusal checked)\n");
        return;
    }
    const auto cases = parse_pyca(read_file(dir + "/ciphers/AES/SIV/openssl.txt"));
    int passed = 0;
    for (const auto &c : cases) {
        INFO("COUNT " << c.at("COUNT"));
        const Bytes key = from_hex(c.at("Key")), pt = from_hex(c.at("Plaintext"));
        std::vector<Bytes> parts;
        for (const char *name : {"AAD", "AAD2", "AAD3"})
            if (c.count(name)) parts.push_back(from_hex(c.at(name)));
        std::vector<aead_buf> bufs;
        for (const Bytes &p : parts) bufs.push_back({p.data(), p.size()});
        Bytes sealed = from_hex(c.at("Tag"));
        const Bytes ct = from_hex(c.at("Ciphertext"));
        sealed.insert(sealed.end(), ct.begin(), ct.end());
        test::Ctx ctx(siv_alg(key.size()), AEAD_POLICY_NONE, key);
        Bytes out(sealed.size()), back(pt.size());
        REQUIRE(aead_seal_open_v(ctx, AEAD_SEAL, nullptr, 0, bufs.data(), bufs.size(), pt.data(), pt.size(),
                                 out.data(), out.size()) == static_cast<int64_t>(out.size()));
        CHECK(out == sealed);
        REQUIRE(aead_seal_open_v(ctx, AEAD_OPEN, nullptr, 0, bufs.data(), bufs.size(), sealed.data(), sealed.size(),
                                 back.data(), back.size()) == static_cast<int64_t>(pt.size()));
        CHECK(back == pt);
        // One component more (empty), or one fewer, is another S2V input: not authentic.
        std::vector<aead_buf> extra = bufs;
        extra.push_back({nullptr, 0});
        CHECK(aead_seal_open_v(ctx, AEAD_OPEN, nullptr, 0, extra.data(), extra.size(), sealed.data(), sealed.size(),
                               back.data(), back.size()) == AEAD_ERR_AUTH);
        CHECK(aead_seal_open_v(ctx, AEAD_OPEN, nullptr, 0, bufs.data(), bufs.size() - 1, sealed.data(), sealed.size(),
                               back.data(), back.size()) == AEAD_ERR_AUTH);
        ++passed;
    }
    std::printf("ciphers/AES/SIV/openssl.txt: %zu cases: %d passed (sealed, opened; an extra or a missing component "
                "refused)\n", cases.size(), passed);
    CHECK(passed == 4);
}
