package aead

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"math"
	"math/rand"
	"testing"
)

type tlsCase struct {
	name   string
	new    func([]byte) (cipher.AEAD, error)
	plain  func([]byte) (cipher.AEAD, error) // the same algorithm without nonce policy
	chacha bool
	xor    bool // TLS 1.3-style nonce: IV XOR sequence (also ChaCha20-Poly1305 in TLS 1.2)
	aadLen int
	mask   bool // non-zero IV bytes in the sequence part
	// The ...WithIV constructors: newIV is given the first ivLen bytes of the IV up front.
	newIV func(key, iv []byte) (cipher.AEAD, error)
	ivLen int
}

func tlsCases() []tlsCase {
	return []tlsCase{
		{name: "GCM/TLS12", new: NewGCMForTLS12, plain: NewGCM, aadLen: 13},
		{name: "GCM/TLS13", new: NewGCMForTLS13, plain: NewGCM, xor: true, aadLen: 5},
		{name: "GCM/TLS13/mask", new: NewGCMForTLS13, plain: NewGCM, xor: true, aadLen: 5, mask: true},
		{name: "ChaCha/TLS12", new: NewChaCha20Poly1305ForTLS12, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 13},
		{name: "ChaCha/TLS12/mask", new: NewChaCha20Poly1305ForTLS12, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 13, mask: true},
		{name: "ChaCha/TLS13", new: NewChaCha20Poly1305ForTLS13, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 5},
		{name: "ChaCha/TLS13/mask", new: NewChaCha20Poly1305ForTLS13, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 5, mask: true},
		// IV given up front. TLS 1.2 AES-GCM with a 4-byte salt: salt || BE64(seq) (crypto/tls,
		// libssl); with 12 bytes salt || mask: salt || (mask XOR BE64(seq)) (rustls), which is the
		// XOR construction.
		{name: "GCM/TLS12/IV4", newIV: NewGCMForTLS12WithIV, ivLen: 4, plain: NewGCM, aadLen: 13, mask: true},
		{name: "GCM/TLS12/IV12", newIV: NewGCMForTLS12WithIV, ivLen: 12, plain: NewGCM, xor: true, aadLen: 13, mask: true},
		{name: "GCM/TLS13/IV", newIV: NewGCMForTLS13WithIV, ivLen: 12, plain: NewGCM, xor: true, aadLen: 5, mask: true},
		{name: "ChaCha/TLS12/IV", newIV: NewChaCha20Poly1305ForTLS12WithIV, ivLen: 12, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 13, mask: true},
		{name: "ChaCha/TLS13/IV", newIV: NewChaCha20Poly1305ForTLS13WithIV, ivLen: 12, plain: NewChaCha20Poly1305, chacha: true, xor: true, aadLen: 5, mask: true},
	}
}

// make builds the case's AEAD: with the IV up front for the ...WithIV cases.
func (c tlsCase) make(key, iv []byte) (cipher.AEAD, error) {
	if c.newIV != nil {
		return c.newIV(key, iv[:c.ivLen])
	}
	return c.new(key)
}

// tlsNonce builds the nonce Go's crypto/tls builds for record sequence seq: TLS 1.2 GCM is
// iv[0:4] || BE64(seq); the others are iv XOR (0^4 || BE64(seq)).
func tlsNonce(iv []byte, seq uint64, xor bool) []byte {
	n := append([]byte{}, iv...)
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], seq)
	for i := 0; i < 8; i++ {
		if xor {
			n[4+i] ^= s[i]
		} else {
			n[4+i] = s[i]
		}
	}
	return n
}

func (c tlsCase) messages() *messages {
	switch {
	case c.chacha && c.aadLen == 13:
		return &chachaTLS12Messages
	case c.chacha:
		return &chachaTLS13Messages
	case c.aadLen == 13:
		return &gcmTLS12Messages
	}
	return &gcmTLS13Messages
}

