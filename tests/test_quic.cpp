// QUIC packet protection (ABI 1.2): AEAD_POLICY_QUIC, header protection, one-call protect / unprotect,
// against RFC 9001 Appendix A byte for byte and against a direct EVP computation on random packets.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <set>
#include <thread>
#include <tuple>

#include "catch_compat.h"
#include "support.h"

using test::Bytes;
using test::from_hex;

namespace {

using test::Hp;

struct Keys {
    int alg;
    Bytes key, iv, hp;
};

// RFC 9001 A.1: the Initial keys for DCID 0x8394c8f03e515708 (client, then server), and A.5's 1-RTT keys.
const Keys kClientInitial{AEAD_AES_128_GCM, from_hex("1f369613dd76d5467730efcbe3b1a22d"),
                          from_hex("fa044b2f42a3fd3b46fb255c"), from_hex("9f50449e04a0e810283a1e9933adedd2")};
const Keys kServerInitial{AEAD_AES_128_GCM, from_hex("cf3a5331653c364c88f0f379b6067e37"),
                          from_hex("0ac1493ca1905853b0bba03e"), from_hex("c206b8d9b9f0f37644430b490eeaa314")};
const Keys kChaCha{AEAD_CHACHA20_POLY1305, from_hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8"),
                   from_hex("e0459b3474bdd0e44a41c144"),
                   from_hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")};

// A.2: the client Initial's CRYPTO frame (ClientHello), padded to a 1162-byte payload.
const char *kClientHelloFrame =
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e86804fe3a47f06a2b69484c00000413011302010000c000"
    "000010000e00000b6578616d706c652e636f6dff01000100000a00080006001d0017001800100007000504616c706e0005000501000000"
    "00003300260024001d00209370b2c9caa47fbabaf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b0003020304000d0010000e"
    "0403050306030203080408050806002d00020101001c00024001003900320408ffffffffffffffff05048000ffff07048000ffff080110"
    "0104800075300901100f088394c8f03e51570806048000ffff";
const char *kClientInitialProtected =
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27"
    "cd449f63300099f3991c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c8eb7539ec4d4905fed1bee1fc8aa"
    "fba17c750e2c7ace01e6005f80fcb7df621230c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5457afd84d0"
    "5dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c2084dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948"
    "838a3aec4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc"
    "3dd60bc8e30c5c4287e53805db059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c7b4378e846d29f37ed7b"
    "4ea9ec5d82e7961b7f25a9323851f681d582363aa5f89937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556be"
    "52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c7468449a13d8e3b95811a198f3491de3e7fe942b330407abf8"
    "2a4ed7c1b311663ac69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00f064c99e3dd97911d39fe9c5d0b23a"
    "229a234cb36186c4819e8b9c5927726632291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe5896425c5bac4aee8"
    "2e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f5"
    "8891ffef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198e3fc433f9f2541010ae17c1bf202580f6047472f"
    "b36857fe843b19f5984009ddc324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73203a4a13e96f5432ec0fd4"
    "a1ee65accdd5e3904df54c1da510b0ff20dcc0c77fcb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450efc60"
    "ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03adea2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f"
    "296bfb5e72404790a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2162f40a29f0c3c8745c0f50fba3852e5"
    "66d44575c29d39a03f0cda721984b6f440591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca06948109f23f350"
    "db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f"
    "76f0be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f0940054da48781893a7e49ad5aff4af300cd804a6b6279a"
    "b3ff3afb64491c85194aab760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9f96f3ca9ec1dde434da7d2d3"
    "92b905ddf3d1f9af93d1af5950bd493f5aa731b4056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd46840647e78bf"
    "e706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241e221af44860018ab0856972e194cd934";

struct Vector {
    const char *name;
    const Keys &keys;
    Bytes header;  // unprotected, packet-number field included
    Bytes payload;
    uint64_t pn;
    Bytes expected;
};

std::vector<Vector> rfc_vectors() {
    Bytes hello = from_hex(kClientHelloFrame);
    hello.resize(1162, 0);
    std::vector<Vector> v;
    {
        v.push_back({"A.2 client Initial", kClientInitial, from_hex("c300000001088394c8f03e5157080000449e00000002"), hello,
                     2, from_hex(kClientInitialProtected)});
        v.push_back({"A.3 server Initial", kServerInitial, from_hex("c1000000010008f067a5502a4262b50040750001"),
                     from_hex("02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf73988cfc79825df566dc543"
                              "0b9a045a1200130100002e00330024001d00209d3c940d89690b84d08a60993c144eca684d1081287c834d"
                              "5311bcf32bb9da1a002b00020304"),
                     1,
                     from_hex("cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a5816b6394100f37a1c697975"
                              "54780bb38cc5a99f5ede4cf73c3ec2493a1839b3dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded"
                              "74b562bfb19fb84022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc42158407dd0"
                              "74ee")});
    }
    if (!test::fips_stage())
        v.push_back({"A.5 ChaCha20-Poly1305 short header", kChaCha, from_hex("4200bff4"), from_hex("01"), 654360564,
                     from_hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb")});
    return v;
}

struct Quic {
    test::Ctx ctx;
    Hp hp;
    explicit Quic(const Keys &k) : ctx(k.alg, AEAD_POLICY_QUIC, k.key, 0, k.iv), hp(k.alg, k.hp) {}
};

// The header's packet-number length from its (unprotected) first byte.
size_t pn_len_of(const Bytes &header) { return (header[0] & 3u) + 1; }

// The oracle's header protection: a direct EVP AES-ECB / ChaCha20 computation of the 5-byte mask.
Bytes evp_mask(int alg, const Bytes &hp_key, const uint8_t *sample) {
    const char *name = alg == AEAD_CHACHA20_POLY1305 ? "ChaCha20" : hp_key.size() == 16 ? "AES-128-ECB" : "AES-256-ECB";
    std::unique_ptr<EVP_CIPHER, decltype(&EVP_CIPHER_free)> cipher(EVP_CIPHER_fetch(nullptr, name, nullptr),
                                                                   EVP_CIPHER_free);
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> c(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    uint8_t out[16];
    int n = 0;
    const uint8_t zeros[16] = {};
    const bool chacha = alg == AEAD_CHACHA20_POLY1305;
    if (!cipher || !c || EVP_EncryptInit_ex2(c.get(), cipher.get(), hp_key.data(), chacha ? sample : nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_set_padding(c.get(), 0) != 1 ||
        EVP_EncryptUpdate(c.get(), out, &n, chacha ? zeros : sample, 16) != 1)
        throw std::runtime_error("oracle mask");
    return Bytes(out, out + 5);
}

// The whole packet protection computed by the oracle (EVP seal, then the mask by hand).
Bytes oracle_protect(const Keys &k, const Bytes &header, const Bytes &payload, uint64_t pn) {
    const Bytes nonce = test::tls13_nonce(k.iv, pn);
    Bytes packet = header;
    const size_t pn_len = pn_len_of(header), pn_offset = header.size() - pn_len;
    for (size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] = static_cast<uint8_t>(pn >> (8 * (pn_len - 1 - i)));
    const Bytes ct = test::evp_seal(k.alg, k.key, nonce, packet, payload);
    packet.insert(packet.end(), ct.begin(), ct.end());
    const Bytes mask = evp_mask(k.alg, k.hp, packet.data() + pn_offset + 4);
    packet[0] ^= mask[0] & ((packet[0] & 0x80) ? 0x0f : 0x1f);
    for (size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] ^= mask[1 + i];
    return packet;
}

Keys random_keys(int alg) {
    const size_t key_len = alg == AEAD_AES_128_GCM ? 16 : 32;
    return {alg, test::random_bytes(key_len), test::random_bytes(12), test::random_bytes(key_len)};
}

std::vector<int> quic_algs() {
    std::vector<int> v{AEAD_AES_128_GCM, AEAD_AES_256_GCM};
    if (!test::fips_stage()) v.push_back(AEAD_CHACHA20_POLY1305);
    return v;
}

}  // namespace

TEST_CASE("RFC 9001 Appendix A: protect and unprotect byte for byte", "[quic]") {
    for (const Vector &v : rfc_vectors()) {
        INFO(v.name);
        Quic q(v.keys);
        Bytes packet = v.header;
        packet.insert(packet.end(), v.payload.begin(), v.payload.end());
        packet.resize(packet.size() + 16);
        const int64_t n = aead_quic_protect(q.ctx, q.hp, v.pn, packet.data(), v.header.size(), v.payload.size(),
                                            packet.size());
        REQUIRE(n == static_cast<int64_t>(v.expected.size()));
        CHECK(packet == v.expected);

        // The receiver: a fresh context of the same keys, the largest packet number seen just below.
        Quic r(v.keys);
        uint64_t pn = 0;
        const size_t pn_offset = v.header.size() - pn_len_of(v.header);
        const int64_t m = aead_quic_unprotect(r.ctx, r.hp, v.pn - 1, packet.data(), pn_offset, packet.size(), &pn);
        REQUIRE(m == static_cast<int64_t>(v.payload.size()));
        CHECK(pn == v.pn);
        CHECK(Bytes(packet.begin(), packet.begin() + static_cast<long>(v.header.size())) == v.header);
        CHECK(Bytes(packet.begin() + static_cast<long>(v.header.size()), packet.begin() + static_cast<long>(v.header.size() + v.payload.size())) == v.payload);
    }
}

TEST_CASE("RFC 9001 A.2 header protection alone: sample and mask", "[quic]") {
    Hp hp(AEAD_AES_128_GCM, kClientInitial.hp);
    const Bytes sample = from_hex("d1b1c98dd7689fb8ec11d242b123dc9b");
    uint8_t mask[8] = {};
    CHECK(aead_hp_mask(hp, sample.data(), sample.size(), mask, sizeof mask) == 5);
    CHECK(Bytes(mask, mask + 5) == from_hex("437b9aec36"));
    CHECK(mask[5] == 0);  // exactly 5 bytes written
    uint8_t small[4] = {9, 9, 9, 9};
    CHECK(aead_hp_mask(hp, sample.data(), sample.size(), small, sizeof small) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(Bytes(small, small + 4) == Bytes(4, 9));
    CHECK(aead_hp_mask(hp, sample.data(), 15, mask, sizeof mask) == AEAD_ERR_ARG);
    CHECK(aead_hp_mask(nullptr, sample.data(), 16, mask, sizeof mask) == AEAD_ERR_ARG);
    CHECK(aead_hp_mask(hp, nullptr, 16, mask, sizeof mask) == AEAD_ERR_ARG);
}

// Header-protection keys for AES-CCM (DTLS 1.3's TLS_AES_128_CCM_SHA256) mask with AES-ECB, as AES-GCM's do.
TEST_CASE("header protection keys of AES-CCM suites mask as those of AES-GCM with the same key", "[quic]") {
    const Bytes k16 = test::random_bytes(16), k32 = test::random_bytes(32), sample = test::random_bytes(16);
    for (const auto &[ccm, gcm, key] : {std::tuple{AEAD_AES_128_CCM, AEAD_AES_128_GCM, k16},
                                        std::tuple{AEAD_AES_256_CCM, AEAD_AES_256_GCM, k32}}) {
        Hp a(ccm, key), b(gcm, key);
        uint8_t ma[5] = {}, mb[5] = {1};
        REQUIRE(aead_hp_mask(a, sample.data(), 16, ma, 5) == 5);
        REQUIRE(aead_hp_mask(b, sample.data(), 16, mb, 5) == 5);
        CHECK(Bytes(ma, ma + 5) == Bytes(mb, mb + 5));
    }
}

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" long aead_test_fail_call(long n) noexcept;  // fault builds only

TEST_CASE("fault build: each failed libcrypto call of a mask is a code with the mask zeroed", "[quic]") {
    const Bytes sample = test::random_bytes(16);
    for (const int alg : {int{AEAD_AES_128_GCM}, int{AEAD_CHACHA20_POLY1305}}) {
        Hp hp(alg, test::random_bytes(alg == AEAD_AES_128_GCM ? 16 : 32));
        uint8_t want[5] = {};
        REQUIRE(aead_hp_mask(hp, sample.data(), 16, want, 5) == 5);
        long failures = 0;
        for (long n = 1;; ++n) {
            uint8_t mask[5] = {7, 7, 7, 7, 7};
            aead_test_fail_call(n);
            const int64_t rc = aead_hp_mask(hp, sample.data(), 16, mask, 5);
            if (aead_test_fail_call(0) < n) {
                CHECK(rc == 5);
                CHECK(Bytes(mask, mask + 5) == Bytes(want, want + 5));
                break;
            }
            CHECK((rc == AEAD_ERR_CRYPTO || rc == AEAD_ERR_NOMEM));
            CHECK(Bytes(mask, mask + 5) == Bytes(5, 0));
            ++failures;
        }
        CHECK(failures >= 2);
    }
}
#endif

TEST_CASE("random packets: one call equals the two-call path and the EVP oracle", "[quic]") {
    for (int alg : quic_algs()) {
        const Keys k = random_keys(alg);
        Quic sender(k), receiver(k);
        Quic two(k);  // the two-call path's own context (its packet numbers advance separately)
        uint64_t pn = test::random_below(1000);
        for (int i = 0; i < 300; ++i) {
            pn += 1 + test::random_below(3);
            const size_t pn_len = 1 + test::random_below(4);
            const bool long_header = test::random_below(2) == 1;
            const size_t header_len = pn_len + 1 + test::random_below(40);
            const size_t payload_len = std::max<size_t>(4 - std::min<size_t>(pn_len, 4), test::random_below(1400));
            Bytes header = test::random_bytes(header_len);
            header[0] = static_cast<uint8_t>((long_header ? 0xc0 : 0x40) | (header[0] & 0x3c) | (pn_len - 1));
            const Bytes payload = test::random_bytes(payload_len);
            INFO("alg " << alg << " pn " << pn << " pn_len " << pn_len << " header " << header_len << " payload "
                        << payload_len);
            const Bytes expected = oracle_protect(k, header, payload, pn);

            Bytes packet = header;
            packet.insert(packet.end(), payload.begin(), payload.end());
            packet.resize(packet.size() + 16);
            REQUIRE(aead_quic_protect(sender.ctx, sender.hp, pn, packet.data(), header_len, payload_len,
                                      packet.size()) == static_cast<int64_t>(packet.size()));
            REQUIRE(packet == expected);

            // The two-call path: seal with the header as AAD, then mask from aead_hp_mask.
            Bytes two_packet = header;
            const size_t pn_offset = header_len - pn_len;
            for (size_t b = 0; b < pn_len; ++b)
                two_packet[pn_offset + b] = static_cast<uint8_t>(pn >> (8 * (pn_len - 1 - b)));
            Bytes ct(payload_len + 16);
            const Bytes nonce = test::tls13_nonce(k.iv, pn);
            REQUIRE(test::seal(two.ctx, nonce, two_packet, payload, ct) == static_cast<int64_t>(ct.size()));
            two_packet.insert(two_packet.end(), ct.begin(), ct.end());
            uint8_t mask[5];
            REQUIRE(aead_hp_mask(two.hp, two_packet.data() + pn_offset + 4, 16, mask, 5) == 5);
            two_packet[0] ^= mask[0] & (long_header ? 0x0f : 0x1f);
            for (size_t b = 0; b < pn_len; ++b) two_packet[pn_offset + b] ^= mask[1 + b];
            REQUIRE(two_packet == expected);

            uint64_t got = 0;
            const uint64_t largest = pn - 1 - test::random_below(static_cast<uint32_t>(std::min<uint64_t>(pn - 1, 100)));
            REQUIRE(aead_quic_unprotect(receiver.ctx, receiver.hp, largest, packet.data(), pn_offset, packet.size(),
                                        &got) == static_cast<int64_t>(payload_len));
            REQUIRE(got == pn);
            for (size_t b = 0; b < pn_len; ++b) header[pn_offset + b] = static_cast<uint8_t>(pn >> (8 * (pn_len - 1 - b)));
            REQUIRE(Bytes(packet.begin(), packet.begin() + static_cast<long>(header_len)) == header);
            REQUIRE(Bytes(packet.begin() + static_cast<long>(header_len), packet.begin() + static_cast<long>(header_len + payload_len)) == payload);
        }
    }
}

TEST_CASE("QUIC seal rules: strictly increasing packet numbers below 2^62, the IV's prefix, any header", "[quic]") {
    const Keys k = random_keys(AEAD_AES_128_GCM);
    Quic q(k);
    const Bytes pt(20, 7);
    Bytes out(36);
    auto seal_pn = [&](uint64_t pn, const Bytes &aad) { return test::seal(q.ctx, test::tls13_nonce(k.iv, pn), aad, pt, out); };
    CHECK(seal_pn(0, {}) == 36);
    CHECK(seal_pn(0, {}) == AEAD_ERR_NONCE_ORDER);
    CHECK(seal_pn(5, Bytes(1000, 1)) == 36);
    CHECK(seal_pn(4, {}) == AEAD_ERR_NONCE_ORDER);
    CHECK(seal_pn(AEAD_QUIC_MAX_PACKET_NUMBER + 1, {}) == AEAD_ERR_NONCE_EXHAUSTED);
    Bytes wrong = test::tls13_nonce(k.iv, 6);
    wrong[2] ^= 1;
    CHECK(test::seal(q.ctx, wrong, {}, pt, out) == AEAD_ERR_NONCE_PREFIX);
    CHECK(seal_pn(AEAD_QUIC_MAX_PACKET_NUMBER, {}) == 36);
    CHECK(seal_pn(AEAD_QUIC_MAX_PACKET_NUMBER, {}) == AEAD_ERR_NONCE_ORDER);
    uint64_t seals = 0, forgeries = 9;
    CHECK(aead_ctx_usage(q.ctx, &seals, &forgeries) == 0);
    CHECK(seals == 3);  // refusals count nothing
    CHECK(forgeries == 0);
    // Open checks no order.
    Bytes back(20);
    CHECK(seal_pn(AEAD_QUIC_MAX_PACKET_NUMBER - 1, {}) == AEAD_ERR_NONCE_ORDER);
    Quic fresh(k);
    Bytes ct(36);
    REQUIRE(test::seal(fresh.ctx, test::tls13_nonce(k.iv, 3), {}, pt, ct) == 36);
    CHECK(test::open(q.ctx, test::tls13_nonce(k.iv, 3), {}, ct, back) == 20);
    CHECK(test::open(q.ctx, test::tls13_nonce(k.iv, 3), {}, ct, back) == 20);

    // Construction: the IV is required; AES-192 is no QUIC suite; tags are 16.
    aead_ctx *c = nullptr;
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, k.key.data(), 16, 0, nullptr, nullptr, 0) == AEAD_ERR_NONCE_SIZE);
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, k.key.data(), 16, 0, nullptr, k.iv.data(), 4) == AEAD_ERR_NONCE_SIZE);
    const Bytes k24(24, 1);
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_192_GCM, AEAD_POLICY_QUIC, k24.data(), 24, 0, nullptr, k.iv.data(), 12) == AEAD_ERR_ARG);
    CHECK(aead_ctx_new_ex(&c, AEAD_AES_128_GCM, AEAD_POLICY_QUIC, k.key.data(), 16, 12, nullptr, k.iv.data(), 12) == AEAD_ERR_TAG_SIZE);
    CHECK(c == nullptr);
    aead_hp *h = nullptr;
    CHECK(aead_hp_new(&h, AEAD_AES_192_GCM, k24.data(), 24, nullptr) == AEAD_ERR_ARG);
    CHECK(aead_hp_new(&h, AEAD_AES_128_GCM, k24.data(), 24, nullptr) == AEAD_ERR_KEY_SIZE);
    CHECK(h == nullptr);
}

