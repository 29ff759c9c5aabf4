//go:build go1.24 && !race

package hpke

import (
	"math/rand"
	"testing"
)

// TestZeroAllocs: AppendSeal, AppendOpen and AppendOpenAt into a dst with enough capacity allocate
// nothing (#cgo noescape / nocallback, Go 1.24+), a failed open included.
func TestZeroAllocs(t *testing.T) {
	snd, rcp := pair(t, rand.New(rand.NewSource(6)), newSuite(t, 0x0020, 1, 1), 0, 0)
	_, rcpAt := pair(t, rand.New(rand.NewSource(6)), newSuite(t, 0x0020, 1, 1), 0, 0)
	aad, pt := make([]byte, 13), make([]byte, 64)
	ct, back := make([]byte, 0, 80), make([]byte, 0, 64)
	var seq uint64
	if n := testing.AllocsPerRun(100, func() {
		ct, seq, _ = snd.AppendSeal(ct[:0], aad, pt)
	}); n != 0 {
		t.Fatalf("AppendSeal: %v allocs", n)
	}
	if seq != 100 { // AllocsPerRun runs the function once more to warm up
		t.Fatalf("seq %d after 101 seals", seq)
	}
	forged := append([]byte(nil), ct...)
	forged[0] ^= 1
	var err error
	if n := testing.AllocsPerRun(100, func() { _, err = rcp.AppendOpen(back[:0], aad, forged) }); n != 0 || err == nil {
		t.Fatalf("AppendOpen of a forgery: %v allocs, err %v", n, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, err = rcpAt.AppendOpenAt(back[:0], seq, aad, ct) }); n != 0 {
		t.Fatalf("AppendOpenAt: %v allocs", n)
	}
}
