// Package stream is streaming AEAD on libaead (libaead 1.7): files and HTTP bodies of any length
// encrypted in segments, each one sealed with AES-GCM or ChaCha20-Poly1305 under a nonce that holds
// the segment's number and whether it is the last. Three formats, each byte-compatible with its
// ecosystem:
//
//   - [NewTinkAESGCMHKDF]: Tink's AES-GCM-HKDF streaming AEAD (the raw primitive of Tink's
//     streamingaead/subtle.NewAESGCMHKDF in Go, and of Java, Python and C++ Tink).
//   - [NewAgePayload]: the payload of an age file (age-encryption.org/v1's STREAM), given the file key
//     that the file's recipient stanzas carry.
//   - [NewRFC8188]: the "aes128gcm" HTTP content coding of RFC 8188 (and of Web Push, RFC 8291).
//
// An [AEAD] makes writers ([AEAD.NewWriter]: an io.WriteCloser whose Close writes the last segment),
// readers ([AEAD.NewReader]: an io.Reader) and random-access readers ([AEAD.NewReaderAt]). The segment
// number and the last-segment flag are kept by libaead, so a reader refuses a stream whose segments were
// dropped, reordered or repeated, a stream cut short (even at a segment boundary) and data after the
// last segment: the Read (or ReadAt) that meets the damage returns an error matching aead.ErrOpen
// (errors.Is), never a plain io.EOF. A reader returns only authenticated plaintext, one segment at a
// time; the plaintext a reader returned before the error came from the intact segments before it.
//
// An AEAD is safe for concurrent use (each writer and reader has its own key and state); a writer or
// a reader is not (as an io.Writer or io.Reader usually is not), a ReaderAt is. A writer created before
// a fork() of the process refuses to write in the child (matching aead.ErrForked).
package stream

/*
#include <stdlib.h>
#include <aead.h>
*/
import "C"

import (
	"crypto"
	"errors"
	"io"
	"runtime"
	"strconv"
	"unsafe"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/minversion"
)

// MaxSegmentSize is the largest segment (Tink) or record size (RFC 8188) in ciphertext bytes, for
// writing and for reading: a stream whose header claims more is refused.
const MaxSegmentSize = C.AEAD_STREAM_MAX_SEGMENT

// abiErr is non-nil when the loaded libaead predates streams (an installed library, -tags
// libaead_system); every constructor then returns it.
var abiErr error

func init() {
	abiErr = minversion.Err("stream", uint32(C.aead_version_number()), 10700, "streaming AEAD")
}

// ErrClosed is returned by a Write after Close.
var ErrClosed = errors.New("stream: write after Close")

// errNoAD: the age and RFC 8188 formats have no associated data.
var errNoAD = errors.New("stream: this format takes no associated data")

// AEAD is a streaming AEAD: a format and its key. It is safe for concurrent use.
type AEAD struct {
	format      C.int
	key         []byte
	keySize     int
	hash        C.int
	segmentSize uint32
	offset      uint32
	keyID       []byte
}

