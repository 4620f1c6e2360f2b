package app

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/agentjail/agentjail/internal/approval"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// Remote is the Daemon a tray of its own (`agentjail tray`) shows: a
// client of a daemon that runs elsewhere (the system daemon, under its
// own user), over its socket. Its zero value asks the user's own daemon.
type Remote struct {
	// Client reaches the daemon; nil means a zero wire.Client.
	Client *wire.Client
	// Timeout bounds each request; 0 means 2s. The tray asks every few
	// seconds and must not hang on a daemon that does not answer.
	Timeout time.Duration
	// Log hears of requests that fail; nil means slog.Default().
	Log *slog.Logger
}

func (r *Remote) client() *wire.Client {
	if r.Client != nil {
		return r.Client
	}
	return &wire.Client{}
}

func (r *Remote) ctx() (context.Context, context.CancelFunc) {
	t := r.Timeout
	if t <= 0 {
		t = 2 * time.Second
	}
	return context.WithTimeout(context.Background(), t)
}

func (r *Remote) logger() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.Default()
}

// Status is the daemon's status, nil when it cannot be reached (the
// tray then shows it as not running).
func (r *Remote) Status() *wire.Status {
	ctx, cancel := r.ctx()
	defer cancel()
	st, err := r.client().Status(ctx)
	if err != nil {
		r.logger().Debug("tray: no status from the daemon", "err", err)
		return nil
	}
	return st
}

// RecentDenies are the caller's latest denies, newest first.
func (r *Remote) RecentDenies(n int) []decisionlog.Record {
	recs, err := r.recent(&wire.RecentQuery{Limit: n, Verdict: wire.Deny})
	if err != nil {
		r.logger().Debug("tray: no recent denies from the daemon", "err", err)
		return nil
	}
	for i, j := 0, len(recs)-1; i < j; i, j = i+1, j-1 {
		recs[i], recs[j] = recs[j], recs[i]
	}
	return recs
}

// Pending are the caller's calls waiting for a person, without their
// codes: a tray of its own cannot answer them (the daemon asks a client
// for the code), so it shows them with how to approve in a terminal
// (Tray.BindApprovals with answerHere false).
func (r *Remote) Pending(int, bool) []wire.Pending {
	ctx, cancel := r.ctx()
	defer cancel()
	list, err := r.client().Pending(ctx, false)
	if err != nil {
		r.logger().Debug("tray: no waiting calls from the daemon", "err", err)
		return nil
	}
	return list
}

// errApproveInTerminal: see Pending.
var errApproveInTerminal = errors.New("this tray cannot approve: run `agentjail pending` and `agentjail approve` in a terminal")

// Answer is refused: see Pending.
func (r *Remote) Answer(wire.ApprovalAnswer, approval.Answerer) (string, error) {
	return "", errApproveInTerminal
}

// Watch hears nothing: the tray asks for the waiting calls every few
// seconds.
func (r *Remote) Watch(func(approval.Change)) {}

// Reload asks the daemon to reload its policies and config.
func (r *Remote) Reload() {
	ctx, cancel := r.ctx()
	defer cancel()
	if _, err := r.client().Reload(ctx); err != nil {
		r.logger().Warn("tray: reload failed", "err", err)
	}
}

// recent asks for the decisions q names, oldest first.
func (r *Remote) recent(q *wire.RecentQuery) ([]decisionlog.Record, error) {
	ctx, cancel := r.ctx()
	defer cancel()
	rec, err := r.client().Recent(ctx, q)
	if err != nil {
		return nil, err
	}
	return DecodeRecords(rec.Records), nil
}

// DecodeRecords decodes the records of a wire.Recent answer; one that
// does not decode (from a newer daemon, say) is left out.
func DecodeRecords(raw []json.RawMessage) []decisionlog.Record {
	out := make([]decisionlog.Record, 0, len(raw))
	for _, b := range raw {
		var rec decisionlog.Record
		if json.Unmarshal(b, &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// Follow hands fn every decision of the agents' calls made after it
// starts, oldest first, asking the daemon every interval, until ctx
// ends: what a tray in the daemon hears through Options.OnDecision
// (Tray.Decided), for a tray that runs on its own. Each poll is one
// small request; a daemon that cannot be reached is asked again at the
// next.
func (r *Remote) Follow(ctx context.Context, every time.Duration, fn func(decisionlog.Record)) {
	// Start after the newest decision there is, by the daemon's clock,
	// so nothing made before the tray started is notified.
	var last time.Time
	if recs, err := r.recent(&wire.RecentQuery{Limit: 1}); err == nil && len(recs) > 0 {
		last = recs[len(recs)-1].Time
	} else {
		last = time.Now()
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		recs, err := r.recent(&wire.RecentQuery{After: last.Format(time.RFC3339Nano)})
		if err != nil {
			r.logger().Debug("tray: no new decisions from the daemon", "err", err)
			continue
		}
		for _, rec := range recs {
			if rec.Time.After(last) {
				last = rec.Time
			}
			fn(rec)
		}
	}
}
