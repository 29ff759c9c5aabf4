package aead

/*
#include <aead.h>

// goaead_seal_open_v is aead_seal_open_v without a nonce, the component array typed as bytes: cgo
// checks a pointer argument whose type holds pointers at run time, and that check moves the Go
// array to the heap (2 KiB a call). The array holds only pinned Go pointers (AESSIV.components), as
// cgo's rules require; C reads it once, at the start of the call, and keeps nothing.
static inline int64_t goaead_seal_open_v(aead_ctx *ctx, int op, const uint8_t *components, size_t count,
                                         const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) {
	return aead_seal_open_v(ctx, op, NULL, 0, (const aead_buf *)(const void *)components, count, in, in_len,
	                        out, out_cap);
}
*/
import "C"

import (
	"crypto/cipher"
	"errors"
	"runtime"
	"strconv"
	"unsafe"
)

// AES-SIV (RFC 5297; aead.h "Contexts and algorithms", docs/algorithms.md): output SIV(16) || ciphertext, the
// synthetic IV first. Seal and Open are RFC 5297 section 6's AEAD form through the flat
// aead_seal_open (S2V components: the additional data, then the nonce if it is not empty);
// SealComponents and OpenComponents hand S2V a vector of components in one aead_seal_open_v call.

const (
	sivSize          = 16                        // the synthetic IV, AES-SIV's whole overhead
	sivMaxComponents = C.AEAD_SIV_MAX_COMPONENTS // 126: S2V takes 127 strings, the plaintext last
	sivMaxNonce      = maxNonce                  // NewAESSIVWithNonceSize's limit (the library takes longer ones)
	sivEmptyText     = "aead: AES-SIV of an empty message needs OpenSSL 3.5 or newer (its SIV skips an empty payload; libaead built with -Dlibcrypto=vendored has it)"
	sivTooMany       = "aead: more than 126 associated-data components given to AES-SIV (RFC 5297: S2V takes at most 127 strings, the plaintext included)"
)

var sivMessages = familyMessages("AES-SIV")

// AESSIV is AES-SIV (RFC 5297), made by NewAESSIV or NewAESSIVWithNonceSize. It implements
// cipher.AEAD (the nonce-based AEAD form) and adds SealComponents / OpenComponents for a vector of
// associated-data components (pyca/cryptography's AESSIV.encrypt(data, [ad1, ad2, ...])). Like every
// AEAD of this package it is safe for concurrent use; each call is one cgo call.
type AESSIV struct {
	a *aeadImpl
}

var _ cipher.AEAD = (*AESSIV)(nil)

// NewAESSIV returns AES-SIV (RFC 5297) in the AEAD form of its section 6 (AEAD_AES_SIV_CMAC_256,
// _384, _512 with a nonce, as RustCrypto's Aes*SivAead and Wycheproof's aead_aes_siv_cmac): the key
// (32, 48 or 64 bytes: the CMAC key, then the CTR key) selects AES-128/192/256-SIV; NonceSize() is
// 16 and Overhead() 16. Seal(dst, nonce, plaintext, ad) appends SIV || ciphertext, the synthetic IV
// being S2V(key, ad, nonce, plaintext). AES-SIV is deterministic: repeating a nonce reveals only
// whether two messages (with their additional data) were equal. Plaintexts up to 2^31-1 bytes.
//
// On a libcrypto older than OpenSSL 3.5 (the system 3.0, for instance) an empty plaintext cannot
// be sealed or opened: Seal panics, and Open returns, an error matching errors.ErrUnsupported
// whose text names the vendored build. Not available from FIPS providers (the constructor's error
// matches errors.ErrUnsupported under "fips=yes").
func NewAESSIV(key []byte) (*AESSIV, error) { return Options{}.NewAESSIV(key) }

// NewAESSIVWithNonceSize is NewAESSIV with nonces of size bytes, 0 to 128. With size 0, Seal and
// Open take a nil or empty nonce and S2V has the additional data as its one component
// (deterministic SIV, as Tink's AES-SIV).
func NewAESSIVWithNonceSize(key []byte, size int) (*AESSIV, error) {
	return Options{}.NewAESSIVWithNonceSize(key, size)
}

