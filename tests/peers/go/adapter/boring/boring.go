//go:build !goexperiment.boringcrypto

// Package boring stands for crypto/internal/boring (not importable outside GOROOT) in the peer
// suites: BoringCrypto is off in this toolchain (the build tag), which is all the suites ask.
package boring

// Enabled is crypto/internal/boring.Enabled.
const Enabled = false
