//go:build !race

package aead

import (
	"bytes"
	"errors"
	"math/rand"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestAESSIVHostile: while other goroutines seal and open, one goroutine keeps rewriting the bytes
// of the plaintext, the components and the ciphertext, and swaps the entries of the component
// slice between buffers of the same length (a data race by design: the build excludes -race). No
// call may crash, write outside its output region (guard bytes around it), return a wrong length,
// or fail otherwise than with ErrOpen; a message nobody mutates opens every time; afterwards the AEAD
// still matches the reference.
func TestAESSIVHostile(t *testing.T) {
	key := randBytes(rand.New(rand.NewSource(11)), 32)
	s := mustSIV(t, key, 16)
	const size, guard = 300, 32
	pt := randBytes(rand.New(rand.NewSource(12)), size)
	pool := [][]byte{make([]byte, 24), make([]byte, 24), make([]byte, 24), make([]byte, 24)}
	comps := [][]byte{pool[0], pool[1], pool[2]}
	nonce, ad := make([]byte, 16), make([]byte, 24)
	sealed := s.SealComponents(nil, pt, comps...)
	// Untouched by the mutator: opening it must succeed every time, to these bytes.
	stablePT := append([]byte{}, pt...)
	stableComps := [][]byte{append([]byte{}, pool[0]...), nil, append([]byte{}, pool[1]...)}
	stable := s.SealComponents(nil, stablePT, stableComps...)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the mutator
		defer wg.Done()
		r := rand.New(rand.NewSource(13))
		for !stop.Load() {
			pt[r.Intn(size)] ^= byte(r.Intn(256))
			pool[r.Intn(4)][r.Intn(24)]++
			sealed[r.Intn(len(sealed))] ^= 1
			comps[r.Intn(3)] = pool[r.Intn(4)]
			ad[r.Intn(24)]++
			nonce[r.Intn(16)]++
		}
	}()
	var calls, opened, failed atomic.Int64
	errs := make(chan error, 4)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			buf := make([]byte, guard+size+16+guard)
			for i := 0; i < 400; i++ {
				for j := range buf {
					buf[j] = 0xa5
				}
				out := buf[guard : guard : guard+size+16]
				var n int
				switch (i + g) % 5 {
				case 4:
					got, err := s.OpenComponents(out, stable, stableComps...)
					if err != nil || !bytes.Equal(got, stablePT) {
						errs <- errors.New("an unmutated message failed to open during the hostile run")
						return
					}
					opened.Add(1)
					n = len(got) + 16
				case 0:
					n = len(s.SealComponents(out, pt, comps...))
				case 1:
					n = len(s.Seal(out, nonce, pt, ad))
				case 2, 3:
					var got []byte
					var err error
					if (i+g)%5 == 2 {
						got, err = s.OpenComponents(out, sealed, comps...)
					} else {
						got, err = s.Open(out, nonce, sealed, ad)
					}
					switch {
					case err == nil:
						opened.Add(1)
						n = len(got) + 16
					case errors.Is(err, ErrOpen):
						failed.Add(1)
						n = size + 16
						if !bytes.Equal(buf[guard:guard+size], make([]byte, size)) {
							errs <- errors.New("failed open left its output unzeroed")
							return
						}
					default:
						errs <- err
						return
					}
				}
				calls.Add(1)
				if n != size+16 {
					errs <- errors.New("wrong output length under mutation")
					return
				}
				for j := range buf {
					if (j < guard || j >= guard+size+16) && buf[j] != 0xa5 {
						errs <- errors.New("write outside the output region")
						return
					}
				}
			}
		}(g)
	}
	// Stop the mutator once the callers are done (they are the WaitGroup's other members).
	done := make(chan struct{})
	go func() {
		for calls.Load() < 1200 && len(errs) == 0 {
			runtime.Gosched()
		}
		stop.Store(true)
		close(done)
	}()
	<-done
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := refSIVSeal(t, key, comps, pt)
	if got := s.SealComponents(nil, pt, comps...); !bytes.Equal(got, want) {
		t.Fatal("after the hostile run, SealComponents differs from the reference")
	}
	t.Logf("%d calls under mutation: %d opens succeeded, %d failed with ErrOpen, no write outside the output", calls.Load(), opened.Load(), failed.Load())
}
