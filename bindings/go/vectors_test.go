package aead

import (
	"bufio"
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

// vectorsDir is the directory of the conformance vectors: $AEAD_VECTORS_DIR (tests/run-all.sh and
// test.py set it), or else what the repository's tests/vectors.py prints (it fetches them, pinned and
// checksummed, from crates.io and PyPI into a cache). The tests fail, never skip, without them.
func vectorsDir(t *testing.T) string {
	t.Helper()
	vectorsOnce.Do(func() { vectorsPath, vectorsErr = testkit.FindVectors() })
	if vectorsErr != nil {
		t.Fatalf("conformance vectors: %v", vectorsErr)
	}
	return vectorsPath
}

var (
	vectorsOnce sync.Once
	vectorsPath string
	vectorsErr  error
)

type wycheFile struct {
	Algorithm     string `json:"algorithm"`
	NumberOfTests int    `json:"numberOfTests"`
	TestGroups    []struct {
		IvSize  int         `json:"ivSize"`
		KeySize int         `json:"keySize"`
		TagSize int         `json:"tagSize"`
		Tests   []wycheTest `json:"tests"`
	} `json:"testGroups"`
}

type wycheTest struct {
	TcID    int      `json:"tcId"`
	Comment string   `json:"comment"`
	Flags   []string `json:"flags"`
	Key     string   `json:"key"`
	Iv      string   `json:"iv"`
	Aad     string   `json:"aad"`
	Msg     string   `json:"msg"`
	Ct      string   `json:"ct"`
	Tag     string   `json:"tag"`
	Result  string   `json:"result"`
}

// decode returns the test's hex fields as bytes and its name for messages.
func (v *wycheTest) decode(t *testing.T) (key, iv, aad, msg, ct, tag []byte, name string) {
	t.Helper()
	return unhex(t, v.Key), unhex(t, v.Iv), unhex(t, v.Aad), unhex(t, v.Msg), unhex(t, v.Ct), unhex(t, v.Tag),
		"tcId " + strconv.Itoa(v.TcID) + " (" + v.Comment + ")"
}

// expectVector checks a valid vector: opened (with err) is msg, and sealing msg gives sealed.
func expectVector(t *testing.T, name string, a interface {
	Seal(dst, nonce, plaintext, additionalData []byte) []byte
}, iv, msg, aad, sealed, opened []byte, err error) {
	t.Helper()
	if err != nil || !bytes.Equal(opened, msg) {
		t.Fatalf("%s: Open = %x, %v; want %x", name, opened, err, msg)
	}
	if got := a.Seal(nil, iv, msg, aad); !bytes.Equal(got, sealed) {
		t.Fatalf("%s: Seal = %x, want %x", name, got, sealed)
	}
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadWycheproof(t *testing.T, name string) *wycheFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vectorsDir(t), "wycheproof", name))
	if err != nil {
		t.Fatal(err)
	}
	var f wycheFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

