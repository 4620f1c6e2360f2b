package installer

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// --scope narrows an uninstall to one scope's files, and --purge is all
// or nothing: narrowed, it is refused before anything changes.
func TestUninstallScopeAndPartialPurge(t *testing.T) {
	setup := func(t *testing.T) (Options, string, string, string) {
		o := agentOptions(t, "claude-code", "cursor")
		o.ProjectDir = filepath.Join(o.UserHome, "project")
		user, project := o.SettingsPath(), filepath.Join(o.ProjectDir, ".claude", "settings.local.json")
		other := filepath.Join(o.UserHome, "other", ".claude", "settings.local.json")
		if err := Install(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{o.ProjectDir, filepath.Dir(filepath.Dir(other))} {
			po := o
			po.Scope, po.ProjectDir, po.Agents = "project", dir, []string{"claude-code"}
			if err := Install(context.Background(), po); err != nil {
				t.Fatal(err)
			}
		}
		return o, user, project, other
	}
	wired := func(t *testing.T, path string) bool { return HasHook([]byte(read(t, path))) }

	t.Run("purge narrowed is refused", func(t *testing.T) {
		for _, narrow := range []func(*Options){
			func(o *Options) { o.Agents = []string{"cursor"} },
			func(o *Options) { o.Scope = "project" },
			func(o *Options) { o.Scope = "user" },
		} {
			o, user, project, _ := setup(t)
			o.Agents, o.Purge = nil, true
			narrow(&o)
			if err := Uninstall(context.Background(), o); !errors.Is(err, ErrPartialPurge) {
				t.Errorf("err %v", err)
			}
			if !wired(t, user) || !wired(t, project) || read(t, o.cursorHooksPath()) == "<missing>" || read(t, filepath.Join(o.Home, "installed.json")) == "<missing>" {
				t.Errorf("a refused purge changed something")
			}
		}
	})
	t.Run("project", func(t *testing.T) {
		o, user, project, other := setup(t)
		o.Agents, o.Scope = nil, "project"
		if err := Uninstall(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if wired(t, project) || !wired(t, user) || !wired(t, other) || read(t, o.cursorHooksPath()) == "<missing>" {
			t.Errorf("project %v user %v other %v cursor %q", wired(t, project), wired(t, user), wired(t, other), read(t, o.cursorHooksPath()))
		}
	})
	t.Run("user", func(t *testing.T) {
		o, user, project, other := setup(t)
		o.Agents, o.Scope = nil, "user"
		if err := Uninstall(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if !wired(t, project) || wired(t, user) || !wired(t, other) || read(t, o.cursorHooksPath()) != "<missing>" {
			t.Errorf("project %v user %v other %v cursor %q", wired(t, project), wired(t, user), wired(t, other), read(t, o.cursorHooksPath()))
		}
	})
	t.Run("whole", func(t *testing.T) {
		o, user, project, other := setup(t)
		o.Agents = []string{"all"}
		if err := Uninstall(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if wired(t, project) || wired(t, user) || wired(t, other) {
			t.Errorf("project %v user %v other %v", wired(t, project), wired(t, user), wired(t, other))
		}
	})
}
