// A pion-libaead block that defines dial(roots, raddr): main starts a pion/dtls server on loopback with
// every pionaead suite and a fresh self-signed ECDSA certificate, dials it through the block's function,
// echoes one message and requires libaead (pionaead.Totals) to have sealed and opened records. It uses the
// block's imports (crypto/x509, net, pionaead, dtls) and imports none of them again (Go refuses that).
package main

// IMPORTS
import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"math/big"
	"os"
	"time"
)

// BODY

func main() {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	check(err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	check(err)
	leaf, err := x509.ParseCertificate(der)
	check(err)
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv}
	ln, err := dtls.Listen("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, &dtls.Config{
		Certificates: []tls.Certificate{cert}, CustomCipherSuites: pionaead.CipherSuites,
		CipherSuites: []dtls.CipherSuiteID{}})
	check(err)
	defer ln.Close()
	go func() { // echo one message
		c, err := ln.Accept()
		check(err)
		buf := make([]byte, 1500)
		n, err := c.Read(buf)
		check(err)
		_, err = c.Write(buf[:n])
		check(err)
	}()
	conn, err := dial(roots, ln.Addr().(*net.UDPAddr))
	check(err)
	defer conn.Close()
	check(conn.SetDeadline(time.Now().Add(20 * time.Second)))
	_, err = conn.Write([]byte("hello over DTLS 1.2"))
	check(err)
	buf := make([]byte, 1500)
	n, err := conn.Read(buf)
	check(err)
	t := pionaead.Totals()
	fmt.Printf("echoed %q; libaead: %+v\n", buf[:n], t)
	if string(buf[:n]) != "hello over DTLS 1.2" || t.Opened == 0 || t.Sealed == 0 {
		fmt.Println("FAIL: no echo, or libaead protected no record")
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Println("FAIL:", err)
		os.Exit(1)
	}
}
