package bench

// Differential tests of the streaming AEAD (package stream) against tink-go's raw AES-GCM-HKDF
// streaming primitive (streamingaead/subtle.NewAESGCMHKDF): each side writes, the other reads, over
// the three HKDF hashes, both key sizes, two segment sizes (one with a first segment offset) and
// plaintext sizes 0, at and around the segment boundaries, random ones and a few MiB; random-access
// reads of either's streams match Tink's decryption; damaged streams are refused by both.

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"errors"
	"io"
	mrand "math/rand"
	"testing"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/stream"
	tinkstream "github.com/tink-crypto/tink-go/v2/streamingaead/subtle"
)

type tinkConfig struct {
	hash               crypto.Hash
	hashName           string
	keySize            int
	segmentSize        int
	firstSegmentOffset int
}

func tinkConfigs() []tinkConfig {
	var out []tinkConfig
	for _, h := range []struct {
		h    crypto.Hash
		name string
	}{{crypto.SHA1, "SHA1"}, {crypto.SHA256, "SHA256"}, {crypto.SHA512, "SHA512"}} {
		for _, ks := range []int{16, 32} {
			out = append(out, tinkConfig{h.h, h.name, ks, 4096, 0}, tinkConfig{h.h, h.name, ks, 120, 9})
		}
	}
	return out
}

// pair makes ours and Tink's primitive on one random main key.
func (c tinkConfig) pair(t *testing.T) (*stream.AEAD, *tinkstream.AESGCMHKDF) {
	t.Helper()
	key := make([]byte, c.keySize+mrand.Intn(8))
	rand.Read(key)
	ours, err := stream.NewTinkAESGCMHKDF(key, c.hash, c.keySize, c.segmentSize, c.firstSegmentOffset)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := tinkstream.NewAESGCMHKDF(key, c.hashName, c.keySize, c.segmentSize, c.firstSegmentOffset)
	if err != nil {
		t.Fatal(err)
	}
	return ours, ref
}

// sizes: 0, 1, the first and second segment boundaries +-1, a later boundary +-1, random sizes.
func (c tinkConfig) sizes(r *mrand.Rand) []int {
	room0 := c.segmentSize - (1 + c.keySize + 7) - c.firstSegmentOffset - 16
	room := c.segmentSize - 16
	out := []int{0, 1}
	for _, b := range []int{room0, room0 + room, room0 + 5*room} {
		out = append(out, b-1, b, b+1)
	}
	for i := 0; i < 6; i++ {
		out = append(out, r.Intn(8*c.segmentSize))
	}
	return out
}

