//go:build !libaead_system

package forktest

// The header of the bundled copy; the aead_* functions come from the binding's package, which the
// tests that use this package link.

// #cgo CPPFLAGS: -I${SRCDIR}/../csrc/include
import "C"
