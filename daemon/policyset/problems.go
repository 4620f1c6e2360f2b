package policyset

import (
	"fmt"
	"strings"

	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/wire"
)

// Problems are the policy files that did not load and the config error
// of the last load, for `agentjail try --offline`, which must warn that
// it decides without them.
func (d *Decider) Problems() ([]wire.LoadErr, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]wire.LoadErr(nil), d.loadErrs...), d.configErr
}

// ConfigInForce says what is in force while config.yaml has an error
// (see config.DescribeFallback); "" when it has none.
func (d *Decider) ConfigInForce() string {
	set := d.current.Load()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.configErr == "" {
		return ""
	}
	return config.DescribeFallback(d.configErr, set.configAt, set.unusedLastGood, localTime)
}

// disabledProblem reports config.yaml's disabled_rules ids that no rule
// in force gives its messages: disabling one does nothing, and a typo
// ("git.force_psuh") must not look as if it worked. It is a problem
// (health degraded, status names the id and the nearest real one), not a
// refusal of the whole config: the rest of config.yaml (fail_mode,
// protected_paths, an org fleet whose rules arrive after start-up) stays
// in force, since an id that matches nothing changes nothing.
func disabledProblem(set *policySet, configPath string) *wire.Problem {
	unknown := set.engine.UnknownRuleIDs(set.config.DisabledRules)
	if len(unknown) == 0 {
		return nil
	}
	known := set.engine.RuleIDs()
	msgs := make([]string, len(unknown))
	for i, id := range unknown {
		msgs[i] = fmt.Sprintf("no rule has the id %q", id)
		if near := config.Nearest(id, known); near != "" {
			msgs[i] += fmt.Sprintf(" (did you mean %s?)", near)
		}
	}
	return &wire.Problem{
		Kind:    "config",
		Message: fmt.Sprintf("%s: disabled_rules: %s, so it disables nothing", configPath, strings.Join(msgs, "; ")),
		Fix:     "correct the id in config.yaml (`agentjail try` shows the ids of the rules that fire); the rest of config.yaml is in force",
	}
}

// fillConfig reports the configuration in force beside the fail mode,
// and disabled_rules naming no rule as a problem.
func fillConfig(st *wire.Status, set *policySet, configPath string) {
	c := set.config
	st.DisabledRules = c.DisabledRules
	st.ProtectedPaths = c.ProtectedPaths
	st.AllowedPaths = c.AllowedPaths
	st.PolicyDirs = set.dirs
	notify := c.Notifications
	st.Notifications = &notify
	if p := disabledProblem(set, configPath); p != nil {
		st.Problems = append(st.Problems, *p)
	}
}
