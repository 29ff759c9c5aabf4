package aead

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"strings"
	"testing"
)

// TestProperties: a property query naming the default provider gives the same AEADs (same output,
// indicator naming "default"); queries no provider satisfies fail with errors.ErrUnsupported;
// malformed ones are refused before any fetch.
func TestProperties(t *testing.T) {
	if fipsConfigured(t) {
		t.Skip("a FIPS provider serves the default properties here; TestIndicatorUnderFIPS covers it")
	}
	def := Options{Properties: "provider=default"}
	key, nonce, aad, pt := make([]byte, 32), make([]byte, 12), []byte("aad"), []byte("same bytes from any provider")
	for _, c := range []struct {
		name    string
		withOpt func([]byte) (cipher.AEAD, error)
		plain   func([]byte) (cipher.AEAD, error)
	}{
		{"NewGCM", def.NewGCM, NewGCM},
		{"NewChaCha20Poly1305", def.NewChaCha20Poly1305, NewChaCha20Poly1305},
	} {
		a, err := c.withOpt(key)
		if err != nil {
			t.Fatalf("%s with provider=default: %v", c.name, err)
		}
		p, _ := c.plain(key)
		if !bytes.Equal(a.Seal(nil, nonce, pt, aad), p.Seal(nil, nonce, pt, aad)) {
			t.Fatalf("%s: provider=default output differs", c.name)
		}
		if ind, ok := IndicatorOf(a); !ok || ind != (Indicator{Provider: "default"}) {
			t.Fatalf("%s: indicator %+v, %v", c.name, ind, ok)
		}
	}
	fips := Options{Properties: "fips=yes"}
	none := Options{Properties: "provider=no-such-provider"}
	for name, f := range map[string]func() (cipher.AEAD, error){
		"fips=yes NewGCM":                    func() (cipher.AEAD, error) { return fips.NewGCM(key) },
		"fips=yes NewGCMWithRandomNonce":     func() (cipher.AEAD, error) { return fips.NewGCMWithRandomNonce(key) },
		"fips=yes NewGCMForTLS13WithIV":      func() (cipher.AEAD, error) { return fips.NewGCMForTLS13WithIV(key, nonce) },
		"fips=yes NewChaCha20Poly1305":       func() (cipher.AEAD, error) { return fips.NewChaCha20Poly1305(key) },
		"unknown provider NewGCMForTLS12":    func() (cipher.AEAD, error) { return none.NewGCMForTLS12(key) },
		"unknown provider NewGCMWithTagSize": func() (cipher.AEAD, error) { return none.NewGCMWithTagSize(key, 12) },
	} {
		a, err := f()
		var e *Error
		if a != nil || !errors.Is(err, errors.ErrUnsupported) || !errors.As(err, &e) || e.Code != codeUnsupported {
			t.Errorf("%s without a FIPS provider: %v, %v", name, a, err)
		}
	}
	long := Options{Properties: "provider=default" + strings.Repeat(" ", 240)} // 256 bytes
	if _, err := long.NewGCM(key); !isCode(err, -2) {
		t.Errorf("256-byte query: %v", err)
	}
	if _, err := (Options{Properties: "fips=yes\x00"}).NewGCM(key); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("query with a NUL byte: %v", err)
	}
}

func isCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// fipsConfigured reports whether OpenSSL's configuration makes a FIPS provider serve the default
// properties (the project's FIPS stage runs the tests that way).
func fipsConfigured(t *testing.T) bool {
	a, err := NewGCM(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	ind, _ := IndicatorOf(a)
	return ind.FIPSProvider
}

// TestIndicatorDefault: on a non-FIPS provider no use is approved, whatever the policy; AEADs from
// elsewhere have no indicator.
func TestIndicatorDefault(t *testing.T) {
	if fipsConfigured(t) {
		t.Skip("a FIPS provider serves the default properties here")
	}
	for _, a := range indicatorAEADs(t) {
		ind, ok := IndicatorOf(a.aead)
		if !ok || ind.Provider == "" || ind.FIPSProvider || ind.SealApproved || ind.OpenApproved {
			t.Errorf("%s: indicator %+v, %v", a.name, ind, ok)
		}
	}
	if _, ok := IndicatorOf(stdGCM(t, make([]byte, 16), 12, 16)); ok {
		t.Error("IndicatorOf(crypto/cipher's GCM) reported ok")
	}
}

// TestIndicatorUnderFIPS runs only where a FIPS provider serves the default properties (e.g.
// OPENSSL_CONF naming the project's test FIPS provider): seals approved for the TLS and
// random-nonce AEADs only, opens for every AES-GCM, ChaCha20-Poly1305 unavailable.
func TestIndicatorUnderFIPS(t *testing.T) {
	if !fipsConfigured(t) {
		t.Skip("no FIPS provider serves the default properties (TestIndicatorDefault covers this case)")
	}
	for _, a := range indicatorAEADs(t) {
		ind, _ := IndicatorOf(a.aead)
		want := Indicator{Provider: ind.Provider, FIPSProvider: true, SealApproved: a.approvedSeal, OpenApproved: true}
		if ind != want {
			t.Errorf("%s: indicator %+v, want %+v", a.name, ind, want)
		}
	}
	if _, err := NewChaCha20Poly1305(make([]byte, 32)); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("ChaCha20-Poly1305 under FIPS: %v", err)
	}
}

type namedAEAD struct {
	name         string
	aead         cipher.AEAD
	approvedSeal bool // under a FIPS provider
}

func indicatorAEADs(t *testing.T) []namedAEAD {
	key, iv := make([]byte, 16), make([]byte, 12)
	var out []namedAEAD
	add := func(name string, approved bool, a cipher.AEAD, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, namedAEAD{name, a, approved})
	}
	a, err := NewGCM(key)
	add("NewGCM", false, a, err)
	a, err = NewGCMWithNonceSize(key, 16)
	add("NewGCMWithNonceSize", false, a, err)
	a, err = NewGCMWithRandomNonce(key)
	add("NewGCMWithRandomNonce", true, a, err)
	a, err = NewGCMForTLS12(key)
	add("NewGCMForTLS12", true, a, err)
	a, err = NewGCMForTLS13WithIV(key, iv)
	add("NewGCMForTLS13WithIV", true, a, err)
	a, err = NewGCMForTLS12WithIV(key, iv[:4])
	add("NewGCMForTLS12WithIV", true, a, err)
	for _, c := range counterCases() {
		a, err = c.make(key, iv)
		add(c.name, true, a, err)
	}
	return out
}
