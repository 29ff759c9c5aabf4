// Package hpke is Hybrid Public Key Encryption (RFC 9180) on libaead and OpenSSL 3, with the API of
// Go 1.26's crypto/hpke: a program switches by changing the import path to
// github.com/libaead/libaead/bindings/go/hpke (package name hpke), as long as it uses the KEMs, KDFs
// and AEADs this package has.
//
// What it adds: the context's sequence number lives inside libaead, checked and committed in one
// atomic step per Seal, so a [Sender] and a [Recipient] are safe for concurrent use (crypto/hpke's
// are not) and no two messages of a context ever share a nonce; after 2^64 - 1 messages a Sender
// refuses instead of wrapping; a Sender set up before a fork() of the process refuses to seal in the
// child. Beyond crypto/hpke's API it has the PSK, auth and auth-PSK modes and OpenSSL properties
// ([Options]), X448 ([DHKEMX448]) and ML-KEM-512 ([MLKEM512]), seals and opens into a caller's buffer
// that allocate nothing ([Sender.AppendSeal], [Recipient.AppendOpen]) and opens of an explicit
// sequence number through a replay window ([Recipient.AppendOpenAt]).
//
// Suites: the KEMs DHKEM(P-256, HKDF-SHA256), DHKEM(P-384, HKDF-SHA384), DHKEM(P-521,
// HKDF-SHA512), DHKEM(X25519, HKDF-SHA256) and DHKEM(X448, HKDF-SHA512), and draft-ietf-hpke-pq's
// post-quantum ML-KEM-512, ML-KEM-768, ML-KEM-1024, MLKEM768-P256, MLKEM1024-P384 and MLKEM768-X25519
// (these need OpenSSL 3.5 or newer, and take the base and PSK modes only); the KDFs HKDF-SHA256,
// HKDF-SHA384, HKDF-SHA512, SHAKE128 and SHAKE256; the AEADs AES-128-GCM, AES-256-GCM,
// ChaCha20-Poly1305 and export-only.
package hpke

/*
#include <stdlib.h>
#include <aead.h>
*/
import "C"

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/minversion"
)

const tagSize = C.AEAD_HPKE_TAG

// abiErr is non-nil when the loaded libaead predates HPKE (an installed library, -tags
// libaead_system); every constructor then returns it.
var abiErr error

func init() {
	if abiErr = minversion.Err("hpke", uint32(C.aead_version_number()), 10600, "HPKE"); abiErr == nil {
		loadKEMSizes()
	}
}

var errExportOnly = errors.New("export-only instantiation")

type context struct {
	ctx        *C.aead_hpke
	exportOnly bool
}

// Sender is a sending HPKE context. It is instantiated with a specific KEM encapsulation key (the
// public key). Each Seal takes the context's next sequence number; it is safe for concurrent use.
type Sender struct {
	*context
}

// Recipient is a receiving HPKE context. It is instantiated with a specific KEM decapsulation key
// (the secret key). Open opens the messages in order (the sequence number one past the largest
// opened); AppendOpenAt opens any sequence number once. It is safe for concurrent use (concurrent
// in-order Opens race for the same number: use AppendOpenAt then).
type Recipient struct {
	*context
}

// Options are the settings beyond crypto/hpke's API. The zero value is crypto/hpke's behaviour
// (the base mode, OpenSSL's default properties).
type Options struct {
	// PSK and PSKID select the PSK modes (RFC 9180 section 5.1.2): both non-empty, or both empty.
	PSK, PSKID []byte
	// SenderKey (NewSender, Seal) and SenderPublicKey (NewRecipient, Open) select the auth modes
	// (section 5.1.3): the sender's key pair, of the recipient key's KEM.
	SenderKey       PrivateKey
	SenderPublicKey PublicKey
	// Window is the replay window of AppendOpenAt, in messages: 0 means 64, else a multiple of 64 up
	// to 4096.
	Window uint32
	// Properties is the OpenSSL property query of every fetch ("fips=yes", for instance); "" means
	// the defaults.
	Properties string

	ikmE []byte // known-answer tests only: the sender's ephemeral key is DeriveKeyPair(ikmE)
}

