// Package policyset owns the policy set in force and deciding a call
// with it: reading the default pack, the user's (or the machine's) own
// Rego, config.yaml and the org bundles accepted from OPA's plugins;
// compiling them, keeping the last good set and the last good config
// when a load fails, watching the files and swapping a new set in
// atomically; and deriving a hook event's input and judging it, with a
// system daemon's callers' own policies as tightening only. The socket
// server (package daemon) serves it; `agentjail try --offline` and
// `agentjail policy test` use it directly.
package policyset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjail/agentjail/internal/agentconfig"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// Decider turns hook events into decisions with the policy set in force.
// The daemon serves it over the socket; `agentjail try --offline` uses it
// directly. Decide is safe for concurrent use, also during a Load.
type Decider struct {
	pack        fs.FS
	home        string // $AGENTJAIL_HOME
	configDir   string // config.yaml and policies/: home, or /etc/agentjail for the system daemon
	system      bool   // the system daemon: each call is judged as its caller's
	userHome    string
	uid         *int
	socket      string // the socket served, so rules see $AGENTJAIL_SOCKET expanded
	configPath  string
	jailDir     string
	jailPerm    os.FileMode
	jailSupport jail.Support // the kernel's, found once
	busHidden   busHiding    // whether confined calls are kept off the session bus

	current atomic.Pointer[policySet]
	// users are the system daemon's callers' own policies (tightening
	// only), by uid.
	users userPolicies

	loadMu      sync.Mutex // serialises Load
	mu          sync.Mutex // guards the fields below
	loadErrs    []wire.LoadErr
	configErr   string
	saveErr     string // why the last good config.yaml could not be kept
	lastEvalErr string
	lastEvalAt  time.Time // when the last evaluation error happened

	// org is the org bundles' policy in force (see org.go); guarded
	// by loadMu.
	org *engine.Org

	allows, asks, denies, evalErrs atomic.Int64

	// reference makes every decision take the engine's reference path
	// (engine.EvalReference): tests check the fast path agrees with it.
	reference bool

	// keepLastGood: save each config.yaml that loads cleanly as the last
	// good configuration (the daemon does; `try --offline` only reads).
	keepLastGood bool
}

// tempDir, daemonPID and ownUID are facts about this process the
// policies use.
var (
	tempDir   = filepath.Clean(os.TempDir())
	daemonPID = os.Getpid()
	ownUID    = os.Getuid()
)

// policySet is what one successful load produced.
type policySet struct {
	engine *engine.Engine
	config config.Config
	// configAt is when config (config.yaml's) last loaded cleanly; zero
	// when config is the defaults because none ever did.
	configAt time.Time
	// unusedLastGood says why, with configAt zero, the last good copy
	// on disk was not used (not agentjail's own file, say).
	unusedLastGood string
	dirs           []string // the user policy folders it read
	user           []engine.Source
	loadedAt       time.Time
	// compiledFrom is what engine was compiled from: a load whose
	// sources, data and disabled rules are the same reuses it, so a
	// config.yaml save that changes only settings (fail_mode,
	// hook_timeout, notifications) is in force at once.
	compiledFrom compileInput
}

// compileInput is what a compiled engine depends on.
type compileInput struct {
	sources  []engine.Source
	data     map[string]any
	disabled []string
}

// same reports whether c and o would compile to the same engine.
func (c compileInput) same(o compileInput) bool {
	if len(c.sources) != len(o.sources) || !slices.Equal(c.disabled, o.disabled) || !reflect.DeepEqual(c.data, o.data) {
		return false
	}
	for i, s := range c.sources {
		t := o.sources[i]
		if s.Name != t.Name || s.Pack != t.Pack || s.Org != t.Org || !bytes.Equal(s.Text, t.Text) {
			return false
		}
	}
	return true
}

