// Nonce schedules as data: each policy's seal nonce is one row of constexpr fields, which NoncePolicy
// (nonce_policy.h) and the record layer (record_layer.h) read. A new schedule is a new row here.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aead.h"
#include "algorithm.h"

namespace aead {

// How a 12-byte nonce is made of a fixed part and a counter. The counter lives in the last 8 bytes
// (the field), under any bits the row fixes above it (DTLS 1.2's epoch); the first 4 are fixed.
enum class Form : uint8_t {
    none,    // the caller's nonce, unchecked
    concat,  // fixed(4) || field: an unknown IV is learned from the first seal's fixed part alone
    xor_iv,  // IV XOR (0^4 || field): an unknown IV is the first seal's nonce, which is counter `first`
    random,  // drawn by the library (the row's fields past `form` are unused but the limit code)
    offset,  // fixed(4) || (base + field) mod 2^64: the counter counts from a base, the first seal's field
             // when learned or a 12-byte IV's last 8 bytes (IG C.H scenario 3, RFC 5647's invocation counter)
};
enum class Order : uint8_t { big, little };  // the field's byte order in the nonce
enum class AadRule : uint8_t {
    any,             // any length
    exact,           // exactly aad_size bytes on seal (TLS record headers)
    dtls12_seq_num,  // aad_size bytes whose first 8 are the field (epoch || seq), on seal and windowed open
};
enum class Window : uint8_t { none, optional, required };  // a receive (replay) window
enum class Epoch : uint8_t {
    none,      // the context has no epoch (0)
    in_field,  // the field's bits above the counter are the epoch (DTLS 1.2): as wide as they are
    header,    // any: record headers carry its low bits, the nonce none of it (DTLS 1.3)
};

struct Schedule {
    Form form;
    Order order;
    unsigned counter_bits;  // the counter's width in the field; the bits above it are the epoch (or 0)
    Epoch epoch;            // where the context's epoch goes (in_field: the bits above the counter; else they are 0)
    uint64_t first;         // the smallest counter of the first seal
    uint64_t max;           // the largest counter a seal may use; past it: NONCE_EXHAUSTED
    int at_key_limit;       // the code of a seal past the key's limit (algorithm.h seal_limit)
    bool counted;           // seals are counted even with no key limit (aead_ctx_usage reports them)
    AadRule aad;
    size_t aad_size;
    Window window;
    uint16_t iv_sizes;      // bit n: aead_ctx_new_ex takes an n-byte IV (0: learned on the first seal)
    // The FIPS 140-3 IG C.H scenario of the seal nonces, which makes an AES-GCM seal approved under a
    // FIPS provider (docs/fips.md; the random row's only with a FIPS DRBG); nullptr: none.
    const char *ig_ch;
    uint64_t rekey_after;   // seals after which the protocol says to change keys (aead_usage); UINT64_MAX: none

