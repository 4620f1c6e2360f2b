package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agentjail/agentjail/internal/wire"
)

// A small pack with a table the org rule reads, so a user file can try to
// change what the org rule sees.
const orgTestPack = `package agentjail
import rego.v1

approved_tools contains "Read"

deny contains {"id": "self.kill", "msg": "never kill the guard"} if input.tool_name == "Kill"
`

const orgTestPolicy = `package agentjail.org
import rego.v1

deny contains {"id": "org.no_curl", "msg": "org: no curl"} if {
	input.tool_name == "Bash"
	contains(input.tool_input.command, "curl ")
}

ask contains {"id": "org.unapproved", "msg": "org: unapproved tool"} if {
	input.tool_name != "Bash"
	not data.agentjail.approved_tools[input.tool_name]
}

deny contains {"id": "org.blocked_host", "msg": sprintf("org: %s is blocked", [h])} if {
	some h in data.agentjail.org.blocked_hosts
	contains(input.tool_input.command, h)
}
`

func orgBash(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

func TestOrgRulesAreLocked(t *testing.T) {
	pack := Source{Name: "default/pack.rego", Text: []byte(orgTestPack), Pack: true}
	org := Source{Name: "bundle/acme/agentjail/org/policy.rego", Text: []byte(orgTestPolicy), Org: true}
	orgData := map[string]any{"agentjail": map[string]any{"org": map[string]any{"blocked_hosts": []any{"evil.example"}}}}
	tests := []struct {
		name     string
		user     string
		disabled []string
		input    map[string]any
		want     wire.Verdict
		wantRule string // an org rule id that must be in the decision
	}{
		{name: "org deny fires", input: orgBash("curl https://x.example"), want: wire.Deny, wantRule: "org.no_curl"},
		{name: "look-alike: no curl, allowed", input: orgBash("echo curling"), want: wire.Allow},
		{name: "org data reaches org rules", input: orgBash("ping evil.example"), want: wire.Deny, wantRule: "org.blocked_host"},
		{name: "look-alike: another host", input: orgBash("ping good.example"), want: wire.Allow},
		{name: "disabled_rules naming the org rule changes nothing", disabled: []string{"org.no_curl", "org.blocked_host"}, input: orgBash("curl https://x.example"), want: wire.Deny, wantRule: "org.no_curl"},
		{name: "disabled_rules still disables a user rule", disabled: []string{"user.no_ls"}, user: "package agentjail\nimport rego.v1\ndeny contains {\"id\": \"user.no_ls\", \"msg\": \"no ls\"} if input.tool_input.command == \"ls\"\n", input: orgBash("ls"), want: wire.Allow},
		{name: "a local allow cannot outvote an org deny", user: "package agentjail\nimport rego.v1\nallow contains {\"id\": \"user.ok\", \"msg\": \"fine\"} if input.tool_name == \"Bash\"\n", input: orgBash("curl https://x.example"), want: wire.Deny, wantRule: "org.no_curl"},
		{name: "a user file extending the table the org rule reads does not silence it", user: "package agentjail\nimport rego.v1\napproved_tools contains \"Write\"\n", input: map[string]any{"tool_name": "Write"}, want: wire.Ask, wantRule: "org.unapproved"},
		{name: "look-alike: a tool the pack approves", input: map[string]any{"tool_name": "Read"}, want: wire.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sources := []Source{pack, org}
			if tt.user != "" {
				sources = append(sources, Source{Name: "/home/u/.agentjail/policies/user.rego", Text: []byte(tt.user)})
			}
			e, errs := Compile(context.Background(), sources, orgData, tt.disabled)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			d, err := e.Eval(context.Background(), tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", d.Verdict, d.Reason, tt.want)
			}
			if tt.wantRule == "" {
				return
			}
			found := false
			for _, r := range d.Rules {
				if r.ID == tt.wantRule {
					found = true
					if !r.Org {
						t.Errorf("rule %s not marked as the org's", r.ID)
					}
				}
			}
			if !found {
				t.Errorf("rule %s missing from %+v", tt.wantRule, d.Rules)
			}
		})
	}
}

func TestOrgModulesStayInTheirPackage(t *testing.T) {
	pack := Source{Name: "default/pack.rego", Text: []byte(orgTestPack), Pack: true}
	tests := []struct {
		name    string
		src     Source
		wantErr string // "" means it compiles
	}{
		{name: "org module outside agentjail.org", src: Source{Name: "bundle/acme/x.rego", Org: true, Text: []byte("package agentjail\nimport rego.v1\nallow contains \"x\" if true\n")}, wantErr: "outside agentjail.org"},
		{name: "org module in a sub-package", src: Source{Name: "bundle/acme/lib.rego", Org: true, Text: []byte("package agentjail.org.lib\nimport rego.v1\nbad(x) if x == 1\n")}},
		{name: "user file defining the org package", src: Source{Name: "/p/user.rego", Text: []byte("package agentjail.org\nimport rego.v1\ndeny := set()\n")}, wantErr: "reserved"},
		{name: "user rule named org", src: Source{Name: "/p/user.rego", Text: []byte("package agentjail\nimport rego.v1\norg := {}\n")}, wantErr: "reserved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Compile(context.Background(), []Source{pack, tt.src}, nil, nil)
			got := ""
			for _, e := range errs {
				got += e.String() + "\n"
			}
			switch {
			case tt.wantErr == "" && got != "":
				t.Fatalf("refused: %s", got)
			case tt.wantErr != "" && !strings.Contains(got, tt.wantErr):
				t.Fatalf("errors %q, want one containing %q", got, tt.wantErr)
			}
		})
	}
}
