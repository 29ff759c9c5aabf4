package bench

// The age payload (package stream's NewAgePayload) against filippo.io/age: a recipient of the test's
// own hands age the file key, so that age writes a file whose payload libaead reads, and libaead's
// payload after an age header is a file that age reads.

import (
	"bytes"
	"errors"
	"io"
	mrand "math/rand"
	"testing"

	"filippo.io/age"
	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/stream"
)

// keyRecipient keeps the file key age wraps, and gives it back to age's Decrypt.
type keyRecipient struct{ fileKey []byte }

func (k *keyRecipient) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	k.fileKey = bytes.Clone(fileKey)
	return []*age.Stanza{{Type: "libaead-test"}}, nil
}

func (k *keyRecipient) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	for _, s := range stanzas {
		if s.Type == "libaead-test" {
			return k.fileKey, nil
		}
	}
	return nil, age.ErrIncorrectIdentity
}

// splitAge: an age file's header (through the "--- MAC" line) and its payload.
func splitAge(t *testing.T, file []byte) (header, payload []byte) {
	t.Helper()
	i := bytes.Index(file, []byte("\n--- "))
	if i < 0 {
		t.Fatal("no age header")
	}
	end := i + 1 + bytes.IndexByte(file[i+1:], '\n') + 1
	return file[:end], file[end:]
}

func ageDecrypt(k *keyRecipient, file []byte) ([]byte, error) {
	r, err := age.Decrypt(bytes.NewReader(file), k)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// TestStreamAgeInterop: age writes, libaead reads the payload, and libaead's payload after an age header
// (of the same file key) is read by age: sizes 0, 1, each side of the 64 KiB chunk boundaries, random
// ones and 3 MiB. Damaged payloads (cut one byte or at a chunk boundary, extended, a flipped bit) are
// refused by both.
func TestStreamAgeInterop(t *testing.T) {
	r := mrand.New(mrand.NewSource(9))
	const chunk = 64 << 10
	sizes := []int{0, 1, chunk - 1, chunk, chunk + 1, 2*chunk - 1, 2 * chunk, 2*chunk + 1, 3<<20 + 5}
	for i := 0; i < 12; i++ {
		sizes = append(sizes, r.Intn(5*chunk))
	}
	toAge, fromAge, damaged := 0, 0, 0
	for _, size := range sizes {
		pt := make([]byte, size)
		r.Read(pt)
		k := &keyRecipient{}
		var file bytes.Buffer
		w, err := age.Encrypt(&file, k)
		write(t, w, err, pt, r)
		header, payload := splitAge(t, file.Bytes())

		s, err := stream.NewAgePayload(k.fileKey)
		if err != nil {
			t.Fatal(err)
		}
		got, err := oursDecrypt(s, payload, nil)
		if err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: we read age's payload: %v", size, err)
		}
		fromAge++

		ours := oursEncrypt(t, s, pt, nil, r)
		if len(ours) != len(payload) {
			t.Fatalf("size %d: our payload is %d bytes, age's %d", size, len(ours), len(payload))
		}
		got, err = ageDecrypt(k, append(bytes.Clone(header), ours...))
		if err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("size %d: age reads our payload: %v", size, err)
		}
		toAge++

		for _, p := range [][]byte{payload, ours} {
			flip := bytes.Clone(p)
			flip[r.Intn(len(p))] ^= 1 << r.Intn(8)
			bad := [][]byte{p[:len(p)-1], append(bytes.Clone(p), 0), flip}
			if len(p) > 16+chunk+16 {
				bad = append(bad, p[:16+chunk+16])
			}
			for j, b := range bad {
				_, errOurs := oursDecrypt(s, b, nil)
				_, errAge := ageDecrypt(k, append(bytes.Clone(header), b...))
				if !errors.Is(errOurs, aead.ErrOpen) || errAge == nil {
					t.Fatalf("size %d damage %d: ours %v, age %v", size, j, errOurs, errAge)
				}
				damaged++
			}
		}
	}
	t.Logf("interop age payload: %d files age -> libaead, %d libaead -> age, %d damaged payloads refused by both", fromAge, toAge, damaged)
}
