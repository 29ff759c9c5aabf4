// The AEGIS family (ids 18-23; RFC 10032, on libaegis): the specification's own test vectors for every
// variant with both tag lengths (sealed, opened, refused with a flipped bit, the output zeroed), the
// sizes aead.h gives each variant and the codes for wrong ones, the random-nonce policy, and the refusal
// under a FIPS query.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "aegis_ref.h"
#include "catch_compat.h"
#include "checks.h"
#include "support.h"

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" void aead_test_set_random_seals(aead_ctx *ctx, uint64_t made) noexcept;  // fault builds only
#endif

namespace {

using test::Bytes;
using test::from_hex;

bool all_equal(const uint8_t *p, size_t n, uint8_t v) { return std::all_of(p, p + n, [v](uint8_t b) { return b == v; }); }

struct Variant {
    int alg;
    const char *name;
    size_t key;  // = nonce
};
constexpr Variant kVariants[] = {{AEAD_AEGIS_128L, "AEGIS-128L", 16},   {AEAD_AEGIS_256, "AEGIS-256", 32},
                                 {AEAD_AEGIS_128X2, "AEGIS-128X2", 16}, {AEAD_AEGIS_128X4, "AEGIS-128X4", 16},
                                 {AEAD_AEGIS_256X2, "AEGIS-256X2", 32}, {AEAD_AEGIS_256X4, "AEGIS-256X4", 32}};

// RFC 10032's test vectors (its test-vector appendix, "Test Vector 1".. for each variant; also the JSON
// files its repository publishes), copied as the document prints them. valid false: the vector must
// fail verification (its msg is absent).
struct Vector {
    int alg;
    const char *name;
    bool valid;
    const char *key, *nonce, *ad, *msg, *ct, *tag128, *tag256;
};
const Vector kVectors[] = {
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 1", true,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "",
     "00000000000000000000000000000000",
     "c1c0e58bd913006feba00f4b3cc3594e",
     "abe0ece80c24868a226a35d16bdae37a",
     "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 2", true,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "",
     "",
     "",
     "c2b879a67def9d74e6c14f708bbcc9b4",
     "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 3", true,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
     "cc6f3372f6aa1bb82388d695c3962d9a",
     "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 4", true,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 5", true,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
     "b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10",
     "7542a745733014f9474417b337399507",
     "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 6", false,
     "10000200000000000000000000000000",
     "10010000000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 7", false,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc78",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 8", false,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050608",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac",
    },
    {AEAD_AEGIS_128L, "AEGIS-128L test vector 9", false,
     "10010000000000000000000000000000",
     "10000200000000000000000000000000",
     "0001020304050607",
     "",
     "79d94593d8c2119d7e8fd9b8fc77",
     "6c04b3dba849b2701effbe32c7f0fab8",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 1", true,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "",
     "00000000000000000000000000000000",
     "754fc3d8c973246dcc6d741412a4b236",
     "3fe91994768b332ed7f570a19ec5896e",
     "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 2", true,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "",
     "",
     "",
     "e3def978a0f054afd1e761d7553afba3",
     "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 3", true,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
     "8d86f91ee606e9ff26a01b64ccbdd91d",
     "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 4", true,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "000102030405060708090a0b0c0d",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 5", true,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
     "57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67",
     "ab8a7d53fd0e98d727accca94925e128",
     "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 6", false,
     "1000020000000000000000000000000000000000000000000000000000000000",
     "1001000000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 7", false,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358459",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 8", false,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050608",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9",
    },
    {AEAD_AEGIS_256, "AEGIS-256 test vector 9", false,
     "1001000000000000000000000000000000000000000000000000000000000000",
     "1000020000000000000000000000000000000000000000000000000000000000",
     "0001020304050607",
     "",
     "f373079ed84b2709faee37358458",
     "c60b9c2d33ceb058f96e6dd03c215653",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da",
    },
    {AEAD_AEGIS_128X2, "AEGIS-128X2 test vector 1", true,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "",
     "",
     "",
     "63117dc57756e402819a82e13eca8379",
     "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759",
    },
    {AEAD_AEGIS_128X2, "AEGIS-128X2 test vector 2", true,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "0102030401020304",
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607",
     "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f8"
     "5b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be"
     "62b29c22cd4b5761b38f43d5a5ee062f",
     "1aebc200804f405cab637f2adebb6d77",
     "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca",
    },
    {AEAD_AEGIS_128X4, "AEGIS-128X4 test vector 1", true,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "",
     "",
     "",
     "5bef762d0947c00455b97bb3af30dfa3",
     "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68",
    },
    {AEAD_AEGIS_128X4, "AEGIS-128X4 test vector 2", true,
     "000102030405060708090a0b0c0d0e0f",
     "101112131415161718191a1b1c1d1e1f",
     "0102030401020304",
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607",
     "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c2"
     "4ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df"
     "7b086af6ce6bc1ed594b8dd64aed2a7e",
     "0e56ab94e2e85db80f9d54010caabfb4",
     "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2",
    },
    {AEAD_AEGIS_256X2, "AEGIS-256X2 test vector 1", true,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "",
     "",
     "",
     "62cdbab084c83dacdb945bb446f049c8",
     "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7",
    },
    {AEAD_AEGIS_256X2, "AEGIS-256X2 test vector 2", true,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "0102030401020304",
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607",
     "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d365221"
     "32761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398c"
     "e6385cd654a19f481cba3b8f25910b42",
     "635d391828520bf1512763f0c8f5cdbd",
     "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7",
    },
    {AEAD_AEGIS_256X4, "AEGIS-256X4 test vector 1", true,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "",
     "",
     "",
     "3b7fee6cee7bf17888ad11ed2397beb4",
     "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf",
    },
    {AEAD_AEGIS_256X4, "AEGIS-256X4 test vector 2", true,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
     "0102030401020304",
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607"
     "04050607040506070405060704050607",
     "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11"
     "da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5"
     "813808b81748a490dd656465fed61f09",
     "b63b611b13975e2f3dc3cb6c2397bfcd",
     "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c",
    },
};

