//go:build !go1.24

package aead

import (
	"crypto/cipher"
	"errors"
)

const stdlibHasCurrentMessages = false

// newStdRandomNonce: crypto/cipher has no NewGCMWithRandomNonce before Go 1.24 (the interop
// tests skip).
func newStdRandomNonce(cipher.Block) (cipher.AEAD, error) {
	return nil, errors.New("crypto/cipher.NewGCMWithRandomNonce needs Go 1.24")
}
