// aead_seal_open, aead_seal_open_many and their AAD-component forms (_v): argument and nonce-policy checks,
// then the shim.
#include <cstring>

#include "aead.h"
#include "context.h"
#include "ranges.h"
#include "seal_open.h"

namespace {

namespace shim = aead::shim;
using shim::Bytes;
using Lease = aead::WorkerCache::Lease;

// The nonce length of every policy that checks a caller's nonce (TLS 1.2 / 1.3, QUIC); the random policy
// draws ctx.prefix bytes (12, 24 for XChaCha20-Poly1305, AEGIS's 16 or 32).
constexpr size_t kPolicyNonceSize = 12;
static_assert(aead::kRandomNonceSize == kPolicyNonceSize && aead::kDefaultNonceSize == kPolicyNonceSize);
static_assert(aead::kMaxRandomNonceSize >= kPolicyNonceSize && aead::kSequencedNonceSize == kPolicyNonceSize);

using aead::bad_range;
using aead::meets;

// Everything decided before any state changes. Returns 0 and the output length, or a refusal code.
// The direction is a template argument: the entry points dispatch once, and each check folds.
template <int Op>
[[gnu::always_inline]] inline int64_t check_call(const aead_ctx &ctx, const uint8_t *nonce, size_t nonce_len,
                                                 const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                                 size_t in_len, const uint8_t *out, size_t out_cap,
                                                 size_t &out_len) noexcept {
    // out_cap is only a promise of room: the range checked for out is the part written, below.
    if (bad_range(nonce, nonce_len) || bad_range(aad, aad_len) || bad_range(in, in_len) ||
        (out == nullptr && out_cap != 0))
        return AEAD_ERR_ARG;
    if (nonce_len - ctx.nonce_min > ctx.nonce_max - ctx.nonce_min) return AEAD_ERR_NONCE_SIZE;
    if (aad_len > ctx.alg.max_aad) return AEAD_ERR_TOO_LONG;
    // AES-CCM: the message length must fit the L = 15 - nonce_len bytes of its length field.
    const uint64_t max_plaintext = ctx.ccm ? ctx.ccm_max_plaintext[nonce_len & 15] : ctx.alg.max_plaintext;
    if constexpr (Op == AEAD_SEAL) {
        if (in_len > max_plaintext) return AEAD_ERR_TOO_LONG;
        out_len = in_len + ctx.overhead;
    } else {
        if (in_len < ctx.overhead) return AEAD_ERR_AUTH;  // too short to hold a tag: not authentic
        if (in_len - ctx.overhead > max_plaintext) return AEAD_ERR_TOO_LONG;
        out_len = in_len - ctx.overhead;
        // QUIC's integrity limit (RFC 9001 section 6.6): past it, no open is attempted under this key.
        if (ctx.forgeries.load(std::memory_order_relaxed) >= ctx.forgery_limit) [[unlikely]] return AEAD_ERR_KEY_LIMIT;
    }
    if (out_cap < out_len) return AEAD_ERR_BUFFER_TOO_SMALL;
    if (bad_range(out, out_len)) return AEAD_ERR_ARG;
    if (out_len != 0) {
        // The one alias allowed puts the ciphertext exactly where the plaintext is (no wrap: both ranges
        // passed bad_range and are at least `lead` long where it is added).
        const auto o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
        const uintptr_t o_end = o + out_len;
        const bool in_place = Op == AEAD_SEAL ? o + ctx.lead == i : o == i + ctx.lead;
        if ((!in_place && meets(o, o_end, in, in_len)) || meets(o, o_end, aad, aad_len) ||
            meets(o, o_end, nonce, nonce_len))
            return AEAD_ERR_OVERLAP;
    }
    if (Op == AEAD_SEAL && ctx.tls_aad != SIZE_MAX && aad_len != ctx.tls_aad) return AEAD_ERR_AAD_SIZE;
    return 0;
}

// DTLS 1.2 (RFC 6347 section 4.1.2.1): the AAD is seq_num(8) || type || version || length, and its
// seq_num must be the field (epoch || seq) the nonce carries: a record whose header disagrees with its
// nonce is refused (a receiver would otherwise accept it under one number and the window track another).
// The AAD is copied into own_aad, which is what libcrypto gets.
constexpr size_t kMaxRuleAadSize = 13;
static_assert(aead::kDtls12Explicit.aad_size <= kMaxRuleAadSize && aead::kDtls12Xor.aad_size <= kMaxRuleAadSize);
int aad_with_field(const aead_ctx &ctx, uint64_t field, const uint8_t *aad, size_t aad_len,
                   uint8_t (&own_aad)[kMaxRuleAadSize]) noexcept {
    if (aad_len != ctx.nonces.schedule().aad_size) return AEAD_ERR_AAD_SIZE;
    std::memcpy(own_aad, aad, aad_len);
    uint64_t seq_num = 0;
    for (size_t i = 0; i < 8; ++i) seq_num = seq_num << 8 | own_aad[i];
    return seq_num == field ? 0 : AEAD_ERR_AAD_MISMATCH;
}

// After a failure past the checks: a worker that failed midway is not trusted again, and the output
// is zeroed so that a caller that ignores the code still sees no plaintext.
[[gnu::cold]] int64_t fail(aead_ctx &ctx, Lease &lease, int rc, uint8_t *out, size_t out_len) noexcept {
    if (rc == AEAD_ERR_AUTH) ctx.forgeries.fetch_add(1, std::memory_order_relaxed);
    if (rc != AEAD_ERR_AUTH && lease.worker != nullptr) {
        ctx.workers.drop(lease);
        lease = Lease{};
    }
    if (out_len != 0) std::memset(out, 0, out_len);
    return rc;
}

// One operation on a worker taken into `lease` (empty on entry); a worker that failed midway is dropped
// and the lease emptied. The caller gives back what is left. number: as seal_open_call's.
template <int Op>
[[gnu::always_inline]] inline int64_t seal_open_one(aead_ctx &ctx, Lease &lease, const uint8_t *nonce,
                                                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                   const uint8_t *in, size_t in_len, uint8_t *out,
                                                   size_t out_cap, const uint64_t *number) noexcept {
    size_t out_len = 0;
    if (const int64_t refused = check_call<Op>(ctx, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap, out_len))
        return refused;

    if (const int rc = ctx.workers.take_or_make(lease, [&](shim::Worker **w) { return shim::worker_new(*ctx.key, w); }))
        [[unlikely]] return fail(ctx, lease, rc, out, out_len);
    Bytes n{nonce, nonce_len};
    Bytes a{aad, aad_len};
    // The nonce a policy decides on is the library's own copy, and that copy is what libcrypto gets: a
    // caller's buffer read twice could change in between (another thread, shared memory) and have a
    // record sealed under a nonce that was never checked. Sequenced nonces are 12 bytes, random 12, 16, 24 or 32.
    // DTLS 1.2's AAD is checked against the nonce, so it is copied too (13 bytes). A record number's
    // nonce is the library's already.
    uint8_t own_nonce[aead::kMaxRandomNonceSize];
    uint8_t own_aad[kMaxRuleAadSize];
    uint64_t record = 0;  // the record number an open on a windowed context commits
    // Taken after the worker, so a failed allocation cannot burn a sequence number; a refused nonce is
    // a refusal like the checks above and writes nothing.
    if constexpr (Op == AEAD_SEAL) {
        if (ctx.nonces.sequenced()) {
            // A copy of this context's sequence may live on in the parent (or a sibling) of a fork():
            // only the process that made the context seals on it (aead.h, AEAD_ERR_FORKED).
            if (aead::fork_generation() != ctx.born) [[unlikely]] return AEAD_ERR_FORKED;
            if (number != nullptr) {
                // The record layer's rows (QUIC, DTLS 1.3) have no AAD rule past check_call's.
                if (const int rc = ctx.nonces.commit(*number)) return rc;
            } else {
                std::memcpy(own_nonce, nonce, kPolicyNonceSize);
                n = Bytes{own_nonce, kPolicyNonceSize};
                if (ctx.nonces.aad_carries_field()) [[unlikely]] {
                    if (const int rc = aad_with_field(ctx, ctx.nonces.field_of(own_nonce), aad, aad_len, own_aad)) return rc;
                    a = Bytes{own_aad, aad_len};
                }
                if (const int rc = ctx.nonces.check_and_commit(own_nonce)) return rc;
            }
        } else if (ctx.nonces.random()) {
            if (const int rc = ctx.nonces.reserve_random_seal()) return rc;  // a refusal: nothing written
        }
    } else if (ctx.window) [[unlikely]] {
        // The replay window's first half: a record number already accepted, or left of the window, is
        // refused before any decryption, and this check writes nothing.
        if (number == nullptr) {
            std::memcpy(own_nonce, nonce, kPolicyNonceSize);
            n = Bytes{own_nonce, kPolicyNonceSize};
            if (const int rc = ctx.nonces.record_number(own_nonce, record)) return rc;
        } else {
            if (const int rc = ctx.nonces.check_number(*number)) return rc;
            record = *number;
        }
        if (ctx.nonces.aad_carries_field()) {
            if (const int rc = aad_with_field(ctx, ctx.nonces.field_of_number(record), aad, aad_len, own_aad)) return rc;
            a = Bytes{own_aad, aad_len};
        }
        if (ctx.window->seen(record)) {
            ctx.replays.fetch_add(1, std::memory_order_relaxed);
            return AEAD_ERR_REPLAY;
        }
    }
    // The random policy (nonce || ciphertext || tag): the nonce is drawn here and written to out, or
    // read from in on open.
    const uint8_t *body = in;  // open: ciphertext || tag
    uint8_t *dest = out;       // seal: where the ciphertext goes
    if (ctx.prefix != 0) [[unlikely]] {
        if constexpr (Op == AEAD_SEAL) {
            if (const int rc = shim::random_nonce(*lease.worker, own_nonce, ctx.prefix, aead::fork_generation()))
                return fail(ctx, lease, rc, out, out_len);
            std::memcpy(out, own_nonce, ctx.prefix);
            n = Bytes{own_nonce, ctx.prefix};
            dest = out + ctx.prefix;
        } else {
            n = Bytes{in, ctx.prefix};
            body = in + ctx.prefix;
        }
    }
    // One call site each for the shim's seal and open, so that LTO inlines them.
    const int rc = Op == AEAD_SEAL
                       ? shim::seal(*lease.worker, n, a, Bytes{in, in_len}, dest, ctx.tag_size)
                       : shim::open(*lease.worker, n, a, Bytes{body, out_len}, Bytes{body + out_len, ctx.tag_size}, out);
    if (rc != 0) [[unlikely]] return fail(ctx, lease, rc, out, out_len);
    // The window's second half, only now that the tag verified: one atomic commit. Two opens of one
    // record may both get here; the one that commits second gets AEAD_ERR_REPLAY and no plaintext.
    if (Op == AEAD_OPEN && ctx.window && !ctx.window->accept(record)) [[unlikely]] {
        ctx.replays.fetch_add(1, std::memory_order_relaxed);
        if (out_len != 0) std::memset(out, 0, out_len);
        return AEAD_ERR_REPLAY;
    }
    return static_cast<int64_t>(out_len);
}

// AES-SIV: the components (the caller's, already copied, with room for one more) and the nonce as the
// last of them. The same checks as every call, plus each component's; then SIV || ciphertext.
template <int Op>
[[gnu::noinline]] int64_t siv_one(aead_ctx &ctx, const uint8_t *nonce, size_t nonce_len, Bytes *components,
                                  size_t count, const uint8_t *in, size_t in_len, uint8_t *out,
                                  size_t out_cap) noexcept {
    if (count + (nonce_len != 0) > aead::kSivMaxComponents) return AEAD_ERR_TOO_LONG;
    for (size_t i = 0; i < count; ++i)
        if (bad_range(components[i].data, components[i].size)) return AEAD_ERR_ARG;
    size_t out_len = 0;
    if (const int64_t refused = check_call<Op>(ctx, nonce, nonce_len, nullptr, 0, in, in_len, out, out_cap, out_len))
        return refused;
    const auto o = reinterpret_cast<uintptr_t>(out);
    for (size_t i = 0; i < count; ++i) {
        if (components[i].size > ctx.alg.max_aad) return AEAD_ERR_TOO_LONG;
        // An open of an empty message writes nothing, so its out overlaps nothing.
        if (out_len != 0 && meets(o, o + out_len, components[i].data, components[i].size)) return AEAD_ERR_OVERLAP;
    }
    const size_t message = Op == AEAD_SEAL ? in_len : out_len;
    if (message == 0 && !shim::siv_takes_empty()) return AEAD_ERR_UNSUPPORTED;  // that libcrypto cannot
    if (nonce_len != 0) components[count++] = Bytes{nonce, nonce_len};
    Lease lease;
    if (const int rc = ctx.workers.take_or_make(lease, [&](shim::Worker **w) { return shim::worker_new(*ctx.key, w); }))
        [[unlikely]] return fail(ctx, lease, rc, out, out_len);
    const int rc = Op == AEAD_SEAL
                       ? shim::siv_seal(*lease.worker, components, count, Bytes{in, in_len}, out, out + aead::kSivSize)
                       : shim::siv_open(*lease.worker, components, count, Bytes{in + aead::kSivSize, out_len},
                                        Bytes{in, aead::kSivSize}, out);
    const int64_t r = rc == 0 ? static_cast<int64_t>(out_len) : fail(ctx, lease, rc, out, out_len);
    if (lease.worker != nullptr) ctx.workers.give(lease);
    return r;
}

// AES-SIV with one component, the AAD (even when empty): RFC 5297 section 6's AEAD form. Out of line, with
// aead_seal_open's arguments in their places, so that the other families' path is a few checks and a jump.
[[gnu::noinline, gnu::cold]] int64_t siv_aead(aead_ctx &ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                             const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                                             uint8_t *out, size_t out_cap) noexcept {
    Bytes components[2] = {{aad, aad_len}, {nullptr, 0}};
    return op == AEAD_SEAL ? siv_one<AEAD_SEAL>(ctx, nonce, nonce_len, components, 1, in, in_len, out, out_cap)
                           : siv_one<AEAD_OPEN>(ctx, nonce, nonce_len, components, 1, in, in_len, out, out_cap);
}

// aead_seal_open's work, for it and for the batches (entry points are not called from inside).
[[gnu::always_inline]] inline int64_t seal_open(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                                                uint8_t *out, size_t out_cap) noexcept {
    if (ctx == nullptr || (op != AEAD_SEAL && op != AEAD_OPEN)) return AEAD_ERR_ARG;
    if (ctx->siv) [[unlikely]] return siv_aead(*ctx, op, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap);
    return op == AEAD_SEAL
               ? aead::seal_open_call<AEAD_SEAL>(*ctx, nullptr, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap)
               : aead::seal_open_call<AEAD_OPEN>(*ctx, nullptr, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap);
}

}  // namespace

