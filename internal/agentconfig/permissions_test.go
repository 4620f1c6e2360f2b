package agentconfig

import (
	"strings"
	"testing"
)

func TestWideRule(t *testing.T) {
	wide := []string{
		"*", "Bash", "Bash(*)", "Bash(:*)", "Bash( * )", "Bash()", "Write", "Edit(*)", "Edit(//**)", "Edit(~/**)",
		"MultiEdit", "WebFetch", "WebFetch(domain:*)", "mcp__*", "mcp__github__*(*)", "Bash(sh -c:*)", "Bash(bash:*)",
		"Bash(sudo:*)", "Bash(python3:*)", "Bash(python3.12 -c:*)", "Bash(/usr/bin/env:*)", "Bash(npx:*)", "Task",
		"run_shell_command", "ShellTool", "Shell(*)", "Shell(**)", "Write(**)", "Mcp(*, *)", "NewTool", "Bash*", "Bash(*:*)",
	}
	narrow := []string{
		"Bash(npm test)", "Bash(npm test:*)", "Bash(git status)", "Bash(go test ./...)", "Read", "Read(~/**)", "Grep",
		"Edit(src/**)", "Write(docs/*.md)", "WebFetch(domain:docs.python.org)", "mcp__github", "mcp__github__get_issue",
		"run_shell_command(git status)", "Shell(ls)", "Mcp(github, *)", "Bash(pythonic-lint)",
	}
	for _, r := range wide {
		if !wideRule(r) {
			t.Errorf("%q: narrow, want wide", r)
		}
	}
	for _, r := range narrow {
		if wideRule(r) {
			t.Errorf("%q: wide, want narrow", r)
		}
	}
}

func TestBroadDir(t *testing.T) {
	for _, d := range []string{"/", "~", "~/", "$HOME", "/home/u", "/Users/u/", "/etc", "..", "../..", "//", "/**", "~/*"} {
		if !broadDir(d) {
			t.Errorf("%q: narrow, want broad", d)
		}
	}
	for _, d := range []string{"../shared-lib", "~/work/lib", "/home/u/proj", "./vendor", "/opt/sdk/include"} {
		if broadDir(d) {
			t.Errorf("%q: broad, want narrow", d)
		}
	}
}

// verdicts sums up grants: "deny" when one is wide, "ask" when there are
// any, "" when none.
func verdicts(gs []Grant) string {
	v := ""
	for _, g := range gs {
		if g.Wide {
			return "deny"
		}
		v = "ask"
	}
	return v
}

