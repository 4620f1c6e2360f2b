package daemon_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/engine/bundletest"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// orgPolicy is the org's rule set in the test bundles: deploying to
// production is denied, a listed host is denied (from the bundle's data).
const orgPolicy = `package agentjail.org

deny contains {"id": "org.no_prod_deploy", "msg": "org: deploys to production go through CI"} if {
	input.tool_name == "Bash"
	contains(input.tool_input.command, "deploy-prod")
}

deny contains {"id": "org.blocked_host", "msg": sprintf("org: %s is blocked", [h])} if {
	some h in data.agentjail.org.blocked_hosts
	contains(input.tool_input.command, h)
}
`

// orgPolicyV2 adds a rule; seeing it fire means revision 2 is in force.
const orgPolicyV2 = orgPolicy + `
deny contains {"id": "org.no_gamma", "msg": "org: no gamma"} if contains(input.tool_input.command, "gamma-tool")
`

// orgTests is the bundle's own _test.rego, run by `agentjail policy test`.
const orgTests = `package agentjail.org.tests

test_prod_deploy_denied if {
	ids := {d.id | some d in data.agentjail.org.deny} with input as {"tool_name": "Bash", "tool_input": {"command": "make deploy-prod"}}
	"org.no_prod_deploy" in ids
}

test_blocked_host_from_data if {
	ids := {d.id | some d in data.agentjail.org.deny} with input as {"tool_name": "Bash", "tool_input": {"command": "ping evil.example"}}
	"org.blocked_host" in ids
}

test_staging_allowed if {
	count(data.agentjail.org.deny) == 0 with input as {"tool_name": "Bash", "tool_input": {"command": "make deploy-staging"}}
}
`

// hub is a bundle server and decision-log collector on 127.0.0.1, as an
// OPA control plane (or plain nginx) would be.
type hub struct {
	*httptest.Server
	mu      sync.Mutex
	bundle  []byte
	mode    string // "", "error" (500 everywhere) or "hang" (never answers)
	served  int    // bundle downloads answered with a bundle
	events  []map[string]any
	status  []map[string]any
	hang    chan struct{}
	gzipped bool   // every decision-log upload was gzip-compressed
	auth    string // the last bundle request's Authorization header
}

func newHub(t testing.TB) *hub {
	h := &hub{hang: make(chan struct{}), gzipped: true}
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(func() {
		close(h.hang)
		h.Server.CloseClientConnections()
		h.Server.Close()
	})
	return h
}

func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	mode, body := h.mode, h.bundle
	h.mu.Unlock()
	switch mode {
	case "hang":
		select {
		case <-h.hang:
		case <-r.Context().Done():
		}
		return
	case "error":
		http.Error(w, "the hub is down", http.StatusInternalServerError)
		return
	}
	switch {
	case r.URL.Path == "/bundles/org.tar.gz" || r.URL.Path == "/bundles/agentjail-org.tar.gz":
		if body == nil {
			http.NotFound(w, r)
			return
		}
		h.mu.Lock()
		h.served++
		h.auth = r.Header.Get("Authorization")
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(body)
	case strings.HasPrefix(r.URL.Path, "/logs"):
		var rd io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			rd = zr
		} else {
			h.mu.Lock()
			h.gzipped = false
			h.mu.Unlock()
		}
		var evs []map[string]any
		if err := json.NewDecoder(rd).Decode(&evs); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		h.mu.Lock()
		h.events = append(h.events, evs...)
		h.mu.Unlock()
	case strings.HasPrefix(r.URL.Path, "/status"):
		var st map[string]any
		json.NewDecoder(r.Body).Decode(&st)
		h.mu.Lock()
		h.status = append(h.status, st)
		h.mu.Unlock()
	default:
		http.NotFound(w, r)
	}
}

func (h *hub) set(body []byte, mode string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.bundle, h.mode = body, mode
}

func (h *hub) downloads() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.served
}

