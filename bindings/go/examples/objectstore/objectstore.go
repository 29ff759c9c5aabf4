// Package objectstore is a key-per-object storage format, the pattern of backup and sync tools
// that encrypt each stored object under its own data key: the object's content is cut into chunks
// of ChunkSize bytes, and chunk i is sealed with AES-256-GCM under the nonce
// Prefix || BE64(i) and the additional data {1} for the last chunk, {0} for the others (so that a
// truncated object does not open). A key seals one object, once.
//
// The nonces are a counter, so the AEAD that seals them can enforce that none repeats:
// libaead's aead.NewGCMWithCounterNonce does (FIPS 140-3 IG C.H scenario 3), and under an OpenSSL
// FIPS provider its indicator approves every seal. The same code on the standard library's
// cipher.NewGCM (StdlibGCM) writes the same bytes, but that constructor takes arbitrary nonces,
// which Go refuses in FIPS 140-only mode (GODEBUG=fips140=only): "crypto/cipher: use of GCM with
// arbitrary IVs is not allowed in FIPS 140-only mode". The tests show both.
package objectstore

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
)

// ChunkSize is the plaintext size of every chunk but the last (which may be empty only when the
// whole content is).
const ChunkSize = 4096

// Prefix is the fixed field of every nonce: the format's name (IG C.H scenario 3 asks for a fixed
// field naming the module or context; the key, fresh per object, separates objects).
var Prefix = [4]byte{'o', 'b', 'j', '1'}

// NewAEAD makes the AES-GCM AEAD of a 32-byte key: aead.NewGCMWithCounterNonce, or StdlibGCM.
type NewAEAD func(key []byte) (cipher.AEAD, error)

// StdlibGCM is the standard library's AES-GCM, which checks no nonce.
func StdlibGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// NewKey draws a fresh 32-byte data key for one object.
func NewKey() ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// ErrCorrupt is returned by Open for an object that does not authenticate under the key, or was
// cut, reordered or extended.
var ErrCorrupt = errors.New("objectstore: object does not authenticate")

func nonce(i uint64) []byte {
	return binary.BigEndian.AppendUint64(append(make([]byte, 0, 12), Prefix[:]...), i)
}

func additionalData(last bool) []byte {
	if last {
		return []byte{1}
	}
	return []byte{0}
}

// aeadOf is newAEAD's AEAD of a 32-byte key.
func aeadOf(newAEAD NewAEAD, key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, errors.New("objectstore: the data key must be 32 bytes")
	}
	return newAEAD(key)
}

// Seal seals content under key (32 bytes, used for this object only) with the AEAD newAEAD makes.
func Seal(newAEAD NewAEAD, key, content []byte) ([]byte, error) {
	a, err := aeadOf(newAEAD, key)
	if err != nil {
		return nil, err
	}
	chunks := (len(content) + ChunkSize - 1) / ChunkSize
	if chunks == 0 {
		chunks = 1 // the empty content is one empty last chunk
	}
	out := make([]byte, 0, len(content)+chunks*a.Overhead())
	for i := 0; i < chunks; i++ {
		chunk := content[i*ChunkSize : min((i+1)*ChunkSize, len(content))]
		out = a.Seal(out, nonce(uint64(i)), chunk, additionalData(i == chunks-1))
	}
	return out, nil
}

// Open returns the content of an object sealed by Seal under key.
func Open(newAEAD NewAEAD, key, object []byte) ([]byte, error) {
	a, err := aeadOf(newAEAD, key)
	if err != nil {
		return nil, err
	}
	sealedChunk := ChunkSize + a.Overhead()
	var content []byte
	for i := uint64(0); ; i++ {
		n := min(sealedChunk, len(object))
		last := n == len(object)
		if content, err = a.Open(content, nonce(i), object[:n], additionalData(last)); err != nil {
			return nil, ErrCorrupt
		}
		if last {
			return content, nil
		}
		object = object[n:]
	}
}
