package bench

// Coexistence: golang-fips/openssl drives the SYSTEM libcrypto (dlopened by TestMain)
// while libaead, built with -Dlibcrypto=vendored, runs on its own hidden copy, in one process.

import (
	"bytes"
	"crypto/cipher"
	"crypto/sha256"
	"debug/elf"
	"errors"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"

	openssl "github.com/golang-fips/openssl/v2"
	aead "github.com/libaead/libaead/bindings/go"
)

// mappedLibrary returns the path of the first mapped file of this process whose name contains
// name, from /proc/self/maps.
func mappedLibrary(t *testing.T, name string) string {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(maps), "\n") {
		if f := strings.Fields(l); len(f) == 6 && strings.Contains(f[5], name) {
			return f[5]
		}
	}
	t.Fatalf("no %s mapped in this process", name)
	return ""
}

// TestCoexistence: with a vendored libaead, both libraries are loaded, each reports its own
// OpenSSL, libaead.so needs no libcrypto and exports only aead_*, and both seal the same random
// inputs (plain, TLS 1.2 and TLS 1.3 AES-GCM) to identical bytes and open each other's output,
// from several goroutines at once. It skips, saying why, when libaead runs on the system
// libcrypto; test.py sets AEAD_REQUIRE_COEXISTENCE=1 for a vendored build, which turns that skip
// into a failure.
func TestCoexistence(t *testing.T) {
	if opensslErr != nil {
		t.Fatalf("golang-fips/openssl Init(%q): %v", libcrypto, opensslErr)
	}
	sys, lib := openssl.VersionText(), aead.Version()
	libaeadSO := mappedLibrary(t, "libaead.so")
	f, err := elf.Open(libaeadSO)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	needed, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	linksLibcrypto := strings.Contains(strings.Join(needed, " "), "libcrypto")
	if linksLibcrypto || strings.Contains(lib, sys) {
		msg := "libaead (" + libaeadSO + ", " + lib + ") runs on the system libcrypto (" + sys +
			"): the coexistence test needs a -Dlibcrypto=vendored build"
		if os.Getenv("AEAD_REQUIRE_COEXISTENCE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Logf("golang-fips/openssl: %s (%s); libaead: %s (%s)", sys, mappedLibrary(t, "libcrypto.so"), lib, libaeadSO)
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	exported := 0
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_BIND(s.Info) != elf.STB_LOCAL {
			if !strings.HasPrefix(s.Name, "aead_") && !strings.HasPrefix(s.Name, "LIBAEAD_") {
				t.Errorf("vendored libaead exports %q", s.Name)
			}
			exported++
		}
	}
	if exported == 0 {
		t.Error("libaead exports nothing")
	}
	// The system libcrypto works for its own purposes too (a digest through golang-fips).
	if got, want := openssl.SHA256([]byte("coexist")), sha256.Sum256([]byte("coexist")); got != want {
		t.Fatal("golang-fips SHA-256 differs from crypto/sha256")
	}
	errs := make([]error, 4) // both libraries busy at once
	var wg sync.WaitGroup
	for g := range errs {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			errs[g] = sameOutput(rand.New(rand.NewSource(int64(40 + g))))
		}(g)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// sameOutput seals random messages with both libraries and compares, for the three AES-GCM
// shapes golang-fips offers.
func sameOutput(r *rand.Rand) error {
	for i := 0; i < 60; i++ {
		key := randBytes(r, []int{16, 24, 32}[i%3])
		iv := randBytes(r, 12)
		blk, err := openssl.NewAESCipher(key)
		if err != nil {
			return err
		}
		theirs := map[string]func() (cipher.AEAD, error){
			"GCM":   func() (cipher.AEAD, error) { return cipher.NewGCM(blk) },
			"TLS12": func() (cipher.AEAD, error) { return openssl.NewGCMTLS(blk) },
			"TLS13": func() (cipher.AEAD, error) { return openssl.NewGCMTLS13(blk) },
		}
		ours := map[string]func() (cipher.AEAD, error){
			"GCM":   func() (cipher.AEAD, error) { return aead.NewGCM(key) },
			"TLS12": func() (cipher.AEAD, error) { return aead.NewGCMForTLS12WithIV(key, iv[:4]) },
			"TLS13": func() (cipher.AEAD, error) { return aead.NewGCMForTLS13WithIV(key, iv) },
		}
		for kind, mk := range theirs {
			g, err := mk()
			if err != nil {
				return err
			}
			a, err := ours[kind]()
			if err != nil {
				return err
			}
			for seq := uint64(0); seq < 3; seq++ {
				nonce := randBytes(r, 12)
				aadLen := r.Intn(64)
				switch kind {
				case "TLS12":
					nonce, aadLen = tls12Nonce(iv, seq), 13
				case "TLS13":
					nonce, aadLen = tls13Nonce(iv, seq), 5
				}
				aad, pt := randBytes(r, aadLen), randBytes(r, r.Intn(5000))
				c1, c2 := a.Seal(nil, nonce, pt, aad), g.Seal(nil, nonce, pt, aad)
				if !bytes.Equal(c1, c2) {
					return errors.New(kind + ": libaead and golang-fips/openssl seal differently")
				}
				p1, err1 := a.Open(nil, nonce, c2, aad)
				p2, err2 := g.Open(nil, nonce, c1, aad)
				if err1 != nil || err2 != nil || !bytes.Equal(p1, pt) || !bytes.Equal(p2, pt) {
					return errors.New(kind + ": cannot open each other's output")
				}
			}
		}
	}
	return nil
}
