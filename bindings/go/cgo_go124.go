//go:build go1.24

package aead

// From Go 1.24 on, these directives let the compiler keep the slices passed to
// aead_seal_open (and a Batch's record array, a QUIC packet and sample, a DTLS 1.3 record) on the caller's stack:
// the C function neither keeps a pointer after it returns (noescape) nor calls back into Go
// (nocallback). Without them every Seal/Open
// would move its buffers to the heap. Older Go releases reject the directives, hence the
// build tag; there the package still builds (see cgo_legacy.go) but Seal/Open may allocate.

/*
#cgo noescape aead_seal_open
#cgo nocallback aead_seal_open
#cgo noescape aead_seal_open_many
#cgo nocallback aead_seal_open_many
#cgo noescape goaead_seal_open_v
#cgo nocallback goaead_seal_open_v
#cgo noescape aead_quic_protect
#cgo nocallback aead_quic_protect
#cgo noescape goaead_unprotect
#cgo nocallback goaead_unprotect
#cgo noescape goaead_mask
#cgo nocallback goaead_mask
#cgo noescape goaead_usage
#cgo nocallback goaead_usage
#cgo noescape goaead_usage_ex
#cgo nocallback goaead_usage_ex
#cgo noescape aead_dtls13_protect
#cgo nocallback aead_dtls13_protect
#cgo noescape goaead_dtls13_unprotect
#cgo nocallback goaead_dtls13_unprotect
#include <aead.h>
*/
import "C"

import (
	"runtime"
	"sync/atomic"
)

// setCleanup frees the C context once a becomes unreachable.
func setCleanup(a *aeadImpl) {
	runtime.AddCleanup(a, freeCtx, a.ctx)
}

// setScratchCleanup frees a Batch's C scratch once s becomes unreachable.
func setScratchCleanup(s *batchScratch) {
	runtime.AddCleanup(s, freeScratch, s.mem)
}

// ctxFreed counts contexts freed by cleanups (read by the tests).
var ctxFreed atomic.Int64

func freeCtx(ctx *C.aead_ctx) {
	C.aead_ctx_free(ctx)
	ctxFreed.Add(1)
}

// setHPCleanup frees the C header-protection key once h becomes unreachable.
func setHPCleanup(h *HeaderProtection) {
	runtime.AddCleanup(h, freeHP, h.hp)
}

func freeHP(hp *C.aead_hp) { C.aead_hp_free(hp) }
