package aead

import "crypto/cipher"

// NewGCM returns AES-GCM with a 12-byte nonce and a 16-byte tag; the key length (16, 24 or 32
// bytes) selects AES-128, AES-192 or AES-256. A wrong key length returns aes.KeySizeError.
// The caller must never reuse a nonce with the same key.
func NewGCM(key []byte) (cipher.AEAD, error) { return Options{}.NewGCM(key) }

// NewGCMWithTagSize is NewGCM with a tag of tagSize bytes, 12 to 16 like crypto/cipher's
// NewGCMWithTagSize (libaead also offers 4 and 8, which crypto/cipher refuses as unsafe; so does
// this binding).
func NewGCMWithTagSize(key []byte, tagSize int) (cipher.AEAD, error) {
	return Options{}.NewGCMWithTagSize(key, tagSize)
}

// NewGCMWithNonceSize is NewGCM with nonces of size bytes (1 to 128; OpenSSL 3 refuses longer
// ones). Only 12-byte nonces are recommended.
func NewGCMWithNonceSize(key []byte, size int) (cipher.AEAD, error) {
	return Options{}.NewGCMWithNonceSize(key, size)
}

// NewGCMWithRandomNonce returns AES-GCM with nonces drawn by the library, like crypto/cipher's
// NewGCMWithRandomNonce and byte-compatible with it in both directions: NonceSize() is 0,
// Overhead() is 28, Seal (which takes a nil or empty nonce) writes a fresh 96-bit nonce from
// OpenSSL's DRBG (the FIPS provider's under a FIPS configuration) followed by ciphertext and tag,
// and Open reads that layout. Exact in-place use (dst = plaintext[:0] or ciphertext[:0]) works
// as in crypto/cipher, which moves the data by 12 bytes.
//
// A key must not seal more than 2^32 messages (SP 800-38D section 8.3): the library counts the
// seals of each AEAD value and the next Seal panics with an *Error matching ErrNonceLimit.
// (Values made with the same key count separately: make one per key.) It is an approved
// construction (FIPS 140-3 IG C.H scenario 2) when the cipher comes from a FIPS provider; see
// IndicatorOf.
func NewGCMWithRandomNonce(key []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMWithRandomNonce(key)
}

// NewGCMForTLS12 returns AES-GCM for TLS 1.2 records (RFC 5288), like crypto/cipher's
// NewGCMForTLS12 but safe for concurrent use. Seal panics unless the nonce is the 4-byte fixed
// prefix learned on the first Seal followed by a big-endian 8-byte counter strictly greater than
// the last accepted one and below 2^64-1, and unless the additional data is exactly 13 bytes.
// Open checks nothing beyond the tag. The first Seal should happen before the AEAD is shared;
// NewGCMForTLS12WithIV has no such first Seal.
func NewGCMForTLS12(key []byte) (cipher.AEAD, error) { return Options{}.NewGCMForTLS12(key) }

// NewGCMForTLS13 returns AES-GCM for TLS 1.3 records (RFC 8446 section 5.3), like crypto/cipher's
// NewGCMForTLS13 but safe for concurrent use. The first Seal is sequence 0, so its nonce is the
// static IV: Seal then panics unless each nonce keeps the IV's first 4 bytes and its last 8 bytes,
// XORed with the IV's and read big-endian, are strictly greater than the last accepted sequence
// and below 2^64-1, and unless the additional data is exactly 5 bytes.
func NewGCMForTLS13(key []byte) (cipher.AEAD, error) { return Options{}.NewGCMForTLS13(key) }

// NewGCMForTLS12WithIV is NewGCMForTLS12 told the connection's write IV when the keys are derived,
// so that nothing is learned from a first Seal (concurrent first Seals are safe) and the first
// sequence may be any value below 2^64-1. iv is either
//   - the 4-byte salt (RFC 5288 implicit IV): nonce = salt || BE64(seq), the explicit nonce crypto/tls
//     and OpenSSL's libssl send; or
//   - 12 bytes, salt || 8-byte mask: nonce = salt || (mask XOR BE64(seq)), the explicit nonce rustls
//     sends.
//
// Seal takes the full 12-byte nonce and panics as NewGCMForTLS12's does (a salt other than iv's
// is "nonce prefix changed").
func NewGCMForTLS12WithIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMForTLS12WithIV(key, iv)
}

// NewGCMForTLS13WithIV is NewGCMForTLS13 told the 12-byte static IV up front: Seal takes the full
// nonce iv XOR (0^4 || BE64(seq)), with seq strictly increasing from 0 (gaps allowed) and below
// 2^64-1, and nothing is learned from the first Seal (concurrent first Seals are safe).
func NewGCMForTLS13WithIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewGCMForTLS13WithIV(key, iv)
}

// NewChaCha20Poly1305 returns ChaCha20-Poly1305 (RFC 8439) with a 32-byte key, 12-byte nonce and
// 16-byte tag, behaving like golang.org/x/crypto/chacha20poly1305.New.
func NewChaCha20Poly1305(key []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305(key)
}

// NewChaCha20Poly1305ForTLS12 returns ChaCha20-Poly1305 for TLS 1.2 (RFC 7905): nonces are
// checked like NewChaCha20Poly1305ForTLS13's (static IV XOR sequence) and the additional data
// must be exactly 13 bytes.
func NewChaCha20Poly1305ForTLS12(key []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305ForTLS12(key)
}

// NewChaCha20Poly1305ForTLS13 returns ChaCha20-Poly1305 for TLS 1.3 with the nonce rules of
// NewGCMForTLS13 and exactly 5 bytes of additional data.
func NewChaCha20Poly1305ForTLS13(key []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305ForTLS13(key)
}

// NewChaCha20Poly1305ForTLS12WithIV is NewChaCha20Poly1305ForTLS12 told the 12-byte static IV up
// front, with the rules of NewGCMForTLS13WithIV and 13 bytes of additional data.
func NewChaCha20Poly1305ForTLS12WithIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305ForTLS12WithIV(key, iv)
}

// NewChaCha20Poly1305ForTLS13WithIV is NewChaCha20Poly1305ForTLS13 told the 12-byte static IV up
// front, with the rules of NewGCMForTLS13WithIV.
func NewChaCha20Poly1305ForTLS13WithIV(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305ForTLS13WithIV(key, iv)
}
