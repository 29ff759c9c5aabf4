package aead_test

import (
	"encoding/binary"
	"fmt"

	aead "github.com/libaead/libaead/bindings/go"
)

// A key per object, its chunks sealed in order under the nonces "obj1" || BE64(chunk index).
func ExampleNewGCMWithCounterNonce() {
	key := make([]byte, 32) // in practice a fresh random key per object (crypto/rand)
	g, err := aead.NewGCMWithCounterNonce(key)
	if err != nil {
		panic(err)
	}
	nonce := func(chunk uint64) []byte { return binary.BigEndian.AppendUint64([]byte("obj1"), chunk) }
	var sealed [][]byte
	for i, chunk := range []string{"first", "second", "third"} {
		sealed = append(sealed, g.Seal(nil, nonce(uint64(i)), []byte(chunk), nil))
	}
	pt, err := g.Open(nil, nonce(1), sealed[1], nil) // Open checks no order
	fmt.Printf("%s %v\n", pt, err)
	fmt.Println(panics(func() { g.Seal(nil, nonce(1), []byte("reused"), nil) }))
	fmt.Println(panics(func() { g.Seal(nil, binary.BigEndian.AppendUint64([]byte("obj2"), 3), []byte("x"), nil) }))
	// Output:
	// second <nil>
	// crypto/cipher: counter decreased or remained the same
	// crypto/cipher: GCM nonce prefix changed
}

func ExampleNewGCMWithXORCounterNonceAndIV() {
	iv := []byte{0xa0, 0xa1, 0xa2, 0xa3, 1, 2, 3, 4, 5, 6, 7, 8} // fixed(4) || mask(8), e.g. from a KDF
	x, _ := aead.NewGCMWithXORCounterNonceAndIV(make([]byte, 16), iv)
	x.Seal(nil, xorNonce(iv, 5), []byte("message 5"), nil) // any first counter: nothing to learn
	x.Seal(nil, xorNonce(iv, 6), []byte("message 6"), nil)
	fmt.Println(panics(func() { x.Seal(nil, xorNonce(iv, 6), []byte("again"), nil) }))
	// Output: crypto/cipher: counter decreased or remained the same
}

func ExampleNewGCMForSSH() {
	iv := []byte{0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 0, 0, 0, 0} // the key exchange's initial IV
	s, _ := aead.NewGCMForSSHWithIV(make([]byte, 16), iv)
	nonce := func(seq uint64) []byte { return binary.BigEndian.AppendUint64(append([]byte{}, iv[:4]...), seq) }
	payload := []byte("padding length || payload || random padding")
	packetLen := binary.BigEndian.AppendUint32(nil, uint32(len(payload))) // sent in clear, authenticated
	for seq := uint64(0); seq < 3; seq++ {
		s.Seal(nil, nonce(seq), payload, packetLen)
	}
	u, _ := aead.UsageOf(s)
	fmt.Println(u.Seals, u.Seals < aead.SSHRekeyAfter) // re-key at SSHRekeyAfter packets
	fmt.Println(panics(func() { s.Seal(nil, nonce(3), payload, nil) }))
	// Output:
	// 3 true
	// aead: SSH AES-GCM requires exactly 4 bytes of additional data (the packet length)
}
