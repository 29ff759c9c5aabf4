package aead

/*
#include <stdlib.h>
#include <aead.h>

// goaead_dtls13_unprotect returns aead_dtls13_unprotect's result and sequence number by value, so
// that no pointer to a Go variable crosses (it would move to the heap on Go releases without noescape).
typedef struct {
	int64_t n;
	uint64_t seq;
} goaead_dtls13_result;

static inline goaead_dtls13_result goaead_dtls13_unprotect(aead_ctx *ctx, aead_hp *hp, uint8_t *record,
                                                           size_t record_len, size_t cid_len) {
	goaead_dtls13_result r = {0, 0};
	r.n = aead_dtls13_unprotect(ctx, hp, record, record_len, cid_len, &r.seq);
	return r;
}
*/
import "C"

import (
	"errors"
	"runtime"
	"strconv"
)

// DTLS13AES128CCMSHA256 is the TLS 1.3 suite TLS_AES_128_CCM_SHA256 (0x1304, RFC 8446 Appendix B.4),
// which crypto/tls does not name. The other DTLS 1.3 suites are crypto/tls's constants:
// tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384 and tls.TLS_CHACHA20_POLY1305_SHA256.
const DTLS13AES128CCMSHA256 uint16 = 0x1304

// The bits of a DTLS 1.3 unified header's first byte (RFC 9147 section 4): 0 0 1 C S L E E.
const (
	DTLS13HeaderFixed  byte = 0x20 // the fixed bits 001
	DTLS13HeaderCID    byte = 0x10 // C: a connection ID follows the first byte
	DTLS13HeaderSeq16  byte = 0x08 // S: the sequence number field is 16 bits (else 8)
	DTLS13HeaderLength byte = 0x04 // L: a 16-bit length field follows the sequence number
)

// DTLS13RecordProtector protects and unprotects whole DTLS 1.3 records (RFC 9147 section 4) of one
// epoch in one direction, in place and in one cgo call each (aead_dtls13_protect,
// aead_dtls13_unprotect): the AEAD under IV XOR seq with the unified header as additional data, the
// header's sequence number and length fields, and the record-number encryption (section 4.2.3) with
// the epoch's sn_key, all inside the C library. The sender's value seals with strictly rising
// sequence numbers (checked and committed atomically); the receiver's value (the same keys and
// epoch) reconstructs each record's full sequence number and opens it through a replay window that
// moves only for records whose tag verified. Safe for concurrent use; nothing is allocated per
// record. The C context and key are freed when the value becomes unreachable.
type DTLS13RecordProtector struct {
	a     *aeadImpl
	hp    *HeaderProtection
	suite uint16
	epoch uint64
}

// errors of Unprotect preallocated, so that refusing a replayed or another epoch's record
// allocates nothing (ErrOpen, a forgery's, is a variable already).
var (
	errDTLS13Replay = &Error{Op: "open", Code: codeReplay}
	errDTLS13Epoch  = &Error{Op: "open", Code: codeNoncePrefix}
)

// dtls13Alg is the libaead algorithm of a DTLS 1.3 cipher suite, checking the key length: QUIC's
// suites and TLS_AES_128_CCM_SHA256.
func dtls13Alg(suite uint16, key []byte) (int, error) { return tls13Alg(suite, key, true) }

// NewDTLS13RecordProtector returns the record protector of one DTLS 1.3 epoch in one direction:
// suite is tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384, tls.TLS_CHACHA20_POLY1305_SHA256
// or DTLS13AES128CCMSHA256; key is the epoch's write key ("key", 16 or 32 bytes as the suite
// says), iv its 12-byte write IV ("iv"), snKey its record-number key ("sn", the key's length) and
// epoch the epoch (its low 2 bits go in every header). opts.Window sets the replay window (0: 64
// records), opts.TagSize must be 0 or 16, opts.Properties is an OpenSSL property query. Per-key
// limits of RFC 9147 section 4.5.3 apply (see Usage).
func NewDTLS13RecordProtector(suite uint16, key, iv, snKey []byte, epoch uint64, opts DTLSOptions) (*DTLS13RecordProtector, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	alg, err := dtls13Alg(suite, key)
	if err != nil {
		return nil, err
	}
	if len(snKey) != len(key) {
		return nil, errors.New("aead: DTLS 1.3 sn_key must be as long as the key (" + strconv.Itoa(len(key)) +
			" bytes), got " + strconv.Itoa(len(snKey)))
	}
	if err := checkIV(iv, "DTLS 1.3", 12); err != nil {
		return nil, err
	}
	if opts.TagSize != 0 && opts.TagSize != standardTagSize {
		return nil, errors.New("aead: DTLS 1.3 tag size must be 16, got " + strconv.Itoa(opts.TagSize))
	}
	var hp *HeaderProtection
	a, err := newDTLSContext(alg, C.AEAD_POLICY_DTLS13, key, iv, epoch, standardTagSize, opts, snKey, &hp)
	if err != nil {
		return nil, err
	}
	a.msg = &gcmMessages
	return &DTLS13RecordProtector{a: a, hp: hp, suite: suite, epoch: epoch}, nil
}

