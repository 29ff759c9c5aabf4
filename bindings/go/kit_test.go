package aead

import (
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// The helpers these tests share with the bench module's differential tests (internal/testkit).
var randBytes, diffSizes, catchPanic = testkit.RandBytes, testkit.DiffSizes, testkit.PanicText
var xorNonceT = testkit.XorNonce

// shortOr is full, or short under go test -short.
func shortOr(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}
