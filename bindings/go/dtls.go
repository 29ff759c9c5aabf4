package aead

/*
#include <stdlib.h>
#include <aead.h>

// goaead_usage_ex returns aead_ctx_usage_ex's snapshot through a C array the caller owns.
static inline void goaead_usage_ex(const aead_ctx *ctx, uint64_t out[9]) {
	aead_usage u;
	if (aead_ctx_usage_ex(ctx, &u, sizeof u) != 0) {
		for (int i = 0; i < 9; i++) out[i] = 0;
		return;
	}
	out[0] = u.seals; out[1] = u.forgeries; out[2] = u.replays; out[3] = u.accepted;
	out[4] = u.seal_limit; out[5] = u.forgery_limit; out[6] = u.window; out[7] = u.largest;
	out[8] = u.rekey_after;
}
*/
import "C"

import (
	"crypto/aes"
	"encoding/binary"
	"errors"
	"runtime"
	"strconv"
	"unsafe"
)

// ErrReplay is matched (errors.Is) by the error a DTLS Open returns for a record number the replay
// window refuses (AEAD_ERR_REPLAY): one already accepted, or one left of the window. Nothing was
// written and the window did not move. RFC 6347 section 4.1.2.6 says to drop such a record silently.
var ErrReplay = errors.New("aead: DTLS record number already accepted or left of the replay window")

// ErrRecordNumber is matched by the error a DTLS Seal returns for a sequence number not above every
// one sealed before under the key, or not below 2^48 (AEAD_ERR_NONCE_ORDER, _EXHAUSTED). Nothing is
// written and nothing is consumed.
var ErrRecordNumber = errors.New("aead: DTLS sequence number not above the last one sealed, or not below 2^48")

// ErrEpoch is matched by the error a DTLS Seal or Open returns for an epoch other than the AEAD's
// (AEAD_ERR_NONCE_PREFIX): one DTLS12 value is one epoch's keys in one direction.
var ErrEpoch = errors.New("aead: DTLS epoch is not the one the keys were made for")

// ErrAADMismatch is matched by the error a DTLS Seal or Open returns when the additional data's first
// 8 bytes (epoch || sequence number) are not the record's epoch and sequence number
// (AEAD_ERR_AAD_MISMATCH), or the additional data is not 13 bytes (AEAD_ERR_AAD_SIZE).
var ErrAADMismatch = errors.New("aead: DTLS 1.2 additional data must be 13 bytes starting with the record's epoch || sequence number")

const (
	codeReplay      = C.AEAD_ERR_REPLAY
	codeAADMismatch = C.AEAD_ERR_AAD_MISMATCH
	// DTLSMaxSequence is the largest DTLS 1.2 sequence number (48 bits).
	DTLSMaxSequence uint64 = 1<<48 - 1
	// DTLSDefaultWindow and DTLSMaxWindow bound DTLSOptions.Window.
	DTLSDefaultWindow = 64
	DTLSMaxWindow     = 4096
	// DTLS12AADSize is the size of DTLS 1.2's additional data: seq_num(8) || type || version || length.
	DTLS12AADSize = 13
)

// DTLSOptions are the settings of a DTLS 1.2 record AEAD besides its key material.
type DTLSOptions struct {
	// Window is the replay window's width in records: 0 means 64 (the RFCs' minimum); otherwise a
	// multiple of 64 up to 4096.
	Window int
	// TagSize: 0 or 16; AES-CCM also 8 (the _CCM_8 suites of RFC 6655 / RFC 7251).
	TagSize int
	// Properties is an OpenSSL property query, as Options.Properties.
	Properties string
}

