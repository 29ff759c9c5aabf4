// Package quictest holds the QUIC packet layout that the binding's tests and the bench module's
// tests and benchmarks share: protecting a packet with two primitives (an AEAD and a
// header-protection mask, as a QUIC stack does), RFC 9000 Appendix A.3 packet-number decoding and
// random headers. Test support only; nothing of the binding imports it.
package quictest

import (
	"crypto/cipher"
	"math/rand"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// MaskFunc computes the 5-byte header-protection mask of a 16-byte sample.
type MaskFunc func(sample []byte) [5]byte

// TwoCalls protects and unprotects packets (header || payload, in place) with an AEAD's Seal/Open
// and a mask applied in Go. Its nonce buffer is a field (a local handed to the cipher.AEAD
// interface would escape), so one TwoCalls serves one goroutine at a time.
type TwoCalls struct {
	AEAD cipher.AEAD
	Mask MaskFunc
	IV   [12]byte
	n    [12]byte
}

// New returns a TwoCalls for an AEAD, a mask function and the 12-byte IV.
func New(a cipher.AEAD, mask MaskFunc, iv []byte) *TwoCalls {
	t := &TwoCalls{AEAD: a, Mask: mask}
	copy(t.IV[:], iv)
	return t
}

// Nonce returns RFC 9001's nonce for pn, IV XOR (0^4 || BE64(pn)), in t's buffer.
func (t *TwoCalls) Nonce(pn uint64) []byte {
	t.n = t.IV
	for i := 0; i < 8; i++ {
		t.n[11-i] ^= byte(pn >> (8 * i))
	}
	return t.n[:]
}

func applyFirst(pkt []byte, m byte) {
	if pkt[0]&0x80 != 0 {
		pkt[0] ^= m & 0x0f
	} else {
		pkt[0] ^= m & 0x1f
	}
}

// Protect writes pn into the packet-number field (the last (pkt[0]&3)+1 bytes of the header),
// seals pkt[headerLen:] in place with the header as additional data (cap(pkt) >= len(pkt)+16
// for no allocation) and applies header protection; it returns the packet.
func (t *TwoCalls) Protect(pkt []byte, headerLen int, pn uint64) []byte {
	pnLen := int(pkt[0]&3) + 1
	pnOff := headerLen - pnLen
	for i := 0; i < pnLen; i++ {
		pkt[pnOff+i] = byte(pn >> (8 * (pnLen - 1 - i)))
	}
	out := t.AEAD.Seal(pkt[:headerLen], t.Nonce(pn), pkt[headerLen:], pkt[:headerLen])
	m := t.Mask(out[pnOff+4 : pnOff+20])
	applyFirst(out, m[0])
	for i := 0; i < pnLen; i++ {
		out[pnOff+i] ^= m[1+i]
	}
	return out
}

// Unprotect removes header protection in place, decodes the packet number against largest and
// opens the payload in place; it returns the payload and the packet number.
func (t *TwoCalls) Unprotect(pkt []byte, pnOff int, largest uint64) ([]byte, uint64, error) {
	m := t.Mask(pkt[pnOff+4 : pnOff+20])
	applyFirst(pkt, m[0])
	pnLen := int(pkt[0]&3) + 1
	var truncated uint64
	for i := 0; i < pnLen; i++ {
		pkt[pnOff+i] ^= m[1+i]
		truncated = truncated<<8 | uint64(pkt[pnOff+i])
	}
	pn := DecodePN(largest, truncated, pnLen*8)
	h := pnOff + pnLen
	pt, err := t.AEAD.Open(pkt[h:h], t.Nonce(pn), pkt[h:], pkt[:h])
	return pt, pn, err
}

// DecodePN is RFC 9000 Appendix A.3 (largest = 2^64-1: none received, expected 0).
func DecodePN(largest, truncated uint64, bits int) uint64 {
	expected := largest + 1
	win := uint64(1) << bits
	hwin, mask := win/2, win-1
	candidate := (expected &^ mask) | truncated
	if candidate+hwin <= expected && candidate < (1<<62)-win {
		return candidate + win
	}
	if candidate > expected+hwin && candidate >= win {
		return candidate - win
	}
	return candidate
}

// RandomHeader is a QUIC header: long (0xc0 | type | pn_len-1, version 1, random CIDs, a 2-byte
// length field) or short (0x40 | pn_len-1, a random DCID), ending with a zeroed pnLen-byte
// packet-number field.
func RandomHeader(r *rand.Rand, pnLen int) []byte {
	var h []byte
	if r.Intn(2) == 0 {
		h = append(h, 0xc0|byte(r.Intn(4))<<4|byte(pnLen-1), 0, 0, 0, 1)
		dcid, scid := testkit.RandBytes(r, r.Intn(21)), testkit.RandBytes(r, r.Intn(21))
		h = append(append(append(h, byte(len(dcid))), dcid...), byte(len(scid)))
		h = append(append(h, scid...), 0x40|byte(r.Intn(64)), byte(r.Intn(256)))
	} else {
		h = append(append(h, 0x40|byte(r.Intn(8))<<2|byte(pnLen-1)), testkit.RandBytes(r, r.Intn(21))...)
	}
	return append(h, make([]byte, pnLen)...)
}
