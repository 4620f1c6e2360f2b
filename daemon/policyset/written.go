package policyset

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/internal/written"
)

// maxWrittenCommands bounds the commands of written files judged for one
// call; past it the policies ask (written.too_many in policies/written.rego).
const maxWrittenCommands = 64

// judgeWritten judges the commands a write adds to files that something
// else runs later (input.agentjail.written) as Bash calls of their own,
// in the session's working directory, with the same policies: every
// shell rule applies to them as to a command the agent runs itself, and
// a deny or an ask of one is the write's, its message naming the file.
// Re-evaluating in Go rather than teaching each shell rule a second
// command list keeps the rules, users' rules included, as they are.
func (d *Decider) judgeWritten(ctx context.Context, set *policySet, env input.Env, files []written.File, dec *wire.Decision) {
	env.Written, env.ReadFile, env.Agent = nil, nil, "" // a synthetic Bash call: nothing to read, no recursion
	n := 0
	seen := map[string]bool{}
	added := false
	for _, f := range files {
		for i, c := range f.Shell {
			if n == maxWrittenCommands || ctx.Err() != nil {
				break
			}
			n++
			ev, _ := json.Marshal(map[string]any{
				"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": env.ClientCwd,
				"tool_input": map[string]any{"command": c},
			})
			in, _, err := input.Build(ev, env)
			if err != nil {
				continue
			}
			sub, err := set.engine.Eval(ctx, in)
			if err != nil {
				// The budget ran out or a rule failed: the write is
				// denied as any call whose evaluation fails.
				dec.Rules = append(dec.Rules, sub.Rules...)
				added = true
				continue
			}
			shown := f.Commands[i]
			for _, r := range sub.Rules {
				if r.Kind == wire.Allow || !counts(f.Rules, r.ID) {
					continue
				}
				kind, text := r.Kind, r.Msg
				if kind == wire.Deny && matchesPrefix(f.Asks, r.ID) {
					kind, text = wire.Ask, askText(text)
				}
				msg := fmt.Sprintf("%s would later run `%s`: %s", showPath(f.Path, env.Home), clipCommand(shown), text)
				if seen[msg] {
					continue
				}
				seen[msg] = true
				dec.Rules = append(dec.Rules, wire.Rule{Kind: kind, ID: r.ID, Msg: msg})
				added = true
			}
		}
	}
	if added {
		engine.Redecide(dec)
	}
}

// counts reports whether rule id counts for a file whose row limits the
// rules that apply to its commands (see written.Row.Rules).
func counts(prefixes []string, id string) bool {
	return len(prefixes) == 0 || matchesPrefix(prefixes, id)
}

// matchesPrefix reports whether id begins with one of prefixes.
func matchesPrefix(prefixes []string, id string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// askText turns a deny's message into an ask's: the rule's reason stays,
// its verdict word goes.
func askText(msg string) string {
	return strings.TrimPrefix(msg, "Blocked: ")
}

func showPath(p, home string) string {
	if home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// clipCommand keeps a command short enough to quote in a message.
func clipCommand(c string) string {
	c = strings.Join(strings.Fields(c), " ")
	if r := []rune(c); len(r) > 120 {
		return string(r[:117]) + "..."
	}
	return c
}
