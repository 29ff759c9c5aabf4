//go:build !libaead_system

package forktest

// The module's header (include/ at the repository root); the aead_* functions come from the
// binding's package, which the tests that use this package link.

// #cgo CPPFLAGS: -I${SRCDIR}/../../../../include
import "C"
