package daemon_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/hookstate"
	"github.com/agentjail/agentjail/internal/wire"
)

const (
	goodConfig = "fail_mode: closed\nprotected_paths: [/srv/vault]\n"
	// A typo of a key: the whole file is refused.
	brokenConfig = "fail_mode: closed\nprotected_path: [/srv/vault]\n"
)

// A config.yaml broken while the daemon is down does not take its
// protections away at the next start: the last good one is in force,
// hook.json stays closed, and status says so.
func TestBrokenConfigSurvivesARestart(t *testing.T) {
	d := daemontest.Start(t, nil)
	home, sock := d.Home, d.Socket
	cfgPath := filepath.Join(home, "config.yaml")
	os.WriteFile(cfgPath, []byte(goodConfig), 0o600)
	eventually(t, "the config to apply", func() bool { return d.Decider().Config().FailMode == "closed" })
	copyPath := config.LastGoodPath(home)
	if got, _ := os.ReadFile(copyPath); string(got) != goodConfig {
		t.Fatalf("the last good copy holds %q", got)
	}
	if fi, err := os.Lstat(copyPath); err != nil || fi.Mode().Perm() != 0o600 || !fi.Mode().IsRegular() {
		t.Fatalf("the last good copy: %v %v", fi, err)
	}
	d.Stop(t)

	os.WriteFile(cfgPath, []byte(brokenConfig), 0o600)
	d = daemontest.StartAt(t, home, sock)
	cfg := d.Decider().Config()
	if cfg.FailMode != "closed" || !slices.Equal(cfg.ProtectedPaths, []string{"/srv/vault"}) {
		t.Errorf("in force after a restart with a broken config.yaml: %+v", cfg)
	}
	if v := decide(t, sock, "cat /srv/vault/token"); v.Verdict != wire.Deny {
		t.Errorf("a protected path after the restart: %s %s", v.Verdict, v.Reason)
	}
	st := status(t, sock)
	if !strings.Contains(st.ConfigInForce, `config.yaml has an error (line 2: unknown key "protected_path" (did you mean protected_paths?)`) ||
		!strings.Contains(st.ConfigInForce, "in force: the last good configuration from ") || st.ConfigLastGood == "" {
		t.Errorf("status: %q, last good %q", st.ConfigInForce, st.ConfigLastGood)
	}
	if !slices.ContainsFunc(st.Problems, func(p wire.Problem) bool { return p.Kind == "config" && p.Message == st.ConfigInForce }) {
		t.Errorf("problems %+v", st.Problems)
	}
	if hs, err := hookstate.Read(filepath.Join(home, "hook.json")); err != nil || hs.FailMode != "closed" {
		t.Errorf("hook.json %+v %v", hs, err)
	}
	// The copy is kept, not replaced by what did not load.
	if got, _ := os.ReadFile(copyPath); string(got) != goodConfig {
		t.Errorf("the last good copy now holds %q", got)
	}

	// Fixed to another good config: that one is in force, no fallback.
	os.WriteFile(cfgPath, []byte("fail_mode: open\n"), 0o600)
	eventually(t, "the fixed config to apply", func() bool { return status(t, sock).ConfigError == "" })
	if cfg := d.Decider().Config(); cfg.FailMode != "open" || len(cfg.ProtectedPaths) != 0 {
		t.Errorf("after the fix: %+v", cfg)
	}
	if st := status(t, sock); st.ConfigInForce != "" || st.ConfigLastGood != "" {
		t.Errorf("a good config.yaml still reported as not in force: %+v", st)
	}
	// hook.json follows the load that status already reports.
	eventually(t, "hook.json to open after a good fail_mode: open", func() bool {
		hs, _ := hookstate.Read(filepath.Join(home, "hook.json"))
		return hs.FailMode == "open"
	})
}

// With no good config.yaml ever loaded, the defaults are in force and
// status says so; a hook.json left closed is not reopened by them; a
// copy that is not agentjail's own regular file is not believed.
func TestBrokenConfigWithoutALastGoodOne(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, home string) // the copy, if any
		want  string
	}{
		{"none ever", func(*testing.T, string) {}, "no good configuration was ever loaded: in force: the defaults"},
		{"a symlink", func(t *testing.T, home string) {
			other := filepath.Join(home, "elsewhere.yaml")
			os.WriteFile(other, []byte("fail_mode: open\nprotected_paths: [/tmp/x]\n"), 0o600)
			if err := os.Symlink(other, config.LastGoodPath(home)); err != nil {
				t.Fatal(err)
			}
		}, "the last good configuration was not used ("},
		{"writable by others", func(t *testing.T, home string) {
			os.WriteFile(config.LastGoodPath(home), []byte("fail_mode: open\nprotected_paths: [/tmp/x]\n"), 0o600)
			os.Chmod(config.LastGoodPath(home), 0o666)
		}, "is writable by others"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "aj")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			home := filepath.Join(dir, "home")
			os.MkdirAll(home, 0o700)
			os.WriteFile(filepath.Join(home, "config.yaml"), []byte(brokenConfig), 0o600)
			// Closed by an earlier, good config.
			hookstate.Write(filepath.Join(home, "hook.json"), hookstate.State{FailMode: "closed", HookTimeout: "2s"})
			tt.plant(t, home)
			d := daemontest.StartAt(t, home, filepath.Join(home, "agentjail.sock"))
			if cfg := d.Decider().Config(); cfg.FailMode != "open" || len(cfg.ProtectedPaths) != 0 {
				t.Errorf("in force: %+v, want the defaults", cfg)
			}
			st := status(t, d.Socket)
			if !strings.Contains(st.ConfigInForce, "config.yaml has an error (line 2: unknown key") || !strings.Contains(st.ConfigInForce, tt.want) || !strings.HasSuffix(st.ConfigInForce, "in force: the defaults") || st.ConfigLastGood != "" {
				t.Errorf("status: %q", st.ConfigInForce)
			}
			if hs, err := hookstate.Read(filepath.Join(home, "hook.json")); err != nil || hs.FailMode != "closed" {
				t.Errorf("hook.json reopened by the defaults: %+v %v", hs, err)
			}
		})
	}
}
