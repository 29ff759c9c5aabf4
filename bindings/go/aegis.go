package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"errors"
	"strconv"
)

// The AEGIS family (RFC 10032; library 1.7): AEGIS-128L, AEGIS-256 and their two- and four-lane
// forms, computed by libaegis inside libaead (not by OpenSSL). The nonce is as long as the key (16
// or 32 bytes); tags are 16 bytes, or 32 with the ...WithTagSize constructors. Each is a
// cipher.AEAD like the others: one cgo call per Seal or Open, safe for concurrent use.

// aegisMaxPlain is RFC 10032's P_MAX (and A_MAX): 2^61 - 1 bytes.
const aegisMaxPlain = 1<<61 - 1

var (
	aegisMessages       = familyMessages("AEGIS")
	aegisRandomMessages = func() messages {
		m := aegisMessages
		m.nonceSeal = "aead: non-empty nonce passed to AEGIS with random nonces"
		m.nonceOpen = m.nonceSeal
		return m
	}()
)

// aegisVariant is one member of the family: its identifier, name and key (= nonce) length.
type aegisVariant struct {
	alg  int
	name string
	key  int
}

var (
	aegis128L  = aegisVariant{C.AEAD_AEGIS_128L, "AEGIS-128L", 16}
	aegis128X2 = aegisVariant{C.AEAD_AEGIS_128X2, "AEGIS-128X2", 16}
	aegis128X4 = aegisVariant{C.AEAD_AEGIS_128X4, "AEGIS-128X4", 16}
	aegis256   = aegisVariant{C.AEAD_AEGIS_256, "AEGIS-256", 32}
	aegis256X2 = aegisVariant{C.AEAD_AEGIS_256X2, "AEGIS-256X2", 32}
	aegis256X4 = aegisVariant{C.AEAD_AEGIS_256X4, "AEGIS-256X4", 32}
)

// newAEGIS checks the key and tag lengths (with errors naming the rule, before C sees them) and
// makes the context: nonces of the key's length, or drawn by the library when random.
func (o Options) newAEGIS(v aegisVariant, key []byte, tagSize int, random bool) (cipher.AEAD, error) {
	if len(key) != v.key {
		return nil, errors.New("aead: " + v.name + " key must be " + strconv.Itoa(v.key) + " bytes, got " + strconv.Itoa(len(key)))
	}
	if tagSize != 16 && tagSize != 32 {
		return nil, errors.New("aead: AEGIS tag size must be 16 or 32 bytes, got " + strconv.Itoa(tagSize))
	}
	if !random {
		return aeadOrNil(newAEAD(v.alg, C.AEAD_POLICY_NONE, key, v.key, tagSize, aegisMaxPlain, &aegisMessages, o.Properties, nil))
	}
	a, err := newAEAD(v.alg, C.AEAD_POLICY_RANDOM_NONCE, key, 0, tagSize, aegisMaxPlain, &aegisRandomMessages, o.Properties, nil)
	if err != nil {
		return nil, err
	}
	return &randomNonceAEAD{a, v.key}, nil
}

// NewAEGIS128L returns AEGIS-128L (RFC 10032): a 16-byte key, a 16-byte nonce and a 16-byte tag.
// Plaintexts and additional data up to 2^61-1 bytes. Nonces may be drawn at random for up to 2^48
// messages per key; the caller must never reuse one with the same key. Not FIPS-approved: under
// Options{Properties: "fips=yes"} the constructor fails with an error matching
// errors.ErrUnsupported. Without hardware AES, libaegis is slow and its software AES is not
// guaranteed constant-time (prefer XChaCha20-Poly1305 there).
func NewAEGIS128L(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS128L(key) }

// NewAEGIS128X2 returns AEGIS-128X2 (RFC 10032): AEGIS-128L on two lanes, faster where the CPU
// has wide vector AES (VAES), with NewAEGIS128L's sizes; its output differs from AEGIS-128L's.
func NewAEGIS128X2(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS128X2(key) }