// Options configures New.
type Options struct {
	Pack fs.FS  // the embedded default pack
	Home string // $AGENTJAIL_HOME; its policies/ and config.yaml are read
	// ConfigDir, when set, is where policies/ and config.yaml are read
	// instead (the system daemon's /etc/agentjail); Home keeps the
	// state (the last good config).
	ConfigDir string
	// System: judge each call as its caller's (Request.CallerUID), with
	// the caller's home, and that user's own policies as tightening only.
	System   bool
	UserHome string // the user's home directory, for ~ in paths
	Socket   string // the socket the daemon serves (input.agentjail.socket)
	// UID is the uid the hook runs as, for input.agentjail.root; nil
	// means the daemon's own, the only uid the daemon's socket admits
	// outside system mode. Tests set it so that a test run as root
	// judges calls as a user's.
	UID *int
	// KeepLastGood saves each config.yaml that loads cleanly as
	// config.LastGoodName in Home, for the next start to fall back on.
	KeepLastGood bool
	// Serving says this process is the daemon serving the socket: only
	// then is its own command line one a pattern could find it by
	// (input.agentjail.daemon). `agentjail try --offline` must decide
	// as the daemon would, not by its own arguments.
	Serving bool
	// JailDir is where the profiles of confined calls are written
	// (config.yaml's confine); "" confines nothing. JailPerm is their
	// mode: a system daemon's are read by every user it serves.
	JailDir  string
	JailPerm os.FileMode
	// Reference makes every decision take the engine's reference path
	// (engine.EvalReference: no direct input conversion, no decision
	// cache), so tests and benchmarks can hold the fast path against it.
	Reference bool
}

// New loads policies and config once. It fails only if even the
// default pack cannot be compiled; problems in the user's files are kept
// for Status and the files left out.
func New(ctx context.Context, opts Options) (*Decider, error) {
	if opts.ConfigDir == "" {
		opts.ConfigDir = opts.Home
	}
	if opts.Serving {
		serving.Store(true)
	}
	agentconfig.SetOwnPrograms(ownPrograms(opts.Home))
	d := &Decider{
		pack:        opts.Pack,
		home:        opts.Home,
		configDir:   opts.ConfigDir,
		system:      opts.System,
		userHome:    opts.UserHome,
		uid:         opts.UID,
		socket:      opts.Socket,
		configPath:  filepath.Join(opts.ConfigDir, paths.ConfigName),
		jailDir:     opts.JailDir,
		jailPerm:    opts.JailPerm,
		jailSupport: jail.Probe(),
		busHidden:   probeBusHiding(opts.System),

		keepLastGood: opts.KeepLastGood,
		reference:    opts.Reference,
	}
	d.Load(ctx)
	if d.current.Load() == nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		return nil, fmt.Errorf("the default policy pack does not compile: %v", d.loadErrs)
	}
	return d, nil
}

// Load reads config.yaml and every policy source and swaps in the new
// set if it compiles. A broken config keeps the last good config; broken
// policies keep the last good policy set. At first load, when there is no
// last good set, the user's broken files are left out so the default pack
// and every good file still guard. It reports whether a new set is in force.
func (d *Decider) Load(ctx context.Context) bool {
	d.loadMu.Lock()
	defer d.loadMu.Unlock()
	prev := d.current.Load()
	refreshIdentity() // its parent may have changed since

	cfg, text, cfgErr := LoadConfig(d.configDir)
	configAt, unused, saveErr := time.Now(), "", ""
	switch {
	case cfgErr == nil && d.keepLastGood:
		if err := config.SaveLastGood(d.home, text); err != nil {
			saveErr = fmt.Sprintf("cannot keep config.yaml as the last good configuration: %v", err)
		}
	case cfgErr != nil && prev != nil:
		cfg, configAt, unused = prev.config, prev.configAt, prev.unusedLastGood
	case cfgErr != nil:
		// A start with a config.yaml that does not load: the last good
		// one guards, never the defaults while a good one is known.
		in := config.Fallback(d.home, cfgErr)
		cfg, configAt = in.Config, in.LastGood
		if in.LastGoodErr != nil {
			unused = in.LastGoodErr.Error()
		}
	}
	dirs := append([]string{filepath.Join(d.configDir, paths.PoliciesName)}, cfg.PolicyDirs...)

	pack, err := PackSources(d.pack, false)
	if err != nil {
		d.setLoadResult([]wire.LoadErr{{File: "default pack", Message: err.Error()}}, cfgErr)
		return false
	}
	pack = append(pack, d.orgSources()...) // kept whatever the user's files do
	user, errs := DirSources(dirs, false)
	data := policyData(cfg)
	d.fleetData(data, cfg, d.org)
	from := compileInput{sources: append(pack, user...), data: data, disabled: slices.Clone(cfg.DisabledRules)}
	var eng *engine.Engine
	var compileErrs []wire.LoadErr
	if prev != nil && len(errs) == 0 && prev.compiledFrom.same(from) {
		eng = prev.engine // only settings changed: nothing to compile
	} else {
		eng, compileErrs = engine.Compile(ctx, from.sources, data, cfg.DisabledRules)
	}
	errs = append(errs, compileErrs...)
	if eng == nil && prev == nil {
		eng = d.compileWithout(ctx, pack, user, compileErrs, data, cfg.DisabledRules)
	}
	var set *policySet
	if eng != nil {
		set = &policySet{engine: eng, config: cfg, configAt: configAt, unusedLastGood: unused, dirs: dirs, user: user, loadedAt: time.Now()}
		if len(compileErrs) == 0 {
			set.compiledFrom = from
		}
	}
	d.publish(set, errs, cfgErr, saveErr)
	return set != nil
}