// Whether AEGIS is offered for this run's properties: everywhere but under a FIPS query (the FIPS stage).
bool offered() {
    const Bytes key(16, 7);
    aead_ctx *c = nullptr;
    const int rc = aead_ctx_new_ex(&c, AEAD_AEGIS_128L, AEAD_POLICY_NONE, key.data(), key.size(), 0,
                                   test::test_properties(), nullptr, 0);
    aead_ctx_free(c);
    if (rc != 0) CHECK(rc == AEAD_ERR_UNSUPPORTED);
    return rc == 0;
}

Bytes cat(const Bytes &a, const Bytes &b) {
    Bytes r = a;
    r.insert(r.end(), b.begin(), b.end());
    return r;
}

}  // namespace

TEST_CASE("AEGIS: RFC 10032's test vectors, every variant, 128- and 256-bit tags", "[aegis][vectors]") {
    if (!offered()) return;
    int sealed = 0, refused = 0;
    for (const Vector &v : kVectors) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = from_hex(v.key), nonce = from_hex(v.nonce), ad = from_hex(v.ad), ct = from_hex(v.ct);
            const Bytes tag = from_hex(tag_len == 16 ? v.tag128 : v.tag256);
            REQUIRE(tag.size() == tag_len);
            test::Ctx ctx(v.alg, AEAD_POLICY_NONE, key, tag_len);
            const Bytes sealed_msg = cat(ct, tag);
            Bytes back(ct.size(), 0xEE);
            if (v.valid) {
                const Bytes msg = from_hex(v.msg);
                Bytes out(msg.size() + tag_len, 0xEE);
                REQUIRE(test::seal(ctx, nonce, ad, msg, out) == static_cast<int64_t>(out.size()));
                CHECK(out == sealed_msg);
                REQUIRE(test::open(ctx, nonce, ad, sealed_msg, back) == static_cast<int64_t>(msg.size()));
                CHECK(back == msg);
                // In place, both ways.
                Bytes buf(msg.size() + tag_len);
                if (!msg.empty()) std::memcpy(buf.data(), msg.data(), msg.size());
                REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), ad.data(), ad.size(), buf.data(),
                                       msg.size(), buf.data(), buf.size()) == static_cast<int64_t>(buf.size()));
                CHECK(buf == sealed_msg);
                REQUIRE(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), ad.data(), ad.size(), buf.data(),
                                       buf.size(), buf.data(), buf.size()) == static_cast<int64_t>(msg.size()));
                CHECK(Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(msg.size())) == msg);
                ++sealed;
                // Each flipped bit, in the ciphertext (first and last byte), the tag and the AD: refused, zeroed.
                std::vector<size_t> flips = {sealed_msg.size() - 1, ct.size()};
                if (!ct.empty()) flips.push_back(0);
                for (const size_t at : flips) {
                    Bytes forged = sealed_msg;
                    forged[at] ^= 0x01;
                    std::fill(back.begin(), back.end(), 0xEE);
                    CHECK(test::open(ctx, nonce, ad, forged, back) == AEAD_ERR_AUTH);
                    CHECK(all_equal(back.data(), back.size(), 0));
                }
                Bytes other_ad = ad;
                other_ad.push_back(0);
                CHECK(test::open(ctx, nonce, other_ad, sealed_msg, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
            } else {
                // The specification's must-fail vectors: refused, and no plaintext left behind.
                CHECK(test::open(ctx, nonce, ad, sealed_msg, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
                ++refused;
            }
        }
    }
    CHECK(sealed == 2 * 18);
    CHECK(refused == 2 * 8);
}

