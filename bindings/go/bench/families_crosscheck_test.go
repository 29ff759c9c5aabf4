package bench

// Differential tests of the 1.2 families against independent Go implementations (test-only
// dependencies of this module): x/crypto's NewX (XChaCha20-Poly1305), pion/dtls's ccm (AES-CCM),
// ProtonMail/go-crypto's ocb (AES-OCB3, RFC 7253), tink-go's AES-GCM-SIV (AES-128/256; its nonce
// is random, so ours seals with tink's nonce and must give tink's bytes).

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"testing"

	"github.com/ProtonMail/go-crypto/ocb"
	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
	"github.com/pion/dtls/v3/pkg/crypto/ccm"
	tinkaead "github.com/tink-crypto/tink-go/v2/aead/subtle"
	"golang.org/x/crypto/chacha20poly1305"
)

// newPair makes ours and the reference's AEAD on key; an error fails t.
func newPair(t *testing.T, key []byte, ours, ref func([]byte) (cipher.AEAD, error)) (cipher.AEAD, cipher.AEAD) {
	t.Helper()
	return testkit.MustNew(t, ours, key), testkit.MustNew(t, ref, key)
}

// diffBoth: ours and ref seal the same bytes, each opens the other's, and (tamper) a modified
// message fails on both.
func diffBoth(t *testing.T, r *rand.Rand, a, ref cipher.AEAD, size int, tamper bool) {
	t.Helper()
	nonce, aad, pt := randBytes(r, a.NonceSize()), randBytes(r, r.Intn(301)), randBytes(r, size)
	ours, theirs := a.Seal(nil, nonce, pt, aad), ref.Seal(nil, nonce, pt, aad)
	if !bytes.Equal(ours, theirs) {
		t.Fatalf("size %d, nonce %d, aad %d: Seal differs from the reference", size, len(nonce), len(aad))
	}
	if got, err := ref.Open(nil, nonce, ours, aad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("size %d: the reference cannot open ours: %v", size, err)
	}
	if got, err := a.Open(nil, nonce, theirs, aad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("size %d: cannot open the reference's: %v", size, err)
	}
	if tamper {
		bad := append([]byte{}, theirs...)
		bad[r.Intn(len(bad))] ^= byte(1 + r.Intn(255))
		_, e1 := a.Open(nil, nonce, bad, aad)
		_, e2 := ref.Open(nil, nonce, bad, aad)
		if !errors.Is(e1, aead.ErrOpen) || e2 == nil {
			t.Fatalf("size %d: tampered message accepted (ours %v, reference %v)", size, e1, e2)
		}
	}
}

func TestDifferentialXChaCha20Poly1305(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	n := 0
	for _, size := range diffSizes(r, 150) {
		a, ref := newPair(t, randBytes(r, 32), aead.NewXChaCha20Poly1305, chacha20poly1305.NewX)
		if a.NonceSize() != ref.NonceSize() || a.Overhead() != ref.Overhead() {
			t.Fatalf("sizes %d/%d, x/crypto %d/%d", a.NonceSize(), a.Overhead(), ref.NonceSize(), ref.Overhead())
		}
		diffBoth(t, r, a, ref, size, n%5 == 4)
		n++
	}
	// The random-nonce form: x/crypto opens nonce || rest with the first 24 bytes as nonce.
	key := randBytes(r, 32)
	g, _ := aead.NewXChaCha20Poly1305WithRandomNonce(key)
	ref, _ := chacha20poly1305.NewX(key)
	for _, size := range []int{0, 1, 64, 1000, 70000} {
		aad, pt := randBytes(r, r.Intn(50)), randBytes(r, size)
		ct := g.Seal(nil, nil, pt, aad)
		if got, err := ref.Open(nil, ct[:24], ct[24:], aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("random nonce, size %d: x/crypto cannot open it: %v", size, err)
		}
		n++
	}
	t.Logf("%d cases against x/crypto NewX", n)
}

// TestXChaChaPanicsMatchXCrypto: wrong nonce lengths and overlaps panic with x/crypto's texts.
func TestXChaChaPanicsMatchXCrypto(t *testing.T) {
	a, _ := aead.NewXChaCha20Poly1305(make([]byte, 32))
	ref, _ := chacha20poly1305.NewX(make([]byte, 32))
	buf := make([]byte, 200)
	for name, f := range map[string]func(c cipher.AEAD){
		"seal 12-byte nonce": func(c cipher.AEAD) { c.Seal(nil, make([]byte, 12), nil, nil) },
		"open 25-byte nonce": func(c cipher.AEAD) { c.Open(nil, make([]byte, 25), make([]byte, 16), nil) },
		"seal overlap":       func(c cipher.AEAD) { c.Seal(buf[1:1], make([]byte, 24), buf[:64], nil) },
	} {
		got, want := panicText(func() { f(a) }), panicText(func() { f(ref) })
		if got == "" || got != want {
			t.Errorf("%s: panic %q, x/crypto %q", name, got, want)
		}
	}
	if _, err := aead.NewXChaCha20Poly1305(make([]byte, 16)); err == nil {
		t.Fatal("16-byte key accepted")
	} else if _, err2 := chacha20poly1305.NewX(make([]byte, 16)); err.Error() != err2.Error() {
		t.Errorf("key error %q, x/crypto %q", err, err2)
	}
}

