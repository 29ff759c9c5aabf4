package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

func stdGCM(t testing.TB, key []byte, nonceSize, tagSize int) cipher.AEAD {
	t.Helper()
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	var g cipher.AEAD
	switch {
	case nonceSize == 12 && tagSize == 16:
		g, err = cipher.NewGCM(b)
	case nonceSize == 12:
		g, err = cipher.NewGCMWithTagSize(b, tagSize)
	case tagSize == 16:
		g, err = cipher.NewGCMWithNonceSize(b, nonceSize)
	default:
		t.Fatalf("no stdlib GCM with nonce %d and tag %d", nonceSize, tagSize)
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

type constructor struct {
	name string
	new  func(key []byte) (cipher.AEAD, error)
	key  int
	tls  int // 0, 12 or 13
}

var allConstructors = []constructor{
	{"NewGCM/128", NewGCM, 16, 0},
	{"NewGCM/192", NewGCM, 24, 0},
	{"NewGCM/256", NewGCM, 32, 0},
	{"NewGCMWithTagSize/13", func(k []byte) (cipher.AEAD, error) { return NewGCMWithTagSize(k, 13) }, 16, 0},
	{"NewGCMWithNonceSize/16", func(k []byte) (cipher.AEAD, error) { return NewGCMWithNonceSize(k, 16) }, 16, 0},
	{"NewChaCha20Poly1305", NewChaCha20Poly1305, 32, 0},
	{"NewGCMForTLS12", NewGCMForTLS12, 16, 12},
	{"NewGCMForTLS13", NewGCMForTLS13, 32, 13},
	{"NewChaCha20Poly1305ForTLS12", NewChaCha20Poly1305ForTLS12, 32, 12},
	{"NewChaCha20Poly1305ForTLS13", NewChaCha20Poly1305ForTLS13, 32, 13},
}

func TestConstructorErrors(t *testing.T) {
	for _, n := range []int{0, 15, 17, 31, 33} {
		for _, c := range []func([]byte) (cipher.AEAD, error){NewGCM, NewGCMForTLS12, NewGCMForTLS13} {
			var kse aes.KeySizeError
			if _, err := c(make([]byte, n)); !errors.As(err, &kse) || int(kse) != n {
				t.Errorf("AES key of %d bytes: err = %v, want aes.KeySizeError(%d)", n, err, n)
			}
		}
	}
	for _, n := range []int{0, 16, 31, 33} {
		for _, c := range []func([]byte) (cipher.AEAD, error){NewChaCha20Poly1305, NewChaCha20Poly1305ForTLS12, NewChaCha20Poly1305ForTLS13} {
			if _, err := c(make([]byte, n)); err == nil || err.Error() != "chacha20poly1305: bad key length" {
				t.Errorf("ChaCha key of %d bytes: err = %v", n, err)
			}
		}
	}
	for _, n := range []int{0, -1, 129} {
		if _, err := NewGCMWithNonceSize(make([]byte, 16), n); err == nil {
			t.Errorf("NewGCMWithNonceSize(%d) accepted", n)
		}
	}
	for _, n := range []int{1, 8, 12, 128} {
		a, err := NewGCMWithNonceSize(make([]byte, 16), n)
		if err != nil || a.NonceSize() != n || a.Overhead() != 16 {
			t.Errorf("NewGCMWithNonceSize(%d) = %v, %v", n, a, err)
		}
	}
	for ts := 12; ts <= 16; ts++ {
		a, err := NewGCMWithTagSize(make([]byte, 32), ts)
		if err != nil || a.NonceSize() != 12 || a.Overhead() != ts {
			t.Errorf("NewGCMWithTagSize(%d) = %v, %v", ts, a, err)
		}
	}
	if !strings.HasPrefix(Version(), "libaead ") {
		t.Errorf("Version() = %q", Version())
	}
}

// TestPanicsMatchStdlib triggers each misuse on this binding and on crypto/cipher's GCM and
// compares the panic messages.
// addOpenOverlaps adds to misuses the two Opens of ct (under nonce) that crypto/cipher refuses with a
// panic: output overlapping the input at another offset, and output overlapping the AAD.
func addOpenOverlaps(misuses map[string]func(c cipher.AEAD), nonce, ct []byte) {
	misuses["open inexact overlap"] = func(c cipher.AEAD) {
		b := make([]byte, 200)
		copy(b[5:], ct)
		c.Open(b[:0], nonce, b[5:5+len(ct)], nil)
	}
	misuses["open output overlaps aad"] = func(c cipher.AEAD) {
		b := make([]byte, 200)
		copy(b[100:], ct)
		c.Open(b[:0], nonce, b[100:100+len(ct)], b[10:20])
	}
}

func TestPanicsMatchStdlib(t *testing.T) {
	key := make([]byte, 16)
	a, err := NewGCM(key)
	if err != nil {
		t.Fatal(err)
	}
	g := stdGCM(t, key, 12, 16)
	nonce := make([]byte, 12)
	buf := make([]byte, 200)
	ct := g.Seal(nil, nonce, buf[:64], nil)
	misuses := map[string]func(c cipher.AEAD){
		"seal short nonce":            func(c cipher.AEAD) { c.Seal(nil, nonce[:11], nil, nil) },
		"seal long nonce":             func(c cipher.AEAD) { c.Seal(nil, make([]byte, 13), nil, nil) },
		"open short nonce":            func(c cipher.AEAD) { c.Open(nil, nonce[:11], ct, nil) },
		"seal inexact overlap":        func(c cipher.AEAD) { c.Seal(buf[1:1], nonce, buf[:64], nil) },
		"seal inexact overlap behind": func(c cipher.AEAD) { c.Seal(buf[:0], nonce, buf[10:74], nil) },
		"seal output overlaps aad":    func(c cipher.AEAD) { c.Seal(buf[:0], nonce, nil, buf[5:10]) },
		"seal in place overlaps aad":  func(c cipher.AEAD) { c.Seal(buf[:0], nonce, buf[:64], buf[70:80]) },
	}
	addOpenOverlaps(misuses, nonce, ct)
	expected := map[string]string{
		"seal short nonce":            "crypto/cipher: incorrect nonce length given to GCM",
		"seal long nonce":             "crypto/cipher: incorrect nonce length given to GCM",
		"open short nonce":            "crypto/cipher: incorrect nonce length given to GCM",
		"seal inexact overlap":        "crypto/cipher: invalid buffer overlap of output and input",
		"seal inexact overlap behind": "crypto/cipher: invalid buffer overlap of output and input",
		"seal output overlaps aad":    "crypto/cipher: invalid buffer overlap of output and additional data",
		"seal in place overlaps aad":  "crypto/cipher: invalid buffer overlap of output and additional data",
		"open inexact overlap":        "crypto/cipher: invalid buffer overlap of output and input",
		"open output overlaps aad":    "crypto/cipher: invalid buffer overlap of output and additional data",
	}
	for name, f := range misuses {
		got := catchPanic(func() { f(a) })
		if got != expected[name] {
			t.Errorf("%s: panic %q, want %q", name, got, expected[name])
		}
		// The texts are those of crypto/cipher since Go 1.24 (older releases said "invalid buffer
		// overlap" and did not check the additional data): compare with the running stdlib there.
		if stdlibHasCurrentMessages {
			if want := catchPanic(func() { f(g) }); got != want {
				t.Errorf("%s: panic %q, crypto/cipher panics %q", name, got, want)
			}
		}
	}
	// ChaCha20-Poly1305 panics with golang.org/x/crypto/chacha20poly1305's messages.
	c, _ := NewChaCha20Poly1305(make([]byte, 32))
	for want, f := range map[string]func(){
		"chacha20poly1305: bad nonce length passed to Seal":                      func() { c.Seal(nil, nonce[:8], nil, nil) },
		"chacha20poly1305: bad nonce length passed to Open":                      func() { c.Open(nil, make([]byte, 24), ct, nil) },
		"chacha20poly1305: invalid buffer overlap of output and input":           func() { c.Seal(buf[1:1], nonce, buf[:64], nil) },
		"chacha20poly1305: invalid buffer overlap of output and additional data": func() { c.Seal(buf[:0], nonce, nil, buf[:5]) },
	} {
		if got := catchPanic(f); got != want {
			t.Errorf("panic %q, want %q", got, want)
		}
	}
}

// TestAppendAndInPlace checks dst append semantics, no reallocation when cap suffices, exact
// in-place sealing and opening, and a nonce that overlaps the output (allowed by crypto/cipher).
func TestAppendAndInPlace(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, c := range allConstructors {
		if c.tls != 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(r, c.key)
			a, err := c.new(key)
			if err != nil {
				t.Fatal(err)
			}
			ns, ts := a.NonceSize(), a.Overhead()
			nonce, aad, pt := randBytes(r, ns), randBytes(r, 9), randBytes(r, 100)
			ref := a.Seal(nil, nonce, pt, aad)
			if len(ref) != len(pt)+ts {
				t.Fatalf("sealed length %d", len(ref))
			}
			// Append to a prefix with enough capacity: same backing array, prefix kept.
			dst := make([]byte, 3, 3+len(ref))
			copy(dst, "abc")
			out := a.Seal(dst, nonce, pt, aad)
			if &out[0] != &dst[0] || string(out[:3]) != "abc" || !bytes.Equal(out[3:], ref) {
				t.Fatal("Seal with spare capacity did not append in place")
			}
			// Too little capacity: a new array, prefix copied, dst untouched.
			small := []byte("xyz")
			out = a.Seal(small[:2], nonce, pt, aad)
			if string(out[:2]) != "xy" || !bytes.Equal(out[2:], ref) || string(small) != "xyz" {
				t.Fatal("Seal with reallocation wrong")
			}
			// Exact in-place seal.
			b := make([]byte, len(pt), len(pt)+ts)
			copy(b, pt)
			out = a.Seal(b[:0], nonce, b, aad)
			if &out[0] != &b[0] || !bytes.Equal(out, ref) {
				t.Fatal("in-place Seal wrong")
			}
			// Exact in-place open.
			p, err := a.Open(out[:0], nonce, out, aad)
			if err != nil || &p[0] != &out[0] || !bytes.Equal(p, pt) {
				t.Fatalf("in-place Open wrong: %v", err)
			}
			// Nonce inside the output region (crypto/cipher reads the nonce first).
			nb := make([]byte, len(pt)+ts)
			copy(nb, nonce)
			out = a.Seal(nb[:0], nb[:ns], pt, aad)
			if !bytes.Equal(out, ref) {
				t.Fatal("Seal with the nonce in the output region wrong")
			}
			nb2 := make([]byte, len(ref))
			copy(nb2, nonce)
			p, err = a.Open(nb2[:0], nb2[:ns], ref, aad)
			if err != nil || !bytes.Equal(p, pt) {
				t.Fatalf("Open with the nonce in the output region wrong: %v", err)
			}
			// Inputs may share memory with each other (only the output is restricted): plaintext,
			// AAD and nonce all from one buffer.
			shared := randBytes(r, 200)
			out = a.Seal(nil, shared[:ns], shared, shared[50:60])
			if strings.HasPrefix(c.name, "NewGCM") && !strings.HasPrefix(c.name, "NewGCMSIV") { // AES-GCM only
				g := stdGCM(t, key, ns, ts)
				if !bytes.Equal(out, g.Seal(nil, shared[:ns], shared, shared[50:60])) {
					t.Fatal("Seal with shared inputs differs from crypto/cipher")
				}
			}
			if p, err := a.Open(nil, shared[:ns], out, shared[50:60]); err != nil || !bytes.Equal(p, shared) {
				t.Fatalf("Open with shared inputs: %v", err)
			}
			// Empty plaintext and AAD, nil and non-nil empty slices, and empty slices pointing
			// at the end of an array.
			arr := make([]byte, 8)
			for _, e := range [][]byte{nil, {}, arr[8:]} {
				s := a.Seal(nil, nonce, e, e)
				if len(s) != ts {
					t.Fatalf("empty Seal length %d", len(s))
				}
				p, err := a.Open(e, nonce, s, e)
				if err != nil || len(p) != 0 {
					t.Fatalf("empty Open: %v", err)
				}
			}
		})
	}
}