TEST_CASE("AEGIS: the test oracle (tests/aegis_ref.h) reproduces RFC 10032's vectors", "[aegis][vectors]") {
    int checked = 0;
    for (const Vector &v : kVectors) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = from_hex(v.key), nonce = from_hex(v.nonce), ad = from_hex(v.ad), ct = from_hex(v.ct);
            const Bytes tag = from_hex(tag_len == 16 ? v.tag128 : v.tag256);
            Bytes msg;
            CHECK(aegis_ref::open(v.alg, key.data(), nonce.data(), ad.data(), ad.size(), ct.data(), ct.size(),
                                  tag.data(), tag.size(), &msg) == v.valid);
            if (v.valid) {
                CHECK(msg == from_hex(v.msg));
                CHECK(aegis_ref::seal(v.alg, key.data(), nonce.data(), ad.data(), ad.size(), msg.data(), msg.size(),
                                      tag_len) == cat(ct, tag));
            }
            ++checked;
        }
    }
    CHECK(checked == 2 * 26);
}

// libaegis against the oracle on random input: every variant and tag length, lengths across each
// variant's block (32, 64, 128 bytes for 128L/X2/X4; 16, 32, 64 for 256/X2/X4) and bulk boundaries.
// AEAD_TEST_AEGIS_CASES sets the cases per variant and tag (default 150); the CPU-path runs under qemu
// (tests/aegis-cpu-paths.sh) use the default.
TEST_CASE("AEGIS: random keys, nonces, AD and messages agree with the oracle, both ways; a flipped bit is refused",
          "[aegis][differential]") {
    if (!offered()) return;
    const char *env = std::getenv("AEAD_TEST_AEGIS_CASES");
    const int per = env != nullptr ? std::atoi(env) : 150;
    REQUIRE(per > 0);
    int cases = 0;
    for (const Variant &var : kVariants) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            const Bytes key = test::random_bytes(var.key);
            test::Ctx ctx(var.alg, AEAD_POLICY_NONE, key, tag_len);
            for (int i = 0; i < per; ++i) {
                // Mostly short (the partial-block paths), one in 16 up to 64 KiB.
                const size_t len = i % 16 == 15 ? test::random_below(65537) : test::random_below(1100);
                const Bytes nonce = test::random_bytes(var.key), ad = test::random_bytes(test::random_below(300));
                const Bytes msg = test::random_bytes(len);
                INFO(var.name << ", tag " << tag_len << ", message " << len << ", AD " << ad.size());
                const Bytes want = aegis_ref::seal(var.alg, key.data(), nonce.data(), ad.data(), ad.size(), msg.data(),
                                                   msg.size(), tag_len);
                Bytes out(len + tag_len), back(len, 0xEE);
                REQUIRE(test::seal(ctx, nonce, ad, msg, out) == static_cast<int64_t>(out.size()));
                REQUIRE(out == want);
                REQUIRE(test::open(ctx, nonce, ad, want, back) == static_cast<int64_t>(len));
                REQUIRE(back == msg);
                Bytes forged = want;
                forged[test::random_below(static_cast<uint32_t>(forged.size()))] ^=
                    static_cast<uint8_t>(1u << test::random_below(8));
                Bytes unused;
                CHECK_FALSE(aegis_ref::open(var.alg, key.data(), nonce.data(), ad.data(), ad.size(), forged.data(), len,
                                            forged.data() + len, tag_len, &unused));
                CHECK(test::open(ctx, nonce, ad, forged, back) == AEAD_ERR_AUTH);
                ++cases;
            }
        }
    }
    CHECK(cases == per * 12);
    std::printf("AEGIS against the oracle: %d cases (6 variants x 2 tag lengths x %d), 0 disagreements\n", cases, per);
}

