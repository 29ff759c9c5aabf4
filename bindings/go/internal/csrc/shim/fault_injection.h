// Test-only failure switch: in a -Dfault_injection=true build every fallible libcrypto call in the shim
// first asks fault_point(), which fails the Nth call when armed. In normal builds it is constant false.
#pragma once

namespace aead::shim {

#ifdef AEAD_FAULT_INJECTION
bool fault_point() noexcept;
#else
constexpr bool fault_point() noexcept { return false; }
#endif

}  // namespace aead::shim
