// dtls13-record-layer: a pion/dtls DTLS 1.2 handshake (a suite unmodified pion has) on one UDP path,
// then application data as DTLS 1.3 records (RFC 9147: unified header, 16-bit sequence number,
// length field, record-number encryption) protected by libaead's Go binding
// (aead.DTLS13RecordProtector) on a second UDP flow, keyed from the handshake by RFC 5705's exporter.
// Nothing below this record layer deduplicates: libaead's replay window is the only one.
//
//	dtls13-record-layer --listen 4444 --records 4445 --cert cert.pem --key key.pem
//	dtls13-record-layer --connect 127.0.0.1:4444 --records 127.0.0.1:4445 --bytes 1048576
//
// The client sends --bytes bytes in numbered chunks, one record at a time (stop-and-wait: nothing
// retransmits, so a chunk not echoed within --resend goes again, as a new record with a new
// sequence number); the server delivers each chunk once and echoes every copy it opens. At exit
// each side prints what it moved, then the records its receiving key opened, the replays and
// forgeries it refused, and the records it sealed.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"net"
	"time"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/pion-libaead/examples/internal/demo"
	"github.com/pion/dtls/v3"
)

const (
	exporterLabel = "EXPORTER-libaead-dtls13-records"
	epoch         = 3 // the first application-data epoch of DTLS 1.3 (RFC 9147 section 6.1)
	typeAppData   = 23
	typeAlert     = 21 // a close_notify ends the transfer
	handshakeID   = dtls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
)

var suites = map[string]uint16{
	"TLS_AES_128_GCM_SHA256":       tls.TLS_AES_128_GCM_SHA256,
	"TLS_AES_256_GCM_SHA384":       tls.TLS_AES_256_GCM_SHA384,
	"TLS_CHACHA20_POLY1305_SHA256": tls.TLS_CHACHA20_POLY1305_SHA256,
	"TLS_AES_128_CCM_SHA256":       aead.DTLS13AES128CCMSHA256,
}

// layer is one side's record layer: the sealing key of its direction, the opening key of the
// peer's, and the socket of the record flow.
type layer struct {
	tx, rx *aead.DTLS13RecordProtector
	conn   *net.UDPConn
	peer   *net.UDPAddr // the server answers the address of the last record that opened
	seq    uint64
	buf    []byte // the record being sent
	in     []byte // the datagram being received
}

// keys derives both directions' DTLS 1.3 keys from the handshake: key, iv, sn_key of the client's
// direction, then of the server's, from one exporter output (RFC 5705, no context).
func keys(st *dtls.State, suiteName string, isClient bool) (tx, rx *aead.DTLS13RecordProtector, err error) {
	suite, ok := suites[suiteName]
	if !ok {
		return nil, nil, fmt.Errorf("unknown record suite %q", suiteName)
	}
	n := 16
	if suite == tls.TLS_AES_256_GCM_SHA384 || suite == tls.TLS_CHACHA20_POLY1305_SHA256 {
		n = 32
	}
	km, err := st.ExportKeyingMaterial(exporterLabel, nil, 2*(2*n+12))
	if err != nil {
		return nil, nil, err
	}
	dir := func(b []byte) (*aead.DTLS13RecordProtector, error) {
		return aead.NewDTLS13RecordProtector(suite, b[:n], b[n:n+12], b[n+12:2*n+12], epoch, aead.DTLSOptions{})
	}
	client, err := dir(km[:2*n+12])
	if err != nil {
		return nil, nil, err
	}
	server, err := dir(km[2*n+12:])
	if err != nil {
		return nil, nil, err
	}
	if isClient {
		return client, server, nil
	}
	return server, client, nil
}

// handshake completes the DTLS 1.2 handshake (20 s at most) and derives the record keys from it.
func handshake(who string, c *dtls.Conn, suite string) (tx, rx *aead.DTLS13RecordProtector) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.HandshakeContext(ctx); err != nil {
		demo.Fail("%s: handshake: %v", who, err)
	}
	st, _ := c.ConnectionState()
	tx, rx, err := keys(&st, suite, who == "client")
	if err != nil {
		demo.Fail("%s: keys: %v", who, err)
	}
	return tx, rx
}

