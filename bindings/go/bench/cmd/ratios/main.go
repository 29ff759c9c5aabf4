// Command ratios reads `go test -bench` output of the bench module (a file or stdin) and prints
// the performance targets of the Go binding as ratios measured in that one run; with -json FILE it
// also writes every benchmark's statistics, the targets and the run's configuration lines
// (goos, cpu, libaead, golangfips-libcrypto, ...) as JSON.
//
//	go run ./cmd/ratios [-json out.json] raw.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	line   = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$`)
	metric = regexp.MustCompile(`([0-9.]+) (\S+)`)
	config = regexp.MustCompile(`^([a-z][a-zA-Z0-9_-]*): (.+)$`)
)

// sample is one result line: metric unit -> value (ns/op, B/op, allocs/op, ratio, MB/s).
type sample map[string]float64

type stats struct {
	Name        string  `json:"name"`
	Samples     int     `json:"samples"`
	NsMedian    float64 `json:"ns_per_op_median"`
	NsMin       float64 `json:"ns_per_op_min"`
	RatioMedian float64 `json:"ratio_median,omitempty"`
	RatioMin    float64 `json:"ratio_min,omitempty"`
	RatioMax    float64 `json:"ratio_max,omitempty"`
	BytesPerOp  float64 `json:"bytes_per_op_max"`
	AllocsPerOp float64 `json:"allocs_per_op_max"`
}

type target struct {
	Name     string  `json:"name"`
	Measured string  `json:"measured"`
	Median   float64 `json:"ratio_median"`
	Min      float64 `json:"ratio_of_minimums,omitempty"`
	Goal     string  `json:"goal"`
	Met      *bool   `json:"met,omitempty"` // on the median; absent for context rows
}

type report struct {
	Config     map[string]string `json:"config"`
	Benchmarks []stats           `json:"benchmarks"`
	Targets    []target          `json:"targets"`
	Paired     []target          `json:"paired"`
}

func median(v []float64) float64 {
	v = append([]float64{}, v...)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func minmax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return
}

func parse(in io.Reader) (map[string][]sample, map[string]string, error) {
	samples, cfg := map[string][]sample{}, map[string]string{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if m := config.FindStringSubmatch(text); m != nil {
			cfg[m[1]] = m[2]
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		s := sample{}
		for _, mm := range metric.FindAllStringSubmatch(m[3], -1) {
			v, _ := strconv.ParseFloat(mm[1], 64)
			s[mm[2]] = v
		}
		samples[m[1]] = append(samples[m[1]], s)
	}
	return samples, cfg, sc.Err()
}

func column(s []sample, unit string) []float64 {
	var v []float64
	for _, x := range s {
		if f, ok := x[unit]; ok {
			v = append(v, f)
		}
	}
	return v
}

// pairedGoals: the targets stated on BenchmarkPaired ratios ("" goal = context only).
var pairedGoals = map[string]struct {
	goal string
	ok   func(float64) bool
}{
	"binding_over_stdlib/op=Seal/size=64":     {"<= 1.5 (vendored 3.5)", func(r float64) bool { return r <= 1.5 }},
	"stdlib_over_binding/op=Seal/size=16384":  {">= 2.5 (vendored 3.5)", func(r float64) bool { return r >= 2.5 }},
	"binding_over_c_plus_cgo/op=Seal/size=64": {"<= 1.15", func(r float64) bool { return r <= 1.15 }},
	"binding_over_c_plus_cgo/op=Open/size=64": {"<= 1.15", func(r float64) bool { return r <= 1.15 }},
	"golangfips_over_binding/op=Seal/size=64": {">= 3", func(r float64) bool { return r >= 3 }},
	"golangfips_over_binding/op=Open/size=64": {">= 3", func(r float64) bool { return r >= 3 }},
	"binding_over_c/op=Seal/size=16384":       {"<= 1.03", func(r float64) bool { return r <= 1.03 }},
	"binding_over_c/op=Open/size=16384":       {"<= 1.03", func(r float64) bool { return r <= 1.03 }},
}

func main() {
	jsonOut := flag.String("json", "", "also write the results as JSON to this file")
	flag.Parse()
	var in io.Reader = os.Stdin
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	samples, cfg, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rep := report{Config: cfg}
	var names []string
	for n := range samples {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := samples[n]
		ns := column(s, "ns/op")
		st := stats{Name: n, Samples: len(s), NsMedian: median(ns)}
		st.NsMin, _ = minmax(ns)
		if r := column(s, "ratio"); len(r) > 0 {
			st.RatioMedian = median(r)
			st.RatioMin, st.RatioMax = minmax(r)
		}
		_, st.BytesPerOp = minmax(append(column(s, "B/op"), 0))
		_, st.AllocsPerOp = minmax(append(column(s, "allocs/op"), 0))
		rep.Benchmarks = append(rep.Benchmarks, st)
	}
	rep.Targets = separateTargets(samples)
	for _, n := range names {
		key, ok := strings.CutPrefix(n, "BenchmarkPaired/ratio=")
		if !ok {
			continue
		}
		r := column(samples[n], "ratio")
		if len(r) == 0 {
			continue
		}
		lo, hi := minmax(r)
		t := target{Name: key, Measured: fmt.Sprintf("min %.3f, max %.3f over %d samples", lo, hi, len(r)), Median: median(r)}
		if g, ok := pairedGoals[key]; ok {
			met := g.ok(t.Median)
			t.Goal, t.Met = g.goal, &met
		}
		rep.Paired = append(rep.Paired, t)
	}
	printTables(rep)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("\nJSON written to %s\n", *jsonOut)
	}
}