// NewAEGIS128X4 returns AEGIS-128X4 (RFC 10032): AEGIS-128L on four lanes (AVX-512), with
// NewAEGIS128L's sizes.
func NewAEGIS128X4(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS128X4(key) }

// NewAEGIS256 returns AEGIS-256 (RFC 10032): a 32-byte key, a 32-byte nonce (random nonces have
// no practical limit) and a 16-byte tag; otherwise as NewAEGIS128L.
func NewAEGIS256(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS256(key) }

// NewAEGIS256X2 returns AEGIS-256X2 (RFC 10032): AEGIS-256 on two lanes, with NewAEGIS256's sizes.
func NewAEGIS256X2(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS256X2(key) }

// NewAEGIS256X4 returns AEGIS-256X4 (RFC 10032): AEGIS-256 on four lanes, with NewAEGIS256's sizes.
func NewAEGIS256X4(key []byte) (cipher.AEAD, error) { return Options{}.NewAEGIS256X4(key) }

// NewAEGIS128LWithTagSize is NewAEGIS128L with tags of tagSize bytes: 16 or 32 (RFC 10032's
// 128- and 256-bit tags; any other size is an error).
func NewAEGIS128LWithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128LWithTagSize(key, tagSize)
}

// NewAEGIS128X2WithTagSize is NewAEGIS128X2 with tags of tagSize bytes: 16 or 32.
func NewAEGIS128X2WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128X2WithTagSize(key, tagSize)
}

// NewAEGIS128X4WithTagSize is NewAEGIS128X4 with tags of tagSize bytes: 16 or 32.
func NewAEGIS128X4WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128X4WithTagSize(key, tagSize)
}

// NewAEGIS256WithTagSize is NewAEGIS256 with tags of tagSize bytes: 16 or 32.
func NewAEGIS256WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256WithTagSize(key, tagSize)
}

// NewAEGIS256X2WithTagSize is NewAEGIS256X2 with tags of tagSize bytes: 16 or 32.
func NewAEGIS256X2WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256X2WithTagSize(key, tagSize)
}

// NewAEGIS256X4WithTagSize is NewAEGIS256X4 with tags of tagSize bytes: 16 or 32.
func NewAEGIS256X4WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256X4WithTagSize(key, tagSize)
}

// NewAEGIS128LWithRandomNonce returns AEGIS-128L with nonces drawn by the library, in the layout
// of NewGCMWithRandomNonce: NonceSize() is 0, Overhead() is 16 + tagSize, Seal (which takes a nil
// or empty nonce) writes a fresh 16-byte nonce from OpenSSL's DRBG followed by ciphertext and tag,
// and Open reads that layout. tagSize is 16 or 32. After 2^48 Seals (RFC 10032's bound for random
// 128-bit nonces) the next Seal panics with an *Error matching ErrNonceLimit: make a new key
// before (values made with the same key count separately).
func NewAEGIS128LWithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128LWithRandomNonce(key, tagSize)
}

// NewAEGIS128X2WithRandomNonce is NewAEGIS128LWithRandomNonce for AEGIS-128X2 (2^48 Seals).
func NewAEGIS128X2WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128X2WithRandomNonce(key, tagSize)
}

// NewAEGIS128X4WithRandomNonce is NewAEGIS128LWithRandomNonce for AEGIS-128X4 (2^48 Seals).
func NewAEGIS128X4WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS128X4WithRandomNonce(key, tagSize)
}

// NewAEGIS256WithRandomNonce is NewAEGIS128LWithRandomNonce for AEGIS-256: 32-byte nonces
// (Overhead() is 32 + tagSize) and no limit on the number of Seals.
func NewAEGIS256WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256WithRandomNonce(key, tagSize)
}

