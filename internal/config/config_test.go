package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/hook"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string // "" means no file
		want    func(Config) bool
		wantErr string
	}{
		{"missing file gives defaults", "", func(c Config) bool { return c.FailMode == "open" && c.HookTimeout == 2*time.Second }, ""},
		{"values read", "fail_mode: closed\nhook_timeout: 3s\npolicy_dirs: [/opt/rego]\n", func(c Config) bool {
			return c.FailMode == "closed" && c.HookTimeout == 3*time.Second && len(c.PolicyDirs) == 1 && c.PolicyDirs[0] == "/opt/rego"
		}, ""},
		{"unknown key refused", "fail_mod: closed\n", nil, "fail_mod"},
		{"system mode's managed hooks only", "system:\n  managed_hooks_only: true\n", func(c Config) bool { return c.System.ManagedHooksOnly }, ""},
		{"system: must be a mapping", "system: yes\n", nil, "system must be a mapping"},
		{"system: an unknown key inside refused", "system:\n  managed_hook_only: true\n", nil, "managed_hook_only"},
		{"bad fail mode refused", "fail_mode: sometimes\n", nil, "fail_mode must be"},
		{"bad duration refused", "eval_timeout: soon\n", nil, "eval_timeout"},
		{"negative duration refused", "read_timeout: -1s\n", nil, "read_timeout must be"},
		{"broken yaml refused", "fail_mode: [closed\n", nil, "not valid YAML"},
		{"tuning read and paths expanded", "disabled_rules: [git.force_push]\nallowed_paths: [~/dist, /srv/out/]\nprotected_paths: [/srv/vault]\n", func(c Config) bool {
			home, _ := os.UserHomeDir()
			return len(c.DisabledRules) == 1 && c.AllowedPaths[0] == home+"/dist" && c.AllowedPaths[1] == "/srv/out" && c.ProtectedPaths[0] == "/srv/vault"
		}, ""},
		{"duration without a unit refused", "eval_timeout: 50\n", nil, "eval_timeout: 50 has no unit"},
		{"fractional duration without a unit refused", "read_timeout: 1.5\n", nil, "read_timeout: 1.5 has no unit"},
		{"quoted duration without a unit refused", "hook_timeout: \"3\"\n", nil, "hook_timeout: \"3\" is not a duration"},
		{"empty duration keeps the default", "eval_timeout:\n", func(c Config) bool { return c.EvalTimeout == Default().EvalTimeout }, ""},
		{"unit error gives an example", "eval_timeout: 50\n", nil, "such as eval_timeout: 500ms"},
		{"durations with units read", "eval_timeout: 50ms\nread_timeout: 1s\nhook_timeout: 5s\n", func(c Config) bool {
			return c.EvalTimeout == 50*time.Millisecond && c.ReadTimeout == time.Second && c.HookTimeout == 5*time.Second
		}, ""},
		{"eval_timeout at the hook budget refused", "eval_timeout: 1500ms\n", nil, "eval_timeout must be below 1.5s"},
		{"eval_timeout past the hook deadline refused", "eval_timeout: 10s\n", nil, "eval_timeout must be below"},
		{"eval_timeout 0 leaves the budget alone", "eval_timeout: 0s\n", func(c Config) bool { return c.EvalTimeout == 0 }, ""},
		{"a negative eval_timeout refused", "eval_timeout: -1s\n", nil, "eval_timeout must be a positive duration"},
		{"eval_timeout just below the budget read", "eval_timeout: 1499ms\n", func(c Config) bool { return c.EvalTimeout == 1499*time.Millisecond }, ""},
		{"longer hook_timeout allows a longer eval_timeout", "hook_timeout: 10s\neval_timeout: 5s\n", func(c Config) bool { return c.EvalTimeout == 5*time.Second }, ""},
		{"tiny read_timeout refused", "read_timeout: 1ms\n", nil, "read_timeout must be between 10ms and 5s"},
		{"huge read_timeout refused", "read_timeout: 1h\n", nil, "read_timeout must be between"},
		{"tiny hook_timeout refused", "hook_timeout: 100ms\n", nil, "hook_timeout must be between 300ms and 1m0s"},
		{"huge hook_timeout refused", "hook_timeout: 5m\n", nil, "hook_timeout must be between"},
		{"relative allowed path refused", "allowed_paths: [dist]\n", nil, "must be an absolute path"},
		{"typo of a key named with the key meant", "eval_timout: 1s\n", nil, `unknown key "eval_timout" (did you mean eval_timeout?)`},
		{"swapped letters suggested", "fial_mode: closed\n", nil, `unknown key "fial_mode" (did you mean fail_mode?)`},
		{"a key far from any has no suggestion", "colour: red\n", nil, `unknown key "colour"; the keys are allowed_paths,`},
		{"an unknown map named once", "proxy:\n  http: {}\n  https: {}\n", nil, `unknown key "proxy"; the keys`},
		{"opa section passed through with its keys' case", "opa:\n  services:\n    AcmeHub:\n      url: https://hub.example\n  bundles:\n    org:\n      service: AcmeHub\n      resource: b.tar.gz\n", func(c Config) bool {
			return strings.Contains(string(c.OPA), `"AcmeHub":{"url":"https://hub.example"}`) && strings.Contains(string(c.OPA), `"service":"AcmeHub"`) && c.OPASection == nil
		}, ""},
		{"no opa section, no fleet", "fail_mode: open\n", func(c Config) bool { return c.OPA == nil }, ""},
		{"opa as a list refused", "opa: [services]\n", nil, "opa must be a mapping"},
		{"org_roots read", "org_roots: [system/log]\n", func(c Config) bool { return len(c.OrgRoots) == 1 && c.OrgRoots[0] == "system/log" }, ""},
		{"bool not true or false", "notifications: maybe\n", nil, `notifications must be true or false, not "maybe"`},
		{"yes is not a bool", "notifications: yes\n", nil, `notifications must be true or false, not "yes"`},
		{"number is not a bool", "notifications: 1\n", nil, "notifications must be true or false, not 1"},
		{"false read", "notifications: false\n", func(c Config) bool { return !c.Notifications }, ""},
		{"list written as one value", "policy_dirs: /opt/rego\n", nil, `policy_dirs must be a list, such as policy_dirs: ["/opt/rego"]`},
		{"number as a list", "disabled_rules: 5\n", nil, "disabled_rules must be a list"},
		{"list of lists", "disabled_rules: [[git.force_push]]\n", nil, `disabled_rules: every item must be a single value, not ["git.force_push"]`},
		{"string written as a list", "fail_mode: [closed]\n", nil, `fail_mode must be a single value, not ["closed"]`},
		{"log level as a map", "log_level: {a: 1}\n", nil, "log_level must be a single value, not a map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if tt.yaml != "" {
				os.WriteFile(path, []byte(tt.yaml), 0o600)
			}
			c, err := Load(path)
			if err != nil {
				for _, lib := range []string{"strconv", "mapstructure", "decoding failed", "'config.Config'", "interface {}"} {
					if strings.Contains(err.Error(), lib) {
						t.Errorf("library wording %q in %v", lib, err)
					}
				}
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming %s and containing %q", err, path, tt.wantErr)
				}
				if c.FailMode != Default().FailMode {
					t.Errorf("a bad file must leave defaults, got %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want(c) {
				t.Errorf("got %+v", c)
			}
		})
	}
}

