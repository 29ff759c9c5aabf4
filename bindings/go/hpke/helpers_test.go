package hpke

import "testing"

type suiteT struct {
	kem  KEM
	kdf  KDF
	aead AEAD
}

func newSuite(t testing.TB, kem, kdf, aead uint16) suiteT {
	t.Helper()
	k, err := NewKEM(kem)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewKDF(kdf)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAEAD(aead)
	if err != nil {
		t.Fatal(err)
	}
	return suiteT{k, f, a}
}
