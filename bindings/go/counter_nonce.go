package aead

/*
#include <aead.h>
*/
import "C"

import (
	"crypto/aes"
	"crypto/cipher"
)

// The AEADs of this file take 12-byte nonces and give 16-byte tags; their IV, when given up front,
// is 12 bytes.

var gcmSSHMessages = withAAD(gcmMessages, "aead: SSH AES-GCM requires exactly 4 bytes of additional data (the packet length)")

// SSHRekeyAfter is RFC 4344 section 3.1's rekey point, 2^32 packets: once UsageOf reports that
// many Seals on an SSH AEAD, the connection should exchange new keys (nothing is refused there;
// the library's aead_usage.rekey_after).
const SSHRekeyAfter uint64 = 1 << 32

// NewGCMWithCounterNonce returns AES-GCM that enforces deterministic counter nonces, like the Go
// FIPS module's gcm.NewGCMWithCounterNonce (FIPS 140-3 IG C.H scenario 3) but safe for concurrent
// use, and reporting a refused Seal like the TLS AEADs of this package. The key length (16, 24 or
// 32 bytes) selects AES-128, AES-192 or AES-256.
//
// A nonce is fixed(4) || BE64(counter). The first Seal sets fixed and the counter's start; each
// later Seal panics with crypto/cipher's messages unless its nonce keeps the fixed field ("GCM nonce
// prefix changed") and its counter, counted from the start modulo 2^64, is strictly greater than
// every one sealed before ("counter decreased or remained the same"; gaps allowed) and not 2^64-1,
// which is one below the start ("counter exhausted"). The counter may wrap past 2^64-1. Check and
// update are one atomic step, so a nonce is never accepted twice, even when goroutines race with
// it; a refused Seal writes nothing. Open checks nothing beyond the tag. Any additional data.
// The first Seal should happen before the AEAD is shared; NewGCMWithCounterNonceAndIV has none.
func NewGCMWithCounterNonce(key []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMWithCounterNonce(key)
}

// NewGCMWithCounterNonceAndIV is NewGCMWithCounterNonce told its first nonce up front: iv is
// fixed(4) || BE64(start), 12 bytes. Nothing is learned from a first Seal (concurrent first Seals are
// safe); counters are counted from start as before, so start-1 is the one value never sealed
// ("counter exhausted").
func NewGCMWithCounterNonceAndIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMWithCounterNonceAndIV(key, iv)
}

// NewGCMWithXORCounterNonce returns AES-GCM that enforces nonces fixed(4) || BE64(mask XOR n) with n
// counting from 0, like the Go FIPS module's gcm.NewGCMWithXORCounterNonce (FIPS 140-3 IG C.H
// scenario 3; the construction of TLS 1.3 and HPKE, with any additional data) but safe for
// concurrent use. The first Seal is n = 0, so its nonce sets fixed and mask; each later Seal panics
// with crypto/cipher's messages unless it keeps fixed and its n is strictly greater than every one
// sealed before and below 2^64-1 (the messages of NewGCMWithCounterNonce). Open checks nothing.
// NewGCMWithXORCounterNonceAndIV gives fixed and mask up front.
func NewGCMWithXORCounterNonce(key []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMWithXORCounterNonce(key)
}

// NewGCMWithXORCounterNonceAndIV is NewGCMWithXORCounterNonce with fixed and mask given up front,
// as the Go module's SetNoncePrefixAndMask gives them: iv is fixed(4) || mask(8), 12 bytes. The
// nonces Seal takes are still already XORed (iv XOR (0^4 || BE64(n))); the first may carry any
// n below 2^64-1, and concurrent first Seals are safe.
func NewGCMWithXORCounterNonceAndIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMWithXORCounterNonceAndIV(key, iv)
}

// NewGCMForSSH returns AES-GCM for SSH packets (RFC 5647 section 7.1, AEAD_AES_128_GCM and
// AEAD_AES_256_GCM: a 16- or 32-byte key; FIPS 140-3 IG C.H scenario 1.d), like the Go FIPS
// module's gcm.NewGCMForSSH but safe for concurrent use. The nonce is the SSH IV, fixed(4) ||
// invocation counter(8), incremented per packet as x/crypto/ssh does: Seal applies
// NewGCMWithCounterNonce's rules (the first Seal sets fixed and the counter's start; the counter may
// wrap but never return to its start). The additional data must be exactly the 4-byte packet
// length (uint32 big-endian) that RFC 5647 authenticates; any other length panics with
// "aead: SSH AES-GCM requires exactly 4 bytes of additional data (the packet length)". (Go's module
// does not check the additional data.) Seals are counted: UsageOf(a).Seals reaching
// SSHRekeyAfter means the connection should re-key. NewGCMForSSHWithIV takes the key exchange's
// initial IV up front.
func NewGCMForSSH(key []byte) (cipher.AEAD, error) { return Options{}.NewGCMForSSH(key) }

// NewGCMForSSHWithIV is NewGCMForSSH told the initial IV of the key exchange (12 bytes, RFC 5647
// section 7.1): nothing is learned from a first Seal, and the counter starts at the IV's.
func NewGCMForSSHWithIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMForSSHWithIV(key, iv)
}

// NewGCMWithCounterNonce is the package's NewGCMWithCounterNonce with o's settings.
func (o Options) NewGCMWithCounterNonce(key []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_COUNTER, nil, false)
}

// NewGCMWithCounterNonceAndIV is the package's NewGCMWithCounterNonceAndIV with o's settings.
func (o Options) NewGCMWithCounterNonceAndIV(key, iv []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_COUNTER, iv, true)
}

// NewGCMWithXORCounterNonce is the package's NewGCMWithXORCounterNonce with o's settings.
func (o Options) NewGCMWithXORCounterNonce(key []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_XOR_COUNTER, nil, false)
}

// NewGCMWithXORCounterNonceAndIV is the package's NewGCMWithXORCounterNonceAndIV with o's settings.
func (o Options) NewGCMWithXORCounterNonceAndIV(key, iv []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_XOR_COUNTER, iv, true)
}

// NewGCMForSSH is the package's NewGCMForSSH with o's settings.
func (o Options) NewGCMForSSH(key []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_SSH, nil, false)
}

// NewGCMForSSHWithIV is the package's NewGCMForSSHWithIV with o's settings.
func (o Options) NewGCMForSSHWithIV(key, iv []byte) (cipher.AEAD, error) {
	return o.newCounter(key, C.AEAD_POLICY_SSH, iv, true)
}

// newCounter keys an AES-GCM context of a counter policy; withIV: iv is required (12 bytes).
func (o Options) newCounter(key []byte, policy int, iv []byte, withIV bool) (cipher.AEAD, error) {
	what, msg := "counter-nonce GCM", &gcmMessages
	if policy == C.AEAD_POLICY_SSH {
		// RFC 5647 defines AES-128-GCM and AES-256-GCM only.
		if len(key) != 16 && len(key) != 32 {
			return nil, aes.KeySizeError(len(key))
		}
		what, msg = "SSH", &gcmSSHMessages
	}
	if withIV {
		if err := checkIV(iv, what, standardNonceSize); err != nil {
			return nil, err
		}
	}
	return aeadOrNil(o.newGCM(key, policy, standardNonceSize, standardTagSize, msg, iv))
}
