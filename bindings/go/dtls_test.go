package aead

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	mrand "math/rand"
	"testing"
)

// dtlsAAD is DTLS 1.2's additional data: epoch || seq(6) || type || version || length.
func dtlsAAD(epoch uint16, seq uint64, typ byte, n int) []byte {
	aad := make([]byte, DTLS12AADSize)
	binary.BigEndian.PutUint64(aad, uint64(epoch)<<48|seq)
	aad[8], aad[9], aad[10] = typ, 0xfe, 0xfd
	binary.BigEndian.PutUint16(aad[11:], uint16(n))
	return aad
}

func dtlsRand(t testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// dtlsCase is one suite: its constructor and an independent reference AEAD with the same key whose
// nonce for (epoch, seq) the test computes by the RFC.
type dtlsCase struct {
	name   string
	keyLen int
	ivLen  int
	tag    int
	new    func(key, iv []byte, epoch uint16, o DTLSOptions) (*DTLS12, error)
	ref    func(t testing.TB, key []byte, tag int) cipher.AEAD
}

// dtlsStdGCM is crypto/cipher's AES-GCM, the reference of the GCM suites.
func dtlsStdGCM(t testing.TB, key []byte, tag int) cipher.AEAD { return stdGCM(t, key, 12, tag) }

// The module depends on nothing outside the standard library, so CCM and ChaCha20-Poly1305 are
// checked against this package's plain (policy-free) AEADs; the bench module checks those against
// x/crypto and pion/dtls's ccm.
func plainCCM(t testing.TB, key []byte, tag int) cipher.AEAD {
	a, err := NewCCM(key, 12, tag)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func plainChaCha(t testing.TB, key []byte, _ int) cipher.AEAD {
	a, err := NewChaCha20Poly1305(key)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var dtlsCases = []dtlsCase{
	{"AES-128-GCM", 16, 4, 16, NewDTLS12GCM, dtlsStdGCM},
	{"AES-256-GCM", 32, 4, 16, NewDTLS12GCM, dtlsStdGCM},
	{"AES-128-CCM", 16, 4, 16, NewDTLS12CCM, plainCCM},
	{"AES-256-CCM", 32, 4, 16, NewDTLS12CCM, plainCCM},
	{"AES-128-CCM_8", 16, 4, 8, NewDTLS12CCM, plainCCM},
	{"AES-256-CCM_8", 32, 4, 8, NewDTLS12CCM, plainCCM},
	{"ChaCha20-Poly1305", 32, 12, 16, NewDTLS12ChaCha20Poly1305, plainChaCha},
}

// refNonce is the RFC's nonce: salt || epoch || seq (RFC 5288, RFC 6347), or IV XOR (0^4 ||
// epoch || seq) (RFC 7905).
func refNonce(iv []byte, epoch uint16, seq uint64) []byte {
	n := make([]byte, 12)
	es := uint64(epoch)<<48 | seq
	if len(iv) == 4 {
		copy(n, iv)
		binary.BigEndian.PutUint64(n[4:], es)
	} else {
		copy(n, iv)
		binary.BigEndian.PutUint64(n[4:], binary.BigEndian.Uint64(iv[4:])^es)
	}
	return n
}

func newDTLSPair(t testing.TB, c dtlsCase, epoch uint16, o DTLSOptions) (key, iv []byte, tx, rx *DTLS12) {
	key, iv = dtlsRand(t, c.keyLen), dtlsRand(t, c.ivLen)
	o.TagSize = c.tag
	var err error
	if tx, err = c.new(key, iv, epoch, o); err != nil {
		t.Fatal(err)
	}
	if rx, err = c.new(key, iv, epoch, o); err != nil {
		t.Fatal(err)
	}
	return key, iv, tx, rx
}

// TestDTLS12Differential: random records (sizes 0..2000, random gaps in the sequence numbers) sealed
// by libaead equal the reference's, and the reference's ciphertexts open through libaead.
func TestDTLS12Differential(t *testing.T) {
	rng := mrand.New(mrand.NewSource(1))
	total := 0
	for _, c := range dtlsCases {
		t.Run(c.name, func(t *testing.T) {
			epoch := uint16(rng.Intn(1 << 16))
			key, iv, tx, rx := newDTLSPair(t, c, epoch, DTLSOptions{})
			ref := c.ref(t, key, c.tag)
			seq := uint64(rng.Intn(1000))
			for i := 0; i < 300; i++ {
				seq += 1 + uint64(rng.Intn(3))
				pt := dtlsRand(t, rng.Intn(2001))
				aad := dtlsAAD(epoch, seq, byte(20+rng.Intn(4)), len(pt))
				want := ref.Seal(nil, refNonce(iv, epoch, seq), pt, aad)
				got, err := tx.Seal(nil, epoch, seq, aad, pt)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("seq %d: seal differs from the reference (err %v)", seq, err)
				}
				back, err := rx.Open(nil, epoch, seq, aad, want)
				if err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("seq %d: open of the reference's record: %v", seq, err)
				}
				total++
			}
			if u := rx.Usage(); u.Accepted != 300 || u.Forgeries != 0 || u.Replays != 0 || u.Largest != seq {
				t.Fatalf("receiver usage %+v, want 300 accepted, largest %d", u, seq)
			}
			if u := tx.Usage(); u.Seals != 300 {
				t.Fatalf("sender usage %+v, want 300 seals", u)
			}
		})
	}
	t.Logf("%d records against the references", total)
}

// TestDTLS12Replay: a record opens once; the same record again, and one left of the window, are
// refused with ErrReplay before decrypting, and counted.
func TestDTLS12Replay(t *testing.T) {
	for _, c := range dtlsCases {
		t.Run(c.name, func(t *testing.T) {
			_, _, tx, rx := newDTLSPair(t, c, 1, DTLSOptions{})
			recs := map[uint64][]byte{}
			for _, seq := range []uint64{1, 2, 3, 200} {
				aad := dtlsAAD(1, seq, 23, 5)
				ct, err := tx.Seal(nil, 1, seq, aad, []byte("hello"))
				if err != nil {
					t.Fatal(err)
				}
				recs[seq] = ct
			}
			open := func(seq uint64) error {
				_, err := rx.Open(nil, 1, seq, dtlsAAD(1, seq, 23, 5), recs[seq])
				return err
			}
			for _, seq := range []uint64{2, 1, 200} {
				if err := open(seq); err != nil {
					t.Fatalf("first open of %d: %v", seq, err)
				}
			}
			if err := open(2); !errors.Is(err, ErrReplay) {
				t.Fatalf("second open of 2: %v, want ErrReplay", err)
			}
			if err := open(3); !errors.Is(err, ErrReplay) { // 200 - 3 >= 64: left of the window
				t.Fatalf("open of 3 after 200: %v, want ErrReplay", err)
			}
			if u := rx.Usage(); u.Replays != 2 || u.Accepted != 3 || u.Largest != 200 || u.Window != 64 {
				t.Fatalf("usage %+v", u)
			}
		})
	}
}

// TestDTLS12ForgedFarAhead: a forged record claiming a number far right of the window fails as a
// forgery and leaves the window where it was: records just above the last genuine one still open.
func TestDTLS12ForgedFarAhead(t *testing.T) {
	for _, c := range dtlsCases {
		t.Run(c.name, func(t *testing.T) {
			_, _, tx, rx := newDTLSPair(t, c, 3, DTLSOptions{Window: 128})
			seal := func(seq uint64) []byte {
				ct, err := tx.Seal(nil, 3, seq, dtlsAAD(3, seq, 23, 4), []byte("data"))
				if err != nil {
					t.Fatal(err)
				}
				return ct
			}
			r10, r11, r12 := seal(10), seal(11), seal(12)
			far := seal(1 << 40)
			if _, err := rx.Open(nil, 3, 10, dtlsAAD(3, 10, 23, 4), r10); err != nil {
				t.Fatal(err)
			}
			far[0] ^= 0x80
			dst := make([]byte, 0, 64)
			out, err := rx.Open(dst, 3, 1<<40, dtlsAAD(3, 1<<40, 23, 4), far)
			if err != ErrOpen || out != nil {
				t.Fatalf("forged far-ahead record: %v, want ErrOpen", err)
			}
			if !bytes.Equal(dst[:4], make([]byte, 4)) {
				t.Fatal("a forgery left plaintext behind")
			}
			if u := rx.Usage(); u.Largest != 10 || u.Forgeries != 1 || u.Accepted != 1 {
				t.Fatalf("the forgery moved the window: %+v", u)
			}
			for seq, r := range map[uint64][]byte{12: r12, 11: r11} {
				if _, err := rx.Open(nil, 3, seq, dtlsAAD(3, seq, 23, 4), r); err != nil {
					t.Fatalf("genuine %d after the forgery: %v", seq, err)
				}
			}
			// The genuine far record still opens once (the forgery consumed nothing).
			far[0] ^= 0x80
			if _, err := rx.Open(nil, 3, 1<<40, dtlsAAD(3, 1<<40, 23, 4), far); err != nil {
				t.Fatal(err)
			}
			if u := rx.Usage(); u.Largest != 1<<40 || u.Accepted != 4 || u.Window != 128 {
				t.Fatalf("usage %+v", u)
			}
		})
	}
}

// TestDTLS12SealRules: the sequence number must rise; epoch and AAD must be the record's.
func TestDTLS12SealRules(t *testing.T) {
	for _, c := range dtlsCases {
		t.Run(c.name, func(t *testing.T) {
			_, _, tx, rx := newDTLSPair(t, c, 1, DTLSOptions{})
			pt := []byte("x")
			if _, err := tx.Seal(nil, 1, 5, dtlsAAD(1, 5, 23, 1), pt); err != nil {
				t.Fatal(err)
			}
			for _, seq := range []uint64{5, 4, DTLSMaxSequence + 1} {
				dst := []byte("keep")
				out, err := tx.Seal(dst, 1, seq, dtlsAAD(1, seq&DTLSMaxSequence, 23, 1), pt)
				if !errors.Is(err, ErrRecordNumber) || string(out) != "keep" {
					t.Fatalf("seq %d: %v, want ErrRecordNumber and dst unchanged", seq, err)
				}
			}
			if _, err := tx.Seal(nil, 2, 6, dtlsAAD(2, 6, 23, 1), pt); !errors.Is(err, ErrEpoch) {
				t.Fatalf("other epoch: %v, want ErrEpoch", err)
			}
			if _, err := tx.Seal(nil, 1, 6, dtlsAAD(1, 7, 23, 1), pt); !errors.Is(err, ErrAADMismatch) {
				t.Fatalf("AAD of another record: %v, want ErrAADMismatch", err)
			}
			if _, err := tx.Seal(nil, 1, 6, make([]byte, 12), pt); !errors.Is(err, ErrAADMismatch) {
				t.Fatalf("12-byte AAD: %v, want ErrAADMismatch", err)
			}
			ct, err := tx.Seal(nil, 1, 6, dtlsAAD(1, 6, 23, 1), pt) // the refusals consumed nothing
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rx.Open(nil, 2, 6, dtlsAAD(2, 6, 23, 1), ct); !errors.Is(err, ErrEpoch) {
				t.Fatalf("open under another epoch: %v, want ErrEpoch", err)
			}
			if _, err := rx.Open(nil, 1, 6, dtlsAAD(1, 6, 23, 1), ct); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestDTLS12Constructors(t *testing.T) {
	k16, k32 := make([]byte, 16), make([]byte, 32)
	bad := []func() (*DTLS12, error){
		func() (*DTLS12, error) { return NewDTLS12GCM(make([]byte, 24), make([]byte, 4), 0, DTLSOptions{}) },
		func() (*DTLS12, error) { return NewDTLS12GCM(k16, make([]byte, 12), 0, DTLSOptions{}) },
		func() (*DTLS12, error) { return NewDTLS12GCM(k16, make([]byte, 4), 0, DTLSOptions{TagSize: 8}) },
		func() (*DTLS12, error) { return NewDTLS12CCM(k16, make([]byte, 4), 0, DTLSOptions{TagSize: 12}) },
		func() (*DTLS12, error) { return NewDTLS12CCM(k16, make([]byte, 4), 0, DTLSOptions{Window: 100}) },
		func() (*DTLS12, error) { return NewDTLS12CCM(k16, make([]byte, 4), 0, DTLSOptions{Window: 8192}) },
		func() (*DTLS12, error) { return NewDTLS12ChaCha20Poly1305(k32, make([]byte, 4), 0, DTLSOptions{}) },
		func() (*DTLS12, error) { return NewDTLS12ChaCha20Poly1305(k16, make([]byte, 12), 0, DTLSOptions{}) },
	}
	for i, f := range bad {
		if d, err := f(); err == nil || d != nil {
			t.Errorf("case %d: accepted", i)
		}
	}
	d, err := NewDTLS12CCM(k32, make([]byte, 4), 7, DTLSOptions{TagSize: 8, Window: 4096})
	if err != nil || d.Overhead() != 8 || d.Epoch() != 7 || d.Usage().Window != 4096 || d.Usage().Largest != DTLSNoRecord {
		t.Fatalf("CCM_8 with a 4096 window: %v", err)
	}
}
