package bench

import (
	"crypto/aes"
	"crypto/cipher"
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"

	openssl "github.com/golang-fips/openssl/v2"
	aead "github.com/libaead/libaead/bindings/go"
	"golang.org/x/crypto/chacha20poly1305"
)

// libcrypto is the library golang-fips/openssl dlopens; the same libcrypto libaead links to.
var libcrypto = envOr("AEAD_BENCH_LIBCRYPTO", "libcrypto.so.3")

var opensslErr error

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func TestMain(m *testing.M) {
	opensslErr = openssl.Init(libcrypto)
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		// Configuration lines ("key: value", as benchstat reads them): which libcrypto each side runs on.
		fmt.Printf("libaead: %s\n", aead.Version())
		if opensslErr == nil {
			fmt.Printf("golangfips-libcrypto: %s\n", openssl.VersionText())
		}
	}
	os.Exit(m.Run())
}

// sizes: 64 B is golang-fips/openssl's BenchmarkAESGCM_* shape (AES-128, all-zero key, 12-byte
// zero nonce reused, 13-byte AAD, output reused); 1350 B is a typical QUIC/TLS record; 16 KiB
// is the largest TLS record.
var sizes = []int{64, 1350, 16384}

type impl struct {
	name string
	new  func(key []byte) (cipher.AEAD, error)
}

func impls(b *testing.B) []impl {
	return []impl{
		{"libaead", aead.NewGCM},
		{"stdlib", func(key []byte) (cipher.AEAD, error) {
			blk, err := aes.NewCipher(key)
			if err != nil {
				return nil, err
			}
			return cipher.NewGCM(blk)
		}},
		{"golangfips", func(key []byte) (cipher.AEAD, error) {
			if opensslErr != nil {
				return nil, fmt.Errorf("golang-fips/openssl Init(%q): %w", libcrypto, opensslErr)
			}
			blk, err := openssl.NewAESCipher(key)
			if err != nil {
				return nil, err
			}
			// golang-fips's block implements NewGCM(nonceSize, tagSize); crypto/cipher.NewGCM
			// would pick it up too, but call it directly so the peer is never silently stdlib.
			return blk.(interface {
				NewGCM(nonceSize, tagSize int) (cipher.AEAD, error)
			}).NewGCM(12, 16)
		}},
	}
}

// BenchmarkAESGCM: Seal and Open of AES-128-GCM, serial and RunParallel, for each implementation.
// Names are op/mode/size/impl so that `benchstat -col /impl` puts the three side by side.
func BenchmarkAESGCM(b *testing.B) {
	for _, op := range []string{"Seal", "Open"} {
		for _, mode := range []string{"serial", "parallel"} {
			for _, size := range sizes {
				for _, im := range impls(b) {
					name := fmt.Sprintf("op=%s/mode=%s/size=%d/impl=%s", op, mode, size, im.name)
					b.Run(name, func(b *testing.B) {
						a, err := im.new(make([]byte, 16))
						if err != nil {
							b.Fatal(err)
						}
						runAEAD(b, a, op, mode, size)
					})
				}
			}
		}
	}
}

// BenchmarkChaCha20Poly1305: libaead against golang.org/x/crypto (assembly) for reference.
func BenchmarkChaCha20Poly1305(b *testing.B) {
	for _, op := range []string{"Seal", "Open"} {
		for _, size := range []int{64, 16384} {
			for _, im := range []impl{{"libaead", aead.NewChaCha20Poly1305}, {"xcrypto", chacha20poly1305.New}} {
				b.Run(fmt.Sprintf("op=%s/mode=serial/size=%d/impl=%s", op, size, im.name), func(b *testing.B) {
					a, err := im.new(make([]byte, 32))
					if err != nil {
						b.Fatal(err)
					}
					runAEAD(b, a, op, "serial", size)
				})
			}
		}
	}
}

// BenchmarkGCMRandomNonce: NewGCMWithRandomNonce, libaead against crypto/cipher (Go 1.24+).
func BenchmarkGCMRandomNonce(b *testing.B) {
	for _, op := range []string{"Seal", "Open"} {
		for _, size := range []int{64, 16384} {
			for _, im := range []impl{{"libaead", aead.NewGCMWithRandomNonce}, {"stdlib", func(key []byte) (cipher.AEAD, error) {
				blk, err := aes.NewCipher(key)
				if err != nil {
					return nil, err
				}
				return cipher.NewGCMWithRandomNonce(blk)
			}}} {
				b.Run(fmt.Sprintf("op=%s/mode=serial/size=%d/impl=%s", op, size, im.name), func(b *testing.B) {
					a, err := im.new(make([]byte, 16))
					if err != nil {
						b.Fatal(err)
					}
					runAEAD(b, a, op, "serial", size)
				})
			}
		}
	}
}

func runAEAD(b *testing.B, a cipher.AEAD, op, mode string, size int) {
	var ad [13]byte
	nonce := make([]byte, a.NonceSize())
	pt := make([]byte, size)
	ct := a.Seal(nil, nonce, pt, ad[:])
	// Output buffers are allocated before the timer starts: one for the serial loop, one per
	// RunParallel goroutine (taken from a channel, which does not allocate).
	out := make([]byte, 0, size+a.Overhead())
	procs := runtime.GOMAXPROCS(0)
	bufs := make(chan []byte, procs)
	for i := 0; i < procs; i++ {
		bufs <- make([]byte, 0, size+a.Overhead())
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	b.ResetTimer()
	if mode == "serial" {
		if op == "Seal" {
			for i := 0; i < b.N; i++ {
				out = a.Seal(out[:0], nonce, pt, ad[:])
			}
		} else {
			for i := 0; i < b.N; i++ {
				var err error
				if out, err = a.Open(out[:0], nonce, ct, ad[:]); err != nil {
					b.Fatal(err)
				}
			}
		}
		return
	}
	b.RunParallel(func(p *testing.PB) {
		out := <-bufs
		defer func() { bufs <- out }()
		if op == "Seal" {
			for p.Next() {
				out = a.Seal(out[:0], nonce, pt, ad[:])
			}
			return
		}
		for p.Next() {
			var err error
			if out, err = a.Open(out[:0], nonce, ct, ad[:]); err != nil {
				panic(err)
			}
		}
	})
}

// BenchmarkFloor: the C library's own cost per operation, measured in a C loop (one cgo call per
// b.N operations), and the cost of one empty cgo call. The targets compare the binding's Seal to
// floor(what=cseal) + floor(what=emptycgo).
func BenchmarkFloor(b *testing.B) {
	for _, op := range []string{"Seal", "Open"} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("what=c%s/size=%d", op, size), func(b *testing.B) { runFloor(b, op == "Open", size) })
		}
	}
	b.Run("what=emptycgo", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			EmptyCall()
		}
	})
	b.Run("what=args10cgo", func(b *testing.B) {
		nonce, aad, in, out := make([]byte, 12), make([]byte, 13), make([]byte, 64), make([]byte, 80)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Args10Call(nonce, aad, in, out)
		}
	})
}

// newFloor is NewFloor for AES-128-GCM (size bytes, open or seal); an error fails tb.
func newFloor(tb testing.TB, size int, open bool) *Floor {
	tb.Helper()
	f, err := NewFloor(1, size, open)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// runFloor runs b.N seals (or opens) of size bytes in one C loop (aead_seal_open from C).
func runFloor(b *testing.B, open bool, size int) {
	f := newFloor(b, size, open)
	defer f.Free()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	if r := f.Loop(b.N); r < 0 {
		b.Fatalf("C loop failed: %d", r)
	}
}
