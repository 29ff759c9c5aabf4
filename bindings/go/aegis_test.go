package aead

import (
	"bytes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// aegisVector is one of RFC 10032's test vectors, as the pinned aegis crate ships them, with its
// variant. Ct nil: an intermediate-state entry; Msg nil: the vector must fail verification.
type aegisVector struct {
	variant              *aegisCtors
	Name, Key, Nonce, Ad string
	Tag128, Tag256       string
	Msg, Ct, Error       *string
}

// aegisVectors reads every variant's vectors from the conformance vectors (tests/vectors.py:
// aegis/aegis-<variant>-test-vectors.json), skipping the intermediate-state entries. A missing or
// unreadable file fails the test.
func aegisVectors(t *testing.T) []aegisVector {
	t.Helper()
	var all []aegisVector
	for i := range aegisAll {
		c := &aegisAll[i]
		file := "aegis-" + strings.ToLower(strings.TrimPrefix(c.name, "AEGIS-")) + "-test-vectors.json"
		data, err := os.ReadFile(filepath.Join(vectorsDir(t), "aegis", file))
		if err != nil {
			t.Fatal(err)
		}
		var entries []aegisVector
		if err := json.Unmarshal(data, &entries); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, v := range entries {
			if v.Ct == nil {
				continue
			}
			v.variant, v.Name = c, c.name+" "+v.Name
			if (v.Msg == nil) == (v.Error == nil) {
				t.Fatalf("%s: %s has neither or both of msg and error", file, v.Name)
			}
			all = append(all, v)
		}
	}
	return all
}

// TestAEGISVectors: every RFC 10032 vector of every variant with both tag sizes: sealed (also in
// place) to ct || tag and opened; a flipped bit in the first ciphertext byte and in the first and last
// tag bytes, and another AD, fail with ErrOpen and leave no plaintext; the must-fail vectors fail.
func TestAEGISVectors(t *testing.T) {
	vectors := aegisVectors(t)
	sealed, refused := 0, 0
	for _, v := range vectors {
		for _, tagSize := range []int{16, 32} {
			name := v.Name + " tag " + strconv.Itoa(tagSize)
			a, err := v.variant.tagged(mustHex(v.Key), tagSize)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tag := mustHex(v.Tag128)
			if tagSize == 32 {
				tag = mustHex(v.Tag256)
			}
			nonce, ad, ct := mustHex(v.Nonce), mustHex(v.Ad), mustHex(*v.Ct)
			want := append(append([]byte{}, ct...), tag...)
			if a.NonceSize() != len(nonce) || a.Overhead() != tagSize || len(tag) != tagSize {
				t.Fatalf("%s: sizes %d/%d", name, a.NonceSize(), a.Overhead())
			}
			if v.Msg == nil {
				if pt, err := a.Open(nil, nonce, want, ad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Errorf("%s: must fail, got %x, %v", name, pt, err)
				}
				refused++
				continue
			}
			msg := mustHex(*v.Msg)
			if got := a.Seal(nil, nonce, msg, ad); !bytes.Equal(got, want) {
				t.Errorf("%s: Seal = %x, want %x", name, got, want)
			}
			if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, msg) {
				t.Errorf("%s: Open = %x, %v", name, got, err)
			}
			buf := make([]byte, len(msg), len(msg)+tagSize)
			copy(buf, msg)
			if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, want) {
				t.Errorf("%s: in-place Seal = %x", name, got)
			}
			flips := []int{len(want) - 1, len(ct)}
			if len(ct) > 0 {
				flips = append(flips, 0)
			}
			for _, at := range flips {
				bad := flip(want, at)
				if pt, err := a.Open(bad[:0], nonce, bad, ad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Errorf("%s: byte %d flipped: %x, %v", name, at, pt, err)
				}
				if !bytes.Equal(bad[:len(ct)], make([]byte, len(ct))) {
					t.Errorf("%s: a failed in-place Open left bytes", name)
				}
			}
			if _, err := a.Open(nil, nonce, want, append(ad, 0)); !errors.Is(err, ErrOpen) {
				t.Errorf("%s: another AD: %v", name, err)
			}
			sealed++
		}
	}
	t.Logf("RFC 10032 AEGIS vectors: %d cases sealed and opened, %d refused (%d vectors, 6 variants, tags 16 and 32)",
		sealed, refused, len(vectors))
	if len(vectors) != 26 || sealed != 2*18 || refused != 2*8 {
		t.Fatalf("read %d vectors, ran %d valid and %d invalid cases, want 26, 36 and 16", len(vectors), sealed, refused)
	}
}