// The whole call is this one function: the shim's seal and open (another translation unit, joined by
// LTO) are inlined into it only while it is their one call site, so every entry point and the record
// layer call it rather than inlining it again (noinline; callgrind: about 50 instructions per call saved).
template <int Op>
[[gnu::noinline]] int64_t aead::seal_open_call(aead_ctx &ctx, const uint64_t *number, const uint8_t *nonce,
                                               size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                               size_t in_len, uint8_t *out, size_t out_cap) noexcept {
    Lease lease;
    const int64_t r = seal_open_one<Op>(ctx, lease, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap, number);
    if (lease.worker != nullptr) ctx.workers.give(lease);
    return r;
}
// (number where aead_seal_open has op: its arguments stay in their registers and stack slots, and the
// call compiles to a jump.)
template int64_t aead::seal_open_call<AEAD_SEAL>(aead_ctx &, const uint64_t *, const uint8_t *, size_t,
                                                 const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *, size_t) noexcept;
template int64_t aead::seal_open_call<AEAD_OPEN>(aead_ctx &, const uint64_t *, const uint8_t *, size_t,
                                                 const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *, size_t) noexcept;

extern "C" AEAD_API int64_t aead_seal_open(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                                           uint8_t *out, size_t out_cap) noexcept {
    return seal_open(ctx, op, nonce, nonce_len, aad, aad_len, in, in_len, out, out_cap);
}

