//go:build go1.24 && !race

package aead

import (
	"crypto/tls"
	"testing"
)

// TestQUICZeroAllocs: Seal, Open (also failing), Mask, Protect and Unprotect (also failing) of
// QUIC keys allocate nothing (testing.AllocsPerRun), at 64 and 1200 bytes of payload; the packet
// number Unprotect returns crosses by value, not through a pointer to a Go variable.
func TestQUICZeroAllocs(t *testing.T) {
	for _, k := range []quicKeys{quicClientInitial, quicChaCha} {
		for _, size := range []int{64, 1200} {
			p, recv := k.protector(t), k.protector(t)
			a, hp := p.AEAD(), p.HeaderProtection()
			header := mustHex("4200bff4")
			buf := make([]byte, 0, len(header)+size+16)
			payload := make([]byte, size)
			pn := uint64(1000)
			sealed, _ := p.Protect(append(append([]byte{}, header...), payload...), len(header), pn)
			work := make([]byte, len(sealed))
			bad := flip(sealed, len(sealed)-1)
			nonce := xorNonceT(k.iv, 0)
			ct := recv.AEAD().Seal(nil, xorNonceT(k.iv, 1), payload, header)
			out := make([]byte, 0, size)
			var sink byte
			var sinkPN uint64
			checks := map[string]func(){
				"Seal": func() {
					pn++
					binaryPN(nonce, k.iv, pn)
					a.Seal(buf[:0], nonce, payload, header)
				},
				"Open":         func() { a.Open(out, quicNonce1(k.iv), ct, header) },
				"failing Open": func() { a.Open(out, quicNonce1(k.iv), ct[1:], header) },
				"Mask":         func() { m := hp.Mask(sealed[4:20]); sink ^= m[0] },
				"Protect": func() {
					pn++
					pkt := append(append(buf[:0], header...), payload...)
					p.Protect(pkt, len(header), pn)
				},
				"Unprotect": func() {
					copy(work, sealed)
					_, got, _ := recv.Unprotect(work, 1, 999)
					sinkPN ^= got
				},
				"failing Unprotect": func() {
					copy(work, bad)
					recv.Unprotect(work, 1, 999)
				},
			}
			expectZeroAllocs(t, tls.CipherSuiteName(k.suite), size, checks)
			_ = sink
		}
	}
}

// quicNonce1 is the nonce of packet number 1, without allocating (a package-level cache).
func quicNonce1(iv []byte) []byte {
	n := nonce1[string(iv)]
	if n == nil {
		n = xorNonceT(iv, 1)
		nonce1[string(iv)] = n
	}
	return n
}

var nonce1 = map[string][]byte{}

// binaryPN writes iv XOR (0^4 || BE64(pn)) into nonce.
func binaryPN(nonce, iv []byte, pn uint64) {
	copy(nonce, iv)
	for i := 0; i < 8; i++ {
		nonce[4+i] ^= byte(pn >> (56 - 8*i))
	}
}
