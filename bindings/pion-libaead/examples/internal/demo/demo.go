// Package demo holds what the two example programs share: the suite flags and the exit line.
package demo

import (
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
	fmt.Printf("%s (%s, %s): records opened %d, replays refused %d, forgeries refused %d, records sealed %d\n",
		who, layer, negotiated, t.Opened, t.Replays, t.Forgeries, t.Sealed)
}

// Fail prints an error and exits 1.
func Fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, strings.TrimSuffix(format, "\n")+"\n", args...)
	os.Exit(1)
}
