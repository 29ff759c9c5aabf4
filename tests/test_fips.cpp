// The FIPS stage (tests/fips/run.sh): OPENSSL_CONF names a configuration in which OpenSSL's FIPS provider
// (built from the pinned 3.5 source for testing; not a validated module) and the base provider are the
// only providers, with default_properties = fips=yes. Checks what docs/fips.md promises there.
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;

namespace {

struct Made {
    int rc;
    uint32_t indicator;
    std::string provider;
};

Made make(int alg, int policy, size_t tag, const char *props) {
    const Bytes key(aead_key_size(alg), 0x42);
    aead_ctx *c = nullptr;
    Made m{aead_ctx_new_ex(&c, alg, policy, key.data(), key.size(), tag, props, nullptr, 0), 0, ""};
    if (m.rc == 0) {
        m.indicator = aead_ctx_indicator(c);
        m.provider = aead_ctx_provider(c);
    }
    aead_ctx_free(c);
    return m;
}

constexpr uint32_t kAll = AEAD_IND_FIPS_PROVIDER | AEAD_IND_SEAL_APPROVED | AEAD_IND_OPEN_APPROVED;

}  // namespace

TEST_CASE("FIPS stage: the configuration is the one the stage meant", "[fips]") {
    REQUIRE(test::fips_stage());
    REQUIRE(std::getenv("OPENSSL_CONF") != nullptr);
    // MD5 is not a FIPS algorithm: with the FIPS provider as the only digest provider, it is not there.
    EVP_MD *md5 = EVP_MD_fetch(nullptr, "MD5", nullptr);
    CHECK(md5 == nullptr);
    EVP_MD_free(md5);
    std::printf("fips stage: %s\n", aead_version());
}

TEST_CASE("FIPS stage: the indicator for each policy", "[fips]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL (the configuration's default_properties)"));
        for (int alg : {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}) {
            const Made none = make(alg, AEAD_POLICY_NONE, 0, props), tls12 = make(alg, AEAD_POLICY_TLS12, 0, props),
                       tls13 = make(alg, AEAD_POLICY_TLS13, 0, props),
                       rnd = make(alg, AEAD_POLICY_RANDOM_NONCE, 0, props), trunc = make(alg, AEAD_POLICY_NONE, 12, props);
            for (const Made *m : {&none, &tls12, &tls13, &rnd, &trunc}) {
                REQUIRE(m->rc == 0);
                CHECK(m->provider.find("fips") != std::string::npos);
            }
            // An arbitrary caller nonce is never an approved seal; its opens are approved.
            CHECK(none.indicator == (AEAD_IND_FIPS_PROVIDER | AEAD_IND_OPEN_APPROVED));
            CHECK(tls12.indicator == kAll);  // IG C.H scenario 1.a
            CHECK(tls13.indicator == kAll);  // IG C.H scenario 1.a
            CHECK(rnd.indicator == kAll);    // IG C.H scenario 2: the DRBG is the FIPS provider's
            CHECK(trunc.indicator == AEAD_IND_FIPS_PROVIDER);  // a truncated tag is not marked approved
            if (alg == AEAD_AES_128_GCM && props != nullptr)
                std::printf("indicator under the FIPS provider (%s): NONE %u, TLS12 %u, TLS13 %u, RANDOM_NONCE %u, "
                            "NONE with a 12-byte tag %u (1 fips provider, 2 seal approved, 4 open approved)\n",
                            none.provider.c_str(), none.indicator, tls12.indicator, tls13.indicator, rnd.indicator,
                            trunc.indicator);
        }
        for (int policy : {AEAD_POLICY_NONE, AEAD_POLICY_TLS12, AEAD_POLICY_TLS13})
            CHECK(make(AEAD_CHACHA20_POLY1305, policy, 0, props).rc == AEAD_ERR_UNSUPPORTED);
    }
    // Not the default provider's: it is not loaded here.
    CHECK(make(AEAD_AES_128_GCM, AEAD_POLICY_NONE, 0, "provider=default").rc == AEAD_ERR_UNSUPPORTED);
}

