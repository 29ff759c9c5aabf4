package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"strconv"
)

// The AEAD families added in 1.2 beyond AES-GCM and ChaCha20-Poly1305 (aead.h, "Contexts and
// algorithms"; docs/algorithms.md). Each is a cipher.AEAD made by one constructor, sealed and opened
// with one cgo call (aead_seal_open) like the others, and safe for concurrent use.

const (
	oneUpdateMax  = C.AEAD_ONE_UPDATE_MAX // CCM and GCM-SIV: the payload goes to libcrypto in one update
	ocbMax        = 1 << 36               // OCB3: 2^32 blocks per message (libaead's limit)
	xchachaNonce  = C.AEAD_XCHACHA20_POLY1305_NONCE
	ccmMinNonce   = 7
	ccmMaxNonce   = 13
	ocbMinNonce   = 1
	ocbMaxNonce   = 15
	ocbPycaNonce  = 12 // NewOCB3's nonce: the smallest pyca/cryptography's AESOCB3 takes
	gcmSIVMessage = "aead: AES-GCM-SIV needs OpenSSL 3.2 or newer (libaead built with -Dlibcrypto=vendored has it)"
)

// familyMessages are the panic texts of a family no standard Go package implements: crypto/cipher's
// texts with the package's prefix and the family's name.
func familyMessages(name string) messages {
	return messages{
		nonceSeal:    "aead: incorrect nonce length given to " + name,
		nonceOpen:    "aead: incorrect nonce length given to " + name,
		tooLarge:     "aead: message too large for " + name,
		overlapInput: "aead: invalid buffer overlap of output and input",
		overlapAAD:   "aead: invalid buffer overlap of output and additional data",
	}
}

var (
	ccmMessages    = familyMessages("CCM")
	gcmSIVMessages = familyMessages("GCM-SIV")
	ocbMessages    = familyMessages("OCB3")
	// XChaCha20-Poly1305 panics as golang.org/x/crypto/chacha20poly1305.NewX does: same texts as
	// its ChaCha20-Poly1305.
	xchachaMessages       = chachaMessages
	xchachaRandomMessages = func() messages {
		m := chachaMessages
		m.nonceSeal = "aead: non-empty nonce passed to XChaCha20Poly1305WithRandomNonce"
		m.nonceOpen = m.nonceSeal
		return m
	}()
)

// aesFamilyAlg picks AES-128/192/256 of a family from the key length: first is the family's
// AES-128 identifier (the three are consecutive in aead.h).
func aesFamilyAlg(key []byte, first int) (int, error) {
	switch len(key) {
	case 16:
		return first, nil
	case 24:
		return first + 1, nil
	case 32:
		return first + 2, nil
	}
	return 0, aes.KeySizeError(len(key))
}

// ccmMaxPlaintext is libaead's CCM limit for a nonce length: below 2^(8*(15-n)) bytes (the length
// field), and at most one libcrypto update.
func ccmMaxPlaintext(nonceSize int) uint64 {
	l := 15 - nonceSize
	if l >= 8 {
		return oneUpdateMax
	}
	if field := uint64(1)<<(8*l) - 1; field < oneUpdateMax {
		return field
	}
	return oneUpdateMax
}

// NewCCM returns AES-CCM (SP 800-38C, RFC 3610): the key length (16, 24 or 32 bytes) selects
// AES-128, AES-192 or AES-256; nonces are nonceSize bytes (7 to 13) and tags tagSize bytes (4, 6,
// 8, 10, 12, 14 or 16). A message must be shorter than 2^(8*(15-nonceSize)) bytes (65536 with a
// 13-byte nonce, 2^31-1 at most): Seal panics on a longer one, and Open of a longer one fails.
// The caller must never reuse a nonce with the same key. Approved under a FIPS provider (see
// IndicatorOf).
func NewCCM(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewCCM(key, nonceSize, tagSize)
}

// NewGCMSIV returns AES-GCM-SIV (RFC 8452): a 12-byte nonce and a 16-byte tag; the key length
// (16, 24 or 32) selects AES-128, AES-192 or AES-256-GCM-SIV. Repeating a nonce reveals only
// whether two messages (with their additional data) were equal. Plaintexts up to 2^31-1 bytes.
//
// It needs OpenSSL 3.2 or newer: on an older libcrypto (the system OpenSSL 3.0, for instance) the
// constructor returns an error matching errors.ErrUnsupported (and errors.As an *Error with code
// AEAD_ERR_UNSUPPORTED) whose text names the vendored libaead build as the way to get it.
func NewGCMSIV(key []byte) (cipher.AEAD, error) { return Options{}.NewGCMSIV(key) }

// NewOCB3 returns AES-OCB3 (RFC 7253) with a 12-byte nonce and a 16-byte tag; the key length
// (16, 24 or 32) selects AES-128/192/256. The caller must never reuse a nonce with the same key.
// Not available from FIPS providers.
func NewOCB3(key []byte) (cipher.AEAD, error) { return Options{}.NewOCB3(key) }

// NewOCB3WithNonceSize is NewOCB3 with nonces of size bytes: 1 to 15 (RFC 7253 allows up to 120
// bits; pyca/cryptography's AESOCB3 takes 12 to 15).
func NewOCB3WithNonceSize(key []byte, size int) (cipher.AEAD, error) {
	return Options{}.NewOCB3WithNonceSize(key, size)
}