func TestRequestBudget(t *testing.T) {
	tests := []struct {
		name string
		hook time.Duration
		want time.Duration
	}{
		{"default hook deadline", 2 * time.Second, 1500 * time.Millisecond},
		{"short hook keeps at least 100ms of margin", 300 * time.Millisecond, 200 * time.Millisecond},
		{"long hook keeps a quarter", 8 * time.Second, 6 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Config{HookTimeout: tt.hook}).RequestBudget(); got != tt.want {
				t.Errorf("budget for %v = %v, want %v", tt.hook, got, tt.want)
			}
		})
	}
}

// The daemon plans its deadline from hook_timeout; the hook installed
// without --timeout uses its own default. They must agree.
func TestDefaultHookTimeoutMatchesTheHook(t *testing.T) {
	if got := Default().HookTimeout; got != hook.DefaultTimeout {
		t.Errorf("config hook_timeout default %v, hook default %v", got, hook.DefaultTimeout)
	}
	if d := Default(); d.EvalTimeout != 0 {
		t.Errorf("default eval_timeout %v: want none, so that only the request's budget bounds an evaluation", d.EvalTimeout)
	}
}

func TestRefusedConfigKeepsNothingOfIt(t *testing.T) {
	// A refused file yields the defaults (the daemon then keeps its last
	// good config): none of the refused file's values leak through.
	path := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(path, []byte("fail_mode: closed\neval_timeout: 50\n"), 0o600)
	c, err := Load(path)
	if err == nil {
		t.Fatal("a unitless eval_timeout was accepted")
	}
	if c.FailMode != "open" || c.EvalTimeout != Default().EvalTimeout {
		t.Errorf("got %+v, want the defaults", c)
	}
}

// An error names the line of the key it is about, or of the YAML that
// does not parse, so a long file's mistake is found.
func TestErrorsNameTheLine(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown key", "fail_mode: closed\n\nprotected_path: [/x]\n", `: line 3: unknown key "protected_path" (did you mean protected_paths?)`},
		{"bad value", "log_level: info\nfail_mode: sometimes\n", `: line 2: fail_mode must be "open" or "closed"`},
		{"duration without a unit", "# tuned\neval_timeout: 50\n", ": line 2: eval_timeout: 50 has no unit"},
		{"not a list", "fail_mode: open\nallowed_paths: /x\n", ": line 2: allowed_paths must be a list"},
		{"broken YAML", "fail_mode: closed\nlog_level: info\n notifications: true\n", ": line 3: not valid YAML: mapping values are not allowed in this context"},
		{"key in another case", "Fail_Mode: sometimes\n", `: line 1: fail_mode must be`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("/h/config.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "/h/config.yaml: line ") {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
	// A good file loads, whatever its lines.
	if _, err := Parse("/h/config.yaml", []byte("# c\n\nfail_mode: closed\n")); err != nil {
		t.Error(err)
	}
}
