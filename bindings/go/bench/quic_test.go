package bench

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/quictest"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

// QUIC packet protection: the binding's one call per packet (QUICPacketProtector), its
// two calls (the ForQUIC AEAD's Seal/Open + HeaderProtection.Mask, the mask applied in Go), and
// pure Go (crypto/aes + crypto/cipher GCM, AES-ECB of the sample; golang.org/x/crypto chacha20 +
// chacha20poly1305, as quic-go does it).

// quicSide protects and unprotects packets: header (pnOff + pnLen bytes) || payload.
type quicSide interface {
	// Protect seals pkt = header || payload in place (cap(pkt) >= len(pkt)+16) and returns it.
	Protect(pkt []byte, headerLen int, pn uint64) []byte
	// Unprotect opens pkt in place: payload and packet number.
	Unprotect(pkt []byte, pnOff int, largest uint64) ([]byte, uint64, error)
}

type quicKeys struct {
	suite       uint16
	key, iv, hp []byte
}

func newQUICKeys(r *rand.Rand, suite uint16) quicKeys {
	n := 32
	if suite == tls.TLS_AES_128_GCM_SHA256 {
		n = 16
	}
	return quicKeys{suite, randBytes(r, n), randBytes(r, 12), randBytes(r, n)}
}

// oneCall: aead.QUICPacketProtector.
type oneCall struct{ p *aead.QUICPacketProtector }

func (o oneCall) Protect(pkt []byte, headerLen int, pn uint64) []byte {
	out, err := o.p.Protect(pkt, headerLen, pn)
	if err != nil {
		panic(err)
	}
	return out
}

func (o oneCall) Unprotect(pkt []byte, pnOff int, largest uint64) ([]byte, uint64, error) {
	return o.p.Unprotect(pkt, pnOff, largest)
}

// newSide builds one implementation: "onecall", "twocall" (libaead) or "purego".
func newSide(tb testing.TB, impl string, k quicKeys) quicSide {
	tb.Helper()
	chacha := k.suite == tls.TLS_CHACHA20_POLY1305_SHA256
	switch impl {
	case "onecall":
		p, err := aead.NewQUICPacketProtector(k.suite, k.key, k.iv, k.hp)
		if err != nil {
			tb.Fatal(err)
		}
		return oneCall{p}
	case "twocall":
		var a cipher.AEAD
		var err error
		if chacha {
			a, err = aead.NewChaCha20Poly1305ForQUIC(k.key, k.iv)
		} else {
			a, err = aead.NewGCMForQUIC(k.key, k.iv)
		}
		if err != nil {
			tb.Fatal(err)
		}
		hp, err := aead.NewHeaderProtection(k.suite, k.hp)
		if err != nil {
			tb.Fatal(err)
		}
		return quictest.New(a, hp.Mask, k.iv)
	case "purego":
		if chacha {
			a, err := chacha20poly1305.New(k.key)
			if err != nil {
				tb.Fatal(err)
			}
			return quictest.New(a, chachaMask(k.hp), k.iv)
		}
		gcmBlk, err := aes.NewCipher(k.key)
		if err != nil {
			tb.Fatal(err)
		}
		a, _ := cipher.NewGCM(gcmBlk)
		hpBlk, err := aes.NewCipher(k.hp)
		if err != nil {
			tb.Fatal(err)
		}
		out := new([16]byte) // allocated once: a local passed to the cipher.Block interface escapes
		return quictest.New(a, func(sample []byte) (m [5]byte) {
			hpBlk.Encrypt(out[:], sample)
			copy(m[:], out[:5])
			return m
		}, k.iv)
	}
	tb.Fatalf("unknown implementation %q", impl)
	return nil
}

var quicSuites = []uint16{tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384, tls.TLS_CHACHA20_POLY1305_SHA256}

// TestQUICDifferential: random packets for every suite (ChaCha20-Poly1305 included, against
// x/crypto): libaead's one call and two calls protect byte for byte what pure Go does, and every
// implementation unprotects every other's packets; a tampered packet fails everywhere.
func TestQUICDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(18))
	impls := []string{"onecall", "twocall", "purego"}
	for _, suite := range quicSuites {
		t.Run(tls.CipherSuiteName(suite), func(t *testing.T) {
			k := newQUICKeys(r, suite)
			send := map[string]quicSide{}
			recv := map[string]quicSide{}
			for _, im := range impls {
				send[im], recv[im] = newSide(t, im, k), newSide(t, im, k)
			}
			pn, largest := uint64(r.Intn(100)), aead.QUICNoPacketNumber
			for i := 0; i < 200; i++ {
				pnLen := 1 + r.Intn(4)
				header := quictest.RandomHeader(r, pnLen)
				payload := randBytes(r, 4+r.Intn(1400))
				var want []byte
				for _, im := range impls {
					pkt := append(append(make([]byte, 0, len(header)+len(payload)+16), header...), payload...)
					got := send[im].Protect(pkt, len(header), pn)
					if want == nil {
						want = append([]byte{}, got...)
					} else if !bytes.Equal(got, want) {
						t.Fatalf("packet %d: %s differs from onecall", i, im)
					}
				}
				pnOff := len(header) - pnLen
				for _, im := range impls {
					pkt := append([]byte{}, want...)
					pt, gotPN, err := recv[im].Unprotect(pkt, pnOff, largest)
					if err != nil || gotPN != pn || !bytes.Equal(pt, payload) || !bytes.Equal(pkt[:pnOff], header[:pnOff]) {
						t.Fatalf("packet %d: %s unprotect: err %v pn %d want %d", i, im, err, gotPN, pn)
					}
					bad := append([]byte{}, want...)
					bad[len(bad)-1-r.Intn(16)] ^= 0x80 // the tag: the header decodes the same
					if _, _, err := recv[im].Unprotect(bad, pnOff, largest); err == nil {
						t.Fatalf("packet %d: %s accepted a forgery", i, im)
					}
				}
				largest = pn
				pn += 1 + uint64(r.Intn(50))
			}
			for _, im := range []string{"onecall"} {
				u := recv[im].(oneCall).p.Usage()
				if u.Forgeries != 200 {
					t.Fatalf("%s receiver counted %d forgeries, want 200", im, u.Forgeries)
				}
			}
		})
	}
}