// NewXChaCha20Poly1305 returns XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha) with a 32-byte key, a
// 24-byte nonce and a 16-byte tag, behaving (bytes, panics, errors) like
// golang.org/x/crypto/chacha20poly1305.NewX. 24-byte nonces may be drawn at random: collisions
// are negligible for any practical number of messages. Not available from FIPS providers.
func NewXChaCha20Poly1305(key []byte) (cipher.AEAD, error) {
	return Options{}.NewXChaCha20Poly1305(key)
}

// NewXChaCha20Poly1305WithRandomNonce returns XChaCha20-Poly1305 with nonces drawn by the library,
// in the layout of NewGCMWithRandomNonce: NonceSize() is 0, Overhead() is 40, Seal (which takes
// a nil or empty nonce) writes a fresh 24-byte nonce from OpenSSL's DRBG followed by ciphertext
// and tag, and Open reads that layout (which is also what x/crypto's NewX opens with the first
// 24 bytes as nonce). Exact in-place use moves the data by 24 bytes. Unlike AES-GCM's, there is
// no limit on the number of Seals.
func NewXChaCha20Poly1305WithRandomNonce(key []byte) (cipher.AEAD, error) {
	return Options{}.NewXChaCha20Poly1305WithRandomNonce(key)
}

// NewCCM is the package's NewCCM with o's settings.
func (o Options) NewCCM(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	if nonceSize < ccmMinNonce || nonceSize > ccmMaxNonce {
		return nil, errors.New("aead: CCM nonce size must be 7 to 13 bytes, got " + strconv.Itoa(nonceSize))
	}
	if tagSize < 4 || tagSize > 16 || tagSize%2 != 0 {
		return nil, errors.New("aead: CCM tag size must be 4, 6, 8, 10, 12, 14 or 16 bytes, got " + strconv.Itoa(tagSize))
	}
	alg, err := aesFamilyAlg(key, C.AEAD_AES_128_CCM)
	if err != nil {
		return nil, err
	}
	return aeadOrNil(newAEAD(alg, C.AEAD_POLICY_NONE, key, nonceSize, tagSize, ccmMaxPlaintext(nonceSize), &ccmMessages, o.Properties, nil))
}

// NewGCMSIV is the package's NewGCMSIV with o's settings.
func (o Options) NewGCMSIV(key []byte) (cipher.AEAD, error) {
	alg, err := aesFamilyAlg(key, C.AEAD_AES_128_GCM_SIV)
	if err != nil {
		return nil, err
	}
	a, err := newAEAD(alg, C.AEAD_POLICY_NONE, key, standardNonceSize, standardTagSize, oneUpdateMax, &gcmSIVMessages, o.Properties, nil)
	var e *Error
	if errors.As(err, &e) && e.Code == codeUnsupported && o.Properties == "" {
		return nil, &unsupportedError{e, gcmSIVMessage + "; loaded: " + Version() + " (code " + strconv.Itoa(e.Code) + ")"}
	}
	return aeadOrNil(a, err)
}

// NewOCB3 is the package's NewOCB3 with o's settings.
func (o Options) NewOCB3(key []byte) (cipher.AEAD, error) {
	return o.NewOCB3WithNonceSize(key, ocbPycaNonce)
}

// NewOCB3WithNonceSize is the package's NewOCB3WithNonceSize with o's settings.
func (o Options) NewOCB3WithNonceSize(key []byte, size int) (cipher.AEAD, error) {
	if size < ocbMinNonce || size > ocbMaxNonce {
		return nil, errors.New("aead: OCB3 nonce size must be 1 to 15 bytes, got " + strconv.Itoa(size))
	}
	alg, err := aesFamilyAlg(key, C.AEAD_AES_128_OCB)
	if err != nil {
		return nil, err
	}
	return aeadOrNil(newAEAD(alg, C.AEAD_POLICY_NONE, key, size, standardTagSize, ocbMax, &ocbMessages, o.Properties, nil))
}

// NewXChaCha20Poly1305 is the package's NewXChaCha20Poly1305 with o's settings.
func (o Options) NewXChaCha20Poly1305(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, errors.New("chacha20poly1305: bad key length")
	}
	return aeadOrNil(newAEAD(C.AEAD_XCHACHA20_POLY1305, C.AEAD_POLICY_NONE, key, xchachaNonce, standardTagSize, chachaMaxPlain, &xchachaMessages, o.Properties, nil))
}

// NewXChaCha20Poly1305WithRandomNonce is the package's NewXChaCha20Poly1305WithRandomNonce with
// o's settings.
func (o Options) NewXChaCha20Poly1305WithRandomNonce(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, errors.New("chacha20poly1305: bad key length")
	}
	a, err := newAEAD(C.AEAD_XCHACHA20_POLY1305, C.AEAD_POLICY_RANDOM_NONCE, key, 0, standardTagSize, chachaMaxPlain, &xchachaRandomMessages, o.Properties, nil)
	if err != nil {
		return nil, err
	}
	return &randomNonceAEAD{a, xchachaNonce}, nil
}

// unsupportedError is a constructor's AEAD_ERR_UNSUPPORTED with a text saying how to get the
// algorithm; it unwraps to the *Error (errors.Is(err, errors.ErrUnsupported) holds).
type unsupportedError struct {
	err *Error
	msg string
}

func (e *unsupportedError) Error() string { return e.msg }
func (e *unsupportedError) Unwrap() error { return e.err }
