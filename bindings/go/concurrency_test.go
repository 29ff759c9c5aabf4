package aead

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentSharedAEAD: 8 goroutines share one AEAD and mix Seal, Open and failing Open on
// random sizes, on AES-GCM, ChaCha20-Poly1305, one AEAD of each 1.2 family and two AEGIS; every result is
// checked (GCM against crypto/cipher, the others by opening
// and by a tampered Open). Run it with -race too.
func TestConcurrentSharedAEAD(t *testing.T) {
	const goroutines = 8
	iters := shortOr(400, 50)
	cases := []constructor{allConstructors[0], allConstructors[2], allConstructors[5],
		familyConstructors[1], familyConstructors[3], familyConstructors[7], // CCM, OCB3, XChaCha
		aegisConstructors[0], aegisConstructors[3]} // AEGIS-128L, AEGIS-256 with 32-byte tags
	if _, err := NewGCMSIV(make([]byte, 16)); err == nil { // OpenSSL >= 3.2 (TestGCMSIVAvailability)
		cases = append(cases, gcmSIVConstructors[0])
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(rand.New(rand.NewSource(5)), c.key)
			a, err := c.new(key)
			if err != nil {
				t.Fatal(err)
			}
			var ref cipher.AEAD
			if strings.HasPrefix(c.name, "NewGCM/") {
				ref = stdGCM(t, key, 12, 16)
			}
			var checked atomic.Int64
			inGoroutines(t, goroutines, func(r *rand.Rand) error {
				for i := 0; i < iters; i++ {
					size := r.Intn(2048)
					if r.Intn(20) == 0 {
						size = r.Intn(70000)
					}
					nonce, aad, pt := randBytes(r, a.NonceSize()), randBytes(r, r.Intn(40)), randBytes(r, size)
					ct := a.Seal(nil, nonce, pt, aad)
					if ref != nil && !bytes.Equal(ct, ref.Seal(nil, nonce, pt, aad)) {
						return errors.New("concurrent Seal differs from crypto/cipher")
					}
					switch r.Intn(3) {
					case 0: // in place
						got, err := a.Open(ct[:0], nonce, ct, aad)
						if err != nil || !bytes.Equal(got, pt) {
							return errors.New("concurrent in-place Open failed")
						}
					case 1:
						got, err := a.Open(nil, nonce, ct, aad)
						if err != nil || !bytes.Equal(got, pt) {
							return errors.New("concurrent Open failed")
						}
					case 2:
						ct[r.Intn(len(ct))] ^= 0x10
						dst := make([]byte, 0, len(ct))
						got, err := a.Open(dst, nonce, ct, aad)
						if got != nil || !errors.Is(err, ErrOpen) {
							return errors.New("concurrent tampered Open succeeded")
						}
						if n := len(ct) - a.Overhead(); !bytes.Equal(dst[:n], make([]byte, n)) {
							return errors.New("concurrent failed Open left bytes in dst")
						}
					}
					checked.Add(1)
				}
				return nil
			})
			if n := checked.Load(); n != goroutines*int64(iters) {
				t.Fatalf("checked %d results, want %d", n, goroutines*iters)
			}
		})
	}
}

// TestTLSDuplicateAcrossGoroutines: on one shared TLS AEAD, 8 goroutines seal with the SAME
// nonce at once, round after round with increasing sequence numbers. Each round must accept
// exactly one seal and refuse the other 7 (each duplicate exactly once), and the accepted
// ciphertext must open.
func TestTLSDuplicateAcrossGoroutines(t *testing.T) {
	rounds := shortOr(500, 50)
	for _, c := range tlsCases() {
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(rand.New(rand.NewSource(6)), 32)
			if !c.chacha {
				key = key[:16]
			}
			iv := randBytes(rand.New(rand.NewSource(7)), 12)
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			aad := make([]byte, c.aadLen)
			// Sequence 0 first (before sharing), as the contract asks; an AEAD given its IV up
			// front learns nothing, so there the very first seal (round 0) is raced too.
			first := 0
			if c.newIV == nil {
				a.Seal(nil, tlsNonce(iv, 0, c.xor), []byte("record payload"), aad)
				first = 1
			}
			raceDuplicates(t, a, func(seq uint64) []byte { return tlsNonce(iv, seq, c.xor) }, aad, first, rounds, c.messages().tlsOrder)
		})
	}
}

// raceDuplicates: goroutines seal the same nonce at once on a, round after round (nonceOf(seq) for
// seq = 3*round, gaps being allowed, rounds first..rounds). Each round must accept exactly one seal
// and refuse the others with orderMsg, and the accepted ciphertext must open.
func raceDuplicates(t *testing.T, a cipher.AEAD, nonceOf func(seq uint64) []byte, aad []byte, first, rounds int, orderMsg string) {
	t.Helper()
	const goroutines = 8
	pt := []byte("record payload")
	type result struct {
		ct    []byte
		panic string
	}
	start := make([]chan uint64, goroutines)
	results := make(chan result, goroutines)
	var wg sync.WaitGroup
	for g := range start {
		start[g] = make(chan uint64)
		wg.Add(1)
		go func(in chan uint64) {
			defer wg.Done()
			for seq := range in {
				nonce := nonceOf(seq)
				var res result
				res.panic = catchPanic(func() { res.ct = a.Seal(nil, nonce, pt, aad) })
				results <- res
			}
		}(start[g])
	}
	var refused int
	for round := first; round <= rounds; round++ {
		seq := uint64(round) * 3
		for g := range start {
			start[g] <- seq
		}
		var accepted [][]byte
		for g := 0; g < goroutines; g++ {
			res := <-results
			switch res.panic {
			case "":
				accepted = append(accepted, res.ct)
			case orderMsg:
				refused++
			default:
				t.Errorf("round %d: unexpected panic %q", round, res.panic)
			}
		}
		if len(accepted) != 1 {
			t.Errorf("round %d (seq %d): %d seals accepted, want exactly 1", round, seq, len(accepted))
			break
		}
		got, err := a.Open(nil, nonceOf(seq), accepted[0], aad)
		if err != nil || !bytes.Equal(got, pt) {
			t.Errorf("round %d: accepted seal does not open: %v", round, err)
			break
		}
	}
	for g := range start {
		close(start[g])
	}
	wg.Wait()
	if want := (rounds + 1 - first) * (goroutines - 1); !t.Failed() && refused != want {
		t.Fatalf("%d refusals, want %d", refused, want)
	}
}
