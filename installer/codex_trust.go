package installer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/agentjail/agentjail/internal/hookcmd"
)

// Codex keys a hook's trust by the hook's place in hooks.json
// ("<hooks.json>:pre_tool_use:<group>:<handler>") and skips an untrusted
// hook without a word: a hook the user puts before ours moves ours to a
// key nobody trusted. CodexHookTrust tells status so, and install writes
// the trust for where our hook is now (see codexPart.edits) and settles
// the tables it wrote for places our hook has left (pruneCodexTrust).

// codexMark begins the comment install writes above each trust table it
// adds: the tables so marked are agentjail's, and only those are ever
// removed.
const codexMark = "# agentjail's hook, trusted so Codex runs it"

// switchOn is the fix for our hook switched off in Codex.
const switchOn = "run `agentjail install --for codex` to switch it back on"

// codexCheckTimeout bounds the whole `codex app-server` exchange of
// CodexHookTrust; past it the check falls back to reading config.toml.
var codexCheckTimeout = 8 * time.Second

// Methods CodexHookTrust may use, as CodexCheck.Method says.
const (
	CodexByAppServer = "codex app-server"
	CodexByConfig    = "config.toml"
)

// CodexCheck is what CodexHookTrust found.
type CodexCheck struct {
	// Wired: agentjail's hook is in Codex's hooks.json, or install
	// recorded putting it there.
	Wired bool
	// Method is how trust was judged: CodexByAppServer (Codex's own
	// hooks/list) or CodexByConfig (agentjail's reading of hooks.json and
	// config.toml); empty when there was nothing to judge.
	Method string
	// Fallback says why Codex itself was not asked, when Method is
	// CodexByConfig.
	Fallback string
	// Key is the trust key of our hook where it is now.
	Key string
	// Problem is empty when Codex runs agentjail's hook; otherwise it
	// says what is wrong and how to fix it, for the user.
	Problem string
}

// CodexHookTrust checks that agentjail's Codex hook is still present,
// trusted and enabled, so Codex runs it. It asks Codex itself (`codex
// app-server`, hooks/list) when a codex program is on PATH, within 8 s;
// without one, or when that fails, it computes the trust key and hash
// from hooks.json and compares them with config.toml.
// It reads and never writes (Codex's app server keeps its own state
// files in CODEX_HOME). The error is for a check that could not be
// made at all.
func CodexHookTrust(ctx context.Context, o Options) (CodexCheck, error) {
	var c CodexCheck
	hooksPath := absPath(o.codexHooksPath())
	_, recorded := loadState(o.Home).Settings[o.codexHooksPath()]
	const fix = "run `agentjail install --for codex` to re-trust the hook"
	hooks, err := readThrough(hooksPath)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !bytes.Contains(hooks, []byte(hookBinary))) {
		if recorded {
			c.Wired = true
			c.Problem = fmt.Sprintf("Codex: agentjail's hook is gone from %s, so Codex's tool calls run unchecked; run `agentjail install --for codex` to put it back", hooksPath)
		}
		return c, nil
	}
	if err != nil {
		return c, err
	}
	c.Wired = true
	key, hash, err := CodexTrust(hooksPath, hooks)
	if err != nil {
		c.Problem = fmt.Sprintf("Codex: %v; Codex cannot run agentjail's hook until the file is fixed; then %s", err, fix)
		return c, nil
	}
	c.Key = key

	if codex, err := exec.LookPath("codex"); err != nil {
		c.Fallback = "no codex program on PATH"
	} else if listed, err := codexHooksList(ctx, codex, o.UserHome); err != nil {
		c.Fallback = err.Error()
	} else {
		c.Method = CodexByAppServer
		c.Problem = judgeListed(listed, hooksPath, fix)
		return c, nil
	}

	c.Method = CodexByConfig
	c.Problem, err = codexConfigProblem(o, key, hash, fix)
	return c, err
}

