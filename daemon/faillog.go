package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/wire"
)

// The hook's failure log is the truth of a fail-open: the hook let the
// call run because no daemon judged it in time (none ran, it was
// starting, it was late, the event could not be read). Each "open"
// record becomes one unchecked call in the decision log, with the agent
// of the hook's flag and the call as its event named it, so that logs,
// audit and status tell one story. A record of the same call from the
// agent's post-tool event or its own transcript is the same call
// (account reports each once), never a second row.

// failLogFollower reads the failure log from where it last stopped.
type failLogFollower struct {
	path   string
	offset int64
	since  time.Time // records before it were accounted for by an earlier start
}

func (d *Daemon) newFailLogFollower(since time.Time) *failLogFollower {
	return &failLogFollower{path: filepath.Join(d.opts.Home, paths.FailLogName), since: since}
}

// poll returns the fail-open records appended since the last poll (at
// the first, those after since, from the last failTail of the file).
func (f *failLogFollower) poll() []wire.FailRecord {
	file, err := os.Open(f.path)
	if err != nil {
		return nil
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil
	}
	if fi.Size() < f.offset {
		f.offset = 0 // rotated or truncated
	}
	if f.offset == 0 && fi.Size() > failTail {
		f.offset = fi.Size() - failTail
	}
	if fi.Size() == f.offset {
		return nil
	}
	file.Seek(f.offset, io.SeekStart)
	r := bufio.NewReader(file)
	var out []wire.FailRecord
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			break // a line still being written is read whole next time
		}
		f.offset += int64(len(line))
		var rec wire.FailRecord
		if json.Unmarshal(line, &rec) != nil || rec.Mode != "open" {
			continue
		}
		if at, err := time.Parse(time.RFC3339, rec.Time); err != nil || !at.After(f.since) {
			continue
		}
		out = append(out, rec)
	}
	return out
}

// failedOpenCall is the call a fail-open record names.
func failedOpenCall(rec wire.FailRecord) ranCall {
	at, _ := time.Parse(time.RFC3339, rec.Time)
	c := ranCall{
		Agent: rec.Agent, Session: rec.Session, ID: rec.ToolUseID, Tool: rec.Tool, Cwd: rec.Cwd, Input: rec.Input,
		Time: at, Done: true, Source: sourceFailLog,
		Cause: causeFailOpen + ": " + wire.CauseText(rec.Cause),
	}
	if c.ID == "" && (c.Session == "" || c.Tool == "" || len(c.Input) == 0) {
		// Nothing names the call (a bad event): the record itself does.
		c.Key = fmt.Sprintf("fail\x00%s\x00%s\x00%s", rec.Time, rec.Cause, rec.Error)
	}
	return c
}

// lateUnchecked accounts for a call whose answer its hook did not wait
// for: a hook that fails open let it run unchecked. Its failure record
// names the same call, which is then not reported again.
func (d *Daemon) lateUnchecked(c ranCall) {
	c.Source, c.Done = sourceLate, true
	c.Cause = causeFailOpen + ": " + wire.CauseText(wire.CauseTimeout)
	if c.ID == "" && (c.Session == "" || c.Tool == "" || len(c.Input) == 0) {
		c.Key = "late\x00" + newID() // nothing else names it: reported as itself
	}
	d.account([]ranCall{c}, time.Now())
}