// aegisCtors is every AEGIS constructor, package-level and Options', by variant: the plain form
// (tag 16), WithTagSize and WithRandomNonce, and the key length.
type aegisCtors struct {
	name    string
	key     int
	plain   func([]byte) (cipher.AEAD, error)
	tagged  func([]byte, int) (cipher.AEAD, error)
	random  func([]byte, int) (cipher.AEAD, error)
	oPlain  func(Options, []byte) (cipher.AEAD, error)
	oTagged func(Options, []byte, int) (cipher.AEAD, error)
	oRandom func(Options, []byte, int) (cipher.AEAD, error)
}

var aegisAll = []aegisCtors{
	{"AEGIS-128L", 16, NewAEGIS128L, NewAEGIS128LWithTagSize, NewAEGIS128LWithRandomNonce,
		Options.NewAEGIS128L, Options.NewAEGIS128LWithTagSize, Options.NewAEGIS128LWithRandomNonce},
	{"AEGIS-128X2", 16, NewAEGIS128X2, NewAEGIS128X2WithTagSize, NewAEGIS128X2WithRandomNonce,
		Options.NewAEGIS128X2, Options.NewAEGIS128X2WithTagSize, Options.NewAEGIS128X2WithRandomNonce},
	{"AEGIS-128X4", 16, NewAEGIS128X4, NewAEGIS128X4WithTagSize, NewAEGIS128X4WithRandomNonce,
		Options.NewAEGIS128X4, Options.NewAEGIS128X4WithTagSize, Options.NewAEGIS128X4WithRandomNonce},
	{"AEGIS-256", 32, NewAEGIS256, NewAEGIS256WithTagSize, NewAEGIS256WithRandomNonce,
		Options.NewAEGIS256, Options.NewAEGIS256WithTagSize, Options.NewAEGIS256WithRandomNonce},
	{"AEGIS-256X2", 32, NewAEGIS256X2, NewAEGIS256X2WithTagSize, NewAEGIS256X2WithRandomNonce,
		Options.NewAEGIS256X2, Options.NewAEGIS256X2WithTagSize, Options.NewAEGIS256X2WithRandomNonce},
	{"AEGIS-256X4", 32, NewAEGIS256X4, NewAEGIS256X4WithTagSize, NewAEGIS256X4WithRandomNonce,
		Options.NewAEGIS256X4, Options.NewAEGIS256X4WithTagSize, Options.NewAEGIS256X4WithRandomNonce},
}

