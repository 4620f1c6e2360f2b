package daemon

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// recentBudget bounds the records of one OpRecent answer, below
// wire.MaxFrame with room for the envelope: a record is bounded (a
// clipped summary, the rules' messages) but a thousand of them need
// not be.
const recentBudget = wire.MaxFrame - 4<<10

// recent answers an OpRecent request from caller with the decisions
// the log keeps in memory that the caller may see (see visibleTo).
func (d *Daemon) recent(q *wire.RecentQuery, caller int) (*wire.Recent, *wire.Error) {
	if q == nil {
		q = &wire.RecentQuery{}
	}
	keep, err := recentFilter(q, caller, d.opts.System)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 || limit > wire.MaxRecent {
		limit = wire.MaxRecent
	}
	recs := d.decisions.Latest(limit, keep) // newest first
	out := &wire.Recent{Records: []json.RawMessage{}}
	size := 0
	for i, r := range recs {
		b, jerr := json.Marshal(r)
		if jerr != nil {
			continue
		}
		if size += len(b) + 1; size > recentBudget {
			out.Omitted = len(recs) - i
			break
		}
		out.Records = append(out.Records, b)
	}
	// Oldest first, as the log reads.
	for i, j := 0, len(out.Records)-1; i < j; i, j = i+1, j-1 {
		out.Records[i], out.Records[j] = out.Records[j], out.Records[i]
	}
	return out, nil
}

// recentFilter is what an OpRecent request keeps: the records caller
// may see that match q.
func recentFilter(q *wire.RecentQuery, caller int, system bool) (func(decisionlog.Record) bool, *wire.Error) {
	switch q.Verdict {
	case "", wire.Allow, wire.Ask, wire.Deny:
	default:
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("recent: unknown verdict %q: allow, ask or deny", q.Verdict)}
	}
	switch q.Source {
	case "", wire.SourceTry, wire.RecentAllSources:
	default:
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("recent: unknown source %q: none, %q or %q", q.Source, wire.SourceTry, wire.RecentAllSources)}
	}
	var after time.Time
	if q.After != "" {
		t, err := time.Parse(time.RFC3339Nano, q.After)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("recent: after %q is not an RFC 3339 time", q.After)}
		}
		after = t
	}
	return func(r decisionlog.Record) bool {
		return visibleTo(r, caller, system) &&
			(q.Verdict == "" || r.Verdict == string(q.Verdict)) &&
			(q.Source == wire.RecentAllSources || r.Source == q.Source) &&
			(after.IsZero() || r.Time.After(after))
	}, nil
}

// visibleTo says whether caller may see r. A user's daemon serves only
// its own user, who sees every decision. The system daemon serves every
// local user: each sees the decisions of their own calls, root sees
// all, and a decision whose caller is not known (nil UID) is root's to
// see alone, since it may be anyone's.
func visibleTo(r decisionlog.Record, caller int, system bool) bool {
	if !system || caller == 0 {
		return true
	}
	return r.UID != nil && *r.UID == caller && caller >= 0
}
