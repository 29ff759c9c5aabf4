package aead

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"
)

// TestBatchMatchesSingleCalls: a batch of random records (sizes 0..5000, AAD 0..40) on every
// non-TLS constructor seals to exactly what Seal gives (crypto/cipher's output for GCM; the
// random-nonce records are opened by crypto/cipher), a batch Open recovers every plaintext, and in
// a batch with tampered and too-short records only those fail, with ErrOpen and zeroed output.
func TestBatchMatchesSingleCalls(t *testing.T) {
	r := rand.New(rand.NewSource(51))
	var b Batch
	cases := append(allConstructors[:6:6], constructor{"NewGCMWithRandomNonce", NewGCMWithRandomNonce, 16, 0},
		constructor{"NewXChaCha20Poly1305WithRandomNonce", NewXChaCha20Poly1305WithRandomNonce, 32, 0})
	cases = append(cases, familyConstructors...)
	cases = append(cases, aegisConstructors...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := randBytes(r, c.key)
			a, err := c.new(key)
			if err != nil {
				t.Fatal(err)
			}
			const n = 40
			recs := make([]Record, n)
			pts := make([][]byte, n)
			for i := range recs {
				pts[i] = randBytes(r, r.Intn(5000))
				recs[i] = Record{Nonce: randBytes(r, a.NonceSize()), Input: pts[i], AdditionalData: randBytes(r, r.Intn(41))}
				if i%3 == 0 { // a prefix in Dst is kept, as with Seal
					recs[i].Dst = []byte("pre")
				}
			}
			if got := b.Seal(a, recs); got != n {
				t.Fatalf("%d of %d seals succeeded", got, n)
			}
			opens := make([]Record, n)
			for i, rec := range recs {
				if rec.Err != nil || !bytes.HasPrefix(rec.Out, rec.Dst) {
					t.Fatalf("record %d: %v", i, rec.Err)
				}
				ct := rec.Out[len(rec.Dst):]
				if c.name == "NewGCMWithRandomNonce" {
					if got, err := stdRandomGCM(t, key).Open(nil, nil, ct, rec.AdditionalData); err != nil || !bytes.Equal(got, pts[i]) {
						t.Fatalf("record %d: crypto/cipher cannot open it: %v", i, err)
					}
				} else if c.name == "NewXChaCha20Poly1305WithRandomNonce" {
					x, _ := NewXChaCha20Poly1305(key)
					if got, err := x.Open(nil, ct[:24], ct[24:], rec.AdditionalData); err != nil || !bytes.Equal(got, pts[i]) {
						t.Fatalf("record %d: NewXChaCha20Poly1305 cannot open it: %v", i, err)
					}
				} else if !bytes.Equal(ct, a.Seal(nil, rec.Nonce, pts[i], rec.AdditionalData)) {
					t.Fatalf("record %d differs from Seal", i)
				}
				opens[i] = Record{Nonce: rec.Nonce, Input: ct, AdditionalData: rec.AdditionalData, Dst: make([]byte, 0, len(ct))}
			}
			opens[5].Dst = opens[5].Input[:0] // in place, as Open(ct[:0], ...)
			bad := map[int]bool{7: true, 8: true, 20: true}
			opens[7].Input = flip(opens[7].Input, 0)
			opens[8].AdditionalData = append(opens[8].AdditionalData, 1)
			opens[20].Input = opens[20].Input[:a.Overhead()-1]
			if got := b.Open(a, opens); got != n-len(bad) {
				t.Fatalf("%d of %d opens succeeded", got, n)
			}
			for i, rec := range opens {
				switch {
				case bad[i]:
					if rec.Out != nil || rec.Err != ErrOpen {
						t.Fatalf("bad record %d: %v, %v", i, rec.Out, rec.Err)
					}
					if o := rec.Dst[:cap(rec.Dst)]; i == 7 && !bytes.Equal(o[:len(pts[i])], make([]byte, len(pts[i]))) {
						t.Fatalf("bad record %d: output not zeroed", i)
					}
				case rec.Err != nil || !bytes.Equal(rec.Out, pts[i]):
					t.Fatalf("record %d: %v", i, rec.Err)
				}
			}
		})
	}
}

