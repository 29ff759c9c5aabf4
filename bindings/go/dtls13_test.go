package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/tls"
	"errors"
	"math/rand"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/dtls13test"
)

var dtls13Suites = []struct {
	name  string
	suite uint16
	key   int
}{
	{"AES-128-GCM", tls.TLS_AES_128_GCM_SHA256, 16},
	{"AES-256-GCM", tls.TLS_AES_256_GCM_SHA384, 32},
	{"ChaCha20-Poly1305", tls.TLS_CHACHA20_POLY1305_SHA256, 32},
	{"AES-128-CCM", DTLS13AES128CCMSHA256, 16},
}

type dtls13Keys struct{ key, iv, sn []byte }

// newDTLS13Pair returns a sender and a receiver of one epoch's keys (random, from seed).
func newDTLS13Pair(t testing.TB, suite uint16, keyLen int, epoch uint64, seed int64) (k dtls13Keys, tx, rx *DTLS13RecordProtector) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	k = dtls13Keys{make([]byte, keyLen), make([]byte, 12), make([]byte, keyLen)}
	rng.Read(k.key)
	rng.Read(k.iv)
	rng.Read(k.sn)
	var err error
	if tx, err = NewDTLS13RecordProtector(suite, k.key, k.iv, k.sn, epoch, DTLSOptions{}); err != nil {
		t.Fatal(err)
	}
	if rx, err = NewDTLS13RecordProtector(suite, k.key, k.iv, k.sn, epoch, DTLSOptions{}); err != nil {
		t.Fatal(err)
	}
	return k, tx, rx
}

// record protects a 40-byte inner plaintext (its first byte tells records apart) under seq with
// a header of no connection ID, an 8- or 16-bit sequence number and the length field.
func record(t testing.TB, tx *DTLS13RecordProtector, seq uint64, seq16 bool) []byte {
	t.Helper()
	inner := bytes.Repeat([]byte{byte(seq)}, 40)
	rec := tx.AppendHeader(nil, nil, seq16, true)
	hl := len(rec)
	rec, err := tx.Protect(append(rec, inner...), hl, seq)
	if err != nil {
		t.Fatalf("Protect seq %d: %v", seq, err)
	}
	return rec
}

// open unprotects a copy of rec and checks the sequence number and payload it gives.
func open(t testing.TB, rx *DTLS13RecordProtector, rec []byte, want uint64) {
	t.Helper()
	payload, seq, err := rx.Unprotect(append([]byte{}, rec...), 0)
	if err != nil || seq != want || !bytes.Equal(payload, bytes.Repeat([]byte{byte(want)}, 40)) {
		t.Fatalf("Unprotect: seq %d (want %d), %v", seq, want, err)
	}
}

// refuse unprotects a copy of rec and checks the error; the record must be left as it arrived.
func refuse(t testing.TB, rx *DTLS13RecordProtector, rec []byte, want error, what string) {
	t.Helper()
	c := append([]byte{}, rec...)
	if _, _, err := rx.Unprotect(c, 0); !errors.Is(err, want) {
		t.Fatalf("%s: Unprotect: %v, want %v", what, err, want)
	}
	if errors.Is(want, ErrReplay) && !bytes.Equal(c, rec) {
		t.Fatalf("%s: a refused replay changed the record", what)
	}
}

// TestDTLS13DifferentialAESGCM: libaead's records against crypto/aes + crypto/cipher's GCM and an
// AES-ECB mask of the first 16 ciphertext bytes, on random headers and payloads, both directions,
// in epochs whose low bits differ. (ChaCha20-Poly1305 against x/crypto and AES-128-CCM against
// pion's ccm: the bench module's TestDTLS13Differential.)
func TestDTLS13DifferentialAESGCM(t *testing.T) {
	for _, s := range dtls13Suites[:2] {
		for _, epoch := range []uint64{3, 6, 1 << 40} {
			k, tx, rx := newDTLS13Pair(t, s.suite, s.key, epoch, int64(epoch)+int64(s.key))
			blk, err := aes.NewCipher(k.key)
			if err != nil {
				t.Fatal(err)
			}
			gcm, err := cipher.NewGCM(blk)
			if err != nil {
				t.Fatal(err)
			}
			dtls13test.Differential(t, int64(epoch), 300, epoch, tx, rx,
				&dtls13test.Ref{AEAD: gcm, Mask: stdAESMask(t, k.sn), IV: k.iv})
		}
	}
}

