// Package hookcmd owns the hook's command line. The hook parses its own
// arguments with Parse; the installer, its health check and the daemon
// read the command lines in agents' settings with ParseLine, so every
// one of them reads a line as the hook will run it.
package hookcmd

import (
	"errors"
	"flag"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// Program is the base name of the hook's binary.
const Program = "agentjail-hook"

// DefaultTimeout is the hook's deadline without --timeout: reading
// stdin, reaching the daemon and its answer.
const DefaultTimeout = 2 * time.Second

// Flags are what the hook's flags ask for.
type Flags struct {
	Timeout    time.Duration // --timeout; DefaultTimeout when absent or bad
	FailClosed bool          // --fail-closed, or --system without --fail-closed=false
	Agent      string        // --agent; "" for the default agent
	System     bool          // --system: ask the system daemon
	Hold       time.Duration // --hold: how long a call may wait for a person; 0 holds nothing
	Post       bool          // --post: the agent's post-tool event
}

// Parse reads the hook's arguments (without the program's name) as the
// hook runs them. A bad flag stops the reading there, as Go's flag
// package does, and is returned with what was read; the safer choices
// still count wherever they were asked for (--fail-closed, --system), so
// a broken flag in an agent's settings never makes the hook weaker.
// flag.ErrHelp is returned for -h and --help.
func Parse(args []string) (Flags, error) {
	var f Flags
	set := flag.NewFlagSet(Program, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	set.DurationVar(&f.Timeout, "timeout", DefaultTimeout, "")
	set.BoolVar(&f.FailClosed, "fail-closed", false, "")
	set.StringVar(&f.Agent, "agent", "", "")
	set.BoolVar(&f.System, "system", false, "")
	set.DurationVar(&f.Hold, "hold", 0, "")
	set.BoolVar(&f.Post, "post", false, "")
	err := set.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return f, err
	}
	explicit := false // --fail-closed=… said, one way or the other
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		explicit = explicit || strings.HasPrefix(a, "fail-closed=")
		f.System = f.System || a == "system" || a == "system=true"
		if err != nil && (a == "fail-closed" || strings.HasPrefix(a, "fail-closed=t")) {
			f.FailClosed = true
		}
	}
	// A system hook fails closed unless its line says otherwise: the
	// machine's guard does not let a call through unchecked by default.
	if f.System && !explicit {
		f.FailClosed = true
	}
	if f.Hold < 0 {
		f.Hold = 0
	}
	if f.Timeout <= 0 {
		if err == nil {
			err = errors.New("--timeout must be positive, got " + f.Timeout.String() + "; using " + DefaultTimeout.String())
		}
		f.Timeout = DefaultTimeout
	}
	return f, err
}

// Line is one hook command line, read as the hook runs it.
type Line struct {
	Program string // the program, unquoted
	Flags   Flags
	Err     error // a bad flag, past which the hook reads no more flags
}

// ParseLine reads a hook command line as written in an agent's
// settings (see Split).
func ParseLine(s string) Line {
	words := Split(s)
	if len(words) == 0 {
		f, _ := Parse(nil)
		return Line{Flags: f}
	}
	f, err := Parse(words[1:])
	return Line{Program: words[0], Flags: f, Err: err}
}

// IsHook reports whether a command line runs agentjail's hook.
func IsHook(s string) bool {
	words := Split(s)
	return len(words) > 0 && filepath.Base(words[0]) == Program
}

// Split splits a command line as the installer writes one and a POSIX
// shell reads it: words separated by blanks, single-quoted parts taken
// literally (an embedded quote is written as quote, backslash, quote,
// quote), double quotes grouping, a backslash outside quotes escaping
// the next byte.
func Split(s string) []string {
	var out []string
	var cur strings.Builder
	in, has := byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in != 0 && c == in:
			in = 0
		case in != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			in, has = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			has = true
		case c == ' ' || c == '\t' || c == '\n':
			if has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteByte(c)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}
