// Package cipher stands for crypto/cipher in the peer suites run on libaead (tests/peers/run.py):
// the GCM constructors are libaead's, keyed with the key of the AES block (made by the aes adapter);
// the types are crypto/cipher's.
package cipher

import (
	"crypto/cipher"
	"errors"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/tests/peers/go/adapter/aes"
)

type (
	AEAD  = cipher.AEAD
	Block = cipher.Block
)

var errNotAES = errors.New("peers adapter: libaead's GCM needs a block made by aes.NewCipher")

func keyOf(b Block) ([]byte, error) {
	key, ok := aes.KeyOf(b)
	if !ok {
		return nil, errNotAES
	}
	return key, nil
}

// NewGCM is aead.NewGCM with b's key.
func NewGCM(b Block) (AEAD, error) {
	key, err := keyOf(b)
	if err != nil {
		return nil, err
	}
	return aead.NewGCM(key)
}

// NewGCMWithTagSize is aead.NewGCMWithTagSize with b's key.
func NewGCMWithTagSize(b Block, tagSize int) (AEAD, error) {
	key, err := keyOf(b)
	if err != nil {
		return nil, err
	}
	return aead.NewGCMWithTagSize(key, tagSize)
}

// NewGCMWithNonceSize is aead.NewGCMWithNonceSize with b's key.
func NewGCMWithNonceSize(b Block, size int) (AEAD, error) {
	key, err := keyOf(b)
	if err != nil {
		return nil, err
	}
	return aead.NewGCMWithNonceSize(key, size)
}

// NewGCMWithRandomNonce is aead.NewGCMWithRandomNonce with b's key.
func NewGCMWithRandomNonce(b Block) (AEAD, error) {
	key, err := keyOf(b)
	if err != nil {
		return nil, err
	}
	return aead.NewGCMWithRandomNonce(key)
}