// codexConfigProblem judges our hook's trust (key, hash) by config.toml.
func codexConfigProblem(o Options, key, hash, fix string) (string, error) {
	cfg, err := readThrough(o.codexConfigPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	doc, err := checkTOML(o.codexConfigPath(), cfg)
	if err != nil {
		return fmt.Sprintf("Codex: %v", err), nil
	}
	trusted, _ := trustedHash(doc, key)
	switch {
	case trusted != hash:
		return fmt.Sprintf("Codex skips agentjail's hook: config.toml trusts nothing at its place (%s), so Codex's tool calls run unchecked (a hook added before it moves it); %s", key, fix), nil
	case hookDisabled(doc, key):
		return fmt.Sprintf("Codex skips agentjail's hook: config.toml switches it off (enabled = false under [hooks.state.%s]), so Codex's tool calls run unchecked; %s", tomlString(key), switchOn), nil
	}
	return "", nil
}

// codexRunsOurHook reports, by hooks.json and config.toml alone, that
// Codex would run our hook: there, trusted where it is, not switched off.
// CodexNotRunByConfig is the problem Agents reports when config.toml does
// not trust agentjail's Codex hook where it now sits in hooks.json (or
// switches it off); status replaces it with Codex's own word when it can
// ask Codex (CodexHookTrust).
const CodexNotRunByConfig = "config.toml does not trust agentjail's hook where it now sits in hooks.json, or switches it off, so Codex skips it"

func codexRunsOurHook(o Options) bool {
	hooksPath := absPath(o.codexHooksPath())
	hooks, err := readThrough(hooksPath)
	if err != nil {
		return false
	}
	key, hash, err := CodexTrust(hooksPath, hooks)
	if err != nil {
		return false
	}
	problem, err := codexConfigProblem(o, key, hash, "")
	return err == nil && problem == ""
}

// listedHook is one hook as Codex's hooks/list reports it.
type listedHook struct {
	Key         string `json:"key"`
	HandlerType string `json:"handlerType"`
	Command     string `json:"command"`
	SourcePath  string `json:"sourcePath"`
	Enabled     bool   `json:"enabled"`
	TrustStatus string `json:"trustStatus"`
}

// codexListing is what hooks/list answered for one folder.
type codexListing struct {
	Hooks    []listedHook `json:"hooks"`
	Warnings []string     `json:"warnings"`
	Errors   []struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	} `json:"errors"`
}

// judgeListed reads Codex's own account of our hook: Codex runs a hook
// that is enabled and trusted (or managed, which needs no trust).
func judgeListed(listed []codexListing, hooksPath, fix string) string {
	same := func(a, b string) bool {
		if a == b {
			return true
		}
		ra, err1 := filepath.EvalSymlinks(a)
		rb, err2 := filepath.EvalSymlinks(b)
		return err1 == nil && err2 == nil && ra == rb
	}
	var ours []listedHook
	var notes []string
	for _, l := range listed {
		for _, h := range l.Hooks {
			// The post-tool hook only reports calls that ran: the
			// pre-tool one is what must run.
			if h.HandlerType == "command" && hookcmd.IsHook(h.Command) && !hookcmd.ParseLine(h.Command).Flags.Post && same(h.SourcePath, hooksPath) {
				ours = append(ours, h)
			}
		}
		notes = append(notes, l.Warnings...)
		for _, e := range l.Errors {
			notes = append(notes, e.Path+": "+e.Message)
		}
	}
	if len(ours) == 0 {
		why := ""
		if len(notes) > 0 {
			why = " (Codex says: " + strings.Join(notes, "; ") + ")"
		}
		return fmt.Sprintf("Codex does not load agentjail's hook from %s%s, so Codex's tool calls run unchecked; check that Codex hooks are not switched off in config.toml's [features], then %s", hooksPath, why, fix)
	}
	for _, h := range ours {
		if h.Enabled && (h.TrustStatus == "trusted" || h.TrustStatus == "managed") {
			return ""
		}
	}
	h := ours[0]
	if h.TrustStatus == "trusted" || h.TrustStatus == "managed" {
		return fmt.Sprintf("Codex skips agentjail's hook: it is switched off (enabled = false for %s), so Codex's tool calls run unchecked; %s", h.Key, switchOn)
	}
	return fmt.Sprintf("Codex skips agentjail's hook: Codex reports it %s at %s (a hook added before it moves it), so Codex's tool calls run unchecked; %s", h.TrustStatus, h.Key, fix)
}

