package agentconfig

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// CursorHooks reports whether path is a Cursor hooks file: hooks.json in
// a .cursor folder (the user's and every project's).
func CursorHooks(path, home string) bool {
	return filepath.Base(path) == "hooks.json" && filepath.Base(filepath.Dir(path)) == ".cursor"
}

// cursorEvents are the event names Cursor knows: one name it does not
// know makes it ignore the whole file.
var cursorEvents = []string{
	"sessionStart", "sessionEnd", "preToolUse", "postToolUse", "postToolUseFailure", "subagentStart", "subagentStop",
	"beforeShellExecution", "afterShellExecution", "beforeMCPExecution", "afterMCPExecution", "beforeReadFile",
	"afterFileEdit", "beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought",
	"beforeTabFileRead", "afterTabFileEdit",
}

// judgeCursor: every agentjail entry stays under its event with the same
// command and failClosed; the file keeps version 1 and gains no event
// name Cursor does not know.
func judgeCursor(cur, res []byte) string {
	curDoc, curOK := parseObject(cur)
	if !curOK {
		curDoc = map[string]any{}
	}
	ours := cursorOurs(curDoc)
	resDoc, resOK := parseObject(res)
	if !resOK {
		if len(ours) == 0 {
			return ""
		}
		return "leave a hooks file Cursor cannot read, agentjail's hooks with it"
	}
	if len(ours) > 0 && !reflect.DeepEqual(resDoc["version"], curDoc["version"]) {
		return "change the hooks file's version, so Cursor would ignore it"
	}
	hooks, _ := resDoc["hooks"].(map[string]any)
	was, _ := curDoc["hooks"].(map[string]any)
	for name := range hooks {
		if _, known := was[name]; !known && !slices.Contains(cursorEvents, name) {
			return fmt.Sprintf("add the event %q, which Cursor does not know: one unknown event makes it ignore the whole file, agentjail's hooks with it", name)
		}
	}
	now := cursorOurs(resDoc)
	for event, want := range ours {
		got, ok := now[event]
		switch {
		case !ok:
			return fmt.Sprintf("remove the agentjail hook from %s", event)
		case got["command"] != want["command"]:
			return fmt.Sprintf("change the agentjail hook's command under %s", event)
		case hookEntryChanged(want, got) != "":
			return fmt.Sprintf("%s under %s", hookEntryChanged(want, got), event)
		case want["failClosed"] == true && got["failClosed"] != true:
			return fmt.Sprintf("drop failClosed from the agentjail hook under %s, so Cursor would run the tool when the hook fails", event)
		case !reflect.DeepEqual(got["matcher"], want["matcher"]) && got["matcher"] != nil:
			return fmt.Sprintf("narrow the agentjail hook under %s with a matcher", event)
		}
	}
	return ""
}

// cursorOurs maps each event to its first agentjail entry.
func cursorOurs(doc map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	hooks, _ := doc["hooks"].(map[string]any)
	for event, v := range hooks {
		list, _ := v.([]any)
		for _, e := range list {
			m, _ := e.(map[string]any)
			if c, ok := m["command"].(string); ok && hookcmd.IsHook(c) {
				out[event] = m
				break
			}
		}
	}
	return out
}

// CursorPermissions reports whether path is a Cursor file of tool
// permissions: the CLI's cli-config.json (the user's) and cli.json (a
// project's), and permissions.json (both) with the editor's allowlists.
func CursorPermissions(path, home string) bool {
	base := filepath.Base(path)
	return (base == "cli-config.json" || base == "cli.json" || base == "permissions.json") && filepath.Base(filepath.Dir(path)) == ".cursor"
}

// cursorGrants: what a change of a Cursor file lets the agent do without
// asking: permissions.allow rules (Shell(...), Write(...), Mcp(...)),
// permissions.deny rules removed, terminal commands and MCP tools added to
// permissions.json's allowlists.
func cursorGrants(cur, res []byte) []Grant {
	curDoc, _ := parseJSONC(cur)
	resDoc, ok := parseJSONC(res)
	var g grants
	curP, resP := object(curDoc["permissions"]), object(resDoc["permissions"])
	if !ok {
		if len(strList(curP["deny"])) > 0 {
			g.add(true, "leave a file Cursor cannot read, the user's permissions.deny rules with it")
		}
		return g
	}
	g.newRules("permissions.allow", curP["allow"], resP["allow"], wideRule)
	g.removedRules("permissions.deny", curP["deny"], resP["deny"], true)
	g.newRules("terminalAllowlist", curDoc["terminalAllowlist"], resDoc["terminalAllowlist"], wideCommand)
	g.newRules("mcpAllowlist", curDoc["mcpAllowlist"], resDoc["mcpAllowlist"], func(s string) bool {
		server, _, _ := strings.Cut(s, ":")
		return onlyWild(server)
	})
	return g
}
