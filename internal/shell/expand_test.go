package shell

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestVariables: the values the daemon knows and the ones assigned
// earlier in the same command line are expanded, so a path given through
// a variable is seen as that path.
func TestVariables(t *testing.T) {
	env := testEnv
	env.Vars = map[string]string{"AGENTJAIL_HOME": "/home/dev/.agentjail", "AGENTJAIL_SOCKET": "/run/aj/agentjail.sock"}
	tests := []struct {
		name     string
		command  string
		paths    string // of the last command
		prefixes string // of the last command
	}{
		{"known variable", `rm -rf $AGENTJAIL_HOME/policies`, "/home/dev/.agentjail/policies", ""},
		{"known variable braced and quoted", `rm "${AGENTJAIL_SOCKET}"`, "/run/aj/agentjail.sock", ""},
		{"HOME then a folder", `rm -rf $HOME/.agentjail`, "/home/dev/.agentjail", ""},
		{"assigned before", `H=~/.agentjail; rm -rf $H/policies`, "/home/dev/.agentjail/policies", ""},
		{"assigned with &&", `H=$HOME/.claude && cp x "$H/settings.json"`, "/home/dev/project/x,/home/dev/.claude/settings.json", ""},
		{"exported", `export D=/etc; cat $D/passwd`, "/etc/passwd", ""},
		{"assigned in a chain", `A=/home/dev; B=$A/.agentjail; rm -rf ${B}`, "/home/dev/.agentjail", ""},
		{"assigned in an if", `if true; then H=~/.agentjail; fi; rm -rf $H`, "/home/dev/.agentjail", ""},
		{"reassigned to something unknown", `H=~/.agentjail; H=$(pwd); rm -rf $H/x`, "", ""},
		{"a prefix assignment does not hold for its own words", `H=/x rm -rf $H`, "", ""},
		{"a subshell's assignment does not leak", `(H=/x); rm $H`, "", ""},
		{"a pipeline member's assignment does not leak", `H=/x | true; rm $H`, "", ""},
		{"dynamic value keeps its static start", `H=~/.agentjail/$X; rm -rf $H/policies`, "", "/home/dev/.agentjail"},
		{"static start of a dynamic word", `rm -rf ~/.claude/$F`, "", "/home/dev/.claude"},
		{"static start through HOME", `rm "$HOME/.agentjail/$X"`, "", "/home/dev/.agentjail"},
		{"relative static start", `rm .claude/$F`, "", "/home/dev/project/.claude"},
		{"no folder in the static start", `rm $F`, "", ""},
		{"unknown variable stays dynamic", `rm $NOPE/x`, "", ""},
		{"loop variable is unknown", `for H in a b; do rm $H; done`, "", ""},
		{"loop variable of one item", `for H in ~/.agentjail/policies/*; do rm "$H"; done`, "/home/dev/.agentjail/policies/*", ""},
		{"loop variable's common start", `for H in ~/.agentjail/policies/a ~/.agentjail/policies/b; do rm "$H"; done`, "", "/home/dev/.agentjail/policies"},
		{"bash -c sees earlier assignments", `H=~/.agentjail; bash -c "rm -rf $H"`, "/home/dev/.agentjail", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, env)
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
			}
			last := r.Commands[len(r.Commands)-1]
			if got := strings.Join(last.Paths, ","); got != tt.paths {
				t.Errorf("paths %q, want %q", got, tt.paths)
			}
			if got := strings.Join(last.Prefixes, ","); got != tt.prefixes {
				t.Errorf("prefixes %q, want %q", got, tt.prefixes)
			}
		})
	}
}

func TestRedirectPrefix(t *testing.T) {
	r := Parse(`echo x > ~/.agentjail/policies/$N.rego`, testEnv)
	if len(r.Commands) != 1 || len(r.Commands[0].Redirects) != 1 {
		t.Fatalf("%+v", r)
	}
	if rd := r.Commands[0].Redirects[0]; rd.Path != "" || rd.Prefix != "/home/dev/.agentjail/policies" {
		t.Errorf("redirect %+v, want prefix ~/.agentjail/policies and no path", rd)
	}
}

