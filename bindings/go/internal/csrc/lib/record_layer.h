// The record layer QUIC packet protection (quic.cpp) and DTLS 1.3 records (dtls.cpp) share: one record
// sealed or opened in place under its record number, with the policy's rules applied to that number as
// it is (no nonce is parsed back into a number).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aead.h"

namespace aead {

// Seals record number n in place: record holds header_len bytes of header (the AAD), then the payload,
// with room for the tag up to record_cap. The context's policy commits n as aead_seal_open commits a
// nonce's number (order, limits, fork). Returns the ciphertext's length with its tag, or an error code:
// after a failure (is_failure) the caller zeroes what it wrote; after a refusal nothing was written.
int64_t seal_sequence(aead_ctx &ctx, uint64_t n, uint8_t *record, size_t header_len, size_t payload_len,
                      size_t record_cap) noexcept;

// Opens record number n in place: header_len bytes of header (the AAD), then body bytes of ciphertext
// and tag. A windowed context refuses a number already accepted and accepts n once the tag verifies.
// Returns the plaintext's length, or an error code (the payload zeroed, as by aead_seal_open).
int64_t open_sequence(aead_ctx &ctx, uint64_t n, uint8_t *record, size_t header_len, size_t body) noexcept;

// Whether a code is a failure (memory, libcrypto) rather than a refusal of the record.
constexpr bool is_failure(int64_t rc) noexcept { return rc == AEAD_ERR_NOMEM || rc == AEAD_ERR_CRYPTO; }

}  // namespace aead
