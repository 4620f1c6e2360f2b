package config

import (
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// opaSection reads config.yaml's `opa:` section as JSON, keys as written.
// OPA's configuration names things (services, keys, credentials) that
// other parts of it refer to by name, so it must reach OPA exactly as
// the user pasted it; OPA itself validates it (see engine.CheckFleetConfig).
func opaSection(b []byte) (json.RawMessage, error) {
	var doc struct {
		OPA any `yaml:"opa"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	if doc.OPA == nil {
		return nil, nil
	}
	if _, ok := doc.OPA.(map[string]any); !ok {
		return nil, fmt.Errorf("opa must be a mapping of OPA configuration keys (services, bundles, decision_logs, ...), as in OPA's documentation")
	}
	out, err := json.Marshal(doc.OPA)
	if err != nil {
		// yaml.v3 gives map[any]any for a mapping with non-string keys.
		return nil, fmt.Errorf("opa: %w; every key must be a string", err)
	}
	return out, nil
}
