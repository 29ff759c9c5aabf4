package hpke

import (
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// suiteOf is an HPKE ciphersuite's three components: this package's (suiteT) or crypto/hpke's
// (stdSuiteT, in the interop tests).
type suiteOf[K, F, A any] struct {
	kem  K
	kdf  F
	aead A
}

type suiteT = suiteOf[KEM, KDF, AEAD]

func newSuite(t testing.TB, kem, kdf, aead uint16) suiteT {
	t.Helper()
	return makeSuite(t, NewKEM, NewKDF, NewAEAD, kem, kdf, aead)
}

// makeSuite makes the components of the suite (kem, kdf, aead) with the given constructors; an
// error fails t.
func makeSuite[K, F, A any](t testing.TB, newKEM func(uint16) (K, error), newKDF func(uint16) (F, error),
	newAEAD func(uint16) (A, error), kem, kdf, aead uint16) suiteOf[K, F, A] {
	t.Helper()
	return suiteOf[K, F, A]{
		testkit.MustNew(t, newKEM, kem), testkit.MustNew(t, newKDF, kdf), testkit.MustNew(t, newAEAD, aead),
	}
}
