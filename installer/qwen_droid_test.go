package installer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Droid merges its hooks file over settings.json event by event, so
// install writes where its PreToolUse list is the one Droid runs, hiding
// none of the user's.
func TestDroidTarget(t *testing.T) {
	const mine = `[{"matcher": "Execute", "hooks": [{"type": "command", "command": "my-check"}]}]`
	tests := []struct {
		name                    string
		hooks, legacy, settings string // "" leaves the file out
		want                    string // hooks.json, hooks/hooks.json or settings.json
	}{
		{"nothing there", "", "", "", "hooks.json"},
		{"settings without hooks", "", "", `{"model": "x"}`, "hooks.json"},
		{"settings with PreToolUse", "", "", `{"hooks": {"PreToolUse": ` + mine + `}}`, "settings.json"},
		{"hooks file with PreToolUse", `{"PreToolUse": ` + mine + `}`, "", `{"hooks": {"PreToolUse": ` + mine + `}}`, "hooks.json"},
		{"hooks file with another event, settings with PreToolUse", `{"Stop": []}`, "", `{"hooks": {"PreToolUse": ` + mine + `}}`, "settings.json"},
		{"hooks file with another event", `{"Stop": []}`, "", `{}`, "hooks.json"},
		{"the older hooks file alone", "", `{"Stop": []}`, "", "hooks/hooks.json"},
		{"the older hooks file beside hooks.json is not read", `{}`, `{"PreToolUse": []}`, "", "hooks.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := agentOptions(t, "droid")
			for path, content := range map[string]string{o.droidHooksPath(): tt.hooks, o.droidLegacyPath(): tt.legacy, o.droidSettingsPath(): tt.settings} {
				if content != "" {
					write(t, path, content)
				}
			}
			got, _ := filepath.Rel(o.droidHome(), o.droidTarget())
			if got != tt.want {
				t.Errorf("target %s, want %s", got, tt.want)
			}
		})
	}
}

// Install adds one entry beside the user's and uninstall takes it out
// again, leaving the user's file byte for byte, wherever it goes.
func TestDroidAndQwenRoundTrip(t *testing.T) {
	for _, tt := range []struct{ agent, file, before string }{
		{"droid", ".factory/hooks.json", "{\n    \"PreToolUse\": [\n        {\"matcher\": \"Execute\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-check\"}]}\n    ],\n    \"hooksDisabled\": false\n}\n"},
		{"droid", ".factory/settings.json", "{\"model\": \"m\", \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"my-check\"}]}]}}\n"},
		{"qwen", ".qwen/settings.json", "{\n  \"model\": {\"name\": \"q\"},\n  \"hooks\": {\"Stop\": []}\n}\n"},
	} {
		t.Run(tt.agent+" "+tt.file, func(t *testing.T) {
			o := agentOptions(t, tt.agent)
			path := filepath.Join(o.UserHome, tt.file)
			write(t, path, tt.before)
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			after := read(t, path)
			if !strings.Contains(after, "agentjail-hook --agent "+tt.agent) || !strings.Contains(after, `"PreToolUse"`) {
				t.Fatalf("no entry of ours:\n%s", after)
			}
			if tt.agent == "droid" && strings.Contains(after, "my-check") && !strings.Contains(after, `"*"`) {
				t.Errorf("our entry is not beside the user's:\n%s", after)
			}
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if got := read(t, path); got != tt.before {
				t.Errorf("after uninstall:\n%s\nwant\n%s", got, tt.before)
			}
		})
	}
}

