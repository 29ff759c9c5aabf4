// Package aead is the Go binding of libaead: AES-GCM, ChaCha20-Poly1305, AES-CCM, AES-GCM-SIV,
// AES-OCB3, XChaCha20-Poly1305 and AES-SIV through OpenSSL 3,
// exposed as crypto/cipher.AEAD values (AES-SIV also with a vector of associated-data components).
//
// Every Seal and Open is exactly one cgo call (aead_seal_open) on a keyed C context that is
// created once per AEAD value. A value returned by any constructor of this package is safe for
// concurrent use by any number of goroutines, including the TLS variants: their nonce-order check
// and its update are one atomic step inside the C library, so a sequence number is never accepted
// twice, even when two goroutines race to seal with it.
//
// The semantics follow crypto/cipher exactly: Seal and Open append to dst and do not allocate when
// cap(dst) suffices; exact in-place operation (dst = plaintext[:0] or ciphertext[:0]) is allowed;
// any other overlap of the output with the input, and any overlap with the additional data, panics
// with the standard library's message; a wrong nonce length or an oversized message panics like
// crypto/cipher; a failed Open returns an error matching ErrOpen (errors.Is) and leaves the bytes it
// would have appended to dst zeroed.
//
// By default the package compiles libaead's C++ sources (lib/ and shim/ of this module) with cgo and links
// the system libcrypto found by pkg-config; with the build tag libaead_system it links an installed
// libaead found by pkg-config (package name "aead") instead. See README.md.
package aead

