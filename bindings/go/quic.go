package aead

/*
#include <stdlib.h>
#include <aead.h>

// goaead_unprotect returns aead_quic_unprotect's result and packet number by value, so that no
// pointer to a Go variable crosses (it would move to the heap on Go releases without noescape).
typedef struct {
	int64_t n;
	uint64_t pn;
} goaead_unprotect_result;

static inline goaead_unprotect_result goaead_unprotect(aead_ctx *ctx, aead_hp *hp, uint64_t largest_pn,
                                                       uint8_t *packet, size_t pn_offset, size_t packet_len) {
	goaead_unprotect_result r = {0, 0};
	r.n = aead_quic_unprotect(ctx, hp, largest_pn, packet, pn_offset, packet_len, &r.pn);
	return r;
}

// goaead_mask returns aead_hp_mask's 5 bytes by value (in the low 40 bits, first byte lowest), or
// a negative code.
static inline int64_t goaead_mask(aead_hp *hp, const uint8_t *sample, size_t sample_len) {
	uint8_t m[5];
	const int64_t rc = aead_hp_mask(hp, sample, sample_len, m, sizeof m);
	if (rc != 5) return rc;
	return (int64_t)m[0] | (int64_t)m[1] << 8 | (int64_t)m[2] << 16 | (int64_t)m[3] << 24 | (int64_t)m[4] << 32;
}

static inline void goaead_usage(const aead_ctx *ctx, uint64_t out[2]) { aead_ctx_usage(ctx, &out[0], &out[1]); }
*/
import "C"

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/tls"
	"errors"
	"runtime"
	"strconv"
	"unsafe"
)

// ErrKeyLimit is matched (errors.Is) by the *Error a Seal on a QUIC AEAD panics with, and that
// Open, Protect and Unprotect return, once the key has reached its RFC 9001 section 6.6 limit
// (AEAD_ERR_KEY_LIMIT): the confidentiality limit of seals (AES-GCM: QUICAESGCMConfidentialityLimit;
// ChaCha20-Poly1305: none below 2^62 packet numbers) or the integrity limit of failed opens
// (QUICAESGCMIntegrityLimit, QUICChaCha20Poly1305IntegrityLimit). The connection must update its
// keys (a new AEAD or QUICPacketProtector) before that; Usage tells how close a key is.
var ErrKeyLimit = errors.New("aead: QUIC key usage limit reached (RFC 9001 section 6.6)")

// ErrPacketNumber is matched by the *Error Protect returns for a packet number that is not above
// every packet number sealed before with the key, or is 2^62 or more (AEAD_ERR_NONCE_ORDER,
// AEAD_ERR_NONCE_EXHAUSTED). Such a packet consumes nothing and is left as it was.
var ErrPacketNumber = errors.New("aead: QUIC packet number not above the last one sealed, or not below 2^62")

// The RFC 9001 section 6.6 limits libaead enforces per key.
const (
	QUICAESGCMConfidentialityLimit     uint64 = 1 << 23 // seals under one AES-GCM key
	QUICAESGCMIntegrityLimit           uint64 = 1 << 52 // failed opens under one AES-GCM key
	QUICChaCha20Poly1305IntegrityLimit uint64 = 1 << 36 // failed opens under one ChaCha20-Poly1305 key
	QUICMaxPacketNumber                uint64 = 1<<62 - 1
	// QUICNoPacketNumber is Unprotect's largestPN before any packet of the packet-number space has
	// been received.
	QUICNoPacketNumber uint64 = 1<<64 - 1
)

const (
	codeKeyLimit  = C.AEAD_ERR_KEY_LIMIT
	quicSampleLen = 16
	quicMaskLen   = 5
)