// TestTLSSequence runs the golang-fips/openssl sequence 0, 0 (panics), 1, 10, 9 (panics),
// 2^64-1 (panics) on every TLS AEAD, then checks that refused seals consumed nothing and wrote
// nothing, that accepted seals equal the policy-free AEAD's output, that Open never checks order,
// and the prefix and AAD-length rules.
func TestTLSSequence(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, c := range tlsCases() {
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(r, 32)
			if !c.chacha {
				key = key[:16]
			}
			iv := make([]byte, 12)
			if c.newIV != nil {
				iv = randBytes(r, 12) // a salt and mask the AEAD cannot guess
			}
			if c.mask {
				iv[9] ^= 0x42
				iv[11] ^= 0x01
			}
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := c.plain(key)
			if err != nil {
				t.Fatal(err)
			}
			if a.NonceSize() != 12 || a.Overhead() != 16 {
				t.Fatalf("sizes %d/%d", a.NonceSize(), a.Overhead())
			}
			m := c.messages()
			aad := randBytes(r, c.aadLen)
			pt := randBytes(r, 50)
			sealed := map[uint64][]byte{}
			step := func(seq uint64, want string) {
				t.Helper()
				nonce := tlsNonce(iv, seq, c.xor)
				dst := bytes.Repeat([]byte{0xEE}, 1+len(pt)+16)
				var out []byte
				got := catchPanic(func() { out = a.Seal(dst[:1], nonce, pt, aad) })
				if got != want {
					t.Fatalf("seq %d: panic %q, want %q", seq, got, want)
				}
				if want != "" {
					if !bytes.Equal(dst, bytes.Repeat([]byte{0xEE}, len(dst))) {
						t.Fatalf("seq %d: refused Seal wrote to dst", seq)
					}
					return
				}
				if !bytes.Equal(out[1:], ref.Seal(nil, nonce, pt, aad)) {
					t.Fatalf("seq %d: TLS Seal differs from the plain AEAD", seq)
				}
				sealed[seq] = out[1:]
			}
			step(0, "")
			step(0, m.tlsOrder)
			step(1, "")
			step(10, "")
			step(9, m.tlsOrder)
			step(math.MaxUint64, m.tlsExhausted)
			// Nothing was consumed by the refusals: 11 is next, then 11 again is refused.
			step(11, "")
			step(11, m.tlsOrder)
			step(10, m.tlsOrder)
			// Wrong AAD length: refused with its own message, consumes nothing.
			for _, n := range []int{0, 5, 12, 13, 14} {
				if n == c.aadLen {
					continue
				}
				nonce := tlsNonce(iv, 12, c.xor)
				if got := catchPanic(func() { a.Seal(nil, nonce, pt, make([]byte, n)) }); got != m.tlsAAD {
					t.Fatalf("%d-byte AAD: panic %q, want %q", n, got, m.tlsAAD)
				}
			}
			step(12, "")
			// A changed prefix (first 4 bytes) is refused, even with a fresh sequence.
			nonce := tlsNonce(iv, 20, c.xor)
			nonce[0] ^= 0x80
			if got := catchPanic(func() { a.Seal(nil, nonce, pt, aad) }); got != m.tlsPrefix {
				t.Fatalf("prefix change: panic %q, want %q", got, m.tlsPrefix)
			}
			step(13, "")
			step(math.MaxUint64-1, "")
			step(math.MaxUint64, m.tlsExhausted)
			step(math.MaxUint64-1, m.tlsOrder)
			// Open checks no order and no AAD length.
			for _, seq := range []uint64{10, 0, 12, 1} {
				got, err := a.Open(nil, tlsNonce(iv, seq, c.xor), sealed[seq], aad)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("Open of seq %d: %v", seq, err)
				}
			}
			odd := ref.Seal(nil, tlsNonce(iv, 3, c.xor), pt, make([]byte, 7))
			if got, err := a.Open(nil, tlsNonce(iv, 3, c.xor), odd, make([]byte, 7)); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("Open with 7-byte AAD: %v", err)
			}
		})
	}
}

// TestTLS12GCMFirstCounter: in TLS 1.2 GCM the counter is not masked, so the first seal may start
// anywhere, but never at 2^64-1.
func TestTLS12GCMFirstCounter(t *testing.T) {
	a, _ := NewGCMForTLS12(make([]byte, 16))
	iv := []byte{1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0}
	if got := catchPanic(func() { a.Seal(nil, tlsNonce(iv, math.MaxUint64, false), nil, make([]byte, 13)) }); got != gcmTLS12Messages.tlsExhausted {
		t.Fatalf("first seal at 2^64-1: panic %q", got)
	}
	if got := catchPanic(func() { a.Seal(nil, tlsNonce(iv, 1000, false), nil, make([]byte, 13)) }); got != "" {
		t.Fatalf("first seal at 1000: panic %q", got)
	}
	if got := catchPanic(func() { a.Seal(nil, tlsNonce(iv, 999, false), nil, make([]byte, 13)) }); got != gcmTLS12Messages.tlsOrder {
		t.Fatalf("999 after 1000: panic %q", got)
	}
}
