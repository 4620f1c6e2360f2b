package policies_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/packdoc"
	"github.com/agentjail/agentjail/policies"
)

const packDoc = "../docs/pack.md"

// TestPackDoc keeps docs/pack.md the page the pack yields: its generated
// table is what tools/mkpackdoc writes now, and it names every rule id
// the engine finds in the pack, no more.
func TestPackDoc(t *testing.T) {
	b, err := os.ReadFile(packDoc)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := packdoc.Render(policies.FS)
	if err != nil {
		t.Fatal(err)
	}
	want, ok := packdoc.Splice(string(b), gen)
	if !ok {
		t.Fatalf("%s has no generated part (%s ... %s)", packDoc, packdoc.Begin, packdoc.End)
	}
	if want != string(b) {
		t.Errorf("%s differs from what the pack yields; rewrite it with\n  go run ./tools/mkpackdoc", packDoc)
	}
	files, err := packdoc.Files(policies.FS)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, f := range files {
		for _, r := range f.Rules {
			if !slices.Contains(listed, r.ID) {
				listed = append(listed, r.ID)
			}
		}
	}
	slices.Sort(listed)
	if ids := packRuleIDs(t); !slices.Equal(listed, ids) {
		t.Errorf("the page lists %d rule ids, the pack has %d:\n page: %s\n pack: %s", len(listed), len(ids), strings.Join(listed, " "), strings.Join(ids, " "))
	}
}

// TestPackDocSplice: the generated part is replaced, the text around it kept.
func TestPackDocSplice(t *testing.T) {
	doc := "# intro\n" + packdoc.Begin + "\nold\n" + packdoc.End + "\nafter\n"
	got, ok := packdoc.Splice(doc, packdoc.Begin+"\nnew\n"+packdoc.End)
	if !ok || got != "# intro\n"+packdoc.Begin+"\nnew\n"+packdoc.End+"\nafter\n" {
		t.Errorf("Splice = %q, %v", got, ok)
	}
	if _, ok := packdoc.Splice("# no markers\n", "x"); ok {
		t.Error("Splice found markers in a page without them")
	}
}
