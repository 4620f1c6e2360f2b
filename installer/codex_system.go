package installer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// In system mode Codex's hook goes into its requirements file
// (/etc/codex/requirements.toml), which Codex reads as managed: the hook
// runs without the trust review a user's hooks need, and no user
// setting removes it. Only the hooks feature switch could still turn
// every hook off from the user's side (~/.codex/config.toml, -c
// features.hooks=false, --disable hooks), so the file also pins
// [features] hooks = true, which Codex then holds against every layer.
// Codex refuses to start at all when the file does not parse, so what
// install writes is parsed again before it is used.

const (
	codexBlockBegin = "# agentjail: begin (sudo agentjail uninstall --system takes this out)"
	codexBlockEnd   = "# agentjail: end"
)

// addCodexRequirements returns the requirements file with our block:
// the feature pin (unless the file pins it already) and our PreToolUse
// hook (and its PostToolUse twin, post, unless that is empty) at the end, and with managedOnly, allow_managed_hooks_only at
// the top, where a top-level key must be. A file that pins hooks off,
// or has a [features] table without the key, is refused: only its
// owner can say what it meant.
func addCodexRequirements(file string, old []byte, entry, post HookEntry, managedOnly bool) ([]byte, error) {
	var doc map[string]any
	if err := toml.Unmarshal(old, &doc); err != nil {
		return nil, fmt.Errorf("%s: not valid TOML (%v); fix it first: Codex does not start while it is broken", file, err)
	}
	base, _, err := removeCodexRequirements(file, old)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = []byte{}
	}
	doc = nil
	toml.Unmarshal(base, &doc)
	var tail strings.Builder
	tail.WriteString(codexBlockBegin + "\n")
	features, hasFeatures := doc["features"].(map[string]any)
	switch on, set := features["hooks"].(bool); {
	case set && !on:
		return nil, fmt.Errorf("%s: [features] hooks = false switches every Codex hook off, agentjail's too; remove it first", file)
	case set:
	case hasFeatures:
		return nil, fmt.Errorf("%s: add `hooks = true` under its [features] table, then run install again (agentjail must pin it, or a user setting could switch hooks off)", file)
	default:
		tail.WriteString("[features]\nhooks = true\n")
	}
	for _, ev := range []struct {
		name  string
		entry HookEntry
	}{{"PreToolUse", entry}, {"PostToolUse", post}} {
		for _, h := range ev.entry.Hooks {
			fmt.Fprintf(&tail, "[[hooks.%[1]s]]\nmatcher = %[2]s\n[[hooks.%[1]s.hooks]]\ntype = %[3]s\ncommand = %[4]s\ntimeout = %[5]d\n",
				ev.name, strconv.Quote(ev.entry.Matcher), strconv.Quote(h.Type), tomlString(h.Command), h.Timeout)
		}
	}
	tail.WriteString(codexBlockEnd + "\n")
	var out []byte
	if managedOnly {
		out = append(out, codexBlockBegin+"\nallow_managed_hooks_only = true\n"+codexBlockEnd+"\n"...)
	}
	out = append(out, base...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, tail.String()...)
	if err := checkCodexRequirements(out, entry); err != nil {
		return nil, fmt.Errorf("%s: agentjail's hook cannot be added to it (%v); nothing was written", file, err)
	}
	if bytes.Equal(out, old) {
		return old, nil
	}
	return out, nil
}

// checkCodexRequirements parses what install would write and finds our
// hook and the feature pin in it.
func checkCodexRequirements(text []byte, entry HookEntry) error {
	var doc struct {
		Features struct {
			Hooks *bool `toml:"hooks"`
		} `toml:"features"`
		Hooks struct {
			PreToolUse []struct {
				Hooks []struct {
					Command string `toml:"command"`
				} `toml:"hooks"`
			} `toml:"PreToolUse"`
		} `toml:"hooks"`
	}
	if err := toml.Unmarshal(text, &doc); err != nil {
		return err
	}
	if doc.Features.Hooks == nil || !*doc.Features.Hooks {
		return fmt.Errorf("[features] hooks is not true")
	}
	for _, e := range doc.Hooks.PreToolUse {
		for _, h := range e.Hooks {
			if h.Command == entry.Hooks[0].Command {
				return nil
			}
		}
	}
	return fmt.Errorf("the hook is not among hooks.PreToolUse")
}

// removeCodexRequirements takes our blocks out; nil when nothing else
// is left.
func removeCodexRequirements(file string, cur []byte) ([]byte, bool, error) {
	var out []byte
	removed, inside := false, false
	for _, line := range bytes.SplitAfter(cur, []byte("\n")) {
		t := string(bytes.TrimSpace(line))
		switch {
		case t == codexBlockBegin:
			inside, removed = true, true
		case inside && t == codexBlockEnd:
			inside = false
		case !inside:
			out = append(out, line...)
		}
	}
	if inside {
		return nil, false, fmt.Errorf("%s: agentjail's block has no end line; take it out by hand", file)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, removed, nil
	}
	return out, removed, nil
}
