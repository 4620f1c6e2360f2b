package app

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/decisionlog"
	"github.com/agentjail/agentjail/internal/wire"
)

type sent struct {
	mu   sync.Mutex
	list []string
}

func (s *sent) send(title, body string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, title+" | "+body)
	return nil
}

func (s *sent) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

func TestNotifierCoalescesBursts(t *testing.T) {
	var s sent
	n := NewNotifier(s.send, nil)
	r := decisionlog.Record{Tool: "Bash", Summary: "rm -rf ~", RuleIDs: []string{"fs.rm_catastrophic"}, Reasons: []string{"Blocked: home"}, Verdict: "deny"}
	for range 50 {
		n.Deny(r)
	}
	deadline := time.Now().Add(3 * CoalesceWindow)
	for len(s.all()) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	got := s.all()
	if len(got) != 2 || got[0] != "agentjail blocked Bash (fs.rm_catastrophic) | rm -rf ~\nBlocked: home" || got[1] != "agentjail | and 49 more blocked" {
		t.Errorf("notifications %q", got)
	}
}

func TestNotifierPauseAndErrors(t *testing.T) {
	var s sent
	n := NewNotifier(s.send, nil)
	n.Pause(time.Now().Add(time.Hour))
	n.Deny(decisionlog.Record{Verdict: "deny"})
	time.Sleep(50 * time.Millisecond)
	if len(s.all()) != 0 {
		t.Errorf("paused notifier sent %q", s.all())
	}
	errs := 0
	var mu sync.Mutex
	failing := NewNotifier(func(string, string) error { return errors.New("no notification server") }, func(error) { mu.Lock(); errs++; mu.Unlock() })
	failing.Deny(decisionlog.Record{Verdict: "deny"})
	failing.now = func() time.Time { return time.Now().Add(time.Hour) }
	failing.Deny(decisionlog.Record{Verdict: "deny"})
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if errs != 1 {
		t.Errorf("the error was reported %d times, want once", errs)
	}
}

// Status tells the fate of the last notification sent: a failure and
// why, a later delivery clearing it; one not sent because notifications
// are off changes nothing.
func TestNotifierReportsTheLastDelivery(t *testing.T) {
	var fail error
	n := NewNotifier(func(string, string) error { return fail }, nil)
	if got := n.Status(); got.State != wire.NotifyNone || got.At != "" {
		t.Errorf("before any: %+v", got)
	}
	steps := []struct {
		name  string
		err   error
		state string
		title string
		why   string
	}{
		{"failed", errors.New("org.freedesktop.Notifications was not provided"), wire.NotifyFailed, "first", "was not provided"},
		{"off is not a failure, nor a delivery", ErrOff, wire.NotifyFailed, "first", "was not provided"},
		{"delivered clears it", nil, wire.NotifyDelivered, "third", ""},
		{"off again keeps the delivery", ErrOff, wire.NotifyDelivered, "third", ""},
	}
	titles := []string{"first", "second", "third", "fourth"}
	for i, s := range steps {
		fail = s.err
		n.deliver(titles[i], "body", time.Now())
		got := n.Status()
		if got.State != s.state || got.Title != s.title || !strings.Contains(got.Error, s.why) || (s.why == "") != (got.Error == "") || got.At == "" {
			t.Errorf("%s: %+v", s.name, got)
		}
	}
}