// Each agent's settings, judged on the file a write leaves.
func TestGrants(t *testing.T) {
	claude := `{"model": "sonnet", "permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(rm:*)"], "ask": ["Bash(git push:*)"], "defaultMode": "default", "disableBypassPermissionsMode": "disable"}, "sandbox": {"enabled": true}}`
	codex := "model = \"o3\"\napproval_policy = \"on-request\"\nsandbox_mode = \"workspace-write\"\n\n[profiles.safe]\napproval_policy = \"untrusted\"\n"
	gemini := "{\n  // mine\n  \"ui\": {\"theme\": \"dark\"},\n  \"tools\": {\"allowed\": [\"run_shell_command(git status)\"], \"exclude\": [\"web_fetch\"]}\n}\n"
	cursor := `{"version": 1, "editor": {"vimMode": false}, "permissions": {"allow": ["Shell(ls)"], "deny": ["Shell(rm)"]}}`
	copilot := `{"trusted_folders": ["/home/u/proj"], "denied_urls": ["evil.example"]}`
	tests := []struct {
		name, agent, cur, res, want string
	}{
		{"claude: model changed", "claude-code", claude, strings.Replace(claude, "sonnet", "opus", 1), ""},
		{"claude: sandbox kept, env added", "claude-code", claude, strings.Replace(claude, `"model"`, `"env": {"NODE_ENV": "test"}, "model"`, 1), ""},
		{"claude: allow Bash(*)", "claude-code", claude, strings.Replace(claude, `"Bash(npm test)"`, `"Bash(npm test)", "Bash(*)"`, 1), "deny"},
		{"claude: allow one command", "claude-code", claude, strings.Replace(claude, `"Bash(npm test)"`, `"Bash(npm test)", "Bash(go test:*)"`, 1), "ask"},
		{"claude: allow rule dropped", "claude-code", claude, strings.Replace(claude, `"Bash(npm test)"`, ``, 1), ""},
		{"claude: allow rule kept, reordered", "claude-code", strings.Replace(claude, `"Bash(npm test)"`, `"Read", "Bash(npm test)"`, 1), strings.Replace(claude, `"Bash(npm test)"`, `"Bash(npm test)", "Read"`, 1), ""},
		{"claude: bypass mode", "claude-code", claude, strings.Replace(claude, `"default"`, `"bypassPermissions"`, 1), "deny"},
		{"claude: accept edits", "claude-code", claude, strings.Replace(claude, `"default"`, `"acceptEdits"`, 1), "ask"},
		{"claude: plan mode", "claude-code", claude, strings.Replace(claude, `"default"`, `"plan"`, 1), ""},
		{"claude: deny rule removed", "claude-code", claude, strings.Replace(claude, `"Bash(rm:*)"`, ``, 1), "deny"},
		{"claude: deny rule added", "claude-code", claude, strings.Replace(claude, `"Bash(rm:*)"`, `"Bash(rm:*)", "Bash(curl:*)"`, 1), ""},
		{"claude: ask rule removed", "claude-code", claude, strings.Replace(claude, `"Bash(git push:*)"`, ``, 1), "ask"},
		{"claude: home folder added", "claude-code", claude, strings.Replace(claude, `"defaultMode"`, `"additionalDirectories": ["~"], "defaultMode"`, 1), "deny"},
		{"claude: sibling folder added", "claude-code", claude, strings.Replace(claude, `"defaultMode"`, `"additionalDirectories": ["../lib"], "defaultMode"`, 1), "ask"},
		{"claude: bypass lock dropped", "claude-code", claude, strings.Replace(claude, `, "disableBypassPermissionsMode": "disable"`, ``, 1), "ask"},
		{"claude: sandbox off", "claude-code", claude, strings.Replace(claude, `"enabled": true`, `"enabled": false`, 1), "ask"},
		{"claude: permissions not an object", "claude-code", claude, `{"permissions": []}`, "deny"},
		{"claude: broken file drops deny rules", "claude-code", claude, claude + "}", "deny"},
		{"claude: new file, wildcard", "claude-code", "", `{"permissions": {"allow": ["Bash"]}}`, "deny"},
		{"claude: new file, only deny rules", "claude-code", "", `{"permissions": {"deny": ["Read(.env)"]}}`, ""},
		{"codex: model changed", "codex", codex, strings.Replace(codex, "o3", "o4", 1), ""},
		{"codex: never", "codex", codex, strings.Replace(codex, `"on-request"`, `"never"`, 1), "deny"},
		{"codex: full access", "codex", codex, strings.Replace(codex, `"workspace-write"`, `"danger-full-access"`, 1), "deny"},
		{"codex: read-only", "codex", codex, strings.Replace(codex, `"workspace-write"`, `"read-only"`, 1), ""},
		{"codex: a yolo profile", "codex", codex, codex + "\n[profiles.yolo]\napproval_policy = \"never\"\n", "deny"},
		{"codex: selects an unguarded profile", "codex", codex + "\n[profiles.yolo]\nsandbox_mode = \"danger-full-access\"\n", "profile = \"yolo\"\n" + codex + "\n[profiles.yolo]\nsandbox_mode = \"danger-full-access\"\n", "deny"},
		{"codex: network for the sandbox", "codex", codex, codex + "\n[sandbox_workspace_write]\nnetwork_access = true\n", "ask"},
		{"codex: root writable", "codex", codex, codex + "\n[sandbox_workspace_write]\nwritable_roots = [\"/\"]\n", "deny"},
		{"codex: project trusted", "codex", codex, codex + "\n[projects.\"/home/u/proj\"]\ntrust_level = \"trusted\"\n", "ask"},
		{"codex: hooks.json is not judged here", "codex", `{"hooks": {}}`, `{"hooks": {}, "approval_policy": "never"}`, ""},
		{"gemini: theme changed", "gemini", gemini, strings.Replace(gemini, "dark", "light", 1), ""},
		{"gemini: every shell command", "gemini", gemini, strings.Replace(gemini, `"run_shell_command(git status)"`, `"run_shell_command(git status)", "run_shell_command"`, 1), "deny"},
		{"gemini: one command", "gemini", gemini, strings.Replace(gemini, `"run_shell_command(git status)"`, `"run_shell_command(git status)", "run_shell_command(npm test)"`, 1), "ask"},
		{"gemini: exclude removed", "gemini", gemini, strings.Replace(gemini, `"web_fetch"`, ``, 1), "deny"},
		{"gemini: yolo", "gemini", gemini, strings.Replace(gemini, `"ui"`, `"general": {"defaultApprovalMode": "yolo"}, "ui"`, 1), "deny"},
		{"gemini: auto edit", "gemini", gemini, strings.Replace(gemini, `"ui"`, `"general": {"defaultApprovalMode": "auto_edit"}, "ui"`, 1), "ask"},
		{"gemini: auto accept", "gemini", gemini, strings.Replace(gemini, `"exclude"`, `"autoAccept": true, "exclude"`, 1), "ask"},
		{"gemini: trusted server", "gemini", gemini, strings.Replace(gemini, `"ui"`, `"mcpServers": {"gh": {"command": "gh-mcp", "trust": true}}, "ui"`, 1), "ask"},
		{"cursor: vim mode", "cursor", cursor, strings.Replace(cursor, "false", "true", 1), ""},
		{"cursor: every shell command", "cursor", cursor, strings.Replace(cursor, `"Shell(ls)"`, `"Shell(ls)", "Shell(*)"`, 1), "deny"},
		{"cursor: one command", "cursor", cursor, strings.Replace(cursor, `"Shell(ls)"`, `"Shell(ls)", "Shell(make)"`, 1), "ask"},
		{"cursor: deny removed", "cursor", cursor, strings.Replace(cursor, `"Shell(rm)"`, ``, 1), "deny"},
		{"cursor: terminal allowlist wildcard", "cursor", "", `{"terminalAllowlist": ["*"]}`, "deny"},
		{"cursor: terminal allowlist command", "cursor", "", `{"terminalAllowlist": ["npm test"]}`, "ask"},
		{"copilot: root trusted", "copilot", copilot, strings.Replace(copilot, `"/home/u/proj"`, `"/home/u/proj", "/"`, 1), "deny"},
		{"copilot: folder trusted", "copilot", copilot, strings.Replace(copilot, `"/home/u/proj"`, `"/home/u/proj", "/home/u/other"`, 1), "ask"},
		{"copilot: every url", "copilot", copilot, strings.Replace(copilot, `"denied_urls"`, `"allowed_urls": ["*"], "denied_urls"`, 1), "deny"},
		{"copilot: denied url removed", "copilot", copilot, strings.Replace(copilot, `"evil.example"`, ``, 1), "deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cur []byte
			if tt.cur != "" {
				cur = []byte(tt.cur)
			}
			gs := grantJudges[tt.agent](cur, []byte(tt.res))
			if got := verdicts(gs); got != tt.want {
				t.Errorf("%q (%v), want %q", got, gs, tt.want)
			}
		})
	}
}