// Usage is how much a key has been used (aead_ctx_usage): a snapshot, for a QUIC key against its
// RFC 9001 limits, for an SSH key against its rekey point (SSHRekeyAfter).
type Usage struct {
	Seals     uint64 // seals made (counted on QUIC, random-nonce, SSH and TLS 1.3 AES-GCM AEADs; 0 for the others)
	Forgeries uint64 // opens that failed authentication (every AEAD of this package)
}

// usage reports the AEAD's seal and forgery counts (UsageOf). Unexported: a value returned as
// cipher.AEAD carries no exported methods beyond the interface (Go's convention).
func (a *aeadImpl) usage() Usage {
	var out [2]C.uint64_t
	C.goaead_usage(a.ctx, &out[0])
	runtime.KeepAlive(a)
	return Usage{Seals: uint64(out[0]), Forgeries: uint64(out[1])}
}

// UsageOf returns the usage counts of an AEAD made by this package (a QUIC AEAD's, to schedule its
// key update; an SSH AEAD's, to schedule its re-key); ok is false for any other cipher.AEAD.
func UsageOf(a cipher.AEAD) (u Usage, ok bool) {
	impl := implOf(a)
	if impl == nil {
		return Usage{}, false
	}
	return impl.usage(), true
}

// NewGCMForQUIC returns AES-GCM for QUIC packet protection (RFC 9001 section 5.3) with the QUIC
// packet-protection key ("quic key", 16 or 32 bytes) and IV ("quic iv", 12 bytes), like the Go FIPS
// module's gcm.NewGCMForQUIC but safe for concurrent use, with the RFC 9001 limits enforced.
// Seal takes the full nonce iv XOR (0^4 || BE64(pn)) and any additional data (the header); it
// panics with crypto/cipher's messages unless the nonce keeps the IV's first 4 bytes ("GCM nonce
// prefix changed") and its packet number is below 2^62 ("counter exhausted", where Go's module
// stops at 2^64-1) and strictly greater than every one sealed before ("counter decreased or
// remained the same"; gaps allowed), checked and committed in one atomic step; it panics with an
// *Error matching ErrKeyLimit after QUICAESGCMConfidentialityLimit seals. Open checks no order
// (packets arrive out of order) and returns an error matching ErrKeyLimit (and ErrOpen) once
// QUICAESGCMIntegrityLimit opens have failed. UsageOf reports the key's counts.
func NewGCMForQUIC(key, iv []byte) (cipher.AEAD, error) { return Options{}.NewGCMForQUIC(key, iv) }

// NewChaCha20Poly1305ForQUIC is NewGCMForQUIC for ChaCha20-Poly1305 (a 32-byte key), with
// x/crypto's panic messages and the ChaCha20-Poly1305 limits (no confidentiality limit below 2^62
// packet numbers; QUICChaCha20Poly1305IntegrityLimit failed opens).
func NewChaCha20Poly1305ForQUIC(key, iv []byte) (cipher.AEAD, error) {
	return Options{}.NewChaCha20Poly1305ForQUIC(key, iv)
}

// NewGCMForQUIC is the package's NewGCMForQUIC with o's settings.
func (o Options) NewGCMForQUIC(key, iv []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newQUIC(tls.TLS_AES_128_GCM_SHA256, key, iv))
}

// NewChaCha20Poly1305ForQUIC is the package's NewChaCha20Poly1305ForQUIC with o's settings.
func (o Options) NewChaCha20Poly1305ForQUIC(key, iv []byte) (cipher.AEAD, error) {
	return aeadOrNil(o.newQUIC(tls.TLS_CHACHA20_POLY1305_SHA256, key, iv))
}

// newQUIC keys an AEAD_POLICY_QUIC context; for the AES suites the key length picks AES-128 or
// AES-256.
func (o Options) newQUIC(suite uint16, key, iv []byte) (*aeadImpl, error) {
	if err := checkIV(iv, "QUIC", 12); err != nil {
		return nil, err
	}
	if suite == tls.TLS_CHACHA20_POLY1305_SHA256 {
		return o.newChaCha(key, C.AEAD_POLICY_QUIC, &chachaMessages, iv)
	}
	if len(key) != 16 && len(key) != 32 {
		return nil, aes.KeySizeError(len(key))
	}
	return o.newGCM(key, C.AEAD_POLICY_QUIC, standardNonceSize, standardTagSize, &gcmMessages, iv)
}

