//go:build go1.24 && !race

package aead

import (
	"encoding/binary"
	"errors"
	"testing"
)

// TestDTLS12ZeroAllocs: a Seal, an Open, a refused replay and a forgery allocate nothing when
// cap(dst) suffices (the nonce is built on the stack and the cgo call is noescape).
func TestDTLS12ZeroAllocs(t *testing.T) {
	for _, c := range dtlsCases {
		for _, size := range []int{64, 1200} {
			_, _, tx, rx := newDTLSPair(t, c, 1, DTLSOptions{})
			pt := make([]byte, size)
			buf := make([]byte, 0, size+16)
			aad := dtlsAAD(1, 0, 23, size)
			seq := uint64(0)
			var err error
			seal := testing.AllocsPerRun(200, func() {
				seq++
				binary.BigEndian.PutUint64(aad, 1<<48|seq)
				_, err = tx.Seal(buf, 1, seq, aad, pt)
			})
			if err != nil {
				t.Fatal(err)
			}
			ct, _ := tx.Seal(nil, 1, seq+1, dtlsAAD(1, seq+1, 23, size), pt)
			aadFixed := dtlsAAD(1, seq+1, 23, size)
			first := true
			open := testing.AllocsPerRun(200, func() {
				_, err = rx.Open(buf, 1, seq+1, aadFixed, ct)
				acceptedOnceThenReplay(t, &first, err)
			})
			bad := append([]byte{}, ct...)
			bad[0] ^= 1
			binary.BigEndian.PutUint64(aadFixed, 1<<48|(seq+2))
			forged := testing.AllocsPerRun(200, func() { _, err = rx.Open(buf, 1, seq+2, aadFixed, bad) })
			if seal != 0 || open != 0 || forged != 0 {
				t.Errorf("%s %d B: allocs per Seal %v, Open/replay %v, forgery %v; want 0", c.name, size, seal, open, forged)
			}
		}
	}
}

// acceptedOnceThenReplay checks one of the repeated opens of the same record: the first (*first
// set) must succeed, every later one must be refused with ErrReplay.
func acceptedOnceThenReplay(t *testing.T, first *bool, err error) {
	t.Helper()
	if *first {
		if err != nil {
			t.Fatal(err)
		}
		*first = false
	} else if !errors.Is(err, ErrReplay) {
		t.Fatalf("replay: %v", err)
	}
}