// Our entry alone comes out of a Droid hooks file, whatever the file
// became after install.
func TestRemoveDroidHooks(t *testing.T) {
	src := []byte(`{"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/h/.agentjail/bin/agentjail-hook --agent droid"}]}, {"hooks": [{"type": "command", "command": "mine"}]}], "Stop": [{"hooks": [{"type": "command", "command": "/h/.agentjail/bin/agentjail-hook --agent droid"}]}]}`)
	got, removed, err := removeDroidHooks("hooks.json", src)
	if err != nil || !removed {
		t.Fatalf("removed %v, err %v", removed, err)
	}
	if want := `{"PreToolUse": [{"hooks": [{"type": "command", "command": "mine"}]}], "Stop": []}`; string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if !isDroidHooksFile("/h/.factory/hooks.json") || !isDroidHooksFile("/h/.factory/hooks/hooks.json") || isDroidHooksFile("/h/.codex/hooks.json") {
		t.Error("isDroidHooksFile")
	}
}

// Qwen Code's switch: the last of system defaults, user and system
// settings that sets disableAllHooks wins.
func TestQwenOff(t *testing.T) {
	o := agentOptions(t, "qwen")
	sys := filepath.Join(t.TempDir(), "settings.json")
	t.Setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", sys)
	t.Setenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH", "")
	user := filepath.Join(o.UserHome, ".qwen", "settings.json")
	write(t, user, `{"disableAllHooks": true}`)
	if got := strings.Join((qwenPart{}).off(o), "\n"); !strings.Contains(got, `~/.qwen/settings.json sets "disableAllHooks": true`) {
		t.Errorf("user switch: %q", got)
	}
	write(t, sys, `{"disableAllHooks": false}`)
	if got := (qwenPart{}).off(o); len(got) != 0 {
		t.Errorf("the system's false outweighs the user's true: %q", got)
	}
}

// Droid's switches: hooksDisabled in the user's hooks, and the
// organisation's settings running only their own hooks.
func TestDroidOff(t *testing.T) {
	o := agentOptions(t, "droid")
	setVar(t, &droidSystemSettingsPath, filepath.Join(t.TempDir(), "settings.json"))
	if got := (droidPart{}).off(o); len(got) != 0 {
		t.Fatalf("nothing set: %q", got)
	}
	write(t, o.droidSettingsPath(), `{"hooks": {"hooksDisabled": true}}`)
	write(t, droidSystemSettingsPath, `{"allowManagedHooksOnly": true}`)
	got := strings.Join((droidPart{}).off(o), "\n")
	for _, want := range []string{`~/.factory/settings.json sets "hooks": {"hooksDisabled": true}`, `"allowManagedHooksOnly": true, so Droid runs only their hooks`} {
		if !strings.Contains(got, want) {
			t.Errorf("off: %q lacks %q", got, want)
		}
	}
}

// Machine-wide, each writes its system settings with the switch that
// keeps a project's settings from turning every hook off: Qwen Code's
// disableAllHooks false always (its system file is merged last), Droid's
// allowManagedHooksOnly always too (its only switch that holds; it also
// drops users' hooks, which install says).
func TestQwenDroidSystemEdits(t *testing.T) {
	sys := t.TempDir()
	setVar(t, &qwenSystemSettingsPath, filepath.Join(sys, "qwen-code", "settings.json"))
	setVar(t, &droidSystemSettingsPath, filepath.Join(sys, "factory", "settings.json"))
	t.Setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", "")
	for _, managedOnly := range []bool{false, true} {
		o := Options{System: true, UserHome: t.TempDir(), ManagedHooksOnly: managedOnly, Agents: []string{"qwen", "droid"}}
		edits, err := planEdits(o)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range edits {
			got[e.path] = string(e.updated)
		}
		q, d := got[qwenSystemSettingsPath], got[droidSystemSettingsPath]
		if len(got) != 2 || !strings.Contains(q, `"disableAllHooks": false`) || !strings.Contains(q, "--agent qwen") {
			t.Errorf("managed-only %v: Qwen Code's system settings:\n%s", managedOnly, q)
		}
		if !strings.Contains(d, `"hooks"`) || !strings.Contains(d, "--agent droid") || !strings.Contains(d, `"allowManagedHooksOnly": true`) {
			t.Errorf("managed-only %v: Droid's system settings:\n%s", managedOnly, d)
		}
	}
}
