package installer

import (
	"strings"
	"testing"
)

func codexSystemEntry() HookEntry {
	o := Options{System: true, FailClosed: true}
	return o.codexEntry()
}

func codexSystemPost() HookEntry {
	o := Options{System: true, FailClosed: true}
	return o.postEntry(o.codexEntry())
}

// The requirements file gets the hook and the feature pin, parses, and
// comes back as it was when the hook is taken out.
func TestCodexRequirementsRoundTrip(t *testing.T) {
	for _, old := range []string{
		"",
		"# the admin's\nallowed_approval_policies = [\"on-request\"]\n",
		"allowed_sandbox_modes = [\"read-only\"]\n\n[features]\nhooks = true\nweb_search = false\n",
		"[[hooks.PostToolUse]]\nmatcher = \"*\"\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"/usr/bin/logger\"\n",
	} {
		for _, managedOnly := range []bool{false, true} {
			got, err := addCodexRequirements("/etc/codex/requirements.toml", []byte(old), codexSystemEntry(), codexSystemPost(), managedOnly)
			if err != nil {
				t.Fatalf("%q: %v", old, err)
			}
			if err := checkCodexRequirements(got, codexSystemEntry()); err != nil {
				t.Fatalf("%q: the result does not hold the hook: %v\n%s", old, err, got)
			}
			if !strings.Contains(string(got), "--system --agent codex") {
				t.Errorf("the hook is not the system hook:\n%s", got)
			}
			if !strings.Contains(string(got), "[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"/usr/local/libexec/agentjail/agentjail-hook --system --agent codex --post\"\ntimeout = 5\n") {
				t.Errorf("the post-tool hook is not there:\n%s", got)
			}
			if managedOnly && !strings.HasPrefix(string(got), codexBlockBegin+"\nallow_managed_hooks_only = true\n") {
				t.Errorf("allow_managed_hooks_only must come first, before any table:\n%s", got)
			}
			again, err := addCodexRequirements("/etc/codex/requirements.toml", got, codexSystemEntry(), codexSystemPost(), managedOnly)
			if err != nil || string(again) != string(got) {
				t.Errorf("a second install changed the file (%v):\n%s\n---\n%s", err, got, again)
			}
			back, removed, err := removeCodexRequirements("/etc/codex/requirements.toml", got)
			if err != nil || !removed || string(back) != old {
				t.Errorf("removing gave %q (removed %v, %v), want %q", back, removed, err, old)
			}
		}
	}
}

// A file that switches hooks off, or pins features without hooks, or
// does not parse, is refused: Codex would not start with a broken one.
func TestCodexRequirementsRefused(t *testing.T) {
	for old, want := range map[string]string{
		"[features]\nhooks = false\n":     "switches every Codex hook off",
		"[features]\nweb_search = true\n": "add `hooks = true`",
		"allowed = [\n":                   "not valid TOML",
		"hooks = \"inline\"\n":            "cannot be added",
	} {
		_, err := addCodexRequirements("/etc/codex/requirements.toml", []byte(old), codexSystemEntry(), codexSystemPost(), false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want one saying %q", old, err, want)
		}
	}
}
