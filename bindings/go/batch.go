package aead

/*
#include <stdlib.h>
#include <aead.h>
*/
import "C"

import (
	"crypto/cipher"
	"runtime"
	"unsafe"
)

// Record is one message of a Batch: the arguments of one Seal or Open and, after the call, its
// result.
type Record struct {
	Dst            []byte // the output is appended to Dst, as Seal and Open append to dst
	Nonce          []byte // as Seal's and Open's nonce (empty for NewGCMWithRandomNonce)
	Input          []byte // the plaintext (Seal) or the sealed message (Open)
	AdditionalData []byte

	Out []byte // set by the call: Dst with this record's output appended; nil when Err is set
	Err error  // set by the call: nil, or why this record failed (see Batch)
}

// Batch seals or opens many independent records on one AEAD of this package: each record is what
// one Seal or Open with its fields would be, with the same checks and the same panics for misuse
// (made for every record before any is sealed), but a record that the library refuses or that
// fails reports it in its Err instead: ErrOpen for a forged message, an *Error with the libaead
// code for a TLS seal out of order (AEAD_ERR_NONCE_ORDER and the other TLS refusals, which consume
// no sequence number; AEAD_ERR_FORKED, matching ErrForked) or any other failure. TLS sequence
// numbers are checked and committed record by record, in order. The output of one record must not
// overlap another record's buffers (each record's own rules are Seal's and Open's).
//
// How: a record whose input and additional data are at most 512 bytes each is copied into C
// memory that the Batch owns (about 82 KiB, allocated on first use and freed when the Batch is
// collected), sealed or opened there together with its neighbours in one cgo call
// (aead_seal_open_many, up to 256 records or 64 KiB a call), and its output is copied back; a
// larger record gets a cgo call of its own (aead_seal_open, as Seal makes), whose crossing costs
// less than copying it would. No Go pointer is stored in C memory, so nothing is pinned, and a
// reused Batch allocates nothing. Each field of a Record is read once, and what was checked is
// what the library gets.
//
// The zero value is ready to use; one Batch serves one goroutine at a time, while the AEAD may be
// shared as usual.
type Batch struct {
	s    *batchScratch
	plan []batchPlan
}

const (
	batchCopyMax    = 512      // a record whose input and AAD are each at most this long is copied
	batchArenaSize  = 64 << 10 // bytes of C scratch for copied records
	batchRecordsMax = 256      // records per aead_seal_open_many call, at most
	batchAlign      = 16
)

// Record kinds in a plan.
const (
	kindCopy    = iota // through the C scratch, in a shared aead_seal_open_many call
	kindDirect         // its own aead_seal_open call on the Go buffers
	kindRefused        // an Open input that cannot be a sealed message: ErrOpen, not sent
)

// batchPlan is one record as checked: every length and pointer the call uses, taken from the
// caller's Record once. nonce, aad, in and alt are kept only for records not yet in the scratch.
type batchPlan struct {
	ret, out   []byte // as in Seal/Open: dst extended, and the output region
	nonce, aad []byte
	in         []byte // the caller's Input
	alt        []byte // random nonce, direct, in place: where C reads (Seal) or writes (Open)
	off        int    // kindCopy, staged: the output's place in the scratch arena
	need       int    // kindCopy: bytes of arena it takes (output, then input, AAD, nonce)
	kind       uint8
}

// cRecord is aead_record with integer fields: the scratch holds only addresses of C memory, and
// storing them as integers keeps write barriers out of the loop.
type cRecord struct {
	nonce, nonceLen, aad, aadLen, in, inLen, out, outCap uintptr
	result                                               int64
}

// Compile-time checks that cRecord is aead_record's layout.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(cRecord{})-C.sizeof_aead_record]
	_ = [1]struct{}{}[C.sizeof_aead_record-unsafe.Sizeof(cRecord{})]
	_ = [1]struct{}{}[unsafe.Offsetof(cRecord{}.result)-unsafe.Offsetof(C.aead_record{}.result)]
	_ = [1]struct{}{}[unsafe.Offsetof(cRecord{}.outCap)-unsafe.Offsetof(C.aead_record{}.out_cap)]
)

// batchScratch is one C allocation: the record array, then the arena. A cleanup frees it once the
// batchScratch (that is, its Batch) is unreachable.
type batchScratch struct {
	mem   unsafe.Pointer
	recs  []cRecord // over C memory
	arena []byte    // over C memory
	base  uintptr   // address of arena[0]
}

