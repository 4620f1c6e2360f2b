package input

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/shell"
)

// TestEveryToolPaths: fields of any tool that name a file through a
// file:// URL, a Glob pattern or a Grep glob reach input.agentjail.paths
// (globs as the well-known secret files they match), and URLs reach
// input.agentjail.urls.
func TestEveryToolPaths(t *testing.T) {
	roles := &shell.Roles{Examples: []string{"~/.aws/credentials", "~/.ssh/id_rsa", "~/.npmrc"}}
	env := Env{Home: "/home/dev", ClientCwd: "/home/dev/project", Roles: roles}
	tests := []struct {
		name, event string
		paths       []string // must all be in paths
		notPaths    []string // must not be
		urls        string
	}{
		{"file uri of an MCP tool", `{"tool_name":"mcp__fs__read","tool_input":{"uri":"file:///home/dev/.ssh/id_rsa"}}`, []string{"/home/dev/.ssh/id_rsa"}, nil, "file:///home/dev/.ssh/id_rsa"},
		{"file url with localhost and escapes", `{"tool_name":"mcp__b__navigate","tool_input":{"url":"file://localhost/home/dev/.aws/cred%65ntials?x=1"}}`, []string{"/home/dev/.aws/credentials"}, nil, "file://localhost/home/dev/.aws/cred%65ntials?x=1"},
		{"https url is not a path", `{"tool_name":"WebFetch","tool_input":{"url":"https://example.com/home/dev/.npmrc","prompt":"x"}}`, nil, []string{"/home/dev/.npmrc"}, "https://example.com/home/dev/.npmrc"},
		{"urls in a list", `{"tool_name":"mcp__x__fetch_all","tool_input":{"targets":["https://a.example","ftp://b.example/x"]}}`, nil, nil, "https://a.example,ftp://b.example/x"},
		{"glob pattern matching a secret", `{"tool_name":"Glob","tool_input":{"path":"~","pattern":".ss?/id_*"}}`, []string{"/home/dev/.ssh/id_rsa"}, []string{"/home/dev/.aws/credentials"}, ""},
		{"glob pattern matching none", `{"tool_name":"Glob","tool_input":{"path":"~","pattern":"project/**/*.md"}}`, nil, []string{"/home/dev/.ssh/id_rsa", "/home/dev/.npmrc"}, ""},
		{"grep glob at any depth", `{"tool_name":"Grep","tool_input":{"path":"~","pattern":"x","glob":".npmrc"}}`, []string{"/home/dev/.npmrc"}, nil, ""},
		{"grep glob under a folder", `{"tool_name":"Grep","tool_input":{"path":"~","pattern":"x","glob":"project/**/*.go"}}`, nil, []string{"/home/dev/.npmrc"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, d, err := Build([]byte(tt.event), env)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.paths {
				if !slices.Contains(d.Paths, p) {
					t.Errorf("paths %v, want %s among them", d.Paths, p)
				}
			}
			for _, p := range tt.notPaths {
				if slices.Contains(d.Paths, p) {
					t.Errorf("paths %v, want no %s", d.Paths, p)
				}
			}
			if got := strings.Join(d.URLs, ","); got != tt.urls {
				t.Errorf("urls %q, want %q", got, tt.urls)
			}
		})
	}
}
