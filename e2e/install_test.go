package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Real-world shapes of ~/.claude/settings.json ("" is a missing file).
var installSettings = []struct{ name, text string }{
	{"missing", ""},
	{"empty", "{}\n"},
	{"other hooks", "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/audit.sh\"}]}\n    ],\n    \"PostToolUse\": [\n      {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}\n    ]\n  }\n}\n"},
	{"unusual order, tabs", "{\n\t\"zeta\": true,\n\t\"hooks\": {},\n\t\"alpha\": [1, 2]\n}"},
	{"compact", `{"permissions":{"allow":["Bash(npm test)"]}}`},
	{"our hook already present, from an older install", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/opt/old/agentjail-hook\",\n            \"timeout\": 30\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
	{"large", largeSettings()},
}

func largeSettings() string {
	var b strings.Builder
	b.WriteString("{\n  \"permissions\": {\n    \"allow\": [\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "      \"Bash(tool-%d:*)\",\n", i)
	}
	b.WriteString("      \"Read\"\n    ]\n  }\n}\n")
	return b.String()
}

func TestInstallUninstallRoundTrip(t *testing.T) {
	for _, tt := range installSettings {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			settings := filepath.Join(e.home, ".claude", "settings.json")
			// Claude Code's folder is there (install wires only agents
			// found), its settings file maybe not.
			os.MkdirAll(filepath.Dir(settings), 0o755)
			if tt.text != "" {
				os.WriteFile(settings, []byte(tt.text), 0o640)
			}
			defer e.cli("uninstall") // never leave a daemon behind

			if r := e.cli("install", "--dry-run"); r.code != 0 || !strings.Contains(r.stdout, "+") {
				t.Fatalf("dry run: %+v", r)
			}
			if got := read(settings); got != tt.text {
				t.Fatalf("--dry-run changed the file:\n%s", got)
			}

			r := e.cli("install")
			if r.code != 0 || !strings.Contains(r.stdout, "the daemon runs (detached") {
				t.Fatalf("install: %+v", r)
			}
			// No session bus here: install says where held calls are answered.
			if !strings.Contains(r.stdout, "no desktop session here") || !strings.Contains(r.stdout, "agentjail pending") {
				t.Errorf("install does not say a terminal answers held calls:\n%s", r.stdout)
			}
			first := read(settings)
			if !strings.Contains(first, filepath.Join(e.ajHome, "bin", "agentjail-hook")) {
				t.Fatalf("no hook in settings:\n%s", first)
			}
			if tt.text != "" {
				if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o640 {
					t.Errorf("mode changed to %v", fi.Mode().Perm())
				}
				if read(settings+".agentjail-backup") != tt.text {
					t.Errorf("no faithful backup")
				}
			}
			if r := e.cli("status"); r.code != 0 || !strings.Contains(r.stdout, "detached") {
				t.Errorf("status after install: %+v", r)
			}
			hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
			if r := e.run(bashEvent("cat ~/.ssh/id_rsa"), hook); r.code != 2 {
				t.Errorf("installed hook does not deny: %+v", r)
			}

			if strings.Contains(first, "/opt/old/agentjail-hook") {
				t.Errorf("the old hook entry was not replaced:\n%s", first)
			}
			if r := e.cli("install"); r.code != 0 || !strings.Contains(r.stdout, "already has the agentjail hook") {
				t.Errorf("second install: %+v", r)
			}
			if read(settings) != first {
				t.Errorf("second install changed the file")
			}

			if r := e.cli("uninstall"); r.code != 0 {
				t.Fatalf("uninstall: %+v", r)
			}
			if tt.text == "" {
				if _, err := os.Stat(settings); !os.IsNotExist(err) {
					t.Errorf("the settings file install created is still there")
				}
			} else if got := read(settings); got != tt.text {
				t.Errorf("uninstall did not give the original back:\n%s\nwant\n%s", got, tt.text)
			}
			if r := e.cli("status"); r.code != 3 {
				t.Errorf("daemon still running after uninstall: %+v", r)
			}
		})
	}
}

// A user who edits settings after install keeps the edit; only our entry goes.
func TestUninstallKeepsLaterEdits(t *testing.T) {
	e := newEnv(t)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644)
	defer e.cli("uninstall")
	if r := e.cli("install"); r.code != 0 {
		t.Fatal(r)
	}
	edited := strings.Replace(read(settings), `"model": "opus"`, `"model": "sonnet"`, 1)
	os.WriteFile(settings, []byte(edited), 0o644)
	if r := e.cli("uninstall"); r.code != 0 {
		t.Fatal(r)
	}
	got := read(settings)
	if strings.Contains(got, "agentjail") || !strings.Contains(got, `"model": "sonnet"`) {
		t.Errorf("after uninstall:\n%s", got)
	}
}

func TestInstallRefusesBrokenSettings(t *testing.T) {
	e := newEnv(t)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	broken := "{\n  \"model\": \"opus\",\n}\n"
	os.WriteFile(settings, []byte(broken), 0o644)
	r := e.cli("install")
	if r.code != 1 || !strings.Contains(r.stderr, settings+":3:1:") {
		t.Errorf("install on broken settings: %+v", r)
	}
	if read(settings) != broken {
		t.Errorf("the broken file was changed")
	}
	if _, err := os.Stat(filepath.Join(e.ajHome, "bin")); !os.IsNotExist(err) {
		t.Errorf("binaries were installed despite the refusal")
	}
}

func TestInstallProjectScopeAndPurge(t *testing.T) {
	e := newEnv(t)
	project := filepath.Join(e.home, "project")
	os.MkdirAll(project, 0o755)
	r := e.runIn(project, "", "agentjail", "install", "--scope", "project")
	if r.code != 0 {
		t.Fatal(r)
	}
	// The personal, uncommitted file: the entry holds this user's home.
	if !strings.Contains(read(filepath.Join(project, ".claude", "settings.local.json")), "agentjail-hook") {
		t.Errorf("no hook in the project's settings.local.json")
	}
	if _, err := os.Stat(filepath.Join(project, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("project scope wrote the committed settings.json")
	}
	if !strings.Contains(r.stdout, "Claude Code: ~/project/.claude does not exist; install makes it, as --scope project asked") || strings.Contains(r.stdout, "~/.claude does not exist") {
		t.Errorf("install did not say which folder it makes:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "added the agentjail hook to "+filepath.Join(project, ".claude", "settings.local.json")) {
		t.Errorf("install did not name the file it wrote:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(e.home, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("project scope touched the user's settings")
	}
	pid := daemonPID(t, e)
	if r := e.runIn(project, "", "agentjail", "uninstall", "--purge"); r.code != 0 {
		t.Fatal(r)
	}
	if _, err := os.Stat(e.ajHome); !os.IsNotExist(err) {
		t.Errorf("--purge left %s", e.ajHome)
	}
	// Nothing of ours is left: the file install created, and the
	// .claude folder it made for it.
	if _, err := os.Stat(filepath.Join(project, ".claude")); !os.IsNotExist(err) {
		t.Errorf("the project's .claude folder install created is still there")
	}
	waitFor(t, "the daemon to exit", func() bool { return syscall.Kill(pid, 0) != nil })
}

func daemonPID(t *testing.T, e *env) int {
	t.Helper()
	var pid int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && pid == 0; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(e.socket + ".lock")
		if f := strings.Fields(string(b)); len(f) > 0 {
			pid, _ = strconv.Atoi(f[0])
		}
	}
	if pid == 0 {
		t.Fatal("no daemon pid in the lock file")
	}
	return pid
}

func read(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
