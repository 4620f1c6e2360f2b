package hookcmd

import (
	"errors"
	"flag"
	"slices"
	"testing"
	"time"
)

func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"/h/bin/agentjail-hook --timeout 2s", []string{"/h/bin/agentjail-hook", "--timeout", "2s"}},
		{`'/my home/bin/agentjail-hook' --agent codex`, []string{"/my home/bin/agentjail-hook", "--agent", "codex"}},
		{`"/a b/agentjail-hook"  --post`, []string{"/a b/agentjail-hook", "--post"}},
		{`'/it'\''s/agentjail-hook'`, []string{"/it's/agentjail-hook"}},
		{`/a\ b/agentjail-hook`, []string{"/a b/agentjail-hook"}},
		{"  ", nil},
	} {
		if got := Split(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// The flags read as the hook runs them, for every reader of a line: a
// bad flag never makes the hook weaker than its line asks, and a system
// hook fails closed unless its line says otherwise.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		want    Flags
		wantErr bool
	}{
		{nil, Flags{Timeout: DefaultTimeout}, false},
		{[]string{"--timeout", "5s", "--fail-closed", "--hold", "1m0s", "--agent", "codex"}, Flags{Timeout: 5 * time.Second, FailClosed: true, Hold: time.Minute, Agent: "codex"}, false},
		{[]string{"-timeout=1.5s", "-post"}, Flags{Timeout: 1500 * time.Millisecond, Post: true}, false},
		{[]string{"--system"}, Flags{Timeout: DefaultTimeout, System: true, FailClosed: true}, false},
		{[]string{"--fail-closed=false", "--system"}, Flags{Timeout: DefaultTimeout, System: true}, false},
		{[]string{"--timeout", "soon", "--fail-closed"}, Flags{Timeout: DefaultTimeout, FailClosed: true}, true},
		{[]string{"--bogus", "--system", "--hold", "1m"}, Flags{Timeout: DefaultTimeout, System: true, FailClosed: true}, true},
		{[]string{"--timeout", "-1s"}, Flags{Timeout: DefaultTimeout}, true},
		{[]string{"--hold", "-5s"}, Flags{Timeout: DefaultTimeout}, false},
	} {
		got, err := Parse(tt.args)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) = %+v, %v; want %+v (an error: %v)", tt.args, got, err, tt.want, tt.wantErr)
		}
	}
	if _, err := Parse([]string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v", err)
	}
}

func TestIsHook(t *testing.T) {
	for line, want := range map[string]bool{
		"/h/.agentjail/bin/agentjail-hook --post":  true,
		`'/my home/bin/agentjail-hook' --system`:   true,
		"agentjail-hook":                           true,
		"/opt/agentjail-hook-tools/run":            false,
		"/usr/bin/echo agentjail-hook":             false,
		"/usr/local/bin/not-agentjail-hook --post": false,
	} {
		if got := IsHook(line); got != want {
			t.Errorf("IsHook(%q) = %v, want %v", line, got, want)
		}
	}
}