TEST_CASE("FIPS stage: counter nonces (IG C.H scenario 3) and SSH (scenario 1.d) are approved seals", "[fips][counter]") {
    for (int alg : {AEAD_AES_128_GCM, AEAD_AES_192_GCM, AEAD_AES_256_GCM}) {
        for (int policy : {AEAD_POLICY_COUNTER, AEAD_POLICY_XOR_COUNTER, AEAD_POLICY_SSH}) {
            INFO("alg " << alg << " policy " << policy);
            if (policy == AEAD_POLICY_SSH && alg == AEAD_AES_192_GCM) {
                CHECK(make(alg, policy, 0, "fips=yes").rc == AEAD_ERR_ARG);  // RFC 5647: AES-128 and AES-256
                continue;
            }
            const Made m = make(alg, policy, 0, "fips=yes");
            REQUIRE(m.rc == 0);
            CHECK(m.provider.find("fips") != std::string::npos);
            CHECK(m.indicator == kAll);
            // The seals the indicator approves are made by the FIPS provider and open with a plain context.
            const Bytes key = test::random_bytes(aead_key_size(alg)), aad = test::random_bytes(4);
            test::Ctx c(alg, policy, key);
            REQUIRE(aead_ctx_indicator(c) == kAll);
            test::Ctx plain(alg, AEAD_POLICY_NONE, key);
            Bytes sealed(36), back(20);
            const Bytes pt = test::random_bytes(20);
            for (uint64_t n = 0; n < 3; ++n) {
                // fixed || mask XOR n, or fixed || start + n, with mask and start 9
                Bytes nonce{1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
                nonce[11] = static_cast<uint8_t>(policy == AEAD_POLICY_XOR_COUNTER ? 9 ^ n : 9 + n);
                REQUIRE(test::seal(c, nonce, aad, pt, sealed) == 36);
                CHECK(test::seal(c, nonce, aad, pt, sealed) == AEAD_ERR_NONCE_ORDER);
                REQUIRE(test::open(plain, nonce, aad, sealed, back) == 20);
                CHECK(back == pt);
            }
            if (alg == AEAD_AES_256_GCM)
                std::printf("indicator under the FIPS provider (%s): %s %u (1 fips provider, 2 seal approved, 4 open approved)\n",
                            m.provider.c_str(), policy == AEAD_POLICY_COUNTER ? "COUNTER" : policy == AEAD_POLICY_SSH ? "SSH" : "XOR_COUNTER",
                            m.indicator);
        }
    }
}

TEST_CASE("FIPS stage: seal and open agree with the oracle on the FIPS provider, from many threads", "[fips]") {
    // Whichever path the library took (copied template or re-keyed workers: the fault-injection build
    // runs this again with AEAD_TEST_NO_COPY=1 to force the re-key path), results must be the oracle's.
    for (int alg : {AEAD_AES_128_GCM, AEAD_AES_256_GCM}) {
        const Bytes key = test::random_bytes(aead_key_size(alg)), iv = test::random_bytes(12);
        test::Ctx none(alg, AEAD_POLICY_NONE, key), tls(alg, AEAD_POLICY_TLS13, key, 0, iv),
            rnd(alg, AEAD_POLICY_RANDOM_NONCE, key);
        std::atomic<uint64_t> seq{0};
        std::atomic<int> bad{0};
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&] {
                for (int i = 0; i < 200; ++i) {
                    // Sizes from the bounded draw: GCC 12 at -O3 cannot bound pt.size() (false
                    // -Walloc-size-larger-than).
                    const size_t len = test::random_below(2000);
                    const Bytes n = test::random_bytes(12), aad = test::random_bytes(5), pt = test::random_bytes(len);
                    Bytes out(len + 16), back(len), r(len + 28);
                    if (test::seal(none, n, aad, pt, out) != static_cast<int64_t>(out.size()) ||
                        out != test::evp_seal(alg, key, n, aad, pt) ||
                        test::open(none, n, aad, out, back) != static_cast<int64_t>(pt.size()) || back != pt)
                        ++bad;
                    const Bytes tn = test::tls13_nonce(iv, seq.fetch_add(1));
                    // Concurrent seals may arrive out of order: an order refusal is legitimate, nothing else.
                    const int64_t s = test::seal(tls, tn, aad, pt, out);
                    if (s != static_cast<int64_t>(out.size()) && s != AEAD_ERR_NONCE_ORDER) ++bad;
                    if (test::seal(rnd, {}, aad, pt, r) != static_cast<int64_t>(r.size()) ||
                        test::open(rnd, {}, aad, r, back) != static_cast<int64_t>(pt.size()) || back != pt)
                        ++bad;
                }
            });
        for (auto &t : ts) t.join();
        CHECK(bad == 0);
    }
}

TEST_CASE("FIPS stage: what the provider reports as iv-generated", "[fips]") {
    // OSSL_CIPHER_PARAM_AEAD_IV_GENERATED (3.4+): 1 only where the provider drew the IV itself. With an
    // IV set from outside (every libaead seal: the TLS policies check the caller's, the random policy
    // draws from the FIPS DRBG and sets it) it reads 0; docs/fips.md says why the indicator does not
    // depend on it.
    EVP_CIPHER *c = EVP_CIPHER_fetch(nullptr, "AES-128-GCM", "fips=yes");
    REQUIRE(c != nullptr);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    const Bytes key(16, 1), iv(12, 2), msg(16, 3);
    Bytes out(16);
    int n = 0;
    REQUIRE(EVP_EncryptInit_ex2(x, c, key.data(), iv.data(), nullptr) == 1);
    REQUIRE(EVP_EncryptUpdate(x, out.data(), &n, msg.data(), 16) == 1);
    unsigned int generated = 7;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint("iv-generated", &generated), OSSL_PARAM_END};
    const bool known = EVP_CIPHER_CTX_get_params(x, p) == 1 && OSSL_PARAM_modified(p);
    if (known) CHECK(generated == 0);
    std::printf("provider reports iv-generated: %s\n", known ? (generated ? "1" : "0") : "(not supported)");
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
}