// compileWithout retries without the user files named in errs, then with
// the default pack alone.
func (d *Decider) compileWithout(ctx context.Context, pack, user []engine.Source, errs []wire.LoadErr, data map[string]any, disabled []string) *engine.Engine {
	bad := map[string]bool{}
	for _, e := range errs {
		bad[e.File] = true
	}
	var good []engine.Source
	for _, s := range user {
		if !bad[s.Name] {
			good = append(good, s)
		}
	}
	if eng, errs := engine.Compile(ctx, append(pack, good...), data, disabled); len(errs) == 0 {
		return eng
	}
	eng, _ := engine.Compile(ctx, pack, data, disabled)
	return eng
}

// policyData is what the policies read under data.config.
func policyData(cfg config.Config) map[string]any {
	return map[string]any{"config": map[string]any{
		"disabled_rules":      anyList(cfg.DisabledRules),
		"protected_paths":     anyList(cfg.ProtectedPaths),
		"allowed_paths":       anyList(cfg.AllowedPaths),
		"production_contexts": anyList(cfg.ProductionContexts),
		"policy_dirs":         anyList(cfg.PolicyDirs), // protected like $AGENTJAIL_HOME
	}}
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// LoadConfig reads home's config.yaml with every check a daemon's load
// makes (a locked rule disabled, an OPA section OPA refuses), returning
// the text it loaded. Every reader of config.yaml goes through it, so
// the daemon, install and the CLI agree on whether it loads.
func LoadConfig(home string) (config.Config, []byte, error) {
	path := filepath.Join(home, paths.ConfigName)
	cfg, text, err := config.Read(path)
	if err == nil {
		err = checkDisabledRules(keyAt(path, text, "disabled_rules"), cfg.DisabledRules)
	}
	if err == nil {
		err = checkFleetConfig(keyAt(path, text, "opa"), home, cfg)
	}
	if err != nil {
		return config.Default(), nil, err
	}
	return cfg, text, nil
}

// ConfigInForce is the configuration a daemon started now would have in
// force: config.yaml's, or when it does not load, the last good one
// kept in home, or else the defaults.
func ConfigInForce(home string) config.InForce {
	cfg, _, err := LoadConfig(home)
	if err == nil {
		return config.InForce{Config: cfg}
	}
	return config.Fallback(home, err)
}

// keyAt names where config.yaml's key is, for an error about it: the
// file and the key's line.
func keyAt(path string, text []byte, key string) string {
	if line := config.LineOf(text, key); line > 0 {
		return fmt.Sprintf("%s: line %d", path, line)
	}
	return path
}

// checkDisabledRules refuses a config that tries to disable a locked
// rule; where names the file (and line) in the error.
func checkDisabledRules(where string, ids []string) error {
	for _, id := range ids {
		if strings.HasPrefix(id, engine.LockedPrefix) {
			return fmt.Errorf("%s: disabled_rules: %s is locked: the %s* rules keep an agent from switching agentjail off, so config cannot disable them", where, id, engine.LockedPrefix)
		}
	}
	return nil
}

func (d *Decider) setLoadResult(errs []wire.LoadErr, cfgErr error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.setLoadResultLocked(errs, cfgErr)
}

func (d *Decider) setLoadResultLocked(errs []wire.LoadErr, cfgErr error) {
	d.loadErrs = errs
	d.configErr = ""
	if cfgErr != nil {
		d.configErr = cfgErr.Error()
	}
}

// publish puts a load's set (nil when nothing compiled) and its errors
// in force together, so a status never pairs the new errors with the
// old set: "config.yaml loads" while the broken one's fallback guards.
func (d *Decider) publish(set *policySet, errs []wire.LoadErr, cfgErr error, saveErr string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if set != nil {
		d.current.Store(set)
	}
	d.setLoadResultLocked(errs, cfgErr)
	d.saveErr = saveErr
}

// Config is the configuration in force.
func (d *Decider) Config() config.Config { return d.current.Load().config }

// PolicyDirs are the user policy folders the set in force was read from.
func (d *Decider) PolicyDirs() []string { return d.current.Load().dirs }

// ConfigPath is the config.yaml the decider reads.
func (d *Decider) ConfigPath() string { return d.configPath }

// Decide evaluates one request. The error is a *wire.Error for a request
// that cannot be evaluated (not a JSON object); an evaluation failure or
// a panic is not an error here but a deny naming it.
func (d *Decider) Decide(ctx context.Context, req *wire.Request) (*wire.Decision, error) {
	dec, _, _, err := d.Judge(ctx, req, false)
	if err == nil {
		d.Count(dec.Verdict)
	}
	return dec, err
}

// testHookDecide, set only by tests, runs after the input is built and
// before evaluation: the seam through which a test makes deciding slow
// beyond interruption, or panic.
var testHookDecide atomic.Pointer[func(*wire.Request)]

// SetDecideHook makes every decision run f after deriving the input and
// before evaluating it, until restore is called. It is for tests only,
// the server's among them: nothing else may set it.
func SetDecideHook(f func(*wire.Request)) (restore func()) {
	testHookDecide.Store(&f)
	return func() { testHookDecide.Store(nil) }
}

// decide is Decide that also returns the call it judged when keepCall is
// set (see Judge). It does not count the verdict: the caller counts what
// it answered, which past a deadline is not what decide found.
func (d *Decider) decide(ctx context.Context, req *wire.Request, keepCall bool) (*wire.Decision, *Call, error) {
	start := time.Now()
	set := d.current.Load()
	env := d.inputEnv(set, req)
	in, err := input.Decode(req.Event)
	if errors.Is(err, input.ErrTooDeep) {
		return tooDeepDecision(set.engine.Revision()), nil, nil
	}
	if err != nil {
		return nil, nil, &wire.Error{Code: wire.CodeBadRequest, Message: err.Error()}
	}
	derived := input.Derive(in, env)
	var call *Call
	if keepCall {
		call = newCall(in, derived, req.Agent)
	}
	if hook := testHookDecide.Load(); hook != nil {
		(*hook)(req)
	}
	evalCtx := ctx // the request's budget bounds it, unless eval_timeout is tighter
	if set.config.EvalTimeout > 0 {
		var cancel context.CancelFunc
		evalCtx, cancel = context.WithTimeout(ctx, set.config.EvalTimeout)
		defer cancel()
	}
	var dec *wire.Decision
	if d.reference {
		in[input.Key] = derived.Map()
		dec, err = set.engine.EvalReference(evalCtx, in)
	} else {
		dec, err = set.engine.EvalCall(evalCtx, in, derived)
		if req.Explain {
			in[input.Key] = derived.Map()
		}
	}
	if err == nil && len(derived.Written) > 0 {
		env.ClientCwd = derived.Cwd
		d.judgeWritten(evalCtx, set, env, derived.Written, dec)
	}
	if err == nil && d.system && req.CallerUID != nil && env.Home != "" {
		// Last, so nothing after it loosens: the caller's own policies,
		// which may only tighten.
		if user, _ := d.users.For(evalCtx, *req.CallerUID, env.Home); user != nil {
			if _, ok := in[input.Key]; !ok {
				in[input.Key] = derived.Map()
			}
			err = tightenDecision(evalCtx, user, in, dec)
		}
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			// The request's own deadline (the daemon's decideBy) came first.
			dec.Reason = fmt.Sprintf("agentjail blocked this call because deciding it took longer than its %v budget; a policy rule is too slow or the daemon is overloaded: see `agentjail status`", set.config.RequestBudget())
			dec.Rules[0].Msg = dec.Reason
		case errors.Is(err, context.DeadlineExceeded) || evalCtx.Err() != nil:
			dec.Reason = fmt.Sprintf("agentjail blocked this call because the policies took longer than eval_timeout (%v) to decide; simplify the slow rule or raise eval_timeout", set.config.EvalTimeout)
			dec.Rules[0].Msg = dec.Reason
		}
		d.evalError(clipMsg(err.Error()))
	}
	if err == nil && dec.Verdict != wire.Deny && derived.ToolKind == "shell" && set.config.Confine {
		d.confine(evalCtx, set, in, derived, dec, req.CallerUID)
	}
	capDecision(dec)
	dec.EvalMicros = time.Since(start).Microseconds()
	if req.Explain {
		dec.Input, _ = json.Marshal(in)
	}
	return dec, call, nil
}

