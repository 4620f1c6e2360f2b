package input

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	env := Env{Home: "/home/dev", AgentjailHome: "/home/dev/.agentjail", ClientCwd: "/work/hookcwd"}
	tests := []struct {
		name     string
		event    string
		cwd      string
		filePath string
	}{
		{"absolute cwd kept", `{"tool_name":"Bash","cwd":"/work/p","tool_input":{"command":"ls"}}`, "/work/p", ""},
		{"no cwd uses the hook's", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, "/work/hookcwd", ""},
		{"relative cwd against the hook's", `{"tool_name":"Bash","cwd":"sub/../p","tool_input":{}}`, "/work/hookcwd/p", ""},
		{"cwd cleaned", `{"cwd":"/work/p/./a/..//b/"}`, "/work/p/b", ""},
		{"relative file_path", `{"tool_name":"Read","cwd":"/work/p","tool_input":{"file_path":"src/../.env"}}`, "/work/p", "/work/p/.env"},
		{"tilde file_path", `{"tool_name":"Read","cwd":"/work/p","tool_input":{"file_path":"~/.ssh/../.ssh/id_rsa"}}`, "/work/p", "/home/dev/.ssh/id_rsa"},
		{"$HOME file_path", `{"tool_name":"Read","cwd":"/work/p","tool_input":{"file_path":"${HOME}/.aws/credentials"}}`, "/work/p", "/home/dev/.aws/credentials"},
		{"notebook_path", `{"tool_name":"NotebookEdit","cwd":"/w","tool_input":{"notebook_path":"a.ipynb"}}`, "/w", "/w/a.ipynb"},
		{"grep path", `{"tool_name":"Grep","cwd":"/w","tool_input":{"pattern":"x","path":"."}}`, "/w", "/w"},
		{"tilde not at start is literal", `{"tool_name":"Read","cwd":"/w","tool_input":{"file_path":"a~/b"}}`, "/w", "/w/a~/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, d, err := Build([]byte(tt.event), env)
			if err != nil {
				t.Fatal(err)
			}
			if d.Cwd != tt.cwd || d.FilePath != tt.filePath {
				t.Errorf("cwd %q file_path %q, want %q %q", d.Cwd, d.FilePath, tt.cwd, tt.filePath)
			}
			m := in[Key].(map[string]any)
			if m["home"] != "/home/dev" || m["agent"] != "claude-code" || m["cwd"] != tt.cwd {
				t.Errorf("derived map %v", m)
			}
		})
	}
}

func TestBuildKeepsUnknownFieldsAndOverridesKey(t *testing.T) {
	in, _, err := Build([]byte(`{"tool_name":"Bash","future_field":{"n":12345678901234567890},"agentjail":{"home":"/forged"}}`), Env{Home: "/home/dev"})
	if err != nil {
		t.Fatal(err)
	}
	ff := in["future_field"].(map[string]any)
	if n, ok := ff["n"].(json.Number); !ok || n.String() != "12345678901234567890" {
		t.Errorf("unknown field changed: %#v", ff)
	}
	if in[Key].(map[string]any)["home"] != "/home/dev" {
		t.Errorf("the event could forge derived fields: %v", in[Key])
	}
}

func TestBuildRejectsNonObjects(t *testing.T) {
	for _, ev := range []string{``, `[]`, `"x"`, `null`, `{"a":1} {"b":2}`, `{"a":`, `garbage`} {
		if _, _, err := Build([]byte(ev), Env{}); err != ErrNotObject {
			t.Errorf("Build(%q) err = %v, want ErrNotObject", ev, err)
		}
	}
}

func TestUnusualPaths(t *testing.T) {
	env := Env{Home: "/home/dev", AgentjailHome: "/home/dev/.agentjail"}
	tests := []struct {
		name, cwd string
		want      string
	}{
		// go test ./... names no hidden folder.
		{"ordinary project: only paths outside it", "/home/dev/project", "/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa"},
		{"the home directory: all", "/home/dev", "/home/dev/project/a,/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa,/home/dev/project/..."},
		{"a top-level folder: all", "/srv", "/home/dev/project/a,/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa,/home/dev/project/..."},
		{"a hidden folder: all", "/home/dev/.aws", "/home/dev/project/a,/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa,/home/dev/project/..."},
		{"agentjail's home: all", "/home/dev/.agentjail/policies", "/home/dev/project/a,/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa,/home/dev/project/..."},
		{"a system folder: all", "/usr/local/src", "/home/dev/project/a,/home/dev/other,/etc/hosts,/home/dev/project/.ssh/id_rsa,/home/dev/project/..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unusual([]string{"/home/dev/project/a", "/home/dev/other", "/etc/hosts", "/home/dev/project/.ssh/id_rsa", "/home/dev/project/..."}, tt.cwd, env.Home, env.AgentjailHome)
			if strings.Join(got, ",") != tt.want {
				t.Errorf("unusual in %s = %v, want %s", tt.cwd, got, tt.want)
			}
		})
	}
}

// TestUnusualFlag: input.agentjail.unusual is set exactly when a path or
// a write is unusual, and a write that is not among the paths counts.
func TestUnusualFlag(t *testing.T) {
	env := Env{Home: "/home/dev"}
	tests := []struct {
		event string
		want  bool
	}{
		{`{"tool_name":"Bash","cwd":"/home/dev/project","tool_input":{"command":"go test ./... && ls src"}}`, false},
		{`{"tool_name":"Bash","cwd":"/home/dev/project","tool_input":{"command":"cat ~/.bash_history"}}`, true},
		{`{"tool_name":"Edit","cwd":"/home/dev/project","tool_input":{"file_path":"main.go"}}`, false},
		{`{"tool_name":"Write","cwd":"/home/dev/project","tool_input":{"file_path":"/home/dev/.zshrc"}}`, true},
	}
	for _, tt := range tests {
		in, _, err := Build([]byte(tt.event), env)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := in["agentjail"].(map[string]any)["unusual"].(bool)
		if got != tt.want {
			t.Errorf("%s: unusual = %v, want %v", tt.event, got, tt.want)
		}
	}
}