TEST_CASE("FIPS stage: AES-CCM is approved; the other families are refused", "[fips][families]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL"));
        for (int alg : {AEAD_AES_128_CCM, AEAD_AES_192_CCM, AEAD_AES_256_CCM}) {
            for (const auto &[policy, tag] : {std::pair<int, size_t>{AEAD_POLICY_NONE, 0}, {AEAD_POLICY_NONE, 8},
                                              {AEAD_POLICY_TLS12, 0}, {AEAD_POLICY_TLS13, 0}}) {
                const Made m = make(alg, policy, tag, props);
                REQUIRE(m.rc == 0);
                CHECK(m.provider.find("fips") != std::string::npos);
                CHECK(m.indicator == kAll);  // SP 800-38C: no nonce-construction condition as IG C.H's
            }
        }
        for (int alg : {AEAD_AES_128_GCM_SIV, AEAD_AES_256_GCM_SIV, AEAD_AES_128_OCB, AEAD_AES_256_OCB,
                        AEAD_XCHACHA20_POLY1305, AEAD_AEGIS_128L, AEAD_AEGIS_256, AEAD_AEGIS_128X2, AEAD_AEGIS_128X4,
                        AEAD_AEGIS_256X2, AEAD_AEGIS_256X4})
            CHECK(make(alg, AEAD_POLICY_NONE, 0, props).rc == AEAD_ERR_UNSUPPORTED);
        for (int alg : {AEAD_XCHACHA20_POLY1305, AEAD_AEGIS_128L, AEAD_AEGIS_256X4})
            CHECK(make(alg, AEAD_POLICY_RANDOM_NONCE, 0, props).rc == AEAD_ERR_UNSUPPORTED);
        // AEGIS runs on libaegis, not on a provider: refused all the same, with a 32-byte tag too.
        CHECK(make(AEAD_AEGIS_256, AEAD_POLICY_NONE, 32, props).rc == AEAD_ERR_UNSUPPORTED);
    }
    // A CCM round trip on the FIPS provider, against the oracle's computation on the same provider.
    const Bytes key = test::random_bytes(16), nonce = test::random_bytes(13), aad(7, 1), pt = test::random_bytes(100);
    test::Ctx ctx(AEAD_AES_128_CCM, AEAD_POLICY_NONE, key, 8);
    Bytes out(108), back(100);
    REQUIRE(test::seal(ctx, nonce, aad, pt, out) == 108);
    REQUIRE(test::open(ctx, nonce, aad, out, back) == 100);
    CHECK(back == pt);
    out[3] ^= 1;
    CHECK(test::open(ctx, nonce, aad, out, back) == AEAD_ERR_AUTH);
}