// fleetConfig is config.yaml with an opa: section pointing at url,
// verifying with key (nil: no signing), polling every second.
func fleetConfig(url string, key *bundletest.Key, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "opa:\n  services:\n    hub:\n      url: %s\n", url)
	if key != nil {
		fmt.Fprintf(&b, "  keys:\n    org_key:\n      algorithm: %s\n", key.Alg)
		if lines := strings.Split(strings.TrimSpace(key.Verify), "\n"); len(lines) == 1 {
			fmt.Fprintf(&b, "      key: %q\n", lines[0]) // a shared secret: no newline added
		} else {
			b.WriteString("      key: |\n")
			for _, line := range lines {
				fmt.Fprintf(&b, "        %s\n", line)
			}
		}
	}
	b.WriteString("  bundles:\n    org:\n      service: hub\n      resource: bundles/org.tar.gz\n      persist: true\n      polling:\n        min_delay_seconds: 1\n        max_delay_seconds: 1\n")
	if key != nil {
		b.WriteString("      signing:\n        keyid: org_key\n")
	}
	b.WriteString("  decision_logs:\n    service: hub\n    reporting:\n      min_delay_seconds: 1\n      max_delay_seconds: 1\n")
	b.WriteString("  status:\n    service: hub\n")
	b.WriteString(extra)
	return b.String()
}

func fleetHome(t testing.TB, cfg string) (home, sock string) {
	dir, err := os.MkdirTemp("", "aj")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home = filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, filepath.Join(home, "agentjail.sock")
}

// waitFor polls cond: downloads and uploads happen on OPA's schedule
// (every second here), so the test waits for a state, never for a time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// firedOrg reports whether the org rule id fired for cmd.
func firedOrg(t *testing.T, sock, cmd, id string) bool {
	t.Helper()
	for _, r := range decide(t, sock, cmd).Rules {
		if r.ID == id && r.Org {
			return true
		}
	}
	return false
}

func orgBundle(st *wire.Status) wire.OrgBundle {
	if st.Org == nil || len(st.Org.Bundles) == 0 {
		return wire.OrgBundle{}
	}
	return st.Org.Bundles[0]
}

func signedSpec(rev string, key *bundletest.Key, policy string) bundletest.Spec {
	return bundletest.Spec{
		Revision: rev,
		Files:    map[string]string{"agentjail/org/policy.rego": policy},
		Data:     map[string]any{"agentjail": map[string]any{"org": map[string]any{"blocked_hosts": []any{"evil.example"}}}},
		Key:      key,
		KeyID:    "org_key",
	}
}

func TestFleetSignedBundles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits on OPA's plugin polls for a minute; make test runs it")
	}
	// Every refusal is checked with RS256; HS256 gets the ones that
	// depend on the key (each refusal waits for two polls).
	for _, tt := range []struct {
		name  string
		key   func(testing.TB) bundletest.Key
		every bool
	}{
		{name: "RS256", key: bundletest.RSAKey, every: true},
		{name: "HS256", key: bundletest.HMACKey},
	} {
		t.Run(tt.name, func(t *testing.T) { testFleetSigned(t, tt.key(t), tt.every) })
	}
}