// Records in order, each exactly as one call of `one` (each its own worker lease: uncontended, one
// exchange on the caller's home slot). The batch saves the caller's crossings, not the library's work.
namespace {
template <typename Record, typename One>
int64_t batch(aead_ctx *ctx, int op, Record *records, size_t count, One one) noexcept {
    if (ctx == nullptr || (records == nullptr && count != 0) || (op != AEAD_SEAL && op != AEAD_OPEN))
        return AEAD_ERR_ARG;
    int64_t ok = 0;
    for (size_t i = 0; i < count; ++i) {
        Record &r = records[i];
        r.result = one(r);
        ok += r.result >= 0;
    }
    return ok;
}
}  // namespace

extern "C" AEAD_API int64_t aead_seal_open_many(aead_ctx *ctx, int op, aead_record *records,
                                                size_t count) noexcept {
    return batch(ctx, op, records, count, [&](const aead_record &r) {
        return seal_open(ctx, op, r.nonce, r.nonce_len, r.aad, r.aad_len, r.in, r.in_len, r.out, r.out_cap);
    });
}

// The AAD as components: copied once (a caller's array changing under the call changes nothing checked),
// then SIV's path, or for every other family aead_seal_open's with its one AAD.
namespace {
int64_t seal_open_v(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len, const aead_buf *aad,
                    size_t aad_count, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) noexcept {
    if (ctx == nullptr || (op != AEAD_SEAL && op != AEAD_OPEN) || (aad == nullptr && aad_count != 0))
        return AEAD_ERR_ARG;
    if (!ctx->siv) {
        if (aad_count > 1) return AEAD_ERR_ARG;
        const aead_buf one = aad_count == 1 ? aad[0] : aead_buf{nullptr, 0};
        return seal_open(ctx, op, nonce, nonce_len, one.data, one.len, in, in_len, out, out_cap);
    }
    if (aad_count > aead::kSivMaxComponents) return AEAD_ERR_TOO_LONG;
    Bytes components[aead::kSivMaxComponents];
    for (size_t i = 0; i < aad_count; ++i) components[i] = Bytes{aad[i].data, aad[i].len};
    return op == AEAD_SEAL ? siv_one<AEAD_SEAL>(*ctx, nonce, nonce_len, components, aad_count, in, in_len, out, out_cap)
                           : siv_one<AEAD_OPEN>(*ctx, nonce, nonce_len, components, aad_count, in, in_len, out, out_cap);
}
}  // namespace

extern "C" AEAD_API int64_t aead_seal_open_v(aead_ctx *ctx, int op, const uint8_t *nonce, size_t nonce_len,
                                             const aead_buf *aad, size_t aad_count, const uint8_t *in,
                                             size_t in_len, uint8_t *out, size_t out_cap) noexcept {
    return seal_open_v(ctx, op, nonce, nonce_len, aad, aad_count, in, in_len, out, out_cap);
}

extern "C" AEAD_API int64_t aead_seal_open_many_v(aead_ctx *ctx, int op, aead_record_v *records,
                                                  size_t count) noexcept {
    return batch(ctx, op, records, count, [&](const aead_record_v &r) {
        return seal_open_v(ctx, op, r.nonce, r.nonce_len, r.aad, r.aad_count, r.in, r.in_len, r.out, r.out_cap);
    });
}
