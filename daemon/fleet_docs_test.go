package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/engine/bundletest"
)

// docsFleetExample is the YAML block after <!-- fleet-example --> in
// docs/fleets.md, as a user would paste it.
func docsFleetExample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/fleets.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- fleet-example -->\n```yaml\n")
	if !ok {
		t.Fatal("docs/fleets.md has no fleet example (<!-- fleet-example --> then a yaml block)")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the fleet example of docs/fleets.md is not closed")
	}
	return block
}

func TestDocsFleetExampleLoadsAsPasted(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(path, []byte(docsFleetExample(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.CheckFleetConfig(cfg.OPA, home); err != nil {
		t.Fatalf("OPA refuses the documented example: %v", err)
	}
	for _, want := range []string{`"acme_signing"`, `"decision_logs"`, `"persist":true`, `"keyid":"acme_signing"`} {
		if !strings.Contains(string(cfg.OPA), want) {
			t.Errorf("%s lost on the way to OPA: %s", want, cfg.OPA)
		}
	}
}

// TestDocsFleetExampleWorks runs a daemon with the documented example,
// only its server's URL pointed at a hub on 127.0.0.1, and a bundle
// signed with the private half of the example's key.
func TestDocsFleetExampleWorks(t *testing.T) {
	priv, err := os.ReadFile("testdata/fleet-example-private.pem")
	if err != nil {
		t.Fatal(err)
	}
	h := newHub(t)
	key := bundletest.Key{Alg: "RS256", Sign: string(priv)}
	spec := signedSpec("2026-11-23.1", &key, orgPolicy)
	spec.KeyID = "acme_signing"
	h.set(bundletest.Build(t, spec), "")
	// Only the server's address and the polling delays change: a first
	// download that fails on a loaded machine is retried after
	// min_delay_seconds, and the documented 60 s would outlast the wait.
	example := strings.Replace(docsFleetExample(t), "https://policy.acme.example", h.URL, 1)
	example = strings.Replace(example, "min_delay_seconds: 60\n        max_delay_seconds: 120", "min_delay_seconds: 1\n        max_delay_seconds: 2", 1)
	if !strings.Contains(example, "max_delay_seconds: 2") {
		t.Fatal("the documented bundle polling block changed; update this test")
	}
	home, sock := fleetHome(t, example)
	daemontest.StartAt(t, home, sock)
	waitFor(t, "the documented example to enforce the bundle", func() bool { return firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") })
	st := status(t, sock)
	if b := orgBundle(st); b.Name != "acme" || b.Revision != "2026-11-23.1" || !b.Verified {
		t.Fatalf("status: %+v", st.Org)
	}
	h.mu.Lock()
	auth := h.auth
	h.mu.Unlock()
	if auth != "Bearer the-token-your-bundle-server-expects" {
		t.Errorf("the bundle server got Authorization %q", auth)
	}
}
