package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"runtime"
)

// Indicator is what libaead knows about an AEAD's FIPS status (aead_ctx_indicator). It is fixed
// for the life of the AEAD. The validated boundary is the provider's: see docs/fips.md.
type Indicator struct {
	// Provider names the OpenSSL provider the cipher was fetched from ("default", "fips", ...).
	Provider string
	// FIPSProvider: the cipher comes from a provider that reports itself FIPS.
	FIPSProvider bool
	// SealApproved: Seal is an approved use, i.e. a FIPS provider, AES-GCM with a 16-byte tag and a
	// nonce construction of FIPS 140-3 IG C.H that libaead enforces (the TLS AEADs: scenario 1.a;
	// NewGCMWithRandomNonce: scenario 2; the counter-nonce AEADs: scenario 3; NewGCMForSSH:
	// scenario 1.d; the QUIC AEADs: scenario 5). Never for NewGCM and the other caller-chosen nonces.
	SealApproved bool
	// OpenApproved: Open is an approved use (a FIPS provider and AES-GCM).
	OpenApproved bool
}

// IndicatorOf returns the indicator of an AEAD made by this package; ok is false for any other
// cipher.AEAD.
func IndicatorOf(a cipher.AEAD) (ind Indicator, ok bool) {
	impl := implOf(a)
	if impl == nil {
		return Indicator{}, false
	}
	bits := uint32(C.aead_ctx_indicator(impl.ctx))
	ind = Indicator{
		Provider:     C.GoString(C.aead_ctx_provider(impl.ctx)),
		FIPSProvider: bits&C.AEAD_IND_FIPS_PROVIDER != 0,
		SealApproved: bits&C.AEAD_IND_SEAL_APPROVED != 0,
		OpenApproved: bits&C.AEAD_IND_OPEN_APPROVED != 0,
	}
	runtime.KeepAlive(impl)
	return ind, true
}

// implOf returns the C context holder of an AEAD made by this package, or nil.
func implOf(a cipher.AEAD) *aeadImpl {
	switch v := a.(type) {
	case *aeadImpl:
		return v
	case *randomNonceAEAD:
		return v.a
	case *AESSIV:
		return v.a
	}
	return nil
}
