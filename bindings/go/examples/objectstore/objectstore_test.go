package objectstore_test

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"os"
	"testing"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/examples/objectstore"
)

// fipsStage: the project's FIPS stage runs these tests with AEAD_TEST_FIPS=1 under OpenSSL's FIPS
// provider (tests/fips/env.sh), where every libaead seal must be approved; elsewhere none is.
var fipsStage = os.Getenv("AEAD_TEST_FIPS") == "1"

// watched is a libaead AEAD whose Seals are counted, approved ones apart (aead.IndicatorOf).
type watched struct {
	cipher.AEAD
	seals, approved *int
}

func (w watched) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	out := w.AEAD.Seal(dst, nonce, plaintext, additionalData)
	*w.seals++
	if ind, ok := aead.IndicatorOf(w.AEAD); ok && ind.SealApproved && ind.FIPSProvider {
		*w.approved++
	}
	return out
}

// watchedCounterGCM is aead.NewGCMWithCounterNonce with its seals counted into seals and approved.
func watchedCounterGCM(seals, approved *int) objectstore.NewAEAD {
	return func(key []byte) (cipher.AEAD, error) {
		a, err := aead.NewGCMWithCounterNonce(key)
		if err != nil {
			return nil, err
		}
		return watched{a, seals, approved}, nil
	}
}

// checkApproved fails t unless the FIPS indicator approved all the seals under the FIPS stage's
// provider, and none elsewhere.
func checkApproved(t *testing.T, seals, approved int) {
	t.Helper()
	want := 0
	if fipsStage {
		want = seals
	}
	if seals == 0 || approved != want {
		t.Fatalf("%d of %d seals approved by the FIPS indicator, want %d (FIPS stage: %v)", approved, seals, want, fipsStage)
	}
}

var sizes = []int{0, 1, objectstore.ChunkSize - 1, objectstore.ChunkSize, objectstore.ChunkSize + 1, 3*objectstore.ChunkSize + 5}

// TestEverySealApproved: objects of every chunk layout sealed with libaead's counter-nonce GCM, the
// FIPS indicator approving every seal under a FIPS provider; each object is byte for byte what the
// same code writes with crypto/cipher's NewGCM, and each opens with either.
func TestEverySealApproved(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var seals, approved int
	libaead := watchedCounterGCM(&seals, &approved)
	for _, n := range sizes {
		key, content := make([]byte, 32), make([]byte, n)
		r.Read(key)
		r.Read(content)
		obj, err := objectstore.Seal(libaead, key, content)
		if err != nil {
			t.Fatal(err)
		}
		std, err := objectstore.Seal(objectstore.StdlibGCM, key, content)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(obj, std) {
			t.Fatalf("%d bytes: libaead's object differs from crypto/cipher's", n)
		}
		for _, open := range []objectstore.NewAEAD{objectstore.StdlibGCM, aead.NewGCMWithCounterNonce} {
			if back, err := objectstore.Open(open, key, obj); err != nil || !bytes.Equal(back, content) {
				t.Fatalf("%d bytes: %v", n, err)
			}
		}
	}
	if want := 1 + 1 + 1 + 1 + 2 + 4; seals != want {
		t.Fatalf("%d seals, want %d (one per chunk)", seals, want)
	}
	checkApproved(t, seals, approved)
}

// TestCorrupt: a changed byte, a cut after any chunk, swapped chunks and another key do not open.
func TestCorrupt(t *testing.T) {
	key, _ := objectstore.NewKey()
	content := bytes.Repeat([]byte("chunk"), 3*objectstore.ChunkSize/5+1)
	obj, err := objectstore.Seal(aead.NewGCMWithCounterNonce, key, content)
	if err != nil {
		t.Fatal(err)
	}
	sealed := objectstore.ChunkSize + 16
	a, b := obj[:sealed], obj[sealed:2*sealed]
	swapped := append(append(append([]byte{}, b...), a...), obj[2*sealed:]...)
	flipped := append([]byte{}, obj...)
	flipped[sealed+7] ^= 1
	otherKey, _ := objectstore.NewKey()
	for name, c := range map[string]struct {
		key, obj []byte
	}{
		"flipped": {key, flipped}, "cut after 1": {key, obj[:sealed]}, "cut after 2": {key, obj[:2*sealed]},
		"cut inside": {key, obj[:len(obj)-1]}, "swapped": {key, swapped}, "empty": {key, nil}, "other key": {otherKey, obj},
	} {
		if _, err := objectstore.Open(aead.NewGCMWithCounterNonce, c.key, c.obj); !errors.Is(err, objectstore.ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
