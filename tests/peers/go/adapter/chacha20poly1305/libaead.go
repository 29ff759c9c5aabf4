// Package chacha20poly1305 holds the constructors x/crypto's chacha20poly1305 tests call, as
// libaead's: tests/peers/run.py copies this file beside those tests (they are tests of package
// chacha20poly1305 and call New and NewX unqualified).
package chacha20poly1305

import (
	"crypto/cipher"

	aead "github.com/libaead/libaead/bindings/go"
	x "golang.org/x/crypto/chacha20poly1305"
)

const (
	KeySize    = x.KeySize
	NonceSize  = x.NonceSize
	NonceSizeX = x.NonceSizeX
	Overhead   = x.Overhead
)

// New is aead.NewChaCha20Poly1305.
func New(key []byte) (cipher.AEAD, error) { return aead.NewChaCha20Poly1305(key) }

// NewX is aead.NewXChaCha20Poly1305.
func NewX(key []byte) (cipher.AEAD, error) { return aead.NewXChaCha20Poly1305(key) }