// write writes pt in random chunks through w and closes it.
func write(t *testing.T, w io.WriteCloser, err error, pt []byte, r *mrand.Rand) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for p := pt; len(p) > 0; {
		k := min(len(p), 1+r.Intn(5000))
		if _, err := w.Write(p[:k]); err != nil {
			t.Fatal(err)
		}
		p = p[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func oursEncrypt(t *testing.T, a *stream.AEAD, pt, ad []byte, r *mrand.Rand) []byte {
	var b bytes.Buffer
	w, err := a.NewWriter(&b, ad)
	write(t, w, err, pt, r)
	return b.Bytes()
}

func tinkEncrypt(t *testing.T, a *tinkstream.AESGCMHKDF, pt, ad []byte, r *mrand.Rand) []byte {
	var b bytes.Buffer
	w, err := a.NewEncryptingWriter(&b, ad)
	write(t, w, err, pt, r)
	return b.Bytes()
}

func oursDecrypt(a *stream.AEAD, ct, ad []byte) ([]byte, error) {
	rd, err := a.NewReader(bytes.NewReader(ct), ad)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(rd)
}

func tinkDecrypt(a *tinkstream.AESGCMHKDF, ct, ad []byte) ([]byte, error) {
	rd, err := a.NewDecryptingReader(bytes.NewReader(ct), ad)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(rd)
}

// randomAccess reads random windows of ct with NewReaderAt and compares them with want (Tink's
// decryption of ct).
func randomAccess(t *testing.T, a *stream.AEAD, ct, ad, want []byte, r *mrand.Rand) int {
	t.Helper()
	ra, err := a.NewReaderAt(bytes.NewReader(ct), int64(len(ct)), ad)
	if err != nil {
		t.Fatalf("NewReaderAt: %v", err)
	}
	reads := 0
	for i := 0; i < 8; i++ {
		off, n := r.Intn(len(want)+2), r.Intn(3*len(want)/2+2)
		buf := make([]byte, n)
		k, err := ra.ReadAt(buf, int64(off))
		exp := want[min(off, len(want)):min(off+n, len(want))]
		if !bytes.Equal(buf[:k], exp) || (k < n) != (err == io.EOF) || (err != nil && err != io.EOF) {
			t.Fatalf("ReadAt(%d, %d) of a %d-byte plaintext: %d bytes, %v", off, n, len(want), k, err)
		}
		reads++
	}
	return reads
}

// TestStreamTinkInterop: ours -> Tink and Tink -> ours over every config and size, plus one 3 MiB
// stream per config each way; random access over both sides' streams matches Tink's decryption.
func TestStreamTinkInterop(t *testing.T) {
	r := mrand.New(mrand.NewSource(7))
	toTink, fromTink, reads := 0, 0, 0
	for _, c := range tinkConfigs() {
		ours, ref := c.pair(t)
		sizes := c.sizes(r)
		if c.segmentSize == 4096 {
			sizes = append(sizes, 3<<20+r.Intn(1000))
		}
		for _, size := range sizes {
			pt := make([]byte, size)
			rand.Read(pt)
			ad := make([]byte, r.Intn(40))
			rand.Read(ad)

			ct := oursEncrypt(t, ours, pt, ad, r)
			got, err := tinkDecrypt(ref, ct, ad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%+v size %d: Tink reads ours: %v", c, size, err)
			}
			toTink++
			reads += randomAccess(t, ours, ct, ad, got, r)

			ct2 := tinkEncrypt(t, ref, pt, ad, r)
			if len(ct2) != len(ct) {
				t.Fatalf("%+v size %d: Tink's stream is %d bytes, ours %d", c, size, len(ct2), len(ct))
			}
			got, err = oursDecrypt(ours, ct2, ad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%+v size %d: we read Tink's: %v", c, size, err)
			}
			fromTink++
			ref2, _ := tinkDecrypt(ref, ct2, ad)
			reads += randomAccess(t, ours, ct2, ad, ref2, r)
		}
	}
	t.Logf("interop Tink AES-GCM-HKDF streaming: %d streams libaead -> Tink, %d Tink -> libaead, %d random-access reads", toTink, fromTink, reads)
	if toTink < 200 || fromTink < 200 {
		t.Fatalf("only %d / %d streams", toTink, fromTink)
	}
}

// TestStreamTinkDamaged: truncated (one byte, at a segment boundary, into the header), reordered,
// extended after the final segment and bit-flipped streams, from either writer, are refused by
// both readers; ours with an error matching aead.ErrOpen.
func TestStreamTinkDamaged(t *testing.T) {
	r := mrand.New(mrand.NewSource(8))
	cases := 0
	for _, c := range tinkConfigs() {
		ours, ref := c.pair(t)
		header := 1 + c.keySize + 7
		first := c.segmentSize - header - c.firstSegmentOffset
		for _, size := range []int{0, 3, first - 16, 4*c.segmentSize + 11} {
			pt := make([]byte, size)
			rand.Read(pt)
			for w, ct := range [][]byte{oursEncrypt(t, ours, pt, nil, r), tinkEncrypt(t, ref, pt, nil, r)} {
				bad := map[string][]byte{
					"cut one byte":     ct[:len(ct)-1],
					"cut in header":    ct[:header-1],
					"header only":      ct[:header],
					"extended by one":  append(bytes.Clone(ct), 0),
					"extended by self": append(bytes.Clone(ct), ct[header:]...),
					"other ad":         nil,
				}
				flip := bytes.Clone(ct)
				flip[r.Intn(len(ct))] ^= 1 << r.Intn(8)
				bad["bit flipped"] = flip
				if len(ct) > header+first {
					bad["cut at segment 1"] = ct[:header+first]
					bad["cut at segment 2"] = ct[:min(len(ct), header+first+c.segmentSize)]
					// Segments 1 and 2 swapped (both full).
					s1, s2 := header+first, header+first+c.segmentSize
					sw := bytes.Clone(ct)
					copy(sw[s1:], ct[s2:s2+c.segmentSize])
					copy(sw[s2:], ct[s1:s2])
					bad["segments 1 and 2 swapped"] = sw
					bad["segment 1 dropped"] = append(bytes.Clone(ct[:s1]), ct[s2:]...)
				}
				for name, b := range bad {
					ad := []byte(nil)
					if b == nil {
						b, ad = ct, []byte("x")
					}
					if name == "cut at segment 2" && len(b) == len(ct) {
						continue
					}
					_, errOurs := oursDecrypt(ours, b, ad)
					_, errTink := tinkDecrypt(ref, b, ad)
					if !errors.Is(errOurs, aead.ErrOpen) || errTink == nil {
						t.Fatalf("%+v size %d writer %d %s: ours %v, Tink %v", c, size, w, name, errOurs, errTink)
					}
					cases++
				}
			}
		}
	}
	t.Logf("damaged Tink streams refused by both readers: %d", cases)
}
