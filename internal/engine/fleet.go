package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/logging"
	"github.com/open-policy-agent/opa/v1/plugins"
	bundleplugin "github.com/open-policy-agent/opa/v1/plugins/bundle"
	"github.com/open-policy-agent/opa/v1/plugins/discovery"
	"github.com/open-policy-agent/opa/v1/plugins/logs"
	"github.com/open-policy-agent/opa/v1/server"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/agentjail/agentjail/internal/wire"
)

// A Fleet runs OPA's own plugins (bundle, decision logs, status) with the
// OPA configuration of config.yaml's `opa:` section, exactly as OPA reads
// it. Downloading, signature checks, ETags, persistence, batching, retries
// and status reports are all OPA's; agentjail only decides what a bundle
// means for it: its store refuses to commit an activation whose org policy
// does not compile with the local policies (see guardStore), so a bundle
// is in force whole or not at all, and the last good one keeps serving.
//
// Nothing on the decision path waits for a Fleet: downloads run in the
// plugins' goroutines, an accepted bundle is swapped in by Accept, and Log
// only hands an event to the logs plugin's buffer.
type Fleet struct {
	manager    *plugins.Manager
	store      *guardStore
	persistDir string

	mu      sync.Mutex
	bundles map[string]bundleplugin.Status
	signing map[string]string // bundle name -> how its signature is checked
	persist map[string]bool
}

// Org is the org policy the bundles in force carry.
type Org struct {
	// Sources are the bundles' policies under OrgRoot (Org set), without
	// their tests.
	Sources []Source
	// Tests are the bundles' *_test.rego files, for `agentjail policy test`.
	Tests []Source
	// Data is data.agentjail.org from the bundles' data files, or nil.
	Data map[string]any
	// Revisions maps each bundle in force to its manifest revision.
	Revisions map[string]string
}

// FleetOptions configures StartFleet.
type FleetOptions struct {
	// Config is the `opa:` section of config.yaml as JSON. Empty or null
	// means no fleet: StartFleet returns nil.
	Config json.RawMessage
	// Home is $AGENTJAIL_HOME: persistence_directory defaults to Home/opa,
	// and a relative one is taken from Home.
	Home string
	// ID names this machine to the control plane (OPA's labels.id); ""
	// lets OPA make one up.
	ID string
	// ExtraRoots are bundle roots besides OrgRoot a bundle may carry
	// (config.yaml's org_roots), such as system/log for the org's own
	// decision-log mask. Bundles with any other root are refused.
	ExtraRoots []string
	// Accept is asked, before a bundle's activation is committed, whether
	// its org policy can be put in force; it compiles it with the local
	// policies. On an error the bundle is refused (OPA reports it in its
	// status) and nothing changes. Otherwise done is called once the
	// commit is over, told whether it happened; only then may the new
	// policy serve. Accept must not call back into the Fleet.
	Accept func(ctx context.Context, org Org) (done func(committed bool), err error)
	// Logger receives the plugins' log; nil discards it.
	Logger *slog.Logger
}

// maskID is the store id of agentjail's default decision-log mask.
const maskID = "agentjail-builtin/system/log/mask.rego"

// maskModule is the default masking rule, at OPA's default mask_decision
// (/system/log/mask). It replaces secret-looking text in the logged
// command summary and reasons, so that credentials do not leave the
// machine; file contents are never logged at all. A configuration whose
// decision_logs.mask_decision names another rule (one an org bundle
// ships) overrides it.
const maskModule = `package system.log

# Secret-looking text in one string, replaced by ***: tokens with a known
# shape, values of secret-looking variables and options, credentials in
# URLs and authorization headers.
redact(s) := r if {
	a := regex.replace(s, ` + "`" + `(?i)\b([A-Z0-9_]*(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|]+)` + "`" + `, "$1=***")
	b := regex.replace(a, ` + "`" + `(?i)(--?[a-z0-9-]*(token|secret|password|passwd|passphrase|api-?key|access-?key|private-?key|credentials?)[a-z0-9-]*)(=|\s+)("[^"]*"|'[^']*'|[^\s;&|]+)` + "`" + `, "$1$3***")
	c := regex.replace(b, ` + "`" + `(?i)(authorization:\s*(bearer|basic|token)?\s*)[^\s"']+` + "`" + `, "$1***")
	d := regex.replace(c, ` + "`" + `(://)[^/\s:@]+:[^/\s@]+@` + "`" + `, "$1***@")
	r := regex.replace(d, ` + "`" + `\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})` + "`" + `, "***")
}

mask contains {"op": "upsert", "path": "/input/summary", "value": r} if {
	s := input.input.summary
	is_string(s)
	r := redact(s)
	r != s
}

mask contains {"op": "upsert", "path": "/result/reasons", "value": rs} if {
	reasons := input.result.reasons
	is_array(reasons)
	rs := [redact(m) | some m in reasons]
	rs != reasons
}
`