// DTLS12 protects DTLS 1.2 records (RFC 6347) of one epoch in one direction: the sender's value
// seals, the receiver's value (same key, salt or IV, and epoch) opens. The library builds nothing
// the caller could get wrong unchecked: a seal's sequence number must rise (checked and committed
// in one atomic step, so concurrent senders never reuse one), and an open goes through a replay
// window (RFC 6347 section 4.1.2.6) that moves only for records whose tag verified, so a forged
// record claiming a far-ahead number shuts nothing out. Each Seal or Open is one cgo call and
// allocates nothing when cap(dst) suffices. Safe for concurrent use.
type DTLS12 struct {
	a      *aeadImpl
	epoch  uint16
	chacha bool
	iv     [12]byte // AES: the 4-byte salt in iv[:4]; ChaCha20-Poly1305: the 12-byte IV
}

// NewDTLS12GCM returns the record AEAD of the TLS_*_AES_128_GCM_SHA256 and _AES_256_GCM_SHA384
// suites (RFC 5288): key is the write key (16 or 32 bytes), salt the 4-byte write IV, and the
// nonce is salt || epoch(2) || seq(6), the record's explicit nonce. opts.TagSize must be 0 or 16.
func NewDTLS12GCM(key, salt []byte, epoch uint16, opts DTLSOptions) (*DTLS12, error) {
	return newDTLS12AES(C.AEAD_AES_128_GCM, C.AEAD_AES_256_GCM, "AES-GCM", key, salt, epoch, opts, gcmMaxPlaintext, &gcmMessages)
}

// NewDTLS12CCM returns the record AEAD of the AES-CCM suites (RFC 6655, RFC 7251): key 16 or 32
// bytes, the 4-byte salt, nonce salt || epoch(2) || seq(6); opts.TagSize 16 (or 0) for _CCM, 8 for
// _CCM_8.
func NewDTLS12CCM(key, salt []byte, epoch uint16, opts DTLSOptions) (*DTLS12, error) {
	return newDTLS12AES(C.AEAD_AES_128_CCM, C.AEAD_AES_256_CCM, "AES-CCM", key, salt, epoch, opts,
		ccmMaxPlaintext(standardNonceSize), &ccmMessages)
}

// NewDTLS12ChaCha20Poly1305 returns the record AEAD of the _CHACHA20_POLY1305_SHA256 suites (RFC
// 7905): a 32-byte key, the 12-byte IV, nonce IV XOR (0^4 || epoch(2) || seq(6)).
func NewDTLS12ChaCha20Poly1305(key, iv []byte, epoch uint16, opts DTLSOptions) (*DTLS12, error) {
	if len(key) != 32 {
		return nil, errors.New("chacha20poly1305: bad key length")
	}
	if err := checkIV(iv, "DTLS 1.2 ChaCha20-Poly1305", 12); err != nil {
		return nil, err
	}
	return newDTLS12(C.AEAD_CHACHA20_POLY1305, key, iv, epoch, opts, chachaMaxPlain, &chachaMessages)
}

// newDTLS12AES checks an AES suite's key (16 or 32 bytes picks alg128 or alg256) and 4-byte salt.
func newDTLS12AES(alg128, alg256 int, name string, key, salt []byte, epoch uint16, opts DTLSOptions, maxPlain uint64, msg *messages) (*DTLS12, error) {
	alg := alg128
	switch len(key) {
	case 16:
	case 32:
		alg = alg256
	default:
		return nil, aes.KeySizeError(len(key))
	}
	if err := checkIV(salt, "DTLS 1.2 "+name+" salt", 4); err != nil {
		return nil, err
	}
	return newDTLS12(alg, key, salt, epoch, opts, maxPlain, msg)
}

func newDTLS12(alg int, key, iv []byte, epoch uint16, opts DTLSOptions, maxPlain uint64, msg *messages) (*DTLS12, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	tag := opts.TagSize
	if tag == 0 {
		tag = standardTagSize
	}
	if tag != standardTagSize && !(tag == 8 && (alg == C.AEAD_AES_128_CCM || alg == C.AEAD_AES_256_CCM)) {
		return nil, errors.New("aead: DTLS 1.2 tag size must be 16 (AES-CCM also 8), got " + strconv.Itoa(opts.TagSize))
	}
	a, err := newDTLSContext(alg, C.AEAD_POLICY_DTLS12, key, iv, uint64(epoch), tag, opts, nil, nil)
	if err != nil {
		return nil, err
	}
	a.maxPlain, a.msg = maxPlain, msg
	d := &DTLS12{a: a, epoch: epoch, chacha: alg == C.AEAD_CHACHA20_POLY1305}
	copy(d.iv[:], iv)
	return d, nil
}