// suiteAlg is the libaead algorithm of a TLS 1.3 cipher suite for QUIC, checking the key length.
func suiteAlg(suite uint16, key []byte) (int, error) { return tls13Alg(suite, key, false) }

// tls13Alg is the libaead algorithm of a TLS 1.3 cipher suite, checking the key length;
// TLS_AES_128_CCM_SHA256 only with ccm (DTLS 1.3; QUIC has no CCM suite in this package).
func tls13Alg(suite uint16, key []byte, ccm bool) (int, error) {
	want, alg, what := 0, 0, "for QUIC"
	if ccm {
		what = "for DTLS 1.3"
	}
	switch suite {
	case DTLS13AES128CCMSHA256:
		if !ccm {
			return 0, errors.New("aead: TLS_AES_128_CCM_SHA256 is not a QUIC cipher suite of this package")
		}
		want, alg = 16, C.AEAD_AES_128_CCM
	case tls.TLS_AES_128_GCM_SHA256:
		want, alg = 16, C.AEAD_AES_128_GCM
	case tls.TLS_AES_256_GCM_SHA384:
		want, alg = 32, C.AEAD_AES_256_GCM
	case tls.TLS_CHACHA20_POLY1305_SHA256:
		want, alg = 32, C.AEAD_CHACHA20_POLY1305
	default:
		return 0, errors.New("aead: not a TLS 1.3 cipher suite " + what + ": 0x" + strconv.FormatUint(uint64(suite), 16))
	}
	if len(key) != want {
		return 0, errors.New("aead: " + tls.CipherSuiteName(suite) + " takes a " + strconv.Itoa(want) +
			"-byte key, got " + strconv.Itoa(len(key)))
	}
	return alg, nil
}

// HeaderProtection is a QUIC header-protection key ("quic hp", RFC 9001 section 5.4): AES-ECB for
// the AES suites, ChaCha20 for ChaCha20-Poly1305. It is safe for concurrent use; Mask allocates
// nothing. The C key is freed when the value becomes unreachable.
type HeaderProtection struct {
	hp *C.aead_hp
}

// NewHeaderProtection returns the header-protection key of a TLS 1.3 cipher suite
// (tls.TLS_AES_128_GCM_SHA256: 16-byte key; tls.TLS_AES_256_GCM_SHA384 and
// tls.TLS_CHACHA20_POLY1305_SHA256: 32 bytes).
func NewHeaderProtection(suite uint16, key []byte) (*HeaderProtection, error) {
	return Options{}.NewHeaderProtection(suite, key)
}

// NewHeaderProtection is the package's NewHeaderProtection with o's settings.
func (o Options) NewHeaderProtection(suite uint16, key []byte) (*HeaderProtection, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	alg, err := suiteAlg(suite, key)
	if err != nil {
		return nil, err
	}
	props, err := cProperties(o.Properties)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(props))
	var hp *C.aead_hp
	rc := C.aead_hp_new(&hp, C.int(alg), bytePtr(key), C.size_t(len(key)), props)
	runtime.KeepAlive(key)
	if rc != 0 {
		return nil, &Error{Op: "new", Code: int(rc)}
	}
	h := &HeaderProtection{hp: hp}
	setHPCleanup(h)
	return h, nil
}

