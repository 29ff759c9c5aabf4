package hpke

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// The post-quantum KEMs, and the one-stage KDFs.
var (
	pqKEMs    = []uint16{0x0040, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a}
	shakeKDFs = []uint16{0x0010, 0x0011}
)

// mlkemExpected reports whether the loaded libcrypto has ML-KEM: OpenSSL 3.5 or newer (from the
// binding's Version()). AEAD_REQUIRE_MLKEM=1 (test.py sets it on a -Dlibcrypto=vendored build) makes
// an older one a failure.
func mlkemExpected(t testing.TB) bool {
	return testkit.OpenSSLAtLeast(t, libaead.Version(), 3, 5, "AEAD_REQUIRE_MLKEM")
}

func isPQ(kem uint16) bool {
	return kem == 0x0040 || kem == 0x0041 || kem == 0x0042 || kem>>4 == 0x005 || kem == 0x647a
}

// TestPQVectors runs draft-ietf-hpke-pq's vectors as Go 1.26's crypto/hpke has them (hpke/hpke-pq.json
// of the vectors directory, 13 base-mode cases) like RFC 9180's: with ML-KEM in libcrypto the ten
// cases whose KDF the package has pass (keys, enc from the case's randomness, every encryption and
// export); the three TurboSHAKE ones are refused (NewKDF has no such KDF; libaead refuses the id with
// AEAD_ERR_UNSUPPORTED). Without ML-KEM the two DHKEM cases pass and the eight post-quantum ones are
// refused, key and setup calls alike, with AEAD_ERR_UNSUPPORTED.
func TestPQVectors(t *testing.T) {
	cases := readCases(t, "hpke-pq.json")
	pq := mlkemExpected(t)
	type suite struct{ kem, kdf, aead uint16 }
	count := map[suite]int{}
	passed, refusedTurbo, refusedMLKEM := 0, 0, 0
	for i, c := range cases {
		if c.Mode != 0 {
			t.Fatalf("case %d: mode %d, the file has the base mode only", i, c.Mode)
		}
		kem, err := NewKEM(c.KEMID)
		if err != nil {
			t.Fatalf("case %d: KEM %04x: %v", i, c.KEMID, err)
		}
		k := kem.(*kemImpl)
		if len(c.SkRm) != k.nSk || len(c.PkRm) != k.nPk || len(c.Enc) != k.nEnc {
			t.Fatalf("case %d: sizes %d, %d, %d; the KEM's are %d, %d, %d", i, len(c.SkRm), len(c.PkRm), len(c.Enc), k.nSk, k.nPk, k.nEnc)
		}
		a, err := NewAEAD(c.AEADID)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		kdf, kdfErr := NewKDF(c.KDFID)
		turbo := c.KDFID == 0x0012 || c.KDFID == 0x0013
		if turbo != (kdfErr != nil) {
			t.Fatalf("case %d: NewKDF(%04x): %v", i, c.KDFID, kdfErr)
		}
		if turbo || (isPQ(c.KEMID) && !pq) {
			if turbo { // the id itself, handed to libaead, is refused
				kdf = &kdfImpl{c.KDFID, 32}
			}
			pk := &publicKey{k, c.PkRm}
			sk := &privateKey{k, c.SkRm, c.PkRm}
			if enc, s, err := (Options{ikmE: c.IkmE}).NewSender(pk, kdf, a, c.Info); !errors.Is(err, errors.ErrUnsupported) || s != nil || enc != nil {
				t.Fatalf("case %d (kem %04x kdf %04x): NewSender: %v, want ErrUnsupported", i, c.KEMID, c.KDFID, err)
			}
			if r, err := NewRecipient(c.Enc, sk, kdf, a, c.Info); !errors.Is(err, errors.ErrUnsupported) || r != nil {
				t.Fatalf("case %d (kem %04x kdf %04x): NewRecipient: %v, want ErrUnsupported", i, c.KEMID, c.KDFID, err)
			}
			if turbo {
				refusedTurbo++
				continue
			}
			if _, err := kem.DeriveKeyPair(c.IkmR); !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("case %d: DeriveKeyPair: %v, want ErrUnsupported", i, err)
			}
			if _, err := kem.NewPrivateKey(c.SkRm); !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("case %d: NewPrivateKey: %v, want ErrUnsupported", i, err)
			}
			refusedMLKEM++
			continue
		}
		checkCase(t, i, c, kem, kdf, a)
		count[suite{c.KEMID, c.KDFID, c.AEADID}]++
		passed++
	}
	for s, n := range count {
		t.Logf("hpke-pq.json: kem 0x%04x kdf 0x%04x aead 0x%04x: %d case", s.kem, s.kdf, s.aead, n)
	}
	t.Logf("hpke-pq.json: %d cases: %d passed, %d refused (TurboSHAKE), %d refused (no ML-KEM in %s)",
		len(cases), passed, refusedTurbo, refusedMLKEM, libaead.Version())
	wantPassed, wantMLKEM := 2, 8
	if pq {
		wantPassed, wantMLKEM = 10, 0
	}
	if len(cases) != 13 || passed != wantPassed || refusedTurbo != 3 || refusedMLKEM != wantMLKEM || len(count) != passed {
		t.Fatalf("hpke-pq.json: %d cases, %d passed in %d suites, %d + %d refused; want 13, %d, 3 + %d",
			len(cases), passed, len(count), refusedTurbo, refusedMLKEM, wantPassed, wantMLKEM)
	}
}