// inputEnv is what deriving req's input needs beyond its event.
func (d *Decider) inputEnv(set *policySet, req *wire.Request) input.Env {
	opts := Options{Home: d.home, UserHome: d.userHome, Socket: d.socket, UID: d.uid}
	if d.system {
		// The caller's own uid and home, from the peer credentials and
		// the user database: never from the event, which the agent writes.
		// Its agentjail home is the user's ~/.agentjail, where their own
		// (tightening) policies live: the pack guards it as in user mode.
		opts.UID, opts.UserHome, opts.System = req.CallerUID, callerHome(req.CallerUID), true
		if opts.UserHome != "" {
			opts.Home = filepath.Join(opts.UserHome, ".agentjail")
		}
	}
	return InputEnv(set.engine, opts, req.Cwd, req.Agent)
}

// InputEnv is what a Decider made with opts derives an event's input
// with while eng is in force, for a hook run in cwd by agent: the one
// place that says so, for the daemon and for `agentjail policy test`,
// which derives its tests' raw events the same way.
func InputEnv(eng *engine.Engine, opts Options, cwd, agent string) input.Env {
	return input.Env{
		Home:          opts.UserHome,
		AgentjailHome: opts.Home,
		ClientCwd:     cwd,
		Agent:         agent,
		Temp:          tempDir,
		DaemonPID:     daemonPID,
		Daemon:        ownIdentity(),
		Root:          callerUID(opts.UID) == 0,
		System:        opts.System,
		Socket:        opts.Socket,
		ProgramGroups: eng.ProgramGroups(),
		Roles:         eng.ShellRoles(),
		ReadFile:      agentconfig.ReadRegular, // settings edits are judged on the file they leave
		Written:       eng.WrittenFiles(),      // writes to files run later are judged on what they add
		Identity:      identityIndex(opts.UserHome, opts.Home, opts.Socket, eng.CredentialDirs()),
		Agents:        agentBinaries(opts.UserHome),
	}
}

