//go:build go1.24 && !race

package aead

import "testing"

// TestZeroAllocs: with #cgo noescape/nocallback (Go 1.24+), Seal and Open into a dst with enough
// capacity allocate nothing, including a failing Open and a nonce inside the output region.
func TestZeroAllocs(t *testing.T) {
	for _, c := range allConstructors {
		if c.tls != 0 {
			continue
		}
		a, err := c.new(make([]byte, c.key))
		if err != nil {
			t.Fatal(err)
		}
		ns := a.NonceSize()
		nonce, aad := make([]byte, ns), make([]byte, 13)
		for _, size := range []int{0, 64, 16384} {
			pt := make([]byte, size)
			buf := make([]byte, 0, size+ns+a.Overhead())
			ct := a.Seal(nil, nonce, pt, aad)
			bad := append([]byte{}, ct...)
			bad[0] ^= 1
			var err error
			checks := map[string]func(){
				"Seal":            func() { a.Seal(buf, nonce, pt, aad) },
				"Open":            func() { _, err = a.Open(buf, nonce, ct, aad) },
				"failing Open":    func() { _, err = a.Open(buf, nonce, bad, aad) },
				"Seal in place":   func() { b := buf[:size]; a.Seal(b[:0], nonce, b, aad) },
				"nonce in output": func() { b := buf[:ns]; a.Seal(b[:0], b, pt, aad) },
			}
			for name, f := range checks {
				if n := testing.AllocsPerRun(50, f); n != 0 {
					t.Errorf("%s %s %d B: %v allocs per run", c.name, name, size, n)
				}
			}
			_ = err
		}
	}
	// The random-nonce AEAD: Seal, Open, in place both ways, failing Open.
	g, err := NewGCMWithRandomNonce(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 64, 16384} {
		pt, aad := make([]byte, size), make([]byte, 13)
		buf := make([]byte, 0, size+28)
		ct := g.Seal(nil, nil, pt, aad)
		bad := flip(ct, 20)
		inPlace := make([]byte, size+28)
		checks := map[string]func(){
			"Seal":          func() { g.Seal(buf, nil, pt, aad) },
			"Open":          func() { g.Open(buf, nil, ct, aad) },
			"failing Open":  func() { g.Open(buf, nil, bad, aad) },
			"Seal in place": func() { g.Seal(inPlace[:0], nil, inPlace[:size], aad) },
			"Open in place": func() { copy(inPlace, ct); g.Open(inPlace[:0], nil, inPlace, aad) },
		}
		for name, f := range checks {
			if n := testing.AllocsPerRun(50, f); n != 0 {
				t.Errorf("random nonce %s %d B: %v allocs per run", name, size, n)
			}
		}
	}
}