// NewTinkAESGCMHKDF is Tink's AES-GCM-HKDF streaming AEAD with the parameters of Tink's raw primitive
// (Go: streamingaead/subtle.NewAESGCMHKDF): mainKey (at least 16 bytes and at least keySize), the HKDF
// hash (crypto.SHA1, crypto.SHA256 or crypto.SHA512: Tink's "SHA1", "SHA256", "SHA512"), the derived
// AES key size (16 or 32), the ciphertext segment size (Tink's ciphertextSegmentSize, e.g. 4096 or
// 1 MiB; at most MaxSegmentSize) and the first segment offset (usually 0: bytes the caller puts
// before the header, which make the first segment shorter). The associated data of a stream (at most
// 1024 bytes) goes into its key derivation, as in Tink.
func NewTinkAESGCMHKDF(mainKey []byte, hash crypto.Hash, keySize, segmentSize, firstSegmentOffset int) (*AEAD, error) {
	var h C.int
	switch hash {
	case crypto.SHA1:
		h = C.AEAD_STREAM_SHA1
	case crypto.SHA256:
		h = C.AEAD_STREAM_SHA256
	case crypto.SHA512:
		h = C.AEAD_STREAM_SHA512
	default:
		return nil, errors.New("stream: Tink's HKDF hash must be SHA1, SHA256 or SHA512")
	}
	if segmentSize <= 0 || segmentSize > MaxSegmentSize || firstSegmentOffset < 0 || firstSegmentOffset >= segmentSize {
		return nil, errors.New("stream: segment size or first segment offset out of range")
	}
	a := &AEAD{format: C.AEAD_STREAM_TINK_AES_GCM_HKDF, key: clone(mainKey), keySize: keySize, hash: h,
		segmentSize: uint32(segmentSize), offset: uint32(firstSegmentOffset)}
	return a.check()
}

// NewAgePayload is the payload of an age file (age-encryption.org/v1): 64 KiB chunks of
// ChaCha20-Poly1305 under a key HKDF-SHA256 derives from the 16-byte file key and the payload's
// 16-byte nonce (the stream's header, which the writer draws at random). The file's header (recipient
// stanzas and MAC) is the caller's: it precedes the stream, and the file key comes from it.
func NewAgePayload(fileKey []byte) (*AEAD, error) {
	a := &AEAD{format: C.AEAD_STREAM_AGE, key: clone(fileKey)}
	return a.check()
}

// NewRFC8188 is the "aes128gcm" content coding of RFC 8188: key is the input keying material (1 to
// 255 bytes; 16 for Web Push). Writers write records of rs bytes (18 to MaxSegmentSize; 0: 4096) and
// put keyID (at most 255 bytes) in the header. Readers take any record size up to MaxSegmentSize
// from the header and ignore its key id (pick the key before, e.g. from the header's bytes 21 on).
func NewRFC8188(key []byte, rs int, keyID []byte) (*AEAD, error) {
	if rs < 0 || rs > MaxSegmentSize {
		return nil, errors.New("stream: RFC 8188 record size out of range")
	}
	a := &AEAD{format: C.AEAD_STREAM_RFC8188, key: clone(key), segmentSize: uint32(rs), keyID: clone(keyID)}
	return a.check()
}