// NewAESSIV is the package's NewAESSIV with o's settings.
func (o Options) NewAESSIV(key []byte) (*AESSIV, error) {
	return o.NewAESSIVWithNonceSize(key, sivSize)
}

// NewAESSIVWithNonceSize is the package's NewAESSIVWithNonceSize with o's settings.
func (o Options) NewAESSIVWithNonceSize(key []byte, size int) (*AESSIV, error) {
	if size < 0 || size > sivMaxNonce {
		return nil, errors.New("aead: AES-SIV nonce size must be 0 to " + strconv.Itoa(sivMaxNonce) + " bytes, got " + strconv.Itoa(size))
	}
	var alg int
	switch len(key) {
	case 32:
		alg = C.AEAD_AES_128_SIV
	case 48:
		alg = C.AEAD_AES_192_SIV
	case 64:
		alg = C.AEAD_AES_256_SIV
	default:
		return nil, errors.New("aead: AES-SIV key must be 32, 48 or 64 bytes, got " + strconv.Itoa(len(key)))
	}
	a, err := newAEAD(alg, C.AEAD_POLICY_NONE, key, size, sivSize, oneUpdateMax, &sivMessages, o.Properties, nil)
	if err != nil {
		return nil, err
	}
	return &AESSIV{a}, nil
}

// NonceSize implements cipher.AEAD.
func (s *AESSIV) NonceSize() int { return s.a.nonceSize }

// Overhead implements cipher.AEAD: the 16-byte synthetic IV.
func (s *AESSIV) Overhead() int { return sivSize }

// Seal implements cipher.AEAD: it appends SIV || ciphertext to dst. Exact in-place use
// (dst = plaintext[:0]) works as crypto/cipher allows; the plaintext is moved 16 bytes forward
// first (libaead's in-place form for SIV, in == out + 16).
func (s *AESSIV) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != s.a.nonceSize {
		panic(s.a.msg.nonceSeal)
	}
	ret, out, in := s.checkSeal(dst, plaintext)
	if anyOverlap(out, additionalData) {
		panic(s.a.msg.overlapAAD)
	}
	if anyOverlap(out, nonce) { // read before anything is written, as crypto/cipher does
		var nonceCopy [sivMaxNonce]byte
		nonce = nonceCopy[:copy(nonceCopy[:], nonce)]
	}
	moveForward(in, plaintext)
	n := sealOpen(s.a.ctx, C.AEAD_SEAL, nonce, additionalData, in, out)
	runtime.KeepAlive(s)
	if n != int64(len(out)) {
		sivSealFailed(n)
	}
	return ret
}

// Open implements cipher.AEAD: ciphertext is SIV || ciphertext. A failed Open returns an error
// matching ErrOpen and leaves the bytes it would have appended to dst zeroed.
func (s *AESSIV) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != s.a.nonceSize {
		panic(s.a.msg.nonceOpen)
	}
	ret, out, written, ok := s.checkOpen(dst, ciphertext)
	if !ok {
		return nil, ErrOpen
	}
	if anyOverlap(out, additionalData) {
		panic(s.a.msg.overlapAAD)
	}
	if anyOverlap(out, nonce) {
		var nonceCopy [sivMaxNonce]byte
		nonce = nonceCopy[:copy(nonceCopy[:], nonce)]
	}
	var tail [sivSize]byte
	inPlace := saveTail(&tail, out, written, ciphertext)
	n := sealOpen(s.a.ctx, C.AEAD_OPEN, nonce, additionalData, ciphertext, written)
	runtime.KeepAlive(s)
	return sivOpened(ret, out, written, ciphertext, &tail, inPlace, n)
}

