package policies_test

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

const threatModel = "../docs/threat-model.md"

// threatRow is one technique of docs/threat-model.md.
type threatRow struct {
	id, stance      string
	rules           []string
	cases, lookalks []string
}

var codeSpan = regexp.MustCompile("`((?:[^`\\\\]|\\\\.)+)`")

// spans are the code spans of a table cell, with \| unescaped.
func spans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, strings.ReplaceAll(m[1], `\|`, "|"))
	}
	return out
}

// splitRow splits a markdown table row on the pipes that are not escaped.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' && i+1 < len(line) && line[i+1] == '|' {
			b.WriteString(`\|`)
			i++
			continue
		}
		if line[i] == '|' {
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
			continue
		}
		b.WriteByte(line[i])
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// between is the text of doc between two marker comments.
func between(t *testing.T, doc, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "<!-- "+name+":begin -->")
	body, _, ok2 := strings.Cut(rest, "<!-- "+name+":end -->")
	if !ok || !ok2 {
		t.Fatalf("%s: no <!-- %s:begin/end --> markers", threatModel, name)
	}
	return body
}

func readThreatModel(t *testing.T) (rows []threatRow, notInModel []string) {
	t.Helper()
	b, err := os.ReadFile(threatModel)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, line := range strings.Split(between(t, doc, "threat-table"), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ID ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := splitRow(line)
		if len(cells) != 8 {
			t.Fatalf("%s: row %q has %d cells, want 8 (ID, Technique, Source, Stance, Rules, Cases, Look-alikes, Why)", threatModel, line, len(cells))
		}
		rows = append(rows, threatRow{id: cells[0], stance: cells[3], rules: spans(cells[4]), cases: spans(cells[5]), lookalks: spans(cells[6])})
	}
	notInModel = spans(between(t, doc, "not-in-model"))
	return rows, notInModel
}

// packRuleIDs are the rule ids the default pack gives its messages.
func packRuleIDs(t *testing.T) []string {
	t.Helper()
	src, err := daemon.PackSources(policies.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	eng, errs := engine.Compile(context.Background(), src, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return eng.RuleIDs()
}

// TestThreatModel keeps docs/threat-model.md true to the pack: every
// rule id it names exists, every rule id of the pack is named, and every
// case it references gets the row's verdict from one of the row's rules
// through the real daemon (look-alikes are allowed).
func TestThreatModel(t *testing.T) {
	rows, notInModel := readThreatModel(t)
	if len(rows) < 40 {
		t.Fatalf("%s has %d rows; the map covers far more techniques", threatModel, len(rows))
	}
	ids := packRuleIDs(t)
	named := map[string]bool{}
	for _, id := range notInModel {
		named[id] = true
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.id] {
			t.Errorf("row %s appears twice", r.id)
		}
		seen[r.id] = true
		switch r.stance {
		case "deny", "ask", "deny/ask":
			if len(r.rules) == 0 || len(r.cases) == 0 {
				t.Errorf("row %s (%s) names no rules or no cases", r.id, r.stance)
			}
		case "allow":
			if len(r.rules) != 0 || len(r.lookalks) == 0 {
				t.Errorf("row %s: an allowed technique names no rules and at least one look-alike", r.id)
			}
		case "gap":
		default:
			t.Errorf("row %s: stance %q is not deny, ask, deny/ask, allow or gap", r.id, r.stance)
		}
		for _, id := range r.rules {
			named[id] = true
			if !slices.Contains(ids, id) {
				t.Errorf("row %s names rule %s, which the pack does not have", r.id, id)
			}
		}
	}
	for _, id := range ids {
		if !named[id] {
			t.Errorf("rule %s of the pack is in no row of %s (nor under \"Not in the model\")", id, threatModel)
		}
	}

	d := daemontest.StartFor(t, caseHome, nil)
	cases := loadCases(t, d.Home)
	daemons := newCaseDaemons(t, d)
	find := func(ref string) (tableCase, bool) {
		file, text, ok := strings.Cut(ref, ".txt: ")
		if !ok {
			t.Errorf("case reference %q: want FILE.txt: TEXT", ref)
			return tableCase{}, false
		}
		for _, c := range cases[file] {
			_, call, _ := strings.Cut(c.line, " ")
			if strings.Contains(call, text) {
				return c, true
			}
		}
		t.Errorf("case reference %q: no case of cases/%s.txt contains it", ref, file)
		return tableCase{}, false
	}
	decide := func(c tableCase) *wire.Decision {
		dec, err := daemons.decide(c)
		if err != nil {
			t.Fatal(err)
		}
		return dec
	}
	for _, r := range rows {
		for _, ref := range r.cases {
			c, ok := find(ref)
			if !ok {
				continue
			}
			if c.want == wire.Allow || (r.stance != "deny/ask" && string(c.want) != r.stance) {
				t.Errorf("row %s (%s): case %q expects %s", r.id, r.stance, ref, c.want)
			}
			dec := decide(c)
			fired := false
			for _, rule := range dec.Rules {
				if rule.Kind == dec.Verdict && slices.Contains(r.rules, rule.ID) {
					fired = true
				}
			}
			if dec.Verdict != c.want || !fired {
				t.Errorf("row %s: case %q got %s (%s), want %s from one of %v", r.id, ref, dec.Verdict, dec.Reason, c.want, r.rules)
			}
		}
		for _, ref := range r.lookalks {
			c, ok := find(ref)
			if !ok {
				continue
			}
			if c.want != wire.Allow {
				t.Errorf("row %s: look-alike %q expects %s, not allow", r.id, ref, c.want)
			}
			if dec := decide(c); dec.Verdict != wire.Allow {
				t.Errorf("row %s: look-alike %q got %s (%s)", r.id, ref, dec.Verdict, dec.Reason)
			}
		}
	}
}