// TestDTLS13ReplayWindow, every suite: a record opened twice, a record left of the 64-record
// window (never opened before) and one just inside it; a forged record far ahead leaves the window
// where it was, so the next genuine record still opens; the counters say so.
func TestDTLS13ReplayWindow(t *testing.T) {
	for _, s := range dtls13Suites {
		t.Run(s.name, func(t *testing.T) {
			_, tx, rx := newDTLS13Pair(t, s.suite, s.key, 3, 7)
			recs := map[uint64][]byte{}
			for seq := uint64(1); seq <= 200; seq++ {
				recs[seq] = record(t, tx, seq, true)
			}
			for seq := uint64(1); seq <= 100; seq++ {
				if seq == 36 || seq == 37 {
					continue // held back: they arrive late
				}
				open(t, rx, recs[seq], seq)
			}
			refuse(t, rx, recs[100], ErrReplay, "the last record again")
			refuse(t, rx, recs[50], ErrReplay, "an older record again")
			refuse(t, rx, recs[36], ErrReplay, "a record 64 left of the largest (left of the window)")
			open(t, rx, recs[37], 37) // 63 left: inside the window, never seen
			refuse(t, rx, recs[37], ErrReplay, "the late record again")
			u := rx.Usage()
			if u.Replays != 4 || u.Accepted != 99 || u.Largest != 100 || u.Window != 64 || u.Forgeries != 0 {
				t.Fatalf("usage after the replays: %+v", u)
			}

			// A forgery claiming seq 180 (80 ahead): refused, counted, the window unmoved.
			forged := append([]byte{}, recs[180]...)
			forged[len(forged)-1] ^= 1
			refuse(t, rx, forged, ErrOpen, "a forged record far ahead")
			if errors.Is(func() error { _, _, err := rx.Unprotect(append([]byte{}, forged...), 0); return err }(), ErrReplay) {
				t.Fatal("a forgery counted as a replay")
			}
			if u := rx.Usage(); u.Forgeries != 2 || u.Largest != 100 || u.Accepted != 99 {
				t.Fatalf("usage after two forgeries: %+v", u)
			}
			open(t, rx, recs[101], 101) // the next genuine record opens
			open(t, rx, recs[180], 180) // and so does the genuine record the forgery imitated
			if tx.Usage().Seals != 200 {
				t.Fatalf("sender's usage: %+v", tx.Usage())
			}
		})
	}
}

// TestDTLS13SequenceWraps: 8-bit and 16-bit sequence number fields across their wrap edges (255 ->
// 256 one by one, 65535 -> 65536 one by one), the full number reconstructed from the window's
// right edge, and gaps just under half the field's range (127; 32767, past 2^24).
func TestDTLS13SequenceWraps(t *testing.T) {
	for _, s := range dtls13Suites {
		for _, c := range []struct {
			seq16    bool
			from, to uint64
			gap      uint64
		}{
			{false, 200, 300, 1}, {false, 100, 5000, 127}, {true, 65500, 65600, 1},
			{true, 100, 1<<24 + 100, 32767},
		} {
			_, tx, rx := newDTLS13Pair(t, s.suite, s.key, 3, 9)
			for seq := c.from; seq <= c.to; seq += c.gap {
				rec := record(t, tx, seq, c.seq16)
				open(t, rx, rec, seq)
			}
			if u := rx.Usage(); u.Replays != 0 || u.Forgeries != 0 {
				t.Fatalf("%s %+v: %+v", s.name, c, u)
			}
		}
	}
}

