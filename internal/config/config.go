// Package config reads $AGENTJAIL_HOME/config.yaml into a plain Config.
// It is the only package that imports viper; everything else sees the
// struct. Every key is documented in docs/configuration.md.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// Config is agentjail's configuration. The zero value is not valid; use
// Default or Load.
type Config struct {
	// FailMode is what the hook does when it cannot check a call: "open"
	// (allow with a warning) or "closed" (deny). Written into the hook
	// command as --fail-closed.
	FailMode string `mapstructure:"fail_mode"`
	// Confine runs every shell call the policies let through under the
	// kernel's confinement (see docs/security.md, "The jail"), for the
	// agents whose hook can rewrite a call.
	Confine bool `mapstructure:"confine"`
	// HookTimeout bounds one hook run, from reading stdin to the answer.
	// The daemon answers every decide request within RequestBudget, a
	// margin below it. Bounded by MinHookTimeout and MaxHookTimeout.
	HookTimeout time.Duration `mapstructure:"hook_timeout"`
	// ReadTimeout bounds how long the daemon waits for a request on a
	// connection before answering with a timeout error. Bounded by
	// MinReadTimeout and MaxReadTimeout.
	ReadTimeout time.Duration `mapstructure:"read_timeout"`
	// EvalTimeout bounds one policy evaluation more tightly than the
	// request's budget; past it the call is denied. Zero (the default)
	// leaves the budget alone to bound it, so a machine under load,
	// which makes every evaluation slower, does not deny harmless calls
	// long before the hook would give up. When set, it must be below
	// RequestBudget.
	EvalTimeout time.Duration `mapstructure:"eval_timeout"`
	// PolicyDirs are more folders of *.rego loaded beside the default
	// pack and $AGENTJAIL_HOME/policies.
	PolicyDirs []string `mapstructure:"policy_dirs"`
	// LogLevel is the daemon's log level: debug, info, warn or error.
	LogLevel string `mapstructure:"log_level"`
	// DisabledRules are rule ids the policies skip (the locked
	// self-protection rules excepted).
	DisabledRules []string `mapstructure:"disabled_rules"`
	// ProtectedPaths are treated like credentials: no agent may read,
	// copy or change anything under them.
	ProtectedPaths []string `mapstructure:"protected_paths"`
	// AllowedPaths are outside the project yet fine to delete or change,
	// such as a build output folder that lives elsewhere.
	AllowedPaths []string `mapstructure:"allowed_paths"`
	// ProductionContexts are more names (cluster contexts, namespaces,
	// stages) that mean production, besides those named like it (prod,
	// production, prd, live): changes there are asked about.
	ProductionContexts []string `mapstructure:"production_contexts"`
	// Notifications turns the desktop notification on deny on or off.
	Notifications bool `mapstructure:"notifications"`
	// Approvals says who asks the person when a policy wants one to
	// approve a call: "agent" (the agent's own prompt where it has one,
	// agentjail's approvals where it has none), "agentjail" (agentjail's
	// approvals for every agent) or "both" (agentjail's first, then the
	// agent's own prompt where it has one).
	Approvals string `mapstructure:"approvals"`
	// ApprovalTimeout is how long a held call waits for a person before
	// it is denied; 0 holds nothing (an agent that cannot ask gets a deny
	// that says a person must approve). Install writes it into the hook
	// command (--hold) and each agent's own hook timeout above it.
	ApprovalTimeout time.Duration `mapstructure:"approval_timeout"`
	// GrantExpiry is how long an "Allow for this session" or "Always in
	// this project" grant lasts.
	GrantExpiry time.Duration `mapstructure:"grant_expiry"`
	// OrgRoots are bundle roots besides agentjail/org that an org bundle
	// may carry, such as system/log for the org's own decision-log mask;
	// a bundle with any other root is refused.
	OrgRoots []string `mapstructure:"org_roots"`
	// System holds what only a system install (`sudo agentjail install
	// --system`) reads.
	System System `mapstructure:"system"`
	// OPA is the `opa:` section as JSON: an OPA configuration (services,
	// keys, bundles, decision_logs, status, persistence_directory, ...)
	// handed unchanged to OPA's own plugins. Read from the file itself,
	// so that names keep their case (viper lowercases keys). Nil: none.
	OPA json.RawMessage `mapstructure:"-"`
	// OPASection is viper's view of the same section, keys lowercased:
	// it exists so that the key is known; use OPA.
	OPASection map[string]any `mapstructure:"opa"`
}

// Default is the configuration used when config.yaml is absent.
func Default() Config {
	return Config{
		FailMode:    "open",
		Confine:     true,
		HookTimeout: 2 * time.Second,
		ReadTimeout: 2 * time.Second,
		EvalTimeout: 0,
		LogLevel:    "info",
		// Notifications are on unless config.yaml turns them off.
		Notifications:   true,
		Approvals:       "agent",
		ApprovalTimeout: 60 * time.Second,
		GrantExpiry:     24 * time.Hour,
	}
}

