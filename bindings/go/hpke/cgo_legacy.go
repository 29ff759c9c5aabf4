//go:build !go1.24

package hpke

/*
#include <aead.h>
*/
import "C"

import "runtime"

// setCleanup frees the C context once c becomes unreachable (runtime.AddCleanup needs Go 1.24).
func setCleanup(c *context) {
	runtime.SetFinalizer(c, func(c *context) { C.aead_hpke_free(c.ctx) })
}