// TestAEGISConstructors: each constructor is its variant (the plain and Options forms seal the
// variant's RFC 10032 vector), has its sizes, and refuses other key and tag sizes with an error
// naming the rule; "fips=yes" is errors.ErrUnsupported; the provider is libaegis, never approved.
func TestAEGISConstructors(t *testing.T) {
	def := Options{Properties: "provider=default"}
	vector := map[*aegisCtors]aegisVector{} // each variant's last valid vector with a message
	for _, v := range aegisVectors(t) {
		if v.Msg != nil && *v.Msg != "" {
			vector[v.variant] = v
		}
	}
	for i, c := range aegisAll {
		v, ok := vector[&aegisAll[i]]
		if !ok {
			t.Fatalf("%s: no valid vector with a message", c.name)
		}
		key, nonce, ad, msg := mustHex(v.Key), mustHex(v.Nonce), mustHex(v.Ad), mustHex(*v.Msg)
		for tagSize, tag := range map[int]string{16: v.Tag128, 32: v.Tag256} {
			want := append(mustHex(*v.Ct), mustHex(tag)...)
			forms := map[string]func() (cipher.AEAD, error){
				"WithTagSize":         func() (cipher.AEAD, error) { return c.tagged(key, tagSize) },
				"Options.WithTagSize": func() (cipher.AEAD, error) { return c.oTagged(def, key, tagSize) },
			}
			if tagSize == 16 {
				forms["plain"] = func() (cipher.AEAD, error) { return c.plain(key) }
				forms["Options"] = func() (cipher.AEAD, error) { return c.oPlain(def, key) }
			}
			for form, f := range forms {
				a, err := f()
				if err != nil || a.NonceSize() != c.key || a.Overhead() != tagSize {
					t.Fatalf("%s %s tag %d: %v", c.name, form, tagSize, err)
				}
				if got := a.Seal(nil, nonce, msg, ad); !bytes.Equal(got, want) {
					t.Errorf("%s %s tag %d: not the variant's vector", c.name, form, tagSize)
				}
				ind, ok := IndicatorOf(a)
				if !ok || ind.Provider != "libaegis" || ind.FIPSProvider || ind.SealApproved || ind.OpenApproved {
					t.Errorf("%s %s: indicator %+v", c.name, form, ind)
				}
			}
			for _, f := range []func(Options) (cipher.AEAD, error){
				func(o Options) (cipher.AEAD, error) { return c.oTagged(o, key, tagSize) },
				func(o Options) (cipher.AEAD, error) { return c.oRandom(o, key, tagSize) },
			} {
				if a, err := f(Options{Properties: "fips=yes"}); a != nil || !errors.Is(err, errors.ErrUnsupported) {
					t.Errorf("%s tag %d under fips=yes: %v", c.name, tagSize, err)
				}
				r, err := f(def)
				if err != nil {
					t.Fatalf("%s tag %d: %v", c.name, tagSize, err)
				}
				n := make([]byte, r.NonceSize())
				if got, err := r.Open(nil, n, r.Seal(nil, n, msg, ad), ad); err != nil || !bytes.Equal(got, msg) {
					t.Errorf("%s tag %d: round trip: %v", c.name, tagSize, err)
				}
			}
		}
		keyMsg := "aead: " + c.name + " key must be " + strconv.Itoa(c.key) + " bytes, got "
		for _, n := range []int{0, 15, 16, 17, 24, 31, 32, 33, 64} {
			if n == c.key {
				continue
			}
			for _, f := range []func() (cipher.AEAD, error){
				func() (cipher.AEAD, error) { return c.plain(make([]byte, n)) },
				func() (cipher.AEAD, error) { return c.tagged(make([]byte, n), 32) },
				func() (cipher.AEAD, error) { return c.random(make([]byte, n), 16) },
			} {
				if a, err := f(); a != nil || err == nil || err.Error() != keyMsg+strconv.Itoa(n) {
					t.Errorf("%s key of %d bytes: %v", c.name, n, err)
				}
			}
		}
		for tagSize := -1; tagSize <= 40; tagSize++ {
			if tagSize == 16 || tagSize == 32 {
				continue
			}
			want := "aead: AEGIS tag size must be 16 or 32 bytes, got " + strconv.Itoa(tagSize)
			for _, f := range []func([]byte, int) (cipher.AEAD, error){c.tagged, c.random} {
				if a, err := f(make([]byte, c.key), tagSize); a != nil || err == nil || err.Error() != want {
					t.Errorf("%s tag %d: %v", c.name, tagSize, err)
				}
			}
		}
	}
}