// newDTLSContext checks opts.Window and keys an aead_ctx_new_dtls context of the policy (freed when
// the returned value becomes unreachable). With snKey, it first keys the aead_hp of alg from it
// into *hp (DTLS 1.3's record-number key), under the same properties.
func newDTLSContext(alg, policy int, key, iv []byte, epoch uint64, tag int, opts DTLSOptions, snKey []byte, hp **HeaderProtection) (*aeadImpl, error) {
	if opts.Window < 0 || opts.Window > DTLSMaxWindow || opts.Window%64 != 0 {
		return nil, errors.New("aead: DTLS replay window must be a multiple of 64 up to 4096, got " + strconv.Itoa(opts.Window))
	}
	props, err := cProperties(opts.Properties)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(props))
	if hp != nil {
		var h *C.aead_hp
		rc := C.aead_hp_new(&h, C.int(alg), bytePtr(snKey), C.size_t(len(snKey)), props)
		runtime.KeepAlive(snKey)
		if rc != 0 {
			return nil, &Error{Op: "new", Code: int(rc)}
		}
		*hp = &HeaderProtection{hp: h}
		setHPCleanup(*hp)
	}
	var ctx *C.aead_ctx
	rc := C.aead_ctx_new_dtls(&ctx, C.int(alg), C.int(policy), bytePtr(key), C.size_t(len(key)), C.size_t(tag),
		props, bytePtr(iv), C.size_t(len(iv)), C.uint64_t(epoch), C.uint32_t(opts.Window))
	runtime.KeepAlive(key)
	runtime.KeepAlive(iv)
	if rc != 0 {
		return nil, &Error{Op: "new", Code: int(rc)}
	}
	a := &aeadImpl{ctx: ctx, nonceSize: standardNonceSize, tagSize: tag}
	setCleanup(a)
	return a, nil
}

// Overhead is the tag size (16, or 8 for CCM_8). The record's 8-byte explicit nonce (AES suites)
// is the caller's to write.
func (d *DTLS12) Overhead() int { return d.a.tagSize }

// Epoch is the epoch the keys were made for.
func (d *DTLS12) Epoch() uint16 { return d.epoch }

// nonce is the record's 12-byte nonce (RFC 5288 / RFC 7905 with DTLS's epoch || seq).
func (d *DTLS12) nonce(epoch uint16, seq uint64) (n [12]byte) {
	n = d.iv
	es := uint64(epoch)<<48 | seq&DTLSMaxSequence
	if d.chacha {
		binary.BigEndian.PutUint64(n[4:], binary.BigEndian.Uint64(n[4:])^es)
	} else {
		binary.BigEndian.PutUint64(n[4:], es)
	}
	return n
}

// Seal appends to dst the encryption of plaintext followed by the tag, for the record (epoch, seq)
// whose 13-byte additional data is additionalData (seq_num(8) = epoch || seq, type, version,
// length). dst may be plaintext[:0] (in place); other overlaps panic as in crypto/cipher. Returns
// dst unchanged and an error matching ErrRecordNumber (seq not above the last one sealed, or above
// 2^48-1), ErrEpoch, ErrAADMismatch, or ErrForked; nothing is written then.
func (d *DTLS12) Seal(dst []byte, epoch uint16, seq uint64, additionalData, plaintext []byte) ([]byte, error) {
	a := d.a
	if uint64(len(plaintext)) > a.maxPlain || len(dst) > maxInt-a.tagSize-len(plaintext) {
		panic(a.msg.tooLarge)
	}
	if seq > DTLSMaxSequence {
		return dst, &Error{Op: "seal", Code: codeNonceExhaust}
	}
	ret, out := sliceForAppend(dst, len(plaintext)+a.tagSize)
	a.checkOverlap(out, plaintext, additionalData)
	nonce := d.nonce(epoch, seq)
	n := sealOpen(a.ctx, C.AEAD_SEAL, nonce[:], additionalData, plaintext, out)
	runtime.KeepAlive(d)
	if n != int64(len(out)) {
		return dst, sealError(n)
	}
	return ret, nil
}

