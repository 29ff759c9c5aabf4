// dtls-echo-server: a pion/dtls v3 server whose records libaead protects; it echoes every byte
// back, serves --conns connections, and at exit prints the records opened, replays refused and
// forgeries refused.
//
//	dtls-echo-server --listen 4444 --cert cert.pem --key key.pem [--suite TLS_ECDHE_ECDSA_WITH_AES_256_CCM]
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"io"
	"net"
	"time"

	pionaead "github.com/libaead/libaead/bindings/pion-libaead"
	"github.com/libaead/libaead/bindings/pion-libaead/examples/internal/demo"
	"github.com/pion/dtls/v3"
)

func main() {
	port := flag.Int("listen", 4444, "UDP port on 127.0.0.1")
	certFile := flag.String("cert", "", "PEM certificate (ECDSA)")
	keyFile := flag.String("key", "", "PEM private key")
	conns := flag.Int("conns", 1, "connections to serve before exiting")
	idle := flag.Duration("idle", 30*time.Second, "give up on a connection silent for this long")
	suites := demo.AddFlags()
	flag.Parse()

	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		demo.Fail("server: %v", err)
	}
	cfg := &dtls.Config{Certificates: []tls.Certificate{cert}}
	if err := suites.Configure(cfg); err != nil {
		demo.Fail("server: %v", err)
	}
	ln, err := dtls.Listen("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: *port}, cfg)
	if err != nil {
		demo.Fail("server: %v", err)
	}
	defer ln.Close()
	negotiated := "none"
	for i := 0; i < *conns; i++ {
		c, err := ln.Accept()
		if err != nil {
			demo.Fail("server: accept: %v", err)
		}
		dc := c.(*dtls.Conn)
		ctx, cancel := context.WithTimeout(context.Background(), *idle)
		err = dc.HandshakeContext(ctx)
		cancel()
		if err != nil {
			demo.Fail("server: handshake: %v", err)
		}
		if st, ok := dc.ConnectionState(); ok {
			negotiated = pionaead.SuiteName(st.CipherSuiteID)
		}
		buf := make([]byte, 1<<14)
		for {
			_ = dc.SetReadDeadline(time.Now().Add(*idle))
			n, err := dc.Read(buf)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					demo.Fail("server: read: %v", err)
				}
				break
			}
			if _, err := dc.Write(buf[:n]); err != nil {
				demo.Fail("server: write: %v", err)
			}
		}
		_ = dc.Close()
	}
	demo.Report("server", suites, negotiated)
}