func TestDifferentialCCM(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	n := 0
	for _, size := range diffSizes(r, 100) {
		key := randBytes(r, []int{16, 24, 32}[r.Intn(3)])
		nonceSize, tagSize := 7+r.Intn(7), 4+2*r.Intn(7)
		if nonceSize == 13 && size >= 1<<16 {
			nonceSize = 12
		}
		a, err := aead.NewCCM(key, nonceSize, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := aes.NewCipher(key)
		ref, err := ccm.NewCCM(b, tagSize, nonceSize)
		if err != nil {
			t.Fatal(err)
		}
		diffBoth(t, r, a, ref, size, n%5 == 4)
		n++
	}
	t.Logf("%d cases against pion/dtls ccm (nonce 7..13, tag 4..16)", n)
}

func TestDifferentialOCB3(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	n := 0
	for _, size := range diffSizes(r, 100) {
		key := randBytes(r, []int{16, 24, 32}[r.Intn(3)])
		nonceSize := 12
		if n%2 == 1 {
			nonceSize = 1 + r.Intn(15)
		}
		a, err := aead.NewOCB3WithNonceSize(key, nonceSize)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := aes.NewCipher(key)
		ref, err := ocb.NewOCBWithNonceAndTagSize(b, nonceSize, 16)
		if err != nil {
			t.Fatal(err)
		}
		diffBoth(t, r, a, ref, size, n%5 == 4)
		n++
	}
	t.Logf("%d cases against ProtonMail/go-crypto ocb (nonce 1..15)", n)
}

// gcmSIVAvailable: the loaded libcrypto is OpenSSL 3.2 or newer (else NewGCMSIV must refuse, which
// the binding's own TestGCMSIVAvailability checks).
func gcmSIVAvailable(t *testing.T) bool { return opensslAtLeast(t, 3, 2, "AEAD_REQUIRE_GCM_SIV") }

// opensslAtLeast: the loaded libcrypto is OpenSSL major.minor or newer; require=1 in the
// environment (test.py sets the variables on a vendored build) makes an older one a failure.
func opensslAtLeast(t *testing.T, major, minor int, require string) bool {
	return testkit.OpenSSLAtLeast(t, aead.Version(), major, minor, require)
}

func TestDifferentialGCMSIV(t *testing.T) {
	if !gcmSIVAvailable(t) {
		if _, err := aead.NewGCMSIV(make([]byte, 16)); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("GCM-SIV on %s: %v, want ErrUnsupported", aead.Version(), err)
		}
		t.Skipf("AES-GCM-SIV needs OpenSSL >= 3.2; loaded %s (refusal checked)", aead.Version())
	}
	r := rand.New(rand.NewSource(24))
	n := 0
	for _, size := range diffSizes(r, 100) {
		key := randBytes(r, []int{16, 32}[r.Intn(2)]) // tink has no AES-192-GCM-SIV
		a, err := aead.NewGCMSIV(key)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := tinkaead.NewAESGCMSIV(key)
		if err != nil {
			t.Fatal(err)
		}
		aad, pt := randBytes(r, r.Intn(301)), randBytes(r, size)
		theirs, err := ref.Encrypt(pt, aad) // nonce(12) || ciphertext || tag
		if err != nil {
			t.Fatal(err)
		}
		nonce := theirs[:12]
		ours := a.Seal(nil, nonce, pt, aad)
		if !bytes.Equal(ours, theirs[12:]) {
			t.Fatalf("size %d: Seal differs from tink's", size)
		}
		if got, err := a.Open(nil, nonce, theirs[12:], aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: cannot open tink's: %v", size, err)
		}
		if got, err := ref.Decrypt(append(append([]byte{}, nonce...), ours...), aad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: tink cannot open ours: %v", size, err)
		}
		if n%5 == 4 {
			bad := append([]byte{}, theirs...)
			bad[12+r.Intn(len(bad)-12)] ^= byte(1 + r.Intn(255))
			_, e1 := a.Open(nil, nonce, bad[12:], aad)
			_, e2 := ref.Decrypt(bad, aad)
			if !errors.Is(e1, aead.ErrOpen) || e2 == nil {
				t.Fatalf("size %d: tampered message accepted (ours %v, tink %v)", size, e1, e2)
			}
		}
		n++
	}
	t.Logf("%d cases against tink-go AES-GCM-SIV (128/256)", n)
}
