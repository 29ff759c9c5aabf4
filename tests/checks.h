// Catch assertions more than one suite makes (support.h's helpers stay free of the test framework).
#pragma once

#include "catch_compat.h"
#include "support.h"

namespace test {

// ctx seals pt to exactly sealed and opens sealed back to pt; sealed with its byte at `at` xored with mask
// (non-zero) is refused as AEAD_ERR_AUTH, the output zeroed.
inline void check_round_trip(aead_ctx *ctx, const Bytes &nonce, const Bytes &aad, const Bytes &pt, const Bytes &sealed,
                             size_t at, uint8_t mask = 1) {
    Bytes out(sealed.size());
    REQUIRE(seal(ctx, nonce, aad, pt, out) == static_cast<int64_t>(sealed.size()));
    CHECK(out == sealed);
    Bytes back(pt.size());
    REQUIRE(open(ctx, nonce, aad, sealed, back) == static_cast<int64_t>(pt.size()));
    CHECK(back == pt);
    Bytes bad = sealed;
    bad[at] ^= mask;
    CHECK(open(ctx, nonce, aad, bad, back) == AEAD_ERR_AUTH);
    CHECK(back == Bytes(pt.size(), 0));
}

// Whether the loaded libcrypto offers alg for this run's properties (AES-GCM-SIV: 3.2+; AEGIS, XChaCha20
// and AES-SIV are not offered under a FIPS query, the FIPS stage): a refusal is AEAD_ERR_UNSUPPORTED or fails.
inline bool offered(int alg) {
    const Bytes key(aead_key_size(alg), 7);
    aead_ctx *c = nullptr;
    const int rc =
        aead_ctx_new_ex(&c, alg, AEAD_POLICY_NONE, key.data(), key.size(), 0, test_properties(), nullptr, 0);
    aead_ctx_free(c);
    if (rc != 0) CHECK(rc == AEAD_ERR_UNSUPPORTED);
    return rc == 0;
}

}  // namespace test

#ifdef AEAD_TEST_FAULT_BUILD
extern "C" long aead_test_fail_call(long n) noexcept;  // fault builds only

namespace test {

// Each fallible libcrypto call of call(out) (a seal or an open into out, want.size() bytes) fails in turn:
// a code, never a result; once the armed call is past the last, the call gives want. Returns the failures.
template <typename Call>
long check_each_call_fails(Call call, const Bytes &want) {
    for (long n = 1;; ++n) {
        Bytes out(want.size(), 0xEE);
        aead_test_fail_call(n);
        const int64_t r = call(out);
        if (aead_test_fail_call(0) < n) {  // the armed call was never reached
            CHECK(r == static_cast<int64_t>(want.size()));
            CHECK(out == want);
            return n - 1;
        }
        CHECK((r == AEAD_ERR_CRYPTO || r == AEAD_ERR_NOMEM));
    }
}

}  // namespace test
#endif
