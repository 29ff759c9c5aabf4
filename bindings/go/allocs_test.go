//go:build go1.24 && !race

package aead

import (
	"crypto/cipher"
	"strings"
	"testing"
)

// expectZeroAllocs fails t for each of checks that allocates (testing.AllocsPerRun, 50 runs),
// naming it "<of> <check's name> <size> B" (of may be empty).
func expectZeroAllocs(t *testing.T, of string, size int, checks map[string]func()) {
	t.Helper()
	for name, f := range checks {
		if n := testing.AllocsPerRun(50, f); n != 0 {
			t.Errorf("%s %d B: %v allocs per run", strings.TrimPrefix(of+" "+name, " "), size, n)
		}
	}
}

// sealOpenChecks are the checks, for expectZeroAllocs, of a's Seal and Open of pt into a dst with
// enough capacity, of a failing Open (the ciphertext's byte flipAt flipped) and of Seal and Open in
// place; nonce is nil for a random-nonce AEAD.
func sealOpenChecks(a cipher.AEAD, nonce, pt, aad []byte, flipAt int) map[string]func() {
	size := len(pt)
	buf := make([]byte, 0, size+a.Overhead())
	ct := a.Seal(nil, nonce, pt, aad)
	bad := flip(ct, flipAt)
	inPlace := make([]byte, size+a.Overhead())
	return map[string]func(){
		"Seal":          func() { a.Seal(buf, nonce, pt, aad) },
		"Open":          func() { a.Open(buf, nonce, ct, aad) },
		"failing Open":  func() { a.Open(buf, nonce, bad, aad) },
		"Seal in place": func() { a.Seal(inPlace[:0], nonce, inPlace[:size], aad) },
		"Open in place": func() { copy(inPlace, ct); a.Open(inPlace[:0], nonce, inPlace, aad) },
	}
}

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
			expectZeroAllocs(t, c.name, size, checks)
			_ = err
		}
	}
	// The random-nonce AEADs (AES-GCM, XChaCha20-Poly1305, AEGIS): Seal, Open, in place both ways,
	// failing Open.
	for _, c := range append([]constructor{
		{"NewGCMWithRandomNonce", NewGCMWithRandomNonce, 16, 0},
		{"NewXChaCha20Poly1305WithRandomNonce", NewXChaCha20Poly1305WithRandomNonce, 32, 0},
	}, aegisRandomConstructors...) {
		g, err := c.new(make([]byte, c.key))
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{0, 64, 16384} {
			pt, aad := make([]byte, size), make([]byte, 13)
			expectZeroAllocs(t, c.name, size, sealOpenChecks(g, nil, pt, aad, 20))
		}
	}
}

// TestBatchAllocs: a reused Batch allocates nothing, exactly (testing.AllocsPerRun, after its
// warm-up call has made the scratch): small records (copied through the C scratch), large ones
// (a cgo call each), mixed, random-nonce ones, and a batch larger than the scratch.
func TestBatchAllocs(t *testing.T) {
	a, _ := NewGCM(make([]byte, 16))
	g, _ := NewGCMWithRandomNonce(make([]byte, 16))
	nonce, aad := make([]byte, 12), make([]byte, 13)
	var b Batch
	for _, n := range []int{1, 8, 300, 1000} {
		for _, size := range []int{64, 1024, 16384, -1} {
			recs := make([]Record, n)
			opens := make([]Record, n)
			for i := range recs {
				sz := size
				if size < 0 {
					sz = []int{0, 64, 700, 5000}[i%4]
				}
				pt := make([]byte, sz)
				recs[i] = Record{Dst: make([]byte, 0, sz+16), Nonce: nonce, Input: pt, AdditionalData: aad}
				opens[i] = Record{Dst: make([]byte, 0, sz), Nonce: nonce, Input: a.Seal(nil, nonce, pt, aad), AdditionalData: aad}
			}
			if got := testing.AllocsPerRun(10, func() { b.Seal(a, recs) }); got != 0 {
				t.Errorf("Seal, %d records of %d B: %v allocs per batch", n, size, got)
			}
			if got := testing.AllocsPerRun(10, func() { b.Open(a, opens) }); got != 0 {
				t.Errorf("Open, %d records of %d B: %v allocs per batch", n, size, got)
			}
			for i := range recs {
				recs[i].Nonce, recs[i].Dst = nil, make([]byte, 0, len(recs[i].Input)+28)
			}
			if got := testing.AllocsPerRun(10, func() { b.Seal(g, recs) }); got != 0 {
				t.Errorf("random-nonce Seal, %d records of %d B: %v allocs per batch", n, size, got)
			}
			for i := range recs {
				if recs[i].Err != nil {
					t.Fatal(recs[i].Err)
				}
			}
		}
	}
}