// send protects one record (a 16-bit sequence number and the length field) and sends it.
func (l *layer) send(content []byte, ctype byte) {
	rec := l.tx.AppendHeader(l.buf[:0], nil, true, true)
	hl := len(rec)
	rec = append(append(rec, content...), ctype)
	l.seq++
	rec, err := l.tx.Protect(rec, hl, l.seq)
	if err != nil {
		demo.Fail("protect: %v", err)
	}
	if l.peer != nil {
		_, err = l.conn.WriteToUDP(rec, l.peer)
	} else {
		_, err = l.conn.Write(rec)
	}
	if err != nil {
		demo.Fail("send: %v", err)
	}
}

// recv returns the next record that opens (its content type and content), skipping the ones
// libaead refuses (replays, forgeries: its counters keep them); ok is false after wait in silence.
func (l *layer) recv(wait time.Duration) (ctype byte, content []byte, ok bool) {
	for {
		_ = l.conn.SetReadDeadline(time.Now().Add(wait))
		n, from, err := l.conn.ReadFromUDP(l.in)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return 0, nil, false
		} else if err != nil {
			demo.Fail("receive: %v", err)
		}
		inner, _, err := l.rx.Unprotect(l.in[:n], 0)
		if err != nil {
			continue // refused: RFC 9147 says to drop it silently
		}
		if l.conn.RemoteAddr() == nil {
			l.peer = from // the server's reply address: moved only by a record that authenticated
		}
		inner = bytes.TrimRight(inner, "\x00") // padding
		if len(inner) == 0 {
			continue
		}
		return inner[len(inner)-1], inner[:len(inner)-1], true
	}
}

func (l *layer) report(who, suite string) {
	u, s := l.rx.Usage(), l.tx.Usage()
	demo.Counts(who, "libaead DTLS 1.3 records", suite, u.Accepted, u.Replays, u.Forgeries, s.Seals)
}

func main() {
	listen := flag.Int("listen", 0, "server: the handshake's UDP port on 127.0.0.1")
	connect := flag.String("connect", "", "client: the server's handshake HOST:PORT")
	records := flag.String("records", "", "the record flow: server: its UDP PORT on 127.0.0.1; client: HOST:PORT to send records to (e.g. a proxy)")
	certFile := flag.String("cert", "", "server: PEM certificate (ECDSA)")
	keyFile := flag.String("key", "", "server: PEM private key")
	total := flag.Int("bytes", 1<<20, "client: bytes to send and expect back")
	size := flag.Int("chunk", 1000, "client: bytes per record")
	resend := flag.Duration("resend", 100*time.Millisecond, "client: send a chunk again (a new record) when its echo is this late")
	linger := flag.Duration("linger", 300*time.Millisecond, "after the close: read until silent this long (copies still in flight are counted)")
	suite := flag.String("suite", "TLS_AES_128_GCM_SHA256", "the records' DTLS 1.3 suite (TLS_AES_128_GCM_SHA256, _AES_256_GCM_SHA384, _CHACHA20_POLY1305_SHA256, _AES_128_CCM_SHA256)")
	flag.Parse()
	switch {
	case *listen != 0 && *records != "":
		server(*listen, *records, *certFile, *keyFile, *suite, *linger)
	case *connect != "" && *records != "":
		client(*connect, *records, *suite, *total, *size, *resend, *linger)
	default:
		demo.Fail("usage: --listen PORT --records PORT --cert C --key K | --connect HOST:PORT --records HOST:PORT [--bytes N]")
	}
}