// Mask returns the 5-byte header-protection mask for a 16-byte ciphertext sample: mask[0] is
// for the first byte (its low 4 bits in a long header, 5 in a short one), mask[1:] for the
// packet-number bytes. A sample of another length panics.
func (h *HeaderProtection) Mask(sample []byte) (mask [quicMaskLen]byte) {
	if len(sample) != quicSampleLen {
		panic("aead: QUIC header-protection sample must be 16 bytes, got " + strconv.Itoa(len(sample)))
	}
	m := int64(C.goaead_mask(h.hp, bytePtr(sample), C.size_t(len(sample))))
	runtime.KeepAlive(h)
	if m < 0 {
		panic(&Error{Op: "mask", Code: int(m)})
	}
	for i := range mask {
		mask[i] = byte(m >> (8 * i))
	}
	return mask
}

// QUICPacketProtector protects or unprotects whole QUIC packets in one cgo call each
// (aead_quic_protect, aead_quic_unprotect): the AEAD with the header as additional data, the
// packet number's nonce, the tag, the sample and the header-protection mask, all inside the C
// library, with the rules and limits of NewGCMForQUIC. One protector is one direction's keys of one
// packet-number space (key, IV and header-protection key); it is safe for concurrent use and
// allocates nothing per packet.
//
// What the QUIC stack still owns: key derivation and key updates (WithKey), the largest packet
// number received per packet-number space, duplicate detection, and where the header ends.
type QUICPacketProtector struct {
	a     *aeadImpl
	hp    *HeaderProtection
	suite uint16
	opts  Options
}

// NewQUICPacketProtector returns a protector for a TLS 1.3 cipher suite (tls.TLS_AES_128_GCM_SHA256,
// tls.TLS_AES_256_GCM_SHA384 or tls.TLS_CHACHA20_POLY1305_SHA256) from the packet-protection key
// and IV ("quic key", "quic iv") and the header-protection key ("quic hp").
func NewQUICPacketProtector(suite uint16, key, iv, hpKey []byte) (*QUICPacketProtector, error) {
	return Options{}.NewQUICPacketProtector(suite, key, iv, hpKey)
}

// NewQUICPacketProtector is the package's NewQUICPacketProtector with o's settings.
func (o Options) NewQUICPacketProtector(suite uint16, key, iv, hpKey []byte) (*QUICPacketProtector, error) {
	if _, err := suiteAlg(suite, key); err != nil {
		return nil, err
	}
	hp, err := o.NewHeaderProtection(suite, hpKey)
	if err != nil {
		return nil, err
	}
	a, err := o.newQUIC(suite, key, iv)
	if err != nil {
		return nil, err
	}
	return &QUICPacketProtector{a: a, hp: hp, suite: suite, opts: o}, nil
}

// WithKey returns the protector of a key update (RFC 9001 section 6): the next key and IV ("quic
// ku") of the same suite, sharing p's header-protection key, which does not change. The new key
// counts its packet numbers, seals and forgeries afresh. (The Options of p's creation apply.)
func (p *QUICPacketProtector) WithKey(key, iv []byte) (*QUICPacketProtector, error) {
	if _, err := suiteAlg(p.suite, key); err != nil {
		return nil, err
	}
	a, err := p.opts.newQUIC(p.suite, key, iv)
	if err != nil {
		return nil, err
	}
	return &QUICPacketProtector{a: a, hp: p.hp, suite: p.suite, opts: p.opts}, nil
}

// AEAD returns the protector's packet-protection AEAD (as NewGCMForQUIC's), for the two-call
// path; it shares the key's packet-number order, limits and usage with Protect and Unprotect.
func (p *QUICPacketProtector) AEAD() cipher.AEAD { return p.a }

// HeaderProtection returns the protector's header-protection key.
func (p *QUICPacketProtector) HeaderProtection() *HeaderProtection { return p.hp }

// Usage reports the key's seal and forgery counts (see Usage), so that the stack can update keys
// before ErrKeyLimit.
func (p *QUICPacketProtector) Usage() Usage { return p.a.usage() }

// Overhead is the bytes Protect appends to a packet: the 16-byte tag.
func (p *QUICPacketProtector) Overhead() int { return standardTagSize }

