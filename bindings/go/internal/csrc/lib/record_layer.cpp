#include "record_layer.h"

#include "aead.h"
#include "context.h"
#include "seal_open.h"

namespace aead {

// A seal of a record number commits it as it is; the AAD rule that compares the AAD with the nonce's
// field (DTLS 1.2) is applied only to caller nonces (seal_open.cpp), so no record-layer row has it.
static_assert(kQuic.aad != AadRule::dtls12_seq_num && kDtls13.aad != AadRule::dtls12_seq_num);

int64_t seal_sequence(aead_ctx &ctx, uint64_t n, uint8_t *record, size_t header_len, size_t payload_len,
                      size_t record_cap) noexcept {
    uint8_t nonce[kSequencedNonceSize];
    ctx.nonces.nonce_of(n, nonce);
    uint8_t *payload = record + header_len;
    return seal_open_call<AEAD_SEAL>(ctx, &n, nonce, sizeof nonce, record, header_len, payload, payload_len, payload,
                                     record_cap - header_len);
}

int64_t open_sequence(aead_ctx &ctx, uint64_t n, uint8_t *record, size_t header_len, size_t body) noexcept {
    uint8_t nonce[kSequencedNonceSize];
    ctx.nonces.nonce_of(n, nonce);
    uint8_t *payload = record + header_len;
    return seal_open_call<AEAD_OPEN>(ctx, &n, nonce, sizeof nonce, record, header_len, payload, body, payload, body);
}

}  // namespace aead