// TestBatchTLS: TLS sequences checked and committed in record order, refusals per record with the
// library's code and consuming nothing: 0, 1, 1 (refused), 5, 3 (refused), wrong AAD (refused), 6.
func TestBatchTLS(t *testing.T) {
	r := rand.New(rand.NewSource(52))
	for _, c := range tlsCases() {
		t.Run(c.name, func(t *testing.T) {
			key, iv := randBytes(r, 32), randBytes(r, 12)
			if !c.chacha {
				key = key[:16]
			}
			a, err := c.make(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := c.plain(key)
			aad, pt := randBytes(r, c.aadLen), randBytes(r, 64)
			seqs := []uint64{0, 1, 1, 5, 3, 9, 6}
			want := []int{0, 0, codeNonceOrder, 0, codeNonceOrder, codeAADSize, 0}
			recs := make([]Record, len(seqs))
			for i, s := range seqs {
				recs[i] = Record{Nonce: tlsNonce(iv, s, c.xor), Input: pt, AdditionalData: aad}
			}
			recs[5].AdditionalData = aad[1:]
			var b Batch
			if got := b.Seal(a, recs); got != 4 {
				t.Fatalf("%d seals succeeded, want 4", got)
			}
			for i, rec := range recs {
				if want[i] == 0 {
					if rec.Err != nil || !bytes.Equal(rec.Out, ref.Seal(nil, rec.Nonce, pt, rec.AdditionalData)) {
						t.Fatalf("record %d (seq %d): %v", i, seqs[i], rec.Err)
					}
				} else if !isCode(rec.Err, want[i]) || rec.Out != nil || errors.Is(rec.Err, ErrOpen) {
					t.Fatalf("record %d (seq %d): %v, want code %d", i, seqs[i], rec.Err, want[i])
				}
			}
			// 6 was the last accepted: 6 again panics in Seal, 7 works (the refused 9 consumed nothing).
			if got := catchPanic(func() { a.Seal(nil, tlsNonce(iv, 6, c.xor), pt, aad) }); got != c.messages().tlsOrder {
				t.Fatalf("seq 6 after the batch: %q", got)
			}
			a.Seal(nil, tlsNonce(iv, 7, c.xor), pt, aad)
		})
	}
}

// TestBatchMisuse: misuse panics like Seal/Open before anything is sealed (no sequence consumed),
// an empty batch does nothing, and other AEADs are refused.
func TestBatchMisuse(t *testing.T) {
	a, _ := NewGCMForTLS13WithIV(make([]byte, 16), make([]byte, 12))
	nonce0 := make([]byte, 12)
	var b Batch
	recs := []Record{{Nonce: nonce0, Input: []byte("x"), AdditionalData: make([]byte, 5)}, {Nonce: nonce0[:8]}}
	if got := catchPanic(func() { b.Seal(a, recs) }); got != gcmMessages.nonceSeal {
		t.Fatalf("short nonce in record 1: panic %q", got)
	}
	recs = recs[:1]
	if b.Seal(a, recs) != 1 || recs[0].Err != nil {
		t.Fatalf("seq 0 was consumed by the batch that panicked: %v", recs[0].Err)
	}
	buf := make([]byte, 100)
	if got := catchPanic(func() { b.Seal(a, []Record{{Nonce: nonce0, Input: buf[:10], Dst: buf[1:1]}}) }); got != gcmMessages.overlapInput {
		t.Fatalf("overlap: panic %q", got)
	}
	// Random-nonce records sealed in place move their plaintext only once every record passed.
	g, _ := NewGCMWithRandomNonce(make([]byte, 16))
	inPlace := make([]byte, 5, 5+28)
	copy(inPlace, "hello")
	bad := []Record{{Dst: inPlace[:0], Input: inPlace}, {Nonce: nonce0}}
	if got := catchPanic(func() { b.Seal(g, bad) }); got != gcmRandomMessages.nonceSeal || string(inPlace) != "hello" {
		t.Fatalf("random-nonce batch with a bad record: panic %q, in-place buffer %q", got, inPlace)
	}
	if b.Seal(g, bad[:1]) != 1 || &bad[0].Out[0] != &inPlace[0] {
		t.Fatalf("in-place random-nonce batch: %v", bad[0].Err)
	}
	if pt, err := stdRandomGCM(t, make([]byte, 16)).Open(nil, nil, bad[0].Out, nil); err != nil || string(pt) != "hello" {
		t.Fatalf("crypto/cipher cannot open the in-place batch seal: %v", err)
	}
	if b.Seal(a, nil) != 0 || b.Open(a, []Record{}) != 0 {
		t.Fatal("empty batch")
	}
	if got := catchPanic(func() { b.Seal(stdGCM(t, make([]byte, 16), 12, 16), recs) }); got == "" {
		t.Fatal("a crypto/cipher AEAD was accepted")
	}
}

// TestBatchConcurrent: four goroutines, each with its own Batch, seal and open on one shared AEAD
// (run with -race too).
func TestBatchConcurrent(t *testing.T) {
	key := make([]byte, 16)
	a, _ := NewGCM(key)
	ref := stdGCM(t, key, 12, 16)
	inGoroutines(t, 4, func(r *rand.Rand) error {
		var b Batch
		for round := 0; round < 20; round++ {
			recs := make([]Record, 1+r.Intn(30))
			for i := range recs {
				recs[i] = Record{Nonce: randBytes(r, 12), Input: randBytes(r, r.Intn(2000))}
			}
			if b.Seal(a, recs) != len(recs) {
				return errors.New("concurrent batch seal failed")
			}
			for i := range recs {
				if !bytes.Equal(recs[i].Out, ref.Seal(nil, recs[i].Nonce, recs[i].Input, nil)) {
					return errors.New("concurrent batch seal differs from crypto/cipher")
				}
				recs[i].Input, recs[i].Out = recs[i].Out, nil
			}
			if b.Open(a, recs) != len(recs) {
				return errors.New("concurrent batch open failed")
			}
		}
		return nil
	})
}

// TestBatchPaths: records on both paths (copied through the C scratch at <= 512 bytes, a cgo call
// of their own above) and batches over the scratch's 256 records and 64 KiB: in place, a nonce in
// the output region, random-nonce in place both ways, and TLS 1.3 sequences across call
// boundaries (every 7th a repeat, refused and consuming nothing), all equal to single calls.
func TestBatchPaths(t *testing.T) {
	r := rand.New(rand.NewSource(53))
	key := randBytes(r, 16)
	a, _ := NewGCM(key)
	g, _ := NewGCMWithRandomNonce(key)
	var b Batch
	for _, n := range []int{3, 300, 700} {
		sizes := make([]int, n)
		for i := range sizes {
			sizes[i] = []int{0, 1, 64, 511, 512, 513, 600, 3000}[r.Intn(8)]
		}
		// Plain GCM: in place (i%3 == 0), nonce inside the output region (i%3 == 1), apart.
		recs, want, plain, nonces := make([]Record, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)
		for i, sz := range sizes {
			pt, nonce, aad := randBytes(r, sz), randBytes(r, 12), randBytes(r, r.Intn(600))
			want[i], plain[i], nonces[i] = a.Seal(nil, nonce, pt, aad), pt, nonce
			buf := make([]byte, sz+16)
			switch i % 3 {
			case 0:
				copy(buf, pt)
				recs[i] = Record{Dst: buf[:0], Nonce: nonce, Input: buf[:sz], AdditionalData: aad}
			case 1:
				copy(buf, nonce)
				recs[i] = Record{Dst: buf[:0], Nonce: buf[:12], Input: pt, AdditionalData: aad}
			default:
				recs[i] = Record{Dst: buf[:0], Nonce: nonce, Input: pt, AdditionalData: aad}
			}
		}
		if got := b.Seal(a, recs); got != n {
			t.Fatalf("%d records: %d seals succeeded", n, got)
		}
		for i := range recs {
			if !bytes.Equal(recs[i].Out, want[i]) {
				t.Fatalf("%d records: record %d (%d B) differs from Seal", n, i, sizes[i])
			}
			if i%3 == 0 { // open it back in place
				recs[i].Input, recs[i].Dst = recs[i].Out, recs[i].Out[:0]
			} else {
				recs[i].Input, recs[i].Dst = recs[i].Out, nil
			}
			recs[i].Nonce = nonces[i] // (the one in the output region was overwritten)
		}
		if got := b.Open(a, recs); got != n {
			t.Fatalf("%d records: %d opens succeeded", n, got)
		}
		for i := range recs {
			if recs[i].Err != nil || !bytes.Equal(recs[i].Out, plain[i]) {
				t.Fatalf("record %d: open: %v", i, recs[i].Err)
			}
		}

		// Random nonce: in place (even i) and apart; crypto/cipher opens each; opened back in place.
		std := stdRandomGCM(t, key)
		pts := make([][]byte, n)
		for i, sz := range sizes {
			pts[i] = randBytes(r, sz)
			buf := make([]byte, sz, sz+28)
			copy(buf, pts[i])
			recs[i] = Record{Dst: buf[:0], Input: buf}
			if i%2 == 1 {
				recs[i] = Record{Input: pts[i]}
			}
		}
		if got := b.Seal(g, recs); got != n {
			t.Fatalf("%d random-nonce seals succeeded of %d", got, n)
		}
		for i := range recs {
			if got, err := std.Open(nil, nil, recs[i].Out, nil); err != nil || !bytes.Equal(got, pts[i]) {
				t.Fatalf("random-nonce record %d (%d B): crypto/cipher: %v", i, sizes[i], err)
			}
			recs[i] = Record{Dst: recs[i].Out[:0], Input: recs[i].Out}
		}
		if got := b.Open(g, recs); got != n {
			t.Fatalf("%d random-nonce opens succeeded of %d", got, n)
		}
		for i := range recs {
			if !bytes.Equal(recs[i].Out, pts[i]) || &recs[i].Out[:1][0] != &recs[i].Input[:1][0] {
				t.Fatalf("random-nonce record %d: opened in place wrong", i)
			}
		}

		// TLS 1.3 across call boundaries.
		iv := randBytes(r, 12)
		tls, _ := NewGCMForTLS13WithIV(key, iv)
		hdr := []byte{23, 3, 3, 0, 0}
		seq, ok := uint64(0), 0
		seqs := make([]uint64, n)
		for i, sz := range sizes {
			if i%7 == 6 {
				seqs[i] = seq - 1 // a repeat
			} else {
				seqs[i], seq, ok = seq, seq+1, ok+1
			}
			recs[i] = Record{Nonce: tlsNonce(iv, seqs[i], true), Input: randBytes(r, sz), AdditionalData: hdr}
		}
		if got := b.Seal(tls, recs); got != ok {
			t.Fatalf("%d TLS seals succeeded, want %d", got, ok)
		}
		for i := range recs {
			if i%7 == 6 {
				if !isCode(recs[i].Err, codeNonceOrder) {
					t.Fatalf("TLS record %d (repeat of %d): %v", i, seqs[i], recs[i].Err)
				}
			} else if recs[i].Err != nil || !bytes.Equal(recs[i].Out, a.Seal(nil, recs[i].Nonce, recs[i].Input, hdr)) {
				t.Fatalf("TLS record %d (seq %d): %v", i, seqs[i], recs[i].Err)
			}
		}
		tls.Seal(nil, tlsNonce(iv, seq, true), nil, hdr) // the next sequence is still free
	}
}