// SealComponents appends SIV || ciphertext to dst, S2V taking components in order and then the
// plaintext: pyca/cryptography's AESSIV.encrypt(plaintext, components) (no components: S2V of the
// plaintext alone, pyca's encrypt(data, None)). It is deterministic SIV, without a nonce; a nonce,
// if wanted, is the last component (RFC 5297 section 3), so SealComponents(dst, p, ad, nonce) is
// Seal(dst, nonce, p, ad) for a non-empty nonce. The nonce size of the AESSIV plays no part.
//
// One cgo call (aead_seal_open_v); the components' memory is pinned (runtime.Pinner) for the call:
// no allocation with up to 5 separately allocated components (any number of sub-slices of one
// buffer), and one per further 5-10 objects beyond (the Pinner's store; 126 objects: 5).
// More than 126 components panics, as does any overlap of the output with a component or an
// inexact one with the plaintext (exact in-place use, dst = plaintext[:0], works as in Seal).
func (s *AESSIV) SealComponents(dst, plaintext []byte, components ...[]byte) []byte {
	if len(components) > sivMaxComponents {
		panic(sivTooMany)
	}
	ret, out, in := s.checkSeal(dst, plaintext)
	var bufs [sivMaxComponents]C.aead_buf
	var pin runtime.Pinner
	defer pin.Unpin()
	count := s.components(&bufs, &pin, out, components)
	moveForward(in, plaintext)
	n := C.goaead_seal_open_v(s.a.ctx, C.AEAD_SEAL, sivArray(&bufs), C.size_t(count),
		bytePtr(in), C.size_t(len(in)),
		bytePtr(out), C.size_t(len(out)))
	runtime.KeepAlive(s)
	if int64(n) != int64(len(out)) {
		sivSealFailed(int64(n))
	}
	return ret
}

// OpenComponents opens SIV || ciphertext sealed by SealComponents with the same components (pyca's
// AESSIV.decrypt(data, components)), appending the plaintext to dst. Errors, panics and in-place
// use as Open and SealComponents.
func (s *AESSIV) OpenComponents(dst, ciphertext []byte, components ...[]byte) ([]byte, error) {
	if len(components) > sivMaxComponents {
		panic(sivTooMany)
	}
	ret, out, written, ok := s.checkOpen(dst, ciphertext)
	if !ok {
		return nil, ErrOpen
	}
	var bufs [sivMaxComponents]C.aead_buf
	var pin runtime.Pinner
	defer pin.Unpin()
	count := s.components(&bufs, &pin, out, components)
	var tail [sivSize]byte
	inPlace := saveTail(&tail, out, written, ciphertext)
	n := C.goaead_seal_open_v(s.a.ctx, C.AEAD_OPEN, sivArray(&bufs), C.size_t(count),
		bytePtr(ciphertext), C.size_t(len(ciphertext)),
		bytePtr(written), C.size_t(len(written)))
	runtime.KeepAlive(s)
	return sivOpened(ret, out, written, ciphertext, &tail, inPlace, int64(n))
}

// components fills bufs from components (each slice header read once: what is checked is what C
// gets), panicking if one overlaps out, and pins each component's memory: the array lives in Go
// memory, and cgo lets Go memory passed to C hold Go pointers only when they are pinned. A
// component inside the previous pinned one's capacity is in the same object, already pinned (the
// runtime.Pinner allocates beyond 5 pins: sub-slices of one buffer cost none).
func (s *AESSIV) components(bufs *[sivMaxComponents]C.aead_buf, pin *runtime.Pinner, out []byte, components [][]byte) int {
	var lo, hi uintptr // the pinned object known to hold [lo, hi)
	for i := range components {
		c := components[i]
		if len(c) == 0 {
			continue // bufs[i] stays {NULL, 0}
		}
		if anyOverlap(out, c) {
			panic(s.a.msg.overlapAAD)
		}
		if p := uintptr(unsafe.Pointer(&c[0])); p < lo || p >= hi {
			pin.Pin(&c[0])
			lo, hi = p, p+uintptr(cap(c))
		}
		bufs[i] = C.aead_buf{data: (*C.uint8_t)(&c[0]), len: C.size_t(len(c))}
	}
	return len(components)
}

