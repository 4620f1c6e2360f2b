package engine

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// This file turns OPA's wording into agentjail's where a user meets it:
// a file mixing the two Rego syntaxes, a built-in refused because
// policies run offline.

// mixedVersions recognises a file that parses neither as v1 nor as v0
// because it is written in both: the v1 parser stops on a v0 rule (a
// rule body without `if`, a set rule without `contains`) while the file
// uses v1 keywords elsewhere. OPA reads a file in one syntax, so both
// parsers fail, each at the other's lines; the user needs to hear that,
// not either error alone. Nil when the file is not such a mix.
func mixedVersions(name string, text []byte, errV1 error) error {
	row := 0
	for _, e := range errorsOf(errV1) {
		if strings.Contains(e.Message, "keyword is required") && e.Location != nil && (row == 0 || e.Location.Row < row) {
			row = e.Location.Row
		}
	}
	if row == 0 {
		return nil
	}
	v1Row := 0
	for i, line := range strings.Split(string(text), "\n") {
		if i+1 == row {
			continue
		}
		if code, _, _ := strings.Cut(line, "#"); looksV1.MatchString(code) {
			v1Row = i + 1
			break
		}
	}
	if v1Row == 0 {
		return nil // a v0 file with a v0 mistake: the v0 error says more
	}
	msg := fmt.Sprintf("this file mixes Rego v0 and v1: line %d is written in v0 (a rule without `if`, or a set rule without `contains`), line %d in v1; OPA reads a file in one syntax. Write every rule in v1 (`deny contains msg if { ... }`), or move the v0 rules to a file of their own", row, v1Row)
	return ast.Errors{ast.NewError(ast.ParseErr, &ast.Location{File: name, Row: row, Col: 1}, "%s", msg)}
}

func errorsOf(err error) ast.Errors {
	if errs, ok := err.(ast.Errors); ok {
		return errs
	}
	return nil
}

// offlineMessage rewrites OPA's refusal of a built-in that reaches the
// network.
var unsafeCall = regexp.MustCompile(`unsafe built-in function calls in expression: (.*)`)

func offlineMessage(msg string) string {
	m := unsafeCall.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	return fmt.Sprintf("policies run offline: %s is not available, because agentjail decides every call locally and never waits on the network; put what the rule needs in a policy file (a table in data, or a rule), or fetch it outside agentjail", m[1])
}

// JoinReasons joins rule messages into one reason: "a; b; c.". A
// message's own closing period is dropped before a separator, so the
// reason never reads "a.; b".
func JoinReasons(msgs []string) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		if i < len(msgs)-1 {
			m = strings.TrimRight(strings.TrimSpace(m), ".")
		}
		parts[i] = m
	}
	return strings.Join(parts, "; ")
}

// ruleIDs collects the ids the deny, ask and allow rules of package
// agentjail (and an org bundle's agentjail.org) give their messages ({"id": "git.force_push", "msg": ...}),
// where the id is written as a string. dynamic is set when a rule
// computes its id, so the set cannot be complete.
func ruleIDs(modules map[string]*ast.Module) (ids map[string]bool, dynamic bool) {
	ids = map[string]bool{}
	for _, m := range modules {
		if p := m.Package.Path.String(); p != "data."+Package && p != "data."+OrgPackage {
			continue
		}
		for _, r := range m.Rules {
			if _, id, computed := messageID(r); id != "" {
				ids[id] = true
			} else if computed {
				dynamic = true
			}
		}
	}
	return ids, dynamic
}

// messageID is the id a deny, ask or allow rule gives its messages
// ({"id": "git.force_push", "msg": ...}) and the set it adds them to; id
// is "" for any other rule, a plain message, or an id the rule computes
// (computed is then set).
func messageID(r *ast.Rule) (verdict, id string, computed bool) {
	verdict = r.Head.Name.String()
	switch verdict {
	case "deny", "ask", "allow":
	default:
		return "", "", false
	}
	if r.Head.Key == nil {
		return "", "", false
	}
	obj, ok := r.Head.Key.Value.(ast.Object)
	if !ok {
		return "", "", false // a plain message: no id
	}
	term := obj.Get(ast.StringTerm("id"))
	if term == nil {
		return "", "", false
	}
	if s, ok := term.Value.(ast.String); ok {
		return verdict, string(s), false
	}
	return "", "", true
}

// RuleIDs lists the rule ids the policies in force give their messages.
func (e *Engine) RuleIDs() []string {
	out := make([]string, 0, len(e.ids))
	for id := range e.ids {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// UnknownRuleIDs lists the ids in ids that no rule in force gives its
// messages: config.yaml's disabled_rules naming one disables nothing,
// which a typo must not be allowed to look like. Nil when some rule
// computes its id (nothing can be said for sure then).
func (e *Engine) UnknownRuleIDs(ids []string) []string {
	if e.dynamicIDs {
		return nil
	}
	var out []string
	for _, id := range ids {
		if !e.ids[id] {
			out = append(out, id)
		}
	}
	return out
}

// FileRule is one rule id a policy file gives its messages, with the set
// it adds them to: "deny", "ask" or "allow".
type FileRule struct {
	ID, Verdict string
}

// FileRules lists the rule ids one policy file of package agentjail
// gives its messages, as ruleIDs finds them, sorted by id then verdict;
// an id two sets use (a deny here, an ask there) is listed once per set.
// It is what the default pack's generated page (docs/pack.md) is built from.
func FileRules(name string, text []byte) ([]FileRule, error) {
	m, _, err := Parse(name, text)
	if err != nil {
		return nil, err
	}
	seen := map[FileRule]bool{}
	var out []FileRule
	for _, r := range m.Rules {
		verdict, id, _ := messageID(r)
		if id == "" {
			continue
		}
		fr := FileRule{ID: id, Verdict: verdict}
		if !seen[fr] {
			seen[fr] = true
			out = append(out, fr)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].Verdict < out[j].Verdict
	})
	return out, nil
}
