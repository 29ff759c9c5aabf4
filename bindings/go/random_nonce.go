package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"runtime"
)

// randomNonceSize is the nonce libaead draws and prepends for AES-GCM (AEAD_POLICY_RANDOM_NONCE);
// XChaCha20-Poly1305 draws AEAD_XCHACHA20_POLY1305_NONCE (24) bytes.
const randomNonceSize = 12

var gcmRandomMessages = func() messages {
	m := gcmMessages
	m.nonceSeal = "crypto/cipher: non-empty nonce passed to GCMWithRandomNonce"
	m.nonceOpen = m.nonceSeal
	return m
}()

// randomNonceAEAD is the cipher.AEAD of NewGCMWithRandomNonce, NewXChaCha20Poly1305WithRandomNonce
// and the AEGIS ...WithRandomNonce constructors: nonce || ciphertext || tag, the nonce (nonceSize
// bytes) drawn inside the one C call; the tag is a.tagSize bytes (16, or 32 for AEGIS if asked).
type randomNonceAEAD struct {
	a         *aeadImpl
	nonceSize int // 12 (AES-GCM), 24 (XChaCha20-Poly1305), 16 or 32 (AEGIS: its whole nonce)
}

var _ cipher.AEAD = (*randomNonceAEAD)(nil)

func (g *randomNonceAEAD) NonceSize() int { return 0 }
func (g *randomNonceAEAD) Overhead() int  { return g.nonceSize + g.a.tagSize }

// Seal implements cipher.AEAD; nonce must be empty.
func (g *randomNonceAEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	ret, out, in := g.checkSeal(dst, nonce, plaintext, additionalData)
	moveForward(in, plaintext)
	n := sealOpen(g.a.ctx, C.AEAD_SEAL, nil, additionalData, in, out)
	runtime.KeepAlive(g.a)
	if n != int64(len(out)) {
		g.a.sealFailed(n)
	}
	return ret
}

// Open implements cipher.AEAD; nonce must be empty, ciphertext is nonce || ciphertext || tag.
func (g *randomNonceAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	ret, out, written, ok := g.checkOpen(dst, nonce, ciphertext, additionalData)
	if !ok {
		return nil, ErrOpen
	}
	n := sealOpen(g.a.ctx, C.AEAD_OPEN, nil, additionalData, ciphertext, written)
	runtime.KeepAlive(g.a)
	return g.opened(ret, out, written, n)
}

// checkSeal makes crypto/cipher's checks, panicking with its messages, and returns dst extended by
// the output, the output region, and the plaintext to hand to C. Exact in-place use (dst =
// plaintext[:0]): libaead's in-place form for this policy is in == out + 12, so the caller moves
// the plaintext NonceSize bytes forward first (moveForward), as crypto/cipher does.
func (g *randomNonceAEAD) checkSeal(dst, nonce, plaintext, additionalData []byte) (ret, out, in []byte) {
	if len(nonce) != 0 {
		panic(g.a.msg.nonceSeal)
	}
	if uint64(len(plaintext)) > g.a.maxPlain || len(dst) > maxInt-g.Overhead()-len(plaintext) {
		panic(g.a.msg.tooLarge)
	}
	ret, out = sliceForAppend(dst, len(plaintext)+g.Overhead())
	g.a.checkOverlap(out, plaintext, additionalData)
	if anyOverlap(out, plaintext) {
		return ret, out, out[g.nonceSize : g.nonceSize+len(plaintext)]
	}
	return ret, out, plaintext
}

// moveForward is the in-place move of a random-nonce Seal: plaintext to in, the nonce length (12, 24, 16 or 32) further,
// unless in is plaintext itself (not in place).
func moveForward(in, plaintext []byte) {
	if len(in) > 0 && &in[0] != &plaintext[0] {
		copy(in, plaintext)
	}
}

// checkOpen is checkSeal for Open (!ok: ErrOpen); written is where C is to write the plaintext: out, or for exact
// in-place use (dst = ciphertext[:0]) the nonce length ahead of it (libaead's form, out == in + nonce length), from
// where opened moves it back (crypto/cipher moves the ciphertext back first: same bytes).
func (g *randomNonceAEAD) checkOpen(dst, nonce, ciphertext, additionalData []byte) (ret, out, written []byte, ok bool) {
	if len(nonce) != 0 {
		panic(g.a.msg.nonceOpen)
	}
	overhead := g.Overhead()
	if len(ciphertext) < overhead || uint64(len(ciphertext)) > g.a.maxPlain+uint64(overhead) {
		return nil, nil, nil, false
	}
	if len(dst) > maxInt-(len(ciphertext)-overhead) { // dst extended cannot exist
		return nil, nil, nil, false
	}
	ret, out = sliceForAppend(dst, len(ciphertext)-overhead)
	g.a.checkOverlap(out, ciphertext, additionalData)
	if anyOverlap(out, ciphertext) {
		return ret, out, ciphertext[g.nonceSize : g.nonceSize+len(out)], true
	}
	return ret, out, out, true
}

// opened finishes an Open from aead_seal_open's result n.
func (g *randomNonceAEAD) opened(ret, out, written []byte, n int64) ([]byte, error) {
	if n != int64(len(written)) {
		// libaead zeroed written; out (which still holds the nonce when in place) is wiped too.
		clear(out)
		return nil, openError(n)
	}
	if len(out) > 0 && &written[0] != &out[0] {
		copy(out, written)
	}
	return ret, nil
}
