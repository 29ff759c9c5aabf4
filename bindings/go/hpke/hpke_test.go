package hpke

import (
	"bytes"
	"crypto/ecdh"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"unsafe"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/forktest"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

var (
	allKEMs  = []uint16{0x0010, 0x0011, 0x0012, 0x0020, 0x0021}
	allKDFs  = []uint16{1, 2, 3}
	allAEADs = []uint16{1, 2, 3, 0xFFFF}
)

// pair sets up a sender and a recipient of one suite in mode (0..3) with random keys, PSK and info.
func pair(t *testing.T, r *rand.Rand, s suiteT, mode int, window uint32) (*Sender, *Recipient) {
	t.Helper()
	skR, err := s.kem.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	so, ro := Options{}, Options{Window: window}
	if mode == 1 || mode == 3 {
		so.PSK, so.PSKID = testkit.RandBytes(r, 1+r.Intn(64)), testkit.RandBytes(r, 1+r.Intn(64))
		ro.PSK, ro.PSKID = so.PSK, so.PSKID
	}
	if mode >= 2 {
		if so.SenderKey, err = s.kem.DeriveKeyPair(testkit.RandBytes(r, 64)); err != nil {
			t.Fatal(err)
		}
		ro.SenderPublicKey = so.SenderKey.PublicKey()
	}
	info := testkit.RandBytes(r, r.Intn(100))
	enc, snd, err := so.NewSender(skR.PublicKey(), s.kdf, s.aead, info)
	if err != nil {
		t.Fatalf("NewSender (kem %04x mode %d): %v", s.kem.ID(), mode, err)
	}
	rcp, err := ro.NewRecipient(enc, skR, s.kdf, s.aead, info)
	if err != nil {
		t.Fatalf("NewRecipient: %v", err)
	}
	return snd, rcp
}

// TestRoundTrips: every suite in every mode, random keys, PSKs, info, AAD and lengths: messages open
// in order (a tampered one is refused and does not move the order), through AppendOpenAt in another
// order, the exports agree, a recipient with other info or another PSK refuses, and single-shot
// Seal / Open agree in every mode.
func TestRoundTrips(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	combos := 0
	for _, kem := range allKEMs {
		for _, kdf := range allKDFs {
			for _, a := range allAEADs {
				s := newSuite(t, kem, kdf, a)
				for mode := 0; mode < 4; mode++ {
					combos++
					snd, rcp := pair(t, r, s, mode, 0)
					if a == 0xFFFF {
						if _, err := snd.Seal(nil, nil); err == nil {
							t.Fatal("export-only Seal succeeded")
						}
						if _, err := rcp.Open(nil, make([]byte, 16)); err == nil {
							t.Fatal("export-only Open succeeded")
						}
					} else {
						roundTrip(t, r, snd, rcp)
					}
					for x := 0; x < 3; x++ {
						ctx, l := string(testkit.RandBytes(r, r.Intn(100))), r.Intn(300)
						e1, err1 := snd.Export(ctx, l)
						e2, err2 := rcp.Export(ctx, l)
						if err1 != nil || err2 != nil || len(e1) != l || !bytes.Equal(e1, e2) {
							t.Fatalf("kem %04x kdf %d aead %04x mode %d: exports differ (%v, %v)", kem, kdf, a, mode, err1, err2)
						}
					}
					if a != 0xFFFF {
						singleShot(t, r, s, mode)
					}
				}
			}
		}
	}
	t.Logf("round trips: %d suite and mode combinations", combos)
}

// roundTrip seals 1..6 messages and opens them in order, each after a tampered copy.
func roundTrip(t *testing.T, r *rand.Rand, snd *Sender, rcp *Recipient) {
	t.Helper()
	for m, n := 0, 1+r.Intn(6); m < n; m++ {
		aad, pt := testkit.RandBytes(r, r.Intn(50)), testkit.RandBytes(r, r.Intn(1000))
		dst := testkit.RandBytes(r, r.Intn(5))
		ct, seq, err := snd.AppendSeal(dst, aad, pt)
		if err != nil || seq != uint64(m) || !bytes.Equal(ct[:len(dst)], dst) || len(ct) != len(dst)+len(pt)+16 {
			t.Fatalf("AppendSeal %d: seq %d, %v", m, seq, err)
		}
		ct = ct[len(dst):]
		bad := append([]byte(nil), ct...)
		bad[r.Intn(len(bad))] ^= 1 << r.Intn(8)
		if _, err := rcp.Open(aad, bad); !errors.Is(err, libaead.ErrOpen) {
			t.Fatalf("tampered message %d: %v, want ErrOpen", m, err)
		}
		got, err := rcp.AppendOpen(dst[:len(dst):len(dst)], aad, ct)
		if err != nil || !bytes.Equal(got[len(dst):], pt) {
			t.Fatalf("AppendOpen %d: %v", m, err)
		}
	}
}

// singleShot: Options.Seal / Options.Open in mode; another info or PSK fails.
func singleShot(t *testing.T, r *rand.Rand, s suiteT, mode int) {
	t.Helper()
	skR, err := s.kem.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	var so, ro Options
	if mode == 1 || mode == 3 {
		so.PSK, so.PSKID = testkit.RandBytes(r, 32), []byte("id")
		ro.PSK, ro.PSKID = so.PSK, so.PSKID
	}
	if mode >= 2 {
		if so.SenderKey, err = s.kem.GenerateKey(); err != nil {
			t.Fatal(err)
		}
		ro.SenderPublicKey = so.SenderKey.PublicKey()
	}
	info, pt := testkit.RandBytes(r, 20), testkit.RandBytes(r, r.Intn(300))
	ct, err := so.Seal(skR.PublicKey(), s.kdf, s.aead, info, pt)
	if err != nil || len(ct) != s.kem.encSize()+len(pt)+16 {
		t.Fatalf("single-shot Seal (mode %d): %v", mode, err)
	}
	if got, err := ro.Open(skR, s.kdf, s.aead, info, ct); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("single-shot Open (mode %d): %v", mode, err)
	}
	if _, err := ro.Open(skR, s.kdf, s.aead, append(info, 0), ct); !errors.Is(err, libaead.ErrOpen) {
		t.Fatalf("single-shot Open with other info: %v", err)
	}
	if len(ro.PSK) > 0 {
		ro.PSK = append([]byte{1}, ro.PSK[1:]...)
		if _, err := ro.Open(skR, s.kdf, s.aead, info, ct); err == nil {
			t.Fatal("single-shot Open with another PSK succeeded")
		}
	}
}

