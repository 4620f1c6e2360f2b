package agents

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateTable = flag.Bool("update-table", false, "rewrite the agents table in docs/agents.md from the agents' facts")

const (
	tablePage  = "../docs/agents.md"
	tableStart = "<!-- agents table: written from agents/*/NAME.go by go test ./agents -update-table -->\n"
	tableEnd   = "<!-- end of the agents table -->\n"
)

// TestAgentsTable: the agents table of the docs is each agent's Row, in
// the registry's order; it is written from them, never by hand:
//
//	go test ./agents -run TestAgentsTable -update-table
func TestAgentsTable(t *testing.T) {
	page, err := os.ReadFile(tablePage)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(page)
	start, end := strings.Index(doc, tableStart), strings.Index(doc, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("%s has no agents table between %q and %q", tablePage, tableStart, tableEnd)
	}
	want := agentsTable()
	if *updateTable {
		doc = doc[:start+len(tableStart)] + want + doc[end:]
		if err := os.WriteFile(tablePage, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := doc[start+len(tableStart) : end]; got != want {
		t.Errorf("the agents table in %s is not what the agents' facts say; write it again with\n  go test ./agents -run TestAgentsTable -update-table\nnow:\n%s", tablePage, want)
	}
	for _, a := range All {
		r := a.Table
		for col, v := range map[string]string{"Proven": r.Proven, "Install": r.Install, "Events": r.Events, "NoObjection": r.NoObjection, "Deny": r.Deny, "Ask": r.Ask, "Fails": r.Fails, "Subagents": r.Subagents, "System": r.System} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: its row says nothing under %s", a.Name, col)
			}
		}
	}
}

// agentsTable is the table, in Markdown.
func agentsTable() string {
	var b strings.Builder
	b.WriteString("| agent (version proven) | `agentjail install --for` | hook event | no objection | deny | ask | when the hook fails, is late or crashes | subagents | machine-wide (system mode) |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, a := range All {
		r := a.Table
		fmt.Fprintf(&b, "| %s (%s) | `%s`: %s | %s | %s | %s | %s | %s | %s | %s |\n",
			a.Title, r.Proven, a.Name, r.Install, r.Events, r.NoObjection, r.Deny, r.Ask, r.Fails, r.Subagents, r.System)
	}
	return b.String()
}