// hookDisabled reports hooks.state[key].enabled = false.
func hookDisabled(doc map[string]any, key string) bool {
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	entry, _ := state[key].(map[string]any)
	on, ok := entry["enabled"].(bool)
	return ok && !on
}

// codexHooksList asks Codex's app server (JSON-RPC, one message a line
// on stdio) for the hooks that apply in dir, within codexCheckTimeout.
func codexHooksList(ctx context.Context, codex, dir string) ([]codexListing, error) {
	ctx, cancel := context.WithTimeout(ctx, codexCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Dir = dir
	// The npm launcher passes SIGTERM on to the native server; past the
	// delay both are killed and the pipes closed.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4096}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("codex app-server: %w", err)
	}
	waited := false
	wait := func() {
		if !waited {
			stdin.Close() // the server ends at the end of its input
			cmd.Wait()    // bounded: ctx's deadline, then WaitDelay
			waited = true
		}
	}
	defer func() {
		cancel()
		wait()
	}()
	type answer struct {
		listed []codexListing
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		l, err := hooksListExchange(stdin, stdout, dir)
		done <- answer{l, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			// Its stderr is whole, and ours to read, once it has ended.
			wait()
			return nil, fmt.Errorf("codex app-server: %w%s", a.err, stderrNote(stderr.String()))
		}
		return a.listed, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("codex app-server did not answer hooks/list within %v", codexCheckTimeout)
	}
}

// hooksListExchange sends initialize and hooks/list and reads the
// answer; every message read is bounded in size.
func hooksListExchange(w io.Writer, r io.Reader, cwd string) ([]codexListing, error) {
	enc := json.NewEncoder(w)
	for _, m := range []map[string]any{
		{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"clientInfo": map[string]any{"name": "agentjail", "title": nil, "version": "1"}, "capabilities": nil}},
		{"jsonrpc": "2.0", "method": "initialized"},
		{"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{cwd}}},
	} {
		if err := enc.Encode(m); err != nil {
			return nil, err
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 8<<20)
	for sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue // a notification, or a line that is not ours to read
		}
		if m.Error != nil {
			return nil, fmt.Errorf("request %d failed: %s", *m.ID, m.Error.Message)
		}
		if *m.ID != 2 {
			continue
		}
		var res struct {
			Data []codexListing `json:"data"`
		}
		if err := json.Unmarshal(m.Result, &res); err != nil {
			return nil, fmt.Errorf("hooks/list: %w", err)
		}
		return res.Data, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("it ended without answering hooks/list")
}