// NewAEGIS256X2WithRandomNonce is NewAEGIS256WithRandomNonce for AEGIS-256X2.
func NewAEGIS256X2WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256X2WithRandomNonce(key, tagSize)
}

// NewAEGIS256X4WithRandomNonce is NewAEGIS256WithRandomNonce for AEGIS-256X4.
func NewAEGIS256X4WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewAEGIS256X4WithRandomNonce(key, tagSize)
}

// NewAEGIS128L is the package's NewAEGIS128L with o's settings.
func (o Options) NewAEGIS128L(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128L, key, standardTagSize, false)
}

// NewAEGIS128X2 is the package's NewAEGIS128X2 with o's settings.
func (o Options) NewAEGIS128X2(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X2, key, standardTagSize, false)
}

// NewAEGIS128X4 is the package's NewAEGIS128X4 with o's settings.
func (o Options) NewAEGIS128X4(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X4, key, standardTagSize, false)
}

// NewAEGIS256 is the package's NewAEGIS256 with o's settings.
func (o Options) NewAEGIS256(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256, key, standardTagSize, false)
}

// NewAEGIS256X2 is the package's NewAEGIS256X2 with o's settings.
func (o Options) NewAEGIS256X2(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X2, key, standardTagSize, false)
}

// NewAEGIS256X4 is the package's NewAEGIS256X4 with o's settings.
func (o Options) NewAEGIS256X4(key []byte) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X4, key, standardTagSize, false)
}

// NewAEGIS128LWithTagSize is the package's NewAEGIS128LWithTagSize with o's settings.
func (o Options) NewAEGIS128LWithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128L, key, tagSize, false)
}

// NewAEGIS128X2WithTagSize is the package's NewAEGIS128X2WithTagSize with o's settings.
func (o Options) NewAEGIS128X2WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X2, key, tagSize, false)
}

// NewAEGIS128X4WithTagSize is the package's NewAEGIS128X4WithTagSize with o's settings.
func (o Options) NewAEGIS128X4WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X4, key, tagSize, false)
}

// NewAEGIS256WithTagSize is the package's NewAEGIS256WithTagSize with o's settings.
func (o Options) NewAEGIS256WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256, key, tagSize, false)
}

// NewAEGIS256X2WithTagSize is the package's NewAEGIS256X2WithTagSize with o's settings.
func (o Options) NewAEGIS256X2WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X2, key, tagSize, false)
}

// NewAEGIS256X4WithTagSize is the package's NewAEGIS256X4WithTagSize with o's settings.
func (o Options) NewAEGIS256X4WithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X4, key, tagSize, false)
}

// NewAEGIS128LWithRandomNonce is the package's NewAEGIS128LWithRandomNonce with o's settings.
func (o Options) NewAEGIS128LWithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128L, key, tagSize, true)
}

// NewAEGIS128X2WithRandomNonce is the package's NewAEGIS128X2WithRandomNonce with o's settings.
func (o Options) NewAEGIS128X2WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X2, key, tagSize, true)
}

// NewAEGIS128X4WithRandomNonce is the package's NewAEGIS128X4WithRandomNonce with o's settings.
func (o Options) NewAEGIS128X4WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis128X4, key, tagSize, true)
}

// NewAEGIS256WithRandomNonce is the package's NewAEGIS256WithRandomNonce with o's settings.
func (o Options) NewAEGIS256WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256, key, tagSize, true)
}

// NewAEGIS256X2WithRandomNonce is the package's NewAEGIS256X2WithRandomNonce with o's settings.
func (o Options) NewAEGIS256X2WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X2, key, tagSize, true)
}

// NewAEGIS256X4WithRandomNonce is the package's NewAEGIS256X4WithRandomNonce with o's settings.
func (o Options) NewAEGIS256X4WithRandomNonce(key []byte, tagSize int) (cipher.AEAD, error) {
	return o.newAEGIS(aegis256X4, key, tagSize, true)
}
