package engine

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/agentjail/agentjail/internal/wire"
)

// OrgPackage is the package of an org bundle's policies, under the bundle
// root OrgRoot. Its deny, ask and allow sets join every verdict beside the
// default pack and the user's files, and all its rules are locked:
// disabled_rules cannot switch them off and no user file can define
// anything under it (see reservedRoots).
const OrgPackage = "agentjail.org"

// OrgRoot is the bundle root org policies and data live under.
const OrgRoot = "agentjail/org"

var orgRoot = ast.MustParseRef("data." + OrgPackage)

// origins sorts sources into the pack's and the org bundles'.
func origins(sources []Source) (pack, org map[string]bool) {
	pack, org = map[string]bool{}, map[string]bool{}
	for _, s := range sources {
		switch {
		case s.Pack:
			pack[s.Name] = true
		case s.Org:
			org[s.Name] = true
		}
	}
	return pack, org
}

// lockedModules is every module whose rules are locked: the pack (for its
// self.* rules) and the org bundles.
func lockedModules(pack, org map[string]bool) map[string]bool {
	locked := make(map[string]bool, len(pack)+len(org))
	for name := range pack {
		locked[name] = true
	}
	for name := range org {
		locked[name] = true
	}
	return locked
}

// orgMessages converts the org sets of one verdict query result, each
// rule marked as the org's (and so locked).
func orgMessages(b rego.Vars) []wire.Rule {
	var rules []wire.Rule
	for _, set := range []struct {
		kind wire.Verdict
		name string
	}{{wire.Deny, "org_deny"}, {wire.Ask, "org_ask"}, {wire.Allow, "org_allow"}} {
		for _, r := range messages(set.kind, b[set.name]) {
			r.Org = true
			rules = append(rules, r)
		}
	}
	return rules
}
