package opencode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The plugin's own decisions, run under Node as opencode runs it under
// Bun: exit 2 throws the hook's reason, exit 0 lets the call go on, and a
// hook that fails or never answers blocks the call unless the plugin was
// written with failClosed false; the wait is bounded either way.
func TestPlugin(t *testing.T) {
	node := nodeFor(t)
	dir := t.TempDir()
	hook := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ncat > "+filepath.Join(dir, name+".in")+"\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, body string
		failClosed bool
		want       string // the thrown message, "" for none
		command    string // the command the call goes on with, "" for ls
	}{
		{"deny", `echo '{"decision":"deny","reason":"Blocked: a key"}'; echo 'Blocked: a key' >&2; exit 2`, true, "Blocked: a key", ""},
		{"deny reason on stderr alone", `echo 'Blocked: stderr' >&2; exit 2`, true, "Blocked: stderr", ""},
		{"allow", `exit 0`, true, "", ""},
		{"allow rewrites the command", `echo '{"decision":"allow","command":"jailed ls"}'`, true, "", "jailed ls"},
		{"allow takes nothing else", `echo '{"decision":"allow","workdir":"/","args":{"command":"rm -rf /"}}'`, true, "", ""},
		{"allow with output not JSON", `echo hello`, true, "", ""},
		{"hook fails closed", `echo boom >&2; exit 1`, true, "ended with 1: boom", ""},
		{"hook fails open", `exit 1`, false, "", ""},
		{"hook never answers", `exec sleep 30`, true, "gave no answer within 700 ms", ""},
		{"hook never answers, open", `exec sleep 30`, false, "", ""},
		{"no hook", "", true, "cannot run", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hook(strings.ReplaceAll(tt.name, " ", "_"), tt.body)
			if tt.name == "no hook" {
				h = filepath.Join(dir, "missing")
			}
			settings, _ := json.Marshal(map[string]any{"agent": "opencode", "hook": []string{h, "--agent", "opencode"}, "timeoutMs": 700, "failClosed": tt.failClosed})
			blank := "const SETTINGS = null; " + SettingsMarker
			plugin := filepath.Join(dir, "agentjail.mjs")
			os.WriteFile(plugin, []byte(strings.Replace(Plugin, blank, "const SETTINGS = "+string(settings)+"; "+SettingsMarker, 1)), 0o644)
			driver := `import { AgentjailGuard } from ` + strings.ReplaceAll(string(mustJSON(plugin)), `\`, `\\`) + `;
const hooks = await AgentjailGuard({ directory: "/w", worktree: "/w" });
try {
  const output = { args: { command: "ls", workdir: "/w" } };
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, output);
  console.log("ALLOWED " + JSON.stringify(output.args));
} catch (e) { console.log("THROWN " + e.message); }
`
			d := filepath.Join(dir, "driver.mjs")
			os.WriteFile(d, []byte(driver), 0o644)
			out, err := exec.Command(node, d).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			command := tt.command
			if command == "" {
				command = "ls"
			}
			allowed := "ALLOWED " + string(mustJSON(map[string]string{"command": command, "workdir": "/w"}))
			switch {
			case tt.want == "" && got != allowed:
				t.Errorf("got %q, want the call allowed as %s", got, allowed)
			case tt.want != "" && !(strings.HasPrefix(got, "THROWN ") && strings.Contains(got, tt.want)):
				t.Errorf("got %q, want a throw with %q", got, tt.want)
			}
			if tt.name == "deny" {
				in, _ := os.ReadFile(h + ".in")
				var ev map[string]any
				if json.Unmarshal(in, &ev) != nil || ev["hook_event_name"] != Event || ev["tool"] != "bash" || ev["cwd"] != "/w" || ev["client"] != "opencode" {
					t.Errorf("event %s", in)
				}
			}
		})
	}
}

// nodeFor is the Node to run the plugin with; the test is skipped
// without one, or with -short.
func nodeFor(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: starts Node")
	}
	node, err := filepath.Abs(filepath.Join("..", "..", ".tools", "node", "node_modules", ".bin", "node"))
	if err == nil {
		_, err = os.Stat(node)
	}
	if err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			t.Skip("no node to run the plugin with")
		}
	}
	return node
}

// After a call, the plugin runs the post argv with the call's fields
// under "tool.execute.after": whatever that hook does (fails, is missing,
// never answers) the handler returns nothing, throws nothing, leaves the
// agent's output as it was, and waits no longer than its bound. Without
// a post argv in its settings it has no such handler.
func TestPluginPostEvent(t *testing.T) {
	node := nodeFor(t)
	dir := t.TempDir()
	tests := []struct {
		name, body string
		post       bool
	}{
		{"reports", `exit 0`, true},
		{"hook fails", `echo boom >&2; exit 1`, true},
		{"hook never answers", `exec sleep 30`, true},
		{"no hook", "", true},
		{"no post settings", `exit 0`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := strings.ReplaceAll(tt.name, " ", "_")
			h := filepath.Join(dir, name)
			in := h + ".in"
			if tt.body != "" {
				os.WriteFile(h, []byte("#!/bin/sh\ncat > "+in+"\n"+tt.body+"\n"), 0o755)
			}
			settings := map[string]any{"agent": "kilo", "hook": []string{"/nonexistent/pre"}, "timeoutMs": 700, "failClosed": true}
			if tt.post {
				settings["post"] = []string{h, "--agent", "kilo", "--post"}
				settings["postTimeoutMs"] = 700
			}
			js, _ := json.Marshal(settings)
			blank := "const SETTINGS = null; " + SettingsMarker
			plugin := filepath.Join(dir, name+".mjs")
			os.WriteFile(plugin, []byte(strings.Replace(Plugin, blank, "const SETTINGS = "+string(js)+"; "+SettingsMarker, 1)), 0o644)
			driver := `import { AgentjailGuard } from ` + strings.ReplaceAll(string(mustJSON(plugin)), `\`, `\\`) + `;
const hooks = await AgentjailGuard({ directory: "/w", worktree: "/w" });
const after = hooks["tool.execute.after"];
if (!after) { console.log("NONE"); process.exit(0); }
const output = { title: "t", output: "done", metadata: { exit: 0 } };
const start = Date.now();
try {
  const r = await after({ tool: "bash", sessionID: "ses_1", callID: "call_1", args: { command: "ls" } }, output);
  console.log(JSON.stringify({ r: r === undefined ? "undefined" : r, output, ms: Date.now() - start }));
} catch (e) { console.log("THROWN " + e.message); }
`
			d := filepath.Join(dir, name+"-driver.mjs")
			os.WriteFile(d, []byte(driver), 0o644)
			start := time.Now()
			out, err := exec.Command(node, d).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("node ran %v: the post hook held it", took)
			}
			got := strings.TrimSpace(string(out))
			if !tt.post {
				if got != "NONE" {
					t.Errorf("got %q, want no tool.execute.after handler", got)
				}
				return
			}
			var res struct {
				R      any
				Output map[string]any
				Ms     int
			}
			if err := json.Unmarshal([]byte(got), &res); err != nil {
				t.Fatalf("the handler did not return cleanly: %q", got)
			}
			if res.R != "undefined" || res.Output["output"] != "done" || len(res.Output) != 3 || res.Ms > 1500 {
				t.Errorf("handler returned %v after %d ms, output %v", res.R, res.Ms, res.Output)
			}
			if tt.body == "" {
				return
			}
			b, _ := os.ReadFile(in)
			var ev map[string]any
			json.Unmarshal(b, &ev)
			args, _ := ev["args"].(map[string]any)
			if ev["hook_event_name"] != PostEvent || ev["client"] != "kilo" || ev["tool"] != "bash" || args["command"] != "ls" || ev["sessionID"] != "ses_1" || ev["callID"] != "call_1" || ev["cwd"] != "/w" {
				t.Errorf("event %s", b)
			}
		})
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
