package aead

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/libaead/libaead/bindings/go/internal/forktest"
)

// TestErrForked: AEAD_ERR_FORKED (-17) maps to an *Error matching ErrForked (and nothing else),
// which is what Seal panics with and what a Batch record's Err holds; the library names the code.
func TestErrForked(t *testing.T) {
	a, _ := NewGCMForTLS13WithIV(make([]byte, 16), make([]byte, 12))
	var got any
	func() {
		defer func() { got = recover() }()
		implOf(a).sealFailed(codeForked)
	}()
	err, _ := got.(error)
	if !errors.Is(err, ErrForked) || errors.Is(err, ErrOpen) || errors.Is(err, ErrNonceLimit) || !isCode(err, -17) {
		t.Fatalf("Seal's panic for AEAD_ERR_FORKED: %#v", got)
	}
	if msg := err.Error(); !strings.Contains(msg, "fork") || !strings.Contains(msg, "code -17") {
		t.Fatalf("message %q does not name the fork", msg)
	}
	if e := sealError(codeForked); !errors.Is(e, ErrForked) || !refusal(codeForked) {
		t.Fatalf("batch error for AEAD_ERR_FORKED: %v", e)
	}
	if errors.Is(&Error{Op: "seal", Code: codeNonceOrder}, ErrForked) {
		t.Fatal("another code matches ErrForked")
	}
}

// TestForkedChild: a child forked (from C, as a cgo program can) after a TLS 1.3 AEAD and a
// random-nonce AEAD were made and used. In the child, the TLS seal is refused with
// AEAD_ERR_FORKED and its open works; the random-nonce seal works with a nonce the parent never
// draws in its next 64 seals. The parent's AEADs are unaffected.
func TestForkedChild(t *testing.T) {
	iv := bytes.Repeat([]byte{7}, 12)
	aad := []byte{23, 3, 3, 0, 30}
	a, _ := NewGCMForTLS13WithIV(make([]byte, 16), iv)
	pt := []byte("record")
	ct0 := a.Seal(nil, xorNonceT(iv, 0), pt, aad)
	seal, open, _, err := forktest.SealOpenInChild(unsafe.Pointer(implOf(a).ctx), xorNonceT(iv, 1), aad, pt, len(pt)+16,
		xorNonceT(iv, 0), ct0, len(pt))
	if err != nil {
		t.Fatal(err)
	}
	if seal != codeForked || open != int64(len(pt)) {
		t.Fatalf("child: TLS seal returned %d (want %d, AEAD_ERR_FORKED), open %d (want %d)", seal, codeForked, open, len(pt))
	}
	a.Seal(nil, xorNonceT(iv, 1), pt, aad) // the parent goes on at sequence 1

	g, _ := NewGCMWithRandomNonce(make([]byte, 16))
	g.Seal(nil, nil, pt, nil) // the worker's nonce pool is filled before the fork
	seal, _, out, err := forktest.SealOpenInChild(unsafe.Pointer(implOf(g).ctx), nil, nil, pt, len(pt)+28, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if seal != int64(len(pt)+28) {
		t.Fatalf("child: random-nonce seal returned %d", seal)
	}
	if got, err := g.Open(nil, nil, out, nil); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("the child's random-nonce record does not open: %v", err)
	}
	for i := 0; i < 64; i++ {
		if ct := g.Seal(nil, nil, pt, nil); bytes.Equal(ct[:12], out[:12]) {
			t.Fatalf("parent seal %d after the fork drew the child's nonce %x", i, out[:12])
		}
	}
}
