// The one seal or open behind every entry point: aead_seal_open and its batches with a caller's nonce,
// the record layer (record_layer.h) with a record number.
#pragma once

#include <cstddef>
#include <cstdint>

struct aead_ctx;

namespace aead {

// One AEAD operation (Op: AEAD_SEAL or AEAD_OPEN) with every check of aead_seal_open, on a context that
// is not AES-SIV's. number: NULL for a caller's nonce, which the context's policy checks; else the
// record number that the library's own nonce (nonce, built by NoncePolicy::nonce_of) stands for, which
// the policy commits (seal) or the replay window checks (open) as it is.
template <int Op>
int64_t seal_open_call(aead_ctx &ctx, const uint64_t *number, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                       size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) noexcept;

}  // namespace aead
