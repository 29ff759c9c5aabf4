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

// Options holds the settings every constructor takes besides its key. The zero value is the
// default, and the package-level constructors are those of Options{}; a method of a non-zero
// Options is the same constructor with those settings:
//
//	fips := aead.Options{Properties: "fips=yes"}
//	gcm, err := fips.NewGCMWithRandomNonce(key) // errors.Is(err, errors.ErrUnsupported) without a FIPS provider
type Options struct {
	// Properties is an OpenSSL property query used for every fetch the AEAD's C context makes,
	// e.g. "fips=yes" (only a FIPS provider) or "provider=default". "" keeps the library context's
	// default properties (what OpenSSL's configuration sets). A query that no loaded provider
	// satisfies for the algorithm makes the constructor fail with an error matching
	// errors.ErrUnsupported; a query longer than 255 bytes or holding a NUL byte is refused.
	Properties string
}

func aesAlg(key []byte) (int, error) {
	switch len(key) {
	case 16:
		return C.AEAD_AES_128_GCM, nil
	case 24:
		return C.AEAD_AES_192_GCM, nil
	case 32:
		return C.AEAD_AES_256_GCM, nil
	}
	return 0, aes.KeySizeError(len(key))
}

func (o Options) newGCM(key []byte, policy, nonceSize, tagSize int, msg *messages, iv []byte) (*aeadImpl, error) {
	alg, err := aesAlg(key)
	if err != nil {
		return nil, err
	}
	return newAEAD(alg, policy, key, nonceSize, tagSize, gcmMaxPlaintext, msg, o.Properties, iv)
}

func (o Options) newChaCha(key []byte, policy int, msg *messages, iv []byte) (*aeadImpl, error) {
	if len(key) != 32 {
		return nil, errors.New("chacha20poly1305: bad key length")
	}
	return newAEAD(C.AEAD_CHACHA20_POLY1305, policy, key, standardNonceSize, standardTagSize, chachaMaxPlain, msg, o.Properties, iv)
}

// aeadOrNil keeps a nil *aeadImpl from becoming a non-nil cipher.AEAD holding a nil pointer.
func aeadOrNil(a *aeadImpl, err error) (cipher.AEAD, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

// checkIV refuses a TLS IV of the wrong length before the C library sees it, with a message
// naming the rule (the library would say only AEAD_ERR_NONCE_SIZE).
func checkIV(iv []byte, what string, lens ...int) error {
	for _, n := range lens {
		if len(iv) == n {
			return nil
		}
	}
	want := strconv.Itoa(lens[0])
	if len(lens) > 1 {
		want += " or " + strconv.Itoa(lens[1])
	}
	return errors.New("aead: " + what + " IV must be " + want + " bytes, got " + strconv.Itoa(len(iv)))
}

// NewGCM is the package's NewGCM with o's settings.
func (o Options) NewGCM(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_NONE, standardNonceSize, standardTagSize, &gcmMessages, nil))
}

// NewGCMWithTagSize is the package's NewGCMWithTagSize with o's settings.
func (o Options) NewGCMWithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	if tagSize < minTagSize || tagSize > standardTagSize {
		return nil, errors.New("cipher: incorrect tag size given to GCM")
	}
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_NONE, standardNonceSize, tagSize, &gcmMessages, nil))
}

// NewGCMWithNonceSize is the package's NewGCMWithNonceSize with o's settings.
func (o Options) NewGCMWithNonceSize(key []byte, size int) (cipher.AEAD, error) {
	if size <= 0 {
		return nil, errors.New("cipher: the nonce can't have zero length")
	}
	if size > maxNonce {
		return nil, errors.New("aead: GCM nonce longer than " + strconv.Itoa(maxNonce) + " bytes")
	}
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_NONE, size, standardTagSize, &gcmMessages, nil))
}

// NewGCMWithRandomNonce is the package's NewGCMWithRandomNonce with o's settings.
func (o Options) NewGCMWithRandomNonce(key []byte) (cipher.AEAD, error) {
	a, err := o.newGCM(key, C.AEAD_POLICY_RANDOM_NONCE, 0, standardTagSize, &gcmRandomMessages, nil)
	if err != nil {
		return nil, err
	}
	return &randomNonceAEAD{a, randomNonceSize}, nil
}

// NewGCMForTLS12 is the package's NewGCMForTLS12 with o's settings.
func (o Options) NewGCMForTLS12(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_TLS12, standardNonceSize, standardTagSize, &gcmTLS12Messages, nil))
}

// NewGCMForTLS13 is the package's NewGCMForTLS13 with o's settings.
func (o Options) NewGCMForTLS13(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_TLS13, standardNonceSize, standardTagSize, &gcmTLS13Messages, nil))
}

// NewGCMForTLS12WithIV is the package's NewGCMForTLS12WithIV with o's settings.
func (o Options) NewGCMForTLS12WithIV(key, iv []byte) (cipher.AEAD, error) {
	if err := checkIV(iv, "TLS 1.2 AES-GCM", 4, 12); err != nil {
		return nil, err
	}
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_TLS12, standardNonceSize, standardTagSize, &gcmTLS12Messages, iv))
}

// NewGCMForTLS13WithIV is the package's NewGCMForTLS13WithIV with o's settings.
func (o Options) NewGCMForTLS13WithIV(key, iv []byte) (cipher.AEAD, error) {
	if err := checkIV(iv, "TLS 1.3", 12); err != nil {
		return nil, err
	}
	return aeadOrNil(o.newGCM(key, C.AEAD_POLICY_TLS13, standardNonceSize, standardTagSize, &gcmTLS13Messages, iv))
}

// NewChaCha20Poly1305 is the package's NewChaCha20Poly1305 with o's settings.
func (o Options) NewChaCha20Poly1305(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newChaCha(key, C.AEAD_POLICY_NONE, &chachaMessages, nil))
}

// NewChaCha20Poly1305ForTLS12 is the package's NewChaCha20Poly1305ForTLS12 with o's settings.
func (o Options) NewChaCha20Poly1305ForTLS12(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newChaCha(key, C.AEAD_POLICY_TLS12, &chachaTLS12Messages, nil))
}

// NewChaCha20Poly1305ForTLS13 is the package's NewChaCha20Poly1305ForTLS13 with o's settings.
func (o Options) NewChaCha20Poly1305ForTLS13(key []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newChaCha(key, C.AEAD_POLICY_TLS13, &chachaTLS13Messages, nil))
}

// NewChaCha20Poly1305ForTLS12WithIV is the package's NewChaCha20Poly1305ForTLS12WithIV with o's
// settings.
func (o Options) NewChaCha20Poly1305ForTLS12WithIV(key, iv []byte) (cipher.AEAD, error) {
	if err := checkIV(iv, "TLS 1.2 ChaCha20-Poly1305", 12); err != nil {
		return nil, err
	}
	return aeadOrNil(o.newChaCha(key, C.AEAD_POLICY_TLS12, &chachaTLS12Messages, iv))
}

// NewChaCha20Poly1305ForTLS13WithIV is the package's NewChaCha20Poly1305ForTLS13WithIV with o's
// settings.
func (o Options) NewChaCha20Poly1305ForTLS13WithIV(key, iv []byte) (cipher.AEAD, error) {
	if err := checkIV(iv, "TLS 1.3", 12); err != nil {
		return nil, err
	}
	return aeadOrNil(o.newChaCha(key, C.AEAD_POLICY_TLS13, &chachaTLS13Messages, iv))
}
