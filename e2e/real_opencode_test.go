package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// opencode (npm opencode-ai 1.18.33) as measured here, headless
// (`opencode run PROMPT`), offline, with a provider of the config's own
// ("npm": "@ai-sdk/openai-compatible", built into the binary: nothing is
// fetched for it) pointed at fakeModel's chat completions:
//
//   - No hook commands: every *.js or *.ts in ~/.config/opencode/plugin/
//     (or plugins/, or a project's .opencode/plugin/) is imported, and
//     each exported function is a plugin. Its "tool.execute.before"
//     gets ({tool, sessionID, callID}, {args}) before every tool (MCP
//     tools and the task tool too), before opencode's own permission
//     check. Our plugin turns that into the hook's event:
//     {"hook_event_name":"tool.execute.before","client":"opencode",
//     "tool":"bash","args":{"command":...,"description":...},
//     "sessionID":"ses_...","callID":"call_1","cwd":...,"worktree":...}.
//   - After a tool ran, "tool.execute.after" gets ({tool, sessionID,
//     callID, args}, output), args the object the before-hook saw, and
//     opencode waits for it; our plugin runs the hook with --post and
//     the before-event's fields under "tool.execute.after". A call that
//     was stopped never gets one.
//   - Its record of tool calls is SQLite, not lines to follow:
//     $XDG_DATA_HOME/opencode/opencode.db (~/.local/share; $OPENCODE_DB
//     names another), a row per call in table part (session_id, data
//     {"type":"tool","tool","callID","state":{"status","input",...}}),
//     rewritten in place from pending to running to completed. Its
//     session_id and callID are the plugin's sessionID and callID.
//   - A plugin that throws stops the call; the model reads the error's
//     message verbatim as the tool's result, the terminal shows
//     "Error: <message>", and `opencode run` exits 0.
//   - A plugin that never returns hangs the run for good: our plugin
//     bounds its own wait (the hook's deadline + 3 s), then fails closed.
//   - A plugin cannot ask; an ask is a deny whose reason says a person
//     must approve. opencode's own "ask" rules (external_directory for a
//     path outside the project, ...) are auto-rejected headless
//     ("permission requested: external_directory (...); auto-rejecting"),
//     the model reads "The user rejected permission to use this specific
//     tool call.", exit 0. A plugin returning nothing changes none of it.
//   - Whatever plugins there are, at each start opencode installs
//     @opencode-ai/plugin (64 MB with its dependencies) from npm into
//     every configuration folder it reads (~/.config/opencode, a
//     project's .opencode/) unless the folder is read-only or already
//     has node_modules/ and a package-lock.json listing it; our plugin
//     imports nothing and works without it. The tests pre-seed those two
//     so that no run reaches the registry.
//   - --pure (OPENCODE_PURE=1) loads no plugins at all. /etc/opencode
//     holds only opencode.json(c), read last; it has no plugin folder.
func TestRealOpencode(t *testing.T) {
	testPluginAgent(t, pluginAgent{name: "opencode", rejectExit: 0, gate: "The user rejected permission to use this specific tool call.", showsLauncher: true})
}