// NewSender returns a sending HPKE context for the provided KEM encapsulation key (the public key),
// and using the ciphersuite defined by the combination of KEM, KDF, and AEAD.
//
// The info parameter is additional public information that must match between sender and
// recipient.
//
// The returned enc ciphertext can be used to instantiate a matching receiving HPKE context with the
// corresponding KEM decapsulation key.
func NewSender(pk PublicKey, kdf KDF, aead AEAD, info []byte) (enc []byte, s *Sender, err error) {
	return Options{}.NewSender(pk, kdf, aead, info)
}

// NewRecipient returns a receiving HPKE context for the provided KEM decapsulation key (the secret
// key), and using the ciphersuite defined by the combination of KEM, KDF, and AEAD.
//
// The enc parameter must have been produced by a matching sending HPKE context with the
// corresponding KEM encapsulation key. The info parameter is additional public information that
// must match between sender and recipient.
func NewRecipient(enc []byte, k PrivateKey, kdf KDF, aead AEAD, info []byte) (*Recipient, error) {
	return Options{}.NewRecipient(enc, k, kdf, aead, info)
}

// Seal instantiates a single-use HPKE sending context like [NewSender], and then encrypts the
// provided plaintext like [Sender.Seal] (with no aad). Seal returns the concatenation of the
// encapsulated key and the ciphertext.
func Seal(pk PublicKey, kdf KDF, aead AEAD, info, plaintext []byte) ([]byte, error) {
	return Options{}.Seal(pk, kdf, aead, info, plaintext)
}

// Open instantiates a single-use HPKE receiving context like [NewRecipient], and then decrypts the
// provided ciphertext like [Recipient.Open] (with no aad). ciphertext must be the concatenation of
// the encapsulated key and the actual ciphertext.
func Open(k PrivateKey, kdf KDF, aead AEAD, info, ciphertext []byte) ([]byte, error) {
	return Options{}.Open(k, kdf, aead, info, ciphertext)
}

// withParams runs call with the key schedule's parameters (kem's suite with kdf and a, o's mode) and
// the auth key's bytes (sender: o.SenderKey's private key, recipient: o.SenderPublicKey; nil in the
// other modes), and returns its error.
func (o Options) withParams(sender bool, kem KEM, kdf KDF, a AEAD, info []byte, call func(*C.aead_hpke_params, []byte) error) error {
	var pin runtime.Pinner
	defer pin.Unpin()
	p, auth, props, err := o.setup(&pin, sender, kem, kdf, a, info)
	defer C.free(unsafe.Pointer(props))
	if err != nil {
		return err
	}
	return call(&p, auth)
}

// setup is withParams's parameters, with the auth key's bytes and the C properties string to free.
// The pointers it stores are pinned with pin.
func (o Options) setup(pin *runtime.Pinner, sender bool, kem KEM, kdf KDF, a AEAD, info []byte) (p C.aead_hpke_params, auth []byte, props *C.char, err error) {
	if abiErr != nil {
		return p, nil, nil, abiErr
	}
	if kdf == nil || a == nil {
		return p, nil, nil, errors.New("hpke: no KDF or no AEAD")
	}
	mode := C.AEAD_HPKE_MODE_BASE
	if sender && o.SenderKey != nil {
		auth = o.SenderKey.raw()
		if o.SenderKey.KEM() != kem {
			return p, nil, nil, errors.New("hpke: the sender's key is of another KEM")
		}
	} else if !sender && o.SenderPublicKey != nil {
		auth = o.SenderPublicKey.raw()
		if o.SenderPublicKey.KEM() != kem {
			return p, nil, nil, errors.New("hpke: the sender's public key is of another KEM")
		}
	}
	if auth != nil {
		mode = C.AEAD_HPKE_MODE_AUTH
	}
	if len(o.PSK) > 0 || len(o.PSKID) > 0 {
		mode++ // AEAD_HPKE_MODE_PSK or AEAD_HPKE_MODE_AUTH_PSK
	}
	if o.Properties != "" {
		if strings.IndexByte(o.Properties, 0) >= 0 {
			return p, nil, nil, errors.New("hpke: property query contains a NUL byte")
		}
		props = C.CString(o.Properties)
	}
	p.size = C.size_t(unsafe.Sizeof(p))
	p.mode = C.int(mode)
	p.kem, p.kdf, p.aead = C.int(kem.ID()), C.int(kdf.ID()), C.int(a.ID())
	p.info, p.info_len = pinned(pin, info), C.size_t(len(info))
	p.psk, p.psk_len = pinned(pin, o.PSK), C.size_t(len(o.PSK))
	p.psk_id, p.psk_id_len = pinned(pin, o.PSKID), C.size_t(len(o.PSKID))
	p.properties = props
	p.window = C.uint32_t(o.Window)
	p.ikm_e, p.ikm_e_len = pinned(pin, o.ikmE), C.size_t(len(o.ikmE))
	return p, auth, props, nil
}

