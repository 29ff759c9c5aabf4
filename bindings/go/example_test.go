package aead_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	aead "github.com/libaead/libaead/bindings/go"
)

// One example per constructor; `go test` runs them and checks their output.

func ExampleNewGCM() {
	key := bytes.Repeat([]byte{0x01}, 32) // 16, 24 or 32 bytes: AES-128/192/256
	gcm, err := aead.NewGCM(key)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, gcm.NonceSize()) // use crypto/rand or a counter; never reuse one with a key
	ct := gcm.Seal(nil, nonce, []byte("attack at dawn"), []byte("header"))
	pt, err := gcm.Open(nil, nonce, ct, []byte("header"))
	fmt.Printf("%d bytes sealed, opened %q, err=%v\n", len(ct), pt, err)

	ct[0] ^= 1
	_, err = gcm.Open(nil, nonce, ct, []byte("header"))
	fmt.Println(errors.Is(err, aead.ErrOpen))
	// Output:
	// 30 bytes sealed, opened "attack at dawn", err=<nil>
	// true
}

func ExampleNewGCMWithTagSize() {
	gcm, err := aead.NewGCMWithTagSize(make([]byte, 16), 12) // tags of 12..16 bytes
	if err != nil {
		panic(err)
	}
	ct := gcm.Seal(nil, make([]byte, 12), []byte("short tag"), nil)
	fmt.Println(gcm.Overhead(), len(ct))
	// Output: 12 21
}

func ExampleNewGCMWithNonceSize() {
	gcm, err := aead.NewGCMWithNonceSize(make([]byte, 16), 8) // 1..128-byte nonces
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, gcm.NonceSize())
	ct := gcm.Seal(nil, nonce, []byte("eight-byte nonce"), nil)
	pt, _ := gcm.Open(nil, nonce, ct, nil)
	fmt.Printf("%s\n", pt)
	// Output: eight-byte nonce
}

func ExampleNewChaCha20Poly1305() {
	c, err := aead.NewChaCha20Poly1305(make([]byte, 32))
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 0, 64) // Seal and Open append to dst; no allocation when cap suffices
	buf = append(buf, "in place"...)
	nonce := make([]byte, 12)
	ct := c.Seal(buf[:0], nonce, buf, nil) // exact in-place
	pt, err := c.Open(ct[:0], nonce, ct, nil)
	fmt.Printf("%s %v\n", pt, err)
	// Output: in place <nil>
}

// tls12Nonce is crypto/tls's TLS 1.2 AES-GCM nonce: 4-byte implicit IV || 8-byte sequence.
func tls12Nonce(iv []byte, seq uint64) []byte {
	n := make([]byte, 12)
	copy(n, iv[:4])
	binary.BigEndian.PutUint64(n[4:], seq)
	return n
}

// xorNonce is the TLS 1.3 (and TLS 1.2 ChaCha20-Poly1305) nonce: IV XOR (0^4 || sequence).
func xorNonce(iv []byte, seq uint64) []byte {
	n := append([]byte{}, iv...)
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], seq)
	for i := range s {
		n[4+i] ^= s[i]
	}
	return n
}

// panics reports the panic message of f, if any.
func panics(f func()) (msg any) {
	defer func() { msg = recover() }()
	f()
	return nil
}

func ExampleNewGCMForTLS12() {
	a, _ := aead.NewGCMForTLS12(make([]byte, 16))
	iv := []byte{0xde, 0xad, 0xbe, 0xef}
	header := make([]byte, 13) // TLS 1.2 AAD: seq || type || version || length
	a.Seal(nil, tls12Nonce(iv, 0), []byte("record 0"), header)
	a.Seal(nil, tls12Nonce(iv, 1), []byte("record 1"), header)
	fmt.Println(panics(func() { a.Seal(nil, tls12Nonce(iv, 1), []byte("again"), header) }))
	fmt.Println(panics(func() { a.Seal(nil, tls12Nonce(iv, 2), []byte("bad aad"), header[:5]) }))
	// Output:
	// crypto/cipher: counter decreased or remained the same
	// crypto/cipher: TLS 1.2 GCM requires exactly 13 bytes of additional data
}

func ExampleNewGCMForTLS13() {
	a, _ := aead.NewGCMForTLS13(make([]byte, 16))
	iv := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}          // the static IV of the traffic key
	header := []byte{23, 3, 3, 0, 30}                            // TLS 1.3 AAD: the 5-byte record header
	a.Seal(nil, xorNonce(iv, 0), []byte("first record"), header) // sequence 0 teaches the IV
	a.Seal(nil, xorNonce(iv, 5), []byte("gaps are fine"), header)
	fmt.Println(panics(func() { a.Seal(nil, xorNonce(iv, 4), []byte("late"), header) }))
	fmt.Println(panics(func() { a.Seal(nil, xorNonce(iv, 1<<64-1), []byte("last"), header) }))
	// Output:
	// crypto/cipher: counter decreased or remained the same
	// crypto/cipher: counter exhausted
}

