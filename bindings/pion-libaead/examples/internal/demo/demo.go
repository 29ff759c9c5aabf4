// Package demo holds what the two example programs share: the suite flags and the exit line.
package demo

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"strings"

	pionaead "github.com/libaead/libaead/bindings/pion-libaead"
	"github.com/pion/dtls/v3"
)

// Flags are the suite flags of both programs.
type Flags struct {
	Suite *string
	Pion  *bool
}

// AddFlags registers --suite and --pion.
func AddFlags() Flags {
	return Flags{
		Suite: flag.String("suite", "", "cipher suite name (IANA, e.g. TLS_ECDHE_ECDSA_WITH_AES_256_CCM); default: every suite"),
		Pion:  flag.Bool("pion", false, "unmodified pion: its own suites, no libaead (the peer of the interop tests)"),
	}
}

// Configure sets the cipher suites of cfg: libaead's suites as CustomCipherSuites (and no
// built-in ones), or with --pion pion's own suite of that name.
func (f Flags) Configure(cfg *dtls.Config) error {
	if *f.Pion {
		if *f.Suite == "" {
			return nil
		}
		for _, s := range dtls.CipherSuites() {
			if s.Name == *f.Suite {
				cfg.CipherSuites = []dtls.CipherSuiteID{dtls.CipherSuiteID(s.ID)}
				return nil
			}
		}
		return fmt.Errorf("pion has no suite %q", *f.Suite)
	}
	cfg.CipherSuites = []dtls.CipherSuiteID{}
	if *f.Suite == "" {
		cfg.CustomCipherSuites = pionaead.CipherSuites
		return nil
	}
	custom, err := pionaead.ByName(*f.Suite)
	cfg.CustomCipherSuites = custom
	return err
}

// Report prints the exit line: what libaead's record layer did in this process.
func Report(who string, f Flags, negotiated string) {
	t := pionaead.Totals()
	layer := "libaead"
	if *f.Pion {
		layer = "pion only"
	}
	Counts(who, layer, negotiated, t.Opened, t.Replays, t.Forgeries, t.Sealed)
}

// Counts prints the exit line of a record layer: who (client or server), the layer, what was
// negotiated, and the counts (the interop tests parse this wording).
func Counts(who, layer, negotiated string, opened, replays, forgeries, sealed uint64) {
	fmt.Printf("%s (%s, %s): records opened %d, replays refused %d, forgeries refused %d, records sealed %d\n",
		who, layer, negotiated, opened, replays, forgeries, sealed)
}

// Fail prints an error and exits 1.
func Fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, strings.TrimSuffix(format, "\n")+"\n", args...)
	os.Exit(1)
}

// Chunk is the i-th chunk the clients send: n bytes (n >= 8) starting with i, big endian, then a
// pattern of i, so that a chunk out of place or corrupted is told apart.
func Chunk(i, n int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(i*131 + j*7)
	}
	binary.BigEndian.PutUint64(b, uint64(i)) //nolint:gosec
	return b
}
