package installer

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentjail/agentjail/agents/pi"
)

// piPart is the pi coding agent: an extension of our own,
// agentjail.ts in pi's extensions folder (~/.pi/agent/extensions, every
// *.ts and *.js there is loaded), that runs the hook from its tool_call
// handler. Nothing of the user's is edited. pi reads no machine-wide
// folder, so a system install has nothing to write for it.
type piPart struct{}

func (piPart) name() string { return "pi" }

func (piPart) dir(o Options) string   { return o.piAgentDir() }
func (piPart) off(o Options) []string { return o.piOff() }

// piAgentDir is pi's own folder: $PI_CODING_AGENT_DIR ("~/" expanded, as
// pi does), else ~/.pi/agent.
func (o Options) piAgentDir() string {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		switch {
		case d == "~":
			return o.UserHome
		case strings.HasPrefix(d, "~/"):
			return filepath.Join(o.UserHome, d[2:])
		}
		return d
	}
	return filepath.Join(o.UserHome, ".pi", "agent")
}

// piExtensionName is our extension's file name in pi's extensions folder.
const piExtensionName = "agentjail.ts"

func (o Options) piExtensionPath() string {
	return filepath.Join(o.piAgentDir(), "extensions", piExtensionName)
}

func (piPart) found(o Options) bool {
	return isDir(o.piAgentDir()) || isDir(filepath.Join(o.UserHome, ".pi")) || onPath("pi")
}

func (piPart) edits(o Options) []fileEdit {
	if o.System {
		return nil
	}
	return []fileEdit{{path: o.piExtensionPath(), add: func([]byte) ([]byte, error) { return o.piExtension(), nil }}}
}

func (piPart) known(o Options) []string {
	if o.System {
		return nil
	}
	return []string{o.piExtensionPath()}
}

// piConfig is the settings install writes into the extension: the hook
// command, how long the extension waits for it (agentTimeout, as the
// other agents' timeouts are; pi itself
// waits for a tool_call handler as long as it takes), and whether a hook
// that cannot run or answer blocks the call (fail_mode: closed).
// Post is the hook the extension runs after a call has run, and how
// long it waits for it (postTimeout); nil when pi has no post-tool event
// wired.
type piConfig struct {
	Command    string      `json:"command"`
	TimeoutMs  int64       `json:"timeoutMs"`
	FailClosed bool        `json:"failClosed"`
	Post       *piPostHook `json:"post,omitempty"`
}

type piPostHook struct {
	Command   string `json:"command"`
	TimeoutMs int64  `json:"timeoutMs"`
}

func (o Options) piExtension() []byte {
	cmd := o.agentHookCommand("pi")
	c := piConfig{Command: cmd, TimeoutMs: o.agentTimeout().Milliseconds(), FailClosed: o.FailClosed}
	if postEvent("pi") != "" {
		c.Post = &piPostHook{postCommand(cmd), o.postTimeout().Milliseconds()}
	}
	var cfg bytes.Buffer
	jsonEncoder(&cfg).Encode(c)
	line := pi.ConfigPrefix + strings.TrimSpace(cfg.String()) + ";"
	var out strings.Builder
	for _, l := range strings.SplitAfter(pi.Extension, "\n") {
		if strings.HasPrefix(l, pi.ConfigPrefix) {
			out.WriteString(line + "\n")
			continue
		}
		out.WriteString(l)
	}
	return []byte(out.String())
}

// piConfigOf is the settings line of an extension install wrote, as a
// JSON object (what entryProblems reads); nil if there is none.
func piConfigOf(src []byte) []byte {
	for _, l := range bytes.Split(src, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(l, []byte(pi.ConfigPrefix)); ok {
			return bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(";"))
		}
	}
	return nil
}

// removePiExtension: the file is ours when it runs agentjail's hook;
// then it goes whole.
func removePiExtension(file string, cur []byte) ([]byte, bool, error) {
	if piConfigOf(cur) == nil || !bytes.Contains(cur, []byte(hookBinary)) {
		return cur, false, nil
	}
	return nil, true, nil
}

// isPiExtension reports a path that is our extension in a pi extensions
// folder.
func isPiExtension(p string) bool {
	return filepath.Base(p) == piExtensionName && filepath.Base(filepath.Dir(p)) == "extensions"
}

// piOff: the "extensions" list of pi's settings.json can turn an
// auto-discovered extension off, with "!pattern" (a glob) or "-path" (an
// exact path, which wins over a "+path" that turns it back on). pi
// matches a pattern against the path relative to its folder, the file's
// name and its absolute path. pi's --no-extensions flag (-ne) is given
// per run and cannot be seen from here.
func (o Options) piOff() []string {
	if o.System {
		return nil
	}
	f := filepath.Join(o.piAgentDir(), "settings.json")
	doc := readSettingsJSON(f)
	if doc == nil {
		return nil
	}
	list, _ := doc["extensions"].([]any)
	ext := filepath.ToSlash(o.piExtensionPath())
	rel := "extensions/" + piExtensionName
	on, why := true, ""
	var forced, dropped string
	for _, e := range list {
		s, _ := e.(string)
		switch {
		case strings.HasPrefix(s, "!") && piGlob(s[1:], rel, piExtensionName, ext):
			on, why = false, s
		case strings.HasPrefix(s, "+") && piExact(s[1:], rel, ext):
			forced = s
		case strings.HasPrefix(s, "-") && piExact(s[1:], rel, ext):
			dropped = s
		}
	}
	if forced != "" {
		on = true
	}
	if dropped != "" {
		on, why = false, dropped
	}
	if on {
		return nil
	}
	return []string{fmt.Sprintf(`%s lists %q under "extensions", so pi does not load agentjail's extension and runs every tool unchecked: remove that entry`, o.tildePath(f), why)}
}

func piExact(pattern string, names ...string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	for _, n := range names {
		if pattern == n {
			return true
		}
	}
	return false
}

// piGlob matches as pi's minimatch does for the patterns people write:
// * and ? within a path segment, ** across segments.
func piGlob(pattern string, names ...string) bool {
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '*' && i+1 < len(pattern) && pattern[i+1] == '*':
			re.WriteString(".*")
			i++
			if i+1 < len(pattern) && pattern[i+1] == '/' {
				re.WriteString("/?")
				i++
			}
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	r, err := regexp.Compile(re.String())
	for _, n := range names {
		if err == nil && r.MatchString(n) {
			return true
		}
		if ok, _ := path.Match(pattern, n); ok {
			return true
		}
	}
	return false
}
