package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealGoTest runs the real `go test -json` over a throwaway module with
// a passing, a failing and a skipped test, and checks what a reader of
// make test sees.
func TestRealGoTest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("m_test.go", `package m

import "testing"

func TestGood(t *testing.T) { t.Log("quiet when passing") }
func TestBad(t *testing.T) {
	t.Run("inner", func(t *testing.T) { t.Error("the reason it failed") })
}
func TestSkipped(t *testing.T) { t.Skip("not here") }
`)
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	stream, _ := cmd.Output() // exits 1: a test fails
	if len(stream) == 0 {
		t.Fatal("go test -json printed nothing")
	}

	var out bytes.Buffer
	ok, err := newReport(&out).read(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if ok {
		t.Errorf("a failed test must make the run fail:\n%s", got)
	}
	for _, want := range []string{"the reason it failed", "--- FAIL: TestBad", "FAIL\texample.com/m", "1 passed, 1 failed, 1 skipped\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "quiet when passing") {
		t.Errorf("a passing test's log was printed:\n%s", got)
	}
	if n := strings.Count(got, "the reason it failed"); n != 1 {
		t.Errorf("the failure is printed %d times, want once:\n%s", n, got)
	}
}

func TestAllPassingIsOK(t *testing.T) {
	stream := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.01s\n"}
{"Action":"pass","Package":"p"}
`
	var out bytes.Buffer
	ok, err := newReport(&out).read(strings.NewReader(stream))
	if err != nil || !ok {
		t.Fatalf("ok=%v err=%v\n%s", ok, err, out.String())
	}
	if out.String() != "ok  \tp\t0.01s\n1 passed, 0 failed, 0 skipped\n" {
		t.Errorf("got %q", out.String())
	}
}

func TestBuildFailureFails(t *testing.T) {
	stream := `{"ImportPath":"p","Action":"build-output","Output":"p/x.go:1: syntax error\n"}
{"ImportPath":"p","Action":"build-fail"}
{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}
{"Action":"fail","Package":"p"}
`
	var out bytes.Buffer
	ok, _ := newReport(&out).read(strings.NewReader(stream))
	if ok || !strings.Contains(out.String(), "syntax error") {
		t.Errorf("ok=%v\n%s", ok, out.String())
	}
}

func TestProgressNamesRunningPackages(t *testing.T) {
	var out bytes.Buffer
	r := newReport(&out)
	r.handle(event{Action: "start", Package: "github.com/agentjail/agentjail/e2e"})
	r.progress()
	if !strings.Contains(out.String(), "running e2e (") {
		t.Errorf("got %q", out.String())
	}
	r.handle(event{Action: "pass", Package: "github.com/agentjail/agentjail/e2e"})
	out.Reset()
	r.progress()
	if out.Len() != 0 {
		t.Errorf("nothing runs, yet it printed %q", out.String())
	}
}
