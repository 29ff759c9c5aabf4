package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	"github.com/libaead/libaead/bindings/go/internal/forktest"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// TestGCMNoncesFIPSV1 is crypto/cipher's TestGCMNoncesFIPSV1 (gcm_test.go, Go 1.26), case for case,
// on this package's NewGCMWithCounterNonce and NewGCMForSSH. Go's expectOK asks the FIPS service
// indicator after each Seal; here the AEAD's indicator must approve the seal exactly when a FIPS
// provider serves it (the FIPS stage), and the ciphertext must be crypto/cipher's. Go's
// expectPanic asks for any panic; here it must be the message Go's module panics with. Go's test
// seals with no additional data; NewGCMForSSH requires the 4-byte packet length, so its subtest
// passes one.
func TestGCMNoncesFIPSV1(t *testing.T) {
	fips := fipsConfigured(t)
	key := make([]byte, 16)
	ref := stdGCM(t, key, 12, 16)
	var aad []byte // nil, as in Go's test; the SSH subtest sets a 4-byte packet length
	tryNonce := func(aead cipher.AEAD, nonce []byte) (ct []byte, approved bool) {
		ct = aead.Seal(nil, nonce, []byte("x"), aad)
		ind, _ := IndicatorOf(aead)
		return ct, ind.SealApproved
	}
	expectOK := func(t *testing.T, aead cipher.AEAD, nonce []byte) {
		t.Helper()
		var ct []byte
		var approved bool
		if msg := catchPanic(func() { ct, approved = tryNonce(aead, nonce) }); msg != "" {
			t.Errorf("unexpected panic %q for %x", msg, nonce)
			return
		}
		if approved != fips {
			t.Errorf("service indicator %v for %x under a FIPS provider: %v", approved, nonce, fips)
		}
		if !bytes.Equal(ct, ref.Seal(nil, nonce, []byte("x"), aad)) {
			t.Errorf("seal with %x differs from crypto/cipher's", nonce)
		}
	}
	expectPanic := func(t *testing.T, aead cipher.AEAD, nonce []byte, want string) {
		t.Helper()
		if got := catchPanic(func() { tryNonce(aead, nonce) }); got != want {
			t.Errorf("panic %q for %x, want %q", got, nonce, want)
		}
	}
	prefixChanged, exhausted, order := gcmMessages.tlsPrefix, gcmMessages.tlsExhausted, gcmMessages.tlsOrder

	t.Run("NewGCMWithCounterNonce", func(t *testing.T) {
		newGCM := func() cipher.AEAD { return testkit.MustNew(t, NewGCMWithCounterNonce, key) }

		g := newGCM()
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0})
		expectOK(t, g, []byte{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
		// Changed name.
		expectPanic(t, g, []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, prefixChanged)

		g = newGCM()
		expectOK(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
		// Went down (2^64-1 counted from the start: Go's module says "counter exhausted").
		expectPanic(t, g, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, exhausted)

		g = newGCM()
		expectOK(t, g, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
		expectOK(t, g, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13})
		// Did not increment.
		expectPanic(t, g, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13}, order)

		g = newGCM()
		expectOK(t, g, []byte{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00})
		expectOK(t, g, []byte{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		// Wrap is ok as long as we don't run out of values.
		expectOK(t, g, []byte{1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0})
		expectOK(t, g, []byte{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xfe})
		// Run out of counters.
		expectPanic(t, g, []byte{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff}, exhausted)

		g = newGCM()
		expectOK(t, g, []byte{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		// Wrap with overflow.
		expectPanic(t, g, []byte{1, 2, 3, 5, 0, 0, 0, 0, 0, 0, 0, 0}, prefixChanged)
	})

	t.Run("NewGCMForSSH", func(t *testing.T) {
		aad = []byte{0, 0, 0, 0x20} // the packet length RFC 5647 authenticates (Go's test passes none)
		defer func() { aad = nil }()
		newGCM := func() cipher.AEAD { return testkit.MustNew(t, NewGCMForSSH, key) }
		// incIV from x/crypto/ssh/cipher.go.
		incIV := func(iv []byte) {
			for i := 4 + 7; i >= 4; i-- {
				iv[i]++
				if iv[i] != 0 {
					break
				}
			}
		}

		aead := newGCM()
		iv := unhex(t, "11223344"+"0000000000000000")
		expectOK(t, aead, iv)
		incIV(iv)
		expectOK(t, aead, iv)
		iv = unhex(t, "11223344"+"fffffffffffffffe")
		expectOK(t, aead, iv)
		incIV(iv)
		expectPanic(t, aead, iv, exhausted)

		// Wrapping is ok as long as we don't run out of values.
		aead = newGCM()
		iv = unhex(t, "11223344"+"fffffffffffffffe")
		expectOK(t, aead, iv)
		incIV(iv)
		expectOK(t, aead, iv)
		incIV(iv)
		expectOK(t, aead, iv)
		incIV(iv)
		expectOK(t, aead, iv)

		aead = newGCM()
		iv = unhex(t, "11223344"+"aaaaaaaaaaaaaaaa")
		expectOK(t, aead, iv)
		iv = unhex(t, "11223344"+"ffffffffffffffff")
		expectOK(t, aead, iv)
		incIV(iv)
		expectOK(t, aead, iv)
		iv = unhex(t, "11223344"+"aaaaaaaaaaaaaaa8")
		expectOK(t, aead, iv)
		incIV(iv)
		expectPanic(t, aead, iv, exhausted)
		iv = unhex(t, "11223344"+"bbbbbbbbbbbbbbbb")
		expectPanic(t, aead, iv, order)
	})
}

// counterNonce is fixed || BE64(c).
func counterNonce(fixed uint32, c uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint32(make([]byte, 0, 12), fixed), c)
}

type counterCase struct {
	name  string
	new   func(key []byte) (cipher.AEAD, error)
	newIV func(key, iv []byte) (cipher.AEAD, error) // the IV given up front instead
	xor   bool
	ssh   bool // AES-128/256 only, additional data the 4-byte packet length
}

func counterCases() []counterCase {
	return []counterCase{
		{name: "Counter", new: NewGCMWithCounterNonce},
		{name: "Counter/IV", newIV: NewGCMWithCounterNonceAndIV},
		{name: "XORCounter", new: NewGCMWithXORCounterNonce, xor: true},
		{name: "XORCounter/IV", newIV: NewGCMWithXORCounterNonceAndIV, xor: true},
		{name: "SSH", new: NewGCMForSSH, ssh: true},
		{name: "SSH/IV", newIV: NewGCMForSSHWithIV, ssh: true},
	}
}

func (c counterCase) make(key, iv []byte) (cipher.AEAD, error) {
	if c.newIV != nil {
		return c.newIV(key, iv)
	}
	return c.new(key)
}

// nonce is the case's nonce for counter value n counted from iv (fixed || start, or fixed || mask).
func (c counterCase) nonce(iv []byte, n uint64) []byte {
	fixed, v := binary.BigEndian.Uint32(iv), binary.BigEndian.Uint64(iv[4:])
	if c.xor {
		return counterNonce(fixed, v^n)
	}
	return counterNonce(fixed, v+n)
}

func (c counterCase) aad(r *rand.Rand) []byte {
	if c.ssh {
		return binary.BigEndian.AppendUint32(nil, uint32(r.Intn(1<<16)))
	}
	return randBytes(r, r.Intn(40))
}

func (c counterCase) keyLen(r *rand.Rand) int {
	if c.ssh {
		return []int{16, 32}[r.Intn(2)]
	}
	return []int{16, 24, 32}[r.Intn(3)]
}

// goCounterModel is the nonce check of the Go FIPS module's GCMWithCounterNonce.Seal (counter and
// SSH) and GCMWithXORCounterNonce.Seal (crypto/internal/fips140/aes/gcm/gcm_nonces.go, Go 1.26),
// check for check (the two differ only in what the first Seal learns and how the counter is made
// relative), a panic being returned as its message; the IV given up front sets what the first Seal
// would (SetNoncePrefixAndMask for XOR).
type goCounterModel struct {
	xor                     bool
	prefixReady, startReady bool // counter
	ready                   bool // XOR
	prefix                  uint32
	start, mask, next       uint64
}

func newGoCounterModel(xor bool, iv []byte) *goCounterModel {
	g := &goCounterModel{xor: xor}
	if iv != nil {
		g.prefix = binary.BigEndian.Uint32(iv)
		g.start, g.mask = binary.BigEndian.Uint64(iv[4:]), binary.BigEndian.Uint64(iv[4:])
		g.prefixReady, g.startReady, g.ready = true, true, true
	}
	return g
}

func (g *goCounterModel) seal(nonce []byte) string {
	prefix, counter := binary.BigEndian.Uint32(nonce[:4]), binary.BigEndian.Uint64(nonce[len(nonce)-8:])
	if g.xor && !g.ready {
		g.ready, g.prefix, g.mask = true, prefix, counter
	} else if !g.xor && !g.prefixReady {
		g.prefixReady, g.prefix = true, prefix
	}
	if g.prefix != prefix {
		return "crypto/cipher: GCM nonce prefix changed"
	}
	if g.xor {
		counter ^= g.mask
	} else {
		if !g.startReady { // learned after the prefix check, as Go's counter Seal does
			g.startReady, g.start = true, counter
		}
		counter -= g.start
	}
	if counter == math.MaxUint64 {
		return "crypto/cipher: counter exhausted"
	}
	if counter < g.next {
		return "crypto/cipher: counter decreased or remained the same"
	}
	g.next = counter + 1
	return ""
}

// TestCounterNonceDifferential: random nonce walks (mostly increasing with gaps, with repeats, steps
// back, jumps, the values around the end of the counter and changed prefixes) on every counter
// AEAD and key size. Each Seal is accepted or refused exactly as the Go module's check (ported in
// goCounterModel) decides, with its message; an accepted one equals crypto/cipher's NewGCM Seal and
// opens with crypto/cipher; a refused one writes nothing; every record crypto/cipher seals (with any
// nonce: Open checks none) opens.
func TestCounterNonceDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(75))
	walks, steps := 12, 250
	if testing.Short() {
		walks = 3
	}
	for _, c := range counterCases() {
		t.Run(c.name, func(t *testing.T) {
			var accepted, refused int
			kinds := map[string]int{} // refusals by message
			for w := 0; w < walks; w++ {
				key, iv := randBytes(r, c.keyLen(r)), randBytes(r, 12)
				if w%3 == 0 {
					binary.BigEndian.PutUint64(iv[4:], math.MaxUint64-uint64(r.Intn(300))) // wraps during the walk
				}
				a, err := c.make(key, iv)
				if err != nil {
					t.Fatal(err)
				}
				ref := stdGCM(t, key, 12, 16)
				var given []byte
				if c.newIV != nil {
					given = iv
				}
				model := newGoCounterModel(c.xor, given)
				n := uint64(0)
				if c.newIV != nil && !c.xor {
					n = uint64(r.Intn(3)) // a first seal anywhere at or after the start
				}
				for s := 0; s < steps; s++ {
					nonce := c.nonce(iv, n)
					switch p := r.Intn(100); {
					case p < 3:
						nonce[r.Intn(4)] ^= 1 << r.Intn(8) // another fixed field
					case p < 10 && s >= steps-20:
						nonce = c.nonce(iv, math.MaxUint64-uint64(r.Intn(3))) // the end of the counter
					}
					aad, pt := c.aad(r), randBytes(r, r.Intn(100))
					dst := bytes.Repeat([]byte{0xEE}, len(pt)+16)
					var out []byte
					got := catchPanic(func() { out = a.Seal(dst[:0], nonce, pt, aad) })
					if want := model.seal(nonce); got != want {
						t.Fatalf("walk %d step %d nonce %x: panic %q, Go's module: %q", w, s, nonce, got, want)
					}
					if got != "" {
						refused++
						kinds[got]++
						if !bytes.Equal(dst, bytes.Repeat([]byte{0xEE}, len(dst))) {
							t.Fatalf("nonce %x: a refused Seal wrote to dst", nonce)
						}
					} else {
						accepted++
						if !bytes.Equal(out, ref.Seal(nil, nonce, pt, aad)) {
							t.Fatalf("nonce %x: Seal differs from crypto/cipher's", nonce)
						}
						if back, err := ref.Open(nil, nonce, out, aad); err != nil || !bytes.Equal(back, pt) {
							t.Fatalf("nonce %x: crypto/cipher does not open the seal: %v", nonce, err)
						}
					}
					goSealed := ref.Seal(nil, nonce, pt, aad)
					if back, err := a.Open(nil, nonce, goSealed, aad); err != nil || !bytes.Equal(back, pt) {
						t.Fatalf("nonce %x: Open of crypto/cipher's seal: %v", nonce, err)
					}
					switch p := r.Intn(100); {
					case p < 72:
						n += 1 + uint64(r.Intn(3))
					case p < 82: // the same again
					case p < 93: // back (not below the first counter: that would end the walk)
						n -= min(n, 1+uint64(r.Intn(3)))
					default:
						n += r.Uint64() >> 16 // a jump forward
					}
					if s == steps-20 { // the last steps walk over the end of the counter
						n = math.MaxUint64 - uint64(2+r.Intn(8))
					}
				}
			}
			t.Logf("%d seals accepted, %d refused %v", accepted, refused, kinds)
			// Both outcomes, and each refusal, must have been met often.
			if accepted < walks*steps/4 || refused < walks*steps/10 || len(kinds) != 3 {
				t.Fatalf("%d accepted, refused %v: the walks missed a branch", accepted, kinds)
			}
		})
	}
}

// TestXORCounterNonce: the mask is learned from the first Seal (n = 0) or given up front (the Go
// module's SetNoncePrefixAndMask), after which any first n is taken; n strictly increases, 2^64-1
// is refused, the fixed field is kept; refusals consume nothing.
func TestXORCounterNonce(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	iv := unhex(t, "a0a1a2a3"+"0123456789abcdef")
	ref := stdGCM(t, key, 12, 16)
	for _, c := range counterCases()[2:4] {
		t.Run(c.name, func(t *testing.T) {
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			seal := func(n uint64, want string) {
				t.Helper()
				nonce := c.nonce(iv, n)
				var ct []byte
				if got := catchPanic(func() { ct = a.Seal(nil, nonce, []byte("record"), []byte("any aad")) }); got != want {
					t.Fatalf("n = %d: panic %q, want %q", n, got, want)
				}
				if want == "" && !bytes.Equal(ct, ref.Seal(nil, nonce, []byte("record"), []byte("any aad"))) {
					t.Fatalf("n = %d: Seal differs from crypto/cipher's", n)
				}
			}
			if c.newIV != nil {
				seal(5, "") // nothing to learn: the first n may be anything
				seal(4, gcmMessages.tlsOrder)
			} else {
				seal(0, "") // teaches fixed and mask
			}
			seal(7, "")
			seal(7, gcmMessages.tlsOrder)
			seal(3, gcmMessages.tlsOrder)
			seal(math.MaxUint64, gcmMessages.tlsExhausted)
			other := c.nonce(iv, 8)
			other[2] ^= 4
			if got := catchPanic(func() { a.Seal(nil, other, nil, nil) }); got != gcmMessages.tlsPrefix {
				t.Fatalf("another fixed field: panic %q", got)
			}
			seal(8, "") // the refusals consumed nothing
			seal(math.MaxUint64-1, "")
			seal(math.MaxUint64-1, gcmMessages.tlsOrder)
		})
	}
}

// TestCounterNonceWithIV: with the IV given, the counter runs from its value: start-1 (2^64-1
// counted from it) is refused, another fixed field too, and concurrent first Seals are safe
// (TestCounterNonceDuplicateAcrossGoroutines races the very first one).
func TestCounterNonceWithIV(t *testing.T) {
	for _, c := range []counterCase{counterCases()[1], counterCases()[5]} {
		t.Run(c.name, func(t *testing.T) {
			aad := c.aad(rand.New(rand.NewSource(1)))
			a, err := c.make(make([]byte, 16), counterNonce(0xcafef00d, 5))
			if err != nil {
				t.Fatal(err)
			}
			for _, step := range []struct {
				nonce []byte
				want  string
			}{
				{counterNonce(0xcafef00d, 4), gcmMessages.tlsExhausted},
				{counterNonce(0xcafef00e, 5), gcmMessages.tlsPrefix},
				{counterNonce(0xcafef00d, 5), ""},
				{counterNonce(0xcafef00d, 5), gcmMessages.tlsOrder},
				{counterNonce(0xcafef00d, 9), ""},
			} {
				if got := catchPanic(func() { a.Seal(nil, step.nonce, nil, aad) }); got != step.want {
					t.Fatalf("%x: panic %q, want %q", step.nonce, got, step.want)
				}
			}
		})
	}
}

// TestCounterNonceConstructors: key sizes (SSH: AES-128 and AES-256 only), IV lengths, sizes,
// and what the package's other functions say about these AEADs.
func TestCounterNonceConstructors(t *testing.T) {
	for _, c := range counterCases() {
		for _, n := range []int{0, 15, 16, 24, 32, 33} {
			_, err := c.make(make([]byte, n), make([]byte, 12))
			ok := n == 16 || n == 32 || (n == 24 && !c.ssh)
			var kse aes.KeySizeError
			if ok != (err == nil) || (!ok && !errors.As(err, &kse)) {
				t.Errorf("%s: %d-byte key: %v", c.name, n, err)
			}
		}
		if c.newIV == nil {
			continue
		}
		for _, n := range []int{0, 4, 8, 11, 13, 16} {
			_, err := c.newIV(make([]byte, 16), make([]byte, n))
			if err == nil || !strings.Contains(err.Error(), "IV must be 12 bytes, got ") {
				t.Errorf("%s: %d-byte IV: %v", c.name, n, err)
			}
		}
		a, err := c.newIV(make([]byte, 16), make([]byte, 12))
		if err != nil || a.NonceSize() != 12 || a.Overhead() != 16 {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := catchPanic(func() { a.Seal(nil, make([]byte, 8), nil, make([]byte, 4)) }); got != gcmMessages.nonceSeal {
			t.Errorf("%s: 8-byte nonce: panic %q", c.name, got)
		}
	}
}

// TestSSHPacketLength: an SSH Seal needs the 4-byte packet length as additional data; other lengths
// are refused with their own message, consuming and learning nothing (a first Seal refused so teaches
// no fixed field). Seals are counted (refusals not), and the library's rekey point is RFC 4344's
// (SSHRekeyAfter); the other counter AEADs count no seals and have none.
func TestSSHPacketLength(t *testing.T) {
	for _, c := range []counterCase{counterCases()[4], counterCases()[5]} {
		t.Run(c.name, func(t *testing.T) {
			iv := counterNonce(0x11223344, 10)
			a, _ := c.make(make([]byte, 32), iv)
			packetLen := []byte{0, 0, 1, 0}
			for _, n := range []int{0, 3, 5, 13} {
				if got := catchPanic(func() { a.Seal(nil, counterNonce(0x55667788, 10), nil, make([]byte, n)) }); got != gcmSSHMessages.tlsAAD {
					t.Fatalf("%d bytes of additional data: panic %q", n, got)
				}
			}
			if u, _ := UsageOf(a); u != (Usage{Seals: 0, Forgeries: 0}) {
				t.Fatalf("usage after refusals: %+v", u)
			}
			if got := implOf(a).rekeyAfter(); got != SSHRekeyAfter {
				t.Fatalf("the library's rekey_after: %d, want %d", got, SSHRekeyAfter)
			}
			// Nothing was learned from the refused first seals: iv's fixed field is the one.
			a.Seal(nil, iv, []byte("packet"), packetLen)
			a.Seal(nil, counterNonce(0x11223344, 11), []byte("packet"), packetLen)
			if got := catchPanic(func() { a.Seal(nil, counterNonce(0x55667788, 12), nil, packetLen) }); got != gcmMessages.tlsPrefix {
				t.Fatalf("another fixed field: panic %q", got)
			}
			ct := a.Seal(nil, counterNonce(0x11223344, 12), []byte("packet"), packetLen)
			a.Open(nil, counterNonce(0x11223344, 12), flip(ct, 0), packetLen)
			if u, _ := UsageOf(a); u != (Usage{Seals: 3, Forgeries: 1}) {
				t.Fatalf("usage: %+v", u)
			}
			// Open checks no additional-data length (it cannot verify with another anyway).
			if _, err := a.Open(nil, counterNonce(0x11223344, 12), ct, nil); !errors.Is(err, ErrOpen) {
				t.Fatalf("Open with other additional data: %v", err)
			}
		})
	}
	for _, c := range counterCases()[:4] {
		a, _ := c.make(make([]byte, 16), make([]byte, 12))
		a.Seal(nil, c.nonce(make([]byte, 12), 0), nil, nil)
		if u, _ := UsageOf(a); u.Seals != 0 || implOf(a).rekeyAfter() != math.MaxUint64 {
			t.Errorf("%s: usage %+v (counted only for SSH), rekey_after %d", c.name, u, implOf(a).rekeyAfter())
		}
	}
}

// TestCounterNonceDuplicateAcrossGoroutines: 8 goroutines seal the same counter at once on one
// shared AEAD, round after round: each counter is accepted exactly once (and opens), the 7 others
// are refused. With the IV given, the very first Seal is raced too.
func TestCounterNonceDuplicateAcrossGoroutines(t *testing.T) {
	rounds := shortOr(300, 40)
	for _, c := range counterCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(77))
			key, iv, aad := randBytes(r, 16), randBytes(r, 12), c.aad(r)
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			first := 0
			if c.newIV == nil {
				a.Seal(nil, c.nonce(iv, 0), nil, aad) // learns fixed and start or mask before sharing
				first = 1
			}
			raceDuplicates(t, a, func(seq uint64) []byte { return c.nonce(iv, seq) }, aad, first, rounds, gcmMessages.tlsOrder)
		})
	}
}

