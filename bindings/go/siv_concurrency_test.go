package aead

import (
	"bytes"
	"errors"
	"math/rand"
	"sync/atomic"
	"testing"
)

// TestAESSIVConcurrent: 8 goroutines share one AESSIV and mix Seal, SealComponents (checked
// against the test's RFC 5297 reference), in-place and forged opens. Run it with -race too.
func TestAESSIVConcurrent(t *testing.T) {
	iters := shortOr(300, 40)
	key := randBytes(rand.New(rand.NewSource(9)), 48)
	s := mustSIV(t, key, 16)
	var checked atomic.Int64
	inGoroutines(t, 8, func(r *rand.Rand) error {
		for i := 0; i < iters; i++ {
			pt := randBytes(r, 1+r.Intn(3000))
			comps := make([][]byte, r.Intn(8))
			for j := range comps {
				comps[j] = randBytes(r, r.Intn(64))
			}
			var ct []byte
			if r.Intn(2) == 0 {
				nonce := randBytes(r, 16)
				ad := randBytes(r, r.Intn(40))
				ct = s.Seal(nil, nonce, pt, ad)
				comps = [][]byte{ad, nonce}
			} else {
				ct = s.SealComponents(nil, pt, comps...)
			}
			if !bytes.Equal(ct, refSIVSeal(t, key, comps, pt)) {
				return errors.New("concurrent seal differs from the reference")
			}
			got, err := s.OpenComponents(ct[:0], ct, comps...) // in place
			if err != nil || !bytes.Equal(got, pt) {
				return errors.New("concurrent in-place open failed")
			}
			ct = s.SealComponents(nil, pt, comps...)
			if _, err := s.OpenComponents(nil, flip(ct, r.Intn(len(ct))), comps...); !errors.Is(err, ErrOpen) {
				return errors.New("concurrent forged open accepted")
			}
			checked.Add(1)
		}
		return nil
	})
	t.Logf("%d messages checked across 8 goroutines", checked.Load())
}
