package aead

import (
	"math/rand"
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

// inGoroutines runs body in n goroutines at once, each with its own seeded rand, and fails t with
// the errors they return.
func inGoroutines(t *testing.T, n int, body func(r *rand.Rand) error) {
	t.Helper()
	testkit.InGoroutines(t, n, func(g int) error { return body(rand.New(rand.NewSource(int64(100 + g)))) })
}
