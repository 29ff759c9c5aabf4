package hpke

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/ecdh"
	"errors"
	"runtime"

	libaead "github.com/libaead/libaead/bindings/go"
)

// A KEM is a Key Encapsulation Mechanism, one of the three components of an HPKE ciphersuite.
type KEM interface {
	// ID returns the HPKE KEM identifier.
	ID() uint16

	// GenerateKey generates a new key pair (from OpenSSL's DRBG).
	GenerateKey() (PrivateKey, error)

	// NewPublicKey deserializes a public key from bytes (DeserializePublicKey, RFC 9180).
	NewPublicKey([]byte) (PublicKey, error)

	// NewPrivateKey deserializes a private key from bytes (DeserializePrivateKey, RFC 9180).
	NewPrivateKey([]byte) (PrivateKey, error)

	// DeriveKeyPair derives a key pair from the given input keying material (DeriveKeyPair,
	// RFC 9180).
	DeriveKeyPair(ikm []byte) (PrivateKey, error)

	encSize() int
}

// NewKEM returns the KEM of the given RFC 9180 identifier: DHKEM(P-256, HKDF-SHA256) (0x0010),
// DHKEM(P-384, HKDF-SHA384) (0x0011), DHKEM(P-521, HKDF-SHA512) (0x0012), DHKEM(X25519,
// HKDF-SHA256) (0x0020) or DHKEM(X448, HKDF-SHA512) (0x0021). The post-quantum KEMs of crypto/hpke
// are not supported.
func NewKEM(id uint16) (KEM, error) {
	for _, k := range dhKEMs {
		if k.id == id {
			return k, nil
		}
	}
	return nil, errors.New("unsupported KEM")
}

// A PublicKey is an instantiation of a KEM with an encapsulation key (the public key).
type PublicKey interface {
	// KEM returns the instantiated KEM.
	KEM() KEM

	// Bytes returns the public key as the output of SerializePublicKey.
	Bytes() []byte

	raw() []byte
}

// A PrivateKey is an instantiation of a KEM with a decapsulation key (the secret key).
type PrivateKey interface {
	// KEM returns the instantiated KEM.
	KEM() KEM

	// Bytes returns the private key as the output of SerializePrivateKey, as defined in RFC 9180:
	// for X25519 and X448 clamped (RFC 9180 section 7.1.2), so it might not match the input to
	// NewPrivateKey.
	Bytes() ([]byte, error)

	// PublicKey returns the corresponding PublicKey.
	PublicKey() PublicKey

	raw() []byte
}

type dhKEM struct {
	id    uint16
	nEnc  int
	nSk   int
	curve ecdh.Curve // nil for X448, which crypto/ecdh does not have
}

var (
	dhKEMP256   = &dhKEM{0x0010, 65, 32, ecdh.P256()}
	dhKEMP384   = &dhKEM{0x0011, 97, 48, ecdh.P384()}
	dhKEMP521   = &dhKEM{0x0012, 133, 66, ecdh.P521()}
	dhKEMX25519 = &dhKEM{0x0020, 32, 32, ecdh.X25519()}
	dhKEMX448   = &dhKEM{0x0021, 56, 56, nil}
	dhKEMs      = []*dhKEM{dhKEMP256, dhKEMP384, dhKEMP521, dhKEMX25519, dhKEMX448}
)

// DHKEM returns the KEM of one of
//
//   - DHKEM(P-256, HKDF-SHA256)
//   - DHKEM(P-384, HKDF-SHA384)
//   - DHKEM(P-521, HKDF-SHA512)
//   - DHKEM(X25519, HKDF-SHA256)
//
// depending on curve. [DHKEMX448] gives DHKEM(X448, HKDF-SHA512), which crypto/ecdh has no curve
// for.
func DHKEM(curve ecdh.Curve) KEM {
	for _, k := range dhKEMs {
		if k.curve != nil && k.curve == curve {
			return k
		}
	}
	return unsupportedCurveKEM{}
}

// DHKEMX448 returns the KEM DHKEM(X448, HKDF-SHA512) (0x0021).
func DHKEMX448() KEM { return dhKEMX448 }

var errUnsupportedCurve = errors.New("unsupported curve")

type unsupportedCurveKEM struct{}

