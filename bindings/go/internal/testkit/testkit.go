// Package testkit holds the small helpers that the binding's tests and the bench module's
// differential tests share: random inputs, the size schedule of the differential tests, the TLS
// record nonces, constructors that fail the test, panic capture and goroutine fan-out. Test support
// only; nothing of the binding imports it.
package testkit

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// RandBytes returns n bytes drawn from r.
func RandBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// DiffSizes returns every size 0..256, the block and page boundaries up to 70000, and random
// sizes up to 70000.
func DiffSizes(r *rand.Rand, random int) []int {
	var s []int
	for i := 0; i <= 256; i++ {
		s = append(s, i)
	}
	for _, b := range []int{1024, 4096, 16384, 65536} {
		s = append(s, b-1, b, b+1)
	}
	s = append(s, 69999, 70000)
	for i := 0; i < random; i++ {
		s = append(s, 257+r.Intn(70000-257+1))
	}
	return s
}

// TLS12Nonce is crypto/tls's TLS 1.2 AES-GCM nonce: 4-byte implicit IV || BE64(seq).
func TLS12Nonce(iv []byte, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte{}, iv[:4]...), seq)
}

// XorNonce is the TLS 1.3 (and TLS 1.2 ChaCha20-Poly1305) nonce: IV XOR (0^4 || BE64(seq)).
func XorNonce(iv []byte, seq uint64) []byte {
	n := append([]byte{}, iv...)
	for i := 0; i < 8; i++ {
		n[11-i] ^= byte(seq >> (8 * i))
	}
	return n
}

// MustNew returns ctor(arg); an error fails t (Fatal): the one-line form of a constructor call a
// test cannot go on without.
func MustNew[A, T any](t testing.TB, ctor func(A) (T, error), arg A) T {
	t.Helper()
	v, err := ctor(arg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// PanicText runs f and returns its panic value as a string ("" if f returns).
func PanicText(f func()) (s string) {
	defer func() {
		switch v := recover().(type) {
		case nil:
		case string:
			s = v
		case error:
			s = v.Error()
		default:
			s = "non-string panic"
		}
	}()
	f()
	return ""
}

// InGoroutines runs body(0) .. body(n-1) in n goroutines at once, waits for all of them and fails t
// (Fatal) with the errors they return.
func InGoroutines(t testing.TB, n int, body func(g int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			if err := body(g); err != nil {
				errc <- err
			}
		}(g)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

// FindVectors returns the directory of the conformance vectors: $AEAD_VECTORS_DIR (tests/run-all.sh and
// test.py set it), or else what the repository's tests/vectors.py prints (it fetches them, pinned and
// checksummed, from crates.io and PyPI into a cache), the repository being the first directory above
// the working directory that has include/aead.h.
func FindVectors() (string, error) {
	if d := os.Getenv("AEAD_VECTORS_DIR"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		script := filepath.Join(dir, "tests", "vectors.py")
		if _, err := os.Stat(filepath.Join(dir, "include", "aead.h")); err == nil {
			out, err := exec.Command("python3", script).Output()
			if err != nil {
				return "", fmt.Errorf("%s: %w", script, err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			return lines[len(lines)-1], nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("AEAD_VECTORS_DIR is not set and no repository (with tests/vectors.py) is above %s", wd)
		}
	}
}

// OpenSSLAtLeast reports whether the loaded libcrypto, as the binding's Version() names it
// ("libaead 1.6.0 (OpenSSL 3.5.5 27 Jan 2026)"), is OpenSSL major.minor or newer; with the
// environment variable require set to 1 an older one fails the test.
func OpenSSLAtLeast(t testing.TB, version string, major, minor int, require string) bool {
	t.Helper()
	m := regexp.MustCompile(`OpenSSL (\d+)\.(\d+)\.`).FindStringSubmatch(version)
	if m == nil {
		t.Fatalf("no OpenSSL version in %q", version)
	}
	got, _ := strconv.Atoi(m[1])
	gotMinor, _ := strconv.Atoi(m[2])
	want := got > major || (got == major && gotMinor >= minor)
	if os.Getenv(require) == "1" && !want {
		t.Fatalf("%s=1 but the loaded libcrypto is %q", require, version)
	}
	return want
}