// PrepareFleetConfig turns the `opa:` section into the configuration
// handed to OPA: persistence_directory defaults to home/opa (a relative
// one is taken from home, not from wherever the daemon started). It
// returns nil for an empty section, and the persistence folder, which the
// policies protect like the policy folders.
func PrepareFleetConfig(raw json.RawMessage, home string) (cfg []byte, persistDir string, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, "", nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "", fmt.Errorf("opa: must be a mapping of OPA configuration keys (services, bundles, decision_logs, ...): %w", err)
	}
	if len(m) == 0 {
		return nil, "", nil
	}
	dir, _ := m["persistence_directory"].(string)
	switch {
	case dir == "":
		dir = filepath.Join(home, "opa")
	case !filepath.IsAbs(dir):
		dir = filepath.Join(home, dir)
	}
	m["persistence_directory"] = filepath.Clean(dir)
	cfg, err = json.Marshal(m)
	return cfg, filepath.Clean(dir), err
}

// CheckFleetConfig validates the `opa:` section the way OPA does at start
// (services, keys, bundles, decision_logs, status, discovery), without
// starting anything or touching the network.
func CheckFleetConfig(raw json.RawMessage, home string) error {
	cfg, _, err := PrepareFleetConfig(raw, home)
	if err != nil || cfg == nil {
		return err
	}
	manager, err := newManager(cfg, "check", inmem.New(), nil)
	if err != nil {
		return fmt.Errorf("opa: %w", err)
	}
	if _, err := newDiscovery(manager, cfg); err != nil {
		return fmt.Errorf("opa: %w", err)
	}
	return nil
}

func newManager(cfg []byte, id string, store storage.Store, log *slog.Logger) (*plugins.Manager, error) {
	l := opaLogger{log: log}
	return plugins.New(cfg, id, store, plugins.Logger(l), plugins.ConsoleLogger(l))
}

// newDiscovery builds the plugins the configuration enables, as OPA's SDK
// does: through the discovery plugin, which with no `discovery` section
// sets up bundle, decision logs and status from the configuration itself,
// and with one lets a control plane hand out the configuration.
func newDiscovery(manager *plugins.Manager, cfg []byte) (*discovery.Discovery, error) {
	var boot map[string]any
	if err := json.Unmarshal(cfg, &boot); err != nil {
		return nil, err
	}
	return discovery.New(manager, discovery.Factories(nil), discovery.BootConfig(boot))
}