func stderrNote(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return " (" + s + ")"
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// markedTable is a trust table install wrote, found by its mark.
type markedTable struct {
	from    int // where the table starts: the blank line install put before the mark, or the mark
	mark    int // the mark line, up to markEnd
	markEnd int
	end     int // the table's end
	key     string
}

// markedTables finds install's trust tables in config.toml text.
func markedTables(text string) []markedTable {
	var out []markedTable
	pos := 0
	for {
		i := strings.Index(text[pos:], codexMark)
		if i < 0 {
			return out
		}
		i += pos
		lineEnd := strings.IndexByte(text[i:], '\n')
		if lineEnd < 0 {
			return out
		}
		pos = i + lineEnd + 1
		if i > 0 && text[i-1] != '\n' {
			continue // not a comment line of ours
		}
		headerEnd := strings.IndexByte(text[pos:], '\n')
		if headerEnd < 0 {
			headerEnd = len(text) - pos
		}
		header := strings.TrimSpace(text[pos : pos+headerEnd])
		key, ok := stateKey(header)
		if !ok {
			continue
		}
		start, end, found := tomlTable(text, header)
		if !found {
			continue
		}
		// Blank and comment lines at its end go with the next table (our
		// mark, or the user's words about theirs).
		lines := strings.SplitAfter(text[start:end], "\n")
		for len(lines) > 0 {
			l := strings.TrimSpace(lines[len(lines)-1])
			if l != "" && !strings.HasPrefix(l, "#") {
				break
			}
			lines = lines[:len(lines)-1]
		}
		end = start + len(strings.Join(lines, ""))
		from := i
		if from > 0 && strings.HasSuffix(text[:from], "\n\n") {
			from-- // the blank line install put before it
		}
		out = append(out, markedTable{from: from, mark: i, markEnd: i + lineEnd + 1, end: end, key: key})
		pos = end
	}
}

// stateKey is the key of a [hooks.state."<key>"] header.
func stateKey(header string) (string, bool) {
	if !strings.HasPrefix(header, "[hooks.state.") {
		return "", false
	}
	var doc map[string]any
	if toml.Unmarshal([]byte(header+"\n"), &doc) != nil {
		return "", false
	}
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	if len(state) != 1 {
		return "", false
	}
	for k := range state {
		return k, true
	}
	return "", false
}

// pruneCodexTrust settles the trust tables install wrote, other than
// those for keep (our hooks where they are now; none at uninstall). A table
// whose trusted_hash is the hash of the hook now at its key, and that
// hook is not ours, trusts the user's own hook: the user (through Codex,
// which rewrites the value in place) trusted it there, so the table
// stays and loses our mark, and is never removed as ours. Every other
// table goes: it trusts nothing now, or a hook of ours that is leaving.
// hooksAt gives the handlers of the hooks.json a key names. It reports
// whether anything changed.
func pruneCodexTrust(file string, cur []byte, keep []string, hooksAt func(hooksPath string) []codexHandler) ([]byte, bool, error) {
	doc, err := checkTOML(file, cur)
	if err != nil {
		return nil, false, err
	}
	text := string(cur)
	tables := markedTables(text)
	changed := false
	// From the last, so earlier offsets stay right.
	for i := len(tables) - 1; i >= 0; i-- {
		t := tables[i]
		if slices.Contains(keep, t.key) {
			continue
		}
		trusted, _ := trustedHash(doc, t.key)
		if trusted != "" && userTrusted(t.key, trusted, hooksAt) {
			text = text[:t.mark] + text[t.markEnd:]
		} else {
			text = text[:t.from] + text[t.end:]
		}
		changed = true
	}
	if !changed {
		return cur, false, nil
	}
	if _, err := checkTOML(file, []byte(text)); err != nil {
		return nil, false, fmt.Errorf("%s: removing agentjail's trust entries would break the file; nothing was written: %w", file, err)
	}
	return []byte(text), true, nil
}

// userTrusted reports that the hook now at key is not ours and trusted
// is its hash.
func userTrusted(key, trusted string, hooksAt func(string) []codexHandler) bool {
	i := strings.LastIndex(key, ":pre_tool_use:")
	if j := strings.LastIndex(key, ":post_tool_use:"); j > i {
		i = j
	}
	if i < 0 {
		return false
	}
	for _, h := range hooksAt(key[:i]) {
		if h.key == key {
			return !h.ours && h.hash != "" && h.hash == trusted
		}
	}
	return false
}

// hooksOnDisk reads the handlers of a hooks.json; none when it cannot.
func hooksOnDisk(hooksPath string) []codexHandler {
	b, err := readThrough(hooksPath)
	if err != nil {
		return nil
	}
	hs, _ := codexHandlers(hooksPath, b)
	return hs
}

// removeCodexTrust takes agentjail's trust tables out of config.toml at
// uninstall, leaving those that now trust the user's own hook (see
// pruneCodexTrust).
func removeCodexTrust(file string, cur []byte) ([]byte, bool, error) {
	return pruneCodexTrust(file, cur, nil, hooksOnDisk)
}
