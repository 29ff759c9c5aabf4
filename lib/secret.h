// Key material on the stack, cleansed when it goes out of scope.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../shim/shim.h"

namespace aead {

template <size_t N>
struct Secret {
    uint8_t b[N] = {};
    Secret() noexcept = default;
    Secret(const Secret &) = delete;
    Secret &operator=(const Secret &) = delete;
    ~Secret() { shim::cleanse(b, N); }
};

}  // namespace aead