// TestPQKEMs: the constructors and NewKEM agree; sizes of keys and enc (libaead's); with ML-KEM, round
// trips of every PQ KEM with HKDF-SHA256, SHAKE128 and SHAKE256 and every AEAD in the base and PSK
// modes, DeriveKeyPair and NewPrivateKey giving the same key, the auth modes refused, bad key lengths
// refused; without it, every key and setup call refused with AEAD_ERR_UNSUPPORTED.
func TestPQKEMs(t *testing.T) {
	sizes := map[uint16][3]int{ // enc, public key, private key
		0x0040: {768, 800, 64}, 0x0041: {1088, 1184, 64}, 0x0042: {1568, 1568, 64},
		0x0050: {1153, 1249, 32}, 0x0051: {1665, 1665, 32}, 0x647a: {1120, 1216, 32},
	}
	ctors := map[uint16]KEM{
		0x0040: MLKEM512(), 0x0041: MLKEM768(), 0x0042: MLKEM1024(),
		0x0050: MLKEM768P256(), 0x0051: MLKEM1024P384(), 0x647a: MLKEM768X25519(),
	}
	pq := mlkemExpected(t)
	r := rand.New(rand.NewSource(2))
	trips := 0
	for _, id := range pqKEMs {
		kem, err := NewKEM(id)
		if err != nil || kem != ctors[id] || kem.ID() != id {
			t.Fatalf("NewKEM(%04x): %v, %v", id, kem, err)
		}
		k := kem.(*kemImpl)
		if n := sizes[id]; k.encSize() != n[0] || k.nPk != n[1] || k.nSk != n[2] {
			t.Fatalf("kem %04x: sizes %d, %d, %d; want %v", id, k.encSize(), k.nPk, k.nSk, n)
		}
		if _, err := kem.NewPublicKey(make([]byte, k.nPk-1)); err == nil {
			t.Fatalf("kem %04x: a short public key was accepted", id)
		}
		if _, err := kem.NewPrivateKey(make([]byte, k.nSk+1)); err == nil {
			t.Fatalf("kem %04x: a long private key was accepted", id)
		}
		if !pq {
			if _, err := kem.GenerateKey(); !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("kem %04x: GenerateKey: %v, want ErrUnsupported", id, err)
			}
			pk, err := kem.NewPublicKey(make([]byte, k.nPk))
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := NewSender(pk, SHAKE256(), AES128GCM(), nil); !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("kem %04x: NewSender: %v, want ErrUnsupported", id, err)
			}
			continue
		}
		ikm := testkit.RandBytes(r, 32)
		sk, err := kem.DeriveKeyPair(ikm)
		if err != nil {
			t.Fatalf("kem %04x: DeriveKeyPair: %v", id, err)
		}
		b, _ := sk.Bytes()
		sk2, err := kem.NewPrivateKey(b)
		if err != nil || len(b) != k.nSk || len(sk.PublicKey().Bytes()) != k.nPk || !bytes.Equal(sk2.PublicKey().Bytes(), sk.PublicKey().Bytes()) {
			t.Fatalf("kem %04x: NewPrivateKey(Bytes()) is another key: %v", id, err)
		}
		for _, kdf := range []uint16{0x0001, 0x0010, 0x0011} {
			for _, a := range allAEADs {
				s := newSuite(t, id, kdf, a)
				for _, mode := range []int{0, 1} {
					pairTrip(t, r, s, mode)
					trips++
				}
				so := Options{SenderKey: sk}
				if _, _, err := so.NewSender(sk.PublicKey(), s.kdf, s.aead, nil); err == nil {
					t.Fatalf("kem %04x: the auth mode was accepted", id)
				}
			}
		}
	}
	t.Logf("PQ KEMs: %d round trips (ML-KEM expected: %v)", trips, pq)
	if want := 6 * 3 * 4 * 2; pq && trips != want {
		t.Fatalf("%d round trips, want %d", trips, want)
	}
}

// TestSHAKEWithDHKEMs: the one-stage KDFs with every DHKEM, AEAD and mode (any OpenSSL 3).
func TestSHAKEWithDHKEMs(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	trips := 0
	for _, kem := range allKEMs {
		for _, kdf := range shakeKDFs {
			if f, err := NewKDF(kdf); err != nil || f.ID() != kdf || (kdf == 0x0010) != (f == SHAKE128()) {
				t.Fatalf("NewKDF(%04x): %v", kdf, err)
			}
			for _, a := range []uint16{1, 3, 0xFFFF} {
				s := newSuite(t, kem, kdf, a)
				for mode := 0; mode < 4; mode++ {
					pairTrip(t, r, s, mode)
					trips++
				}
			}
		}
	}
	if trips != len(allKEMs)*2*3*4 {
		t.Fatalf("%d round trips", trips)
	}
}

// pairTrip sets up a pair of suite s in mode with random keys, and checks a round trip (but
// export-only) and an export.
func pairTrip(t *testing.T, r *rand.Rand, s suiteT, mode int) {
	t.Helper()
	snd, rcp := pair(t, r, s, mode, 0)
	if s.aead.ID() != 0xFFFF {
		roundTrip(t, r, snd, rcp)
	}
	e1, err1 := snd.Export("x", 64)
	e2, err2 := rcp.Export("x", 64)
	if err1 != nil || err2 != nil || !bytes.Equal(e1, e2) {
		t.Fatalf("kem %04x kdf %04x mode %d: exports differ: %v, %v", s.kem.ID(), s.kdf.ID(), mode, err1, err2)
	}
}
