package aead

import (
	"bytes"
	"crypto/cipher"
	"math/rand"
	"strings"
	"testing"
)

// TestTLSWithIVLearnsNothing: an AEAD told its IV up front takes any first sequence, refuses a
// first nonce with another prefix, and counts from the real sequence, where the learning AEAD
// takes its first nonce as sequence 0 (and so accepts, after sequence 7, a nonce that is really
// sequence 3). (The XOR constructions: TLS 1.3 and TLS 1.2 ChaCha20-Poly1305.)
func TestTLSWithIVLearnsNothing(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	for _, c := range tlsCases() {
		if c.newIV == nil || (!c.chacha && c.aadLen == 13) {
			continue // TLS 1.2 AES-GCM learns only a salt: TestTLS12RustlsNonces
		}
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(r, 32)
			if !c.chacha {
				key = key[:16]
			}
			iv := randBytes(r, 12)
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			learner, err := c.new0()(key)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := c.plain(key)
			m := c.messages()
			aad, pt := randBytes(r, c.aadLen), randBytes(r, 33)

			wrong := tlsNonce(iv, 0, true)
			wrong[1] ^= 0x10
			if got := catchPanic(func() { a.Seal(nil, wrong, pt, aad) }); got != m.tlsPrefix {
				t.Fatalf("first seal with another prefix: panic %q, want %q", got, m.tlsPrefix)
			}
			for _, s := range []struct {
				seq        uint64
				withIV     string
				learnerGot string
			}{{7, "", ""}, {3, m.tlsOrder, ""}, {8, "", ""}} {
				n := tlsNonce(iv, s.seq, true)
				var ct []byte
				if got := catchPanic(func() { ct = a.Seal(nil, n, pt, aad) }); got != s.withIV {
					t.Fatalf("seq %d: panic %q, want %q", s.seq, got, s.withIV)
				}
				if s.withIV == "" && !bytes.Equal(ct, ref.Seal(nil, n, pt, aad)) {
					t.Fatalf("seq %d: differs from the plain AEAD", s.seq)
				}
				if got := catchPanic(func() { learner.Seal(nil, n, pt, aad) }); got != s.learnerGot {
					t.Fatalf("learning AEAD, seq %d: panic %q", s.seq, got)
				}
			}
		})
	}
}

// new0 is the learning constructor of the same policy as an IV case.
func (c tlsCase) new0() func([]byte) (cipher.AEAD, error) {
	for _, l := range tlsCases() {
		if l.newIV == nil && l.chacha == c.chacha && l.aadLen == c.aadLen {
			return l.new
		}
	}
	panic("no learning constructor for " + c.name)
}

// TestTLS12RustlsNonces: rustls sends the TLS 1.2 AES-GCM explicit nonce as mask XOR sequence.
// With an odd mask, sequence 1 looks like a smaller counter than sequence 0, so the learning
// (counter) AEAD refuses it, while the AEAD given salt || mask accepts 0..99 and seals what plain
// GCM seals. With the 4-byte salt, a crypto/tls-style counter from any start is accepted.
func TestTLS12RustlsNonces(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	key, iv := randBytes(r, 16), randBytes(r, 12)
	iv[11] |= 1
	aad, pt := randBytes(r, 13), randBytes(r, 100)
	ref, _ := NewGCM(key)
	counter, _ := NewGCMForTLS12(key)
	counter.Seal(nil, tlsNonce(iv, 0, true), pt, aad)
	if got := catchPanic(func() { counter.Seal(nil, tlsNonce(iv, 1, true), pt, aad) }); got != gcmTLS12Messages.tlsOrder {
		t.Fatalf("counter AEAD on rustls's sequence 1: panic %q", got)
	}
	rustls, err := NewGCMForTLS12WithIV(key, iv)
	if err != nil {
		t.Fatal(err)
	}
	salted, err := NewGCMForTLS12WithIV(key, iv[:4])
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(0); seq < 100; seq++ {
		n := tlsNonce(iv, seq, true)
		if !bytes.Equal(rustls.Seal(nil, n, pt, aad), ref.Seal(nil, n, pt, aad)) {
			t.Fatalf("rustls seq %d differs from plain GCM", seq)
		}
		n = tlsNonce(iv, 1000+seq, false)
		if !bytes.Equal(salted.Seal(nil, n, pt, aad), ref.Seal(nil, n, pt, aad)) {
			t.Fatalf("salted counter %d differs from plain GCM", 1000+seq)
		}
	}
	if got := catchPanic(func() { rustls.Seal(nil, tlsNonce(iv, 99, true), pt, aad) }); got != gcmTLS12Messages.tlsOrder {
		t.Fatalf("rustls seq 99 again: panic %q", got)
	}
}

// TestTLSIVLengths: the ...WithIV constructors refuse every other IV length with a message
// naming the rule, and a wrong key length as their learning counterparts do.
func TestTLSIVLengths(t *testing.T) {
	for _, c := range []struct {
		name string
		new  func(key, iv []byte) (cipher.AEAD, error)
		key  int
		ok   []int
	}{
		{"NewGCMForTLS12WithIV", NewGCMForTLS12WithIV, 16, []int{4, 12}},
		{"NewGCMForTLS13WithIV", NewGCMForTLS13WithIV, 32, []int{12}},
		{"NewChaCha20Poly1305ForTLS12WithIV", NewChaCha20Poly1305ForTLS12WithIV, 32, []int{12}},
		{"NewChaCha20Poly1305ForTLS13WithIV", NewChaCha20Poly1305ForTLS13WithIV, 32, []int{12}},
	} {
		for n := 0; n <= 16; n++ {
			a, err := c.new(make([]byte, c.key), make([]byte, n))
			ok := n == c.ok[0] || (len(c.ok) > 1 && n == c.ok[1])
			if ok != (err == nil) || (err != nil && (a != nil || !strings.Contains(err.Error(), "IV must be"))) {
				t.Errorf("%s with a %d-byte IV: %v, %v", c.name, n, a, err)
			}
		}
		if _, err := c.new(make([]byte, 20), make([]byte, c.ok[0])); err == nil {
			t.Errorf("%s accepted a 20-byte key", c.name)
		}
	}
}