// check makes (and frees) a writer: the library's own checks of the parameters, once.
func (a *AEAD) check() (*AEAD, error) {
	if abiErr != nil {
		return nil, abiErr
	}
	s, _, err := a.newWriter(nil)
	if err != nil {
		return nil, err
	}
	s.free()
	return a, nil
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// params fills p for a writer or a reader. The Go memory its pointers name is pinned (cgo's rules
// for a struct that holds pointers); the caller unpins after the C call.
func (a *AEAD) params(p *C.aead_stream_params, pin *runtime.Pinner, writer bool, ad []byte) {
	for _, b := range [][]byte{a.key, ad, a.keyID} {
		if cap(b) != 0 {
			pin.Pin(unsafe.SliceData(b))
		}
	}
	*p = C.aead_stream_params{}
	p.size = C.size_t(unsafe.Sizeof(*p))
	p.format = a.format
	p.key, p.key_len = ptr(a.key), C.size_t(len(a.key))
	p.key_size = C.size_t(a.keySize)
	p.hkdf_hash = a.hash
	p.first_segment_offset = C.uint32_t(a.offset)
	p.associated_data, p.associated_data_len = ptr(ad), C.size_t(len(ad))
	if writer || a.format != C.AEAD_STREAM_RFC8188 {
		p.segment_size = C.uint32_t(a.segmentSize)
	}
	if writer {
		p.keyid, p.keyid_len = ptr(a.keyID), C.size_t(len(a.keyID))
	}
}

// cStream owns a C stream (freed by free, or by the garbage collector).
type cStream struct {
	s *C.aead_stream
}

func (c *cStream) free() {
	if c.s != nil {
		C.aead_stream_free(c.s)
		c.s = nil
		runtime.SetFinalizer(c, nil)
	}
}

func newCStream(s *C.aead_stream) *cStream {
	c := &cStream{s: s}
	runtime.SetFinalizer(c, (*cStream).free)
	return c
}

func (a *AEAD) newWriter(ad []byte) (*cStream, []byte, error) {
	if a.format != C.AEAD_STREAM_TINK_AES_GCM_HKDF && len(ad) != 0 {
		return nil, nil, errNoAD
	}
	var p C.aead_stream_params
	var pin runtime.Pinner
	defer pin.Unpin()
	a.params(&p, &pin, true, ad)
	header := make([]byte, C.AEAD_STREAM_MAX_HEADER)
	var s *C.aead_stream
	var hl C.size_t
	if rc := C.aead_stream_writer_new(&s, &p, ptr(header), C.size_t(len(header)), &hl); rc != 0 {
		return nil, nil, &libaead.Error{Op: "new", Code: int(rc)}
	}
	return newCStream(s), header[:hl], nil
}

// SegmentError is the error of a segment that does not open: it matches aead.ErrOpen (errors.Is),
// and names the segment (counted from 0) where the damage was found.
type SegmentError struct {
	Segment uint64
	Err     error // aead.ErrOpen, or an *aead.Error with Op "open"
}

func (e *SegmentError) Error() string {
	return "stream: segment " + strconv.FormatUint(e.Segment, 10) + ": " + e.Err.Error()
}

func (e *SegmentError) Unwrap() error { return e.Err }

func openError(n uint64, code int64) error {
	var err error = libaead.ErrOpen
	if code != C.AEAD_ERR_AUTH {
		err = &libaead.Error{Op: "open", Code: int(code)}
	}
	return &SegmentError{Segment: n, Err: err}
}

// errHeader: a stream that ends inside its header is not a stream (an error matching aead.ErrOpen).
func errHeader(err error) error {
	return &SegmentError{Segment: 0, Err: &headerError{err}}
}

type headerError struct{ err error }

func (e *headerError) Error() string { return "truncated header (" + e.err.Error() + ")" }
func (e *headerError) Is(target error) bool {
	return target == libaead.ErrOpen
}
func (e *headerError) Unwrap() error { return e.err }

// ---- Writer ----

type writer struct {
	c       *cStream
	w       io.Writer
	buf     []byte // plaintext held back: at most one segment's worth
	out     []byte // one segment's ciphertext
	room    int    // plaintext bytes of the next segment
	segment int    // ciphertext bytes of a full segment after the first
	overh   int
	n       uint64 // the next segment's number
	closed  bool
	err     error // the first error; every later call returns it
}

// NewWriter writes the stream's header to w and returns a writer that encrypts what is written to it
// and writes each segment to w once the data after it has begun (the last full segment is held back,
// so that the final segment carries data, as Tink's and age's writers do). Close writes the final segment; it does not close w. associatedData is Tink's (into
// the key derivation; at most 1024 bytes); the other formats take none.
func (a *AEAD) NewWriter(w io.Writer, associatedData []byte) (io.WriteCloser, error) {
	c, header, err := a.newWriter(associatedData)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(header); err != nil {
		c.free()
		return nil, err
	}
	wr := &writer{c: c, w: w}
	wr.overh = int(C.aead_stream_overhead(c.s))
	first := int(C.aead_stream_segment_size(c.s, 0))
	wr.segment = int(C.aead_stream_segment_size(c.s, 1))
	wr.room = first - wr.overh
	wr.buf = make([]byte, 0, max(first, wr.segment)-wr.overh)
	wr.out = make([]byte, max(first, wr.segment))
	return wr, nil
}

// seal seals buf as segment n and writes it.
func (wr *writer) seal(final bool) error {
	f := C.int(0)
	if final {
		f = 1
	}
	r := C.aead_stream_seal(wr.c.s, ptr(wr.buf), C.size_t(len(wr.buf)), 0, f, ptr(wr.out), C.size_t(len(wr.out)))
	runtime.KeepAlive(wr.c)
	if r < 0 {
		return &libaead.Error{Op: "seal", Code: int(r)}
	}
	if _, err := wr.w.Write(wr.out[:r]); err != nil {
		return err
	}
	wr.buf = wr.buf[:0]
	wr.n++
	wr.room = wr.segment - wr.overh
	return nil
}

func (wr *writer) Write(p []byte) (int, error) {
	if wr.err != nil {
		return 0, wr.err
	}
	if wr.closed {
		return 0, ErrClosed
	}
	done := 0
	for len(p) > 0 {
		if len(wr.buf) == wr.room { // a full segment and more data: it is not the last one
			if err := wr.seal(false); err != nil {
				wr.fail(err)
				return done, err
			}
		}
		k := copy(wr.buf[len(wr.buf):wr.room], p)
		wr.buf = wr.buf[:len(wr.buf)+k]
		p = p[k:]
		done += k
	}
	return done, nil
}

// Close seals what is held back as the final segment and writes it. It does not close the underlying writer. Close again returns nil.
func (wr *writer) Close() error {
	if wr.err != nil {
		return wr.err
	}
	if wr.closed {
		return nil
	}
	err := wr.seal(true)
	if err == nil {
		wr.closed = true
		wr.c.free()
		clear(wr.buf[:cap(wr.buf)])
		return nil
	}
	wr.fail(err)
	return err
}

func (wr *writer) fail(err error) {
	wr.err = err
	wr.c.free()
	clear(wr.buf[:cap(wr.buf)])
}

// ---- Reader ----

// openReader reads the stream's header from r (or from the start of ra) and makes the C reader.
func (a *AEAD) openReader(read func(p []byte, off int) error, ad []byte) (*cStream, int, error) {
	if abiErr != nil {
		return nil, 0, abiErr
	}
	if a.format != C.AEAD_STREAM_TINK_AES_GCM_HKDF && len(ad) != 0 {
		return nil, 0, errNoAD
	}
	var p C.aead_stream_params
	var pin runtime.Pinner
	defer pin.Unpin()
	a.params(&p, &pin, false, ad)
	h := make([]byte, 0, C.AEAD_STREAM_MAX_HEADER)
	for {
		var s *C.aead_stream
		var hl C.size_t
		rc := C.aead_stream_reader_new(&s, &p, ptr(h), C.size_t(len(h)), &hl)
		switch {
		case rc == 0:
			return newCStream(s), len(h), nil
		case rc == C.AEAD_ERR_BUFFER_TOO_SMALL && int(hl) > len(h) && int(hl) <= cap(h):
			more := h[len(h):hl]
			if err := read(more, len(h)); err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, 0, errHeader(err)
			} else if err != nil {
				return nil, 0, err
			}
			h = h[:hl]
		case rc == C.AEAD_ERR_AUTH || rc == C.AEAD_ERR_TOO_LONG:
			return nil, 0, openError(0, int64(rc))
		default:
			return nil, 0, &libaead.Error{Op: "new", Code: int(rc)}
		}
	}
}