func server(port int, records, certFile, keyFile, suite string, linger time.Duration) {
	raddr, err := net.ResolveUDPAddr("udp", "127.0.0.1:"+records)
	if err != nil {
		demo.Fail("server: %v", err)
	}
	rc, err := net.ListenUDP("udp", raddr)
	if err != nil {
		demo.Fail("server: records: %v", err)
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		demo.Fail("server: %v", err)
	}
	cfg := &dtls.Config{Certificates: []tls.Certificate{cert}, CipherSuites: []dtls.CipherSuiteID{handshakeID}}
	ln, err := dtls.Listen("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}, cfg)
	if err != nil {
		demo.Fail("server: %v", err)
	}
	defer ln.Close()
	c, err := ln.Accept()
	if err != nil {
		demo.Fail("server: accept: %v", err)
	}
	dc := c.(*dtls.Conn)
	defer dc.Close()
	tx, rx := handshake("server", dc, suite)
	l := &layer{tx: tx, rx: rx, conn: rc, buf: make([]byte, 0, 1<<16), in: make([]byte, 1<<16)}
	delivered, again, next := 0, 0, uint64(0)
	h := sha256.New()
	closed := false
	for {
		wait := 60 * time.Second
		if closed {
			wait = linger
		}
		ctype, content, ok := l.recv(wait)
		if !ok {
			if !closed {
				demo.Fail("server: no record for %v", wait)
			}
			break
		}
		switch {
		case ctype == typeAlert:
			closed = true
			l.send(content, typeAlert) // the close acknowledged (again for every copy that opens)
		case ctype == typeAppData && len(content) >= 8:
			i := binary.BigEndian.Uint64(content)
			switch {
			case i == next: // delivered exactly once, in order
				h.Write(content)
				delivered += len(content)
				next++
			case i < next:
				again++ // the client sent it again (its echo was late or forged): echoed, not delivered
			default:
				demo.Fail("server: chunk %d before chunk %d", i, next)
			}
			l.send(content, typeAppData)
		}
	}
	fmt.Printf("server: %d bytes delivered in %d chunks (sha256 %x), %d chunks received again\n",
		delivered, next, h.Sum(nil)[:8], again)
	l.report("server", suite)
}

func client(connect, records, suite string, total, size int, resend, linger time.Duration) {
	raddr, err := net.ResolveUDPAddr("udp", connect)
	if err != nil {
		demo.Fail("client: %v", err)
	}
	cfg := &dtls.Config{InsecureSkipVerify: true, CipherSuites: []dtls.CipherSuiteID{handshakeID}} // the test's self-signed certificate
	c, err := dtls.Dial("udp", raddr, cfg)
	if err != nil {
		demo.Fail("client: %v", err)
	}
	defer c.Close()
	tx, rx := handshake("client", c, suite)
	rraddr, err := net.ResolveUDPAddr("udp", records)
	if err != nil {
		demo.Fail("client: %v", err)
	}
	rc, err := net.DialUDP("udp", nil, rraddr)
	if err != nil {
		demo.Fail("client: records: %v", err)
	}
	l := &layer{tx: tx, rx: rx, conn: rc, buf: make([]byte, 0, 1<<16), in: make([]byte, 1<<16)}
	echoed, chunks, resent := 0, 0, 0
	h := sha256.New()
	// exchange sends content until a record of ctype comes back for which done says yes.
	exchange := func(content []byte, ctype byte, done func([]byte) bool) {
		for tries := 0; ; tries++ {
			if tries > 50 {
				demo.Fail("client: no echo after %d tries", tries)
			} else if tries > 0 {
				resent++
			}
			l.send(content, ctype)
			deadline := time.Now().Add(resend)
			for time.Until(deadline) > 0 {
				t, got, ok := l.recv(time.Until(deadline))
				if !ok {
					break
				}
				if t == ctype && done(got) {
					return
				}
			}
		}
	}
	for i, off := 0, 0; off < total; i, off = i+1, off+size {
		want := demo.Chunk(i, min(size, total-off))
		h.Write(want)
		chunks++
		exchange(want, typeAppData, func(got []byte) bool {
			if bytes.Equal(got, want) {
				echoed += len(got)
				return true
			}
			// an earlier chunk's echo, late: it was counted when its first copy came back
			if len(got) < 8 || binary.BigEndian.Uint64(got) >= uint64(i) { //nolint:gosec
				demo.Fail("client: chunk %d came back wrong", i)
			}
			return false
		})
	}
	exchange([]byte{1, 0}, typeAlert, func([]byte) bool { return true }) // close_notify, acknowledged
	for {                                                                // copies still in flight toward the client are counted before the report
		if _, _, ok := l.recv(linger); !ok {
			break
		}
	}
	fmt.Printf("client: %d bytes in %d chunks (sha256 %x): %d echoed byte for byte, 0 chunks lost, %d chunks resent\n",
		total, chunks, h.Sum(nil)[:8], echoed, resent)
	l.report("client", suite)
}
