package policyset

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentjail/agentjail/internal/config"
	"github.com/agentjail/agentjail/internal/engine"
)

// The org bundles' policy reaches the set in force here: the daemon runs
// OPA's plugins (its fleet.go) and hands each bundle they activate to
// AcceptOrg; config.yaml's opa: section is checked as OPA would at every
// load.

// checkFleetConfig validates the opa: section as OPA would.
func checkFleetConfig(path, home string, cfg config.Config) error {
	if err := engine.CheckFleetConfig(cfg.OPA, home); err != nil {
		return fmt.Errorf("%s: %w; see docs/fleets.md", path, err)
	}
	return nil
}

// fleetData adds to the policies' data what the fleet brings: the org
// bundles' data under data.agentjail.org, and the persisted bundles'
// folder to data.config.policy_dirs, so no agent can change what the
// daemon would enforce after a restart.
func (d *Decider) fleetData(data map[string]any, cfg config.Config, org *engine.Org) {
	if _, dir, err := engine.PrepareFleetConfig(cfg.OPA, d.home); err == nil && dir != "" {
		c := data["config"].(map[string]any)
		c["policy_dirs"] = append(c["policy_dirs"].([]any), dir)
	}
	if org != nil && org.Data != nil {
		data["agentjail"] = map[string]any{"org": org.Data}
	}
}

// orgSources are the org policy's sources in force (loadMu held).
func (d *Decider) orgSources() []engine.Source {
	if d.org == nil {
		return nil
	}
	return d.org.Sources
}

// AcceptOrg compiles org (nil: none) with the pack and the user's files
// of the set in force. When it compiles, it returns how to put it in
// force once the bundle's activation is committed; until then no load
// runs. Errors in the org's files refuse the bundle; a user file that
// breaks only with it is left out, as at a load.
func (d *Decider) AcceptOrg(ctx context.Context, org *engine.Org) (func(bool), error) {
	d.loadMu.Lock()
	unlock := true
	defer func() {
		if unlock {
			d.loadMu.Unlock()
		}
	}()
	if org != nil && len(org.Sources) == 0 && org.Data == nil {
		org = nil
	}
	if org == nil && d.org == nil {
		unlock = false
		return func(bool) { d.loadMu.Unlock() }, nil // nothing changes
	}
	set := d.current.Load()
	pack, err := PackSources(d.pack, false)
	if err != nil {
		return nil, err
	}
	data := policyData(set.config)
	d.fleetData(data, set.config, org)
	if org != nil {
		pack = append(pack, org.Sources...)
	}
	eng, errs := engine.Compile(ctx, append(pack, set.user...), data, set.config.DisabledRules)
	if eng == nil {
		var orgErrs []string
		for _, e := range errs {
			if e.File == "" || strings.HasPrefix(e.File, "bundle/") {
				orgErrs = append(orgErrs, e.String())
			}
		}
		if len(orgErrs) > 0 {
			return nil, fmt.Errorf("the org policy does not compile with the local policies: %s", strings.Join(orgErrs, "; "))
		}
		if eng = d.compileWithout(ctx, pack, set.user, errs, data, set.config.DisabledRules); eng == nil {
			return nil, fmt.Errorf("the org policy does not compile: %v", errs)
		}
	}
	unlock = false
	return func(committed bool) {
		defer d.loadMu.Unlock()
		if !committed {
			return
		}
		d.org = org
		next := *set // the same config and its fallback facts, a new engine
		next.engine, next.loadedAt = eng, time.Now()
		d.current.Store(&next)
	}, nil
}