func testFleetSigned(t *testing.T, key bundletest.Key, everyRefusal bool) {
	h := newHub(t)
	home, sock := fleetHome(t, fleetConfig(h.URL, &key, ""))

	// Before any bundle: the org policy is not in force, and says so.
	d := daemontest.StartAt(t, home, sock)
	if st := status(t, sock); st.Org == nil || st.Org.InForce {
		t.Fatalf("with no bundle yet, status must say the org policy is not in force: %+v", st.Org)
	}
	if firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") {
		t.Fatal("an org rule fired before any bundle")
	}

	h.set(bundletest.Build(t, signedSpec("r1", &key, orgPolicy)), "")
	waitFor(t, "the signed bundle r1 to be enforced", func() bool { return firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") })
	if dec := decide(t, sock, "make deploy-prod"); dec.Verdict != wire.Deny {
		t.Fatalf("verdict %s, want deny", dec.Verdict)
	}
	for _, cmd := range []string{"make deploy-staging", "echo deploy-preview > notes.md", "ping good.example"} {
		if dec := decide(t, sock, cmd); hasOrgRule(dec) {
			t.Errorf("look-alike %q hit an org rule: %+v", cmd, dec.Rules)
		}
	}
	if !firedOrg(t, sock, "ping evil.example", "org.blocked_host") {
		t.Error("the bundle's data did not reach the org rules")
	}
	// OPA's status plugin tells the control plane which revision runs here.
	waitFor(t, "a status report naming r1", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, st := range h.status {
			bs, _ := st["bundles"].(map[string]any)
			org, _ := bs["org"].(map[string]any)
			if org["active_revision"] == "r1" {
				return true
			}
		}
		return false
	})
	st := status(t, sock)
	b := orgBundle(st)
	if !st.Org.InForce || b.Revision != "r1" || !b.Verified || b.LastDownload == "" || b.LastError != "" {
		t.Fatalf("status after r1: %+v", st.Org)
	}

	// Refused bundles: each is downloaded, refused, reported; r1 keeps serving.
	refused := []struct {
		name string
		spec bundletest.Spec
	}{
		{"tampered after signing", func() bundletest.Spec {
			s := signedSpec("r2-tampered", &key, orgPolicyV2)
			s.Tamper = map[string]string{"agentjail/org/policy.rego": "package agentjail.org\n"}
			return s
		}()},
		{"unsigned", signedSpec("r2-unsigned", nil, orgPolicyV2)},
		{"signed with another key", func() bundletest.Spec {
			other := bundletest.HMACKey(t)
			if key.Alg == "HS256" {
				other = bundletest.RSAKey(t)
			}
			return signedSpec("r2-other-key", &other, orgPolicyV2)
		}()},
		{"does not compile with agentjail (http.send is not allowed on the decision path)", signedSpec("r2-uncompilable", &key, orgPolicyV2+`
ask contains "slow" if http.send({"method": "GET", "url": "http://127.0.0.1/"}).status_code == 200
`)},
		{"does not compile at all (an undefined function)", signedSpec("r2-broken", &key, orgPolicyV2+`
deny contains "x" if no_such_function(input)
`)},
		{"a root outside agentjail/org", func() bundletest.Spec {
			s := signedSpec("r2-roots", &key, orgPolicyV2)
			s.Roots = []string{"agentjail/org", "config"}
			return s
		}()},
		{"a policy outside package agentjail.org", func() bundletest.Spec {
			s := signedSpec("r2-outside", &key, orgPolicyV2)
			s.Roots = []string{""}
			s.Files["agentjail/allow.rego"] = "package agentjail\n\nallow contains \"all\" if true\n"
			return s
		}()},
	}
	for i, r := range refused {
		if !everyRefusal && i > 2 {
			break // the first three are about signatures
		}
		t.Run("refused: "+r.name, func(t *testing.T) {
			before := h.downloads()
			h.set(bundletest.Build(t, r.spec), "")
			// Downloads are sequential: once a second one is served, the
			// first has been processed.
			waitFor(t, "the bundle to be downloaded and refused", func() bool {
				return h.downloads() >= before+2 && orgBundle(status(t, sock)).LastError != ""
			})
			st := status(t, sock)
			t.Logf("refused: %s", orgBundle(st).LastError)
			if b := orgBundle(st); b.Revision != "r1" || !st.Org.InForce {
				t.Fatalf("after a refused bundle the last good one must stay in force: %+v", st.Org)
			}
			if !firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") {
				t.Fatal("r1's rule no longer fires")
			}
			if firedOrg(t, sock, "run gamma-tool", "org.no_gamma") {
				t.Fatal("a rule of the refused bundle fires")
			}
			if dec := decide(t, sock, "ls"); dec.Verdict != wire.Allow || dec.Explicit {
				t.Fatalf("a refused bundle changed an unrelated verdict: %+v", dec)
			}
		})
	}

	// disabled_rules naming an org rule changes nothing.
	cfg := fleetConfig(h.URL, &key, "disabled_rules: [org.no_prod_deploy, org.blocked_host]\n")
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the config to be reloaded", func() bool { return len(d.Decider().Config().DisabledRules) == 2 })
	if !firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") || !firedOrg(t, sock, "ping evil.example", "org.blocked_host") {
		t.Fatal("disabled_rules switched an org rule off")
	}

	// A good new revision replaces r1.
	r3 := signedSpec("r3", &key, orgPolicyV2)
	r3.Files["agentjail/org/policy_test.rego"] = orgTests
	h.set(bundletest.Build(t, r3), "")
	waitFor(t, "r3 to be enforced", func() bool { return firedOrg(t, sock, "run gamma-tool", "org.no_gamma") })
	if b := orgBundle(status(t, sock)); b.Revision != "r3" || b.LastError != "" {
		t.Fatalf("status after r3: %+v", b)
	}

	// Restarted with the server down: the persisted r3 is enforced at once.
	d.Stop(t)
	h.set(nil, "error")
	daemontest.StartAt(t, home, sock)
	if !firedOrg(t, sock, "run gamma-tool", "org.no_gamma") || !firedOrg(t, sock, "make deploy-prod", "org.no_prod_deploy") {
		t.Fatal("a daemon started offline does not enforce the persisted bundle")
	}
	st = status(t, sock)
	if b := orgBundle(st); !st.Org.InForce || b.Revision != "r3" {
		t.Fatalf("status of a daemon started offline: %+v", st.Org)
	}
	// `agentjail policy test` runs the persisted bundle's tests.
	cfg2, err := config.Load(filepath.Join(home, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	org, missing, err := engine.PersistedOrg(context.Background(), cfg2.OPA, home)
	if err != nil || len(missing) > 0 || len(org.Tests) != 1 {
		t.Fatalf("persisted org: %v, missing %v, %+v", err, missing, org)
	}
	pack, _ := policyset.PackSources(policies.FS, false)
	results, errs := engine.RunTestsWithData(context.Background(), append(append(pack, org.Sources...), org.Tests...), map[string]any{"agentjail": map[string]any{"org": org.Data}})
	ran := 0
	for _, r := range results {
		if strings.HasPrefix(r.File, "bundle/") {
			ran++
			if !r.Passed() {
				t.Errorf("bundle test %s", r)
			}
		}
	}
	if len(errs) > 0 || ran != 3 {
		t.Fatalf("bundle tests: ran %d, errors %v", ran, errs)
	}
	waitFor(t, "the download error to be reported", func() bool { return orgBundle(status(t, sock)).LastError != "" })
	if !firedOrg(t, sock, "run gamma-tool", "org.no_gamma") {
		t.Fatal("a failing server took the persisted bundle out of force")
	}
}

func hasOrgRule(d *wire.Decision) bool {
	for _, r := range d.Rules {
		if r.Org {
			return true
		}
	}
	return false
}

func TestFleetDecisionLogsAreMasked(t *testing.T) {
	h := newHub(t)
	home, sock := fleetHome(t, fleetConfig(h.URL, nil, ""))
	daemontest.StartAt(t, home, sock)

	secret := "ghp_" + strings.Repeat("aB3", 12)
	tests := []struct {
		name, cmd   string
		want        string // the summary the collector must get
		mustNotHave string
	}{
		{name: "token-shaped word", cmd: "gh auth login --with-token " + secret, want: "gh auth login --with-token ***", mustNotHave: secret},
		{name: "value of a secret-looking variable", cmd: "API_KEY=hunter2-value ./deploy.sh", want: "API_KEY=*** ./deploy.sh", mustNotHave: "hunter2"},
		{name: "password option", cmd: "mysql --password=s3cr3t-pw -u root", want: "mysql --password=*** -u root", mustNotHave: "s3cr3t"},
		{name: "credentials in a URL", cmd: "git clone https://bob:pa55w0rd@git.example/r.git", want: "git clone https://***@git.example/r.git", mustNotHave: "pa55w0rd"},
		{name: "authorization header", cmd: `curl -H "Authorization: Bearer abc.def-123" https://api.example`, want: `curl -H "Authorization: Bearer ***" https://api.example`, mustNotHave: "abc.def-123"},
		{name: "look-alike: plain command kept", cmd: "git log --oneline -n 5", want: "git log --oneline -n 5"},
		{name: "look-alike: ordinary variable kept", cmd: "PATH=/usr/local/bin:/usr/bin make build", want: "PATH=/usr/local/bin:/usr/bin make build"},
		{name: "look-alike: a flag about tokens without a value kept", cmd: "wc --tokens-help", want: "wc --tokens-help"},
	}
	for _, tt := range tests {
		decide(t, sock, tt.cmd)
	}
	find := func(want string) map[string]any {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, ev := range h.events {
			in, _ := ev["input"].(map[string]any)
			if in["summary"] == want {
				return ev
			}
		}
		return nil
	}
	waitFor(t, "every decision to reach the collector", func() bool {
		for _, tt := range tests {
			if find(tt.want) == nil {
				return false
			}
		}
		return true
	})
	h.mu.Lock()
	all, _ := json.Marshal(h.events)
	gz := h.gzipped
	h.mu.Unlock()
	if !gz {
		t.Error("decision logs arrived without gzip compression")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := find(tt.want)
			if tt.mustNotHave != "" && strings.Contains(string(all), tt.mustNotHave) {
				t.Errorf("%q left the machine", tt.mustNotHave)
			}
			res, _ := ev["result"].(map[string]any)
			in, _ := ev["input"].(map[string]any)
			if res["verdict"] == nil || res["revision"] == nil || in["tool"] != "Bash" || ev["path"] != "agentjail/verdict" || ev["decision_id"] == nil {
				t.Errorf("event lacks the local log's fields: %v", ev)
			}
		})
	}
}

