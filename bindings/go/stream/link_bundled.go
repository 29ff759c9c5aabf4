//go:build !libaead_system

package stream

// The module's header (include/ at the repository root); the aead_* functions come from the
// binding's package github.com/libaead/libaead/bindings/go, which this package imports.

// #cgo CPPFLAGS: -I${SRCDIR}/../../../include
import "C"
