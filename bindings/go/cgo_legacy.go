//go:build !go1.24

package aead

/*
#include <aead.h>
*/
import "C"

import (
	"runtime"
	"sync/atomic"
)

// ctxFreed counts contexts freed by finalizers (read by the tests).
var ctxFreed atomic.Int64

// setCleanup frees the C context once a becomes unreachable (runtime.AddCleanup needs Go 1.24).
func setCleanup(a *aeadImpl) {
	runtime.SetFinalizer(a, func(a *aeadImpl) {
		C.aead_ctx_free(a.ctx)
		ctxFreed.Add(1)
	})
}

// setScratchCleanup frees a Batch's C scratch once s becomes unreachable.
func setScratchCleanup(s *batchScratch) {
	runtime.SetFinalizer(s, func(s *batchScratch) { freeScratch(s.mem) })
}

// setHPCleanup frees the C header-protection key once h becomes unreachable.
func setHPCleanup(h *HeaderProtection) {
	runtime.SetFinalizer(h, func(h *HeaderProtection) { C.aead_hp_free(h.hp) })
}
