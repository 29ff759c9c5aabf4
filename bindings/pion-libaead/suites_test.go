package pionaead

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/pion/dtls/v3"
	"github.com/pion/dtls/v3/pkg/crypto/ciphersuite"
	"github.com/pion/dtls/v3/pkg/crypto/prf"
	"github.com/pion/dtls/v3/pkg/crypto/selfsign"
	"github.com/pion/dtls/v3/pkg/protocol"
	"github.com/pion/dtls/v3/pkg/protocol/recordlayer"
)

// recordCipher is what pion's own ciphers (pkg/crypto/ciphersuite) and Suite have in common.
type recordCipher interface {
	Encrypt(pkt *recordlayer.RecordLayer, raw []byte) ([]byte, error)
	Decrypt(h recordlayer.Header, in []byte) ([]byte, error)
}

// pionPeer is pion's own record cipher for the server side of s's keys.
func pionPeer(t testing.TB, s *Suite, master, cr, sr []byte) recordCipher {
	ivLen := 4
	if s.kind == kindChaCha {
		ivLen = 12
	}
	k, err := prf.GenerateEncryptionKeys(master, cr, sr, 0, s.keyLen, ivLen, s.HashFunc())
	if err != nil {
		t.Fatal(err)
	}
	var c recordCipher
	switch s.kind {
	case kindGCM:
		c, err = ciphersuite.NewGCM(k.ServerWriteKey, k.ServerWriteIV, k.ClientWriteKey, k.ClientWriteIV)
	case kindCCM:
		c, err = ciphersuite.NewCCM(ciphersuite.CCMTagLen(s.tag), k.ServerWriteKey, k.ServerWriteIV, k.ClientWriteKey, k.ClientWriteIV)
	default:
		c, err = ciphersuite.NewChaCha20Poly1305(k.ServerWriteKey, k.ServerWriteIV, k.ClientWriteKey, k.ClientWriteIV)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func record(epoch uint16, seq uint64, data []byte) (*recordlayer.RecordLayer, []byte) {
	pkt := &recordlayer.RecordLayer{
		Header:  recordlayer.Header{Version: protocol.Version1_2, Epoch: epoch, SequenceNumber: seq},
		Content: &protocol.ApplicationData{Data: data},
	}
	raw, err := pkt.Marshal()
	if err != nil {
		panic(err)
	}
	return pkt, raw
}

func random(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

// exchange seals data as record (1, seq) with from and opens a copy with to, which must give data
// back (else t fails with "seq <seq>: <failure>: <error>"); it returns the sealed record.
func exchange(t *testing.T, from, to recordCipher, seq uint64, data []byte, failure string) []byte {
	t.Helper()
	pkt, raw := record(1, seq, data)
	sealed, err := from.Encrypt(pkt, raw)
	if err != nil {
		t.Fatal(err)
	}
	got, err := to.Decrypt(recordlayer.Header{}, append([]byte{}, sealed...))
	if err != nil || !bytes.Equal(got[recordlayer.FixedHeaderSize:], data) {
		t.Fatalf("seq %d: %s: %v", seq, failure, err)
	}
	return sealed
}

// TestRecordsAgainstPion: every suite's records, made by libaead (client side), open with pion's
// own cipher (server side), byte for byte the same as pion's, and pion's open with libaead; a
// replayed record and a forged one are refused and counted.
func TestRecordsAgainstPion(t *testing.T) {
	for _, cs := range CipherSuites() {
		s := cs.(*Suite)
		t.Run(s.name, func(t *testing.T) {
			master, cr, sr := random(48), random(32), random(32)
			if err := s.Init(master, cr, sr, true); err != nil {
				t.Fatal(err)
			}
			peer := pionPeer(t, s, master, cr, sr)
			for seq := uint64(1); seq <= 200; seq++ {
				data := random(int(seq * 7 % 1400))
				// pion's client cipher would be the same bytes: pion's server opens them.
				exchange(t, s, peer, seq, data, "pion cannot open libaead's record")
				theirs := exchange(t, peer, s, seq, data, "libaead cannot open pion's record")
				if seq == 100 {
					if _, err := s.Decrypt(recordlayer.Header{}, append([]byte{}, theirs...)); err == nil {
						t.Fatal("replayed record accepted")
					}
					pktB, rawB := record(1, 4000, data)
					bad, _ := peer.Encrypt(pktB, rawB)
					bad[len(bad)-1] ^= 1
					pkt3, raw3 := record(1, 5000, data)
					far, _ := peer.Encrypt(pkt3, raw3)
					far[len(far)-1] ^= 1
					for _, b := range [][]byte{bad, far} {
						if _, err := s.Decrypt(recordlayer.Header{}, b); err == nil {
							t.Fatal("forged record accepted")
						}
					}
				}
			}
			if st := s.Stats(); st != (Stats{Sealed: 200, Opened: 200, Replays: 1, Forgeries: 2}) {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// handshake runs a pion server and client over loopback UDP, echoes n bytes, and returns the
// suite the client negotiated.
func handshake(t *testing.T, serverSuites, clientSuites func() []dtls.CipherSuite, n int) dtls.CipherSuiteID {
	cert, err := selfsign.GenerateSelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(custom func() []dtls.CipherSuite) *dtls.Config {
		c := &dtls.Config{Certificates: []tls.Certificate{cert}, InsecureSkipVerify: true, CustomCipherSuites: custom}
		if custom != nil {
			c.CipherSuites = []dtls.CipherSuiteID{} // only the custom suites
		}
		return c
	}
	ln, err := dtls.Listen("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, cfg(serverSuites))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = io.Copy(c, c)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := dtls.Dial("udp", ln.Addr().(*net.UDPAddr), cfg(clientSuites))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.HandshakeContext(ctx); err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	data := random(n)
	got := make([]byte, 0, n)
	buf := make([]byte, 8192)
	for off := 0; off < n; off += 1000 {
		end := min(off+1000, n)
		if _, err := c.Write(data[off:end]); err != nil {
			t.Fatal(err)
		}
		for len(got) < end {
			k, err := c.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, buf[:k]...)
		}
	}
	if !bytes.Equal(got, data) {
		t.Fatal("echo differs")
	}
	st, ok := c.ConnectionState()
	if !ok {
		t.Fatal("no connection state")
	}
	return st.CipherSuiteID
}

// TestHandshakeAES256CCM: pion with libaead's AES_256_CCM suites on both ends: the handshake's
// Finished messages and 64 KiB of data go through libaead.
func TestHandshakeAES256CCM(t *testing.T) {
	for _, name := range []string{"TLS_ECDHE_ECDSA_WITH_AES_256_CCM", "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8"} {
		t.Run(name, func(t *testing.T) {
			suites, err := ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			before := Totals()
			id := handshake(t, suites, suites, 64<<10)
			after := Totals()
			if id != suites()[0].ID() {
				t.Fatalf("negotiated %v", id)
			}
			// Each side: its Finished and 64 records of data one way, echoed back the other.
			if opened := after.Opened - before.Opened; opened < 2*(1+66) {
				t.Fatalf("libaead opened %d records, want at least %d", opened, 2*(1+66))
			}
			if after.Forgeries != before.Forgeries || after.Replays != before.Replays {
				t.Fatalf("refusals on a clean link: %+v -> %+v", before, after)
			}
		})
	}
}

// TestBuiltinIDsStayPions documents pion v3.1.15's lookup order: a custom suite with an ID pion
// implements (here AES_128_GCM_SHA256) negotiates, but pion's own cipher protects the records.
func TestBuiltinIDsStayPions(t *testing.T) {
	suites, _ := ByName("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
	var mu sync.Mutex
	var made []*Suite
	track := func() []dtls.CipherSuite {
		cs := suites()
		mu.Lock()
		made = append(made, cs[0].(*Suite))
		mu.Unlock()
		return cs
	}
	id := handshake(t, track, track, 4096)
	if id != dtls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 {
		t.Fatalf("negotiated %v", id)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range made {
		if s.IsInitialized() || s.Stats() != (Stats{}) {
			t.Fatalf("libaead protected records of a built-in ID (%+v): pion now prefers custom suites: update the docs", s.Stats())
		}
	}
	t.Logf("%d custom suite instances made by pion, none keyed", len(made))
}
