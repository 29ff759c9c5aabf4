// Package cryptotest completes the copy of crypto/internal/cryptotest that tests/peers/run.py makes
// (aead.go and methods.go as they are, and their helpers): TestAllImplementations stands for
// cryptotest's, whose choice among Go's assembly implementations goes through crypto/internal/impl,
// which cannot be imported outside GOROOT; the suite runs once, on the default implementation
// (the control) or on libaead.
package cryptotest

import "testing"

// TestAllImplementations runs f once.
func TestAllImplementations(t *testing.T, pkg string, f func(t *testing.T)) { f(t) }