// NewSender is the package's NewSender with o's mode and settings.
func (o Options) NewSender(pk PublicKey, kdf KDF, aead AEAD, info []byte) (enc []byte, s *Sender, err error) {
	pkR := pk.raw()
	enc = make([]byte, pk.KEM().encSize())
	var ctx *C.aead_hpke
	err = o.withParams(true, pk.KEM(), kdf, aead, info, func(p *C.aead_hpke_params, skS []byte) error {
		rc := C.aead_hpke_setup_sender(&ctx, p, bytePtr(pkR), C.size_t(len(pkR)), bytePtr(skS), C.size_t(len(skS)),
			bytePtr(enc), C.size_t(len(enc)))
		runtime.KeepAlive(pkR)
		runtime.KeepAlive(skS)
		return newError(int(rc))
	})
	if err != nil {
		return nil, nil, err
	}
	return enc, &Sender{newContext(ctx, aead)}, nil
}

// NewRecipient is the package's NewRecipient with o's mode and settings.
func (o Options) NewRecipient(enc []byte, k PrivateKey, kdf KDF, aead AEAD, info []byte) (*Recipient, error) {
	skR := k.raw()
	var ctx *C.aead_hpke
	err := o.withParams(false, k.KEM(), kdf, aead, info, func(p *C.aead_hpke_params, pkS []byte) error {
		rc := C.aead_hpke_setup_recipient(&ctx, p, bytePtr(enc), C.size_t(len(enc)), bytePtr(skR), C.size_t(len(skR)),
			bytePtr(pkS), C.size_t(len(pkS)))
		runtime.KeepAlive(enc)
		runtime.KeepAlive(skR)
		runtime.KeepAlive(pkS)
		return newError(int(rc))
	})
	if err != nil {
		return nil, err
	}
	return &Recipient{newContext(ctx, aead)}, nil
}