type reader struct {
	c     *cStream
	r     io.Reader
	ahead []byte // ciphertext of the next segment, and one byte more when there is one
	pt    []byte // plaintext of the last segment opened, not yet returned
	ptBuf []byte
	n     uint64
	first int
	seg   int
	done  bool
	err   error
}

// NewReader reads the stream's header from r and returns a reader of its plaintext. Each Read returns
// plaintext of segments already authenticated; a segment is known to be the last when the input ends
// right after it (a reader reads one byte ahead). A damaged stream gives an error matching
// aead.ErrOpen at the Read that meets the damage; io.EOF only after the final segment has opened.
// associatedData must be the writer's.
func (a *AEAD) NewReader(r io.Reader, associatedData []byte) (io.Reader, error) {
	c, _, err := a.openReader(func(p []byte, _ int) error { _, err := io.ReadFull(r, p); return err }, associatedData)
	if err != nil {
		return nil, err
	}
	rd := &reader{c: c, r: r}
	rd.first = int(C.aead_stream_segment_size(c.s, 0))
	rd.seg = int(C.aead_stream_segment_size(c.s, 1))
	size := max(rd.first, rd.seg)
	rd.ahead = make([]byte, 0, size+1)
	rd.ptBuf = make([]byte, size)
	return rd, nil
}