func (unsupportedCurveKEM) ID() uint16                               { return 0 }
func (unsupportedCurveKEM) GenerateKey() (PrivateKey, error)         { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) NewPublicKey([]byte) (PublicKey, error)   { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) NewPrivateKey([]byte) (PrivateKey, error) { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) DeriveKeyPair([]byte) (PrivateKey, error) { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) encSize() int                             { return 0 }

func (k *dhKEM) ID() uint16   { return k.id }
func (k *dhKEM) encSize() int { return k.nEnc }

type publicKey struct {
	kem *dhKEM
	pk  []byte
}

func (p *publicKey) KEM() KEM      { return p.kem }
func (p *publicKey) Bytes() []byte { return append([]byte(nil), p.pk...) }
func (p *publicKey) raw() []byte   { return p.pk }

type privateKey struct {
	kem    *dhKEM
	sk, pk []byte
}

func (p *privateKey) KEM() KEM             { return p.kem }
func (p *privateKey) PublicKey() PublicKey { return &publicKey{p.kem, p.pk} }
func (p *privateKey) raw() []byte          { return p.sk }
func (p *privateKey) Bytes() ([]byte, error) {
	b := append([]byte(nil), p.sk...)
	switch p.kem {
	case dhKEMX25519: // RFC 7748's clamping, which RFC 9180 section 7.1.2 asks of SerializePrivateKey
		b[0] &= 248
		b[31] &= 127
		b[31] |= 64
	case dhKEMX448:
		b[0] &= 252
		b[55] |= 128
	}
	return b, nil
}

// NewPublicKey checks the encoding: a point on the curve in uncompressed form for the NIST curves
// (crypto/ecdh's check), the length for X25519 and X448. A point whose shared secret is all zero is
// refused when a sender is set up.
func (k *dhKEM) NewPublicKey(data []byte) (PublicKey, error) {
	if k.curve != nil {
		if _, err := k.curve.NewPublicKey(data); err != nil {
			return nil, err
		}
	} else if len(data) != k.nEnc {
		return nil, errors.New("hpke: invalid X448 public key length")
	}
	return &publicKey{k, append([]byte(nil), data...)}, nil
}

func (k *dhKEM) NewPrivateKey(data []byte) (PrivateKey, error) {
	if len(data) != k.nSk {
		return nil, &libaead.Error{Op: "key", Code: C.AEAD_ERR_KEY_SIZE}
	}
	return k.keyPair(func(sk, pk []byte) C.int {
		copy(sk, data)
		return C.aead_hpke_public_key(C.int(k.id), bytePtr(sk), C.size_t(len(sk)), bytePtr(pk), C.size_t(len(pk)), nil)
	})
}

func (k *dhKEM) GenerateKey() (PrivateKey, error) {
	return k.keyPair(func(sk, pk []byte) C.int {
		return C.aead_hpke_generate_keypair(C.int(k.id), bytePtr(sk), C.size_t(len(sk)), bytePtr(pk), C.size_t(len(pk)), nil)
	})
}

func (k *dhKEM) DeriveKeyPair(ikm []byte) (PrivateKey, error) {
	return k.keyPair(func(sk, pk []byte) C.int {
		rc := C.aead_hpke_derive_keypair(C.int(k.id), bytePtr(ikm), C.size_t(len(ikm)), bytePtr(sk), C.size_t(len(sk)),
			bytePtr(pk), C.size_t(len(pk)), nil)
		runtime.KeepAlive(ikm)
		return rc
	})
}

// keyPair makes a private key with call, which fills the private key's bytes sk and the public key's
// pk (buffers of the KEM's sizes) and returns libaead's code.
func (k *dhKEM) keyPair(call func(sk, pk []byte) C.int) (PrivateKey, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	sk, pk := make([]byte, k.nSk), make([]byte, k.nEnc)
	if rc := call(sk, pk); rc != 0 {
		return nil, &libaead.Error{Op: "key", Code: int(rc)}
	}
	return &privateKey{k, sk, pk}, nil
}

// NewDHKEMPublicKey returns the PublicKey of pub, for DHKEM(P-256, HKDF-SHA256), DHKEM(P-384,
// HKDF-SHA384), DHKEM(P-521, HKDF-SHA512) or DHKEM(X25519, HKDF-SHA256), depending on its curve.
func NewDHKEMPublicKey(pub *ecdh.PublicKey) (PublicKey, error) {
	return DHKEM(pub.Curve()).NewPublicKey(pub.Bytes())
}
