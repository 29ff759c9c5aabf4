package aead

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"math/rand"
	"sync/atomic"
	"testing"

	"github.com/libaead/libaead/bindings/go/internal/quictest"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// quicKeys is one direction's keys of RFC 9001 Appendix A.
type quicKeys struct {
	suite       uint16
	key, iv, hp []byte
}

var (
	// A.1: the Initial keys for DCID 0x8394c8f03e515708 (client, then server); A.5's 1-RTT keys.
	quicClientInitial = quicKeys{tls.TLS_AES_128_GCM_SHA256, mustHex("1f369613dd76d5467730efcbe3b1a22d"),
		mustHex("fa044b2f42a3fd3b46fb255c"), mustHex("9f50449e04a0e810283a1e9933adedd2")}
	quicServerInitial = quicKeys{tls.TLS_AES_128_GCM_SHA256, mustHex("cf3a5331653c364c88f0f379b6067e37"),
		mustHex("0ac1493ca1905853b0bba03e"), mustHex("c206b8d9b9f0f37644430b490eeaa314")}
	quicChaCha = quicKeys{tls.TLS_CHACHA20_POLY1305_SHA256,
		mustHex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8"),
		mustHex("e0459b3474bdd0e44a41c144"),
		mustHex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")}
)

type quicVector struct {
	name            string
	keys            quicKeys
	header, payload []byte // header unprotected, its packet-number field included
	pn              uint64
	expected        []byte
}

func quicVectors() []quicVector {
	hello := make([]byte, 1162)
	copy(hello, mustHex(quicClientHelloFrame))
	return []quicVector{
		{"A.2 client Initial", quicClientInitial, mustHex("c300000001088394c8f03e5157080000449e00000002"), hello, 2,
			mustHex(quicClientInitialProtected)},
		{"A.3 server Initial", quicServerInitial, mustHex("c1000000010008f067a5502a4262b50040750001"),
			mustHex("02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf73988cfc79825df566dc543" +
				"0b9a045a1200130100002e00330024001d00209d3c940d89690b84d08a60993c144eca684d1081287c834d" +
				"5311bcf32bb9da1a002b00020304"), 1,
			mustHex("cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a5816b6394100f37a1c697975" +
				"54780bb38cc5a99f5ede4cf73c3ec2493a1839b3dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded" +
				"74b562bfb19fb84022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc42158407dd0" +
				"74ee")},
		{"A.5 ChaCha20-Poly1305 short header", quicChaCha, mustHex("4200bff4"), mustHex("01"), 654360564,
			mustHex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb")},
	}
}

func (k quicKeys) protector(t testing.TB) *QUICPacketProtector {
	t.Helper()
	p, err := NewQUICPacketProtector(k.suite, k.key, k.iv, k.hp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// twoCallProtect protects a packet as a QUIC stack does with two primitives: an AEAD's Seal (the
// header as additional data) and a header-protection mask applied by hand.
func twoCallProtect(a cipher.AEAD, mask quictest.MaskFunc, iv, header, payload []byte, pn uint64) []byte {
	pkt := append(append(make([]byte, 0, len(header)+len(payload)+16), header...), payload...)
	return quictest.New(a, mask, iv).Protect(pkt, len(header), pn)
}

// twoCallUnprotect is twoCallProtect's inverse on a copy of packet (RFC 9000 A.3 decoding against
// largest); it returns the unprotected header and the payload.
func twoCallUnprotect(a cipher.AEAD, mask quictest.MaskFunc, iv, packet []byte, pnOffset int, largest uint64) (hdr, payload []byte, pn uint64, err error) {
	pkt := append([]byte{}, packet...)
	payload, pn, err = quictest.New(a, mask, iv).Unprotect(pkt, pnOffset, largest)
	return pkt[:len(pkt)-len(payload)-16], payload, pn, err
}

func stdAESMask(t testing.TB, key []byte) quictest.MaskFunc {
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	return func(sample []byte) (m [5]byte) {
		var out [16]byte
		blk.Encrypt(out[:], sample)
		copy(m[:], out[:])
		return m
	}
}

// TestQUICRFC9001Vectors: A.2, A.3 and A.5 byte for byte, protected and unprotected through the
// one-call path (QUICPacketProtector) and the two-call path (NewGCMForQUIC / ForQUIC AEAD +
// HeaderProtection.Mask), with A.2's sample and mask checked alone.
func TestQUICRFC9001Vectors(t *testing.T) {
	hp, err := NewHeaderProtection(tls.TLS_AES_128_GCM_SHA256, quicClientInitial.hp)
	if err != nil {
		t.Fatal(err)
	}
	if m := hp.Mask(mustHex("d1b1c98dd7689fb8ec11d242b123dc9b")); hex.EncodeToString(m[:]) != "437b9aec36" {
		t.Fatalf("A.2 mask %x, want 437b9aec36", m)
	}
	for _, v := range quicVectors() {
		t.Run(v.name, func(t *testing.T) {
			p := v.keys.protector(t)
			pkt := make([]byte, 0, len(v.header)+len(v.payload)+16)
			pkt = append(append(pkt, v.header...), v.payload...)
			out, err := p.Protect(pkt, len(v.header), v.pn)
			if err != nil || !bytes.Equal(out, v.expected) {
				t.Fatalf("Protect: err %v, equal %v", err, bytes.Equal(out, v.expected))
			}
			if &out[0] != &pkt[0] {
				t.Fatal("Protect reallocated although cap sufficed")
			}
			if u := p.Usage(); u.Seals != 1 || u.Forgeries != 0 {
				t.Fatalf("usage %+v", u)
			}

			// Two calls, sender and receiver, with their own contexts.
			var a cipher.AEAD
			if v.keys.suite == tls.TLS_CHACHA20_POLY1305_SHA256 {
				a, err = NewChaCha20Poly1305ForQUIC(v.keys.key, v.keys.iv)
			} else {
				a, err = NewGCMForQUIC(v.keys.key, v.keys.iv)
			}
			if err != nil {
				t.Fatal(err)
			}
			h, err := NewHeaderProtection(v.keys.suite, v.keys.hp)
			if err != nil {
				t.Fatal(err)
			}
			if got := twoCallProtect(a, h.Mask, v.keys.iv, v.header, v.payload, v.pn); !bytes.Equal(got, v.expected) {
				t.Fatal("two-call protect differs from the RFC")
			}
			pnOff := len(v.header) - (int(v.header[0]&3) + 1)
			hdr, payload, pn, err := twoCallUnprotect(a, h.Mask, v.keys.iv, v.expected, pnOff, v.pn-1)
			if err != nil || pn != v.pn || !bytes.Equal(hdr, v.header) || !bytes.Equal(payload, v.payload) {
				t.Fatalf("two-call unprotect: err %v pn %d", err, pn)
			}

			// One call, receiver: a fresh protector of the same keys.
			r := v.keys.protector(t)
			in := append([]byte{}, v.expected...)
			payload, pn, err = r.Unprotect(in, pnOff, v.pn-1)
			if err != nil || pn != v.pn || !bytes.Equal(payload, v.payload) || !bytes.Equal(in[:len(v.header)], v.header) {
				t.Fatalf("Unprotect: err %v pn %d", err, pn)
			}
			if len(v.payload) > 0 && &payload[0] != &in[len(v.header)] {
				t.Fatal("Unprotect's payload is not in the packet")
			}
		})
	}
}

// TestQUICDifferentialAES: random packets (long and short headers, packet-number lengths 1-4,
// payloads 0-1400 bytes, increasing packet numbers with gaps), AES-128/256-GCM: the one call, the
// two calls on libaead and the two calls on crypto/aes + crypto/cipher are byte-identical, and
// both receivers (one-call, and the pure-Go two calls) recover header, payload and packet number.
// (ChaCha20-Poly1305 against x/crypto: the bench module's TestQUICDifferentialChaCha20.)
func TestQUICDifferentialAES(t *testing.T) {
	r := rand.New(rand.NewSource(9001))
	for _, suite := range []uint16{tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384} {
		t.Run(tls.CipherSuiteName(suite), func(t *testing.T) {
			n := 16
			if suite == tls.TLS_AES_256_GCM_SHA384 {
				n = 32
			}
			k := quicKeys{suite, randBytes(r, n), randBytes(r, 12), randBytes(r, n)}
			send, recv := k.protector(t), k.protector(t)
			a, _ := NewGCMForQUIC(k.key, k.iv)
			h, _ := NewHeaderProtection(suite, k.hp)
			blk, _ := aes.NewCipher(k.key)
			std, _ := cipher.NewGCM(blk)
			stdMask := stdAESMask(t, k.hp)
			pn, largest := uint64(r.Intn(100)), QUICNoPacketNumber // decodable: pn - largest < 2^7
			for i := 0; i < 300; i++ {
				pnLen := 1 + r.Intn(4)
				header := quictest.RandomHeader(r, pnLen)
				payload := randBytes(r, r.Intn(1401))
				if pnLen+len(payload) < 4 {
					payload = randBytes(r, 4)
				}
				want := twoCallProtect(std, stdMask, k.iv, header, payload, pn)
				if got := twoCallProtect(a, h.Mask, k.iv, header, payload, pn); !bytes.Equal(got, want) {
					t.Fatalf("packet %d: two calls on libaead differ from crypto/cipher", i)
				}
				pkt := append(append(make([]byte, 0, len(header)+len(payload)+16), header...), payload...)
				got, err := send.Protect(pkt, len(header), pn)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("packet %d: one call differs (err %v)", i, err)
				}
				pnOff := len(header) - pnLen
				hdr, pt, gotPN, err := twoCallUnprotect(std, stdMask, k.iv, want, pnOff, largest)
				if err != nil || gotPN != pn || !bytes.Equal(hdr[:pnOff], header[:pnOff]) || !bytes.Equal(pt, payload) {
					t.Fatalf("packet %d: crypto/cipher cannot unprotect it (err %v)", i, err)
				}
				pt, gotPN, err = recv.Unprotect(got, pnOff, largest)
				if err != nil || gotPN != pn || !bytes.Equal(pt, payload) || !bytes.Equal(got[:pnOff], header[:pnOff]) {
					t.Fatalf("packet %d: Unprotect: err %v pn %d want %d", i, err, gotPN, pn)
				}
				largest = pn
				pn += 1 + uint64(r.Intn(3))
				if r.Intn(10) == 0 {
					pn += uint64(r.Intn(100))
				}
			}
		})
	}
}

// TestQUICSealRules: the Go FIPS module's NewGCMForQUIC rules (libaead's bound: 2^62), with its
// panic messages: prefix, strictly increasing (gaps allowed, equal refused), the 2^62 bound; a
// refused nonce consumes nothing; Open checks no order; forgeries are counted.
func TestQUICSealRules(t *testing.T) {
	r := rand.New(rand.NewSource(62))
	for _, c := range []struct {
		name string
		new  func(key, iv []byte) (cipher.AEAD, error)
		key  int
		msg  *messages
	}{
		{"NewGCMForQUIC/AES-128", NewGCMForQUIC, 16, &gcmMessages},
		{"NewGCMForQUIC/AES-256", NewGCMForQUIC, 32, &gcmMessages},
		{"NewChaCha20Poly1305ForQUIC", NewChaCha20Poly1305ForQUIC, 32, &chachaMessages},
	} {
		t.Run(c.name, func(t *testing.T) {
			key, iv := randBytes(r, c.key), randBytes(r, 12)
			a, err := c.new(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			hdr := randBytes(r, 29) // any additional-data length
			seal := func(n []byte) (ct []byte, msg string) {
				msg = catchPanic(func() { ct = a.Seal(nil, n, []byte("frames"), hdr) })
				return
			}
			badPrefix := xorNonceT(iv, 5)
			badPrefix[2] ^= 1
			cts := map[uint64][]byte{}
			for _, s := range []struct {
				nonce []byte
				pn    uint64
				want  string
			}{
				{badPrefix, 5, c.msg.tlsPrefix},
				{xorNonceT(iv, 5), 5, ""},
				{xorNonceT(iv, 5), 5, c.msg.tlsOrder},
				{xorNonceT(iv, 4), 4, c.msg.tlsOrder},
				{xorNonceT(iv, 9), 9, ""}, // a gap
				{xorNonceT(iv, 1<<62), 1 << 62, c.msg.tlsExhausted},
				{xorNonceT(iv, 1<<64-1), 1<<64 - 1, c.msg.tlsExhausted},
				{xorNonceT(iv, 10), 10, ""}, // the refusals consumed nothing
				{xorNonceT(iv, QUICMaxPacketNumber), QUICMaxPacketNumber, ""},
				{xorNonceT(iv, QUICMaxPacketNumber), QUICMaxPacketNumber, c.msg.tlsOrder},
			} {
				ct, msg := seal(s.nonce)
				if msg != s.want {
					t.Fatalf("pn %d: panic %q, want %q", s.pn, msg, s.want)
				}
				if msg == "" {
					cts[s.pn] = ct
				}
			}
			if u, ok := UsageOf(a); !ok || u.Seals != 4 || u.Forgeries != 0 {
				t.Fatalf("usage %+v %v, want 4 seals", u, ok)
			}
			// Open: any order, repeats allowed.
			for _, pn := range []uint64{QUICMaxPacketNumber, 5, 10, 5, 9} {
				pt, err := a.Open(nil, xorNonceT(iv, pn), cts[pn], hdr)
				if err != nil || string(pt) != "frames" {
					t.Fatalf("Open pn %d: %v", pn, err)
				}
			}
			for i := 0; i < 3; i++ {
				if _, err := a.Open(nil, xorNonceT(iv, 5), flip(cts[5], i), hdr); !errors.Is(err, ErrOpen) {
					t.Fatalf("forgery: %v", err)
				}
			}
			if u, _ := UsageOf(a); u.Seals != 4 || u.Forgeries != 3 {
				t.Fatalf("usage %+v, want 4 seals, 3 forgeries", u)
			}
		})
	}
}

// TestQUICProtectRefusals: Protect's packet-number refusals (ErrPacketNumber) leave the packet as
// it was and consume nothing; misuse panics; a failed Unprotect restores the header, zeroes the
// payload and counts a forgery; a short packet is ErrOpen; Protect grows a packet without room.
func TestQUICProtectRefusals(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	k := quicKeys{tls.TLS_AES_128_GCM_SHA256, randBytes(r, 16), randBytes(r, 12), randBytes(r, 16)}
	p, recv := k.protector(t), k.protector(t)
	header := quictest.RandomHeader(r, 2)
	payload := randBytes(r, 100)
	packet := func() []byte {
		return append(append(make([]byte, 0, len(header)+len(payload)+16), header...), payload...)
	}
	if _, err := p.Protect(packet(), len(header), 100); err != nil {
		t.Fatal(err)
	}
	for _, pn := range []uint64{100, 99, 1 << 62, 1<<64 - 1} {
		pkt := packet()
		got, err := p.Protect(pkt, len(header), pn)
		if !errors.Is(err, ErrPacketNumber) || errors.Is(err, ErrKeyLimit) || !bytes.Equal(got, packet()) {
			t.Fatalf("pn %d: err %v, packet changed %v", pn, err, !bytes.Equal(got, packet()))
		}
	}
	if u := p.Usage(); u.Seals != 1 {
		t.Fatalf("refusals counted: %+v", u)
	}
	// Without room for the tag: a new slice, same bytes.
	small := append([]byte{}, packet()...)
	small = small[:len(small):len(small)]
	got, err := p.Protect(small, len(header), 101)
	if err != nil || len(got) != len(small)+16 || &got[0] == &small[0] {
		t.Fatalf("Protect without capacity: err %v", err)
	}
	pnOff := len(header) - 2
	if _, pn, err := recv.Unprotect(append([]byte{}, got...), pnOff, 100); err != nil || pn != 101 {
		t.Fatalf("Unprotect of the grown packet: %v %d", err, pn)
	}

	for name, f := range map[string]func(){
		"header length 0":        func() { p.Protect(packet(), 0, 200) },
		"header past the packet": func() { p.Protect(packet(), len(packet())+1, 200) },
		"header below pn length": func() { p.Protect([]byte{0x43, 0, 0, 0, 1, 2, 3}, 3, 200) },
		"no room for a sample":   func() { p.Protect([]byte{0x40, 0, 1, 2}, 2, 200) },
		"pn offset 0":            func() { recv.Unprotect(got, 0, 0) },
		"pn offset past the end": func() { recv.Unprotect(got, len(got)+1, 0) },
		"sample of 15 bytes":     func() { p.HeaderProtection().Mask(make([]byte, 15)) },
	} {
		if catchPanic(f) == "" {
			t.Errorf("%s: no panic", name)
		}
	}
	if u := p.Usage(); u.Seals != 2 {
		t.Fatalf("panicking calls counted: %+v", u)
	}

	// A forged packet: ErrOpen, the header as it arrived, the payload zeroed, a forgery counted.
	sent, err := p.Protect(packet(), len(header), 300)
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range []int{len(header) + 30, len(sent) - 1} { // outside the sample
		forged := flip(sent, at)
		before := append([]byte{}, forged...)
		pt, pn, err := recv.Unprotect(forged, pnOff, 299)
		if pt != nil || pn != 0 || !errors.Is(err, ErrOpen) {
			t.Fatalf("forgery %d: %v", i, err)
		}
		if !bytes.Equal(forged[:len(header)], before[:len(header)]) {
			t.Fatalf("forgery %d: header not restored", i)
		}
		if !bytes.Equal(forged[len(header):len(forged)-16], make([]byte, len(payload))) {
			t.Fatalf("forgery %d: payload not zeroed", i)
		}
		if u := recv.Usage(); u.Forgeries != uint64(i+1) {
			t.Fatalf("forgery %d: usage %+v", i, u)
		}
	}
	if _, _, err := recv.Unprotect(sent[:pnOff+19], pnOff, 299); !errors.Is(err, ErrOpen) {
		t.Fatalf("short packet: %v", err)
	}
	// Unprotect in any order, twice.
	for _, s := range []struct {
		pkt []byte
		pn  uint64
	}{{sent, 300}, {got, 101}} {
		pt, pn, err := recv.Unprotect(append([]byte{}, s.pkt...), pnOff, 300)
		if err != nil || pn != s.pn || len(pt) != len(payload) {
			t.Fatalf("pn %d: %v %d", s.pn, err, pn)
		}
	}
}

// TestQUICKeyLimitError: AEAD_ERR_KEY_LIMIT matches ErrKeyLimit for every operation (an Open's
// also ErrOpen), and a Seal panics with it. (The limits themselves are tested in C with the fault
// build's counters: 2^23 seals take too long here.)
func TestQUICKeyLimitError(t *testing.T) {
	for _, op := range []string{"seal", "open", "protect"} {
		err := error(&Error{Op: op, Code: codeKeyLimit})
		if !errors.Is(err, ErrKeyLimit) || errors.Is(err, ErrPacketNumber) || errors.Is(err, ErrOpen) != (op == "open") {
			t.Errorf("%s: %v", op, err)
		}
	}
	if err := openError(codeKeyLimit); !errors.Is(err, ErrKeyLimit) || !errors.Is(err, ErrOpen) {
		t.Errorf("open: %v", err)
	}
	a, _ := NewGCMForQUIC(make([]byte, 16), make([]byte, 12))
	var got any
	func() {
		defer func() { got = recover() }()
		a.(*aeadImpl).sealFailed(codeKeyLimit)
	}()
	if e, ok := got.(error); !ok || !errors.Is(e, ErrKeyLimit) {
		t.Fatalf("Seal at the limit panics with %v", got)
	}
}

// TestQUICConstructors: key, IV and suite errors; WithKey shares the header protection and counts
// afresh.
func TestQUICConstructors(t *testing.T) {
	iv := make([]byte, 12)
	for name, err := range map[string]error{
		"GCM key 24":     second(NewGCMForQUIC(make([]byte, 24), iv)),
		"GCM iv 8":       second(NewGCMForQUIC(make([]byte, 16), iv[:8])),
		"ChaCha key 16":  second(NewChaCha20Poly1305ForQUIC(make([]byte, 16), iv)),
		"HP AES-256 16":  second(NewHeaderProtection(tls.TLS_AES_256_GCM_SHA384, make([]byte, 16))),
		"HP suite":       second(NewHeaderProtection(0x1304 /* TLS_AES_128_CCM_SHA256 */, make([]byte, 16))),
		"protector key":  second(NewQUICPacketProtector(tls.TLS_AES_128_GCM_SHA256, make([]byte, 32), iv, make([]byte, 16))),
		"protector hp":   second(NewQUICPacketProtector(tls.TLS_AES_128_GCM_SHA256, make([]byte, 16), iv, make([]byte, 32))),
		"protector iv":   second(NewQUICPacketProtector(tls.TLS_CHACHA20_POLY1305_SHA256, make([]byte, 32), iv[:11], make([]byte, 32))),
		"protector TLS1": second(NewQUICPacketProtector(tls.TLS_RSA_WITH_AES_128_GCM_SHA256, make([]byte, 16), iv, make([]byte, 16))),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	p := quicClientInitial.protector(t)
	if _, err := p.WithKey(make([]byte, 32), iv); err == nil {
		t.Error("WithKey with a key of another length: no error")
	}
	v := quicVectors()[0]
	pkt := append(append([]byte{}, v.header...), v.payload...)
	if _, err := p.Protect(pkt, len(v.header), 1000); err != nil {
		t.Fatal(err)
	}
	// The next key of RFC 9001 A.2's sender, here just A.2's own key again: the same packet as the RFC's.
	next, err := p.WithKey(quicClientInitial.key, quicClientInitial.iv)
	if err != nil || next.HeaderProtection() != p.HeaderProtection() {
		t.Fatal(err)
	}
	pkt = append(append([]byte{}, v.header...), v.payload...)
	if out, err := next.Protect(pkt, len(v.header), v.pn); err != nil || !bytes.Equal(out, v.expected) {
		t.Fatalf("after WithKey: %v", err)
	}
	if next.Usage().Seals != 1 || p.Usage().Seals != 1 || next.Overhead() != 16 {
		t.Fatal("usage shared across keys")
	}
	if u, ok := UsageOf(p.AEAD()); !ok || u.Seals != 1 {
		t.Fatal("AEAD() is not the protector's key")
	}
}

// TestUsageEveryAEAD: UsageOf reports every AEAD of the package (seals counted on random-nonce
// AEADs, forgeries on all), which carries no Usage method of its own (TestNoExtraMethods); another
// cipher.AEAD is not ok.
func TestUsageEveryAEAD(t *testing.T) {
	g, _ := NewGCMWithRandomNonce(make([]byte, 16))
	plain, _ := NewGCM(make([]byte, 16))
	ct := g.Seal(nil, nil, []byte("x"), nil)
	g.Open(nil, nil, flip(ct, 0), nil)
	plain.Seal(nil, make([]byte, 12), nil, nil)
	plain.Open(nil, make([]byte, 12), make([]byte, 16), nil)
	for _, c := range []struct {
		a    cipher.AEAD
		want Usage
	}{{g, Usage{1, 1}}, {plain, Usage{0, 1}}} {
		u, ok := UsageOf(c.a)
		if !ok || u != c.want {
			t.Errorf("usage %+v, want %+v", u, c.want)
		}
		if _, has := c.a.(interface{ Usage() Usage }); has {
			t.Errorf("%T has a Usage method beyond cipher.AEAD", c.a)
		}
	}
	blk, _ := aes.NewCipher(make([]byte, 16))
	std, _ := cipher.NewGCM(blk)
	if _, ok := UsageOf(std); ok {
		t.Error("UsageOf(crypto/cipher's GCM) is ok")
	}
}

func second[T any](_ T, err error) error { return err }

// TestQUICConcurrent: 8 goroutines protect on one sender (each packet number taken from a shared
// counter, so they race for the order check) and unprotect on one receiver in any order; every
// packet opens, and the seal count is exact. Run with -race too.
func TestQUICConcurrent(t *testing.T) {
	for _, k := range []quicKeys{quicClientInitial, quicChaCha} {
		t.Run(tls.CipherSuiteName(k.suite), func(t *testing.T) {
			send, recv := k.protector(t), k.protector(t)
			var next, sealed, refused atomic.Uint64
			iters := shortOr(300, 50)
			inGoroutines(t, 8, func(r *rand.Rand) error {
				buf := make([]byte, 0, 1500)
				for i := 0; i < iters; i++ {
					pn := next.Add(1)
					header := quictest.RandomHeader(r, 4)
					payload := randBytes(r, 1+r.Intn(1200))
					pkt := append(append(buf[:0], header...), payload...)
					out, err := send.Protect(pkt, len(header), pn)
					if errors.Is(err, ErrPacketNumber) { // another goroutine sealed a later number first
						refused.Add(1)
						continue
					}
					if err != nil {
						return err
					}
					sealed.Add(1)
					pt, gotPN, err := recv.Unprotect(out, len(header)-4, pn-1)
					if err != nil || gotPN != pn || !bytes.Equal(pt, payload) {
						return errors.New("concurrent Unprotect failed")
					}
					mask := send.HeaderProtection().Mask(out[len(header) : len(header)+16])
					_ = mask
				}
				return nil
			})
			if u := send.Usage(); u.Seals != sealed.Load() || sealed.Load()+refused.Load() != next.Load() {
				t.Fatalf("usage %+v, sealed %d, refused %d, numbers %d", u, sealed.Load(), refused.Load(), next.Load())
			}
			t.Logf("%d sealed, %d refused as out of order", sealed.Load(), refused.Load())
		})
	}
}
