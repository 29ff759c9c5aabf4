package hpke

import "testing"

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
	k, err := newKEM(kem)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newKDF(kdf)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newAEAD(aead)
	if err != nil {
		t.Fatal(err)
	}
	return suiteOf[K, F, A]{k, f, a}
}
