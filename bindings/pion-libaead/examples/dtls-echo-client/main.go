// dtls-echo-client: a pion/dtls v3 client whose records libaead protects; it sends --bytes bytes in
// numbered chunks, one at a time, checks that each comes back byte for byte exactly once, and at
// exit prints the records opened, replays refused and forgeries refused.
//
//	dtls-echo-client --connect 127.0.0.1:4444 [--suite NAME] [--bytes 1048576]
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	pionaead "github.com/libaead/libaead/bindings/pion-libaead"
	"github.com/libaead/libaead/bindings/pion-libaead/examples/internal/demo"
	"github.com/pion/dtls/v3"
)

func main() {
	addr := flag.String("connect", "127.0.0.1:4444", "server HOST:PORT")
	total := flag.Int("bytes", 1<<20, "bytes to send and expect back")
	size := flag.Int("chunk", 1000, "bytes per write (one record)")
	wait := flag.Duration("wait", time.Second, "how long to wait for a chunk's echo before counting it lost")
	maxLost := flag.Int("max-lost", 0, "chunks that may be lost (records dropped as forgeries) before failing")
	suites := demo.AddFlags()
	flag.Parse()

	raddr, err := net.ResolveUDPAddr("udp", *addr)
	if err != nil {
		demo.Fail("client: %v", err)
	}
	cfg := &dtls.Config{InsecureSkipVerify: true} // the test's self-signed certificate
	if err := suites.Configure(cfg); err != nil {
		demo.Fail("client: %v", err)
	}
	c, err := dtls.Dial("udp", raddr, cfg)
	if err != nil {
		demo.Fail("client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	err = c.HandshakeContext(ctx)
	cancel()
	if err != nil {
		demo.Fail("client: handshake: %v", err)
	}
	negotiated := "none"
	if st, ok := c.ConnectionState(); ok {
		negotiated = pionaead.SuiteName(st.CipherSuiteID)
	}

	echoed, lost, wrong, chunks, late := 0, 0, 0, 0, 0
	missing := map[int]bool{}
	buf := make([]byte, 1<<15)
	for i, off := 0, 0; off < *total; i, off = i+1, off+*size {
		want := demo.Chunk(i, min(*size, *total-off))
		chunks++
		if _, err := c.Write(want); err != nil {
			demo.Fail("client: write: %v", err)
		}
		var got []byte
		for len(got) < len(want) {
			_ = c.SetReadDeadline(time.Now().Add(*wait))
			n, err := c.Read(buf)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				break
			} else if err != nil {
				demo.Fail("client: read: %v", err)
			}
			// The echo of an earlier chunk counted lost (slower than --wait, not dropped): a whole
			// record starting with that chunk's number; it counts as echoed after all.
			if len(got) == 0 && n >= 8 && n < len(want)+8 {
				if j := int(binary.BigEndian.Uint64(buf)); j < i && missing[j] && bytes.Equal(buf[:n], demo.Chunk(j, n)) {
					delete(missing, j)
					lost--
					echoed += n
					late++
					continue
				}
			}
			got = append(got, buf[:n]...)
		}
		switch {
		case bytes.Equal(got, want):
			echoed += len(want)
		case len(got) == 0:
			lost++
			missing[i] = true
			fmt.Fprintf(os.Stderr, "client: chunk %d not echoed within %v\n", i, *wait)
		default:
			wrong++
		}
	}
	_ = c.Close()
	fmt.Printf("client: %d bytes in %d chunks: %d echoed byte for byte, %d chunks lost, %d chunks wrong (%d echoed late)\n",
		*total, chunks, echoed, lost, wrong, late)
	demo.Report("client", suites, negotiated)
	if wrong > 0 || lost > *maxLost {
		os.Exit(1)
	}
}
