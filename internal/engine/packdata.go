package engine

import (
	"maps"

	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

// PackDocuments are the documents the default pack reads besides its
// rules, by their name under data.agentjail: the agents' facts, owned by
// the agents' folders (agentsDocument). They reach OPA as data, not as
// compiled rules, so a fact changed in Go needs no generated policy file.
func PackDocuments() map[string]any {
	return map[string]any{"agents": agentsDocument()}
}

// withPackData is data with PackDocuments added when sources hold the
// default pack, and data itself when they do not (a user's or an org's
// files tested on their own). data is not changed: it may be a caller's.
func withPackData(data map[string]any, sources []Source) map[string]any {
	if pack, _ := origins(sources); len(pack) == 0 {
		return data
	}
	out := maps.Clone(data)
	if out == nil {
		out = map[string]any{}
	}
	root, _ := out[Package].(map[string]any)
	root = maps.Clone(root)
	if root == nil {
		root = map[string]any{}
	}
	maps.Copy(root, PackDocuments())
	out[Package] = root
	return out
}

// dataStore holds data for OPA as its own values, converted once here
// rather than on each read of a document by each evaluation.
func dataStore(data map[string]any) storage.Store {
	return inmem.NewFromObjectWithOpts(data, inmem.OptReturnASTValuesOnRead(true))
}