// Suite is the cipher suite given at creation.
func (p *DTLS13RecordProtector) Suite() uint16 { return p.suite }

// Epoch is the epoch given at creation.
func (p *DTLS13RecordProtector) Epoch() uint64 { return p.epoch }

// Overhead is the bytes Protect appends to a record: the 16-byte tag.
func (p *DTLS13RecordProtector) Overhead() int { return standardTagSize }

// AppendHeader appends a unified header for this epoch to dst: the first byte 0 0 1 C S L E E (C
// when cid is not empty, S when seq16, L when withLength, E E the epoch's low 2 bits), the
// connection ID, and zeroed room for the 1- or 2-byte sequence number and the 2-byte length, which
// Protect fills in. The header's length is the headerLen Protect takes.
func (p *DTLS13RecordProtector) AppendHeader(dst, cid []byte, seq16, withLength bool) []byte {
	first := DTLS13HeaderFixed | byte(p.epoch&3)
	n := 1
	if len(cid) > 0 {
		first |= DTLS13HeaderCID
	}
	if seq16 {
		first |= DTLS13HeaderSeq16
		n = 2
	}
	if withLength {
		first |= DTLS13HeaderLength
		n += 2
	}
	dst = append(append(dst, first), cid...)
	for i := 0; i < n; i++ {
		dst = append(dst, 0)
	}
	return dst
}

// Protect protects one record in place and returns it with the tag appended: record[:headerLen]
// is the unified header (see AppendHeader; its sequence number and length fields are written
// here from seq and the record's size), record[headerLen:] the DTLSInnerPlaintext (content, the
// content type, optional zero padding: the caller builds it). The result is
// record[:len(record)+16] when cap(record) suffices (no allocation), otherwise a new slice. A
// headerLen outside 1..len(record) panics. Errors (the record is returned as it was): one
// matching ErrRecordNumber (seq not above every one sealed with the key, or not below 2^48),
// ErrEpoch (the header's epoch bits are not the epoch's), ErrKeyLimit (the key's confidentiality
// limit), ErrForked, or an *Error for a malformed header (AEAD_ERR_ARG) or too long a record.
func (p *DTLS13RecordProtector) Protect(record []byte, headerLen int, seq uint64) ([]byte, error) {
	if headerLen < 1 || headerLen > len(record) {
		panic("aead: DTLS 1.3 header length " + strconv.Itoa(headerLen) + " out of range for a record of " +
			strconv.Itoa(len(record)) + " bytes")
	}
	if len(record) > maxInt-standardTagSize {
		panic("aead: DTLS 1.3 record too large")
	}
	out, _ := sliceForAppend(record, standardTagSize)
	n := C.aead_dtls13_protect(p.a.ctx, p.hp.hp, C.uint64_t(seq), bytePtr(out), C.size_t(headerLen),
		C.size_t(len(record)-headerLen), C.size_t(len(out)))
	runtime.KeepAlive(p)
	if int64(n) != int64(len(out)) {
		return record, sealError(int64(n))
	}
	return out, nil
}

// Unprotect removes the protection of exactly one received record in place: cidLen is the length
// of its connection ID (negotiated, not in the header; 0 without one). It unmasks the sequence
// number, reconstructs the full one (RFC 9147 section 4.2.2, from the largest the window accepted)
// and opens the record through the replay window. On success payload is the DTLSInnerPlaintext
// (in record, after the unmasked header) and seq the record's sequence number. Errors: ErrOpen
// (not a unified header, too short, a length field that disagrees, or a tag that did not verify:
// the header is restored, the payload zeroed, the forgery count rises and the window stays exactly
// as it was), one matching ErrReplay (a record already accepted or left of the window; also
// matches ErrOpen), ErrEpoch (another epoch's record: its epoch bits differ), ErrKeyLimit. None
// allocates. A negative cidLen panics.
func (p *DTLS13RecordProtector) Unprotect(record []byte, cidLen int) (payload []byte, seq uint64, err error) {
	if cidLen < 0 {
		panic("aead: DTLS 1.3 connection ID length " + strconv.Itoa(cidLen))
	}
	r := C.goaead_dtls13_unprotect(p.a.ctx, p.hp.hp, bytePtr(record), C.size_t(len(record)), C.size_t(cidLen))
	runtime.KeepAlive(p)
	n := int64(r.n)
	switch {
	case n >= 0:
		end := len(record) - standardTagSize
		return record[end-int(n) : end : end], uint64(r.seq), nil
	case n == codeReplay:
		return nil, 0, errDTLS13Replay
	case n == codeNoncePrefix:
		return nil, 0, errDTLS13Epoch
	}
	return nil, 0, openError(n)
}

// Usage returns the key's counters: records sealed, forgeries, replays refused, records accepted,
// the window's width and the largest sequence number accepted (DTLSNoRecord before the first).
func (p *DTLS13RecordProtector) Usage() DTLSUsage { return p.a.dtlsUsage() }
