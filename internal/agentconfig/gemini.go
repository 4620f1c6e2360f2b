package agentconfig

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// GeminiSettings reports whether path is a Gemini CLI settings file:
// .gemini/settings.json of the user and of any project, or the system one.
func GeminiSettings(path, home string) bool {
	if filepath.Base(path) == "settings.json" && filepath.Base(filepath.Dir(path)) == ".gemini" {
		return true
	}
	return slices.Contains([]string{"/etc/gemini-cli/settings.json", "/Library/Application Support/GeminiCli/settings.json"}, path)
}

// parseJSONC decodes a JSON-with-comments file as Gemini CLI reads it.
func parseJSONC(b []byte) (map[string]any, bool) {
	if b == nil {
		return nil, false
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return nil, false
	}
	v.Standardize()
	var m map[string]any
	if json.Unmarshal(v.Pack(), &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// geminiHook is one agentjail hook under hooks.BeforeTool.
type geminiHook struct {
	entry, hook map[string]any
}

func geminiHooks(doc map[string]any) []geminiHook {
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks["BeforeTool"].([]any)
	var out []geminiHook
	for _, e := range list {
		entry, _ := e.(map[string]any)
		hs, _ := entry["hooks"].([]any)
		for _, h := range hs {
			hook, _ := h.(map[string]any)
			if c, ok := hook["command"].(string); ok && hookcmd.IsHook(c) {
				out = append(out, geminiHook{entry, hook})
			}
		}
	}
	return out
}

// judgeGemini: agentjail's BeforeTool hook must stay with the same
// command, a matcher for every tool and no shorter timeout; no switch may
// turn hooks off or disable it by name; and the file must stay one Gemini
// CLI can read.
func judgeGemini(cur, res []byte) string {
	curDoc, curOK := parseJSONC(cur)
	if !curOK {
		curDoc = map[string]any{}
	}
	resDoc, resOK := parseJSONC(res)
	ours := geminiHooks(curDoc)
	if !resOK {
		if len(ours) == 0 {
			return ""
		}
		return "leave a settings file Gemini CLI cannot read, agentjail's hook with it"
	}
	for _, sw := range [][2]string{{"hooks", "enabled"}, {"hooksConfig", "enabled"}, {"tools", "enableHooks"}} {
		obj, _ := resDoc[sw[0]].(map[string]any)
		was, _ := curDoc[sw[0]].(map[string]any)
		if v, ok := obj[sw[1]]; ok && v != true && !reflect.DeepEqual(v, was[sw[1]]) {
			return fmt.Sprintf("set %s.%s to %s, which switches hooks off", sw[0], sw[1], jsonText(v))
		}
	}
	for _, key := range []string{"hooks", "hooksConfig"} {
		obj, _ := resDoc[key].(map[string]any)
		was, _ := curDoc[key].(map[string]any)
		if d, ok := obj["disabled"]; ok && !reflect.DeepEqual(d, was["disabled"]) && strings.Contains(strings.ToLower(jsonText(d)), "agentjail") {
			return fmt.Sprintf("list agentjail's hook in %s.disabled", key)
		}
	}
	now := geminiHooks(resDoc)
	for _, want := range ours {
		problem := "remove the agentjail hook from hooks.BeforeTool"
		ok := false
		for _, got := range now {
			switch {
			case got.hook["command"] != want.hook["command"]:
				problem = "change the agentjail hook's command"
			case !geminiAll(got.entry) && !reflect.DeepEqual(got.entry["matcher"], want.entry["matcher"]):
				problem = fmt.Sprintf("change the agentjail entry's matcher to %s, which no longer matches every tool", jsonText(got.entry["matcher"]))
			case msTimeout(got.hook) < msTimeout(want.hook):
				problem = "lower the agentjail hook's timeout, so Gemini CLI would kill it and run the tool unchecked"
			default:
				ok = true
			}
			if ok {
				break
			}
		}
		if !ok {
			return problem
		}
	}
	return ""
}

// geminiAll: a matcher that matches every tool.
func geminiAll(e map[string]any) bool {
	v, ok := e["matcher"]
	if !ok {
		return true
	}
	s, ok := v.(string)
	return ok && slices.Contains([]string{"", "*", ".*"}, strings.TrimSpace(s))
}

// msTimeout is a Gemini hook's timeout in milliseconds (60000 when unset).
func msTimeout(h map[string]any) float64 {
	v, ok := h["timeout"]
	if !ok {
		return 60000
	}
	f, ok := v.(float64)
	if !ok || f <= 0 {
		return 0
	}
	return f
}

// geminiModes: general.defaultApprovalMode values by what they approve.
var (
	geminiWideModes   = []string{"yolo"}
	geminiNarrowModes = []string{"auto_edit", "autoEdit"}
	geminiSafeModes   = []string{"default", "plan"}
)

// geminiGrants: what a change of a Gemini CLI settings file lets the
// agent do without asking: tools.allowed rules, tools.exclude entries
// removed, an approval mode that approves calls, tools.autoAccept,
// trusted MCP servers, the yolo lock or the tools.core limit lifted.
// Older flat keys (allowedTools, excludeTools, autoAccept, coreTools)
// count the same.
func geminiGrants(cur, res []byte) []Grant {
	curDoc, _ := parseJSONC(cur)
	resDoc, ok := parseJSONC(res)
	var g grants
	curT, resT := object(curDoc["tools"]), object(resDoc["tools"])
	if !ok {
		if len(strList(curT["exclude"]))+len(strList(curDoc["excludeTools"])) > 0 {
			g.add(true, "leave a settings file Gemini CLI cannot read, the user's tools.exclude with it")
		}
		return g
	}
	g.newRules("tools.allowed", curT["allowed"], resT["allowed"], wideRule)
	g.newRules("allowedTools", curDoc["allowedTools"], resDoc["allowedTools"], wideRule)
	g.removedRules("tools.exclude", curT["exclude"], resT["exclude"], true)
	g.removedRules("excludeTools", curDoc["excludeTools"], resDoc["excludeTools"], true)
	if turnedOn(curT["autoAccept"], resT["autoAccept"]) || turnedOn(curDoc["autoAccept"], resDoc["autoAccept"]) {
		g.add(false, "set autoAccept, approving the calls Gemini CLI deems safe in advance")
	}
	g.mode("general.defaultApprovalMode", object(curDoc["general"])["defaultApprovalMode"], object(resDoc["general"])["defaultApprovalMode"], geminiWideModes, geminiNarrowModes, geminiSafeModes)
	g.mode("tools.approvalMode", curT["approvalMode"], resT["approvalMode"], geminiWideModes, geminiNarrowModes, geminiSafeModes)
	if object(curDoc["security"])["disableYoloMode"] == true && object(resDoc["security"])["disableYoloMode"] != true {
		g.add(false, "drop security.disableYoloMode, which keeps the agent from skipping every approval")
	}
	if (curT["core"] != nil && resT["core"] == nil) || (curDoc["coreTools"] != nil && resDoc["coreTools"] == nil) {
		g.add(false, "drop the tools.core limit on the tools the agent may use")
	}
	curMCP := object(curDoc["mcpServers"])
	for _, name := range sortedKeys(object(resDoc["mcpServers"])) {
		if turnedOn(object(curMCP[name])["trust"], object(object(resDoc["mcpServers"])[name])["trust"]) {
			g.add(false, "trust the MCP server %s, approving every call of its tools in advance", name)
		}
	}
	return g
}
