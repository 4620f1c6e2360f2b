package installer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// codexPart is the Codex CLI. The hook goes into $CODEX_HOME/hooks.json
// (default ~/.codex), in Claude Code's entry format; Codex runs a hook
// that is not managed only once it is trusted, so install also writes
// the hook's trust into config.toml as Codex itself does when a user
// approves it: [hooks.state."<key>"] trusted_hash = "<hash>".
type codexPart struct{}

func (codexPart) name() string { return "codex" }

func (codexPart) dir(o Options) string   { return o.codexHome() }
func (codexPart) off(o Options) []string { return o.codexOff() }

func (o Options) codexHome() string {
	if h := os.Getenv("CODEX_HOME"); h != "" {
		return h
	}
	return filepath.Join(o.UserHome, ".codex")
}

func (o Options) codexHooksPath() string  { return filepath.Join(o.codexHome(), "hooks.json") }
func (o Options) codexConfigPath() string { return filepath.Join(o.codexHome(), "config.toml") }

func (p codexPart) found(o Options) bool { return foundByFacts(p, o.codexHome()) }

// problems: our trust table may be for a place our hook has left.
func (codexPart) problems(o Options) []string {
	if !o.System && !codexRunsOurHook(o) {
		return []string{CodexNotRunByConfig}
	}
	return nil
}

// codexEntry is the hooks.json entry. Codex's timeout is agentTimeout,
// in seconds, like Claude Code's.
func (o Options) codexEntry() HookEntry {
	return HookEntry{Matcher: "*", Hooks: []HookCommand{{
		Type:    "command",
		Command: o.agentHookCommand("codex"),
		Timeout: int(o.agentTimeout() / time.Second),
	}}}
}

func (codexPart) edits(o Options) []fileEdit {
	if o.System {
		return []fileEdit{{path: codexRequirements, add: func(old []byte) ([]byte, error) {
			var post HookEntry
			if postEvent("codex") != "" {
				post = o.postEntry(o.codexEntry())
			}
			return addCodexRequirements(codexRequirements, old, o.codexEntry(), post, o.ManagedHooksOnly)
		}}}
	}
	hooksPath, configPath := o.codexHooksPath(), o.codexConfigPath()
	addHooks := func(old []byte) ([]byte, error) { return o.addHooks("codex", hooksPath, old, o.codexEntry()) }
	return []fileEdit{
		{path: hooksPath, add: addHooks},
		{path: configPath, add: func(old []byte) ([]byte, error) {
			// The trust is for the hook as hooks.json will hold it.
			cur, err := readThrough(hooksPath)
			if err != nil {
				cur = nil
			}
			hooks, err := addHooks(cur)
			if err != nil {
				return nil, err
			}
			abs := absPath(hooksPath)
			handlers, err := codexHandlers(abs, hooks)
			if err != nil {
				return nil, err
			}
			if _, _, err := CodexTrust(abs, hooks); err != nil {
				return nil, err
			}
			// Each of our hooks (pre-tool and post-tool) is trusted at
			// its own key.
			out := old
			var keys []string
			for _, h := range handlers {
				if !h.ours {
					continue
				}
				if out, err = addCodexTrust(configPath, out, h.key, h.hash); err != nil {
					return nil, err
				}
				keys = append(keys, h.key)
			}
			// The trust install wrote for places our hook has left goes,
			// unless the user has since trusted their own hook there.
			hooksAt := func(p string) []codexHandler {
				if p == abs {
					return handlers
				}
				return hooksOnDisk(p)
			}
			out, _, err = pruneCodexTrust(configPath, out, keys, hooksAt)
			return out, err
		}},
	}
}

