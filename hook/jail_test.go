package hook

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/agents/claude"
	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/jail"
	"github.com/agentjail/agentjail/internal/wire"
)

// With confine: true, an allowed Bash call comes back from the hook
// rewritten to run under the launcher; running it as Claude Code would
// runs the original command, confined: the key stays unread and the
// start-up file unchanged whatever the command computes at run time.
func TestConfinedClaudeCall(t *testing.T) {
	if jail.Probe().Off != "" {
		t.Skip(jail.Probe().Off)
	}
	hookBin := filepath.Join(t.TempDir(), "agentjail-hook")
	if out, err := exec.Command("go", "build", "-o", hookBin, "../cmd/agentjail-hook").CombinedOutput(); err != nil {
		t.Fatalf("build the hook: %v\n%s", err, out)
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project := filepath.Join(home, "project")
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{filepath.Join(home, ".ssh"), project, tmp} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("CANARY-KEY-4411\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# rc\n"), 0o600)
	d := daemontest.StartForConfig(t, home, "confine: true\n")

	for _, tc := range []struct {
		name, command, want string
	}{
		{"computed key path", `f=$(echo LnNzaC9pZF9yc2E= | base64 -d); cd; cat "$f"; echo ran`, "ran"},
		// The name's last letters are cut at a length known only at run
		// time (len(os.sep)), so the judge cannot compute it: the kernel
		// keeps ~/.bashrc unwritten.
		{"interpreter append", `python3 -c "import os;open(os.path.join(os.environ['HOME'],'.bash'+'rc'[:len(os.sep)*2]),'a').write('evil')" 2>/dev/null; echo ran`, "ran"},
		{"everyday", `echo hi > x.txt && cat x.txt && rm x.txt`, "hi"},
		{"quotes survive", `printf '%s\n' "it's" 'a "b"'`, "it's\na \"b\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			event, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": tc.command, "description": "d"}, "cwd": project, "hook_event_name": "PreToolUse"})
			cmd := exec.Command(hookBin)
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "AGENTJAIL_SOCKET="+d.Socket, "AGENTJAIL_HOME="+d.Home, "HOME="+home)
			cmd.Stdin = strings.NewReader(string(event))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("hook: %v %s", err, out)
			}
			var ans claude.ClaudeOutput
			if err := json.Unmarshal(out, &ans); err != nil {
				t.Fatalf("hook printed %q: %v", out, err)
			}
			rewritten, _ := ans.HookSpecificOutput.UpdatedInput["command"].(string)
			if !strings.Contains(rewritten, " jail ") || ans.HookSpecificOutput.UpdatedInput["description"] != "d" || ans.HookSpecificOutput.PermissionDecision != "allow" {
				t.Fatalf("want an allow with the rewrite, keeping the other fields, got %s", out)
			}
			run := exec.Command("bash", "-c", rewritten)
			run.Dir = project
			run.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+tmp)
			got, _ := run.CombinedOutput()
			if strings.Contains(string(got), "CANARY-KEY") {
				t.Errorf("the confined call read the key: %s", got)
			}
			if rc, _ := os.ReadFile(filepath.Join(home, ".bashrc")); string(rc) != "# rc\n" {
				t.Errorf("the confined call changed ~/.bashrc: %q", rc)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// A decision without a profile, and an agent that cannot rewrite, leave
// the answer as Render made it.
func TestConfinedLeavesOthersAlone(t *testing.T) {
	d := &wire.Decision{Verdict: wire.Allow}
	ans := confined(claude.Agent.Adapter, map[string]any{"tool_name": "Bash", "tool_input": json.RawMessage(`{"command":"ls"}`)}, d, claude.Agent.Adapter.Render(nil, d))
	if len(ans.Stdout) != 0 {
		t.Errorf("no profile: %s", ans.Stdout)
	}
	d.Jail = "/x/p.json"
	ans = confined(claude.Agent.Adapter, map[string]any{"tool_name": "Read", "tool_input": json.RawMessage(`{"file_path":"a"}`)}, d, claude.Agent.Adapter.Render(nil, d))
	if len(ans.Stdout) != 0 {
		t.Errorf("a Read call was rewritten: %s", ans.Stdout)
	}
	ans = confined(claude.Agent.Adapter, map[string]any{"tool_name": "Bash", "tool_input": json.RawMessage(`{"command":"it's"}`)}, d, claude.Agent.Adapter.Render(nil, d))
	var out claude.ClaudeOutput
	json.Unmarshal(ans.Stdout, &out)
	if c, _ := out.HookSpecificOutput.UpdatedInput["command"].(string); !strings.HasSuffix(c, ` jail '/x/p.json' 'it'\''s'`) {
		t.Errorf("rewritten to %q", c)
	}
}
