package input

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMapShape pins the shape of input.agentjail: which fields are
// there for a shell call and for a read, empty ones included (rules test
// count(x) == 0, which an absent field would fail), and the Go type of
// each, which decides the type OPA sees.
func TestMapShape(t *testing.T) {
	common := "agent:string agentjail_home:string cwd:string daemon:map[string]interface {} daemon_pid:int home:string paths:[]interface {} " +
		"prefixes:[]interface {} socket:string temp:string tool:string tool_kind:string tool_name:string " +
		"unusual_paths:[]interface {} urls:[]interface {} writes:[]interface {}"
	tests := []struct {
		name, event string
		want        string
	}{
		{"shell", `{"tool_name":"Bash","tool_input":{"command":"A=1 ls -l src > out.txt"}}`,
			common + " command:string commands:[]interface {} kinds:[]interface {} names:[]interface {}"},
		{"empty shell command", `{"tool_name":"Bash","tool_input":{"command":""}}`,
			common + " command:string commands:[]interface {} kinds:[]interface {} names:[]interface {}"},
		{"read", `{"tool_name":"Read","tool_input":{"file_path":"a.go"}}`, common + " file_path:string"},
		{"search", `{"tool_name":"Grep","tool_input":{"pattern":"x"}}`, common + " search:map[string]interface {}"},
		{"no tool", `{}`, common},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, d, err := Build([]byte(tt.event), Env{Home: "/home/dev", ClientCwd: "/w/p"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := shape(d.Map()), sortedFields(tt.want); got != want {
				t.Errorf("fields\n got  %s\n want %s", got, want)
			}
		})
	}
	_, d, _ := Build([]byte(`{"tool_name":"Bash","tool_input":{"command":"A=1 ls -l src > out.txt"}}`), Env{ClientCwd: "/w/p"})
	cmd := d.Map()["commands"].([]any)[0].(map[string]any)
	want := "args:[]interface {} assigns:map[string]interface {} cwd:string depth:int dry_run:bool dynamic:bool " +
		"flags:[]interface {} glob:bool maybe:[]interface {} name:string operands:[]interface {} paths:[]interface {} " +
		"pipe_from:[]interface {} prefixes:[]interface {} program:string redirects:[]interface {} remote:bool " +
		"subst:[]interface {} text:[]interface {} uses:[]interface {} via:string wrappers:[]interface {} writes:[]interface {} " +
		"repeats:string background:bool"
	if got := shape(cmd); got != sortedFields(want) {
		t.Errorf("command fields\n got  %s\n want %s", got, sortedFields(want))
	}
	if r := cmd["redirects"].([]any)[0].(map[string]any); shape(r) != "op:string path:string prefix:string target:string" {
		t.Errorf("redirect fields %s", shape(r))
	}
}

func shape(m map[string]any) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s:%T", k, v))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func sortedFields(s string) string {
	// Types hold a space ("[]interface {}"): split on the fields' names.
	var fields []string
	for _, f := range strings.Split(strings.ReplaceAll(s, "interface {}", "interface{}"), " ") {
		fields = append(fields, strings.ReplaceAll(f, "interface{}", "interface {}"))
	}
	slices.Sort(fields)
	return strings.Join(fields, " ")
}
