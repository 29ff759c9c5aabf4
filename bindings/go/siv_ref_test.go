package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"testing"
)

// A minimal AES-SIV (RFC 5297) written for the tests from crypto/aes and crypto/cipher's CTR, with
// CMAC (RFC 4493) written out here: the independent implementation of the differential tests. No
// pure-Go AES-SIV module is fetchable from the module proxy here (github.com/secure-io/siv-go and
// github.com/miscreant/miscreant.go are refused), and Tink's (a dependency of the bench module only)
// takes only 64-byte keys and one component: bench/families_crosscheck_test.go compares libaead with
// Tink there. Test code only: the binding itself has no cipher code.

// refDbl is RFC 5297's dbl: multiplication by x in GF(2^128).
func refDbl(b [16]byte) [16]byte {
	var r [16]byte
	for i := 0; i < 15; i++ {
		r[i] = b[i]<<1 | b[i+1]>>7
	}
	r[15] = b[15] << 1
	if b[0]&0x80 != 0 {
		r[15] ^= 0x87
	}
	return r
}

// refCMAC is AES-CMAC (RFC 4493).
func refCMAC(c cipher.Block, m []byte) [16]byte {
	var l, k1, k2 [16]byte
	c.Encrypt(l[:], l[:])
	k1 = refDbl(l)
	k2 = refDbl(k1)
	n := (len(m) + 15) / 16
	complete := n > 0 && len(m)%16 == 0
	if n == 0 {
		n = 1
	}
	var x, last [16]byte
	tail := m[(n-1)*16:]
	if complete {
		for i := range last {
			last[i] = tail[i] ^ k1[i]
		}
	} else {
		copy(last[:], tail)
		last[len(tail)] = 0x80
		for i := range last {
			last[i] ^= k2[i]
		}
	}
	for b := 0; b < n-1; b++ {
		for i := range x {
			x[i] ^= m[b*16+i]
		}
		c.Encrypt(x[:], x[:])
	}
	for i := range x {
		x[i] ^= last[i]
	}
	c.Encrypt(x[:], x[:])
	return x
}

// refS2V is S2V over components then the plaintext (RFC 5297 section 2.4).
func refS2V(c cipher.Block, components [][]byte, plaintext []byte) [16]byte {
	var zero [16]byte
	d := refCMAC(c, zero[:])
	for _, s := range components {
		m := refCMAC(c, s)
		d = refDbl(d)
		for i := range d {
			d[i] ^= m[i]
		}
	}
	var t []byte
	if len(plaintext) >= 16 {
		t = append([]byte{}, plaintext...)
		for i := range d {
			t[len(t)-16+i] ^= d[i]
		}
	} else {
		d = refDbl(d)
		var p [16]byte
		copy(p[:], plaintext)
		p[len(plaintext)] = 0x80
		for i := range d {
			d[i] ^= p[i]
		}
		t = d[:]
	}
	return refCMAC(c, t)
}

// refSIVSeal returns SIV || ciphertext (RFC 5297 section 2.6) for a 32-, 48- or 64-byte key.
func refSIVSeal(t testing.TB, key []byte, components [][]byte, plaintext []byte) []byte {
	mac, err := aes.NewCipher(key[:len(key)/2])
	if err != nil {
		t.Fatal(err)
	}
	ctr, err := aes.NewCipher(key[len(key)/2:])
	if err != nil {
		t.Fatal(err)
	}
	v := refS2V(mac, components, plaintext)
	q := v
	q[8] &= 0x7f
	q[12] &= 0x7f
	out := append(v[:], make([]byte, len(plaintext))...)
	cipher.NewCTR(ctr, q[:]).XORKeyStream(out[16:], plaintext)
	return out
}

// TestSIVReference: the reference gives RFC 5297's own examples (A.1 deterministic, A.2 nonce-based
// with three components), so a differential test against it compares with RFC 5297.
func TestSIVReference(t *testing.T) {
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a1 := refSIVSeal(t, h("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"),
		[][]byte{h("101112131415161718191a1b1c1d1e1f2021222324252627")}, h("112233445566778899aabbccddee"))
	if want := h("85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c"); !bytes.Equal(a1, want) {
		t.Fatalf("A.1: %x, want %x", a1, want)
	}
	a2 := refSIVSeal(t, h("7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f"), [][]byte{
		h("00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100"),
		h("102030405060708090a0"),
		h("09f911029d74e35bd84156c5635688c0"),
	}, h("7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553"))
	want := h("7bdb6e3b432667eb06f4d14bff2fbd0fcb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d")
	if !bytes.Equal(a2, want) {
		t.Fatalf("A.2: %x, want %x", a2, want)
	}
}
