//go:build go1.26

package hpke

import (
	stdhpke "crypto/hpke"
	"testing"
)

// BenchmarkHPKE compares this package with Go's own crypto/hpke: a sender's setup plus its first
// 64-byte seal, and a 64-byte seal on an established sender (Seal allocating its result, and
// AppendSeal into a reused buffer, which allocates nothing). bench/all.sh's hpke entry runs it and
// prints the ratios (bench/hpke_ratios.py).
func BenchmarkHPKE(b *testing.B) {
	msg := make([]byte, 64)
	for _, s := range []struct {
		name           string
		kem, kdf, aead uint16
	}{
		{"X25519-SHA256-AES128GCM", 0x0020, 1, 1},
		{"P256-SHA256-AES128GCM", 0x0010, 1, 1},
		{"X25519-SHA256-ChaCha20Poly1305", 0x0020, 1, 3},
	} {
		ours := newSuite(b, s.kem, s.kdf, s.aead)
		theirs := stdSuite(b, s.kem, s.kdf, s.aead)
		sk, err := ours.kem.GenerateKey()
		if err != nil {
			b.Fatal(err)
		}
		pkStd, err := theirs.kem.NewPublicKey(sk.PublicKey().Bytes())
		if err != nil {
			b.Fatal(err)
		}
		b.Run("setup+seal/"+s.name+"/impl=libaead", func(b *testing.B) {
			for b.Loop() {
				_, snd, err := NewSender(sk.PublicKey(), ours.kdf, ours.aead, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := snd.Seal(nil, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("setup+seal/"+s.name+"/impl=crypto-hpke", func(b *testing.B) {
			for b.Loop() {
				_, snd, err := stdhpke.NewSender(pkStd, theirs.kdf, theirs.aead, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := snd.Seal(nil, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		_, snd, err := NewSender(sk.PublicKey(), ours.kdf, ours.aead, nil)
		if err != nil {
			b.Fatal(err)
		}
		_, sndStd, err := stdhpke.NewSender(pkStd, theirs.kdf, theirs.aead, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("seal/"+s.name+"/impl=libaead", func(b *testing.B) {
			for b.Loop() {
				if _, err := snd.Seal(nil, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("seal/"+s.name+"/impl=libaead-append", func(b *testing.B) {
			buf := make([]byte, 0, 128)
			for b.Loop() {
				if _, _, err := snd.AppendSeal(buf[:0], nil, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("seal/"+s.name+"/impl=crypto-hpke", func(b *testing.B) {
			for b.Loop() {
				if _, err := sndStd.Seal(nil, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
