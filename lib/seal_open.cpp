// aead_seal_open and aead_seal_open_many: argument and nonce-policy checks, then the shim.
#include <cstring>

#include "aead.h"
#include "context.h"

namespace {

namespace shim = aead::shim;
using shim::Bytes;
using Lease = aead::WorkerCache::Lease;

// A buffer [p, p + len) as integers. NULL with a length, or a range running past the end of the address
// space, is not a buffer: with u = p - 1 (so NULL becomes the top address), both make u + len wrap, one
// test for the two. The ranges that pass can be compared by inclusive ends without overflow.
bool bad_range(const void *p, size_t len) noexcept {
    const uintptr_t u = reinterpret_cast<uintptr_t>(p) - 1;
    return u + len < u;
}

// Integers, not pointers: comparing pointers into unrelated objects is undefined.
bool overlaps(const void *a, size_t a_len, const void *b, size_t b_len) noexcept {
    const auto x = reinterpret_cast<uintptr_t>(a);
    const auto y = reinterpret_cast<uintptr_t>(b);
    return a_len != 0 && b_len != 0 && x <= y + (b_len - 1) && y <= x + (a_len - 1);
}

// Everything decided before any state changes. Returns 0 and the output length, or a refusal code.
int64_t check_call(const aead_ctx &ctx, int op, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                   size_t aad_len, const uint8_t *in, size_t in_len, const uint8_t *out, size_t out_cap,
                   size_t &out_len) noexcept {
    // out_cap is only a promise of room: the range checked for out is the part written, below.
    if (bad_range(nonce, nonce_len) || bad_range(aad, aad_len) || bad_range(in, in_len) ||
        (out == nullptr && out_cap != 0))
        return AEAD_ERR_ARG;
    if (!aead::valid_nonce_size(ctx.alg, ctx.policy, nonce_len)) return AEAD_ERR_NONCE_SIZE;
    if (aad_len > ctx.alg.max_aad) return AEAD_ERR_TOO_LONG;
    const size_t prefix = aead::nonce_prefix_size(ctx.policy);
    const size_t overhead = prefix + ctx.tag_size;
    if (op == AEAD_SEAL) {
        if (in_len > ctx.alg.max_plaintext) return AEAD_ERR_TOO_LONG;
        out_len = in_len + overhead;
    } else {
        if (in_len < overhead) return AEAD_ERR_AUTH;  // too short to hold a tag: not authentic
        if (in_len - overhead > ctx.alg.max_plaintext) return AEAD_ERR_TOO_LONG;
        out_len = in_len - overhead;
    }
    if (out_cap < out_len) return AEAD_ERR_BUFFER_TOO_SMALL;
    if (bad_range(out, out_len)) return AEAD_ERR_ARG;
    // The one alias allowed puts the ciphertext exactly where the plaintext is (no wrap: both ranges
    // passed bad_range and are at least `prefix` long where it is added).
    const auto o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
    const bool in_place = op == AEAD_SEAL ? o + prefix == i : o == i + prefix;
    if (!in_place && overlaps(out, out_len, in, in_len)) return AEAD_ERR_OVERLAP;
    if (overlaps(out, out_len, aad, aad_len) || overlaps(out, out_len, nonce, nonce_len)) return AEAD_ERR_OVERLAP;
    if (op == AEAD_SEAL && ctx.nonces.sequenced() && aad_len != ctx.nonces.required_aad_size())
        return AEAD_ERR_AAD_SIZE;
    return 0;
}

// One operation. `lease` carries a worker between the records of a batch: empty on entry means take
// one; a worker that failed midway is dropped and the lease emptied. The caller gives back what is left.
[[gnu::always_inline]] inline int64_t seal_open_one(aead_ctx &ctx, Lease &lease, int op, const uint8_t *nonce,
                                                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                   const uint8_t *in, size_t in_len, uint8_t *out,
                                                   size_t out_cap) noexcept {
    size_t out_len = 0;
    if (const int64_t refused =
            check_call(ctx, op, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap, out_len))
        return refused;

    // Failures from here on zero the output: a caller that ignores the code still sees no plaintext.
    if (lease.worker == nullptr) {
        lease = ctx.workers.take();
        if (lease.worker == nullptr) {
            shim::Worker *w = nullptr;
            if (const int rc = shim::worker_new(*ctx.key, &w)) {
                if (out_len != 0) std::memset(out, 0, out_len);
                return rc;
            }
            lease = ctx.workers.adopt(w);
        }
    }
    // Taken after the worker, so a failed allocation cannot burn a sequence number; a refused nonce is
    // a refusal like the checks above and writes nothing.
    if (op == AEAD_SEAL && ctx.nonces.sequenced()) {
        if (const int rc = ctx.nonces.check_and_commit(nonce)) return rc;
    }
    int rc;
    if (ctx.nonces.random()) {
        // nonce || ciphertext || tag: the nonce is drawn into out (seal) or read from in (open).
        constexpr size_t p = aead::kRandomNonceSize;
        if (op == AEAD_SEAL) {
            rc = ctx.nonces.reserve_random_seal();
            if (rc != 0) return rc;  // a refusal: nothing written
            rc = shim::random_nonce(out, p);
            if (rc == 0) rc = shim::seal(*lease.worker, Bytes{out, p}, Bytes{aad, aad_len}, Bytes{in, in_len}, out + p, ctx.tag_size);
        } else {
            rc = shim::open(*lease.worker, Bytes{in, p}, Bytes{aad, aad_len}, Bytes{in + p, out_len},
                            Bytes{in + p + out_len, ctx.tag_size}, out);
        }
    } else {
        const Bytes n{nonce, nonce_len}, a{aad, aad_len};
        rc = op == AEAD_SEAL
                 ? shim::seal(*lease.worker, n, a, Bytes{in, in_len}, out, ctx.tag_size)
                 : shim::open(*lease.worker, n, a, Bytes{in, out_len}, Bytes{in + out_len, ctx.tag_size}, out);
    }
    if (rc == 0) return static_cast<int64_t>(out_len);
    if (rc != AEAD_ERR_AUTH) {
        ctx.workers.drop(lease);  // a context that failed midway is not trusted again
        lease = Lease{};
    }
    if (out_len != 0) std::memset(out, 0, out_len);
    return rc;
}

}  // namespace

extern "C" AEAD_API int64_t aead_seal_open(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                                           uint8_t *out, size_t out_cap) noexcept {
    if (ctx == nullptr || (op != AEAD_SEAL && op != AEAD_OPEN)) return AEAD_ERR_ARG;
    Lease lease;
    const int64_t r = seal_open_one(*ctx, lease, op, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap);
    if (lease.worker != nullptr) ctx->workers.give(lease);
    return r;
}

extern "C" AEAD_API int64_t aead_seal_open_many(aead_ctx *ctx, int op, aead_record *records,
                                                size_t count) noexcept {
    if (ctx == nullptr || (op != AEAD_SEAL && op != AEAD_OPEN) || (records == nullptr && count != 0))
        return AEAD_ERR_ARG;
    // One worker for the whole batch: the lease, the cache's atomics and the call overhead are paid once.
    Lease lease;
    int64_t ok = 0;
    for (size_t i = 0; i < count; ++i) {
        aead_record &r = records[i];
        r.result = seal_open_one(*ctx, lease, op, r.nonce, r.nonce_len, r.aad, r.aad_len, r.in, r.in_len, r.out,
                                 r.out_cap);
        ok += r.result >= 0;
    }
    if (lease.worker != nullptr) ctx->workers.give(lease);
    return ok;
}
