package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// gcmSIVExpected reports whether the loaded libcrypto should have AES-GCM-SIV: OpenSSL 3.2 or newer,
// read from Version() ("libaead 1.2.0 (OpenSSL 3.5.5 27 Jan 2026)"). AEAD_REQUIRE_GCM_SIV=1
// (test.py sets it on a -Dlibcrypto=vendored build) makes a libcrypto without it a failure whatever
// the version text says.
func gcmSIVExpected(t testing.TB) bool { return opensslAtLeast(t, 3, 2, "AEAD_REQUIRE_GCM_SIV") }

// opensslAtLeast reports whether the loaded libcrypto (from Version()) is OpenSSL major.minor or
// newer; with the variable require set to 1 an older one fails the test.
func opensslAtLeast(t testing.TB, major, minor int, require string) bool {
	return testkit.OpenSSLAtLeast(t, Version(), major, minor, require)
}

// familyConstructors are the 1.2 families' constructors in the shape of allConstructors; init adds
// them to it (GCM-SIV only where the libcrypto has it; TestGCMSIVAvailability checks both ways), so
// TestAppendAndInPlace, TestOpenFailure and TestZeroAllocs cover them.
var familyConstructors = []constructor{
	{"NewCCM/128/13/16", func(k []byte) (cipher.AEAD, error) { return NewCCM(k, 13, 16) }, 16, 0},
	{"NewCCM/192/12/8", func(k []byte) (cipher.AEAD, error) { return NewCCM(k, 12, 8) }, 24, 0},
	{"NewCCM/256/7/4", func(k []byte) (cipher.AEAD, error) { return NewCCM(k, 7, 4) }, 32, 0},
	{"NewOCB3/128", NewOCB3, 16, 0},
	{"NewOCB3/256", NewOCB3, 32, 0},
	{"NewOCB3WithNonceSize/15/192", func(k []byte) (cipher.AEAD, error) { return NewOCB3WithNonceSize(k, 15) }, 24, 0},
	{"NewOCB3WithNonceSize/1/128", func(k []byte) (cipher.AEAD, error) { return NewOCB3WithNonceSize(k, 1) }, 16, 0},
	{"NewXChaCha20Poly1305", NewXChaCha20Poly1305, 32, 0},
}

var gcmSIVConstructors = []constructor{
	{"NewGCMSIV/128", NewGCMSIV, 16, 0},
	{"NewGCMSIV/192", NewGCMSIV, 24, 0},
	{"NewGCMSIV/256", NewGCMSIV, 32, 0},
}

func init() {
	allConstructors = append(allConstructors, familyConstructors...)
	if _, err := NewGCMSIV(make([]byte, 16)); err == nil {
		allConstructors = append(allConstructors, gcmSIVConstructors...)
	}
}

// TestGCMSIVAvailability: on OpenSSL >= 3.2 (the vendored build) every GCM-SIV key size works and
// matches the RFC 8452 example below; on an older libcrypto (the system 3.0) every one is refused
// with an error matching errors.ErrUnsupported, an *Error of code AEAD_ERR_UNSUPPORTED, and a text
// naming the vendored build.
func TestGCMSIVAvailability(t *testing.T) {
	want := gcmSIVExpected(t)
	for _, n := range []int{16, 24, 32} {
		a, err := NewGCMSIV(make([]byte, n))
		if want {
			if err != nil || a.NonceSize() != 12 || a.Overhead() != 16 {
				t.Fatalf("GCM-SIV %d-byte key on %s: %v", n, Version(), err)
			}
			continue
		}
		var e *Error
		if a != nil || !errors.Is(err, errors.ErrUnsupported) || !errors.As(err, &e) || e.Code != codeUnsupported ||
			!strings.Contains(err.Error(), "-Dlibcrypto=vendored") || !strings.Contains(err.Error(), "OpenSSL 3.2") {
			t.Fatalf("GCM-SIV %d-byte key on %s: %v, %v", n, Version(), a, err)
		}
	}
	if !want {
		t.Logf("GCM-SIV refused on %s, as expected: %v", Version(), func() error { _, err := NewGCMSIV(make([]byte, 16)); return err }())
		return
	}
	// RFC 8452 appendix C.1, the first example with plaintext (AES-128-GCM-SIV).
	key := unhex(t, "01000000000000000000000000000000")
	a, _ := NewGCMSIV(key)
	nonce := unhex(t, "030000000000000000000000")
	got := a.Seal(nil, nonce, unhex(t, "0100000000000000"), nil)
	if want := unhex(t, "b5d839330ac7b786578782fff6013b815b287c22493a364c"); !bytes.Equal(got, want) {
		t.Fatalf("RFC 8452 C.1: %x, want %x", got, want)
	}
}

