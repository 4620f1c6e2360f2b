package installer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentjail/agentjail/agents/opencode"
	"github.com/agentjail/agentjail/internal/hookcmd"
)

// pluginPart is opencode or Kilo CLI: no hook commands, but every
// *.js in $XDG_CONFIG_HOME/opencode/plugin/ (kilo/plugin/ for Kilo) is
// loaded as a plugin. Ours is a file of its own there, so nothing of the
// user's (other plugins, opencode.json) is edited at all.
//
// Neither reads a plugin folder machine-wide: /etc/opencode and
// /etc/kilo hold only their JSON settings, so system mode writes
// nothing for them.
type pluginPart struct{ agent string }

// pluginFile is our plugin's name in the agents' plugin folders.
const pluginFile = "agentjail.js"

func (p pluginPart) name() string { return p.agent }

// dir is the agent's global configuration folder: under
// $XDG_CONFIG_HOME when that is this user's (the install is for the home
// in $HOME), else under ~/.config.
func (p pluginPart) dir(o Options) string {
	base := filepath.Join(o.UserHome, ".config")
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) && filepath.Clean(os.Getenv("HOME")) == filepath.Clean(o.UserHome) {
		base = x
	}
	return filepath.Join(base, p.agent)
}

func (p pluginPart) found(o Options) bool {
	return isDir(p.dir(o)) || onPath(p.agent) || p.agent == "kilo" && onPath("kilocode")
}

// off: --pure, or its variable, runs the agent without plugins.
func (p pluginPart) off(o Options) []string {
	v := strings.ToUpper(p.agent) + "_PURE"
	if s := os.Getenv(v); s != "" && s != "0" && s != "false" {
		return []string{fmt.Sprintf("%s is set in this environment, so %s loads no plugins: unset it (and do not run it with --pure)", v, facts(p).Title)}
	}
	return nil
}

// pluginPaths are where our plugin may be: the agents read both plugin/
// and plugins/.
func (p pluginPart) pluginPaths(o Options) []string {
	return []string{filepath.Join(p.dir(o), "plugin", pluginFile), filepath.Join(p.dir(o), "plugins", pluginFile)}
}

// pluginPath is where install writes it: plugins/ when the user keeps
// plugins there and not in plugin/, else plugin/.
func (p pluginPart) pluginPath(o Options) string {
	paths := p.pluginPaths(o)
	for _, path := range paths {
		if _, err := os.Lstat(path); err == nil {
			return path // ours from an earlier install
		}
	}
	if !isDir(filepath.Dir(paths[0])) && isDir(filepath.Dir(paths[1])) {
		return paths[1]
	}
	return paths[0]
}

func (p pluginPart) edits(o Options) []fileEdit {
	if o.System {
		return nil
	}
	return []fileEdit{{path: p.pluginPath(o), add: func([]byte) ([]byte, error) { return o.pluginText(p.agent) }}}
}

func (p pluginPart) known(o Options) []string {
	if o.System {
		return nil
	}
	return p.pluginPaths(o)
}

// pluginSettings is the plugin's settings line: the hook as argv (run
// without a shell), how long the plugin waits for it (agentTimeout, so
// the hook's fail mode or a held call's answer decides), and
// whether a hook that gives no answer at all blocks the call: it does,
// unless the hook was installed with --fail-closed=false. For an agent
// with a post-tool event, Post is the hook's argv for it (--post) and
// PostTimeoutMs its wait there; without them the plugin sends none.
type pluginSettings struct {
	Agent         string   `json:"agent"`
	Command       string   `json:"command"`
	Hook          []string `json:"hook"`
	TimeoutMs     int64    `json:"timeoutMs"`
	FailClosed    bool     `json:"failClosed"`
	Post          []string `json:"post,omitempty"`
	PostTimeoutMs int64    `json:"postTimeoutMs,omitempty"`
}

// pluginText is our plugin with its settings filled in.
func (o Options) pluginText(agentName string) ([]byte, error) {
	cmd := o.agentHookCommand(agentName)
	s := pluginSettings{
		Agent:      agentName,
		Command:    cmd,
		Hook:       hookcmd.Split(cmd),
		TimeoutMs:  o.agentTimeout().Milliseconds(),
		FailClosed: !strings.Contains(cmd, "--fail-closed=false"),
	}
	if postEvent(agentName) != "" {
		s.Post, s.PostTimeoutMs = hookcmd.Split(postCommand(cmd)), o.postTimeout().Milliseconds()
	}
	var b bytes.Buffer
	enc := jsonEncoder(&b)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	blank := "const SETTINGS = null; " + opencode.SettingsMarker
	if strings.Count(opencode.Plugin, blank) != 1 {
		return nil, fmt.Errorf("the built-in plugin has no settings line %q", blank)
	}
	line := "const SETTINGS = " + strings.TrimSpace(b.String()) + "; " + opencode.SettingsMarker
	return []byte(strings.Replace(opencode.Plugin, blank, line, 1)), nil
}

// pluginSettingsJSON is the JSON of the plugin's settings line, for the
// checks that read an agent's hook command (hookCommandsIn); ok is false
// for any other file.
func pluginSettingsJSON(src []byte) ([]byte, bool) {
	for _, line := range bytes.Split(src, []byte("\n")) {
		rest, found := bytes.CutPrefix(bytes.TrimSpace(line), []byte("const SETTINGS = "))
		if !found {
			continue
		}
		if js, found := bytes.CutSuffix(rest, []byte("; "+opencode.SettingsMarker)); found {
			return js, true
		}
	}
	return nil, false
}

// isPluginPath reports a path where install writes our plugin.
func isPluginPath(path string) bool {
	d := filepath.Base(filepath.Dir(path))
	return filepath.Base(path) == pluginFile && (d == "plugin" || d == "plugins")
}

// removePlugin: the file is ours (it carries our settings line); it goes
// whole. A file of that name without it is the user's, and stays.
func removePlugin(file string, cur []byte) ([]byte, bool, error) {
	if !bytes.Contains(cur, []byte(opencode.SettingsMarker)) {
		return cur, false, nil
	}
	return nil, true, nil
}