func ExampleNewChaCha20Poly1305ForTLS12() {
	a, _ := aead.NewChaCha20Poly1305ForTLS12(make([]byte, 32))
	iv := make([]byte, 12)
	header := make([]byte, 13)
	a.Seal(nil, xorNonce(iv, 0), []byte("record 0"), header)
	iv2 := append([]byte{9}, iv[1:]...) // another prefix
	fmt.Println(panics(func() { a.Seal(nil, xorNonce(iv2, 1), []byte("record 1"), header) }))
	// Output: chacha20poly1305: nonce prefix changed
}

func ExampleNewChaCha20Poly1305ForTLS13() {
	a, _ := aead.NewChaCha20Poly1305ForTLS13(make([]byte, 32))
	iv := bytes.Repeat([]byte{0x5a}, 12)
	header := []byte{23, 3, 3, 0, 20}
	ct := a.Seal(nil, xorNonce(iv, 0), []byte("hello"), header)
	pt, err := a.Open(nil, xorNonce(iv, 0), ct, header) // Open checks no order
	fmt.Printf("%s %v\n", pt, err)
	// Output: hello <nil>
}

func ExampleNewGCMWithRandomNonce() {
	g, err := aead.NewGCMWithRandomNonce(make([]byte, 32))
	if err != nil {
		panic(err)
	}
	ct := g.Seal(nil, nil, []byte("no nonce to manage"), nil) // nonce || ciphertext || tag
	pt, err := g.Open(nil, nil, ct, nil)                      // crypto/cipher.NewGCMWithRandomNonce opens it too
	fmt.Println(g.NonceSize(), g.Overhead(), len(ct), string(pt), err)
	// Output: 0 28 46 no nonce to manage <nil>
}

func ExampleNewGCMForTLS13WithIV() {
	iv := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // known when the traffic key is derived
	a, _ := aead.NewGCMForTLS13WithIV(make([]byte, 16), iv)
	header := []byte{23, 3, 3, 0, 30}
	a.Seal(nil, xorNonce(iv, 5), []byte("any first sequence"), header) // nothing to learn
	fmt.Println(panics(func() { a.Seal(nil, xorNonce(iv, 3), []byte("late"), header) }))
	// Output: crypto/cipher: counter decreased or remained the same
}

func ExampleNewGCMForTLS12WithIV() {
	salt := []byte{0xde, 0xad, 0xbe, 0xef}
	saltMask := append(append([]byte{}, salt...), 9, 8, 7, 6, 5, 4, 3, 3) // salt || 8-byte mask
	rustls, _ := aead.NewGCMForTLS12WithIV(make([]byte, 16), saltMask)
	header := make([]byte, 13)
	for seq := uint64(0); seq < 3; seq++ { // explicit nonce = mask XOR seq, as rustls sends it
		rustls.Seal(nil, xorNonce(saltMask, seq), []byte("record"), header)
	}
	counter, _ := aead.NewGCMForTLS12WithIV(make([]byte, 16), salt) // explicit nonce = seq (crypto/tls)
	counter.Seal(nil, tls12Nonce(salt, 7), []byte("record"), header)
	fmt.Println(panics(func() { counter.Seal(nil, tls12Nonce(salt, 7), []byte("again"), header) }))
	// Output: crypto/cipher: counter decreased or remained the same
}

func ExampleOptions() {
	fips := aead.Options{Properties: "fips=yes"} // an OpenSSL property query for every fetch
	g, err := fips.NewGCMWithRandomNonce(make([]byte, 16))
	if errors.Is(err, errors.ErrUnsupported) {
		fmt.Println("no FIPS provider loaded") // what this prints outside a FIPS configuration
		return
	}
	ind, _ := aead.IndicatorOf(g)
	fmt.Println(ind.Provider, ind.SealApproved, ind.OpenApproved)
}

func ExampleIndicatorOf() {
	g, _ := aead.NewGCM(make([]byte, 16))
	ind, ok := aead.IndicatorOf(g)
	// Caller-chosen nonces are never an approved seal, even under a FIPS provider.
	fmt.Println(ok, ind.SealApproved)
	// Output: true false
}

func ExampleNewCCM() {
	ccm, err := aead.NewCCM(make([]byte, 16), 13, 8) // AES-128-CCM, 13-byte nonce, 8-byte tag
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, ccm.NonceSize()) // unique per key; 13 bytes leave room for 65535-byte messages
	ct := ccm.Seal(nil, nonce, []byte("sensor reading"), []byte("device 7"))
	pt, err := ccm.Open(nil, nonce, ct, []byte("device 7"))
	fmt.Println(len(ct), string(pt), err)
	fmt.Println(panics(func() { ccm.Seal(nil, nonce, make([]byte, 1<<16), nil) }))
	// Output:
	// 22 sensor reading <nil>
	// aead: message too large for CCM
}

