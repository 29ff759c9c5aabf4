//go:build go1.24

package aead

import "crypto/cipher"

const stdlibHasCurrentMessages = true

// newStdRandomNonce is crypto/cipher's NewGCMWithRandomNonce (new in Go 1.24).
func newStdRandomNonce(b cipher.Block) (cipher.AEAD, error) { return cipher.NewGCMWithRandomNonce(b) }