// sivArray is the component array as goaead_seal_open_v takes it.
func sivArray(bufs *[sivMaxComponents]C.aead_buf) *C.uint8_t {
	return (*C.uint8_t)(unsafe.Pointer(bufs))
}

// checkSeal makes crypto/cipher's checks of a Seal (the size and the output/plaintext overlap),
// and returns dst extended by the output, the output region, and the plaintext to hand to C: for
// exact in-place use 16 bytes into the output, where moveForward puts it.
func (s *AESSIV) checkSeal(dst, plaintext []byte) (ret, out, in []byte) {
	if uint64(len(plaintext)) > s.a.maxPlain || len(dst) > maxInt-sivSize-len(plaintext) {
		panic(s.a.msg.tooLarge)
	}
	ret, out = sliceForAppend(dst, sivSize+len(plaintext))
	if inexactOverlap(out, plaintext) {
		panic(s.a.msg.overlapInput)
	}
	if anyOverlap(out, plaintext) {
		return ret, out, out[sivSize:]
	}
	return ret, out, plaintext
}

// checkOpen is checkSeal for Open (!ok: ErrOpen); written is where C is to write the plaintext:
// out, or for exact in-place use (dst = ciphertext[:0]) 16 bytes ahead of it (libaead's form,
// out == in + 16), from where sivOpened moves it back.
func (s *AESSIV) checkOpen(dst, ciphertext []byte) (ret, out, written []byte, ok bool) {
	if len(ciphertext) < sivSize || uint64(len(ciphertext)-sivSize) > s.a.maxPlain {
		return nil, nil, nil, false
	}
	if len(dst) > maxInt-(len(ciphertext)-sivSize) {
		return nil, nil, nil, false
	}
	ret, out = sliceForAppend(dst, len(ciphertext)-sivSize)
	if inexactOverlap(out, ciphertext) {
		panic(s.a.msg.overlapInput)
	}
	if anyOverlap(out, ciphertext) {
		return ret, out, ciphertext[sivSize:], true
	}
	return ret, out, out, true
}

// saveTail keeps, for an exact in-place Open, the 16 input bytes after the output region
// (ciphertext[len(out):]), which the library's in-place form overwrites: sivOpened puts them back,
// so that an Open writes nothing beyond its output, as crypto/cipher's in-place Open.
func saveTail(tail *[sivSize]byte, out, written, ciphertext []byte) bool {
	if len(written) == 0 || &written[0] == &out[0] {
		return false
	}
	copy(tail[:], ciphertext[len(out):])
	return true
}

// sivOpened finishes an Open from the library's result n.
func sivOpened(ret, out, written, ciphertext []byte, tail *[sivSize]byte, inPlace bool, n int64) ([]byte, error) {
	ok := n == int64(len(written))
	if ok && inPlace {
		copy(out, written)
	}
	if !ok {
		clear(out) // the library zeroed written (or wrote nothing, for a refusal)
	}
	if inPlace {
		copy(ciphertext[len(out):], tail[:])
	}
	if ok {
		return ret, nil
	}
	if n == codeUnsupported {
		return nil, sivEmptyError("open", n)
	}
	return nil, openError(n)
}

// sivSealFailed panics with the error of a refused or failed seal.
func sivSealFailed(code int64) {
	if code == codeUnsupported {
		panic(sivEmptyError("seal", code))
	}
	if code >= 0 {
		panic("aead: internal error: seal returned " + strconv.FormatInt(code, 10) + " bytes")
	}
	panic(sealError(code))
}

// sivEmptyError is AEAD_ERR_UNSUPPORTED from a SIV call: the one per-call refusal of that code is
// an empty message on a libcrypto below 3.5. It matches errors.ErrUnsupported (and ErrOpen from
// an Open), and unwraps to the *Error.
func sivEmptyError(op string, code int64) error {
	return &unsupportedError{&Error{Op: op, Code: int(code)}, sivEmptyText + "; loaded: " + Version() + " (code " + strconv.FormatInt(code, 10) + ")"}
}
