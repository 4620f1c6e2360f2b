package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Keys and hashes as Codex 0.169.0's `codex app-server` reported them
// through hooks/list for these hooks.json files: every handler of a
// group counts for the key, skipped ones included.
func TestCodexHandlersMatchCodex(t *testing.T) {
	const ours = `"command":"/x/bin/agentjail-hook --agent codex"`
	tests := []struct {
		name  string
		hooks string
		want  []codexHandler // in order; event "" is pre_tool_use
	}{
		{"a prompt hook and an empty command count for the key",
			`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"prompt","prompt":"x"},{"type":"command","command":""},{"type":"command",` + ours + `,"timeout":5}]},{"hooks":[{"type":"command",` + ours + `,"async":true}]}]}}`,
			[]codexHandler{
				{key: "/h/hooks.json:pre_tool_use:0:0"},
				{key: "/h/hooks.json:pre_tool_use:0:1", hash: "?"},
				{key: "/h/hooks.json:pre_tool_use:0:2", ours: true, hash: "sha256:609726972084b8de23a4c9ba3ae46c39661a5598afc7eef2a40830c5d3424183"},
				{key: "/h/hooks.json:pre_tool_use:1:0", ours: true, hash: "sha256:f42215d630f655dc12fc3f4baa5b280b56ba1537e94bed2dcba7fa6a5c03af6f"},
			}},
		{"the user's hook before ours",
			`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/usr/bin/true mine","timeout":5}]},{"matcher":"*","hooks":[{"type":"command",` + ours + `,"timeout":5}]}]}}`,
			[]codexHandler{
				{key: "/h/hooks.json:pre_tool_use:0:0", hash: "sha256:c29eeec3b7b0d98612ac703a0b40dc397fe71ff0bc6da984db002292f56e26a6"},
				{key: "/h/hooks.json:pre_tool_use:1:0", ours: true, hash: "sha256:609726972084b8de23a4c9ba3ae46c39661a5598afc7eef2a40830c5d3424183"},
			}},
		{"additionalContextLimit and statusMessage are hashed, other keys not",
			`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command",` + ours + `,"timeout":5,"additionalContextLimit":7}]},{"matcher":"*","hooks":[{"type":"command",` + ours + `,"timeout":5,"statusMessage":"hi <&>"}]},{"matcher":"*","hooks":[{"type":"command",` + ours + `,"timeout":5,"commandWindows":"x","env":{"A":"b"}}]}],"PostToolUse":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
			[]codexHandler{
				{key: "/h/hooks.json:pre_tool_use:0:0", ours: true, hash: "sha256:6650e86669ece0a19d2a4b202c38107e9d8a71e171f8968c2d8cb59fed4f82b4"},
				{key: "/h/hooks.json:pre_tool_use:1:0", ours: true, hash: "sha256:2ee3b488d0bafb9bceaab1a1906d61746992b451bc8689214821fe0a6ff9d0f6"},
				{key: "/h/hooks.json:pre_tool_use:2:0", ours: true, hash: "sha256:609726972084b8de23a4c9ba3ae46c39661a5598afc7eef2a40830c5d3424183"},
				{event: "post_tool_use", key: "/h/hooks.json:post_tool_use:0:0", hash: "?"},
			}},
		{"a limit that is not a whole number has no known hash",
			`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"mine","additionalContextLimit":1.5}]}]}}`,
			[]codexHandler{{key: "/h/hooks.json:pre_tool_use:0:0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := codexHandlers("/h/hooks.json", []byte(tt.hooks))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d handlers, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				g := got[i]
				if w.event == "" {
					w.event = "pre_tool_use"
				}
				if w.hash == "?" { // a hash, whatever it is
					w.hash = g.hash
					if g.hash == "" {
						t.Errorf("handler %d has no hash", i)
					}
				}
				if g != w {
					t.Errorf("handler %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
	// CodexTrust is the first of ours.
	key, hash, err := CodexTrust("/h/hooks.json", []byte(tests[0].hooks))
	if err != nil || key != tests[0].want[2].key || hash != tests[0].want[2].hash {
		t.Errorf("CodexTrust: %s %s %v", key, hash, err)
	}
}

// userHookFirst is hooks.json with the user's own hook put before ours.
func userHookFirst(t *testing.T, hooks string) string {
	t.Helper()
	const at = `"PreToolUse": [`
	if !strings.Contains(hooks, at) {
		t.Fatalf("hooks.json is not as install writes it:\n%s", hooks)
	}
	return strings.Replace(hooks, at, at+"\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/usr/local/bin/audit-shell\", \"timeout\": 7}]},", 1)
}

// noCodexOnPath leaves the check to its config.toml reading.
func noCodexOnPath(t *testing.T) { t.Setenv("PATH", t.TempDir()) }

func checkCodex(t *testing.T, o Options) CodexCheck {
	t.Helper()
	c, err := CodexHookTrust(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A hook the user puts before ours leaves ours untrusted; the check says
// so (by config.toml, no codex on PATH) and install repairs it: the trust
// follows our hook, the one install wrote for the old place goes, and
// every byte of the user's own goes untouched. Uninstall then leaves the
// user's hook and their config.toml as they were.
func TestCodexMovedHookRepaired(t *testing.T) {
	o := agentOptions(t, "codex")
	noCodexOnPath(t)
	userConfig := "# mine\nmodel = \"o4\"\n\n[projects.\"/work/p\"]\ntrust_level = \"trusted\"\n"
	write(t, o.codexConfigPath(), userConfig)
	if c := checkCodex(t, o); c.Wired || c.Problem != "" {
		t.Fatalf("before install: %+v", c)
	}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if c := checkCodex(t, o); !c.Wired || c.Problem != "" || c.Method != CodexByConfig || c.Fallback == "" {
		t.Fatalf("after install: %+v", c)
	}

	moved := userHookFirst(t, read(t, o.codexHooksPath()))
	write(t, o.codexHooksPath(), moved)
	c := checkCodex(t, o)
	if !strings.Contains(c.Problem, "skips agentjail's hook") || !strings.Contains(c.Problem, ":pre_tool_use:1:0") || !strings.Contains(c.Problem, "agentjail install --for codex") {
		t.Fatalf("moved hook: %+v", c)
	}

	if codexGuarded(o) {
		t.Errorf("Agents says codex is guarded while Codex would skip the hook")
	}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if c := checkCodex(t, o); c.Problem != "" {
		t.Fatalf("after repair: %+v", c)
	}
	if !codexGuarded(o) {
		t.Errorf("Agents says codex is not wired after the repair")
	}
	if got := read(t, o.codexHooksPath()); got != moved {
		t.Errorf("install changed hooks.json:\n%s\nwant\n%s", got, moved)
	}
	cfg := read(t, o.codexConfigPath())
	if !strings.HasPrefix(cfg, userConfig) || strings.Contains(cfg, ":pre_tool_use:0:0") || strings.Count(cfg, codexMark) != 2 {
		t.Errorf("config.toml after repair:\n%s", cfg)
	}
	// Repairing again changes nothing.
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, o.codexConfigPath()); got != cfg {
		t.Errorf("a second install changed config.toml:\n%s", got)
	}

	if err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, o.codexConfigPath()); got != userConfig {
		t.Errorf("config.toml after uninstall:\n%q\nwant\n%q", got, userConfig)
	}
	if got := read(t, o.codexHooksPath()); !strings.Contains(got, "audit-shell") || strings.Contains(got, hookBinary) {
		t.Errorf("hooks.json after uninstall:\n%s", got)
	}
}

// The trust table install wrote for a place the user's hook now holds:
// still our hash, it trusts nothing and goes; rewritten by Codex to the
// user's hook's hash (the user trusted their hook), it is the user's and
// stays, at repair and at uninstall, without our mark.
func TestCodexStaleTrustAtUsersHook(t *testing.T) {
	for _, usersTrust := range []bool{false, true} {
		t.Run(fmt.Sprintf("user trusted their hook: %v", usersTrust), func(t *testing.T) {
			o := agentOptions(t, "codex")
			noCodexOnPath(t)
			write(t, o.codexConfigPath(), "model = \"o4\"\n")
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			write(t, o.codexHooksPath(), userHookFirst(t, read(t, o.codexHooksPath())))
			hooks := []byte(read(t, o.codexHooksPath()))
			handlers, err := codexHandlers(absPath(o.codexHooksPath()), hooks)
			if err != nil || handlers[0].ours || handlers[0].hash == "" {
				t.Fatalf("%+v %v", handlers, err)
			}
			oldKey := handlers[0].key
			cfg := read(t, o.codexConfigPath())
			if !strings.Contains(cfg, oldKey) {
				t.Fatalf("install wrote no trust for %s:\n%s", oldKey, cfg)
			}
			if usersTrust {
				// As Codex 0.169.0 writes it when the user trusts their hook
				// (measured through its app server's config/batchWrite): the
				// value rewritten in place, our comment left above it, and an
				// empty [hooks.state] table added before.
				i := strings.Index(cfg, "trusted_hash = ")
				j := i + strings.IndexByte(cfg[i:], '\n')
				cfg = cfg[:i] + "trusted_hash = \"" + handlers[0].hash + "\"" + cfg[j:]
				m := strings.Index(cfg, codexMark)
				cfg = cfg[:m] + "[hooks.state]\n\n" + cfg[m:]
				write(t, o.codexConfigPath(), cfg)
			}
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			got := read(t, o.codexConfigPath())
			if strings.Contains(got, oldKey) != usersTrust {
				t.Errorf("the table for %s after repair:\n%s", oldKey, got)
			}
			if usersTrust && !strings.Contains(got, handlers[0].hash) {
				t.Errorf("the user's trust is gone:\n%s", got)
			}
			if n := strings.Count(got, codexMark); n != 2 {
				t.Errorf("%d tables marked as ours, want 2 (the pre-tool hook's new place, the post-tool hook's):\n%s", n, got)
			}
			if c := checkCodex(t, o); c.Problem != "" {
				t.Errorf("after repair: %+v", c)
			}
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			want := "model = \"o4\"\n"
			if usersTrust {
				want = "model = \"o4\"\n\n[hooks.state]\n\n[hooks.state." + tomlString(oldKey) + "]\ntrusted_hash = \"" + handlers[0].hash + "\"\n"
			}
			if got := read(t, o.codexConfigPath()); got != want {
				t.Errorf("config.toml after uninstall:\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// The config.toml reading: trusted, switched off, gone.
func TestCodexTrustByConfig(t *testing.T) {
	o := agentOptions(t, "codex")
	noCodexOnPath(t)
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	cfg := read(t, o.codexConfigPath())
	// Our pre-tool hook's table switched off (the post-tool one's, last,
	// counts for nothing here).
	write(t, o.codexConfigPath(), strings.Replace(cfg, ":pre_tool_use:0:0\"]\n", ":pre_tool_use:0:0\"]\nenabled = false\n", 1))
	if c := checkCodex(t, o); !strings.Contains(c.Problem, "switches it off") || !strings.Contains(c.Problem, "to switch it back on") {
		t.Errorf("switched off: %+v", c)
	}
	if codexGuarded(o) {
		t.Errorf("Agents says codex is guarded while its hook is switched off")
	}
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if c := checkCodex(t, o); c.Problem != "" || read(t, o.codexConfigPath()) != cfg {
		t.Errorf("install did not switch it back on: %+v\n%s", c, read(t, o.codexConfigPath()))
	}
	write(t, o.codexConfigPath(), cfg+"enabled = true\n")
	if c := checkCodex(t, o); c.Problem != "" {
		t.Errorf("switched on: %+v", c)
	}
	write(t, o.codexConfigPath(), strings.Replace(cfg, "trusted_hash = \"sha256:", "trusted_hash = \"sha256:0", 1))
	if c := checkCodex(t, o); !strings.Contains(c.Problem, "trusts nothing") {
		t.Errorf("another hash: %+v", c)
	}
	write(t, o.codexConfigPath(), cfg)
	write(t, o.codexHooksPath(), "{\"hooks\": {}}\n")
	if c := checkCodex(t, o); !c.Wired || !strings.Contains(c.Problem, "gone from") {
		t.Errorf("hook removed: %+v", c)
	}
}

// fakeCodex puts a codex program on PATH that answers hooks/list with
// one agentjail hook of this trust status, or runs body instead.
func fakeCodex(t *testing.T, o Options, trust, body string) {
	t.Helper()
	dir := t.TempDir()
	if body == "" {
		hooks := absPath(o.codexHooksPath())
		body = `read a; read b; read c
echo '{"jsonrpc":"2.0","method":"some/notification","params":{}}'
echo '{"id":1,"result":{"userAgent":"fake"}}'
echo '{"id":2,"result":{"data":[{"cwd":"/","hooks":[{"key":"` + hooks + `:pre_tool_use:0:0","handlerType":"command","command":"/x/agentjail-hook --agent codex","sourcePath":"` + hooks + `","enabled":true,"trustStatus":"` + trust + `"}],"warnings":[],"errors":[]}]}}'
read d`
	}
	if err := os.WriteFile(filepath.Join(dir, "codex"), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":/usr/bin:/bin")
}

// With a codex on PATH its own word decides, whatever config.toml says;
// when it fails or hangs (bounded), the check falls back and says why.
func TestCodexTrustByAppServer(t *testing.T) {
	o := agentOptions(t, "codex")
	noCodexOnPath(t)
	if err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	good := read(t, o.codexConfigPath())

	fakeCodex(t, o, "trusted", "")
	write(t, o.codexConfigPath(), "") // no trust at all: Codex's word wins
	if c := checkCodex(t, o); c.Method != CodexByAppServer || c.Problem != "" {
		t.Errorf("Codex says trusted: %+v", c)
	}
	write(t, o.codexConfigPath(), good)
	fakeCodex(t, o, "modified", "")
	if c := checkCodex(t, o); c.Method != CodexByAppServer || !strings.Contains(c.Problem, "reports it modified") {
		t.Errorf("Codex says modified: %+v", c)
	}

	fakeCodex(t, o, "", "echo 'error: unknown subcommand' >&2; exit 2")
	c := checkCodex(t, o)
	if c.Method != CodexByConfig || c.Problem != "" || !strings.Contains(c.Fallback, "unknown subcommand") {
		t.Errorf("codex fails: %+v", c)
	}
	write(t, o.codexConfigPath(), "")
	if c := checkCodex(t, o); c.Method != CodexByConfig || !strings.Contains(c.Problem, "trusts nothing") {
		t.Errorf("codex fails, no trust: %+v", c)
	}

	codexCheckTimeout = 300 * time.Millisecond
	t.Cleanup(func() { codexCheckTimeout = 8 * time.Second })
	fakeCodex(t, o, "", "exec sleep 60")
	write(t, o.codexConfigPath(), good)
	if c := checkCodex(t, o); c.Method != CodexByConfig || c.Problem != "" || !strings.Contains(c.Fallback, "did not answer") {
		t.Errorf("codex hangs: %+v", c)
	}
}

// codexGuarded is whether Agents sees Codex's calls reaching agentjail:
// wired, with no problem such as an untrusted hook.
func codexGuarded(o Options) bool {
	for _, a := range Agents(o) {
		if a.Name == "codex" {
			return a.Guarded()
		}
	}
	return false
}
