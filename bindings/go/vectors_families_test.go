package aead

import (
	"crypto/cipher"
	"errors"
	"testing"
)

// TestWycheproofFamilies replays the Wycheproof files of the 1.2 families through the public
// constructors, every case accounted for: valid ones open to msg and seal to ct || tag, invalid
// ones fail with ErrOpen, and sizes the family does not take are refused by the constructor (CCM
// nonces outside 7..13 or odd tags; XChaCha nonces other than 24 bytes: a panic, as x/crypto).
// GCM-SIV on a libcrypto without it (OpenSSL < 3.2): every case counted as refused by the
// constructor with errors.ErrUnsupported, and that must be what the version predicts.
func TestWycheproofFamilies(t *testing.T) {
	for _, file := range []string{"aes_ccm_test.json", "aes_gcm_siv_test.json", "xchacha20_poly1305_test.json"} {
		t.Run(file, func(t *testing.T) {
			f := loadWycheproof(t, file)
			sivWanted := file == "aes_gcm_siv_test.json" && gcmSIVExpected(t)
			var ran, accepted, authFailed, sizeRefused, unsupported int
			for _, g := range f.TestGroups {
				for _, v := range g.Tests {
					ran++
					key, iv, aad, msg, ct, tag, name := v.decode(t)
					var a cipher.AEAD
					var err error
					switch file {
					case "aes_ccm_test.json":
						a, err = NewCCM(key, len(iv), len(tag))
						if err != nil {
							ok := len(iv) >= 7 && len(iv) <= 13 && len(tag) >= 4 && len(tag) <= 16 && len(tag)%2 == 0
							if ok || v.Result != "invalid" {
								t.Fatalf("%s: constructor refused nonce %d / tag %d: %v", name, len(iv), len(tag), err)
							}
							sizeRefused++
							continue
						}
					case "aes_gcm_siv_test.json":
						a, err = NewGCMSIV(key)
						if !sivWanted {
							if !errors.Is(err, errors.ErrUnsupported) {
								t.Fatalf("%s: GCM-SIV on %s: %v, want ErrUnsupported", name, Version(), err)
							}
							unsupported++
							continue
						}
					default:
						a, err = NewXChaCha20Poly1305(key)
						if err == nil && len(iv) != 24 {
							if v.Result != "invalid" {
								t.Fatalf("%s: valid case with a %d-byte nonce", name, len(iv))
							}
							if p := catchPanic(func() { a.Open(nil, iv, append(ct, tag...), aad) }); p != "chacha20poly1305: bad nonce length passed to Open" {
								t.Fatalf("%s: Open panic = %q", name, p)
							}
							sizeRefused++
							continue
						}
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					sealed := append(append([]byte{}, ct...), tag...)
					opened, err := a.Open(nil, iv, sealed, aad)
					switch v.Result {
					case "valid", "acceptable":
						expectVector(t, name, a, iv, msg, aad, sealed, opened, err)
						accepted++
					case "invalid":
						if err == nil || !errors.Is(err, ErrOpen) || opened != nil {
							t.Fatalf("%s: invalid case: %x, %v", name, opened, err)
						}
						authFailed++
					default:
						t.Fatalf("%s: unknown result %q", name, v.Result)
					}
				}
			}
			if ran != f.NumberOfTests || ran != accepted+authFailed+sizeRefused+unsupported || ran == 0 {
				t.Fatalf("ran %d cases, file declares %d", ran, f.NumberOfTests)
			}
			t.Logf("%s: %d cases: %d valid (opened and sealed), %d invalid refused by Open, %d refused by size rules, %d refused as unsupported (%s)",
				file, ran, accepted, authFailed, sizeRefused, unsupported, Version())
		})
	}
}
