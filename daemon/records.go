package daemon

import (
	"context"
	"os"
	"time"

	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/toolrecords"
)

// recordsPoll is how often the agents' records of tool calls are read:
// an unchecked call is reported within a few seconds.
const recordsPoll = 2 * time.Second

// maxLater bounds the calls kept for another look (within their grace).
const maxLater = 4096

// followRecords reads the agents' own records of the tool calls they
// made (toolrecords: Claude Code's transcripts, Codex's session files,
// ...) until ctx ends, and accounts for every call in them. The system
// daemon does not: each user's records are their own.
func (d *Daemon) followRecords(ctx context.Context) {
	if !d.readsRecords() {
		return
	}
	var roots []toolrecords.Root
	for _, a := range agents.All {
		roots = append(roots, toolrecords.Roots(d.opts.UserHome, os.Getenv, a.Name, a.Records)...)
	}
	since := d.recordsSince()
	f := toolrecords.NewFollower(toolrecords.Options{Roots: roots, Since: since})
	fails := d.newFailLogFollower(d.failLogSince())
	tick := time.NewTicker(recordsPoll)
	defer tick.Stop()
	var later []ranCall
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-d.transcripts:
			if a, ok := agents.Named(p.agent); ok && len(a.Records) > 0 {
				f.Follow(a.Name, a.Records[0].Format, p.path)
			}
		case <-tick.C:
			calls, stats := f.Poll()
			d.ledger.mu.Lock()
			d.ledger.counts.RecordFiles = stats.Files
			d.ledger.mu.Unlock()
			ran := later
			for _, rec := range fails.poll() {
				ran = append(ran, failedOpenCall(rec))
			}
			for _, c := range calls {
				ran = append(ran, ranCall{Agent: c.Agent, Session: c.Session, ID: c.ID, Tool: c.Tool, Cwd: c.Cwd, Input: unjailed(c.Input), Time: c.Time, Subagent: c.Subagent, Source: sourceRecord})
			}
			later = d.account(ran, time.Now())
			if len(later) > maxLater {
				later = later[len(later)-maxLater:]
			}
		}
	}
}

// readsRecords reports whether this daemon reads the agents' records: a
// user's daemon does; the system daemon does not (each user's records are
// their own).
func (d *Daemon) readsRecords() bool { return !d.opts.System && d.opts.UserHome != "" }

// recordsSince is where the records are read from: the last decision the
// log holds from before this start (so calls made while the daemon was
// down are accounted for), at most a day back; with no decision at all,
// now: calls made before agentjail was installed are not unchecked.
func (d *Daemon) recordsSince() time.Time {
	now := time.Now()
	last := d.decisions.Latest(1, func(r decisionlog.Record) bool { return r.Source == "" })
	if len(last) == 0 || now.Sub(last[0].Time) > 24*time.Hour {
		return now
	}
	return last[0].Time
}

// failLogSince is where the hook's failure log is read from: the last
// decision logged (the previous daemon accounted for what came before),
// else a day back: a hook fails open only once agentjail is installed,
// so every record in the log is of a call made under it.
func (d *Daemon) failLogSince() time.Time {
	dayAgo := time.Now().Add(-24 * time.Hour)
	last := d.decisions.Latest(1, func(r decisionlog.Record) bool { return r.Source == "" })
	if len(last) == 0 || last[0].Time.Before(dayAgo) {
		return dayAgo
	}
	return last[0].Time
}

// transcriptPath is a record file a hook event named.
type transcriptPath struct{ agent, path string }

// followTranscript asks followRecords to read path too (a transcript_path
// an event named, wherever the agent keeps it). It never blocks.
func (d *Daemon) followTranscript(agent, path string) {
	if path == "" || d.transcripts == nil {
		return
	}
	d.followedMu.Lock()
	seen := d.followed[path]
	if !seen {
		if len(d.followed) > 1000 {
			clear(d.followed)
		}
		d.followed[path] = true
	}
	d.followedMu.Unlock()
	if seen {
		return
	}
	select {
	case d.transcripts <- transcriptPath{agent, path}:
	default:
	}
}