func newBatchScratch() *batchScratch {
	recBytes := batchRecordsMax * int(unsafe.Sizeof(cRecord{}))
	mem := C.malloc(C.size_t(recBytes + batchArenaSize))
	if mem == nil {
		panic("aead: Batch: out of C memory")
	}
	s := &batchScratch{mem: mem, base: uintptr(mem) + uintptr(recBytes)}
	s.recs = unsafe.Slice((*cRecord)(mem), batchRecordsMax)
	s.arena = unsafe.Slice((*byte)(unsafe.Add(mem, recBytes)), batchArenaSize)
	setScratchCleanup(s)
	return s
}

func freeScratch(mem unsafe.Pointer) { C.free(mem) }

// Seal seals every record and returns how many succeeded. It panics if a is not from this package.
func (b *Batch) Seal(a cipher.AEAD, records []Record) int { return b.run(a, C.AEAD_SEAL, records) }

// Open opens every record and returns how many succeeded. A failed record's output region is
// zeroed, as after a failed Open.
func (b *Batch) Open(a cipher.AEAD, records []Record) int { return b.run(a, C.AEAD_OPEN, records) }

func alignUp(n int) int { return (n + batchAlign - 1) &^ (batchAlign - 1) }

// stage copies a record's input, AAD and nonce into the arena at off (after room for its output)
// and describes it in s.recs[k]. Lengths are the checked ones; need (<= 1.2 KiB) fits at off.
func (s *batchScratch) stage(k, off int, p *batchPlan, nonce, aad, in []byte) {
	p.off = off
	o := off + alignUp(len(p.out))
	copy(s.arena[o:], in)
	a := s.arena[o+len(in):]
	switch len(aad) { // the TLS sizes inline: a call of memmove costs more than these moves
	case 13:
		*(*[13]byte)(a) = [13]byte(aad)
	case 5:
		*(*[5]byte)(a) = [5]byte(aad)
	default:
		copy(a, aad)
	}
	if a = a[len(aad):]; len(nonce) == 12 {
		*(*[12]byte)(a) = [12]byte(nonce)
	} else {
		copy(a, nonce)
	}
	c := &s.recs[k]
	at := s.base + uintptr(o)
	c.in, c.inLen = at, uintptr(len(in))
	c.aad, c.aadLen = at+uintptr(len(in)), uintptr(len(aad))
	c.nonce, c.nonceLen = at+uintptr(len(in)+len(aad)), uintptr(len(nonce))
	c.out, c.outCap = s.base+uintptr(off), uintptr(len(p.out))
}

func (b *Batch) run(a cipher.AEAD, op int, records []Record) int {
	if _, siv := a.(*AESSIV); siv {
		panic("aead: Batch does not take AES-SIV (its in-place layout differs; aead_seal_open_many_v is not bound yet)")
	}
	impl := implOf(a)
	if impl == nil {
		panic("aead: Batch needs an AEAD made by this package")
	}
	random, _ := a.(*randomNonceAEAD)
	n := len(records)
	if n == 0 {
		return 0
	}
	if cap(b.plan) < n {
		b.plan = make([]batchPlan, n)
	}
	if b.s == nil {
		b.s = newBatchScratch()
	}
	s, plan := b.s, b.plan[:n]
	defer clear(plan) // keep no reference to the caller's buffers, also after a panic

	// 1. Every check, before anything is sealed; each Record field is read once, here. The
	// leading run of small records is staged in the scratch on the way (reading is not sealing).
	staged, off, first := 0, 0, 0 // records staged, arena bytes used, records[:first] in the first call
	staging := true
	for i := range records {
		r := &records[i]
		dst, nonce, in, aad := r.Dst, r.Nonce, r.Input, r.AdditionalData
		r.Out, r.Err = nil, nil
		p := &plan[i]
		ok := true
		switch {
		case random != nil && op == C.AEAD_SEAL:
			p.ret, p.out, p.alt = random.checkSeal(dst, nonce, in, aad)
		case random != nil:
			p.ret, p.out, p.alt, ok = random.checkOpen(dst, nonce, in, aad)
		case op == C.AEAD_SEAL:
			p.ret, p.out = impl.checkSeal(dst, nonce, in, aad)
		default:
			p.ret, p.out, ok = impl.checkOpen(dst, nonce, in, aad)
		}
		switch {
		case !ok:
			p.kind = kindRefused
		case len(in) <= batchCopyMax && len(aad) <= batchCopyMax:
			// len(nonce) <= maxNonce (checked) and len(out) <= len(in)+28: need <= 1.2 KiB, and
			// no sum of caller lengths is ever formed beyond one arena's worth.
			p.kind = kindCopy
			p.need = alignUp(len(p.out)) + alignUp(len(in)+len(aad)+len(nonce))
			if staging && staged < len(s.recs) && off+p.need <= len(s.arena) {
				s.stage(staged, off, p, nonce, aad, in)
				staged, off = staged+1, off+p.need
				break
			}
			staging = false
			p.nonce, p.aad, p.in = nonce, aad, in
		default:
			staging = false
			p.kind = kindDirect
			p.nonce, p.aad, p.in = nonce, aad, in
		}
		if staging {
			first = i + 1
		}
	}

	// 2. In record order: runs of copied records in shared calls, the others one call each.
	done := b.finish(impl, op, records, 0, first, staged)
	for i := first; i < n; {
		if plan[i].kind == kindDirect {
			if b.direct(impl, random, op, &records[i], &plan[i]) {
				done++
			}
			i++
			continue
		}
		end, k, off := i, 0, 0
		for ; end < n; end++ {
			p := &plan[end]
			if p.kind == kindRefused {
				continue
			}
			if p.kind != kindCopy || k == len(s.recs) || off+p.need > len(s.arena) {
				break
			}
			s.stage(k, off, p, p.nonce, p.aad, p.in)
			k, off = k+1, off+p.need
		}
		done += b.finish(impl, op, records, i, end, k)
		i = end
	}
	return done
}