/*
#include <stdlib.h>
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// ErrOpen is returned (possibly wrapped in an *Error) by every failed Open. The message is the
// standard library's.
var ErrOpen = errors.New("cipher: message authentication failed")

// ErrNonceLimit is matched (errors.Is) by the *Error a random-nonce Seal panics with once its AEAD
// has sealed 2^32 messages (AEAD_ERR_NONCE_LIMIT).
var ErrNonceLimit = errors.New("aead: 2^32 random-nonce seals under one key")

// ErrForked is matched (errors.Is) by the *Error a Seal on a TLS AEAD (or a QUIC, DTLS,
// counter-nonce or SSH one) panics with (and a Batch record's Err holds) when the AEAD was created
// before a fork() of the process and the seal runs in the child (AEAD_ERR_FORKED, libaead 1.2):
// parent and child would otherwise both hold the same "next sequence" and could both seal it.
// Open keeps working; random-nonce AEADs keep working with fresh nonces. A Go program cannot fork
// without exec (syscall.ForkExec and os/exec start a new program, which inherits no AEAD), so only
// a program that calls fork() through cgo meets it.
var ErrForked = errors.New("aead: seal on a sequenced AEAD inherited across fork()")

// Error reports a libaead return code (one of the negative AEAD_ERR_* values of aead.h).
type Error struct {
	Op   string // "new", "seal" or "open"
	Code int    // negative AEAD_ERR_* code
}

func (e *Error) Error() string {
	return "aead: " + e.Op + ": " + C.GoString(C.aead_strerror(C.int64_t(e.Code))) +
		" (code " + strconv.Itoa(e.Code) + ")"
}

// Is makes every error returned by Open match ErrOpen, and an error of any call match the sentinel
// errors its code's entry of sentinels names: a constructor's AEAD_ERR_UNSUPPORTED (no provider offers
// the algorithm for the property query) errors.ErrUnsupported, the random-nonce seal limit
// ErrNonceLimit, a seal refused after fork() ErrForked, a QUIC key's usage limit ErrKeyLimit, a QUIC
// packet number refused by Protect ErrPacketNumber, and the DTLS refusals ErrReplay, ErrRecordNumber,
// ErrEpoch and ErrAADMismatch (a refused open also matches ErrOpen).
func (e *Error) Is(target error) bool {
	if target == ErrOpen {
		return e.Op == "open"
	}
	for _, s := range sentinels[e.Code] {
		if s == target {
			return true
		}
	}
	return false
}

// sentinels maps every AEAD_ERR_* code of aead.h to the sentinel errors an *Error of that code matches
// (errors.Is), none for most: the binding's list of the codes (tests/decls/errors.py checks it against
// the header and the error table of README.md). ErrOpen is not here: every error an Open returns
// matches it, and a forgery (AEAD_ERR_AUTH) is ErrOpen itself. The stream package's finished-stream
// code (libaead 1.7) matches none and is not named: this package builds against a 1.6 header.
var sentinels = map[int][]error{
	C.AEAD_ERR_AUTH:             nil,
	C.AEAD_ERR_ARG:              nil,
	C.AEAD_ERR_KEY_SIZE:         nil,
	C.AEAD_ERR_NONCE_SIZE:       nil,
	C.AEAD_ERR_TAG_SIZE:         nil,
	C.AEAD_ERR_AAD_SIZE:         {ErrAADMismatch},
	C.AEAD_ERR_TOO_LONG:         nil,
	C.AEAD_ERR_BUFFER_TOO_SMALL: nil,
	C.AEAD_ERR_OVERLAP:          nil,
	C.AEAD_ERR_NONCE_ORDER:      {ErrPacketNumber, ErrRecordNumber},
	C.AEAD_ERR_NONCE_EXHAUSTED:  {ErrPacketNumber, ErrRecordNumber},
	C.AEAD_ERR_NONCE_PREFIX:     {ErrEpoch},
	C.AEAD_ERR_UNSUPPORTED:      {errors.ErrUnsupported},
	C.AEAD_ERR_NOMEM:            nil,
	C.AEAD_ERR_CRYPTO:           nil,
	C.AEAD_ERR_NONCE_LIMIT:      {ErrNonceLimit},
	C.AEAD_ERR_FORKED:           {ErrForked},
	C.AEAD_ERR_KEY_LIMIT:        {ErrKeyLimit},
	C.AEAD_ERR_REPLAY:           {ErrReplay},
	C.AEAD_ERR_AAD_MISMATCH:     {ErrAADMismatch},
}

// Return codes of aead.h that the binding distinguishes.
const (
	codeAuth          = C.AEAD_ERR_AUTH
	codeAADSize       = C.AEAD_ERR_AAD_SIZE
	codeNonceOrder    = C.AEAD_ERR_NONCE_ORDER
	codeNonceExhaust  = C.AEAD_ERR_NONCE_EXHAUSTED
	codeNoncePrefix   = C.AEAD_ERR_NONCE_PREFIX
	codeUnsupported   = C.AEAD_ERR_UNSUPPORTED
	codeNonceLimit    = C.AEAD_ERR_NONCE_LIMIT
	codeForked        = C.AEAD_ERR_FORKED
	maxInt            = int(^uint(0) >> 1)
	gcmMaxPlaintext   = 1<<36 - 32 // AEAD_GCM_MAX_PLAINTEXT = (2^32-2) blocks, as crypto/cipher
	chachaMaxPlain    = 1<<38 - 64 // AEAD_CHACHA20_POLY1305_MAX_PLAINTEXT, as x/crypto
	maxNonce          = C.AEAD_MAX_NONCE
	standardNonceSize = 12
	standardTagSize   = 16
	minTagSize        = 12 // crypto/cipher's minimum for NewGCMWithTagSize
)

// abiErr is non-nil when the loaded libaead does not implement the ABI of the header we compiled
// against; every constructor then returns it.
var abiErr error

func init() {
	if v := uint32(C.aead_abi_version()); v != C.AEAD_ABI_VERSION {
		abiErr = errors.New("aead: libaead ABI version " + strconv.Itoa(int(v)) +
			" loaded, binding built for " + strconv.Itoa(C.AEAD_ABI_VERSION))
	} else if v := uint32(C.aead_version_number()); v < C.AEAD_VERSION_NUMBER {
		// A library older than the header is refused by the dynamic loader when it lacks a symbol
		// the binding links; this check also covers one that only lacks a policy or a field.
		abiErr = errors.New("aead: libaead " + versionText(v) + " loaded, binding needs " +
			versionText(C.AEAD_VERSION_NUMBER) + " or newer")
	}
}

// versionText is an AEAD_VERSION_NUMBER (major*10000 + minor*100 + patch) as "major.minor.patch".
func versionText(v uint32) string {
	return strconv.Itoa(int(v/10000)) + "." + strconv.Itoa(int(v/100%100)) + "." + strconv.Itoa(int(v%100))
}

// Version returns the version text of the loaded libaead and of the libcrypto it runs on.
func Version() string { return C.GoString(C.aead_version()) }

// messages holds the panic texts of one AEAD family, copied from the implementation the family
// replaces: crypto/cipher for AES-GCM, golang.org/x/crypto/chacha20poly1305 for ChaCha20-Poly1305.
type messages struct {
	nonceSeal, nonceOpen    string
	tooLarge                string
	ctTooLarge              string // "" means Open returns ErrOpen instead of panicking
	overlapInput            string
	overlapAAD              string
	tlsPrefix, tlsExhausted string
	tlsOrder, tlsAAD        string
}

var gcmMessages = messages{
	nonceSeal:    "crypto/cipher: incorrect nonce length given to GCM",
	nonceOpen:    "crypto/cipher: incorrect nonce length given to GCM",
	tooLarge:     "crypto/cipher: message too large for GCM",
	overlapInput: "crypto/cipher: invalid buffer overlap of output and input",
	overlapAAD:   "crypto/cipher: invalid buffer overlap of output and additional data",
	// The three texts of Go's own NewGCMForTLS12/13 (crypto/internal/fips140/aes/gcm).
	tlsPrefix:    "crypto/cipher: GCM nonce prefix changed",
	tlsExhausted: "crypto/cipher: counter exhausted",
	tlsOrder:     "crypto/cipher: counter decreased or remained the same",
}

var chachaMessages = messages{
	nonceSeal:    "chacha20poly1305: bad nonce length passed to Seal",
	nonceOpen:    "chacha20poly1305: bad nonce length passed to Open",
	tooLarge:     "chacha20poly1305: plaintext too large",
	ctTooLarge:   "chacha20poly1305: ciphertext too large",
	overlapInput: "chacha20poly1305: invalid buffer overlap of output and input",
	overlapAAD:   "chacha20poly1305: invalid buffer overlap of output and additional data",
	tlsPrefix:    "chacha20poly1305: nonce prefix changed",
	tlsExhausted: "chacha20poly1305: counter exhausted",
	tlsOrder:     "chacha20poly1305: counter decreased or remained the same",
}

// aeadImpl is the cipher.AEAD of every constructor.
type aeadImpl struct {
	ctx       *C.aead_ctx
	nonceSize int
	tagSize   int
	maxPlain  uint64
	msg       *messages
}

var _ cipher.AEAD = (*aeadImpl)(nil)

// newAEAD keys a C context; properties and iv are aead_ctx_new_ex's (zero values: aead_ctx_new's
// behaviour).
func newAEAD(alg, policy int, key []byte, nonceSize, tagSize int, maxPlain uint64, msg *messages, properties string, iv []byte) (*aeadImpl, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	props, err := cProperties(properties)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(props))
	var ctx *C.aead_ctx
	rc := C.aead_ctx_new_ex(&ctx, C.int(alg), C.int(policy), bytePtr(key), C.size_t(len(key)), C.size_t(tagSize),
		props, bytePtr(iv), C.size_t(len(iv)))
	runtime.KeepAlive(key)
	runtime.KeepAlive(iv)
	if rc != 0 {
		return nil, &Error{Op: "new", Code: int(rc)}
	}
	a := &aeadImpl{ctx: ctx, nonceSize: nonceSize, tagSize: tagSize, maxPlain: maxPlain, msg: msg}
	setCleanup(a)
	return a, nil
}

// cProperties is a property query as a C string to free (C.free(NULL) is a no-op), or NULL for "".
func cProperties(properties string) (*C.char, error) {
	if properties == "" {
		return nil, nil
	}
	if strings.IndexByte(properties, 0) >= 0 {
		return nil, errors.New("aead: property query contains a NUL byte")
	}
	return C.CString(properties), nil
}

var (
	gcmTLS12Messages    = withAAD(gcmMessages, "crypto/cipher: TLS 1.2 GCM requires exactly 13 bytes of additional data")
	gcmTLS13Messages    = withAAD(gcmMessages, "crypto/cipher: TLS 1.3 GCM requires exactly 5 bytes of additional data")
	chachaTLS12Messages = withAAD(chachaMessages, "chacha20poly1305: TLS 1.2 requires exactly 13 bytes of additional data")
	chachaTLS13Messages = withAAD(chachaMessages, "chacha20poly1305: TLS 1.3 requires exactly 5 bytes of additional data")
)

func withAAD(m messages, aad string) messages {
	m.tlsAAD = aad
	return m
}

func (a *aeadImpl) NonceSize() int { return a.nonceSize }
func (a *aeadImpl) Overhead() int  { return a.tagSize }

// bytePtr gives C the address of b's first byte, or NULL for an empty slice (the C side accepts
// (NULL, 0) and never reads a pointer whose length is 0; &b[0] of an empty slice would panic or
// point past the end of a buffer).
func bytePtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// sealOpen is the aead_seal_open call of a Seal, an Open or a Batch record (AES-SIV's, the
// random-nonce AEADs' and DTLS12's too) on Go slices. The compiler inlines it, so those keep the cgo call inline
// (see checkSeal); the caller keeps the context's owner alive past it (runtime.KeepAlive), which
// here would make it too costly to inline.
func sealOpen(ctx *C.aead_ctx, op C.int, nonce, additionalData, in, out []byte) int64 {
	return int64(C.aead_seal_open(ctx, op, bytePtr(nonce), C.size_t(len(nonce)),
		bytePtr(additionalData), C.size_t(len(additionalData)),
		bytePtr(in), C.size_t(len(in)),
		bytePtr(out), C.size_t(len(out))))
}

// Seal implements cipher.AEAD.
func (a *aeadImpl) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	ret, out := a.checkSeal(dst, nonce, plaintext, additionalData)
	if anyOverlap(out, nonce) {
		// crypto/cipher reads the nonce before writing: allow it by sealing with a copy.
		var nonceCopy [maxNonce]byte
		nonce = nonceCopy[:copy(nonceCopy[:], nonce)]
	}
	n := sealOpen(a.ctx, C.AEAD_SEAL, nonce, additionalData, plaintext, out)
	runtime.KeepAlive(a)
	if n != int64(len(out)) {
		a.sealFailed(n)
	}
	return ret
}

// Open implements cipher.AEAD.
func (a *aeadImpl) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	ret, out, ok := a.checkOpen(dst, nonce, ciphertext, additionalData)
	if !ok {
		return nil, ErrOpen
	}
	if anyOverlap(out, nonce) {
		var nonceCopy [maxNonce]byte
		nonce = nonceCopy[:copy(nonceCopy[:], nonce)]
	}
	n := sealOpen(a.ctx, C.AEAD_OPEN, nonce, additionalData, ciphertext, out)
	runtime.KeepAlive(a)
	if n != int64(len(out)) {
		// libaead has zeroed out (AEAD_ERR_AUTH, _NOMEM, _CRYPTO) or written nothing to it
		// (refusals, which the checks make unreachable).
		return nil, openError(n)
	}
	return ret, nil
}

// checkSeal makes crypto/cipher's checks of a Seal, panicking with its messages, and returns dst
// extended by the output and the output region. (Seal and Batch share it; Seal keeps the cgo call
// inline: one more call level measurably slows a 64-byte Seal.)
func (a *aeadImpl) checkSeal(dst, nonce, plaintext, additionalData []byte) (ret, out []byte) {
	if len(nonce) != a.nonceSize {
		panic(a.msg.nonceSeal)
	}
	// len(plaintext) <= maxPlain (< 2^39): no sum below wraps, and dst extended must fit an int.
	if uint64(len(plaintext)) > a.maxPlain || len(dst) > maxInt-a.tagSize-len(plaintext) {
		panic(a.msg.tooLarge)
	}
	ret, out = sliceForAppend(dst, len(plaintext)+a.tagSize)
	if inexactOverlap(out, plaintext) { // checkOverlap's tests, written out: a call level less
		panic(a.msg.overlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(a.msg.overlapAAD)
	}
	return ret, out
}

// checkOpen is checkSeal for Open; !ok means ErrOpen (an input that cannot be a sealed message).
func (a *aeadImpl) checkOpen(dst, nonce, ciphertext, additionalData []byte) (ret, out []byte, ok bool) {
	if len(nonce) != a.nonceSize {
		panic(a.msg.nonceOpen)
	}
	if len(ciphertext) < a.tagSize {
		return nil, nil, false
	}
	if uint64(len(ciphertext)) > a.maxPlain+uint64(a.tagSize) {
		if a.msg.ctTooLarge != "" {
			panic(a.msg.ctTooLarge)
		}
		return nil, nil, false
	}
	if len(dst) > maxInt-(len(ciphertext)-a.tagSize) { // dst extended cannot exist
		return nil, nil, false
	}
	ret, out = sliceForAppend(dst, len(ciphertext)-a.tagSize)
	if inexactOverlap(out, ciphertext) {
		panic(a.msg.overlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(a.msg.overlapAAD)
	}
	return ret, out, true
}

// checkOverlap: crypto/cipher's overlap rules (the random-nonce AEAD's checks use it).
func (a *aeadImpl) checkOverlap(out, in, additionalData []byte) {
	if inexactOverlap(out, in) {
		panic(a.msg.overlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(a.msg.overlapAAD)
	}
}

// openError is the error of a failed open: ErrOpen for an authentication failure, an *Error
// (matching ErrOpen) for anything else.
func openError(code int64) error {
	if code == codeAuth {
		return ErrOpen
	}
	if code >= 0 {
		panic("aead: internal error: open returned " + strconv.FormatInt(code, 10) + " bytes")
	}
	return &Error{Op: "open", Code: int(code)}
}

// sealError is the error of a failed or refused seal (a Batch reports it; Seal panics with it, or
// with crypto/cipher's message for the TLS refusals).
func sealError(code int64) error {
	if code >= 0 {
		panic("aead: internal error: seal returned " + strconv.FormatInt(code, 10) + " bytes")
	}
	return &Error{Op: "seal", Code: int(code)}
}

// sealFailed panics with the message for a refused or failed seal; it never returns.
func (a *aeadImpl) sealFailed(code int64) {
	switch code {
	case codeNonceOrder:
		panic(a.msg.tlsOrder)
	case codeNonceExhaust:
		panic(a.msg.tlsExhausted)
	case codeNoncePrefix:
		panic(a.msg.tlsPrefix)
	case codeAADSize:
		if a.msg.tlsAAD != "" {
			panic(a.msg.tlsAAD)
		}
	}
	panic(sealError(code))
}

// sliceForAppend is crypto/cipher's: it returns dst extended by n bytes (reallocated only when
// cap(dst) is too small) and the extension.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}

// anyOverlap and inexactOverlap are crypto/internal/alias's.
func anyOverlap(x, y []byte) bool {
	return len(x) > 0 && len(y) > 0 &&
		uintptr(unsafe.Pointer(&x[0])) <= uintptr(unsafe.Pointer(&y[len(y)-1])) &&
		uintptr(unsafe.Pointer(&y[0])) <= uintptr(unsafe.Pointer(&x[len(x)-1]))
}

func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	return anyOverlap(x, y)
}