func ExampleNewGCMSIV() {
	g, err := aead.NewGCMSIV(make([]byte, 32))
	if errors.Is(err, errors.ErrUnsupported) {
		fmt.Println(err) // libcrypto older than OpenSSL 3.2: the text names the vendored build
		return
	}
	nonce := make([]byte, 12)
	a := g.Seal(nil, nonce, []byte("same"), nil)
	b := g.Seal(nil, nonce, []byte("same"), nil)
	c := g.Seal(nil, nonce, []byte("diff"), nil)
	// A repeated nonce reveals only that two messages were equal.
	fmt.Println(bytes.Equal(a, b), bytes.Equal(a, c))
}

func ExampleNewOCB3() {
	ocb, err := aead.NewOCB3(bytes.Repeat([]byte{7}, 24)) // AES-192-OCB3, 12-byte nonce
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, ocb.NonceSize())
	ct := ocb.Seal(nil, nonce, []byte("one pass"), nil)
	pt, err := ocb.Open(nil, nonce, ct, nil)
	fmt.Println(ocb.NonceSize(), ocb.Overhead(), string(pt), err)
	// Output: 12 16 one pass <nil>
}

func ExampleNewXChaCha20Poly1305() {
	x, err := aead.NewXChaCha20Poly1305(make([]byte, 32)) // as golang.org/x/crypto/chacha20poly1305.NewX
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, x.NonceSize()) // 24 bytes: crypto/rand is fine, collisions are negligible
	ct := x.Seal(nil, nonce, []byte("long nonces"), nil)
	pt, err := x.Open(nil, nonce, ct, nil)
	fmt.Println(x.NonceSize(), len(ct), string(pt), err)
	// Output: 24 27 long nonces <nil>
}

func ExampleNewXChaCha20Poly1305WithRandomNonce() {
	x, err := aead.NewXChaCha20Poly1305WithRandomNonce(make([]byte, 32))
	if err != nil {
		panic(err)
	}
	ct := x.Seal(nil, nil, []byte("no nonce to manage"), nil) // nonce(24) || ciphertext || tag
	pt, err := x.Open(nil, nil, ct, nil)
	fmt.Println(x.NonceSize(), x.Overhead(), len(ct), string(pt), err)
	// Output: 0 40 58 no nonce to manage <nil>
}

func ExampleNewAEGIS128L() {
	// RFC 10032's AEGIS-128L test vector 4: 16-byte key and nonce.
	key, _ := hex.DecodeString("10010000000000000000000000000000")
	nonce, _ := hex.DecodeString("10000200000000000000000000000000")
	ad, _ := hex.DecodeString("0001020304050607")
	msg, _ := hex.DecodeString("000102030405060708090a0b0c0d")
	a, err := aead.NewAEGIS128L(key)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", a.Seal(nil, nonce, msg, ad)) // ciphertext || tag
	// Output: 79d94593d8c2119d7e8fd9b8fc775c04b3dba849b2701effbe32c7f0fab7
}

func ExampleNewAEGIS256WithRandomNonce() {
	a, err := aead.NewAEGIS256WithRandomNonce(make([]byte, 32), 32) // 32-byte tags
	if err != nil {
		panic(err)
	}
	ct := a.Seal(nil, nil, []byte("no nonce to manage"), nil) // nonce(32) || ciphertext || tag(32)
	pt, err := a.Open(nil, nil, ct, nil)
	fmt.Println(a.NonceSize(), a.Overhead(), len(ct), string(pt), err)
	// Output: 0 64 82 no nonce to manage <nil>
}

func ExampleNewAESSIV() {
	// RFC 5297 Appendix A.2: AES-128-SIV (a 32-byte key: CMAC key, then CTR key), nonce-based.
	key, _ := hex.DecodeString("7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f")
	ad1, _ := hex.DecodeString("00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100")
	ad2, _ := hex.DecodeString("102030405060708090a0")
	nonce, _ := hex.DecodeString("09f911029d74e35bd84156c5635688c0")
	siv, err := aead.NewAESSIV(key)
	if err != nil {
		panic(err)
	}
	// Several associated-data components in one cgo call; the nonce is the last one.
	ct := siv.SealComponents(nil, []byte("this is some plaintext to encrypt using SIV-AES"), ad1, ad2, nonce)
	fmt.Printf("%x\n", ct[:16]) // the synthetic IV comes first
	pt, err := siv.OpenComponents(nil, ct, ad1, ad2, nonce)
	fmt.Printf("%s %v\n", pt, err)

	// The cipher.AEAD form (RFC 5297 section 6): components (ad, nonce).
	sealed := siv.Seal(nil, nonce, []byte("hello"), ad2)
	same := siv.SealComponents(nil, []byte("hello"), ad2, nonce)
	fmt.Println(siv.NonceSize(), siv.Overhead(), len(sealed), bytes.Equal(sealed, same))
	// Output:
	// 7bdb6e3b432667eb06f4d14bff2fbd0f
	// this is some plaintext to encrypt using SIV-AES <nil>
	// 16 16 21 true
}
