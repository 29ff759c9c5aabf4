// Caller buffers as address ranges: the one test every entry point applies before reading or writing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aead {

// A buffer [p, p + len) as integers. NULL with a length, or a range running past the end of the address
// space, is not a buffer: with u = p - 1 (so NULL becomes the top address), both make u + len wrap, one
// test for the two. The ranges that pass can be compared as half-open intervals without overflow.
[[gnu::always_inline]] inline bool bad_range(const void *p, size_t len) noexcept {
    const uintptr_t u = reinterpret_cast<uintptr_t>(p) - 1;
    return u + len < u;
}

// Whether a non-empty input [p, p + len) meets the non-empty written range [o, o_end) (callers skip an
// empty one: it meets nothing, even with o inside the input). Integers, not pointers: comparing pointers
// into unrelated objects is undefined.
[[gnu::always_inline]] inline bool meets(uintptr_t o, uintptr_t o_end, const void *p, size_t len) noexcept {
    const auto x = reinterpret_cast<uintptr_t>(p);
    return len != 0 && x < o_end && o < x + len;
}

}  // namespace aead
