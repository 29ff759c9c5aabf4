package bench

import (
	"crypto/aes"
	"crypto/tls"
	"math/rand"
	"testing"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/dtls13test"
	"github.com/pion/dtls/v3/pkg/crypto/ccm"
	"golang.org/x/crypto/chacha20poly1305"
)

// TestDTLS13Differential: the binding's DTLS13RecordProtector against records built from
// x/crypto's chacha20poly1305 with a ChaCha20 record-number mask (counter = sample[0..4] little
// endian, nonce = sample[4..16]), and from pion/dtls's AES-CCM (tag 16) with an AES-ECB mask, on
// random headers and payloads, both directions (AES-GCM against the standard library: the binding
// module's TestDTLS13DifferentialAESGCM).
func TestDTLS13Differential(t *testing.T) {
	for _, suite := range []uint16{tls.TLS_CHACHA20_POLY1305_SHA256, aead.DTLS13AES128CCMSHA256} {
		for _, epoch := range []uint64{3, 4} {
			rng := rand.New(rand.NewSource(int64(suite) + int64(epoch)))
			n := 32
			if suite == aead.DTLS13AES128CCMSHA256 {
				n = 16
			}
			key, iv, sn := make([]byte, n), make([]byte, 12), make([]byte, n)
			rng.Read(key)
			rng.Read(iv)
			rng.Read(sn)
			tx, err := aead.NewDTLS13RecordProtector(suite, key, iv, sn, epoch, aead.DTLSOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rx, err := aead.NewDTLS13RecordProtector(suite, key, iv, sn, epoch, aead.DTLSOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ref := &dtls13test.Ref{IV: iv}
			if suite == tls.TLS_CHACHA20_POLY1305_SHA256 {
				if ref.AEAD, err = chacha20poly1305.New(key); err != nil {
					t.Fatal(err)
				}
				ref.Mask = chachaMask(sn)
			} else {
				blk, err := aes.NewCipher(key)
				if err != nil {
					t.Fatal(err)
				}
				if ref.AEAD, err = ccm.NewCCM(blk, 16, 12); err != nil {
					t.Fatal(err)
				}
				snBlk, err := aes.NewCipher(sn)
				if err != nil {
					t.Fatal(err)
				}
				ref.Mask = func(sample []byte) (m [5]byte) {
					var out [16]byte
					snBlk.Encrypt(out[:], sample)
					copy(m[:], out[:])
					return m
				}
			}
			dtls13test.Differential(t, int64(suite)*int64(epoch), 300, epoch, tx, rx, ref)
		}
	}
}