// ownPrograms are where agentjail's own programs are: this one, the
// installed one, the system install's. A command running one of them by
// another name is judged as the agentjail command.
func ownPrograms(home string) []string {
	out := []string{filepath.Join(home, paths.BinName, "agentjail"), filepath.Join(paths.System().Libexec, "agentjail")}
	if exe, err := os.Executable(); err == nil {
		out = append(out, exe)
	}
	return out
}

// agentBinaries are the agents' installed programs for the user whose
// home is home, looked up once per home and refreshed as they are used.
func agentBinaries(home string) *agentconfig.Binaries {
	binariesMu.Lock()
	defer binariesMu.Unlock()
	b, ok := binaries[home]
	if !ok {
		if len(binaries) > 16 {
			clear(binaries)
		}
		b = agentconfig.NewBinaries(home, os.Getenv("PATH"))
		binaries[home] = b
	}
	return b
}

var (
	binariesMu sync.Mutex
	binaries   = map[string]*agentconfig.Binaries{}
)

// callerUID is the uid of the hook's process: uid when set, else the
// daemon's own (its socket admits no other outside system mode).
func callerUID(uid *int) int {
	if uid != nil {
		return *uid
	}
	return ownUID
}

// DeriveInput is the whole policy input (the event, and input.agentjail
// in place of whatever it carried there) that the daemon builds from a
// raw hook event under env, as JSON.
func DeriveInput(event []byte, env input.Env) ([]byte, error) {
	in, err := input.Decode(event)
	if err != nil {
		return nil, err
	}
	in[input.Key] = input.Derive(in, env).Map()
	return json.Marshal(in)
}

