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

// NewKEM returns the KEM of the given identifier: RFC 9180's DHKEM(P-256, HKDF-SHA256) (0x0010),
// DHKEM(P-384, HKDF-SHA384) (0x0011), DHKEM(P-521, HKDF-SHA512) (0x0012), DHKEM(X25519,
// HKDF-SHA256) (0x0020) and DHKEM(X448, HKDF-SHA512) (0x0021), or draft-ietf-hpke-pq's ML-KEM-512
// (0x0040), ML-KEM-768 (0x0041), ML-KEM-1024 (0x0042), MLKEM768-P256 (0x0050), MLKEM1024-P384
// (0x0051) and MLKEM768-X25519 (0x647a).
func NewKEM(id uint16) (KEM, error) {
	for _, k := range allKEMImpls {
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

// kemImpl is every KEM of the package: a DHKEM (pq false) or a post-quantum one.
type kemImpl struct {
	id    uint16
	curve ecdh.Curve // a DHKEM's curve; nil for X448, which crypto/ecdh does not have, and the PQ KEMs
	pq    bool
	// The sizes of enc, the public key and the private key, from libaead (loadKEMSizes).
	nEnc, nPk, nSk int
}

var (
	dhKEMP256      = &kemImpl{id: 0x0010, curve: ecdh.P256()}
	dhKEMP384      = &kemImpl{id: 0x0011, curve: ecdh.P384()}
	dhKEMP521      = &kemImpl{id: 0x0012, curve: ecdh.P521()}
	dhKEMX25519    = &kemImpl{id: 0x0020, curve: ecdh.X25519()}
	dhKEMX448      = &kemImpl{id: 0x0021}
	dhKEMs         = []*kemImpl{dhKEMP256, dhKEMP384, dhKEMP521, dhKEMX25519, dhKEMX448}
	mlkem512       = &kemImpl{id: 0x0040, pq: true}
	mlkem768       = &kemImpl{id: 0x0041, pq: true}
	mlkem1024      = &kemImpl{id: 0x0042, pq: true}
	mlkem768P256   = &kemImpl{id: 0x0050, pq: true}
	mlkem1024P384  = &kemImpl{id: 0x0051, pq: true}
	mlkem768X25519 = &kemImpl{id: 0x647a, pq: true}
	allKEMImpls    = append(dhKEMs[:len(dhKEMs):len(dhKEMs)], mlkem512, mlkem768, mlkem1024, mlkem768P256, mlkem1024P384, mlkem768X25519)
)

// loadKEMSizes takes every KEM's sizes from the loaded libaead (init, once HPKE is known to be there).
func loadKEMSizes() {
	for _, k := range allKEMImpls {
		id := C.int(k.id)
		k.nEnc = int(C.aead_hpke_enc_size(id))
		k.nPk = int(C.aead_hpke_public_key_size(id))
		k.nSk = int(C.aead_hpke_private_key_size(id))
	}
}

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

// The post-quantum KEMs of draft-ietf-hpke-pq, as crypto/hpke has them (and ML-KEM-512, which it has
// not). They need ML-KEM in OpenSSL's libcrypto (3.5 or newer): on an older one every key and setup
// call returns an error matching [errors.ErrUnsupported]. A private key is a
// seed (64 bytes for ML-KEM, 32 for the hybrids); the modes with a sender key ([Options.SenderKey])
// are refused.

// MLKEM512 returns the KEM ML-KEM-512 (0x0040).
func MLKEM512() KEM { return mlkem512 }

// MLKEM768 returns the KEM ML-KEM-768 (0x0041).
func MLKEM768() KEM { return mlkem768 }

// MLKEM1024 returns the KEM ML-KEM-1024 (0x0042).
func MLKEM1024() KEM { return mlkem1024 }

// MLKEM768P256 returns the hybrid KEM MLKEM768-P256 (0x0050).
func MLKEM768P256() KEM { return mlkem768P256 }

// MLKEM1024P384 returns the hybrid KEM MLKEM1024-P384 (0x0051).
func MLKEM1024P384() KEM { return mlkem1024P384 }

// MLKEM768X25519 returns the hybrid KEM MLKEM768-X25519, a.k.a. X-Wing (0x647a).
func MLKEM768X25519() KEM { return mlkem768X25519 }

var errUnsupportedCurve = errors.New("unsupported curve")

type unsupportedCurveKEM struct{}

func (unsupportedCurveKEM) ID() uint16                               { return 0 }
func (unsupportedCurveKEM) GenerateKey() (PrivateKey, error)         { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) NewPublicKey([]byte) (PublicKey, error)   { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) NewPrivateKey([]byte) (PrivateKey, error) { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) DeriveKeyPair([]byte) (PrivateKey, error) { return nil, errUnsupportedCurve }
func (unsupportedCurveKEM) encSize() int                             { return 0 }

func (k *kemImpl) ID() uint16   { return k.id }
func (k *kemImpl) encSize() int { return k.nEnc }

type publicKey struct {
	kem *kemImpl
	pk  []byte
}

func (p *publicKey) KEM() KEM      { return p.kem }
func (p *publicKey) Bytes() []byte { return append([]byte(nil), p.pk...) }
func (p *publicKey) raw() []byte   { return p.pk }

type privateKey struct {
	kem    *kemImpl
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
// (crypto/ecdh's check), the length for X25519, X448 and the post-quantum KEMs. A point whose shared
// secret is all zero, and a post-quantum key that OpenSSL refuses, are refused when a sender is set up.
func (k *kemImpl) NewPublicKey(data []byte) (PublicKey, error) {
	if k.curve != nil {
		if _, err := k.curve.NewPublicKey(data); err != nil {
			return nil, err
		}
	} else if abiErr != nil {
		return nil, abiErr
	} else if len(data) != k.nPk {
		return nil, errors.New("hpke: invalid public key length")
	}
	return &publicKey{k, append([]byte(nil), data...)}, nil
}

func (k *kemImpl) NewPrivateKey(data []byte) (PrivateKey, error) {
	if len(data) != k.nSk {
		return nil, &libaead.Error{Op: "key", Code: C.AEAD_ERR_KEY_SIZE}
	}
	return k.keyPair(func(sk, pk []byte) C.int {
		copy(sk, data)
		return C.aead_hpke_public_key(C.int(k.id), bytePtr(sk), C.size_t(len(sk)), bytePtr(pk), C.size_t(len(pk)), nil)
	})
}

func (k *kemImpl) GenerateKey() (PrivateKey, error) {
	return k.keyPair(func(sk, pk []byte) C.int {
		return C.aead_hpke_generate_keypair(C.int(k.id), bytePtr(sk), C.size_t(len(sk)), bytePtr(pk), C.size_t(len(pk)), nil)
	})
}

func (k *kemImpl) DeriveKeyPair(ikm []byte) (PrivateKey, error) {
	return k.keyPair(func(sk, pk []byte) C.int {
		rc := C.aead_hpke_derive_keypair(C.int(k.id), bytePtr(ikm), C.size_t(len(ikm)), bytePtr(sk), C.size_t(len(sk)),
			bytePtr(pk), C.size_t(len(pk)), nil)
		runtime.KeepAlive(ikm)
		return rc
	})
}

// keyPair makes a private key with call, which fills the private key's bytes sk and the public key's
// pk (buffers of the KEM's sizes) and returns libaead's code.
func (k *kemImpl) keyPair(call func(sk, pk []byte) C.int) (PrivateKey, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	sk, pk := make([]byte, k.nSk), make([]byte, k.nPk)
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
