// Package pionaead gives pion/dtls v3 DTLS 1.2 cipher suites whose record protection is libaead's
// (github.com/libaead/libaead/bindings/go, DTLS12): one libaead call per Encrypt or Decrypt, the
// sequence-number and replay-window checks inside the library, and counters of records opened,
// replays refused and forgeries refused.
//
// Hand them to pion through dtls.Config.CustomCipherSuites:
//
//	cfg := &dtls.Config{Certificates: certs, CustomCipherSuites: pionaead.CipherSuites,
//		CipherSuites: []dtls.CipherSuiteID{}}
//
// pion v3.1.15 looks a suite ID up in its own table before the custom suites (cipherSuiteForID)
// and keeps the instance it made from the peer's list (findMatchingCipherSuite), so a custom suite
// whose ID pion implements itself is never the one that protects records: the handshake succeeds
// on pion's own cipher. The suites pion lacks are the ones that take effect:
// TLS_ECDHE_ECDSA_WITH_AES_256_CCM and TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8. The others are here for
// a pion that consults custom suites first, and are tested record by record against pion's ciphers.
package pionaead

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"sync"
	"sync/atomic"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/pion/dtls/v3"
	"github.com/pion/dtls/v3/pkg/crypto/clientcertificate"
	"github.com/pion/dtls/v3/pkg/crypto/prf"
	"github.com/pion/dtls/v3/pkg/protocol"
	"github.com/pion/dtls/v3/pkg/protocol/recordlayer"
)

// Suite IDs pion/dtls v3.1.15 does not implement (RFC 7251).
const (
	TLS_ECDHE_ECDSA_WITH_AES_256_CCM   dtls.CipherSuiteID = 0xC0AD //nolint:revive
	TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8 dtls.CipherSuiteID = 0xC0AF //nolint:revive
)

type kind int

const (
	kindGCM kind = iota
	kindCCM
	kindChaCha
)

// spec describes one suite.
type spec struct {
	id     dtls.CipherSuiteID
	name   string
	kind   kind
	keyLen int
	tag    int
	sha384 bool
}

