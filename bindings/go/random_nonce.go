package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"runtime"
	"strconv"
)

// randomNonceSize is the nonce libaead draws and prepends (AEAD_POLICY_RANDOM_NONCE).
const randomNonceSize = 12

var gcmRandomMessages = func() messages {
	m := gcmMessages
	m.nonceSeal = "crypto/cipher: non-empty nonce passed to GCMWithRandomNonce"
	m.nonceOpen = m.nonceSeal
	return m
}()

// randomNonceGCM is the cipher.AEAD of NewGCMWithRandomNonce: nonce || ciphertext || tag, the
// nonce drawn inside the one C call.
type randomNonceGCM struct {
	a *aeadImpl
}

var _ cipher.AEAD = (*randomNonceGCM)(nil)

func (g *randomNonceGCM) NonceSize() int { return 0 }
func (g *randomNonceGCM) Overhead() int  { return randomNonceSize + standardTagSize }

// Seal implements cipher.AEAD; nonce must be empty.
func (g *randomNonceGCM) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	m := g.a.msg
	if len(nonce) != 0 {
		panic(m.nonceSeal)
	}
	if uint64(len(plaintext)) > g.a.maxPlain {
		panic(m.tooLarge)
	}
	ret, out := sliceForAppend(dst, randomNonceSize+len(plaintext)+standardTagSize)
	if inexactOverlap(out, plaintext) {
		panic(m.overlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(m.overlapAAD)
	}
	// Exact in-place (dst = plaintext[:0]): crypto/cipher moves the plaintext 12 bytes forward,
	// which is also libaead's in-place form for this policy (in == out + 12).
	if anyOverlap(out, plaintext) {
		plaintext = out[randomNonceSize : randomNonceSize+copy(out[randomNonceSize:], plaintext)]
	}
	n := C.aead_seal_open(g.a.ctx, C.AEAD_SEAL, nil, 0,
		bytePtr(additionalData), C.size_t(len(additionalData)),
		bytePtr(plaintext), C.size_t(len(plaintext)),
		bytePtr(out), C.size_t(len(out)))
	runtime.KeepAlive(g.a)
	if int64(n) != int64(len(out)) {
		g.a.sealFailed(int64(n))
	}
	return ret
}

// Open implements cipher.AEAD; nonce must be empty, ciphertext is nonce || ciphertext || tag.
func (g *randomNonceGCM) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	m := g.a.msg
	if len(nonce) != 0 {
		panic(m.nonceOpen)
	}
	if len(ciphertext) < randomNonceSize+standardTagSize ||
		uint64(len(ciphertext)) > g.a.maxPlain+randomNonceSize+standardTagSize {
		return nil, ErrOpen
	}
	ptLen := len(ciphertext) - randomNonceSize - standardTagSize
	ret, out := sliceForAppend(dst, ptLen)
	if inexactOverlap(out, ciphertext) {
		panic(m.overlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(m.overlapAAD)
	}
	// Exact in-place (dst = ciphertext[:0]): libaead's in-place form is out == in + 12, so open
	// there and move the plaintext 12 bytes back afterwards (crypto/cipher moves the ciphertext
	// back first; the result is the same bytes).
	inPlace := anyOverlap(out, ciphertext)
	cOut := out
	if inPlace {
		cOut = ciphertext[randomNonceSize : randomNonceSize+ptLen]
	}
	n := C.aead_seal_open(g.a.ctx, C.AEAD_OPEN, nil, 0,
		bytePtr(additionalData), C.size_t(len(additionalData)),
		bytePtr(ciphertext), C.size_t(len(ciphertext)),
		bytePtr(cOut), C.size_t(len(cOut)))
	runtime.KeepAlive(g.a)
	if int64(n) != int64(ptLen) {
		// libaead zeroed cOut; out (which shares the nonce's bytes when in place) is wiped too.
		clear(out)
		if n == codeAuth {
			return nil, ErrOpen
		}
		if n >= 0 {
			panic("aead: internal error: open returned " + strconv.FormatInt(int64(n), 10) + " bytes")
		}
		return nil, &Error{Op: "open", Code: int(n)}
	}
	if inPlace {
		copy(out, cOut)
	}
	return ret, nil
}