func TestWycheproof(t *testing.T) {
	for _, tc := range []struct {
		file              string
		chacha            bool
		aegis             func([]byte) (cipher.AEAD, error) // AEGIS: 16-byte tags, nonces of the key's size
		accepted, refused int
	}{
		{"aes_gcm_test.json", false, nil, 226, 87},
		{"legacy/aes_gcm_test.json", false, nil, 166, 87},
		{"chacha20_poly1305_test.json", true, nil, 256, 69},
		{"aegis128L_test.json", false, NewAEGIS128L, 367, 112},
		{"aegis256_test.json", false, NewAEGIS256, 360, 112},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := loadWycheproof(t, tc.file)
			var ran, accepted, refused, tooLong int
			for _, g := range f.TestGroups {
				for _, v := range g.Tests {
					key, iv, aad, msg, ct, tag, name := v.decode(t)
					ran++
					var a interface {
						Seal(dst, nonce, plaintext, additionalData []byte) []byte
						Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
					}
					var err error
					if tc.chacha {
						a, err = NewChaCha20Poly1305(key)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if len(iv) != 12 {
							// InvalidNonceSize: must be refused before any tag check.
							if v.Result != "invalid" {
								t.Fatalf("%s: unexpected non-12-byte nonce", name)
							}
							if p := catchPanic(func() { a.Open(nil, iv, append(ct, tag...), aad) }); p != "chacha20poly1305: bad nonce length passed to Open" {
								t.Fatalf("%s: Open panic = %q", name, p)
							}
							if p := catchPanic(func() { a.Seal(nil, iv, msg, aad) }); p != "chacha20poly1305: bad nonce length passed to Seal" {
								t.Fatalf("%s: Seal panic = %q", name, p)
							}
							refused++
							continue
						}
					} else if tc.aegis != nil {
						a, err = tc.aegis(key)
						if err != nil || len(iv) != len(key) || g.TagSize != 128 {
							t.Fatalf("%s: %d-byte nonce, tag size %d: %v", name, len(iv), g.TagSize, err)
						}
					} else {
						a, err = NewGCMWithNonceSize(key, len(iv))
						if len(iv) == 0 {
							if v.Result != "invalid" || err == nil {
								t.Fatalf("%s: zero-length IV: result %s, constructor error %v", name, v.Result, err)
							}
							refused++
							continue
						}
						if len(iv) > maxNonce {
							// OpenSSL 3 (and so libaead) refuses GCM IVs over 128 bytes: the
							// constructor must say so; the vector cannot be replayed.
							if err == nil {
								t.Fatalf("%s: %d-byte IV accepted", name, len(iv))
							}
							tooLong++
							continue
						}
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if g.TagSize != 128 {
							t.Fatalf("%s: unexpected tag size %d", name, g.TagSize)
						}
					}
					sealed := append(append([]byte{}, ct...), tag...)
					opened, err := a.Open(nil, iv, sealed, aad)
					switch v.Result {
					case "valid", "acceptable":
						if err != nil {
							t.Fatalf("%s: Open failed: %v", name, err)
						}
						if !bytes.Equal(opened, msg) {
							t.Fatalf("%s: Open returned %x, want %x", name, opened, msg)
						}
						if got := a.Seal(nil, iv, msg, aad); !bytes.Equal(got, sealed) {
							t.Fatalf("%s: Seal = %x, want %x", name, got, sealed)
						}
						accepted++
					case "invalid":
						if err == nil || opened != nil {
							t.Fatalf("%s: invalid vector opened", name)
						}
						if !errors.Is(err, ErrOpen) {
							t.Fatalf("%s: error %v does not match ErrOpen", name, err)
						}
						refused++
					default:
						t.Fatalf("%s: unknown result %q", name, v.Result)
					}
				}
			}
			if ran != f.NumberOfTests || ran == 0 {
				t.Fatalf("ran %d cases, file declares %d", ran, f.NumberOfTests)
			}
			t.Logf("%s: %d cases, %d accepted, %d refused, %d with IVs over 128 bytes refused by the constructor", tc.file, ran, accepted, refused, tooLong)
			if accepted != tc.accepted || refused != tc.refused {
				t.Fatalf("%s: %d accepted and %d refused, want %d and %d", tc.file, accepted, refused, tc.accepted, tc.refused)
			}
		})
	}
}

// cavpCase is one block of a NIST CAVP GCMVS .rsp file.
type cavpCase struct {
	line                             int
	key, iv, pt, aad, ct, tag        []byte
	fail                             bool
	ivBits, ptBits, aadBits, tagBits int
}

