package agents

import (
	"flag"

	"fmt"
	"github.com/agentjail/agentjail/agent"
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

// readmeStart and readmeEnd hold the README's short table of agents.
const (
	readmePage  = "../README.md"
	readmeStart = "<!-- agents: written from agents/*/NAME.go by go test ./agents -update-table -->\n"
	readmeEnd   = "<!-- end of the agents -->\n"
)

// TestReadmeAgents: the README names every agent, with the name --for
// takes and the version its test proves, from the same facts.
func TestReadmeAgents(t *testing.T) {
	checkGenerated(t, readmePage, readmeStart, readmeEnd, readmeTable())
}

// readmeTable is the README's short table.
func readmeTable() string {
	var b strings.Builder
	b.WriteString("| agent | `--for` | proven with |\n| --- | --- | --- |\n")
	for _, a := range All {
		proven := a.Table.Proven
		if i := strings.IndexAny(proven, ":;("); i > 0 && !strings.HasPrefix(proven, "not run") {
			proven = strings.TrimSpace(proven[:i])
		}
		if strings.HasPrefix(proven, "not run") {
			proven = "its documented events (no CLI runs here without a login)"
		} else {
			proven = "its real CLI, " + proven
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", a.Title, a.Name, proven)
	}
	return b.String()
}

// checkGenerated holds the text between start and end of page to want,
// or writes it there with -update-table.
func checkGenerated(t *testing.T, page, start, end, want string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, start), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated part between %q and %q", page, start, end)
	}
	if *updateTable {
		if err := os.WriteFile(page, []byte(doc[:i+len(start)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := doc[i+len(start) : j]; got != want {
		t.Errorf("the generated part of %s is not what the agents' facts say; write it again with\n  go test ./agents -run 'TestAgentsTable|TestReadmeAgents' -update-table\nnow:\n%s", page, want)
	}
}

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
	b.WriteString("| agent (version proven) | `agentjail install --for` | hook event | no objection | deny | ask | when the hook fails, is late or crashes | subagents | allowed shell calls ([the jail](security.md#the-jail)) | machine-wide (system mode) |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, a := range All {
		r := a.Table
		events := r.Events
		if a.PostEvent != "" {
			events += "; after each call, `" + a.PostEvent + "` with `--post` (reports that the call ran)"
		}
		jailed := "judged, not confined: " + r.Unconfined
		if _, ok := a.Adapter.(agent.Confiner); ok {
			jailed = "confined: the hook rewrites the command to run under the launcher"
		}
		fmt.Fprintf(&b, "| %s (%s) | `%s`: %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			a.Title, r.Proven, a.Name, r.Install, events, r.NoObjection, r.Deny, r.Ask, r.Fails, r.Subagents, jailed, r.System)
	}
	return b.String()
}
