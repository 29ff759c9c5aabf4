// Package bench holds the benchmarks of the Go binding against crypto/cipher and
// golang-fips/openssl, and the C-side reference points the performance targets are stated in:
// libaead's own seal measured in a C loop (no cgo per operation) and one empty cgo call.
package bench

/*
#cgo pkg-config: aead
#cgo noescape floor_args10
#cgo nocallback floor_args10
#cgo noescape aead_seal_open
#cgo nocallback aead_seal_open
#include <stdlib.h>
#include <string.h>
#include <aead.h>

// Seals (or opens) the same message n times from C: libaead's per-operation cost without cgo.
static int64_t floor_loop(aead_ctx *ctx, int op, int64_t n, const uint8_t *nonce,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len,
                          uint8_t *out, size_t out_cap) {
    int64_t r = 0;
    for (int64_t i = 0; i < n; i++) {
        r = aead_seal_open(ctx, op, nonce, 12, aad, aad_len, in, in_len, out, out_cap);
        if (r < 0) return r;
    }
    return r;
}

// count records laid out as a Go Batch lays them out in its scratch (each record's output, then
// its input, AAD and nonce, 16-byte aligned), in one allocation: the records, then the arena.
static aead_record *floor_many_new(size_t count, const uint8_t *in, size_t in_len, size_t out_len) {
    size_t out_room = (out_len + 15) & ~(size_t)15, stride = out_room + ((in_len + 25 + 15) & ~(size_t)15);
    aead_record *r = calloc(1, count * (sizeof *r + stride));
    if (r == NULL) return NULL;
    uint8_t *arena = (uint8_t *)(r + count);
    for (size_t i = 0; i < count; i++) {
        uint8_t *o = arena + i * stride, *p = o + out_room;
        if (in_len != 0) memcpy(p, in, in_len);
        r[i] = (aead_record){p + in_len + 13, 12, p + in_len, 13, p, in_len, o, out_len, 0};
    }
    return r;
}

// aead_seal_open_many from C on those records, count per call, until n are done: the C batch's own
// cost per record, no cgo crossing per record. Returns the last call's count of successes.
static int64_t floor_many(aead_ctx *ctx, int op, int64_t n, aead_record *r, size_t count) {
    int64_t ok = 0;
    for (int64_t done = 0; done < n; done += (int64_t)count) {
        size_t k = (size_t)(n - done) < count ? (size_t)(n - done) : count;
        ok = aead_seal_open_many(ctx, op, r, k);
        if (ok != (int64_t)k) return -1;
    }
    return ok;
}

// One empty cgo call: the crossing cost the 1.15x target adds to the C seal.
static void floor_empty(void) {}

// An empty function with aead_seal_open's ten arguments, declared noescape/nocallback like it:
// the crossing plus argument passing, for decomposing the binding's overhead.
static int64_t floor_args10(aead_ctx *ctx, int op, const uint8_t *a, size_t al, const uint8_t *b,
                            size_t bl, const uint8_t *c, size_t cl, uint8_t *d, size_t dl) {
    (void)ctx; (void)op; (void)a; (void)b; (void)c; (void)d;
    return (int64_t)(al + bl + cl + dl);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Floor is a keyed AES-GCM (or ChaCha20-Poly1305) context plus C-allocated buffers for sealing
// or opening one message of a given size with a 13-byte AAD and an all-zero 12-byte nonce.
type Floor struct {
	ctx                 *C.aead_ctx
	nonce, aad, in, out *C.uint8_t
	size, inLen, outCap int
	op                  C.int
	many                *C.aead_record // Many's records and arena (C memory), made on first use
	manyCount           int
}

// NewFloor keys a context (alg 1 = AES-128-GCM, 4 = ChaCha20-Poly1305) with an all-zero key and
// prepares a seal (or, if open, a valid sealed message to open) of size bytes.
func NewFloor(alg int, size int, open bool) (*Floor, error) {
	keyLen := 16
	if alg == C.AEAD_CHACHA20_POLY1305 {
		keyLen = 32
	}
	f := &Floor{size: size, op: C.AEAD_SEAL}
	key := make([]byte, keyLen)
	if rc := C.aead_ctx_new(&f.ctx, C.int(alg), C.AEAD_POLICY_NONE, (*C.uint8_t)(unsafe.Pointer(&key[0])), C.size_t(keyLen), 0); rc != 0 {
		return nil, errors.New("aead_ctx_new failed")
	}
	f.nonce = (*C.uint8_t)(C.calloc(12, 1))
	f.aad = (*C.uint8_t)(C.calloc(13, 1))
	f.in = (*C.uint8_t)(C.calloc(C.size_t(size+16), 1))
	f.out = (*C.uint8_t)(C.calloc(C.size_t(size+16), 1))
	f.inLen, f.outCap = size, size+16
	if open {
		if r := C.floor_loop(f.ctx, C.AEAD_SEAL, 1, f.nonce, f.aad, 13, f.in, C.size_t(size), f.in, C.size_t(size+16)); r != C.int64_t(size+16) {
			return nil, errors.New("floor seal failed")
		}
		f.op, f.inLen, f.outCap = C.AEAD_OPEN, size+16, size
	}
	return f, nil
}

// Loop performs n operations in one C loop and returns the last result (the output length).
func (f *Floor) Loop(n int) int64 {
	return int64(C.floor_loop(f.ctx, f.op, C.int64_t(n), f.nonce, f.aad, 13, f.in, C.size_t(f.inLen), f.out, C.size_t(f.outCap)))
}

// Free releases the context and buffers.
func (f *Floor) Free() {
	C.aead_ctx_free(f.ctx)
	C.free(unsafe.Pointer(f.nonce))
	C.free(unsafe.Pointer(f.aad))
	C.free(unsafe.Pointer(f.in))
	C.free(unsafe.Pointer(f.out))
	C.free(unsafe.Pointer(f.many))
}

// Many performs n operations with aead_seal_open_many from C, count records per call (the same
// count every time), on records laid out as a Go Batch lays out its scratch (made on the first
// call); it returns the last call's count of successes, or -1.
func (f *Floor) Many(n, count int) int64 {
	if f.many == nil {
		f.many, f.manyCount = C.floor_many_new(C.size_t(count), f.in, C.size_t(f.inLen), C.size_t(f.outCap)), count
		if f.many == nil {
			return -1
		}
	}
	return int64(C.floor_many(f.ctx, f.op, C.int64_t(n), f.many, C.size_t(min(count, f.manyCount))))
}

// OneCall performs one operation with one direct cgo call to aead_seal_open on the C buffers:
// the cgo crossing plus the C work, without any of the binding's Go code.
func (f *Floor) OneCall() int64 {
	return int64(C.aead_seal_open(f.ctx, f.op, f.nonce, 12, f.aad, 13, f.in, C.size_t(f.inLen), f.out, C.size_t(f.outCap)))
}

// DirectGo is OneCall on Go buffers: one direct cgo call of aead_seal_open with Go slices.
func (f *Floor) DirectGo(nonce, aad, in, out []byte) int64 {
	return int64(C.aead_seal_open(f.ctx, f.op, ptr(nonce), C.size_t(len(nonce)), ptr(aad), C.size_t(len(aad)),
		ptr(in), C.size_t(len(in)), ptr(out), C.size_t(len(out))))
}

// EmptyCall is one cgo call to an empty C function.
func EmptyCall() { C.floor_empty() }

// Args10Call is one cgo call, with aead_seal_open's argument list and cgo annotations, to a C
// function that does nothing with them. Slices are passed like the binding passes them.
func Args10Call(nonce, aad, in, out []byte) int64 {
	return int64(C.floor_args10(nil, 1, ptr(nonce), C.size_t(len(nonce)), ptr(aad), C.size_t(len(aad)),
		ptr(in), C.size_t(len(in)), ptr(out), C.size_t(len(out))))
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}
