package aead

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sivEmptyExpected reports whether the loaded libcrypto seals and opens empty AES-SIV messages:
// OpenSSL 3.5 or newer. AEAD_REQUIRE_SIV_EMPTY=1 (test.py sets it on a -Dlibcrypto=vendored build)
// makes an older one a failure.
func sivEmptyExpected(t testing.TB) bool { return opensslAtLeast(t, 3, 5, "AEAD_REQUIRE_SIV_EMPTY") }

// isSIVEmptyRefusal: the error (or panic value) of an empty message below OpenSSL 3.5.
func isSIVEmptyRefusal(v any) bool {
	err, ok := v.(error)
	var e *Error
	return ok && errors.Is(err, errors.ErrUnsupported) && errors.As(err, &e) && e.Code == codeUnsupported &&
		strings.Contains(err.Error(), "OpenSSL 3.5") && strings.Contains(err.Error(), "-Dlibcrypto=vendored")
}

func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func mustSIV(t testing.TB, key []byte, nonceSize int) *AESSIV {
	t.Helper()
	s, err := NewAESSIVWithNonceSize(key, nonceSize)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWycheproofAESSIV replays aead_aes_siv_cmac_test.json (RFC 5297's AEAD form: S2V(aad, iv,
// msg), output tag || ct) through NewAESSIV for 16-byte ivs and NewAESSIVWithNonceSize for the
// others, and every valid case also through SealComponents(msg, aad, iv). Every case is counted:
// valid ones open and seal to the vector, invalid ones fail with ErrOpen; empty messages below
// OpenSSL 3.5 are refused (Seal panics, Open returns) with the ErrUnsupported error, and counted.
func TestWycheproofAESSIV(t *testing.T) {
	const file = "aead_aes_siv_cmac_test.json"
	f := loadWycheproof(t, file)
	empty := sivEmptyExpected(t)
	var ran, accepted, authFailed, emptyRefused, invalidEmpty int
	for _, g := range f.TestGroups {
		for _, v := range g.Tests {
			ran++
			key, iv, aad, msg, ct, tag, name := v.decode(t)
			var s *AESSIV
			var err error
			if len(iv) == 16 {
				s, err = NewAESSIV(key)
			} else {
				s, err = NewAESSIVWithNonceSize(key, len(iv))
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sealed := append(append([]byte{}, tag...), ct...)
			opened, err := s.Open(nil, iv, sealed, aad)
			if len(msg) == 0 && !empty && v.Result != "invalid" {
				if !isSIVEmptyRefusal(err) || !errors.Is(err, ErrOpen) || opened != nil {
					t.Fatalf("%s: empty message on %s: Open = %x, %v", name, Version(), opened, err)
				}
				if p := recovered(func() { s.Seal(nil, iv, msg, aad) }); !isSIVEmptyRefusal(p) {
					t.Fatalf("%s: empty Seal on %s: panic %v", name, Version(), p)
				}
				emptyRefused++
				continue
			}
			switch v.Result {
			case "valid", "acceptable":
				expectVector(t, name, s, iv, msg, aad, sealed, opened, err)
				comps := [][]byte{aad, iv}
				if len(iv) == 0 {
					comps = comps[:1]
				}
				if got := s.SealComponents(nil, msg, comps...); !bytes.Equal(got, sealed) {
					t.Fatalf("%s: SealComponents = %x, want %x", name, got, sealed)
				}
				if got, err := s.OpenComponents(nil, sealed, comps...); err != nil || !bytes.Equal(got, msg) {
					t.Fatalf("%s: OpenComponents = %x, %v", name, got, err)
				}
				accepted++
			case "invalid":
				// An empty message below 3.5 is refused before the SIV is checked: still ErrOpen.
				if err == nil || !errors.Is(err, ErrOpen) || opened != nil {
					t.Fatalf("%s: invalid case: %x, %v", name, opened, err)
				}
				if len(msg) == 0 && !empty {
					if !isSIVEmptyRefusal(err) {
						t.Fatalf("%s: invalid empty case on %s: %v", name, Version(), err)
					}
					invalidEmpty++
				}
				authFailed++
			default:
				t.Fatalf("%s: unknown result %q", name, v.Result)
			}
		}
	}
	if ran != f.NumberOfTests || ran != accepted+authFailed+emptyRefused || ran == 0 {
		t.Fatalf("ran %d cases, file declares %d", ran, f.NumberOfTests)
	}
	t.Logf("%s: %d cases: %d valid (opened, sealed, and through the components API), %d invalid refused by Open (%d of them empty messages, refused as unsupported before any check), %d valid empty messages refused as unsupported (%s)",
		file, ran, accepted, authFailed, invalidEmpty, emptyRefused, Version())
}

// TestPycaAESSIV reads pyca/cryptography_vectors' ciphers/AES/SIV/openssl.txt (AAD, AAD2, ...:
// several components), unpacked by tests/vectors.py under the vectors' pyca/ folder, through
// SealComponents / OpenComponents.
func TestPycaAESSIV(t *testing.T) {
	fh, err := os.Open(filepath.Join(vectorsDir(t), "pyca", "ciphers", "AES", "SIV", "openssl.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	type vec struct {
		key, tag, pt, ct []byte
		aad              [][]byte
		count            string
	}
	var vecs []vec
	var cur *vec
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		k, val, ok := strings.Cut(line, "=")
		if line == "" || strings.HasPrefix(line, "#") || !ok {
			continue
		}
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		switch {
		case k == "COUNT":
			vecs = append(vecs, vec{count: val})
			cur = &vecs[len(vecs)-1]
		case cur == nil:
			t.Fatalf("%q before COUNT", line)
		case k == "Key":
			cur.key = unhex(t, val)
		case k == "Tag":
			cur.tag = unhex(t, val)
		case k == "Plaintext":
			cur.pt = unhex(t, val)
		case k == "Ciphertext":
			cur.ct = unhex(t, val)
		case strings.HasPrefix(k, "AAD"):
			if n, _ := strconv.Atoi(strings.TrimPrefix(k, "AAD")); n != 0 && n != len(cur.aad)+1 {
				t.Fatalf("COUNT %s: %s out of order", cur.count, k)
			}
			cur.aad = append(cur.aad, unhex(t, val))
		default:
			t.Fatalf("COUNT %s: unknown field %q", cur.count, k)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, v := range vecs {
		s := mustSIV(t, v.key, 16)
		want := append(append([]byte{}, v.tag...), v.ct...)
		if got := s.SealComponents(nil, v.pt, v.aad...); !bytes.Equal(got, want) {
			t.Fatalf("COUNT %s: SealComponents = %x, want %x", v.count, got, want)
		}
		if got, err := s.OpenComponents(nil, want, v.aad...); err != nil || !bytes.Equal(got, v.pt) {
			t.Fatalf("COUNT %s: OpenComponents = %x, %v", v.count, got, err)
		}
		if _, err := s.OpenComponents(nil, flip(want, 0), v.aad...); !errors.Is(err, ErrOpen) {
			t.Fatalf("COUNT %s: forged SIV: %v", v.count, err)
		}
		if len(v.aad) > 1 {
			multi++
		}
	}
	if len(vecs) == 0 {
		t.Fatal("no vectors read")
	}
	t.Logf("pyca AES/SIV/openssl.txt: %d vectors sealed, opened and forged (%d with several components)", len(vecs), multi)
}

// TestAESSIVDifferential compares SealComponents, OpenComponents, Seal and Open with the test's
// RFC 5297 reference (siv_ref_test.go) on random keys of each size, random component vectors (0 to
// 6 components, empty ones included, up to 126) and random messages, with tampering.
func TestAESSIVDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(5297))
	empty := sivEmptyExpected(t)
	var seals, emptyRefusals int
	for i := 0; i < 600; i++ {
		key := randBytes(r, []int{32, 48, 64}[i%3])
		s := mustSIV(t, key, 16)
		n := r.Intn(7)
		if i%100 == 99 {
			n = 125 + r.Intn(2)
		}
		comps := make([][]byte, n)
		for j := range comps {
			comps[j] = randBytes(r, []int{0, 1, 15, 16, 17, 33, r.Intn(300)}[r.Intn(7)])
		}
		pt := randBytes(r, []int{0, 1, 15, 16, 17, 32, r.Intn(2000)}[r.Intn(7)])
		if len(pt) == 0 && !empty {
			if p := recovered(func() { s.SealComponents(nil, pt, comps...) }); !isSIVEmptyRefusal(p) {
				t.Fatalf("empty SealComponents on %s: %v", Version(), p)
			}
			if _, err := s.OpenComponents(nil, make([]byte, 16), comps...); !isSIVEmptyRefusal(err) {
				t.Fatalf("empty OpenComponents on %s: %v", Version(), err)
			}
			emptyRefusals++
			continue
		}
		want := refSIVSeal(t, key, comps, pt)
		got := s.SealComponents(nil, pt, comps...)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d (%d-byte key, %d components, %d bytes): SealComponents = %x, want %x", i, len(key), n, len(pt), got, want)
		}
		if back, err := s.OpenComponents(nil, got, comps...); err != nil || !bytes.Equal(back, pt) {
			t.Fatalf("case %d: OpenComponents: %v", i, err)
		}
		if _, err := s.OpenComponents(nil, flip(got, r.Intn(len(got))), comps...); !errors.Is(err, ErrOpen) {
			t.Fatalf("case %d: tampered ciphertext: %v", i, err)
		}
		if n > 0 {
			c := append([][]byte{}, comps...)
			if len(c[n-1]) > 0 {
				c[n-1] = flip(c[n-1], 0)
			} else {
				c[n-1] = []byte{0}
			}
			if _, err := s.OpenComponents(nil, got, c...); !errors.Is(err, ErrOpen) {
				t.Fatalf("case %d: tampered component: %v", i, err)
			}
			if _, err := s.OpenComponents(nil, got, comps[:n-1]...); !errors.Is(err, ErrOpen) {
				t.Fatalf("case %d: a component dropped: %v", i, err)
			}
		}
		// The AEAD form: components (ad, nonce).
		ad, nonce := comps, randBytes(r, 16)
		var one []byte
		if len(ad) > 0 {
			one = ad[0]
		}
		want = refSIVSeal(t, key, [][]byte{one, nonce}, pt)
		if got := s.Seal(nil, nonce, pt, one); !bytes.Equal(got, want) {
			t.Fatalf("case %d: Seal = %x, want %x", i, got, want)
		}
		if back, err := s.Open(nil, nonce, want, one); err != nil || !bytes.Equal(back, pt) {
			t.Fatalf("case %d: Open: %v", i, err)
		}
		seals += 2
	}
	t.Logf("%d seals equal to the reference (each opened back and forged), %d empty messages refused as unsupported (%s)", seals, emptyRefusals, Version())
}

// TestAESSIVSemantics: constructor rules, crypto/cipher's append and in-place rules (SIV's
// library-level alias is 16 bytes off: exact in-place use must still work and write nothing beyond
// the output), the overlap and nonce panics, the 126-component limit, ErrOpen with a zeroed output.
func TestAESSIVSemantics(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, n := range []int{0, 16, 24, 31, 33, 96} {
		if _, err := NewAESSIV(make([]byte, n)); err == nil || !strings.Contains(err.Error(), "32, 48 or 64") {
			t.Fatalf("%d-byte key: %v", n, err)
		}
	}
	for _, n := range []int{-1, 129} {
		if _, err := NewAESSIVWithNonceSize(make([]byte, 32), n); err == nil {
			t.Fatalf("nonce size %d accepted", n)
		}
	}
	key := randBytes(r, 64)
	s := mustSIV(t, key, 16)
	if s.NonceSize() != 16 || s.Overhead() != 16 {
		t.Fatalf("NonceSize %d, Overhead %d", s.NonceSize(), s.Overhead())
	}
	if ind, ok := IndicatorOf(s); !ok || ind.Provider == "" || ind.SealApproved {
		t.Fatalf("IndicatorOf: %+v %v", ind, ok)
	}
	if _, err := (Options{Properties: "fips=yes"}).NewAESSIV(key); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("fips=yes: %v, want ErrUnsupported (no FIPS provider has SIV)", err)
	}
	if p := recovered(func() { new(Batch).Seal(s, []Record{{}}) }); p == nil || !strings.Contains(p.(string), "AES-SIV") {
		t.Fatalf("Batch of AES-SIV: %v", p)
	}
	nonce, ad, pt := randBytes(r, 16), randBytes(r, 9), randBytes(r, 100)
	ref := s.Seal(nil, nonce, pt, ad)
	refC := s.SealComponents(nil, pt, ad, ad, nonce)
	if !bytes.Equal(ref, refSIVSeal(t, key, [][]byte{ad, nonce}, pt)) ||
		!bytes.Equal(refC, refSIVSeal(t, key, [][]byte{ad, ad, nonce}, pt)) ||
		!bytes.Equal(s.SealComponents(nil, pt, ad, nonce), ref) {
		t.Fatal("Seal / SealComponents differ from the reference")
	}
	seal := map[string]func(dst, p []byte) []byte{
		"Seal":           func(dst, p []byte) []byte { return s.Seal(dst, nonce, p, ad) },
		"SealComponents": func(dst, p []byte) []byte { return s.SealComponents(dst, p, ad, ad, nonce) },
	}
	open := map[string]func(dst, c []byte) ([]byte, error){
		"Seal":           func(dst, c []byte) ([]byte, error) { return s.Open(dst, nonce, c, ad) },
		"SealComponents": func(dst, c []byte) ([]byte, error) { return s.OpenComponents(dst, c, ad, ad, nonce) },
	}
	for name, want := range map[string][]byte{"Seal": ref, "SealComponents": refC} {
		sealF, openF := seal[name], open[name]
		// Append with spare capacity: same array, prefix kept.
		dst := make([]byte, 3, 3+len(want))
		copy(dst, "abc")
		if out := sealF(dst, pt); &out[0] != &dst[0] || string(out[:3]) != "abc" || !bytes.Equal(out[3:], want) {
			t.Fatalf("%s: append", name)
		}
		// Exact in place, with a guard after the buffer's capacity... and after the output.
		buf := make([]byte, len(pt)+16+8)
		copy(buf, pt)
		for i := len(pt) + 16; i < len(buf); i++ {
			buf[i] = 0xee
		}
		b := buf[: len(pt) : len(pt)+16]
		out := sealF(b[:0], b)
		if &out[0] != &buf[0] || !bytes.Equal(out, want) || !bytes.Equal(buf[len(pt)+16:], bytes.Repeat([]byte{0xee}, 8)) {
			t.Fatalf("%s: in-place seal", name)
		}
		// Exact in-place open: the plaintext lands at the start, and the input bytes after the
		// output (the ciphertext's last 16) are what they were: nothing written beyond the output.
		before := append([]byte{}, out...)
		p, err := openF(out[:0], out)
		if err != nil || &p[0] != &buf[0] || !bytes.Equal(p, pt) || !bytes.Equal(buf[len(pt):len(pt)+16], before[len(pt):]) ||
			!bytes.Equal(buf[len(pt)+16:], bytes.Repeat([]byte{0xee}, 8)) {
			t.Fatalf("%s: in-place open: %v", name, err)
		}
		// A failed in-place open: the output zeroed, the tail restored.
		copy(buf, before)
		buf[20] ^= 1
		forged := append([]byte{}, buf[:len(before)]...)
		if p, err := openF(buf[:0], buf[:len(before)]); p != nil || !errors.Is(err, ErrOpen) ||
			!bytes.Equal(buf[:len(pt)], make([]byte, len(pt))) || !bytes.Equal(buf[len(pt):len(before)], forged[len(pt):]) {
			t.Fatalf("%s: failed in-place open: %v", name, err)
		}
		// A failed open into dst: prefix kept, the appended bytes zeroed.
		d := bytes.Repeat([]byte{0xaa}, 2+len(pt))
		if p, err := openF(d[:2], forged); p != nil || !errors.Is(err, ErrOpen) || string(d[:2]) != "\xaa\xaa" ||
			!bytes.Equal(d[2:], make([]byte, len(pt))) {
			t.Fatalf("%s: failed open: %v", name, err)
		}
		// Inexact overlaps panic with crypto/cipher's rule.
		big := make([]byte, len(pt)+64)
		copy(big[16:], pt)
		if p := recovered(func() { sealF(big[:0], big[16:16+len(pt)]) }); p != "aead: invalid buffer overlap of output and input" {
			t.Fatalf("%s: shifted seal: %v", name, p)
		}
		if p := recovered(func() { s.SealComponents(big[:0], pt, big[30:40]) }); p != "aead: invalid buffer overlap of output and additional data" {
			t.Fatalf("%s: component in the output: %v", name, p)
		}
		// Ciphertext shorter than the SIV.
		if p, err := openF(nil, want[:15]); p != nil || err != ErrOpen {
			t.Fatalf("%s: short ciphertext: %v", name, err)
		}
	}
	// The nonce inside the output region is read first.
	nb := make([]byte, len(ref))
	copy(nb, nonce)
	if out := s.Seal(nb[:0], nb[:16], pt, ad); !bytes.Equal(out, ref) {
		t.Fatal("nonce in the output region")
	}
	copy(nb, nonce)
	if p, err := s.Open(nb[:0], nb[:16], ref, ad); err != nil || !bytes.Equal(p, pt) {
		t.Fatalf("Open with the nonce in the output region: %v", err)
	}
	// Nonce size and component count are programmer errors: panics.
	for _, n := range [][]byte{nil, make([]byte, 12), make([]byte, 17)} {
		if p := recovered(func() { s.Seal(nil, n, pt, ad) }); p != "aead: incorrect nonce length given to AES-SIV" {
			t.Fatalf("nonce %d: %v", len(n), p)
		}
		if p := recovered(func() { s.Open(nil, n, ref, ad) }); p != "aead: incorrect nonce length given to AES-SIV" {
			t.Fatalf("Open nonce %d: %v", len(n), p)
		}
	}
	many := make([][]byte, 127)
	for i := range many {
		many[i] = []byte{byte(i)}
	}
	got := s.SealComponents(nil, pt, many[:126]...)
	if !bytes.Equal(got, refSIVSeal(t, key, many[:126], pt)) {
		t.Fatal("126 components")
	}
	if p := recovered(func() { s.SealComponents(nil, pt, many...) }); p != sivTooMany {
		t.Fatalf("127 components: %v", p)
	}
	if p := recovered(func() { s.OpenComponents(nil, got, many...) }); p != sivTooMany {
		t.Fatalf("127 components (open): %v", p)
	}
	// Zero-size nonce: the deterministic AEAD form, one component.
	d := mustSIV(t, key, 0)
	if got := d.Seal(nil, nil, pt, ad); !bytes.Equal(got, refSIVSeal(t, key, [][]byte{ad}, pt)) {
		t.Fatal("nonce size 0")
	}
	// No components at all: S2V of the plaintext alone (pyca's encrypt(data, None)).
	if got := s.SealComponents(nil, pt); !bytes.Equal(got, refSIVSeal(t, key, nil, pt)) {
		t.Fatal("no components")
	}
	// Empty messages: sealed and opened on OpenSSL >= 3.5, the clear refusal below.
	for _, e := range [][]byte{nil, {}} {
		if sivEmptyExpected(t) {
			c := s.Seal(nil, nonce, e, ad)
			if !bytes.Equal(c, refSIVSeal(t, key, [][]byte{ad, nonce}, nil)) {
				t.Fatal("empty Seal")
			}
			if p, err := s.Open(nil, nonce, c, ad); err != nil || len(p) != 0 {
				t.Fatalf("empty Open: %v", err)
			}
			continue
		}
		p := recovered(func() { s.Seal(nil, nonce, e, ad) })
		if !isSIVEmptyRefusal(p) {
			t.Fatalf("empty Seal on %s: %v", Version(), p)
		}
		t.Logf("empty message on %s: %v", Version(), p)
	}
}