// An edit of a settings file that is not there fails; it is judged on
// the text it writes.
func TestEditGrants(t *testing.T) {
	tests := []struct {
		name, agent string
		old, new    string
		want        string
	}{
		{"every command", "claude-code", `"allow": [`, `"allow": ["Bash(*)",`, "deny"},
		{"one command", "claude-code", `"allow": []`, `"allow": ["Bash(npm test)"]`, "ask"},
		{"bypass", "claude-code", `"defaultMode": "default"`, `"defaultMode": "bypassPermissions"`, "deny"},
		{"accept edits", "claude-code", `"defaultMode": "default"`, `"defaultMode": "acceptEdits"`, "ask"},
		{"deny rule removed", "claude-code", `"deny": ["Bash(rm:*)"]`, `"deny": []`, "deny"},
		{"allow rule removed", "claude-code", `"allow": ["Bash(rm:*)"]`, `"allow": []`, ""},
		{"rule removed, list unknown", "claude-code", `"Bash(rm:*)", `, ``, "ask"},
		{"home folder", "claude-code", `"additionalDirectories": []`, `"additionalDirectories": ["~/"]`, "deny"},
		{"model", "claude-code", `"model": "sonnet"`, `"model": "opus"`, ""},
		{"theme with a tool's name", "claude-code", `"theme": "dark"`, `"theme": "light"`, ""},
		{"yolo", "gemini", `"defaultApprovalMode": "default"`, `"defaultApprovalMode": "yolo"`, "deny"},
		{"auto accept", "gemini", `"tools": {`, `"tools": {"autoAccept": true,`, "ask"},
		{"codex never", "codex", `approval_policy = "on-request"`, `approval_policy = "never"`, "deny"},
		{"codex model", "codex", `model = "o3"`, `model = "o4"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs := editGrants(tt.agent, "Edit", map[string]any{"old_string": tt.old, "new_string": tt.new})
			if got := verdicts(gs); got != tt.want {
				t.Errorf("%q (%v), want %q", got, gs, tt.want)
			}
		})
	}
}

// Judge reports grants for a write it can compute, and for an edit of a
// file that is not there; a write that removes the guard says so first.
func TestJudgeGrants(t *testing.T) {
	read := func(string) ([]byte, error) { return []byte(installed), nil }
	j := Judge("claude-code", "Edit", edit(`"allow": []`, `"allow": ["Bash(*)"]`), "/home/u/.claude/settings.json", true, read)
	if j.RemovesGuard || verdicts(j.Grants) != "deny" {
		t.Errorf("allow Bash(*) in the installed file: %+v", j)
	}
	if m := j.Map(); m["grants"] == nil {
		t.Errorf("the policy input has no grants: %v", m)
	}
	j = Judge("claude-code", "Edit", edit(`"model": "sonnet"`, `"model": "opus"`), "/home/u/.claude/settings.json", true, read)
	if len(j.Grants) != 0 || j.Map()["grants"] != nil {
		t.Errorf("a model change grants: %+v", j)
	}
	j = Judge("claude-code", "MultiEdit", multi(`"allow": [`, `"allow": ["Bash(*)",`), "/home/u/.claude/settings.json", true, nil)
	if verdicts(j.Grants) != "deny" {
		t.Errorf("allow Bash(*) in a file that is not there: %+v", j)
	}
	if got := Agent("/home/u/.cursor/cli-config.json", "/home/u"); got != "cursor" {
		t.Errorf("cli-config.json belongs to %q", got)
	}
}
