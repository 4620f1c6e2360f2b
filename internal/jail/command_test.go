package jail

import "testing"

func TestCommandRoundTrip(t *testing.T) {
	for _, c := range []string{"ls", "echo 'it'\\''s' \"a b\"", "a'b'c", "", "printf '%s\\n' $HOME; cat <<'EOF'\nx\nEOF", "jail 'x'"} {
		w := Command("/home/u/.agentjail/bin/agentjail-hook", "/home/u/.agentjail/jail/ab.json", c)
		got, ok := Original(w)
		if !ok || got != c {
			t.Errorf("Original(Command(%q)) = %q, %v", c, got, ok)
		}
	}
	for _, c := range []string{"ls", "'/bin/agentjail-hook' jail 'p'", "'/bin/sh' jail 'p' 'ls'", "'/x/agentjail-hook' jail 'p' 'ls' 'more'", "'/x/agentjail-hook' jail 'p' 'ls'; rm -rf ~"} {
		if got, ok := Original(c); ok {
			t.Errorf("Original(%q) = %q, want none", c, got)
		}
	}
}
