//go:build go1.24

package hpke

// From Go 1.24 on, these directives keep the slices and the sequence-number variable of a Seal or
// Open on the caller's stack (the C functions neither keep a pointer nor call back into Go), so that
// AppendSeal, AppendOpen and AppendOpenAt allocate nothing when cap(dst) suffices.

/*
#cgo noescape aead_hpke_seal
#cgo nocallback aead_hpke_seal
#cgo noescape aead_hpke_open
#cgo nocallback aead_hpke_open
#cgo noescape aead_hpke_open_at
#cgo nocallback aead_hpke_open_at
#include <aead.h>
*/
import "C"

import "runtime"

// setCleanup frees the C context once c becomes unreachable.
func setCleanup(c *context) { runtime.AddCleanup(c, freeContext, c.ctx) }

func freeContext(ctx *C.aead_hpke) { C.aead_hpke_free(ctx) }
