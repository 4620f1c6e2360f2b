package engine

import (
	"context"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
)

// credentialDirs reads data.agentjail.credential_config_dirs, the
// folders under the home directory that hold credentials and the tools'
// credential configuration (.ssh, .aws ...): the daemon knows them by
// (device, inode) too, so a hard link or a mounted copy is the folder.
// Undefined or not a set of strings: none.
func credentialDirs(ctx context.Context, compiler *ast.Compiler, store storage.Store) []string {
	rs, err := rego.New(rego.Query("x := data.agentjail.credential_config_dirs"), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
	if err != nil || len(rs) == 0 {
		return nil
	}
	list, _ := rs[0].Bindings["x"].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// CredentialDirs are the credential folders of the policies, relative to
// the home directory (data.agentjail.credential_config_dirs).
func (e *Engine) CredentialDirs() []string { return e.credentialDirs }
