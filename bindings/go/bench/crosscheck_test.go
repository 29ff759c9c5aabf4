package bench

// The ChaCha20-Poly1305 differential test lives in this module, not in the binding's, so that the
// binding's go.mod requires nothing: golang.org/x/crypto is an independent reference for tests
// only, and this module already pulls third-party code for the benchmarks. test.py runs it.

import (
	"bytes"
	"crypto/cipher"
	"math/rand"
	"testing"

	aead "github.com/libaead/libaead/bindings/go"
	"golang.org/x/crypto/chacha20poly1305"
)

// TestDifferentialChaCha20Poly1305: random keys, nonces, AAD (0..300 bytes) and plaintexts of
// 0..70000 bytes; libaead and x/crypto seal to the same bytes, each opens the other's output,
// and tampered messages fail on both.
func TestDifferentialChaCha20Poly1305(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	n := 0
	for _, size := range diffSizes(r, 150) {
		a, ref := newPair(t, randBytes(r, 32), aead.NewChaCha20Poly1305, chacha20poly1305.New)
		diffBoth(t, r, a, ref, size, n%5 == 4) // x/crypto is the reference
		n++
	}
	t.Logf("%d cases", n)
}

// TestChaChaTLSMatchesXCrypto: the TLS ChaCha20-Poly1305 AEADs seal a record sequence built like
// crypto/tls (IV XOR sequence) to the same bytes as x/crypto.
func TestChaChaTLSMatchesXCrypto(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	for _, c := range []struct {
		new    func([]byte) (cipher.AEAD, error)
		aadLen int
	}{{aead.NewChaCha20Poly1305ForTLS12, 13}, {aead.NewChaCha20Poly1305ForTLS13, 5}} {
		key, iv := randBytes(r, 32), randBytes(r, 12)
		a, err := c.new(key)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := chacha20poly1305.New(key)
		for _, seq := range []uint64{0, 1, 2, 7, 1000} {
			nonce := tls13Nonce(iv, seq)
			aad, pt := randBytes(r, c.aadLen), randBytes(r, r.Intn(2000))
			if !bytes.Equal(a.Seal(nil, nonce, pt, aad), ref.Seal(nil, nonce, pt, aad)) {
				t.Fatalf("seq %d: TLS ChaCha20-Poly1305 differs from x/crypto", seq)
			}
		}
	}
}

// TestPeersAgree guards the benchmark: the three AES-GCM implementations it compares produce the
// same ciphertext for the benchmark's inputs (so no peer is measured doing something else).
func TestPeersAgree(t *testing.T) {
	for _, size := range sizes {
		var first []byte
		for _, im := range impls(nil) {
			a, err := im.new(make([]byte, 16))
			if err != nil {
				t.Fatalf("%s: %v", im.name, err)
			}
			ct := a.Seal(nil, make([]byte, 12), make([]byte, size), make([]byte, 13))
			if first == nil {
				first = ct
			} else if !bytes.Equal(ct, first) {
				t.Fatalf("%s: ciphertext differs at %d bytes", im.name, size)
			}
		}
	}
	f := newFloor(t, 64, false)
	defer f.Free()
	if r := f.Loop(3); r != 80 {
		t.Fatalf("C floor loop returned %d", r)
	}
}
