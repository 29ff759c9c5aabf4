//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || s390x)

package aead

import (
	"bytes"
	"math"
	"syscall"
	"testing"
)

// hugeMapping maps the largest read-only, unbacked region it can (2^46 bytes down to 2^40): its
// pages are never touched, so it takes no memory, and a write anywhere in it faults.
func hugeMapping(t *testing.T) []byte { return readOnlyMapping(t, 46, 40) }

// readOnlyMapping maps 2^max down to 2^min read-only, unbacked bytes.
func readOnlyMapping(t *testing.T, max, min int) []byte {
	for shift := max; shift >= min; shift-- {
		m, err := syscall.Mmap(-1, 0, 1<<shift, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
		if err == nil {
			t.Cleanup(func() { syscall.Munmap(m) })
			return m
		}
	}
	t.Skip("no large read-only mapping available")
	return nil
}

// TestBatchHugeLengths (sizes never wrap): batches whose records' lengths sum past
// what an int64 (and a size_t) can hold, sliced from one huge read-only mapping, never real memory.
// Records that cannot be sealed or opened are refused with nothing written (their outputs lie in
// read-only memory: a write would kill the test), the records between them are done exactly,
// and a record over the size limit makes the whole batch panic before anything is sealed.
func TestBatchHugeLengths(t *testing.T) {
	m := hugeMapping(t)
	ro := readOnlyMapping(t, 16, 16)[:0] // read-only outputs, apart from m
	count := int(math.MaxInt64/uint64(len(m))) + 2
	t.Logf("%d records of a %d-byte mapping: summed AAD lengths %.3g > 2^63", count, len(m), float64(count)*float64(len(m)))
	var b Batch

	// Open: ciphertexts over the limit (2^36 bytes) with 2^40+-byte AADs are ErrOpen, not sent;
	// every 1000th record is a real one.
	g, _ := NewGCM(make([]byte, 16))
	nonce := make([]byte, 12)
	ct := g.Seal(nil, nonce, []byte("the real one"), []byte("aad"))
	recs := make([]Record, count)
	real := 0
	for i := range recs {
		if i%1000 == 500 {
			recs[i] = Record{Nonce: nonce, Input: ct, AdditionalData: []byte("aad"), Dst: make([]byte, 0, 64)}
			real++
			continue
		}
		recs[i] = Record{Nonce: m[:12], Input: m[:gcmMaxPlaintext+16+1], AdditionalData: m, Dst: ro}
	}
	if got := b.Open(g, recs); got != real {
		t.Fatalf("%d opens succeeded, want %d", got, real)
	}
	for i, r := range recs {
		if i%1000 == 500 {
			if r.Err != nil || string(r.Out) != "the real one" {
				t.Fatalf("record %d: %q, %v", i, r.Out, r.Err)
			}
		} else if r.Err != ErrOpen || r.Out != nil {
			t.Fatalf("record %d: %v, %v", i, r.Out, r.Err)
		}
	}

	// TLS 1.3 seal: 5-byte AAD required, so the huge-AAD records are refused by the library
	// (AEAD_ERR_AAD_SIZE, before it reads anything, consuming no sequence); the real records
	// between them take sequences 0, 1, 2, ... in order.
	iv := bytes.Repeat([]byte{3}, 12)
	tls, _ := NewGCMForTLS13WithIV(make([]byte, 16), iv)
	hdr := []byte{23, 3, 3, 0, 28}
	seq := uint64(0)
	for i := range recs {
		if i%1000 == 500 {
			recs[i] = Record{Nonce: xorNonceT(iv, seq), Input: []byte("record"), AdditionalData: hdr, Dst: make([]byte, 0, 32)}
			seq++
			continue
		}
		recs[i] = Record{Nonce: xorNonceT(iv, seq), Input: m[:1000], AdditionalData: m, Dst: ro}
	}
	if got := b.Seal(tls, recs); got != real {
		t.Fatalf("%d seals succeeded, want %d", got, real)
	}
	ref, _ := NewGCM(make([]byte, 16))
	for i, r := range recs {
		if i%1000 == 500 {
			if r.Err != nil || !bytes.Equal(r.Out, ref.Seal(nil, r.Nonce, []byte("record"), hdr)) {
				t.Fatalf("record %d: %v", i, r.Err)
			}
		} else if !isCode(r.Err, codeAADSize) || r.Out != nil {
			t.Fatalf("record %d: %v, %v", i, r.Out, r.Err)
		}
	}

	// A plaintext over the limit, after the other records: the batch panics before sealing any
	// (sequence seq is still free afterwards).
	recs[len(recs)-1] = Record{Nonce: xorNonceT(iv, seq+1), Input: m[:gcmMaxPlaintext+1], AdditionalData: hdr, Dst: ro}
	if got := catchPanic(func() { b.Seal(tls, recs) }); got != gcmTLS13Messages.tooLarge {
		t.Fatalf("oversized record: panic %q", got)
	}
	if got := catchPanic(func() { tls.Seal(nil, xorNonceT(iv, seq), []byte("after"), hdr) }); got != "" {
		t.Fatalf("the panicking batch consumed sequence %d: %s", seq, got)
	}
	if recs[0].Err != nil || recs[0].Out != nil {
		t.Fatal("results of the panicking batch were not reset")
	}
}