// TestQUICChaChaMaskMatchesXCrypto: HeaderProtection.Mask for ChaCha20 against x/crypto's
// chacha20 on random samples (counters from 0 to 2^32-1).
func TestQUICChaChaMaskMatchesXCrypto(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	k := newQUICKeys(r, tls.TLS_CHACHA20_POLY1305_SHA256)
	hp, err := aead.NewHeaderProtection(k.suite, k.hp)
	if err != nil {
		t.Fatal(err)
	}
	ref := newSide(t, "purego", k).(*quictest.TwoCalls)
	for i := 0; i < 500; i++ {
		sample := randBytes(r, 16)
		if i%50 == 0 {
			copy(sample, []byte{0xff, 0xff, 0xff, 0xff})
		}
		if got, want := hp.Mask(sample), ref.Mask(sample); got != want {
			t.Fatalf("sample %x: mask %x, x/crypto %x", sample, got, want)
		}
	}
}

// BenchmarkQUICPacket: ns per packet, protect and unprotect, 64 and 1200 bytes of payload behind a
// 9-byte short header (1 + 4-byte DCID + 4-byte packet number), for each suite and implementation
// (impl=onecall: QUICPacketProtector; twocall: the ForQUIC AEAD + HeaderProtection.Mask; purego:
// crypto/cipher + crypto/aes or x/crypto). Each iteration copies the packet into the buffer first
// (the same for every implementation). `benchstat -col /impl` puts them side by side.
func BenchmarkQUICPacket(b *testing.B) {
	header := []byte{0x43, 1, 2, 3, 4, 0, 0, 0, 0}
	for _, op := range []string{"protect", "unprotect"} {
		for _, suite := range []uint16{tls.TLS_AES_128_GCM_SHA256, tls.TLS_CHACHA20_POLY1305_SHA256} {
			for _, size := range []int{64, 1200} {
				for _, im := range []string{"onecall", "twocall", "purego"} {
					name := fmt.Sprintf("op=%s/suite=%s/size=%d/impl=%s", op, quicSuiteShort(suite), size, im)
					b.Run(name, func(b *testing.B) {
						k := newQUICKeys(rand.New(rand.NewSource(1)), suite)
						side := newSide(b, im, k)
						payload := make([]byte, size)
						buf := make([]byte, 0, len(header)+size+16)
						if op == "protect" {
							b.SetBytes(int64(size))
							b.ReportAllocs()
							pn := uint64(0)
							for i := 0; i < b.N; i++ {
								pkt := append(append(buf[:0], header...), payload...)
								side.Protect(pkt, len(header), pn)
								pn++
							}
							return
						}
						pkt := append(append(buf[:0], header...), payload...)
						sealed := append([]byte{}, newSide(b, "onecall", k).Protect(pkt, len(header), 1000)...)
						work := make([]byte, len(sealed))
						b.SetBytes(int64(size))
						b.ReportAllocs()
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							copy(work, sealed)
							if _, _, err := side.Unprotect(work, 5, 999); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

func quicSuiteShort(s uint16) string {
	switch s {
	case tls.TLS_AES_128_GCM_SHA256:
		return "AES-128-GCM"
	case tls.TLS_AES_256_GCM_SHA384:
		return "AES-256-GCM"
	}
	return "ChaCha20-Poly1305"
}

// chachaMask is RFC 9001's ChaCha20 header-protection mask in pure Go (x/crypto), on a copy of hpKey.
func chachaMask(hpKey []byte) quictest.MaskFunc {
	hpKey = append([]byte{}, hpKey...)
	return func(sample []byte) (m [5]byte) {
		c, err := chacha20.NewUnauthenticatedCipher(hpKey, sample[4:16])
		if err != nil {
			panic(err)
		}
		c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
		c.XORKeyStream(m[:], m[:])
		return m
	}
}
