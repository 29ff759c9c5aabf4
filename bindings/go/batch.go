package aead

/*
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

// Batch seals or opens many independent records on one AEAD of this package in one cgo call
// (aead_seal_open_many): each record is what one Seal or Open with its fields would be, with the
// same checks and the same panics for misuse (made for every record before any is sealed), but a
// record that the library refuses or that fails reports it in its Err instead: ErrOpen for a
// forged message, an *Error with the libaead code for a TLS seal out of order (AEAD_ERR_NONCE_ORDER
// and the other TLS refusals, which consume no sequence number) or any other failure. TLS sequence
// numbers are checked and committed record by record, in order. The output of one record must not
// overlap another record's buffers (each record's own rules are Seal's and Open's).
//
// A Batch keeps its scratch space (the C record array) between calls: reused, it allocates
// nothing per record. Go buffers are pinned (runtime.Pinner) for the one call; the Pinner's own
// list regrows each batch, a few allocations per batch (10 for 512 records). The zero value is
// ready to use; one Batch serves one goroutine at a time, while the AEAD may be shared as usual.
type Batch struct {
	c      []C.aead_record
	plan   []batchPlan
	nonces [][maxNonce]byte // nonces that lie in their own record's output, copied (as Seal does)
	pinner runtime.Pinner
}

type batchPlan struct {
	ret, out, written []byte // as in Seal/Open: dst extended, output region, where C writes
	in                []byte // what C reads (a random-nonce Seal in place: 12 bytes on)
	refused           bool   // an Open input that cannot be a sealed message: ErrOpen, not sent
}

// Seal seals every record and returns how many succeeded. It panics if a is not from this package.
func (b *Batch) Seal(a cipher.AEAD, records []Record) int { return b.run(a, C.AEAD_SEAL, records) }

// Open opens every record and returns how many succeeded. A failed record's output region is
// zeroed, as after a failed Open.
func (b *Batch) Open(a cipher.AEAD, records []Record) int { return b.run(a, C.AEAD_OPEN, records) }

func (b *Batch) run(a cipher.AEAD, op int, records []Record) int {
	impl := implOf(a)
	if impl == nil {
		panic("aead: Batch needs an AEAD made by this package")
	}
	random, _ := a.(*randomNonceGCM)
	n := len(records)
	if n == 0 {
		return 0
	}
	if cap(b.c) < n {
		b.c, b.plan, b.nonces = make([]C.aead_record, n), make([]batchPlan, n), make([][maxNonce]byte, n)
	}
	c, plan := b.c[:n], b.plan[:n]
	defer b.pinner.Unpin()
	for i := range records {
		r := &records[i]
		r.Out, r.Err = nil, nil
		p := &plan[i]
		nonce, in, ok := r.Nonce, r.Input, true
		switch {
		case random != nil && op == C.AEAD_SEAL:
			p.ret, p.out, in = random.checkSeal(r.Dst, nonce, in, r.AdditionalData)
			p.written = p.out
		case random != nil:
			p.ret, p.out, p.written, ok = random.checkOpen(r.Dst, nonce, in, r.AdditionalData)
		case op == C.AEAD_SEAL:
			p.ret, p.out = impl.checkSeal(r.Dst, nonce, in, r.AdditionalData)
			p.written = p.out
		default:
			p.ret, p.out, ok = impl.checkOpen(r.Dst, nonce, in, r.AdditionalData)
			p.written = p.out
		}
		if p.refused = !ok; p.refused {
			in = nil // sent as an empty input, which the library fails as AEAD_ERR_AUTH
		}
		if anyOverlap(p.written, nonce) {
			nonce = b.nonces[i][:copy(b.nonces[i][:], nonce)]
		}
		p.in = in
		c[i] = C.aead_record{
			nonce: b.pin(nonce), nonce_len: C.size_t(len(nonce)),
			aad: b.pin(r.AdditionalData), aad_len: C.size_t(len(r.AdditionalData)),
			in: b.pin(in), in_len: C.size_t(len(in)),
			out: b.pin(p.written), out_cap: C.size_t(len(p.written)),
		}
	}
	if random != nil && op == C.AEAD_SEAL {
		for i := range records { // in place: the 12-byte moves, once every record passed its checks
			moveForward(plan[i].in, records[i].Input)
		}
	}
	C.aead_seal_open_many(impl.ctx, C.int(op), &c[0], C.size_t(n))
	runtime.KeepAlive(impl)
	done := 0
	for i := range records {
		r, p, res := &records[i], &plan[i], int64(c[i].result)
		switch {
		case op == C.AEAD_SEAL && res == int64(len(p.out)):
			r.Out = p.ret
		case op == C.AEAD_SEAL:
			r.Err = sealError(res)
		case p.refused:
			r.Err = ErrOpen
		case random != nil:
			r.Out, r.Err = random.opened(p.ret, p.out, p.written, res)
		case res == int64(len(p.out)):
			r.Out = p.ret
		default:
			r.Err = openError(res)
		}
		if r.Err == nil {
			done++
		}
		*p, c[i] = batchPlan{}, C.aead_record{} // keep no reference to the caller's buffers
	}
	return done
}

// pin pins s's array for the call (the C record array holds its address) and returns it.
func (b *Batch) pin(s []byte) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	b.pinner.Pin(&s[0])
	return (*C.uint8_t)(unsafe.Pointer(&s[0]))
}
