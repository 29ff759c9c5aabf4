// crypto/internal/cryptotest's AEAD checks (TestAEAD, NoExtraMethods) on x/crypto's
// ChaCha20-Poly1305 and XChaCha20-Poly1305, as Go's own packages run them on theirs (crypto/cipher's
// gcm_test.go on GCM). Kept under testdata (not built in place): tests/peers/run.py rewrites its
// imports like the peers' files, x/crypto's package becoming adapter/chacha20poly1305 on libaead.
package cryptotestpeer

import (
	"crypto/cipher"
	"crypto/internal/cryptotest"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// key is fixed for a run: TestAEAD wants every instance it makes equivalent.
var key = []byte("0123456789abcdef0123456789abcdef")

func TestChaCha20Poly1305AEAD(t *testing.T) {
	cryptotest.TestAEAD(t, func() (cipher.AEAD, error) { return chacha20poly1305.New(key) })
}

func TestXChaCha20Poly1305AEAD(t *testing.T) {
	cryptotest.TestAEAD(t, func() (cipher.AEAD, error) { return chacha20poly1305.NewX(key) })
}

func TestChaCha20Poly1305ExtraMethods(t *testing.T) {
	t.Run("New", func(t *testing.T) {
		a, _ := chacha20poly1305.New(key)
		cryptotest.NoExtraMethods(t, &a)
	})
	t.Run("NewX", func(t *testing.T) {
		a, _ := chacha20poly1305.NewX(key)
		cryptotest.NoExtraMethods(t, &a)
	})
}
