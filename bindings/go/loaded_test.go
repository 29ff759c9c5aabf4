package aead

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadedLibrary: the libaead this test binary runs on is the one test.py means
// (AEAD_EXPECT_LIB_DIR: the build tree, or the installed prefix's libdir for test.py --installed),
// not another copy found by pkg-config or the loader. Skipped when run without test.py.
func TestLoadedLibrary(t *testing.T) {
	want := os.Getenv("AEAD_EXPECT_LIB_DIR")
	if want == "" {
		t.Skip("AEAD_EXPECT_LIB_DIR not set (test.py sets it)")
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, l := range strings.Split(string(maps), "\n") {
		if f := strings.Fields(l); len(f) == 6 && strings.Contains(filepath.Base(f[5]), "libaead.so") {
			got = f[5]
			break
		}
	}
	if got == "" {
		t.Fatal("no libaead.so mapped in this process")
	}
	gotDir, err1 := filepath.EvalSymlinks(filepath.Dir(got))
	wantDir, err2 := filepath.EvalSymlinks(want)
	if err1 != nil || err2 != nil || gotDir != wantDir {
		t.Fatalf("libaead loaded from %s, want %s (%v %v)", got, want, err1, err2)
	}
	t.Logf("libaead loaded from %s: %s", got, Version())
}