// TestExpansionBounds: every expansion stops at its bound with an Error
// (policies then ask), and what is collected stays within MaxWords.
func TestExpansionBounds(t *testing.T) {
	tests := []struct {
		name, command, want string
	}{
		{"brace product", `echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}`, "more than 10000 words"},
		{"long sequence", `echo {1..100000}`, "more than 10000 words"},
		{"huge sequence", `echo {1..9223372036854775807}`, "more than 10000 words"},
		{"negative step", `echo {100000..1..-1}`, "more than 10000 words"},
		{"many brace groups", "echo " + strings.Repeat("{a..a}", 40), "brace expansions"},
		{"many operands", "echo " + strings.Repeat("a ", 100000), "more than 10000 words"},
		{"here-string items for xargs", "xargs rm <<< '" + strings.Repeat("a ", 20000) + "'", "more than 10000 words"},
		{"find roots times {}", "find " + strings.Repeat("r ", 200) + "-exec echo" + strings.Repeat(" {}", 200) + ` \;`, "more than 10000 words"},
		{"long pipeline", strings.Repeat("true | ", 10000) + "true", "more than 2000 commands"},
		{"pipeline of distinct names", pipeline(3000), "more than"},
		{"nested substitutions", nestedSubst(150, strings.Repeat("x", 2000)), "too much text"},
		{"nested shells", nestedShells(MaxDepth + 1), "nest more than"},
		{"blocks with redirections", nestedBlocks(150, 200), "more than 10000 words"},
		{"variables", manyVars(MaxVars + 1), "more than 64 variables"},
		{"one variable expanded many times", "A=" + strings.Repeat("x", 60000) + "; echo" + strings.Repeat(" $A", 100), "too much text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.command, testEnv)
			if !strings.Contains(r.Error, tt.want) {
				t.Errorf("error %q, want one containing %q", r.Error, tt.want)
			}
			words := 0
			for _, c := range r.Commands {
				words += len(c.Args) + len(c.Redirects) + len(c.PipeFrom)
			}
			if words > MaxWords {
				t.Errorf("%d words collected, more than MaxWords", words)
			}
		})
	}
	// Within the bounds, expansions are made.
	if r := Parse(`echo {a,b}{c,d} {1..3}`, testEnv); r.Error != "" || strings.Join(r.Commands[0].Args, " ") != "ac ad bc bd 1 2 3" {
		t.Errorf("brace expansion: %+v", r)
	}
}

func pipeline(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("p%d", i)
	}
	return strings.Join(parts, " | ")
}

func nestedSubst(depth int, inner string) string {
	s := "echo " + inner
	for range depth {
		s = "echo $(" + s + ")"
	}
	return s
}

func nestedShells(depth int) string {
	s := "rm -rf ~"
	for range depth {
		s = "bash -c " + quote(s)
	}
	return s
}

func nestedBlocks(depth, cmds int) string {
	return strings.Repeat("{ ", depth) + strings.Repeat("true; ", cmds) + strings.Repeat("} >f; ", depth)
}

func manyVars(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "V%d=x; ", i)
	}
	return b.String() + "echo ok"
}

// allocated is the memory Parse allocates for command, the deterministic
// stand-in for its cost (a test never measures time).
func allocated(command string) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	Parse(command, testEnv)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestCostIsLinear: a command 100 times longer costs at most about 100
// times more, for ordinary commands and for the shapes that expand.
func TestCostIsLinear(t *testing.T) {
	tests := []struct {
		name string
		make func(n int) string // a command of about n units
	}{
		{"ordinary commands", func(n int) string { return strings.Repeat("git add -A && go test ./... 2>&1 | tail -20; ", n) }},
		{"brace products", func(n int) string { return strings.Repeat("echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}; ", n) }},
		{"small brace products", func(n int) string { return strings.Repeat("echo {a,b}{c,d}{e,f}; ", n) }},
		{"pipeline stages", func(n int) string { return strings.Repeat("cat x | ", n) + "true" }},
		{"distinct pipeline stages", func(n int) string { return pipeline(n) }},
		{"nested substitutions", func(n int) string { return nestedSubst(min(n, 190), strings.Repeat("y", n)) }},
		{"nested shells", func(n int) string { return nestedShells(min(n, MaxDepth+1)) + strings.Repeat(" x", n) }},
		{"operands", func(n int) string { return "echo" + strings.Repeat(" a", n*10) }},
		{"here-documents", func(n int) string { return "bash <<'EOF'\n" + strings.Repeat("rm -rf ./build\n", n) + "EOF" }},
		{"xargs items", func(n int) string { return "xargs rm <<< '" + strings.Repeat("a ", n*10) + "'" }},
		{"find roots times {}", func(n int) string {
			return "find" + strings.Repeat(" r", n) + " -exec echo" + strings.Repeat(" {}", n) + ` \;`
		}},
		{"blocks with redirections", func(n int) string { return nestedBlocks(min(n, 190), n) }},
		{"variables expanded", func(n int) string { return "A=" + strings.Repeat("x", 50) + "; echo" + strings.Repeat(" $A", n) }},
		{"assignments", func(n int) string { return manyVars(min(n, MaxVars)) + strings.Repeat(" $V1", n) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			small, large := tt.make(20), tt.make(2000)
			ratio := float64(len(large)) / float64(len(small))
			a, b := allocated(small), allocated(large)
			// About 100 times longer may cost about 100 times more; the
			// margin covers fixed costs that do not scale at all.
			if float64(b) > 1.5*ratio*float64(a)+1<<20 {
				t.Errorf("%d bytes -> %d allocated, %d bytes (%.0fx longer) -> %d allocated (%.0fx)", len(small), a, len(large), ratio, b, float64(b)/float64(a))
			}
			if b > 64<<20 {
				t.Errorf("%d bytes of command allocated %d MiB", len(large), b>>20)
			}
		})
	}
}
