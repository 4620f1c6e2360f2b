package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// approvals: a call the system hook holds is listed, with its code, to
// its own user in a terminal, answered by that user's `agentjail
// approve`, and the grant it makes is kept where only the service user
// may write.
func (s *sysEnv) approvals(t *testing.T) {
	event, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "git reset --hard HEAD~1"}, "cwd": s.home, "session_id": "sys-approval", "turn_id": "t1"})
	held := make(chan sysResult, 1)
	go func() {
		held <- s.asAgent(event, "/usr/local/libexec/agentjail/agentjail-hook", "--system", "--agent", "codex", "--hold", "30s")
	}()
	id, code := "", ""
	pending := regexp.MustCompile(`(?m)^  ([0-9a-f]{8})  codex in `)
	codeLine := regexp.MustCompile(`(?m)^    code (\d{6})\r?$`)
	for i := 0; i < 100 && code == ""; i++ {
		r := s.asAgentEnv(nil, []string{"SHELL=/bin/sh"}, "script", "-q", "-e", "-c", "/usr/local/bin/agentjail pending", "/dev/null")
		if m, c := pending.FindStringSubmatch(r.stdout), codeLine.FindStringSubmatch(r.stdout); m != nil && c != nil {
			id, code = m[1], c[1]
		}
	}
	if code == "" {
		t.Fatal("agentjail pending in the user's terminal never showed the held call with its code")
	}
	if r := s.asAgent(nil, "/usr/local/bin/agentjail", "pending"); strings.Contains(r.stdout, code) {
		t.Errorf("pending off a terminal showed the code:\n%s", r.stdout)
	}
	if r := s.asAgent(nil, "/usr/local/bin/agentjail", "approve", id, "--code", code, "--project"); r.code != 0 {
		t.Fatalf("approve as the user: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := <-held; r.code != 0 || !jailedRewrite(r.stdout, "git reset --hard HEAD~1") {
		t.Errorf("the approved call: exit %d stdout %q stderr %q; want its command rewritten to run jailed", r.code, r.stdout, r.stderr)
	}
	fi, err := os.Stat("/var/lib/agentjail/grants.json")
	if err != nil {
		t.Fatalf("the grant was not kept in the service's state: %v", err)
	}
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) == s.uid || fi.Mode().Perm()&0o022 != 0 {
		t.Errorf("grants.json is uid %d, mode %v: the agent's user must not write it", st.Uid, fi.Mode().Perm())
	}
	if r := s.asAgent(nil, "/usr/local/bin/agentjail", "grants"); !strings.Contains(r.stdout, "project: git reset") {
		t.Errorf("grants as the user:\n%s%s", r.stdout, r.stderr)
	}
	s.asAgent(nil, "/usr/local/bin/agentjail", "grants", "revoke", "--all")
}
