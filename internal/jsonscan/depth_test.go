package jsonscan_test

import (
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/jsonscan"
)

func TestTooDeep(t *testing.T) {
	objects := func(n int) string { return strings.Repeat(`{"a":`, n) + `1` + strings.Repeat("}", n) }
	arrays := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"flat event", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, false},
		{"objects at the bound", objects(jsonscan.MaxDepth), false},
		{"objects one past the bound", objects(jsonscan.MaxDepth + 1), true},
		{"arrays past the bound", `{"a":` + arrays(jsonscan.MaxDepth) + `}`, true},
		{"arrays at the bound", `{"a":` + arrays(jsonscan.MaxDepth-1) + `}`, false},
		{"past Go's decoder limit", objects(20000), true},
		{"unclosed, as broken JSON", strings.Repeat("[", 5000), true},
		{"brackets inside a string", `{"command":"` + strings.Repeat("{[", 5000) + `"}`, false},
		{"escaped quote keeps the string open", `{"command":"\"` + strings.Repeat("[", 5000) + `"}`, false},
		{"escaped backslash closes the string", `{"c":"\\",` + `"d":` + arrays(jsonscan.MaxDepth) + `}`, true},
		{"wide but shallow", `{"a":[` + strings.Repeat(`{"b":[1]},`, 5000) + `1]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonscan.TooDeep([]byte(tt.in)); got != tt.want {
				t.Errorf("TooDeep = %v, want %v", got, tt.want)
			}
		})
	}
}