func (rd *reader) Read(p []byte) (int, error) {
	for len(rd.pt) == 0 {
		if rd.err != nil {
			return 0, rd.err
		}
		if rd.done {
			return 0, io.EOF
		}
		rd.err = rd.next()
	}
	k := copy(p, rd.pt)
	rd.pt = rd.pt[k:]
	return k, nil
}

// next opens the next segment: it reads the segment's full size plus one byte; fewer means the input
// ends in this segment, which is then the last.
func (rd *reader) next() error {
	full := rd.seg
	if rd.n == 0 {
		full = rd.first
	}
	want := full + 1
	if len(rd.ahead) < want {
		k, err := io.ReadFull(rd.r, rd.ahead[len(rd.ahead):want])
		rd.ahead = rd.ahead[:len(rd.ahead)+k]
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return err
		}
	}
	final := len(rd.ahead) <= full
	segLen := min(len(rd.ahead), full)
	f := C.int(0)
	if final {
		f = 1
	}
	r := C.aead_stream_open(rd.c.s, ptr(rd.ahead), C.size_t(segLen), f, ptr(rd.ptBuf), C.size_t(len(rd.ptBuf)))
	runtime.KeepAlive(rd.c)
	if r < 0 {
		rd.c.free()
		return openError(rd.n, int64(r))
	}
	rd.pt = rd.ptBuf[:r]
	rd.n++
	if final {
		rd.done = true
		rd.c.free()
		rd.ahead = rd.ahead[:0]
		return nil
	}
	rd.ahead = rd.ahead[:copy(rd.ahead[:cap(rd.ahead)], rd.ahead[segLen:])]
	return nil
}

// ---- ReaderAt ----

// ErrPaddedRecord is returned by NewReaderAt for an RFC 8188 stream whose records before the last are
// not all full (the writer padded them): where a byte of plaintext lies then depends on the records
// before it, so random access cannot work (read such a stream with NewReader). The stream itself may
// be intact.
var ErrPaddedRecord = errors.New("stream: an RFC 8188 record before the last is padded; random access needs full records")

type readerAt struct {
	c      *cStream
	r      io.ReaderAt
	base   int64 // where segment 0's ciphertext starts in r
	first  int64 // ciphertext bytes of segment 0 when it is not the last
	seg    int64
	overh  int64
	last   uint64 // the number of the last segment
	lastCt int64  // ciphertext bytes of the last segment
	ptSize int64
}

