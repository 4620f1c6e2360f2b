package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// Every command shows times the same way: local time, to the second.
// JSON output keeps RFC 3339 in UTC, which programs read.
const timeLayout = "2006-01-02 15:04:05"

// localTime shows an RFC 3339 time in timeLayout, local time; text that
// is not a time is shown as it is.
func localTime(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return rfc3339
	}
	return t.Local().Format(timeLayout)
}

// ago says how long a duration is the way people say it: "40 seconds",
// "1 minute", "3 hours", "2 days".
func ago(d time.Duration) string {
	n, unit := int64(d/time.Second), "second"
	switch {
	case d >= 48*time.Hour:
		n, unit = int64(d/(24*time.Hour)), "day"
	case d >= 2*time.Hour:
		n, unit = int64(d/time.Hour), "hour"
	case d >= time.Minute:
		n, unit = int64(d/time.Minute), "minute"
	}
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", max(n, 0), unit)
}

// colours paints verdict words on a terminal: deny red, ask yellow,
// allow and ok green. Off when the output is not a terminal (a pipe, a
// file, a test) or NO_COLOR is set (https://no-color.org).
type colours struct{ on bool }

func coloursFor(w io.Writer) colours {
	return colours{on: isTerminal(w) && os.Getenv("NO_COLOR") == ""}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

const (
	red    = "31"
	yellow = "33"
	green  = "32"
)

func (c colours) paint(code, text string) string {
	if !c.on || code == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// verdictColour is the colour of a verdict.
func verdictColour(v wire.Verdict) string {
	switch v {
	case wire.Deny:
		return red
	case wire.Ask:
		return yellow
	case wire.Allow:
		return green
	}
	return ""
}