// Seal is the package's Seal with o's mode and settings (one libaead call:
// aead_hpke_seal_single).
func (o Options) Seal(pk PublicKey, kdf KDF, aead AEAD, info, plaintext []byte) ([]byte, error) {
	if aead != nil && aead.exportOnly() {
		return nil, errExportOnly
	}
	pkR, nEnc := pk.raw(), pk.KEM().encSize()
	out := make([]byte, nEnc+len(plaintext)+tagSize)
	enc, ct := out[:nEnc], out[nEnc:]
	err := o.withParams(true, pk.KEM(), kdf, aead, info, func(p *C.aead_hpke_params, skS []byte) error {
		n := C.aead_hpke_seal_single(p, bytePtr(pkR), C.size_t(len(pkR)), bytePtr(skS), C.size_t(len(skS)),
			bytePtr(enc), C.size_t(len(enc)), nil, 0, bytePtr(plaintext), C.size_t(len(plaintext)),
			bytePtr(ct), C.size_t(len(ct)))
		runtime.KeepAlive(pkR)
		runtime.KeepAlive(skS)
		runtime.KeepAlive(plaintext)
		runtime.KeepAlive(out)
		if int64(n) == int64(len(ct)) {
			return nil
		}
		return newError(int(n))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Open is the package's Open with o's mode and settings (one libaead call:
// aead_hpke_open_single).
func (o Options) Open(k PrivateKey, kdf KDF, aead AEAD, info, ciphertext []byte) ([]byte, error) {
	if aead != nil && aead.exportOnly() {
		return nil, errExportOnly
	}
	nEnc := k.KEM().encSize()
	if len(ciphertext) < nEnc {
		return nil, errors.New("ciphertext too short")
	}
	enc, ct := ciphertext[:nEnc], ciphertext[nEnc:]
	if len(ct) < tagSize {
		return nil, libaead.ErrOpen
	}
	skR := k.raw()
	out := make([]byte, len(ct)-tagSize)
	err := o.withParams(false, k.KEM(), kdf, aead, info, func(p *C.aead_hpke_params, pkS []byte) error {
		n := C.aead_hpke_open_single(p, bytePtr(enc), C.size_t(len(enc)), bytePtr(skR), C.size_t(len(skR)),
			bytePtr(pkS), C.size_t(len(pkS)), nil, 0, bytePtr(ct), C.size_t(len(ct)), bytePtr(out), C.size_t(len(out)))
		runtime.KeepAlive(ciphertext)
		runtime.KeepAlive(skR)
		runtime.KeepAlive(pkS)
		runtime.KeepAlive(out)
		if int64(n) == int64(len(out)) {
			return nil
		}
		return openError(int64(n))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func newContext(ctx *C.aead_hpke, a AEAD) *context {
	c := &context{ctx: ctx, exportOnly: a.exportOnly()}
	setCleanup(c)
	return c
}

// Seal encrypts the provided plaintext, optionally binding to the additional public data aad.
//
// Each Seal takes the next sequence number, and Open on the receiving side must be called in the
// same order as Seal (or AppendOpenAt told each message's number).
func (s *Sender) Seal(aad, plaintext []byte) ([]byte, error) {
	ct, _, err := s.AppendSeal(nil, aad, plaintext)
	return ct, err
}

// AppendSeal is Seal appending the ciphertext to dst (it allocates nothing when cap(dst) suffices;
// dst may be plaintext[:0] to seal in place), and reports the sequence number it used. Errors: the
// export-only suite, a Sender set up before fork() sealing in the child (matching aead.ErrForked),
// and the sequence numbers exhausted (an *aead.Error with Code AEAD_ERR_NONCE_EXHAUSTED).
func (s *Sender) AppendSeal(dst, aad, plaintext []byte) (ciphertext []byte, seq uint64, err error) {
	if s.exportOnly {
		return nil, 0, errExportOnly
	}
	ret, out := grow(dst, len(plaintext)+tagSize)
	var cseq C.uint64_t
	n := C.aead_hpke_seal(s.ctx, bytePtr(aad), C.size_t(len(aad)), bytePtr(plaintext), C.size_t(len(plaintext)),
		bytePtr(out), C.size_t(len(out)), &cseq)
	runtime.KeepAlive(s.context)
	if int64(n) != int64(len(out)) {
		return nil, 0, &libaead.Error{Op: "seal", Code: int(n)}
	}
	return ret, uint64(cseq), nil
}

// Export produces a secret value derived from the shared key between sender and recipient. length
// must be at most 255 times the KDF's hash size (crypto/hpke: at most 65,535), exporterContext at
// most 960 bytes.
func (s *Sender) Export(exporterContext string, length int) ([]byte, error) {
	return s.export(exporterContext, length)
}

// Open decrypts the provided ciphertext, optionally binding to the additional public data aad, or
// returns an error if decryption fails (matching aead.ErrOpen).
//
// Open takes the sequence number one past the largest opened, and must be called in the same order
// as Seal on the sending side.
func (r *Recipient) Open(aad, ciphertext []byte) ([]byte, error) {
	return r.AppendOpen(nil, aad, ciphertext)
}

// AppendOpen is Open appending the plaintext to dst (it allocates nothing when cap(dst) suffices;
// dst may be ciphertext[:0] to open in place). A failed open leaves the bytes it would have
// appended zeroed.
func (r *Recipient) AppendOpen(dst, aad, ciphertext []byte) ([]byte, error) {
	return r.open(dst, false, 0, aad, ciphertext)
}

// OpenAt decrypts the message sealed with sequence number seq, for protocols that carry it: see
// AppendOpenAt.
func (r *Recipient) OpenAt(seq uint64, aad, ciphertext []byte) ([]byte, error) {
	return r.open(nil, true, seq, aad, ciphertext)
}

// AppendOpenAt is AppendOpen of the message sealed with sequence number seq, through the context's
// replay window (Options.Window): a number already opened, or left of the window, is refused with
// an error matching aead.ErrReplay (and aead.ErrOpen), and a number is recorded only once its tag
// verifies.
func (r *Recipient) AppendOpenAt(dst []byte, seq uint64, aad, ciphertext []byte) ([]byte, error) {
	return r.open(dst, true, seq, aad, ciphertext)
}

func (r *Recipient) open(dst []byte, at bool, seq uint64, aad, ciphertext []byte) ([]byte, error) {
	if r.exportOnly {
		return nil, errExportOnly
	}
	if len(ciphertext) < tagSize {
		return nil, libaead.ErrOpen
	}
	ret, out := grow(dst, len(ciphertext)-tagSize)
	var n C.int64_t
	if at {
		n = C.aead_hpke_open_at(r.ctx, C.uint64_t(seq), bytePtr(aad), C.size_t(len(aad)),
			bytePtr(ciphertext), C.size_t(len(ciphertext)), bytePtr(out), C.size_t(len(out)))
	} else {
		n = C.aead_hpke_open(r.ctx, bytePtr(aad), C.size_t(len(aad)),
			bytePtr(ciphertext), C.size_t(len(ciphertext)), bytePtr(out), C.size_t(len(out)))
	}
	runtime.KeepAlive(r.context)
	if int64(n) != int64(len(out)) {
		return nil, openError(int64(n))
	}
	return ret, nil
}

// Export produces a secret value derived from the shared key between sender and recipient, as
// [Sender.Export].
func (r *Recipient) Export(exporterContext string, length int) ([]byte, error) {
	return r.export(exporterContext, length)
}

func (c *context) export(exporterContext string, length int) ([]byte, error) {
	if length < 0 || length > 0xFFFF {
		return nil, errors.New("invalid length")
	}
	out := make([]byte, length)
	rc := C.aead_hpke_export(c.ctx, (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(exporterContext))),
		C.size_t(len(exporterContext)), bytePtr(out), C.size_t(len(out)))
	runtime.KeepAlive(c)
	runtime.KeepAlive(exporterContext)
	if rc != 0 {
		return nil, &libaead.Error{Op: "export", Code: int(rc)}
	}
	return out, nil
}

// newError is the error of a setup's result: nil for 0.
func newError(code int) error {
	if code == 0 {
		return nil
	}
	return &libaead.Error{Op: "new", Code: code}
}

// openError: aead.ErrOpen for a forged message, else an *aead.Error (which matches aead.ErrOpen).
func openError(code int64) error {
	if code == C.AEAD_ERR_AUTH {
		return libaead.ErrOpen
	}
	return &libaead.Error{Op: "open", Code: int(code)}
}

// bytePtr gives C the address of b's first byte, or NULL for an empty slice.
func bytePtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// pinned is bytePtr of a slice stored in a parameter struct that C reads (cgo's rules: Go memory
// passed to C may hold Go pointers only when they are pinned).
func pinned(pin *runtime.Pinner, b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	pin.Pin(&b[0])
	return bytePtr(b)
}

// grow returns dst extended by n bytes (reallocated only when cap(dst) is too small) and the
// extension.
func grow(dst []byte, n int) (ret, out []byte) {
	ret = slices.Grow(dst, n)[:len(dst)+n]
	return ret, ret[len(dst):]
}