// Open appends to dst the decryption of ciphertext (ciphertext || tag) of the record (epoch, seq)
// with its 13-byte additional data, through the replay window. dst may be ciphertext[:0]. Errors:
// ErrReplay (the window refused seq: nothing written, nothing counted but the replay), ErrOpen (the
// tag did not verify: the bytes it would have appended are zeroed, the forgery count rises and the
// window stays exactly as it was), ErrEpoch, ErrAADMismatch.
func (d *DTLS12) Open(dst []byte, epoch uint16, seq uint64, additionalData, ciphertext []byte) ([]byte, error) {
	a := d.a
	if len(ciphertext) < a.tagSize || uint64(len(ciphertext)) > a.maxPlain+uint64(a.tagSize) ||
		len(dst) > maxInt-(len(ciphertext)-a.tagSize) || seq > DTLSMaxSequence {
		return nil, ErrOpen
	}
	ret, out := sliceForAppend(dst, len(ciphertext)-a.tagSize)
	a.checkOverlap(out, ciphertext, additionalData)
	nonce := d.nonce(epoch, seq)
	n := sealOpen(a.ctx, C.AEAD_OPEN, nonce[:], additionalData, ciphertext, out)
	runtime.KeepAlive(d)
	if n != int64(len(out)) {
		if n == codeReplay {
			return nil, errReplayOpen // preallocated: refusing a replay allocates nothing
		}
		return nil, openError(n)
	}
	return ret, nil
}

// errReplayOpen is the error of every replayed open; it matches ErrReplay and ErrOpen.
var errReplayOpen error = &Error{Op: "open", Code: codeReplay}

// DTLSUsage is a snapshot of a DTLS AEAD's counters (aead_ctx_usage_ex).
type DTLSUsage struct {
	Seals     uint64 // records sealed
	Forgeries uint64 // opens whose tag did not verify
	Replays   uint64 // opens the replay window refused (before or after decrypting)
	Accepted  uint64 // records accepted into the replay window
	Window    uint64 // the window's width in records
	Largest   uint64 // the largest sequence number accepted; DTLSNoRecord before the first
}

// DTLSNoRecord is DTLSUsage.Largest before any record was accepted.
const DTLSNoRecord uint64 = 1<<64 - 1

// Usage returns the AEAD's counters.
func (d *DTLS12) Usage() DTLSUsage { return d.a.dtlsUsage() }

// dtlsUsage is aead_ctx_usage_ex's snapshot of a DTLS context (DTLS12, DTLS13RecordProtector).
func (a *aeadImpl) dtlsUsage() DTLSUsage {
	var out [9]C.uint64_t
	C.goaead_usage_ex(a.ctx, &out[0])
	runtime.KeepAlive(a)
	return DTLSUsage{Seals: uint64(out[0]), Forgeries: uint64(out[1]), Replays: uint64(out[2]),
		Accepted: uint64(out[3]), Window: uint64(out[6]), Largest: uint64(out[7])}
}

// rekeyAfter is the library's aead_usage.rekey_after for the AEAD (SSH: SSHRekeyAfter; none:
// math.MaxUint64).
func (a *aeadImpl) rekeyAfter() uint64 {
	var out [9]C.uint64_t
	C.goaead_usage_ex(a.ctx, &out[0])
	runtime.KeepAlive(a)
	return uint64(out[8])
}