// Protect protects one packet in place and returns it with the tag appended: packet is the header
// (packet[:headerLen], whose packet-number field is its last (packet[0]&3)+1 bytes) followed by the
// plaintext payload. Protect writes pn's low bytes into that field, seals the payload under the
// packet number with the header as additional data, appends the tag, and applies header protection.
// The result is packet[:len(packet)+16] when cap(packet) suffices (no allocation), otherwise a new
// slice holding the packet. A header whose length cannot hold its packet-number field, or a packet
// too short for a header-protection sample (packet-number field and payload under 4 bytes),
// panics. Returns an error matching ErrPacketNumber for a packet number not above every one sealed
// with the key, or not below 2^62, and ErrKeyLimit after the confidentiality limit; a refused packet
// is left as it was.
func (p *QUICPacketProtector) Protect(packet []byte, headerLen int, pn uint64) ([]byte, error) {
	if headerLen < 1 || headerLen > len(packet) {
		panic("aead: QUIC header length " + strconv.Itoa(headerLen) + " out of range for a packet of " +
			strconv.Itoa(len(packet)) + " bytes")
	}
	pnLen := int(packet[0]&3) + 1
	if headerLen < pnLen+1 {
		panic("aead: QUIC header of " + strconv.Itoa(headerLen) + " bytes cannot hold a " + strconv.Itoa(pnLen) +
			"-byte packet number")
	}
	payloadLen := len(packet) - headerLen
	if pnLen+payloadLen < 4 {
		panic("aead: QUIC packet too short for a header-protection sample")
	}
	if uint64(payloadLen) > p.a.maxPlain || len(packet) > maxInt-standardTagSize {
		panic(p.a.msg.tooLarge)
	}
	out, _ := sliceForAppend(packet, standardTagSize)
	n := C.aead_quic_protect(p.a.ctx, p.hp.hp, C.uint64_t(pn), bytePtr(out), C.size_t(headerLen),
		C.size_t(payloadLen), C.size_t(len(out)))
	runtime.KeepAlive(p)
	if int64(n) != int64(len(out)) {
		return packet, &Error{Op: "protect", Code: int(n)}
	}
	return out, nil
}

// Unprotect removes the protection of one received packet in place: pnOffset is where its
// packet-number field starts (after the connection IDs, and in a long header after the length
// field) and largestPN the largest packet number received so far in its packet-number space
// (QUICNoPacketNumber: none yet), from which the full packet number is decoded (RFC 9000 Appendix
// A.3). On success the unprotected header is packet[:len(packet)-len(payload)-16], payload is the
// plaintext that follows it (in packet), and pn the packet number. A failure returns ErrOpen (the
// tag did not verify, or the packet is too short for a sample and a tag: the header is restored as
// it arrived, the payload zeroed, and the key's forgery count rises) or an error matching
// ErrKeyLimit (the integrity limit: nothing changed). Open order is not checked: duplicate
// detection is the stack's. A pnOffset outside 1..len(packet) panics.
func (p *QUICPacketProtector) Unprotect(packet []byte, pnOffset int, largestPN uint64) (payload []byte, pn uint64, err error) {
	if pnOffset < 1 || pnOffset > len(packet) {
		panic("aead: QUIC packet-number offset " + strconv.Itoa(pnOffset) + " out of range for a packet of " +
			strconv.Itoa(len(packet)) + " bytes")
	}
	r := C.goaead_unprotect(p.a.ctx, p.hp.hp, C.uint64_t(largestPN), bytePtr(packet), C.size_t(pnOffset),
		C.size_t(len(packet)))
	runtime.KeepAlive(p)
	n := int64(r.n)
	if n < 0 {
		return nil, 0, openError(n)
	}
	end := len(packet) - standardTagSize
	return packet[end-int(n) : end : end], uint64(r.pn), nil
}
