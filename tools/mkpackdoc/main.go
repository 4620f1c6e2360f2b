// Command mkpackdoc rewrites the generated table of docs/pack.md from the
// default pack (policies/*.rego): the rule ids of each file by verdict.
// Run it from the repository root after changing a rule:
//
//	go run ./tools/mkpackdoc
//
// TestPackDoc (policies/packdoc_test.go) fails while the page differs.
package main

import (
	"fmt"
	"os"

	"github.com/agentjail/agentjail/internal/packdoc"
	"github.com/agentjail/agentjail/policies"
)

const page = "docs/pack.md"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mkpackdoc:", err)
		os.Exit(1)
	}
}

func run() error {
	doc, err := os.ReadFile(page)
	if err != nil {
		return fmt.Errorf("%w (run it from the repository root)", err)
	}
	gen, err := packdoc.Render(policies.FS)
	if err != nil {
		return err
	}
	out, ok := packdoc.Splice(string(doc), gen)
	if !ok {
		return fmt.Errorf("%s has no %s ... %s markers to write between", page, packdoc.Begin, packdoc.End)
	}
	if out == string(doc) {
		fmt.Println(page, "is up to date")
		return nil
	}
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		return err
	}
	fmt.Println("rewrote", page)
	return nil
}