func TestFleetServerTroubleNeverDelaysDecisions(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits on OPA's plugin polls for a minute; make test runs it")
	}
	for _, mode := range []string{"hang", "error"} {
		t.Run(mode, func(t *testing.T) {
			h := newHub(t)
			h.set(nil, mode)
			home, sock := fleetHome(t, fleetConfig(h.URL, nil, ""))
			daemontest.StartAt(t, home, sock)
			ev, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": "/work/p", "tool_input": map[string]any{"command": "ls -la"}})
			// Every decision must complete well within a deadline far
			// below the server's hang (which lasts until the test ends),
			// while downloads and log uploads are stuck or failing.
			for i := range 50 {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				dec, err := (&wire.Client{Socket: sock}).Decide(ctx, &wire.Request{Event: ev})
				cancel()
				if err != nil || dec.Verdict != wire.Allow {
					t.Fatalf("decision %d with the server %s: %v %+v", i, mode, err, dec)
				}
			}
			if st := status(t, sock); st.Org == nil || st.Org.InForce {
				t.Fatalf("status: %+v", st.Org)
			}
		})
	}
}

func TestFleetPersistedBundlesAreProtected(t *testing.T) {
	h := newHub(t)
	h.set(nil, "error")
	cache := filepath.Join(t.TempDir(), "org-cache")
	home, sock := fleetHome(t, fleetConfig(h.URL, nil, "")+"  persistence_directory: "+cache+"\n")
	daemontest.StartAt(t, home, sock)
	if st := status(t, sock); st.Org == nil || st.Org.PersistDir != cache {
		t.Fatalf("persist dir: %+v", st.Org)
	}
	target := filepath.Join(cache, "bundles", "org", "bundle.tar.gz")
	for _, tt := range []struct {
		name, cmd string
		blocked   bool
	}{
		{name: "overwrite the persisted bundle", cmd: "cp /tmp/mine.tar.gz " + target, blocked: true},
		{name: "delete the persisted bundles", cmd: "rm -rf " + filepath.Join(cache, "bundles"), blocked: true},
		{name: "look-alike: list it", cmd: "ls -la " + cache, blocked: false},
		{name: "look-alike: another folder beside it", cmd: "rm -rf " + filepath.Join(filepath.Dir(cache), "build-cache"), blocked: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dec := decide(t, sock, tt.cmd)
			if blocked := dec.Verdict != wire.Allow; blocked != tt.blocked {
				t.Fatalf("%s: verdict %s (%s), want blocked=%v", tt.cmd, dec.Verdict, dec.Reason, tt.blocked)
			}
		})
	}
}
