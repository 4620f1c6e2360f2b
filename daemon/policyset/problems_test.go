package policyset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

// disabled_rules naming no rule in force is a problem status shows (the
// id, the nearest real one), the rest of the config staying in force;
// ids of the pack and of the user's own rules are fine.
func TestDisabledRulesMustNameARule(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		user    string // a user policy file, "" for none
		wantErr string // "" when the config is in force
	}{
		{"a pack rule", "disabled_rules: [git.force_push]\n", "", ""},
		{"a typo", "disabled_rules: [git.force_psuh]\n", "", `disabled_rules: no rule has the id "git.force_psuh" (did you mean git.force_push?)`},
		{"nothing like it", "disabled_rules: [nonsense]\n", "", `no rule has the id "nonsense", so`},
		{"a user rule", "disabled_rules: [team.no_ls]\n", "package agentjail\n\ndeny contains {\"id\": \"team.no_ls\", \"msg\": \"no\"} if input.x\n", ""},
		{"a user rule in a folder of policy_dirs", "policy_dirs: [{dir}]\ndisabled_rules: [team.no_ls]\n", "package agentjail\n\ndeny contains {\"id\": \"team.no_ls\", \"msg\": \"no\"} if input.x\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			dir := filepath.Join(home, "policies")
			if strings.Contains(tt.config, "{dir}") {
				dir = filepath.Join(home, "more")
			}
			os.MkdirAll(dir, 0o700)
			if tt.user != "" {
				os.WriteFile(filepath.Join(dir, "team.rego"), []byte(tt.user), 0o600)
			}
			os.WriteFile(filepath.Join(home, "config.yaml"), []byte(strings.ReplaceAll(tt.config, "{dir}", dir)), 0o600)
			d, err := New(context.Background(), Options{Pack: policies.FS, Home: home, UserHome: home})
			if err != nil {
				t.Fatal(err)
			}
			st := &wire.Status{}
			d.FillStatus(st)
			if st.ConfigError != "" || len(d.Config().DisabledRules) != 1 {
				t.Fatalf("config error %q, disabled %v", st.ConfigError, d.Config().DisabledRules)
			}
			var got []string
			for _, p := range st.Problems {
				got = append(got, p.Message)
			}
			if tt.wantErr == "" && len(got) > 0 {
				t.Errorf("problems %q", got)
			}
			if tt.wantErr != "" && (len(got) != 1 || !strings.Contains(got[0], tt.wantErr) || !strings.Contains(got[0], "so it disables nothing")) {
				t.Errorf("problems %q, want %q", got, tt.wantErr)
			}
		})
	}
}
