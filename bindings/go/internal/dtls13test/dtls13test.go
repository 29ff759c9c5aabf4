// Package dtls13test is an independent DTLS 1.3 record layer (RFC 9147 section 4) built from two
// primitives, a cipher.AEAD and a record-number mask, and a differential test of a one-call record
// protector against it on random records. The binding's tests use it with crypto/aes + crypto/cipher
// (AES-GCM), the bench module's with x/crypto (ChaCha20-Poly1305) and pion's AES-CCM. Test support
// only; nothing of the binding imports it.
package dtls13test

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/quictest"
)

// Protector is the one-call API under test (the binding's DTLS13RecordProtector).
type Protector interface {
	Protect(record []byte, headerLen int, seq uint64) ([]byte, error)
	Unprotect(record []byte, cidLen int) (payload []byte, seq uint64, err error)
}

// Ref protects and unprotects records with an AEAD's Seal/Open and a mask applied in Go: nonce IV
// XOR (0^4 || BE64(seq)), the whole unified header as additional data, then the sequence number
// bytes XORed with the first bytes of Mask(ciphertext[0..16]) (RFC 9147 section 4.2.3).
type Ref struct {
	AEAD cipher.AEAD
	Mask quictest.MaskFunc
	IV   []byte
}

// fields returns where the sequence number field starts, its length, and whether a length field follows.
func fields(first byte, cidLen int) (seqOff, seqLen int, length bool) {
	seqLen = 1
	if first&0x08 != 0 {
		seqLen = 2
	}
	return 1 + cidLen, seqLen, first&0x04 != 0
}

func (r *Ref) nonce(seq uint64) []byte {
	n := append([]byte{}, r.IV...)
	for i := 0; i < 8; i++ {
		n[11-i] ^= byte(seq >> (8 * i))
	}
	return n
}

// Protect returns the protected record of header (zeroed sequence number and length fields, as
// AppendHeader leaves them), cidLen its connection ID's length, and the DTLSInnerPlaintext inner.
func (r *Ref) Protect(header []byte, cidLen int, inner []byte, seq uint64) []byte {
	h := r.Header(header, cidLen, len(inner), seq)
	off, n, _ := fields(h[0], cidLen)
	rec := r.AEAD.Seal(h, r.nonce(seq), inner, h)
	m := r.Mask(rec[len(h) : len(h)+16])
	for i := 0; i < n; i++ {
		rec[off+i] ^= m[i]
	}
	return rec
}

// Header returns a copy of header with its sequence number field (seq's low bits) and, if present,
// its length field (the encrypted record's length for an inner plaintext of innerLen) written: the
// additional data, and the header as it is before record-number encryption and after its removal.
func (r *Ref) Header(header []byte, cidLen, innerLen int, seq uint64) []byte {
	h := append([]byte{}, header...)
	off, n, length := fields(h[0], cidLen)
	for i := 0; i < n; i++ {
		h[off+i] = byte(seq >> (8 * (n - 1 - i)))
	}
	if length {
		l := innerLen + r.AEAD.Overhead()
		h[off+n], h[off+n+1] = byte(l>>8), byte(l)
	}
	return h
}

// Unprotect opens a copy of record, reconstructing its sequence number from largest (the largest
// accepted so far; 2^64-1 for none) as RFC 9147 section 4.2.2 says.
func (r *Ref) Unprotect(record []byte, cidLen int, largest uint64) (inner []byte, seq uint64, err error) {
	rec := append([]byte{}, record...)
	off, n, length := fields(rec[0], cidLen)
	hl := off + n
	if length {
		hl += 2
	}
	if len(rec) < hl+16+r.AEAD.Overhead() {
		return nil, 0, errors.New("short record")
	}
	m := r.Mask(rec[hl : hl+16])
	var truncated uint64
	for i := 0; i < n; i++ {
		rec[off+i] ^= m[i]
		truncated = truncated<<8 | uint64(rec[off+i])
	}
	seq = quictest.DecodePN(largest, truncated, 8*n)
	inner, err = r.AEAD.Open(nil, r.nonce(seq), rec[hl:], rec[:hl])
	return inner, seq, err
}

// RandomHeader is a unified header of the epoch: a random connection ID of 0 to 8 bytes, an 8- or
// 16-bit sequence number, with or without the length field; the fields are zeroed.
func RandomHeader(rng *rand.Rand, epoch uint64) (header []byte, cidLen int) {
	first := byte(0x20) | byte(epoch&3)
	cidLen = rng.Intn(9)
	if cidLen > 0 {
		first |= 0x10
	}
	n := 1
	if rng.Intn(2) == 0 {
		first |= 0x08
		n = 2
	}
	if rng.Intn(2) == 0 {
		first |= 0x04
		n += 2
	}
	header = append([]byte{first}, make([]byte, cidLen+n)...)
	rng.Read(header[1 : 1+cidLen])
	return header, cidLen
}

// Differential protects n random records (random headers, inner plaintexts of 16 to 600 bytes,
// sequence numbers rising by 1 to 100) both ways: tx's records must equal ref's byte for byte and
// open under ref; ref's records must open under rx with the same payload and sequence number.
// tx and rx are fresh protectors of the same keys and epoch.
func Differential(t testing.TB, seed int64, n int, epoch uint64, tx, rx Protector, ref *Ref) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	seq, largest := uint64(0), ^uint64(0)
	for i := 0; i < n; i++ {
		seq += 1 + uint64(rng.Intn(100))
		header, cidLen := RandomHeader(rng, epoch)
		inner := make([]byte, 16+rng.Intn(585))
		rng.Read(inner)
		want := ref.Protect(header, cidLen, inner, seq)

		// libaead -> reference
		rec := append(append(make([]byte, 0, len(header)+len(inner)+16), header...), inner...)
		got, err := tx.Protect(rec, len(header), seq)
		if err != nil {
			t.Fatalf("record %d (seq %d): Protect: %v", i, seq, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d (seq %d, header %x): Protect differs from the reference\n got %x\nwant %x", i, seq, header, got, want)
		}
		back, s, err := ref.Unprotect(got, cidLen, largest)
		if err != nil || s != seq || !bytes.Equal(back, inner) {
			t.Fatalf("record %d: the reference does not open libaead's record: seq %d, %v", i, s, err)
		}

		// reference -> libaead
		payload, s, err := rx.Unprotect(want, cidLen)
		if err != nil || s != seq || !bytes.Equal(payload, inner) {
			t.Fatalf("record %d (seq %d, header %x): Unprotect of the reference's record: seq %d, %v", i, seq, header, s, err)
		}
		if !bytes.Equal(want[:len(header)], ref.Header(header, cidLen, len(inner), seq)) {
			t.Fatalf("record %d: the header was not unmasked in place: %x", i, want[:len(header)])
		}
		largest = seq
	}
}
