package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Each aim is judged from the figures go test -bench printed, the
// GOMAXPROCS suffix dropped; a figure the run did not print is missing.
func TestFiguresAgainstAims(t *testing.T) {
	if os.Getenv("BENCHAIMS_MAIN") == "1" {
		main()
		return
	}
	in := strings.Join([]string{
		"goos: linux",
		"BenchmarkDaemonRSS-2   	       1	        25.5 RSS-MB-idle	        41.2 RSS-MB-after-100k	0 ns/op",
		"BenchmarkThroughput/c=64-2 20000 1 ns/op 2500 decisions/s 0.21 share-of-socket-only",
		"BenchmarkHookProcess/distinct-16 300 1.4 median-ratio",
	}, "\n")
	cmd := exec.Command(os.Args[0], "-test.run", "TestFiguresAgainstAims")
	cmd.Env = append(os.Environ(), "BENCHAIMS_MAIN=1")
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][2]string{
		{"idle after start", "25.5  aim ≤ 30  met"},
		{"after 100,000 decisions", "41.2  aim ≤ 40  NOT MET"},
		{"distinct decision (median)", "1.4  aim ≤ 1.3  NOT MET"},
		{"hook p99", "missing (aim ≤ 5000)"},
		{"socket-only server's", "0.21  aim ≥ 0.2  met"},
	} {
		line := ""
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, want[0]) {
				line = l
			}
		}
		if !strings.HasSuffix(line, want[1]) {
			t.Errorf("the line of %q is %q, want it to end %q; all:\n%s", want[0], line, want[1], out)
		}
	}
}
