// quic-go (unmodified, its own crypto/tls packet protection) speaking the interop echo protocol of
// tests/quic-interop/run.py:
//
//	ALPN "libaead-echo"; the client opens one bidirectional stream, writes N bytes (echodata), finishes;
//	the server reads to the end, writes everything back, finishes; the client checks the echo byte for
//	byte and closes the connection with code 0.
//
// Usage:
//
//	quicgo server --listen PORT --cert CERT.pem --key KEY.pem
//	quicgo client --connect HOST:PORT --ca CA.pem [--bytes N]
//
// On success it prints one line "quic-go ROLE ok bytes=N suite=NAME key_updates=K dropped=D" and exits 0:
// K counts the 1-RTT key updates the peer initiated and quic-go followed, D the packets quic-go dropped
// because their payload did not decrypt (both from quic-go's qlog events). Crypto/tls chooses the TLS 1.3
// cipher suite itself: the harness constrains it from the other side. Anything else: a message on stderr
// and a non-zero exit.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
)

const alpn = "libaead-echo"

// echodata is the harness's deterministic payload: SHA-256(uint64 big-endian i) for i = 0, 1, ...,
// concatenated and cut to n bytes (the same in every peer of run.sh).
func echodata(n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	var ctr [8]byte
	for i := uint64(0); len(out) < n; i++ {
		binary.BigEndian.PutUint64(ctr[:], i)
		sum := sha256.Sum256(ctr[:])
		out = append(out, sum[:]...)
	}
	return out[:n]
}

// counter is a qlog trace that only counts the events the harness reports.
type counter struct {
	remoteKeyUpdates atomic.Int64
	decryptDrops     atomic.Int64
}

func (c *counter) AddProducer() qlogwriter.Recorder { return c }
func (c *counter) Close() error                     { return nil }
func (c *counter) RecordEvent(e qlogwriter.Event) {
	switch ev := e.(type) {
	case qlog.KeyUpdated:
		if ev.Trigger == qlog.KeyUpdateRemote && ev.KeyType == qlog.KeyTypeClient1RTT {
			c.remoteKeyUpdates.Add(1)
		}
	case qlog.PacketDropped:
		if ev.Trigger == qlog.PacketDropPayloadDecryptError {
			c.decryptDrops.Add(1)
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "quic-go: "+format+"\n", args...)
	os.Exit(1)
}

func quicConfig(c *counter) *quic.Config {
	return &quic.Config{
		MaxIdleTimeout:       10 * time.Second,
		HandshakeIdleTimeout: 10 * time.Second,
		Tracer: func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
			return c
		},
	}
}

func report(role string, n int, conn *quic.Conn, c *counter) {
	st := conn.ConnectionState().TLS
	fmt.Printf("quic-go %s ok bytes=%d suite=%s key_updates=%d dropped=%d\n", role, n,
		tls.CipherSuiteName(st.CipherSuite), c.remoteKeyUpdates.Load(), c.decryptDrops.Load())
}

func server(args []string) {
	fs := flag.NewFlagSet("server", flag.ExitOnError)
	listen := fs.String("listen", "", "UDP port on 127.0.0.1")
	certFile := fs.String("cert", "", "certificate chain (PEM)")
	keyFile := fs.String("key", "", "private key (PEM)")
	_ = fs.Parse(args)
	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		fail("server: %v", err)
	}
	c := &counter{}
	ln, err := quic.ListenAddr("127.0.0.1:"+*listen, &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{alpn},
		MinVersion:   tls.VersionTLS13,
	}, quicConfig(c))
	if err != nil {
		fail("server: listen: %v", err)
	}
	defer ln.Close()
	fmt.Fprintf(os.Stderr, "quic-go server listening on 127.0.0.1:%s\n", *listen)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := ln.Accept(ctx)
	if err != nil {
		fail("server: accept: %v", err)
	}
	str, err := conn.AcceptStream(ctx)
	if err != nil {
		fail("server: accept stream: %v", err)
	}
	data, err := io.ReadAll(str)
	if err != nil {
		fail("server: read after %d bytes: %v", len(data), err)
	}
	if _, err := str.Write(data); err != nil {
		fail("server: write: %v", err)
	}
	if err := str.Close(); err != nil {
		fail("server: finish: %v", err)
	}
	// The client closes the connection (code 0) once it has checked the echo.
	<-conn.Context().Done()
	var appErr *quic.ApplicationError
	if cause := context.Cause(conn.Context()); !errors.As(cause, &appErr) || appErr.ErrorCode != 0 || !appErr.Remote {
		fail("server: connection did not end with the client's close (code 0): %v", cause)
	}
	report("server", len(data), conn, c)
}

func client(args []string) {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	connect := fs.String("connect", "", "HOST:PORT")
	caFile := fs.String("ca", "", "CA certificate (PEM)")
	n := fs.Int("bytes", 1<<20, "bytes to send and get back")
	_ = fs.Parse(args)
	pem, err := os.ReadFile(*caFile)
	if err != nil {
		fail("client: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		fail("client: no certificate in %s", *caFile)
	}
	c := &counter{}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, *connect, &tls.Config{
		RootCAs:    roots,
		ServerName: "localhost",
		NextProtos: []string{alpn},
		MinVersion: tls.VersionTLS13,
	}, quicConfig(c))
	if err != nil {
		fail("client: dial %s: %v", *connect, err)
	}
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		fail("client: open stream: %v", err)
	}
	data := echodata(*n)
	werr := make(chan error, 1)
	go func() {
		_, err := str.Write(data)
		if err == nil {
			err = str.Close()
		}
		werr <- err
	}()
	echo, err := io.ReadAll(str)
	if err != nil {
		fail("client: read after %d bytes: %v", len(echo), err)
	}
	if err := <-werr; err != nil {
		fail("client: write: %v", err)
	}
	if !bytes.Equal(echo, data) {
		at := 0
		for at < len(echo) && at < len(data) && echo[at] == data[at] {
			at++
		}
		fail("client: echo differs: got %d bytes, sent %d, first difference at byte %d", len(echo), len(data), at)
	}
	report("client", len(echo), conn, c)
	_ = conn.CloseWithError(0, "")
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: quicgo server|client [flags]")
	}
	switch os.Args[1] {
	case "server":
		server(os.Args[2:])
	case "client":
		client(os.Args[2:])
	default:
		fail("unknown role %q (server or client)", os.Args[1])
	}
}
