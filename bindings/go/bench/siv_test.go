package bench

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"testing"
	"time"

	aead "github.com/libaead/libaead/bindings/go"
	tinkdaead "github.com/tink-crypto/tink-go/v2/daead/subtle"
)

// tinkSIV is tink-go's AES-SIV (daead/subtle: 64-byte keys, S2V(ad, plaintext), SIV || ciphertext)
// as a cipher.AEAD with no nonce: the shape of aead.NewAESSIVWithNonceSize(key, 0), for
// BenchmarkFamilies. Its Seal and Open allocate (tink returns new slices and keys AES per call).
type tinkSIV struct{ t *tinkdaead.AESSIV }

func newTinkSIV(key []byte) (*tinkSIV, error) {
	t, err := tinkdaead.NewAESSIV(key)
	return &tinkSIV{t}, err
}

func (s *tinkSIV) NonceSize() int { return 0 }
func (s *tinkSIV) Overhead() int  { return 16 }
func (s *tinkSIV) Seal(dst, nonce, plaintext, ad []byte) []byte {
	ct, err := s.t.EncryptDeterministically(plaintext, ad)
	if err != nil {
		panic(err)
	}
	return append(dst, ct...)
}
func (s *tinkSIV) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	pt, err := s.t.DecryptDeterministically(ciphertext, ad)
	if err != nil {
		return nil, err
	}
	return append(dst, pt...), nil
}

// TestDifferentialAESSIV: libaead's AES-256-SIV against tink-go's on random keys, additional data
// and messages (diffSizes: 0 to 70000 bytes), through the nonce-less AEAD form (nonce size 0: one
// component, tink's shape) and SealComponents with that one component: same bytes, each opens the
// other's, a tampered message fails on both. Empty messages below OpenSSL 3.5: libaead's refusal
// (errors.ErrUnsupported) is checked and counted. Tink has only 64-byte keys and one component;
// the binding's own tests cover the rest against an RFC 5297 reference (siv_ref_test.go).
func TestDifferentialAESSIV(t *testing.T) {
	empty := opensslAtLeast(t, 3, 5, "AEAD_REQUIRE_SIV_EMPTY")
	r := rand.New(rand.NewSource(5297))
	n, refused := 0, 0
	for _, size := range diffSizes(r, 100) {
		key := randBytes(r, 64)
		a, err := aead.NewAESSIVWithNonceSize(key, 0)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := newTinkSIV(key)
		if err != nil {
			t.Fatal(err)
		}
		ad, pt := randBytes(r, r.Intn(301)), randBytes(r, size)
		theirs := ref.Seal(nil, nil, pt, ad)
		if size == 0 && !empty {
			p := func() (v any) { defer func() { v = recover() }(); a.Seal(nil, nil, pt, ad); return nil }()
			if err, ok := p.(error); !ok || !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("empty message on %s: %v", aead.Version(), p)
			}
			if _, err := a.Open(nil, nil, theirs, ad); !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("empty open on %s: %v", aead.Version(), err)
			}
			refused++
			continue
		}
		ours := a.Seal(nil, nil, pt, ad)
		if !bytes.Equal(ours, theirs) || !bytes.Equal(a.SealComponents(nil, pt, ad), theirs) {
			t.Fatalf("size %d, ad %d: Seal differs from tink's", size, len(ad))
		}
		if got, err := a.Open(nil, nil, theirs, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: cannot open tink's: %v", size, err)
		}
		if got, err := ref.Open(nil, nil, ours, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: tink cannot open ours: %v", size, err)
		}
		bad := append([]byte{}, ours...)
		bad[r.Intn(len(bad))] ^= byte(1 + r.Intn(255))
		_, e1 := a.OpenComponents(nil, bad, ad)
		_, e2 := ref.Open(nil, nil, bad, ad)
		if !errors.Is(e1, aead.ErrOpen) || e2 == nil {
			t.Fatalf("size %d: tampered message accepted (ours %v, tink %v)", size, e1, e2)
		}
		n++
	}
	t.Logf("%d cases against tink-go AES-SIV (64-byte keys, one component), %d empty messages refused as unsupported (%s)", n, refused, aead.Version())
}

// BenchmarkAESSIVPaired: ratios measured inside one benchmark (paired: alternating chunks, the
// median of the per-chunk ratios), robust on a shared machine.
//   - ratio=libaead_over_tink: AES-256-SIV, one 13-byte component, no nonce (tink-go's shape;
//     libaead through NewAESSIVWithNonceSize(key, 0), the flat aead_seal_open), libaead's time over
//     tink's (below 1: libaead faster);
//   - ratio=components_over_seal: the same AES-128-SIV message through SealComponents (the
//     components path, aead_seal_open_v, pinned) with the two components Seal passes (ad, nonce),
//     and with four, over Seal: the price of the component path.
func BenchmarkAESSIVPaired(b *testing.B) {
	var ad [13]byte
	side := func(op string, size int, seal func(out, pt []byte) []byte, open func(out, ct []byte) ([]byte, error)) func(n int) {
		pt := make([]byte, size)
		ct := seal(nil, pt)
		out := make([]byte, 0, size+16)
		if op == "Seal" {
			return func(n int) {
				for i := 0; i < n; i++ {
					out = seal(out[:0], pt)
				}
			}
		}
		return func(n int) {
			for i := 0; i < n; i++ {
				var err error
				if out, err = open(out[:0], ct); err != nil {
					panic(err)
				}
			}
		}
	}
	ratio := func(t []time.Duration) float64 { return float64(t[0]) / float64(t[1]) }
	lib, err := aead.NewAESSIVWithNonceSize(make([]byte, 64), 0)
	if err != nil {
		b.Fatal(err)
	}
	tink, err := newTinkSIV(make([]byte, 64))
	if err != nil {
		b.Fatal(err)
	}
	for _, op := range []string{"Seal", "Open"} {
		for _, size := range []int{64, 1024, 16384} {
			chunk := 256
			if size == 16384 {
				chunk = 16
			}
			b.Run(fmt.Sprintf("ratio=libaead_over_tink/op=%s/size=%d", op, size), func(b *testing.B) {
				ours := side(op, size, func(out, pt []byte) []byte { return lib.Seal(out, nil, pt, ad[:]) },
					func(out, ct []byte) ([]byte, error) { return lib.Open(out, nil, ct, ad[:]) })
				theirs := side(op, size, func(out, pt []byte) []byte { return tink.Seal(out, nil, pt, ad[:]) },
					func(out, ct []byte) ([]byte, error) { return tink.Open(out, nil, ct, ad[:]) })
				paired(b, chunk, ratio, ours, theirs)
			})
		}
	}
	s, err := aead.NewAESSIV(make([]byte, 32))
	if err != nil {
		b.Fatal(err)
	}
	nonce := make([]byte, 16)
	extra := [][]byte{make([]byte, 13), make([]byte, 32)}
	for _, size := range []int{64, 1024} {
		for _, n := range []int{2, 4} {
			comps := [][]byte{ad[:], nonce}
			if n == 4 {
				comps = [][]byte{ad[:], extra[0], extra[1], nonce}
			}
			b.Run(fmt.Sprintf("ratio=components_over_seal/components=%d/op=Seal/size=%d", n, size), func(b *testing.B) {
				v := side("Seal", size, func(out, pt []byte) []byte { return s.SealComponents(out, pt, comps...) }, nil)
				flat := side("Seal", size, func(out, pt []byte) []byte { return s.Seal(out, nonce, pt, ad[:]) }, nil)
				paired(b, 256, ratio, v, flat)
			})
		}
	}
}