func TestFamilyConstructorErrors(t *testing.T) {
	type ctor = func([]byte) (cipher.AEAD, error)
	aesCtors := map[string]ctor{
		"CCM":     func(k []byte) (cipher.AEAD, error) { return NewCCM(k, 12, 16) },
		"OCB3":    NewOCB3,
		"GCM-SIV": NewGCMSIV,
	}
	for name, c := range aesCtors {
		for _, n := range []int{0, 15, 17, 31, 33, 64} {
			var kse aes.KeySizeError
			if a, err := c(make([]byte, n)); a != nil || !errors.As(err, &kse) || int(kse) != n {
				t.Errorf("%s key of %d bytes: %v, want aes.KeySizeError(%d)", name, n, err, n)
			}
		}
	}
	for _, c := range []ctor{NewXChaCha20Poly1305, NewXChaCha20Poly1305WithRandomNonce} {
		for _, n := range []int{0, 16, 24, 31, 33} {
			if a, err := c(make([]byte, n)); a != nil || err == nil || err.Error() != "chacha20poly1305: bad key length" {
				t.Errorf("XChaCha key of %d bytes: %v", n, err)
			}
		}
	}
	key := make([]byte, 16)
	for n := -1; n <= 16; n++ {
		for tag := -1; tag <= 18; tag++ {
			a, err := NewCCM(key, n, tag)
			ok := n >= 7 && n <= 13 && tag >= 4 && tag <= 16 && tag%2 == 0
			if ok != (err == nil) || (ok && (a.NonceSize() != n || a.Overhead() != tag)) {
				t.Errorf("NewCCM(nonce %d, tag %d) = %v, %v", n, tag, a, err)
			}
			if !ok && (a != nil || !strings.HasPrefix(err.Error(), "aead: CCM ")) {
				t.Errorf("NewCCM(nonce %d, tag %d): %v", n, tag, err)
			}
		}
	}
	for n := -1; n <= 17; n++ {
		a, err := NewOCB3WithNonceSize(key, n)
		ok := n >= 1 && n <= 15
		if ok != (err == nil) || (ok && (a.NonceSize() != n || a.Overhead() != 16)) {
			t.Errorf("NewOCB3WithNonceSize(%d) = %v, %v", n, a, err)
		}
	}
	if a, _ := NewOCB3(key); a.NonceSize() != 12 || a.Overhead() != 16 {
		t.Errorf("NewOCB3 sizes %d/%d", a.NonceSize(), a.Overhead())
	}
	x, _ := NewXChaCha20Poly1305(make([]byte, 32))
	if x.NonceSize() != 24 || x.Overhead() != 16 {
		t.Errorf("XChaCha sizes %d/%d", x.NonceSize(), x.Overhead())
	}
	xr, _ := NewXChaCha20Poly1305WithRandomNonce(make([]byte, 32))
	if xr.NonceSize() != 0 || xr.Overhead() != 40 {
		t.Errorf("XChaCha random-nonce sizes %d/%d", xr.NonceSize(), xr.Overhead())
	}
}

// TestFamilyPanics: wrong nonce lengths and overlaps panic with each family's text (XChaCha's are
// x/crypto's NewX texts; bench/crosscheck_test.go compares them with x/crypto itself).
func TestFamilyPanics(t *testing.T) {
	ccm, _ := NewCCM(make([]byte, 16), 12, 16)
	ocb, _ := NewOCB3(make([]byte, 16))
	x, _ := NewXChaCha20Poly1305(make([]byte, 32))
	xr, _ := NewXChaCha20Poly1305WithRandomNonce(make([]byte, 32))
	buf := make([]byte, 200)
	for want, f := range map[string]func(){
		"aead: incorrect nonce length given to CCM":                              func() { ccm.Seal(nil, make([]byte, 13), nil, nil) },
		"aead: incorrect nonce length given to OCB3":                             func() { ocb.Open(nil, make([]byte, 11), make([]byte, 16), nil) },
		"aead: invalid buffer overlap of output and input":                       func() { ccm.Seal(buf[1:1], make([]byte, 12), buf[:64], nil) },
		"aead: invalid buffer overlap of output and additional data":             func() { ocb.Seal(buf[:0], make([]byte, 12), nil, buf[5:10]) },
		"chacha20poly1305: bad nonce length passed to Seal":                      func() { x.Seal(nil, make([]byte, 12), nil, nil) },
		"chacha20poly1305: bad nonce length passed to Open":                      func() { x.Open(nil, make([]byte, 23), make([]byte, 16), nil) },
		"chacha20poly1305: invalid buffer overlap of output and input":           func() { x.Seal(buf[1:1], make([]byte, 24), buf[:64], nil) },
		"chacha20poly1305: invalid buffer overlap of output and additional data": func() { x.Seal(buf[:0], make([]byte, 24), nil, buf[:5]) },
		"aead: non-empty nonce passed to XChaCha20Poly1305WithRandomNonce":       func() { xr.Seal(nil, make([]byte, 24), nil, nil) },
		"aead: message too large for CCM": func() {
			c, _ := NewCCM(make([]byte, 16), 13, 16) // 2-byte length field: below 65536 bytes
			c.Seal(nil, make([]byte, 13), make([]byte, 65536), nil)
		},
	} {
		if got := catchPanic(f); got != want {
			t.Errorf("panic %q, want %q", got, want)
		}
	}
}

