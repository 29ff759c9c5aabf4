package bench

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"sort"
	"testing"
	"time"

	aead "github.com/libaead/libaead/bindings/go"
)

// BenchmarkPaired measures each target ratio inside one benchmark: the two sides run in
// alternating chunks of `chunk` operations a few milliseconds long, and the metric is the median
// of the per-chunk ratios. On a machine shared with other work this is far less sensitive to load
// changes than comparing two benchmarks run a minute apart. ns/op covers all sides together.
func BenchmarkPaired(b *testing.B) {
	var nonce [12]byte
	var ad [13]byte
	newLib := func(b *testing.B) cipher.AEAD {
		a, err := aead.NewGCM(make([]byte, 16))
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	newFips := func(b *testing.B) cipher.AEAD {
		for _, im := range impls(b) {
			if im.name == "golangfips" {
				a, err := im.new(make([]byte, 16))
				if err != nil {
					b.Fatal(err)
				}
				return a
			}
		}
		b.Fatal("no golangfips impl")
		return nil
	}
	newStd := func(b *testing.B, random bool) cipher.AEAD {
		blk, err := aes.NewCipher(make([]byte, 16))
		if err != nil {
			b.Fatal(err)
		}
		a, err := cipher.NewGCM(blk)
		if random {
			a, err = cipher.NewGCMWithRandomNonce(blk)
		}
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	// goSide returns a function running n Seals or Opens of size bytes on a.
	goSide := func(b *testing.B, a cipher.AEAD, op string, size int) func(n int) {
		pt, nonce := make([]byte, size), nonce[:a.NonceSize()]
		ct := a.Seal(nil, nonce, pt, ad[:])
		out := make([]byte, 0, size+a.Overhead())
		if op == "Seal" {
			return func(n int) {
				for i := 0; i < n; i++ {
					out = a.Seal(out[:0], nonce, pt, ad[:])
				}
			}
		}
		return func(n int) {
			for i := 0; i < n; i++ {
				var err error
				if out, err = a.Open(out[:0], nonce, ct, ad[:]); err != nil {
					panic(err)
				}
			}
		}
	}
	floorSide := func(b *testing.B, op string, size int) (func(n int), func()) {
		f := newFloor(b, size, op == "Open")
		return func(n int) {
			if f.Loop(n) < 0 {
				panic("C loop failed")
			}
		}, f.Free
	}
	empty := func(n int) {
		for i := 0; i < n; i++ {
			EmptyCall()
		}
	}
	for _, op := range []string{"Seal", "Open"} {
		// libaead Seal/Open 64 B over (C loop 64 B + one empty cgo call): target <= 1.15.
		b.Run("ratio=binding_over_c_plus_cgo/op="+op+"/size=64", func(b *testing.B) {
			lib := goSide(b, newLib(b), op, 64)
			c, free := floorSide(b, op, 64)
			defer free()
			paired(b, 512, func(t []time.Duration) float64 {
				return float64(t[0]) / float64(t[1]+t[2])
			}, lib, c, empty)
		})
		// Decomposition: the binding against one direct cgo call of aead_seal_open per operation
		// (same C work, no binding code), and that direct call against the C loop.
		b.Run("ratio=binding_over_direct_cgo/op="+op+"/size=64", func(b *testing.B) {
			lib := goSide(b, newLib(b), op, 64)
			f := newFloor(b, 64, op == "Open")
			defer f.Free()
			direct := func(n int) {
				for i := 0; i < n; i++ {
					if f.OneCall() < 0 {
						panic("direct call failed")
					}
				}
			}
			c, free := floorSide(b, op, 64)
			defer free()
			paired(b, 512, func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }, lib, direct, c)
		})
		// The same direct call on Go buffers (as the binding passes them).
		b.Run("ratio=binding_over_direct_cgo_gobuf/op="+op+"/size=64", func(b *testing.B) {
			lib := goSide(b, newLib(b), op, 64)
			f := newFloor(b, 64, op == "Open")
			defer f.Free()
			gin, gout := make([]byte, 64), make([]byte, 80)
			if op == "Open" {
				gin = newLib(b).Seal(nil, nonce[:], make([]byte, 64), ad[:])
				gout = gout[:64]
			}
			directGo := func(n int) {
				for i := 0; i < n; i++ {
					if f.DirectGo(nonce[:], ad[:], gin, gout) < 0 {
						panic("direct call failed")
					}
				}
			}
			paired(b, 512, func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }, lib, directGo)
		})
		// golang-fips over libaead at 64 B: target >= 3.
		b.Run("ratio=golangfips_over_binding/op="+op+"/size=64", func(b *testing.B) {
			lib := goSide(b, newLib(b), op, 64)
			fips := goSide(b, newFips(b), op, 64)
			paired(b, 256, func(t []time.Duration) float64 { return float64(t[1]) / float64(t[0]) }, lib, fips)
		})
		// Against crypto/cipher (on vendored OpenSSL 3.5): time at 64 B, target
		// <= 1.5 for Seal; throughput at 16 KiB (crypto/cipher's time over ours), target >= 2.5.
		b.Run("ratio=binding_over_stdlib/op="+op+"/size=64", func(b *testing.B) {
			lib, std := goSide(b, newLib(b), op, 64), goSide(b, newStd(b, false), op, 64)
			paired(b, 256, func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }, lib, std)
		})
		b.Run("ratio=stdlib_over_binding/op="+op+"/size=16384", func(b *testing.B) {
			lib, std := goSide(b, newLib(b), op, 16384), goSide(b, newStd(b, false), op, 16384)
			paired(b, 32, func(t []time.Duration) float64 { return float64(t[1]) / float64(t[0]) }, lib, std)
		})
		b.Run("ratio=golangfips_over_binding/op="+op+"/size=16384", func(b *testing.B) {
			lib, fips := goSide(b, newLib(b), op, 16384), goSide(b, newFips(b), op, 16384)
			paired(b, 32, func(t []time.Duration) float64 { return float64(t[1]) / float64(t[0]) }, lib, fips)
		})
		// NewGCMWithRandomNonce against crypto/cipher's (the nonce drawn inside each side's Seal).
		for _, size := range []int{64, 16384} {
			b.Run(fmt.Sprintf("ratio=binding_over_stdlib_random/op=%s/size=%d", op, size), func(b *testing.B) {
				random, err := aead.NewGCMWithRandomNonce(make([]byte, 16))
				if err != nil {
					b.Fatal(err)
				}
				lib, std := goSide(b, random, op, size), goSide(b, newStd(b, true), op, size)
				paired(b, 32, func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }, lib, std)
			})
		}
		// libaead over the C loop at 16 KiB: target <= 1.03.
		b.Run("ratio=binding_over_c/op="+op+"/size=16384", func(b *testing.B) {
			lib := goSide(b, newLib(b), op, 16384)
			c, free := floorSide(b, op, 16384)
			defer free()
			paired(b, 32, func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }, lib, c)
		})
	}
}

// paired runs the sides in alternating chunks until b.N operations of each are done, and reports
// the median over chunks of ratio(times of one chunk of each side) as the metric "ratio".
func paired(b *testing.B, chunk int, ratio func([]time.Duration) float64, sides ...func(n int)) {
	var ratios []float64
	alternate(b, chunk, sides, func(t []time.Duration) { ratios = append(ratios, ratio(t)) })
	if len(ratios) == 0 {
		return // calibration run shorter than one chunk
	}
	b.ReportMetric(median(ratios), "ratio")
}

// alternate warms each side up with one chunk, then runs the sides in alternating chunks of chunk
// operations (the last one shorter) until b.N of each are done, timed (b.ReportAllocs), passing
// each full chunk's times, one per side, to record.
func alternate(b *testing.B, chunk int, sides []func(n int), record func(t []time.Duration)) {
	for _, s := range sides { // warm up
		s(chunk)
	}
	t := make([]time.Duration, len(sides))
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += chunk {
		n := min(chunk, b.N-done)
		for i, s := range sides {
			start := time.Now()
			s(n)
			t[i] = time.Since(start)
		}
		if n == chunk {
			record(t)
		}
	}
	b.StopTimer()
}

// median sorts v and returns its middle element.
func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