// docs/fips.md's table of constructions (between <!-- fips-table:begin --> and <!-- fips-table:end -->) is a
// statement about the code: each row names a policy (or "every policy the algorithm takes"), algorithms,
// tag lengths and whether seals and opens are approved ("yes" / "no"), or "refused" (creation fails with
// AEAD_ERR_UNSUPPORTED). The check creates a context for every algorithm, policy and tag length the library
// takes, under "fips=yes", and compares aead_ctx_indicator with the rows: a row that differs, a row the
// library does not take, and a combination no row covers are each reported.
namespace fips_table {

constexpr std::pair<int, const char *> kAlgNames[] = {
    {AEAD_AES_128_GCM, "AES-128-GCM"},         {AEAD_AES_192_GCM, "AES-192-GCM"},
    {AEAD_AES_256_GCM, "AES-256-GCM"},         {AEAD_CHACHA20_POLY1305, "ChaCha20-Poly1305"},
    {AEAD_AES_128_CCM, "AES-128-CCM"},         {AEAD_AES_192_CCM, "AES-192-CCM"},
    {AEAD_AES_256_CCM, "AES-256-CCM"},         {AEAD_AES_128_GCM_SIV, "AES-128-GCM-SIV"},
    {AEAD_AES_192_GCM_SIV, "AES-192-GCM-SIV"}, {AEAD_AES_256_GCM_SIV, "AES-256-GCM-SIV"},
    {AEAD_AES_128_OCB, "AES-128-OCB"},         {AEAD_AES_192_OCB, "AES-192-OCB"},
    {AEAD_AES_256_OCB, "AES-256-OCB"},         {AEAD_XCHACHA20_POLY1305, "XChaCha20-Poly1305"},
    {AEAD_AES_128_SIV, "AES-128-SIV"},         {AEAD_AES_192_SIV, "AES-192-SIV"},
    {AEAD_AES_256_SIV, "AES-256-SIV"},
    {AEAD_AEGIS_128L, "AEGIS-128L"},           {AEAD_AEGIS_256, "AEGIS-256"},
    {AEAD_AEGIS_128X2, "AEGIS-128X2"},         {AEAD_AEGIS_128X4, "AEGIS-128X4"},
    {AEAD_AEGIS_256X2, "AEGIS-256X2"},         {AEAD_AEGIS_256X4, "AEGIS-256X4"},
};
constexpr std::pair<int, const char *> kPolicyNames[] = {
    {AEAD_POLICY_NONE, "NONE"},     {AEAD_POLICY_TLS12, "TLS12"},   {AEAD_POLICY_TLS13, "TLS13"},
    {AEAD_POLICY_RANDOM_NONCE, "RANDOM_NONCE"}, {AEAD_POLICY_QUIC, "QUIC"}, {AEAD_POLICY_DTLS12, "DTLS12"},
    {AEAD_POLICY_DTLS13, "DTLS13"}, {AEAD_POLICY_COUNTER, "COUNTER"}, {AEAD_POLICY_XOR_COUNTER, "XOR_COUNTER"},
    {AEAD_POLICY_SSH, "SSH"},
};
// Beyond the enums' ends, so that an algorithm or policy added to the library without a row is found.
constexpr int kAlgIdEnd = 64, kPolicyEnd = 32;
constexpr size_t kMaxTag = 32;  // AEGIS's long tag

std::string alg_name(int alg) {
    for (const auto &[id, name] : kAlgNames)
        if (id == alg) return name;
    return "algorithm " + std::to_string(alg);
}
std::string policy_name(int policy) {
    for (const auto &[id, name] : kPolicyNames)
        if (id == policy) return std::string("AEAD_POLICY_") + name;
    return "policy " + std::to_string(policy);
}
std::string what(int alg, int policy, size_t tag) {
    return alg_name(alg) + " / " + policy_name(policy) + " / tag " + std::to_string(tag);
}
std::string bits(uint32_t ind) {
    return "indicator " + std::to_string(ind) + ": seal " + ((ind & AEAD_IND_SEAL_APPROVED) ? "yes" : "no") +
           ", open " + ((ind & AEAD_IND_OPEN_APPROVED) ? "yes" : "no");
}

// What the library does with one (algorithm, policy, tag): rc 0 (with the indicator), AEAD_ERR_UNSUPPORTED,
// or (no entry) not a combination it takes.
struct Seen {
    int rc;
    uint32_t indicator;
    std::string provider;
};
using Key = std::tuple<int, int, size_t>;

// Creates the context the way its policy asks: aead_ctx_new_ex without an IV, else with a 12-byte one (QUIC
// requires it), else aead_ctx_new_dtls (the DTLS policies) with a 4-byte IV (DTLS 1.2's AES suites) or a
// 12-byte one. AEAD_ERR_ARG or AEAD_ERR_NONCE_SIZE from every way, or AEAD_ERR_TAG_SIZE: no combination.
bool try_create(int alg, int policy, size_t tag, Seen *out) {
    const Bytes key(aead_key_size(alg), 0x42), iv(12, 0x24);
    for (int way = 0; way < 4; ++way) {
        const size_t iv_len = way == 0 ? 0 : way == 2 ? 4 : 12;
        aead_ctx *c = nullptr;
        const int rc = way < 2 ? aead_ctx_new_ex(&c, alg, policy, key.data(), key.size(), tag, "fips=yes",
                                                 iv_len ? iv.data() : nullptr, iv_len)
                               : aead_ctx_new_dtls(&c, alg, policy, key.data(), key.size(), tag, "fips=yes",
                                                   iv.data(), iv_len, 0, 0);
        if (rc == AEAD_ERR_ARG || rc == AEAD_ERR_NONCE_SIZE) continue;
        if (rc == AEAD_ERR_TAG_SIZE) return false;
        *out = {rc, rc == 0 ? aead_ctx_indicator(c) : 0, rc == 0 ? aead_ctx_provider(c) : ""};
        aead_ctx_free(c);
        return true;
    }
    return false;
}

// Every combination the library takes, made once per process.
const std::map<Key, Seen> &observed() {
    static const std::map<Key, Seen> seen = [] {
        std::map<Key, Seen> m;
        for (int alg = 0; alg < kAlgIdEnd; ++alg)
            for (int policy = 0; policy < kPolicyEnd; ++policy)
                for (size_t tag = 1; tag <= kMaxTag; ++tag)
                    if (Seen s{}; try_create(alg, policy, tag, &s)) m.emplace(Key{alg, policy, tag}, s);
        return m;
    }();
    return seen;
}

std::string trim(const std::string &s) {  // white space, and Markdown's ` and *
    size_t b = 0, e = s.size();
    auto junk = [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) || ch == '`' || ch == '*'; };
    while (b < e && junk(s[b])) ++b;
    while (e > b && junk(s[e - 1])) --e;
    return s.substr(b, e - b);
}
std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, sep);) out.push_back(trim(part));
    return out;
}
std::string lower(std::string s) {
    for (char &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

struct Row {
    std::string text;
    std::vector<int> algs, policies;  // policies empty: every policy the algorithm takes
    std::vector<size_t> tags;
    bool refused = false, seal = false, open = false;
};

// "AES-128/192/256-GCM, ChaCha20-Poly1305" -> the algorithms; false on a name the library does not have.
bool parse_algs(const std::string &cell, std::vector<int> *out) {
    for (const std::string &item : split(cell, ',')) {
        std::vector<std::string> names{item};
        if (item.rfind("AES-", 0) == 0 && item.find('/') != std::string::npos) {
            const size_t dash = item.find('-', 4);
            if (dash == std::string::npos) return false;
            names.clear();
            for (const std::string &size : split(item.substr(4, dash - 4), '/'))
                names.push_back("AES-" + size + item.substr(dash));
        }
        for (const std::string &n : names) {
            int id = 0;
            for (const auto &[alg, name] : kAlgNames)
                if (n == name) id = alg;
            if (id == 0) return false;
            out->push_back(id);
        }
    }
    return !out->empty();
}

// "yes" / "no" / "refused", read from the cell's first word.
bool parse_verdict(const std::string &cell, std::string *out) {
    std::string word;
    for (char ch : lower(cell)) {
        if (!std::isalpha(static_cast<unsigned char>(ch))) break;
        word += ch;
    }
    *out = word;
    return word == "yes" || word == "no" || word == "refused";
}

// The rows between the markers; a problem for each line that is not a row as described above.
std::vector<Row> parse(const std::string &doc, std::vector<std::string> *problems) {
    const std::string begin = "<!-- fips-table:begin -->", end = "<!-- fips-table:end -->";
    const size_t b = doc.find(begin), e = doc.find(end);
    if (b == std::string::npos || e == std::string::npos || e < b || doc.find(begin, b + 1) != std::string::npos) {
        problems->push_back("docs/fips.md: no single " + begin + " ... " + end + " section");
        return {};
    }
    std::vector<Row> rows;
    std::stringstream in(doc.substr(b + begin.size(), e - b - begin.size()));
    bool header = true;
    for (std::string line; std::getline(in, line);) {
        if (trim(line).empty()) continue;
        if (trim(line)[0] != '|') {
            problems->push_back("table line is not a table row: " + line);
            continue;
        }
        std::vector<std::string> cells = split(trim(line).substr(1), '|');
        if (header) {  // the columns the check reads, in this order
            header = false;
            const char *want[] = {"policy", "algorithm", "tag", "seal", "open"};
            for (size_t i = 0; i < 5; ++i)
                if (cells.size() < 5 || lower(cells[i]).rfind(want[i], 0) != 0)
                    problems->push_back("table header: column " + std::to_string(i + 1) + " must begin with \"" +
                                        want[i] + "\": " + line);
            continue;
        }
        if (cells.size() >= 1 && cells[0].find_first_not_of("-: ") == std::string::npos) continue;  // |---|
        Row r;
        r.text = trim(line);
        std::string seal, open;
        bool ok = cells.size() >= 5 && parse_algs(cells[1], &r.algs) && parse_verdict(cells[3], &seal) &&
                  parse_verdict(cells[4], &open) && (seal == "refused") == (open == "refused");
        if (ok) {
            const std::string p = cells[0].rfind("AEAD_POLICY_", 0) == 0 ? cells[0].substr(12) : cells[0];
            for (const auto &[id, name] : kPolicyNames)
                if (p == name) r.policies.push_back(id);
            ok = !r.policies.empty() || lower(p).rfind("every policy", 0) == 0;
            for (const std::string &t : split(cells[2], ',')) {
                ok = ok && !t.empty() && t.size() <= 2 && t.find_first_not_of("0123456789") == std::string::npos;
                if (ok) r.tags.push_back(std::stoul(t));
            }
        }
        if (!ok) {
            problems->push_back("table row not understood (policy | algorithms | tag bytes | seal | open): " + line);
            continue;
        }
        r.refused = seal == "refused";
        r.seal = seal == "yes";
        r.open = open == "yes";
        rows.push_back(r);
    }
    if (rows.empty()) problems->push_back("docs/fips.md: the table has no rows");
    return rows;
}

// Every difference between the table in doc and what the library does; none when they agree.
std::vector<std::string> compare(const std::string &doc, size_t *checked = nullptr) {
    std::vector<std::string> problems;
    const std::vector<Row> rows = parse(doc, &problems);
    const std::map<Key, Seen> &seen = observed();
    std::map<Key, const Row *> claimed;
    for (const Row &r : rows)
        for (int alg : r.algs)
            for (size_t tag : r.tags) {
                std::vector<int> policies = r.policies;
                if (policies.empty())
                    for (int p = 0; p < kPolicyEnd; ++p)
                        if (seen.count({alg, p, tag})) policies.push_back(p);
                if (policies.empty())
                    problems.push_back("row \"" + r.text + "\": " + alg_name(alg) + " with tag " + std::to_string(tag) +
                                       " is taken under no policy");
                for (int policy : policies) {
                    const Key k{alg, policy, tag};
                    if (const auto [it, fresh] = claimed.emplace(k, &r); !fresh) {
                        problems.push_back(what(alg, policy, tag) + " is in two rows: \"" + it->second->text +
                                           "\" and \"" + r.text + "\"");
                        continue;
                    }
                    const auto s = seen.find(k);
                    const std::string row = "row \"" + r.text + "\": " + what(alg, policy, tag);
                    if (s == seen.end()) {
                        problems.push_back(row + " is not a combination the library takes (creation: AEAD_ERR_ARG, "
                                                 "_NONCE_SIZE or _TAG_SIZE)");
                    } else if (r.refused) {
                        if (s->second.rc != AEAD_ERR_UNSUPPORTED)
                            problems.push_back(row + ": the table says refused; the library creates it (" +
                                               bits(s->second.indicator) + ")");
                    } else if (s->second.rc != 0) {
                        problems.push_back(row + ": the library refuses it: " + aead_strerror(s->second.rc));
                    } else if (!(s->second.indicator & AEAD_IND_FIPS_PROVIDER) ||
                               s->second.provider.find("fips") == std::string::npos) {
                        problems.push_back(row + ": not served by the FIPS provider (provider \"" + s->second.provider +
                                           "\", " + bits(s->second.indicator) + ")");
                    } else if (((s->second.indicator & AEAD_IND_SEAL_APPROVED) != 0) != r.seal ||
                               ((s->second.indicator & AEAD_IND_OPEN_APPROVED) != 0) != r.open) {
                        problems.push_back(row + ": the table says seal " + (r.seal ? "yes" : "no") + ", open " +
                                           (r.open ? "yes" : "no") + "; the library's " + bits(s->second.indicator));
                    }
                }
            }
    for (const auto &[k, s] : seen)
        if (!claimed.count(k))
            problems.push_back("no row for " + what(std::get<0>(k), std::get<1>(k), std::get<2>(k)) +
                               ": the library " + (s.rc == 0 ? "creates it (" + bits(s.indicator) + ")"
                                                             : std::string("refuses it: ") + aead_strerror(s.rc)));
    if (checked != nullptr) *checked = claimed.size();
    return problems;
}

std::string read_doc() {
    const std::string path = std::string(test::aead_test_source_root) + "/docs/fips.md";
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    if (!f || text.str().empty()) throw std::runtime_error("cannot read " + path);
    return text.str();
}

}  // namespace fips_table

TEST_CASE("FIPS stage: docs/fips.md's table of constructions is what the indicator says", "[fips][table]") {
    size_t checked = 0;
    const std::vector<std::string> problems = fips_table::compare(fips_table::read_doc(), &checked);
    for (const std::string &p : problems) FAIL_CHECK("docs/fips.md: " << p);
    CHECK(checked > 0);
    if (problems.empty())
        std::printf("docs/fips.md's table: %zu (algorithm, policy, tag) combinations, every one as "
                    "aead_ctx_indicator reports it\n", checked);
}

TEST_CASE("FIPS stage: the table check reports a wrong row, a row the library lacks and a missing row",
          "[fips][table]") {
    const std::string doc = fips_table::read_doc();
    std::string bad = doc;
    auto edit = [&bad](const std::string &from, const std::string &to) {
        const size_t at = bad.find(from);
        REQUIRE(at != std::string::npos);
        bad.replace(at, from.size(), to);
    };
    // A row whose seal is said approved but is not, and a row the library does not take (AES-192 in SSH),
    // put in place of the SSH row, which is then missing.
    const std::string none = "| `AEAD_POLICY_NONE` | AES-128/192/256-GCM | 16 | **no** |";
    edit(none, "| `AEAD_POLICY_NONE` | AES-128/192/256-GCM | 16 | yes |");
    const size_t ssh = bad.find("| `AEAD_POLICY_SSH` |");
    REQUIRE(ssh != std::string::npos);
    bad.replace(ssh, bad.find('\n', ssh) - ssh, "| `AEAD_POLICY_SSH` | AES-192-GCM | 16 | yes | yes |");
    const std::vector<std::string> problems = fips_table::compare(bad);
    std::string all;
    for (const std::string &p : problems) all += p + "\n";
    INFO("reported:\n" << all);
    auto reported = [&problems](const std::string &a, const std::string &b) {
        for (const std::string &p : problems)
            if (p.find(a) != std::string::npos && p.find(b) != std::string::npos) return true;
        return false;
    };
    for (const char *alg : {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"})
        CHECK(reported(std::string(alg) + " / AEAD_POLICY_NONE / tag 16: the table says seal yes", "seal no"));
    CHECK(reported("AES-192-GCM / AEAD_POLICY_SSH / tag 16 is not a combination", "row"));
    CHECK(reported("no row for AES-128-GCM / AEAD_POLICY_SSH / tag 16", "creates it"));
    CHECK(reported("no row for AES-256-GCM / AEAD_POLICY_SSH / tag 16", "creates it"));
    CHECK(problems.size() == 6);
}

// An HPKE sender and recipient under the FIPS provider: the indicator both report, equal exports, and
// (unless export-only) a message sealed and opened; then both freed.
namespace {
void check_hpke_pair(aead_hpke *tx, aead_hpke *rx, int aead, uint32_t want) {
    CHECK(aead_hpke_indicator(tx) == want);
    CHECK(aead_hpke_indicator(rx) == want);
    Bytes a(32), b(32);
    REQUIRE(aead_hpke_export(tx, nullptr, 0, a.data(), a.size()) == 0);
    REQUIRE(aead_hpke_export(rx, nullptr, 0, b.data(), b.size()) == 0);
    CHECK(a == b);
    if (aead != AEAD_HPKE_AEAD_EXPORT_ONLY) {
        const Bytes pt = test::random_bytes(40);
        Bytes ct(56), back(40);
        REQUIRE(aead_hpke_seal(tx, nullptr, 0, pt.data(), pt.size(), ct.data(), ct.size(), nullptr) == 56);
        REQUIRE(aead_hpke_open(rx, nullptr, 0, ct.data(), ct.size(), back.data(), back.size()) == 40);
        CHECK(back == pt);
    }
    aead_hpke_free(tx);
    aead_hpke_free(rx);
}
}  // namespace

TEST_CASE("FIPS stage: HPKE with the NIST-curve KEMs, HKDF and AES-GCM works and is approved; X25519, X448 and "
          "ChaCha20-Poly1305 are refused", "[fips][hpke]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL"));
        for (int kem : {AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KEM_P384_SHA384, AEAD_HPKE_KEM_P521_SHA512,
                        AEAD_HPKE_KEM_X25519_SHA256, AEAD_HPKE_KEM_X448_SHA512}) {
            const bool nist = kem != AEAD_HPKE_KEM_X25519_SHA256 && kem != AEAD_HPKE_KEM_X448_SHA512;
            Bytes sk(aead_hpke_private_key_size(kem)), pk(aead_hpke_enc_size(kem)), enc(pk.size());
            const int gen = aead_hpke_generate_keypair(kem, sk.data(), sk.size(), pk.data(), pk.size(), props);
            if (!nist) {
                // The keys may exist in the provider; HPKE under a FIPS configuration refuses the KEM.
                aead_hpke_params p{sizeof p, AEAD_HPKE_MODE_BASE, kem, AEAD_HPKE_KDF_HKDF_SHA256,
                                   AEAD_HPKE_AEAD_AES_128_GCM, nullptr, 0, nullptr, 0, nullptr, 0, props, 0, nullptr, 0};
                aead_hpke *h = nullptr;
                const Bytes any_pk(pk.size(), 9);
                CHECK(aead_hpke_setup_sender(&h, &p, gen == 0 ? pk.data() : any_pk.data(), pk.size(), nullptr, 0,
                                             enc.data(), enc.size()) == AEAD_ERR_UNSUPPORTED);
                CHECK(h == nullptr);
                continue;
            }
            REQUIRE(gen == 0);
            for (int kdf : {AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_KDF_HKDF_SHA384, AEAD_HPKE_KDF_HKDF_SHA512})
                for (int aead : {AEAD_HPKE_AEAD_AES_128_GCM, AEAD_HPKE_AEAD_AES_256_GCM, AEAD_HPKE_AEAD_CHACHA20_POLY1305,
                                 AEAD_HPKE_AEAD_EXPORT_ONLY}) {
                    INFO("kem " << kem << " kdf " << kdf << " aead " << aead);
                    aead_hpke_params p{sizeof p, AEAD_HPKE_MODE_BASE, kem, kdf, aead, nullptr, 0, nullptr, 0,
                                       nullptr, 0, props, 0, nullptr, 0};
                    aead_hpke *tx = nullptr, *rx = nullptr;
                    const int rc = aead_hpke_setup_sender(&tx, &p, pk.data(), pk.size(), nullptr, 0, enc.data(), enc.size());
                    if (aead == AEAD_HPKE_AEAD_CHACHA20_POLY1305) {
                        CHECK(rc == AEAD_ERR_UNSUPPORTED);
                        continue;
                    }
                    REQUIRE(rc == 0);
                    REQUIRE(aead_hpke_setup_recipient(&rx, &p, enc.data(), enc.size(), sk.data(), sk.size(), nullptr, 0) == 0);
                    check_hpke_pair(tx, rx, aead, aead == AEAD_HPKE_AEAD_EXPORT_ONLY ? uint32_t{AEAD_IND_FIPS_PROVIDER} : kAll);
                }
        }
    }
}