// TestDTLS13Epochs: a record of another epoch (other low bits) is refused with ErrEpoch and counts
// neither as a replay nor as a forgery; a header whose epoch bits are not the key's is refused by
// Protect; a record of epoch 7 (the same low bits as 3, other keys) fails as a forgery.
func TestDTLS13Epochs(t *testing.T) {
	for _, s := range dtls13Suites {
		k, tx2, _ := newDTLS13Pair(t, s.suite, s.key, 2, 11)
		_, _, rx3 := newDTLS13Pair(t, s.suite, s.key, 3, 11) // the same keys, epoch 3
		refuse(t, rx3, record(t, tx2, 1, true), ErrEpoch, s.name+": epoch 2's record at epoch 3")
		if u := rx3.Usage(); u.Replays != 0 || u.Forgeries != 0 || u.Accepted != 0 {
			t.Fatalf("%s: usage after another epoch's record: %+v", s.name, u)
		}
		hdr := tx2.AppendHeader(nil, nil, true, true)
		hdr[0] = hdr[0]&^3 | 3
		rec := append(hdr, make([]byte, 40)...)
		if out, err := tx2.Protect(rec, 5, 2); !errors.Is(err, ErrEpoch) || !bytes.Equal(out, rec) {
			t.Fatalf("%s: Protect with epoch bits 3 at epoch 2: %v", s.name, err)
		}
		tx7, err := NewDTLS13RecordProtector(s.suite, k.key, k.iv, k.sn, 7, DTLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, rx3b := newDTLS13Pair(t, s.suite, s.key, 3, 12) // other keys, epoch 3
		refuse(t, rx3b, record(t, tx7, 1, true), ErrOpen, s.name+": epoch 7's record under epoch 3's keys")
		if u := rx3b.Usage(); u.Forgeries != 1 {
			t.Fatalf("%s: %+v", s.name, u)
		}
	}
}

// TestDTLS13SealOrder: a sequence number not above the last one sealed, or 2^48, is refused with
// ErrRecordNumber and the record is left as it was.
func TestDTLS13SealOrder(t *testing.T) {
	_, tx, _ := newDTLS13Pair(t, tls.TLS_AES_128_GCM_SHA256, 16, 3, 13)
	record(t, tx, 10, true)
	for _, seq := range []uint64{10, 9, 1 << 48} {
		rec := append(tx.AppendHeader(nil, []byte{1, 2}, true, true), make([]byte, 30)...)
		before := append([]byte{}, rec...)
		if out, err := tx.Protect(rec, 7, seq); !errors.Is(err, ErrRecordNumber) || !bytes.Equal(out, before) {
			t.Fatalf("seq %d: %v", seq, err)
		}
	}
	record(t, tx, 11, true)
}

// TestDTLS13Constructor: the suites' key sizes, the IV, the sn_key, the tag size and the window.
func TestDTLS13Constructor(t *testing.T) {
	k16, k32, iv := make([]byte, 16), make([]byte, 32), make([]byte, 12)
	for name, err := range map[string]error{
		"AES-128 with 32":   second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k32, iv, k32, 3, DTLSOptions{})),
		"ChaCha with 16":    second(NewDTLS13RecordProtector(tls.TLS_CHACHA20_POLY1305_SHA256, k16, iv, k16, 3, DTLSOptions{})),
		"a TLS 1.2 suite":   second(NewDTLS13RecordProtector(tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, k16, iv, k16, 3, DTLSOptions{})),
		"sn_key 32 for 16":  second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k16, iv, k32, 3, DTLSOptions{})),
		"IV of 8":           second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k16, iv[:8], k16, 3, DTLSOptions{})),
		"tag 8":             second(NewDTLS13RecordProtector(DTLS13AES128CCMSHA256, k16, iv, k16, 3, DTLSOptions{TagSize: 8})),
		"window 100":        second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k16, iv, k16, 3, DTLSOptions{Window: 100})),
		"window 8192":       second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k16, iv, k16, 3, DTLSOptions{Window: 8192})),
		"unknown provider?": second(NewDTLS13RecordProtector(tls.TLS_AES_128_GCM_SHA256, k16, iv, k16, 3, DTLSOptions{Properties: "provider=nonesuch"})),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	p, err := NewDTLS13RecordProtector(tls.TLS_AES_256_GCM_SHA384, k32, iv, k32, 5, DTLSOptions{Window: 256})
	if err != nil || p.Usage().Window != 256 || p.Epoch() != 5 || p.Suite() != tls.TLS_AES_256_GCM_SHA384 || p.Overhead() != 16 {
		t.Fatalf("window 256: %v", err)
	}
	if h := p.AppendHeader([]byte{9}, []byte{1, 2, 3}, false, false); !bytes.Equal(h, []byte{9, 0x31, 1, 2, 3, 0}) {
		t.Fatalf("AppendHeader: %x", h)
	}
}