// Which of libaegis's implementations this CPU gets, by libaegis's own rule (its cpu.c and each
// variant's pick_best_implementation, x86): no AES-NI or no AVX (with the OS's XSAVE support): the
// portable code; VAES with AVX-512F: AVX-512 for the X4 variants (VAES/AVX2 for X2, AES-NI for 128L/256);
// VAES with AVX2: VAES/AVX2 for the X variants; else AES-NI. tests/aegis-cpu-paths.sh runs this suite
// under qemu-x86_64 CPU models and names the path each must get (AEAD_TEST_AEGIS_PATH): a model that did
// not give the features meant fails here, so each path is known to have run the vectors and the oracle.
std::string aegis_x86_path() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return "portable";
    const bool aesni = (c >> 25 & 1) != 0, osxsave = (c >> 27 & 1) != 0, avx_cpu = (c >> 28 & 1) != 0;
    unsigned xcr0 = 0, hi = 0;
    if (osxsave) __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
    const bool avx = avx_cpu && osxsave && (xcr0 & 6) == 6;
    unsigned b7 = 0, c7 = 0;
    if (__get_cpuid_count(7, 0, &a, &b7, &c7, &d) == 0) b7 = c7 = 0;
    const bool avx2 = avx && (b7 >> 5 & 1) != 0, vaes = avx && aesni && (c7 >> 9 & 1) != 0;
    const bool avx512f = avx2 && (b7 >> 16 & 1) != 0 && (xcr0 & 0xe0) == 0xe0;
    if (!aesni || !avx) return "portable";
    if (vaes && avx512f) return "avx512";
    if (vaes && avx2) return "vaes-avx2";
    return "aes-ni";
#else
    return "not x86";
#endif
}

TEST_CASE("AEGIS: the CPU path libaegis takes here is the one asked for", "[aegis][cpu]") {
    const std::string path = aegis_x86_path();
    std::printf("AEGIS: libaegis's implementation on this CPU: %s\n", path.c_str());
    const char *want = std::getenv("AEAD_TEST_AEGIS_PATH");
    if (want != nullptr) CHECK(path == want);
}