TEST_CASE("protect and unprotect refuse what they must, and change nothing when they do", "[quic]") {
    const Keys k = random_keys(AEAD_AES_256_GCM);
    Quic q(k), r(k);
    const Bytes header = from_hex("41aabbccdd0102");  // short header, 2-byte packet number at offset 5
    Bytes packet = header;
    packet.resize(header.size() + 30 + 16, 0x11);
    const Bytes before = packet;
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), header.size(), 30, packet.size() - 1) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), 1, 30, packet.size()) == AEAD_ERR_ARG);
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), header.size(), 1, packet.size()) == AEAD_ERR_TOO_LONG);
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), header.size(), SIZE_MAX - 8, SIZE_MAX) == AEAD_ERR_TOO_LONG);
    // A header length whose sum with the tag wraps (the total would come out as 7 bytes).
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), SIZE_MAX - 8, 0, packet.size()) == AEAD_ERR_TOO_LONG);
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), SIZE_MAX - 8, 8, SIZE_MAX) == AEAD_ERR_TOO_LONG);
    CHECK(aead_quic_protect(q.ctx, nullptr, 10, packet.data(), header.size(), 30, packet.size()) == AEAD_ERR_ARG);
    test::Ctx tls(AEAD_AES_256_GCM, AEAD_POLICY_TLS13, k.key, 0, k.iv);
    CHECK(aead_quic_protect(tls, q.hp, 10, packet.data(), header.size(), 30, packet.size()) == AEAD_ERR_ARG);
    CHECK(packet == before);
    REQUIRE(aead_quic_protect(q.ctx, q.hp, 10, packet.data(), header.size(), 30, packet.size()) ==
            static_cast<int64_t>(packet.size()));
    // A reused packet number is refused and the packet's header bytes are put back.
    Bytes again = before;
    CHECK(aead_quic_protect(q.ctx, q.hp, 10, again.data(), header.size(), 30, again.size()) == AEAD_ERR_NONCE_ORDER);
    CHECK(again == before);

    // A flipped payload byte: AUTH, the header as it arrived, the payload zeroed, a forgery counted.
    Bytes forged = packet;
    forged[30] ^= 0x01;  // outside the sample (bytes 9..25), so the header unmasks as sent
    const Bytes arrived = forged;
    uint64_t pn = 777;
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, forged.data(), 5, forged.size(), &pn) == AEAD_ERR_AUTH);
    CHECK(pn == 777);
    CHECK(Bytes(forged.begin(), forged.begin() + 7) == Bytes(arrived.begin(), arrived.begin() + 7));
    CHECK(std::all_of(forged.begin() + 7, forged.begin() + 37, [](uint8_t b) { return b == 0; }));
    uint64_t seals = 1, forgeries = 0;
    CHECK(aead_ctx_usage(r.ctx, &seals, &forgeries) == 0);
    CHECK(seals == 0);
    CHECK(forgeries == 1);
    // Too short for a sample: not authentic, nothing changed.
    Bytes tiny(20, 3);
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, tiny.data(), 5, tiny.size(), &pn) == AEAD_ERR_AUTH);
    CHECK(tiny == Bytes(20, 3));
    // The real packet still opens.
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, packet.data(), 5, packet.size(), &pn) == 30);
    CHECK(pn == 10);
    CHECK(aead_ctx_usage(nullptr, &seals, nullptr) == AEAD_ERR_ARG);

    // Each remaining refusal on its own, with everything else valid: nothing written.
    Bytes p2 = before;
    CHECK(aead_quic_protect(nullptr, q.hp, 11, p2.data(), header.size(), 30, p2.size()) == AEAD_ERR_ARG);
    CHECK(aead_quic_protect(q.ctx, q.hp, 11, nullptr, header.size(), 30, p2.size()) == AEAD_ERR_ARG);
    CHECK(aead_quic_protect(q.ctx, q.hp, AEAD_QUIC_MAX_PACKET_NUMBER + 1, p2.data(), header.size(), 30, p2.size()) ==
          AEAD_ERR_NONCE_EXHAUSTED);
    CHECK(p2 == before);
    Bytes fresh = before;
    REQUIRE(aead_quic_protect(q.ctx, q.hp, 12, fresh.data(), header.size(), 30, fresh.size()) ==
            static_cast<int64_t>(fresh.size()));
    const Bytes sent = fresh;
    pn = 777;
    CHECK(aead_quic_unprotect(nullptr, r.hp, 9, fresh.data(), 5, fresh.size(), &pn) == AEAD_ERR_ARG);
    CHECK(aead_quic_unprotect(r.ctx, nullptr, 9, fresh.data(), 5, fresh.size(), &pn) == AEAD_ERR_ARG);
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, nullptr, 5, fresh.size(), &pn) == AEAD_ERR_ARG);
    CHECK(aead_quic_unprotect(tls, r.hp, 9, fresh.data(), 5, fresh.size(), &pn) == AEAD_ERR_ARG);
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, fresh.data(), 5, SIZE_MAX, &pn) == AEAD_ERR_ARG);  // wraps
    // The sample would end past the packet: not authentic.
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 9, fresh.data(), fresh.size() - 19, fresh.size(), &pn) == AEAD_ERR_AUTH);
    CHECK(fresh == sent);
    CHECK(pn == 777);
    CHECK(aead_quic_unprotect(r.ctx, r.hp, 10, fresh.data(), 5, fresh.size(), &pn) == 30);
    CHECK(pn == 12);
    // aead_hp_new and aead_hp_mask: each argument refusal alone.
    aead_hp *h = reinterpret_cast<aead_hp *>(&pn);
    CHECK(aead_hp_new(nullptr, AEAD_AES_256_GCM, k.hp.data(), k.hp.size(), nullptr) == AEAD_ERR_ARG);
    CHECK(aead_hp_new(&h, AEAD_AES_256_GCM, nullptr, 32, nullptr) == AEAD_ERR_ARG);
    CHECK(h == nullptr);
    CHECK(aead_hp_new(&h, AEAD_AES_192_GCM, k.hp.data(), 24, nullptr) == AEAD_ERR_ARG);  // no QUIC suite
    CHECK(h == nullptr);
    uint8_t sample[16] = {1}, mask[5] = {9, 9, 9, 9, 9};
    CHECK(aead_hp_mask(nullptr, sample, 16, mask, 5) == AEAD_ERR_ARG);
    CHECK(aead_hp_mask(r.hp, sample, 15, mask, 5) == AEAD_ERR_ARG);
    CHECK(aead_hp_mask(r.hp, nullptr, 16, mask, 5) == AEAD_ERR_ARG);
    CHECK(aead_hp_mask(r.hp, sample, 16, mask, 4) == AEAD_ERR_BUFFER_TOO_SMALL);
    CHECK(std::all_of(mask, mask + 5, [](uint8_t b) { return b == 9; }));
    CHECK(aead_hp_mask(r.hp, sample, 16, mask, 5) == 5);
}