var specs = []spec{
	{TLS_ECDHE_ECDSA_WITH_AES_256_CCM, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM", kindCCM, 32, 16, false},
	{TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8", kindCCM, 32, 8, false},
	{dtls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", kindGCM, 16, 16, false},
	{dtls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", kindGCM, 32, 16, true},
	{dtls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", kindChaCha, 32, 16, false},
	{dtls.TLS_ECDHE_ECDSA_WITH_AES_128_CCM, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM", kindCCM, 16, 16, false},
	{dtls.TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8", kindCCM, 16, 8, false},
}

// CipherSuites returns a fresh instance of every suite, for dtls.Config.CustomCipherSuites (pion
// calls it per connection).
func CipherSuites() []dtls.CipherSuite {
	out := make([]dtls.CipherSuite, len(specs))
	for i := range specs {
		out[i] = &Suite{spec: specs[i]}
	}
	return out
}

// Names lists the suites' names, in CipherSuites' order.
func Names() []string {
	out := make([]string, len(specs))
	for i := range specs {
		out[i] = specs[i].name
	}
	return out
}

// ByName returns a CustomCipherSuites function offering only the named suite.
func ByName(name string) (func() []dtls.CipherSuite, error) {
	for i := range specs {
		if specs[i].name == name {
			s := specs[i]
			return func() []dtls.CipherSuite { return []dtls.CipherSuite{&Suite{spec: s}} }, nil
		}
	}
	return nil, fmt.Errorf("pionaead: no suite %q (have %v)", name, Names())
}

// Stats counts what libaead did for the records of one suite instance (a connection), or of all.
type Stats struct {
	Sealed    uint64 // records sealed
	Opened    uint64 // records opened (tag verified, accepted by the window)
	Replays   uint64 // records the replay window refused
	Forgeries uint64 // records whose tag did not verify
}

type counters struct{ sealed, opened, replays, forgeries atomic.Uint64 }

func (c *counters) stats() Stats {
	return Stats{c.sealed.Load(), c.opened.Load(), c.replays.Load(), c.forgeries.Load()}
}

var total counters

// Totals is the sum over every suite instance of this process.
func Totals() Stats { return total.stats() }

// Suite is one cipher suite of one connection (a dtls.CipherSuite).
type Suite struct {
	spec
	keys  atomic.Pointer[keys]
	count counters
}

// keys holds one connection's write keys, and the libaead record AEADs made from them per epoch.
type keys struct {
	local, remote direction
}

type direction struct {
	s       *spec
	key, iv []byte
	mu      sync.Mutex
	cur     atomic.Pointer[aead.DTLS12]
}

var (
	errNotInit    = &protocol.FatalError{Err: errors.New("pionaead: cipher suite not initialized")}
	errShort      = &protocol.TemporaryError{Err: errors.New("pionaead: record too short")}
	errCID        = &protocol.FatalError{Err: errors.New("pionaead: connection ID records are not supported")}
	errFailedOpen = &protocol.TemporaryError{Err: errors.New("pionaead: record refused")}
)

// aeadFor returns the direction's record AEAD of an epoch (DTLS 1.2 keys one epoch per handshake;
// the AEAD is made at its first record).
func (d *direction) aeadFor(epoch uint16) (*aead.DTLS12, error) {
	if a := d.cur.Load(); a != nil && a.Epoch() == epoch {
		return a, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if a := d.cur.Load(); a != nil && a.Epoch() == epoch {
		return a, nil
	}
	opts := aead.DTLSOptions{TagSize: d.s.tag}
	var a *aead.DTLS12
	var err error
	switch d.s.kind {
	case kindGCM:
		a, err = aead.NewDTLS12GCM(d.key, d.iv, epoch, opts)
	case kindCCM:
		a, err = aead.NewDTLS12CCM(d.key, d.iv, epoch, opts)
	default:
		a, err = aead.NewDTLS12ChaCha20Poly1305(d.key, d.iv, epoch, opts)
	}
	if err != nil {
		return nil, &protocol.FatalError{Err: err}
	}
	d.cur.Store(a)
	return a, nil
}

func (s *Suite) String() string { return s.name }

// ID returns the suite's IANA number.
func (s *Suite) ID() dtls.CipherSuiteID { return s.id }

// CertificateType: every suite here is ECDHE_ECDSA.
func (s *Suite) CertificateType() clientcertificate.Type { return clientcertificate.ECDSASign }

// HashFunc is the PRF's hash: SHA-384 for AES_256_GCM_SHA384, SHA-256 for the others.
func (s *Suite) HashFunc() func() hash.Hash {
	if s.sha384 {
		return sha512.New384
	}
	return sha256.New
}

// AuthenticationType: certificates.
func (s *Suite) AuthenticationType() dtls.CipherSuiteAuthenticationType {
	return dtls.CipherSuiteAuthenticationTypeCertificate
}

// KeyExchangeAlgorithm: ECDHE.
func (s *Suite) KeyExchangeAlgorithm() dtls.CipherSuiteKeyExchangeAlgorithm {
	return dtls.CipherSuiteKeyExchangeAlgorithmEcdhe
}

// ECC: the elliptic-curve extensions are sent.
func (s *Suite) ECC() bool { return true }

// IsInitialized reports whether Init has keyed the suite.
func (s *Suite) IsInitialized() bool { return s.keys.Load() != nil }

// Stats is what libaead did for this connection's records.
func (s *Suite) Stats() Stats { return s.count.stats() }

// Init derives the write keys and IVs (RFC 5246 section 6.3) as pion's suites do.
func (s *Suite) Init(masterSecret, clientRandom, serverRandom []byte, isClient bool) error {
	ivLen := 4
	if s.kind == kindChaCha {
		ivLen = 12
	}
	ek, err := prf.GenerateEncryptionKeys(masterSecret, clientRandom, serverRandom, 0, s.keyLen, ivLen, s.HashFunc())
	if err != nil {
		return err
	}
	k := &keys{}
	k.local = direction{s: &s.spec, key: ek.ServerWriteKey, iv: ek.ServerWriteIV}
	k.remote = direction{s: &s.spec, key: ek.ClientWriteKey, iv: ek.ClientWriteIV}
	if isClient {
		k.local.key, k.local.iv, k.remote.key, k.remote.iv = ek.ClientWriteKey, ek.ClientWriteIV, ek.ServerWriteKey, ek.ServerWriteIV
	}
	s.keys.Store(k)
	return nil
}

// explicitNonce is the bytes between header and ciphertext: the AES suites' 8-byte explicit nonce
// (epoch || seq); none for ChaCha20-Poly1305 (RFC 7905). Decrypt does not read it: the record opens
// under epoch || seq from its header, the only nonce the DTLS 1.2 policy takes (README).
func (s *Suite) explicitNonce() int {
	if s.kind == kindChaCha {
		return 0
	}
	return 8
}

// additionalData is DTLS 1.2's: epoch || seq(6) || type || version || plaintext length.
func additionalData(h *recordlayer.Header, n int) (aad [aead.DTLS12AADSize]byte) {
	binary.BigEndian.PutUint64(aad[:], uint64(h.Epoch)<<48|h.SequenceNumber&aead.DTLSMaxSequence)
	aad[8], aad[9], aad[10] = byte(h.ContentType), h.Version.Major, h.Version.Minor
	binary.BigEndian.PutUint16(aad[11:], uint16(n)) //nolint:gosec // a record is below 2^14 + 2048 bytes
	return aad
}

// Encrypt seals one record: raw is the header and the plaintext; the result is the header (its
// length updated), the explicit nonce for AES, the ciphertext and the tag. One libaead call.
func (s *Suite) Encrypt(pkt *recordlayer.RecordLayer, raw []byte) ([]byte, error) {
	k := s.keys.Load()
	if k == nil {
		return nil, errNotInit
	}
	if pkt.Header.ContentType == protocol.ContentTypeConnectionID {
		return nil, errCID
	}
	a, err := k.local.aeadFor(pkt.Header.Epoch)
	if err != nil {
		return nil, err
	}
	hs := pkt.Header.Size()
	payload := raw[hs:]
	ex := s.explicitNonce()
	aad := additionalData(&pkt.Header, len(payload))
	r := make([]byte, hs+ex, hs+ex+len(payload)+s.tag)
	copy(r, raw[:hs])
	if ex > 0 {
		copy(r[hs:], aad[:8])
	}
	r, err = a.Seal(r, pkt.Header.Epoch, pkt.Header.SequenceNumber, aad[:], payload)
	if err != nil {
		return nil, &protocol.FatalError{Err: err}
	}
	binary.BigEndian.PutUint16(r[hs-2:], uint16(len(r)-hs)) //nolint:gosec // below 2^16
	s.count.sealed.Add(1)
	total.sealed.Add(1)
	return r, nil
}

// Decrypt opens one record in place through libaead's replay window and returns the header
// followed by the plaintext. A replayed or forged record returns a protocol.TemporaryError (pion
// drops the record) and is counted.
func (s *Suite) Decrypt(h recordlayer.Header, in []byte) ([]byte, error) {
	if err := h.Unmarshal(in); err != nil {
		return nil, err
	}
	if h.ContentType == protocol.ContentTypeChangeCipherSpec {
		return in, nil
	}
	if h.ContentType == protocol.ContentTypeConnectionID {
		return nil, errCID
	}
	k := s.keys.Load()
	if k == nil {
		return nil, errNotInit
	}
	hs, ex := h.Size(), s.explicitNonce()
	if len(in) < hs+ex+s.tag {
		return nil, errShort
	}
	a, err := k.remote.aeadFor(h.Epoch)
	if err != nil {
		return nil, err
	}
	ct := in[hs+ex:]
	aad := additionalData(&h, len(ct)-s.tag)
	out, err := a.Open(ct[:0], h.Epoch, h.SequenceNumber, aad[:], ct)
	switch {
	case errors.Is(err, aead.ErrReplay):
		s.count.replays.Add(1)
		total.replays.Add(1)
		return nil, errFailedOpen
	case err != nil:
		s.count.forgeries.Add(1)
		total.forgeries.Add(1)
		return nil, errFailedOpen
	}
	s.count.opened.Add(1)
	total.opened.Add(1)
	return append(in[:hs], out...), nil
}

// SuiteName is dtls.CipherSuiteName, knowing this package's suites too.
func SuiteName(id dtls.CipherSuiteID) string {
	for i := range specs {
		if specs[i].id == id {
			return specs[i].name
		}
	}
	return dtls.CipherSuiteName(id)
}