// TestCCMLengthLimit: the message limit follows the nonce length (2^(8*(15-n)) - 1 bytes): a
// 13-byte nonce seals 65535 bytes, refuses 65536 (panic), and Open of a 65536-byte message (made
// with a 12-byte nonce's key) fails with ErrOpen without calling C; 12-byte nonces take more.
func TestCCMLengthLimit(t *testing.T) {
	key := make([]byte, 16)
	c13, _ := NewCCM(key, 13, 16)
	c12, _ := NewCCM(key, 12, 16)
	ct := c13.Seal(nil, make([]byte, 13), make([]byte, 65535), nil)
	if pt, err := c13.Open(nil, make([]byte, 13), ct, nil); err != nil || len(pt) != 65535 {
		t.Fatalf("65535 bytes with a 13-byte nonce: %v", err)
	}
	big := c12.Seal(nil, make([]byte, 12), make([]byte, 65536), nil)
	if pt, err := c12.Open(nil, make([]byte, 12), big, nil); err != nil || len(pt) != 65536 {
		t.Fatalf("65536 bytes with a 12-byte nonce: %v", err)
	}
	if pt, err := c13.Open(nil, make([]byte, 13), big, nil); pt != nil || err != ErrOpen {
		t.Fatalf("65536-byte message, 13-byte nonce: %v, %v", pt, err)
	}
	for n, want := range map[int]uint64{13: 1<<16 - 1, 12: 1<<24 - 1, 11: 1<<31 - 1, 7: 1<<31 - 1} {
		if got := ccmMaxPlaintext(n); got != want {
			t.Errorf("ccmMaxPlaintext(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestXChaChaRandomNonce: nonce(24) || XChaCha20-Poly1305(nonce) layout, in place both ways, two
// Seals draw different nonces, tampering fails with zeroed output, short input is ErrOpen.
func TestXChaChaRandomNonce(t *testing.T) {
	r := rand.New(rand.NewSource(71))
	key := randBytes(r, 32)
	g, _ := NewXChaCha20Poly1305WithRandomNonce(key)
	x, _ := NewXChaCha20Poly1305(key)
	for _, size := range []int{0, 1, 23, 24, 25, 100, 4096, 70000} {
		aad, pt := randBytes(r, r.Intn(40)), randBytes(r, size)
		ct := g.Seal(nil, nil, pt, aad)
		if len(ct) != size+40 || !bytes.Equal(ct[24:], x.Seal(nil, ct[:24], pt, aad)) {
			t.Fatalf("size %d: not nonce || XChaCha20-Poly1305(nonce)", size)
		}
		if ct2 := g.Seal(nil, nil, pt, aad); bytes.Equal(ct2[:24], ct[:24]) {
			t.Fatalf("size %d: the same nonce drawn twice", size)
		}
		if got, err := g.Open(nil, nil, append(append([]byte{}, ct[:24]...), x.Seal(nil, ct[:24], pt, aad)...), aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: Open: %v", size, err)
		}
		buf := make([]byte, size, size+40)
		copy(buf, pt)
		in := g.Seal(buf[:0], nil, buf, aad)
		if &in[0] != &buf[:1][0] {
			t.Fatalf("size %d: in-place Seal did not use the buffer", size)
		}
		got, err := g.Open(in[:0], nil, in, aad)
		if err != nil || !bytes.Equal(got, pt) || (size > 0 && &got[0] != &in[0]) {
			t.Fatalf("size %d: in-place Open: %v", size, err)
		}
		bad := flip(ct, len(ct)-1)
		if _, err := g.Open(bad[:0], nil, bad, aad); !errors.Is(err, ErrOpen) {
			t.Fatalf("size %d: tampered Open: %v", size, err)
		}
		if !bytes.Equal(bad[:size], make([]byte, size)) || !bytes.Equal(bad[24:24+size], make([]byte, size)) {
			t.Fatalf("size %d: failed in-place Open left bytes", size)
		}
	}
	for _, n := range []int{0, 1, 39} {
		if got, err := g.Open(nil, nil, make([]byte, n), nil); got != nil || err != ErrOpen {
			t.Fatalf("%d-byte input: %v, %v", n, got, err)
		}
	}
	if u, ok := UsageOf(g); !ok || u.Seals == 0 {
		t.Fatalf("UsageOf(random-nonce XChaCha) = %+v, %v", u, ok)
	}
}

// TestFamiliesUnderFIPSProperties: "fips=yes" refuses the families no FIPS provider has with
// errors.ErrUnsupported (and so does CCM where no FIPS provider is loaded; TestIndicatorUnderFIPS
// covers a FIPS configuration).
func TestFamiliesUnderFIPSProperties(t *testing.T) {
	fips := Options{Properties: "fips=yes"}
	for name, f := range map[string]func() (cipher.AEAD, error){
		"OCB3":        func() (cipher.AEAD, error) { return fips.NewOCB3(make([]byte, 16)) },
		"GCM-SIV":     func() (cipher.AEAD, error) { return fips.NewGCMSIV(make([]byte, 16)) },
		"XChaCha":     func() (cipher.AEAD, error) { return fips.NewXChaCha20Poly1305(make([]byte, 32)) },
		"XChaCha/rnd": func() (cipher.AEAD, error) { return fips.NewXChaCha20Poly1305WithRandomNonce(make([]byte, 32)) },
		"AES-SIV":     func() (cipher.AEAD, error) { return sivAsAEAD(fips.NewAESSIV(make([]byte, 32))) },
	} {
		if a, err := f(); a != nil || !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s with fips=yes: %v, %v", name, a, err)
		}
	}
}

// TestFamiliesUnderFIPS runs only where a FIPS provider serves the default properties (test.py
// with AEAD_TEST_FIPS=1): AES-CCM works there with seals and opens approved (aead.h: the FIPS
// provider's CCM is approved whatever the nonce), and the families no FIPS provider has are
// refused with errors.ErrUnsupported.
func TestFamiliesUnderFIPS(t *testing.T) {
	if !fipsConfigured(t) {
		t.Skip("no FIPS provider serves the default properties (TestFamiliesUnderFIPSProperties covers the refusals)")
	}
	for _, n := range []int{16, 24, 32} {
		c, err := NewCCM(make([]byte, n), 12, 16)
		if err != nil {
			t.Fatalf("CCM-%d under FIPS: %v", n*8, err)
		}
		ind, _ := IndicatorOf(c)
		if want := (Indicator{Provider: ind.Provider, FIPSProvider: true, SealApproved: true, OpenApproved: true}); ind != want {
			t.Errorf("CCM-%d indicator %+v, want %+v", n*8, ind, want)
		}
		ct := c.Seal(nil, make([]byte, 12), []byte("fips"), nil)
		if pt, err := c.Open(nil, make([]byte, 12), ct, nil); err != nil || string(pt) != "fips" {
			t.Fatalf("CCM-%d under FIPS: %v", n*8, err)
		}
	}
	for name, f := range map[string]func() (cipher.AEAD, error){
		"OCB3":    func() (cipher.AEAD, error) { return NewOCB3(make([]byte, 16)) },
		"GCM-SIV": func() (cipher.AEAD, error) { return NewGCMSIV(make([]byte, 16)) },
		"XChaCha": func() (cipher.AEAD, error) { return NewXChaCha20Poly1305(make([]byte, 32)) },
		"AES-SIV": func() (cipher.AEAD, error) { return sivAsAEAD(NewAESSIV(make([]byte, 64))) },
	} {
		if a, err := f(); a != nil || !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s under FIPS: %v, %v", name, a, err)
		}
	}
}

// sivAsAEAD keeps a nil *AESSIV from becoming a non-nil cipher.AEAD.
func sivAsAEAD(s *AESSIV, err error) (cipher.AEAD, error) {
	if s == nil {
		return nil, err
	}
	return s, err
}