TEST_CASE("RFC 9000 Appendix A.3: packet numbers decoded from the largest received", "[quic]") {
    const Keys k = random_keys(AEAD_AES_128_GCM);
    struct Case {
        uint64_t largest, pn;
        size_t pn_len;
    };
    // The RFC's example (largest 0xa82f30ea, 2 bytes 0x9b32 -> 0xa82f9b32), wrap-arounds in both
    // directions, nothing received yet (UINT64_MAX), and the top of the packet-number space.
    const Case cases[] = {{0xa82f30ea, 0xa82f9b32, 2}, {UINT64_MAX, 0, 1},         {UINT64_MAX, 3, 1},
                          {0xfe, 0x101, 1},            {0x101, 0xfe, 1},           {0xffff, 0x10005, 2},
                          {0x12345678, 0x12345677, 4}, {AEAD_QUIC_MAX_PACKET_NUMBER - 1, AEAD_QUIC_MAX_PACKET_NUMBER, 1}};
    for (const Case &c : cases) {
        INFO("largest " << c.largest << " pn " << c.pn << " pn_len " << c.pn_len);
        Quic s(k), r(k);
        Bytes header = from_hex("40112233");
        header.resize(4 + c.pn_len);
        header[0] = static_cast<uint8_t>(0x40 | (c.pn_len - 1));
        Bytes packet = header;
        packet.resize(header.size() + 24 + 16, 5);
        REQUIRE(aead_quic_protect(s.ctx, s.hp, c.pn, packet.data(), header.size(), 24, packet.size()) > 0);
        uint64_t pn = 0;
        REQUIRE(aead_quic_unprotect(r.ctx, r.hp, c.largest, packet.data(), 4, packet.size(), &pn) == 24);
        CHECK(pn == c.pn);
    }
}

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_usage(aead_ctx *ctx, uint64_t seals, uint64_t forgeries) noexcept;