func (codexPart) known(o Options) []string {
	if o.System {
		return []string{codexRequirements}
	}
	return []string{o.codexHooksPath(), o.codexConfigPath()}
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// CodexTrust finds agentjail's hook in a Codex hooks.json (at hooksPath,
// absolute) and returns its trust key and the hash Codex computes for
// it (see codexHandlers). Codex's `app-server` reports both through
// hooks/list, as key and currentHash.
func CodexTrust(hooksPath string, hooks []byte) (key, hash string, err error) {
	handlers, err := codexHandlers(hooksPath, hooks)
	if err != nil {
		return "", "", err
	}
	for _, h := range handlers {
		if h.ours && h.event == "pre_tool_use" {
			return h.key, h.hash, nil
		}
	}
	return "", "", fmt.Errorf("%s has no agentjail hook under PreToolUse", hooksPath)
}

// codexHandler is one PreToolUse or PostToolUse handler of a Codex
// hooks.json, counted as Codex counts it.
type codexHandler struct {
	// event is Codex's name of its event: pre_tool_use or post_tool_use.
	event string
	// key is Codex's trust key, "<hooks.json>:<event>:<group>:<handler>":
	// every handler of a group counts, those Codex skips (a prompt hook,
	// an empty command) included.
	key string
	// ours: a command handler that runs agentjail-hook.
	ours bool
	// hash is "sha256:" and the SHA-256 of the handler's identity
	// ({"event_name","hooks":[{"additionalContextLimit","async",
	// "command","statusMessage","timeout","type"}],"matcher"}, absent
	// optional fields left out) as canonical JSON (keys sorted, no
	// spaces), as Codex 0.169.0 computes it; "" for a handler that is
	// not a command or has a field of a kind Codex would not read.
	hash string
}

// codexHandlers lists the PreToolUse and PostToolUse handlers of a
// Codex hooks.json.
func codexHandlers(hooksPath string, hooks []byte) ([]codexHandler, error) {
	type group struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Type    string          `json:"type"`
			Command string          `json:"command"`
			Timeout *uint64         `json:"timeout"`
			Async   bool            `json:"async"`
			Status  *string         `json:"statusMessage"`
			Limit   json.RawMessage `json:"additionalContextLimit"`
		} `json:"hooks"`
	}
	var doc struct {
		Hooks struct {
			PreToolUse  []group `json:"PreToolUse"`
			PostToolUse []group `json:"PostToolUse"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(hooks, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", hooksPath, err)
	}
	var out []codexHandler
	for _, ev := range []struct {
		name   string
		groups []group
	}{{"pre_tool_use", doc.Hooks.PreToolUse}, {"post_tool_use", doc.Hooks.PostToolUse}} {
		for g, group := range ev.groups {
			for h, hook := range group.Hooks {
				c := codexHandler{
					event: ev.name,
					key:   fmt.Sprintf("%s:%s:%d:%d", hooksPath, ev.name, g, h),
					ours:  hook.Type == "command" && hookcmd.IsHook(hook.Command),
				}
				limit, limitOK := contextLimit(hook.Limit)
				if hook.Type == "command" && limitOK {
					timeout := uint64(600) // Codex's default
					if hook.Timeout != nil {
						timeout = max(*hook.Timeout, 1)
					}
					var b strings.Builder
					b.WriteString(`{"event_name":"` + ev.name + `","hooks":[{`)
					if limit != "" {
						b.WriteString(`"additionalContextLimit":` + limit + ",")
					}
					fmt.Fprintf(&b, `"async":%t`, hook.Async)
					b.WriteString(`,"command":` + serdeString(hook.Command))
					if hook.Status != nil {
						b.WriteString(`,"statusMessage":` + serdeString(*hook.Status))
					}
					fmt.Fprintf(&b, `,"timeout":%d,"type":"command"}]`, timeout)
					if group.Matcher != nil {
						b.WriteString(`,"matcher":` + serdeString(*group.Matcher))
					}
					b.WriteString("}")
					sum := sha256.Sum256([]byte(b.String()))
					c.hash = "sha256:" + hex.EncodeToString(sum[:])
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// contextLimit is a handler's additionalContextLimit as Codex writes it
// into the hash ("" when absent or null); ok is false for a value that
// is not a whole number, whose hash agentjail does not know.
func contextLimit(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}

// serdeString encodes s as serde_json does: only ", \ and control
// characters escaped (Go's encoder also escapes <, >, & and U+2028/9,
// which would change the hash).
func serdeString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// trustHeader is the table header of one hook's trust state.
func trustHeader(key string) string { return "[hooks.state." + tomlString(key) + "]" }

// checkTOML reports where src stops being valid TOML.
func checkTOML(file string, src []byte) (map[string]any, error) {
	var doc map[string]any
	if err := toml.Unmarshal(src, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: not valid TOML (%s); fix or move the file, nothing was written", file, row, col, de.Error())
		}
		return nil, fmt.Errorf("%s: not valid TOML (%v); fix or move the file, nothing was written", file, err)
	}
	return doc, nil
}

// trustedHash is hooks.state[key].trusted_hash in a decoded config.toml.
func trustedHash(doc map[string]any, key string) (string, bool) {
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	entry, _ := state[key].(map[string]any)
	h, ok := entry["trusted_hash"].(string)
	return h, ok
}

// addCodexTrust returns config.toml with hooks.state[key].trusted_hash =
// hash: the line replaced in place when our table is there, else the
// table appended; everything else byte for byte.
func addCodexTrust(file string, old []byte, key, hash string) ([]byte, error) {
	doc, err := checkTOML(file, old)
	if err != nil {
		return nil, err
	}
	if h, ok := trustedHash(doc, key); ok && h == hash && !hookDisabled(doc, key) {
		return old, nil
	}
	text := string(old)
	line := "trusted_hash = " + tomlString(hash)
	start, end, found := tomlTable(text, trustHeader(key))
	var out string
	if found {
		body := text[start:end]
		re := regexp.MustCompile(`(?m)^[ \t]*trusted_hash[ \t]*=.*$`)
		if re.MatchString(body) {
			body = re.ReplaceAllLiteralString(body, line)
		} else {
			body = strings.TrimRight(body, "\n") + "\n" + line + "\n"
		}
		// Install is the user asking to be guarded: a hook switched off
		// in Codex (its /hooks) is switched on again.
		body = regexp.MustCompile(`(?m)^[ \t]*enabled[ \t]*=[ \t]*false[ \t]*(#.*)?(\r?\n|$)`).ReplaceAllLiteralString(body, "")
		out = text[:start] + body + text[end:]
	} else {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		out = text + "# agentjail's hook, trusted so Codex runs it (agentjail install --for codex)\n" + trustHeader(key) + "\n" + line + "\n"
	}
	res, err := checkTOML(file, []byte(out))
	if h, _ := trustedHash(res, key); err != nil || h != hash || hookDisabled(res, key) {
		return nil, fmt.Errorf("%s defines hooks.state in a form agentjail cannot edit in place; nothing was written. Add these lines to it yourself:\n%s\n%s", file, trustHeader(key), line)
	}
	return []byte(out), nil
}

// tomlTable finds the table with exactly this header: the offsets of its
// body (after the header line, up to the next header or the end).
func tomlTable(text, header string) (start, end int, found bool) {
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == header {
			start = off + len(l)
			end = len(text)
			o := start
			for _, next := range lines[i+1:] {
				t := strings.TrimSpace(next)
				if strings.HasPrefix(t, "[") {
					end = o
					break
				}
				o += len(next)
			}
			return start, end, true
		}
		off += len(l)
	}
	return 0, 0, false
}
