package daemon

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

// Each caller of the system daemon sees the decisions of its own calls;
// root sees every one; a user's daemon shows its user everything.
func TestRecentFilter(t *testing.T) {
	uid := func(n int) *int { return &n }
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mine := decisionlog.Record{Time: at, Verdict: "deny", UID: uid(1000)}
	theirs := decisionlog.Record{Time: at, Verdict: "deny", UID: uid(1001)}
	unknown := decisionlog.Record{Time: at, Verdict: "deny"}
	try := decisionlog.Record{Time: at, Verdict: "allow", UID: uid(1000), Source: decisionlog.SourceTry}
	tests := []struct {
		name   string
		q      wire.RecentQuery
		caller int
		system bool
		rec    decisionlog.Record
		want   bool
	}{
		{"system: my own", wire.RecentQuery{}, 1000, true, mine, true},
		{"system: another user's", wire.RecentQuery{}, 1000, true, theirs, false},
		{"system: whose unknown", wire.RecentQuery{}, 1000, true, unknown, false},
		{"system: root sees another's", wire.RecentQuery{}, 0, true, theirs, true},
		{"system: root sees an unknown caller's", wire.RecentQuery{}, 0, true, unknown, true},
		{"system: no peer uid", wire.RecentQuery{}, -1, true, unknown, false},
		{"user daemon: everything", wire.RecentQuery{}, 1000, false, theirs, true},
		{"verdict kept", wire.RecentQuery{Verdict: wire.Deny}, 1000, true, mine, true},
		{"verdict left out", wire.RecentQuery{Verdict: wire.Allow}, 1000, true, mine, false},
		{"after: earlier left out", wire.RecentQuery{After: at.Format(time.RFC3339Nano)}, 1000, true, mine, false},
		{"after: later kept", wire.RecentQuery{After: at.Add(-time.Nanosecond).Format(time.RFC3339Nano)}, 1000, true, mine, true},
		{"a try left out by default", wire.RecentQuery{}, 1000, true, try, false},
		{"a try with source try", wire.RecentQuery{Source: wire.SourceTry}, 1000, true, try, true},
		{"an agent's call left out with source try", wire.RecentQuery{Source: wire.SourceTry}, 1000, true, mine, false},
		{"both with source all", wire.RecentQuery{Source: wire.RecentAllSources}, 1000, true, try, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep, err := recentFilter(&tt.q, tt.caller, tt.system)
			if err != nil {
				t.Fatal(err)
			}
			if got := keep(tt.rec); got != tt.want {
				t.Errorf("kept %v, want %v", got, tt.want)
			}
		})
	}
	for _, q := range []wire.RecentQuery{{Verdict: "maybe"}, {Source: "hook"}, {After: "yesterday"}} {
		if _, err := recentFilter(&q, 1000, true); err == nil || err.Code != wire.CodeBadRequest {
			t.Errorf("%+v: got %v, want a bad_request error", q, err)
		}
	}
}

// However large the records, an answer fits in a frame: it keeps the
// newest and says how many older ones it left out.
func TestRecentAnswerFitsAFrame(t *testing.T) {
	l := decisionlog.New(decisionlog.Options{Path: t.TempDir() + "/decisions.jsonl"})
	defer l.Close()
	d := &Daemon{decisions: l}
	long := strings.Repeat("r", 4000)
	for i := range wire.MaxRecent {
		l.Append(decisionlog.Record{ID: fmt.Sprint(i), Verdict: "deny", Reasons: []string{long}})
	}
	rec, err := d.recent(&wire.RecentQuery{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Omitted == 0 || len(rec.Records)+rec.Omitted != wire.MaxRecent {
		t.Fatalf("%d records, %d omitted: want %d in all, some left out", len(rec.Records), rec.Omitted, wire.MaxRecent)
	}
	b, _ := json.Marshal(wire.Response{Recent: rec})
	if len(b) > wire.MaxFrame {
		t.Errorf("the answer is %d bytes, over a frame", len(b))
	}
	var last decisionlog.Record
	json.Unmarshal(rec.Records[len(rec.Records)-1], &last)
	if want := fmt.Sprint(wire.MaxRecent - 1); last.ID != want {
		t.Errorf("the last record is %q, want the newest, %s", last.ID, want)
	}
}
