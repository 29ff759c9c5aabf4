package hpke

import "fmt"

// The KDF is one of the three components of an HPKE ciphersuite, implementing key derivation.
type KDF interface {
	ID() uint16
	size() int // Nh, the hash's output size
}

// NewKDF returns the KDF of the given identifier: RFC 9180's HKDF-SHA256 (0x0001), HKDF-SHA384
// (0x0002) or HKDF-SHA512 (0x0003), or draft-ietf-hpke-pq's one-stage SHAKE128 (0x0010) or SHAKE256
// (0x0011).
func NewKDF(id uint16) (KDF, error) {
	for _, k := range allKDFImpls {
		if k.id == id {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unsupported KDF %04x", id)
}

type kdfImpl struct {
	id uint16
	nH int
}

func (k *kdfImpl) ID() uint16 { return k.id }
func (k *kdfImpl) size() int  { return k.nH }

var (
	hkdfSHA256  = &kdfImpl{0x0001, 32}
	hkdfSHA384  = &kdfImpl{0x0002, 48}
	hkdfSHA512  = &kdfImpl{0x0003, 64}
	shake128    = &kdfImpl{0x0010, 32}
	shake256    = &kdfImpl{0x0011, 64}
	allKDFImpls = []*kdfImpl{hkdfSHA256, hkdfSHA384, hkdfSHA512, shake128, shake256}
)

// HKDFSHA256 returns the HKDF-SHA256 KDF.
func HKDFSHA256() KDF { return hkdfSHA256 }

// HKDFSHA384 returns the HKDF-SHA384 KDF.
func HKDFSHA384() KDF { return hkdfSHA384 }

// HKDFSHA512 returns the HKDF-SHA512 KDF.
func HKDFSHA512() KDF { return hkdfSHA512 }

// SHAKE128 returns the one-stage SHAKE128 KDF of draft-ietf-hpke-pq (with every KEM, on any
// OpenSSL 3).
func SHAKE128() KDF { return shake128 }

// SHAKE256 returns the one-stage SHAKE256 KDF of draft-ietf-hpke-pq.
func SHAKE256() KDF { return shake256 }

// The AEAD is one of the three components of an HPKE ciphersuite, implementing symmetric
// encryption.
type AEAD interface {
	ID() uint16
	exportOnly() bool
}

// NewAEAD returns the AEAD of the given RFC 9180 identifier: AES-128-GCM (0x0001), AES-256-GCM
// (0x0002), ChaCha20-Poly1305 (0x0003) or export-only (0xFFFF).
func NewAEAD(id uint16) (AEAD, error) {
	switch id {
	case 0x0001, 0x0002, 0x0003, 0xFFFF: // AES128GCM() ... ExportOnly(): each AEAD value is its identifier
		return aeadID(id), nil
	default:
		return nil, fmt.Errorf("unsupported AEAD %04x", id)
	}
}

type aeadID uint16

func (a aeadID) ID() uint16       { return uint16(a) }
func (a aeadID) exportOnly() bool { return a == 0xFFFF }

// AES128GCM returns the AES-128-GCM AEAD.
func AES128GCM() AEAD { return aeadID(0x0001) }

// AES256GCM returns the AES-256-GCM AEAD.
func AES256GCM() AEAD { return aeadID(0x0002) }

// ChaCha20Poly1305 returns the ChaCha20-Poly1305 AEAD.
func ChaCha20Poly1305() AEAD { return aeadID(0x0003) }

// ExportOnly returns the placeholder AEAD of the export-only suites: its contexts cannot seal or
// open, only export secrets with [Sender.Export] or [Recipient.Export]; [Sender.Seal] and
// [Recipient.Open] return errors.
func ExportOnly() AEAD { return aeadID(0xFFFF) }
