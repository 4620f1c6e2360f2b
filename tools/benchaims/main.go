// Command benchaims reads the output of `make bench` (go test -bench
// lines) on stdin and prints each figure the daemon and the hook aim at
// beside its aim: the one place the aims are written down. A figure the
// run did not produce is said to be missing. It exits 0 either way: the
// figures are for reading (BENCHMARKS.md explains each), not a gate.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// aim is one figure and its bound.
type aim struct {
	bench, metric string // the benchmark (without its -N suffix) and the metric
	what          string
	atMost        bool // the figure must be at most bound, else at least
	bound         float64
}

var aims = []aim{
	{"BenchmarkDaemonStart/idle", "ms-to-first-verdict", "daemon start to its first verdict, idle, ms", true, 250},
	{"BenchmarkDaemonStart/loaded", "ms-to-first-verdict", "the same, every core held by a busy loop, ms", true, 1000},
	{"BenchmarkDaemonRSS", "RSS-MB-idle", "daemon resident memory idle after start, MiB", true, 30},
	{"BenchmarkDaemonRSS", "RSS-MB-after-100k", "daemon resident memory after 100,000 decisions, MiB", true, 40},
	{"BenchmarkDaemonRSS", "RSS-MB-quiet-after-100k", "the same, once quiet (16 s later), MiB", true, 40},
	{"BenchmarkHookProcess/distinct", "median-ratio", "hook run / bare Go process, distinct decision (median)", true, 1.3},
	{"BenchmarkHookProcess/distinct", "hook-p99-µs", "hook p99 for a distinct decision, µs", true, 5000},
	{"BenchmarkJailLaunch", "median-ratio", "bash -c true through the launcher / without it (median)", true, 1.2},
	{"BenchmarkJailLaunch", "added-median-µs", "time the launcher adds to a shell call (median), µs", true, 1000},
	{"BenchmarkConfigSave/settings", "ms-slowest", "a config.yaml save of settings in force, slowest of ten, ms", true, 1000},
	{"BenchmarkConfigSave/protected_paths", "ms-slowest", "a save of protected_paths (compiles again) in force, slowest, ms", true, 1000},
	{"BenchmarkThroughput/c=64", "share-of-socket-only", "decisions/s at 64 clients / a socket-only server's", false, 0.2},
}

func main() {
	figures := map[string]float64{} // bench|metric
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i] // the GOMAXPROCS suffix
			}
		}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				figures[name+"|"+f[i+1]] = v
			}
		}
	}
	fmt.Println("==> the figures against their aims (issue 27; BENCHMARKS.md)")
	for _, a := range aims {
		v, ok := figures[a.bench+"|"+a.metric]
		op := "≥"
		if a.atMost {
			op = "≤"
		}
		switch {
		case !ok:
			fmt.Printf("  %-58s  missing (aim %s %g)\n", a.what, op, a.bound)
		case a.atMost && v <= a.bound || !a.atMost && v >= a.bound:
			fmt.Printf("  %-58s  %10.3g  aim %s %g  met\n", a.what, v, op, a.bound)
		default:
			fmt.Printf("  %-58s  %10.3g  aim %s %g  NOT MET\n", a.what, v, op, a.bound)
		}
	}
}
