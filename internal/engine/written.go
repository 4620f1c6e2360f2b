package engine

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/internal/written"
)

// writtenFiles reads the policies' data.agentjail.written_files: which
// files something else runs later, and where their commands are (see
// internal/written). The daemon applies it to every write of such a file.
func writtenFiles(ctx context.Context, compiler *ast.Compiler, store storage.Store) (*written.Table, error) {
	rs, err := rego.New(rego.Query("x := data.agentjail.written_files"), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
	if err != nil || len(rs) == 0 {
		return nil, err // undefined: no table
	}
	return written.Compile(rs[0].Bindings["x"])
}

// WrittenFiles is the policies' written_files table (nil if none).
func (e *Engine) WrittenFiles() *written.Table { return e.written }

// Redecide recomputes d's verdict and reason from its rules, after a
// caller added rules of its own (the daemon's judgement of the commands a
// written file adds).
func Redecide(d *wire.Decision) {
	sortRules(d.Rules)
	d.Reason, d.Explicit = "", false
	decide(d)
}
