package aead

import (
	"bytes"
	"crypto/cipher"
	"math/rand"
	"testing"
)

// TestDifferentialGCM compares this binding with crypto/cipher's GCM (pure Go + assembly) on
// random keys (128/192/256), nonces (12 bytes, or 1..128 bytes), tag sizes (12..16), AAD (0..300
// bytes) and plaintexts of 0..70000 bytes, in both directions: what one seals the other opens, and
// both seal to the same bytes. Every fifth case is tampered with and must fail on both sides.
func TestDifferentialGCM(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var n int
	for _, size := range diffSizes(r, 150) {
		key := randBytes(r, []int{16, 24, 32}[r.Intn(3)])
		nonceSize, tagSize := 12, 16
		switch r.Intn(4) {
		case 0:
			nonceSize = 1 + r.Intn(128)
		case 1:
			tagSize = 12 + r.Intn(5)
		}
		var a cipher.AEAD
		var err error
		switch {
		case nonceSize == 12 && tagSize == 16:
			a, err = NewGCM(key)
		case nonceSize == 12:
			a, err = NewGCMWithTagSize(key, tagSize)
		default:
			a, err = NewGCMWithNonceSize(key, nonceSize)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := stdGCM(t, key, nonceSize, tagSize)
		if a.NonceSize() != g.NonceSize() || a.Overhead() != g.Overhead() {
			t.Fatalf("sizes differ: %d/%d vs %d/%d", a.NonceSize(), a.Overhead(), g.NonceSize(), g.Overhead())
		}
		diffOne(t, r, a, g, size, n%5 == 4)
		n++
	}
	t.Logf("%d cases", n)
}

// diffOne seals with a (this binding) and ref, opens each result with the other side, and
// optionally checks that a tampered message fails on both.
func diffOne(t *testing.T, r *rand.Rand, a, ref cipher.AEAD, size int, tamper bool) {
	t.Helper()
	nonce := randBytes(r, a.NonceSize())
	aad := randBytes(r, r.Intn(301))
	pt := randBytes(r, size)
	ours := a.Seal(nil, nonce, pt, aad)
	theirs := ref.Seal(nil, nonce, pt, aad)
	if !bytes.Equal(ours, theirs) {
		t.Fatalf("size %d, nonce %d, aad %d: Seal differs from the reference", size, len(nonce), len(aad))
	}
	got, err := ref.Open(nil, nonce, ours, aad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("size %d: reference cannot open our ciphertext: %v", size, err)
	}
	// Open here what the reference sealed, into a dst with a prefix and spare capacity.
	dst := make([]byte, 1, 1+size)
	got, err = a.Open(dst, nonce, theirs, aad)
	if err != nil || !bytes.Equal(got[1:], pt) {
		t.Fatalf("size %d: cannot open the reference's ciphertext: %v", size, err)
	}
	if size > 0 && &got[0] != &dst[0] {
		t.Fatalf("size %d: Open reallocated although cap(dst) sufficed", size)
	}
	if tamper {
		bad := append([]byte{}, theirs...)
		bad[r.Intn(len(bad))] ^= byte(1 + r.Intn(255))
		_, err1 := a.Open(nil, nonce, bad, aad)
		_, err2 := ref.Open(nil, nonce, bad, aad)
		if err1 == nil || err2 == nil {
			t.Fatalf("size %d: tampered message accepted (ours %v, reference %v)", size, err1, err2)
		}
	}
}
