package bench

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/ProtonMail/go-crypto/ocb"
	aead "github.com/libaead/libaead/bindings/go"
	"github.com/pion/dtls/v3/pkg/crypto/ccm"
	"golang.org/x/crypto/chacha20poly1305"
)

// BenchmarkFamilies: the 1.2 families through libaead, and the pure-Go implementations the
// differential tests use (impl=ref: pion/dtls ccm, ProtonMail/go-crypto ocb, x/crypto NewX, tink-go's
// AES-SIV), at 64 B / 1 KiB / 16 KiB, 13-byte AAD, AES-128 (XChaCha: 32-byte key; AES-SIV: AES-256-SIV,
// the one key size tink has, 64 bytes). GCM-SIV (libaead only: tink's
// API is not a cipher.AEAD) runs where the libcrypto has it (OpenSSL >= 3.2). AEGIS-128L, -128X2, -128X4
// and -256 (libaegis inside libaead; no pure-Go AEGIS to set beside them: compare with the AESGCM and
// ChaCha20Poly1305 benchmarks of the same run). test.py checks that every impl=libaead line is at 0
// allocs/op.
func BenchmarkFamilies(b *testing.B) {
	aesRef := func(f func(cipher.Block) (cipher.AEAD, error)) func([]byte) (cipher.AEAD, error) {
		return func(key []byte) (cipher.AEAD, error) {
			blk, err := aes.NewCipher(key)
			if err != nil {
				return nil, err
			}
			return f(blk)
		}
	}
	families := []struct {
		name     string
		key      int
		ours     func([]byte) (cipher.AEAD, error)
		ref      func([]byte) (cipher.AEAD, error)
		required bool
	}{
		{"CCM", 16, func(k []byte) (cipher.AEAD, error) { return aead.NewCCM(k, 12, 16) },
			aesRef(func(blk cipher.Block) (cipher.AEAD, error) { return ccm.NewCCM(blk, 16, 12) }), true},
		{"OCB3", 16, aead.NewOCB3, aesRef(ocb.NewOCB), true},
		{"XChaCha20Poly1305", 32, aead.NewXChaCha20Poly1305, chacha20poly1305.NewX, true},
		{"GCMSIV", 16, aead.NewGCMSIV, nil, false},
		// AES-256-SIV without a nonce (S2V over the AAD and the message): tink-go's shape.
		{"AESSIV", 64, func(k []byte) (cipher.AEAD, error) { return aead.NewAESSIVWithNonceSize(k, 0) },
			func(k []byte) (cipher.AEAD, error) { return newTinkSIV(k) }, true},
		{"AEGIS128L", 16, aead.NewAEGIS128L, nil, true},
		{"AEGIS128X2", 16, aead.NewAEGIS128X2, nil, true},
		{"AEGIS128X4", 16, aead.NewAEGIS128X4, nil, true},
		{"AEGIS256", 32, aead.NewAEGIS256, nil, true},
	}
	for _, f := range families {
		if _, err := f.ours(make([]byte, f.key)); err != nil {
			if f.required {
				b.Fatal(err)
			}
			continue // GCM-SIV on OpenSSL < 3.2 (the binding's tests check the refusal)
		}
		for _, op := range []string{"Seal", "Open"} {
			for _, size := range []int{64, 1024, 16384} {
				for _, im := range []impl{{"libaead", f.ours}, {"ref", f.ref}} {
					if im.new == nil {
						continue
					}
					b.Run(fmt.Sprintf("alg=%s/op=%s/size=%d/impl=%s", f.name, op, size, im.name), func(b *testing.B) {
						a, err := im.new(make([]byte, f.key))
						if err != nil {
							b.Fatal(err)
						}
						runAEAD(b, a, op, "serial", size)
					})
				}
			}
		}
	}
}
