package aead

import (
	"runtime"
	"testing"
	"time"
)

// TestCleanupFreesContext: AEADs that become unreachable have their C context freed by the
// runtime cleanup (finalizer before Go 1.24).
func TestCleanupFreesContext(t *testing.T) {
	before := ctxFreed.Load()
	for i := 0; i < 100; i++ {
		a, err := NewGCM(make([]byte, 16))
		if err != nil {
			t.Fatal(err)
		}
		a.Seal(nil, make([]byte, 12), []byte("x"), nil)
	}
	deadline := time.Now().Add(60 * time.Second) // generous: cleanups run late on a busy machine
	for ctxFreed.Load()-before < 100 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 100 unreachable contexts freed", ctxFreed.Load()-before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