// StartFleet starts OPA's plugins. Persisted bundles are read from disk,
// verified and offered to Accept before it returns, so a daemon that
// starts offline enforces the last good org policy at once; downloads
// then go on in the background. It returns nil, nil when opts.Config is
// empty.
func StartFleet(ctx context.Context, opts FleetOptions) (*Fleet, error) {
	cfg, dir, err := PrepareFleetConfig(opts.Config, opts.Home)
	if err != nil || cfg == nil {
		return nil, err
	}
	if opts.Accept == nil {
		return nil, errors.New("a fleet needs an Accept function")
	}
	roots := append([]string{OrgRoot}, opts.ExtraRoots...)
	store := newGuardStore(inmem.New(), opts.Accept, roots)
	manager, err := newManager(cfg, opts.ID, store, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("opa: %w", err)
	}
	// The default mask goes in before any bundle, so the first decision
	// logged is already masked.
	if err := storage.Txn(ctx, store, storage.WriteParams, func(txn storage.Transaction) error {
		return store.UpsertPolicy(ctx, txn, maskID, []byte(maskModule))
	}); err != nil {
		return nil, fmt.Errorf("installing the default decision-log mask: %w", err)
	}
	disc, err := newDiscovery(manager, cfg)
	if err != nil {
		return nil, fmt.Errorf("opa: %w", err)
	}
	manager.Register(discovery.Name, disc)
	f := &Fleet{manager: manager, store: store, persistDir: dir, bundles: map[string]bundleplugin.Status{}, signing: map[string]string{}, persist: map[string]bool{}}
	if bp := bundleplugin.Lookup(manager); bp != nil {
		for name, src := range bp.Config().Bundles {
			f.signing[name] = verification(src.Signing)
			f.persist[name] = src.Persist
			f.bundles[name] = bundleplugin.Status{Name: name}
		}
		bp.Register("agentjail", f.onBundle)
	}
	if err := manager.Start(ctx); err != nil {
		manager.Stop(ctx)
		return nil, fmt.Errorf("starting OPA's plugins: %w", err)
	}
	return f, nil
}

// verification says how a bundle's signature is checked.
func verification(vc *bundle.VerificationConfig) string {
	switch {
	case vc == nil:
		return "none: no keys or signing configured, the bundle is not verified"
	case vc.SignatureRequired() && vc.KeyID != "":
		return fmt.Sprintf("signature required (key %s)", vc.KeyID)
	case vc.SignatureRequired():
		return "signature required"
	}
	return "signature verified when present (no signing section: an unsigned bundle is accepted)"
}

func (f *Fleet) onBundle(st bundleplugin.Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bundles[st.Name] = st
}

// Stop stops the plugins, giving the decision-log plugin until ctx ends
// to upload what it holds.
func (f *Fleet) Stop(ctx context.Context) {
	if f != nil {
		f.manager.Stop(ctx)
	}
}

// PersistDir is where persisted bundles live.
func (f *Fleet) PersistDir() string { return f.persistDir }

