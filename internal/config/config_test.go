package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		{"bad fail mode refused", "fail_mode: sometimes\n", nil, "fail_mode must be"},
		{"bad duration refused", "eval_timeout: soon\n", nil, "eval_timeout"},
		{"negative duration refused", "read_timeout: -1s\n", nil, "read_timeout must be"},
		{"broken yaml refused", "fail_mode: [closed\n", nil, "not valid YAML"},
		{"tuning read and paths expanded", "disabled_rules: [git.force_push]\nallowed_paths: [~/dist, /srv/out/]\nprotected_paths: [/srv/vault]\n", func(c Config) bool {
			home, _ := os.UserHomeDir()
			return len(c.DisabledRules) == 1 && c.AllowedPaths[0] == home+"/dist" && c.AllowedPaths[1] == "/srv/out" && c.ProtectedPaths[0] == "/srv/vault"
		}, ""},
		{"relative allowed path refused", "allowed_paths: [dist]\n", nil, "must be an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if tt.yaml != "" {
				os.WriteFile(path, []byte(tt.yaml), 0o600)
			}
			c, err := Load(path)
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
