// The variables the documents' Go blocks use undeclared; a block runs as the body of main, in a block
// of its own (so it may declare its own nonce, say, of another size).
package main

// IMPORTS
import (
	"bytes"
	"errors"
	"fmt"
)

import aead "github.com/libaead/libaead/bindings/go"

var (
	_ = bytes.Repeat
	_ = errors.Is
	_ = fmt.Println
	_ = aead.Version
)

func main() {
	key := bytes.Repeat([]byte{0x01}, 32) // AES-256, ChaCha20-Poly1305, AES-128-SIV
	nonce := make([]byte, 12)
	plaintext, ad, ad1, ad2 := []byte("attack at dawn"), []byte("header"), []byte("ad1"), []byte("ad2")
	_, _, _, _, _, _ = key, nonce, plaintext, ad, ad1, ad2
	{
		// BODY
	}
}