// separateTargets: the targets computed from separate benchmarks of this run (medians and
// minimums of their samples); rows whose benchmarks were not run are left out.
func separateTargets(samples map[string][]sample) []target {
	stat := func(name string, minimum bool) (float64, bool) {
		ns := column(samples[name], "ns/op")
		if len(ns) == 0 {
			return 0, false
		}
		if minimum {
			lo, _ := minmax(ns)
			return lo, true
		}
		return median(ns), true
	}
	gcm := func(op, mode string, size int, impl string) string {
		return fmt.Sprintf("BenchmarkAESGCM/op=%s/mode=%s/size=%d/impl=%s", op, mode, size, impl)
	}
	floor := func(op string, size int) string { return fmt.Sprintf("BenchmarkFloor/what=c%s/size=%d", op, size) }
	const empty = "BenchmarkFloor/what=emptycgo"
	type row struct {
		name, goal string
		num, den   []string // ratio = sum(num) / sum(den)
		ok         func(float64) bool
	}
	var rows []row
	for _, op := range []string{"Seal", "Open"} {
		// The ratio targets are stated for Seal; Open is shown for context.
		var le15, ge25 func(float64) bool
		if op == "Seal" {
			le15, ge25 = func(r float64) bool { return r <= 1.5 }, func(r float64) bool { return r >= 2.5 }
		}
		rows = append(rows,
			row{op + " 64 B vs crypto/cipher (time)", "<= 1.5", []string{gcm(op, "serial", 64, "libaead")}, []string{gcm(op, "serial", 64, "stdlib")}, le15},
			row{op + " 16 KiB throughput over crypto/cipher's", ">= 2.5", []string{gcm(op, "serial", 16384, "stdlib")}, []string{gcm(op, "serial", 16384, "libaead")}, ge25},
			row{op + " 64 B vs (C " + strings.ToLower(op) + " 64 B + empty cgo call)", "<= 1.15", []string{gcm(op, "serial", 64, "libaead")}, []string{floor(op, 64), empty}, func(r float64) bool { return r <= 1.15 }},
			row{op + " 64 B speed-up over golang-fips/openssl", ">= 3", []string{gcm(op, "serial", 64, "golangfips")}, []string{gcm(op, "serial", 64, "libaead")}, func(r float64) bool { return r >= 3 }},
			row{op + " 16 KiB time vs C loop", "<= 1.03", []string{gcm(op, "serial", 16384, "libaead")}, []string{floor(op, 16384)}, func(r float64) bool { return r <= 1.03 }},
		)
		for _, size := range []int{64, 1350, 16384} {
			rows = append(rows, row{fmt.Sprintf("%s %d B parallel speed-up (serial / RunParallel, 2 cores)", op, size), ">= 1.8",
				[]string{gcm(op, "serial", size, "libaead")}, []string{gcm(op, "parallel", size, "libaead")}, func(r float64) bool { return r >= 1.8 }})
		}
	}
	var out []target
	for _, r := range rows {
		sum := func(names []string, minimum bool) (float64, string, bool) {
			var total float64
			var parts []string
			for _, n := range names {
				v, ok := stat(n, minimum)
				if !ok {
					return 0, "", false
				}
				total += v
				parts = append(parts, fmt.Sprintf("%.0f", v))
			}
			return total, strings.Join(parts, " + "), true
		}
		num, ns, ok1 := sum(r.num, false)
		den, ds, ok2 := sum(r.den, false)
		numMin, _, _ := sum(r.num, true)
		denMin, _, _ := sum(r.den, true)
		if !ok1 || !ok2 {
			continue
		}
		t := target{Name: r.name, Measured: ns + " vs " + ds + " ns", Median: num / den, Min: numMin / denMin, Goal: "(context)"}
		if r.ok != nil {
			met := r.ok(t.Median)
			t.Goal, t.Met = r.goal, &met
		}
		out = append(out, t)
	}
	return out
}