TEST_CASE("RFC 9001 section 6.6 limits: seals past the confidentiality limit and opens past the integrity limit refused", "[quic]") {
    for (int alg : quic_algs()) {
        INFO("alg " << alg);
        const Keys k = random_keys(alg);
        Quic q(k);
        const Bytes pt(16, 1);
        Bytes out(32), back(16);
        const bool gcm = alg != AEAD_CHACHA20_POLY1305;
        const uint64_t integrity = gcm ? AEAD_QUIC_AES_GCM_INTEGRITY_LIMIT : AEAD_QUIC_CHACHA20_POLY1305_INTEGRITY_LIMIT;
        aead_test_set_usage(q.ctx, gcm ? AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT - 1 : UINT64_MAX - 1, integrity - 1);
        REQUIRE(test::seal(q.ctx, test::tls13_nonce(k.iv, 1), {}, pt, out) == 32);
        const Bytes good = out;
        if (gcm) {
            Bytes untouched(32, 0xab);
            CHECK(test::seal(q.ctx, test::tls13_nonce(k.iv, 2), {}, pt, untouched) == AEAD_ERR_KEY_LIMIT);
            CHECK(untouched == Bytes(32, 0xab));
            uint64_t seals = 0;
            aead_ctx_usage(q.ctx, &seals, nullptr);
            CHECK(seals == AEAD_QUIC_AES_GCM_CONFIDENTIALITY_LIMIT);
        }
        // One more forgery reaches the integrity limit; from then on nothing opens, the genuine included.
        Bytes forged = good;
        forged[0] ^= 1;
        CHECK(test::open(q.ctx, test::tls13_nonce(k.iv, 1), {}, good, back) == 16);
        CHECK(test::open(q.ctx, test::tls13_nonce(k.iv, 1), {}, forged, back) == AEAD_ERR_AUTH);
        Bytes marker(16, 0xcd);
        CHECK(test::open(q.ctx, test::tls13_nonce(k.iv, 1), {}, good, marker) == AEAD_ERR_KEY_LIMIT);
        CHECK(marker == Bytes(16, 0xcd));  // a refusal: nothing written
        uint64_t forgeries = 0;
        aead_ctx_usage(q.ctx, nullptr, &forgeries);
        CHECK(forgeries == integrity);
        CHECK(std::string(aead_strerror(AEAD_ERR_KEY_LIMIT)).find("RFC 9001") != std::string::npos);
    }
}
#endif