// NewReaderAt reads the header of the stream of size bytes at the start of r and returns random
// access to its plaintext (as Tink's seekable decryption). It opens the last segment (where size
// says the stream ends) as the final one at once, so a stream cut short or extended is refused here
// with an error matching aead.ErrOpen. For RFC 8188 it also opens every record before the last once,
// to check that none is padded (else ErrPaddedRecord): only then do offsets map to records. ReadAt opens the segments that hold the bytes asked for
// (aead_stream_open_segment); a damaged one gives an error matching aead.ErrOpen. ReadAt at or past
// the plaintext's end returns io.EOF. Safe for concurrent use. The returned value also has a method
// Size() int64: the plaintext's length.
func (a *AEAD) NewReaderAt(r io.ReaderAt, size int64, associatedData []byte) (io.ReaderAt, error) {
	c, hl, err := a.openReader(func(p []byte, off int) error {
		if int64(off+len(p)) > size {
			return io.ErrUnexpectedEOF
		}
		k, err := r.ReadAt(p, int64(off))
		if k == len(p) {
			return nil
		}
		return err
	}, associatedData)
	if err != nil {
		return nil, err
	}
	ra := &readerAt{c: c, r: r, base: int64(hl)}
	ra.first = int64(C.aead_stream_segment_size(c.s, 0))
	ra.seg = int64(C.aead_stream_segment_size(c.s, 1))
	ra.overh = int64(C.aead_stream_overhead(c.s))
	body := size - int64(hl)
	if body <= ra.first {
		ra.last, ra.lastCt = 0, body
	} else {
		rest := body - ra.first
		ra.last = uint64((rest + ra.seg - 1) / ra.seg)
		ra.lastCt = rest - int64(ra.last-1)*ra.seg
	}
	ct, pt := ra.buffers()
	if a.format == C.AEAD_STREAM_RFC8188 {
		// Where a byte lies depends on the records before it, full unless padded: check them all once.
		for i := uint64(0); i < ra.last; i++ {
			if _, err := ra.open(i, ct, pt); err != nil {
				return nil, err
			}
		}
	}
	n, err := ra.open(ra.last, ct, pt)
	if err != nil {
		return nil, err
	}
	ra.ptSize = ra.plainStart(ra.last) + int64(n)
	return ra, nil
}

// Size is the plaintext's length.
func (ra *readerAt) Size() int64 { return ra.ptSize }

func (ra *readerAt) buffers() (ct, pt []byte) {
	n := max(ra.first, ra.seg)
	return make([]byte, n), make([]byte, n)
}

// plainStart is where segment n's plaintext starts (after full segments).
func (ra *readerAt) plainStart(n uint64) int64 {
	if n == 0 {
		return 0
	}
	return ra.first - ra.overh + int64(n-1)*(ra.seg-ra.overh)
}

// open reads and opens segment n into pt; its plaintext length.
func (ra *readerAt) open(n uint64, ct, pt []byte) (int, error) {
	ctOff, ctLen := ra.base, ra.first
	if n > 0 {
		ctOff += ra.first + int64(n-1)*ra.seg
		ctLen = ra.seg
	}
	final := n == ra.last
	if final {
		ctLen = ra.lastCt
	}
	if ctLen < 0 {
		ctLen = 0
	}
	if k, err := ra.r.ReadAt(ct[:ctLen], ctOff); k < int(ctLen) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	f := C.int(0)
	if final {
		f = 1
	}
	r := C.aead_stream_open_segment(ra.c.s, C.uint64_t(n), ptr(ct), C.size_t(ctLen), f, ptr(pt), C.size_t(len(pt)))
	runtime.KeepAlive(ra.c)
	if r < 0 {
		return 0, openError(n, int64(r))
	}
	if !final && int64(r) != ctLen-ra.overh {
		return 0, ErrPaddedRecord
	}
	return int(r), nil
}

func (ra *readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("stream: ReadAt at a negative offset")
	}
	done := 0
	var ct, pt []byte
	for done < len(p) && off+int64(done) < ra.ptSize {
		pos := off + int64(done)
		var n uint64
		if pos >= ra.first-ra.overh {
			n = 1 + uint64((pos-(ra.first-ra.overh))/(ra.seg-ra.overh))
		}
		if ct == nil {
			ct, pt = ra.buffers()
		}
		k, err := ra.open(n, ct, pt)
		if err != nil {
			return done, err
		}
		done += copy(p[done:], pt[pos-ra.plainStart(n):k])
	}
	if done < len(p) {
		return done, io.EOF
	}
	return done, nil
}

func ptr(b []byte) *C.uint8_t {
	if cap(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}