// Bounds of the timeouts. A read_timeout under 10ms refuses requests a
// busy machine sends in time; one over 5s lets a silent client hold a
// connection (and its memory) long after its hook has given up. A
// hook_timeout under 300ms leaves the daemon no time to decide; over 60s
// the agent itself (Claude Code's default hook timeout) kills the hook,
// and a killed hook lets the call run.
const (
	MinReadTimeout = 10 * time.Millisecond
	MaxReadTimeout = 5 * time.Second
	MinHookTimeout = 300 * time.Millisecond
	MaxHookTimeout = 60 * time.Second
	// A person needs a few seconds to read a call; past ten minutes an
	// agent's own hook timeout (which install sets above it) is long
	// enough to look like a hang. A grant lasts between a minute and 30
	// days.
	MinApprovalTimeout = 5 * time.Second
	MaxApprovalTimeout = 10 * time.Minute
	MinGrantExpiry     = time.Minute
	MaxGrantExpiry     = 30 * 24 * time.Hour
)

// durationKeys are the keys that hold a duration.
var durationKeys = []string{"hook_timeout", "read_timeout", "eval_timeout", "approval_timeout", "grant_expiry"}

// RequestBudget is how long the daemon may spend on one decide request,
// from accepting the connection to writing the answer: the hook's
// deadline minus a margin for starting the hook, the round trip and the
// hook's own output (a quarter of hook_timeout, at least 100ms). Past it
// the daemon answers deny, so the hook always hears a verdict in time.
func (c Config) RequestBudget() time.Duration {
	return c.HookTimeout - max(c.HookTimeout/4, 100*time.Millisecond)
}

// Load reads the YAML file at path over the defaults. A missing file is
// not an error. Unknown keys and bad values are, so a typo is reported
// rather than silently ignored.
func Load(path string) (Config, error) {
	c, _, err := Read(path)
	return c, err
}

// Read is Load that also returns the text it loaded (nil for a missing
// file), so that what is kept as the last good configuration is exactly
// what was checked.
func Read(path string) (Config, []byte, error) {
	text, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil, nil
	}
	if err != nil {
		return Default(), nil, fmt.Errorf("%s: %w", path, err)
	}
	c, err := Parse(path, text)
	return c, text, err
}

// Parse reads text, the contents of the config.yaml at path (named in
// errors), over the defaults.
func Parse(path string, text []byte) (Config, error) {
	def := Default()
	v := viper.New()
	v.SetConfigType("yaml")
	v.SetDefault("fail_mode", def.FailMode)
	v.SetDefault("confine", def.Confine)
	v.SetDefault("hook_timeout", def.HookTimeout)
	v.SetDefault("read_timeout", def.ReadTimeout)
	v.SetDefault("eval_timeout", def.EvalTimeout)
	v.SetDefault("policy_dirs", def.PolicyDirs)
	v.SetDefault("log_level", def.LogLevel)
	v.SetDefault("disabled_rules", []string{})
	v.SetDefault("protected_paths", []string{})
	v.SetDefault("allowed_paths", []string{})
	v.SetDefault("production_contexts", []string{})
	v.SetDefault("notifications", def.Notifications)
	v.SetDefault("org_roots", []string{})
	v.SetDefault("approvals", def.Approvals)
	v.SetDefault("approval_timeout", def.ApprovalTimeout)
	v.SetDefault("grant_expiry", def.GrantExpiry)
	if err := v.ReadConfig(bytes.NewReader(text)); err != nil {
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			return def, fmt.Errorf("%s: line %s: not valid YAML: %s", path, m[1], m[2])
		}
		return def, fmt.Errorf("%s: not valid YAML: %w", path, err)
	}
	if err := checkKeys(text); err != nil {
		return def, fmt.Errorf("%s: %w", path, located(text, err))
	}
	for _, check := range []func(*viper.Viper) error{checkTypes, checkDurations} {
		if err := check(v); err != nil {
			return def, fmt.Errorf("%s: %w", path, located(text, err))
		}
	}
	var c Config
	if err := v.UnmarshalExact(&c); err != nil {
		// The checks above should leave nothing for the decoder to
		// refuse; if it does, its words are all there is.
		return def, fmt.Errorf("%s: %w; see docs/configuration.md", path, err)
	}
	if err := c.validate(); err != nil {
		return def, fmt.Errorf("%s: %w", path, located(text, err))
	}
	opa, err := opaSection(text)
	if err != nil {
		return def, fmt.Errorf("%s: %w", path, located(text, err))
	}
	c.OPA, c.OPASection = opa, nil
	for _, list := range [][]string{c.PolicyDirs, c.ProtectedPaths, c.AllowedPaths} {
		for i, p := range list {
			list[i] = filepath.Clean(expandHome(p))
		}
	}
	return c, nil
}

// System is config.yaml's system: section.
type System struct {
	// ManagedHooksOnly also sets each agent's "managed hooks only"
	// switch, so the user's own hooks stop running (install
	// --managed-hooks-only does too).
	ManagedHooksOnly bool `mapstructure:"managed_hooks_only"`
}