func parseCAVP(t *testing.T, path string) []cavpCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []cavpCase
	var cur *cavpCase
	hdr := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			kv := strings.SplitN(strings.Trim(line, "[]"), "=", 2)
			n, err := strconv.Atoi(strings.TrimSpace(kv[1]))
			if err != nil {
				t.Fatalf("%s:%d: %v", path, ln, err)
			}
			hdr[strings.TrimSpace(kv[0])] = n
			continue
		}
		if line == "FAIL" {
			cur.fail = true
			continue
		}
		kv := strings.SplitN(line, "=", 2)
		if len(kv) != 2 {
			t.Fatalf("%s:%d: unparsed line %q", path, ln, line)
		}
		k, v := strings.TrimSpace(kv[0]), strings.TrimSpace(kv[1])
		if k == "Count" {
			cases = append(cases, cavpCase{line: ln, ivBits: hdr["IVlen"], ptBits: hdr["PTlen"], aadBits: hdr["AADlen"], tagBits: hdr["Taglen"]})
			cur = &cases[len(cases)-1]
			continue
		}
		field, ok := map[string]*[]byte{"Key": &cur.key, "IV": &cur.iv, "PT": &cur.pt, "AAD": &cur.aad, "CT": &cur.ct,
			"Tag": &cur.tag}[k]
		if !ok {
			t.Fatalf("%s:%d: unknown field %q", path, ln, k)
		}
		*field = unhex(t, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestNISTCAVP replays the GCMVS encrypt and decrypt files. Tags of 12..16 bytes go through the
// public constructors (NewGCMWithTagSize / NewGCMWithNonceSize); 4- and 8-byte tags, and
// non-12-byte nonces combined with short tags, which the public API refuses like crypto/cipher,
// go through the package-internal constructor so that the C library is checked on them too.
func TestNISTCAVP(t *testing.T) {
	dir := filepath.Join(vectorsDir(t), "nist-cavp")
	for _, bits := range []string{"128", "192", "256"} {
		for _, kind := range []string{"EncryptExtIV", "Decrypt"} {
			name := "gcm" + kind + bits + ".rsp"
			t.Run(name, func(t *testing.T) {
				cases := parseCAVP(t, filepath.Join(dir, name))
				if len(cases) != 7875 {
					t.Fatalf("parsed %d cases, want 7875", len(cases))
				}
				var pass, fail int
				for _, c := range cases {
					tagSize := c.tagBits / 8
					if len(c.iv)*8 != c.ivBits || len(c.tag) != tagSize || len(c.ct)*8 != c.ptBits || len(c.aad)*8 != c.aadBits {
						t.Fatalf("line %d: lengths disagree with the section header", c.line)
					}
					var a interface {
						Seal(dst, nonce, plaintext, additionalData []byte) []byte
						Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
					}
					var err error
					switch {
					case len(c.iv) == 12 && tagSize >= 12:
						a, err = NewGCMWithTagSize(c.key, tagSize)
					case tagSize == 16:
						a, err = NewGCMWithNonceSize(c.key, len(c.iv))
					default:
						a, err = Options{}.newGCM(c.key, 0, len(c.iv), tagSize, &gcmMessages, nil)
					}
					if err != nil {
						t.Fatalf("line %d: %v", c.line, err)
					}
					sealed := append(append([]byte{}, c.ct...), c.tag...)
					if kind == "EncryptExtIV" {
						if got := a.Seal(nil, c.iv, c.pt, c.aad); !bytes.Equal(got, sealed) {
							t.Fatalf("line %d: Seal = %x, want %x", c.line, got, sealed)
						}
						pass++
						continue
					}
					dst := bytes.Repeat([]byte{0xAA}, 3)
					got, err := a.Open(dst[:1], c.iv, sealed, c.aad)
					if c.fail {
						if !errors.Is(err, ErrOpen) || got != nil {
							t.Fatalf("line %d: FAIL case: got %x, %v", c.line, got, err)
						}
						fail++
						continue
					}
					if err != nil || !bytes.Equal(got[1:], c.pt) || got[0] != 0xAA {
						t.Fatalf("line %d: Open = %x, %v; want %x", c.line, got, err, c.pt)
					}
					pass++
				}
				t.Logf("%s: %d pass, %d FAIL cases refused", name, pass, fail)
			})
		}
	}
	// The public API refuses the tag sizes crypto/cipher refuses.
	key := make([]byte, 16)
	for _, ts := range []int{0, 4, 8, 11, 17} {
		if _, err := NewGCMWithTagSize(key, ts); err == nil || err.Error() != "cipher: incorrect tag size given to GCM" {
			t.Errorf("NewGCMWithTagSize(%d): err = %v", ts, err)
		}
	}
}
