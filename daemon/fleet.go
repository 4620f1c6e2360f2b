package daemon

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
)

// fleet is the daemon's side of config.yaml's opa: section: OPA's own
// bundle, decision-log and status plugins (engine.Fleet), restarted when
// the section changes. Org bundles reach the policy set through
// policyset.Decider.AcceptOrg; nothing here is on the decision path.
type fleet struct {
	mu  sync.Mutex
	f   *engine.Fleet
	key string // the prepared configuration f runs with
	err string // why the section could not be started
	// gen is the generation of f: a fleet being replaced may still be
	// activating a download, which must not reach the decider any more.
	gen atomic.Uint64
}

// syncFleet starts, restarts or stops the plugins when config.yaml's
// opa: section (or org_roots) changed since the last load.
func (d *Daemon) syncFleet() {
	cfg := d.decider.Config()
	prepared, _, err := engine.PrepareFleetConfig(cfg.OPA, d.opts.Home)
	key := string(prepared) + "\x00" + strings.Join(cfg.OrgRoots, "\x00")
	r := &d.fleet
	r.mu.Lock()
	defer r.mu.Unlock()
	if key == r.key && err == nil {
		return
	}
	old := r.f
	gen := r.gen.Add(1)
	r.f, r.key, r.err = nil, key, ""
	// The previous configuration's org policy does not stay. It goes
	// before the new plugins start: dropped after, the drop raced with a
	// bundle they accepted at once (a persisted or quick download) and
	// could undo it for good, since the store accepts each bundle once.
	if done, err := d.decider.AcceptOrg(context.Background(), nil); err == nil {
		done(true)
	}
	if err == nil && prepared != nil {
		host, _ := os.Hostname()
		r.f, err = engine.StartFleet(context.Background(), engine.FleetOptions{
			Config:     cfg.OPA,
			Home:       d.opts.Home,
			ID:         host,
			ExtraRoots: cfg.OrgRoots,
			Logger:     d.log,
			Accept: func(ctx context.Context, org engine.Org) (func(bool), error) {
				if r.gen.Load() != gen {
					return nil, fmt.Errorf("the opa: configuration changed; this bundle belongs to the previous one")
				}
				return d.decider.AcceptOrg(ctx, &org)
			},
		})
	}
	if err != nil {
		r.err = err.Error()
		d.log.Error("the opa: section of config.yaml could not be started; no org policy is enforced", "err", err)
	}
	if old != nil {
		go stopFleet(old)
	}
}

// stopFleet stops f, giving its decision-log plugin a moment to upload.
func stopFleet(f *engine.Fleet) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f.Stop(ctx)
}

// closeFleet stops the plugins for good (the daemon is stopping).
func (d *Daemon) closeFleet() {
	r := &d.fleet
	r.mu.Lock()
	f := r.f
	r.f = nil
	r.gen.Add(1)
	r.mu.Unlock()
	if f == nil {
		return
	}
	// A hung collector must not hold the daemon's exit: the plugins get a
	// moment to upload what they hold, then are left to finish alone.
	done := make(chan struct{})
	go func() { stopFleet(f); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		d.log.Warn("OPA's plugins did not stop in time; decisions not yet uploaded may be lost")
	}
}

// fillOrg writes the org policy's state into a status report.
func (d *Daemon) fillOrg(st *wire.Status) {
	r := &d.fleet
	r.mu.Lock()
	f, msg := r.f, r.err
	r.mu.Unlock()
	switch {
	case f != nil:
		st.Org = f.Status()
	case msg != "":
		st.Org = &wire.OrgStatus{Error: msg}
	}
}

// fleetLog sends a decision to the collector through OPA's decision-log
// plugin (when decision_logs is configured), with the fields of the local
// log; the mask policy decides what of them leaves the machine. It runs
// after the answer was sent and only hands the event to OPA's buffer.
func (d *Daemon) fleetLog(rec decisionlog.Record) {
	d.fleet.mu.Lock()
	f := d.fleet.f
	d.fleet.mu.Unlock()
	if f == nil {
		return
	}
	err := f.Log(context.Background(), engine.LogEvent{
		ID:   rec.ID,
		Time: rec.Time,
		Input: map[string]any{
			"agent":      rec.Agent,
			"tool":       rec.Tool,
			"summary":    rec.Summary,
			"cwd":        rec.Cwd,
			"session_id": rec.SessionID,
		},
		Result: map[string]any{
			"verdict":     rec.Verdict,
			"rule_ids":    rec.RuleIDs,
			"reasons":     rec.Reasons,
			"revision":    rec.Revision,
			"eval_us":     rec.EvalMicros,
			"undelivered": rec.Undelivered,
		},
	})
	if err != nil {
		d.log.Warn("the decision could not be handed to OPA's decision-log plugin", "err", err)
	}
}