TEST_CASE("QUIC contexts across fork: the child may not seal, opens and header protection work", "[quic]") {
    const Keys k = random_keys(AEAD_AES_128_GCM);
    Quic q(k);
    Bytes packet = from_hex("40aabbcc00");
    packet.resize(5 + 20 + 16, 2);
    const Bytes plain = packet;
    REQUIRE(aead_quic_protect(q.ctx, q.hp, 1, packet.data(), 5, 20, packet.size()) > 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        Bytes p2 = plain, p3 = packet;
        uint64_t pn = 0;
        const bool ok = aead_quic_protect(q.ctx, q.hp, 2, p2.data(), 5, 20, p2.size()) == AEAD_ERR_FORKED &&
                        p2 == plain && aead_quic_unprotect(q.ctx, q.hp, 0, p3.data(), 4, p3.size(), &pn) == 20 && pn == 1;
        test::child_exit(ok ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    Bytes p2 = plain;
    CHECK(aead_quic_protect(q.ctx, q.hp, 2, p2.data(), 5, 20, p2.size()) == static_cast<int64_t>(p2.size()));
}

TEST_CASE("one QUIC context and header key shared by threads: no packet number twice", "[quic]") {
    const Keys k = random_keys(AEAD_AES_128_GCM);
    Quic q(k), r(k);
    std::atomic<uint64_t> next{0};
    std::vector<std::vector<uint64_t>> accepted(4);
    std::vector<std::thread> threads;
    std::atomic<int> bad{0};
    for (size_t t = 0; t < accepted.size(); ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 500; ++i) {
                const uint64_t pn = next.fetch_add(1);
                Bytes packet = from_hex("4311223344");
                packet.resize(5 + 64 + 16, static_cast<uint8_t>(pn));
                const int64_t rc = aead_quic_protect(q.ctx, q.hp, pn, packet.data(), 5, 64, packet.size());
                if (rc == AEAD_ERR_NONCE_ORDER) continue;  // a later number was sealed first: refused
                if (rc != static_cast<int64_t>(packet.size())) { ++bad; continue; }
                uint64_t got = 0;
                if (aead_quic_unprotect(r.ctx, r.hp, pn == 0 ? UINT64_MAX : pn - 1, packet.data(), 1, packet.size(), &got) != 64 ||
                    got != pn)
                    ++bad;
                accepted[t].push_back(pn);
            }
        });
    for (auto &t : threads) t.join();
    CHECK(bad == 0);
    const test::Acceptances m = test::merge_acceptances(accepted);
    CHECK(m.each_increasing);
    CHECK(m.none_twice);
    CHECK(m.all.size() > 100);
}