// TestOpenAt: explicit sequence numbers open in any order inside the window, once each; a forged
// message does not take its number; the window is Options.Window.
func TestOpenAt(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, window := range []uint32{0, 128} {
		size := 64
		if window != 0 {
			size = int(window)
		}
		snd, rcp := pair(t, r, newSuite(t, 0x0020, 1, 1), 0, window)
		cts := make([][]byte, 3*size)
		for i := range cts {
			cts[i], _ = snd.Seal([]byte("aad"), []byte{byte(i)})
		}
		order := r.Perm(size) // the first window's worth, shuffled
		for _, i := range order {
			bad := append([]byte(nil), cts[i]...)
			bad[0] ^= 1
			if _, err := rcp.OpenAt(uint64(i), []byte("aad"), bad); !errors.Is(err, libaead.ErrOpen) || errors.Is(err, libaead.ErrReplay) {
				t.Fatalf("window %d: forged %d: %v", window, i, err)
			}
			if pt, err := rcp.OpenAt(uint64(i), []byte("aad"), cts[i]); err != nil || pt[0] != byte(i) {
				t.Fatalf("window %d: OpenAt %d: %v", window, i, err)
			}
		}
		for _, i := range order[:5] {
			if _, err := rcp.OpenAt(uint64(i), []byte("aad"), cts[i]); !errors.Is(err, libaead.ErrReplay) {
				t.Fatalf("window %d: replayed %d: %v", window, i, err)
			}
		}
		last := len(cts) - 1
		if _, err := rcp.OpenAt(uint64(last), []byte("aad"), cts[last]); err != nil {
			t.Fatal(err)
		}
		if _, err := rcp.OpenAt(uint64(last-size), []byte("aad"), cts[last-size]); !errors.Is(err, libaead.ErrReplay) {
			t.Fatalf("window %d: left of the window: %v", window, err)
		}
		if _, err := rcp.OpenAt(uint64(last-size+1), []byte("aad"), cts[last-size+1]); err != nil {
			t.Fatalf("window %d: the window's oldest: %v", window, err)
		}
		if _, err := rcp.OpenAt(5, []byte("aad"), cts[6]); err == nil {
			t.Fatal("a message opened under another sequence number")
		}
	}
	if _, _, err := (Options{Window: 65}).NewSender(mustKey(t, DHKEM(ecdh.X25519())).PublicKey(), HKDFSHA256(), AES128GCM(), nil); err == nil {
		t.Fatal("window 65 accepted")
	}
}