TEST_CASE("FIPS stage: HPKE with ML-KEM (FIPS 203) and HKDF is approved; the hybrids and the SHAKE KDFs are the "
          "FIPS provider's but not approved; X-Wing and TurboSHAKE are refused", "[fips][hpke]") {
    const char *props = "fips=yes";
    struct Want {
        int kem, kdf, aead;
        uint32_t indicator;  // 0: refused with AEAD_ERR_UNSUPPORTED
    };
    const Want wants[] = {
        {AEAD_HPKE_KEM_MLKEM512, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, kAll},
        {AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, kAll},
        {AEAD_HPKE_KEM_MLKEM1024, AEAD_HPKE_KDF_HKDF_SHA384, AEAD_HPKE_AEAD_AES_256_GCM, kAll},
        {AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_EXPORT_ONLY, AEAD_IND_FIPS_PROVIDER},
        {AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_SHAKE256, AEAD_HPKE_AEAD_AES_128_GCM, AEAD_IND_FIPS_PROVIDER},
        {AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_CHACHA20_POLY1305, 0},
        {AEAD_HPKE_KEM_MLKEM768_P256, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, AEAD_IND_FIPS_PROVIDER},
        {AEAD_HPKE_KEM_MLKEM1024_P384, AEAD_HPKE_KDF_HKDF_SHA384, AEAD_HPKE_AEAD_AES_256_GCM, AEAD_IND_FIPS_PROVIDER},
        {AEAD_HPKE_KEM_MLKEM768_X25519, AEAD_HPKE_KDF_HKDF_SHA256, AEAD_HPKE_AEAD_AES_128_GCM, 0},
        {AEAD_HPKE_KEM_P256_SHA256, AEAD_HPKE_KDF_SHAKE128, AEAD_HPKE_AEAD_AES_128_GCM, AEAD_IND_FIPS_PROVIDER},
        {AEAD_HPKE_KEM_MLKEM768, AEAD_HPKE_KDF_TURBOSHAKE128, AEAD_HPKE_AEAD_AES_128_GCM, 0},
    };
    // The test provider is OpenSSL 3.5's, which has ML-KEM: on a 3.5 core every ML-KEM call works. (On the
    // system 3.0 core the provider's ML-KEM is fetched by name too; what that core makes of it is checked,
    // not assumed.)
    Bytes sk(64), pk(aead_hpke_public_key_size(AEAD_HPKE_KEM_MLKEM768));
    const bool have = aead_hpke_generate_keypair(AEAD_HPKE_KEM_MLKEM768, sk.data(), sk.size(), pk.data(), pk.size(),
                                                 props) == 0;
    std::printf("fips: ML-KEM under the FIPS provider on %s: %s\n", aead_version(), have ? "available" : "refused");
    if (OpenSSL_version_num() >= 0x30500000L) REQUIRE(have);
    for (const Want &w : wants) {
        INFO("kem " << w.kem << " kdf " << w.kdf << " aead " << w.aead);
        const bool pq = w.kem >= AEAD_HPKE_KEM_MLKEM512;
        Bytes skr(aead_hpke_private_key_size(w.kem)), pkr(aead_hpke_public_key_size(w.kem)), enc(aead_hpke_enc_size(w.kem));
        const int gen = aead_hpke_generate_keypair(w.kem, skr.data(), skr.size(), pkr.data(), pkr.size(), props);
        aead_hpke_params p{sizeof p, AEAD_HPKE_MODE_BASE, w.kem, w.kdf, w.aead, nullptr, 0, nullptr, 0,
                           nullptr, 0, props, 0, nullptr, 0};
        aead_hpke *tx = nullptr, *rx = nullptr;
        const int rc = aead_hpke_setup_sender(&tx, &p, pkr.data(), pkr.size(), nullptr, 0, enc.data(), enc.size());
        if (w.indicator == 0 || (pq && !have)) {
            CHECK(rc == AEAD_ERR_UNSUPPORTED);
            CHECK(tx == nullptr);
            continue;
        }
        REQUIRE(gen == 0);
        REQUIRE(rc == 0);
        REQUIRE(aead_hpke_setup_recipient(&rx, &p, enc.data(), enc.size(), skr.data(), skr.size(), nullptr, 0) == 0);
        check_hpke_pair(tx, rx, w.aead, w.indicator);
    }
}

