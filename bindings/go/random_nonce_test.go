package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"sync"
	"testing"
)

// stdRandomGCM is crypto/cipher's NewGCMWithRandomNonce (Go 1.24+; see stdlib_*_test.go).
func stdRandomGCM(t testing.TB, key []byte) cipher.AEAD {
	t.Helper()
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newStdRandomNonce(b)
	if err != nil {
		t.Skip(err)
	}
	return g
}

// TestRandomNonceInteropWithStdlib: on random keys (all sizes), AAD and plaintexts of 0..70000
// bytes, crypto/cipher's NewGCMWithRandomNonce opens what this binding seals and the binding opens
// what crypto/cipher seals; both agree on NonceSize 0 / Overhead 28, the layout is
// nonce || the ciphertext plain GCM makes with that nonce, and tampering anywhere fails on both.
func TestRandomNonceInteropWithStdlib(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	n := 0
	for _, size := range randomSizes(r, 120) {
		key := randBytes(r, []int{16, 24, 32}[n%3])
		a, err := NewGCMWithRandomNonce(key)
		if err != nil {
			t.Fatal(err)
		}
		std := stdRandomGCM(t, key)
		if a.NonceSize() != 0 || a.Overhead() != 28 || std.NonceSize() != a.NonceSize() || std.Overhead() != a.Overhead() {
			t.Fatalf("sizes %d/%d, crypto/cipher %d/%d", a.NonceSize(), a.Overhead(), std.NonceSize(), std.Overhead())
		}
		aad, pt := randBytes(r, r.Intn(100)), randBytes(r, size)
		ours, theirs := a.Seal(nil, nil, pt, aad), std.Seal(nil, nil, pt, aad)
		if len(ours) != size+28 {
			t.Fatalf("size %d: sealed %d bytes", size, len(ours))
		}
		if got, err := std.Open(nil, nil, ours, aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: crypto/cipher cannot open ours: %v", size, err)
		}
		if got, err := a.Open(nil, nil, theirs, aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: cannot open crypto/cipher's: %v", size, err)
		}
		if plain := stdGCM(t, key, 12, 16).Seal(nil, ours[:12], pt, aad); !bytes.Equal(ours[12:], plain) {
			t.Fatalf("size %d: not nonce || GCM(nonce)", size)
		}
		if n%4 == 3 {
			bad := flip(ours, r.Intn(len(ours)))
			_, e1 := a.Open(nil, nil, bad, aad)
			_, e2 := std.Open(nil, nil, bad, aad)
			if !errors.Is(e1, ErrOpen) || e2 == nil {
				t.Fatalf("size %d: tampered message accepted (ours %v, crypto/cipher %v)", size, e1, e2)
			}
		}
		n++
	}
	t.Logf("%d sizes, both directions", n)
}

func randomSizes(r *rand.Rand, random int) []int {
	var s []int
	for i := 0; i <= 64; i++ {
		s = append(s, i)
	}
	s = append(s, 255, 256, 1023, 1024, 16384, 65535, 70000)
	for i := 0; i < random; i++ {
		s = append(s, r.Intn(70001))
	}
	return s
}

// TestRandomNonceInPlace: exact in-place Seal (dst = plaintext[:0]) and Open (dst =
// ciphertext[:0]), which both implementations do by moving data 12 bytes, give the same bytes as
// out-of-place use and interoperate; a failed in-place Open leaves no plaintext in the buffer.
func TestRandomNonceInPlace(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	key := randBytes(r, 16)
	a, _ := NewGCMWithRandomNonce(key)
	std := stdRandomGCM(t, key)
	for _, size := range []int{0, 1, 11, 12, 13, 100, 4096} {
		aad, pt := randBytes(r, 7), randBytes(r, size)
		for _, sealer := range []cipher.AEAD{a, std} {
			buf := make([]byte, size, size+28)
			copy(buf, pt)
			ct := sealer.Seal(buf[:0], nil, buf, aad)
			if len(ct) != size+28 || &ct[0] != &buf[:1][0] {
				t.Fatalf("size %d: in-place Seal did not use the buffer", size)
			}
			for _, opener := range []cipher.AEAD{a, std} {
				c := append(make([]byte, 0, len(ct)), ct...)
				got, err := opener.Open(c[:0], nil, c, aad)
				if err != nil || !bytes.Equal(got, pt) || (size > 0 && &got[0] != &c[0]) {
					t.Fatalf("size %d: in-place Open: %v", size, err)
				}
			}
		}
		ct := a.Seal(nil, nil, pt, aad)
		bad := flip(ct, len(ct)-1)
		if _, err := a.Open(bad[:0], nil, bad, aad); !errors.Is(err, ErrOpen) {
			t.Fatalf("size %d: tampered in-place Open: %v", size, err)
		}
		// Neither where the plaintext was asked for nor where libaead decrypted to holds bytes.
		if !bytes.Equal(bad[:size], make([]byte, size)) || !bytes.Equal(bad[12:12+size], make([]byte, size)) {
			t.Fatalf("size %d: failed in-place Open left bytes: %x", size, bad[:12+size])
		}
	}
}

