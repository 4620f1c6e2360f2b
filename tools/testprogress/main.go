// Command testprogress turns `go test -json` into the plain output of
// `go test`, plus a line every interval naming the packages still running,
// so a long race run shows it is alive. It prints each package's result
// line as it finishes and the whole output of every failed test; passing
// tests stay quiet, as in `go test` without -v. It ends with one line,
// "N passed, N failed, N skipped" (top-level tests), and exits 1 when a
// test, a package or a build failed.
//
//	go test -json ./... | go run ./tools/testprogress -every 60s
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// event is the part of test2json's record this reads.
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Output     string
}

func main() {
	every := flag.Duration("every", time.Minute, "how often to name the packages still running (0: never)")
	flag.Parse()
	r := newReport(os.Stdout)
	if *every > 0 {
		stop := r.tick(*every)
		defer stop()
	}
	ok, err := r.read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

type report struct {
	out                     io.Writer
	mu                      sync.Mutex
	started                 time.Time
	running                 map[string]time.Time // package -> start
	lines                   map[string][]string  // "pkg\x00Test" -> its output so far
	passed, failed, skipped int
	bad                     bool // a package or build failed
}

func newReport(out io.Writer) *report {
	return &report{out: out, started: time.Now(), running: map[string]time.Time{}, lines: map[string][]string{}}
}

// read consumes the JSON stream; ok is false when anything failed.
func (r *report) read(in io.Reader) (ok bool, err error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			// Not test2json (go vet's or the linker's own text): pass it on.
			r.print(string(line) + "\n")
			continue
		}
		r.handle(e)
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.out, "%d passed, %d failed, %d skipped\n", r.passed, r.failed, r.skipped)
	return !r.bad && r.failed == 0, nil
}

func (r *report) handle(e event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.out, e.Output)
		return
	case "build-fail":
		r.bad = true
		return
	case "start":
		r.running[e.Package] = time.Now()
		return
	}
	if e.Test == "" {
		// Package-level: its "ok"/"FAIL" line and anything printed outside
		// a test, exactly as plain `go test` prints them.
		// -json adds a bare PASS line that plain go test leaves out.
		if e.Action == "output" && e.Output != "PASS\n" {
			fmt.Fprint(r.out, e.Output)
		}
		if e.Action == "pass" || e.Action == "fail" || e.Action == "skip" {
			delete(r.running, e.Package)
			if e.Action == "fail" {
				r.bad = true
			}
		}
		return
	}
	// A subtest's lines go with its top-level test, in the order they came,
	// and are printed once, when the top-level test fails.
	top, _, isSub := strings.Cut(e.Test, "/")
	key := e.Package + "\x00" + top
	switch e.Action {
	case "output":
		r.lines[key] = append(r.lines[key], e.Output)
	case "pass", "skip", "fail":
		if isSub {
			return
		}
		switch e.Action {
		case "pass":
			r.passed++
		case "skip":
			r.skipped++
		case "fail":
			r.failed++
			for _, l := range r.lines[key] {
				fmt.Fprint(r.out, l)
			}
		}
		delete(r.lines, key)
	}
}

// print writes a line under the lock.
func (r *report) print(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprint(r.out, s)
}

// tick names the running packages every d until stop is called.
func (r *report) tick(d time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				r.progress()
			}
		}
	}()
	return func() { close(done) }
}

func (r *report) progress() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.running) == 0 {
		return
	}
	var names []string
	for p, since := range r.running {
		names = append(names, fmt.Sprintf("%s (%s)", shortName(p), time.Since(since).Round(time.Second)))
	}
	sort.Strings(names)
	fmt.Fprintf(r.out, "... %s in: %d passed, %d failed so far; running %s\n",
		time.Since(r.started).Round(time.Second), r.passed, r.failed, strings.Join(names, ", "))
}

// shortName drops the module path: daemon, internal/engine.
func shortName(pkg string) string {
	const module = "github.com/agentjail/agentjail/"
	return strings.TrimPrefix(pkg, module)
}