// pluginAgent is what differs between opencode and Kilo CLI.
type pluginAgent struct {
	name string
	// rejectExit is the run's exit code when the agent auto-rejects one
	// of its own asks headless.
	rejectExit int
	// gate is what the model reads when the agent's own rules refuse.
	gate string
	// showsLauncher: the agent prints a confined shell call as it runs
	// (the launcher's line), not as the model wrote it.
	showsLauncher bool
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// seedDependencies gives an agent's configuration folder the two files
// that tell it its plugin package is installed, so it fetches nothing.
func seedDependencies(t *testing.T, dir, pkg string) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755)
	lock := `{"lockfileVersion": 3, "packages": {"": {"dependencies": {"` + pkg + `": "*"}}}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testPluginAgent(t *testing.T, a pluginAgent) {
	cli := agentCLI(t, a.name)
	var cliEnv []string
	if real, err := filepath.EvalSymlinks(cli); err == nil {
		// Kilo CLI's npm shim is a Node script that starts the binary
		// beside it: start that directly, so that a run cut off at its
		// time limit leaves no agent running.
		if bin := filepath.Join(filepath.Dir(real), ".kilo"); a.name == "kilo" && fileExists(bin) {
			cli = bin
			cliEnv = append(cliEnv, "KILO_TREE_SITTER_WASM_DIR="+filepath.Join(filepath.Dir(real), "tree-sitter"))
		}
	}
	e := newEnv(t)
	api := startFakeModel(t)
	work := newAgentWork(t, e)

	// The user's own configuration and plugin beside the one the
	// installer adds; uninstall must leave them and the folder as they
	// were.
	confDir := filepath.Join(e.home, ".config", a.name)
	pluginDir := filepath.Join(confDir, "plugin")
	os.MkdirAll(pluginDir, 0o755)
	confFile := filepath.Join(confDir, a.name+".json")
	if a.name == "opencode" {
		seedDependencies(t, confDir, "@opencode-ai/plugin")
	} else {
		seedDependencies(t, confDir, "@kilocode/plugin")
	}
	// opencode writes "$schema" into a configuration without one.
	conf := `{
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": { "baseURL": "` + api.url + `/v1", "apiKey": "x" },
      "models": { "` + copilotModel + `": { "name": "` + copilotModel + `", "tool_call": true } }
    }
  },
  "model": "fake/` + copilotModel + `"
}
`
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(pluginDir, "mine.js")
	if err := os.WriteFile(mine, []byte("export const Mine = async () => ({})\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	filesBefore := dirFiles(pluginDir)

	installFor(t, e, a.name)
	ours := filepath.Join(pluginDir, "agentjail.js")
	if _, err := os.Stat(ours); err != nil {
		t.Fatalf("install wrote no plugin: %v", err)
	}
	rec := recordHook(t, e)

	// runOut runs the agent on one scripted call and returns what it
	// printed.
	runOut := func(t *testing.T, call *modelCall, wantExit int) string {
		t.Helper()
		rec.reset()
		api.script(call)
		r := runProcess(t, agentEnv(e, append(cliEnv,
			// The project is $PWD, not the process's working folder.
			"PWD="+work.dir,
			"XDG_DATA_HOME="+filepath.Join(e.home, ".local", "share"),
			"XDG_CACHE_HOME="+filepath.Join(e.home, ".cache"),
			"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1",
			"KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_MODELS_FETCH=1",
		)...), work.dir, cli, []string{"run", "Do the task."}, 120*time.Second)
		out := r.stdout + r.stderr
		if r.code != wantExit {
			t.Fatalf("%s run: exit %d, want %d\n%s", a.name, r.code, wantExit, out)
		}
		return out
	}
	// run is the tool result the model got back.
	run := func(t *testing.T, call *modelCall, wantExit int) string {
		t.Helper()
		return oneResult(t, api, runOut(t, call, wantExit))
	}
	bash := func(command string) *modelCall {
		return &modelCall{Name: "bash", Args: map[string]any{"command": command, "description": "Run it"}}
	}

	t.Run("a key read in the shell is blocked and the model gets our reason", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, keyRead)
		got := run(t, bash(keyRead), 0)
		if got != reason || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nwant our reason verbatim:\n%s", got, reason)
		}
		c := rec.one(t)
		ev := c.event(t)
		args, _ := ev["args"].(map[string]any)
		if ev["hook_event_name"] != "tool.execute.before" || ev["client"] != a.name || ev["tool"] != "bash" || args["command"] != keyRead || ev["cwd"] != work.dir {
			t.Errorf("event:\n%s", c.Stdin)
		}
		if s, _ := ev["sessionID"].(string); !strings.HasPrefix(s, "ses_") || ev["callID"] != "call_1" {
			t.Errorf("sessionID %v callID %v", ev["sessionID"], ev["callID"])
		}
		if c.Code != 2 || !strings.Contains(c.Args, "--agent "+a.name) {
			t.Errorf("hook ran as %q and answered %d", c.Args, c.Code)
		}
		loggedOnce(t, e, a.name, ".ssh/id_rsa", "deny")
	})

	t.Run("a key read with the read tool is blocked", func(t *testing.T) {
		key := filepath.Join(e.home, ".ssh", "id_rsa")
		got := run(t, &modelCall{Name: "read", Args: map[string]any{"filePath": key}}, 0)
		c := rec.one(t)
		var answer struct{ Decision, Reason string }
		json.Unmarshal([]byte(c.Stdout), &answer)
		if answer.Decision != "deny" || got != answer.Reason || strings.Contains(got, work.key) {
			t.Errorf("tool result:\n%s\nhook answered %q", got, c.Stdout)
		}
	})

	t.Run("an allowed command runs confined", func(t *testing.T) {
		// opencode shows the call as it runs (the launcher's line, the
		// model's command quoted whole at its end); Kilo CLI as the model
		// wrote it.
		out := runOut(t, bash(jailedKeyRead), 0)
		ranJailed(t, work, oneResult(t, api, out))
		shown := jailedKeyRead
		if a.showsLauncher {
			shown = "jail '"
		}
		if !strings.Contains(out, shown) || strings.Contains(out, "agentjail-hook") != a.showsLauncher {
			t.Errorf("%s showed the call as:\n%s\nwant %q in it", a.name, out, shown)
		}
	})

	t.Run("a harmless command runs, rewritten to run jailed", func(t *testing.T) {
		made := filepath.Join(work.dir, "made-by-tool")
		got := run(t, bash(harmless+" && touch "+made), 0)
		if _, err := os.Stat(made); err != nil {
			t.Errorf("the command did not run (%v); tool result:\n%s", err, got)
		}
		c := rec.one(t)
		if c.Code != 0 || !jailedRewrite(c.Stdout, harmless+" && touch "+made) {
			t.Errorf("hook answered exit %d, stdout %q, stderr %q; want exit 0 and the command rewritten to run jailed", c.Code, c.Stdout, c.Stderr)
		}
		// The call ran: tool.execute.after reported it with --post, the
		// same session and callID, so it is accounted for as judged.
		pre, posts := c.event(t), rec.postCalls()
		if len(posts) != 1 {
			t.Fatalf("the post-tool hook ran %d times, want once: %+v", len(posts), posts)
		}
		post := posts[0].event(t)
		args, _ := post["args"].(map[string]any)
		if !strings.HasSuffix(posts[0].Args, "--agent "+a.name+" --post") || post["hook_event_name"] != "tool.execute.after" || post["client"] != a.name || post["tool"] != "bash" ||
			unjailed(fmt.Sprint(args["command"])) != harmless+" && touch "+made || post["sessionID"] != pre["sessionID"] || post["callID"] != pre["callID"] || post["cwd"] != work.dir {
			t.Errorf("post-tool hook ran as %q with\n%s\nafter\n%s", posts[0].Args, posts[0].Stdin, c.Stdin)
		}
		for _, u := range uncheckedCalls(t, e) {
			if strings.Contains(u.Summary, "made-by-tool") {
				t.Errorf("the judged call is reported unchecked: %+v", u)
			}
		}
	})

	t.Run("a call the pre-tool hook let through unchecked is reported from tool.execute.after", func(t *testing.T) {
		// The pre-tool hook cannot reach the daemon (a socket that is not
		// there) and fails open: a copy of the hook outside agentjail's
		// folder, which starts no daemon of its own. The post-tool hook
		// is as installed.
		ours := filepath.Join(pluginDir, "agentjail.js")
		orig, err := os.ReadFile(ours)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(ours, orig, 0o644)
		hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
		dir := t.TempDir()
		bin, err := os.ReadFile(hook + ".recorded")
		if err != nil {
			t.Fatal(err)
		}
		astray := filepath.Join(dir, "agentjail-hook")
		os.WriteFile(astray+".bin", bin, 0o755)
		os.WriteFile(astray, []byte("#!/bin/sh\nAGENTJAIL_SOCKET="+shellQuote(filepath.Join(dir, "absent.sock"))+" exec "+shellQuote(astray+".bin")+" \"$@\"\n"), 0o755)
		from := `"hook":["` + hook + `",`
		if !strings.Contains(string(orig), from) {
			t.Fatalf("no %s in the plugin's settings:\n%s", from, orig)
		}
		os.WriteFile(ours, []byte(strings.Replace(string(orig), from, `"hook":["`+astray+`",`, 1)), 0o644)
		made := filepath.Join(work.dir, "made-unchecked-"+a.name)
		got := run(t, bash("touch "+made), 0)
		if _, err := os.Stat(made); err != nil {
			t.Fatalf("the call did not run (%v); tool result:\n%s", err, got)
		}
		if n := len(rec.postCalls()); n != 1 {
			t.Errorf("the post-tool hook ran %d times, want once: %+v", n, rec.all())
		}
		u := uncheckedWith(t, e, made)
		if u.Agent != a.name || !strings.HasPrefix(u.SessionID, "ses_") || u.Unchecked == nil || (u.Unchecked.Source != "post-tool event" && u.Unchecked.Source != "the hook's failure log") || !strings.Contains(u.Unchecked.Cause, "failed open") {
			t.Errorf("unchecked record %+v %+v", u, u.Unchecked)
		}
	})

	t.Run("an ask-class command is not run and the model is told a person must approve", func(t *testing.T) {
		reason := tryReason(t, e, work.dir, askClass)
		head := work.head(t, e)
		got := run(t, bash(askClass), 0)
		if !strings.Contains(got, reasonCore(reason)) || !strings.Contains(got, "nobody answered") {
			t.Errorf("tool result:\n%s\nwant a denial with our reason (%s)", got, reason)
		}
		if now := work.head(t, e); now != head {
			t.Errorf("the reset ran: HEAD moved from %s to %s", head, now)
		}
	})

	t.Run("no objection leaves the agent's own refusal in place", func(t *testing.T) {
		// A working folder outside the project is the agent's own
		// external_directory ask, which a headless run rejects; agentjail
		// has no rule on it. The run stops there: the model is not called
		// again. (A path outside the project in the command itself is not
		// seen by that check once the command is the launcher's: agentjail
		// and the jail judge it instead.)
		made := filepath.Join(e.home, "outside-made")
		out := runOut(t, &modelCall{Name: "bash", Args: map[string]any{"command": "touch outside-made", "workdir": e.home, "description": "Run it"}}, a.rejectExit)
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the touch ran: the hook widened %s's permissions:\n%s", a.name, out)
		}
		if !strings.Contains(out, "external_directory") || !strings.Contains(out, a.gate) {
			t.Errorf("%s said:\n%s\nwant its own refusal", a.name, out)
		}
		if c := rec.one(t); c.Code != 0 || !jailedRewrite(c.Stdout, "touch outside-made") {
			t.Errorf("hook answered exit %d, stdout %q", c.Code, c.Stdout)
		}
	})

	t.Run("a hook that never answers is cut off and the call blocked", func(t *testing.T) {
		hook := filepath.Join(e.ajHome, "bin", "agentjail-hook")
		recorder, err := os.ReadFile(hook)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(hook, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755)
		defer os.WriteFile(hook, recorder, 0o755)
		made := filepath.Join(work.dir, "made-past-the-bound")
		start := time.Now()
		got := run(t, bash("touch "+made), 0)
		if _, err := os.Stat(made); err == nil {
			t.Errorf("the call ran though the hook never answered; tool result:\n%s", got)
		}
		if !strings.Contains(got, "gave no answer within 12000 ms") || !strings.Contains(got, "fails closed") {
			t.Errorf("tool result:\n%s", got)
		}
		t.Logf("the run took %v with the plugin's bound at 12 s (5 s hold)", time.Since(start).Round(time.Second))
	})

	t.Run("uninstall leaves the plugin folder as it was", func(t *testing.T) {
		// The agent rewrites its configuration on its first run (opencode
		// adds "$schema"; Kilo CLI expands the file and adds a permission
		// entry): uninstall must leave it as it is now.
		before := takeSnapshot(append(filesBefore, confFile)...)
		if r := ajRun(t, e, "uninstall", "--for", a.name); r.code != 0 {
			t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		before.same(t)
		if now := dirFiles(pluginDir); !slices.Equal(now, filesBefore) {
			t.Errorf("plugin folder holds %v, want %v", now, filesBefore)
		}
		// The key read would now meet the agent's own refusal (~/.ssh is
		// outside the project); the reset is what it lets through.
		head := work.head(t, e)
		got := run(t, bash(askClass), 0)
		if now := work.head(t, e); now == head {
			t.Errorf("after uninstall the reset should run unguarded; tool result:\n%s", got)
		}
		if n := len(rec.all()); n != 0 {
			t.Errorf("the hook still ran %d times", n)
		}
		if _, err := os.Stat(filepath.Join(confDir, "node_modules", "@opencode-ai")); err == nil {
			t.Errorf("%s fetched its plugin package despite the seeded lock file", a.name)
		}
	})
}