// TestRandomNonceMisuse: the panics of crypto/cipher's NewGCMWithRandomNonce, compared with it,
// short inputs, zeroed dst after a failed Open, key sizes.
func TestRandomNonceMisuse(t *testing.T) {
	key := make([]byte, 16)
	a, _ := NewGCMWithRandomNonce(key)
	std := stdRandomGCM(t, key)
	ct := std.Seal(nil, nil, make([]byte, 64), nil)
	misuses := map[string]func(c cipher.AEAD){
		"seal with a nonce":        func(c cipher.AEAD) { c.Seal(nil, make([]byte, 12), nil, nil) },
		"open with a nonce":        func(c cipher.AEAD) { c.Open(nil, make([]byte, 1), ct, nil) },
		"seal inexact overlap":     func(c cipher.AEAD) { b := make([]byte, 200); c.Seal(b[1:1], nil, b[:64], nil) },
		"seal output overlaps aad": func(c cipher.AEAD) { b := make([]byte, 200); c.Seal(b[:0], nil, nil, b[5:10]) },
	}
	addOpenOverlaps(misuses, nil, ct)
	for name, f := range misuses {
		got, want := catchPanic(func() { f(a) }), catchPanic(func() { f(std) })
		if got == "" || got != want {
			t.Errorf("%s: panic %q, crypto/cipher panics %q", name, got, want)
		}
	}
	for _, n := range []int{0, 1, 12, 27} {
		dst := bytes.Repeat([]byte{0xAA}, 8)
		if got, err := a.Open(dst[:0], nil, ct[:n], nil); got != nil || err != ErrOpen || dst[0] != 0xAA {
			t.Errorf("%d-byte input: %v, %v", n, got, err)
		}
	}
	dst := bytes.Repeat([]byte{0xAA}, 2+64)
	if got, err := a.Open(dst[:2], nil, flip(ct, 3), nil); got != nil || !errors.Is(err, ErrOpen) ||
		!bytes.Equal(dst[:2], []byte{0xAA, 0xAA}) || !bytes.Equal(dst[2:], make([]byte, 64)) {
		t.Errorf("failed Open: %v, %v, dst %x", got, err, dst)
	}
	for _, n := range []int{0, 15, 17, 33} {
		var kse aes.KeySizeError
		if g, err := NewGCMWithRandomNonce(make([]byte, n)); g != nil || !errors.As(err, &kse) {
			t.Errorf("%d-byte key: %v, %v", n, g, err)
		}
	}
}

// TestRandomNonceLimit: 2^32 seals take too long for a test; what can be checked is the mapping of
// the library's AEAD_ERR_NONCE_LIMIT to the Seal panic.
func TestRandomNonceLimit(t *testing.T) {
	a, _ := NewGCMWithRandomNonce(make([]byte, 16))
	got := func() (v any) {
		defer func() { v = recover() }()
		a.(*randomNonceAEAD).a.sealFailed(codeNonceLimit)
		return nil
	}()
	err, ok := got.(error)
	if !ok || !errors.Is(err, ErrNonceLimit) || errors.Is(err, ErrOpen) {
		t.Fatalf("limit panic: %v", got)
	}
}

// TestRandomNonceConcurrent: 8 goroutines seal on one AEAD; every nonce is distinct and each
// message opens with crypto/cipher. Run with -race too.
func TestRandomNonceConcurrent(t *testing.T) {
	const goroutines, iters = 8, 500
	key := make([]byte, 32)
	a, _ := NewGCMWithRandomNonce(key)
	std := stdRandomGCM(t, key)
	var mu sync.Mutex
	seen := map[[12]byte]bool{}
	inGoroutines(t, goroutines, func(r *rand.Rand) error {
		for i := 0; i < iters; i++ {
			pt := randBytes(r, r.Intn(300))
			ct := a.Seal(nil, nil, pt, nil)
			if got, err := std.Open(nil, nil, ct, nil); err != nil || !bytes.Equal(got, pt) {
				return errors.New("crypto/cipher cannot open a concurrent seal")
			}
			mu.Lock()
			seen[[12]byte(ct[:12])] = true
			mu.Unlock()
		}
		return nil
	})
	if len(seen) != goroutines*iters {
		t.Fatalf("%d distinct nonces in %d seals", len(seen), goroutines*iters)
	}
}
