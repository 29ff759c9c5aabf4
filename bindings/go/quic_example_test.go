package aead_test

import (
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"

	aead "github.com/libaead/libaead/bindings/go"
)

func ExampleNewQUICPacketProtector() {
	// RFC 9001 Appendix A.5: the ChaCha20-Poly1305 1-RTT keys ("quic key", "quic iv", "quic hp").
	key, _ := hex.DecodeString("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8")
	iv, _ := hex.DecodeString("e0459b3474bdd0e44a41c144")
	hp, _ := hex.DecodeString("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")
	send, err := aead.NewQUICPacketProtector(tls.TLS_CHACHA20_POLY1305_SHA256, key, iv, hp)
	if err != nil {
		panic(err)
	}
	packet := make([]byte, 0, 64)                         // room for the 16-byte tag: no allocation
	packet = append(packet, 0x42, 0x00, 0xbf, 0xf4, 0x01) // short header (3-byte packet number), payload
	packet, err = send.Protect(packet, 4, 654360564)      // one cgo call: seal, tag, header protection
	fmt.Printf("%x %v\n", packet, err)

	recv, _ := aead.NewQUICPacketProtector(tls.TLS_CHACHA20_POLY1305_SHA256, key, iv, hp)
	payload, pn, err := recv.Unprotect(packet, 1, 654360563) // pn field at offset 1; largest received
	fmt.Printf("%x %d %v\n", payload, pn, err)

	again := append(make([]byte, 0, 64), 0x42, 0x00, 0xbf, 0xf4, 0x02)
	_, err = send.Protect(again, 4, 654360564) // the same packet number again: refused, nothing consumed
	fmt.Println(errors.Is(err, aead.ErrPacketNumber), send.Usage(), recv.Usage())
	// Output:
	// 4cfe4189655e5cd55c41f69080575d7999c25a5bfb <nil>
	// 01 654360564 <nil>
	// true {1 0} {0 0}
}

func ExampleNewGCMForQUIC() {
	iv := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // "quic iv"
	a, _ := aead.NewGCMForQUIC(make([]byte, 16), iv)
	nonce := func(pn uint64) []byte { // iv XOR (0^4 || BE64(pn))
		n := append([]byte{}, iv...)
		for i := 0; i < 8; i++ {
			n[4+i] ^= byte(pn >> (56 - 8*i))
		}
		return n
	}
	header := []byte{0x40, 0x00, 0x07} // any length of additional data
	ct := a.Seal(nil, nonce(7), []byte("frames"), header)
	fmt.Println(panics(func() { a.Seal(nil, nonce(7), []byte("again"), header) }))
	fmt.Println(panics(func() { a.Seal(nil, nonce(1<<62), []byte("too far"), header) }))
	pt, err := a.Open(nil, nonce(7), ct, header) // Open checks no order
	u, _ := aead.UsageOf(a)
	fmt.Printf("%s %v %+v\n", pt, err, u)
	// Output:
	// crypto/cipher: counter decreased or remained the same
	// crypto/cipher: counter exhausted
	// frames <nil> {Seals:1 Forgeries:0}
}

func ExampleHeaderProtection_Mask() {
	hpKey, _ := hex.DecodeString("9f50449e04a0e810283a1e9933adedd2") // RFC 9001 A.2, client "quic hp"
	hp, _ := aead.NewHeaderProtection(tls.TLS_AES_128_GCM_SHA256, hpKey)
	sample, _ := hex.DecodeString("d1b1c98dd7689fb8ec11d242b123dc9b")
	fmt.Printf("%x\n", hp.Mask(sample))
	// Output: 437b9aec36
}
