//go:build go1.24 && !race

package aead

import (
	"strconv"
	"testing"
)

// TestAESSIVAllocs counts Go allocations per call exactly (testing.AllocsPerRun; libcrypto's own
// per-call copy of the keyed SIV state is C memory, not counted): Seal and Open through the flat
// aead_seal_open, in place, failing, and with the nonce in the output, are 0; SealComponents and
// OpenComponents are 0 while the components occupy at most 5 distinct heap objects (the
// runtime.Pinner's inline store, reused from the runtime's per-P cache) or are sub-slices of one
// buffer, whatever their number, and beyond 5 objects allocate the Pinner's growing reference
// slice (measured and logged; at most 5, for 126 objects).
func TestAESSIVAllocs(t *testing.T) {
	s, err := NewAESSIV(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	nonce, ad := make([]byte, 16), make([]byte, 13)
	for _, size := range []int{1, 64, 16384} {
		pt := make([]byte, size)
		buf := make([]byte, 0, size+16)
		checks := sealOpenChecks(s, nonce, pt, ad, 0)
		checks["nonce in output"] = func() { b := buf[:16]; s.Seal(b[:0], b, pt, ad) }
		expectZeroAllocs(t, "", size, checks)
		for _, count := range []int{0, 1, 3, 5, 6, 20, 126} {
			comps := make([][]byte, count)
			for i := range comps {
				comps[i] = make([]byte, 16) // each its own heap object, pinned separately
			}
			sealed := s.SealComponents(nil, pt, comps...)
			seal := testing.AllocsPerRun(50, func() { s.SealComponents(buf, pt, comps...) })
			open := testing.AllocsPerRun(50, func() { s.OpenComponents(buf, sealed, comps...) })
			// One buffer holding every component: one object to pin, whatever the count.
			one := make([]byte, 16*count)
			shared := make([][]byte, count)
			for i := range shared {
				shared[i] = one[16*i : 16*i+16]
			}
			sharedSeal := testing.AllocsPerRun(50, func() { s.SealComponents(buf, pt, shared...) })
			limit := 0.0
			if count > 5 {
				limit = 5 // the Pinner's reference slice growing: 6 objects 1, 20 objects 2, 126 objects 5
			}
			if seal > limit || open > limit || sharedSeal != 0 {
				t.Errorf("%d components, %d B: SealComponents %v, OpenComponents %v, one shared buffer %v allocs per run", count, size, seal, open, sharedSeal)
			}
			if size == 64 {
				t.Logf("%s components (separate objects), 64 B: SealComponents %v allocs/op, OpenComponents %v; all in one buffer: %v",
					strconv.Itoa(count), seal, open, sharedSeal)
			}
		}
	}
}
