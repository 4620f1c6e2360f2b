package policies_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

const threatModel = "../docs/threat-model.md"

// threatRow is one technique of docs/threat-model.md.
type threatRow struct {
	id, source, stance string
	rules              []string
	cases, lookalks    []string
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
		rows = append(rows, threatRow{id: cells[0], source: cells[2], stance: cells[3], rules: spans(cells[4]), cases: spans(cells[5]), lookalks: spans(cells[6])})
	}
	notInModel = spans(between(t, doc, "not-in-model"))
	return rows, notInModel
}

// packRuleIDs are the rule ids the default pack gives its messages.
func packRuleIDs(t *testing.T) []string {
	t.Helper()
	src, err := policyset.PackSources(policies.FS, false)
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
	// A class that needs real users and files (system mode) is proven by
	// an end-to-end test: its reference names the test file and a call
	// in it, which must be there; that test checks the verdict.
	inE2E := func(ref string) bool {
		file, text, ok := strings.Cut(ref, ": ")
		if !ok || !strings.HasPrefix(file, "e2e/") {
			return false
		}
		if b, err := os.ReadFile(filepath.Join("..", file)); err != nil || !strings.Contains(string(b), text) {
			t.Errorf("case reference %q: %s has no such call (%v)", ref, file, err)
		}
		return true
	}
	for _, r := range rows {
		for _, ref := range r.cases {
			if inE2E(ref) {
				continue
			}
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
			if inE2E(ref) {
				continue
			}
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

// The catalogues docs/threat-model.md accounts for, technique by technique.
const (
	attackCatalogue = "../docs/attack/enterprise.tsv"
	owaspCatalogue  = "../docs/attack/owasp.tsv"
)

// attackPlatforms are the ATT&CK platforms a developer's machine touches
// (PRE is the adversary's side, listed for completeness).
var attackPlatforms = []string{"Linux", "macOS", "Containers", "IaaS", "SaaS", "Identity Provider", "Office Suite", "PRE"}

var (
	attackID  = regexp.MustCompile(`\bT\d{4}(?:\.\d{3})?\b`)
	owaspLLM  = regexp.MustCompile(`\bLLM\d\d\b`)
	agenticID = regexp.MustCompile(`\bT\d{1,2}\b`)
	figures   = regexp.MustCompile(`\*\*(\d+) techniques in scope: (\d+) covered, (\d+) allowed, (\d+) out of scope, (\d+) gap\*\*`)
	owaspFigs = regexp.MustCompile(`\*\*(\d+) OWASP entries: (\d+) covered, (\d+) out of scope\*\*`)
)

type catalogueEntry struct {
	name      string
	platforms []string
}

// readCatalogue reads a TSV catalogue: comment lines start with #, then
// id, name and (for ATT&CK) platforms.
func readCatalogue(t *testing.T, file string) (ids []string, entries map[string]catalogueEntry) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	entries = map[string]catalogueEntry{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			t.Fatalf("%s: line %q has no name", file, line)
		}
		e := catalogueEntry{name: f[1]}
		if len(f) > 2 {
			e.platforms = strings.Split(f[2], ",")
		}
		ids = append(ids, f[0])
		entries[f[0]] = e
	}
	return ids, entries
}

// sourceIDs are the ATT&CK ids and OWASP entries ("LLM01", "Agentic T3")
// a map row's Source cell names.
func sourceIDs(source string) (attack, owasp []string) {
	attack = attackID.FindAllString(source, -1)
	owasp = owaspLLM.FindAllString(source, -1)
	for _, seg := range strings.Split(source, ";") {
		if _, after, ok := strings.Cut(seg, "Agentic"); ok {
			for _, id := range agenticID.FindAllString(after, -1) {
				owasp = append(owasp, "Agentic "+id)
			}
		}
	}
	return attack, owasp
}

// names reports whether a map row's Source covers technique id: the id
// itself, its parent, or one of its sub-techniques.
func names(ids []string, id string) bool {
	parent, _, _ := strings.Cut(id, ".")
	for _, s := range ids {
		if s == id || s == parent || strings.HasPrefix(s, id+".") {
			return true
		}
	}
	return false
}

// TestThreatModelCatalogues checks the technique-by-technique tables of
// docs/threat-model.md against the catalogues in docs/attack/ and the
// map: one row per technique in scope, covered rows name existing map
// rows that name the technique, other rows give a reason, map rows'
// ATT&CK ids exist, and the figures are the table's.
func TestThreatModelCatalogues(t *testing.T) {
	rows, _ := readThreatModel(t)
	mapRows := map[string]threatRow{}
	prefixes := map[string]bool{}
	for _, r := range rows {
		mapRows[r.id] = r
		p, _, _ := strings.Cut(r.id, "-")
		prefixes[p] = true
	}
	b, err := os.ReadFile(threatModel)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	attackIDs, attack := readCatalogue(t, attackCatalogue)
	if len(attackIDs) < 500 {
		t.Fatalf("%s has %d techniques; regenerate it with tools/mkattack", attackCatalogue, len(attackIDs))
	}
	owaspIDs, owasp := readCatalogue(t, owaspCatalogue)
	var inScope []string
	for _, id := range attackIDs {
		if slices.ContainsFunc(attack[id].platforms, func(p string) bool { return slices.Contains(attackPlatforms, p) }) {
			inScope = append(inScope, id)
		}
	}

	mapID := regexp.MustCompile(`\b([A-Z]+[0-9]*)-[0-9]+[a-z]?\b`)
	type account struct{ status, detail string }
	counts := map[string]map[string]int{}
	table := func(marker string, want []string, catalogue map[string]catalogueEntry) map[string]account {
		got := map[string]account{}
		counts[marker] = map[string]int{}
		for _, line := range strings.Split(between(t, doc, marker), "\n") {
			if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") || strings.HasPrefix(line, "| ATT&CK |") || strings.HasPrefix(line, "| OWASP |") {
				continue
			}
			cells := splitRow(line)
			if len(cells) != 4 {
				t.Errorf("%s: row %q has %d cells, want 4 (id, name, account, rows or reason)", marker, line, len(cells))
				continue
			}
			id, name, status, detail := cells[0], strings.ReplaceAll(cells[1], `\|`, "|"), cells[2], cells[3]
			if _, dup := got[id]; dup {
				t.Errorf("%s: %s has two rows", marker, id)
			}
			got[id] = account{status, detail}
			counts[marker][status]++
			if e, ok := catalogue[id]; !ok || !slices.Contains(want, id) {
				t.Errorf("%s: %s is not in scope in the catalogue (a revoked, deprecated or mistyped id, or a platform out of scope)", marker, id)
			} else if e.name != name {
				t.Errorf("%s: %s is named %q, the catalogue says %q", marker, id, name, e.name)
			}
			switch status {
			case "covered", "allowed":
				stance := false
				for _, rid := range strings.Split(detail, ",") {
					rid = strings.TrimSpace(rid)
					r, ok := mapRows[rid]
					if !ok {
						t.Errorf("%s: %s names map row %q, which docs/threat-model.md's map does not have", marker, id, rid)
						continue
					}
					if (status == "allowed") == (r.stance == "allow") {
						stance = true
					}
					attackIn, owaspIn := sourceIDs(r.source)
					if !names(attackIn, id) && !slices.Contains(owaspIn, id) {
						t.Errorf("%s: %s is %s by map row %s, whose Source does not name it (nor its parent or a sub-technique): add %s there", marker, id, status, rid, id)
					}
				}
				if !stance {
					t.Errorf("%s: %s is %s, but none of %q has that stance (covered: deny or ask; allowed: allow)", marker, id, status, detail)
				}
			case "out of scope", "gap":
				if strings.TrimSpace(detail) == "" {
					t.Errorf("%s: %s is %s without a reason", marker, id, status)
				}
				for _, m := range mapID.FindAllStringSubmatch(detail, -1) {
					if _, ok := mapRows[m[0]]; prefixes[m[1]] && !ok {
						t.Errorf("%s: %s's reason names map row %s, which the map does not have", marker, id, m[0])
					}
				}
			default:
				t.Errorf("%s: %s's account %q is not covered, allowed, out of scope or gap", marker, id, status)
			}
		}
		for _, id := range want {
			if _, ok := got[id]; !ok {
				t.Errorf("%s: %s (%s) has no row; add one: covered by map rows, out of scope: why, or gap", marker, id, catalogue[id].name)
			}
		}
		return got
	}
	attackRows := table("attack-table", inScope, attack)
	owaspRows := table("owasp-table", owaspIDs, owasp)

	// The map's claims: every ATT&CK id exists, and a technique in scope
	// that a map row names lists or mentions that row.
	for _, r := range rows {
		attackIn, owaspIn := sourceIDs(r.source)
		for _, id := range attackIn {
			if _, ok := attack[id]; !ok {
				t.Errorf("map row %s names %s, which is not in %s (mistyped, revoked or deprecated)", r.id, id, attackCatalogue)
			}
		}
		check := func(rows map[string]account, id string) {
			a, ok := rows[id]
			if !ok {
				return
			}
			mentioned := slices.ContainsFunc(strings.Split(a.detail, ","), func(s string) bool { return strings.TrimSpace(s) == r.id })
			if !mentioned && (a.status == "out of scope" || a.status == "gap") {
				mentioned = regexp.MustCompile(`\b` + regexp.QuoteMeta(r.id) + `\b`).MatchString(a.detail)
			}
			if !mentioned {
				t.Errorf("map row %s names %s, but its row in the technique tables (%s: %s) does not name %s", r.id, id, a.status, a.detail, r.id)
			}
		}
		for _, id := range attackIn {
			check(attackRows, id)
		}
		for _, id := range owaspIn {
			check(owaspRows, id)
		}
	}

	c := counts["attack-table"]
	want := []int{len(inScope), c["covered"], c["allowed"], c["out of scope"], c["gap"]}
	if m := figures.FindStringSubmatch(doc); m == nil {
		t.Errorf("%s: no **N techniques in scope: N covered, N allowed, N out of scope, N gap** figures", threatModel)
	} else if fmt.Sprint(m[1:]) != fmt.Sprint(want) {
		t.Errorf("%s: the ATT&CK figures say %v (in scope, covered, allowed, out of scope, gap); the table has %v", threatModel, m[1:], want)
	}
	o := counts["owasp-table"]
	wantO := []int{len(owaspIDs), o["covered"], o["out of scope"]}
	if m := owaspFigs.FindStringSubmatch(doc); m == nil {
		t.Errorf("%s: no **N OWASP entries: N covered, N out of scope** figures", threatModel)
	} else if fmt.Sprint(m[1:]) != fmt.Sprint(wantO) {
		t.Errorf("%s: the OWASP figures say %v (entries, covered, out of scope); the table has %v", threatModel, m[1:], wantO)
	}
}
