// Command ratios reads `go test -bench` output of the bench module (stdin or a file) and prints
// the performance targets of the Go binding as ratios of medians measured in that one run.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	line  = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+([0-9.]+) ns/op`)
	ratio = regexp.MustCompile(`^(BenchmarkPaired\S+?)(-\d+)?\s.*\s([0-9.]+) ratio`)
)

func main() {
	var in io.Reader = os.Stdin
	if len(os.Args) > 1 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	samples := map[string][]float64{}
	paired := map[string][]float64{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if m := ratio.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			paired[m[1]] = append(paired[m[1]], v)
		}
		m := line.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[3], 64)
		samples[m[1]] = append(samples[m[1]], v)
	}
	// stat returns the median (minimum=false) or the minimum of a benchmark's samples. On a
	// machine shared with other work the minimum is the better estimate of the uncontended cost;
	// both are printed.
	stat := func(name string, minimum bool) float64 {
		s := samples[name]
		if len(s) == 0 {
			fmt.Fprintf(os.Stderr, "ratios: no samples for %s\n", name)
			os.Exit(2)
		}
		s = append([]float64{}, s...)
		sort.Float64s(s)
		if minimum {
			return s[0]
		}
		if len(s)%2 == 1 {
			return s[len(s)/2]
		}
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	gcm := func(op, mode string, size int, impl string, m bool) float64 {
		return stat(fmt.Sprintf("BenchmarkAESGCM/op=%s/mode=%s/size=%d/impl=%s", op, mode, size, impl), m)
	}
	floor := func(op string, size int, m bool) float64 {
		return stat(fmt.Sprintf("BenchmarkFloor/what=c%s/size=%d", op, size), m)
	}
	empty := func(m bool) float64 { return stat("BenchmarkFloor/what=emptycgo", m) }

	fmt.Printf("Targets, from %d samples per benchmark measured in this one run (ns/op):\n\n", len(samples["BenchmarkFloor/what=emptycgo"]))
	fmt.Println("| target | medians | ratio of medians | ratio of minimums | goal | met (median / min) |")
	fmt.Println("|---|---|---|---|---|---|")
	yes := map[bool]string{true: "yes", false: "NO"}
	type check struct {
		name, goal string
		measured   func(m bool) string
		ratio      func(m bool) float64
		ok         func(r float64) bool
	}
	var checks []check
	for _, op := range []string{"Seal", "Open"} {
		op := op
		checks = append(checks, check{
			name: op + " 64 B vs (C " + strings.ToLower(op) + " 64 B + empty cgo call)", goal: "<= 1.15",
			measured: func(m bool) string {
				return fmt.Sprintf("%.0f vs %.0f + %.0f", gcm(op, "serial", 64, "libaead", m), floor(op, 64, m), empty(m))
			},
			ratio: func(m bool) float64 { return gcm(op, "serial", 64, "libaead", m) / (floor(op, 64, m) + empty(m)) },
			ok:    func(r float64) bool { return r <= 1.15 },
		})
	}
	for _, op := range []string{"Seal", "Open"} {
		op := op
		checks = append(checks, check{
			name: op + " 64 B speed-up over golang-fips/openssl", goal: ">= 3",
			measured: func(m bool) string {
				return fmt.Sprintf("%.0f vs %.0f", gcm(op, "serial", 64, "golangfips", m), gcm(op, "serial", 64, "libaead", m))
			},
			ratio: func(m bool) float64 {
				return gcm(op, "serial", 64, "golangfips", m) / gcm(op, "serial", 64, "libaead", m)
			},
			ok: func(r float64) bool { return r >= 3 },
		})
	}
	for _, op := range []string{"Seal", "Open"} {
		op := op
		checks = append(checks, check{
			name: op + " 16 KiB time vs C loop (throughput within 3%)", goal: "<= 1.03",
			measured: func(m bool) string {
				return fmt.Sprintf("%.0f vs %.0f", gcm(op, "serial", 16384, "libaead", m), floor(op, 16384, m))
			},
			ratio: func(m bool) float64 { return gcm(op, "serial", 16384, "libaead", m) / floor(op, 16384, m) },
			ok:    func(r float64) bool { return r <= 1.03 },
		})
	}
	for _, op := range []string{"Seal", "Open"} {
		for _, size := range []int{64, 1350, 16384} {
			op, size := op, size
			checks = append(checks, check{
				name: fmt.Sprintf("%s %d B parallel speed-up (serial / RunParallel, 2 cores)", op, size), goal: ">= 1.8",
				measured: func(m bool) string {
					return fmt.Sprintf("%.0f / %.0f", gcm(op, "serial", size, "libaead", m), gcm(op, "parallel", size, "libaead", m))
				},
				ratio: func(m bool) float64 {
					return gcm(op, "serial", size, "libaead", m) / gcm(op, "parallel", size, "libaead", m)
				},
				ok: func(r float64) bool { return r >= 1.8 },
			})
		}
	}
	for _, c := range checks {
		rm, rn := c.ratio(false), c.ratio(true)
		fmt.Printf("| %s | %s | %.3f | %.3f | %s | %s / %s |\n", c.name, c.measured(false), rm, rn, c.goal, yes[c.ok(rm)], yes[c.ok(rn)])
	}
	fmt.Println()
	fmt.Println("Paired measurements (BenchmarkPaired: both sides alternate in chunks of a few ms inside one")
	fmt.Println("benchmark; per sample the median of the chunk ratios; shown: median and range over samples):")
	fmt.Println()
	fmt.Println("| paired ratio | median | min | max | goal | met (median) |")
	fmt.Println("|---|---|---|---|---|---|")
	goals := map[string]struct {
		goal string
		ok   func(float64) bool
	}{
		"binding_over_c_plus_cgo/op=Seal/size=64":       {"<= 1.15", func(r float64) bool { return r <= 1.15 }},
		"binding_over_c_plus_cgo/op=Open/size=64":       {"<= 1.15", func(r float64) bool { return r <= 1.15 }},
		"golangfips_over_binding/op=Seal/size=64":       {">= 3", func(r float64) bool { return r >= 3 }},
		"golangfips_over_binding/op=Open/size=64":       {">= 3", func(r float64) bool { return r >= 3 }},
		"binding_over_c/op=Seal/size=16384":             {"<= 1.03", func(r float64) bool { return r <= 1.03 }},
		"binding_over_c/op=Open/size=16384":             {"<= 1.03", func(r float64) bool { return r <= 1.03 }},
		"binding_over_direct_cgo/op=Seal/size=64":       {"(decomposition)", nil},
		"binding_over_direct_cgo/op=Open/size=64":       {"(decomposition)", nil},
		"binding_over_direct_cgo_gobuf/op=Seal/size=64": {"(decomposition)", nil},
		"binding_over_direct_cgo_gobuf/op=Open/size=64": {"(decomposition)", nil},
	}
	var names []string
	for n := range paired {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := append([]float64{}, paired[n]...)
		sort.Float64s(v)
		md := v[len(v)/2]
		if len(v)%2 == 0 {
			md = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		key := strings.TrimPrefix(n, "BenchmarkPaired/ratio=")
		g := goals[key]
		met := "-"
		if g.ok != nil {
			met = yes[g.ok(md)]
		}
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %s | %s |\n", key, md, v[0], v[len(v)-1], g.goal, met)
	}

	fmt.Println()
	fmt.Println("Context (not targets): parallel speed-up of the peers, ratio of medians (a value near or below 1 means the cores were busy with other work)")
	for _, impl := range []string{"stdlib", "golangfips"} {
		for _, size := range []int{64, 16384} {
			s, p := gcm("Seal", "serial", size, impl, false), gcm("Seal", "parallel", size, impl, false)
			fmt.Printf("  %-10s Seal %5d B: %.2fx\n", impl, size, s/p)
		}
	}
}
