//go:build go1.24

package objectstore_test

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/libaead/libaead/bindings/go/examples/objectstore"
)

// refusal is crypto/cipher's NewGCM error in FIPS 140-only mode (Go 1.24 and later).
const refusal = "crypto/cipher: use of GCM with arbitrary IVs is not allowed in FIPS 140-only mode"

// TestFIPS140Only runs itself again with GODEBUG=fips140=only. There, the format's code on
// crypto/cipher's NewGCM is refused with Go's message, and on libaead's NewGCMWithCounterNonce it
// seals and opens (every seal approved under the FIPS stage's provider).
func TestFIPS140Only(t *testing.T) {
	if os.Getenv("OBJECTSTORE_FIPS140_ONLY") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFIPS140Only$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "GODEBUG=fips140=only", "OBJECTSTORE_FIPS140_ONLY=1")
		out, err := cmd.CombinedOutput()
		t.Logf("with GODEBUG=fips140=only:\n%s", out)
		if err != nil || !strings.Contains(string(out), "--- PASS: TestFIPS140Only") {
			t.Fatalf("the fips140=only run failed: %v", err)
		}
		return
	}
	key, err := objectstore.NewKey() // crypto/rand: allowed in FIPS 140-only mode
	if err != nil {
		t.Fatal(err)
	}
	content := bytes.Repeat([]byte("x"), 2*objectstore.ChunkSize+1)
	if _, err := objectstore.Seal(objectstore.StdlibGCM, key, content); err == nil || !strings.HasPrefix(err.Error(), refusal) {
		t.Fatalf("crypto/cipher's NewGCM in FIPS 140-only mode: %v, want %q", err, refusal)
	}
	var seals, approved int
	obj, err := objectstore.Seal(watchedCounterGCM(&seals, &approved), key, content)
	if err != nil {
		t.Fatalf("libaead's NewGCMWithCounterNonce in FIPS 140-only mode: %v", err)
	}
	if back, err := objectstore.Open(watchedCounterGCM(&seals, &approved), key, obj); err != nil || !bytes.Equal(back, content) {
		t.Fatalf("open: %v", err)
	}
	if seals != 3 {
		t.Fatalf("%d seals, want 3", seals)
	}
	checkApproved(t, seals, approved)
	t.Logf("crypto/cipher refused (%q); libaead sealed %d chunks, %d approved by the FIPS indicator", refusal, seals, approved)
}