func printTables(rep report) {
	yes := func(b *bool) string {
		switch {
		case b == nil:
			return "-"
		case *b:
			return "yes"
		}
		return "NO"
	}
	for _, k := range []string{"cpu", "libaead", "golangfips-libcrypto"} {
		if v, ok := rep.Config[k]; ok {
			fmt.Printf("%s: %s\n", k, v)
		}
	}
	if len(rep.Targets) > 0 {
		fmt.Println("\nTargets from separate benchmarks of this run (ns/op; medians, and the ratio of minimums):")
		fmt.Println()
		fmt.Println("| target | medians | ratio of medians | ratio of minimums | goal | met (median) |")
		fmt.Println("|---|---|---|---|---|---|")
		for _, t := range rep.Targets {
			fmt.Printf("| %s | %s | %.3f | %.3f | %s | %s |\n", t.Name, t.Measured, t.Median, t.Min, t.Goal, yes(t.Met))
		}
	}
	if len(rep.Paired) > 0 {
		fmt.Println("\nPaired measurements (BenchmarkPaired: both sides alternate in chunks of a few ms inside one")
		fmt.Println("benchmark; per sample the median of the chunk ratios; shown: median over samples and range):")
		fmt.Println()
		fmt.Println("| paired ratio | median | range | goal | met (median) |")
		fmt.Println("|---|---|---|---|---|")
		for _, t := range rep.Paired {
			goal := t.Goal
			if goal == "" {
				goal = "(context)"
			}
			fmt.Printf("| %s | %.3f | %s | %s | %s |\n", t.Name, t.Median, t.Measured, goal, yes(t.Met))
		}
	}
	var allocs []string
	for _, b := range rep.Benchmarks {
		if strings.Contains(b.Name, "libaead") && b.AllocsPerOp != 0 {
			allocs = append(allocs, fmt.Sprintf("%s: %.0f allocs/op", b.Name, b.AllocsPerOp))
		}
	}
	fmt.Printf("\nlibaead benchmarks with allocations: %d %s\n", len(allocs), strings.Join(allocs, "; "))
}
