//go:build !libaead_system

package aead

import (
	"os"
	"strings"
	"testing"
)

// TestBundledLibrary: the default build runs on the libaead compiled into the binary from
// the module's lib/ and shim/ (no libaead.so is loaded), at meson.build's version.
func TestBundledLibrary(t *testing.T) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(maps), "libaead.so") {
		t.Fatal("a libaead.so is mapped in a bundled build")
	}
	if v := Version(); !strings.HasPrefix(v, "libaead "+bundledVersion+" (") {
		t.Fatalf("Version() = %q, want libaead %s (...)", v, bundledVersion)
	}
	t.Logf("bundled: %s", Version())
}
