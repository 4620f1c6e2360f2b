package engine

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/jail"
)

// jailQuery reads the policies' jail document (policies/jail.rego): the
// confinement of a shell call the verdict lets run.
const jailQuery = "x := data.agentjail.jail"

func prepareJail(ctx context.Context, compiler *ast.Compiler, store storage.Store) (*rego.PreparedEvalQuery, error) {
	pq, err := rego.New(rego.Query(jailQuery), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		return nil, err
	}
	return &pq, nil
}

// Jail is the confinement the policies compute for a call: the profile
// the launcher applies and the notes it prints (grants withheld). A
// policy set without a jail document gives the empty profile, which
// still keeps signals and abstract sockets in the jail.
func (e *Engine) Jail(ctx context.Context, event map[string]any, d *input.Derived) (jail.Profile, []string, error) {
	var p jail.Profile
	if e.jail == nil {
		return p, nil, nil
	}
	v, err := callValue(event, d)
	if err != nil {
		return p, nil, err
	}
	rs, err := e.jail.Eval(ctx, rego.EvalParsedInput(v))
	if err != nil {
		return p, nil, fmt.Errorf("data.agentjail.jail: %w", err)
	}
	if len(rs) == 0 {
		return p, nil, nil
	}
	doc, ok := rs[0].Bindings["x"].(map[string]any)
	if !ok {
		return p, nil, fmt.Errorf("data.agentjail.jail is not an object")
	}
	var notes []string
	for _, f := range []struct {
		key string
		to  *[]string
	}{{"no_read", &p.NoRead}, {"no_write", &p.NoWrite}, {"read", &p.Read}, {"write", &p.Write}, {"make", &p.Make}, {"notes", &notes}} {
		list, err := stringList(doc[f.key])
		if err != nil {
			return jail.Profile{}, nil, fmt.Errorf("data.agentjail.jail.%s: %w", f.key, err)
		}
		*f.to = list
	}
	return p, notes, nil
}

func stringList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("is not a set of strings")
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("holds %v, not a string", it)
		}
		out = append(out, s)
	}
	return out, nil
}