// Status reports each configured bundle: the revision in force, how it is
// verified, the last successful download and activation, the last error.
func (f *Fleet) Status() *wire.OrgStatus {
	inForce := f.store.inForce()
	st := &wire.OrgStatus{InForce: len(inForce) > 0, PersistDir: f.persistDir}
	if lp := logs.Lookup(f.manager); lp != nil {
		st.DecisionLogs = true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for name, s := range f.bundles {
		b := wire.OrgBundle{
			Name:         name,
			Revision:     inForce[name],
			InForce:      func() bool { _, ok := inForce[name]; return ok }(),
			Verification: f.signing[name],
			Verified:     strings.HasPrefix(f.signing[name], "signature required"),
			Persist:      f.persist[name],
		}
		if !s.LastSuccessfulDownload.IsZero() {
			b.LastDownload = s.LastSuccessfulDownload.UTC().Format(time.RFC3339)
		}
		if !s.LastSuccessfulActivation.IsZero() {
			b.LastActivation = s.LastSuccessfulActivation.UTC().Format(time.RFC3339)
		}
		if s.Code != "" || s.Message != "" {
			msg := s.Message
			for _, e := range s.Errors {
				msg += "; " + e.Error()
			}
			b.LastError = msg
		}
		st.Bundles = append(st.Bundles, b)
	}
	sort.Slice(st.Bundles, func(i, j int) bool { return st.Bundles[i].Name < st.Bundles[j].Name })
	return st
}

// LogEvent is one decision for the decision-log plugin: Input is what was
// asked (agent, tool, summary, ...), Result what agentjail answered.
type LogEvent struct {
	ID     string
	Time   time.Time
	Input  map[string]any
	Result map[string]any
}

// LogPath is the decision path the events carry.
const LogPath = "agentjail/verdict"

// Log hands a decision to OPA's decision-log plugin, which masks it with
// the mask policy, buffers it and uploads it in batches; it does nothing
// when decision_logs is not configured. It never waits on the network.
func (f *Fleet) Log(ctx context.Context, ev LogEvent) error {
	if f == nil {
		return nil
	}
	lp := logs.Lookup(f.manager)
	if lp == nil {
		return nil
	}
	// The mask policy needs plain JSON values (maps, slices, strings).
	var input, result any
	if err := roundTrip(ev.Input, &input); err != nil {
		return err
	}
	if err := roundTrip(ev.Result, &result); err != nil {
		return err
	}
	bundles := map[string]server.BundleInfo{}
	for name, rev := range f.store.inForce() {
		bundles[name] = server.BundleInfo{Revision: rev}
	}
	return lp.Log(ctx, &server.Info{
		DecisionID: ev.ID,
		Timestamp:  ev.Time,
		Path:       LogPath,
		Input:      &input,
		Results:    &result,
		Bundles:    bundles,
	})
}

func roundTrip(in any, out *any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// guardStore is the plugin manager's store. Every write goes through it;
// before a write that changes the org policy is committed, Accept compiles
// that policy with the local ones, and a refusal aborts the write: the
// bundle plugin then reports the activation as failed, does not persist
// the bundle, and the store keeps the last good one.
type guardStore struct {
	storage.Store
	accept func(context.Context, Org) (func(bool), error)
	roots  []string

	mu      sync.Mutex
	writes  map[storage.Transaction]bool
	lastKey string
	current map[string]string // bundle -> revision in force
	// refusedKey and refused remember the last refusal: the bundle plugin
	// downloads a refused bundle again at every poll, and the answer is
	// the same without compiling it again.
	refusedKey string
	refused    error
}

func newGuardStore(inner storage.Store, accept func(context.Context, Org) (func(bool), error), roots []string) *guardStore {
	s := &guardStore{Store: inner, accept: accept, roots: roots, writes: map[storage.Transaction]bool{}}
	s.lastKey = orgKey(Org{})
	return s
}

func (s *guardStore) NewTransaction(ctx context.Context, params ...storage.TransactionParams) (storage.Transaction, error) {
	txn, err := s.Store.NewTransaction(ctx, params...)
	if err == nil && len(params) > 0 && params[0].Write {
		s.mu.Lock()
		s.writes[txn] = true
		s.mu.Unlock()
	}
	return txn, err
}

func (s *guardStore) Abort(ctx context.Context, txn storage.Transaction) {
	s.forget(txn)
	s.Store.Abort(ctx, txn)
}

func (s *guardStore) forget(txn storage.Transaction) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.writes[txn]
	delete(s.writes, txn)
	return w
}

func (s *guardStore) Commit(ctx context.Context, txn storage.Transaction) error {
	if !s.forget(txn) {
		return s.Store.Commit(ctx, txn)
	}
	org, err := s.readOrg(ctx, txn)
	key := orgKey(org)
	// Only the bundle plugin and StartFleet write, one at a time (the
	// store's write lock is held until this returns).
	if err == nil && key == s.lastKey {
		return s.Store.Commit(ctx, txn)
	}
	var done func(bool)
	switch {
	case err != nil:
	case key == s.refusedKey:
		err = s.refused
	default:
		if done, err = s.accept(ctx, org); err != nil {
			s.refusedKey, s.refused = key, err
		}
	}
	if err != nil {
		s.Store.Abort(ctx, txn)
		return fmt.Errorf("agentjail refused the bundle; the last good one stays in force: %w", err)
	}
	err = s.Store.Commit(ctx, txn)
	done(err == nil)
	if err == nil {
		s.mu.Lock()
		s.lastKey, s.current = key, org.Revisions
		s.mu.Unlock()
	}
	return err
}

// inForce maps each bundle whose org policy is in force to its revision.
func (s *guardStore) inForce() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// readOrg reads, inside txn, the org policy the store would hold once
// txn is committed, refusing bundles with roots other than the allowed.
func (s *guardStore) readOrg(ctx context.Context, txn storage.Transaction) (Org, error) {
	org := Org{Revisions: map[string]string{}}
	names, err := bundle.ReadBundleNamesFromStore(ctx, s.Store, txn)
	if err != nil && !storage.IsNotFound(err) {
		return org, err
	}
	for _, name := range names {
		roots, err := bundle.ReadBundleRootsFromStore(ctx, s.Store, txn, name)
		if err != nil {
			return org, fmt.Errorf("bundle %s: reading its roots: %w", name, err)
		}
		for _, r := range roots {
			if !s.allowedRoot(r) {
				return org, fmt.Errorf("bundle %s has the root %q; agentjail takes org policies under %s only (list other roots in config.yaml's org_roots to allow them)", name, r, strings.Join(s.roots, ", "))
			}
		}
		rev, _ := bundle.ReadBundleRevisionFromStore(ctx, s.Store, txn, name)
		org.Revisions[name] = rev
	}
	ids, err := s.Store.ListPolicies(ctx, txn)
	if err != nil {
		return org, err
	}
	sort.Strings(ids)
	for _, id := range ids {
		if id == maskID {
			continue
		}
		text, err := s.Store.GetPolicy(ctx, txn, id)
		if err != nil {
			return org, err
		}
		name := "bundle/" + strings.TrimPrefix(id, "/")
		mod, _, err := Parse(name, text)
		if err != nil {
			return org, err
		}
		if !mod.Package.Path.HasPrefix(orgRoot) {
			continue // under an extra root: OPA's business (a mask, say)
		}
		src := Source{Name: name, Text: append([]byte(nil), text...), Org: true}
		if strings.HasSuffix(name, "_test.rego") {
			org.Tests = append(org.Tests, src)
		} else {
			org.Sources = append(org.Sources, src)
		}
	}
	v, err := s.Store.Read(ctx, txn, storage.MustParsePath("/"+OrgRoot))
	switch {
	case storage.IsNotFound(err):
	case err != nil:
		return org, err
	default:
		var data any
		if err := roundTrip(v, &data); err != nil {
			return org, err
		}
		m, ok := data.(map[string]any)
		if !ok {
			return org, fmt.Errorf("data under %s must be an object", OrgRoot)
		}
		if len(m) > 0 {
			org.Data = m
		}
	}
	if len(org.Revisions) == 0 {
		org.Revisions = nil
	}
	return org, nil
}

func (s *guardStore) allowedRoot(r string) bool {
	r = strings.Trim(r, "/")
	for _, ok := range s.roots {
		ok = strings.Trim(ok, "/")
		if r == ok || strings.HasPrefix(r, ok+"/") {
			return true
		}
	}
	return false
}

// orgKey identifies an org policy, so a write that leaves it as it was
// (a bundle of the same content, an ETag) costs no compile.
func orgKey(org Org) string {
	h := sha256.New()
	for _, set := range [][]Source{org.Sources, org.Tests} {
		for _, s := range set {
			fmt.Fprintf(h, "%s\x00%d\x00", s.Name, len(s.Text))
			h.Write(s.Text)
		}
		h.Write([]byte{1})
	}
	b, _ := json.Marshal(org.Data) // map keys are sorted
	h.Write(b)
	b, _ = json.Marshal(org.Revisions)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// opaLogger hands the plugins' log to slog.
type opaLogger struct {
	log    *slog.Logger
	fields map[string]any
}

func (l opaLogger) emit(level slog.Level, format string, a []any) {
	if l.log == nil {
		return
	}
	attrs := make([]any, 0, 2*len(l.fields)+2)
	attrs = append(attrs, "component", "opa")
	for k, v := range l.fields {
		attrs = append(attrs, k, v)
	}
	l.log.Log(context.Background(), level, fmt.Sprintf(format, a...), attrs...)
}

func (l opaLogger) Debug(f string, a ...any) { l.emit(slog.LevelDebug, f, a) }
func (l opaLogger) Info(f string, a ...any)  { l.emit(slog.LevelInfo, f, a) }
func (l opaLogger) Warn(f string, a ...any)  { l.emit(slog.LevelWarn, f, a) }
func (l opaLogger) Error(f string, a ...any) { l.emit(slog.LevelError, f, a) }
func (l opaLogger) WithFields(fields map[string]any) logging.Logger {
	m := make(map[string]any, len(l.fields)+len(fields))
	for k, v := range l.fields {
		m[k] = v
	}
	for k, v := range fields {
		m[k] = v
	}
	return opaLogger{log: l.log, fields: m}
}
func (opaLogger) GetLevel() logging.Level { return logging.Debug }
func (opaLogger) SetLevel(logging.Level)  {}
