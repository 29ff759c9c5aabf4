//go:build go1.26

package hpke

import (
	"bytes"
	"crypto/ecdh"
	stdhpke "crypto/hpke"
	crand "crypto/rand"
	"math/rand"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// exporter is the Export method that both packages' contexts have.
type exporter interface {
	Export(string, int) ([]byte, error)
}

// TestInteropCryptoHPKE runs this package against Go's own crypto/hpke (an independent
// implementation, in the same process) on random cases: every suite both have (P-256, P-384, P-521
// and X25519 with each KDF and AEAD; crypto/hpke has the base mode only), random info, AAD, message
// lengths and numbers of messages, keys made by either side. Half the cases seal here and open
// there, half the other way round. Before each genuine message the receiving side is given a
// tampered one (a flipped bit in the ciphertext, or in the AAD) and must refuse it; both sides must
// derive the same exports; a quarter of the cases also seal and open single-shot both ways.
func TestInteropCryptoHPKE(t *testing.T) {
	kems := []uint16{0x0010, 0x0011, 0x0012, 0x0020}
	interop(t, "", 0x4850_4b45, 2400, 1000, func(r *rand.Rand) (uint16, uint16, uint16) {
		return kems[r.Intn(len(kems))], uint16(1 + r.Intn(3)), stdAEADs[r.Intn(len(stdAEADs))]
	})
}

// TestInteropCryptoHPKEPQ: as TestInteropCryptoHPKE, with draft-ietf-hpke-pq's KEMs that crypto/hpke
// has (ML-KEM-768, ML-KEM-1024, MLKEM768-P256, MLKEM1024-P384, MLKEM768-X25519) and its one-stage
// KDFs SHAKE128 and SHAKE256 beside HKDF. Without ML-KEM in libcrypto (OpenSSL before 3.5) the
// DHKEMs with the SHAKE KDFs only (TestPQVectors and TestPQKEMs assert the PQ KEMs' refusals).
func TestInteropCryptoHPKEPQ(t *testing.T) {
	kems := []uint16{0x0041, 0x0042, 0x0050, 0x0051, 0x647a}
	kdfs := []uint16{0x0001, 0x0002, 0x0003, 0x0010, 0x0011}
	name := "post-quantum KEMs, HKDF and SHAKE"
	if !mlkemExpected(t) {
		kems, kdfs, name = []uint16{0x0010, 0x0011, 0x0012, 0x0020}, shakeKDFs, "DHKEMs with SHAKE (no ML-KEM in libcrypto)"
	}
	interop(t, name+": ", 0x5051_4b45, 500, 200, func(r *rand.Rand) (uint16, uint16, uint16) {
		return kems[r.Intn(len(kems))], kdfs[r.Intn(len(kdfs))], stdAEADs[r.Intn(len(stdAEADs))]
	})
}

var stdAEADs = []uint16{0x0001, 0x0002, 0x0003, 0xFFFF}

// interop runs cases random cases, the suite of each from pick (seeded with seed), half in each
// direction, and fails unless each direction had at least min. Under the race detector an eighth of
// them: these cases run one goroutine, so more of them find no more races, and the run without the
// detector (bindings/go/test.py runs both) has them all.
func interop(t *testing.T, name string, seed int64, cases, min int, pick func(*rand.Rand) (uint16, uint16, uint16)) {
	if raceBuild {
		cases, min = cases/8, min/8
	}
	r := rand.New(rand.NewSource(seed))
	var dir [2]struct{ cases, messages, tampered, exports, single int }
	for i := 0; i < cases; i++ {
		kemID, kdfID, aeadID := pick(r)
		ours := newSuite(t, kemID, kdfID, aeadID)
		theirs := stdSuite(t, kemID, kdfID, aeadID)
		// The recipient's key pair, made by either side and carried over as bytes.
		var skOurs PrivateKey
		var skStd stdhpke.PrivateKey
		var err error
		if r.Intn(2) == 0 {
			skOurs, err = ours.kem.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := skOurs.Bytes()
			skStd, err = theirs.kem.NewPrivateKey(b)
		} else {
			skStd, err = theirs.kem.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := skStd.Bytes()
			skOurs, err = ours.kem.NewPrivateKey(b)
		}
		if err != nil {
			t.Fatalf("case %d: key carried over: %v", i, err)
		}
		if !bytes.Equal(skOurs.PublicKey().Bytes(), skStd.PublicKey().Bytes()) {
			t.Fatalf("case %d: the two public keys of one private key differ", i)
		}
		info := testkit.RandBytes(r, r.Intn(65))
		d := i % 2 // 0: libaead seals, crypto/hpke opens; 1: the other way
		var seal func(aad, pt []byte) ([]byte, error)
		var open func(aad, ct []byte) ([]byte, error)
		var sx, rx exporter
		if d == 0 {
			pkOurs, err := ours.kem.NewPublicKey(skStd.PublicKey().Bytes())
			if err != nil {
				t.Fatal(err)
			}
			enc, s, err := NewSender(pkOurs, ours.kdf, ours.aead, info)
			if err != nil {
				t.Fatalf("case %d: NewSender: %v", i, err)
			}
			rcp, err := stdhpke.NewRecipient(enc, skStd, theirs.kdf, theirs.aead, info)
			if err != nil {
				t.Fatalf("case %d: crypto/hpke NewRecipient: %v", i, err)
			}
			seal, open, sx, rx = s.Seal, rcp.Open, s, rcp
		} else {
			enc, s, err := stdhpke.NewSender(skStd.PublicKey(), theirs.kdf, theirs.aead, info)
			if err != nil {
				t.Fatalf("case %d: crypto/hpke NewSender: %v", i, err)
			}
			rcp, err := NewRecipient(enc, skOurs, ours.kdf, ours.aead, info)
			if err != nil {
				t.Fatalf("case %d: NewRecipient: %v", i, err)
			}
			seal, open, sx, rx = s.Seal, rcp.Open, s, rcp
		}
		st := &dir[d]
		st.cases++
		if aeadID != 0xFFFF {
			for m, n := 0, 1+r.Intn(4); m < n; m++ {
				aad := testkit.RandBytes(r, r.Intn(65))
				size := r.Intn(300)
				if r.Intn(8) == 0 {
					size = r.Intn(20000)
				}
				pt := testkit.RandBytes(r, size)
				ct, err := seal(aad, pt)
				if err != nil || len(ct) != len(pt)+16 {
					t.Fatalf("case %d message %d: Seal: %d bytes, %v", i, m, len(ct), err)
				}
				bad, badAAD := append([]byte(nil), ct...), aad
				if len(aad) > 0 && r.Intn(4) == 0 {
					badAAD = append([]byte(nil), aad...)
					badAAD[r.Intn(len(aad))] ^= 1 << r.Intn(8)
				} else {
					bad[r.Intn(len(bad))] ^= 1 << r.Intn(8)
				}
				if _, err := open(badAAD, bad); err == nil {
					t.Fatalf("case %d message %d: a tampered message opened", i, m)
				}
				st.tampered++
				got, err := open(aad, ct)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("case %d (direction %d, kem %04x kdf %04x aead %04x) message %d: Open: %v", i, d, kemID, kdfID, aeadID, m, err)
				}
				st.messages++
			}
		}
		for x, n := 0, 1+r.Intn(3); x < n; x++ {
			ctx, l := string(testkit.RandBytes(r, r.Intn(41))), r.Intn(200)
			a, err1 := sx.Export(ctx, l)
			b, err2 := rx.Export(ctx, l)
			if err1 != nil || err2 != nil || len(a) != l || !bytes.Equal(a, b) {
				t.Fatalf("case %d: exports differ (%v, %v)", i, err1, err2)
			}
			st.exports++
		}
		if aeadID != 0xFFFF && i%4 < 2 {
			pt := testkit.RandBytes(r, r.Intn(200))
			var ct, got []byte
			if d == 0 {
				pk, _ := ours.kem.NewPublicKey(skStd.PublicKey().Bytes())
				if ct, err = Seal(pk, ours.kdf, ours.aead, info, pt); err == nil {
					got, err = stdhpke.Open(skStd, theirs.kdf, theirs.aead, info, ct)
				}
			} else if ct, err = stdhpke.Seal(skStd.PublicKey(), theirs.kdf, theirs.aead, info, pt); err == nil {
				got, err = Open(skOurs, ours.kdf, ours.aead, info, ct)
			}
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("case %d: single-shot: %v", i, err)
			}
			st.single++
		}
	}
	for d, dname := range []string{"libaead seals, crypto/hpke opens", "crypto/hpke seals, libaead opens"} {
		st := dir[d]
		t.Logf("interop crypto/hpke (seed %#x): %s%s: %d cases, %d messages, %d tampered refused, %d exports equal, %d single-shot",
			seed, name, dname, st.cases, st.messages, st.tampered, st.exports, st.single)
		if st.cases < min {
			t.Fatalf("%s%s: %d cases, want at least %d", name, dname, st.cases, min)
		}
	}
}

type stdSuiteT = suiteOf[stdhpke.KEM, stdhpke.KDF, stdhpke.AEAD]

func stdSuite(t testing.TB, kem, kdf, aead uint16) stdSuiteT {
	t.Helper()
	return makeSuite(t, stdhpke.NewKEM, stdhpke.NewKDF, stdhpke.NewAEAD, kem, kdf, aead)
}

type wrapped struct{ ecdh.KeyExchanger }

// TestKeyExchanger: NewDHKEMPrivateKey refuses a KeyExchanger that does not reveal its key.
func TestKeyExchanger(t *testing.T) {
	k, err := ecdh.P256().GenerateKey(crand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewDHKEMPrivateKey(k); err != nil {
		t.Fatal(err)
	}
	if _, err := NewDHKEMPrivateKey(wrapped{k}); err == nil {
		t.Fatal("a KeyExchanger that is not an *ecdh.PrivateKey was accepted")
	}
}