TEST_CASE("AEGIS: key, nonce and tag sizes; wrong ones are refused and write nothing", "[aegis][contract]") {
    for (const Variant &v : kVariants) {
        INFO(v.name);
        CHECK(aead_key_size(v.alg) == v.key);
        CHECK(aead_nonce_size(v.alg) == v.key);
        CHECK(aead_tag_size(v.alg) == 16);
        if (!offered()) continue;
        aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
        const Bytes long_key(v.key + 1, 1);
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, long_key.data(), v.key - 1, 0, test::test_properties(),
                              nullptr, 0) == AEAD_ERR_KEY_SIZE);
        CHECK(c == nullptr);
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, long_key.data(), v.key + 1, 0, test::test_properties(),
                              nullptr, 0) == AEAD_ERR_KEY_SIZE);
        // Tags: 0 (= 16), 16 and 32 under both policies; nothing else.
        for (const int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_RANDOM_NONCE}}) {
            for (size_t tag = 0; tag <= 40; ++tag) {
                const bool ok = tag == 0 || tag == 16 || tag == 32;
                c = nullptr;
                CHECK(aead_ctx_new_ex(&c, v.alg, policy, long_key.data(), v.key, tag, test::test_properties(), nullptr,
                                      0) == (ok ? 0 : AEAD_ERR_TAG_SIZE));
                CHECK((c != nullptr) == ok);
                aead_ctx_free(c);
            }
        }
        // Policies: NONE and RANDOM_NONCE only.
        for (const int p : {int{AEAD_POLICY_TLS12}, int{AEAD_POLICY_TLS13}, int{AEAD_POLICY_QUIC}, int{AEAD_POLICY_COUNTER},
                            int{AEAD_POLICY_XOR_COUNTER}, int{AEAD_POLICY_SSH}, int{AEAD_POLICY_DTLS12}}) {
            c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            CHECK(aead_ctx_new_ex(&c, v.alg, p, long_key.data(), v.key, 0, test::test_properties(), nullptr, 0) ==
                  AEAD_ERR_ARG);
            CHECK(c == nullptr);
        }
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO("tag " << tag_len);
            test::Ctx ctx(v.alg, AEAD_POLICY_NONE, test::random_bytes(v.key), tag_len);
            CHECK(std::string(aead_ctx_provider(ctx)) == "libaegis");
            CHECK(aead_ctx_indicator(ctx) == 0);  // never FIPS-approved
            const Bytes aad = test::random_bytes(5), pt = test::random_bytes(40);
            const size_t sealed_len = pt.size() + tag_len;
            // Nonces of any other length: refused, nothing written.
            for (size_t n = 0; n <= 40; ++n) {
                if (n == v.key) continue;
                Bytes out(sealed_len, 0xEE);
                CHECK(test::seal(ctx, Bytes(n, 3), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
                CHECK(all_equal(out.data(), out.size(), 0xEE));
            }
            const Bytes nonce = test::random_bytes(v.key);
            // out_cap one short: refused, nothing written; an open too short to hold a tag: AEAD_ERR_AUTH.
            Bytes small(sealed_len - 1, 0xEE);
            CHECK(test::seal(ctx, nonce, aad, pt, small) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(all_equal(small.data(), small.size(), 0xEE));
            Bytes sealed(sealed_len);
            REQUIRE(test::seal(ctx, nonce, aad, pt, sealed) == static_cast<int64_t>(sealed_len));
            Bytes back(pt.size(), 0xEE), tiny(pt.size() - 1, 0xEE);
            CHECK(test::open(ctx, nonce, aad, Bytes(tag_len - 1, 1), back) == AEAD_ERR_AUTH);
            CHECK(test::open(ctx, nonce, aad, sealed, tiny) == AEAD_ERR_BUFFER_TOO_SMALL);
            CHECK(all_equal(tiny.data(), tiny.size(), 0xEE));
            // Any overlap but the exact alias is refused.
            Bytes big(200, 0);
            std::memcpy(big.data(), pt.data(), pt.size());
            const Bytes before = big;
            CHECK(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), aad.data(), aad.size(), big.data(), pt.size(),
                                 big.data() + 1, sealed_len) == AEAD_ERR_OVERLAP);
            CHECK(big == before);
            // Empty message and AD (NULL pointers): a tag alone, which opens to nothing.
            Bytes tag_only(tag_len);
            REQUIRE(aead_seal_open(ctx, AEAD_SEAL, nonce.data(), nonce.size(), nullptr, 0, nullptr, 0, tag_only.data(),
                                   tag_only.size()) == static_cast<int64_t>(tag_len));
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), nullptr, 0, tag_only.data(), tag_len, nullptr,
                                 0) == 0);
            tag_only[0] ^= 1;
            CHECK(aead_seal_open(ctx, AEAD_OPEN, nonce.data(), nonce.size(), nullptr, 0, tag_only.data(), tag_len, nullptr,
                                 0) == AEAD_ERR_AUTH);
        }
    }
}

TEST_CASE("AEGIS: every length from 0 to 600 round-trips (each variant's block and bulk paths)", "[aegis][contract]") {
    if (!offered()) return;
    for (const Variant &v : kVariants) {
        INFO(v.name);
        test::Ctx ctx(v.alg, AEAD_POLICY_NONE, test::random_bytes(v.key), 32);
        const Bytes nonce = test::random_bytes(v.key);
        for (size_t n = 0; n <= 600; n += (n < 300 ? 1 : 37)) {
            INFO("length " << n);
            const Bytes pt = test::random_bytes(n), aad = test::random_bytes(n % 97);
            Bytes out(n + 32), back(n, 0xEE);
            REQUIRE(test::seal(ctx, nonce, aad, pt, out) == static_cast<int64_t>(n + 32));
            REQUIRE(test::open(ctx, nonce, aad, out, back) == static_cast<int64_t>(n));
            CHECK(back == pt);
            out[n / 2] ^= 0x80;
            CHECK(test::open(ctx, nonce, aad, out, back) == AEAD_ERR_AUTH);
            CHECK(all_equal(back.data(), back.size(), 0));
        }
    }
}

