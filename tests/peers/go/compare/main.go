// Command compare reads the `go test -json` output of a peer suite run on the standard library (the
// control) and on libaead, counts the leaf tests (tests without subtests) that passed and failed in
// each, and checks every leaf whose outcome differs against the differences listed for the suite
// under "## go" in tests/peers/differences.txt. It prints one summary line and fails on an unlisted
// difference, on a listed one that did not occur, and on a run that failed outside any test (a
// build failure, a panic).
//
//	compare -suite NAME -control C.json -libaead L.json -differences differences.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// outcome of one leaf: "pass", "fail", "skip", or "absent" (not run); a test that started and never
// ended (the binary panicked or timed out) is a "fail".
type run struct {
	leaves        map[string]string
	packageFailed bool
	buildOutput   string // the compiler's messages, for a run that did not build
}

func main() {
	suite := flag.String("suite", "", "suite name (the first column of differences.txt)")
	control := flag.String("control", "", "go test -json output of the control")
	libaead := flag.String("libaead", "", "go test -json output on libaead")
	diffs := flag.String("differences", "", "tests/peers/differences.txt")
	flag.Parse()
	if err := compare(*suite, *control, *libaead, *diffs); err != nil {
		fmt.Fprintf(os.Stderr, "peers go: %s: %v\n", *suite, err)
		os.Exit(1)
	}
}

func readRun(file string) (*run, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	status := map[string]string{}
	r := &run{leaves: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue // the build's own output (go test -json passes it through on stderr, mostly)
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		switch {
		case e.Action == "build-output":
			r.buildOutput += e.Output
		case e.Test == "" && e.Action == "fail":
			r.packageFailed = true
		case e.Test == "":
		case e.Action == "run":
			if _, ok := status[e.Test]; !ok {
				status[e.Test] = "fail"
			}
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			status[e.Test] = e.Action
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	parents := map[string]bool{}
	for name := range status {
		for i := range len(name) {
			if name[i] == '/' {
				parents[name[:i]] = true
			}
		}
	}
	for name, s := range status {
		if !parents[name] {
			r.leaves[name] = s
		}
	}
	if len(r.leaves) == 0 {
		return nil, fmt.Errorf("%s: no test ran\n%s", file, r.buildOutput)
	}
	return r, nil
}

func (r *run) count(s string) int {
	n := 0
	for _, v := range r.leaves {
		if v == s {
			n++
		}
	}
	return n
}

// failedOutsideTests: the package failed but none of its tests did (a build failure, a panic in
// init or a test binary that died between tests).
func (r *run) failedOutsideTests() bool { return r.packageFailed && r.count("fail") == 0 }

// listed reads the "<suite> <test id> <reason>" lines of the "## go" section for suite.
func listed(file, suite string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		if section != "go" || line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s: %q: want <suite> <test id> <reason>", file, line)
		}
		if fields[0] == suite {
			out[fields[1]] = fields[2]
		}
	}
	return out, nil
}

func compare(suite, controlFile, libaeadFile, diffsFile string) error {
	control, err := readRun(controlFile)
	if err != nil {
		return err
	}
	lib, err := readRun(libaeadFile)
	if err != nil {
		return err
	}
	want, err := listed(diffsFile, suite)
	if err != nil {
		return err
	}
	var names []string
	for n := range control.leaves {
		names = append(names, n)
	}
	for n := range lib.leaves {
		if _, ok := control.leaves[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var problems []string
	occurred := 0
	for _, n := range names {
		c, l := outcome(control, n), outcome(lib, n)
		if c == l {
			if _, ok := want[n]; ok {
				problems = append(problems, fmt.Sprintf("listed difference no longer occurs: %s %s (%s on both)", suite, n, c))
			}
			continue
		}
		if reason, ok := want[n]; ok {
			occurred++
			fmt.Printf("peers go: %s: listed difference: %s: control %s, libaead %s (%s)\n", suite, n, c, l, reason)
			continue
		}
		problems = append(problems, fmt.Sprintf("unlisted difference: %s %s: control %s, libaead %s", suite, n, c, l))
	}
	for n := range want {
		if _, ok := control.leaves[n]; !ok {
			if _, ok := lib.leaves[n]; !ok {
				problems = append(problems, fmt.Sprintf("listed difference names no test of either run: %s %s", suite, n))
			}
		}
	}
	for _, r := range []struct {
		name string
		r    *run
	}{{"control", control}, {"libaead", lib}} {
		if r.r.failedOutsideTests() {
			problems = append(problems, fmt.Sprintf("the %s run failed outside any test (build failure or crash: see its output)", r.name))
		}
	}
	fmt.Printf("peers go: %s: control %d passed / %d failed; libaead %d passed / %d failed; listed differences %d\n",
		suite, control.count("pass"), control.count("fail"), lib.count("pass"), lib.count("fail"), occurred)
	if len(problems) > 0 {
		slices.Sort(problems)
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "FAIL: peers go:", p)
		}
		return fmt.Errorf("%d problem(s)", len(problems))
	}
	return nil
}

func outcome(r *run, name string) string {
	if s, ok := r.leaves[name]; ok {
		return s
	}
	return "absent"
}