func (c Config) validate() error {
	switch c.FailMode {
	case "open", "closed":
	default:
		return fmt.Errorf("fail_mode must be \"open\" or \"closed\", not %q", c.FailMode)
	}
	for name, d := range map[string]time.Duration{"hook_timeout": c.HookTimeout, "read_timeout": c.ReadTimeout} {
		if d <= 0 {
			return fmt.Errorf("%s must be a positive duration such as 2s, not %v", name, d)
		}
	}
	if c.EvalTimeout < 0 {
		return fmt.Errorf("eval_timeout must be a positive duration such as 500ms, or 0 for the request's budget alone, not %v", c.EvalTimeout)
	}
	if c.HookTimeout < MinHookTimeout || c.HookTimeout > MaxHookTimeout {
		return fmt.Errorf("hook_timeout must be between %v and %v, not %v", MinHookTimeout, MaxHookTimeout, c.HookTimeout)
	}
	if c.ReadTimeout < MinReadTimeout || c.ReadTimeout > MaxReadTimeout {
		return fmt.Errorf("read_timeout must be between %v and %v, not %v", MinReadTimeout, MaxReadTimeout, c.ReadTimeout)
	}
	// An eval_timeout at or past the budget would let a slow rule run
	// until the hook gives up, and a hook that gives up lets the call run.
	if c.EvalTimeout > 0 && c.EvalTimeout >= c.RequestBudget() {
		return fmt.Errorf("eval_timeout must be below %v (hook_timeout %v minus its margin), not %v; lower eval_timeout or raise hook_timeout", c.RequestBudget(), c.HookTimeout, c.EvalTimeout)
	}
	switch c.Approvals {
	case "agent", "agentjail", "both":
	default:
		return fmt.Errorf("approvals must be \"agent\", \"agentjail\" or \"both\", not %q", c.Approvals)
	}
	if c.ApprovalTimeout != 0 && (c.ApprovalTimeout < MinApprovalTimeout || c.ApprovalTimeout > MaxApprovalTimeout) {
		return fmt.Errorf("approval_timeout must be 0 (hold nothing) or between %v and %v, not %v", MinApprovalTimeout, MaxApprovalTimeout, c.ApprovalTimeout)
	}
	if c.GrantExpiry < MinGrantExpiry || c.GrantExpiry > MaxGrantExpiry {
		return fmt.Errorf("grant_expiry must be between %v and %v, not %v", MinGrantExpiry, MaxGrantExpiry, c.GrantExpiry)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log_level must be debug, info, warn or error, not %q", c.LogLevel)
	}
	for name, list := range map[string][]string{"protected_paths": c.ProtectedPaths, "allowed_paths": c.AllowedPaths} {
		for _, p := range list {
			if p = expandHome(p); !filepath.IsAbs(p) {
				return fmt.Errorf("%s: %q must be an absolute path (or start with ~/)", name, p)
			}
		}
	}
	return nil
}

// checkDurations refuses a duration written without a unit. YAML reads
// `eval_timeout: 50` as the number 50, which would decode as 50
// nanoseconds: every call would be denied, or, for a bound meant to be
// generous, the guard would be quietly useless. The user meant a unit.
func checkDurations(v *viper.Viper) error {
	for _, key := range durationKeys {
		switch x := v.Get(key).(type) {
		case time.Duration:
			// a default
		case int:
			if x == 0 && key == "approval_timeout" {
				continue // 0 holds nothing: no unit needed
			}
			return fmt.Errorf("%s: %v has no unit: write a number with a unit, such as %s: 500ms (ms, s or m)", key, x, key)
		case nil:
			return fmt.Errorf("%s is empty: write a duration with a unit, such as %s: 500ms", key, key)
		case string:
			if _, err := time.ParseDuration(x); err != nil {
				return fmt.Errorf("%s: %q is not a duration: write a number with a unit, such as %s: 500ms", key, x, key)
			}
		default:
			return fmt.Errorf("%s: %v has no unit: write a number with a unit, such as %s: 500ms (ms, s or m)", key, x, key)
		}
	}
	return nil
}

// yamlLine finds the line in a YAML parser's error.
var yamlLine = regexp.MustCompile(`yaml: line (\d+): (.*)`)

// keyLead is the key an error of the checks names first: every one
// starts with the key it is about, or with unknown key "name".
var keyLead = regexp.MustCompile(`^(?:unknown key "([^"]+)"|([a-z_]+))`)

// located puts the line of the key err is about before it, so that a
// person finds the mistake in a long file.
func located(text []byte, err error) error {
	m := keyLead.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	key := m[1] + m[2]
	if line := LineOf(text, key); line > 0 {
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

// LineOf is the line of config.yaml's top-level key (as viper reads
// keys, in any case), or 0 when it has none.
func LineOf(text []byte, key string) int {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return 0
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(m.Content[i].Value, key) {
			return m.Content[i].Line
		}
	}
	return 0
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return h + p[1:]
		}
	}
	return p
}