// FillStatus writes the decider's part of a status report: the set in
// force, its load and config errors, the verdicts counted (see Count)
// and the evaluation errors.
func (d *Decider) FillStatus(st *wire.Status) {
	d.mu.Lock() // the set with the errors of its own load (see publish)
	defer d.mu.Unlock()
	set := d.current.Load()
	st.Revision = set.engine.Revision()
	st.Rules = set.engine.Rules()
	st.LoadedAt = set.loadedAt.UTC().Format(time.RFC3339)
	st.Sources = set.engine.Sources()
	st.Decisions = map[wire.Verdict]int64{
		wire.Allow: d.allows.Load(),
		wire.Ask:   d.asks.Load(),
		wire.Deny:  d.denies.Load(),
	}
	st.EvalErrors = d.evalErrs.Load()
	st.LoadErrors = append([]wire.LoadErr(nil), d.loadErrs...)
	st.ConfigError = d.configErr
	st.LastGoodError = d.saveErr
	if d.configErr != "" {
		if !set.configAt.IsZero() {
			st.ConfigLastGood = set.configAt.UTC().Format(time.RFC3339)
		}
		st.ConfigInForce = config.DescribeFallback(d.configErr, set.configAt, set.unusedLastGood, localTime)
	}
	st.LastEvalErr = d.lastEvalErr
	st.FailMode = set.config.FailMode
	fillConfig(st, set, d.configPath)
	st.HookTimeout = set.config.HookTimeout.String()
	if d.evalErrs.Load() > 0 && time.Since(d.lastEvalAt) < wire.ProblemWindow {
		st.Problems = append(st.Problems, wire.Problem{
			Kind:    "eval",
			Message: fmt.Sprintf("%s, the last %s ago: %s; those calls were denied", plural.Of(int(d.evalErrs.Load()), "evaluation error"), time.Since(d.lastEvalAt).Round(time.Second), d.lastEvalErr),
			Fix:     fmt.Sprintf("find the call with `agentjail logs --verdict deny`, simplify the slow or failing rule (or raise eval_timeout); this clears %v after the last error", wire.ProblemWindow),
		})
	}
}

// localTime is how the daemon names a time to the person reading status.
func localTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }

// watchedFile reports whether a change to name should trigger a reload.
func (d *Decider) watchedFile(name string) bool {
	if name == d.configPath {
		return true
	}
	return strings.HasSuffix(name, ".rego")
}

// confine sets dec.Jail to the profile the policies compute for a shell
// call they let run. A profile that cannot be computed or written denies
// the call: it would otherwise run unconfined without a word.
func (d *Decider) confine(ctx context.Context, set *policySet, in map[string]any, derived *input.Derived, dec *wire.Decision, caller *int) {
	if off := d.jailOff(); off != "" {
		// Judged as before, which status says; unless calls that cannot
		// be checked in full are to be refused.
		if set.config.FailMode == "closed" {
			msg := "agentjail blocked this call because it cannot be confined (" + off + ") and fail_mode is closed"
			dec.Verdict, dec.Reason, dec.Explicit = wire.Deny, msg, false
			dec.Rules = append(dec.Rules, wire.Rule{Kind: wire.Deny, ID: "agentjail.unconfined", Msg: msg})
		}
		return
	}
	p, notes, err := set.engine.Jail(ctx, in, derived)
	if err == nil {
		p.Notes = notes
		if d.busHidden.ok {
			p.Hide = sessionBuses(d.system, caller)
			p.Apart = !d.jailSupport.Scoped
		}
		dec.Jail, err = jail.Save(d.jailDir, p, d.jailPerm)
	}
	if err != nil {
		msg := "agentjail blocked this call because it could not compute the confinement it runs under: " + clipMsg(err.Error())
		dec.Verdict, dec.Reason, dec.Explicit = wire.Deny, msg, false
		dec.Rules = append(dec.Rules, wire.Rule{Kind: wire.Deny, ID: "agentjail.jail_error", Msg: msg})
		d.evalError(clipMsg(err.Error()))
	}
}

// jailOff says why no call can be confined here, "" when calls can.
func (d *Decider) jailOff() string {
	if d.jailDir == "" {
		return "the daemon has no folder for the calls' profiles"
	}
	return d.jailSupport.Off
}
