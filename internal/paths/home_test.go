package paths

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestHomeWithoutHOME(t *testing.T) {
	tests := []struct {
		name, runtime, want string
	}{
		{"runtime dir first", "/run/user/1000", "/run/user/1000/agentjail"},
		{"relative runtime dir ignored", "run/user", filepath.Join(os.TempDir(), "agentjail-"+strconv.Itoa(os.Getuid()))},
		{"no runtime dir", "", filepath.Join(os.TempDir(), "agentjail-"+strconv.Itoa(os.Getuid()))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AGENTJAIL_HOME", "")
			t.Setenv("HOME", "")
			t.Setenv("XDG_RUNTIME_DIR", tt.runtime)
			if got := Home(); got != tt.want {
				t.Errorf("Home() = %s, want %s", got, tt.want)
			}
		})
	}
}