TEST_CASE("AEGIS with random nonces: nonce(16 or 32) || ct || tag, fresh nonces; 2^48 seals for 128-bit nonces",
          "[aegis][contract]") {
    if (!offered()) return;
    for (const Variant &v : kVariants) {
        for (const size_t tag_len : {size_t{16}, size_t{32}}) {
            INFO(v.name << ", tag " << tag_len);
            const Bytes key = test::random_bytes(v.key), aad(4, 2), pt = test::random_bytes(50);
            test::Ctx rnd(v.alg, AEAD_POLICY_RANDOM_NONCE, key, tag_len), plain(v.alg, AEAD_POLICY_NONE, key, tag_len);
            const size_t body_len = pt.size() + tag_len, total = v.key + body_len;
            const auto p = static_cast<std::ptrdiff_t>(v.key);
            std::set<std::string> nonces;  // (not set<Bytes>: GCC 12 -O3 sees a bogus memcmp bound in its <=>)
            for (int i = 0; i < 50; ++i) {
                Bytes out(total);
                REQUIRE(test::seal(rnd, {}, aad, pt, out) == static_cast<int64_t>(total));
                const Bytes nonce(out.begin(), out.begin() + p), body(out.begin() + p, out.end());
                nonces.emplace(nonce.begin(), nonce.end());
                Bytes want(body_len), back(pt.size());
                REQUIRE(test::seal(plain, nonce, aad, pt, want) == static_cast<int64_t>(body_len));
                CHECK(body == want);
                REQUIRE(test::open(rnd, {}, aad, out, back) == static_cast<int64_t>(pt.size()));
                CHECK(back == pt);
                out[total - 1] ^= 1;
                CHECK(test::open(rnd, {}, aad, out, back) == AEAD_ERR_AUTH);
                CHECK(all_equal(back.data(), back.size(), 0));
            }
            CHECK(nonces.size() == 50);
            // In place: the ciphertext lands where the plaintext was (in == out + nonce).
            Bytes buf(total);
            std::memcpy(buf.data() + v.key, pt.data(), pt.size());
            REQUIRE(aead_seal_open(rnd, AEAD_SEAL, nullptr, 0, aad.data(), 4, buf.data() + v.key, pt.size(), buf.data(),
                                   buf.size()) == static_cast<int64_t>(total));
            REQUIRE(aead_seal_open(rnd, AEAD_OPEN, nullptr, 0, aad.data(), 4, buf.data(), total, buf.data() + v.key,
                                   body_len) == static_cast<int64_t>(pt.size()));
            CHECK(Bytes(buf.begin() + p, buf.begin() + p + 50) == pt);
            // A nonce given to a random-policy seal is refused; so is a sealed message too short on open.
            Bytes out(total), back(pt.size());
            CHECK(test::seal(rnd, Bytes(v.key, 1), aad, pt, out) == AEAD_ERR_NONCE_SIZE);
            CHECK(test::open(rnd, {}, aad, Bytes(v.key + tag_len - 1, 0), back) == AEAD_ERR_AUTH);
#ifdef AEAD_TEST_FAULT_BUILD
            // The budget: 2^48 seals with a 128-bit nonce (RFC 10032's usage guidelines), none with 256 bits.
            aead_test_set_random_seals(rnd, (uint64_t{1} << 48) - 1);
            CHECK(test::seal(rnd, {}, aad, pt, out) == static_cast<int64_t>(total));
            const Bytes untouched(total, 0xEE);
            out = untouched;
            CHECK(test::seal(rnd, {}, aad, pt, out) == (v.key == 16 ? int64_t{AEAD_ERR_NONCE_LIMIT} : static_cast<int64_t>(total)));
            if (v.key == 16) CHECK(out == untouched);
#endif
        }
    }
}

TEST_CASE("AEGIS is refused under a FIPS query (no FIPS provider has it)", "[aegis][fips]") {
    for (const Variant &v : kVariants) {
        INFO(v.name);
        const Bytes key(v.key, 9);
        for (const int policy : {int{AEAD_POLICY_NONE}, int{AEAD_POLICY_RANDOM_NONCE}}) {
            aead_ctx *c = reinterpret_cast<aead_ctx *>(uintptr_t{1});
            CHECK(aead_ctx_new_ex(&c, v.alg, policy, key.data(), key.size(), 0, "fips=yes", nullptr, 0) ==
                  AEAD_ERR_UNSUPPORTED);
            CHECK(c == nullptr);
        }
        // A query that selects a non-FIPS provider offers it (unless this run's libcrypto is FIPS-only).
        if (test::fips_stage()) continue;
        aead_ctx *c = nullptr;
        CHECK(aead_ctx_new_ex(&c, v.alg, AEAD_POLICY_NONE, key.data(), key.size(), 0, "provider=default", nullptr, 0) == 0);
        if (c != nullptr) CHECK(aead_ctx_indicator(c) == 0);
        aead_ctx_free(c);
    }
}
