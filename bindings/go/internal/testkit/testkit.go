// Package testkit holds the small helpers that the binding's tests and the bench module's
// differential tests share: random inputs, the size schedule of the differential tests, the TLS
// record nonces and panic capture. Test support only; nothing of the binding imports it.
package testkit

import (
	"encoding/binary"
	"math/rand"
)

// RandBytes returns n bytes drawn from r.
func RandBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// DiffSizes returns every size 0..256, the block and page boundaries up to 70000, and random
// sizes up to 70000.
func DiffSizes(r *rand.Rand, random int) []int {
	var s []int
	for i := 0; i <= 256; i++ {
		s = append(s, i)
	}
	for _, b := range []int{1024, 4096, 16384, 65536} {
		s = append(s, b-1, b, b+1)
	}
	s = append(s, 69999, 70000)
	for i := 0; i < random; i++ {
		s = append(s, 257+r.Intn(70000-257+1))
	}
	return s
}

// TLS12Nonce is crypto/tls's TLS 1.2 AES-GCM nonce: 4-byte implicit IV || BE64(seq).
func TLS12Nonce(iv []byte, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte{}, iv[:4]...), seq)
}

// XorNonce is the TLS 1.3 (and TLS 1.2 ChaCha20-Poly1305) nonce: IV XOR (0^4 || BE64(seq)).
func XorNonce(iv []byte, seq uint64) []byte {
	n := append([]byte{}, iv...)
	for i := 0; i < 8; i++ {
		n[11-i] ^= byte(seq >> (8 * i))
	}
	return n
}

// PanicText runs f and returns its panic value as a string ("" if f returns).
func PanicText(f func()) (s string) {
	defer func() {
		switch v := recover().(type) {
		case nil:
		case string:
			s = v
		case error:
			s = v.Error()
		default:
			s = "non-string panic"
		}
	}()
	f()
	return ""
}