// aegisConstructors are one AEAD of each variant, tags of 16 and 32 bytes in turn, in the shape of
// allConstructors; init adds them there, so that the crypto/cipher semantics, zero-allocation,
// batch and concurrency tests run on them too.
var aegisConstructors = []constructor{
	{"NewAEGIS128L", NewAEGIS128L, 16, 0},
	{"NewAEGIS128X2WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS128X2WithTagSize(k, 32) }, 16, 0},
	{"NewAEGIS128X4", NewAEGIS128X4, 16, 0},
	{"NewAEGIS256WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256WithTagSize(k, 32) }, 32, 0},
	{"NewAEGIS256X2", NewAEGIS256X2, 32, 0},
	{"NewAEGIS256X4WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256X4WithTagSize(k, 32) }, 32, 0},
}

// aegisRandomConstructors are the random-nonce AEADs of two variants, one with 32-byte tags.
var aegisRandomConstructors = []constructor{
	{"NewAEGIS128LWithRandomNonce/16", func(k []byte) (cipher.AEAD, error) { return NewAEGIS128LWithRandomNonce(k, 16) }, 16, 0},
	{"NewAEGIS256X2WithRandomNonce/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256X2WithRandomNonce(k, 32) }, 32, 0},
}

func init() { allConstructors = append(allConstructors, aegisConstructors...) }

// TestAEGISRandomNonce: every variant and tag size with library-drawn nonces: nonce || ct || tag,
// the body what the nonce-taking AEAD seals under that nonce, fresh nonces, exact in place both
// ways, a flipped bit ErrOpen with no plaintext left, inputs shorter than Overhead() ErrOpen.
func TestAEGISRandomNonce(t *testing.T) {
	r := rand.New(rand.NewSource(10032))
	for _, c := range aegisAll {
		for _, tagSize := range []int{16, 32} {
			name := c.name + " tag " + strconv.Itoa(tagSize)
			key := randBytes(r, c.key)
			g, err := c.random(key, tagSize)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			plain, _ := c.tagged(key, tagSize)
			if g.NonceSize() != 0 || g.Overhead() != c.key+tagSize {
				t.Fatalf("%s: sizes %d/%d", name, g.NonceSize(), g.Overhead())
			}
			seen := map[string]bool{}
			for _, size := range []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 600, 4096, 70000} {
				aad, pt := randBytes(r, r.Intn(40)), randBytes(r, size)
				ct := g.Seal(nil, nil, pt, aad)
				nonce := ct[:c.key]
				if len(ct) != size+g.Overhead() || !bytes.Equal(ct[c.key:], plain.Seal(nil, nonce, pt, aad)) {
					t.Fatalf("%s size %d: not nonce || AEGIS(nonce)", name, size)
				}
				if seen[string(nonce)] {
					t.Fatalf("%s size %d: a nonce drawn twice", name, size)
				}
				seen[string(nonce)] = true
				buf := make([]byte, size, size+g.Overhead())
				copy(buf, pt)
				in := g.Seal(buf[:0], nil, buf, aad)
				got, err := g.Open(in[:0], nil, in, aad)
				if err != nil || !bytes.Equal(got, pt) || (size > 0 && &got[0] != &in[0]) {
					t.Fatalf("%s size %d: in-place round trip: %v", name, size, err)
				}
				bad := flip(ct, r.Intn(len(ct)))
				if pt, err := g.Open(bad[:0], nil, bad, aad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Fatalf("%s size %d: tampered Open: %v", name, size, err)
				}
				if !bytes.Equal(bad[c.key:c.key+size], make([]byte, size)) {
					t.Fatalf("%s size %d: a failed in-place Open left bytes", name, size)
				}
			}
			for _, n := range []int{0, 1, g.Overhead() - 1} {
				if got, err := g.Open(nil, nil, make([]byte, n), nil); got != nil || err != ErrOpen {
					t.Fatalf("%s: %d-byte input: %v, %v", name, n, got, err)
				}
			}
			if u, ok := UsageOf(g); !ok || u.Seals == 0 {
				t.Fatalf("%s: UsageOf = %+v, %v", name, u, ok)
			}
		}
	}
}

// TestAEGISPanicsAndErrors: a nonce of another length panics with the family's text on Seal and
// Open, a nonce given to a random-nonce AEAD panics, overlaps panic as crypto/cipher's; Open of
// less than a tag, or with the wrong key, is ErrOpen.
func TestAEGISPanicsAndErrors(t *testing.T) {
	for _, c := range aegisAll {
		a, _ := c.plain(make([]byte, c.key))
		g, _ := c.random(make([]byte, c.key), 32)
		buf := make([]byte, 200)
		for _, n := range []int{0, 12, c.key - 1, c.key + 1, 64} {
			for what, f := range map[string]func(){
				"Seal": func() { a.Seal(nil, make([]byte, n), nil, nil) },
				"Open": func() { a.Open(nil, make([]byte, n), make([]byte, 16), nil) },
			} {
				if got := catchPanic(f); got != "aead: incorrect nonce length given to AEGIS" {
					t.Errorf("%s %s with a %d-byte nonce: panic %q", c.name, what, n, got)
				}
			}
		}
		for want, f := range map[string]func(){
			"aead: non-empty nonce passed to AEGIS with random nonces":   func() { g.Seal(nil, make([]byte, c.key), nil, nil) },
			"aead: invalid buffer overlap of output and input":           func() { a.Seal(buf[1:1], make([]byte, c.key), buf[:64], nil) },
			"aead: invalid buffer overlap of output and additional data": func() { a.Seal(buf[:0], make([]byte, c.key), nil, buf[5:10]) },
		} {
			if got := catchPanic(f); got != want {
				t.Errorf("%s: panic %q, want %q", c.name, got, want)
			}
		}
		nonce := make([]byte, c.key)
		for _, n := range []int{0, 1, 15} {
			if pt, err := a.Open(nil, nonce, make([]byte, n), nil); pt != nil || err != ErrOpen {
				t.Errorf("%s: Open of %d bytes: %v, %v", c.name, n, pt, err)
			}
		}
		other, _ := c.plain(bytes.Repeat([]byte{1}, c.key))
		if _, err := other.Open(nil, nonce, a.Seal(nil, nonce, []byte("m"), nil), nil); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: another key opened: %v", c.name, err)
		}
	}
}