TEST_CASE("FIPS stage: streams of Tink AES-GCM-HKDF (SHA-1, SHA-256, SHA-512) and RFC 8188 work; age's "
          "ChaCha20-Poly1305 is refused", "[fips][stream]") {
    for (const char *props : {"fips=yes", static_cast<const char *>(nullptr)}) {
        INFO("properties " << (props ? props : "NULL"));
        const Bytes key = test::random_bytes(32);
        struct Case {
            int format, hash;
            size_t key_len, key_size;
            uint32_t segment;
        } const cases[] = {{AEAD_STREAM_TINK_AES_GCM_HKDF, AEAD_STREAM_SHA1, 32, 16, 256},
                           {AEAD_STREAM_TINK_AES_GCM_HKDF, AEAD_STREAM_SHA256, 32, 32, 256},
                           {AEAD_STREAM_TINK_AES_GCM_HKDF, AEAD_STREAM_SHA512, 32, 16, 256},
                           {AEAD_STREAM_RFC8188, 0, 16, 0, 100},
                           {AEAD_STREAM_AGE, 0, 16, 0, 0}};
        for (const Case &c : cases) {
            INFO("format " << c.format << " hash " << c.hash);
            aead_stream_params p{};
            p.size = sizeof p;
            p.format = c.format;
            p.key = key.data();
            p.key_len = c.key_len;
            p.key_size = c.key_size;
            p.hkdf_hash = c.hash;
            p.segment_size = c.segment;
            p.properties = props;
            aead_stream *w = nullptr, *r = nullptr;
            Bytes header(AEAD_STREAM_MAX_HEADER);
            size_t hl = 0;
            const int rc = aead_stream_writer_new(&w, &p, header.data(), header.size(), &hl);
            if (c.format == AEAD_STREAM_AGE) {
                CHECK(rc == AEAD_ERR_UNSUPPORTED);
                CHECK(w == nullptr);
                continue;
            }
            REQUIRE(rc == 0);
            const Bytes pt = test::random_bytes(60);
            Bytes seg(pt.size() + 17);
            const int64_t n = aead_stream_seal(w, pt.data(), pt.size(), 0, 1, seg.data(), seg.size());
            REQUIRE(n > 0);
            REQUIRE(aead_stream_reader_new(&r, &p, header.data(), hl, &hl) == 0);
            Bytes out(seg.size());
            CHECK(aead_stream_open(r, seg.data(), static_cast<size_t>(n), 1, out.data(), out.size()) ==
                  static_cast<int64_t>(pt.size()));
            CHECK(Bytes(out.begin(), out.begin() + static_cast<long>(pt.size())) == pt);
            aead_stream_free(w);
            aead_stream_free(r);
        }
    }
}