func mustKey(t *testing.T, k KEM) PrivateKey {
	t.Helper()
	sk, err := k.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

// TestTwoGoroutinesSeal: two goroutines sealing on one Sender get distinct sequence numbers,
// 0..n-1 each exactly once, and each ciphertext is the one of its number (the recipient opens them
// in that order).
func TestTwoGoroutinesSeal(t *testing.T) {
	const perG = 500000
	r := rand.New(rand.NewSource(3))
	snd, rcp := pair(t, r, newSuite(t, 0x0010, 1, 1), 0, 0)
	cts := make([][]byte, 2*perG)
	var mu sync.Mutex
	testkit.InGoroutines(t, 2, func(g int) error {
		pt := []byte{byte(g)}
		for i := 0; i < perG; i++ {
			ct, seq, err := snd.AppendSeal(make([]byte, 0, 17), nil, pt)
			if err != nil {
				return fmt.Errorf("sealing: %w", err)
			}
			if seq >= 2*perG {
				return fmt.Errorf("sealing: sequence number %d, want below %d", seq, 2*perG)
			}
			mu.Lock()
			dup := cts[seq] != nil
			cts[seq] = ct
			mu.Unlock()
			if dup {
				return errors.New("sealing: a sequence number sealed twice")
			}
		}
		return nil
	})
	var from [2]int
	for seq, ct := range cts {
		if ct == nil {
			t.Fatalf("sequence number %d never sealed", seq)
		}
		pt, err := rcp.Open(nil, ct)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		from[pt[0]]++
	}
	if from[0] != perG || from[1] != perG {
		t.Fatalf("messages per goroutine: %v", from)
	}
	t.Logf("two goroutines: %d seals on one Sender, sequence numbers 0..%d once each", 2*perG, 2*perG-1)
}

// TestForkedChild: a Sender set up before fork() refuses to seal in the child (AEAD_ERR_FORKED,
// nothing written), while the child's export still works and equals the parent's; the parent goes
// on sealing.
func TestForkedChild(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	snd, rcp := pair(t, r, newSuite(t, 0x0020, 1, 3), 0, 0)
	ct0, _ := snd.Seal(nil, []byte("parent 0"))
	seal, export, sealed, exported, err := forktest.HPKESealExportInChild(unsafe.Pointer(snd.ctx), []byte("child"), 32)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(&libaead.Error{Op: "seal", Code: int(seal)}, libaead.ErrForked) {
		t.Fatalf("the child's seal returned %d, want AEAD_ERR_FORKED", seal)
	}
	if !bytes.Equal(sealed, make([]byte, len(sealed))) {
		t.Fatal("the refused seal wrote to its output")
	}
	want, _ := rcp.Export("fork", 32)
	if export != 0 || !bytes.Equal(exported, want) {
		t.Fatalf("the child's export: %d, %x, want %x", export, exported, want)
	}
	ct1, seq, err := snd.AppendSeal(nil, nil, []byte("parent 1"))
	if err != nil || seq != 1 {
		t.Fatalf("the parent's next seal: seq %d, %v", seq, err)
	}
	for i, ct := range [][]byte{ct0, ct1} {
		if _, err := rcp.Open(nil, ct); err != nil {
			t.Fatalf("parent message %d: %v", i, err)
		}
	}
}

// TestKeys: keys made by crypto/ecdh carry over (NewDHKEMPrivateKey / NewDHKEMPublicKey give the
// same public key), X25519's Bytes is clamped, and bad keys are refused with an error: wrong
// lengths, a NIST scalar of 0 or not below the order, a point off the curve or compressed, the
// X25519 and X448 keys whose shared secret is all zero, an enc of the wrong length, a sender key of
// another KEM.
func TestKeys(t *testing.T) {
	for _, c := range []ecdh.Curve{ecdh.P256(), ecdh.P384(), ecdh.P521(), ecdh.X25519()} {
		k, err := c.GenerateKey(crand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		sk, err := NewDHKEMPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		pk, err := NewDHKEMPublicKey(k.PublicKey())
		if err != nil || !bytes.Equal(pk.Bytes(), sk.PublicKey().Bytes()) || !bytes.Equal(pk.Bytes(), k.PublicKey().Bytes()) {
			t.Fatalf("%v: the public keys differ (%v)", c, err)
		}
	}
	x, _ := NewKEM(0x0020)
	sk, _ := x.NewPrivateKey(bytes.Repeat([]byte{0xff}, 32))
	if b, _ := sk.Bytes(); b[0] != 0xf8 || b[31] != 0x7f {
		t.Fatalf("X25519 Bytes not clamped: %x", b)
	}
	for _, id := range allKEMs {
		k, _ := NewKEM(id)
		nsk := k.(*kemImpl).nSk
		if _, err := k.NewPrivateKey(make([]byte, nsk+1)); err == nil {
			t.Fatalf("kem %04x: a private key of the wrong length", id)
		}
		if _, err := k.NewPublicKey(make([]byte, k.encSize()-1)); err == nil {
			t.Fatalf("kem %04x: a public key of the wrong length", id)
		}
		sk := mustKey(t, k)
		if _, err := NewRecipient(make([]byte, k.encSize()+1), sk, HKDFSHA256(), AES128GCM(), nil); err == nil {
			t.Fatalf("kem %04x: an enc of the wrong length", id)
		}
		other := mustKey(t, DHKEM(ecdh.P256()))
		if id != 0x0010 {
			if _, _, err := (Options{SenderKey: other}).NewSender(sk.PublicKey(), HKDFSHA256(), AES128GCM(), nil); err == nil {
				t.Fatalf("kem %04x: a sender key of another KEM", id)
			}
		}
	}
	p256 := DHKEM(ecdh.P256())
	if _, err := p256.NewPrivateKey(make([]byte, 32)); err == nil {
		t.Fatal("P-256: scalar 0 accepted")
	}
	if _, err := p256.NewPrivateKey(bytes.Repeat([]byte{0xff}, 32)); err == nil {
		t.Fatal("P-256: a scalar above the order accepted")
	}
	pub := mustKey(t, p256).PublicKey().Bytes()
	pub[64] ^= 1
	if _, err := p256.NewPublicKey(pub); err == nil {
		t.Fatal("P-256: a point off the curve accepted")
	}
	compressed := append([]byte{0x02}, pub[1:33]...)
	if _, err := p256.NewPublicKey(compressed); err == nil {
		t.Fatal("P-256: a compressed point accepted")
	}
	for _, k := range []KEM{DHKEM(ecdh.X25519()), DHKEMX448()} {
		zero, err := k.NewPublicKey(make([]byte, k.encSize())) // a point of small order: all-zero secret
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := NewSender(zero, HKDFSHA256(), AES128GCM(), nil); err == nil {
			t.Fatalf("kem %04x: a sender to the zero point", k.ID())
		}
		if _, err := NewRecipient(make([]byte, k.encSize()), mustKey(t, k), HKDFSHA256(), AES128GCM(), nil); err == nil {
			t.Fatalf("kem %04x: a recipient of the zero enc", k.ID())
		}
	}
	s, _ := NewKEM(0x0021)
	for _, id := range []uint16{0, 0x0013, 0x0030, 0x0043, 0x0052, 0x647b} {
		if _, err := NewKEM(id); err == nil {
			t.Fatalf("KEM %04x claimed", id)
		}
	}
	for _, id := range []uint16{0, 0x0004, 0x0012, 0x0013} { // TurboSHAKE128 and 256: not in OpenSSL
		if _, err := NewKDF(id); err == nil {
			t.Fatalf("KDF %04x claimed", id)
		}
	}
	snd, _ := pair(t, rand.New(rand.NewSource(5)), suiteT{s, HKDFSHA256(), AES256GCM()}, 0, 0)
	if _, err := snd.Export("", 255*32+1); err == nil {
		t.Fatal("an export longer than 255 * Nh")
	}
	if _, err := snd.Export(string(make([]byte, 961)), 32); err == nil {
		t.Fatal("an exporter context over 960 bytes")
	}
	if _, err := (Options{Properties: "provider=nonexistent"}).Seal(mustKey(t, s).PublicKey(), HKDFSHA256(), AES128GCM(), nil, nil); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("a property query no provider answers: %v", err)
	}
}