// finish seals or opens the k records staged from records[start:end] (the others there are
// refused) in one cgo call, and sets their results; it returns how many succeeded.
func (b *Batch) finish(impl *aeadImpl, op int, records []Record, start, end, k int) int {
	s := b.s
	if k > 0 {
		C.aead_seal_open_many(impl.ctx, C.int(op), (*C.aead_record)(s.mem), C.size_t(k))
		runtime.KeepAlive(impl)
	}
	done := 0
	k = 0
	for j := start; j < end; j++ {
		r, p := &records[j], &b.plan[j]
		if p.kind == kindRefused {
			r.Err = ErrOpen
			continue
		}
		res := s.recs[k].result
		k++
		if res == int64(len(p.out)) {
			copy(p.out, s.arena[p.off:p.off+len(p.out)])
			r.Out = p.ret
			done++
			continue
		}
		// Failures zero the output (libaead zeroed the scratch); refusals write nothing.
		if op == C.AEAD_OPEN {
			clear(p.out)
			r.Err = openError(res)
		} else {
			if !refusal(res) {
				clear(p.out)
			}
			r.Err = sealError(res)
		}
	}
	return done
}

// direct seals or opens one record with its own cgo call, exactly as Seal or Open would, and
// reports whether it succeeded.
func (b *Batch) direct(impl *aeadImpl, random *randomNonceAEAD, op int, r *Record, p *batchPlan) bool {
	in, out, nonce := p.in, p.out, p.nonce
	switch {
	case random != nil && op == C.AEAD_SEAL:
		moveForward(p.alt, in) // in place: the plaintext moves 12 (XChaCha: 24) bytes on, now that all passed
		in = p.alt
	case random != nil:
		out = p.alt // where C writes; opened moves it to p.out
	}
	if anyOverlap(out, nonce) {
		var nonceCopy [maxNonce]byte
		nonce = nonceCopy[:copy(nonceCopy[:], nonce)]
	}
	res := sealOpen(impl.ctx, C.int(op), nonce, p.aad, in, out)
	runtime.KeepAlive(impl)
	switch {
	case random != nil && op == C.AEAD_OPEN:
		r.Out, r.Err = random.opened(p.ret, p.out, out, res)
	case res == int64(len(out)):
		r.Out = p.ret
	case op == C.AEAD_SEAL:
		r.Err = sealError(res)
	default:
		r.Err = openError(res)
	}
	return r.Err == nil
}

// refusal reports whether a seal's code is a refusal (libaead wrote nothing) rather than a failure
// past the checks (libaead zeroed the output).
func refusal(code int64) bool {
	switch code {
	case C.AEAD_ERR_NOMEM, C.AEAD_ERR_CRYPTO, C.AEAD_ERR_AUTH:
		return false
	}
	return true
}