// TestOpenFailure checks ErrOpen via errors.Is, nil result, zeroed new bytes of dst (the bytes
// after len(dst) up to the output length), untouched prefix, and every kind of tampering.
func TestOpenFailure(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, c := range allConstructors {
		t.Run(c.name, func(t *testing.T) {
			a, err := c.new(randBytes(r, c.key))
			if err != nil {
				t.Fatal(err)
			}
			ns, ts := a.NonceSize(), a.Overhead()
			nonce, pt := randBytes(r, ns), randBytes(r, 300)
			aad := randBytes(r, 13)
			if c.tls == 13 {
				aad = aad[:5]
			}
			ct := a.Seal(nil, nonce, pt, aad)
			tamper := []struct {
				name           string
				nonce, ct, aad []byte
			}{
				{"ciphertext bit", nonce, flip(ct, 0), aad},
				{"tag bit", nonce, flip(ct, len(ct)-1), aad},
				{"aad bit", nonce, ct, flip(aad, 2)},
				{"nonce bit", flip(nonce, ns-1), ct, aad},
				{"truncated", nonce, ct[:len(ct)-1], aad},
				{"extended", nonce, append(append([]byte{}, ct...), 0), aad},
				{"no aad", nonce, ct, nil},
			}
			for _, tc := range tamper {
				dst := bytes.Repeat([]byte{0xAA}, 2+len(ct))
				got, err := a.Open(dst[:2], tc.nonce, tc.ct, tc.aad)
				if got != nil || !errors.Is(err, ErrOpen) || err.Error() != "cipher: message authentication failed" {
					t.Fatalf("%s: Open = %v, %v", tc.name, got, err)
				}
				if dst[0] != 0xAA || dst[1] != 0xAA {
					t.Fatalf("%s: prefix of dst changed", tc.name)
				}
				outLen := len(tc.ct) - ts
				for i, v := range dst[2 : 2+outLen] {
					if v != 0 {
						t.Fatalf("%s: byte %d of the output not zeroed after a failed Open: %#x", tc.name, i, v)
					}
				}
			}
			// Shorter than the tag: ErrOpen, nothing written.
			for _, n := range []int{0, 1, ts - 1} {
				dst := bytes.Repeat([]byte{0xAA}, 32)
				if got, err := a.Open(dst[:0], nonce, ct[:n], aad); got != nil || err != ErrOpen || dst[0] != 0xAA {
					t.Fatalf("%d-byte ciphertext: %v, %v", n, got, err)
				}
			}
			// In-place failure zeroes the buffer that held the ciphertext.
			b := flip(ct, 5)
			if _, err := a.Open(b[:0], nonce, b, aad); !errors.Is(err, ErrOpen) {
				t.Fatal("in-place tampered Open succeeded")
			}
			if !bytes.Equal(b[:len(b)-ts], make([]byte, len(b)-ts)) {
				t.Fatal("in-place failed Open left plaintext or ciphertext bytes")
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte{}, b...)
	c[i] ^= 0x01
	return c
}

func TestErrorType(t *testing.T) {
	e := &Error{Op: "open", Code: -15}
	if !errors.Is(e, ErrOpen) || !strings.Contains(e.Error(), "code -15") {
		t.Fatalf("open Error: %v, Is=%v", e, errors.Is(e, ErrOpen))
	}
	if errors.Is(&Error{Op: "new", Code: -3}, ErrOpen) {
		t.Fatal("a constructor error matches ErrOpen")
	}
}