// TestCounterNonceForkedChild: in a child forked (from C) after the AEAD was made and used, its
// Seal is refused with AEAD_ERR_FORKED and its Open works; the parent goes on.
func TestCounterNonceForkedChild(t *testing.T) {
	for _, c := range counterCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(78))
			iv, aad, pt := randBytes(r, 12), c.aad(r), []byte("packet")
			a, err := c.make(randBytes(r, 16), iv)
			if err != nil {
				t.Fatal(err)
			}
			ct0 := a.Seal(nil, c.nonce(iv, 0), pt, aad)
			seal, open, _, err := forktest.SealOpenInChild(unsafe.Pointer(implOf(a).ctx), c.nonce(iv, 1), aad, pt, len(pt)+16,
				c.nonce(iv, 0), ct0, len(pt))
			if err != nil {
				t.Fatal(err)
			}
			if seal != codeForked || open != int64(len(pt)) {
				t.Fatalf("child: seal returned %d (want %d, AEAD_ERR_FORKED), open %d (want %d)", seal, codeForked, open, len(pt))
			}
			a.Seal(nil, c.nonce(iv, 1), pt, aad) // the child consumed nothing of the parent's
		})
	}
}

// TestBatchCounterNonce: a Batch checks and commits counters record by record, in order: each
// record is accepted or refused as Go's module check (goCounterModel) decides for that sequence,
// a refusal being the record's *Error with the library's code; accepted records are crypto/cipher's.
func TestBatchCounterNonce(t *testing.T) {
	codes := map[string]int{gcmMessages.tlsPrefix: codeNoncePrefix, gcmMessages.tlsOrder: codeNonceOrder,
		gcmMessages.tlsExhausted: codeNonceExhaust}
	r := rand.New(rand.NewSource(79))
	for _, c := range counterCases() {
		t.Run(c.name, func(t *testing.T) {
			key, iv := randBytes(r, 16), randBytes(r, 12)
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			var given []byte
			if c.newIV != nil {
				given = iv
			}
			model, ref := newGoCounterModel(c.xor, given), stdGCM(t, key, 12, 16)
			recs := make([]Record, 300)
			n := uint64(0)
			for i := range recs {
				nonce := c.nonce(iv, n)
				if r.Intn(30) == 0 {
					nonce[3] ^= 0x10
				}
				recs[i] = Record{Nonce: nonce, Input: randBytes(r, r.Intn(600)), AdditionalData: c.aad(r)}
				n += uint64(r.Intn(4)) - min(n, 1) // steps back (not below the first), repeats and gaps
				if i == 280 {
					n = math.MaxUint64 - 3 // the end of the counter
				}
			}
			var b Batch
			b.Seal(a, recs)
			var accepted int
			for i, rec := range recs {
				switch want := model.seal(rec.Nonce); {
				case want == "":
					accepted++
					if rec.Err != nil || !bytes.Equal(rec.Out, ref.Seal(nil, rec.Nonce, rec.Input, rec.AdditionalData)) {
						t.Fatalf("record %d (%x): %v, or not crypto/cipher's seal", i, rec.Nonce, rec.Err)
					}
				case !isCode(rec.Err, codes[want]) || rec.Out != nil:
					t.Fatalf("record %d (%x): %v, want %q (code %d)", i, rec.Nonce, rec.Err, want, codes[want])
				}
			}
			if accepted < 60 || accepted == len(recs) {
				t.Fatalf("%d of %d records accepted: the sequence missed a branch", accepted, len(recs))
			}
		})
	}
}
