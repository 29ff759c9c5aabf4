package stream

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	mrand "math/rand"
	"sync"
	"testing"
	"testing/iotest"
	"unsafe"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/forktest"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// RFC 8188 section 3's two examples (base64url): the ikm, the body, the record size and key id.
var rfc8188Examples = []struct {
	ikm, body string
	rs        int
	keyID     string
}{
	{"yqdlZ-tYemfogSmv7Ws5PQ", "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg", 4096, ""},
	{"BO3ZVPxUlnLORbVGMpbT1Q",
		"uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA", 25, "a1"},
}

func b64url(t testing.TB, s string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRFC8188Examples: both examples read to "I am the walrus" with NewReader and with NewReaderAt
// (the second has two records of rs 25 and the key id "a1" in its header), and a flipped bit in the
// salt or the records is refused.
func TestRFC8188Examples(t *testing.T) {
	for i, ex := range rfc8188Examples {
		body := b64url(t, ex.body)
		a, err := NewRFC8188(b64url(t, ex.ikm), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(body[21:21+len(ex.keyID)]) != ex.keyID || int(body[16])<<24|int(body[17])<<16|int(body[18])<<8|int(body[19]) != ex.rs {
			t.Fatalf("example %d: header", i)
		}
		r, err := a.NewReader(bytes.NewReader(body), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != "I am the walrus" {
			t.Fatalf("example %d: %q, %v", i, got, err)
		}
		buf, n := make([]byte, 64), 0
		ra, err := a.NewReaderAt(bytes.NewReader(body), int64(len(body)), nil)
		if ex.rs == 25 {
			// The first of its records of 25 bytes is padded: random access refuses the stream.
			if !errors.Is(err, ErrPaddedRecord) || errors.Is(err, libaead.ErrOpen) {
				t.Fatalf("example %d: NewReaderAt: %v", i, err)
			}
		} else {
			if err != nil {
				t.Fatal(err)
			}
			n, err = ra.ReadAt(buf, 0)
			if err != io.EOF || string(buf[:n]) != "I am the walrus" || ra.(interface{ Size() int64 }).Size() != 15 {
				t.Fatalf("example %d: ReadAt %q, %v", i, buf[:n], err)
			}
		}
		for bit := 0; bit < 8*len(body); bit++ {
			bad := bytes.Clone(body)
			bad[bit/8] ^= 1 << (bit % 8)
			_, err := readAll(a, bad, nil)
			if bit/8 >= 16 && bit/8 < 21+len(ex.keyID) {
				continue // rs, idlen and the key id: not authenticated (a larger rs, another key id read the same)
			}
			if bit/8 >= 21+len(ex.keyID) && !errors.Is(err, libaead.ErrOpen) || err == nil {
				t.Fatalf("example %d: bit %d flipped: %v, want ErrOpen", i, bit, err)
			}
		}
		t.Logf("RFC 8188 example %d: %q (random access: %q, %v)", i+1, got, buf[:n], err)
	}
}

// readAll reads a whole stream; a reader that cannot be made is the error.
func readAll(a *AEAD, ct, ad []byte) ([]byte, error) {
	r, err := a.NewReader(bytes.NewReader(ct), ad)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func writeAll(t testing.TB, a *AEAD, pt, ad []byte, chunk int) []byte {
	var out bytes.Buffer
	w, err := a.NewWriter(&out, ad)
	if err != nil {
		t.Fatal(err)
	}
	for p := pt; len(p) > 0; {
		k := min(len(p), chunk)
		if n, err := w.Write(p[:k]); n != k || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
		p = p[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, ErrClosed) {
		t.Fatal("Write after Close:", err)
	}
	return out.Bytes()
}

func key(n int) []byte {
	k := make([]byte, n)
	rand.Read(k)
	return k
}

type format struct {
	name     string
	a        *AEAD
	ad       []byte
	header   int
	first    int // ciphertext of segment 0
	seg      int
	overhead int
}

func formats(t testing.TB) []format {
	must := func(a *AEAD, err error) *AEAD {
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	return []format{
		{"tink-256", must(NewTinkAESGCMHKDF(key(32), crypto.SHA256, 32, 256, 0)), []byte("ad"), 40, 216, 256, 16},
		{"tink-128-offset", must(NewTinkAESGCMHKDF(key(16), crypto.SHA1, 16, 100, 7)), nil, 24, 69, 100, 16},
		{"age", must(NewAgePayload(key(16))), nil, 16, 65552, 65552, 16},
		{"rfc8188", must(NewRFC8188(key(16), 64, []byte("k1"))), nil, 23, 64, 64, 17},
	}
}

// sizes around the segment boundaries of f, 0 and a few MiB-ish values.
func sizes(f format) []int {
	room0, room := f.first-f.overhead, f.seg-f.overhead
	out := []int{0, 1, room0 - 1, room0, room0 + 1, room0 + room - 1, room0 + room, room0 + room + 1, room0 + 3*room}
	return append(out, 100_000, 1<<20+3)
}

// TestRoundTrip: every format, sizes around the segment boundaries, written in chunks of several
// sizes, reads back with NewReader and NewReaderAt (random windows); the ciphertext has the format's
// length: header + one segment per room of plaintext, the final one carrying data.
func TestRoundTrip(t *testing.T) {
	rng := mrand.New(mrand.NewSource(1))
	for _, f := range formats(t) {
		for _, size := range sizes(f) {
			pt := key(size)
			ct := writeAll(t, f.a, pt, f.ad, 1+rng.Intn(3000))
			room0, room := f.first-f.overhead, f.seg-f.overhead
			segs := 1
			if size > room0 {
				segs = 1 + (size-room0+room-1)/room
			}
			if want := f.header + size + segs*f.overhead; len(ct) != want {
				// RFC 8188 pads nothing here: records are full but the last.
				t.Fatalf("%s size %d: ciphertext %d bytes, want %d", f.name, size, len(ct), want)
			}
			got, err := readAll(f.a, ct, f.ad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s size %d: read back %d bytes, %v", f.name, len(got), size, err)
			}
			ra, err := f.a.NewReaderAt(bytes.NewReader(ct), int64(len(ct)), f.ad)
			if err != nil {
				t.Fatalf("%s size %d: NewReaderAt: %v", f.name, size, err)
			}
			if s := ra.(interface{ Size() int64 }).Size(); s != int64(size) {
				t.Fatalf("%s: Size %d, want %d", f.name, s, size)
			}
			for i := 0; i < 20; i++ {
				off, n := rng.Intn(size+2), rng.Intn(3*f.seg)
				buf := make([]byte, n)
				k, err := ra.ReadAt(buf, int64(off))
				want := pt[min(off, size):min(off+n, size)]
				if !bytes.Equal(buf[:k], want) || (k < n) != (err == io.EOF) || (err != nil && err != io.EOF) {
					t.Fatalf("%s size %d: ReadAt(%d, %d) = %d, %v", f.name, size, off, n, k, err)
				}
			}
		}
	}
}

// damaged copies of a stream: each must fail with an error matching aead.ErrOpen.
func damaged(f format, ct []byte, rng *mrand.Rand) map[string][]byte {
	body := len(ct) - f.header
	out := map[string][]byte{
		"empty":             {},
		"header only":       ct[:f.header],
		"half header":       ct[:f.header/2],
		"cut one byte":      ct[:len(ct)-1],
		"extended one byte": append(bytes.Clone(ct), 0),
		"extended 100":      append(bytes.Clone(ct), make([]byte, 100)...),
		"extended by self":  append(bytes.Clone(ct), ct[f.header:]...),
	}
	if body > f.first { // more than one segment
		out["cut at segment 1"] = ct[:f.header+f.first]
		out["segment 1 dropped"] = append(bytes.Clone(ct[:f.header+f.first]), ct[min(len(ct), f.header+f.first+f.seg):]...)
		swapped := bytes.Clone(ct)
		if body >= f.first+f.seg && f.first == f.seg {
			copy(swapped[f.header:], ct[f.header+f.first:f.header+f.first+f.seg])
			copy(swapped[f.header+f.first:], ct[f.header:f.header+f.first])
			out["segments 0 and 1 swapped"] = swapped
		}
	}
	if body > f.first+f.seg {
		out["cut at segment 2"] = ct[:f.header+f.first+f.seg]
	}
	flip := bytes.Clone(ct)
	flip[f.header+rng.Intn(body)] ^= 1 << rng.Intn(8)
	out["bit flipped"] = flip
	return out
}

// TestDamagedStreams: truncated (inside the header, at a segment boundary, by one byte), reordered,
// extended after the final segment and bit-flipped streams fail to read with an error matching
// aead.ErrOpen, before io.EOF; the plaintext returned before the error is a prefix of the original.
// NewReaderAt refuses each too (the cut and extended ones at once).
func TestDamagedStreams(t *testing.T) {
	rng := mrand.New(mrand.NewSource(2))
	for _, f := range formats(t) {
		for _, size := range []int{0, 5, f.first - f.overhead, 3*f.seg + 7} {
			pt := key(size)
			ct := writeAll(t, f.a, pt, f.ad, 1000)
			for name, bad := range damaged(f, ct, rng) {
				got, err := readAll(f.a, bad, f.ad)
				if !errors.Is(err, libaead.ErrOpen) {
					t.Fatalf("%s size %d, %s: read %d bytes, err %v; want ErrOpen", f.name, size, name, len(got), err)
				}
				if !bytes.HasPrefix(pt, got) {
					t.Fatalf("%s size %d, %s: returned plaintext that is not the original's", f.name, size, name)
				}
				if ra, err := f.a.NewReaderAt(bytes.NewReader(bad), int64(len(bad)), f.ad); err == nil {
					buf := make([]byte, size+10)
					if _, err := ra.ReadAt(buf, 0); !errors.Is(err, libaead.ErrOpen) {
						t.Fatalf("%s size %d, %s: ReadAt: %v, want ErrOpen", f.name, size, name, err)
					}
				} else if !errors.Is(err, libaead.ErrOpen) {
					t.Fatalf("%s size %d, %s: NewReaderAt: %v, want ErrOpen", f.name, size, name, err)
				}
			}
			if f.a.format == 1 { // Tink: the associated data is bound
				if _, err := readAll(f.a, ct, append(bytes.Clone(f.ad), 'x')); !errors.Is(err, libaead.ErrOpen) {
					t.Fatalf("%s: other associated data: %v", f.name, err)
				}
			}
		}
	}
}

// TestErrorsAtDetection: a stream whose segment 2 is flipped returns segments 0 and 1, then the
// error (with the segment's number), and keeps returning it.
func TestErrorsAtDetection(t *testing.T) {
	f := formats(t)[0]
	pt := key(10 * f.seg)
	ct := writeAll(t, f.a, pt, f.ad, 4096)
	ct[f.header+f.first+f.seg+3] ^= 0x80
	r, err := f.a.NewReader(bytes.NewReader(ct), f.ad)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	var se *SegmentError
	if !errors.As(err, &se) || se.Segment != 2 || !errors.Is(err, libaead.ErrOpen) {
		t.Fatalf("err %v", err)
	}
	if want := f.first + f.seg - 2*f.overhead; !bytes.Equal(got, pt[:want]) {
		t.Fatalf("%d bytes before the error, want %d", len(got), want)
	}
	if _, err2 := r.Read(make([]byte, 10)); err2 != err {
		t.Fatalf("second Read: %v", err2)
	}
}

// TestParameters: the constructors refuse what the formats do not take.
func TestParameters(t *testing.T) {
	bad := []struct {
		name string
		err  func() error
	}{
		{"tink short key", func() error { _, e := NewTinkAESGCMHKDF(key(15), crypto.SHA256, 16, 4096, 0); return e }},
		{"tink key size 24", func() error { _, e := NewTinkAESGCMHKDF(key(32), crypto.SHA256, 24, 4096, 0); return e }},
		{"tink key below key size", func() error { _, e := NewTinkAESGCMHKDF(key(16), crypto.SHA256, 32, 4096, 0); return e }},
		{"tink hash", func() error { _, e := NewTinkAESGCMHKDF(key(32), crypto.SHA384, 32, 4096, 0); return e }},
		{"tink segment too small", func() error { _, e := NewTinkAESGCMHKDF(key(16), crypto.SHA256, 16, 40, 0); return e }},
		{"tink segment too big", func() error { _, e := NewTinkAESGCMHKDF(key(16), crypto.SHA256, 16, MaxSegmentSize+1, 0); return e }},
		{"age key", func() error { _, e := NewAgePayload(key(32)); return e }},
		{"rfc8188 rs", func() error { _, e := NewRFC8188(key(16), 17, nil); return e }},
		{"rfc8188 no key", func() error { _, e := NewRFC8188(nil, 4096, nil); return e }},
		{"rfc8188 keyid", func() error { _, e := NewRFC8188(key(16), 4096, make([]byte, 256)); return e }},
		{"age ad", func() error {
			a, _ := NewAgePayload(key(16))
			_, e := a.NewWriter(io.Discard, []byte("x"))
			return e
		}},
	}
	for _, b := range bad {
		if err := b.err(); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
}

// TestConcurrentWriters: goroutines share one AEAD, each with its own writer and reader; every
// stream reads back, and no two headers (salt and nonce prefix) are the same.
func TestConcurrentWriters(t *testing.T) {
	for _, f := range formats(t) {
		const n = 16
		cts := make([][]byte, n)
		pts := make([][]byte, n)
		var wg sync.WaitGroup
		for g := 0; g < n; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				pts[g] = key(g*f.seg/2 + g)
				cts[g] = writeAll(t, f.a, pts[g], f.ad, 100+g)
			}(g)
		}
		wg.Wait()
		seen := map[string]bool{}
		for g := 0; g < n; g++ {
			got, err := readAll(f.a, cts[g], f.ad)
			if err != nil || !bytes.Equal(got, pts[g]) {
				t.Fatalf("%s goroutine %d: %v", f.name, g, err)
			}
			h := string(cts[g][:f.header])
			if seen[h] {
				t.Fatalf("%s: two writers drew one header", f.name)
			}
			seen[h] = true
		}
	}
}

// TestForkedWriter: a writer created before a fork() refuses to seal in the child (AEAD_ERR_FORKED,
// matching aead.ErrForked) and takes no segment number there; the parent's writer goes on and its
// stream reads back.
func TestForkedWriter(t *testing.T) {
	for _, f := range formats(t) {
		var out bytes.Buffer
		w, err := f.a.NewWriter(&out, f.ad)
		if err != nil {
			t.Fatal(err)
		}
		pt := key(f.first + 5)
		w.Write(pt[:f.first])
		wr := w.(*writer)
		seal, pos, _, err := forktest.StreamSealInChild(unsafe.Pointer(wr.c.s), []byte("child"), 64)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(&libaead.Error{Op: "seal", Code: int(seal)}, libaead.ErrForked) || pos != int64(wr.n) || wr.n != 1 {
			t.Fatalf("%s: child's seal returned %d (want AEAD_ERR_FORKED), position %d", f.name, seal, pos)
		}
		w.Write(pt[f.first:])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got, err := readAll(f.a, out.Bytes(), f.ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("%s: the parent's stream: %v", f.name, err)
		}
	}
}

// failingWriter fails after limit bytes.
type failingWriter struct{ limit int }

var errSink = errors.New("sink full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		return 0, errSink
	}
	w.limit -= len(p)
	return len(p), nil
}

// TestWriterErrors: an error of the underlying writer is returned, and again by every later call.
func TestWriterErrors(t *testing.T) {
	f := formats(t)[0]
	w, _ := f.a.NewWriter(&failingWriter{limit: 100}, f.ad)
	_, err := w.Write(make([]byte, 3*f.seg))
	if !errors.Is(err, errSink) {
		t.Fatalf("Write: %v", err)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, errSink) {
		t.Fatalf("second Write: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errSink) {
		t.Fatalf("Close: %v", err)
	}
}

// TestReaderShapes: a reader over an input that comes a byte at a time, or with its last data and
// io.EOF together, reads the same plaintext; testing/iotest.TestReader's checks of an io.Reader pass.
func TestReaderShapes(t *testing.T) {
	for _, f := range formats(t) {
		for _, size := range []int{0, 7, f.first - f.overhead, 2*f.seg + 3} {
			pt := key(size)
			ct := writeAll(t, f.a, pt, f.ad, 777)
			for name, in := range map[string]io.Reader{
				"one byte": iotest.OneByteReader(bytes.NewReader(ct)),
				"data EOF": iotest.DataErrReader(bytes.NewReader(ct)),
				"half":     iotest.HalfReader(bytes.NewReader(ct)),
			} {
				r, err := f.a.NewReader(in, f.ad)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%s size %d, %s: %v", f.name, size, name, err)
				}
			}
			r, _ := f.a.NewReader(bytes.NewReader(ct), f.ad)
			if err := iotest.TestReader(r, pt); err != nil {
				t.Fatalf("%s size %d: %v", f.name, size, err)
			}
		}
	}
}

// TestReaderAtConcurrent: goroutines read random windows of one ReaderAt at once.
func TestReaderAtConcurrent(t *testing.T) {
	for _, f := range formats(t) {
		pt := key(20*f.seg + 11)
		ct := writeAll(t, f.a, pt, f.ad, 4096)
		ra, err := f.a.NewReaderAt(bytes.NewReader(ct), int64(len(ct)), f.ad)
		if err != nil {
			t.Fatal(err)
		}
		testkit.InGoroutines(t, 8, func(g int) error {
			rng := mrand.New(mrand.NewSource(int64(g)))
			for i := 0; i < 50; i++ {
				off, n := rng.Intn(len(pt)), 1+rng.Intn(2*f.seg)
				buf := make([]byte, n)
				k, err := ra.ReadAt(buf, int64(off))
				if !bytes.Equal(buf[:k], pt[off:min(off+n, len(pt))]) || (err != nil && err != io.EOF) {
					return fmt.Errorf("%s: ReadAt(%d, %d): %d, %v", f.name, off, n, k, err)
				}
			}
			return nil
		})
	}
}
