//go:build go1.24 && !race

package aead

import (
	"errors"
	"testing"
)

// TestDTLS13ZeroAllocs, every suite: Protect, Unprotect, a refused replay and a forgery allocate
// nothing when the record's capacity holds the tag (one noescape cgo call each).
func TestDTLS13ZeroAllocs(t *testing.T) {
	for _, s := range dtls13Suites {
		_, tx, rx := newDTLS13Pair(t, s.suite, s.key, 3, 17)
		buf := make([]byte, 0, 1300)
		hdr := tx.AppendHeader(nil, []byte{1, 2, 3, 4}, true, true)
		seq := uint64(0)
		var rec []byte
		var err error
		protect := testing.AllocsPerRun(200, func() {
			seq++
			rec = append(append(buf[:0], hdr...), make([]byte, 1200)...)
			rec, err = tx.Protect(rec, len(hdr), seq)
		})
		if err != nil {
			t.Fatal(err)
		}
		saved := append([]byte{}, rec...)
		work := make([]byte, len(saved))
		first := true
		unprotect := testing.AllocsPerRun(200, func() {
			copy(work, saved)
			_, _, err = rx.Unprotect(work, 4)
			acceptedOnceThenReplay(t, &first, err)
		})
		// The forgery: the next record (a number the window has not seen), its tag flipped.
		next, err := tx.Protect(append(append(buf[:0:0], hdr...), make([]byte, 1200)...), len(hdr), seq+1)
		if err != nil {
			t.Fatal(err)
		}
		saved = append(saved[:0], next...)
		saved[len(saved)-1] ^= 1
		forged := testing.AllocsPerRun(200, func() {
			copy(work, saved)
			_, _, err = rx.Unprotect(work, 4)
		})
		if !errors.Is(err, ErrOpen) || errors.Is(err, ErrReplay) {
			t.Fatalf("forgery: %v", err)
		}
		if protect != 0 || unprotect != 0 || forged != 0 {
			t.Errorf("%s: allocs per Protect %v, Unprotect/replay %v, forgery %v; want 0", s.name, protect, unprotect, forged)
		}
	}
}