    constexpr bool sequenced() const noexcept { return form == Form::concat || form == Form::xor_iv || form == Form::offset; }
    constexpr bool takes_iv(size_t n) const noexcept { return n < 16 && (iv_sizes >> n & 1) != 0; }
    // The epoch's largest value (DTLS 1.2: what is left of the field above the counter, 16 bits).
    constexpr uint64_t max_epoch() const noexcept {
        return epoch == Epoch::header ? UINT64_MAX : epoch == Epoch::in_field ? UINT64_MAX >> counter_bits : 0;
    }
};

inline constexpr uint16_t kIv0 = 1u << 0, kIv4 = 1u << 4, kIv12 = 1u << 12;
inline constexpr uint64_t kTlsMaxSequence = UINT64_MAX - 1;  // every sequence but 2^64-1 (RFC 5246/8446)
// RFC 4344 section 3.1: an SSH key should be replaced after 2^32 packets (aead_usage.rekey_after).
inline constexpr uint64_t kSshRekeyPackets = uint64_t{1} << 32;

// clang-format off
//                                           form           order        bits epoch             first max                           at_key_limit           counted aad                       aad_size window             iv_sizes             ig_ch    rekey_after
inline constexpr Schedule kNone           = {Form::none,    Order::big,  64,  Epoch::none,      0,  0,                            AEAD_ERR_KEY_LIMIT,    false,  AadRule::any,             0,   Window::none,      kIv0,                nullptr, UINT64_MAX};
inline constexpr Schedule kRandom         = {Form::random,  Order::big,  64,  Epoch::none,      0,  0,                            AEAD_ERR_NONCE_LIMIT,  false,  AadRule::any,             0,   Window::none,      kIv0,                "2",     UINT64_MAX};
// TLS 1.2 AES-GCM / AES-CCM (RFC 5288, RFC 6655): salt || explicit nonce; a 12-byte IV's last 8 bytes
// mask the explicit nonce, a 4-byte one is the salt alone (explicit nonce = sequence).
inline constexpr Schedule kTls12Explicit  = {Form::concat,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    false,  AadRule::exact,           13,  Window::none,      kIv0 | kIv4 | kIv12, "1.a",   UINT64_MAX};
// TLS 1.2 ChaCha20-Poly1305 (RFC 7905) and TLS 1.3 (RFC 8446 section 5.3): IV XOR sequence.
inline constexpr Schedule kTls12Xor       = {Form::xor_iv,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    false,  AadRule::exact,           13,  Window::none,      kIv0 | kIv12,        "1.a",   UINT64_MAX};
inline constexpr Schedule kTls13          = {Form::xor_iv,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    false,  AadRule::exact,           5,   Window::none,      kIv0 | kIv12,        "1.a",   UINT64_MAX};
// QUIC (RFC 9001 section 5.3): IV XOR packet number, 62-bit (RFC 9000 section 12.3).
inline constexpr Schedule kQuic           = {Form::xor_iv,  Order::big,  64,  Epoch::none,      0,  AEAD_QUIC_MAX_PACKET_NUMBER,  AEAD_ERR_KEY_LIMIT,    true,   AadRule::any,             0,   Window::optional,  kIv12,               "5",     UINT64_MAX};
// DTLS 1.2 (RFC 6347 section 4.1.2.1): the field is epoch(2) || seq(6), and the AAD's seq_num equals it.
inline constexpr Schedule kDtls12Explicit = {Form::concat,  Order::big,  48,  Epoch::in_field,  0,  AEAD_DTLS_MAX_SEQUENCE,       AEAD_ERR_KEY_LIMIT,    true,   AadRule::dtls12_seq_num,  13,  Window::required,  kIv4,                nullptr, UINT64_MAX};
inline constexpr Schedule kDtls12Xor      = {Form::xor_iv,  Order::big,  48,  Epoch::in_field,  0,  AEAD_DTLS_MAX_SEQUENCE,       AEAD_ERR_KEY_LIMIT,    true,   AadRule::dtls12_seq_num,  13,  Window::required,  kIv12,               nullptr, UINT64_MAX};
// DTLS 1.3 (RFC 9147 section 4): IV XOR 64-bit record sequence number, kept to 48 bits.
inline constexpr Schedule kDtls13         = {Form::xor_iv,  Order::big,  64,  Epoch::header,    0,  AEAD_DTLS_MAX_SEQUENCE,       AEAD_ERR_KEY_LIMIT,    true,   AadRule::any,             0,   Window::required,  kIv12,               nullptr, UINT64_MAX};
// Counter nonces for any protocol (IG C.H scenario 3, Go's NewGCMWithCounterNonce): fixed(4) || 64-bit
// counter, counted from the first seal's (or the IV's) value, strictly increasing, up to the value before it.
inline constexpr Schedule kCounter        = {Form::offset,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    false,  AadRule::any,             0,   Window::none,      kIv0 | kIv12,        "3",     UINT64_MAX};
// The same with the counter XORed with a fixed mask from 0 (Go's NewGCMWithXORCounterNonce): TLS 1.3's
// schedule with any AAD.
inline constexpr Schedule kXorCounter     = {Form::xor_iv,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    false,  AadRule::any,             0,   Window::none,      kIv0 | kIv12,        "3",     UINT64_MAX};
// SSH AES-GCM (RFC 5647 section 7.1, IG C.H scenario 1.d): the invocation counter from the IV's value,
// modulo 2^64, and the 4-byte packet length as AAD; seals are counted for RFC 4344's rekey point.
inline constexpr Schedule kSsh            = {Form::offset,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    true,   AadRule::exact,           4,   Window::none,      kIv0 | kIv12,        "1.d",   kSshRekeyPackets};
// HPKE (RFC 9180 section 5.2): base_nonce XOR I2OSP(seq, 12), any AAD; seq from 0 up to 2^64 - 2 (the
// 64-bit counter: RFC 9180 allows 2^96 - 1, which no sender reaches either). The recipient's opens go
// through a replay window. Seals are counted (aead_ctx_usage).
inline constexpr Schedule kHpke           = {Form::xor_iv,  Order::big,  64,  Epoch::none,      0,  kTlsMaxSequence,              AEAD_ERR_KEY_LIMIT,    true,   AadRule::any,             0,   Window::optional,  kIv12,               "3",     UINT64_MAX};
// clang-format on

// The row of a context: (D)TLS 1.2 takes the explicit counter where the suite has one (AES-GCM, AES-CCM).
constexpr const Schedule &schedule_of(const Algorithm &a, int policy) noexcept {
    switch (policy) {
        case AEAD_POLICY_TLS12: return tls12_explicit_counter(a) ? kTls12Explicit : kTls12Xor;
        case AEAD_POLICY_TLS13: return kTls13;
        case AEAD_POLICY_RANDOM_NONCE: return kRandom;
        case AEAD_POLICY_QUIC: return kQuic;
        case AEAD_POLICY_DTLS12: return tls12_explicit_counter(a) ? kDtls12Explicit : kDtls12Xor;
        case AEAD_POLICY_DTLS13: return kDtls13;
        case AEAD_POLICY_COUNTER: return kCounter;
        case AEAD_POLICY_XOR_COUNTER: return kXorCounter;
        case AEAD_POLICY_SSH: return kSsh;
        case kPolicyHpke: return kHpke;
        default: return kNone;
    }
}

// The nonce layout every sequenced row shares: 4 fixed bytes, then the 8-byte field.
inline constexpr size_t kSequencedNonceSize = 12;
inline constexpr size_t kFixedSize = 4;

// The field from its 8 bytes, and back, in a row's byte order. (Written out, not looped: GCC then
// makes each a single byte-swapped load or store.)
constexpr uint64_t load_be64(const uint8_t *p) noexcept {
    return uint64_t{p[0]} << 56 | uint64_t{p[1]} << 48 | uint64_t{p[2]} << 40 | uint64_t{p[3]} << 32 |
           uint64_t{p[4]} << 24 | uint64_t{p[5]} << 16 | uint64_t{p[6]} << 8 | uint64_t{p[7]};
}
// GCOVR_EXCL_START run only by a little-endian row, which no policy of today has: the static_asserts of
// schedule_checks below run it at compile time.
constexpr uint64_t load_le64(const uint8_t *p) noexcept {
    return uint64_t{p[7]} << 56 | uint64_t{p[6]} << 48 | uint64_t{p[5]} << 40 | uint64_t{p[4]} << 32 |
           uint64_t{p[3]} << 24 | uint64_t{p[2]} << 16 | uint64_t{p[1]} << 8 | uint64_t{p[0]};
}
// GCOVR_EXCL_STOP
constexpr uint64_t load_field(Order o, const uint8_t *p) noexcept {
    return o == Order::big ? load_be64(p) : load_le64(p);  // GCOVR_EXCL_BR_LINE no row of today is little-endian: the static_asserts below check that order
}
constexpr void store_field(Order o, uint64_t v, uint8_t *p) noexcept {
    for (size_t i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (o == Order::big ? 56 - 8 * i : 8 * i));  // GCOVR_EXCL_BR_LINE as load_field
}

namespace schedule_checks {
constexpr bool round_trip(Order o, uint64_t v, uint8_t first_byte) noexcept {
    uint8_t b[8] = {};
    store_field(o, v, b);
    return load_field(o, b) == v && b[0] == first_byte;
}
static_assert(round_trip(Order::big, 0x0102030405060708, 0x01) && round_trip(Order::little, 0x0102030405060708, 0x08));

// What the code reading a row relies on: a counter with room for n + 1, an epoch only under a counter
// narrower than the field and never learned (the IV is given), and AAD sizes a record header has.
constexpr bool well_formed(const Schedule &s) noexcept {
    if (!s.sequenced()) return !s.takes_iv(4) && !s.takes_iv(12) && s.window == Window::none;
    return s.counter_bits >= 1 && s.counter_bits <= 64 && s.max < UINT64_MAX && s.first <= s.max &&
           (s.counter_bits == 64 || s.max >> s.counter_bits == 0) &&
           (s.epoch != Epoch::in_field || (s.counter_bits < 64 && !s.takes_iv(0))) &&
           (s.aad == AadRule::any) == (s.aad_size == 0) &&
           (s.aad != AadRule::dtls12_seq_num || s.aad_size >= 8) && (s.takes_iv(0) || s.takes_iv(12) || s.takes_iv(4));
}
static_assert(well_formed(kNone) && well_formed(kRandom) && well_formed(kTls12Explicit) && well_formed(kTls12Xor) &&
              well_formed(kTls13) && well_formed(kQuic) && well_formed(kDtls12Explicit) && well_formed(kDtls12Xor) &&
              well_formed(kDtls13) && well_formed(kCounter) && well_formed(kXorCounter) && well_formed(kSsh) &&
              well_formed(kHpke));
}  // namespace schedule_checks

}  // namespace aead
